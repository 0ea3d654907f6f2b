/* bench/report/emit.h: prints result rows in the format asked for and
 * writes them to the result files; shared by `bench` and `sweep`. */
#ifndef FKC_BENCH_EMIT_H
#define FKC_BENCH_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include "result.h"

/* Prints rows on stdout in `format` (table, wide: the table with every
 * column, csv or json) and, unless dir is
 * "-", writes DIR/STEM.csv and .json. load selects the load-sweep schema.
 * Returns 0, or 1 when a file could not be written. */
int fkc_emit(const char *format, const char *title, int load, const fkc_result *rows, size_t n,
            const char *dir, const char *stem, uint64_t seed);

#endif
