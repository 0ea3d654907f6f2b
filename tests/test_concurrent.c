/* tests/test_concurrent.c: many threads on one filter, for every registered
 * kind that has the concurrent slots (fk_ops version 4), found through the
 * registry and FK_OPS_HAS, never by name.
 *
 * With T = 2, 4 and 8 threads (more threads than this machine's cores is
 * the point: preemption in the middle of a write): concurrent inserts of
 * disjoint and of overlapping key sets, then zero false negatives and the
 * exact item count; each writer also looks up every key it has just
 * inserted, beside the other writers. "Exact" is the same for every kind:
 * the item count is the number of successful insert calls (minus successful
 * removes), so overlapping sets, where every key is inserted by two
 * threads, count each key twice (a Bloom filter counts calls, a counting
 * filter raises the counters twice, a cuckoo filter stores two copies).
 * Kinds whose inserts commute (no hard capacity: OR of bits, sums of
 * saturating counters) must also save to exactly the bytes of a one-thread
 * build of the same keys. Kinds with a concurrent remove: inserts and
 * removes mixed, then exactly the survivors. Kinds with a hard capacity
 * (cuckoo): one writer filling to 95% load, where most inserts kick, while
 * readers look up keys whose insert has returned: zero misses.
 *
 * Threads never CHECK (the runner's counters are not atomic): they count
 * what went wrong, and the main thread checks the counts after joining.
 * Run under ThreadSanitizer by `make test-tsan`. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "keys.h"
#include "../common/filter.h"
#include "../common/serial.h"
#include "../registry/registry.h"
#include "../scalable/scalable_internal.h"

/* Keys: mostly 8-byte integers (the kinds' fast paths), every fourth a
 * realistic string of another length (their general paths). */
typedef struct {
    char   bytes[KEYS_MAX_LEN];
    size_t len;
} key_buf;

static inline void key_of(uint64_t i, key_buf *k)
{
    if (i % 4 == 3) {
        k->len = keys_realistic(i, k->bytes);
    } else {
        uint64_t v = keys_positive(i);
        memcpy(k->bytes, &v, sizeof v);
        k->len = sizeof v;
    }
}

static const unsigned thread_counts[] = { 2, 4, 8 };
#define MAX_THREADS 8

/* An empty filter sized for capacity; a static kind (FK_CAP_STATIC, never
 * made empty) is built from a few keys instead: its concurrent writers are
 * absent like its plain ones. */
static fk_filter *new_filter(const fk_ops *ops, uint64_t capacity, uint64_t seed)
{
    fk_params p = fk_params_make(capacity, 0.01);
    p.seed = seed;
    fk_filter *f = NULL;
    static const uint64_t few[3] = { 1, 2, 3 };
    fk_status s = (fk_ops_caps(ops) & FK_CAP_STATIC) ? fk_filter_build_u64(ops, &p, 3, few, &f)
                                                    : fk_filter_new(ops, &p, &f);
    CHECK_MSG(s == FK_OK, "%s: new: %s", ops->name, fk_strerror(s));
    return f;
}

/* Calls fn(arg + i * arg_size) on `threads` threads and waits for all. */
static void run_threads(unsigned threads, void *(*fn)(void *), void *args, size_t arg_size)
{
    pthread_t id[MAX_THREADS];
    for (unsigned t = 0; t < threads; t++)
        CHECK(pthread_create(&id[t], NULL, fn, (char *)args + t * arg_size) == 0);
    for (unsigned t = 0; t < threads; t++)
        pthread_join(id[t], NULL);
}

/* ------------------------------------------------------------ inserts */

typedef struct {
    fk_filter *f;
    uint64_t   first, count, n; /* keys first .. first+count-1, mod n */
    uint64_t   failed;          /* insert statuses other than FK_OK */
    uint64_t   unseen;          /* own keys not found right after their insert */
} insert_job;

static void *insert_range(void *arg)
{
    insert_job *j = arg;
    key_buf k;
    for (uint64_t i = 0; i < j->count; i++) {
        key_of((j->first + i) % j->n, &k);
        if (fk_filter_insert_concurrent(j->f, k.bytes, k.len) != FK_OK)
            j->failed++;
        else if (!fk_filter_contains_concurrent(j->f, k.bytes, k.len))
            j->unseen++;
    }
    return NULL;
}

static uint64_t missing_keys(const fk_filter *f, uint64_t n)
{
    key_buf k;
    uint64_t missing = 0;
    for (uint64_t i = 0; i < n; i++) {
        key_of(i, &k);
        missing += !fk_filter_contains(f, k.bytes, k.len);
    }
    return missing;
}

