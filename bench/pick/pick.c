/* bench/pick/pick.c: the pick component (pick.h): check the query, size
 * every built-in kind, rule out what the formulas and capabilities rule out,
 * time the rest briefly, decide, and write the lines that build the winner.
 * A set here; a sliding window in pick_window.c; the result as data in
 * pick_doc.c. Prints nothing. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pick_internal.h"
#include "../clock/progress.h"
#include "../measure/growth.h"
#include "../measure/measure.h"
#include "../measure/memory_model.h"
#include "../report/runinfo.h"
#include "../report/units.h"
#include "../../registry/registry.h"

/* Timings are measured at no more than this many items (memory is
 * extrapolated exactly), so a pick takes seconds, not minutes. */
#define PICK_MAX_MEASURED UINT64_C(2000000)
/* The rates the "best fpr in the budget" search tries between. */
#define PICK_FPR_FLOOR 1e-15
#define PICK_FPR_CEIL 0.5
/* The growth run starts at no fewer keys than this (at 1024x it ends at
 * 1M keys, under PICK_MAX_MEASURED). */
#define PICK_GROWTH_MIN_N0 UINT64_C(1000)

void fkc_pick_query_init(fkc_pick_query *q)
{
    memset(q, 0, sizeof *q);
    q->headroom = -1;
    q->read_ratio = 0.9;
    q->seed = 1;
    q->repeat = 3;
    q->keys = (fkc_keyspec){ FKC_KEYS_U64, NULL, 1, 0 };
}

fkc_pick_status fkc_pick_refuse(fkc_pick_result *res, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->message, sizeof res->message, fmt, ap);
    va_end(ap);
    return res->status = FKC_PICK_EINVAL;
}

double fkc_pick_theory_at(const fk_ops *ops, uint64_t capacity, double fpr)
{
    return fkc_model_fpr(ops, capacity, fpr, NAN);
}

/* The lowest theoretical fpr the kind reaches at `capacity` within
 * `budget` bytes: a bisection on the asked rate (log scale), memory being
 * a non-increasing step function of it. NaN when even PICK_FPR_CEIL does
 * not fit or the kind cannot size itself. */
static double best_fpr_within(const fk_ops *ops, uint64_t capacity, uint64_t budget)
{
    uint64_t m = fkc_model_bytes(ops, capacity, PICK_FPR_CEIL, NULL, 0);
    if (!m || m == FKC_MODEL_TOO_BIG || m > budget)
        return NAN;
    double lo = log(PICK_FPR_FLOOR), hi = log(PICK_FPR_CEIL); /* hi fits */
    m = fkc_model_bytes(ops, capacity, PICK_FPR_FLOOR, NULL, 0);
    if (m && m != FKC_MODEL_TOO_BIG && m <= budget) {
        hi = lo;
    } else {
        for (int i = 0; i < 60; i++) {
            double mid = (lo + hi) / 2;
            m = fkc_model_bytes(ops, capacity, exp(mid), NULL, 0);
            if (m && m != FKC_MODEL_TOO_BIG && m <= budget)
                hi = mid;
            else
                lo = mid;
        }
    }
    double t = fkc_pick_theory_at(ops, capacity, exp(hi));
    return t < 1.0 ? t : NAN;
}

int fkc_pick_judge(uint64_t memory, double theory, double fpr, uint64_t budget, char *why, size_t len)
{
    char need[32], have[32];
    fkc_human_bytes(memory, need, sizeof need);
    fkc_human_bytes(budget, have, sizeof have);
    if (memory > FK_MEMORY_CAP)
        snprintf(why, len, "needs %s, over filterkit's 64 GiB cap (its constructor refuses it)", need);
    else if (!(theory <= fpr * PICK_THEORY_SLACK))
        snprintf(why, len, "its theoretical fpr at capacity is %.3g, above the %.3g asked", theory, fpr);
    else if (budget && memory > budget)
        snprintf(why, len, "needs %s, over the %s budget", need, have);
    return why[0] != 0;
}

/* Rules c out when its memory or theory at capacity do not fit; returns
 * whether it did (c->ruled_out then says why). */
static int judge(fkc_pick_candidate *c, double fpr, uint64_t budget)
{
    return fkc_pick_judge(c->memory, c->theory, fpr, budget, c->ruled_out, sizeof c->ruled_out);
}

/* A kind's reads per lookup in words: "7", or "uncounted" where the kind
 * gives none. */
static void reads_word(char out[24], uint64_t reads)
{
    if (reads)
        snprintf(out, 24, "%llu", (unsigned long long)reads);
    else
        snprintf(out, 24, "uncounted");
}

