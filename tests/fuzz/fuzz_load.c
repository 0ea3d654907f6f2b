/* tests/fuzz/fuzz_load.c: libFuzzer target: load a filter of any kind from
 * arbitrary bytes (`make fuzz`; seeds in tests/fuzz/corpus/load/).
 *
 * Each input is tried as it is and again with its checksum recomputed, so
 * the fuzzer also reaches the checks behind the checksum (kind parameters,
 * payload content) that random mutations could never pass otherwise.
 * Properties: no crash, no leak, no UB; the buffer, FILE and per-kind
 * loaders agree; a failure is FK_ECORRUPT or FK_EUNSUPPORTED with *out
 * NULL; whatever loads answers queries, takes inserts and saves back to the
 * very same bytes (loading accepts only canonical encodings). Then every
 * operation that makes a new table follows the load (issue 38: a record
 * that loads must stay loadable whatever is done to it): grow, merge with
 * a copy of itself and with a copy that took other keys, count, remove,
 * insert; after each, the filter saves, the saved record loads again and
 * answers 64 keys exactly as the filter does, and a merge keeps every key
 * the filter answered yes for. The fuzz build defines FK_DEBUG_INVARIANTS,
 * so each merge, grow and load also checks the kind's invariants.
 *
 * Issue 48 (every loaded state survives every later operation): a record
 * whose counters or clock sat near their end (a window's generation
 * 2^64 - 1, a next boundary of 2^64 - 1, an expandable capacity far below
 * its entries) loaded, and a later insert or advance made a filter whose
 * save no longer loaded. So after a load a sequence of operations drawn
 * from the input (a PRNG seeded with its hash) follows: single inserts,
 * bursts past two windows (or the capacity), repeats, removes of keys it
 * inserted, grows, merges with a copy, advances of a time window by small
 * and huge steps (to FK_WINDOW_MAX_TIME, and past it: refused), and saves
 * reloaded mid-way; then the filter saves, the record loads again, and
 * every key the kind promises (inserted and not removed; a window: among
 * its last N inserts, or inserted less than T ticks ago) answers present
 * in both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/serial.h"
#include "../../common/endian.h"
#include "../../common/hash.h"
#include "../../registry/registry.h"
#include "../../window/window.h"
#include "../../expandable/expandable.h"

#define REQUIRE(c) \
    do { if (!(c)) { fprintf(stderr, "fuzz_load: %s failed\n", #c); abort(); } } while (0)

/* f saves, its record loads again as the same kind, and the two answer
 * keys 0..63 alike and save the same bytes. */
static void require_round_trip(const fk_filter *f)
{
    uint64_t n = 0;
    REQUIRE(fk_filter_serialized_size(f, &n) == FK_OK);
    uint8_t *buf = malloc((size_t)n), *again = malloc((size_t)n);
    REQUIRE(buf && again);
    size_t w = 0;
    REQUIRE(fk_filter_save(f, buf, (size_t)n, &w) == FK_OK && w == n);
    fk_filter *g = NULL;
    fk_status s = fk_filter_load_any(buf, (size_t)n, &g);
    if (s != FK_OK)
        fprintf(stderr, "fuzz_load: a saved %s record does not load again: %s\n",
                fk_filter_ops(f)->name, fk_status_name(s));
    REQUIRE(s == FK_OK && fk_filter_ops(g) == fk_filter_ops(f));
    for (uint32_t k = 0; k < 64; k++)
        REQUIRE(fk_filter_contains(f, &k, sizeof k) == fk_filter_contains(g, &k, sizeof k));
    REQUIRE(fk_filter_save(g, again, (size_t)n, &w) == FK_OK && w == n);
    REQUIRE(memcmp(buf, again, (size_t)n) == 0);
    fk_filter_free(g);
    free(buf);
    free(again);
}

/* A second filter loaded from the same record (the loader is the only
 * copy the generic API has). */
