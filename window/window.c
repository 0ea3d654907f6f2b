/* window/window.c: the sliding window (window.h): sizing, generations and
 * the sweep, insert with refresh and cuckoo evictions, lookups, the clock,
 * stats and the vtable. Layout and invariants: window_internal.h. */
#include <math.h>
#include <stdlib.h>
#include "window_internal.h"
#include "../common/alloc.h"
#include "../common/atomic.h"
#include "../common/cpu.h"
#include "../common/spinlock.h"

/* splitmix64 step: the eviction PRNG. */
static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* ------------------------------------------------------------ sizing */

double fk_win_theory_fpr(uint32_t f, double load)
{
    if (!(load > 0.0))
        return 0.0;
    if (load > 1.0)
        load = 1.0;
    double per = 1.0 / (ldexp(1.0, (int)f) - 1.0);
    return -expm1(8.0 * load * log1p(-per));
}

/* Tables below this many buckets get spare room (a tiny cuckoo table's
 * load at its first failure scatters widely). */
#define SMALL_BUCKETS 1024u

/* The geometry fk_window_new builds for p: buckets and f. */
static fk_status geometry(const fk_params *p, uint64_t *buckets, uint32_t *f)
{
    if (fk_params_check(p) != FK_OK || p->clock > FK_CLOCK_MAX)
        return FK_EINVAL;
    if (p->fingerprint_bits != 0 &&
        (p->fingerprint_bits < FK_WINDOW_MIN_FP_BITS || p->fingerprint_bits > FK_WINDOW_MAX_FP_BITS))
        return FK_EINVAL;
    double load = p->max_load;
    if (load == 0.0)
        load = FK_WINDOW_MAX_LOAD;
    else if (!(load > 0.0 && load <= 1.0))
        return FK_EINVAL;
    uint64_t L = fk_win_gen_len(p->capacity);
    if (L > (UINT64_C(1) << 58))
        return FK_EINVAL;
    double budget = 8.0 * (double)L;
    double slots = ceil(budget / load);
    double nb = ceil(slots / 4.0);
    if (nb < SMALL_BUCKETS)
        nb = ceil((slots + 4.0 * sqrt(budget)) / 4.0);
    if (!(nb >= 1.0))
        nb = 1.0;
    if (nb > ldexp(1.0, 58))
        return FK_EINVAL;
    uint32_t width = p->fingerprint_bits;
    if (width == 0) {
        for (width = FK_WINDOW_MIN_FP_BITS; width < FK_WINDOW_MAX_FP_BITS; width++)
            if (fk_win_theory_fpr(width, load) <= p->fpr)
                break;
    }
    if (fk_win_table_bytes((uint64_t)nb, width + FK_WIN_TAG_BITS) + FK_WIN_PAD > FK_MEMORY_CAP)
        return FK_EINVAL;
    *buckets = (uint64_t)nb;
    *f = width;
    return FK_OK;
}

static bool contains_u64(const fk_filter *f, uint64_t key);
static bool lookup_any(const fk_filter *f, const void *key, size_t len);
static void choose_paths(fk_window *x);

/* --------------------------------------------------------------- create */

fk_status fk_win_create_exact(uint64_t buckets, uint32_t f, uint64_t capacity, double fpr,
                              uint64_t span, uint64_t seed, fk_window **out)
{
    *out = NULL;
    if (buckets == 0 || buckets > (UINT64_C(1) << 58) || f < FK_WINDOW_MIN_FP_BITS ||
        f > FK_WINDOW_MAX_FP_BITS || capacity == 0 || fk_win_gen_len(capacity) > (UINT64_C(1) << 58))
        return FK_EINVAL;
    uint32_t w = f + FK_WIN_TAG_BITS;
    uint64_t bytes = fk_win_table_bytes(buckets, w) + FK_WIN_PAD;
    if (bytes > FK_MEMORY_CAP)
        return FK_EINVAL;
    fk_window *x = calloc(1, sizeof *x);
    if (!x)
        return FK_ENOMEM;
    void *t = NULL;
    fk_status s = fk_alloc_zeroed(bytes, &t);
    if (s != FK_OK) {
        free(x);
        return s;
    }
    x->base.ops = &fk_window_ops;
    x->bytes = t;
    x->buckets = buckets;
    x->f = f;
    x->w = w;
    x->bucket_bits = 4 * w;
    x->fp_mask = (uint32_t)((UINT64_C(1) << f) - 1);
    x->slot_mask = (UINT64_C(1) << w) - 1;
    x->bucket_mask = x->bucket_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << x->bucket_bits) - 1;
    if (f <= FK_WIN_WORD_FP_BITS) {
        for (unsigned j = 0; j < 4; j++) {
            x->ones |= UINT64_C(1) << (j * w);
            x->high |= UINT64_C(1) << (j * w + w - 1);
        }
        x->fp_ones = x->ones << FK_WIN_TAG_BITS;
        x->fp_fields = x->fp_ones * x->fp_mask;
        x->tag_fields = x->ones * FK_WIN_TAG_MASK;
    }
    x->seed = seed;
    x->hash8 = fk_hash8_flip64(seed);
    x->capacity = capacity;
    x->fpr = fpr;
    x->gen_len = fk_win_gen_len(capacity);
    x->live_budget = 8 * x->gen_len;
    x->span = span;
    x->timed = span != 0;
    x->gen_span = span ? fk_win_gen_len(span) : 0;
    x->rng = fk_mix64(seed ^ UINT64_C(0x510e527fade682d1));
    choose_paths(x);
    *out = x;
    return FK_OK;
}

static fk_status make(const fk_params *p, uint64_t span, fk_window **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    uint64_t nb;
    uint32_t f;
    fk_status s = geometry(p, &nb, &f);
    if (s != FK_OK)
        return s;
    if (p->max_bytes != 0 &&
        fk_win_table_bytes(nb, f + FK_WIN_TAG_BITS) + FK_WIN_PAD + sizeof(fk_window) >
            fk_params_max_bytes(p))
        return FK_ELIMIT;
    s = fk_win_create_exact(nb, f, p->capacity, p->fpr, span, p->seed, out);
    if (s == FK_OK)
        (*out)->clock = p->clock;
    return s;
}

fk_status fk_window_new(const fk_params *p, fk_window **out)
{
    if (p && p->span == 0 && p->clock != FK_CLOCK_CALLER) { /* a count window has no clock */
        if (out)
            *out = NULL;
        return FK_EINVAL;
    }
    return make(p, p ? p->span : 0, out);
}

void fk_window_free(fk_window *w)
{
    if (!w)
        return;
    free(w->bytes);
    free(w->stash);
    free(atomic_load_explicit(&w->locks, memory_order_relaxed));
    fk_tallies_release(&w->c_counts);
    free(w);
}

fk_filter *fk_window_as_filter(fk_window *w)
{
    return w ? &w->base : NULL;
}

/* ------------------------------------------------------------ the stash */

int64_t fk_win_stash_find(const fk_window *w, const fk_win_place *p)
{
    const uint64_t c = p->i1 < p->i2 ? p->i1 : p->i2;
    for (uint64_t k = 0; k < w->stash_n; k++)
        if (w->stash[k].bucket == c && (w->stash[k].slot >> FK_WIN_TAG_BITS) == p->fp)
            return (int64_t)k;
    return -1;
}

__attribute__((noinline)) bool fk_win_stash_has_hash(const fk_window *w, uint64_t h)
{
    fk_win_place p = fk_win_place_of(w, h);
    return fk_win_stash_find(w, &p) >= 0;
}

/* Appends an entry (growing the array); FK_ENOMEM leaves w as it was. */
static fk_status stash_put(fk_window *w, uint64_t b1, uint64_t b2, uint64_t v)
{
    if (w->stash_n == w->stash_cap) {
        uint64_t cap = w->stash_cap ? 2 * w->stash_cap : 16;
        if (cap > SIZE_MAX / sizeof *w->stash)
            return FK_ENOMEM;
        fk_win_stashed *grown = realloc(w->stash, (size_t)cap * sizeof *w->stash);
        if (!grown)
            return FK_ENOMEM;
        w->stash = grown;
        w->stash_cap = cap;
    }
    w->stash[w->stash_n].bucket = b1 < b2 ? b1 : b2;
    w->stash[w->stash_n].slot = v;
    w->stash_n++;
    return FK_OK;
}

/* After a sweep: drops the entries of tag t (already uncounted) and moves
 * the others into the table where they now fit. */
static void stash_sweep(fk_window *w, unsigned t)
{
    uint64_t kept = 0;
    for (uint64_t k = 0; k < w->stash_n; k++) {
        fk_win_stashed e = w->stash[k];
        if ((e.slot & FK_WIN_TAG_MASK) == t)
            continue;
        uint64_t b2 = fk_win_alt(w, e.bucket, (uint32_t)(e.slot >> FK_WIN_TAG_BITS));
        int j;
        if ((j = fk_win_find_free(w, e.bucket)) >= 0)
            fk_win_set(w, e.bucket, (unsigned)j, e.slot);
        else if ((j = fk_win_find_free(w, b2)) >= 0)
            fk_win_set(w, b2, (unsigned)j, e.slot);
        else if (!w->kick(w, e.bucket, b2, e.slot))
            w->stash[kept++] = e;
    }
    w->stash_n = kept;
}

/* ------------------------------------------------- generations, sweep */

static void sweep_words(fk_window *w, unsigned t);