/* Why `o` lost to `best`, when both are feasible: the formulas, a tie
 * (the reads, the memory, then the order, decided), or slower beyond the margin
 * (against the fastest, which is the best unless a tie went elsewhere). */
void fkc_pick_why_lost(const fkc_pick_result *res, const fkc_pick_candidate *o, char *buf, size_t len)
{
    const fkc_pick_candidate *best = &res->c[res->best];
    const fkc_pick_candidate *fast = res->fastest >= 0 ? &res->c[res->fastest] : best;
    double mr = (double)o->memory / (double)best->memory;
    unsigned long long n = (unsigned long long)o->paired_rounds, sl = (unsigned long long)o->slower_rounds;
    /* between tied kinds: the reads per lookup, else the memory, else the order */
    char tie_words[200], o_reads[24], best_reads[24];
    reads_word(o_reads, o->lookup_reads);
    reads_word(best_reads, best->lookup_reads);
    if (o->lookup_reads != best->lookup_reads)
        snprintf(tie_words, sizeof tie_words, "its lookup makes %s random reads (%s %s)", o_reads,
                 best->ops->name, best_reads);
    else
        snprintf(tie_words, sizeof tie_words, "%s random reads per lookup, as %s, and %.2fx its memory%s",
                 o_reads, best->ops->name, mr, o->memory == best->memory ? " (equal: the order decided)" : "");
    if (!best->raced || !o->raced)
        snprintf(buf, len, "%.2fx the memory of %s at this fpr (ranked by the formulas alone)", mr,
                 best->ops->name);
    else if (o->baseline) /* ranked beside the kinds filterkit builds, never chosen: its time in words */
        snprintf(buf, len, "%.2fx the cost per operation of %s in the median of %llu paired rounds (the slower "
                 "in %llu of them), %.2fx its memory", o->ratio, fast->ops->name, n, sl, mr);
    else if (o->tied && o != fast)
        snprintf(buf, len, "too close to %s on time to separate (%.2fx its cost in the median of %llu paired "
                 "rounds, the slower in %llu of them; separating takes over %.2fx and 7 rounds of 8); of the "
                 "tied kinds the fewest random reads per lookup wins, then the least memory, then the fixed "
                 "order: %s", fast->ops->name, o->ratio, n, sl, FKC_PICK_MARGIN, tie_words);
    else if (o->tied)
        snprintf(buf, len, "the fastest, but tied on time with %s (see decided): %s", best->ops->name, tie_words);
    else
        snprintf(buf, len, "slower: %.2fx the cost per operation of %s in the median of %llu paired rounds "
                 "(the slower in %llu of them)", o->ratio, fast->ops->name, n, sl);
    size_t at = strlen(buf);
    if (o->raced && !o->tied && !o->baseline && mr >= 1.1 && at < len)
        at += (size_t)snprintf(buf + at, len - at, ", and %.2fx the memory of %s", mr, best->ops->name);
    if (o->grown && best->grown && at < len) /* what it costs after the growth, in its own figures */
        snprintf(buf + at, len - at, "; after the growth: %.2f bits per key (%s %.2f), absent lookup %.1f ns "
                 "(%s %.1f; medians of the runs)", o->grow_bits, best->ops->name, best->grow_bits,
                 o->grow_absent_ns, best->ops->name, best->grow_absent_ns);
}

void fkc_pick_runnable_name(char *buf, size_t len)
{
    const char *self = fkc_runinfo_invoked_as();
    struct stat me, there;
    snprintf(buf, len, "filterkit");
    if (!self[0] || !strchr(self, '/') || stat(self, &me) != 0)
        return;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t dir = end ? (size_t)(end - path) : strlen(path);
        char try_path[4096];
        if (snprintf(try_path, sizeof try_path, "%.*s/filterkit", (int)(dir ? dir : 1), dir ? path : ".") <
                (int)sizeof try_path &&
            stat(try_path, &there) == 0 && there.st_dev == me.st_dev && there.st_ino == me.st_ino)
            return;
        path = end ? end + 1 : NULL;
    }
    /* as typed: the path the user runs it by again; an absolute one below
     * the working folder relative to it, so a results file or a pasted
     * line names no clone's path ("build/filterkit", not /src/...) */
    const char *shown = self;
    char cwd[4096];
    size_t at = 0;
    if (self[0] == '/' && getcwd(cwd, sizeof cwd) && (at = strlen(cwd)) > 1 &&
        strncmp(self, cwd, at) == 0 && self[at] == '/')
        shown = self + at + 1;
    /* a bare name would be looked up on PATH, where it is not: ./name */
    const char *dot = strchr(shown, '/') ? "" : "./";
    if (strspn(shown, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-") ==
        strlen(shown))
        snprintf(buf, len, "%s%s", dot, shown);
    else if (!strchr(shown, '\''))
        snprintf(buf, len, "'%s%s'", dot, shown);
}