/* The bytes f saves to (NULL when the kind cannot save); *len its size. */
static unsigned char *saved(const fk_filter *f, size_t *len)
{
    uint64_t size = 0;
    if (fk_filter_serialized_size(f, &size) != FK_OK)
        return NULL;
    unsigned char *buf = malloc((size_t)size);
    if (buf && fk_filter_save(f, buf, (size_t)size, len) != FK_OK) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

/* Every key of 0..n-1 inserted by `copies` threads (1: disjoint ranges;
 * 2: each range overlaps the next thread's). */
static void inserts_on(const fk_ops *ops, unsigned threads, unsigned copies, uint64_t n)
{
    /* Room for every copy, so a bounded kind never fills up here. */
    fk_filter *f = new_filter(ops, 2 * copies * n, 7);
    if (!f)
        return;
    insert_job job[MAX_THREADS];
    for (unsigned t = 0; t < threads; t++) {
        uint64_t lo = n * t / threads, hi = n * (t + 1) / threads;
        job[t] = (insert_job){ f, lo, copies * (hi - lo), n, 0, 0 };
        if (copies > 1) /* this thread's range plus the next thread's */
            job[t].count = (n * (t + 2) / threads) - lo;
    }
    run_threads(threads, insert_range, job, sizeof job[0]);

    uint64_t calls = 0, failed = 0, unseen = 0;
    for (unsigned t = 0; t < threads; t++) {
        calls += job[t].count;
        failed += job[t].failed;
        unseen += job[t].unseen;
    }
    CHECK_MSG(calls == copies * n, "%s: %llu calls", ops->name, (unsigned long long)calls);
    CHECK_MSG(failed == 0 && unseen == 0, "%s T=%u x%u: %llu failed, %llu not found at once",
              ops->name, threads, copies, (unsigned long long)failed,
              (unsigned long long)unseen);
    uint64_t missing = missing_keys(f, n);
    CHECK_MSG(missing == 0, "%s T=%u x%u: %llu false negatives", ops->name, threads, copies,
              (unsigned long long)missing);
    fk_stats st;
    fk_filter_stats(f, &st);
    CHECK_MSG(st.items == copies * n, "%s T=%u x%u: items %llu, want %llu", ops->name, threads,
              copies, (unsigned long long)st.items, (unsigned long long)(copies * n));

    /* Inserts that commute: the same bytes as one thread inserting the same
     * calls. */
    /* a chain of a bounded kind's links (scalable-cuckoo) is no more
     * order-free than its links; a window's slots depend on the order too
     * (its cuckoo kicks, and the generation each insert falls in) */
    const fk_ops *inner = fk_scalable_inner(f);
    if (!(fk_ops_caps(ops) & (FK_CAP_BOUNDED | FK_CAP_EXPIRES)) &&
        !(inner && (fk_ops_caps(inner) & FK_CAP_BOUNDED))) {
        fk_filter *serial = new_filter(ops, 2 * copies * n, 7);
        key_buf k;
        for (unsigned t = 0; serial && t < threads; t++)
            for (uint64_t i = 0; i < job[t].count; i++) {
                key_of((job[t].first + i) % n, &k);
                fk_filter_insert(serial, k.bytes, k.len);
            }
        size_t la = 0, lb = 0;
        unsigned char *a = saved(f, &la), *b = serial ? saved(serial, &lb) : NULL;
        if (a || b)
            CHECK_MSG(a && b && la == lb && memcmp(a, b, la) == 0,
                      "%s T=%u x%u: saved bytes differ from a one-thread build", ops->name,
                      threads, copies);
        free(a);
        free(b);
        fk_filter_free(serial);
    }
    fk_filter_free(f);
}

TEST(concurrent_inserts_disjoint_and_overlapping)
{
    const uint64_t n = FK_TEST_SCALE(200000, 20000);
    unsigned kinds = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent))
            continue;
        kinds++;
        for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
            inserts_on(ops, thread_counts[t], 1, n);
            inserts_on(ops, thread_counts[t], 2, n);
        }
    }
    CHECK(kinds >= 4); /* bloom, blocked, counting, cuckoo at least */
}

/* ---------------------------------------------------- inserts + removes */

typedef struct {
    fk_filter *f;
    uint64_t   first, count;
    uint64_t   failed; /* statuses other than FK_OK */
} mix_job;

/* Inserts its keys; after every fourth, removes the odd keys inserted so
 * far that are still due (so removes run beside the other threads'
 * inserts and removes). */
