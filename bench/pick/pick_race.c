/* bench/pick/pick_race.c: the paired race the pick decides on
 * (pick_rule.c). Every candidate's filter is held at once and timed in
 * FKC_PICK_ROUNDS rounds; round r times, for every candidate one after
 * another (the order turned by one each round, so no kind always follows
 * the same one), slice r of its inserts and then slice r of its lookups: a
 * few milliseconds each, so a burst of load on the machine falls on every
 * candidate of the round, and the ratio of two candidates within a round
 * keeps little of it. A round's cost is the read ratio of its lookup slice
 * (the median of its parts of RACE_PART lookups) plus the rest of its
 * insert slice (its total: a doubling inside it counts), in ns per
 * operation, as the pick's cost is.
 *
 * The clock is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), not the
 * wall clock: on a loaded machine a slice may wait for the CPU for several
 * milliseconds, as long as the slice itself, and that wait says nothing
 * about the filter; what another process leaves in the caches it shares
 * still counts, and falls on every candidate of the round alike.
 *
 * A set: the n inserts of the measurement's keys through the kind's insert
 * (a static kind is built whole, untimed; its build time per key from the
 * measurement stands in for each round's inserts), then the 50%-present
 * lookups. Growth mode: the growth workload's keys (fkc_gen_word, as
 * bench/measure/growth.c) from n0 to the end, the kind growing by itself
 * or in place on FK_EFULL, then the absent keys at the end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pick_internal.h"
#include "../clock/progress.h"
#include "../keys/keygen.h"
#include "../measure/loops.h"
#include "../report/stats.h"

/* A lookup slice is at least this many calls (the absent keys are walked
 * round and round): under a millisecond, one descheduling would be the
 * whole slice. */
#define RACE_MIN_SLICE UINT64_C(32768)
/* A lookup slice is timed in parts of at least this many calls (tens of
 * microseconds: the clock read, a few hundred ns, stays out of the
 * figure), at most RACE_PARTS_MAX of them. */
#define RACE_PART UINT64_C(2048)
#define RACE_PARTS_MAX 64u

typedef struct {
    fk_filter *f;
    const fk_ops *ops;
    int in_place;        /* grows by fk_filter_grow on FK_EFULL */
    int failed;          /* an insert failed: its rounds are not timed */
    double fixed_insert; /* a static kind: ns per key of its build */
} race_kind;

/* The thread's CPU time in ns (0 when the clock cannot be read: the
 * slices then time as 0, and the rounds pair nothing). */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* Keys [from, to) of a keyset through `op` (insert); the CPU ns, or
 * UINT64_MAX when an insert failed. */
static uint64_t insert_slice(fkc_update_fn op, fk_filter *f, const fkc_keyset *ks, size_t from, size_t to)
{
    const uint8_t *p = ks->bytes;
    uint64_t bad = 0, t0 = cpu_ns();
    if (!ks->off)
        for (size_t i = from; i < to; i++)
            bad += op(f, p + i * ks->width, ks->width) != FK_OK;
    else
        for (size_t i = from; i < to; i++)
            bad += op(f, p + ks->off[i], (size_t)(ks->off[i + 1] - ks->off[i])) != FK_OK;
    uint64_t ns = cpu_ns() - t0;
    return bad ? UINT64_MAX : ns;
}

/* Keys [from, to) of a keyset through `has`; the CPU ns. */
static uint64_t lookup_slice(fkc_contains_fn has, const fk_filter *f, const fkc_keyset *ks, size_t from, size_t to)
{
    const uint8_t *p = ks->bytes;
    uint64_t hits = 0, t0 = cpu_ns();
    if (!ks->off)
        for (size_t i = from; i < to; i++)
            hits += has(f, p + i * ks->width, ks->width);
    else
        for (size_t i = from; i < to; i++)
            hits += has(f, p + ks->off[i], (size_t)(ks->off[i + 1] - ks->off[i]));
    uint64_t ns = cpu_ns() - t0;
    fkc_sink += hits;
    return ns;
}

/* u64 keys [from, to) inserted, growing in place on FK_EFULL when the kind
 * does; the CPU ns, or UINT64_MAX when an insert failed. */