/* Empties every slot of tag t, one pass over the buckets. */
static void sweep(fk_window *w, unsigned t)
{
    uint64_t gone = w->slots[t];
    w->swept_last = gone;
    w->swept_total += gone;
    if (gone == 0)
        return;
    if (w->f <= FK_WIN_WORD_FP_BITS) {
        sweep_words(w, t);
    } else {
        for (uint64_t b = 0; b < w->buckets; b++)
            for (unsigned j = 0; j < 4; j++) {
                uint64_t v = fk_win_get(w, b, j);
                if (v && (v & FK_WIN_TAG_MASK) == t)
                    fk_win_set(w, b, j, 0);
            }
    }
    w->live -= gone;
    w->slots[t] = 0;
    if (w->stash_n)
        stash_sweep(w, t);
}

/* Starts the next generation: its tag is the oldest's, swept first. */
/* (out of line: once per L inserts, kept out of the flattened insert paths,
 * whose fast path then saves fewer registers) */
static void fold_counts(fk_window *w);

static __attribute__((noinline)) void next_generation(fk_window *w)
{
    fold_counts(w); /* the sweep reads the per-tag counts */
    w->generation++;
    /* (a count window after 2^63 L inserts: the same tags, a lower number,
     * so the number never wraps; window.h) */
    if (w->generation >= FK_WINDOW_MAX_GENERATION)
        w->generation -= FK_WINDOW_MAX_GENERATION / 2;
    unsigned t = (unsigned)(w->generation & FK_WIN_TAG_MASK);
    sweep(w, t);
    w->inserts[t] = 0;
}

void fk_win_clear(fk_window *w)
{
    fold_counts(w); /* then every count is zeroed whole */
    memset(w->bytes, 0, (size_t)fk_win_table_bytes(w->buckets, w->w));
    w->swept_last = w->live;
    w->swept_total += w->live;
    w->live = 0;
    w->stash_n = 0;
    memset(w->slots, 0, sizeof w->slots);
    memset(w->inserts, 0, sizeof w->inserts);
}

/* What fk_window_advance(w, now) does to the clock, worked out without
 * doing it: the one arithmetic for the advance and the reads as of a time
 * (fk_window_contains_at, fk_win_describe_at). */
typedef struct {
    bool     moves;    /* the advance would answer FK_OK and set the clock */
    uint64_t now;      /* the clock after it */
    uint64_t boundary; /* the next boundary after it */
    uint64_t crossed;  /* boundaries it crosses: a sweep each, 8 or more empty the table */
} win_clock;

static win_clock clock_at(const fk_window *w, uint64_t now)
{
    win_clock c = { false, w->now, w->boundary, 0 };
    /* past FK_WINDOW_MAX_TIME (2^62): refused, so with D < 2^62 no boundary
     * below reaches 2^63 */
    if (!w->timed || (w->clock_set && now < w->now) || now > FK_WINDOW_MAX_TIME)
        return c; /* FK_EUNSUPPORTED, FK_EINVAL: nothing changes */
    c.moves = true;
    c.now = now;
    if (!w->clock_set) { /* the origin */
        c.boundary = now + w->gen_span;
        return c;
    }
    if (now < w->boundary)
        return c;
    /* boundaries crossed: the one at w->boundary and every D after it */
    uint64_t past = now - w->boundary;
    c.crossed = past / w->gen_span + 1;
    uint64_t last = now - past % w->gen_span; /* the last boundary crossed */
    c.boundary = last + w->gen_span;
    return c;
}

/* The advance (fk_filter_advance has checked f and the kind), under the
 * writers' lock (below). */
static fk_status advance_locked(fk_window *w, uint64_t now)
{
    if (!w->timed)
        return FK_EUNSUPPORTED;
    win_clock c = clock_at(w, now);
    if (!c.moves)
        return FK_EINVAL; /* before the clock (it never goes back), or past its end */
    w->clock_set = true;
    w->now = c.now;
    w->boundary = c.boundary;
    if (c.crossed >= FK_WINDOW_GENERATIONS) {
        fk_win_clear(w);
        /* a multiple of 8: tags stay right; at most now / D in all, below
         * FK_WINDOW_MAX_GENERATION */
        w->generation += c.crossed;
        return FK_OK;
    }
    for (uint64_t k = 0; k < c.crossed; k++)
        next_generation(w);
    return FK_OK;
}

/* The advance (fk_filter_advance has checked f and the kind): a clock
 * that crosses no boundary only moves `now` and `boundary`, which no
 * concurrent call reads, under the writer byte; one that starts a
 * generation is a global step ("many writers", below). */
static fk_status fk_window_slot_advance(fk_filter *f, uint64_t now);

/* ---------------------------------------------- reads as of a time
 *
 * What the window would answer after fk_window_advance(w, now), read
 * without changing it: the advance's sweeps empty the slots (and stash
 * entries) of the generations that retire, the tags (generation + k) & 7
 * for k = 1..crossed, i.e. the ages 8 - crossed .. 7, and only move the
 * others within their own two buckets (the stash's entries into the room
 * freed, evictions along a key's bucket pair): so a key answers present
 * after it exactly when a slot of its buckets, or a stash entry, holds its
 * fingerprint with an age below 8 - crossed now. */

/* The age (generations back from the current one) of slot value v. */
static inline uint64_t slot_age(const fk_window *w, uint64_t v)
{
    return (w->generation - (v & FK_WIN_TAG_MASK)) & FK_WIN_TAG_MASK;
}

/* True when bucket b, or the stash, holds p's fingerprint at an age below
 * keep (1..7): every slot read, tags tested (the fast lookups test none). */
static bool has_younger(const fk_window *w, const fk_win_place *p, uint64_t keep)
{
    const uint64_t b[2] = { p->i1, p->i2 };
    for (unsigned i = 0; i < 2; i++)
        for (unsigned j = 0; j < 4; j++) {
            uint64_t v = fk_win_get(w, b[i], j);
            if (v && (uint32_t)(v >> FK_WIN_TAG_BITS) == p->fp && slot_age(w, v) < keep)
                return true;
        }
    const uint64_t c = p->i1 < p->i2 ? p->i1 : p->i2;
    for (uint64_t k = 0; k < w->stash_n; k++)
        if (w->stash[k].bucket == c && (uint32_t)(w->stash[k].slot >> FK_WIN_TAG_BITS) == p->fp &&
            slot_age(w, w->stash[k].slot) < keep)
            return true;
    return false;
}

/* The contains_at slot (fk_filter_contains_at has checked f and key). */
static bool fk_window_slot_contains_at(const fk_filter *f, const void *key, size_t len,
                                       uint64_t now)
{
    const fk_window *w = (const fk_window *)f;
    win_clock c = clock_at(w, now);
    if (c.crossed == 0)
        return w->lookup(&w->base, key, len); /* nothing would retire */
    if (c.crossed >= FK_WINDOW_GENERATIONS)
        return false; /* the advance would empty the table */
    fk_win_place p = fk_win_place_of(w, fk_win_hash(w, key, len));
    return has_younger(w, &p, FK_WINDOW_GENERATIONS - c.crossed);
}

/* The per-tag counts the advance leaves: the retiring tags' zeroed. Stores
 * what its sweeps empty in all and the last sweep's share. */
static void counts_at(const fk_window *w, const win_clock *c, uint64_t slots[],
                      uint64_t inserts[], uint64_t *swept, uint64_t *swept_last)
{
    memcpy(slots, w->slots, sizeof w->slots);
    memcpy(inserts, w->inserts, sizeof w->inserts);
    *swept = 0;
    *swept_last = w->swept_last;
    if (c->crossed >= FK_WINDOW_GENERATIONS) { /* fk_win_clear */
        *swept = *swept_last = w->live;
        memset(slots, 0, sizeof w->slots);
        memset(inserts, 0, sizeof w->inserts);
        return;
    }
    for (uint64_t k = 1; k <= c->crossed; k++) {
        unsigned t = (unsigned)((w->generation + k) & FK_WIN_TAG_MASK);
        *swept += slots[t];
        *swept_last = slots[t];
        slots[t] = 0;
        inserts[t] = 0;
    }
}

void fk_win_describe_at(const fk_window *w, uint64_t now, fk_window_description *out)
{
    if (!w || !out)
        return;
    fk_window_describe(w, out);
    win_clock c = clock_at(w, now);
    if (!c.moves)
        return;
    uint64_t slots[FK_WINDOW_GENERATIONS], inserts[FK_WINDOW_GENERATIONS], swept, last;
    counts_at(w, &c, slots, inserts, &swept, &last);
    uint64_t gen = w->generation + c.crossed;
    out->clock_set = true;
    out->now = c.now;
    out->next_boundary = c.boundary;
    out->generation = gen;
    uint64_t older = gen < 7 ? gen : 7;
    out->oldest_age = c.now - (c.boundary - w->gen_span * (older + 1));
    out->live = w->live - swept;
    for (unsigned k = 0; k < FK_WINDOW_GENERATIONS; k++) {
        unsigned t = (unsigned)((gen - k) & FK_WIN_TAG_MASK);
        out->generation_slots[k] = slots[t];
        out->generation_inserts[k] = inserts[t];
    }
    out->swept_last = last;
    out->swept_total = w->swept_total + swept;
    /* the stash entries that stay: the sweeps may move some of them into
     * the room they free, which only the advance itself can tell */
    uint64_t stashed = 0;
    for (uint64_t k = 0; k < w->stash_n && c.crossed < FK_WINDOW_GENERATIONS; k++)
        stashed += slot_age(w, w->stash[k].slot) < FK_WINDOW_GENERATIONS - c.crossed;
    out->stashed = stashed;
}

void fk_win_stats_at(const fk_window *w, uint64_t now, fk_stats *out)
{
    fk_window_stats(w, out);
    if (!w || !out)
        return;
    fk_window_description d;
    fk_win_describe_at(w, now, &d);
    uint64_t items = 0;
    for (unsigned k = 0; k < FK_WINDOW_GENERATIONS; k++)
        items += d.generation_inserts[k];
    out->items = items;
    out->load_factor = (double)d.live / (double)(4 * w->buckets);
    out->expected_fpr = fk_win_theory_fpr(w->f, out->load_factor);
}