static void *insert_remove_range(void *arg)
{
    mix_job *j = arg;
    key_buf k;
    uint64_t removed_to = 0; /* keys below first+removed_to are done */
    for (uint64_t i = 0; i < j->count; i++) {
        key_of(j->first + i, &k);
        j->failed += fk_filter_insert_concurrent(j->f, k.bytes, k.len) != FK_OK;
        if (i % 4 != 3)
            continue;
        for (; removed_to <= i; removed_to++) {
            if ((j->first + removed_to) % 2 == 0)
                continue;
            key_of(j->first + removed_to, &k);
            j->failed += fk_filter_remove_concurrent(j->f, k.bytes, k.len) != FK_OK;
        }
    }
    for (; removed_to < j->count; removed_to++) {
        if ((j->first + removed_to) % 2 == 0)
            continue;
        key_of(j->first + removed_to, &k);
        j->failed += fk_filter_remove_concurrent(j->f, k.bytes, k.len) != FK_OK;
    }
    return NULL;
}

TEST(concurrent_inserts_and_removes_leave_the_survivors)
{
    const uint64_t n = FK_TEST_SCALE(200000, 20000); /* even: n/2 survive */
    unsigned kinds = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent) ||
            !FK_OPS_HAS(ops, FK_OPS_V4, remove_concurrent))
            continue;
        kinds++;
        for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
            unsigned threads = thread_counts[t];
            fk_filter *f = new_filter(ops, 2 * n, 11);
            if (!f)
                continue;
            mix_job job[MAX_THREADS];
            for (unsigned th = 0; th < threads; th++) {
                uint64_t lo = n * th / threads, hi = n * (th + 1) / threads;
                job[th] = (mix_job){ f, lo, hi - lo, 0 };
            }
            run_threads(threads, insert_remove_range, job, sizeof job[0]);
            uint64_t failed = 0, missing = 0;
            for (unsigned th = 0; th < threads; th++)
                failed += job[th].failed;
            key_buf k;
            for (uint64_t x = 0; x < n; x += 2) {
                key_of(x, &k);
                missing += !fk_filter_contains(f, k.bytes, k.len);
            }
            fk_stats st;
            fk_filter_stats(f, &st);
            CHECK_MSG(failed == 0 && missing == 0 && st.items == n / 2,
                      "%s T=%u: %llu calls failed, %llu survivors missing, items %llu (want %llu)",
                      ops->name, threads, (unsigned long long)failed,
                      (unsigned long long)missing, (unsigned long long)st.items,
                      (unsigned long long)(n / 2));
            fk_filter_free(f);
        }
    }
    CHECK(kinds >= 2); /* counting and cuckoo at least */
}

/* ------------------------------------- one writer at 95% load, readers */

/* The writer inserts keys lo .. hi-1 in order. Once the filter is 95% full
 * (or full) it churns: announces lo + 1, removes key lo, inserts key hi,
 * over and over, so nearly every insert kicks at a steady high load. A
 * reader may look up any key in [lo, hi): one it misses is excused only if
 * the writer had announced its removal by the time the miss was seen. */
typedef struct {
    fk_filter       *f;
    uint64_t         churn;     /* remove + insert pairs after the fill */
    bool             concurrent_call; /* the writer uses the concurrent calls */
    _Atomic uint64_t lo, hi;    /* keys lo .. hi-1 are in (lo: announced) */
    _Atomic int      done;
    double           load_reached;
    uint64_t         writer_failed;
} fill_state;

typedef struct {
    fill_state *s;
    uint64_t    rng;
    uint64_t    lookups, misses;
} reader_job;

static fk_status writer_insert(fill_state *s, uint64_t i)
{
    key_buf k;
    key_of(i, &k);
    return s->concurrent_call ? fk_filter_insert_concurrent(s->f, k.bytes, k.len)
                              : fk_filter_insert(s->f, k.bytes, k.len);
}

static fk_status writer_remove(fill_state *s, uint64_t i)
{
    key_buf k;
    key_of(i, &k);
    return s->concurrent_call ? fk_filter_remove_concurrent(s->f, k.bytes, k.len)
                              : fk_filter_remove(s->f, k.bytes, k.len);
}

static void *fill_writer(void *arg)
{
    fill_state *s = arg;
    fk_stats st = { 0 };
    uint64_t hi = 0;
    for (;; hi++) { /* fill */
        fk_status r = writer_insert(s, hi);
        if (r != FK_OK) {
            s->writer_failed += r != FK_EFULL;
            break;
        }
        atomic_store_explicit(&s->hi, hi + 1, memory_order_release);
        /* a cuckoo filter's stats is O(1) and reads the writer's own count */
        fk_filter_stats(s->f, &st);
        if (st.load_factor >= 0.95) {
            hi++;
            break;
        }
    }
    fk_filter_stats(s->f, &st);
    s->load_reached = st.load_factor;
    /* churn: remove the oldest key, insert a new one; when the new one
     * finds no room, remove the next oldest too and try again */
    for (uint64_t c = 0, lo = 0; c < s->churn && lo + 1 < hi; c++) {
        atomic_store_explicit(&s->lo, lo + 1, memory_order_release);
        s->writer_failed += writer_remove(s, lo++) != FK_OK;
        if (writer_insert(s, hi) == FK_OK)
            atomic_store_explicit(&s->hi, ++hi, memory_order_release);
    }
    atomic_store_explicit(&s->done, 1, memory_order_release);
    return NULL;
}

