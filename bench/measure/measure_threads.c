/* bench/measure/measure_threads.c: `bench --threads T`: the aggregate rate
 * of T threads inserting into one filter at once (fk_filter_insert_concurrent,
 * each thread a contiguous share of the n keys), looking up in it
 * (fk_filter_contains on the 50% mix, each thread a share), and mixed (a
 * filter holding half the keys; of every 10 operations 9 lookups of the
 * 50% mix through fk_filter_contains_concurrent, as lookups beside
 * concurrent inserts must be, and one concurrent insert of a key of the
 * other half), beside
 * one thread doing the same through the same calls, in the same run.
 * Wall-clock time from the moment the threads are released to the end of
 * the last one.
 *
 * The ceiling, in the same run: T private jobs (job t inserts the t-th
 * share of the keys into a filter of its own sized for that share, then
 * looks up the t-th share of the mix in it), run one after another by one
 * thread and then all at once by T threads. Nothing is shared, so their
 * ratio is what the machine gives T threads at the time (cores, memory
 * bandwidth, clock, the other load): a filter's scaling against it is the
 * part its own sharing costs. */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "measure.h"
#include "../clock/progress.h"
#include "../clock/timing.h"
#include "../report/stats.h"

typedef struct {
    fk_filter        *f;
    const fkc_keyset *keys;
    size_t            first, end;
    int               lookup;  /* 0: insert_concurrent, 1: contains, 2: mixed */
    const fkc_keyset *adds;    /* mixed: the keys inserted, from adds_from on */
    size_t            adds_from;
    atomic_int       *go;
    uint64_t          result;  /* failed inserts, or hits */
} share;

static void *run_share(void *arg)
{
    share *s = arg;
    while (!atomic_load_explicit(s->go, memory_order_acquire))
        sched_yield();
    uint64_t r = 0;
    if (s->lookup == 2) { /* result: failed inserts */
        for (size_t i = s->first; i < s->end; i++) {
            size_t a = s->adds_from + i / 10;
            if (i % 10 == 9 && a < s->adds->count)
                r += fk_filter_insert_concurrent(s->f, fkc_key_ptr(s->adds, a),
                                                 fkc_key_len(s->adds, a)) != FK_OK;
            else /* beside concurrent inserts: the kind's concurrent lookup */
                fk_filter_contains_concurrent(s->f, fkc_key_ptr(s->keys, i),
                                              fkc_key_len(s->keys, i));
        }
    } else if (s->lookup) {
        for (size_t i = s->first; i < s->end; i++)
            r += fk_filter_contains(s->f, fkc_key_ptr(s->keys, i), fkc_key_len(s->keys, i));
    } else {
        for (size_t i = s->first; i < s->end; i++)
            r += fk_filter_insert_concurrent(s->f, fkc_key_ptr(s->keys, i),
                                             fkc_key_len(s->keys, i)) != FK_OK;
    }
    s->result = r;
    return NULL;
}

/* Runs sh[0..n): together (the calling thread takes the first, and any
 * whose thread could not start) or one after another on the calling
 * thread; returns the wall nanoseconds. */
static uint64_t run_shares(share *sh, unsigned n, bool together)
{
    pthread_t id[FKC_THREADS_MAX];
    int started[FKC_THREADS_MAX] = { 0 };
    atomic_int go = 0;
    for (unsigned t = 0; t < n; t++) {
        sh[t].go = &go;
        if (t > 0 && together)
            started[t] = pthread_create(&id[t], NULL, run_share, &sh[t]) == 0;
    }
    uint64_t t0 = fkc_now_ns();
    atomic_store_explicit(&go, 1, memory_order_release);
    run_share(&sh[0]);
    for (unsigned t = 1; t < n; t++) {
        if (started[t])
            pthread_join(id[t], NULL);
        else
            run_share(&sh[t]);
    }
    return fkc_now_ns() - t0;
}

/* Share t of `threads`: keys [count t / threads, count (t+1) / threads). */
static share share_of(fk_filter *f, const fkc_keyset *keys, int lookup, unsigned t,
                      unsigned threads)
{
    return (share){ f, keys, keys->count * t / threads, keys->count * (t + 1) / threads,
                    lookup, NULL, 0, NULL, 0 };
}

/* Runs the keys in `threads` shares at once and returns the wall
 * nanoseconds; *result = the shares' results summed. */