/* ------------------------------------------------------------- insert */

/* One eviction step of a walk, to undo it. */
typedef struct {
    uint64_t bucket;
    unsigned slot;
} kick_step;

/* Places slot value v (fingerprint fp) starting from a full bucket pair
 * (b1, b2): a random walk of evictions. True when placed; false with the
 * table exactly as before. */
static bool kick_any(fk_window *w, uint64_t b1, uint64_t b2, uint64_t v)
{
    kick_step path[FK_WINDOW_MAX_KICKS];
    uint64_t r = rng_next(&w->rng);
    uint64_t b = (r & 1) ? b2 : b1;
    uint64_t carry = v;
    unsigned n = 0;
    for (; n < FK_WINDOW_MAX_KICKS; n++) {
        /* look one step ahead first: a slot of b whose fingerprint's other
         * bucket has room moves there and the walk ends (the four reads
         * are independent, so their misses overlap) */
        for (unsigned i = 0; i < 4; i++) {
            uint64_t there = fk_win_get(w, b, i);
            uint64_t alt = fk_win_alt(w, b, (uint32_t)(there >> FK_WIN_TAG_BITS));
            int k = fk_win_find_free(w, alt);
            if (k >= 0) {
                fk_win_set(w, alt, (unsigned)k, there);
                fk_win_set(w, b, i, carry);
                w->kicks++;
                return true;
            }
        }
        unsigned j = (unsigned)(rng_next(&w->rng) >> 62);
        uint64_t out = fk_win_get(w, b, j);
        fk_win_set(w, b, j, carry);
        path[n].bucket = b;
        path[n].slot = j;
        w->kicks++;
        carry = out;
        b = fk_win_alt(w, b, (uint32_t)(carry >> FK_WIN_TAG_BITS));
        int k = fk_win_find_free(w, b);
        if (k >= 0) {
            fk_win_set(w, b, (unsigned)k, carry);
            return true;
        }
    }
    /* undo, newest first: each step put `carry` where `out` was */
    while (n--) {
        uint64_t here = fk_win_get(w, path[n].bucket, path[n].slot);
        fk_win_set(w, path[n].bucket, path[n].slot, carry);
        carry = here;
    }
    return false;
}

/* A count window's generation ends if its count has reached L, the
 * tickets concurrent writers' rows took and did not use taken back first
 * (fold_counts: they are not inserts). The one place that decides it. */
static void end_if_full(fk_window *w)
{
    if (!w->timed && w->inserts[w->generation & FK_WIN_TAG_MASK] >= w->gen_len)
        next_generation(w);
}

/* end_if_full for the plain inserts, which reach it with the rows unfolded:
 * FK_OK (a tail call from placed, out of line). */
static __attribute__((noinline)) fk_status generation_ends(fk_window *w)
{
    fold_counts(w);
    end_if_full(w);
    return FK_OK;
}

/* Counts an accepted insert; a count window's generation ends with its
 * L-th insert. */
static inline void counted(fk_window *w, unsigned t)
{
    /* saturating (a time window's count; a count window's stays below L) */
    w->inserts[t] += w->inserts[t] < FK_WINDOW_MAX_INSERTS;
    if (!w->timed && w->inserts[t] >= w->gen_len)
        generation_ends(w);
}

/* (out of line: the width paths' slow way, see above) */
static __attribute__((noinline)) fk_status insert_any(fk_window *w, uint64_t h)
{
    fk_win_place p = fk_win_place_of(w, h);
    const unsigned t = (unsigned)(w->generation & FK_WIN_TAG_MASK);
    const uint64_t v = ((uint64_t)p.fp << FK_WIN_TAG_BITS) | t;
    /* already here: refresh the slot to the current generation */
    uint64_t b = p.i1;
    int j = fk_win_find(w, b, p.fp);
    if (j < 0) {
        b = p.i2;
        j = fk_win_find(w, b, p.fp);
    }
    if (j >= 0) {
        unsigned old = (unsigned)(fk_win_get(w, b, (unsigned)j) & FK_WIN_TAG_MASK);
        if (old != t) {
            fk_win_set(w, b, (unsigned)j, v);
            w->slots[old]--;
            w->slots[t]++;
        }
        w->refreshed++;
        counted(w, t);
        return FK_OK;
    }
    if (__builtin_expect(w->stash_n != 0, 0)) {
        int64_t k = fk_win_stash_find(w, &p);
        if (k >= 0) {
            unsigned old = (unsigned)(w->stash[k].slot & FK_WIN_TAG_MASK);
            w->stash[k].slot = v;
            w->slots[old]--;
            w->slots[t]++;
            w->refreshed++;
            counted(w, t);
            return FK_OK;
        }
    }
    if (w->live >= w->live_budget) { /* a time window fed past its size? */
        fold_counts(w); /* (live slots concurrent writers' rows took count) */
        if (w->live >= w->live_budget) {
            w->refused++;
            return FK_EFULL;
        }
    }
    if ((j = fk_win_find_free(w, p.i1)) >= 0)
        fk_win_set(w, p.i1, (unsigned)j, v);
    else if ((j = fk_win_find_free(w, p.i2)) >= 0)
        fk_win_set(w, p.i2, (unsigned)j, v);
    else if (!w->kick(w, p.i1, p.i2, v)) {
        /* the walk failed (the table as before): the key waits in the
         * stash, which the next sweeps empty into the room they free */
        fk_status s = stash_put(w, p.i1, p.i2, v);
        if (s != FK_OK)
            return s;
    }
    w->live++;
    w->slots[t]++;
    counted(w, t);
    return FK_OK;
}

/* ------------------------------------------- inserts per width (f <= 13) */

/* The constants of a bucket word at fingerprint width F (4..13): with F a
 * constant every one folds. */
typedef struct {
    unsigned W, BB;         /* slot bits, bucket bits */
    uint64_t ones, fp_ones; /* bit 0 / bit 3 of each slot */
    uint64_t high;          /* the top bit of each slot */
    uint64_t fp_fields;     /* the fingerprint bits of every slot */
    uint64_t tag_fields;    /* the tag bits of every slot */
    uint64_t bmask, smask;  /* the bucket's bits, a slot's bits */
} word_k;

static inline __attribute__((always_inline)) word_k word_k_of(unsigned F)
{
    word_k k;
    k.W = F + FK_WIN_TAG_BITS;
    k.BB = 4 * k.W;
    k.ones = 1 | UINT64_C(1) << k.W | UINT64_C(1) << 2 * k.W | UINT64_C(1) << 3 * k.W;
    k.fp_ones = k.ones << FK_WIN_TAG_BITS;
    k.high = k.ones << (k.W - 1);
    k.fp_fields = k.fp_ones * ((UINT64_C(1) << F) - 1);
    k.tag_fields = k.ones * FK_WIN_TAG_MASK;
    k.bmask = k.BB >= 64 ? UINT64_MAX : (UINT64_C(1) << (k.BB & 63)) - 1;
    k.smask = (UINT64_C(1) << k.W) - 1;
    return k;
}

static inline __attribute__((always_inline)) uint64_t word_get(const fk_window *w, uint64_t b,
                                                               const word_k k)
{
    /* unmasked: the bits above the bucket change none of the word tests
     * (their borrows and carries run upwards, each ends in a slot's top
     * bit); word_put masks what it writes */
    return fk_load_le64(w->bytes + fk_win_word_byte(b, k.W)) >> fk_win_word_shift(b, k.W);
}

static inline __attribute__((always_inline)) void word_put(fk_window *w, uint64_t b, uint64_t v,
                                                           const word_k k)
{
    uint8_t *p = w->bytes + fk_win_word_byte(b, k.W);
    unsigned sh = fk_win_word_shift(b, k.W);
    fk_store_le64(p, (fk_load_le64(p) & ~(k.bmask << sh)) | ((v & k.bmask) << sh));
}

/* Nonzero when word v has an empty slot: the lowest set bit is the top
 * bit of the lowest empty slot. */
static inline __attribute__((always_inline)) uint64_t word_free(uint64_t v, const word_k k)
{
    return (v - k.ones) & ~v & k.high;
}

/* -ones in a register the compiler cannot see into, so that word_free_m's
 * v - ones is one lea (v + minus), not a move and a subtract. */
static inline __attribute__((always_inline)) uint64_t minus_ones(const word_k k)
{
    uint64_t m = 0 - k.ones;
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(m));
#endif
    return m;
}

/* word_free with minus = minus_ones(k). */
static inline __attribute__((always_inline)) uint64_t word_free_m(uint64_t v, uint64_t minus,
                                                                  const word_k k)
{
    return (v + minus) & ~v & k.high;
}

/* The nonzero slots of word v (0..4): each slot's top bit set when any of
 * its bits is (no carry crosses a slot), summed by a multiply into the top
 * slot's low bits. */
static inline __attribute__((always_inline)) unsigned word_used(uint64_t v, const word_k k)
{
    const uint64_t low = k.ones * (k.smask >> 1);
    uint64_t top = (((v & low) + low) | v) & k.high;
    return (unsigned)((((top >> (k.W - 1)) * k.ones) >> (3 * k.W)) & 7);
}

/* The slot whose top bit is the lowest set bit of m (m != 0). */
static inline __attribute__((always_inline)) unsigned word_slot(uint64_t m, const word_k k)
{
    return (unsigned)__builtin_ctzll(m) / k.W;
}

/* kick_any with the width a constant, the same walk: each step looks one
 * step ahead (a slot of b whose fingerprint's other bucket has room moves
 * there and the walk ends), else evicts a random slot and carries its
 * fingerprint to its other bucket -- which the look-ahead just read and
 * found full, so that bucket's word is not read again and no room is
 * sought there. */
