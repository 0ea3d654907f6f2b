/* bench/measure/measure.c: one parameter set: the keys, and per kind the timed
 * builds, lookups and removes (loops.h), the FPR count and the fill to the
 * first failed insert. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loops.h"
#include "measure.h"
#include "peak_memory.h"
#include "../clock/progress.h"
#include "../clock/timing.h"

/* Lookup answers end up here, so no lookup can be optimized away. */
volatile uint64_t fkc_sink;

/* ------------------------------------------------------------- keys */

uint64_t fkc_default_lookups(uint64_t n)
{
    const uint64_t lo = UINT64_C(1) << 20, hi = UINT64_C(1) << 21;
    return n < lo ? lo : n > hi ? hi : n;
}

int fkc_bench_keys_make(const fkc_keyspec *spec, uint64_t n, double min_fpr, uint64_t lookups,
                       fkc_bench_keys *k, char *err, size_t errlen)
{
    memset(k, 0, sizeof *k);
    if (!lookups)
        lookups = fkc_default_lookups(n);
    uint64_t nneg = fkc_fpr_negatives_for(min_fpr);
    if (nneg < lookups)
        nneg = lookups;
    if (n > SIZE_MAX || nneg > SIZE_MAX || lookups > SIZE_MAX) { /* 32-bit hosts */
        snprintf(err, errlen, "%llu + %llu keys do not fit this machine's address space",
                 (unsigned long long)n, (unsigned long long)nneg);
        return -1;
    }
    if (fkc_workload_make(spec, (size_t)n, (size_t)nneg, &k->w, err, errlen))
        return -1;
    k->n = k->w.pos.count;
    k->lookups = lookups;
    for (int m = 0; m < FKC_MIXES; m++) {
        size_t npos;
        if (fkc_workload_mix(&k->w, k->w.pos.count, fkc_mix_pct[m], (size_t)lookups,
                            spec->seed + (uint64_t)m, &k->mix[m], &npos)) {
            snprintf(err, errlen, "out of memory building the lookup mixes");
            fkc_bench_keys_free(k);
            return -1;
        }
    }
    if (fkc_batch_keys_make(&k->w.pos, &k->batch_pos) ||
        fkc_batch_keys_make(&k->mix[0], &k->batch_mix0) ||
        fkc_batch_keys_make(&k->mix[2], &k->batch_mix50) ||
        fkc_batch_keys_make(&k->mix[FKC_MIXES - 1], &k->batch_mix100)) {
        snprintf(err, errlen, "out of memory building the batched keys");
        fkc_bench_keys_free(k);
        return -1;
    }
    return 0;
}

void fkc_bench_keys_free(fkc_bench_keys *k)
{
    fkc_workload_free(&k->w);
    for (int m = 0; m < FKC_MIXES; m++)
        fkc_keyset_free(&k->mix[m]);
    fkc_batch_keys_free(&k->batch_pos);
    fkc_batch_keys_free(&k->batch_mix0);
    fkc_batch_keys_free(&k->batch_mix50);
    fkc_batch_keys_free(&k->batch_mix100);
}

/* ------------------------------------------------------ one kind, one n */

/* Builds of the filter timed per repeat: enough that even a small n gives
 * about a million timed inserts (at most 64 builds). */
static unsigned insert_rounds(uint64_t n)
{
    uint64_t want = ((UINT64_C(1) << 20) + n - 1) / n;
    return want < 1 ? 1 : want > 64 ? 64 : (unsigned)want;
}

/* Fills a fresh filter of a bounded kind (FK_CAP_BOUNDED) with positive
 * keys (stored, then generated) until the first insert that does not answer
 * FK_OK, for at most 2.2n + 64 keys. */
