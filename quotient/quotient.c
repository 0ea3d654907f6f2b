/* quotient/quotient.c: the counting quotient filter's core: sizing,
 * finding runs (rank and select), counters, the writers (one rewrite of
 * the slots from a run to where the shift stops), the walk over every
 * group that merge, grow and the loader share, and the fk_ops table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "quotient_internal.h"
#include "../common/alloc.h"
#include "../common/bits.h"
#include "../common/cpu.h"
#include "../common/sizing_internal.h"
#include "../common/spinlock.h"


/* ------------------------------------------------------------ sizing */

double fk_qf_theory_fpr(uint64_t quotients, uint32_t r, double items)
{
    if (!(items > 0) || quotients == 0)
        return 0.0;
    double p = -expm1(-(items / (double)quotients) * ldexp(1.0, -(int)r));
    return p > 1.0 ? 1.0 : p;
}

static uint64_t block_bytes_of(uint32_t r)
{
    return FK_QF_BLOCK_HEAD + 8u * (uint64_t)r;
}

bool fk_qf_geometry_ok(uint64_t slots, uint64_t quotients, uint32_t r)
{
    if (r < FK_QUOTIENT_MIN_R || r > FK_QUOTIENT_MAX_R)
        return false;
    if (slots == 0 || (slots & 63) != 0 || quotients == 0 || quotients > slots)
        return false;
    uint64_t nb = slots / 64;
    return nb <= (FK_MEMORY_CAP - FK_QF_PAD) / block_bytes_of(r);
}

fk_status fk_qf_geometry(const fk_params *p, uint64_t *slots, uint64_t *quotients, uint32_t *r)
{
    fk_status s = fk_params_check(p);
    if (s != FK_OK)
        return s;
    uint32_t fb = p->fingerprint_bits;
    if (fb != 0 && (fb < FK_QUOTIENT_MIN_R || fb > FK_QUOTIENT_MAX_R))
        return FK_EINVAL;
    double load = p->max_load;
    if (load != 0.0 && !(load > 0.0 && load <= 1.0))
        return FK_EINVAL;
    if (load == 0.0)
        load = FK_QUOTIENT_MAX_LOAD;
    double want = ceil((double)p->capacity / load);
    if (!(want <= 0x1p42)) /* 2^42 slots of >= 4.125 bits pass FK_MEMORY_CAP */
        return FK_EINVAL;
    /* The fewest blocks for `want` slots, then the quotient range: S less
     * a margin for the runs pushed past quotient N - 1 (their pile-up at
     * the end grows like sqrt(S), PAPER_NOTES). Tiny tables add a block
     * so the range stays near `want`. */
    uint64_t nb = ((uint64_t)want + 63) / 64, S, N;
    for (;; nb++) {
        S = nb * 64;
        uint64_t margin = 16 + (uint64_t)ceil(2.0 * sqrt((double)S));
        N = S > margin ? S - margin : 0;
        if (N >= 1 && (double)N >= 0.9 * want)
            break;
    }
    uint32_t bits = fb;
    if (bits == 0)
        for (bits = FK_QUOTIENT_MIN_R; bits < FK_QUOTIENT_MAX_R; bits++)
            if (fk_qf_theory_fpr(N, bits, (double)p->capacity) <= p->fpr)
                break;
    if (!fk_qf_geometry_ok(S, N, bits))
        return FK_EINVAL;
    *slots = S;
    *quotients = N;
    *r = bits;
    return FK_OK;
}

/* ---------------------------------------------------- select and rank */


/* Sets or clears bit j of the block bitmap at byte `at` of each block
 * (0: occupieds, 8: runends). */
static inline void set_bit(fk_quotient *qf, unsigned at, uint64_t j, bool on)
{
    uint8_t *p = fk_qf_block(qf, j >> 6) + at;
    uint64_t w = fk_load_le64(p), bit = UINT64_C(1) << (j & 63);
    fk_store_le64(p, on ? w | bit : w & ~bit);
}

static inline void set_runend(fk_quotient *qf, uint64_t j, bool on) { set_bit(qf, 8, j, on); }

static inline void set_occupied(fk_quotient *qf, uint64_t q, bool on) { set_bit(qf, 0, q, on); }

/* The first set bit >= from, below `limit`, of the block bitmap at byte
 * `at`; limit when none. */
static uint64_t next_bit(const fk_quotient *qf, unsigned at, uint64_t from, uint64_t limit)
{
    if (from >= limit)
        return limit;
    uint64_t b = from >> 6;
    uint64_t w = fk_load_le64(fk_qf_block(qf, b) + at) & (~UINT64_C(0) << (from & 63));
    while (!w) {
        if (++b >= qf->nblocks)
            return limit;
        w = fk_load_le64(fk_qf_block(qf, b) + at);
    }
    uint64_t j = (b << 6) + (uint64_t)__builtin_ctzll(w);
    return j < limit ? j : limit;
}

/* next_bit reading no block past limit's (the concurrent writers read
 * only the regions they hold): the rare writers' scans (rewrite_run). */
static uint64_t next_bit_below(const fk_quotient *qf, unsigned at, uint64_t from, uint64_t limit)
{
    if (from >= limit)
        return limit;
    uint64_t b = from >> 6, last = (limit - 1) >> 6;
    uint64_t w = fk_load_le64(fk_qf_block(qf, b) + at) & (~UINT64_C(0) << (from & 63));
    while (!w) {
        if (++b > last)
            return limit;
        w = fk_load_le64(fk_qf_block(qf, b) + at);
    }
    uint64_t j = (b << 6) + (uint64_t)__builtin_ctzll(w);
    return j < limit ? j : limit;
}

/* The first runend >= from, or S when none (only in a malformed table). */
static uint64_t next_runend(const fk_quotient *qf, uint64_t from)
{
    return next_bit(qf, 8, from, qf->slots);
}

/* Finding places, once per select and popcount (the writers' rank and
 * select: BMI2 and popcnt where the CPU has them, chosen when the filter
 * is made; the same answers either way):
 *
 * nth_runend: the d-th (from 1) runend at or after p0.
 * run_place: where q's run starts, or would start: one past the end of
 *   the last run of a quotient below q, and not before q. The block's
 *   offset says how far the runs of earlier blocks reach into it; the
 *   rank of q in the block's occupieds says how many runs of this block
 *   come before q.
 * first_free: the first free slot at or after j (S when none): a slot is
 *   in use exactly when the last run of a quotient <= it reaches it. From
 *   j, jump by a lower bound of how far the cluster still reaches: the
 *   runs of quotients <= j not ended by j each need one more slot (and
 *   before the block's offset, the earlier blocks' runs too). No select:
 *   two popcounts per jump. */
/* first_free's body, reading no block at or past LIMIT's */
#define FK_QF_FIRST_FREE_BODY(POPCOUNT, LIMIT)                                              \
        while (j < (LIMIT)) {                                                               \
            uint64_t b = j >> 6;                                                            \
            unsigned i = (unsigned)(j & 63), off = fk_qf_offset(qf, b);                     \
            uint64_t upto = ~UINT64_C(0) >> (63 - i);                                       \
            unsigned d = POPCOUNT(fk_qf_occupieds(qf, b) & upto);                           \
            if (off > i) {                                                                  \
                j += off - i + d;                                                           \
                continue;                                                                   \
            }                                                                               \
            uint64_t re = fk_qf_runends(qf, b) & upto & (~UINT64_C(0) << off);              \
            unsigned open = d - POPCOUNT(re);                                               \
            if (open > 0)                                                                   \
                j += open;                                                                  \
            else if ((re >> i) & 1)                                                         \
                j++;                                                                        \
            else                                                                            \
                return j;                                                                   \
        }                                                                                   \
        return (LIMIT);

#define FK_QF_DEFINE_PLACING(SUFFIX, ATTR, SELECT, POPCOUNT)                                \
    ATTR static uint64_t nth_runend_##SUFFIX(const fk_quotient *qf, uint64_t p0, unsigned d) \
    {                                                                                       \
        uint64_t w = p0 >> 6;                                                               \
        uint64_t re = fk_qf_runends(qf, w) & (~UINT64_C(0) << (p0 & 63));                  \
        unsigned c = POPCOUNT(re);                                                          \
        while (c < d) {                                                                     \
            d -= c;                                                                         \
            if (++w >= qf->nblocks)                                                         \
                return qf->slots;                                                           \
            re = fk_qf_runends(qf, w);                                                      \
            c = POPCOUNT(re);                                                               \
        }                                                                                   \
        return (w << 6) + SELECT(re, d - 1);                                                \
    }                                                                                       \
    ATTR static uint64_t run_place_##SUFFIX(const fk_quotient *qf, uint64_t q)              \
    {                                                                                       \
        uint64_t b = q >> 6;                                                                \
        uint64_t below = fk_qf_occupieds(qf, b) & ((UINT64_C(1) << (q & 63)) - 1);          \
        uint64_t p0 = (b << 6) + fk_qf_offset(qf, b);                                       \
        unsigned d = POPCOUNT(below);                                                       \
        uint64_t at = d == 0 ? p0 : nth_runend_##SUFFIX(qf, p0, d) + 1;                     \
        return at > q ? at : q;                                                             \
    }                                                                                       \
    ATTR static uint64_t first_free_##SUFFIX(const fk_quotient *qf, uint64_t j)             \
    {                                                                                       \
        FK_QF_FIRST_FREE_BODY(POPCOUNT, qf->slots)                                          \
    }                                                                                       \
    ATTR static uint64_t first_free_below_##SUFFIX(const fk_quotient *qf, uint64_t j,       \
                                                   uint64_t limit)                          \
    {                                                                                       \
        FK_QF_FIRST_FREE_BODY(POPCOUNT, limit)                                              \
    }

#define FK_QF_SELECT_PORTABLE(w, k) fk_rs_select((w), (k))
FK_QF_DEFINE_PLACING(portable, , FK_QF_SELECT_PORTABLE, fk_rs_popcount)
#if FK_CPU_X86
#define FK_QF_SELECT_BMI2(w, k) fk_rs_select_bmi2((w), (k))
#define FK_QF_POPCNT(w) FK_RS_POPCNT(w)
FK_QF_DEFINE_PLACING(bmi2, FK_TARGET_BMI2_POPCNT, FK_QF_SELECT_BMI2,
                     FK_QF_POPCNT)
