/* window/window_serial.c: the sliding window's part of the saved format
 * (framing: common/serial.h), file kind id 8.
 *
 * Kind parameters: param[0] = buckets (>= 1), param[1] = fingerprint bits
 * f (4..29), param[2] = L (= ceil(capacity / 7)), param[3] = the current
 * generation, param[4] = T (0 for a count window), param[5] = D (=
 * ceil(T / 7); 0 for a count window), param[6] = the stash's entries S
 * (0 for nearly every window: a file without a stash is laid out as
 * before the stash existed), param[7] = a time window's clock id
 * (FK_CLOCK_CALLER 0, FK_CLOCK_UNIX_NS 1; 0 for a count window: a file
 * from before the id existed reads as the caller's clock, and a file
 * with clock 0 is laid out as before); the rest 0. The header's items is
 * the inserts of the live generations (fk_stats.items).
 * Payload: 16 little-endian u64 words of stream state -- the inserts of
 * each tag's generation (8 words, by tag), the eviction PRNG, the clock,
 * the next boundary, 1 when the clock is set (else 0), then the counters
 * kicks, refreshed, refused and swept_total -- followed by the packed
 * buckets, ceil(buckets 4 (f + 3) / 8) bytes, bits past the last slot 0,
 * then S stash entries of 2 words each: the smaller bucket, the slot
 * value (fp << 3 | tag).
 * Keys map through XXH3-64 (window_internal.h); hashing scheme id 1.
 *
 * Validation: every invariant of window_internal.h -- each slot empty or
 * with a fingerprint and a live tag, the slot counts against the inserts,
 * a count window's inserts per generation exactly as its position implies,
 * the live slots within 8L, a clock before its boundary, the boundary on a
 * generation grid that starts at or after time 0, and every counter and
 * clock within the limits the live code keeps (window.h:
 * FK_WINDOW_MAX_GENERATION, FK_WINDOW_MAX_TIME, FK_WINDOW_MAX_INSERTS), so
 * no later insert or advance wraps one -- is checked and
 * anything else is FK_ECORRUPT, so a loaded window is one a stream of
 * inserts and advances could have made, and it continues as that one. */
#include <stdlib.h>
#include "window_internal.h"

enum { P_BUCKETS, P_FP_BITS, P_GEN_LEN, P_GENERATION, P_SPAN, P_GEN_SPAN, P_STASH, P_CLOCK,
       P_USED };
enum { S_INSERTS = 0, S_RNG = 8, S_NOW, S_BOUNDARY, S_CLOCK, S_KICKS, S_REFRESHED, S_REFUSED,
       S_SWEPT };

/* (stash: at most FK_MEMORY_CAP / 16 entries, checked before) */
static uint64_t payload_bytes(uint64_t buckets, uint32_t f, uint64_t stash)
{
    return 8u * FK_WIN_STATE_WORDS + fk_win_table_bytes(buckets, f + FK_WIN_TAG_BITS) +
           16u * stash;
}

