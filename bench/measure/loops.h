/* bench/measure/loops.h: the timed loops, shared by measure.c and measure_load.c.
 * Each walks a contiguous key array, makes one indirect call per key
 * through a function pointer taken from the kind's fk_ops, allocates
 * nothing, and reads the clock only before and after the loop. */
#ifndef FKC_BENCH_LOOPS_H
#define FKC_BENCH_LOOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../clock/timing.h"
#include "../keys/workload.h"
#include "../../common/filter.h"

/* Lookup answers end up here, so no lookup can be optimized away. */
extern volatile uint64_t fkc_sink; /* defined in measure.c */

typedef fk_status (*fkc_update_fn)(fk_filter *, const void *, size_t);
typedef bool (*fkc_contains_fn)(const fk_filter *, const void *, size_t);

/* ------------------------------------------------------- timed loops */

/* Calls op on keys [from, to) of ks; returns how many did not answer
 * FK_OK and stores the elapsed ns in *ns. (insert and remove share it.) */
static inline uint64_t fkc_time_updates(fkc_update_fn op, fk_filter *f, const fkc_keyset *ks,
                                       size_t from, size_t to, uint64_t *ns)
{
    const uint8_t *p = ks->bytes;
    uint64_t bad = 0;
    uint64_t t0 = fkc_now_ns();
    if (!ks->off) {
        const size_t w = ks->width;
        for (size_t i = from; i < to; i++)
            bad += op(f, p + i * w, w) != FK_OK;
    } else {
        const uint64_t *off = ks->off;
        for (size_t i = from; i < to; i++)
            bad += op(f, p + off[i], (size_t)(off[i + 1] - off[i])) != FK_OK;
    }
    *ns = fkc_now_ns() - t0;
    return bad;
}

/* Like fkc_time_updates but stops at the first insert that fails; returns the
 * index of that key (to when all succeeded). */
static inline size_t fkc_time_inserts_until_fail(fkc_update_fn op, fk_filter *f,
                                                const fkc_keyset *ks, size_t from, size_t to,
                                                uint64_t *ns)
{
    const uint8_t *p = ks->bytes;
    size_t i = from;
    uint64_t t0 = fkc_now_ns();
    if (!ks->off) {
        const size_t w = ks->width;
        for (; i < to; i++)
            if (op(f, p + i * w, w) != FK_OK)
                break;
    } else {
        const uint64_t *off = ks->off;
        for (; i < to; i++)
            if (op(f, p + off[i], (size_t)(off[i + 1] - off[i])) != FK_OK)
                break;
    }
    *ns = fkc_now_ns() - t0;
    return i;
}

/* Looks up every key of ks; returns the number of "maybe present"
 * answers and stores the elapsed ns in *ns. */
static inline uint64_t fkc_time_lookups(fkc_contains_fn has, const fk_filter *f, const fkc_keyset *ks,
                                       uint64_t *ns)
{
    const uint8_t *p = ks->bytes;
    const size_t n = ks->count;
    uint64_t hits = 0;
    uint64_t t0 = fkc_now_ns();
    if (!ks->off) {
        const size_t w = ks->width;
        for (size_t i = 0; i < n; i++)
            hits += has(f, p + i * w, w);
    } else {
        const uint64_t *off = ks->off;
        for (size_t i = 0; i < n; i++)
            hits += has(f, p + off[i], (size_t)(off[i + 1] - off[i]));
    }
    *ns = fkc_now_ns() - t0;
    fkc_sink += hits;
    return hits;
}

/* The integer calls: fk_filter_insert_u64 on keys[0, n) (returns how many
 * did not answer FK_OK), fk_filter_contains_u64 on each (returns the
 * "maybe present" answers); *ns = elapsed time. One public call per key,
 * as an app makes (the dispatcher, then the kind's slot). */
static inline uint64_t fkc_time_updates_u64(fk_filter *f, const uint64_t *keys, size_t n,
                                            uint64_t *ns)
{
    uint64_t bad = 0;
    uint64_t t0 = fkc_now_ns();
    for (size_t i = 0; i < n; i++)
        bad += fk_filter_insert_u64(f, keys[i]) != FK_OK;
    *ns = fkc_now_ns() - t0;
    return bad;
}

static inline uint64_t fkc_time_lookups_u64(const fk_filter *f, const uint64_t *keys, size_t n,
                                            uint64_t *ns)
{
    uint64_t hits = 0;
    uint64_t t0 = fkc_now_ns();
    for (size_t i = 0; i < n; i++)
        hits += fk_filter_contains_u64(f, keys[i]);
    *ns = fkc_now_ns() - t0;
    fkc_sink += hits;
    return hits;
}

#endif
