/* bench/figures/insn_lookup.c: the loops whose instructions
 * bench/figures/insn_count.sh counts with callgrind: one call per key
 * through the kind's fk_ops (an indirect call, as the bench makes), 8-byte
 * keys, a filter sized for n.
 * insert_loop inserts n keys; lookup_loop then looks up those n and n
 * absent ones. callgrind counts one of them (--toggle-collect), so
 * Ir / calls is the cost of one call, loop included.
 *
 *   usage: insn_lookup KIND N FPR [CAPACITY]
 *   (CAPACITY, default N: a growing kind starts there and grows to N)
 *   environment:
 *     FK_INSN_CONCURRENT=1  insert_loop calls the insert_concurrent slot
 *     FK_INSN_U64=1         both loops go through fk_filter_contains_u64 /
 *                           fk_filter_insert_u64 (the kind's u64 slots, or
 *                           their byte fallbacks) instead of the byte slots
 *     FK_INSN_BATCH=1       lookup_loop_batch instead: the same keys through
 *                           fk_filter_contains_many_u64, 1024 at a time
 *     FK_INSN_INSERT_BATCH=1  insert_loop_batch instead of insert_loop: the
 *                           same keys through fk_filter_insert_many_u64 (with
 *                           FK_INSN_CONCURRENT=1, _u64_concurrent), 1024 at a
 *                           time
 *     FK_INSN_STREAM=K      insert_loop inserts K n distinct keys (default 1):
 *                           a sliding window's steady state, its sweeps
 *                           included (window with K = 10: the bench's
 *                           stream); the present keys are the last n
 *     FK_INSN_LOOKUP=both   lookup_loop's n keys: both (the n present then
 *                           n absent, the default), absent (n absent),
 *                           present (the n present) or mixed (n keys, each
 *                           present or absent by a coin flip)
 *   prints: LOOKUPS lookups, HITS hits, INSERTS inserts */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/filter.h"
#include "../../registry/registry.h"

typedef bool (*contains_fn)(const fk_filter *, const void *, size_t);

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Not inlined: callgrind counts this function and what it calls. */
__attribute__((noinline)) static uint64_t lookup_loop(contains_fn has, const fk_filter *f,
                                                      const uint64_t *keys, size_t n)
{
    uint64_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += has(f, &keys[i], sizeof keys[i]);
    return hits;
}

typedef fk_status (*insert_fn)(fk_filter *, const void *, size_t);

/* The u64 forms, through the public dispatchers (an extern call, as an app
 * makes, then the kind's slot). */
__attribute__((noinline)) static uint64_t lookup_loop_u64(const fk_filter *f, const uint64_t *keys,
                                                          size_t n)
{
    uint64_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += fk_filter_contains_u64(f, keys[i]);
    return hits;
}

__attribute__((noinline)) static size_t insert_loop_u64(fk_filter *f, const uint64_t *keys,
                                                        size_t n)
{
    size_t failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += fk_filter_insert_u64(f, keys[i]) != FK_OK;
    return failed;
}

/* Not inlined, for the same reason; returns the number of failed inserts. */
__attribute__((noinline)) static size_t insert_loop(insert_fn add, fk_filter *f,
                                                    const uint64_t *keys, size_t n)
{
    size_t failed = 0;
    for (size_t i = 0; i < n; i++)
        failed += add(f, &keys[i], sizeof keys[i]) != FK_OK;
    return failed;
}

/* The batch form: fk_filter_contains_many_u64 over blocks of 1024 keys. */
__attribute__((noinline)) static uint64_t lookup_loop_batch(const fk_filter *f,
                                                            const uint64_t *keys, size_t n)
{
    static bool out[1024];
    uint64_t hits = 0;
    for (size_t at = 0; at < n; at += 1024) {
        size_t m = n - at < 1024 ? n - at : 1024;
        fk_filter_contains_many_u64(f, m, keys + at, out);
        for (size_t j = 0; j < m; j++)
            hits += out[j];
    }
    return hits;
}

typedef fk_status (*insert_many_u64_fn)(fk_filter *, size_t, const uint64_t *, size_t *);

/* The batch insert: blocks of 1024 keys through fk_filter_insert_many_u64
 * or its concurrent twin; returns the keys not inserted. */
