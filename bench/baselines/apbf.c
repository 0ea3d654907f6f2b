/* bench/baselines/apbf.c: the age-partitioned Bloom filter baseline, written
 * from the paper's description (Shtul, Baquero, Almeida, "Age-Partitioned
 * Bloom Filters", arXiv 2001.03147); see window_baselines.h for the shape
 * and the (k, l) tables. Bench-only.
 *
 * Slices live in a ring: physical slice s keeps its own hash function
 * (bit = range(h1 + s h2, m), one XXH3-128 per key) for as long as it
 * lives, and position p (0 = newest) is physical slice (newest + p) mod
 * (k + l). A shift moves `newest` back one and clears the slice it lands
 * on, the one that was oldest: m / 8 bytes every g inserts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "window_baselines.h"
#include "../../common/hash.h"

typedef struct {
    fk_filter base;
    unsigned  k, l, n;    /* n = k + l slices */
    uint64_t  g;          /* inserts per generation */
    uint64_t  m;          /* bits per slice */
    uint64_t  words;      /* 64-bit words per slice */
    unsigned  newest;     /* physical index of position 0 */
    uint64_t  in_gen;     /* inserts into the newest generation so far */
    uint64_t  items, capacity, seed, flip;
    uint64_t *bits;       /* n * words */
} apbf;

/* ------------------------------------------------------------ theory */

double fkc_apbf_theory(unsigned k, unsigned l, uint64_t g, uint64_t m)
{
    double run[FKC_APBF_MAX_K + 1] = { 1.0 }; /* P(current run of hits = r) */
    double hit = 0.0;
    for (unsigned i = 0; i < k + l; i++) {
        double took = (double)(i + 1 < k ? i + 1 : k);
        double f = m ? -expm1(took * (double)g * log1p(-1.0 / (double)m)) : 1.0 - exp2(-took / (double)k);
        double next[FKC_APBF_MAX_K + 1] = { 0 };
        for (unsigned r = 0; r < k; r++) {
            next[0] += run[r] * (1.0 - f);
            if (r + 1 == k)
                hit += run[r] * f;
            else
                next[r + 1] += run[r] * f;
        }
        memcpy(run, next, sizeof run);
    }
    return hit;
}

/* Bits per window item of (k, l) with half-full slices. */
static double ideal_bits(unsigned k, unsigned l)
{
    return (double)k * (double)(k + l) / ((double)l * 0.69314718055994530942);
}

/* The pair of least memory with theory <= fpr and k + l <= max_slices.
 * For a fixed k the theory rises and the memory falls with l, so the
 * largest l that still qualifies is that k's best: a binary search. */
static int least_memory(double fpr, unsigned max_slices, unsigned *bk, unsigned *bl)
{
    double best = INFINITY;
    for (unsigned k = 1; k <= FKC_APBF_MAX_K && k < max_slices; k++) {
        unsigned lo = 1, hi = FKC_APBF_MAX_L < max_slices - k ? FKC_APBF_MAX_L : max_slices - k;
        if (fkc_apbf_theory(k, 1, 0, 0) > fpr)
            continue;
        while (lo < hi) {
            unsigned mid = lo + (hi - lo + 1) / 2;
            if (fkc_apbf_theory(k, mid, 0, 0) <= fpr)
                lo = mid;
            else
                hi = mid - 1;
        }
        if (ideal_bits(k, lo) < best) {
            best = ideal_bits(k, lo);
            *bk = k;
            *bl = lo;
        }
    }
    return isfinite(best) ? 0 : -1;
}

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * b; }

int fkc_apbf_choose(double fpr, int best, unsigned *k, unsigned *l)
{
    if (!(fpr > 0.0 && fpr < 1.0))
        return -1;
    if (best)
        return least_memory(fpr, FKC_APBF_MAX_K + FKC_APBF_MAX_L, k, l);
    if (near(fpr, 0.01)) {
        *k = 10, *l = 25;
        return 0;
    }
    if (near(fpr, 0.001)) {
        *k = 13, *l = 23;
        return 0;
    }
    return least_memory(fpr, 36, k, l);
}

/* ------------------------------------------------------------ the filter */