static uint64_t insert_slice_u64(race_kind *k, const uint64_t *keys, uint64_t from, uint64_t to)
{
    uint64_t t0 = cpu_ns();
    for (uint64_t i = from; i < to; i++) {
        fk_status s = fk_filter_insert_u64(k->f, keys[i]);
        while (s == FK_EFULL && k->in_place && (s = fk_filter_grow(k->f)) == FK_OK)
            s = fk_filter_insert_u64(k->f, keys[i]);
        if (s != FK_OK)
            return UINT64_MAX;
    }
    return cpu_ns() - t0;
}

/* count u64 lookups from keys[at % n] on, wrapping; the CPU ns. */
static uint64_t lookup_slice_u64(const fk_filter *f, const uint64_t *keys, uint64_t n, uint64_t at, uint64_t count)
{
    uint64_t hits = 0, i = at % n, t0 = cpu_ns();
    for (uint64_t c = 0; c < count; c++) {
        hits += fk_filter_contains_u64(f, keys[i]);
        i = i + 1 == n ? 0 : i + 1;
    }
    uint64_t ns = cpu_ns() - t0;
    fkc_sink += hits;
    return ns;
}

/* The rounds: cost[j * rounds + r] for race kind j (NaN when it failed).
 * A set: bk's inserts and 50% mix; growth: ins/absent (u64). Two passes,
 * each paired round by round: the insert slices fill the filters, then the
 * lookup slices run on the full filters (the ones the pick weighs); round
 * r's cost joins insert slice r and lookup slice r. */
static void race_rounds(race_kind *rk, size_t nk, const fkc_bench_keys *bk, const uint64_t *ins, uint64_t nins,
                        const uint64_t *absent, uint64_t nabsent, double read_ratio, double *cost)
{
    const size_t rounds = FKC_PICK_ROUNDS;
    uint64_t n = bk ? bk->n : nins;
    const fkc_keyset *mix = bk ? &bk->mix[2] : NULL;
    uint64_t nlook = bk ? mix->count : nabsent;
    uint64_t slice = nlook / rounds > RACE_MIN_SLICE ? nlook / rounds : RACE_MIN_SLICE;
    for (size_t r = 0; r < rounds; r++) {
        fkc_progress_step("paired round %zu of %zu", r + 1, rounds);
        uint64_t from = n * r / rounds, to = n * (r + 1) / rounds;
        for (size_t t = 0; t < nk; t++) {
            size_t j = (r + t) % nk;
            race_kind *k = &rk[j];
            double *c = &cost[j * rounds + r];
            if (k->failed) {
                *c = NAN;
                continue;
            }
            double ins_ns;
            if (!isnan(k->fixed_insert)) {
                ins_ns = k->fixed_insert;
            } else if (bk) {
                uint64_t ns = insert_slice(k->ops->insert, k->f, &bk->w.pos, (size_t)from, (size_t)to);
                k->failed = ns == UINT64_MAX;
                ins_ns = to > from ? (double)ns / (double)(to - from) : 0;
            } else {
                uint64_t ns = insert_slice_u64(k, ins, from, to);
                k->failed = ns == UINT64_MAX;
                ins_ns = to > from ? (double)ns / (double)(to - from) : 0;
            }
            *c = k->failed ? NAN : ins_ns; /* the round's lookups come in the second pass */
        }
    }
    /* the lookup pass, on the full filters: round r's slice of each */
    for (size_t r = 0; r < rounds; r++) {
        for (size_t t = 0; t < nk; t++) {
            size_t j = (r + t) % nk;
            race_kind *k = &rk[j];
            double *c = &cost[j * rounds + r];
            if (k->failed) {
                *c = NAN;
                continue;
            }
            /* the slice in parts of RACE_PART lookups, the round's figure
             * their median: the part that followed a switch to another
             * process or another candidate (its lines evicted) is one of
             * many, not the whole figure */
            uint64_t from = bk ? nlook * r / rounds : slice * r, to = bk ? nlook * (r + 1) / rounds : slice * (r + 1);
            uint64_t part = (to - from + RACE_PARTS_MAX - 1) / RACE_PARTS_MAX;
            part = part > RACE_PART ? part : RACE_PART;
            double parts[RACE_PARTS_MAX];
            size_t np = 0;
            for (uint64_t at = from; at < to && np < RACE_PARTS_MAX; at += part) {
                uint64_t end = to - at < part ? to : at + part;
                uint64_t ns = bk ? lookup_slice(k->ops->contains, k->f, mix, (size_t)at, (size_t)end)
                                 : lookup_slice_u64(k->f, absent, nabsent, at, end - at);
                parts[np++] = (double)ns / (double)(end - at);
            }
            double look_ns = np ? fkc_median(parts, np) : 0;
            *c = read_ratio * look_ns + (1 - read_ratio) * *c;
        }
    }
}

