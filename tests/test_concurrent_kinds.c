/* tests/test_concurrent_kinds.c: the stress test of issue 51, for every
 * registered kind with a concurrent insert (found through the registry and
 * FK_OPS_HAS, never by name).
 *
 * A filter is filled to half its capacity by one plain writer; then T - 1
 * writer threads insert keys of their own with fk_filter_insert_concurrent
 * (and, where the kind removes, every fourth key of theirs is transient:
 * inserted, then removed with fk_filter_remove_concurrent after the writer's
 * next insert) while one checker thread looks up, over and over, every
 * permanent key whose insert has returned FK_OK (its writer publishes how
 * far it got with a release store after the call returned), with
 * fk_filter_contains_concurrent. A bounded kind's writers go on until the
 * table answers FK_EFULL (the loads from half to the table's limit); an
 * unbounded kind's stop at its capacity (a window forgets nothing of a
 * window's worth). Then, after the join: zero misses during the run, every
 * permanent key present, every transient remove answered FK_OK, the item
 * count exactly the successful inserts minus the successful removes, and
 * where the kind counts, each surviving key's count at least its
 * multiplicity in the model (the exact multiset the threads left).
 *
 * A time window (a kind with FK_CAP_EXPIRES made with a span) adds one more
 * thread that advances its clock while the writers insert; the clock moves
 * less than a span in all, so no key may be forgotten.
 *
 * Threads never CHECK (the runner's counters are not atomic): they count
 * what went wrong, and the main thread checks the counts after joining.
 * Bounded in time (FK_TEST_SCALE) and run under ThreadSanitizer by
 * `make test-tsan`. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "check.h"
#include "keys.h"
#include "../common/filter.h"
#include "../registry/registry.h"

#define MAX_WRITERS 3

typedef struct {
    char   bytes[KEYS_MAX_LEN];
    size_t len;
} key_buf;

/* Key j of writer w (w = MAX_WRITERS: the plain prefill): mostly 8-byte
 * integers (the fast paths), every fifth a string of another length. */
static inline void key_of(unsigned w, uint64_t j, key_buf *k)
{
    uint64_t i = j * (MAX_WRITERS + 1) + w;
    if (i % 5 == 4) {
        k->len = keys_realistic(i, k->bytes);
    } else {
        uint64_t v = keys_positive(i);
        memcpy(k->bytes, &v, sizeof v);
        k->len = sizeof v;
    }
}

/* Key j of a writer of a removable kind is transient when j % 4 == 3. */
static inline bool transient(bool removes, uint64_t j)
{
    return removes && j % 4 == 3;
}

typedef struct {
    fk_filter       *f;
    bool             removes, bounded;
    unsigned         writers;
    uint64_t         per_writer;  /* an unbounded kind's keys per writer */
    uint64_t         prefilled;   /* plain keys 0..prefilled-1 of "writer" MAX_WRITERS */
    _Atomic uint64_t published[MAX_WRITERS]; /* keys 0..n-1 of writer w returned */
    _Atomic unsigned running;     /* writers not done yet */
    _Atomic int      go;          /* the checker has started: the writers may */
    /* per writer, read after the join */
    uint64_t         ok_inserts[MAX_WRITERS], ok_removes[MAX_WRITERS];
    uint64_t         bad[MAX_WRITERS]; /* statuses that should not happen */
    uint64_t         inserted[MAX_WRITERS]; /* keys 0..n-1 were attempted and answered */
    /* the checker's */
    uint64_t         lookups, misses, live_passes; /* passes begun beside writers */
    /* the clock thread's (time windows) */
    uint64_t         span;
    uint64_t         clock_bad;
} stress;

typedef struct {
    stress  *s;
    unsigned w;
} writer_arg;

static void *writer(void *arg)
{
    writer_arg *a = arg;
    stress *s = a->s;
    unsigned w = a->w;
    key_buf k;
    uint64_t j = 0;
    while (!atomic_load_explicit(&s->go, memory_order_acquire))
        sched_yield();
    for (; s->bounded || j < s->per_writer; j++) {
        key_of(w, j, &k);
        fk_status st = fk_filter_insert_concurrent(s->f, k.bytes, k.len);
        if (st == FK_EFULL && s->bounded)
            break;
        if (st != FK_OK) {
            s->bad[w]++;
            break;
        }
        s->ok_inserts[w]++;
        atomic_store_explicit(&s->published[w], j + 1, memory_order_release);
        if (j >= 1 && transient(s->removes, j - 1)) { /* the last one's turn */
            key_of(w, j - 1, &k);
            st = fk_filter_remove_concurrent(s->f, k.bytes, k.len);
            s->ok_removes[w] += st == FK_OK;
            s->bad[w] += st != FK_OK;
        }
    }
    /* a transient key left as the last insert stays (the model knows) */
    s->inserted[w] = j;
    atomic_fetch_sub_explicit(&s->running, 1, memory_order_release);
    return NULL;
}