static inline uint64_t range64(uint64_t x, uint64_t m)
{
    return (uint64_t)(((unsigned __int128)x * m) >> 64);
}

static inline unsigned physical(const apbf *a, unsigned pos)
{
    unsigned s = a->newest + pos;
    return s >= a->n ? s - a->n : s;
}

static inline int has_bit(const apbf *a, unsigned s, fk_hash128 h)
{
    uint64_t b = range64(h.lo + (uint64_t)s * h.hi, a->m);
    return (int)(a->bits[(uint64_t)s * a->words + (b >> 6)] >> (b & 63)) & 1;
}

/* k consecutive positions with the key's bit. Windows [s, s + k) for s = l
 * down to 0, each read from its newest end: a miss at position j rules out
 * every window holding j, so the next window to try ends just below j (a
 * miss at a window's first probe skips k positions at once). */
static bool probe(const apbf *a, fk_hash128 h)
{
    long s = (long)a->l;
    const long k = (long)a->k;
    while (s >= 0) {
        long j = s;
        while (j < s + k && has_bit(a, physical(a, (unsigned)j), h))
            j++;
        if (j == s + k)
            return true;
        s = j - k;
    }
    return false;
}

static void shift(apbf *a)
{
    a->newest = a->newest ? a->newest - 1 : a->n - 1;
    memset(a->bits + (uint64_t)a->newest * a->words, 0, a->words * sizeof(uint64_t));
    a->in_gen = 0;
}

static void add(apbf *a, fk_hash128 h)
{
    if (a->in_gen == a->g)
        shift(a);
    for (unsigned p = 0; p < a->k; p++) {
        unsigned s = physical(a, p);
        uint64_t b = range64(h.lo + (uint64_t)s * h.hi, a->m);
        a->bits[(uint64_t)s * a->words + (b >> 6)] |= UINT64_C(1) << (b & 63);
    }
    a->in_gen++;
    a->items++;
}

static bool apbf_contains_u64(const fk_filter *f, uint64_t key)
{
    const apbf *a = (const apbf *)f;
    return probe(a, fk_hash8_128(key, a->flip));
}

static fk_status make(const fk_params *p, int best, fk_filter **out)
{
    *out = NULL;
    unsigned k, l;
    if (fk_params_check(p) != FK_OK || fkc_apbf_choose(p->fpr, best, &k, &l) != 0)
        return FK_EINVAL;
    uint64_t g = p->capacity / l + (p->capacity % l != 0);
    double m = ceil((double)k * (double)g / 0.69314718055994530942);
    double bytes = (double)(k + l) * ceil(m / 64.0) * 8.0 + (double)sizeof(apbf);
    if (!(bytes <= (double)FK_MEMORY_CAP))
        return FK_EINVAL;
    if (p->max_bytes && bytes > (double)p->max_bytes)
        return FK_ELIMIT;
    apbf *a = calloc(1, sizeof *a);
    if (!a)
        return FK_ENOMEM;
    a->k = k, a->l = l, a->n = k + l, a->g = g, a->m = (uint64_t)m;
    a->words = (a->m + 63) / 64;
    a->bits = calloc((size_t)(a->n * a->words), sizeof(uint64_t));
    if (!a->bits) {
        free(a);
        return FK_ENOMEM;
    }
    a->capacity = p->capacity;
    a->seed = p->seed;
    a->flip = fk_hash8_flip128(p->seed);
    a->base.ops = best ? &fkc_apbf_best_ops : &fkc_apbf_ops;
    a->base.contains_u64 = apbf_contains_u64;
    *out = &a->base;
    return FK_OK;
}

static fk_status apbf_create(const fk_params *p, fk_filter **out) { return make(p, 0, out); }
static fk_status apbf_best_create(const fk_params *p, fk_filter **out) { return make(p, 1, out); }

static void apbf_destroy(fk_filter *f)
{
    apbf *a = (apbf *)f;
    free(a->bits);
    free(a);
}

static fk_status apbf_insert(fk_filter *f, const void *key, size_t len)
{
    apbf *a = (apbf *)f;
    if (!key && len)
        return FK_EINVAL;
    add(a, fk_hash_key(key, len, a->seed));
    return FK_OK;
}