/* Looks up keys in [lo, hi): half the newest, half anywhere. */
static void *fill_reader(void *arg)
{
    reader_job *j = arg;
    key_buf k;
    while (!atomic_load_explicit(&j->s->done, memory_order_acquire)) {
        uint64_t lo = atomic_load_explicit(&j->s->lo, memory_order_acquire);
        uint64_t hi = atomic_load_explicit(&j->s->hi, memory_order_acquire);
        if (hi <= lo)
            continue;
        uint64_t n = hi - lo;
        j->rng = keys_mix(j->rng + 1);
        uint64_t i = (j->rng & 1) ? hi - 1 - (j->rng >> 1) % (n < 64 ? n : 64)
                                  : lo + (j->rng >> 1) % n;
        key_of(i, &k);
        j->lookups++;
        if (!fk_filter_contains_concurrent(j->s->f, k.bytes, k.len) &&
            atomic_load_explicit(&j->s->lo, memory_order_acquire) <= i)
            j->misses++;
    }
    return NULL;
}

/* One run: a writer filling a new filter of `capacity` (then churning)
 * while `readers` threads look up. Returns the readers' misses plus the
 * keys missing at the end; adds the lookups made to *lookups. */
static uint64_t fill_with_readers(const fk_ops *ops, uint64_t capacity, uint64_t churn,
                                  uint64_t seed, bool concurrent_call, unsigned readers,
                                  uint64_t *lookups)
{
    fill_state s = { .f = new_filter(ops, capacity, seed), .churn = churn,
                     .concurrent_call = concurrent_call };
    if (!s.f)
        return 1;
    pthread_t writer, reader[MAX_THREADS];
    reader_job job[MAX_THREADS];
    CHECK(pthread_create(&writer, NULL, fill_writer, &s) == 0);
    for (unsigned r = 0; r < readers; r++) {
        job[r] = (reader_job){ &s, seed * 16 + r, 0, 0 };
        CHECK(pthread_create(&reader[r], NULL, fill_reader, &job[r]) == 0);
    }
    pthread_join(writer, NULL);
    uint64_t misses = 0;
    for (unsigned r = 0; r < readers; r++) {
        pthread_join(reader[r], NULL);
        *lookups += job[r].lookups;
        misses += job[r].misses;
    }
    key_buf k;
    for (uint64_t i = atomic_load(&s.lo), hi = atomic_load(&s.hi); i < hi; i++) {
        key_of(i, &k);
        misses += !fk_filter_contains(s.f, k.bytes, k.len);
    }
    CHECK_MSG(s.writer_failed == 0 && (churn || s.load_reached >= 0.95),
              "%s: writer failed %llu times, load %.4f", ops->name,
              (unsigned long long)s.writer_failed, s.load_reached);
    fk_filter_free(s.f);
    return misses;
}

/* A large table filled to 95% (kicks through cache misses), then a small
 * one (in L1) kept near full by churn: nearly every insert kicks, and the
 * readers come back to the same few hundred keys, so lookups that overlap
 * a move of their own fingerprint are frequent. */
TEST(readers_never_miss_beside_one_writer_filling_to_95_percent)
{
    unsigned kinds = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent) ||
            !FK_OPS_HAS(ops, FK_OPS_V4, remove_concurrent) ||
            !(fk_ops_caps(ops) & FK_CAP_BOUNDED))
            continue;
        kinds++;
        /* a plain writer beside lookups: only where the plain lookup may
         * run beside writers (cuckoo; the kinds with a contains_concurrent
         * slot lock their regions, which a plain writer does not) */
        int plain = !FK_OPS_HAS(ops, FK_OPS_V7, contains_concurrent) ? 0 : 1;
        /* their readers take the writer's locks: with 8 threads on few
         * cores a preempted reader holds the writer up, so a quarter of
         * the keys keeps the run as short as cuckoo's (the region walk is
         * the same at any size) */
        const uint64_t part = plain ? 4 : 1;
        for (int concurrent_call = plain; concurrent_call < 2; concurrent_call++)
            for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
                unsigned readers = thread_counts[t] - 1;
                uint64_t lookups = 0, misses = 0;
                misses += fill_with_readers(ops, FK_TEST_SCALE(100000, 20000) / part, 0,
                                            3 + t, concurrent_call, readers, &lookups);
                misses += fill_with_readers(ops, 512, FK_TEST_SCALE(100000, 10000) / part,
                                            9 + t, concurrent_call, readers, &lookups);
                CHECK_MSG(misses == 0, "%s %s, %u readers: %llu of %llu lookups missed",
                          ops->name, concurrent_call ? "insert_concurrent" : "insert",
                          readers, (unsigned long long)misses, (unsigned long long)lookups);
            }
    }
    CHECK(kinds >= 1); /* cuckoo */
}