static inline __attribute__((always_inline)) bool kick_w(fk_window *w, uint64_t b1, uint64_t b2,
                                                         uint64_t v, unsigned F)
{
    const word_k k = word_k_of(F);
    const uint64_t minus = minus_ones(k);
    kick_step path[FK_WINDOW_MAX_KICKS];
    /* one draw gives the first bucket and the slots of 31 random steps */
    uint64_t r = rng_next(&w->rng);
    uint64_t b = (r & 1) ? b2 : b1;
    unsigned left = 31;
    r >>= 2;
    uint64_t carry = v, word = word_get(w, b, k);
    unsigned n = 0;
    for (; n < FK_WINDOW_MAX_KICKS; n++) {
        uint64_t alts[4], words[4];
#if defined(__clang__)
#pragma clang loop unroll(full)
#elif defined(__GNUC__)
#pragma GCC unroll 4
#endif
        for (unsigned i = 0; i < 4; i++) {
            uint64_t there = (word >> (i * k.W)) & k.smask;
            alts[i] = fk_win_alt(w, b, (uint32_t)(there >> FK_WIN_TAG_BITS));
            words[i] = word_get(w, alts[i], k);
            uint64_t e = word_free_m(words[i], minus, k);
            if (e) {
                word_put(w, alts[i], words[i] | there << (word_slot(e, k) * k.W), k);
                word_put(w, b, (word & ~(k.smask << (i * k.W))) | carry << (i * k.W), k);
                w->kicks++;
                return true;
            }
        }
        if (left == 0) {
            r = rng_next(&w->rng);
            left = 32;
        }
        unsigned j = (unsigned)(r & 3);
        r >>= 2;
        left--;
        uint64_t out = (word >> (j * k.W)) & k.smask;
        word = (word & ~(k.smask << (j * k.W))) | carry << (j * k.W);
        word_put(w, b, word, k);
        path[n].bucket = b;
        path[n].slot = j;
        w->kicks++;
        carry = out;
        /* out's other bucket is full (read above); b itself when out's
         * buckets coincide, whose word just changed */
        if (alts[j] != b)
            word = words[j];
        b = alts[j];
    }
    while (n--) {
        uint64_t here = fk_win_get(w, path[n].bucket, path[n].slot);
        fk_win_set(w, path[n].bucket, path[n].slot, carry);
        carry = here;
    }
    return false;
}

/* Counts a new slot of tag t, as insert_any does (live, slots, counted). */
static inline __attribute__((always_inline)) fk_status placed(fk_window *w, unsigned t)
{
    w->live++;
    w->slots[t]++;
    w->inserts[t] += w->inserts[t] < FK_WINDOW_MAX_INSERTS; /* as counted */
    if (!w->timed && w->inserts[t] >= w->gen_len)
        return generation_ends(w);
    return FK_OK;
}

/* The end of a width path's insert whose buckets are both full: the walk,
 * the stash when it fails (as insert_any), the counts. Out of line, so the
 * fast path around it saves no registers. */
static __attribute__((noinline)) fk_status insert_walk(fk_window *w, uint64_t i1, uint64_t i2,
                                                       uint64_t v)
{
    if (!w->kick(w, i1, i2, v)) {
        fk_status s = stash_put(w, i1, i2, v);
        if (s != FK_OK)
            return s;
    }
    return placed(w, (unsigned)(v & FK_WIN_TAG_MASK));
}

/* insert_any with the width a constant: the two bucket words read once,
 * tested for the fingerprint (a refresh) and for room. A refresh, a
 * non-empty stash or a full pair go out of line. */
static inline __attribute__((always_inline)) fk_status insert_w(fk_window *w, uint64_t h,
                                                                unsigned F)
{
    const word_k k = word_k_of(F);
    const uint32_t fp = (uint32_t)(((h & 0xFFFFFFFFu) * ((UINT64_C(1) << F) - 1)) >> 32) + 1;
    const uint64_t i1 = fk_win_mulhi(h, w->buckets), i2 = fk_win_alt(w, i1, fp);
    const uint64_t v1 = word_get(w, i1, k), v2 = word_get(w, i2, k);
    const uint64_t want = (uint64_t)fp * k.fp_ones;
    /* no mask, as fk_win_has_hash_w */
    const uint64_t x1 = v1 ^ want, x2 = v2 ^ want;
    if (__builtin_expect(((((x1 - k.fp_ones) & ~x1) | ((x2 - k.fp_ones) & ~x2)) & k.high) != 0 ||
                             w->stash_n != 0 || w->live >= w->live_budget,
                         0))
        return insert_any(w, h);
    const unsigned t = (unsigned)(w->generation & FK_WIN_TAG_MASK);
    const uint64_t v = ((uint64_t)fp << FK_WIN_TAG_BITS) | t;
    const uint64_t e1 = word_free(v1, k), e2 = word_free(v2, k);
    if (e1 && (!e2 || word_used(v1, k) <= word_used(v2, k)))
        word_put(w, i1, v1 | v << (word_slot(e1, k) * k.W), k);
    else if (e2)
        word_put(w, i2, v2 | v << (word_slot(e2, k) * k.W), k);
    else
        return insert_walk(w, i1, i2, v);
    return placed(w, t);
}

/* sweep's pass with the width a constant: in each bucket word, the slots
 * whose tag is t (a tag field equal to t: no bit of it differs; empty
 * slots too when t = 0, which clearing leaves as they are) are zeroed. */
static inline __attribute__((always_inline)) void sweep_word_at(uint8_t *p, unsigned sh,
                                                                uint64_t want, const word_k k)
{
    const uint64_t low = k.ones * 3, top = k.ones * 4;
    const uint64_t x = fk_load_le64(p), v = x >> sh, d = (v ^ want) & k.tag_fields;
    const uint64_t same = ~(((d & low) + low) | d) & top;
    if (same)
        fk_store_le64(p, x & ~(((same >> 2) * k.smask) << sh));
}

/* The buckets walked by a pointer, not an index: at an odd slot width two
 * buckets take W bytes (the second at byte W / 2, a shift of 4), at an
 * even one each takes W / 2 (fk_win_word_byte). */
static inline __attribute__((always_inline)) void sweep_w(fk_window *w, unsigned t, unsigned F)
{
    const word_k k = word_k_of(F);
    const uint64_t want = k.ones * t, n = w->buckets;
    uint8_t *p = w->bytes;
    uint64_t b = 0;
    if (k.W & 1) {
        for (; b + 2 <= n; b += 2, p += k.W) {
            sweep_word_at(p, 0, want, k);
            sweep_word_at(p + k.W / 2, 4, want, k);
        }
        if (b < n)
            sweep_word_at(p, 0, want, k);
    } else {
        for (; b < n; b++, p += k.W / 2)
            sweep_word_at(p, 0, want, k);
    }
}

#define FK_WIN_EACH_WORD_WIDTH(X) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)

static void sweep_words(fk_window *w, unsigned t)
{
    switch (w->f) {
#define FK_WIN_SWEEP_CASE(F)                                                           \
    case F:                                                                            \
        sweep_w(w, t, F);                                                              \
        break;
        FK_WIN_EACH_WORD_WIDTH(FK_WIN_SWEEP_CASE)
#undef FK_WIN_SWEEP_CASE
    default:
        break;
    }
}

/* x86 with BMI1/BMI2 (rorx, andn, shrx, mulx: fewer moves, the same code
 * otherwise): a second build of the width paths (lookups,
 * inserts, walks), chosen at creation when
 * the CPU has them (choose_paths), as cuckoo's. */
#if FK_CPU_X86 && !FK_TSAN
#define FK_WIN_BMI FK_TARGET_BMI12
#define FK_WIN_BMI_PATH(...) __VA_ARGS__
#else
#define FK_WIN_BMI
#define FK_WIN_BMI_PATH(...)
#endif

#define FK_WIN_INSERT_W(F, B, ATTR)                                                    \
    static __attribute__((noinline)) ATTR bool kick_##B##F(fk_window *w, uint64_t b1,  \
                                                           uint64_t b2, uint64_t v)    \
    {                                                                                  \
        return kick_w(w, b1, b2, v, F);                                                \
    }                                                                                  \
    static FK_HOT ATTR fk_status insert_##B##F(fk_window *w, uint64_t h)              \
    {                                                                                  \
        return insert_w(w, h, F);                                                      \
    }
#define FK_WIN_INSERT_PLAIN(F) FK_WIN_INSERT_W(F, , )
FK_WIN_EACH_WORD_WIDTH(FK_WIN_INSERT_PLAIN)
#undef FK_WIN_INSERT_PLAIN
#if FK_CPU_X86 && !FK_TSAN
#define FK_WIN_INSERT_BMI(F) FK_WIN_INSERT_W(F, bmi_, FK_WIN_BMI)
FK_WIN_EACH_WORD_WIDTH(FK_WIN_INSERT_BMI)
#undef FK_WIN_INSERT_BMI
#endif
#undef FK_WIN_INSERT_W

FK_HOT fk_status fk_window_insert(fk_window *w, const void *key, size_t len)
{
    if (!w || (!key && len > 0))
        return FK_EINVAL;
    return fk_win_insert_hash(w, fk_win_hash(w, key, len));
}

FK_HOT bool fk_window_contains(const fk_window *w, const void *key, size_t len)
{
    if (!w || (!key && len > 0))
        return false;
    return w->lookup(&w->base, key, len);
}

/* Any width and key; the width paths' way out for keys not of 8 bytes (out
 * of line, so they save no registers for the long hash). */
static __attribute__((noinline)) bool lookup_any(const fk_filter *f, const void *key, size_t len)
{
    const fk_window *w = (const fk_window *)f;
    if (!key && len > 0)
        return false;
    fk_win_place p = fk_win_place_of(w, fk_win_hash(w, key, len));
    return fk_win_has(w, &p);
}