static void fill_to_full(const fkc_measure_cfg *cfg, const fk_params *p, const fkc_bench_keys *k,
                         fkc_result *r)
{
    fk_filter *f;
    if (fk_filter_new(cfg->ops, p, &f) != FK_OK)
        return;
    fkc_update_fn ins = cfg->ops->insert;
    uint64_t limit = k->n * 22 / 10 + 64;
    uint8_t buf[FKC_STR_MAX];
    for (uint64_t i = 0; i < limit; i++) {
        if ((i & 0xfffff) == 0)
            fkc_progress("%s: filling a spare filter until an insert fails (%llu keys so far)", cfg->ops->name,
                        (unsigned long long)i);
        fk_status s;
        if (i < k->w.pos.count)
            s = ins(f, fkc_key_ptr(&k->w.pos, i), fkc_key_len(&k->w.pos, i));
        else
            s = ins(f, buf, fkc_workload_pos_key(&k->w, (size_t)i, buf));
        if (s != FK_OK) {
            fk_stats st;
            fk_filter_stats(f, &st);
            r->load_at_full = st.load_factor;
            r->items_at_full = st.items;
            r->bits_per_item_at_full = st.items ? 8.0 * (double)st.memory_bytes / (double)st.items : NAN;
            uint64_t ns; /* the FPR of the full filter, untimed, on the same negatives */
            fkc_fpr_count c = { fkc_time_lookups(cfg->ops->contains, f, &k->w.neg, &ns),
                               k->w.neg.count };
            r->fpr_at_full = fkc_fpr_rate(c);
            break;
        }
    }
    fk_filter_free(f);
}

/* Per-kind timings of every repeat, summarized at the end. */
typedef struct {
    double   *ins, *rem, *look; /* reps, reps, FKC_MIXES * reps */
    double   *ins_batch, *look_batch; /* reps, 2 * reps (mix 0, then mix 100) */
    double   *ins_u64, *look_u64;     /* reps, 3 * reps (mix 0, 50, 100); u64 keys only */
    fk_status status;           /* of the first create; not FK_OK = skipped */
} samples;

/* A static kind's builds (FK_CAP_STATIC: no insert), timed in place of the
 * inserts: `rounds` builds from the byte keys (the insert column; the
 * pointer and length arrays are made before the clock starts), then as
 * many from the batch keys, the integer form for 8-byte keys (the batched
 * insert column); each built filter is freed before the next but the
 * last, kept in *out. The first build of the first repeat also measures
 * its peak memory. */
static fk_status time_builds(const fk_ops *ops, const fk_params *p, const fkc_bench_keys *k,
                             unsigned rounds, bool first, double *ins_ns, double *batch_ns,
                             fkc_result *r, fk_filter **out)
{
    const size_t n = (size_t)k->n;
    const void **ptrs = malloc((n ? n : 1) * sizeof *ptrs);
    size_t *lens = malloc((n ? n : 1) * sizeof *lens);
    fk_status status = ptrs && lens ? FK_OK : FK_ENOMEM;
    for (size_t i = 0; status == FK_OK && i < n; i++) {
        ptrs[i] = fkc_key_ptr(&k->w.pos, i);
        lens[i] = fkc_key_len(&k->w.pos, i);
    }
    uint64_t total = 0, batch_total = 0;
    *out = NULL;
    for (unsigned round = 0; status == FK_OK && round < rounds; round++) {
        fk_filter *f = NULL;
        uint64_t base = first && round == 0 ? fkc_peak_reset() : 0;
        uint64_t t0 = fkc_now_ns();
        status = fk_filter_build(ops, p, n, ptrs, lens, &f);
        total += fkc_now_ns() - t0;
        if (base && status == FK_OK) {
            fk_stats st;
            fk_filter_stats(f, &st);
            uint64_t peak = fkc_peak_bytes();
            r->build_peak_bytes = peak > base ? peak - base : 0;
            r->build_temp_per_key = r->build_peak_bytes > st.memory_bytes && n
                ? (double)(r->build_peak_bytes - st.memory_bytes) / (double)n : 0.0;
        }
        fk_filter_free(f);
    }
    free(ptrs);
    free(lens);
    const fkc_batch_keys *bk = &k->batch_pos;
    for (unsigned round = 0; status == FK_OK && round < rounds; round++) {
        fk_filter_free(*out);
        *out = NULL;
        uint64_t t0 = fkc_now_ns();
        status = bk->ints ? fk_filter_build_u64(ops, p, n, bk->ints, out)
                          : fk_filter_build(ops, p, n, bk->ptrs, bk->lens, out);
        batch_total += fkc_now_ns() - t0;
    }
    if (status != FK_OK) {
        fk_filter_free(*out);
        *out = NULL;
        return status;
    }
    *ins_ns = (double)total / ((double)rounds * (double)(n ? n : 1));
    *batch_ns = (double)batch_total / ((double)rounds * (double)(n ? n : 1));
    return FK_OK;
}