/* ------------------------ many writers and a checker, to the table limit */

/* Writers W = T - 1 insert keys of their own (one at a time and in batches
 * of up to 8 through fk_filter_insert_many_concurrent) and remove some of
 * them, from an empty table through half load up to its limit (inserts
 * answer FK_EFULL) and on, churning there. A key's state is published
 * LIVE after its insert returned FK_OK, and GONE before its remove
 * starts. One checker thread reads every LIVE key continuously: a miss is
 * a false negative unless the key had gone meanwhile. After the join, the
 * model: every LIVE key is found, the item count is their number, the
 * saved filter loads (a cuckoo filter's loader counts the occupied slots
 * against the items), and removing every LIVE key leaves a filter of 0
 * items that saves and loads (no removed key's fingerprint stayed behind,
 * none was stored twice). Fingerprints of 4, 8 and 16 bits (FPR 0.5,
 * 0.04, 0.0002: cuckoo's compare-and-swap inserts) and 10 bits (0.01:
 * its locked ones). */
enum { KEY_NEW = 0, KEY_LIVE = 1, KEY_GONE = 2, KEY_LIVE_INT = 3 };

/* The key of id as it was inserted: KEY_LIVE_INT, by an integer batch
 * (fk_filter_insert_many_u64_concurrent), as the 8 little-endian bytes of
 * keys_positive(id), what the integer calls hash; else key_of(id). */
static void stress_key(uint64_t id, uint8_t state, key_buf *k)
{
    if (state != KEY_LIVE_INT) {
        key_of(id, k);
        return;
    }
    uint64_t v = keys_positive(id);
    for (unsigned i = 0; i < 8; i++)
        k->bytes[i] = (char)(v >> (8 * i));
    k->len = 8;
}

static bool stress_live(uint8_t state)
{
    return state == KEY_LIVE || state == KEY_LIVE_INT;
}

typedef struct {
    fk_filter        *f;
    unsigned          writers;
    unsigned          batch_max;  /* 0: stress_writer; else stress_batch_writer's largest call */
    uint64_t          ops;        /* keys each writer tries to insert */
    _Atomic uint8_t  *state;      /* KEY_* by key id (id = m * writers + w) */
    _Atomic uint64_t  published;  /* no id at or above this is LIVE */
    _Atomic unsigned  running;    /* writers not done */
} stress_state;

typedef struct {
    stress_state *s;
    unsigned      w;
    uint64_t      failed, efull, inserted, removed;
} stress_writer_job;

typedef struct {
    stress_state *s;
    uint64_t      lookups, misses, passes;
} stress_checker_job;

static void stress_set(stress_state *s, uint64_t id, uint8_t state)
{
    atomic_store_explicit(&s->state[id], state, memory_order_release);
    uint64_t seen = atomic_load_explicit(&s->published, memory_order_relaxed);
    while (seen <= id && !atomic_compare_exchange_weak_explicit(&s->published, &seen, id + 1,
                                                                memory_order_release,
                                                                memory_order_relaxed))
        ;
}