#define FK_QF_PLACING(qf, name, ...) \
    ((qf)->bmi2 ? name##_bmi2(qf, __VA_ARGS__) : name##_portable(qf, __VA_ARGS__))
#else
#define FK_QF_PLACING(qf, name, ...) name##_portable(qf, __VA_ARGS__)
#endif

static uint64_t run_place(const fk_quotient *qf, uint64_t q)
{
    return FK_QF_PLACING(qf, run_place, q);
}

static uint64_t first_free(const fk_quotient *qf, uint64_t j)
{
    return FK_QF_PLACING(qf, first_free, j);
}

/* The first free slot in [j, limit), or limit: reads no block at or past
 * limit's. */
static uint64_t first_free_below(const fk_quotient *qf, uint64_t j, uint64_t limit)
{
    return FK_QF_PLACING(qf, first_free_below, j, limit);
}

/* The last runend in [lo, hi), or lo - 1 when there is none. */
static uint64_t last_runend_before(const fk_quotient *qf, uint64_t lo, uint64_t hi)
{
    while (hi > lo) {
        uint64_t w = (hi - 1) >> 6;
        uint64_t m = fk_qf_runends(qf, w);
        unsigned top = (unsigned)((hi - 1) & 63);
        m &= top == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (top + 1)) - 1;
        if ((w << 6) < lo)
            m &= ~UINT64_C(0) << (lo & 63);
        if (m)
            return (w << 6) + 63 - (uint64_t)__builtin_clzll(m);
        hi = w << 6;
    }
    return lo - 1;
}

/* ---------------------------------------------------------- counters */

unsigned fk_qf_encode(const fk_quotient *qf, uint64_t x, uint64_t count,
                      uint64_t out[FK_QF_GROUP_MAX])
{
    unsigned n = 0;
    out[n++] = x;
    if (count == 1)
        return n;
    if (count == 2 || (count == 3 && x == 0)) {
        out[n++] = x;
        if (count == 3)
            out[n++] = x;
        return n;
    }
    uint64_t base = x == 0 ? qf->rmask : qf->rmask - 1; /* 2^r - 1 or 2^r - 2 */
    uint64_t v = x == 0 ? count - 4 : count - 3;
    uint64_t digits[FK_QF_GROUP_MAX];
    unsigned nd = 0;
    do {
        uint64_t d = v % base, sym = d + 1;
        if (x != 0 && sym >= x)
            sym++;
        digits[nd++] = sym;
        v /= base;
    } while (v);
    if (x != 0 && digits[nd - 1] > x)
        out[n++] = 0; /* marker: the slot after x must be below x */
    while (nd)
        out[n++] = digits[--nd];
    out[n++] = x;
    if (x == 0)
        out[n++] = 0;
    return n;
}

size_t fk_qf_decode(const fk_quotient *qf, const uint64_t *vals, size_t i, size_t n,
                    uint64_t *x, uint64_t *count)
{
    uint64_t v = vals[i];
    *x = v;
    *count = 1;
    if (i + 1 >= n)
        return i + 1;
    uint64_t y = vals[i + 1];
    if (v > 0) {
        if (y > v)
            return i + 1;
        if (y == v) {
            *count = 2;
            return i + 2;
        }
        size_t k = i + 1 + (y == 0);
        uint64_t base = qf->rmask - 1, c = 0;
        if (k >= n || vals[k] == v || vals[k] == 0)
            return 0; /* a marker must come before a digit */
        for (; k < n && vals[k] != v; k++) {
            uint64_t s = vals[k];
            if (s == 0)
                return 0;
            uint64_t d = s - 1 - (s > v);
            if (c > (UINT64_MAX - d) / base)
                return 0;
            c = c * base + d;
        }
        if (k >= n || c > UINT64_MAX - 3)
            return 0;
        *count = c + 3;
        return k + 1;
    }
    if (y == 0) {
        if (i + 2 < n && vals[i + 2] == 0) {
            *count = 3;
            return i + 3;
        }
        *count = 2;
        return i + 2;
    }
    size_t k = i + 1;
    while (k < n && vals[k] != 0)
        k++;
    if (k + 1 >= n || vals[k + 1] != 0)
        return i + 1; /* no "0 0": the next group begins at i + 1 */
    uint64_t base = qf->rmask, c = 0;
    for (size_t t = i + 1; t < k; t++) {
        uint64_t d = vals[t] - 1;
        if (c > (UINT64_MAX - d) / base)
            return 0;
        c = c * base + d;
    }
    if (c > UINT64_MAX - 4)
        return 0;
    *count = c + 4;
    return k + 2;
}

/* ------------------------------------------------------------ lookups */

/* Past the group that starts at slot j of a run ending at e (its
 * remainder v): the table-reading twin of fk_qf_decode, without the
 * count. The common case (a count of 1, the next remainder above) reads
 * one more slot. */
static inline uint64_t group_next(const fk_quotient *qf, uint64_t j, uint64_t e, uint64_t v)
{
    if (j >= e)
        return j + 1;
    uint64_t y = fk_qf_slot(qf, j + 1);
    if (v > 0) {
        if (y > v)
            return j + 1;
        if (y == v)
            return j + 2;
        uint64_t k = j + 1 + (y == 0);
        while (k <= e && fk_qf_slot(qf, k) != v)
            k++;
        return k + 1;
    }
    if (y == 0)
        return j + 2 + (j + 2 <= e && fk_qf_slot(qf, j + 2) == 0);
    for (uint64_t k = j + 2; k <= e; k++)
        if (fk_qf_slot(qf, k) == 0)
            return k + 1 <= e && fk_qf_slot(qf, k + 1) == 0 ? k + 2 : j + 1;
    return j + 1;
}

/* Whether remainder x has a group in the run [start, end], walked group
 * by group (remainders rise along it). Out of line: runs of three slots
 * or more are rare, and the common path then needs no saved registers. */
__attribute__((noinline)) static bool run_has(const fk_quotient *qf, uint64_t start, uint64_t end,
                                              uint64_t x)
{
    for (uint64_t j = start;;) {
        uint64_t v = fk_qf_slot(qf, j);
        if (v >= x)
            return v == x;
        j = group_next(qf, j, end, v);
        if (j > end)
            return false;
    }
}

/* The lookup of a hashed key, once per select: the block of q tells in
 * one bit whether q has a run; if so, the rank of q among the block's
 * occupied quotients, counted from the block's offset, is the number of
 * the runend that ends q's run, found with a select; the run is then
 * walked group by group (remainders rise along it). */
#define FK_QF_DEFINE_LOOKUP(NAME, ATTR, SELECT, POPCOUNT)                                  \
    ATTR __attribute__((noinline)) static bool NAME##_run(const fk_quotient *qf, uint64_t q, \
                                                          uint64_t x, const uint8_t *blk,   \
                                                          uint64_t occ)                     \
    {                                                                                       \
        uint64_t b = q >> 6;                                                                \
        unsigned i = (unsigned)(q & 63);                                                    \
        unsigned d = POPCOUNT(occ & (~UINT64_C(0) >> (63 - i)));                       \
        uint64_t p0 = (b << 6) + blk[16], w = p0 >> 6;                                      \
        uint64_t re = fk_qf_runends(qf, w) & (~UINT64_C(0) << (p0 & 63));                   \
        unsigned c = POPCOUNT(re);                                                     \
        while (c < d) {                                                                     \
            d -= c;                                                                         \
            re = fk_qf_runends(qf, ++w);                                                    \
            c = POPCOUNT(re);                                                          \
        }                                                                                   \
        uint64_t end = (w << 6) + SELECT(re, d - 1), start;                                 \
        /* the slot after the previous runend, branch-free in the common   \
         * case (both runends in this word, or the run first after p0) */   \
        if (__builtin_expect(d >= 2 || w == p0 >> 6, 1)) {                                  \
            uint64_t prev = (w << 6) + SELECT(re, d >= 2 ? d - 2 : 0) + 1;                  \
            start = d >= 2 ? prev : p0;                                                     \
        } else {                                                                            \
            start = last_runend_before(qf, p0, w << 6) + 1;                                 \
        }                                                                                   \
        start = start < q ? q : start;                                                      \
        /* Runs of one or two slots (87% of runs at load 0.95) hold one or \
         * two remainders and no counter: compare both without branches.  */ \
        uint64_t v1 = fk_qf_slot(qf, end), v0 = fk_qf_slot(qf, end - (end > start));        \
        bool hit = (v1 == x) | (v0 == x);                                                   \
        if (__builtin_expect(end - start < 2, 1))                                           \
            return hit;                                                                     \
        return run_has(qf, start, end, x);                                                  \
    }                                                                                       \
    /* q without a run (a third of the absent keys at load 0.95) ends here, \
     * before the run's part saves any register */                          \
    ATTR static inline bool NAME(const fk_quotient *qf, uint64_t h)                         \
    {                                                                                       \
        uint64_t x, q = fk_qf_quotient(qf, h, &x);                                          \
        const uint8_t *blk = fk_qf_block(qf, q >> 6);                                       \
        /* a block spans two or three lines: ask for the next one now, so  \
         * its miss overlaps the header's (the run is usually there) */      \
        __builtin_prefetch(blk + 64);                                                       \
        uint64_t occ = fk_load_le64(blk);                                                   \
        if (!((occ >> (q & 63)) & 1))                                                       \
            return false;                                                                   \
        return NAME##_run(qf, q, x, blk, occ);                                              \
    }

