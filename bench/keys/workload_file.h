/* bench/keys/workload_file.h: keys from the lines of a file, the part of
 * fkc_workload_make that workload.c hands files to (not used elsewhere). */
#ifndef FKC_BENCH_WORKLOAD_FILE_H
#define FKC_BENCH_WORKLOAD_FILE_H

#include <stddef.h>
#include <stdint.h>
#include "workload.h"

/* The file part of fkc_workload_make. */
int fkc_workload_from_file(const fkc_keyspec *spec, size_t npos, size_t nneg, fkc_workload *w,
                          char *err, size_t errlen);

#endif
