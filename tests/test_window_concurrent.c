/* tests/test_window_concurrent.c: the sliding window's concurrent calls
 * (window/window.h, "Thread safety") across many generation boundaries.
 *
 * T - 1 writers insert keys of their own with fk_filter_insert_concurrent
 * while one checker looks up, over and over, each writer's newest keys
 * whose inserts have returned FK_OK with fk_filter_contains_concurrent,
 * as far back as the window still promises them:
 *   - a count window of N: a key whose insert began when `done` inserts
 *     had returned holds a place in the count at or after done; when a
 *     lookup ends, at most done' + T - 1 places are taken (done' read then,
 *     one insert in flight per writer), so the key is inside the window
 *     while done' + T - 1 - done < N;
 *   - a time window of T ticks, its clock moved by one more thread (which
 *     announces each time before its advance and settles it after): a key
 *     inserted when `settled` read c is inside while the announced time
 *     after the lookup is below c + T.
 * Zero misses. After the join, the counts are exact: a count window's
 * generation is M / L for its M inserts, its current generation holds M
 * mod L of them and each older live one L; a time window's refusals are
 * the FK_EFULL answers the writers got; live slots are the sum of the
 * generations', and the window saves and loads (the loader checks every
 * count against the slots). Bounded in time (FK_TEST_SCALE); run under
 * ThreadSanitizer by `make test-tsan`. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "check.h"
#include "keys.h"
#include "../window/window.h"

#define WRITERS 3
#define REFUSED UINT64_MAX

typedef struct {
    fk_filter       *f;
    bool             timed;
    uint64_t         n;          /* count: the window N; time: the span T */
    uint64_t         per_writer;
    uint64_t        *stamp[WRITERS]; /* per key: `done` (count) or `settled` (time)
                                        before its insert; REFUSED for FK_EFULL */
    _Atomic uint64_t published[WRITERS];
    _Atomic uint64_t done;       /* inserts returned, all writers */
    _Atomic uint64_t announced, settled; /* the clock (time windows) */
    _Atomic uint64_t steps;      /* advances made */
    uint64_t         every;      /* inserts per advance */
    uint64_t         step;       /* ticks per advance */
    _Atomic unsigned running;
    _Atomic int      go;
    uint64_t         ok[WRITERS], refused[WRITERS], bad[WRITERS];
    uint64_t         lookups, misses, live_passes, clock_bad;
} stress;

typedef struct {
    stress  *s;
    unsigned w;
} writer_arg;

static inline uint64_t key_of(unsigned w, uint64_t j)
{
    return keys_positive(j * (WRITERS + 1) + w);
}

static void *writer(void *arg)
{
    writer_arg *a = arg;
    stress *s = a->s;
    const unsigned w = a->w;
    while (!atomic_load_explicit(&s->go, memory_order_acquire))
        sched_yield();
    for (uint64_t j = 0; j < s->per_writer; j++) {
        /* a time window's writers keep within two steps of the clock */
        while (s->timed && atomic_load_explicit(&s->done, memory_order_acquire) >=
                               (atomic_load_explicit(&s->steps, memory_order_acquire) + 2) *
                                   s->every)
            sched_yield();
        uint64_t key = key_of(w, j);
        uint64_t stamp = s->timed ? atomic_load_explicit(&s->settled, memory_order_acquire)
                                  : atomic_load_explicit(&s->done, memory_order_acquire);
        fk_status st = fk_filter_insert_concurrent(s->f, &key, sizeof key);
        if (st == FK_OK) {
            s->ok[w]++;
        } else if (st == FK_EFULL && s->timed) {
            s->refused[w]++;
            stamp = REFUSED;
        } else {
            s->bad[w]++;
            stamp = REFUSED;
        }
        s->stamp[w][j] = stamp;
        atomic_fetch_add_explicit(&s->done, 1, memory_order_acq_rel);
        atomic_store_explicit(&s->published[w], j + 1, memory_order_release);
    }
    atomic_fetch_sub_explicit(&s->running, 1, memory_order_release);
    return NULL;
}