static FK_HOT bool contains_u64(const fk_filter *f, uint64_t key)
{
    const fk_window *w = (const fk_window *)f;
    fk_win_place p = fk_win_place_of(w, fk_hash8_64(key, w->hash8));
    return fk_win_has(w, &p);
}


/* Lookups with the width a constant, one per f in 4..13 (a bucket in one
 * word), chosen at creation (choose_paths), as cuckoo's: no width test,
 * no mask read from the struct. The byte form hashes 8-byte keys inline
 * and sends the others (and a NULL key) to lookup_any, a tail call. */
#define FK_WIN_LOOKUP_W(F, B, ATTR)                                                    \
    static FK_HOT ATTR bool lookup_##B##F(const fk_filter *f, const void *key, size_t len) \
    {                                                                                  \
        const fk_window *w = (const fk_window *)f;                                     \
        if (__builtin_expect(len != 8 || !key, 0))                                     \
            return lookup_any(f, key, len);                                            \
        return fk_win_has_hash_w(w, fk_hash8_64(fk_load_le64(key), w->hash8), F);     \
    }                                                                                  \
    static FK_HOT ATTR bool contains_u64_##B##F(const fk_filter *f, uint64_t key)      \
    {                                                                                  \
        const fk_window *w = (const fk_window *)f;                                     \
        return fk_win_has_hash_w(w, fk_hash8_64(key, w->hash8), F);                    \
    }
#define FK_WIN_LOOKUP_PLAIN(F) FK_WIN_LOOKUP_W(F, , )
FK_WIN_EACH_WORD_WIDTH(FK_WIN_LOOKUP_PLAIN)
#undef FK_WIN_LOOKUP_PLAIN
#if FK_CPU_X86 && !FK_TSAN
#define FK_WIN_LOOKUP_BMI(F) FK_WIN_LOOKUP_W(F, bmi_, FK_WIN_BMI)
FK_WIN_EACH_WORD_WIDTH(FK_WIN_LOOKUP_BMI)
#undef FK_WIN_LOOKUP_BMI
#endif
#undef FK_WIN_LOOKUP_W

static void choose_paths(fk_window *x)
{
    x->lookup = lookup_any;
    x->base.contains_u64 = contains_u64;
    x->insert_h = insert_any;
    x->kick = kick_any;
#if FK_CPU_X86 && !FK_TSAN
    const bool bmi = fk_cpu_has(FK_CPU_BMI | FK_CPU_BMI2);
#endif
    switch (x->f) {
#define FK_WIN_PATHS_CASE(F)                                                           \
    case F:                                                                            \
        x->lookup = lookup_##F;                                                        \
        x->base.contains_u64 = contains_u64_##F;                                       \
        x->insert_h = insert_##F;                                                      \
        x->kick = kick_##F;                                                            \
        FK_WIN_BMI_PATH(if (bmi) {                                                     \
            x->lookup = lookup_bmi_##F;                                                \
            x->base.contains_u64 = contains_u64_bmi_##F;                               \
            x->insert_h = insert_bmi_##F;                                              \
            x->kick = kick_bmi_##F;                                                    \
        })                                                                             \
        break;
        FK_WIN_EACH_WORD_WIDTH(FK_WIN_PATHS_CASE)
#undef FK_WIN_PATHS_CASE
    default:
        break;
    }
}

/* ------------------------------------------------------- many writers
 *
 * The concurrent calls lock regions of the table, not the window. The
 * table is cut into regions of 64 bytes (larger for tables over 64 KiB,
 * so that there are at most 1024), one lock byte each, a cache line apart
 * (w->locks, allocated zeroed by the first concurrent call:
 * common/spinlock.h). A
 * bucket's accesses touch the WIN_BUCKET_REACH bytes from its first byte
 * (its 64-bit word, or a slot's 64-bit load in a 128-bit bucket), so a
 * bucket is "held" when the one or two regions those bytes meet are
 * locked, and every byte a writer stores (the untouched neighbours its
 * 64-bit stores write back included) lies in a region it holds. A call
 * takes the regions of a key's two buckets (at most 4, in ascending
 * order, as every holder of several does): two inserts whose buckets lie
 * in different regions share no lock and no table line.
 *
 *   - insert: under its buckets, a refresh (its fingerprint is there) or
 *     a free slot; the counts go to the thread's row (fk_tallies: live,
 *     slots per tag, refreshes, evictions, a time window's inserts), folded
 *     into the fields by the global steps and the counts' readers. A count
 *     window's generation count is also its ticket: the insert whose
 *     ticket takes it to L ends the generation (below); one that finds it
 *     at L already waits for that step, then starts again. A time window's
 *     live count bounds its slots (FK_EFULL). A row takes WIN_TAKE of
 *     either at once while the shared count is far from its bound, so the
 *     shared line is written once per WIN_TAKE inserts of a thread; what
 *     rows hold unused, every global step and every reader of the counts
 *     takes back first (fold_counts), so each generation gets exactly L
 *     inserts made and a refusal is exact.
 *   - both buckets full: a path of evictions ending in a free slot is
 *     searched holding one bucket at a time, then carried out from its end
 *     (as libcuckoo's): each step copies a fingerprint into the free slot
 *     of its other bucket and only then clears the old one, both buckets
 *     held, so a lookup (which holds both too) sees it in one of them,
 *     always. A step whose slot changed meanwhile ends the walk (the
 *     moves made are valid), and the insert tries again.
 *   - the global steps: the writer byte, then every region lock in
 *     ascending order, so no concurrent call runs: a generation's start
 *     (the sweep), an advance that crosses a boundary, and the slow insert
 *     (the plain one, under them): a path not found in WIN_PATH_MAX steps
 *     or WIN_KICK_TRIES tries, a non-empty stash (read and written only
 *     here), a time window at its live budget (so FK_EFULL stays exact).
 *     Cost: the sweep's pass plus one lock per region (1024 at most).
 *   - lookup: holds its two buckets (the stash is read only with them
 *     held, and changes only in a global step).
 *
 * The plain calls take none of these and keep their instructions; the
 * counters they share with the concurrent ones are the same fields.
 *
 * Why regions, not cuckoo's lock-free claim (a compare-and-swap of the
 * aligned word holding a free slot, the global steps kept out by a busy
 * word per thread row): that was built and measured against these locks,
 * and was slower on the 2-core VM of PAPER_NOTES, with one thread and with
 * two, though it ran fewer instructions and missed fewer lines (callgrind).
 * Its locked instruction falls on the bucket's line just after that line's
 * miss, so the miss cannot overlap it; the region locks' lines stay in L1
 * (1024 of them, 64 KiB) and the table stores they guard are plain ones.
 * Its 2-thread ratio rose only because its one-thread rate fell. */

/* A bucket's reach: its first byte and the 23 after it. */
#define WIN_BUCKET_REACH 24u
/* Regions: 64 bytes at least, larger for tables over 64 KiB, so that
 * there are at most WIN_MAX_LOCKS locks. Each lock byte has a cache line
 * of its own (WIN_LOCK_SHIFT): locks packed side by side would move their
 * lines between the cores on nearly every insert, and a large array would
 * miss the cache on every lock (a locked exchange that no later load of
 * the insert overlaps); 1024 lines, 64 KiB, stay in the cache and make two
 * writers' regions meet about once in 500 inserts. */
#define WIN_MIN_REGION_SHIFT 6u
#define WIN_MAX_LOCKS 1024u
#define WIN_LOCK_SHIFT 6u
/* A concurrent insert's eviction path and tries before the global step. */
#define WIN_PATH_MAX 128u
#define WIN_KICK_TRIES 4u

static uint64_t region_count(const fk_window *w)
{
    return ((fk_win_table_bytes(w->buckets, w->w) + FK_WIN_PAD + WIN_BUCKET_REACH) >>
            w->region_shift) + 1;
}

static uint32_t region_shift_for(const fk_window *w)
{
    uint32_t shift = WIN_MIN_REGION_SHIFT;
    while ((fk_win_table_bytes(w->buckets, w->w) >> shift) > WIN_MAX_LOCKS)
        shift++;
    return shift;
}

/* The lock array, allocated by the first concurrent call (under the writer
 * byte); NULL when it cannot be. */
static unsigned char *locks_get(fk_window *w)
{
    unsigned char *l = atomic_load_explicit(&w->locks, memory_order_acquire);
    if (__builtin_expect(l != NULL, 1))
        return l;
    fk_spin_lock(&w->writer);
    l = atomic_load_explicit(&w->locks, memory_order_relaxed);
    if (!l) {
        w->region_shift = region_shift_for(w); /* read by those who load `locks` */
        void *made = NULL;
        if (fk_alloc_zeroed(region_count(w) << WIN_LOCK_SHIFT, &made) == FK_OK) {
            l = made;
            atomic_store_explicit(&w->locks, l, memory_order_release);
        }
    }
    fk_spin_unlock(&w->writer);
    return l;
}

/* The regions a call holds: ascending, no repeats. */
typedef struct {
    uint64_t r[4];
    unsigned n;
} win_held;

/* Holds buckets b1 and b2 (the same bucket twice: once): the regions
 * their reaches meet, each reach one region or two adjacent ones. */
