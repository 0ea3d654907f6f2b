/* bench/report/units.h: sizes for people: 1198134 -> "1.1 MiB". */
#ifndef FKC_BENCH_UNITS_H
#define FKC_BENCH_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Writes b in the largest binary unit that keeps it >= 1 ("812 B",
 * "1.1 MiB", "64.0 GiB", up to EiB), one decimal past bytes; UINT64_MAX
 * (a size that overflowed) reads "more than 16 EiB". */
void fkc_human_bytes(uint64_t b, char *buf, size_t len);

#endif