static fk_filter *copy_of(const uint8_t *data, size_t size)
{
    fk_filter *g = NULL;
    REQUIRE(fk_filter_load_any(data, size, &g) == FK_OK);
    return g;
}

/* Merges src into f: on FK_OK every key f answered yes for still answers
 * yes, and the result round trips; otherwise a documented refusal. */
static void merge_and_check(fk_filter *f, const fk_filter *src)
{
    bool before[64];
    for (uint32_t k = 0; k < 64; k++)
        before[k] = fk_filter_contains(f, &k, sizeof k);
    fk_status s = fk_filter_merge(f, src);
    REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED || s == FK_EINVAL || s == FK_EFULL ||
            s == FK_ELIMIT);
    if (s != FK_OK)
        return;
    for (uint32_t k = 0; k < 64; k++)
        REQUIRE(!before[k] || fk_filter_contains(f, &k, sizeof k));
    require_round_trip(f);
}

/* Every operation after a load (see the top). */
static void follow_with_every_operation(fk_filter *f, const uint8_t *data, size_t size)
{
    require_round_trip(f);
    fk_status s = fk_filter_grow(f);
    REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED || s == FK_EINVAL || s == FK_ELIMIT ||
            s == FK_EFULL);
    if (s == FK_OK)
        require_round_trip(f);

    fk_filter *same = copy_of(data, size);
    merge_and_check(f, same);
    fk_filter_free(same);
    fk_filter *other = copy_of(data, size);
    for (uint32_t k = 100; k < 116; k++)
        (void)fk_filter_insert(other, &k, sizeof k);
    merge_and_check(f, other);
    fk_filter_free(other);

    for (uint32_t k = 0; k < 64; k++) {
        uint64_t c = 0;
        s = fk_filter_count(f, &k, sizeof k, &c);
        REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED);
        REQUIRE(s != FK_OK || (c > 0) == fk_filter_contains(f, &k, sizeof k));
    }
    for (uint32_t k = 0; k < 24; k++) {
        s = fk_filter_remove(f, &k, sizeof k);
        REQUIRE(s == FK_OK || s == FK_ENOTFOUND || s == FK_EUNSUPPORTED);
    }
    require_round_trip(f);
}

/* ------------------------------------------- operation sequences (issue 48) */