/* Each lookup also comes with the key's hash inlined into it. */
#define FK_QF_DEFINE_KEY_LOOKUP(NAME, BODY, ATTR)                                          \
    ATTR __attribute__((noinline)) static bool NAME##_any(const fk_quotient *qf,            \
                                                          const void *key, size_t len)      \
    {                                                                                       \
        if (!key && len > 0)                                                                \
            return false;                                                                   \
        return BODY(qf, fk_qf_hash(qf, key, len));                                    \
    }                                                                                       \
    /* 8-byte keys (XXH3's 8-byte path, the seed's part made once) stay in \
     * registers the caller does not save; other lengths go out of line */  \
    ATTR static bool NAME(const fk_quotient *qf, const void *key, size_t len)               \
    {                                                                                       \
        if (__builtin_expect(len == 8 && key != NULL, 1))                                   \
            return BODY(qf, fk_qf_hash8(fk_load_le64(key), qf->flip));                      \
        return NAME##_any(qf, key, len);                                                    \
    }                                                                                       \
    /* 64-bit keys: their 8 little-endian bytes, hashed the same way; the      \
     * filter's one 64-bit lookup (base.contains_u64) */                        \
    ATTR static bool NAME##_u64(const fk_filter *f, uint64_t key)                           \
    {                                                                                       \
        const fk_quotient *qf = (const fk_quotient *)f;                                     \
        return BODY(qf, fk_qf_hash8(key, qf->flip));                                        \
    }

FK_QF_DEFINE_LOOKUP(lookup_portable, , FK_QF_SELECT_PORTABLE, fk_rs_popcount)
FK_QF_DEFINE_KEY_LOOKUP(lookup_key_portable, lookup_portable, )
#if FK_CPU_X86
FK_QF_DEFINE_LOOKUP(lookup_bmi2, FK_TARGET_BMI2_POPCNT, FK_QF_SELECT_BMI2,
                    FK_QF_POPCNT)
FK_QF_DEFINE_KEY_LOOKUP(lookup_key_bmi2, lookup_bmi2, FK_TARGET_BMI2_POPCNT)
#endif

static bool cpu_has_bmi2(void)
{
#if FK_CPU_X86
    return fk_cpu_has(FK_CPU_BMI2 | FK_CPU_POPCNT);
#else
    return false;
#endif
}

void fk_qf_use_portable(fk_quotient *qf)
{
    qf->bmi2 = false;
    qf->lookup = lookup_portable;
    qf->lookup_key = lookup_key_portable;
    qf->base.contains_u64 = lookup_key_portable_u64;
}

static void choose_paths(fk_quotient *qf)
{
#if FK_CPU_X86
    if (cpu_has_bmi2()) {
        qf->bmi2 = true;
        qf->lookup = lookup_bmi2;
        qf->lookup_key = lookup_key_bmi2;
        qf->base.contains_u64 = lookup_key_bmi2_u64;
        return;
    }
#endif
    fk_qf_use_portable(qf);
}

/* --------------------------------------------------------------- create */

/* fk_qf_create_exact; eager: the table is zeroed by a memset (merge and
 * grow write the whole of it next, see fk_alloc_zeroed_eager). */
static fk_status create_exact(uint64_t slots, uint64_t quotients, uint32_t r, uint64_t seed,
                              uint64_t capacity, double fpr, bool eager, fk_quotient **out)
{
    *out = NULL;
    if (!fk_qf_geometry_ok(slots, quotients, r))
        return FK_EINVAL;
    fk_quotient *qf = calloc(1, sizeof *qf);
    if (!qf)
        return FK_ENOMEM;
    qf->nblocks = slots / 64;
    qf->block_bytes = (uint32_t)block_bytes_of(r);
    void *t = NULL;
    uint64_t bytes = qf->nblocks * qf->block_bytes + FK_QF_PAD;
    fk_status s = eager ? fk_alloc_zeroed_eager(bytes, &t) : fk_alloc_zeroed(bytes, &t);
    if (s != FK_OK) {
        free(qf);
        return s;
    }
    qf->base.ops = &fk_quotient_ops;
    qf->table = t;
    qf->slots = slots;
    qf->quotients = quotients;
    qf->r = r;
    qf->rmask = (UINT64_C(1) << r) - 1;
    choose_paths(qf);
    qf->seed = seed;
    qf->flip = fk_qf_seed_flip(seed);
    qf->capacity = capacity;
    qf->fpr = fpr;
    *out = qf;
    return FK_OK;
}

fk_status fk_qf_create_exact(uint64_t slots, uint64_t quotients, uint32_t r, uint64_t seed,
                             uint64_t capacity, double fpr, fk_quotient **out)
{
    return create_exact(slots, quotients, r, seed, capacity, fpr, false, out);
}

fk_status fk_quotient_new(const fk_params *p, fk_quotient **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    uint64_t S, N;
    uint32_t r;
    fk_status s = fk_qf_geometry(p, &S, &N, &r);
    if (s != FK_OK)
        return s;
    s = fk_qf_create_exact(S, N, r, p->seed, p->capacity, p->fpr, out);
    if (s == FK_OK)
        (*out)->max_bytes = fk_params_max_bytes(p);
    return s;
}

/* Releases what the concurrent writers allocated (the writers done). */
static void release_concurrent(fk_quotient *qf)
{
    free(atomic_load_explicit(&qf->locks, memory_order_relaxed));
    atomic_store_explicit(&qf->locks, NULL, memory_order_relaxed);
    fk_tallies_release(&qf->c_counts);
}

void fk_quotient_free(fk_quotient *qf)
{
    if (!qf)
        return;
    release_concurrent(qf);
    free(qf->table);
    free(qf);
}

void fk_qf_settle(fk_quotient *qf)
{
    qf->items = fk_qf_sum_items(qf);
    qf->distinct = fk_qf_distinct(qf);
    qf->used = fk_qf_used(qf);
    fk_tallies_reset(&qf->c_counts, FK_QF_C_FIELDS);
}

static uint64_t table_bytes(const fk_quotient *qf)
{
    return qf->nblocks * qf->block_bytes + FK_QF_PAD;
}

/* ------------------------------------------------------------- scratch
 *
 * A growable array of u64 that starts on the caller's stack: clusters
 * are short (tens of slots at load 0.95), a pathological one goes to the
 * heap. */
typedef struct {
    uint64_t *v;
    size_t    n, cap;
    bool      heap;
} u64vec;

static void vec_init(u64vec *a, uint64_t *stack, size_t cap)
{
    a->v = stack;
    a->n = 0;
    a->cap = cap;
    a->heap = false;
}

/* Moves a full stack buffer to the heap, doubled (out of line: rare). */
static bool vec_grow(u64vec *a)
{
    {
        size_t cap = a->cap * 2;
        uint64_t *v = a->heap ? realloc(a->v, cap * sizeof *v) : malloc(cap * sizeof *v);
        if (!v)
            return false;
        if (!a->heap)
            memcpy(v, a->v, a->n * sizeof *v);
        a->v = v;
        a->cap = cap;
        a->heap = true;
    }
    return true;
}

static inline bool vec_push(u64vec *a, uint64_t x)
{
    if (__builtin_expect(a->n == a->cap, 0) && !vec_grow(a))
        return false;
    a->v[a->n++] = x;
    return true;
}

static void vec_free(u64vec *a)
{
    if (a->heap)
        free(a->v);
}

/* -------------------------------------------------------------- writers
 *
 * Every change is "q's run becomes these slots": the run (at P, oldlen
 * slots, 0 when q had none) is replaced by nv[0..nlen). When the length
 * changes, the runs after it in its cluster move: each starts at
 * max(its quotient, the previous run's end + 1), so a longer run pushes
 * them right until a gap absorbs the shift, and a shorter one lets them
 * slide back towards their quotients. The first pass finds every run
 * that moves and checks that the result fits (slots and offsets); only
 * then does the second pass write, so FK_EFULL and FK_ENOMEM leave the
 * table as it was. */

typedef struct {
    uint64_t q, old_start, new_start, len;
} moved_run;

static fk_status rewrite_run(fk_quotient *qf, uint64_t P, uint64_t q, uint64_t oldlen,
                             const uint64_t *nv, uint64_t nlen, uint64_t qlimit)
{
    if (nlen == oldlen) {
        for (uint64_t t = 0; t < nlen; t++)
            fk_qf_set_slot(qf, P + t, nv[t]);
        return FK_OK;
    }
    uint64_t old_next = P + oldlen, new_pos = P + nlen;
    if (new_pos > qf->slots)
        return FK_EFULL;
    moved_run stack_runs[64];
    moved_run *runs = stack_runs;
    size_t nruns = 0, cap = 64;
    fk_status st = FK_OK;
    /* qlimit (N, or the end of the regions a concurrent writer holds,
     * past the free slots that end the moves) stops the scan for the next
     * run: no run at or after it moves */
    for (uint64_t oq = next_bit_below(qf, 0, q + 1, qlimit); oq < qlimit;
         oq = next_bit_below(qf, 0, oq + 1, qlimit)) {
        uint64_t os = oq > old_next ? oq : old_next;
        uint64_t ns = oq > new_pos ? oq : new_pos;
        if (os == ns)
            break;
        uint64_t len = next_runend(qf, os) - os + 1;
        if (ns + len > qf->slots) {
            st = FK_EFULL;
            goto out;
        }
        if (nruns == cap) {
            moved_run *m = malloc(2 * cap * sizeof *m);
            if (!m) {
                st = FK_ENOMEM;
                goto out;
            }
            memcpy(m, runs, nruns * sizeof *m);
            if (runs != stack_runs)
                free(runs);
            runs = m;
            cap *= 2;
        }
        runs[nruns++] = (moved_run){ oq, os, ns, len };
        old_next = os + len;
        new_pos = ns + len;
    }
    uint64_t hi = old_next > new_pos ? old_next : new_pos;

    /* Offsets of the blocks starting in (q, hi]: how far the last run of
     * a quotient below the block's first slot reaches into it. */
    uint64_t b_lo = (q >> 6) + 1, b_hi = hi >> 6;
    if (b_hi >= qf->nblocks)
        b_hi = qf->nblocks - 1;
    uint8_t stack_offs[64], *offs = stack_offs;
    if (b_hi >= b_lo && b_hi - b_lo + 1 > sizeof stack_offs) {
        offs = malloc((size_t)(b_hi - b_lo + 1));
        if (!offs) {
            st = FK_ENOMEM;
            goto out;
        }
    }
    for (uint64_t b = b_lo; b <= b_hi; b++) {
        /* runs before P end at P - 1 at most */
        uint64_t s = b << 6, reach = P;
        if (nlen > 0 && q < s)
            reach = P + nlen;
        for (size_t k = 0; k < nruns && runs[k].q < s; k++)
            reach = runs[k].new_start + runs[k].len;
        uint64_t off = reach > s ? reach - s : 0;
        if (off > FK_QF_OFFSET_MAX) {
            st = FK_EFULL;
            goto out_offs;
        }
        offs[b - b_lo] = (uint8_t)off;
    }

    /* The moving runs' slots, read before anything is overwritten. */
    uint64_t total = 0;
    for (size_t k = 0; k < nruns; k++)
        total += runs[k].len;
    uint64_t stack_vals[512];
    uint64_t *vals = stack_vals;
    if (total > 512 && !(vals = malloc((size_t)total * sizeof *vals))) {
        st = FK_ENOMEM;
        goto out_offs;
    }
    for (size_t k = 0, at = 0; k < nruns; k++)
        for (uint64_t t = 0; t < runs[k].len; t++)
            vals[at++] = fk_qf_slot(qf, runs[k].old_start + t);

    /* Write: q's run, then each moved run, clearing the slots between. */
    for (uint64_t t = 0; t < nlen; t++) {
        fk_qf_set_slot(qf, P + t, nv[t]);
        set_runend(qf, P + t, t + 1 == nlen);
    }
    uint64_t cursor = P + nlen;
    for (size_t k = 0, at = 0; k < nruns; k++) {
        for (; cursor < runs[k].new_start; cursor++) {
            fk_qf_set_slot(qf, cursor, 0);
            set_runend(qf, cursor, false);
        }
        for (uint64_t t = 0; t < runs[k].len; t++) {
            fk_qf_set_slot(qf, cursor, vals[at++]);
            set_runend(qf, cursor, t + 1 == runs[k].len);
            cursor++;
        }
    }
    for (; cursor < old_next; cursor++) {
        fk_qf_set_slot(qf, cursor, 0);
        set_runend(qf, cursor, false);
    }
    set_occupied(qf, q, nlen > 0);
    for (uint64_t b = b_lo; b <= b_hi; b++)
        fk_qf_block(qf, b)[16] = offs[b - b_lo];
    if (vals != stack_vals)
        free(vals);
out_offs:
    if (offs != stack_offs)
        free(offs);
out:
    if (runs != stack_runs)
        free(runs);
    return st;
}