/* True while the key stamped `stamp` is still promised (see the top). */
static bool promised(stress *s, uint64_t stamp)
{
    if (s->timed)
        return atomic_load_explicit(&s->announced, memory_order_acquire) < stamp + s->n;
    return atomic_load_explicit(&s->done, memory_order_acquire) + WRITERS - 1 < stamp + s->n;
}

static void *checker(void *arg)
{
    stress *s = arg;
    atomic_store_explicit(&s->go, 1, memory_order_release);
    for (bool last = false; !last;) {
        last = atomic_load_explicit(&s->running, memory_order_acquire) == 0;
        s->live_passes += !last;
        for (unsigned w = 0; w < WRITERS - 1; w++) {
            uint64_t n = atomic_load_explicit(&s->published[w], memory_order_acquire);
            for (uint64_t j = n; j-- > 0;) { /* newest first, until the window ends */
                uint64_t stamp = s->stamp[w][j];
                if (stamp == REFUSED)
                    continue;
                uint64_t key = key_of(w, j);
                s->lookups++;
                bool hit = fk_filter_contains_concurrent(s->f, &key, sizeof key);
                if (!promised(s, stamp))
                    break; /* this one and every older one may be gone */
                s->misses += !hit;
            }
        }
    }
    return NULL;
}

/* The clock: a step of D / 2 every L / 2 inserts (about the sized rate),
 * until the writers are done (who wait for it: above). */
static void *clock_mover(void *arg)
{
    stress *s = arg;
    const uint64_t every = s->every, step = s->step;
    uint64_t now = 0, next = every;
    while (atomic_load_explicit(&s->running, memory_order_acquire) != 0) {
        if (atomic_load_explicit(&s->done, memory_order_acquire) < next) {
            sched_yield();
            continue;
        }
        next += every;
        now += step;
        atomic_store_explicit(&s->announced, now, memory_order_release);
        s->clock_bad += fk_filter_advance(s->f, now) != FK_OK;
        atomic_store_explicit(&s->settled, now, memory_order_release);
        atomic_fetch_add_explicit(&s->steps, 1, memory_order_release);
    }
    return NULL;
}