static uint64_t seq_rng(uint64_t *st)
{
    uint64_t z = (*st += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#define SEQ_KEYS 1024u /* keys tracked (the newest) */

typedef struct {
    uint64_t key[SEQ_KEYS];  /* ring of inserts that answered FK_OK */
    uint64_t at[SEQ_KEYS];   /* the clock at that insert (time windows) */
    uint32_t live[SEQ_KEYS]; /* inserts minus removes of that key */
    uint64_t n;              /* inserts recorded (the ring holds the newest) */
    uint64_t next;           /* the next fresh key */
} seq_keys;

/* True when the kind promises key slot i answers present now. */
static bool promised(const fk_filter *f, const seq_keys *k, uint64_t i)
{
    if (k->live[i % SEQ_KEYS] == 0)
        return false;
    if (fk_filter_ops(f) != &fk_window_ops)
        return true;
    fk_window_description d;
    fk_window_describe((const fk_window *)f, &d);
    if (d.timed)
        return d.clock_set && d.now - k->at[i % SEQ_KEYS] < d.window;
    return k->n - i <= d.window; /* among the last N inserts */
}

static void require_promises(const fk_filter *f, const fk_filter *g, const seq_keys *k)
{
    uint64_t first = k->n > SEQ_KEYS ? k->n - SEQ_KEYS : 0;
    for (uint64_t i = first; i < k->n; i++) {
        uint64_t key = k->key[i % SEQ_KEYS];
        if (!promised(f, k, i))
            continue;
        if (!fk_filter_contains(f, &key, sizeof key) ||
            (g && !fk_filter_contains(g, &key, sizeof key))) {
            fprintf(stderr, "fuzz_load: %s: key %llu (insert %llu of %llu) is missing%s\n",
                    fk_filter_ops(f)->name, (unsigned long long)key, (unsigned long long)i,
                    (unsigned long long)k->n, g && fk_filter_contains(f, &key, sizeof key)
                                                  ? " after the reload" : "");
            abort();
        }
    }
}

static void seq_insert(fk_filter *f, seq_keys *k, uint64_t key)
{
    fk_status s = fk_filter_insert(f, &key, sizeof key);
    unsigned caps = fk_ops_caps(fk_filter_ops(f));
    REQUIRE(s == FK_OK || s == FK_EFULL || (s == FK_EUNSUPPORTED && (caps & FK_CAP_STATIC)) ||
            (s == FK_ELIMIT && (caps & FK_CAP_GROWS)));
    if (s != FK_OK)
        return;
    REQUIRE(fk_filter_contains(f, &key, sizeof key));
    /* a repeat of a tracked key adds to its count where the ring still has it */
    uint64_t first = k->n > SEQ_KEYS ? k->n - SEQ_KEYS : 0;
    uint32_t had = 0;
    for (uint64_t i = k->n; i-- > first;)
        if (k->key[i % SEQ_KEYS] == key) {
            had = k->live[i % SEQ_KEYS];
            k->live[i % SEQ_KEYS] = 0; /* the newest entry carries the count */
            break;
        }
    fk_window_description d = { 0 };
    if (fk_filter_ops(f) == &fk_window_ops)
        fk_window_describe((const fk_window *)f, &d);
    k->key[k->n % SEQ_KEYS] = key;
    k->at[k->n % SEQ_KEYS] = d.now;
    k->live[k->n % SEQ_KEYS] = had + 1;
    k->n++;
}

/* f saved and loaded again (which must work): the copy. */
static fk_filter *saved_and_loaded(const fk_filter *f, const seq_keys *k)
{
    uint64_t n = 0;
    REQUIRE(fk_filter_serialized_size(f, &n) == FK_OK);
    uint8_t *buf = malloc((size_t)n);
    REQUIRE(buf);
    size_t w = 0;
    REQUIRE(fk_filter_save(f, buf, (size_t)n, &w) == FK_OK && w == n);
    fk_filter *g = NULL;
    fk_status s = fk_filter_load_any(buf, (size_t)n, &g);
    if (s != FK_OK) {
        fprintf(stderr, "fuzz_load: after %llu inserts a saved %s record does not load: %s\n",
                (unsigned long long)k->n, fk_filter_ops(f)->name, fk_status_name(s));
        abort();
    }
    require_promises(f, g, k);
    free(buf);
    return g;
}

/* The copy replaces f. */
static fk_filter *reload(fk_filter *f, const seq_keys *k)
{
    fk_filter *g = saved_and_loaded(f, k);
    fk_filter_free(f);
    return g;
}

/* The sequence of operations drawn from the input (see the top), then the
 * save that must load. Takes f and frees what it ends with. */
static void follow_with_a_sequence(fk_filter *f, const uint8_t *data, size_t size)
{
    static seq_keys k;
    memset(&k, 0, sizeof k);
    k.next = UINT64_C(1) << 40;
    uint64_t rng = fk_checksum64(data, size, 48);
    const bool window = fk_filter_ops(f) == &fk_window_ops;
    fk_window_description d = { 0 };
    if (window)
        fk_window_describe((const fk_window *)f, &d);
    if (d.timed && !d.clock_set) /* the origin: inserts before it are untracked */
        REQUIRE(fk_window_advance(f, seq_rng(&rng) % 1000000) == FK_OK);
    if (fk_filter_ops(f) == &fk_expandable_ops) {
        /* it doubles as a real one would (a capacity far below its
         * entries doubled it at each insert): a real table has N <= 2
         * capacity 2^G quotients, and doubles when its entries reach that
         * limit (or, rarely, once more when a run finds no room), so 7
         * inserts leave N at most 2 N or 4 (entries + voids + 1) */
        fk_expandable_description x0, x1;
        fk_expandable_describe((const fk_expandable *)f, &x0);
        for (unsigned i = 0; i < 7; i++)
            seq_insert(f, &k, k.next++);
        fk_expandable_describe((const fk_expandable *)f, &x1);
        uint64_t most = 4 * (x1.entries + x1.voids + 1);
        if (most < 2 * x0.quotients)
            most = 2 * x0.quotients;
        if (x1.quotients > most) {
            fprintf(stderr, "fuzz_load: 7 inserts after the load doubled the table %u times "
                    "(%llu quotients to %llu for %llu entries)\n", x1.doublings - x0.doublings,
                    (unsigned long long)x0.quotients, (unsigned long long)x1.quotients,
                    (unsigned long long)x1.entries);
            abort();
        }
    }
    fk_stats st;
    fk_filter_stats(f, &st);
    /* a burst: past two windows of a count window (or the capacity) */
    uint64_t burst = (window && !d.timed ? d.window : st.capacity);
    burst = burst > 600 ? 1203 : 2 * burst + 3;
    unsigned bursts = 0, ops = 8 + (unsigned)(seq_rng(&rng) % 40);
    /* one burst always, somewhere: a sequence of single steps alone may
     * never reach a generation's end */
    unsigned at_burst = (unsigned)(seq_rng(&rng) % ops);
    for (unsigned op = 0; op < ops; op++) {
        uint64_t r = seq_rng(&rng);
        if (op == at_burst)
            r = r - r % 10 + 2;
        fk_status s;
        switch (r % 10) {
        case 0:
        case 1: /* a fresh key */
            seq_insert(f, &k, k.next++);
            break;
        case 2: /* a burst (at most 3) */
            /* its save loads after 1, 2, 4, 8, ... of its inserts: a
             * counter that wrapped may leave the saves of a few
             * generations refused, and the burst's end be past them */
            if (bursts++ < 3)
                for (uint64_t i = 1; i <= burst; i++) {
                    seq_insert(f, &k, k.next++);
                    if ((i & (i - 1)) == 0)
                        fk_filter_free(saved_and_loaded(f, &k));
                }
            break;
        case 3: /* a repeat */
            if (k.n)
                seq_insert(f, &k, k.key[(k.n - 1 - (r >> 8) % (k.n < SEQ_KEYS ? k.n : SEQ_KEYS)) % SEQ_KEYS]);
            break;
        case 4: { /* remove a key it inserted */
            if (!k.n)
                break;
            uint64_t i = k.n - 1 - (r >> 8) % (k.n < SEQ_KEYS ? k.n : SEQ_KEYS);
            if (!k.live[i % SEQ_KEYS])
                break;
            uint64_t key = k.key[i % SEQ_KEYS];
            s = fk_filter_remove(f, &key, sizeof key);
            REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED);
            if (s == FK_OK)
                k.live[i % SEQ_KEYS]--;
            break;
        }
        case 5: /* grow */
            s = fk_filter_grow(f);
            REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED || s == FK_EINVAL || s == FK_ELIMIT ||
                    s == FK_EFULL);
            break;
        case 6: { /* merge with a copy of the record */
            fk_filter *same = copy_of(data, size);
            s = fk_filter_merge(f, same);
            REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED || s == FK_EINVAL || s == FK_EFULL ||
                    s == FK_ELIMIT);
            fk_filter_free(same);
            break;
        }
        case 7:
        case 8: { /* advance a time window: a small step, a long jump, the end */
            if (!d.timed)
                break;
            fk_window_describe((const fk_window *)f, &d);
            uint64_t to;
            switch ((r >> 8) % 8) {
            case 0: to = FK_WINDOW_MAX_TIME; break;
            case 1: to = FK_WINDOW_MAX_TIME + 1 + (r >> 16); break; /* refused */
            case 2: to = d.now + (r >> 12); break;                  /* anywhere */
            case 3: to = d.now + d.generation_length * ((r >> 16) % 20); break;
            default: to = d.now + (r >> 16) % (2 * d.generation_length + 1); break;
            }
            if (to < d.now) /* wrapped */
                to = UINT64_MAX;
            s = fk_window_advance(f, to);
            REQUIRE((s == FK_OK) == (to <= FK_WINDOW_MAX_TIME));
            REQUIRE(s == FK_OK || s == FK_EINVAL);
            break;
        }
        default: /* save, reload, go on with the copy */
            f = reload(f, &k);
            break;
        }
        require_promises(f, NULL, &k);
    }
    f = reload(f, &k);
    require_round_trip(f);
    fk_filter_free(f);
}