/* ------------------------------------------------------- growth mode
 *
 * With --n-uncertain or --grow-to the kinds that get larger after they are
 * made (FK_CAP_GROWS by themselves, FK_CAP_RESIZES in place) are weighed at
 * the end of the growth, not at n: each runs the growth workload of
 * `bench --workload growth` scaled to n0 = run_n0 keys over the same number
 * of doublings (a chain's links, an expandable table's fingerprint lengths
 * and a quotient filter's remainder bits depend on the doublings, not on
 * n0), and is judged on the worst FPR it measured at any doubling (held or
 * not), its bits per key at the end (its memory at the end size: bits x
 * end), and its absent lookups at the end and inserts over the growth
 * (the cost, at the read ratio). */

/* The doublings from capacity to end (at least 1). */
static unsigned doublings_to(uint64_t capacity, uint64_t end)
{
    unsigned d = 1;
    while (d < 48 && ldexp((double)capacity, (int)d) < (double)end)
        d++;
    return d;
}

/* One growing candidate's figures from its growth runs: the first run's
 * points (pts[0..got): bits per key and the FPR, the same in every run:
 * the same keys, the same seed), the timings of every run (absent, batch,
 * insert: runs of each); and its verdict: the FPR held over the doublings,
 * every doubling made. */
static void growth_read(fkc_pick_candidate *x, const fkc_growth_point *pts, size_t got, const fkc_pick_result *res,
                        uint64_t probes, const double *absent, const double *batch, const double *insert, size_t runs)
{
    const fkc_growth_point *last = &pts[got - 1];
    double fpr = res->q.fpr;
    unsigned dr = res->run_doublings;
    x->grown = x->measured = x->sized = 1;
    x->grow_fpr = 0;
    for (size_t j = 0; j < got; j++)
        x->grow_fpr = pts[j].measured_fpr > x->grow_fpr ? pts[j].measured_fpr : x->grow_fpr;
    x->grow_bits = last->bits_per_key;
    x->grow_absent = fkc_summarize(absent, runs);
    x->grow_absent_batch = fkc_summarize(batch, runs);
    x->grow_insert = fkc_summarize(insert, runs);
    x->grow_absent_ns = x->grow_absent.median;
    x->grow_absent_batch_ns = x->grow_absent_batch.median;
    x->grow_insert_ns = x->grow_insert.median;
    x->memory = (uint64_t)ceil(last->bits_per_key / 8.0 * (double)res->end);
    x->exact = 0;
    x->r.n = last->keys;
    x->r.fpr_measured = x->r.fpr_low = x->r.fpr_high = last->measured_fpr;
    x->r.insert = x->grow_insert;
    for (int m = 0; m < FKC_MIXES; m++)
        x->r.lookup[m] = x->grow_absent;
    x->r.remove = (fkc_summary){ NAN, NAN, NAN };
    /* held: at most the target plus four standard deviations of the
     * binomial count over the probes */
    double allowed = fpr * PICK_THEORY_SLACK + 4 * sqrt(fpr / (double)probes);
    if (x->grow_fpr > allowed)
        snprintf(x->ruled_out, sizeof x->ruled_out, "FPR not held: measured %.3g%% after growing x%llu (%.3g%% "
                 "asked)%s", 100 * x->grow_fpr, (unsigned long long)(UINT64_C(1) << dr), 100 * fpr,
                 fk_ops_caps(x->ops) & FK_CAP_RESIZES ? "; each doubling in place takes a remainder bit" : "");
    else if (last->stopped)
        snprintf(x->ruled_out, sizeof x->ruled_out, "cannot double %u times (its remainder runs out at %llu keys "
                 "of the run)", dr, (unsigned long long)last->keys);
}

/* Runs the scaled growth q.repeat times for every growing candidate still
 * in, run 1 of every candidate before run 2 of any (so a burst of load
 * falls on all of them); fills its grow_* figures (timings: median, min,
 * max of the runs), its memory at the end size, and rules out those whose
 * FPR was not held; sets the run's shape (run_n0, run_doublings). The
 * cost and the decision come from the paired race after it. */