static inline void hold(const fk_window *w, unsigned char *locks, win_held *h, uint64_t b1,
                        uint64_t b2)
{
    uint64_t o1 = (b1 * w->bucket_bits) >> 3, o2 = (b2 * w->bucket_bits) >> 3;
    if (o1 > o2) {
        uint64_t o = o1;
        o1 = o2;
        o2 = o;
    }
    const uint64_t lo1 = o1 >> w->region_shift, hi1 = (o1 + WIN_BUCKET_REACH - 1) >> w->region_shift;
    const uint64_t lo2 = o2 >> w->region_shift, hi2 = (o2 + WIN_BUCKET_REACH - 1) >> w->region_shift;
    /* lo1 <= lo2, hi1 <= hi2, each hi at most its lo + 1: a region past
     * the last one listed is new */
    unsigned n = 0;
    h->r[n++] = lo1;
    if (hi1 != lo1)
        h->r[n++] = hi1;
    if (lo2 > h->r[n - 1])
        h->r[n++] = lo2;
    if (hi2 > h->r[n - 1])
        h->r[n++] = hi2;
    h->n = n;
    for (unsigned k = 0; k < n; k++)
        fk_spin_lock(fk_spin_at(locks, h->r[k] << WIN_LOCK_SHIFT));
}

static inline void release(unsigned char *locks, const win_held *h)
{
    for (unsigned k = h->n; k-- > 0;)
        fk_spin_unlock(fk_spin_at(locks, h->r[k] << WIN_LOCK_SHIFT));
}

/* The global step's entry and exit: no concurrent call runs between. */
static void exclusive_begin(fk_window *w, unsigned char *locks)
{
    fk_spin_lock(&w->writer);
    if (locks)
        for (uint64_t i = 0, n = region_count(w); i < n; i++)
            fk_spin_lock(fk_spin_at(locks, i << WIN_LOCK_SHIFT));
    fold_counts(w);
}

static void exclusive_end(fk_window *w, unsigned char *locks)
{
    if (locks)
        for (uint64_t i = region_count(w); i-- > 0;)
            fk_spin_unlock(fk_spin_at(locks, i << WIN_LOCK_SHIFT));
    fk_spin_unlock(&w->writer);
}

static inline uint64_t add_u64(uint64_t *p, uint64_t d)
{
    return atomic_fetch_add_explicit((_Atomic uint64_t *)p, d, memory_order_relaxed);
}

/* The per-thread counts of the concurrent inserts (w->c_counts): live
 * slots (a count window's; a time window's live count stays one shared
 * counter, so that FK_EFULL is exact), refreshes, evictions, slots per
 * tag, inserts per tag (a time window's; a count window's insert count is
 * its shared ticket). */
enum {
    FK_WIN_C_LIVE,
    FK_WIN_C_REFRESHED,
    FK_WIN_C_KICKS,
    FK_WIN_C_SLOTS,
    FK_WIN_C_INSERTS = FK_WIN_C_SLOTS + FK_WINDOW_GENERATIONS,
    /* what the row has taken from the shared count and not yet used: a
     * count window's tickets (of the current generation), a time window's
     * live slots */
    FK_WIN_C_HELD = FK_WIN_C_INSERTS + FK_WINDOW_GENERATIONS,
    FK_WIN_C_FIELDS
};

/* A writer's row takes WIN_TAKE tickets (or live slots) at once while the
 * shared count is at least 2 WIN_TAKE from its bound; nearer, one at a
 * time. One shared add per 64 inserts instead of one per insert. */
#define WIN_TAKE 64u

static inline void fold_one(fk_window *w, unsigned field, uint64_t *into, bool *any)
{
    uint64_t d = fk_tallies_sum(&w->c_counts, FK_WIN_C_FIELDS, field);
    if (d) {
        *into += d;
        *any = true;
    }
}

/* Moves the rows' counts into the fields (no concurrent insert runs). */
static void fold_counts(fk_window *w)
{
    if (!atomic_load_explicit(&w->c_counts.rows, memory_order_acquire))
        return;
    bool any = false;
    /* what the rows took and did not use goes back first (for a count
     * window, tickets of the current generation: every generation's start
     * comes here before it) */
    const uint64_t held = fk_tallies_sum(&w->c_counts, FK_WIN_C_FIELDS, FK_WIN_C_HELD);
    if (held) {
        if (w->timed)
            w->live -= held;
        else
            w->inserts[w->generation & FK_WIN_TAG_MASK] -= held;
        any = true;
    }
    fold_one(w, FK_WIN_C_LIVE, &w->live, &any);
    fold_one(w, FK_WIN_C_REFRESHED, &w->refreshed, &any);
    fold_one(w, FK_WIN_C_KICKS, &w->kicks, &any);
    for (unsigned t = 0; t < FK_WINDOW_GENERATIONS; t++) {
        fold_one(w, FK_WIN_C_SLOTS + t, &w->slots[t], &any);
        fold_one(w, FK_WIN_C_INSERTS + t, &w->inserts[t], &any);
        if (w->inserts[t] > FK_WINDOW_MAX_INSERTS) /* a time window's count saturates */
            w->inserts[t] = FK_WINDOW_MAX_INSERTS;
    }
    if (any)
        fk_tallies_reset(&w->c_counts, FK_WIN_C_FIELDS);
}

void fk_win_settle(const fk_window *cw)
{
    fk_window *w = (fk_window *)(uintptr_t)cw;
    if (!atomic_load_explicit(&w->c_counts.rows, memory_order_acquire))
        return; /* no concurrent insert ever counted here */
    fk_spin_lock(&w->writer);
    fold_counts(w);
    fk_spin_unlock(&w->writer);
}

/* A count window's generation g ends, unless a step already ended it. */
static void end_generation(fk_window *w, unsigned char *locks, uint64_t g)
{
    exclusive_begin(w, locks);
    if (w->generation == g)
        end_if_full(w); /* (exclusive_begin folded the rows) */
    exclusive_end(w, locks);
}

static fk_status fk_window_slot_advance(fk_filter *f, uint64_t now)
{
    fk_window *w = (fk_window *)f;
    fk_spin_lock(&w->writer);
    unsigned char *locks = atomic_load_explicit(&w->locks, memory_order_acquire);
    fk_status s;
    if (!locks || clock_at(w, now).crossed == 0) {
        s = advance_locked(w, now); /* no sweep: only the clock's fields */
    } else {
        for (uint64_t i = 0, n = region_count(w); i < n; i++)
            fk_spin_lock(fk_spin_at(locks, i << WIN_LOCK_SHIFT));
        s = advance_locked(w, now);
        for (uint64_t i = region_count(w); i-- > 0;)
            fk_spin_unlock(fk_spin_at(locks, i << WIN_LOCK_SHIFT));
    }
    fk_spin_unlock(&w->writer);
    return s;
}

/* The slow insert: the plain one, as a global step (after the end of a
 * count window's generation that a writer has yet to make). */
static fk_status insert_exclusive(fk_window *w, unsigned char *locks, uint64_t h)
{
    exclusive_begin(w, locks);
    end_if_full(w);
    fk_status s = w->insert_h(w, h);
    exclusive_end(w, locks);
    return s;
}

typedef enum {
    PLACE_DONE,       /* *st is the answer */
    PLACE_DONE_ENDS,  /* FK_OK, and this insert ends generation *g */
    PLACE_WAIT_END,   /* generation *g is full: end it, then try again */
    PLACE_FULL,       /* both buckets full: a path of evictions */
    PLACE_SLOW        /* the global step's insert */
} place_result;

/* One of what row holds of the shared count *shared (bounded by
 * `bound`): true when it had one, or took WIN_TAKE at once, far from the
 * bound, and used one; false: take one from *shared. Only the row's
 * thread writes its row, under its regions (the global steps, which take
 * back what rows hold, hold every region). */
static inline bool take_held(fk_tally_row row, uint64_t *shared, uint64_t bound)
{
    if (row.shared)
        return false; /* a thread without a row of its own: one at a time */
    _Atomic uint64_t *held = (_Atomic uint64_t *)&row.n[FK_WIN_C_HELD];
    uint64_t h = atomic_load_explicit(held, memory_order_relaxed);
    if (h == 0) {
        if (bound < 2 * WIN_TAKE)
            return false;
        if (add_u64(shared, WIN_TAKE) > bound - 2 * WIN_TAKE) { /* near the bound */
            add_u64(shared, (uint64_t)-(int64_t)WIN_TAKE);
            return false;
        }
        h = WIN_TAKE;
    }
    atomic_store_explicit(held, h - 1, memory_order_relaxed);
    return true;
}