void fkc_pick_apply_rank(fkc_pick_result *res, const size_t *which, size_t nk, const int *eligible,
                         const double *cost, size_t rounds)
{
    fkc_pick_rank_in in = { nk, rounds, cost, NULL, eligible, NULL };
    uint64_t memory[FKC_KINDS_MAX], reads[FKC_KINDS_MAX];
    for (size_t j = 0; j < nk; j++) {
        memory[j] = res->c[which[j]].memory;
        reads[j] = res->c[which[j]].lookup_reads;
    }
    in.memory = memory;
    in.reads = reads;
    fkc_pick_ranking rk;
    res->rounds = rounds;
    if (fkc_pick_rank(&in, &rk) != 0)
        return;
    for (size_t j = 0; j < nk; j++) {
        fkc_pick_candidate *x = &res->c[which[j]];
        x->raced = 1;
        x->cost = rk.cost[j], x->cost_low = rk.cost_low[j], x->cost_high = rk.cost_high[j];
        x->ratio = rk.ratio[j];
        x->slower_rounds = rk.slower_rounds[j];
        x->paired_rounds = rk.paired_rounds[j];
        x->tied = rk.tied[j];
    }
    res->fastest = rk.fastest >= 0 ? (int)which[rk.fastest] : -1;
    res->best = rk.winner >= 0 ? (int)which[rk.winner] : -1;
    res->ties = rk.ties;
}

/* The kinds of one race: rk[j] is candidate which[j] of the result. */
typedef struct {
    race_kind rk[FKC_KINDS_MAX];
    size_t which[FKC_KINDS_MAX], nk;
    int eligible[FKC_KINDS_MAX];
} race_field;

/* The next kind's entry, zeroed, for ops (not in the race until
 * race_keep: its filter may still fail to be made). */
static race_kind *race_next(race_field *rf, const fk_ops *ops)
{
    race_kind *k = &rf->rk[rf->nk];
    memset(k, 0, sizeof *k);
    k->ops = ops;
    k->fixed_insert = NAN;
    return k;
}

/* The entry race_next gave, with its filter made, runs for candidate i. */
static void race_keep(race_field *rf, size_t i)
{
    rf->eligible[rf->nk] = 1;
    rf->which[rf->nk++] = i;
}

/* The random reads f's lookup makes: its describe row lookup_reads (0:
 * the kind gives none). */
static uint64_t lookup_reads_of(const fk_filter *f)
{
    size_t n = 0;
    if (fk_filter_describe(f, NULL, 0, &n) != FK_ELIMIT || n == 0)
        return 0; /* a chain has six rows a link: as many as it tells */
    fk_describe_row *rows = malloc(n * sizeof *rows);
    uint64_t reads = 0;
    if (rows && fk_filter_describe(f, rows, n, &n) == FK_OK) {
        const fk_describe_row *r = fk_describe_find(rows, n, "lookup_reads");
        reads = r && r->type == FK_DESCRIBE_U64 ? r->value.u64 : 0;
    }
    free(rows);
    return reads;
}

/* Runs the race's rounds (race_rounds: bk's keys, or ins/absent), reads
 * each filter's lookup_reads as the race left it (a chain's links
 * grown), ranks the kinds into res (fkc_pick_apply_rank) and frees their
 * filters. */