static uint64_t timed_mixed(fk_filter *f, const fkc_keyset *keys, int lookup,
                            const fkc_keyset *adds, size_t adds_from, unsigned threads,
                            uint64_t *result)
{
    share sh[FKC_THREADS_MAX];
    for (unsigned t = 0; t < threads; t++) {
        sh[t] = share_of(f, keys, lookup, t, threads);
        sh[t].adds = adds;
        sh[t].adds_from = adds_from;
    }
    uint64_t ns = run_shares(sh, threads, true);
    *result = 0;
    for (unsigned t = 0; t < threads; t++)
        *result += sh[t].result;
    return ns;
}

static uint64_t timed(fk_filter *f, const fkc_keyset *keys, int lookup, unsigned threads,
                      uint64_t *result)
{
    return timed_mixed(f, keys, lookup, NULL, 0, threads, result);
}

/* Million operations per second of `ops` operations in `ns`. */
static double mops(uint64_t ops, uint64_t ns) { return ns ? (double)ops * 1e3 / (double)ns : NAN; }

/* A static kind's filter of keys [first, end) of ks (fk_filter_build). */
static fk_status build_static(const fk_ops *ops, const fk_params *p, const fkc_keyset *ks,
                              size_t first, size_t end, fk_filter **out)
{
    size_t n = end - first;
    const void **ptrs = malloc((n ? n : 1) * sizeof *ptrs);
    size_t *lens = malloc((n ? n : 1) * sizeof *lens);
    fk_status s = ptrs && lens ? FK_OK : FK_ENOMEM;
    for (size_t i = 0; s == FK_OK && i < n; i++) {
        ptrs[i] = fkc_key_ptr(ks, first + i);
        lens[i] = fkc_key_len(ks, first + i);
    }
    if (s == FK_OK)
        s = fk_filter_build(ops, p, n, ptrs, lens, out);
    free(ptrs);
    free(lens);
    return s;
}

/* One rep of the ceiling (see the top of this file): *ins and *look get
 * the rate of `threads` private jobs run at once over the rate of the same
 * jobs run one after another (NAN where the kind cannot: no concurrent
 * insert, or a private filter that could not be made or filled). */
static void ceiling(const fkc_measure_cfg *cfg, const fkc_bench_keys *k, unsigned threads,
                    int can_insert, double *ins, double *look)
{
    const bool is_static = fk_ops_caps(cfg->ops) & FK_CAP_STATIC;
    const fkc_keyset *mix = &k->mix[2];
    uint64_t ns[2][2] = { { 0, 0 }, { 0, 0 } }; /* [together][insert, lookup] */
    bool ok = true;
    for (int together = 0; together < 2 && ok; together++) {
        fk_filter *fs[FKC_THREADS_MAX] = { NULL };
        share sh[FKC_THREADS_MAX];
        for (unsigned t = 0; t < threads && ok; t++) {
            sh[t] = share_of(NULL, &k->w.pos, 0, t, threads);
            fk_params p = fk_params_make(sh[t].end - sh[t].first, cfg->fpr);
            p.seed = k->w.spec.seed;
            ok = (is_static ? build_static(cfg->ops, &p, &k->w.pos, sh[t].first, sh[t].end, &fs[t])
                            : fk_filter_new(cfg->ops, &p, &fs[t])) == FK_OK;
            sh[t].f = fs[t];
        }
        if (ok && !is_static && can_insert) {
            ns[together][0] = run_shares(sh, threads, together);
            for (unsigned t = 0; t < threads; t++)
                ok = ok && sh[t].result == 0;
        } else if (ok && !is_static) {
            for (unsigned t = 0; t < threads && ok; t++) /* untimed: lookups need the keys */
                for (size_t i = sh[t].first; i < sh[t].end && ok; i++)
                    ok = fk_filter_insert(fs[t], fkc_key_ptr(&k->w.pos, i),
                                          fkc_key_len(&k->w.pos, i)) == FK_OK;
        }
        for (unsigned t = 0; t < threads && ok; t++)
            sh[t] = share_of(fs[t], mix, 1, t, threads);
        if (ok)
            ns[together][1] = run_shares(sh, threads, together);
        for (unsigned t = 0; t < threads; t++)
            fk_filter_free(fs[t]);
    }
    *ins = ok && ns[1][0] ? (double)ns[0][0] / (double)ns[1][0] : NAN;
    *look = ok && ns[1][1] ? (double)ns[0][1] / (double)ns[1][1] : NAN;
}