/* ------------------------------------------- the one-slot shift
 *
 * Most changes lengthen q's run by one slot (a new key, a count of 1
 * becoming 2). Then every slot from the end of q's run to the first free
 * slot moves exactly one place right, and every block starting in
 * between gains one in its offset; the shift is done a word at a time
 * (remainders and runends), never slot by slot. */

/* Moves the remainders of slots [a, b) of one block (0 <= a < b <= 64)
 * up by one slot, as one bit string shifted left by r; slot 63 falls off
 * (the caller carries it). */
static void shift_block_up(fk_quotient *qf, uint8_t *blk, unsigned a, unsigned b)
{
    const unsigned r = qf->r;
    uint8_t *area = blk + FK_QF_BLOCK_HEAD;
    uint64_t lo = (uint64_t)a * r + r, hi = (uint64_t)b * r + r;
    if (hi > 64u * r)
        hi = 64u * r;
    if (lo >= hi)
        return;
    for (uint64_t k = (hi - 1) >> 6;; k--) {
        uint64_t w = fk_load_le64(area + 8 * k);
        uint64_t prev = k ? fk_load_le64(area + 8 * (k - 1)) : 0;
        uint64_t up = (w << r) | (prev >> (64 - r));
        uint64_t base = k << 6, m = ~UINT64_C(0);
        if (lo > base)
            m &= ~UINT64_C(0) << (lo - base);
        if (hi < base + 64)
            m &= (UINT64_C(1) << (hi - base)) - 1;
        fk_store_le64(area + 8 * k, (w & ~m) | (up & m));
        if (k == lo >> 6)
            break;
    }
}

/* Moves slots [from, e) (values and runend bits) to [from + 1, e + 1);
 * slot e is free. Slot `from` keeps its old content for the caller to
 * overwrite. */
static void shift_up_one(fk_quotient *qf, uint64_t from, uint64_t e)
{
    if (from >= e)
        return;
    uint64_t bf = from >> 6, be = e >> 6;
    for (uint64_t B = be;; B--) {
        uint8_t *blk = fk_qf_block(qf, B);
        unsigned a = B == bf ? (unsigned)(from & 63) : 0;
        unsigned b = B == be ? (unsigned)(e & 63) : 64;
        if (b == 64) { /* slot 63 carries into the next block's slot 0 */
            uint64_t s63 = (B << 6) + 63;
            fk_qf_set_slot(qf, s63 + 1, fk_qf_slot(qf, s63));
            set_runend(qf, s63 + 1, fk_qf_is_runend(qf, s63));
        }
        if (a < b && a < 63) { /* (a = 63: slot 63 only, carried above) */
            shift_block_up(qf, blk, a, b);
            uint64_t re = fk_load_le64(blk + 8);
            uint64_t m = ~UINT64_C(0) << (a + 1);
            if (b < 63)
                m &= (UINT64_C(1) << (b + 1)) - 1;
            fk_store_le64(blk + 8, (re & ~m) | ((re << 1) & m));
        }
        if (B == bf)
            break;
    }
}

/* q's run (at P, oldlen slots) becomes nv[0..oldlen]: one slot longer.
 * FK_EFULL (nothing changed) when no free slot follows or an offset
 * would pass 255. Inlined into both writers (plain and concurrent), as it
 * was into the one before there were two. */
__attribute__((always_inline)) static inline fk_status
grow_run_by_one(fk_quotient *qf, uint64_t P, uint64_t q, uint64_t oldlen, const uint64_t *nv)
{
    uint64_t from = P + oldlen, e = first_free(qf, from);
    if (e >= qf->slots)
        return FK_EFULL;
    uint64_t b_lo = (q >> 6) + 1, b_hi = e >> 6;
    for (uint64_t b = b_lo; b <= b_hi; b++)
        if (fk_qf_offset(qf, b) >= FK_QF_OFFSET_MAX)
            return FK_EFULL;
    shift_up_one(qf, from, e);
    for (uint64_t b = b_lo; b <= b_hi; b++)
        fk_qf_block(qf, b)[16]++;
    uint64_t nlen = oldlen + 1;
    for (uint64_t t = 0; t < nlen; t++) {
        fk_qf_set_slot(qf, P + t, nv[t]);
        set_runend(qf, P + t, t + 1 == nlen);
    }
    set_occupied(qf, q, true);
    return FK_OK;
}

/* Reads q's run (at P, len slots) into a. */
static bool read_run(const fk_quotient *qf, uint64_t P, uint64_t len, u64vec *a)
{
    for (uint64_t t = 0; t < len; t++)
        if (!vec_push(a, fk_qf_slot(qf, P + t)))
            return false;
    return true;
}

/* Finds remainder x in the run's slots: [*gs, *ge) is its group (empty,
 * at the place it would go, when absent); returns its count (0 absent). */
static uint64_t find_group(const fk_quotient *qf, const uint64_t *vals, size_t n, uint64_t x,
                           size_t *gs, size_t *ge)
{
    size_t i = 0;
    while (i < n) {
        uint64_t v, c;
        size_t next = fk_qf_decode(qf, vals, i, n, &v, &c);
        if (v == x) {
            *gs = i;
            *ge = next;
            return c;
        }
        if (v > x || next == 0)
            break;
        i = next;
    }
    *gs = *ge = i;
    return 0;
}

/* Adds `add` to the count of (q, x), or takes one away when add is 0;
 * P is run_place(q). qlimit: as rewrite_run's; concurrent: the counts'
 * changes go to the writers' tallies (both constants where it is inlined,
 * so the plain writers' code is what it was). */
__attribute__((always_inline)) static inline fk_status
change_count_at_as(fk_quotient *qf, uint64_t q, uint64_t x, uint64_t add, bool occupied,
                   uint64_t P, uint64_t qlimit, bool concurrent)
{
    if (P >= qf->slots)
        return FK_EFULL;
    uint64_t oldlen = occupied ? next_runend(qf, P) - P + 1 : 0;
    uint64_t s_old[256], s_new[256];
    u64vec old, nv;
    vec_init(&old, s_old, 256);
    vec_init(&nv, s_new, 256);
    fk_status st = FK_OK;
    if (!read_run(qf, P, oldlen, &old)) {
        st = FK_ENOMEM;
        goto out;
    }
    size_t gs, ge;
    uint64_t c = find_group(qf, old.v, old.n, x, &gs, &ge);
    uint64_t nc;
    if (add == 0) {
        if (c == 0) {
            st = FK_ENOTFOUND;
            goto out;
        }
        nc = c - 1;
    } else {
        /* a count stops at UINT64_MAX rather than wrap */
        nc = c > UINT64_MAX - add ? UINT64_MAX : c + add;
        if (nc == c)
            goto out; /* already saturated: nothing changes */
    }
    uint64_t enc[FK_QF_GROUP_MAX];
    unsigned elen = nc ? fk_qf_encode(qf, x, nc, enc) : 0;
    bool ok = true;
    for (size_t t = 0; t < gs; t++)
        ok &= vec_push(&nv, old.v[t]);
    for (unsigned t = 0; t < elen; t++)
        ok &= vec_push(&nv, enc[t]);
    for (size_t t = ge; t < old.n; t++)
        ok &= vec_push(&nv, old.v[t]);
    if (!ok) {
        st = FK_ENOMEM;
        goto out;
    }
    st = nv.n == oldlen + 1 ? grow_run_by_one(qf, P, q, oldlen, nv.v)
                            : rewrite_run(qf, P, q, oldlen, nv.v, nv.n, qlimit);
    if (st == FK_OK && concurrent) {
        fk_tally_row r = fk_tallies_row(&qf->c_counts, FK_QF_C_FIELDS);
        fk_tally_row_add(r, FK_QF_C_ITEMS, nc - c);
        fk_tally_row_add(r, FK_QF_C_DISTINCT, (uint64_t)(int64_t)((c == 0) - (nc == 0)));
        fk_tally_row_add(r, FK_QF_C_USED, nv.n - oldlen);
    } else if (st == FK_OK) {
        qf->items = qf->items + nc - c;
        qf->distinct += (c == 0) - (nc == 0);
        qf->used = qf->used + nv.n - oldlen;
    }
out:
    vec_free(&old);
    vec_free(&nv);
    return st;
}