/* The 0%, 50% and 100% mixes through fk_filter_contains_u64 on f. */
static void time_lookups_u64(const fk_filter *f, const fkc_bench_keys *k, unsigned rep,
                             unsigned reps, samples *sm)
{
    const fkc_batch_keys *mixes[3] = { &k->batch_mix0, &k->batch_mix50, &k->batch_mix100 };
    for (int m = 0; m < 3; m++) {
        uint64_t ns;
        fkc_time_lookups_u64(f, mixes[m]->ints, mixes[m]->count, &ns);
        sm->look_u64[(size_t)m * reps + rep] = fkc_ns_per_op(0, ns, mixes[m]->count);
    }
}

/* The integer calls (u64 keys) of a kind that inserts: the same inserts
 * into `rounds` fresh filters, then the 0%, 50% and 100% mixes on the last,
 * which its inserts have just warmed, as the byte-key mixes are warmed by
 * theirs. Runs once the byte-key filter is freed, so one filter is held at
 * a time. */
static fk_status time_u64_calls(const fk_ops *ops, const fk_params *p, const fkc_bench_keys *k,
                                unsigned rounds, unsigned rep, unsigned reps, samples *sm)
{
    if (!k->batch_pos.ints)
        return FK_OK;
    const size_t n = (size_t)k->n;
    fk_filter *g = NULL;
    uint64_t total = 0, ns;
    for (unsigned round = 0; round < rounds; round++) {
        fk_filter_free(g);
        g = NULL;
        fk_status status = fk_filter_new(ops, p, &g);
        if (status != FK_OK)
            return status;
        fkc_time_updates_u64(g, k->batch_pos.ints, n, &ns);
        total += ns;
    }
    sm->ins_u64[rep] = (double)total / ((double)rounds * (double)n);
    time_lookups_u64(g, k, rep, reps, sm);
    fk_filter_free(g);
    return FK_OK;
}

/* One repeat of one kind: build (timed inserts), an untimed warming pass,
 * the five lookup mixes, and on the first repeat the untimed FPR count and
 * the stats; then removes; then the u64 calls. The byte-key mixes follow
 * their filter's inserts directly: with the u64 calls' filter built in
 * between, the first mix timed (0%) paid for bringing the evicted table
 * back into cache, which the others did not (blocked at 10^6: 5.5 ns
 * against 4.3 for every other mix, its lookup being the same for every
 * mix). */
