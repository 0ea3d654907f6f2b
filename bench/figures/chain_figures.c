/* bench/figures/chain_figures.c: times a growing chain's calls
 * (bench/figures/chain_figures.sh).
 * Usage: chain_figures KIND N FPR CAPACITY REPEAT: makes KIND with the
 * capacity and fpr, inserts N integer keys one by one (timed), then looks
 * up N absent keys one by one (fk_filter_contains_u64) and in batches of
 * 1024 (fk_filter_contains_many_u64), and prints one line: links, then the
 * median over REPEAT runs of ns per insert, per single lookup, per batched
 * lookup. Keys are made before any clock starts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../registry/registry.h"
#include "../../scalable/scalable_internal.h" /* each link of a chain */

/* The keys of tests/keys.h: present keys mix 2i, absent ones 2i + 1
 * (splitmix64's finalizer, a bijection), so none is both. */
static uint64_t key_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: chain_figures KIND N FPR CAPACITY REPEAT\n");
        return 2;
    }
    const fk_ops *ops = fk_ops_find(argv[1]);
    size_t n = (size_t)strtoull(argv[2], NULL, 10);
    double fpr = strtod(argv[3], NULL);
    uint64_t capacity = strtoull(argv[4], NULL, 10);
    int repeat = atoi(argv[5]);
    if (!ops || n == 0 || repeat < 1 || repeat > 15)
        return 2;
    uint64_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    bool *hit = malloc(n);
    if (!in || !out || !hit)
        return 1;
    for (size_t i = 0; i < n; i++) {
        in[i] = key_mix(2 * (uint64_t)i);
        out[i] = key_mix(2 * (uint64_t)i + 1);
    }
    double ins[15], one[15], many[15];
    size_t links = 0, yes = 0;
    for (int r = 0; r < repeat; r++) {
        fk_params p = fk_params_make(capacity, fpr);
        fk_filter *f = NULL;
        if (fk_filter_new(ops, &p, &f) != FK_OK)
            return 1;
        double t0 = now_ns();
        for (size_t i = 0; i < n; i++)
            if (fk_filter_insert_u64(f, in[i]) != FK_OK)
                return 1;
        double t1 = now_ns();
        for (size_t i = 0; i < n; i++)
            hit[i] = fk_filter_contains_u64(f, out[i]);
        double t2 = now_ns();
        for (size_t i = 0; i < n; i += 1024)
            fk_filter_contains_many_u64(f, n - i < 1024 ? n - i : 1024, out + i, hit + i);
        double t3 = now_ns();
        yes = 0;
        for (size_t i = 0; i < n; i++)
            yes += hit[i];
        links = fk_scalable_links(f);
        ins[r] = (t1 - t0) / (double)n;
        one[r] = (t2 - t1) / (double)n;
        many[r] = (t3 - t2) / (double)n;
        fk_filter_free(f);
    }
    qsort(ins, (size_t)repeat, sizeof *ins, by_value);
    qsort(one, (size_t)repeat, sizeof *one, by_value);
    qsort(many, (size_t)repeat, sizeof *many, by_value);
    int mid = repeat / 2;
    printf("%s n=%zu capacity=%llu links=%zu: insert %.1f ns, lookup %.1f ns, batched lookup "
           "%.1f ns (%.2fx), false positives %zu\n",
           argv[1], n, (unsigned long long)capacity, links, ins[mid], one[mid], many[mid],
           one[mid] / many[mid], yes);
    free(in);
    free(out);
    free(hit);
    return 0;
}