static fk_status change_count_at(fk_quotient *qf, uint64_t q, uint64_t x, uint64_t add,
                                 bool occupied, uint64_t P)
{
    return change_count_at_as(qf, q, x, add, occupied, P, qf->quotients, false);
}

static fk_status change_count(fk_quotient *qf, uint64_t q, uint64_t x, uint64_t add)
{
    bool occupied = fk_qf_is_occupied(qf, q);
    if (!occupied && add == 0)
        return FK_ENOTFOUND;
    return change_count_at(qf, q, x, add, occupied, run_place(qf, q));
}

fk_status fk_qf_insert_hash(fk_quotient *qf, uint64_t h)
{
    uint64_t x, q = fk_qf_quotient(qf, h, &x);
    bool occupied = fk_qf_is_occupied(qf, q);
    uint64_t P = run_place(qf, q);
    /* The common case at any load below full: q has no run and slot q is
     * free (nothing before q reaches it), so the key takes it alone. */
    if (!occupied && P == q) {
        fk_qf_set_slot(qf, q, x);
        set_runend(qf, q, true);
        set_occupied(qf, q, true);
        qf->items++;
        qf->distinct++;
        qf->used++;
        return FK_OK;
    }
    return change_count_at(qf, q, x, 1, occupied, P);
}

fk_status fk_quotient_insert(fk_quotient *qf, const void *key, size_t len)
{
    if (!qf || (!key && len > 0))
        return FK_EINVAL;
    if (len == 8)
        return fk_qf_insert_hash(qf, fk_qf_hash8(fk_load_le64(key), qf->flip));
    return fk_qf_insert_hash(qf, fk_qf_hash(qf, key, len));
}

bool fk_quotient_contains(const fk_quotient *qf, const void *key, size_t len)
{
    if (!qf)
        return false;
    return qf->lookup_key(qf, key, len); /* which checks the key */
}

fk_status fk_quotient_remove(fk_quotient *qf, const void *key, size_t len)
{
    if (!qf || (!key && len > 0))
        return FK_EINVAL;
    uint64_t x, q = fk_qf_quotient(qf, fk_qf_hash(qf, key, len), &x);
    return change_count(qf, q, x, 0);
}

/* The count of (q, x) and its group's slots; the run's place in *P and *e. */
static fk_status count_of(const fk_quotient *qf, uint64_t q, uint64_t x, uint64_t *count,
                          uint64_t *slots, uint64_t *P, uint64_t *e)
{
    *count = *slots = 0;
    *P = run_place(qf, q);
    *e = *P;
    if (!fk_qf_is_occupied(qf, q))
        return FK_OK;
    *e = next_runend(qf, *P);
    uint64_t s_old[256];
    u64vec run;
    vec_init(&run, s_old, 256);
    if (!read_run(qf, *P, *e - *P + 1, &run)) {
        vec_free(&run);
        return FK_ENOMEM;
    }
    size_t gs, ge;
    *count = find_group(qf, run.v, run.n, x, &gs, &ge);
    *slots = ge - gs;
    vec_free(&run);
    return FK_OK;
}

fk_status fk_quotient_count(const fk_quotient *qf, const void *key, size_t len, uint64_t *count)
{
    if (count)
        *count = 0;
    if (!qf || !count || (!key && len > 0))
        return FK_EINVAL;
    uint64_t x, q = fk_qf_quotient(qf, fk_qf_hash(qf, key, len), &x);
    if (!fk_qf_is_occupied(qf, q))
        return FK_OK;
    uint64_t slots, P, e;
    return count_of(qf, q, x, count, &slots, &P, &e);
}

fk_status fk_quotient_locate(const fk_quotient *qf, const void *key, size_t len,
                             fk_quotient_location *out)
{
    if (!qf || !out || (!key && len > 0))
        return FK_EINVAL;
    memset(out, 0, sizeof *out);
    out->hash = fk_qf_hash(qf, key, len);
    out->quotient = fk_qf_quotient(qf, out->hash, &out->remainder);
    out->occupied = fk_qf_is_occupied(qf, out->quotient);
    fk_status s = count_of(qf, out->quotient, out->remainder, &out->count, &out->group_slots,
                           &out->run_start, &out->run_end);
    out->shift = out->run_start - out->quotient;
    return s;
}

fk_status fk_quotient_cell(const fk_quotient *qf, uint64_t j, fk_quotient_slot_info *out)
{
    if (!qf || !out || j >= qf->slots)
        return FK_EINVAL;
    out->value = fk_qf_slot(qf, j);
    out->occupied = j < qf->quotients && fk_qf_is_occupied(qf, j);
    out->runend = fk_qf_is_runend(qf, j);
    out->used = first_free(qf, j) != j;
    return FK_OK;
}

/* --------------------------------------------------- walking the groups */

static void runs_init(fk_qf_runs *c, const fk_quotient *qf)
{
    memset(c, 0, sizeof *c);
    c->qf = qf;
    c->occ = fk_qf_occupieds(qf, 0);
    c->re = fk_qf_runends(qf, 0);
}

/* Steps to the next run; false at the end (c->broken too when the table
 * is malformed: a run with no runend at or after its start). */
static inline bool runs_next(fk_qf_runs *c)
{
    const fk_quotient *qf = c->qf;
    while (!c->occ) {
        if (++c->ob >= qf->nblocks)
            return false;
        c->occ = fk_qf_occupieds(qf, c->ob);
    }
    uint64_t q = (c->ob << 6) + (uint64_t)__builtin_ctzll(c->occ);
    c->occ &= c->occ - 1;
    if (q >= qf->quotients)
        return false;
    while (!c->re) {
        if (++c->rb >= qf->nblocks) {
            c->broken = true;
            return false;
        }
        c->re = fk_qf_runends(qf, c->rb);
    }
    uint64_t end = (c->rb << 6) + (uint64_t)__builtin_ctzll(c->re);
    c->re &= c->re - 1;
    uint64_t start = c->pos > q ? c->pos : q;
    if (end < start) {
        c->broken = true;
        return false;
    }
    c->q = q;
    c->start = start;
    c->end = end;
    c->pos = end + 1;
    return true;
}

void fk_qf_iter_init(fk_qf_iter *it, const fk_quotient *qf)
{
    memset(it, 0, sizeof *it);
    runs_init(&it->runs, qf);
}

void fk_qf_iter_done(fk_qf_iter *it)
{
    free(it->heap);
    it->heap = NULL;
}

/* Reads slots [start, start + n) into a buffer of at least n (the
 * iterator's own, or its heap one for a long run); NULL when memory ran
 * out. */
static uint64_t *iter_buffer(fk_qf_iter *it, size_t n)
{
    if (n <= sizeof it->vals / sizeof it->vals[0])
        return it->vals;
    if (n > it->heap_cap) {
        free(it->heap);
        it->heap = malloc(n * sizeof *it->heap);
        it->heap_cap = it->heap ? n : 0;
    }
    return it->heap;
}

/* Loads the next run into the iterator; false at the end or when the
 * table is malformed (it->broken). */
static bool iter_next_run(fk_qf_iter *it)
{
    if (!runs_next(&it->runs)) {
        it->broken = it->runs.broken;
        return false;
    }
    const fk_qf_runs *c = &it->runs;
    size_t n = (size_t)(c->end - c->start + 1);
    uint64_t *v = iter_buffer(it, n);
    if (!v) {
        it->broken = it->nomem = true;
        return false;
    }
    for (size_t t = 0; t < n; t++)
        v[t] = fk_qf_slot(c->qf, c->start + t);
    it->n = n;
    it->i = 0;
    return true;
}

bool fk_qf_iter_next(fk_qf_iter *it, uint64_t *q, uint64_t *x, uint64_t *count)
{
    if (it->broken)
        return false;
    if (it->i >= it->n)
        if (!iter_next_run(it))
            return false;
    const uint64_t *v = it->n > sizeof it->vals / sizeof it->vals[0] ? it->heap : it->vals;
    size_t next = fk_qf_decode(it->runs.qf, v, it->i, it->n, x, count);
    if (next == 0) {
        it->broken = true;
        return false;
    }
    it->i = next;
    *q = it->runs.q;
    return true;
}

/* ----------------------------------------------------------- building */

void fk_qf_build_init(fk_qf_builder *b, fk_quotient *qf)
{
    memset(b, 0, sizeof *b);
    b->qf = qf;
}

/* Writes the offsets of the blocks starting at or before `upto` (every
 * run of a quotient below them is placed). */
static fk_status build_offsets(fk_qf_builder *b, uint64_t upto)
{
    fk_quotient *qf = b->qf;
    for (; b->next_block < qf->nblocks && (b->next_block << 6) <= upto; b->next_block++) {
        uint64_t s = b->next_block << 6;
        uint64_t off = b->pos > s ? b->pos - s : 0;
        if (off > FK_QF_OFFSET_MAX)
            return FK_EFULL;
        fk_qf_block(qf, b->next_block)[16] = (uint8_t)off;
    }
    return FK_OK;
}

/* Closes the open run, then the offsets up to `upto`. */
static inline fk_status build_close(fk_qf_builder *b, uint64_t upto)
{
    if (b->open) {
        set_runend(b->qf, b->pos - 1, true);
        b->open = false;
    }
    if ((b->next_block << 6) <= upto)
        return build_offsets(b, upto);
    return FK_OK;
}

/* Opens q's run (q at or above the open one) unless it is open. */
static inline fk_status build_open(fk_qf_builder *b, uint64_t q)
{
    if (b->open && q == b->q)
        return FK_OK;
    fk_status s = build_close(b, q);
    if (s != FK_OK)
        return s;
    if (b->pos < q)
        b->pos = q;
    b->q = q;
    b->open = true;
    set_occupied(b->qf, q, true);
    return FK_OK;
}

