/* bench/measure/batch_loops.c: see batch_loops.h. */
#include <stdbool.h>
#include <stdlib.h>
#include "batch_loops.h"
#include "loops.h"
#include "../clock/timing.h"
#include "../../common/endian.h"

int fkc_batch_keys_make(const fkc_keyset *ks, fkc_batch_keys *bk)
{
    bk->count = ks->count;
    bk->ints = NULL;
    bk->ptrs = NULL;
    bk->lens = NULL;
    size_t n = ks->count ? ks->count : 1;
    if (!ks->off && ks->width == 8) {
        bk->ints = malloc(n * sizeof *bk->ints);
        if (!bk->ints)
            return -1;
        for (size_t i = 0; i < ks->count; i++)
            bk->ints[i] = fk_le_get64(ks->bytes + i * 8);
        return 0;
    }
    bk->ptrs = malloc(n * sizeof *bk->ptrs);
    bk->lens = malloc(n * sizeof *bk->lens);
    if (!bk->ptrs || !bk->lens) {
        fkc_batch_keys_free(bk);
        return -1;
    }
    for (size_t i = 0; i < ks->count; i++) {
        bk->ptrs[i] = fkc_key_ptr(ks, i);
        bk->lens[i] = fkc_key_len(ks, i);
    }
    return 0;
}

void fkc_batch_keys_free(fkc_batch_keys *bk)
{
    free(bk->ints);
    free(bk->ptrs);
    free(bk->lens);
    bk->ints = NULL;
    bk->ptrs = NULL;
    bk->lens = NULL;
}

uint64_t fkc_time_insert_batches(fk_filter *f, const fkc_batch_keys *bk, uint64_t *ns)
{
    uint64_t bad = 0;
    uint64_t t0 = fkc_now_ns();
    for (size_t at = 0; at < bk->count;) {
        size_t m = bk->count - at < FKC_BENCH_BATCH ? bk->count - at : FKC_BENCH_BATCH, done = 0;
        fk_status s = bk->ints ? fk_filter_insert_many_u64(f, m, bk->ints + at, &done)
                               : fk_filter_insert_many(f, m, bk->ptrs + at, bk->lens + at, &done);
        at += done;
        if (s != FK_OK) { /* the failing key: counted, skipped */
            bad++;
            at++;
        }
    }
    *ns = fkc_now_ns() - t0;
    return bad;
}

uint64_t fkc_time_lookup_batches(const fk_filter *f, const fkc_batch_keys *bk, uint64_t *ns)
{
    bool out[FKC_BENCH_BATCH];
    uint64_t hits = 0;
    uint64_t t0 = fkc_now_ns();
    for (size_t at = 0; at < bk->count; at += FKC_BENCH_BATCH) {
        size_t m = bk->count - at < FKC_BENCH_BATCH ? bk->count - at : FKC_BENCH_BATCH;
        if (bk->ints)
            fk_filter_contains_many_u64(f, m, bk->ints + at, out);
        else
            fk_filter_contains_many(f, m, bk->ptrs + at, bk->lens + at, out);
        for (size_t j = 0; j < m; j++)
            hits += out[j];
    }
    *ns = fkc_now_ns() - t0;
    fkc_sink += hits;
    return hits;
}
