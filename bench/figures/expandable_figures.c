/* bench/figures/expandable_figures.c: the growth workload of issue 43.
 * Usage: expandable_figures N0 DOUBLINGS FPR PROBES
 * Starts each filter at N0 keys (fpr FPR) and inserts random 64-bit keys
 * up to N0 2^DOUBLINGS; at each doubling point prints, per filter, bits per
 * key (all memory / keys), the measured FPR over PROBES absent keys and
 * the ns per absent lookup (single calls, then batches); at the end the
 * inserts' ns per key over the whole growth. Filters: expandable (grown
 * from N0), scalable-cuckoo (grown from N0), quotient grown in place with
 * fk_filter_grow (made for FPR at N0, grown when full), and a cuckoo
 * filter and a quotient filter made for the final size from the start
 * (the latter the same table design as expandable's, without growth).
 * One run, one machine: ratios are the figure; the last table gives the
 * ratios of expandable's ns to the pre-sized filters' at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../registry/registry.h"
#include "../../expandable/expandable.h"

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

enum { K_EXP, K_SCC, K_QF, K_CUCKOO, K_QF_END, K_N };
static const char *names[K_N] = { "expandable", "scalable-cuckoo", "quotient (grow in place)",
                                  "cuckoo (sized for the end)", "quotient (sized for the end)" };

int main(int argc, char **argv)
{
    uint64_t n0 = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000;
    unsigned D = argc > 2 ? (unsigned)atoi(argv[2]) : 10;
    double fpr = argc > 3 ? atof(argv[3]) : 0.001;
    uint64_t probes = argc > 4 ? strtoull(argv[4], NULL, 10) : 1000000;
    uint64_t nmax = n0 << D;
    uint64_t *keys = malloc(nmax * 8), *absent = malloc(probes * 8);
    bool *out = malloc(probes);
    uint64_t s = 42;
    for (uint64_t i = 0; i < nmax; i++)
        keys[i] = mix(&s) | 1; /* odd keys inserted, even keys probed */
    for (uint64_t i = 0; i < probes; i++)
        absent[i] = mix(&s) & ~UINT64_C(1);
    fk_filter *f[K_N];
    double ins_ns[K_N] = { 0 };
    for (int k = 0; k < K_N; k++) {
        fk_params p = fk_params_make(k == K_CUCKOO || k == K_QF_END ? nmax : n0, fpr);
        p.seed = 7;
        const char *kind = k == K_EXP ? "expandable" : k == K_SCC ? "scalable-cuckoo"
                         : k == K_QF || k == K_QF_END ? "quotient" : "cuckoo";
        if (fk_filter_new(fk_ops_find(kind), &p, &f[k]) != FK_OK) {
            fprintf(stderr, "cannot make %s\n", kind);
            return 1;
        }
    }
    printf("| keys | doublings | filter | bits/key | measured FPR | absent lookup ns (single) | (batch) |\n");
    printf("|---|---|---|---|---|---|---|\n");
    uint64_t done = 0;
    double last_ns[K_N] = { 0 }, last_batch_ns[K_N] = { 0 };
    bool dead[K_N] = { false }; /* the quotient filter stops when r reaches its minimum */
    for (unsigned g = 0; g <= D; g++) {
        uint64_t upto = n0 << g;
        for (int k = 0; k < K_N; k++) {
            double t0 = now_ns();
            for (uint64_t i = done; i < upto && !dead[k]; i++) {
                fk_status st = fk_filter_insert_u64(f[k], keys[i]);
                while (st == FK_EFULL && k == K_QF) {
                    if (fk_filter_grow(f[k]) != FK_OK) {
                        dead[k] = true;
                        break;
                    }
                    st = fk_filter_insert_u64(f[k], keys[i]);
                }
                if (dead[k]) {
                    printf("| %llu | %u | %s | cannot double again (r at its minimum) | | | |\n",
                           (unsigned long long)i, g, names[k]);
                    break;
                }
                if (st != FK_OK) {
                    fprintf(stderr, "%s: insert %llu: %s\n", names[k], (unsigned long long)i,
                            fk_strerror(st));
                    return 1;
                }
            }
            ins_ns[k] += now_ns() - t0;
        }
        done = upto;
        for (int k = 0; k < K_N; k++) {
            if (dead[k])
                continue;
            fk_stats st;
            fk_filter_stats(f[k], &st);
            double best = 1e30, bbest = 1e30;
            uint64_t fp = 0;
            for (int rep = 0; rep < 3; rep++) {
                uint64_t hits = 0;
                double t0 = now_ns();
                for (uint64_t i = 0; i < probes; i++)
                    hits += fk_filter_contains_u64(f[k], absent[i]);
                double t = (now_ns() - t0) / (double)probes;
                best = t < best ? t : best;
                fp = hits;
                t0 = now_ns();
                fk_filter_contains_many_u64(f[k], probes, absent, out);
                t = (now_ns() - t0) / (double)probes;
                bbest = t < bbest ? t : bbest;
            }
            last_ns[k] = best;
            last_batch_ns[k] = bbest;
            printf("| %llu | %u | %s | %.2f | %.5f%% | %.1f | %.1f |\n", (unsigned long long)upto, g,
                   names[k], 8.0 * (double)st.memory_bytes / (double)upto,
                   100.0 * (double)fp / (double)probes, best, bbest);
        }
        fflush(stdout);
    }
    printf("\n| filter | insert ns per key over the whole growth | / pre-sized cuckoo |\n|---|---|---|\n");
    for (int k = 0; k < K_N; k++)
        printf("| %s | %.1f | %.2f |\n", names[k], ins_ns[k] / (double)nmax,
               ins_ns[k] / ins_ns[K_CUCKOO]);
    printf("\n| at the end: expandable's absent-lookup ns / | single | batch |\n|---|---|---|\n");
    for (int k = K_CUCKOO; k <= K_QF_END; k++)
        printf("| %s | %.2f | %.2f |\n", names[k], last_ns[K_EXP] / last_ns[k],
               last_batch_ns[K_EXP] / last_batch_ns[k]);
    fk_expandable_description d;
    fk_expandable_describe((fk_expandable *)(void *)f[K_EXP], &d);
    printf("\nexpandable: W = %u, F = %u, doublings %u, voids %llu, lengths in use %u..%u\n",
           d.slot_bits, d.fingerprint_bits, d.doublings, (unsigned long long)d.voids, d.shortest,
           d.longest);
    for (int k = 0; k < K_N; k++)
        fk_filter_free(f[k]);
    free(keys);
    free(absent);
    free(out);
    return 0;
}
