/* bench/figures/expandable_sizing.c: what the expandable filter's sizing
 * gives over a growth, run by bench/figures/expandable_sizing.sh (not a
 * test: it measures). One line of Markdown table per call.
 *
 *   expandable_sizing C GROWTH FPR PROBES [SEED]
 *
 * makes the filter (through the registry and the generic calls) for
 * capacity C and target FPR, its expected growth left at the default,
 * inserts GROWTH C distinct 8-byte keys and, each time the table is full
 * (just before the insert that doubles it: the worst point of each
 * generation) and at the end, measures the FPR over PROBES fresh absent
 * keys. Prints F and W (describe rows), the doublings, bits per key at the
 * end (fk_stats' memory_bytes, all of it, over the keys held; the
 * describe row bits_per_entry says the same), the worst measured FPR with
 * the doubling it was seen at, the filter's union bound (stats'
 * expected_fpr) at that point, and the false negatives over every
 * inserted key at the end. */
#include <stdio.h>
#include <stdlib.h>
#include "../../common/filter.h"
#include "../../registry/registry.h"

static uint64_t key_of(uint64_t i, uint64_t seed)
{
    uint64_t z = i * UINT64_C(0x9E3779B97F4A7C15) + seed * UINT64_C(0xD1B54A32D192ED03) + 1;
    z = (z ^ (z >> 31)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 29);
}

/* inserted keys: ids below 2^62; probes: ids from 2^62 up, fresh each time */
#define PROBE_BASE (UINT64_C(1) << 62)

static uint64_t row_u64(const fk_filter *f, const char *name)
{
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    if (fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n) != FK_OK)
        return 0;
    const fk_describe_row *r = fk_describe_find(rows, n, name);
    return r && r->type == FK_DESCRIBE_U64 ? r->value.u64 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: expandable_sizing C GROWTH FPR PROBES [SEED]\n");
        return 2;
    }
    uint64_t cap = strtoull(argv[1], NULL, 10), growth = strtoull(argv[2], NULL, 10);
    double fpr = strtod(argv[3], NULL);
    uint64_t probes = strtoull(argv[4], NULL, 10);
    uint64_t seed = argc > 5 ? strtoull(argv[5], NULL, 10) : 1;
    fk_params p = fk_params_make(cap, fpr);
    p.seed = seed;
    const fk_ops *ops = fk_ops_find("expandable");
    fk_filter *f = NULL;
    if (!ops || cap == 0 || growth == 0 || fk_filter_new(ops, &p, &f) != FK_OK) {
        fprintf(stderr, "expandable_sizing: cannot make C=%s fpr=%s\n", argv[1], argv[3]);
        return 1;
    }
    uint64_t n = cap * growth, next_probe = PROBE_BASE, fn = 0;
    double worst = 0, worst_bound = 0;
    uint64_t worst_g = 0;
    for (uint64_t i = 0; i <= n; i++) {
        fk_stats st;
        fk_filter_stats(f, &st);
        if (i == n || st.items == st.capacity) { /* full, or the end */
            uint64_t fp = 0;
            for (uint64_t k = 0; k < probes; k++)
                fp += fk_filter_contains_u64(f, key_of(next_probe++, seed));
            double m = (double)fp / (double)probes;
            if (m >= worst) {
                worst = m;
                worst_g = row_u64(f, "doublings");
                worst_bound = st.expected_fpr;
            }
        }
        if (i < n && fk_filter_insert_u64(f, key_of(i, seed)) != FK_OK) {
            fprintf(stderr, "expandable_sizing: insert %llu failed\n", (unsigned long long)i);
            return 1;
        }
    }
    for (uint64_t i = 0; i < n; i++)
        fn += !fk_filter_contains_u64(f, key_of(i, seed));
    fk_stats st;
    fk_filter_stats(f, &st);
    printf("| %g | %llu | %llux | %llu | %llu | %llu | %.2f | %.3f%% (G = %llu) | %.3f%% | %llu |\n",
           fpr, (unsigned long long)cap, (unsigned long long)growth,
           (unsigned long long)row_u64(f, "fingerprint_bits"),
           (unsigned long long)row_u64(f, "slot_bits"), (unsigned long long)row_u64(f, "doublings"),
           8.0 * (double)st.memory_bytes / (double)n, 100 * worst, (unsigned long long)worst_g,
           100 * worst_bound, (unsigned long long)fn);
    fk_filter_free(f);
    return 0;
}
