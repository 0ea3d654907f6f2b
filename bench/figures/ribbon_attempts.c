/* bench/figures/ribbon_attempts.c: how often a standard ribbon's first
 * attempt finds no solution, by set size and overhead eps (the figures
 * behind ribbon.c's eps_for and PAPER_NOTES "Ribbon: Gaussian elimination
 * on a band"). Not part of `make test`.
 *
 *   usage: ribbon_attempts N EPS TRIALS [R]
 *
 * Builds TRIALS sets of N random distinct 8-byte keys (one shard: N at
 * most 2^20) at r = R result bits (default 7) with the slots forced to
 * ceil((1 + EPS) N) rounded up to 64 (EPS 0: the library's own eps), and
 * prints how many needed more than one attempt, and the slots per key.
 * Every build is checked for false negatives (exit 1 on one). */
#include <stdio.h>
#include <stdlib.h>
#include "../../ribbon/ribbon.h"
#include "../../ribbon/ribbon_internal.h" /* the eps knob, the attempts */

int main(int argc, char **argv)
{
    if (argc < 4) {
        fputs("usage: ribbon_attempts N EPS TRIALS [R]\n", stderr);
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10);
    double eps = atof(argv[2]);
    int trials = atoi(argv[3]);
    uint32_t r = argc > 4 ? (uint32_t)atoi(argv[4]) : 7;
    if (n == 0 || n > FK_RIBBON_SHARD_KEYS || trials < 1 || r < 1 || r > 32) {
        fputs("ribbon_attempts: N in 1..2^20, TRIALS >= 1, R in 1..32\n", stderr);
        return 2;
    }
    fk_ribbon_testing.eps = eps;
    uint64_t *keys = malloc(8 * n), x = 12345;
    int retried = 0;
    double slots = 0;
    for (int t = 0; t < trials; t++) {
        for (uint64_t i = 0; i < n; i++) {
            x += UINT64_C(0x9e3779b97f4a7c15);
            keys[i] = x * UINT64_C(0xbf58476d1ce4e5b9) ^ (x >> 29);
        }
        fk_params p = fk_params_make(0, 0.01);
        p.fingerprint_bits = r;
        p.seed = (uint64_t)t;
        fk_ribbon *rb = NULL;
        fk_status s = fk_ribbon_build_u64(&p, n, keys, &rb);
        if (s != FK_OK) {
            printf("build failed: %s\n", fk_status_name(s));
            return 1;
        }
        retried += rb->built.attempts > 1;
        slots = (double)rb->geom.slots / (double)rb->items;
        for (uint64_t i = 0; i < n; i++)
            if (!fk_ribbon_contains_u64(rb, keys[i])) {
                puts("FAIL: a false negative");
                return 1;
            }
        fk_ribbon_free(rb);
    }
    printf("n=%llu eps=%.3f r=%u: first attempt failed in %d of %d sets; %.4f slots per key\n",
           (unsigned long long)n, eps, r, retried, trials, slots);
    free(keys);
    return 0;
}