static void growth_weigh(fkc_pick_result *res)
{
    unsigned dr = res->doublings_wanted;
    uint64_t n0 = res->capacity;
    while (dr > 1 && (n0 << dr) > PICK_MAX_MEASURED && n0 > PICK_GROWTH_MIN_N0)
        n0 = (n0 >> 1) > PICK_GROWTH_MIN_N0 ? n0 >> 1 : PICK_GROWTH_MIN_N0;
    while (dr > 1 && (n0 << dr) > PICK_MAX_MEASURED)
        dr--; /* past 2^11 fewer doublings are run (said in the output) */
    res->run_n0 = n0;
    res->run_doublings = dr;
    uint64_t probes = (n0 << dr) < (UINT64_C(1) << 18) ? n0 << dr : UINT64_C(1) << 18;
    size_t runs = (size_t)res->q.repeat, which[FKC_KINDS_MAX], nk = 0;
    for (size_t i = 0; i < res->nc; i++)
        if (!res->c[i].ruled_out[0] && (fk_ops_caps(res->c[i].ops) & (FK_CAP_GROWS | FK_CAP_RESIZES)))
            which[nk++] = i;
    if (!nk)
        return;
    fkc_growth_point (*pts)[49] = calloc(nk, sizeof *pts);
    size_t got[FKC_KINDS_MAX] = { 0 };
    int failed[FKC_KINDS_MAX] = { 0 };
    double *t = calloc(3 * nk * runs, sizeof *t); /* absent, batch, insert: [kind][what][run] */
    if (!pts || !t) {
        for (size_t j = 0; j < nk; j++)
            snprintf(res->c[which[j]].ruled_out, sizeof res->c[which[j]].ruled_out, "cannot take the growth "
                     "(out of memory)");
        free(pts);
        free(t);
        return;
    }
    for (size_t run = 0; run < runs; run++)
        for (size_t o = 0; o < nk; o++) {
            size_t j = (run + o) % nk;
            fkc_pick_candidate *x = &res->c[which[j]];
            if (failed[j])
                continue;
            fkc_growth_cfg cfg = { n0, dr, x->fpr, res->q.seed, probes, 1 };
            fkc_growth_point mine[49];
            size_t n = 0;
            fkc_progress_step("growing %s from %llu keys x%llu (run %zu of %zu)", x->ops->name,
                              (unsigned long long)n0, (unsigned long long)(UINT64_C(1) << dr), run + 1, runs);
            fk_status s = fkc_growth_run(&cfg, x->ops, run ? mine : pts[j], &n, NULL);
            if (s != FK_OK || !n) {
                snprintf(x->ruled_out, sizeof x->ruled_out, "cannot take the growth (%s)", fk_strerror(s));
                failed[j] = 1;
                continue;
            }
            const fkc_growth_point *last = run ? &mine[n - 1] : &pts[j][n - 1];
            if (!run)
                got[j] = n;
            double *tj = t + 3 * runs * j;
            tj[run] = last->absent_ns;
            tj[runs + run] = last->absent_batch_ns;
            tj[2 * runs + run] = last->insert_ns;
        }
    for (size_t j = 0; j < nk; j++)
        if (!failed[j]) {
            const double *tj = t + 3 * runs * j;
            growth_read(&res->c[which[j]], pts[j], got[j], res, probes, tj, tj + runs, tj + 2 * runs, runs);
        }
    free(pts);
    free(t);
}

/* ------------------------------------------------------------ a set */

/* Checks a set's query and fills what it derives: the headroom, the
 * capacity, the growth. Returns the status. */
static fkc_pick_status check_set(fkc_pick_result *res)
{
    fkc_pick_query *q = &res->q;
    if (q->rate)
        return fkc_pick_refuse(res, "--rate R: only with --window-seconds T");
    if (!q->n)
        return fkc_pick_refuse(res, "missing --n N");
    if (q->n > FKC_PICK_COUNT_MAX)
        return fkc_pick_refuse(res, "--n: at most 2^48 items");
    if (q->grow_to && q->grow_to <= q->n)
        return fkc_pick_refuse(res, "--grow-to N: N must be more than --n");
    if (q->grow_to > FKC_PICK_COUNT_MAX)
        return fkc_pick_refuse(res, "--grow-to: at most 2^48 items");
    if (q->grow_to && (q->uncertain || q->is_static))
        return fkc_pick_refuse(res, q->uncertain ? "--grow-to N and --n-uncertain: give one (a known bound, or none)"
                                                 : "--grow-to N and --static: a static set never grows");
    double headroom = q->headroom < 0 ? PICK_DEFAULT_HEADROOM : q->headroom;
    /* what the filter is sized for: n and what will be added later (a
     * growing kind starts at n and grows past it); a static set never
     * changes, so it has nothing to add later */
    if (q->is_static)
        headroom = 0;
    res->grows = q->uncertain || q->grow_to; /* starts at n, grows past it */
    if (q->grow_to)
        headroom = 0; /* the growth is the room for later adds */
    res->headroom = headroom;
    double want = ceil((double)q->n * (1 + (res->grows ? 0 : headroom)));
    if (want > (double)FKC_PICK_COUNT_MAX)
        return fkc_pick_refuse(res, "--n with --headroom: at most 2^48 items");
    res->capacity = (uint64_t)want;
    res->end = q->grow_to ? q->grow_to : res->capacity * FKC_PICK_UNCERTAIN_GROWTH;
    res->doublings_wanted = doublings_to(res->capacity, res->end);
    return FKC_PICK_OK;
}