static uint64_t items_of(const fk_window *w)
{
    uint64_t s = 0;
    for (unsigned t = 0; t < FK_WINDOW_GENERATIONS; t++)
        s += w->inserts[t];
    return s;
}

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_window *w = (const fk_window *)f;
    h->seed = w->seed;
    h->capacity = w->capacity;
    h->fpr = w->fpr;
    h->items = items_of(w);
    h->param[P_BUCKETS] = w->buckets;
    h->param[P_FP_BITS] = w->f;
    h->param[P_GEN_LEN] = w->gen_len;
    h->param[P_GENERATION] = w->generation;
    h->param[P_SPAN] = w->span;
    h->param[P_GEN_SPAN] = w->gen_span;
    h->param[P_STASH] = w->stash_n;
    h->param[P_CLOCK] = w->clock;
    h->payload_len = payload_bytes(w->buckets, w->f, w->stash_n);
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_window *w = (const fk_window *)f;
    fk_win_settle(w);
    uint64_t st[FK_WIN_STATE_WORDS] = { 0 };
    memcpy(st + S_INSERTS, w->inserts, sizeof w->inserts);
    st[S_RNG] = w->rng;
    st[S_NOW] = w->now;
    st[S_BOUNDARY] = w->boundary;
    st[S_CLOCK] = w->clock_set;
    st[S_KICKS] = w->kicks;
    st[S_REFRESHED] = w->refreshed;
    st[S_REFUSED] = w->refused;
    st[S_SWEPT] = w->swept_total;
    fk_le_put64_array(dst, st, FK_WIN_STATE_WORDS);
    uint64_t tb = fk_win_table_bytes(w->buckets, w->w);
    memcpy(dst + 8u * FK_WIN_STATE_WORDS, w->bytes, (size_t)tb);
    uint8_t *at = dst + 8u * FK_WIN_STATE_WORDS + tb;
    for (uint64_t k = 0; k < w->stash_n; k++, at += 16) {
        fk_store_le64(at, w->stash[k].bucket);
        fk_store_le64(at + 8, w->stash[k].slot);
    }
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    uint64_t nb = h->param[P_BUCKETS], f = h->param[P_FP_BITS];
    if (nb == 0 || nb > (UINT64_C(1) << 58) || f < FK_WINDOW_MIN_FP_BITS ||
        f > FK_WINDOW_MAX_FP_BITS)
        return FK_ECORRUPT;
    if (h->param[P_GEN_LEN] != fk_win_gen_len(h->capacity) ||
        h->param[P_GEN_LEN] > (UINT64_C(1) << 58))
        return FK_ECORRUPT;
    uint64_t span = h->param[P_SPAN];
    if (h->param[P_GEN_SPAN] != (span ? fk_win_gen_len(span) : 0))
        return FK_ECORRUPT;
    if (h->param[P_CLOCK] > FK_CLOCK_MAX || (h->param[P_CLOCK] != FK_CLOCK_CALLER && span == 0))
        return FK_ECORRUPT; /* a clock this version does not know, or on a count window */
    if (fk_win_table_bytes(nb, (uint32_t)f + FK_WIN_TAG_BITS) + FK_WIN_PAD > FK_MEMORY_CAP)
        return FK_ECORRUPT;
    if (h->param[P_STASH] > h->param[P_GEN_LEN] * 8 || h->param[P_STASH] > FK_MEMORY_CAP / 16)
        return FK_ECORRUPT;
    if (h->payload_len != payload_bytes(nb, (uint32_t)f, h->param[P_STASH]))
        return FK_ECORRUPT;
    return FK_OK;
}

/* The stream state against the generation and the slots (already counted
 * into w->slots / w->live). */
static bool state_ok(const fk_window *w, uint64_t items)
{
    const uint64_t g = w->generation, cur = g & FK_WIN_TAG_MASK;
    if (g >= FK_WINDOW_MAX_GENERATION)
        return false;
    uint64_t sum = 0;
    for (unsigned k = 0; k < FK_WINDOW_GENERATIONS; k++) {
        unsigned t = (unsigned)((g - k) & FK_WIN_TAG_MASK);
        bool used = k <= g; /* generation g - k has existed */
        if (w->inserts[t] < w->slots[t] || (!used && w->inserts[t] != 0) ||
            w->inserts[t] > FK_WINDOW_MAX_INSERTS)
            return false;
        if (!w->timed && k > 0 && used && w->inserts[t] != w->gen_len)
            return false;
        if (sum > UINT64_MAX - w->inserts[t])
            return false;
        sum += w->inserts[t];
    }
    if (sum != items || w->live > w->live_budget)
        return false;
    if (!w->timed)
        return w->inserts[cur] < w->gen_len && !w->clock_set && w->now == 0 && w->boundary == 0;
    if (!w->clock_set)
        return g == 0 && w->now == 0 && w->boundary == 0;
    /* now < boundary <= now + D (both below 2^63: no wrap), and the grid's
     * origin, boundary - (g + 1) D, at or after time 0 */
    return w->now <= FK_WINDOW_MAX_TIME && w->now < w->boundary &&
           w->boundary - w->now <= w->gen_span && g < w->boundary / w->gen_span;
}

static int stash_order(const void *a, const void *b)
{
    const fk_win_stashed *x = a, *y = b;
    if (x->bucket != y->bucket)
        return x->bucket < y->bucket ? -1 : 1;
    uint64_t fx = x->slot >> FK_WIN_TAG_BITS, fy = y->slot >> FK_WIN_TAG_BITS;
    return fx < fy ? -1 : fx > fy;
}

/* Reads n stash entries into w (counted into slots and live): each a
 * bucket that is the smaller of its pair, a nonzero fingerprint, a live
 * tag, a key the table does not hold, no two with the same bucket and
 * fingerprint. FK_ECORRUPT, or FK_ENOMEM. */