static void *stress_writer(void *arg)
{
    stress_writer_job *j = arg;
    stress_state *s = j->s;
    const uint64_t W = s->writers;
    uint64_t next = 0, oldest = 0; /* this writer's key numbers m: ids m * W + w */
    key_buf kb[8];
    const void *keys[8];
    size_t lens[8];
    for (uint64_t call = 0; next < s->ops; call++) {
        unsigned n = call % 3 == 2 && next + 8 <= s->ops ? 8 : 1;
        for (unsigned i = 0; i < n; i++) {
            key_of((next + i) * W + j->w, &kb[i]);
            keys[i] = kb[i].bytes;
            lens[i] = kb[i].len;
        }
        size_t done = 0;
        fk_status r;
        if (n == 1) {
            r = fk_filter_insert_concurrent(s->f, keys[0], lens[0]);
            done = r == FK_OK;
        } else {
            r = fk_filter_insert_many_concurrent(s->f, n, keys, lens, &done);
        }
        for (size_t i = 0; i < done; i++)
            stress_set(s, (next + i) * W + j->w, KEY_LIVE);
        j->inserted += done;
        next += n; /* a key that found no room stays NEW */
        j->efull += r == FK_EFULL;
        j->failed += r != FK_OK && r != FK_EFULL;
        /* one remove every other call while there is room (the load
         * climbs), two per call at the limit (it churns there) */
        unsigned removes = r == FK_EFULL ? 2 : call % 2;
        while (removes > 0 && oldest < next) {
            uint64_t id = oldest++ * W + j->w;
            if (atomic_load_explicit(&s->state[id], memory_order_relaxed) != KEY_LIVE)
                continue;
            removes--;
            stress_set(s, id, KEY_GONE);
            key_of(id, &kb[0]);
            j->failed += fk_filter_remove_concurrent(s->f, kb[0].bytes, kb[0].len) != FK_OK;
            j->removed++;
        }
    }
    atomic_fetch_sub_explicit(&s->running, 1, memory_order_release);
    return NULL;
}

/* The batch writer: only fk_filter_insert_many_concurrent and
 * _u64_concurrent calls, alternately, of 1 to batch_max keys (sizes that
 * cross the batches' windows), no removes; through half load to the
 * table's limit and on (every call then answers FK_EFULL, the keys before
 * the one that found no room published LIVE, the rest left NEW). */
#define STRESS_BATCH_MAX 96u

static void *stress_batch_writer(void *arg)
{
    stress_writer_job *j = arg;
    stress_state *s = j->s;
    const uint64_t W = s->writers;
    static _Thread_local key_buf kb[STRESS_BATCH_MAX];
    const void *keys[STRESS_BATCH_MAX];
    size_t lens[STRESS_BATCH_MAX];
    uint64_t ints[STRESS_BATCH_MAX];
    for (uint64_t call = 0, next = 0; next < s->ops; call++) {
        uint64_t n = 1 + (call * 37 + j->w * 11) % s->batch_max;
        if (n > s->ops - next)
            n = s->ops - next;
        const bool by_int = call % 2 == 1;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t id = (next + i) * W + j->w;
            ints[i] = keys_positive(id);
            key_of(id, &kb[i]);
            keys[i] = kb[i].bytes;
            lens[i] = kb[i].len;
        }
        size_t done = SIZE_MAX;
        fk_status r = by_int ? fk_filter_insert_many_u64_concurrent(s->f, n, ints, &done)
                             : fk_filter_insert_many_concurrent(s->f, n, keys, lens, &done);
        /* done: all of them exactly when the call answered FK_OK */
        j->failed += done > n || (r == FK_OK) != (done == n);
        for (size_t i = 0; i < done && i < n; i++)
            stress_set(s, (next + i) * W + j->w, by_int ? KEY_LIVE_INT : KEY_LIVE);
        j->inserted += done <= n ? done : 0;
        next += n;
        j->efull += r == FK_EFULL;
        j->failed += r != FK_OK && r != FK_EFULL;
    }
    atomic_fetch_sub_explicit(&s->running, 1, memory_order_release);
    return NULL;
}

static void *stress_checker(void *arg)
{
    stress_checker_job *j = arg;
    stress_state *s = j->s;
    key_buf k;
    while (atomic_load_explicit(&s->running, memory_order_acquire) > 0) {
        uint64_t top = atomic_load_explicit(&s->published, memory_order_acquire);
        for (uint64_t id = 0; id < top; id++) {
            uint8_t state = atomic_load_explicit(&s->state[id], memory_order_acquire);
            if (!stress_live(state))
                continue;
            stress_key(id, state, &k);
            j->lookups++;
            if (!fk_filter_contains_concurrent(s->f, k.bytes, k.len) &&
                atomic_load_explicit(&s->state[id], memory_order_acquire) == state)
                j->misses++;
        }
        j->passes++;
    }
    return NULL;
}

/* A filter saved and loaded back (NULL when it cannot save or load). */
static fk_filter *reloaded(const fk_filter *f)
{
    size_t len = 0;
    unsigned char *buf = saved(f, &len);
    fk_filter *g = NULL;
    if (buf && fk_filter_load(fk_filter_ops(f), buf, len, &g) != FK_OK)
        g = NULL;
    free(buf);
    return g;
}