/* Writes the builder's block of remainders into the table: 64 r-bit
 * values are r whole words. */
static void build_flush(fk_qf_builder *b)
{
    const unsigned r = b->qf->r;
    uint8_t *area = fk_qf_block(b->qf, b->block) + FK_QF_BLOCK_HEAD;
    uint64_t acc = 0;
    unsigned nbits = 0;
    for (unsigned i = 0; i < 64; i++) {
        uint64_t v = b->vals[i];
        acc |= v << nbits;
        nbits += r;
        if (nbits >= 64) {
            fk_store_le64(area, acc);
            area += 8;
            nbits -= 64;
            acc = v >> (r - nbits); /* v < 2^r: 0 when nbits is 0 */
        }
    }
    memset(b->vals, 0, sizeof b->vals);
    b->dirty = false;
}

/* Appends v to the open run; the caller checked that the slot exists. */
static inline void build_put(fk_qf_builder *b, uint64_t v)
{
    uint64_t j = b->pos++;
    if (j >> 6 != b->block) {
        if (b->dirty)
            build_flush(b);
        b->block = j >> 6;
    }
    b->vals[j & 63] = v;
    b->dirty = true;
}

fk_status fk_qf_build_add(fk_qf_builder *b, uint64_t q, uint64_t x, uint64_t count)
{
    fk_quotient *qf = b->qf;
    fk_status s = build_open(b, q);
    if (s != FK_OK)
        return s;
    uint64_t enc[FK_QF_GROUP_MAX];
    unsigned n = fk_qf_encode(qf, x, count, enc);
    if (b->pos + n > qf->slots)
        return FK_EFULL;
    for (unsigned t = 0; t < n; t++)
        build_put(b, enc[t]);
    qf->items += count;
    qf->distinct++;
    qf->used += n;
    return FK_OK;
}

fk_status fk_qf_build_finish(fk_qf_builder *b)
{
    if (b->dirty)
        build_flush(b);
    return build_close(b, UINT64_MAX);
}

/* ------------------------------------------------------ the invariants */

fk_status fk_qf_rebuild_canonical(const fk_quotient *table, fk_quotient *out)
{
    fk_qf_iter it;
    fk_qf_iter_init(&it, table);
    fk_qf_builder b;
    fk_qf_build_init(&b, out);
    uint64_t q, x, c, last_q = 0, last_x = 0;
    bool first = true, ordered = true;
    fk_status s = FK_OK;
    while (s == FK_OK && fk_qf_iter_next(&it, &q, &x, &c)) {
        /* quotients rise by construction (runs come in occupied order);
         * within a run the remainders must rise strictly */
        ordered = first || q != last_q || x > last_x;
        if (!ordered)
            break;
        first = false;
        last_q = q;
        last_x = x;
        s = fk_qf_build_add(&b, q, x, c);
    }
    bool nomem = it.nomem, broken = it.broken;
    fk_qf_iter_done(&it);
    if (nomem)
        return FK_ENOMEM;
    if (s == FK_OK && ordered && !broken)
        s = fk_qf_build_finish(&b);
    /* the rebuilt table is canonical by construction: the bytes agree
     * exactly when the runends, offsets, counters' encodings and free
     * slots of `table` are the canonical ones */
    if (s != FK_OK || !ordered || broken ||
        memcmp(out->table, table->table, (size_t)(table->nblocks * table->block_bytes)) != 0)
        return FK_ECORRUPT;
    return FK_OK;
}

bool fk_qf_check_canonical(const fk_quotient *qf)
{
    fk_quotient *copy = NULL;
    if (create_exact(qf->slots, qf->quotients, qf->r, qf->seed, qf->capacity, qf->fpr, false,
                     &copy) != FK_OK)
        return true; /* no memory to check with */
    fk_status s = fk_qf_rebuild_canonical(qf, copy);
    bool ok = s == FK_ENOMEM ||
              (s == FK_OK && copy->items == fk_qf_sum_items(qf) &&
               copy->distinct == fk_qf_distinct(qf) && copy->used == fk_qf_used(qf));
    const uint8_t *pad = qf->table + qf->nblocks * qf->block_bytes;
    for (unsigned i = 0; i < FK_QF_PAD; i++)
        ok &= pad[i] == 0;
    fk_quotient_free(copy);
    return ok;
}

/* ------------------------------------------------------- merge and grow */

static bool same_geometry(const fk_quotient *a, const fk_quotient *b)
{
    return a->slots == b->slots && a->quotients == b->quotients && a->r == b->r &&
           a->seed == b->seed;
}

/* Moves the contents of `from` (a new table) into qf, keeping qf's
 * identity (its address, ops and sizing record). */
static void adopt(fk_quotient *qf, fk_quotient *from)
{
    release_concurrent(qf); /* the locks were sized for the old table */
    fk_quotient keep = *qf;
    free(keep.table);
    *qf = *from; /* the table, its geometry and its counts */
    qf->base = keep.base;
    qf->bmi2 = keep.bmi2; /* the tests may have chosen the portable path */
    qf->lookup = keep.lookup;
    qf->lookup_key = keep.lookup_key;
    qf->capacity = keep.capacity;
    qf->fpr = keep.fpr;
    qf->max_bytes = keep.max_bytes;
    free(from);
}

/* Appends the slots of the run c points at to the builder as they are
 * (merge keeps the runs that only one table has encoded as they were). */
static inline fk_status build_copy_run(fk_qf_builder *b, const fk_qf_runs *c)
{
    fk_status s = build_open(b, c->q);
    uint64_t n = c->end - c->start + 1;
    if (s != FK_OK || b->pos + n > b->qf->slots)
        return s != FK_OK ? s : FK_EFULL;
    for (uint64_t j = c->start; j <= c->end; j++)
        build_put(b, fk_qf_slot(c->qf, j));
    b->qf->used += n;
    return FK_OK;
}

/* The slots of the run c points at, into a (emptied first). */
static bool read_runs_run(const fk_qf_runs *c, u64vec *a)
{
    a->n = 0;
    return read_run(c->qf, c->start, c->end - c->start + 1, a);
}

/* The groups of two runs of one quotient, merged (counts of equal
 * remainders added, stopping at UINT64_MAX) and appended to the
 * builder; *common counts the equal ones, *lost what saturation cut. */
static fk_status merge_runs(fk_qf_builder *w, const fk_qf_runs *ca, const fk_qf_runs *cb,
                            u64vec *a, u64vec *b, uint64_t *common, fk_qf_sum *lost)
{
    if (!read_runs_run(ca, a) || !read_runs_run(cb, b))
        return FK_ENOMEM;
    fk_quotient *qf = w->qf;
    fk_status s = build_open(w, ca->q);
    if (s != FK_OK)
        return s;
    size_t i = 0, j = 0;
    uint64_t xa = 0, ca_n = 0, xb = 0, cb_n = 0;
    size_t na = fk_qf_decode(qf, a->v, i, a->n, &xa, &ca_n);
    size_t nb = fk_qf_decode(qf, b->v, j, b->n, &xb, &cb_n);
    while (i < a->n || j < b->n) {
        if (na == 0 || nb == 0)
            return FK_EINVAL; /* a malformed group (only a corrupt table) */
        bool take_a = i < a->n && (j >= b->n || xa <= xb);
        bool take_b = j < b->n && (i >= a->n || xb <= xa);
        uint64_t x = take_a ? xa : xb, c;
        if (take_a && take_b) {
            c = ca_n > UINT64_MAX - cb_n ? UINT64_MAX : ca_n + cb_n;
            *lost += (fk_qf_sum)ca_n + cb_n - c;
            ++*common;
        } else {
            c = take_a ? ca_n : cb_n;
        }
        uint64_t enc[FK_QF_GROUP_MAX];
        unsigned n = fk_qf_encode(qf, x, c, enc);
        if (w->pos + n > qf->slots)
            return FK_EFULL;
        for (unsigned t = 0; t < n; t++)
            build_put(w, enc[t]);
        qf->used += n;
        if (take_a && (i = na) < a->n)
            na = fk_qf_decode(qf, a->v, i, a->n, &xa, &ca_n);
        if (take_b && (j = nb) < b->n)
            nb = fk_qf_decode(qf, b->v, j, b->n, &xb, &cb_n);
    }
    return FK_OK;
}

/* Reads the run c points at into v[] (at most FK_QF_PLAIN_MAX slots);
 * true when its slots rise strictly: every group a count of 1 (a
 * counter always breaks the rise: "x x", or digits below x). */
#define FK_QF_PLAIN_MAX 16u
static inline bool read_plain(const fk_qf_runs *c, uint64_t v[FK_QF_PLAIN_MAX], unsigned *n)
{
    uint64_t len = c->end - c->start + 1;
    if (len > FK_QF_PLAIN_MAX)
        return false;
    bool rising = true;
    for (unsigned t = 0; t < len; t++) {
        v[t] = fk_qf_slot(c->qf, c->start + t);
        rising &= t == 0 || v[t] > v[t - 1];
    }
    *n = (unsigned)len;
    return rising;
}

/* Two runs of one quotient whose groups all count 1 (the common case):
 * a merge of two rising lists, where a remainder in both becomes the
 * group "x x" (a count of 2). false (nothing written) when either run
 * has a counter or is long: merge_runs takes it. */
static inline bool merge_plain_runs(fk_qf_builder *w, const fk_qf_runs *ca, const fk_qf_runs *cb,
                                    uint64_t *common, fk_status *st)
{
    uint64_t a[FK_QF_PLAIN_MAX], b[FK_QF_PLAIN_MAX];
    unsigned na, nb;
    if (!read_plain(ca, a, &na) || !read_plain(cb, b, &nb))
        return false;
    *st = build_open(w, ca->q);
    if (*st != FK_OK)
        return true;
    if (w->pos + na + nb > w->qf->slots) {
        *st = FK_EFULL;
        return true;
    }
    unsigned i = 0, j = 0;
    while (i < na || j < nb) {
        uint64_t x;
        if (j >= nb || (i < na && a[i] < b[j])) {
            x = a[i++];
        } else if (i >= na || b[j] < a[i]) {
            x = b[j++];
        } else { /* in both: a count of 2 */
            x = a[i++];
            j++;
            build_put(w, x);
            ++*common;
        }
        build_put(w, x);
    }
    w->qf->used += na + nb;
    return true;
}

