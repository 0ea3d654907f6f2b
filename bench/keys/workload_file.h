/* bench/keys/workload_file.h: keys from the lines of a file, the part of
 * fk_workload_make that workload.c hands files to (not used elsewhere). */
#ifndef FK_BENCH_WORKLOAD_FILE_H
#define FK_BENCH_WORKLOAD_FILE_H

#include <stddef.h>
#include <stdint.h>
#include "workload.h"

/* The file part of fk_workload_make. */
int fk_workload_from_file(const fk_keyspec *spec, size_t npos, size_t nneg, fk_workload *w,
                          char *err, size_t errlen);

#endif