void fkc_measure_threads(const fkc_measure_cfg *cfg, const fkc_bench_keys *k, fkc_result *r)
{
    unsigned threads = cfg->threads < FKC_THREADS_MAX ? cfg->threads : FKC_THREADS_MAX;
    r->threads = threads;
    const unsigned counts[2] = { 1, threads };
    double ins[2][FKC_THREAD_REPEATS_MAX], look[2][FKC_THREAD_REPEATS_MAX];
    double mixed[2][FKC_THREAD_REPEATS_MAX];
    double ceil_ins[FKC_THREAD_REPEATS_MAX], ceil_look[FKC_THREAD_REPEATS_MAX];
    unsigned reps = cfg->repeat < FKC_THREAD_REPEATS_MAX ? cfg->repeat : FKC_THREAD_REPEATS_MAX;
    if (!reps)
        reps = 1;
    fk_params p = fk_params_make(k->n, cfg->fpr);
    p.seed = k->w.spec.seed;
    int can_insert = FK_OPS_HAS(cfg->ops, FK_OPS_V4, insert_concurrent);
    for (unsigned rep = 0; rep < reps; rep++) {
        fkc_progress("%s n=%llu: ceiling, %u private jobs, run %u of %u", cfg->ops->name,
                     (unsigned long long)k->n, threads, rep + 1, reps);
        ceiling(cfg, k, threads, can_insert, &ceil_ins[rep], &ceil_look[rep]);
        for (int c = 0; c < 2; c++) {
            fkc_progress("%s n=%llu: %u thread(s), run %u of %u", cfg->ops->name,
                         (unsigned long long)k->n, counts[c], rep + 1, reps);
            fk_filter *f = NULL;
            ins[c][rep] = look[c][rep] = mixed[c][rep] = NAN;
            if (fk_ops_caps(cfg->ops) & FK_CAP_STATIC) {
                /* built from the keys (untimed): only its lookups scale */
                if (build_static(cfg->ops, &p, &k->w.pos, 0, k->w.pos.count, &f) != FK_OK)
                    continue;
            } else if (fk_filter_new(cfg->ops, &p, &f) != FK_OK) {
                continue;
            }
            uint64_t res;
            if (fk_ops_caps(cfg->ops) & FK_CAP_STATIC) {
                /* nothing to insert */
            } else if (can_insert) {
                ins[c][rep] = mops(k->w.pos.count, timed(f, &k->w.pos, 0, counts[c], &res));
                if (res)
                    ins[c][rep] = NAN; /* a failed insert: no rate */
            } else {
                for (size_t i = 0; i < k->w.pos.count; i++) /* untimed: lookups need the keys */
                    fk_filter_insert(f, fkc_key_ptr(&k->w.pos, i), fkc_key_len(&k->w.pos, i));
            }
            const fkc_keyset *mix = &k->mix[2]; /* 50% inserted keys */
            look[c][rep] = mops(mix->count, timed(f, mix, 1, counts[c], &res));
            fk_filter_free(f);
            /* mixed: half the keys in (untimed), then 90% lookups, 10% inserts of the rest */
            if (!can_insert || (fk_ops_caps(cfg->ops) & FK_CAP_STATIC) ||
                fk_filter_new(cfg->ops, &p, &f) != FK_OK)
                continue;
            size_t half = k->w.pos.count / 2;
            fk_status s = FK_OK;
            for (size_t i = 0; i < half && s == FK_OK; i++)
                s = fk_filter_insert(f, fkc_key_ptr(&k->w.pos, i), fkc_key_len(&k->w.pos, i));
            if (s == FK_OK) {
                mixed[c][rep] =
                    mops(mix->count, timed_mixed(f, mix, 2, &k->w.pos, half, counts[c], &res));
                if (res)
                    mixed[c][rep] = NAN;
            }
            fk_filter_free(f);
        }
    }
    r->ceiling_cinsert = fkc_median(ceil_ins, reps);
    r->ceiling_lookup = fkc_median(ceil_look, reps);
    if (!can_insert || (fk_ops_caps(cfg->ops) & FK_CAP_STATIC))
        r->ceiling_cinsert = NAN;
    r->cinsert_1t_mops = fkc_median(ins[0], reps);
    r->cinsert_mops = fkc_median(ins[1], reps);
    r->lookup_1t_mops = fkc_median(look[0], reps);
    r->lookup_mops = fkc_median(look[1], reps);
    r->mixed_1t_mops = fkc_median(mixed[0], reps);
    r->mixed_mops = fkc_median(mixed[1], reps);
    r->cinsert_vs_insert = 1e3 / r->cinsert_1t_mops / r->insert.median;
}
