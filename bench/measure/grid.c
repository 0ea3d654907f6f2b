/* bench/measure/grid.c: see grid.h. */
#include <stdlib.h>
#include <string.h>
#include "../clock/progress.h"
#include "../baselines/runnable_kinds.h"
#include "grid.h"

int fkc_rows_push(fkc_rows *rs, const fkc_result *r)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? 2 * rs->cap : 16;
        fkc_result *p = realloc(rs->rows, cap * sizeof *p);
        if (!p)
            return -1;
        rs->rows = p;
        rs->cap = cap;
    }
    rs->rows[rs->n++] = *r;
    return 0;
}

void fkc_rows_free(fkc_rows *rs)
{
    free(rs->rows);
    memset(rs, 0, sizeof *rs);
}

int fkc_grid_run(const fkc_grid *g, fkc_rows *out)
{
    double min_fpr = 1;
    for (size_t j = 0; j < g->nf; j++)
        if (g->fprs[j] < min_fpr)
            min_fpr = g->fprs[j];
    /* steps: the keys of each n, then each repeat of each kind at each
     * (fpr, growth) (fkc_measure_kinds counts them) */
    size_t ngrowth = g->growths && g->ng ? g->ng : 1;
    uint64_t growing = 0;
    for (size_t k = 0; k < g->nkinds; k++)
        growing += (fk_ops_caps(g->kinds[k]) & FK_CAP_GROWS) != 0;
    uint64_t per_n = (uint64_t)g->nf * ((uint64_t)g->nkinds + (ngrowth - 1) * growing);
    fkc_progress_begin(g->who, g->nn * (1 + per_n * (g->repeat ? g->repeat : 1)));
    for (size_t i = 0; i < g->nn; i++) {
        fkc_bench_keys keys;
        char err[256];
        fkc_progress_step("generating keys for n=%llu", (unsigned long long)g->ns[i]);
        if (fkc_bench_keys_make(&g->keys, g->ns[i], min_fpr, g->lookups, &keys, err, sizeof err)) {
            fkc_progress_end();
            fprintf(stderr, "filterkit %s: %s\n", g->who, err);
            return 1;
        }
        if (keys.n < g->ns[i])
            fprintf(stderr, "filterkit %s: note: the key file has only %llu distinct lines; n=%llu\n",
                    g->who, (unsigned long long)keys.n, (unsigned long long)keys.n);
        size_t ng = g->growths && g->ng ? g->ng : 1;
        for (size_t j = 0; j < g->nf * ng; j++) {
            fkc_measure_cfg cfg[FKC_KINDS_MAX];
            fkc_result r[FKC_KINDS_MAX];
            fk_status st[FKC_KINDS_MAX];
            const fk_ops *run[FKC_KINDS_MAX];
            double fpr = g->fprs[j / ng];
            uint64_t growth = g->growths && g->ng ? g->growths[j % ng] : 1;
            size_t nk = 0;
            for (size_t k = 0; k < g->nkinds && nk < FKC_KINDS_MAX; k++)
                if (j % ng == 0 || (fk_ops_caps(g->kinds[k]) & FK_CAP_GROWS))
                    run[nk++] = g->kinds[k];
            for (size_t k = 0; k < nk; k++)
                cfg[k] = (fkc_measure_cfg){ run[k], fpr, g->repeat, g->fill, growth, g->threads };
            fkc_measure_kinds(cfg, nk, &keys, r, st);
            for (size_t k = 0; k < nk; k++) {
                if (st[k] != FK_OK) {
                    fkc_progress_clear();
                    fprintf(stderr, "filterkit %s: note: %s at n=%llu fpr=%g: %s; skipped\n", g->who,
                            run[k]->name, (unsigned long long)keys.n, fpr, fk_strerror(st[k]));
                    continue;
                }
                if (fkc_rows_push(out, &r[k])) {
                    fkc_bench_keys_free(&keys);
                    fkc_progress_end();
                    fprintf(stderr, "filterkit %s: out of memory\n", g->who);
                    return 1;
                }
            }
        }
        fkc_bench_keys_free(&keys);
    }
    fkc_progress_end();
    return 0;
}
