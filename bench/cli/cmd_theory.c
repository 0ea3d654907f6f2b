/* bench/cli/cmd_theory.c: `filterkit theory`: puts the formulas of PAPER_NOTES
 * next to real filters for the claims `filterkit bench` does not measure:
 * the optimal k, the fill at the optimum, the item estimate from the fill,
 * union and intersection, and the counters' maximum against the overflow
 * bound of Fan et al. Prints Markdown tables (theory | measured) on stdout.
 *
 * Keys are 8-byte integers from a splitmix64 sequence: inserted keys are
 * mix(2i + seed-offset) and negatives mix(2j + 1 + ...), so the two sets
 * are disjoint (mix is a bijection); generated before use, same seed same
 * keys. Only the modules' public APIs are used. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../blocked/blocked.h"
#include "../../blocked/blocked_internal.h"
#include "../../bloom/bloom.h"
#include "../../counting/counting.h"
#include "../../counting/counting_internal.h"
#include "args.h"
#include "cmd.h"

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

typedef struct {
    uint64_t n, negatives, seed;
    double   fpr;
} setup;

/* Key i of the positive (odd = 0) or negative (odd = 1) stream. */
static uint64_t key_at(const setup *s, uint64_t i, int odd)
{
    return mix((s->seed << 40) + 2 * i + (uint64_t)odd);
}

static void insert_range(fk_filter *f, const setup *s, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++) {
        uint64_t k = key_at(s, i, 0);
        fk_filter_insert(f, &k, sizeof k);
    }
}

static double measured_fpr(const fk_filter *f, const setup *s)
{
    uint64_t fp = 0;
    for (uint64_t j = 0; j < s->negatives; j++) {
        uint64_t k = key_at(s, j, 1);
        fp += fk_filter_contains(f, &k, sizeof k);
    }
    return (double)fp / (double)s->negatives;
}

static fk_bloom *new_bloom(const setup *s, uint64_t m, uint32_t k)
{
    fk_params p = fk_params_make(s->n, s->fpr);
    p.seed = s->seed;
    p.bits = m;
    p.hashes = k;
    fk_bloom *b = NULL;
    return fk_bloom_new(&p, &b) == FK_OK ? b : NULL;
}

static fk_bloom_description described(const fk_bloom *b)
{
    fk_bloom_description d = { 0 };
    fk_bloom_describe(b, &d);
    return d;
}

/* The optimal k at fixed m, and the fill it leaves. */
static int table_k(const setup *s)
{
    uint64_t m = fk_size_bloom_bits(s->n, s->fpr);
    uint32_t kopt = fk_size_bloom_hashes(m, s->n);
    printf("\n### Bloom: probes k at fixed m = %llu bits (%.2f bits per item), n = %llu\n\n",
           (unsigned long long)m, (double)m / (double)s->n, (unsigned long long)s->n);
    printf("| k | theory fpr (1 - e^(-kn/m))^k | measured fpr | theory fill 1 - e^(-kn/m) | measured fill |\n");
    printf("|---|---|---|---|---|\n");
    for (uint32_t k = kopt > 3 ? kopt - 3 : 1; k <= kopt + 3; k++) {
        fk_bloom *b = new_bloom(s, m, k);
        if (!b)
            return 1;
        insert_range(fk_bloom_as_filter(b), s, 0, s->n);
        double fill = (double)described(b).set_bits / (double)m;
        printf("| %u%s | %.5f | %.5f | %.4f | %.4f |\n", k, k == kopt ? " (optimal: (m/n) ln 2)" : "",
               fk_theory_bloom_fpr(m, k, (double)s->n), measured_fpr(fk_bloom_as_filter(b), s),
               1.0 - exp(-(double)k * (double)s->n / (double)m), fill);
        fk_bloom_free(b);
    }
    return 0;
}

/* Items estimated from the fill (Swamidass & Baldi) at several loads. */
static int table_estimate(const setup *s)
{
    uint64_t m = fk_size_bloom_bits(s->n, s->fpr);
    uint32_t k = fk_size_bloom_hashes(m, s->n);
    fk_bloom *b = new_bloom(s, m, k);
    if (!b)
        return 1;
    printf("\n### Bloom: items estimated from the fill, -(m/k) ln(1 - X/m) (m = %llu, k = %u)\n\n",
           (unsigned long long)m, k);
    printf("| distinct keys inserted | set bits X | estimate | error |\n|---|---|---|---|\n");
    static const double parts[] = { 0.1, 0.5, 1.0, 2.0 };
    uint64_t done = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        uint64_t upto = (uint64_t)(parts[i] * (double)s->n);
        insert_range(fk_bloom_as_filter(b), s, done, upto);
        done = upto;
        double est = described(b).estimated_items;
        printf("| %llu | %llu | %.0f | %+.3f%% |\n", (unsigned long long)done,
               (unsigned long long)described(b).set_bits, est,
               100.0 * (est - (double)done) / (double)done);
    }
    /* Duplicates do not move the estimate (stats.items counts them). */
    insert_range(fk_bloom_as_filter(b), s, 0, s->n / 2);
    fk_stats st;
    fk_filter_stats(fk_bloom_as_filter(b), &st);
    printf("| %llu again (duplicates): items counter %llu | %llu | %.0f | %+.3f%% |\n",
           (unsigned long long)(s->n / 2), (unsigned long long)st.items,
           (unsigned long long)described(b).set_bits, described(b).estimated_items,
           100.0 * (described(b).estimated_items - (double)done) / (double)done);
    fk_bloom_free(b);
    return 0;
}

