/* bench/figures/static_lookups.c: absent-key lookups of the two static
 * kinds side by side, in one process, on a loaded machine: fuse and
 * ribbon built from the same N keys at the same FPR, then ROUNDS rounds
 * each timing 2^21 absent lookups of each filter, single-key
 * (fk_filter_contains_u64) and batched (fk_filter_contains_many_u64),
 * the two filters alternating so that load swings hit both alike; the
 * fastest round of each is printed with the ratios ribbon / fuse. (Run by
 * bench/figures/static_lookups.sh; not part of `make test`.)
 *
 *   usage: static_lookups N FPR [ROUNDS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../../fuse/fuse.h"
#include "../../ribbon/ribbon.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t mix(uint64_t z) /* splitmix64's finalizer: a bijection */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: static_lookups N FPR [ROUNDS]\n", stderr);
        return 2;
    }
    size_t n = strtoull(argv[1], NULL, 10), q = (size_t)1 << 21;
    double fpr = atof(argv[2]);
    int rounds = argc > 3 ? atoi(argv[3]) : 7;
    uint64_t *keys = malloc(8 * n), *absent = malloc(8 * q);
    bool *out = malloc(q);
    if (!keys || !absent || !out || n == 0 || rounds < 1)
        return 2;
    for (size_t i = 0; i < n; i++)
        keys[i] = mix(2 * i);
    for (size_t i = 0; i < q; i++)
        absent[i] = mix(2 * i + 1);
    fk_params p = fk_params_make(0, fpr);
    fk_filter *f[2] = { NULL, NULL };
    if (fk_filter_build_u64(&fk_fuse_ops, &p, n, keys, &f[0]) != FK_OK ||
        fk_filter_build_u64(&fk_ribbon_ops, &p, n, keys, &f[1]) != FK_OK)
        return 1;
    double best[2][2] = { { 1e30, 1e30 }, { 1e30, 1e30 } };
    size_t hits[2] = { 0, 0 };
    for (int r = 0; r < rounds; r++)
        for (int w = 0; w < 2; w++) {
            size_t h = 0;
            double t = now_s();
            for (size_t i = 0; i < q; i++)
                h += fk_filter_contains_u64(f[w], absent[i]);
            t = (now_s() - t) / (double)q * 1e9;
            best[w][0] = t < best[w][0] ? t : best[w][0];
            t = now_s();
            fk_filter_contains_many_u64(f[w], q, absent, out);
            t = (now_s() - t) / (double)q * 1e9;
            best[w][1] = t < best[w][1] ? t : best[w][1];
            hits[w] = h;
        }
    printf("n=%zu fpr=%g, absent lookups, ns (fastest of %d rounds of %zu): "
           "fuse single %.1f batch %.1f (fpr %.4f%%) | ribbon single %.1f batch %.1f "
           "(fpr %.4f%%) | ribbon/fuse single %.2f batch %.2f\n",
           n, fpr, rounds, q, best[0][0], best[0][1], 100.0 * (double)hits[0] / (double)q,
           best[1][0], best[1][1], 100.0 * (double)hits[1] / (double)q, best[1][0] / best[0][0],
           best[1][1] / best[0][1]);
    fk_filter_free(f[0]);
    fk_filter_free(f[1]);
    free(keys);
    free(absent);
    free(out);
    return 0;
}