/* A growing kind that is a chain of sub-filters (it describes its
 * "links"), read from a small one: not one table doubling in place. */
static int is_chain(const fk_ops *ops)
{
    fk_params p = fk_params_make(1024, 0.01);
    fk_filter *f = NULL;
    if (fk_filter_new(ops, &p, &f) != FK_OK)
        return 0;
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t nr = 0;
    int chain = fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &nr) == FK_OK && nr <= FK_DESCRIBE_MAX_ROWS &&
                fk_describe_find(rows, nr, "links") != NULL;
    fk_filter_free(f);
    return chain;
}

/* Why a kind cannot serve this set by its capabilities alone; NULL when
 * it can. why: room for a message made here. */
static const char *lacks(const fkc_pick_result *res, const fkc_pick_candidate *x, unsigned caps, char *why,
                         size_t len)
{
    const fkc_pick_query *q = &res->q;
    if (caps & FK_CAP_EXPIRES) /* it answers for a sliding window, not for a set */
        return "forgets: a key leaves after a window of inserts (for \"seen recently\", pick --window N)";
    if (q->deletes && !(caps & FK_CAP_REMOVE))
        return "no deletes";
    if (q->grow_to && !(caps & (FK_CAP_GROWS | FK_CAP_RESIZES))) {
        snprintf(why, len, "fixed size: it cannot grow to %llu items without the keys (size it for them "
                 "now with --n, or rebuild it from the keys)", (unsigned long long)q->grow_to);
        return why;
    }
    if (!q->is_static && (caps & FK_CAP_STATIC))
        return "static: built once from the whole set, never added to (give --static when the set is known up "
               "front)";
    if (q->counts && !(caps & FK_CAP_COUNT))
        return "cannot count copies of an item";
    if (q->merges && !(caps & FK_CAP_MERGE))
        return "cannot merge two filters without the keys";
    if ((caps & FK_CAP_GROWS) && !res->grows && is_chain(x->ops))
        return "grows when n is unknown (--n-uncertain); with n known its inner kind sized for n needs less "
               "memory and one lookup instead of one per sub-filter";
    if ((caps & FK_CAP_GROWS) && !res->grows) {
        /* one table that doubles in place (no chain): what costs is its
         * size, made for the doublings it may take, and its lookup */
        snprintf(why, len, "grows when n is unknown (--n-uncertain): one table that doubles in place, made "
                 "for the doublings it may take, so at this n it needs %.2f bits per item; with n known a "
                 "fixed kind sized for n needs no room to grow, and its lookup is a quotient table's (a "
                 "rank, a select, then the run's slots: one or two cache lines)", x->sized ? 8.0 * (double)x->memory / (double)res->capacity : NAN);
        return why;
    }
    if (!(caps & (FK_CAP_GROWS | FK_CAP_RESIZES)) && q->uncertain) {
        snprintf(why, len, "n is uncertain: past its capacity a fixed filter %s",
                 (caps & FK_CAP_BOUNDED) ? "refuses inserts (FK_EFULL)" : "loses its false-positive rate");
        return why;
    }
    return NULL;
}

/* Sizes every registered kind and rules out what the formulas and the
 * capabilities rule out (those need no measurement: too big for the
 * constructor or the budget, a theory above the target). */