/* batch_max: 0, stress_writer's inserts and removes; else stress_batch_writer's batches. */
static void stress_run(const fk_ops *ops, unsigned threads, double fpr, uint64_t capacity,
                       unsigned batch_max)
{
    const unsigned W = threads - 1;
    fk_params p = fk_params_make(capacity, fpr);
    p.seed = 17 + threads;
    stress_state s = { .writers = W, .batch_max = batch_max, .ops = 3 * capacity / W + 8 };
    CHECK_STATUS(fk_filter_new(ops, &p, &s.f), FK_OK);
    void *state_mem = calloc(W * s.ops, sizeof *s.state);
    s.state = state_mem;
    CHECK(state_mem != NULL);
    if (!s.f || !state_mem) {
        fk_filter_free(s.f);
        free(state_mem);
        return;
    }
    atomic_store(&s.running, W);
    pthread_t id[MAX_THREADS];
    stress_writer_job wj[MAX_THREADS];
    stress_checker_job cj = { &s, 0, 0, 0 };
    CHECK(pthread_create(&id[W], NULL, stress_checker, &cj) == 0);
    for (unsigned w = 0; w < W; w++) {
        wj[w] = (stress_writer_job){ &s, w, 0, 0, 0, 0 };
        CHECK(pthread_create(&id[w], NULL, batch_max ? stress_batch_writer : stress_writer,
                             &wj[w]) == 0);
    }
    for (unsigned t = 0; t <= W; t++)
        pthread_join(id[t], NULL);

    uint64_t failed = 0, efull = 0, inserted = 0, removed = 0;
    for (unsigned w = 0; w < W; w++) {
        failed += wj[w].failed;
        efull += wj[w].efull;
        inserted += wj[w].inserted;
        removed += wj[w].removed;
    }
    uint64_t live = 0, missing = 0;
    key_buf k;
    for (uint64_t i = 0; i < W * s.ops; i++) {
        uint8_t state = atomic_load(&s.state[i]);
        if (!stress_live(state))
            continue;
        live++;
        stress_key(i, state, &k);
        missing += !fk_filter_contains(s.f, k.bytes, k.len);
    }
    const char *mode = batch_max ? " batch writers" : "";
    fk_stats st;
    fk_filter_stats(s.f, &st);
    CHECK_MSG(failed == 0 && efull > 0 && cj.misses == 0 && missing == 0 && st.items == live &&
                  live == inserted - removed,
              "%s%s T=%u fpr %g: %llu failed, %llu EFULL, checker %llu of %llu lookups missed "
              "(%llu passes), %llu live missing at the end, items %llu, live %llu "
              "(%llu in - %llu out)",
              ops->name, mode, threads, fpr, (unsigned long long)failed, (unsigned long long)efull,
              (unsigned long long)cj.misses, (unsigned long long)cj.lookups,
              (unsigned long long)cj.passes, (unsigned long long)missing,
              (unsigned long long)st.items, (unsigned long long)live,
              (unsigned long long)inserted, (unsigned long long)removed);
    fk_filter *g = reloaded(s.f);
    CHECK_MSG(g != NULL, "%s%s T=%u fpr %g: the filter does not save and load back", ops->name,
              mode, threads, fpr);
    fk_filter_free(g);
    /* the model's complement: nothing but the live keys is stored */
    uint64_t not_removed = 0;
    for (uint64_t i = 0; i < W * s.ops; i++) {
        uint8_t state = atomic_load(&s.state[i]);
        if (!stress_live(state))
            continue;
        stress_key(i, state, &k);
        not_removed += fk_filter_remove(s.f, k.bytes, k.len) != FK_OK;
    }
    fk_filter_stats(s.f, &st);
    g = reloaded(s.f);
    CHECK_MSG(not_removed == 0 && st.items == 0 && g != NULL,
              "%s%s T=%u fpr %g: %llu live keys not removable, %llu items left, reload %s",
              ops->name, mode, threads, fpr, (unsigned long long)not_removed,
              (unsigned long long)st.items, g ? "ok" : "refused");
    fk_filter_free(g);
    fk_filter_free(s.f);
    free(state_mem);
}

/* stress_run on every kind with concurrent inserts and removes and a hard
 * capacity (batch_max as stress_run's). */
static void stress_kinds(unsigned batch_max)
{
    static const double fprs[] = { 0.01, 0.04, 0.0002, 0.5 };
    unsigned kinds = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent) ||
            !FK_OPS_HAS(ops, FK_OPS_V4, remove_concurrent) ||
            !(fk_ops_caps(ops) & FK_CAP_BOUNDED) || (fk_ops_caps(ops) & FK_CAP_GROWS))
            continue;
        kinds++;
        /* small scale (sanitizers, make check): the locked and the CAS widths;
         * the kinds other than cuckoo take the same path at every width, so
         * one is enough (they take locks: 8 threads on 2 cores is slow) */
        const bool cuckoo = strcmp(ops->name, "cuckoo") == 0;
        const size_t widths = !cuckoo ? 1 : FK_TEST_SCALE(sizeof fprs / sizeof fprs[0], 2);
        for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++)
            for (size_t q = 0; q < widths; q++)
                stress_run(ops, thread_counts[t], fprs[q], FK_TEST_SCALE(8000, 2000), batch_max);
    }
    CHECK(kinds >= 1); /* cuckoo */
}