/* The next run of c, or quotient UINT64_MAX after the last (merge takes
 * the smaller quotient of two cursors). */
static inline void runs_step(fk_qf_runs *c)
{
    if (!runs_next(c))
        c->q = UINT64_MAX;
}

fk_status fk_quotient_merge(fk_quotient *dst, const fk_quotient *src)
{
    if (!dst || !src || dst == src || !same_geometry(dst, src))
        return FK_EINVAL;
    fk_qf_settle(dst);
    fk_quotient *out = NULL;
    fk_status s = create_exact(dst->slots, dst->quotients, dst->r, dst->seed, dst->capacity,
                               dst->fpr, true, &out);
    if (s != FK_OK)
        return s;
    /* One pass over both tables in quotient order, writing the union's
     * table left to right: a quotient only one table has keeps its run
     * as encoded (the common case: a slot read and a slot written), one
     * both have gets its groups merged. */
    fk_qf_runs ra, rb;
    runs_init(&ra, dst);
    runs_init(&rb, src);
    runs_step(&ra);
    runs_step(&rb);
    uint64_t sa[256], sb[256], common = 0;
    fk_qf_sum lost = 0;
    u64vec va, vb;
    vec_init(&va, sa, 256);
    vec_init(&vb, sb, 256);
    fk_qf_builder w;
    fk_qf_build_init(&w, out);
    while (s == FK_OK && (ra.q != UINT64_MAX || rb.q != UINT64_MAX)) {
        if (ra.q != rb.q) {
            fk_qf_runs *c = ra.q < rb.q ? &ra : &rb;
            s = build_copy_run(&w, c);
            runs_step(c);
        } else {
            if (!merge_plain_runs(&w, &ra, &rb, &common, &s))
                s = merge_runs(&w, &ra, &rb, &va, &vb, &common, &lost);
            runs_step(&ra);
            runs_step(&rb);
        }
    }
    if (s == FK_OK && (ra.broken || rb.broken))
        s = FK_EINVAL;
    if (s == FK_OK)
        s = fk_qf_build_finish(&w);
    vec_free(&va);
    vec_free(&vb);
    if (s != FK_OK) {
        fk_quotient_free(out);
        return s;
    }
    out->items = dst->items + fk_qf_sum_items(src) - lost;
    out->distinct = dst->distinct + fk_qf_distinct(src) - common;
    adopt(dst, out);
    FK_QF_DEBUG_CHECK(dst);
    return FK_OK;
}

fk_status fk_quotient_grow(fk_quotient *qf)
{
    if (!qf || qf->r <= FK_QUOTIENT_MIN_R || qf->slots > UINT64_MAX / 2)
        return FK_EINVAL;
    uint64_t max = qf->max_bytes ? qf->max_bytes : FK_MEMORY_CAP;
    if (fk_qf_geometry_ok(qf->slots * 2, qf->quotients * 2, qf->r - 1) &&
        qf->slots * 2 / 64 * block_bytes_of(qf->r - 1) + FK_QF_PAD + sizeof *qf > max)
        return FK_ELIMIT;
    fk_qf_settle(qf);
    fk_quotient *out = NULL;
    fk_status s = create_exact(qf->slots * 2, qf->quotients * 2, qf->r - 1, qf->seed,
                               qf->capacity, qf->fpr, true, &out);
    if (s != FK_OK)
        return s;
    /* (q, x) becomes (2q + top bit of x, x without it): the order of the
     * groups is kept, so one pass appends them. */
    fk_qf_iter it;
    fk_qf_iter_init(&it, qf);
    fk_qf_builder w;
    fk_qf_build_init(&w, out);
    uint64_t q, x, c;
    uint32_t top = qf->r - 1;
    while (s == FK_OK && fk_qf_iter_next(&it, &q, &x, &c))
        s = fk_qf_build_add(&w, 2 * q + (x >> top), x & out->rmask, c);
    if (s == FK_OK && it.broken)
        s = FK_ENOMEM;
    if (s == FK_OK)
        s = fk_qf_build_finish(&w);
    fk_qf_iter_done(&it);
    if (s != FK_OK) {
        fk_quotient_free(out);
        return s;
    }
    adopt(qf, out);
    qf->capacity = qf->capacity > UINT64_MAX / 2 ? UINT64_MAX : qf->capacity * 2;
    qf->fpr = qf->fpr * 2 < 1.0 ? qf->fpr * 2 : qf->fpr;
    FK_QF_DEBUG_CHECK(qf);
    return FK_OK;
}


/* --------------------------------------------------------- many writers
 *
 * Region locks in the manner of the counting quotient filter's (Pandey et
 * al.): the table is cut into regions of FK_QF_REGION_BLOCKS blocks, one
 * lock byte each (common/spinlock.h). A
 * change to q's run moves slots from q's run up to the free slots after
 * it (a grown run needs at most FK_QF_GROW_MAX of them, a shrunk one
 * none), so a writer locks q's region, then each next one, in address
 * order, until the regions it holds contain those free slots, plus one
 * more: a slot's 8-byte read-modify-write near a block's end also covers
 * the first bytes of the next block, so the region after the last one
 * written is held too (its bytes are rewritten unchanged, but must not
 * change meanwhile). Locks are only ever taken upwards from q's region,
 * so two writers never wait on each other in a cycle. Every read and
 * write of a writer stays below the first slot of its last region:
 * next_bit_below, first_free_below and rewrite_run take that limit, and a run
 * past a free slot never moves. Offsets of a block change only with
 * shifts that cross into it, whose writer holds its region: a region's
 * bytes change only under its lock.
 *
 * Lookups: the plain lookup reads a run that a shift may be moving (over
 * unaligned words no atomic read covers), so beside these writers a
 * reader uses fk_filter_contains_concurrent, which takes the same locks
 * (q's region up to the free slot after q's run) and then runs the plain
 * lookup body. The plain lookup keeps its instructions and stays
 * lock-free for readers without writers. */

#define FK_QF_GROW_MAX 2u /* a count's +1 lengthens its group by at most 2 slots */

static uint64_t regions_of(const fk_quotient *qf)
{
    return (qf->nblocks + FK_QF_REGION_BLOCKS - 1) / FK_QF_REGION_BLOCKS;
}

static uint64_t concurrent_bytes(const fk_quotient *qf)
{
    return (atomic_load_explicit(&qf->locks, memory_order_relaxed) ? regions_of(qf) : 0) +
           fk_tallies_bytes(&qf->c_counts, FK_QF_C_FIELDS);
}

/* The lock bytes, allocated by the first concurrent call (the loser of a
 * race frees its own) with the writers' counter rows before them; NULL
 * when an allocation fails. */
static unsigned char *region_locks(fk_quotient *qf)
{
    unsigned char *l = atomic_load_explicit(&qf->locks, memory_order_acquire);
    if (l)
        return l;
    if (fk_tallies_prepare(&qf->c_counts, FK_QF_C_FIELDS) != FK_OK)
        return NULL;
    unsigned char *mine = calloc((size_t)regions_of(qf), 1);
    if (!mine)
        return NULL;
    if (atomic_compare_exchange_strong_explicit(&qf->locks, &l, mine, memory_order_acq_rel,
                                                memory_order_acquire))
        return mine;
    free(mine);
    return l;
}

static void region_lock(unsigned char *l, uint64_t i)
{
    fk_spin_lock(fk_spin_at(l, i));
}

static void regions_unlock(unsigned char *l, uint64_t lo, uint64_t hi)
{
    for (uint64_t i = lo; i <= hi; i++)
        fk_spin_unlock(fk_spin_at(l, i));
}

/* Locks regions *lo (q's) .. *hi so that `need` free slots at or after q
 * lie below the returned limit (the first slot of region *hi, or S when
 * *hi is the last region: then fewer may be found, and the writer answers
 * FK_EFULL as the plain one would). Everything below the limit, and the
 * first block of region *hi, belongs to the caller until regions_unlock. */
static uint64_t lock_span(const fk_quotient *qf, unsigned char *l, uint64_t q, unsigned need,
                          uint64_t *lo, uint64_t *hi)
{
    const uint64_t nreg = regions_of(qf), region_slots = 64u * FK_QF_REGION_BLOCKS;
    *lo = *hi = (q >> 6) / FK_QF_REGION_BLOCKS;
    region_lock(l, *lo);
    /* the scan goes on from where the last limit stopped it: the slots
     * below stay as they were, locked */
    uint64_t j = q;
    unsigned found = 0;
    for (;;) {
        if (*hi + 1 >= nreg)
            return qf->slots;
        region_lock(l, ++*hi);
        uint64_t limit = *hi * region_slots;
        while (found < need && (j = first_free_below(qf, j, limit)) < limit) {
            found++;
            j++;
        }
        if (found == need)
            return limit;
    }
}

static fk_status insert_concurrent_hash(fk_quotient *qf, uint64_t h)
{
    unsigned char *l = region_locks(qf);
    if (!l)
        return FK_ENOMEM;
    uint64_t x, q = fk_qf_quotient(qf, h, &x), lo, hi;
    uint64_t limit = lock_span(qf, l, q, FK_QF_GROW_MAX, &lo, &hi);
    bool occupied = fk_qf_is_occupied(qf, q);
    uint64_t P = run_place(qf, q);
    fk_status s = FK_OK;
    if (!occupied && P == q) { /* the plain insert's common case */
        fk_qf_set_slot(qf, q, x);
        set_runend(qf, q, true);
        set_occupied(qf, q, true);
        fk_tally_row r = fk_tallies_row(&qf->c_counts, FK_QF_C_FIELDS);
        fk_tally_row_add(r, FK_QF_C_ITEMS, 1);
        fk_tally_row_add(r, FK_QF_C_DISTINCT, 1);
        fk_tally_row_add(r, FK_QF_C_USED, 1);
    } else {
        s = change_count_at_as(qf, q, x, 1, occupied, P,
                               limit < qf->quotients ? limit : qf->quotients, true);
    }
    regions_unlock(l, lo, hi);
    return s;
}