static void size_set(fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    res->nc = 0;
    for (size_t i = 0; fk_ops_at(i) && res->nc < FKC_KINDS_MAX; i++) {
        fkc_pick_candidate *x = &res->c[res->nc++];
        x->ops = fk_ops_at(i);
        x->best_fpr = NAN;
        x->fpr = q->fpr;
        x->worst_band = -1;
        unsigned caps = fk_ops_caps(x->ops);
        if (q->grow_to && (caps & FK_CAP_RESIZES)) {
            /* g doublings take capacity past grow_to; each doubles the fpr */
            while (x->doublings < 48 && ldexp((double)res->capacity, (int)x->doublings) < (double)q->grow_to)
                x->doublings++;
            x->fpr = ldexp(q->fpr, -(int)x->doublings);
        }
        x->memory = fkc_model_bytes(x->ops, res->capacity, x->fpr, x->params, sizeof x->params);
        if (x->memory) {
            x->sized = 1;
            x->theory = fkc_pick_theory_at(x->ops, res->capacity, x->fpr);
        }
        char why[sizeof x->ruled_out];
        const char *no = lacks(res, x, caps, why, sizeof why);
        if (no) {
            snprintf(x->ruled_out, sizeof x->ruled_out, "%s", no);
            continue;
        }
        /* over the budget is known from the formulas: not timed, unless
         * for plot 8 (time_all), which shows every kind beside the budget line */
        if (x->sized)
            x->untimed = judge(x, x->fpr, q->time_all ? 0 : q->memory);
    }
}

/* Times every candidate still in (not in growth mode), and rules out those
 * whose inserts failed or whose measured fpr is above the target.
 * Returns the status (EFAIL: the keys could not be made). */
static fkc_pick_status measure_set(fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    fkc_measure_cfg cfg[FKC_KINDS_MAX];
    size_t which[FKC_KINDS_MAX], nmeas = 0;
    for (size_t i = 0; i < res->nc; i++)
        if (!res->c[i].ruled_out[0] && !q->no_timing && !res->grows) { /* growth mode: growth_weigh */
            cfg[nmeas] = (fkc_measure_cfg){ res->c[i].ops, res->c[i].fpr, (unsigned)q->repeat, 0, 0, 0 };
            which[nmeas++] = i;
        }
    uint64_t n_meas = res->capacity < PICK_MAX_MEASURED ? res->capacity : PICK_MAX_MEASURED;
    if (!nmeas)
        return FKC_PICK_OK;
    fkc_bench_keys bk;
    fkc_keyspec ks = q->keys;
    ks.seed = q->seed;
    fkc_progress_begin("pick", 1 + nmeas * q->repeat + FKC_PICK_ROUNDS);
    fkc_progress_step("generating %llu keys", (unsigned long long)n_meas);
    if (fkc_bench_keys_make(&ks, n_meas, q->fpr, 0, &bk, res->message, sizeof res->message)) {
        fkc_progress_end();
        return res->status = FKC_PICK_EFAIL;
    }
    res->n_meas = n_meas = bk.n;
    res->nmeas = nmeas;
    fkc_result rows[FKC_KINDS_MAX];
    fk_status st[FKC_KINDS_MAX];
    fkc_measure_kinds(cfg, nmeas, &bk, rows, st);
    for (size_t j = 0; j < nmeas; j++) {
        fkc_pick_candidate *x = &res->c[which[j]];
        x->r = rows[j];
        if (st[j] != FK_OK) {
            snprintf(x->ruled_out, sizeof x->ruled_out, "cannot be built at this fpr (%s)", fk_strerror(st[j]));
            continue;
        }
        x->measured = x->sized = 1;
        x->memory = fkc_model_extrapolate(x->ops, x->fpr, n_meas, x->r.memory_bytes, res->capacity, &x->exact);
        x->theory = fkc_model_fpr(x->ops, res->capacity, x->fpr, x->r.fpr_theory);
        if (x->r.insert_failures)
            snprintf(x->ruled_out, sizeof x->ruled_out, "%llu of %llu inserts failed at this size",
                     (unsigned long long)x->r.insert_failures, (unsigned long long)n_meas);
        else if (!judge(x, x->fpr, q->memory) && x->r.fpr_low > x->fpr)
            snprintf(x->ruled_out, sizeof x->ruled_out, "measured fpr %.3g%% is above the %.3g%% asked",
                     100 * x->r.fpr_measured, 100 * x->fpr);
    }
    fkc_pick_race_set(res, &bk); /* the paired rounds the decision weighs */
    fkc_bench_keys_free(&bk);
    fkc_progress_end();
    return FKC_PICK_OK;
}

/* Growth mode: runs the growth (or, untimed, applies the formula that
 * rules out a table doubling in place), then the budget at the end size. */