static fk_status one_repeat(const fkc_measure_cfg *cfg, const fkc_bench_keys *k, unsigned rep,
                            unsigned reps, samples *sm, fkc_result *r)
{
    const fk_ops *ops = cfg->ops;
    fk_params p = fk_params_make(k->n, cfg->fpr);
    p.seed = k->w.spec.seed;
    if (cfg->growth > 1 && (fk_ops_caps(ops) & FK_CAP_GROWS))
        p.capacity = k->n / cfg->growth ? k->n / cfg->growth : 1;
    const size_t n = (size_t)k->n;
    const unsigned rounds = insert_rounds(k->n);
    fkc_update_fn ins = ops->insert, rem = ops->remove;
    fkc_contains_fn has = ops->contains;

    fk_filter *f = NULL;
    uint64_t total = 0, ns, bad = 0;
    if (fk_ops_caps(ops) & FK_CAP_STATIC) {
        r->static_kind = 1;
        fk_status status = time_builds(ops, &p, k, rounds, rep == 0, &sm->ins[rep],
                                       &sm->ins_batch[rep], r, &f);
        if (status != FK_OK)
            return status;
        if (k->batch_pos.ints)
            sm->ins_u64[rep] = NAN; /* no insert_u64; its u64 lookups come after the byte keys' */
        goto built;
    }

    /* batched inserts first, each round into a fresh filter it frees, so
     * that only one filter is held at a time */
    for (unsigned round = 0; round < rounds; round++) {
        fk_status status = fk_filter_new(ops, &p, &f);
        if (status != FK_OK)
            return status;
        fkc_time_insert_batches(f, &k->batch_pos, &ns);
        total += ns;
        fk_filter_free(f);
        f = NULL;
    }
    sm->ins_batch[rep] = (double)total / ((double)rounds * (double)n);

    /* inserts: `rounds` fresh filters, keeping the last; the first one of
     * the first repeat also measures the peak memory of a build */
    total = 0;
    for (unsigned round = 0; round < rounds; round++) {
        fk_filter_free(f);
        uint64_t base = rep == 0 && round == 0 ? fkc_peak_reset() : 0;
        fk_status status = fk_filter_new(ops, &p, &f);
        if (status != FK_OK)
            return status;
        bad = fkc_time_updates(ins, f, &k->w.pos, 0, n, &ns);
        total += ns;
        if (base) {
            fk_stats st;
            fk_filter_stats(f, &st);
            uint64_t peak = fkc_peak_bytes();
            r->build_peak_bytes = peak > base ? peak - base : 0;
            r->build_temp_per_key = r->build_peak_bytes > st.memory_bytes && n
                ? (double)(r->build_peak_bytes - st.memory_bytes) / (double)n : 0.0;
        }
    }
    sm->ins[rep] = (double)total / ((double)rounds * (double)n);

built:
    if (rep == 0) {
        fk_stats st;
        fk_filter_stats(f, &st);
        r->insert_failures = bad;
        r->memory_bytes = st.memory_bytes;
        r->bits_per_item = 8.0 * (double)st.memory_bytes / (double)k->n;
        r->load = st.load_factor;
        r->fpr_theory = st.expected_fpr;
    }

    /* one untimed pass (the last mix's keys) first: a static kind's build
     * leaves its workspace in cache, not its table, and without this pass
     * the first mix timed paid for the table's cold lines alone (fuse at
     * 10^6, 1%: 8.8 ns against 7.4-7.6 for every other mix). A kind that
     * inserts has its table warm already; the pass runs for it too, so
     * that every kind's mixes follow the same steps. */
    fkc_time_lookups(has, f, &k->mix[FKC_MIXES - 1], &ns);
    for (int m = 0; m < FKC_MIXES; m++) {
        uint64_t hits = fkc_time_lookups(has, f, &k->mix[m], &ns);
        sm->look[(size_t)m * reps + rep] = fkc_ns_per_op(0, ns, k->mix[m].count);
        if (rep == 0 && fkc_mix_pct[m] == 100)
            r->false_negatives = k->mix[m].count - hits;
    }

    fkc_time_lookup_batches(f, &k->batch_mix0, &ns);
    sm->look_batch[rep] = fkc_ns_per_op(0, ns, k->batch_mix0.count);
    fkc_time_lookup_batches(f, &k->batch_mix100, &ns);
    sm->look_batch[reps + rep] = fkc_ns_per_op(0, ns, k->batch_mix100.count);

    if (rep == 0) { /* the FPR, untimed, over every negative */
        fkc_fpr_count c = { fkc_time_lookups(has, f, &k->w.neg, &ns), k->w.neg.count };
        r->false_positives = c.false_positives;
        r->fpr_negatives = c.negatives;
        r->fpr_measured = fkc_fpr_rate(c);
        fkc_fpr_interval(c, &r->fpr_low, &r->fpr_high);
    }
    if (r->static_kind && k->batch_pos.ints)
        time_lookups_u64(f, k, rep, reps, sm);

    sm->rem[rep] = NAN;
    if (rem && (fk_ops_caps(ops) & FK_CAP_REMOVE)) {
        total = 0;
        for (unsigned round = 0; round < rounds; round++) {
            if (round)
                fkc_time_updates(ins, f, &k->w.pos, 0, n, &ns); /* refill, untimed */
            bad = fkc_time_updates(rem, f, &k->w.pos, 0, n, &ns);
            total += ns;
        }
        sm->rem[rep] = (double)total / ((double)rounds * (double)n);
        if (rep == 0)
            r->remove_failures = bad;
    }
    fk_filter_free(f);
    return r->static_kind ? FK_OK : time_u64_calls(ops, &p, k, rounds, rep, reps, sm);
}