/* The insert's fast part, p's buckets held: a refresh or a free slot. */
static place_result try_place(fk_window *w, const fk_win_place *p, fk_status *st, uint64_t *g)
{
    if (w->stash_n != 0)
        return PLACE_SLOW;
    *g = w->generation;
    const unsigned t = (unsigned)(*g & FK_WIN_TAG_MASK);
    const uint64_t v = ((uint64_t)p->fp << FK_WIN_TAG_BITS) | t;
    uint64_t b = p->i1;
    int j;
    bool fresh;
    if (__builtin_expect(w->f <= FK_WIN_WORD_FP_BITS, 1)) {
        /* each bucket one word, read once: its match, else its room */
        const uint64_t v1 = fk_win_bucket(w, p->i1), v2 = fk_win_bucket(w, p->i2);
        uint64_t m = fk_win_match(w, v1, p->fp);
        if (!m && (m = fk_win_match(w, v2, p->fp)) != 0)
            b = p->i2;
        if (!(fresh = m == 0))
            j = (int)fk_win_slot_of_bit(w, (unsigned)__builtin_ctzll(m));
        else if ((m = fk_win_free_mask(w, v1)) != 0 || (b = p->i2, m = fk_win_free_mask(w, v2)) != 0)
            j = (int)fk_win_slot_of_bit(w, (unsigned)__builtin_ctzll(m));
        else
            j = -1;
    } else {
        j = fk_win_find(w, b, p->fp);
        if (j < 0) {
            b = p->i2;
            j = fk_win_find(w, b, p->fp);
        }
        if ((fresh = j < 0) && (j = fk_win_find_free(w, b = p->i1)) < 0)
            j = fk_win_find_free(w, b = p->i2);
    }
    if (fresh) {
        if (j < 0)
            return w->timed && atomic_load_explicit((_Atomic uint64_t *)&w->live,
                                                    memory_order_relaxed) >= w->live_budget
                       ? PLACE_SLOW
                       : PLACE_FULL;
    }
    const fk_tally_row row = fk_tallies_row(&w->c_counts, FK_WIN_C_FIELDS);
    bool ends = false;
    if (!w->timed) {
        /* the ticket: this insert's place in its generation */
        if (!take_held(row, &w->inserts[t], w->gen_len)) {
            const uint64_t k = add_u64(&w->inserts[t], 1);
            if (k >= w->gen_len) { /* the generation's tickets are all taken */
                add_u64(&w->inserts[t], UINT64_MAX);
                return PLACE_WAIT_END;
            }
            ends = k + 1 == w->gen_len;
        }
        /* (never past the budget: 7L older inserts, at most L current ones) */
        if (fresh)
            fk_tally_row_add(row, FK_WIN_C_LIVE, 1);
    } else {
        if (fresh && !take_held(row, &w->live, w->live_budget) &&
            add_u64(&w->live, 1) >= w->live_budget) {
            /* at its size, or rows hold what is left: the global step
             * takes those back and refuses exactly */
            add_u64(&w->live, UINT64_MAX);
            return PLACE_SLOW;
        }
        fk_tally_row_add(row, FK_WIN_C_INSERTS + t, 1);
    }
    if (fresh) {
        fk_win_set(w, b, (unsigned)j, v);
        fk_tally_row_add(row, FK_WIN_C_SLOTS + t, 1);
    } else {
        unsigned old = (unsigned)(fk_win_get(w, b, (unsigned)j) & FK_WIN_TAG_MASK);
        if (old != t) {
            fk_win_set(w, b, (unsigned)j, v);
            fk_tally_row_add(row, FK_WIN_C_SLOTS + old, UINT64_MAX);
            fk_tally_row_add(row, FK_WIN_C_SLOTS + t, 1);
        }
        fk_tally_row_add(row, FK_WIN_C_REFRESHED, 1);
    }
    *st = FK_OK;
    return ends ? PLACE_DONE_ENDS : PLACE_DONE;
}

/* One step of an eviction path: slot j of bucket b held v. */
typedef struct {
    uint64_t b, v;
    unsigned j;
} path_step;

/* Both of p's buckets were full: searches a path of evictions from one of
 * them to a free slot, then carries it out from its end (above). True
 * when it was carried out (a slot of p's buckets was freed: the caller
 * tries again); false when no path was found or a step's slot changed. */
static bool kick_concurrent(fk_window *w, unsigned char *locks, const fk_win_place *p,
                            uint64_t seed)
{
    path_step path[WIN_PATH_MAX];
    uint64_t r = fk_mix64(seed);
    uint64_t b = (r & 1) ? p->i2 : p->i1, end = 0;
    unsigned n = 0;
    win_held held;
    /* each step looks one step ahead, as the plain walk: a slot of b whose
     * fingerprint's other bucket has room ends the path there (the four
     * buckets prefetched, so their misses overlap); else a random slot's
     * fingerprint is followed to its other bucket */
    for (unsigned steps = 0;; steps++) {
        if (n == WIN_PATH_MAX || steps == 2 * WIN_PATH_MAX)
            return false;
        uint64_t v[4], alt[4];
        hold(w, locks, &held, b, b);
        for (unsigned i = 0; i < 4; i++)
            v[i] = fk_win_get(w, b, i);
        release(locks, &held);
        for (unsigned i = 0; i < 4; i++) {
            if (v[i] == 0) { /* room appeared in b: the path ends here */
                if (n == 0)
                    return true;
                end = b;
                goto carry;
            }
            alt[i] = fk_win_alt(w, b, (uint32_t)(v[i] >> FK_WIN_TAG_BITS));
            __builtin_prefetch(fk_win_bucket_addr(w, alt[i]));
        }
        for (unsigned i = 0; i < 4; i++) {
            if (alt[i] == b)
                continue; /* a fingerprint whose two buckets coincide cannot move */
            hold(w, locks, &held, alt[i], alt[i]);
            const bool room = fk_win_find_free(w, alt[i]) >= 0;
            release(locks, &held);
            if (room) {
                path[n++] = (path_step){ b, v[i], i };
                end = alt[i];
                goto carry;
            }
        }
        r = fk_mix64(r);
        const unsigned j = (unsigned)(r >> 62);
        if (alt[j] == b)
            continue;
        path[n++] = (path_step){ b, v[j], j };
        b = alt[j];
    }
carry:
    for (unsigned k = n; k-- > 0;) {
        const uint64_t from = path[k].b, to = k + 1 < n ? path[k + 1].b : end;
        hold(w, locks, &held, from, to);
        int free_at = fk_win_get(w, from, path[k].j) == path[k].v ? fk_win_find_free(w, to) : -1;
        if (free_at >= 0) {
            fk_win_set(w, to, (unsigned)free_at, path[k].v); /* copied first, */
            fk_win_set(w, from, path[k].j, 0);               /* then cleared */
            fk_tally_row_add(fk_tallies_row(&w->c_counts, FK_WIN_C_FIELDS), FK_WIN_C_KICKS, 1);
        }
        release(locks, &held);
        if (free_at < 0)
            return false;
    }
    return true;
}

static fk_status insert_concurrent_hash(fk_window *w, uint64_t h)
{
    unsigned char *locks = locks_get(w);
    if (!locks || fk_tallies_prepare(&w->c_counts, FK_WIN_C_FIELDS) != FK_OK)
        return FK_ENOMEM;
    const fk_win_place p = fk_win_place_of(w, h);
    /* the buckets' misses overlap the locks' (a locked exchange lets no
     * later load start before it) */
    __builtin_prefetch(fk_win_bucket_addr(w, p.i1));
    __builtin_prefetch(fk_win_bucket_addr(w, p.i2));
    for (unsigned tries = 0;;) {
        win_held held;
        uint64_t g = 0;
        fk_status st = FK_OK;
        hold(w, locks, &held, p.i1, p.i2);
        place_result r = try_place(w, &p, &st, &g);
        release(locks, &held);
        switch (r) {
        case PLACE_DONE:
            return st;
        case PLACE_DONE_ENDS:
            end_generation(w, locks, g);
            return FK_OK;
        case PLACE_WAIT_END:
            end_generation(w, locks, g);
            continue;
        case PLACE_FULL:
            if (tries < WIN_KICK_TRIES && kick_concurrent(w, locks, &p, h + ++tries))
                continue;
            return insert_exclusive(w, locks, h);
        case PLACE_SLOW:
        default:
            return insert_exclusive(w, locks, h);
        }
    }
}

static fk_status fk_window_slot_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    fk_window *w = (fk_window *)f;
    return insert_concurrent_hash(w, fk_win_hash(w, key, len));
}

static bool fk_window_slot_contains_concurrent(const fk_filter *f, const void *key, size_t len)
{
    fk_window *w = (fk_window *)(uintptr_t)f;
    const fk_win_place p = fk_win_place_of(w, fk_win_hash(w, key, len));
    unsigned char *locks = locks_get(w);
    if (!locks) {
        /* no lock array, so no concurrent insert: the writer byte keeps
         * its allocation, and the advance, out while this reads */
        fk_spin_lock(&w->writer);
        locks = atomic_load_explicit(&w->locks, memory_order_relaxed);
        bool hit = !locks && fk_win_has(w, &p);
        fk_spin_unlock(&w->writer);
        if (!locks)
            return hit;
    }
    win_held held;
    hold(w, locks, &held, p.i1, p.i2);
    bool hit = fk_win_has(w, &p);
    release(locks, &held);
    return hit;
}

/* ------------------------------------------------------ describe, stats */

fk_status fk_window_locate(const fk_window *w, const void *key, size_t len,
                           fk_window_location *out)
{
    if (!w || !out || (!key && len > 0))
        return FK_EINVAL;
    memset(out, 0, sizeof *out);
    out->hash = fk_win_hash(w, key, len);
    fk_win_place p = fk_win_place_of(w, out->hash);
    out->fingerprint = p.fp;
    out->i1 = p.i1;
    out->i2 = p.i2;
    out->slot = -1;
    int j = fk_win_find(w, p.i1, p.fp);
    uint64_t b = p.i1;
    out->bucket = j >= 0 ? 1 : 0;
    if (j < 0 && (j = fk_win_find(w, p.i2, p.fp)) >= 0) {
        out->bucket = 2;
        b = p.i2;
    }
    uint64_t here = j >= 0 ? fk_win_get(w, b, (unsigned)j) : 0;
    if (j < 0 && w->stash_n) {
        int64_t k = fk_win_stash_find(w, &p);
        if (k >= 0) {
            out->bucket = 3;
            j = (int)k;
            here = w->stash[k].slot;
        }
    }
    if (j >= 0) {
        out->slot = j;
        unsigned tag = (unsigned)(here & FK_WIN_TAG_MASK);
        uint64_t age = (w->generation - tag) & FK_WIN_TAG_MASK;
        out->age = age;
        out->generation = w->generation - age;
    }
    return FK_OK;
}