static void weigh_growth(fkc_pick_result *res)
{
    if (!res->grows)
        return;
    if (res->q.no_timing) {
        /* nothing is run, but the formula already answers for a table that
         * doubles in place (FK_CAP_RESIZES without FK_CAP_GROWS): each
         * doubling takes a remainder bit, so its fpr doubles each time;
         * ranked by its memory at n it looked smallest (the timed run,
         * which measures it, rules it out) */
        unsigned d = res->doublings_wanted;
        for (size_t i = 0; i < res->nc; i++) {
            fkc_pick_candidate *x = &res->c[i];
            unsigned caps = fk_ops_caps(x->ops);
            if (!x->ruled_out[0] && d && (caps & FK_CAP_RESIZES) && !(caps & FK_CAP_GROWS))
                snprintf(x->ruled_out, sizeof x->ruled_out, "FPR not held: x%.0f by formula after %u doublings "
                         "in place (each takes a remainder bit)", ldexp(1.0, (int)d), d);
        }
        return;
    }
    fkc_progress_begin("pick", res->nc * res->q.repeat + FKC_PICK_ROUNDS);
    growth_weigh(res);
    for (size_t i = 0; i < res->nc; i++)
        if (res->c[i].grown && !res->c[i].ruled_out[0])
            (void)judge(&res->c[i], res->c[i].fpr, res->q.memory); /* the budget, against the memory at the end */
    fkc_pick_race_growth(res);
    fkc_progress_end();
}

/* The decision's words (the race decided already: fkc_pick_apply_rank);
 * --no-timing: the smallest feasible by the formulas. Sets decided (and
 * best, untimed). */
static void decide_set(fkc_pick_result *res)
{
    fkc_pick_candidate *c = res->c;
    char *decided = res->decided;
    size_t len = sizeof res->decided;
    if (res->fastest < 0) {
        res->best = -1;
        if (!res->q.no_timing)
            return; /* nothing timed and timing asked: nothing qualifies */
        for (size_t i = 0; i < res->nc; i++)
            if (!c[i].ruled_out[0] && c[i].sized && (res->best < 0 || c[i].memory < c[res->best].memory))
                res->best = (int)i;
        if (res->best >= 0)
            snprintf(decided, len, "the smallest that qualifies, by the sizing formulas alone (--no-timing: "
                     "nothing timed)");
        return;
    }
    fkc_pick_set_decided(res);
}

/* The lines that make the chosen: `filterkit build`, C, Python, and for a
 * table doubling in place how to grow it. */
static void set_lines(fkc_pick_result *res)
{
    if (res->best < 0)
        return;
    const fkc_pick_candidate *best = &res->c[res->best];
    const char *name = best->ops->name;
    unsigned long long cap = (unsigned long long)res->capacity;
    const char *made = res->made_text;
    fkc_doc_shortest(best->fpr, res->made_text, sizeof res->made_text); /* what it is made with */
    if (best->doublings) {
        /* grown g times it is the table made for 2^g capacity at the
         * target (one remainder bit fewer per doubling) */
        uint64_t grown = (uint64_t)ldexp((double)res->capacity, (int)best->doublings);
        char grown_mem[32] = "?";
        uint64_t gm = fkc_model_bytes(best->ops, grown, res->q.fpr, NULL, 0);
        if (gm && gm != FKC_MODEL_TOO_BIG)
            fkc_human_bytes(gm, grown_mem, sizeof grown_mem);
        snprintf(res->grow_line, sizeof res->grow_line, "made with fpr %s; grow it when an insert answers "
                 "FK_EFULL (fk_filter_grow, f.grow() in Python, FK.GROW in Redis, filterkit grow): %u doublings "
                 "take it to %llu items at fpr %.3g in about %s", made, best->doublings, (unsigned long long)grown,
                 ldexp(best->fpr, (int)best->doublings), grown_mem);
    }
    char self[4200];
    fkc_pick_runnable_name(self, sizeof self);
    if (fk_ops_caps(best->ops) & FK_CAP_STATIC) {
        /* built once from all the keys: no headroom to add to */
        snprintf(res->build, sizeof res->build, "%s build --kind %s --fpr %s < keys.txt > filter.fk", self, name,
                 made);
        snprintf(res->c_line, sizeof res->c_line, "fk_params p = fk_params_make(0, %s); fk_filter *f = NULL; "
                 "fk_status s = fk_filter_build(fk_ops_find(\"%s\"), &p, n, keys, lens, &f);", made, name);
        snprintf(res->py_line, sizeof res->py_line, "f = filterkit.kind_class(\"%s\").build(keys, fpr=%s)", name,
                 made);
    } else {
        snprintf(res->build, sizeof res->build, "%s build --kind %s --fpr %s --capacity %llu < keys.txt > "
                 "filter.fk", self, name, made, cap);
        snprintf(res->c_line, sizeof res->c_line, "fk_params p = fk_params_make(%llu, %s); fk_filter *f = NULL; "
                 "fk_status s = fk_filter_new(fk_ops_find(\"%s\"), &p, &f);", cap, made, name);
        snprintf(res->py_line, sizeof res->py_line, "f = filterkit.Filter(\"%s\", capacity=%llu, fpr=%s)", name,
                 cap, made);
    }
}