static fk_status remove_concurrent_hash(fk_quotient *qf, uint64_t h)
{
    unsigned char *l = region_locks(qf);
    if (!l)
        return FK_ENOMEM;
    uint64_t x, q = fk_qf_quotient(qf, h, &x), lo, hi;
    /* a shorter run moves the runs after it back, up to the free slot */
    uint64_t limit = lock_span(qf, l, q, 1, &lo, &hi);
    fk_status s = FK_ENOTFOUND;
    bool occupied = fk_qf_is_occupied(qf, q);
    if (occupied)
        s = change_count_at_as(qf, q, x, 0, true, run_place(qf, q),
                               limit < qf->quotients ? limit : qf->quotients, true);
    regions_unlock(l, lo, hi);
    return s;
}

static inline uint64_t key_hash(const fk_quotient *qf, const void *key, size_t len)
{
    return len == 8 ? fk_qf_hash8(fk_load_le64(key), qf->flip) : fk_qf_hash(qf, key, len);
}

/* The slots (fk_filter_*_concurrent have checked f and key). The lock
 * array is the one part of a filter a lookup may write (once), hence the
 * const cast of the lookup. */
static fk_status fk_quotient_slot_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_quotient *qf = (fk_quotient *)f;
    return insert_concurrent_hash(qf, key_hash(qf, key, len));
}

static fk_status fk_quotient_slot_remove_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_quotient *qf = (fk_quotient *)f;
    return remove_concurrent_hash(qf, key_hash(qf, key, len));
}

static bool fk_quotient_slot_contains_concurrent(const fk_filter *f, const void *key, size_t len)
{
    fk_quotient *qf = (fk_quotient *)(uintptr_t)f;
    uint64_t h = key_hash(qf, key, len);
    unsigned char *l = region_locks(qf);
    if (!l)
        return true; /* no locks to be had: "maybe", never a false negative */
    uint64_t x, q = fk_qf_quotient(qf, h, &x), lo, hi;
    (void)x;
    (void)lock_span(qf, l, q, 1, &lo, &hi); /* q's run ends before that free slot */
    bool hit = qf->lookup(qf, h);
    regions_unlock(l, lo, hi);
    return hit;
}

/* -------------------------------------------------------------- stats */

void fk_quotient_describe(const fk_quotient *qf, fk_quotient_description *out)
{
    if (!qf || !out)
        return;
    memset(out, 0, sizeof *out);
    out->remainder_bits = qf->r;
    out->bmi2 = qf->bmi2;
    out->quotients = qf->quotients;
    out->slots = qf->slots;
    out->used_slots = fk_qf_used(qf);
    out->distinct = fk_qf_distinct(qf);
    out->items = fk_qf_items(qf);
    out->seed = qf->seed;
}

static double load_of(const fk_quotient *qf)
{
    return (double)fk_qf_used(qf) / (double)qf->slots;
}

fk_filter *fk_quotient_as_filter(fk_quotient *qf)
{
    return qf ? &qf->base : NULL;
}

void fk_quotient_stats(const fk_quotient *qf, fk_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!qf)
        return;
    out->items = fk_qf_items(qf);
    out->capacity = qf->capacity;
    out->memory_bytes = table_bytes(qf) + sizeof *qf + concurrent_bytes(qf);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)qf->capacity;
    out->load_factor = load_of(qf);
    /* an absent key's (quotient, remainder) pair is uniform, so the FPR
     * is exactly the share of the N 2^r pairs that hold a group */
    out->expected_fpr =
        (double)fk_qf_distinct(qf) / ((double)qf->quotients * ldexp(1.0, (int)qf->r));
}

/* ------------------------------------------------------------ the vtable */

static fk_status fk_quotient_slot_create(const fk_params *p, fk_filter **out)
{
    fk_quotient *made = NULL;
    fk_status s = fk_quotient_new(p, &made);
    *out = made ? &made->base : NULL;
    return s;
}

static void fk_quotient_slot_destroy(fk_filter *f) { fk_quotient_free((fk_quotient *)f); }

static fk_status fk_quotient_slot_insert(fk_filter *f, const void *key, size_t len)
{
    return fk_quotient_insert((fk_quotient *)f, key, len);
}

static void fk_quotient_slot_stats(const fk_filter *f, fk_stats *out)
{
    fk_quotient_stats((const fk_quotient *)f, out);
}

static fk_status fk_quotient_slot_remove(fk_filter *f, const void *key, size_t len)
{
    return fk_quotient_remove((fk_quotient *)f, key, len);
}

/* 64-bit keys: their 8 little-endian bytes, hashed with the length a
 * constant, so XXH3 takes its 8-byte path inline. */
static inline uint64_t hash_u64(const fk_quotient *qf, uint64_t key)
{
    return fk_qf_hash8(key, qf->flip);
}

static fk_status fk_quotient_slot_insert_u64(fk_filter *f, uint64_t key)
{
    fk_quotient *qf = (fk_quotient *)f;
    return fk_qf_insert_hash(qf, hash_u64(qf, key));
}

static fk_status fk_quotient_slot_remove_u64(fk_filter *f, uint64_t key)
{
    fk_quotient *qf = (fk_quotient *)f;
    uint64_t x, q = fk_qf_quotient(qf, hash_u64(qf, key), &x);
    return change_count(qf, q, x, 0);
}

/* The lookup slot goes straight to the filter's lookup (one jump). */
static bool fk_quotient_slot_contains(const fk_filter *f, const void *key, size_t len)
{
    const fk_quotient *qf = (const fk_quotient *)f;
    return qf->lookup_key(qf, key, len);
}

static fk_status fk_quotient_slot_count(const fk_filter *f, const void *key, size_t len,
                                        uint64_t *count)
{
    return fk_quotient_count((const fk_quotient *)f, key, len, count);
}

static fk_status fk_quotient_slot_merge(fk_filter *dst, const fk_filter *src)
{
    return fk_quotient_merge((fk_quotient *)dst, (const fk_quotient *)src);
}

static fk_status fk_quotient_slot_grow(fk_filter *f)
{
    return fk_quotient_grow((fk_quotient *)f);
}

/* The set_max_bytes slot (fk_filter_set_max_bytes): the limit
 * fk_filter_grow checks the doubled table against. */
static fk_status fk_quotient_slot_set_max_bytes(fk_filter *f, uint64_t max_bytes)
{
    ((fk_quotient *)f)->max_bytes = max_bytes;
    return FK_OK;
}

static fk_status fk_quotient_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t S, N;
    uint32_t r;
    fk_status s = fk_qf_geometry(p, &S, &N, &r);
    if (s != FK_OK)
        return s;
    out->memory_bytes = S / 64 * block_bytes_of(r) + FK_QF_PAD + sizeof(fk_quotient);
    out->expected_fpr = fk_qf_theory_fpr(N, r, items);
    snprintf(out->geometry, sizeof out->geometry,
             "r = %u remainder bits, %llu slots, %llu quotients (%.0f%% full at capacity)", r,
             (unsigned long long)S, (unsigned long long)N,
             100.0 * (double)p->capacity / (double)S);
    return FK_OK;
}

/* The describe slot: fk_quotient_description's fields as rows, in its order
 * (fk_filter_describe; `at` is ignored: the kind has no clock). */
static fk_status fk_quotient_slot_describe(const fk_filter *f, const uint64_t *at,
                                      fk_describe_row *rows, size_t cap, size_t *n)
{
    (void)at;
    fk_quotient_description d;
    fk_quotient_describe((const fk_quotient *)(const void *)f, &d);
    fk_describe_u64(rows, cap, n, "remainder_bits", d.remainder_bits);
    fk_describe_bool(rows, cap, n, "bmi2", d.bmi2);
    fk_describe_u64(rows, cap, n, "quotients", d.quotients);
    fk_describe_u64(rows, cap, n, "slots", d.slots);
    fk_describe_u64(rows, cap, n, "used_slots", d.used_slots);
    fk_describe_u64(rows, cap, n, "distinct", d.distinct);
    fk_describe_u64(rows, cap, n, "items", d.items);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    /* after 0.4.0's rows: the home block, then the run's slots read on
     * from there (the neighbouring lines, not another random place) */
    fk_describe_u64(rows, cap, n, "lookup_reads", 1);
    return FK_OK;
}

const fk_ops fk_quotient_ops = {
    .version = FK_OPS_VERSION,
    .name = "quotient",
    .summary = "counting quotient filter: rank-and-select runs of r-bit remainders; counts, "
               "removes, merges, grows",
    .caps = FK_CAP_COUNT | FK_CAP_BOUNDED,
    .create = fk_quotient_slot_create,
    .destroy = fk_quotient_slot_destroy,
    .insert = fk_quotient_slot_insert,
    .contains = fk_quotient_slot_contains,
    .stats = fk_quotient_slot_stats,
    .remove = fk_quotient_slot_remove,
    .serial = &fk_quotient_serial_ops,
    .size = fk_quotient_slot_size,
    .contains_many = fk_quotient_slot_contains_many,
    .insert_many = fk_quotient_slot_insert_many,
    .contains_many_u64 = fk_quotient_slot_contains_many_u64,
    .insert_many_u64 = fk_quotient_slot_insert_many_u64,
    .insert_u64 = fk_quotient_slot_insert_u64,
    .remove_u64 = fk_quotient_slot_remove_u64,
    .count = fk_quotient_slot_count,
    .merge = fk_quotient_slot_merge,
    .grow = fk_quotient_slot_grow,
    .set_max_bytes = fk_quotient_slot_set_max_bytes,
    .describe = fk_quotient_slot_describe,
    .insert_concurrent = fk_quotient_slot_insert_concurrent,
    .remove_concurrent = fk_quotient_slot_remove_concurrent,
    .contains_concurrent = fk_quotient_slot_contains_concurrent,
};