/* Looks up every permanent published key, pass after pass, until the
 * writers are done (and once more after that). */
static void *checker(void *arg)
{
    stress *s = arg;
    key_buf k;
    atomic_store_explicit(&s->go, 1, memory_order_release);
    for (bool last = false; !last;) {
        last = atomic_load_explicit(&s->running, memory_order_acquire) == 0;
        s->live_passes += !last;
        for (uint64_t j = 0; j < s->prefilled; j += 7) { /* a sample of the prefill */
            key_of(MAX_WRITERS, j, &k);
            s->lookups++;
            s->misses += !fk_filter_contains_concurrent(s->f, k.bytes, k.len);
        }
        for (unsigned w = 0; w < s->writers; w++) {
            uint64_t n = atomic_load_explicit(&s->published[w], memory_order_acquire);
            for (uint64_t j = 0; j < n; j++) {
                if (transient(s->removes, j))
                    continue;
                key_of(w, j, &k);
                s->lookups++;
                s->misses += !fk_filter_contains_concurrent(s->f, k.bytes, k.len);
            }
        }
    }
    return NULL;
}

/* A time window's clock, moved by one thread while the writers insert:
 * 64 steps of span / 128, half a span in all. */
static void *clock_mover(void *arg)
{
    stress *s = arg;
    const uint64_t span = s->span;
    for (uint64_t t = 1; t <= 64; t++) {
        s->clock_bad += fk_filter_advance(s->f, t * (span / 128)) != FK_OK;
        if (atomic_load_explicit(&s->running, memory_order_acquire) == 0)
            break;
    }
    return NULL;
}

/* One run on a new filter of `ops`; returns nonzero on any failure (each
 * reported by CHECK_MSG). */
