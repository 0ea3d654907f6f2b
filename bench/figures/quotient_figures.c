/* bench/figures/quotient_figures.c: the counting quotient filter's figures
 * for PAPER_NOTES and the report, run by bench/figures/quotient_figures.sh
 * (not a test: it measures). One line of Markdown table per call.
 *
 *   quotient_figures space N FPR        bits per item of a filter sized for N
 *   quotient_figures full N SEEDS       load at the first FK_EFULL, over SEEDS seeds
 *   quotient_figures heavy C            one key inserted C times: count, slots
 *   quotient_figures merge N REPEATS    merging two N-key filters vs copying both
 *   quotient_figures shift N ALPHA      mean slots moved per insert at load ALPHA */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../quotient/quotient.h"
#include "../../quotient/quotient_internal.h"

static uint64_t key_of(uint64_t i, uint64_t seed)
{
    uint64_t z = i * UINT64_C(0x9E3779B97F4A7C15) + seed * UINT64_C(0xD1B54A32D192ED03) + 1;
    z = (z ^ (z >> 31)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 29);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static fk_quotient *make(uint64_t n, double fpr, uint64_t seed)
{
    fk_params p = fk_params_make(n, fpr);
    p.seed = seed;
    fk_quotient *qf = NULL;
    if (fk_quotient_new(&p, &qf) != FK_OK) {
        fprintf(stderr, "quotient_figures: cannot make n=%llu fpr=%g\n", (unsigned long long)n, fpr);
        exit(1);
    }
    return qf;
}

/* CPU time of this thread: the machine is shared, and a merge and a copy
 * compared in wall time would measure the other processes too. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Keeps the copies from being optimised away. */
static uint8_t *volatile sink;

static fk_quotient_description info_of(const fk_quotient *qf)
{
    fk_quotient_description in;
    fk_quotient_describe(qf, &in);
    return in;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: quotient_figures space|full|heavy|merge|shift ARGS\n", stderr);
        return 2;
    }
    const char *what = argv[1];
    uint64_t n = strtoull(argv[2], NULL, 10);
    if (strcmp(what, "space") == 0 && argc == 4) {
        double fpr = strtod(argv[3], NULL);
        fk_quotient *qf = make(n, fpr, 1);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = key_of(i, 1);
            if (fk_quotient_insert(qf, &k, 8) != FK_OK) {
                fprintf(stderr, "quotient_figures: FK_EFULL before n\n");
                return 1;
            }
        }
        uint64_t fp = 0, trials = 1000000;
        for (uint64_t i = 0; i < trials; i++) {
            uint64_t k = key_of(i, 2);
            fp += fk_quotient_contains(qf, &k, 8);
        }
        fk_stats st;
        fk_filter_stats(fk_quotient_as_filter(qf), &st);
        uint32_t r = info_of(qf).remainder_bits;
        printf("| %llu | %g | %u | %llu | %.3f | %.3f | %.3f | %.4f%% | %.4f%% |\n",
               (unsigned long long)n, fpr, r, (unsigned long long)info_of(qf).slots,
               (double)n / (double)info_of(qf).slots, st.bits_per_item, (r + 2.125) / 0.95,
               100.0 * (double)fp / (double)trials, 100.0 * st.expected_fpr);
        fk_quotient_free(qf);
        return 0;
    }
    if (strcmp(what, "full") == 0 && argc == 4) {
        int seeds = atoi(argv[3]);
        double sum = 0, min = 1;
        uint64_t lost = 0, accepted = 0;
        for (int s = 0; s < seeds; s++) {
            fk_quotient *qf = make(n, 0.01, (uint64_t)s);
            uint64_t i = 0;
            for (;; i++) {
                uint64_t k = key_of(i, (uint64_t)s + 100);
                if (fk_quotient_insert(qf, &k, 8) != FK_OK)
                    break;
            }
            accepted += i >= n;
            for (uint64_t j = 0; j < i; j++) {
                uint64_t k = key_of(j, (uint64_t)s + 100);
                lost += !fk_quotient_contains(qf, &k, 8);
            }
            double load = (double)i / (double)info_of(qf).slots;
            sum += load;
            min = load < min ? load : min;
            fk_quotient_free(qf);
        }
        printf("| %llu | %d | %.4f | %.4f | %llu of %d | %llu |\n", (unsigned long long)n, seeds,
               sum / seeds, min, (unsigned long long)accepted, seeds, (unsigned long long)lost);
        return 0;
    }
    if (strcmp(what, "heavy") == 0) {
        fk_quotient *qf = make(1000, 0.01, 1);
        const char *key = "heavy";
        uint64_t ok = 0;
        double t0 = now();
        for (uint64_t i = 0; i < n; i++)
            ok += fk_quotient_insert(qf, key, 5) == FK_OK;
        double t1 = now();
        uint64_t c = 0;
        fk_quotient_count(qf, key, 5, &c);
        fk_quotient_location loc;
        fk_quotient_locate(qf, key, 5, &loc);
        printf("| %llu | %u | %llu | %llu | %llu | %.1f |\n", (unsigned long long)n,
               info_of(qf).remainder_bits, (unsigned long long)ok, (unsigned long long)c,
               (unsigned long long)loc.group_slots, 1e9 * (t1 - t0) / (double)n);
        fk_quotient_free(qf);
        return 0;
    }
    if (strcmp(what, "merge") == 0 && argc == 4) {
        int repeats = atoi(argv[3]);
        /* two filters sized for 2n (so the union fits), n keys each */
        fk_quotient *a = make(2 * n, 0.001, 7), *b = make(2 * n, 0.001, 7);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = key_of(i, 3), k2 = key_of(i, 4);
            fk_quotient_insert(a, &k, 8);
            fk_quotient_insert(b, &k2, 8);
        }
        size_t bytes = (size_t)(a->nblocks * a->block_bytes);
        double *tm = malloc((size_t)repeats * sizeof *tm), *tc = malloc((size_t)repeats * sizeof *tc);
        uint8_t *save = malloc(bytes);
        memcpy(save, a->table, bytes);
        uint64_t items = a->items, distinct = a->distinct, used = a->used;
        for (int r = 0; r < repeats; r++) {
            /* copying both: a fresh table for each, every byte read and written */
            double t0 = cpu_now();
            uint8_t *ca = malloc(bytes), *cb = malloc(bytes);
            memcpy(ca, a->table, bytes);
            memcpy(cb, b->table, bytes);
            sink = ca;
            sink = cb;
            double t1 = cpu_now();
            tc[r] = t1 - t0;
            free(ca);
            free(cb);
            t0 = cpu_now();
            if (fk_quotient_merge(a, b) != FK_OK) {
                fputs("quotient_figures: merge failed\n", stderr);
                return 1;
            }
            tm[r] = cpu_now() - t0;
            memcpy(a->table, save, bytes); /* back to a alone (the merged table is a's size) */
            a->items = items;
            a->distinct = distinct;
            a->used = used;
        }
        /* the other way to a union: insert both key sets into a new filter */
        double t0 = cpu_now();
        fk_quotient *u = make(2 * n, 0.001, 7);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = key_of(i, 3), k2 = key_of(i, 4);
            fk_quotient_insert(u, &k, 8);
            fk_quotient_insert(u, &k2, 8);
        }
        double tins = cpu_now() - t0;
        fk_quotient_free(u);
        qsort(tm, (size_t)repeats, sizeof *tm, cmp_double);
        qsort(tc, (size_t)repeats, sizeof *tc, cmp_double);
        double m = tm[repeats / 2], c = tc[repeats / 2];
        printf("| %llu + %llu | %.2f MB each | %.2f ms | %.2f ms | %.1fx | %.2f ms | %.2fx |\n",
               (unsigned long long)n, (unsigned long long)n, (double)bytes / 1e6, 1e3 * m, 1e3 * c,
               m / c, 1e3 * tins, m / tins);
        free(save);
        free(tm);
        free(tc);
        fk_quotient_free(a);
        fk_quotient_free(b);
        return 0;
    }
    if (strcmp(what, "shift") == 0 && argc == 4) {
        /* mean slots moved per insert (the distance to the first free slot)
         * over the inserts that take the load from ALPHA - 0.01 to ALPHA */
        double alpha = strtod(argv[3], NULL);
        fk_quotient *qf = make(n, 0.01, 5);
        uint64_t S = info_of(qf).slots, i = 0, moved = 0, counted = 0;
        uint64_t lo = (uint64_t)((alpha - 0.01) * (double)S), hi = (uint64_t)(alpha * (double)S);
        for (; i < hi; i++) {
            uint64_t k = key_of(i, 6);
            fk_quotient_location loc;
            fk_quotient_locate(qf, &k, 8, &loc);
            uint64_t before = loc.occupied ? loc.run_end + 1 : loc.run_start, e = before;
            fk_quotient_slot_info si;
            while (e < S && fk_quotient_cell(qf, e, &si) == FK_OK && si.used)
                e++;
            if (fk_quotient_insert(qf, &k, 8) != FK_OK)
                break;
            if (i >= lo) {
                moved += e - before;
                counted++;
            }
        }
        printf("| %.2f | %llu | %.2f | %.2f |\n", alpha, (unsigned long long)counted,
               counted ? (double)moved / (double)counted : 0.0,
               0.5 * (1.0 / ((1 - alpha) * (1 - alpha)) - 1.0));
        fk_quotient_free(qf);
        return 0;
    }
    fputs("usage: quotient_figures space|full|heavy|merge|shift ARGS\n", stderr);
    return 2;
}
