/* bench/figures/expandable_sizing.c: what the expandable filter's sizing
 * gives over a growth, run by bench/figures/expandable_sizing.sh (not a
 * test: it measures). One line of Markdown table per call.
 *
 *   expandable_sizing C GROWTH FPR PROBES [SEED]
 *
 * makes the filter for capacity C and target FPR (the expected growth left
 * at its default), inserts GROWTH C distinct keys and, each time the table
 * is full (just before the insert that doubles it: the worst point of each
 * generation) and at the end, measures the FPR over PROBES fresh absent
 * keys. Prints F and W, bits per key at the end (all memory, fk_stats, over
 * the keys held) and the table's own allocation per key, the worst
 * measured FPR with the doubling it was seen at, the filter's union bound
 * at that point, and false negatives over every inserted key at the end. */
#include <stdio.h>
#include <stdlib.h>
#include "../../expandable/expandable.h"
#include "../../expandable/expandable_internal.h"

static uint64_t key_of(uint64_t i, uint64_t seed)
{
    uint64_t z = i * UINT64_C(0x9E3779B97F4A7C15) + seed * UINT64_C(0xD1B54A32D192ED03) + 1;
    z = (z ^ (z >> 31)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 29);
}

/* inserted keys: ids below 2^62; probes: ids from 2^62 up, fresh each time */
#define PROBE_BASE (UINT64_C(1) << 62)

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
    fk_expandable *xf = NULL;
    if (cap == 0 || growth == 0 || fk_expandable_new(&p, &xf) != FK_OK) {
        fprintf(stderr, "expandable_sizing: cannot make C=%s fpr=%s\n", argv[1], argv[3]);
        return 1;
    }
    fk_filter *f = fk_expandable_as_filter(xf);
    uint64_t n = cap * growth, next_probe = PROBE_BASE, fn = 0;
    double worst = 0, worst_bound = 0;
    unsigned worst_g = 0;
    for (uint64_t i = 0; i <= n; i++) {
        fk_stats st;
        fk_filter_stats(f, &st);
        if (i == n || st.items == st.capacity) { /* full, or the end */
            uint64_t fp = 0;
            for (uint64_t k = 0; k < probes; k++)
                fp += fk_expandable_contains_u64(xf, key_of(next_probe++, seed));
            double m = (double)fp / (double)probes;
            fk_expandable_description d;
            fk_expandable_describe(xf, &d);
            if (m >= worst) {
                worst = m;
                worst_g = d.doublings;
                worst_bound = st.expected_fpr;
            }
        }
        if (i < n && fk_expandable_insert_u64(xf, key_of(i, seed)) != FK_OK) {
            fprintf(stderr, "expandable_sizing: insert %llu failed\n", (unsigned long long)i);
            return 1;
        }
    }
    for (uint64_t i = 0; i < n; i++)
        fn += !fk_expandable_contains_u64(xf, key_of(i, seed));
    fk_stats st;
    fk_filter_stats(f, &st);
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    double table_bits = 8.0 * (double)(fk_xf_table_bytes(d.slots, d.slot_bits) - FK_XF_PAD);
    printf("| %g | %llu | %llu | %u | %u | %u | %.2f | %.2f | %.3g (G = %u) | %.3g | %llu |\n",
           fpr, (unsigned long long)cap, (unsigned long long)growth, d.fingerprint_bits,
           d.slot_bits, d.doublings, 8.0 * (double)st.memory_bytes / (double)n,
           table_bits / (double)n, worst, worst_g, worst_bound, (unsigned long long)fn);
    fk_expandable_free(xf);
    return 0;
}
