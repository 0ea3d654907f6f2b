/* bench/measure/grid.h: runs a grid of measurements (kinds x n x fpr) into
 * rows, shared by `bench`, `sweep` and `pick` (report/emit.h prints them). */
#ifndef FKC_BENCH_GRID_H
#define FKC_BENCH_GRID_H

#include <stddef.h>
#include "measure.h"
#include "../report/report.h"
#include "../report/emit.h"

/* A growing array of result rows. */
typedef struct {
    fkc_result *rows;
    size_t     n, cap;
} fkc_rows;

/* Appends a row; returns 0 or -1 when out of memory. */
int fkc_rows_push(fkc_rows *rs, const fkc_result *r);
void fkc_rows_free(fkc_rows *rs);

typedef struct {
    const fk_ops *const *kinds;
    size_t        nkinds;
    fkc_keyspec    keys;
    const uint64_t *ns;
    size_t        nn;
    const double *fprs;
    size_t        nf;
    unsigned      repeat;
    uint64_t      lookups; /* 0 = automatic */
    int           fill;
    const char   *who;     /* "bench", "sweep": prefix of messages */
    const uint64_t *growths; /* growing kinds start at n / growth, one row per
                                growth (NULL: growth 1 only); the other kinds
                                run once, at the first growth */
    size_t        ng;
    unsigned      threads; /* > 0: also thread scaling (bench --threads) */
} fkc_grid;

/* Measures every kind at every (n, fpr), appending one row each. A kind
 * that cannot be created at a point (e.g. libbloom below 1000 items) is
 * skipped with a note on stderr. Returns 0, or 1 after printing why the
 * keys could not be made. */
int fkc_grid_run(const fkc_grid *g, fkc_rows *out);

#endif