__attribute__((noinline)) static size_t insert_loop_batch(insert_many_u64_fn add_many,
                                                          fk_filter *f, const uint64_t *keys,
                                                          size_t n)
{
    size_t failed = 0;
    for (size_t at = 0; at < n; at += 1024) {
        size_t m = n - at < 1024 ? n - at : 1024, done = 0;
        add_many(f, m, keys + at, &done);
        failed += m - done;
    }
    return failed;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fputs("usage: insn_lookup KIND N FPR [CAPACITY]\n", stderr);
        return 2;
    }
    const fk_ops *ops = fk_ops_find(argv[1]);
    size_t n = (size_t)strtoull(argv[2], NULL, 10);
    fk_params p = fk_params_make(argc == 5 ? strtoull(argv[4], NULL, 10) : n, strtod(argv[3], NULL));
    fk_filter *f = NULL;
    const char *stream_env = getenv("FK_INSN_STREAM");
    size_t stream = stream_env && *stream_env ? (size_t)strtoull(stream_env, NULL, 10) : 1;
    if (stream < 1)
        stream = 1;
    /* keys: the stream n inserted, then n absent, then n mixed */
    uint64_t *all = malloc((stream + 2) * n * sizeof *all);
    uint64_t *keys = all ? all + (stream - 1) * n : NULL; /* the last n inserted */
    /* a static kind (FK_CAP_STATIC) is built from the n keys instead: its
     * lookups are counted, its build is not an insert loop */
    bool is_static = ops && (fk_ops_caps(ops) & FK_CAP_STATIC);
    if (!ops || !keys || (is_static && stream != 1) || (!is_static && fk_filter_new(ops, &p, &f) != FK_OK)) {
        fputs("insn_lookup: bad kind or params\n", stderr);
        free(all);
        return 1;
    }
    uint64_t s = 42;
    for (size_t i = 0; i < (stream + 1) * n; i++) /* the stream, then n absent */
        all[i] = splitmix(&s);
    const char *conc = getenv("FK_INSN_CONCURRENT");
    insert_fn add = ops->insert;
    if (conc && *conc == '1') {
        if (!FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent)) {
            fputs("insn_lookup: the kind has no concurrent insert\n", stderr);
            return 1;
        }
        add = ops->insert_concurrent;
    }
    const char *ibatch = getenv("FK_INSN_INSERT_BATCH");
    insert_many_u64_fn add_many = NULL;
    if (ibatch && *ibatch == '1')
        add_many = add == ops->insert ? fk_filter_insert_many_u64
                                      : fk_filter_insert_many_u64_concurrent;
    const char *u64 = getenv("FK_INSN_U64");
    bool by_u64 = u64 && *u64 == '1';
    if (by_u64 && add != ops->insert) {
        fputs("insn_lookup: FK_INSN_U64 has no concurrent form\n", stderr);
        return 1;
    }
    /* which keys lookup_loop sees: a window of keys[], or (mixed) keys
     * drawn into the spare third */
    const char *which = getenv("FK_INSN_LOOKUP");
    const uint64_t *probe = keys;
    size_t lookups = 2 * n;
    if (which && strcmp(which, "absent") == 0) {
        probe = keys + n;
        lookups = n;
    } else if (which && strcmp(which, "present") == 0) {
        lookups = n;
    } else if (which && strcmp(which, "mixed") == 0) {
        uint64_t *mix = keys + 2 * n;
        for (size_t i = 0; i < n; i++)
            mix[i] = keys[i + (splitmix(&s) & 1) * n];
        probe = mix;
        lookups = n;
    } else if (which && strcmp(which, "both") != 0) {
        fputs("insn_lookup: FK_INSN_LOOKUP is both, absent, present or mixed\n", stderr);
        return 2;
    }
    if (is_static) {
        if (fk_filter_build_u64(ops, &p, n, keys, &f) != FK_OK) {
            fputs("insn_lookup: the build failed\n", stderr);
            return 1;
        }
    } else if ((add_many ? insert_loop_batch(add_many, f, all, stream * n)
                : by_u64 ? insert_loop_u64(f, all, stream * n)
                         : insert_loop(add, f, all, stream * n)) != 0) {
        return 1;
    }
    const char *batch = getenv("FK_INSN_BATCH");
    uint64_t hits = batch && *batch == '1' ? lookup_loop_batch(f, probe, lookups)
                    : by_u64               ? lookup_loop_u64(f, probe, lookups)
                                           : lookup_loop(ops->contains, f, probe, lookups);
    printf("%zu lookups, %llu hits, %zu inserts\n", lookups, (unsigned long long)hits,
           is_static ? n : stream * n);
    fk_filter_free(f);
    free(all);
    return 0;
}