/* A = keys [0, 3n/4), B = keys [n/4, n): |A u B| = n, |A n B| = n/2. */
static int table_union(const setup *s)
{
    uint64_t m = fk_size_bloom_bits(s->n, s->fpr);
    uint32_t k = fk_size_bloom_hashes(m, s->n);
    uint64_t a_end = 3 * s->n / 4, b_start = s->n / 4;
    fk_bloom *a = new_bloom(s, m, k), *b = new_bloom(s, m, k), *direct = new_bloom(s, m, k),
             *both = new_bloom(s, m, k);
    int rc = 1;
    if (!a || !b || !direct || !both)
        goto out;
    insert_range(fk_bloom_as_filter(a), s, 0, a_end);
    insert_range(fk_bloom_as_filter(b), s, b_start, s->n);
    insert_range(fk_bloom_as_filter(direct), s, b_start, a_end); /* built from A n B */
    insert_range(fk_bloom_as_filter(both), s, 0, a_end);
    if (fk_filter_merge(fk_bloom_as_filter(both), fk_bloom_as_filter(b)) != FK_OK)
        goto out;
    printf("\n### Bloom: union and intersection (A = %llu keys, B = %llu keys, |A n B| = %llu; m = %llu, k = %u)\n\n",
           (unsigned long long)a_end, (unsigned long long)(s->n - b_start),
           (unsigned long long)(a_end - b_start), (unsigned long long)m, k);
    printf("| filter | true items | estimate from fill | theory fpr | measured fpr |\n|---|---|---|---|---|\n");
    printf("| A OR B (union) | %llu | %.0f | %.5f | %.5f |\n", (unsigned long long)s->n,
           described(both).estimated_items, fk_theory_bloom_fpr(m, k, (double)s->n),
           measured_fpr(fk_bloom_as_filter(both), s));
    if (fk_filter_intersect(fk_bloom_as_filter(a), fk_bloom_as_filter(b)) != FK_OK)
        goto out;
    printf("| A AND B (intersection) | %llu | %.0f | %.5f (of a filter built from A n B) | %.5f |\n",
           (unsigned long long)(a_end - b_start), described(a).estimated_items,
           fk_theory_bloom_fpr(m, k, (double)(a_end - b_start)),
           measured_fpr(fk_bloom_as_filter(a), s));
    printf("| built from A n B directly | %llu | %.0f | %.5f | %.5f |\n",
           (unsigned long long)(a_end - b_start), described(direct).estimated_items,
           fk_theory_bloom_fpr(m, k, (double)(a_end - b_start)),
           measured_fpr(fk_bloom_as_filter(direct), s));
    rc = 0;
out:
    fk_bloom_free(a);
    fk_bloom_free(b);
    fk_bloom_free(direct);
    fk_bloom_free(both);
    return rc;
}

/* Blocked: the Poisson-averaged FPR against the naive one (every block at
 * the mean load) and against the filter, and its memory next to Bloom's. */
static int table_blocked(const setup *s)
{
    printf("\n### Blocked: FPR sized by sum_x P_load(x) (1 - (31/32)^x)^8, n = %llu\n\n",
           (unsigned long long)s->n);
    printf("| target fpr | keys per block | bits per item | standard Bloom bits per item | "
           "naive fpr (1 - (31/32)^load)^8 | theory fpr (Poisson average) | measured fpr |\n");
    printf("|---|---|---|---|---|---|---|\n");
    static const double targets[] = { 0.1, 0.01, 0.001, 0.0001 };
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        fk_params p = fk_params_make(s->n, targets[i]);
        p.seed = s->seed;
        fk_blocked *b = NULL;
        if (fk_blocked_new(&p, &b) != FK_OK)
            return 1;
        insert_range(fk_blocked_as_filter(b), s, 0, s->n);
        fk_blocked_description d;
        fk_blocked_describe(b, &d);
        double load = (double)s->n / (double)d.blocks;
        printf("| %g | %.2f | %.2f | %.2f | %.3g | %.3g | %.3g |\n", targets[i], load,
               256.0 / load, (double)fk_size_bloom_bits(s->n, targets[i]) / (double)s->n,
               pow(1.0 - pow(31.0 / 32.0, load), 8), fk_theory_blocked_fpr(load),
               measured_fpr(fk_blocked_as_filter(b), s));
        fk_blocked_free(b);
    }
    return 0;
}