static void run(bool timed, uint64_t n, uint64_t per_writer, uint64_t seed)
{
    fk_params p = fk_params_make(n, 0.01);
    p.seed = seed;
    if (timed)
        p.span = n * 64; /* capacity n keys per window of span ticks */
    stress s = { .timed = timed, .n = timed ? p.span : n, .per_writer = per_writer };
    CHECK_STATUS(fk_filter_new(&fk_window_ops, &p, &s.f), FK_OK);
    if (!s.f)
        return;
    if (timed)
        CHECK_STATUS(fk_filter_advance(s.f, 0), FK_OK);
    fk_window_description d;
    fk_window_describe((fk_window *)s.f, &d);
    s.every = d.live_budget / 16 + 1; /* L / 2: a generation's keys per D ticks */
    s.step = d.generation_length / 2 + 1;  /* D / 2 */
    for (unsigned w = 0; w < WRITERS - 1; w++) {
        s.stamp[w] = calloc(per_writer, sizeof *s.stamp[w]);
        CHECK(s.stamp[w] != NULL);
        if (!s.stamp[w])
            return;
    }
    atomic_store(&s.running, WRITERS - 1);
    pthread_t id[WRITERS + 1];
    writer_arg wa[WRITERS];
    for (unsigned w = 0; w < WRITERS - 1; w++) {
        wa[w] = (writer_arg){ &s, w };
        CHECK(pthread_create(&id[w], NULL, writer, &wa[w]) == 0);
    }
    CHECK(pthread_create(&id[WRITERS - 1], NULL, checker, &s) == 0);
    if (timed)
        CHECK(pthread_create(&id[WRITERS], NULL, clock_mover, &s) == 0);
    for (unsigned t = 0; t < WRITERS + (unsigned)timed; t++)
        pthread_join(id[t], NULL);

    uint64_t ok = 0, refused = 0, bad = 0;
    for (unsigned w = 0; w < WRITERS - 1; w++) {
        ok += s.ok[w];
        refused += s.refused[w];
        bad += s.bad[w];
    }
    const char *mode = timed ? "time" : "count";
    CHECK_MSG(s.misses == 0 && bad == 0 && s.clock_bad == 0,
              "%s window: %llu of %llu checker lookups missed, %llu bad statuses, %llu "
              "clock failures", mode, (unsigned long long)s.misses,
              (unsigned long long)s.lookups, (unsigned long long)bad,
              (unsigned long long)s.clock_bad);
    CHECK_MSG(s.live_passes >= 1, "%s window: the checker never ran beside the writers", mode);

    fk_window_describe((fk_window *)s.f, &d);
    uint64_t slots = 0;
    for (unsigned k = 0; k < FK_WINDOW_GENERATIONS; k++)
        slots += d.generation_slots[k];
    CHECK_MSG(slots == d.live && d.live <= d.live_budget,
              "%s window: generation slots %llu, live %llu, budget %llu", mode,
              (unsigned long long)slots, (unsigned long long)d.live,
              (unsigned long long)d.live_budget);
    if (!timed) {
        const uint64_t L = d.generation_length;
        bool exact = d.generation == ok / L && d.generation_inserts[0] == ok % L;
        for (unsigned k = 1; k < FK_WINDOW_GENERATIONS && k <= d.generation; k++)
            exact = exact && d.generation_inserts[k] == L;
        CHECK_MSG(exact, "count window: %llu inserts of L = %llu: generation %llu, "
                  "current %llu, previous %llu", (unsigned long long)ok,
                  (unsigned long long)L, (unsigned long long)d.generation,
                  (unsigned long long)d.generation_inserts[0],
                  (unsigned long long)d.generation_inserts[1]);
        CHECK_MSG(d.generation >= 16, "count window: only %llu generations",
                  (unsigned long long)d.generation);
    } else {
        CHECK_MSG(d.refused == refused, "time window: refused %llu, writers got %llu EFULL",
                  (unsigned long long)d.refused, (unsigned long long)refused);
        CHECK_MSG(d.generation >= 16, "time window: only %llu generations",
                  (unsigned long long)d.generation);
    }
    /* the loader checks each tag's count against the slots */
    uint64_t size = 0;
    CHECK_STATUS(fk_filter_serialized_size(s.f, &size), FK_OK);
    void *buf = malloc((size_t)size);
    size_t len = 0;
    fk_filter *back = NULL;
    CHECK(buf != NULL);
    if (buf) {
        CHECK_STATUS(fk_filter_save(s.f, buf, (size_t)size, &len), FK_OK);
        CHECK_STATUS(fk_filter_load(&fk_window_ops, buf, len, &back), FK_OK);
    }
    fk_filter_free(back);
    free(buf);
    for (unsigned w = 0; w < WRITERS - 1; w++)
        free(s.stamp[w]);
    fk_filter_free(s.f);
}

TEST(count_window_writers_and_a_checker)
{
    const uint64_t n = FK_TEST_SCALE(4000, 1000);
    run(false, n, FK_TEST_SCALE(20, 10) * n, 31);
    run(false, 7, 2000, 32); /* L = 1: every insert ends a generation */
}

TEST(time_window_writers_a_clock_and_a_checker)
{
    const uint64_t n = FK_TEST_SCALE(4000, 1000);
    run(true, n, FK_TEST_SCALE(20, 10) * n, 41);
}

/* A writer's row takes 64 tickets (or live slots) of the shared count at
 * once and may stop with most unused: another thread's concurrent insert
 * that leaves 63 behind when the thread ends, then plain inserts and
 * describe must count only the inserts made. */
typedef struct {
    fk_filter *f;
    uint64_t   key;
    fk_status  st;
} one_insert;

static void *insert_one(void *arg)
{
    one_insert *o = arg;
    o->st = fk_filter_insert_concurrent(o->f, &o->key, sizeof o->key);
    return NULL;
}