static void race_rank_free(fkc_pick_result *res, race_field *rf, const fkc_bench_keys *bk,
                           const uint64_t *ins, uint64_t nins, const uint64_t *absent,
                           uint64_t nabsent)
{
    double *cost = rf->nk && (bk || (ins && absent))
                       ? malloc(rf->nk * FKC_PICK_ROUNDS * sizeof *cost)
                       : NULL;
    if (cost) {
        race_rounds(rf->rk, rf->nk, bk, ins, nins, absent, nabsent, res->q.read_ratio, cost);
        for (size_t j = 0; j < rf->nk; j++)
            res->c[rf->which[j]].lookup_reads = lookup_reads_of(rf->rk[j].f);
        fkc_pick_apply_rank(res, rf->which, rf->nk, rf->eligible, cost, FKC_PICK_ROUNDS);
    }
    free(cost);
    for (size_t j = 0; j < rf->nk; j++)
        fk_filter_free(rf->rk[j].f);
}

void fkc_pick_race_set(fkc_pick_result *res, const fkc_bench_keys *bk)
{
    race_field rf;
    rf.nk = 0;
    for (size_t i = 0; i < res->nc; i++) {
        fkc_pick_candidate *x = &res->c[i];
        if (!x->measured || x->ruled_out[0])
            continue;
        race_kind *k = race_next(&rf, x->ops);
        fk_params p = fk_params_make(bk->n, x->fpr);
        p.seed = bk->w.spec.seed;
        fk_status s;
        if (fk_ops_caps(x->ops) & FK_CAP_STATIC) {
            /* built whole (untimed): the measured build per key stands in
             * for the inserts of every round */
            const fkc_keyset *pos = &bk->w.pos;
            const void **ptrs = malloc((size_t)bk->n * sizeof *ptrs);
            size_t *lens = malloc((size_t)bk->n * sizeof *lens);
            s = ptrs && lens ? FK_OK : FK_ENOMEM;
            for (size_t i2 = 0; s == FK_OK && i2 < (size_t)bk->n; i2++) {
                ptrs[i2] = pos->off ? pos->bytes + pos->off[i2] : pos->bytes + i2 * pos->width;
                lens[i2] = pos->off ? (size_t)(pos->off[i2 + 1] - pos->off[i2]) : pos->width;
            }
            if (s == FK_OK)
                s = fk_filter_build(x->ops, &p, (size_t)bk->n, ptrs, lens, &k->f);
            free(ptrs);
            free(lens);
            k->fixed_insert = x->r.insert.median;
        } else {
            s = fk_filter_new(x->ops, &p, &k->f);
        }
        if (s != FK_OK) {
            fk_filter_free(k->f);
            continue; /* measured, so it builds: only memory could fail here */
        }
        race_keep(&rf, i);
    }
    race_rank_free(res, &rf, bk, NULL, 0, NULL, 0);
}

void fkc_pick_race_growth(fkc_pick_result *res)
{
    race_field rf;
    rf.nk = 0;
    uint64_t n0 = res->run_n0, end = n0 << res->run_doublings;
    uint64_t probes = end < (UINT64_C(1) << 18) ? end : UINT64_C(1) << 18;
    for (size_t i = 0; i < res->nc; i++) {
        fkc_pick_candidate *x = &res->c[i];
        if (!x->grown || x->ruled_out[0])
            continue;
        race_kind *k = race_next(&rf, x->ops);
        k->in_place = !(fk_ops_caps(x->ops) & FK_CAP_GROWS) && (fk_ops_caps(x->ops) & FK_CAP_RESIZES);
        fk_params p = fk_params_make(n0, x->fpr);
        p.seed = res->q.seed;
        if (fk_filter_new(x->ops, &p, &k->f) != FK_OK)
            continue;
        race_keep(&rf, i);
    }
    uint64_t *keys = rf.nk ? malloc(end * sizeof *keys) : NULL;
    uint64_t *absent = rf.nk ? malloc(probes * sizeof *absent) : NULL;
    for (uint64_t j = 0; keys && j < end; j++)
        keys[j] = fkc_gen_word(res->q.seed, j);
    for (uint64_t j = 0; absent && j < probes; j++)
        absent[j] = fkc_gen_word(res->q.seed, end + j);
    race_rank_free(res, &rf, NULL, keys, end, absent, probes);
    free(keys);
    free(absent);
}