static fk_status load_stash(fk_window *w, const uint8_t *at, uint64_t n)
{
    if (n == 0)
        return FK_OK;
    if (n > SIZE_MAX / sizeof *w->stash)
        return FK_ENOMEM;
    w->stash = malloc((size_t)n * sizeof *w->stash);
    if (!w->stash)
        return FK_ENOMEM;
    w->stash_cap = n;
    const uint64_t g = w->generation;
    for (uint64_t k = 0; k < n; k++, at += 16) {
        fk_win_stashed e = { fk_load_le64(at), fk_load_le64(at + 8) };
        uint64_t fp = e.slot >> FK_WIN_TAG_BITS, age = (g - e.slot) & FK_WIN_TAG_MASK;
        if (e.bucket >= w->buckets || fp == 0 || fp > w->fp_mask || age > g)
            return FK_ECORRUPT;
        /* the smaller bucket of its pair, and the key not in the table */
        uint64_t b2 = fk_win_alt(w, e.bucket, (uint32_t)fp);
        if (b2 < e.bucket || fk_win_find(w, e.bucket, (uint32_t)fp) >= 0 ||
            fk_win_find(w, b2, (uint32_t)fp) >= 0)
            return FK_ECORRUPT;
        w->stash[w->stash_n++] = e;
        w->slots[e.slot & FK_WIN_TAG_MASK]++;
        w->live++;
    }
    /* the same key twice: a stream never stashes a key already held */
    fk_win_stashed *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return FK_ENOMEM;
    memcpy(sorted, w->stash, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, stash_order);
    bool twice = false;
    for (uint64_t k = 1; k < n && !twice; k++)
        twice = stash_order(&sorted[k - 1], &sorted[k]) == 0;
    free(sorted);
    return twice ? FK_ECORRUPT : FK_OK;
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    *out = NULL;
    fk_window *w = NULL;
    fk_status s = fk_win_create_exact(h->param[P_BUCKETS], (uint32_t)h->param[P_FP_BITS],
                                      h->capacity, h->fpr, h->param[P_SPAN], h->seed, &w);
    if (s != FK_OK)
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    uint64_t st[FK_WIN_STATE_WORDS];
    fk_le_get64_array(st, payload, FK_WIN_STATE_WORDS);
    memcpy(w->inserts, st + S_INSERTS, sizeof w->inserts);
    w->rng = st[S_RNG];
    w->now = st[S_NOW];
    w->boundary = st[S_BOUNDARY];
    w->clock_set = st[S_CLOCK] == 1;
    w->kicks = st[S_KICKS];
    w->refreshed = st[S_REFRESHED];
    w->refused = st[S_REFUSED];
    w->swept_total = st[S_SWEPT];
    w->generation = h->param[P_GENERATION];
    w->clock = (uint32_t)h->param[P_CLOCK];
    uint64_t tb = fk_win_table_bytes(w->buckets, w->w);
    memcpy(w->bytes, payload + 8u * FK_WIN_STATE_WORDS, (size_t)tb);
    bool ok = st[S_CLOCK] <= 1;
    /* bits past the last slot are 0 */
    uint64_t used_bits = w->buckets * 4 * w->w;
    if (used_bits & 7)
        ok = ok && (w->bytes[tb - 1] >> (used_bits & 7)) == 0;
    const uint64_t g = w->generation;
    for (uint64_t b = 0; ok && b < w->buckets; b++)
        for (unsigned j = 0; j < 4; j++) {
            uint64_t v = fk_win_get(w, b, j);
            if (!v)
                continue;
            unsigned t = (unsigned)(v & FK_WIN_TAG_MASK);
            uint64_t age = (g - t) & FK_WIN_TAG_MASK;
            if ((v >> FK_WIN_TAG_BITS) == 0 || age > g) {
                ok = false;
                break;
            }
            w->slots[t]++;
            w->live++;
        }
    if (ok) {
        s = load_stash(w, payload + 8u * FK_WIN_STATE_WORDS + tb, h->param[P_STASH]);
        if (s == FK_ENOMEM) {
            fk_window_free(w);
            return s;
        }
        ok = s == FK_OK;
    }
    if (!ok || !state_ok(w, h->items)) {
        fk_window_free(w);
        return FK_ECORRUPT;
    }
    *out = &w->base;
    return FK_OK;
}

const fk_serial_ops fk_window_serial_ops = {
    .kind_id = FK_KIND_WINDOW,
    /* named as the describe rows that show them (fk_window_slot_describe),
     * so a reader lists each once, with the row's unit: a count window's
     * window is its N inserts (P_SPAN is 0), a time window's generation
     * length its D ticks (P_GEN_LEN is 0) */
    .param_names = { [P_BUCKETS] = "buckets", [P_FP_BITS] = "fingerprint bits (f)",
                     [P_GEN_LEN] = "generation length (L inserts)",
                     [P_GENERATION] = "generation", [P_SPAN] = "window (T ticks)",
                     [P_GEN_SPAN] = "generation length (D ticks)",
                     [P_STASH] = "stashed", [P_CLOCK] = "clock" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
};

FK_SERIAL_DIRECT_DEFINE(fk_window, fk_window, fk_window_ops)