static void stress_kind(const fk_ops *ops, unsigned writers, uint64_t capacity, bool timed,
                        uint64_t seed)
{
    /* a growing kind starts small, so that its writers open links (past
     * the 8 of its first link array) while the checker reads them */
    const bool grows = (fk_ops_caps(ops) & FK_CAP_GROWS) != 0;
    fk_params p = fk_params_make(grows ? capacity / 512 : capacity, 0.01);
    p.seed = seed;
    if (timed)
        p.span = 1u << 20;
    stress s = { .removes = FK_OPS_HAS(ops, FK_OPS_V4, remove_concurrent),
                 .bounded = (fk_ops_caps(ops) & FK_CAP_BOUNDED) != 0, .writers = writers,
                 .span = p.span };
    fk_status st = fk_filter_new(ops, &p, &s.f);
    CHECK_MSG(st == FK_OK, "%s: new: %s", ops->name, fk_strerror(st));
    if (st != FK_OK)
        return;
    if (timed)
        CHECK_STATUS(fk_filter_advance(s.f, 0), FK_OK);
    /* half the capacity by one plain writer (a growing kind: half its
     * first link or table, the writers make every growth step after) */
    key_buf k;
    s.prefilled = p.capacity / 2;
    for (uint64_t j = 0; j < s.prefilled; j++) {
        key_of(MAX_WRITERS, j, &k);
        CHECK_STATUS(fk_filter_insert(s.f, k.bytes, k.len), FK_OK);
    }
    s.per_writer = (capacity - s.prefilled) / writers;
    atomic_store(&s.running, writers);
    pthread_t id[MAX_WRITERS + 2];
    writer_arg wa[MAX_WRITERS];
    for (unsigned w = 0; w < writers; w++) {
        wa[w] = (writer_arg){ &s, w };
        CHECK(pthread_create(&id[w], NULL, writer, &wa[w]) == 0);
    }
    CHECK(pthread_create(&id[writers], NULL, checker, &s) == 0);
    if (timed)
        CHECK(pthread_create(&id[writers + 1], NULL, clock_mover, &s) == 0);
    for (unsigned t = 0; t < writers + 1 + timed; t++)
        pthread_join(id[t], NULL);

    /* the model: the prefill, each writer's permanent keys, and its
     * transient key left unremoved (its last insert, when transient) */
    uint64_t expect = s.prefilled, missing = 0, low_counts = 0, bad = 0, total = 0;
    for (unsigned w = 0; w < writers; w++) {
        bad += s.bad[w];
        expect += s.ok_inserts[w] - s.ok_removes[w];
        total += s.ok_inserts[w];
        uint64_t n = atomic_load(&s.published[w]);
        for (uint64_t j = 0; j < n; j++) {
            bool left = !transient(s.removes, j) || j + 1 == n;
            if (!left)
                continue;
            key_of(w, j, &k);
            missing += !fk_filter_contains(s.f, k.bytes, k.len);
            uint64_t c = 1;
            if (fk_filter_count(s.f, k.bytes, k.len, &c) == FK_OK && c < 1)
                low_counts++;
        }
    }
    for (uint64_t j = 0; j < s.prefilled; j++) {
        key_of(MAX_WRITERS, j, &k);
        missing += !fk_filter_contains(s.f, k.bytes, k.len);
    }
    fk_stats stats;
    fk_filter_stats(s.f, &stats);
    CHECK_MSG(s.misses == 0 && missing == 0 && low_counts == 0 && bad == 0 && s.clock_bad == 0,
              "%s%s, %u writers: %llu of %llu checker lookups missed, %llu missing at the "
              "end, %llu counts low, %llu bad statuses, %llu clock failures",
              ops->name, timed ? " (time window)" : "", writers,
              (unsigned long long)s.misses, (unsigned long long)s.lookups,
              (unsigned long long)missing, (unsigned long long)low_counts,
              (unsigned long long)bad, (unsigned long long)s.clock_bad);
    /* A growing chain of removable links leaves a copy whose key reads
     * present in two links where it is (scalable.h, "Removes"): counted,
     * at a rate under the chain's fpr per remove. */
    uint64_t removes = 0;
    for (unsigned w = 0; w < writers; w++)
        removes += s.ok_removes[w];
    uint64_t slack = grows && s.removes ? removes / 20 : 0;
    CHECK_MSG(stats.items >= expect && stats.items <= expect + slack,
              "%s%s, %u writers: items %llu, expected %llu (+ at most %llu)", ops->name,
              timed ? " (time window)" : "", writers, (unsigned long long)stats.items,
              (unsigned long long)expect, (unsigned long long)slack);
    /* the writers did run beside the checker, and a bounded kind got past
     * its capacity's load (to its limit) */
    CHECK_MSG(s.live_passes >= 1 && total > 0, "%s: %llu checker passes, %llu inserts",
              ops->name, (unsigned long long)s.live_passes, (unsigned long long)total);
    /* a growing kind grew as it should: its FPR bound (each chain link
     * within its capacity, each doubling at its limit) still meets the
     * target after 512 times its first capacity */
    if (grows)
        CHECK_MSG(stats.expected_fpr <= p.fpr, "%s, %u writers: expected fpr %g over %g",
                  ops->name, writers, stats.expected_fpr, p.fpr);
    if (s.bounded)
        CHECK_MSG(s.prefilled + total >= capacity, "%s: full after %llu keys of %llu",
                  ops->name, (unsigned long long)(s.prefilled + total),
                  (unsigned long long)capacity);
    fk_filter_free(s.f);
}

TEST(writers_and_a_checker_from_half_to_the_limit)
{
    unsigned kinds = 0;
    const uint64_t capacity = FK_TEST_SCALE(20000, 4000);
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent) ||
            !check_kind_selected(ops->name))
            continue;
        kinds++;
        for (unsigned writers = 1; writers <= MAX_WRITERS; writers += 2)
            stress_kind(ops, writers, capacity, false, 11 + writers);
        if (fk_ops_caps(ops) & FK_CAP_EXPIRES)
            stress_kind(ops, 2, capacity, true, 21);
    }
    CHECK(kinds >= 10 || check_kind_filtered()); /* the 4 of release 0.4.0, quotient, expandable, window, 3 chains */
}

int main(void)
{
    RUN(writers_and_a_checker_from_half_to_the_limit);
    return check_report();
}