static void insert_in_a_thread_that_ends(fk_filter *f, uint64_t key)
{
    one_insert o = { f, key, FK_EINVAL };
    pthread_t id;
    CHECK(pthread_create(&id, NULL, insert_one, &o) == 0);
    CHECK(pthread_join(id, NULL) == 0);
    CHECK_STATUS(o.st, FK_OK);
}

TEST(what_a_writer_took_and_left_unused_is_not_counted)
{
    /* count window: L = 1000, so each generation is exactly 1000 inserts */
    fk_params p = fk_params_make(7000, 0.01);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(&fk_window_ops, &p, &f), FK_OK);
    if (!f)
        return;
    fk_window_description d;
    fk_window_describe((fk_window *)f, &d);
    const uint64_t L = d.generation_length;
    CHECK_EQ_U64(L, 1000);
    uint64_t key = 0;
    insert_in_a_thread_that_ends(f, keys_positive(key++));
    CHECK_STATUS(fk_filter_insert_concurrent(f, &(uint64_t){ keys_positive(key++) }, 8), FK_OK);
    /* 2 made, up to 126 taken: the plain inserts end the generation at L */
    for (uint64_t j = 2; j < L - 1; j++)
        CHECK_STATUS(fk_filter_insert(f, &(uint64_t){ keys_positive(key++) }, 8), FK_OK);
    fk_window_describe((fk_window *)f, &d);
    CHECK_MSG(d.generation == 0 && d.generation_inserts[0] == L - 1,
              "after L - 1 inserts: generation %llu holding %llu",
              (unsigned long long)d.generation, (unsigned long long)d.generation_inserts[0]);
    /* concurrent inserts across two boundaries, a thread of its own among them */
    for (uint64_t j = 0; j < 2 * L; j++) {
        if (j % 500 == 7)
            insert_in_a_thread_that_ends(f, keys_positive(key++));
        else
            CHECK_STATUS(fk_filter_insert_concurrent(f, &(uint64_t){ keys_positive(key++) }, 8),
                         FK_OK);
    }
    fk_window_describe((fk_window *)f, &d);
    CHECK_MSG(d.generation == 2 && d.generation_inserts[0] == L - 1 &&
                  d.generation_inserts[1] == L && d.generation_inserts[2] == L,
              "after 3L - 1 inserts: generation %llu holding %llu, %llu, %llu",
              (unsigned long long)d.generation, (unsigned long long)d.generation_inserts[0],
              (unsigned long long)d.generation_inserts[1],
              (unsigned long long)d.generation_inserts[2]);
    fk_filter_free(f);

    /* time window: refused exactly at its budget of live slots, the last
     * inserts plain */
    p = fk_params_make(700, 0.01);
    p.span = 1000;
    CHECK_STATUS(fk_filter_new(&fk_window_ops, &p, &f), FK_OK);
    if (!f)
        return;
    CHECK_STATUS(fk_filter_advance(f, 0), FK_OK);
    fk_window_describe((fk_window *)f, &d);
    const uint64_t budget = d.live_budget;
    insert_in_a_thread_that_ends(f, keys_positive(key++));
    CHECK_STATUS(fk_filter_insert_concurrent(f, &(uint64_t){ keys_positive(key++) }, 8), FK_OK);
    uint64_t accepted = 2;
    for (uint64_t j = 2; j < budget + 10; j++)
        accepted += fk_filter_insert(f, &(uint64_t){ keys_positive(key++) }, 8) == FK_OK;
    fk_window_describe((fk_window *)f, &d);
    /* (a key whose fingerprint is there already takes no slot) */
    CHECK_MSG(accepted >= budget && d.live == budget && d.refused == budget + 10 - accepted,
              "time window of budget %llu: %llu accepted, live %llu, refused %llu",
              (unsigned long long)budget, (unsigned long long)accepted,
              (unsigned long long)d.live, (unsigned long long)d.refused);
    fk_filter_free(f);
}

int main(void)
{
    RUN(what_a_writer_took_and_left_unused_is_not_counted);
    RUN(count_window_writers_and_a_checker);
    RUN(time_window_writers_a_clock_and_a_checker);
    return check_report();
}