/* No pick: the smallest kind with the capabilities asked (how far the
 * budget is), and each static kind that would fit were the set known up
 * front. */
static void explain_none(fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    fkc_pick_candidate *c = res->c;
    res->smallest = -1;
    for (size_t i = 0; i < res->nc; i++) {
        unsigned caps = fk_ops_caps(c[i].ops);
        if (c[i].sized && (!q->deletes || (caps & FK_CAP_REMOVE)) && !(caps & FK_CAP_EXPIRES) &&
            (q->is_static || !(caps & FK_CAP_STATIC)) && (res->smallest < 0 || c[i].memory < c[res->smallest].memory))
            res->smallest = (int)i;
    }
    for (size_t i = 0; !q->is_static && !q->deletes && i < res->nc; i++) {
        if (!(fk_ops_caps(c[i].ops) & FK_CAP_STATIC))
            continue;
        uint64_t bytes = fkc_model_bytes(c[i].ops, q->n, q->fpr, NULL, 0);
        if (!bytes || bytes == FKC_MODEL_TOO_BIG || (q->memory && bytes > q->memory) ||
            !(fkc_model_fpr(c[i].ops, q->n, q->fpr, NAN) <= q->fpr * PICK_THEORY_SLACK))
            continue;
        c[i].static_bytes = bytes;
    }
}

/* The verdicts and the reasons: ruled out (why), lost (to the chosen: why),
 * chosen. */
static void set_verdicts(fkc_pick_result *res)
{
    const fkc_pick_candidate *best = res->best >= 0 ? &res->c[res->best] : NULL;
    for (size_t i = 0; i < res->nc; i++) {
        fkc_pick_candidate *x = &res->c[i];
        x->verdict = x == best ? FKC_PICK_CHOSEN : x->ruled_out[0] ? FKC_PICK_RULED_OUT : FKC_PICK_LOST;
        if (x->ruled_out[0])
            snprintf(x->reason, sizeof x->reason, "%s", x->ruled_out);
        else if (best && x != best)
            fkc_pick_why_lost(res, x, x->reason, sizeof x->reason);
    }
}

/* Checks what every query shares: the rate, the read ratio, the runs. */
static fkc_pick_status check_common(fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    if (!(q->fpr > 0 && q->fpr < 1))
        return fkc_pick_refuse(res, q->fpr == 0 ? "missing --fpr P" : "--fpr: expected a rate in (0, 1)");
    if (!(q->read_ratio >= 0 && q->read_ratio <= 1))
        return fkc_pick_refuse(res, "--read-ratio: expected a ratio in [0, 1]");
    if (q->headroom > 1 || q->headroom != q->headroom)
        return fkc_pick_refuse(res, "--headroom: expected a ratio in [0, 1]");
    if (q->repeat < 1 || q->repeat > FKC_PICK_REPEAT_MAX)
        return fkc_pick_refuse(res, "--repeat: expected 1 to %llu runs", (unsigned long long)FKC_PICK_REPEAT_MAX);
    return FKC_PICK_OK;
}

fkc_pick_status fkc_pick(const fkc_pick_query *q, fkc_pick_result *res)
{
    memset(res, 0, sizeof *res);
    res->q = *q;
    res->best = res->fastest = res->smallest = -1;
    fkc_doc_shortest(q->fpr, res->fpr_text, sizeof res->fpr_text);
    if (check_common(res) != FKC_PICK_OK)
        return res->status;
    if (q->window || q->window_seconds)
        return fkc_pick_window(res);
    if (check_set(res) != FKC_PICK_OK)
        return res->status;
    size_set(res);
    if (measure_set(res) != FKC_PICK_OK)
        return res->status;
    weigh_growth(res);
    decide_set(res);
    /* the best fpr of each kind within the budget (or the recommendation's
     * memory): what the same bytes buy from each */
    res->budget_for_best = q->memory ? q->memory : res->best >= 0 ? res->c[res->best].memory : 0;
    for (size_t i = 0; i < res->nc && res->budget_for_best; i++) {
        fkc_pick_candidate *x = &res->c[i];
        if (x->sized && !x->doublings && !res->grows && !(fk_ops_caps(x->ops) & FK_CAP_EXPIRES))
            x->best_fpr = best_fpr_within(x->ops, res->capacity, res->budget_for_best);
    }
    set_lines(res);
    set_verdicts(res);
    if (res->best < 0)
        explain_none(res);
    return res->status = res->best >= 0 ? FKC_PICK_OK : FKC_PICK_NONE;
}