TEST(many_writers_and_a_checker_up_to_the_table_limit)
{
    stress_kinds(0);
}

/* The same with batch writers only (cuckoo's pipelined concurrent batch:
 * windows of keys placed ahead, each key's claim at its width). */
TEST(many_batch_writers_and_a_checker_up_to_the_table_limit)
{
    stress_kinds(STRESS_BATCH_MAX);
}

TEST(concurrent_batches_answer_as_the_single_calls)
{
    const uint64_t keys64[4] = { 1, 2, 3, 4 };
    const void *keys[2] = { "a", NULL };
    const size_t lens[2] = { 1, 3 };
    size_t done = 99;
    CHECK_STATUS(fk_filter_insert_many_concurrent(NULL, 1, keys, lens, &done), FK_EINVAL);
    CHECK(done == 0);
    CHECK_STATUS(fk_filter_insert_many_u64_concurrent(NULL, 1, keys64, &done), FK_EINVAL);
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        fk_filter *f = new_filter(ops, 1000, 1);
        if (!f)
            continue;
        bool can = FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent);
        CHECK_STATUS(fk_filter_insert_many_concurrent(f, 1, NULL, lens, &done), FK_EINVAL);
        CHECK_STATUS(fk_filter_insert_many_u64_concurrent(f, 1, NULL, &done), FK_EINVAL);
        /* the good key goes in, the NULL one with length 3 is refused at its index */
        CHECK_STATUS(fk_filter_insert_many_concurrent(f, 2, keys, lens, &done),
                     can ? FK_EINVAL : FK_EUNSUPPORTED);
        CHECK_MSG(done == (can ? 1u : 0u), "%s: done %zu", ops->name, done);
        CHECK_STATUS(fk_filter_insert_many_u64_concurrent(f, 4, keys64, &done),
                     can ? FK_OK : FK_EUNSUPPORTED);
        CHECK(done == (can ? 4u : 0u));
        CHECK_STATUS(fk_filter_insert_many_concurrent(f, 0, NULL, NULL, &done),
                     can ? FK_OK : FK_EUNSUPPORTED);
        if (can) {
            CHECK_MSG(fk_filter_contains(f, "a", 1), "%s: batch key a missing", ops->name);
            for (unsigned k = 0; k < 4; k++)
                CHECK_MSG(fk_filter_contains_u64(f, keys64[k]), "%s: batch key %llu missing",
                          ops->name, (unsigned long long)keys64[k]);
        }
        fk_filter_free(f);
    }
}

/* ------------------------------------------------------------ refusals */

TEST(kinds_without_the_slots_refuse_and_bad_arguments_are_named)
{
    CHECK_STATUS(fk_filter_insert_concurrent(NULL, "a", 1), FK_EINVAL);
    CHECK_STATUS(fk_filter_remove_concurrent(NULL, "a", 1), FK_EINVAL);
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        fk_filter *f = new_filter(ops, 1000, 1);
        if (!f)
            continue;
        CHECK_STATUS(fk_filter_insert_concurrent(f, NULL, 3), FK_EINVAL);
        CHECK_STATUS(fk_filter_remove_concurrent(f, NULL, 3), FK_EINVAL);
        fk_status want = FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent) ? FK_OK : FK_EUNSUPPORTED;
        CHECK_STATUS(fk_filter_insert_concurrent(f, NULL, 0), want);
        CHECK_STATUS(fk_filter_insert_concurrent(f, "x", 1), want);
        if (!FK_OPS_HAS(ops, FK_OPS_V4, remove_concurrent))
            CHECK_STATUS(fk_filter_remove_concurrent(f, "x", 1), FK_EUNSUPPORTED);
        else
            CHECK_STATUS(fk_filter_remove_concurrent(f, "x", 1), FK_OK);
        fk_filter_free(f);
    }
}

int main(void)
{
    RUN(kinds_without_the_slots_refuse_and_bad_arguments_are_named);
    RUN(concurrent_inserts_disjoint_and_overlapping);
    RUN(concurrent_inserts_and_removes_leave_the_survivors);
    RUN(readers_never_miss_beside_one_writer_filling_to_95_percent);
    RUN(concurrent_batches_answer_as_the_single_calls);
    RUN(many_writers_and_a_checker_up_to_the_table_limit);
    RUN(many_batch_writers_and_a_checker_up_to_the_table_limit);
    return check_report();
}
