/* bench/filterfile.h: opening a saved filter named on the command line
 * (query, info). */
#ifndef FK_BENCH_FILTERFILE_H
#define FK_BENCH_FILTERFILE_H

#include <stdint.h>
#include "../common/serial.h"

/* Loads the filter saved in the file at path, of any built-in kind, fully
 * validated (fk_filter_load_any). head and bytes, when not NULL, receive the
 * decoded header and the file size. Returns 0; on failure prints
 * "filterkit CMD: PATH: reason" on stderr and returns -1 (*out NULL). */
int fk_filterfile_load(const char *cmd, const char *path, fk_filter **out,
                       fk_serial_head *head, uint64_t *bytes);

#endif
