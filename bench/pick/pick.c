/* bench/pick/pick.c: the pick component (pick.h): check the query, size
 * every built-in kind, rule out what the formulas and capabilities rule out,
 * time the rest briefly, decide, and write the lines that build the winner.
 * A set here; a sliding window in pick_window.c; the result as data in
 * pick_doc.c. Prints nothing. */
#define _DEFAULT_SOURCE /* realpath */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Why `o` lost to `best`, when both are feasible. */
static void why_lost(const fkc_pick_candidate *o, const fkc_pick_candidate *best, double read_ratio, char *buf,
                     size_t len)
{
    double mr = (double)o->memory / (double)best->memory, tr = o->cost / best->cost;
    if (!best->measured)
        snprintf(buf, len, "%.2fx the memory of %s at this fpr (ranked by the formulas alone)", mr,
                 best->ops->name);
    else if (o->tied)
        snprintf(buf, len, "tied on time with %s (%.1f-%.1f vs %.1f-%.1f ns per operation over the runs), "
                 "and the tie goes to the smaller: it needs %.2fx the memory", best->ops->name, o->cost_low,
                 o->cost_high, best->cost_low, best->cost_high, mr);
    else if (mr >= 1.1 && tr >= 1.1)
        snprintf(buf, len, "%.1fx the memory and %.1fx the time per operation of %s at this fpr", mr, tr,
                 best->ops->name);
    else if (mr >= 1.1)
        snprintf(buf, len, "%.1fx the memory of %s at this fpr%s", mr, best->ops->name,
                 tr < 1 ? " (for a little more speed)" : "");
    else if (tr >= 1.1)
        snprintf(buf, len, "%.1fx slower per operation (%.1f vs %.1f ns at read ratio %.2f)", tr, o->cost,
                 best->cost, read_ratio);
    else
        snprintf(buf, len, "close (%.2fx the memory, %.2fx the time); %s is smaller or faster", mr, tr,
                 best->ops->name);
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
    char *abs = realpath(self, NULL);
    if (!abs)
        return;
    if (strspn(abs, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+-") == strlen(abs))
        snprintf(buf, len, "%s", abs);
    else if (!strchr(abs, '\''))
        snprintf(buf, len, "'%s'", abs);
    free(abs);
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

/* One growing candidate's figures from its growth run (pts[0..got)), and
 * its verdict: the FPR held over the doublings, every doubling made. */
static void growth_read(fkc_pick_candidate *x, const fkc_growth_point *pts, size_t got, const fkc_pick_result *res,
                        uint64_t probes)
{
    const fkc_growth_point *last = &pts[got - 1];
    double fpr = res->q.fpr, read_ratio = res->q.read_ratio;
    unsigned dr = res->run_doublings;
    x->grown = x->measured = x->sized = 1;
    x->grow_fpr = 0;
    for (size_t j = 0; j < got; j++)
        x->grow_fpr = pts[j].measured_fpr > x->grow_fpr ? pts[j].measured_fpr : x->grow_fpr;
    x->grow_bits = last->bits_per_key;
    x->grow_absent_ns = last->absent_ns;
    x->grow_absent_batch_ns = last->absent_batch_ns;
    x->grow_insert_ns = last->insert_ns;
    x->memory = (uint64_t)ceil(last->bits_per_key / 8.0 * (double)res->end);
    x->exact = 0;
    x->cost = x->cost_low = x->cost_high = read_ratio * last->absent_ns + (1 - read_ratio) * last->insert_ns;
    x->r.n = last->keys;
    x->r.fpr_measured = x->r.fpr_low = x->r.fpr_high = last->measured_fpr;
    x->r.insert = (fkc_summary){ last->insert_ns, last->insert_ns, last->insert_ns };
    for (int m = 0; m < FKC_MIXES; m++)
        x->r.lookup[m] = (fkc_summary){ last->absent_ns, last->absent_ns, last->absent_ns };
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

/* Runs the scaled growth for every growing candidate still in: fills its
 * grow_* figures, its memory at the end size and its cost, and rules out
 * those whose FPR was not held; sets the run's shape (run_n0,
 * run_doublings). */
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
    fkc_growth_point pts[49];
    for (size_t i = 0; i < res->nc; i++) {
        fkc_pick_candidate *x = &res->c[i];
        if (x->ruled_out[0] || !(fk_ops_caps(x->ops) & (FK_CAP_GROWS | FK_CAP_RESIZES)))
            continue;
        fkc_growth_cfg cfg = { n0, dr, x->fpr, res->q.seed, probes, 1 };
        size_t got = 0;
        fkc_progress_step("growing %s from %llu keys x%llu", x->ops->name, (unsigned long long)n0,
                          (unsigned long long)(UINT64_C(1) << dr));
        fk_status s = fkc_growth_run(&cfg, x->ops, pts, &got, NULL);
        if (s != FK_OK || !got) {
            snprintf(x->ruled_out, sizeof x->ruled_out, "cannot take the growth (%s)", fk_strerror(s));
            continue;
        }
        growth_read(x, pts, got, res, probes);
    }
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

/* Why a kind cannot serve this set by its capabilities alone; NULL when
 * it can. why: room for a message made here. */
static const char *lacks(const fkc_pick_result *res, unsigned caps, char *why, size_t len)
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
    if ((caps & FK_CAP_GROWS) && !res->grows)
        return "grows when n is unknown (--n-uncertain); with n known its inner kind sized for n needs less "
               "memory and one lookup instead of one per sub-filter";
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
        const char *no = lacks(res, caps, why, sizeof why);
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
    fkc_progress_begin("pick", 1 + nmeas * q->repeat);
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
        x->cost = q->read_ratio * x->r.lookup[2].median + (1 - q->read_ratio) * x->r.insert.median;
        x->cost_low = q->read_ratio * x->r.lookup[2].min + (1 - q->read_ratio) * x->r.insert.min;
        x->cost_high = q->read_ratio * x->r.lookup[2].max + (1 - q->read_ratio) * x->r.insert.max;
        if (x->r.insert_failures)
            snprintf(x->ruled_out, sizeof x->ruled_out, "%llu of %llu inserts failed at this size",
                     (unsigned long long)x->r.insert_failures, (unsigned long long)n_meas);
        else if (!judge(x, x->fpr, q->memory) && x->r.fpr_low > x->fpr)
            snprintf(x->ruled_out, sizeof x->ruled_out, "measured fpr %.3g%% is above the %.3g%% asked",
                     100 * x->r.fpr_measured, 100 * x->fpr);
    }
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
    fkc_progress_begin("pick", res->nc);
    growth_weigh(res);
    fkc_progress_end();
    for (size_t i = 0; i < res->nc; i++)
        if (res->c[i].grown && !res->c[i].ruled_out[0])
            (void)judge(&res->c[i], res->c[i].fpr, res->q.memory); /* the budget, against the memory at the end */
}

/* The fastest feasible, then the smallest of those tied with it on time:
 * within FKC_PICK_SPEED_SLACK of it, or whose min..max over the runs
 * overlaps its own. --no-timing: the smallest feasible. Sets best,
 * fastest, ties and decided. */
static void decide_set(fkc_pick_result *res)
{
    fkc_pick_candidate *c = res->c, *best = NULL, *fastest = NULL;
    size_t ties = 0;
    for (size_t i = 0; i < res->nc; i++)
        if (!c[i].ruled_out[0] && c[i].measured && (!fastest || c[i].cost < fastest->cost))
            fastest = &c[i];
    for (size_t i = 0; i < res->nc; i++) {
        fkc_pick_candidate *x = &c[i];
        if (x->ruled_out[0] || !x->sized)
            continue;
        if (fastest && x != fastest &&
            (x->cost <= fastest->cost * FKC_PICK_SPEED_SLACK || x->cost_low <= fastest->cost_high)) {
            x->tied = 1;
            ties++;
        }
        if (fastest ? x == fastest || x->tied : res->q.no_timing)
            if (!best || x->memory < best->memory)
                best = x;
    }
    if (ties)
        fastest->tied = 1;
    res->best = best ? (int)(best - c) : -1;
    res->fastest = fastest ? (int)(fastest - c) : -1;
    res->ties = ties;
    char *decided = res->decided;
    size_t len = sizeof res->decided;
    if (best && !fastest) {
        snprintf(decided, len, "the smallest that qualifies, by the sizing formulas alone (--no-timing: nothing "
                 "timed)");
    } else if (best && !ties) {
        snprintf(decided, len, "the fastest at read ratio %.2f; no other kind is within %.2fx of it or within "
                 "its spread over the runs (%.1f-%.1f ns)", res->q.read_ratio, FKC_PICK_SPEED_SLACK,
                 fastest->cost_low, fastest->cost_high);
    } else if (best) {
        size_t at = (size_t)snprintf(decided, len, "tied on time:");
        for (size_t i = 0; i < res->nc && at < len; i++)
            if (c[i].tied)
                at += (size_t)snprintf(decided + at, len - at, " %s %.1f (%.1f-%.1f)", c[i].ops->name, c[i].cost,
                                       c[i].cost_low, c[i].cost_high);
        if (at < len)
            snprintf(decided + at, len - at, " ns per operation (median, min-max of the runs: they overlap or "
                     "are within %.2fx); the tie goes to the least memory: %s", FKC_PICK_SPEED_SLACK,
                     best->ops->name);
    }
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
            why_lost(x, best, res->q.read_ratio, x->reason, sizeof x->reason);
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