static void try_load(const uint8_t *data, size_t size)
{
    fk_filter *f = (fk_filter *)&f;
    fk_status s = fk_filter_load_any(data, size, &f);
    REQUIRE((s == FK_OK) == (f != NULL));
    REQUIRE(s == FK_OK || s == FK_ECORRUPT || s == FK_EUNSUPPORTED);

    /* The FILE path answers the same. */
    if (size > 0) {
        FILE *fp = fmemopen((void *)data, size, "rb");
        if (fp) {
            fk_filter *g = NULL;
            fk_status sf = fk_filter_load_file_any(fp, &g);
            fclose(fp);
            REQUIRE(sf == s);
            fk_filter_free(g);
        }
    }
    /* Each kind's own loader: the same, or FK_ECORRUPT for another kind. */
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!(fk_ops_caps(ops) & FK_CAP_SERIALIZE))
            continue;
        fk_filter *g = NULL;
        fk_status sk = fk_filter_load(ops, data, size, &g);
        REQUIRE(sk == s || (sk == FK_ECORRUPT && (s != FK_OK || fk_filter_ops(f) != ops)));
        fk_filter_free(g);
    }
    if (s != FK_OK)
        return;

    uint64_t n = 0;
    REQUIRE(fk_filter_serialized_size(f, &n) == FK_OK && n == size);
    uint8_t *again = malloc(size);
    size_t w = 0;
    REQUIRE(again && fk_filter_save(f, again, size, &w) == FK_OK && w == size);
    REQUIRE(memcmp(again, data, size) == 0);
    free(again);

    fk_stats st;
    fk_filter_stats(f, &st);
    REQUIRE(st.load_factor >= 0.0 && st.load_factor <= 1.0);
    for (uint32_t k = 0; k < 64; k++)
        (void)fk_filter_contains(f, &k, sizeof k);
    for (uint32_t k = 0; k < 16; k++) {
        fk_status si = fk_filter_insert(f, &k, sizeof k);
        unsigned caps = fk_ops_caps(fk_filter_ops(f));
        /* a static kind takes no insert; a chain may be at its byte limit */
        REQUIRE(si == FK_OK || si == FK_EFULL ||
                (si == FK_EUNSUPPORTED && (caps & FK_CAP_STATIC)) ||
                (si == FK_ELIMIT && (caps & FK_CAP_GROWS)));
        if (si == FK_OK)
            REQUIRE(fk_filter_contains(f, &k, sizeof k));
    }
    fk_filter_free(f);
    f = copy_of(data, size);
    follow_with_every_operation(f, data, size);
    fk_filter_free(f);
    follow_with_a_sequence(copy_of(data, size), data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try_load(data, size);
    if (size >= FK_SERIAL_HEADER_BYTES + FK_SERIAL_TRAILER_BYTES) {
        uint8_t *sealed = malloc(size);
        if (!sealed)
            return 0;
        memcpy(sealed, data, size);
        fk_le_put64(sealed + size - 8, fk_checksum64(sealed, size - 8, 0));
        try_load(sealed, size);
        free(sealed);
    }
    return 0;
}
