/* bench/figures/static_builds.c: the builds of the two static kinds side
 * by side, in one process, on a loaded machine: fuse and ribbon built from
 * the same N 8-byte keys at the same FPR through fk_filter_build_u64,
 * ROUNDS rounds each building both (which goes first alternates from
 * round to round, so that load swings hit both alike). Prints the median
 * time per key of each, the median of the per-round ratios ribbon / fuse
 * and their range, and each build's temporary memory (the filters'
 * describe row temp_bytes) and bits per item. (Run by
 * bench/figures/static_builds.sh; not part of `make test`.)
 *
 *   usage: static_builds N FPR [ROUNDS [THREADS]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The describe row `name` of f (0 when it has none). */
static uint64_t row_u64(const fk_filter *f, const char *name)
{
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    if (fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n) != FK_OK)
        return 0;
    for (size_t i = 0; i < n && i < FK_DESCRIBE_MAX_ROWS; i++)
        if (strcmp(rows[i].name, name) == 0 && rows[i].type == FK_DESCRIBE_U64)
            return rows[i].value.u64;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: static_builds N FPR [ROUNDS [THREADS]]\n", stderr);
        return 2;
    }
    size_t n = strtoull(argv[1], NULL, 10);
    double fpr = atof(argv[2]);
    int rounds = argc > 3 ? atoi(argv[3]) : 7;
    uint32_t threads = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 1;
    if (n == 0 || rounds < 1 || rounds > 1000)
        return 2;
    uint64_t *keys = malloc(8 * n);
    double *t[2], *ratio;
    t[0] = calloc((size_t)rounds, sizeof(double));
    t[1] = calloc((size_t)rounds, sizeof(double));
    ratio = calloc((size_t)rounds, sizeof(double));
    if (!keys || !t[0] || !t[1] || !ratio) {
        free(keys);
        free(t[0]);
        free(t[1]);
        free(ratio);
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        keys[i] = mix(2 * i);
    fk_params p = fk_params_make(0, fpr);
    p.threads = threads;
    const fk_ops *ops[2] = { &fk_fuse_ops, &fk_ribbon_ops };
    uint64_t temp[2] = { 0, 0 };
    double bits[2] = { 0, 0 };
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < 2; i++) {
            int w = (r + i) % 2; /* fuse first in even rounds, ribbon in odd */
            fk_filter *f = NULL;
            double t0 = now_s();
            if (fk_filter_build_u64(ops[w], &p, n, keys, &f) != FK_OK) {
                fprintf(stderr, "static_builds: the %s build failed\n", ops[w]->name);
                return 1;
            }
            t[w][r] = (now_s() - t0) / (double)n * 1e9;
            fk_stats st;
            fk_filter_stats(f, &st);
            temp[w] = row_u64(f, "temp_bytes");
            bits[w] = st.bits_per_item;
            fk_filter_free(f);
        }
        ratio[r] = t[1][r] / t[0][r];
    }
    double lo = ratio[0], hi = ratio[0];
    for (int r = 1; r < rounds; r++) {
        lo = ratio[r] < lo ? ratio[r] : lo;
        hi = ratio[r] > hi ? ratio[r] : hi;
    }
    double mf = median(t[0], rounds), mr = median(t[1], rounds), mq = median(ratio, rounds);
    printf("n=%zu fpr=%g threads=%u, builds, ns/key (median of %d alternating rounds): "
           "fuse %.1f (%.2f bits/item, temp %.2f bytes/key) | ribbon %.1f (%.2f bits/item, "
           "temp %.2f bytes/key) | ribbon/fuse median %.2f [%.2f, %.2f]\n",
           n, fpr, threads, rounds, mf, bits[0], (double)temp[0] / (double)n, mr, bits[1],
           (double)temp[1] / (double)n, mq, lo, hi);
    free(t[0]);
    free(t[1]);
    free(ratio);
    free(keys);
    return 0;
}