/* Counters: largest value, saturations, the Fan et al. bound. */
static int table_counters(const setup *s)
{
    printf("\n### Counting: counter values after n = %llu inserts at the optimal k\n\n",
           (unsigned long long)s->n);
    printf("| counter bits | m | k | largest counter | counters >= 8 | saturations | Pr(any counter >= 16) <= m (e ln2 / 16)^16 | bits per item | x bloom's |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t cb = 4; cb <= 8; cb += 4) {
        fk_params p = fk_params_make(s->n, s->fpr);
        p.seed = s->seed;
        p.counter_bits = cb;
        fk_counting *c;
        if (fk_counting_new(&p, &c) != FK_OK)
            return 1;
        insert_range(fk_counting_as_filter(c), s, 0, s->n);
        fk_counting_description d;
        fk_counting_describe(c, &d);
        uint64_t m = d.bits, high = 0;
        uint32_t top = 0;
        for (uint64_t i = 0; i < m; i++) {
            uint32_t v = fk_counting_cell(c, i);
            top = v > top ? v : top;
            high += v >= 8;
        }
        fk_stats cs, bs;
        fk_filter_stats(fk_counting_as_filter(c), &cs);
        fk_bloom *b = new_bloom(s, m, d.hashes);
        if (!b) {
            fk_counting_free(c);
            return 1;
        }
        fk_filter_stats(fk_bloom_as_filter(b), &bs);
        double bound = (double)m * pow(exp(1.0) * log(2.0) / 16.0, 16.0);
        printf("| %u | %llu | %u | %u | %llu | %llu | %.3g | %.2f | %.2f |\n", cb,
               (unsigned long long)m, d.hashes, top, (unsigned long long)high,
               (unsigned long long)d.saturations, bound, cs.bits_per_item,
               (double)cs.memory_bytes / (double)bs.memory_bytes);
        fk_bloom_free(b);
        fk_counting_free(c);
    }
    return 0;
}

int fkc_cmd_theory(int argc, char **argv)
{
    setup s = { 1000000, 1000000, 1, 0.01 };
    const char *only = NULL;
    const fkc_opt opts[] = {
        { "table", FKC_OPT_CHOICE, &only, "k|estimate|union|counters|blocked", "print only this table (default: all five)" },
        { "n", FKC_OPT_COUNT, &s.n, "N", "keys inserted (default 1000000; 4 to 1e8)" },
        { "fpr", FKC_OPT_FPR, &s.fpr, "P", "target false-positive rate of the sizing (default 0.01)" },
        { "negatives", FKC_OPT_COUNT, &s.negatives, "M", "never-inserted keys per measured fpr (default 1000000)" },
        { "seed", FKC_OPT_U64, &s.seed, "S", "seed of the keys and of the hash (default 1)" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = {
        "theory", "[--table k|estimate|union|counters|blocked] [--n N] [--fpr P] [--negatives M] [--seed S]",
        "Builds filters of n 8-byte keys and prints, as Markdown tables, each formula of\n"
        "PAPER_NOTES.md that `filterkit bench` does not cover next to what the filter\n"
        "does: FPR and fill for k around the optimum, the item estimate from the fill,\n"
        "union and intersection, counter maxima against the Fan et al. bound, the\n"
        "blocked filter's Poisson-averaged FPR against its measured one.",
        opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (s.n < 4 || s.n > 100000000)
        return fkc_args_fail(&spec, "--n: expected 4 to 1e8 keys");
    if (s.negatives > 100000000)
        return fkc_args_fail(&spec, "--negatives: expected at most 1e8 keys");
    printf("filterkit theory: n = %llu, target fpr %g, %llu negatives per fpr, seed %llu\n",
           (unsigned long long)s.n, s.fpr, (unsigned long long)s.negatives,
           (unsigned long long)s.seed);
    static const struct {
        const char *name;
        int (*run)(const setup *);
    } tables[] = {
        { "k", table_k }, { "estimate", table_estimate }, { "union", table_union },
        { "counters", table_counters }, { "blocked", table_blocked },
    };
    rc = 0;
    for (size_t t = 0; t < sizeof tables / sizeof tables[0] && !rc; t++)
        if (!only || !strcmp(only, tables[t].name))
            rc = tables[t].run(&s);
    if (rc)
        fputs("filterkit theory: a filter could not be built (out of memory?)\n", stderr);
    return rc;
}