void fk_window_describe(const fk_window *w, fk_window_description *out)
{
    if (!w || !out)
        return;
    fk_win_settle(w);
    memset(out, 0, sizeof *out);
    out->fingerprint_bits = w->f;
    out->slot_bits = w->w;
    out->timed = w->timed;
    out->clock_set = w->clock_set;
    out->clock = w->clock;
    out->buckets = w->buckets;
    out->slots = 4 * w->buckets;
    out->window = w->timed ? w->span : w->capacity;
    out->generation_length = w->timed ? w->gen_span : w->gen_len;
    out->live_budget = w->live_budget;
    out->generation = w->generation;
    out->now = w->now;
    out->next_boundary = w->boundary;
    uint64_t older = w->generation < 7 ? w->generation : 7;
    if (w->timed)
        out->oldest_age = w->clock_set ? w->now - (w->boundary - w->gen_span * (older + 1)) : 0;
    else
        out->oldest_age = older * w->gen_len + w->inserts[w->generation & FK_WIN_TAG_MASK];
    out->live = w->live;
    for (unsigned k = 0; k < FK_WINDOW_GENERATIONS; k++) {
        unsigned t = (unsigned)((w->generation - k) & FK_WIN_TAG_MASK);
        out->generation_slots[k] = w->slots[t];
        out->generation_inserts[k] = w->inserts[t];
    }
    out->swept_last = w->swept_last;
    out->swept_total = w->swept_total;
    out->refreshed = w->refreshed;
    out->refused = w->refused;
    out->kicks = w->kicks;
    out->seed = w->seed;
    out->stashed = w->stash_n;
}

static uint64_t memory_of(uint64_t buckets, uint32_t w)
{
    return fk_win_table_bytes(buckets, w) + FK_WIN_PAD + sizeof(fk_window);
}


void fk_window_stats(const fk_window *w, fk_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!w)
        return;
    fk_win_settle(w);
    uint64_t items = 0;
    for (unsigned t = 0; t < FK_WINDOW_GENERATIONS; t++)
        items += w->inserts[t];
    out->items = items;
    out->capacity = w->capacity;
    out->memory_bytes = memory_of(w->buckets, w->w) + w->stash_cap * sizeof *w->stash;
    if (atomic_load_explicit(&w->locks, memory_order_relaxed))
        out->memory_bytes += region_count(w) << WIN_LOCK_SHIFT; /* the concurrent calls' locks */
    out->memory_bytes += fk_tallies_bytes(&w->c_counts, FK_WIN_C_FIELDS);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)w->capacity;
    out->load_factor = (double)w->live / (double)(4 * w->buckets);
    out->expected_fpr = fk_win_theory_fpr(w->f, out->load_factor);
}

/* ------------------------------------------------------------ the vtable */

static fk_status fk_window_slot_create(const fk_params *p, fk_filter **out)
{
    fk_window *made = NULL;
    fk_status s = fk_window_new(p, &made);
    *out = made ? &made->base : NULL;
    return s;
}

static void fk_window_slot_destroy(fk_filter *f) { fk_window_free((fk_window *)f); }

static FK_HOT fk_status fk_window_slot_insert(fk_filter *f, const void *key, size_t len)
{
    fk_window *w = (fk_window *)f;
    if (!key && len > 0)
        return FK_EINVAL;
    return w->insert_h(w, fk_win_hash(w, key, len));
}

/* Straight to the width's lookup, which makes the checks (one jump). */
static FK_HOT bool fk_window_slot_contains(const fk_filter *f, const void *key, size_t len)
{
    return ((const fk_window *)f)->lookup(f, key, len);
}

static void fk_window_slot_stats(const fk_filter *f, fk_stats *out)
{
    fk_window_stats((const fk_window *)f, out);
}

static fk_status fk_window_slot_insert_u64(fk_filter *f, uint64_t key)
{
    fk_window *w = (fk_window *)f;
    return fk_win_insert_hash(w, fk_hash8_64(key, w->hash8));
}

static fk_status fk_window_slot_size(const fk_params *p, double items, fk_sizing *out)
{
    uint64_t nb;
    uint32_t f;
    fk_status s = geometry(p, &nb, &f);
    if (s != FK_OK)
        return s;
    uint64_t L = fk_win_gen_len(p->capacity);
    double live = items < (double)(8 * L) ? items : (double)(8 * L);
    out->memory_bytes = memory_of(nb, f + FK_WIN_TAG_BITS);
    out->expected_fpr = fk_win_theory_fpr(f, live / (4.0 * (double)nb));
    snprintf(out->geometry, sizeof out->geometry,
             "f = %u + 3 tag bits, %llu buckets of 4, 8 generations of %llu", f,
             (unsigned long long)nb, (unsigned long long)L);
    return FK_OK;
}

static void fk_window_slot_stats_at(const fk_filter *f, uint64_t now, fk_stats *out)
{
    fk_win_stats_at((const fk_window *)f, now, out);
}

/* The rows of fk_filter_describe: fk_window_description's fields, named as
 * Python's Window.describe() keys; per generation one row each,
 * generation_slots_0 (the current one) .. _7 (the oldest), the same for
 * generation_inserts. clock: a time window's clock name, NULL (none) for a
 * count window. */
static const char *const gen_slot_names[FK_WINDOW_GENERATIONS] = {
    "generation_slots_0", "generation_slots_1", "generation_slots_2", "generation_slots_3",
    "generation_slots_4", "generation_slots_5", "generation_slots_6", "generation_slots_7",
};
static const char *const gen_insert_names[FK_WINDOW_GENERATIONS] = {
    "generation_inserts_0", "generation_inserts_1", "generation_inserts_2",
    "generation_inserts_3", "generation_inserts_4", "generation_inserts_5",
    "generation_inserts_6", "generation_inserts_7",
};

static fk_status fk_window_slot_describe(const fk_filter *f, const uint64_t *at,
                                         fk_describe_row *rows, size_t cap, size_t *n)
{
    const fk_window *w = (const fk_window *)f;
    fk_window_description d;
    if (at)
        fk_win_describe_at(w, *at, &d);
    else
        fk_window_describe(w, &d);
    fk_describe_string(rows, cap, n, "mode", d.timed ? "time" : "count");
    const char *unit = !d.timed                      ? "inserts"
                       : d.clock == FK_CLOCK_UNIX_NS ? "ns"
                                                     : "caller ticks";
    fk_describe_string(rows, cap, n, "clock", d.timed ? fk_clock_name(d.clock) : NULL);
    fk_describe_u64(rows, cap, n, "window", d.window);
    fk_describe_set_unit(rows, cap, n, unit);
    /* the clock's rows (and refused: only a time window refuses) mean
     * nothing for a count window, where they would all read 0: left out
     * (a reader takes a missing one as 0 / false; "clock" stays, null) */
    if (d.timed) {
        fk_describe_bool(rows, cap, n, "timed", d.timed);
        fk_describe_bool(rows, cap, n, "clock_set", d.clock_set);
        fk_describe_u64(rows, cap, n, "clock_id", d.clock);
        fk_describe_u64(rows, cap, n, "now", d.now);
        fk_describe_set_unit(rows, cap, n, unit);
        fk_describe_u64(rows, cap, n, "next_boundary", d.next_boundary);
        fk_describe_set_unit(rows, cap, n, unit);
    }
    fk_describe_u64(rows, cap, n, "generation_length", d.generation_length);
    fk_describe_set_unit(rows, cap, n, unit);
    fk_describe_u64(rows, cap, n, "generation", d.generation);
    fk_describe_u64(rows, cap, n, "oldest_age", d.oldest_age);
    fk_describe_set_unit(rows, cap, n, unit);
    fk_describe_u64(rows, cap, n, "live", d.live);
    fk_describe_u64(rows, cap, n, "live_budget", d.live_budget);
    fk_describe_u64(rows, cap, n, "slots", d.slots);
    for (unsigned k = 0; k < FK_WINDOW_GENERATIONS; k++)
        fk_describe_u64(rows, cap, n, gen_slot_names[k], d.generation_slots[k]);
    for (unsigned k = 0; k < FK_WINDOW_GENERATIONS; k++)
        fk_describe_u64(rows, cap, n, gen_insert_names[k], d.generation_inserts[k]);
    fk_describe_u64(rows, cap, n, "swept_last", d.swept_last);
    fk_describe_u64(rows, cap, n, "swept_total", d.swept_total);
    fk_describe_u64(rows, cap, n, "refreshed", d.refreshed);
    if (d.timed)
        fk_describe_u64(rows, cap, n, "refused", d.refused);
    fk_describe_u64(rows, cap, n, "stashed", d.stashed);
    fk_describe_u64(rows, cap, n, "kicks", d.kicks);
    fk_describe_u64(rows, cap, n, "fingerprint_bits", d.fingerprint_bits);
    fk_describe_u64(rows, cap, n, "slot_bits", d.slot_bits);
    fk_describe_u64(rows, cap, n, "buckets", d.buckets);
    fk_describe_u64(rows, cap, n, "seed", d.seed);
    /* after 0.4.0's rows: a key's two buckets (the stash sits in the
     * struct, read beside them) */
    fk_describe_u64(rows, cap, n, "lookup_reads", 2);
    return FK_OK;
}

const fk_ops fk_window_ops = {
    .version = FK_OPS_VERSION,
    .name = "window",
    .summary = "sliding window: seen in the last N inserts (or T ticks); cuckoo slots with "
               "3-bit generation tags",
    .caps = FK_CAP_EXPIRES,
    .create = fk_window_slot_create,
    .destroy = fk_window_slot_destroy,
    .insert = fk_window_slot_insert,
    .contains = fk_window_slot_contains,
    .stats = fk_window_slot_stats,
    .serial = &fk_window_serial_ops,
    .size = fk_window_slot_size,
    .contains_many = fk_window_slot_contains_many,
    .insert_many = fk_window_slot_insert_many,
    .contains_many_u64 = fk_window_slot_contains_many_u64,
    .insert_many_u64 = fk_window_slot_insert_many_u64,
    .insert_u64 = fk_window_slot_insert_u64,
    .advance = fk_window_slot_advance,
    .contains_at = fk_window_slot_contains_at,
    .stats_at = fk_window_slot_stats_at,
    .describe = fk_window_slot_describe,
    .insert_concurrent = fk_window_slot_insert_concurrent,
    .contains_concurrent = fk_window_slot_contains_concurrent,
};