void fkc_measure_kinds(const fkc_measure_cfg *cfgs, size_t nk, const fkc_bench_keys *k,
                      fkc_result *rows, fk_status *status)
{
    unsigned reps = 1;
    for (size_t i = 0; i < nk; i++)
        if (cfgs[i].repeat > reps)
            reps = cfgs[i].repeat;
    samples *sm = calloc(nk ? nk : 1, sizeof *sm);
    for (size_t i = 0; i < nk; i++) {
        fkc_result *r = &rows[i];
        fkc_result_init(r);
        r->kind = cfgs[i].ops->name;
        r->keys = fkc_key_type_name(k->w.spec.type);
        r->n = k->n;
        r->target_fpr = cfgs[i].fpr;
        r->seed = k->w.spec.seed;
        r->repeat = reps;
        r->lookups = k->lookups;
        r->growth = cfgs[i].growth > 1 && (fk_ops_caps(cfgs[i].ops) & FK_CAP_GROWS) ? cfgs[i].growth : 1;
        status[i] = FK_ENOMEM;
        if (sm) { /* reps is at most FKC_REPEAT_MAX, but sized in size_t all the same */
            size_t per = (size_t)reps;
            sm[i].ins = calloc(per, sizeof *sm[i].ins);
            sm[i].rem = calloc(per, sizeof *sm[i].rem);
            sm[i].look = per <= SIZE_MAX / FKC_MIXES ? calloc((size_t)FKC_MIXES * per, sizeof *sm[i].look) : NULL;
            sm[i].ins_batch = calloc(per, sizeof *sm[i].ins_batch);
            sm[i].look_batch = calloc(2 * per, sizeof *sm[i].look_batch);
            sm[i].ins_u64 = calloc(per, sizeof *sm[i].ins_u64);
            sm[i].look_u64 = calloc(3 * per, sizeof *sm[i].look_u64);
            if (sm[i].ins && sm[i].rem && sm[i].look && sm[i].ins_batch && sm[i].look_batch &&
                sm[i].ins_u64 && sm[i].look_u64)
                status[i] = FK_OK;
        }
    }
    /* Repeat r of every kind runs before repeat r + 1 of any, so a burst of
     * load on the machine hits all kinds alike instead of one of them. */
    for (unsigned rep = 0; rep < reps; rep++)
        for (size_t i = 0; i < nk; i++) {
            if (status[i] != FK_OK)
                continue;
            fkc_progress_step("%s n=%llu fpr=%g: run %u of %u", cfgs[i].ops->name, (unsigned long long)k->n,
                        cfgs[i].fpr, rep + 1, reps);
            status[i] = one_repeat(&cfgs[i], k, rep, reps, &sm[i], &rows[i]);
        }
    for (size_t i = 0; i < nk; i++) {
        if (status[i] == FK_OK) {
            rows[i].insert = fkc_summarize(sm[i].ins, reps);
            rows[i].remove = fkc_summarize(sm[i].rem, reps);
            for (int m = 0; m < FKC_MIXES; m++)
                rows[i].lookup[m] = fkc_summarize(sm[i].look + (size_t)m * reps, reps);
            rows[i].insert_batch = fkc_summarize(sm[i].ins_batch, reps);
            rows[i].lookup0_batch = fkc_summarize(sm[i].look_batch, reps);
            rows[i].lookup100_batch = fkc_summarize(sm[i].look_batch + reps, reps);
            if (k->batch_pos.ints) {
                rows[i].insert_u64 = fkc_summarize(sm[i].ins_u64, reps);
                rows[i].lookup0_u64 = fkc_summarize(sm[i].look_u64, reps);
                rows[i].lookup50_u64 = fkc_summarize(sm[i].look_u64 + reps, reps);
                rows[i].lookup100_u64 = fkc_summarize(sm[i].look_u64 + 2 * (size_t)reps, reps);
            }
            /* only a kind with a hard capacity has a first failed insert */
            if (cfgs[i].fill && (fk_ops_caps(cfgs[i].ops) & FK_CAP_BOUNDED)) {
                fk_params p = fk_params_make(k->n, cfgs[i].fpr);
                p.seed = k->w.spec.seed;
                fill_to_full(&cfgs[i], &p, k, &rows[i]);
            }
            if (cfgs[i].threads)
                fkc_measure_threads(&cfgs[i], k, &rows[i]);
        }
        if (sm) {
            free(sm[i].ins);
            free(sm[i].rem);
            free(sm[i].look);
            free(sm[i].ins_batch);
            free(sm[i].look_batch);
            free(sm[i].ins_u64);
            free(sm[i].look_u64);
        }
    }
    free(sm);
}

fk_status fkc_measure(const fkc_measure_cfg *cfg, const fkc_bench_keys *k, fkc_result *r)
{
    fk_status s;
    fkc_measure_kinds(cfg, 1, k, r, &s);
    return s;
}