/* "1 read, 10.53 bits per item" (the reads "no count" where the kind
 * gives none); returns the length written, at most len - 1. */
static size_t reads_and_bits(char *buf, size_t len, const fkc_pick_candidate *x, double per)
{
    int w = x->lookup_reads
                ? snprintf(buf, len, "%llu read%s, %.2f bits per item", (unsigned long long)x->lookup_reads,
                           x->lookup_reads == 1 ? "" : "s", (double)x->memory / per)
                : snprintf(buf, len, "reads not given, %.2f bits per item", (double)x->memory / per);
    return w < 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
}

void fkc_pick_set_decided(fkc_pick_result *res)
{
    const fkc_pick_candidate *c = res->c, *fast = &res->c[res->fastest], *best = &res->c[res->best];
    char *buf = res->decided;
    size_t len = sizeof res->decided, at = 0, raced = 0;
    double per = (double)(res->grows ? res->end : res->capacity) / 8.0; /* bytes -> bits per item */
    unsigned long long rounds = (unsigned long long)res->rounds;
    for (size_t i = 0; i < res->nc; i++)
        raced += c[i].raced && !c[i].baseline;
    if (raced == 1) {
        snprintf(buf, len, "the only kind that qualifies and was timed (%.1f ns per operation at read ratio %.2f, "
                 "median of %llu rounds)", fast->cost, res->q.read_ratio, rounds);
        return;
    }
    if (!res->ties) {
        const fkc_pick_candidate *near = NULL;
        for (size_t i = 0; i < res->nc; i++)
            if (c[i].raced && &c[i] != fast && !c[i].baseline && (!near || c[i].ratio < near->ratio))
                near = &c[i];
        at = (size_t)snprintf(buf, len, "the fastest at read ratio %.2f: every other kind costs more than %.2fx "
                              "it in the median of %llu paired rounds and was the slower in 7 rounds of 8 or more",
                              res->q.read_ratio, FKC_PICK_MARGIN, rounds);
        if (near && at < len)
            snprintf(buf + at, len - at, " (the closest, %s: %.2fx, the slower in %llu of %llu)", near->ops->name,
                     near->ratio, (unsigned long long)near->slower_rounds,
                     (unsigned long long)near->paired_rounds);
        return;
    }
    at = (size_t)snprintf(buf, len, "too close to separate on time: %s (the fastest)", fast->ops->name);
    for (size_t i = 0; i < res->nc && at < len; i++)
        if (c[i].tied && &c[i] != fast && !c[i].baseline)
            at += (size_t)snprintf(buf + at, len - at, ", %s %.2fx (the slower in %llu of %llu)", c[i].ops->name,
                                   c[i].ratio, (unsigned long long)c[i].slower_rounds,
                                   (unsigned long long)c[i].paired_rounds);
    if (at < len)
        at += (size_t)snprintf(buf + at, len - at, " in the median of %llu paired rounds, within the %.2fx margin "
                               "or not the slower in 7 rounds of 8; of those the fewest random reads per lookup "
                               "wins, then the least memory, then the fixed order: %s, ", rounds, FKC_PICK_MARGIN,
                               best->ops->name);
    if (at < len)
        at += reads_and_bits(buf + at, len - at, best, per);
    if (at < len)
        at += (size_t)snprintf(buf + at, len - at, " (");
    const char *sep = "";
    for (size_t i = 0; i < res->nc && at < len; i++)
        if (c[i].tied && &c[i] != best && !c[i].baseline) {
            at += (size_t)snprintf(buf + at, len - at, "%s%s ", sep, c[i].ops->name);
            if (at < len)
                at += reads_and_bits(buf + at, len - at, &c[i], per);
            sep = ", ";
        }
    if (at < len)
        snprintf(buf + at, len - at, ")");
}