static fk_status apbf_insert_u64(fk_filter *f, uint64_t key)
{
    apbf *a = (apbf *)f;
    add(a, fk_hash8_128(key, a->flip));
    return FK_OK;
}

static bool apbf_contains(const fk_filter *f, const void *key, size_t len)
{
    const apbf *a = (const apbf *)f;
    if (!key && len)
        return false;
    return probe(a, fk_hash_key(key, len, a->seed));
}

static void apbf_stats(const fk_filter *f, fk_stats *out)
{
    const apbf *a = (const apbf *)f;
    memset(out, 0, sizeof *out);
    uint64_t set = 0;
    for (uint64_t i = 0; i < a->n * a->words; i++)
        set += (uint64_t)__builtin_popcountll(a->bits[i]);
    out->items = a->items;
    out->capacity = a->capacity;
    out->memory_bytes = a->n * a->words * 8 + sizeof *a;
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)a->capacity;
    out->load_factor = (double)set / (double)(a->n * a->m);
    out->expected_fpr = fkc_apbf_theory(a->k, a->l, a->g, a->m);
}

static fk_status size_of(const fk_params *p, int best, fk_sizing *out)
{
    unsigned k, l;
    memset(out, 0, sizeof *out);
    if (fk_params_check(p) != FK_OK || fkc_apbf_choose(p->fpr, best, &k, &l) != 0)
        return FK_EINVAL;
    uint64_t g = p->capacity / l + (p->capacity % l != 0);
    double m = ceil((double)k * (double)g / 0.69314718055994530942);
    double bytes = (double)(k + l) * ceil(m / 64.0) * 8.0 + (double)sizeof(apbf);
    if (!(bytes <= (double)FK_MEMORY_CAP))
        return FK_EINVAL;
    out->memory_bytes = (uint64_t)bytes;
    out->expected_fpr = fkc_apbf_theory(k, l, g, (uint64_t)m);
    snprintf(out->geometry, sizeof out->geometry, "k = %u, l = %u slices of %.0f bits, g = %llu", k, l, m,
             (unsigned long long)g);
    return FK_OK;
}

static fk_status apbf_size(const fk_params *p, double items, fk_sizing *out)
{
    (void)items; /* a window holds its N whatever the stream's length */
    return size_of(p, 0, out);
}

static fk_status apbf_best_size(const fk_params *p, double items, fk_sizing *out)
{
    (void)items;
    return size_of(p, 1, out);
}

int fkc_apbf_shape(const fk_filter *f, uint64_t *window, uint64_t *lifetime, char *shape, size_t len)
{
    if (!f || (f->ops != &fkc_apbf_ops && f->ops != &fkc_apbf_best_ops))
        return -1;
    const apbf *a = (const apbf *)f;
    *window = (uint64_t)a->l * a->g;
    *lifetime = (uint64_t)(a->l + 1) * a->g;
    snprintf(shape, len, "k = %u, l = %u, g = %llu, m = %llu bits per slice", a->k, a->l,
             (unsigned long long)a->g, (unsigned long long)a->m);
    return 0;
}

const fk_ops fkc_apbf_ops = {
    .version = FK_OPS_VERSION,
    .name = "apbf",
    .summary = "baseline: age-partitioned Bloom filter (arXiv 2001.03147), default (k, l); a window of N",
    .caps = FK_CAP_EXPIRES,
    .create = apbf_create,
    .destroy = apbf_destroy,
    .insert = apbf_insert,
    .contains = apbf_contains,
    .stats = apbf_stats,
    .size = apbf_size,
    .insert_u64 = apbf_insert_u64,
};

const fk_ops fkc_apbf_best_ops = {
    .version = FK_OPS_VERSION,
    .name = "apbf-best",
    .summary = "baseline: age-partitioned Bloom filter, the (k, l) of least memory; a window of N",
    .caps = FK_CAP_EXPIRES,
    .create = apbf_best_create,
    .destroy = apbf_destroy,
    .insert = apbf_insert,
    .contains = apbf_contains,
    .stats = apbf_stats,
    .size = apbf_best_size,
    .insert_u64 = apbf_insert_u64,
};
