/* bench/cli/cmd_pick.c: `filterkit pick`: measure every built-in kind briefly
 * at the asked scale and recommend one, saying why each other one loses, and
 * end in what builds it: the `filterkit build` line, the C and the Python
 * calls. --format json prints the whole decision. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "args.h"
#include "cmd.h"
#include "hints.h"
#include "../baselines/runnable_kinds.h"
#include "../measure/memory_model.h"
#include "../clock/progress.h"
#include "../measure/grid.h"
#include "../measure/window_stream.h"
#include "../baselines/window_baselines.h"
#include "../report/stats.h"
#include "../measure/growth.h"
#include "../report/report.h"
#include "../report/runinfo.h"
#include "../report/units.h"
#include "../../registry/registry.h"
#include "../../window/window.h"

/* Timings are measured at no more than this many items (memory is
 * extrapolated exactly), so a pick takes seconds, not minutes. */
#define PICK_MAX_MEASURED UINT64_C(2000000)
/* A kind within this factor of the fastest counts as "as fast", as does one
 * whose cost over the runs (min..max) overlaps the fastest's: such kinds
 * are tied on time, and the smallest of them wins. */
#define PICK_SPEED_SLACK 1.25
/* A kind qualifies when its theoretical FPR at capacity is at most this
 * times the target: Bloom sizing rounds k to a whole number, which lifts
 * its theory by up to about 5% (at k = 1 or 2; under 1% at k >= 6). A kind
 * that cannot reach the target -- a cuckoo filter's 32-bit fingerprint at
 * fpr 1e-14 -- misses by orders of magnitude and is never picked. */
#define PICK_THEORY_SLACK 1.05
/* The share of n a user adds later unless told (--headroom): a cuckoo
 * table sized for exactly n is 94% full once the n keys are in, and the
 * next few thousand adds fail; a Bloom filter past its capacity loses its
 * fpr. */
#define PICK_DEFAULT_HEADROOM 0.25
/* The rates the "best fpr in the budget" search tries between. */
#define PICK_FPR_FLOOR 1e-15
#define PICK_FPR_CEIL 0.5
/* --n-uncertain without --grow-to: the growth the kinds are weighed over
 * (the expandable kind's default expected growth, fk_params.growth). */
#define PICK_UNCERTAIN_GROWTH 1024u
/* The growth run starts at no fewer keys than this (at 1024x it ends at
 * 1M keys, under PICK_MAX_MEASURED). */
#define PICK_GROWTH_MIN_N0 UINT64_C(1000)

typedef struct {
    const fk_ops *ops;
    fkc_result    r;
    int           measured;   /* timed (cost and r are set) */
    int           sized;      /* memory and theory are known */
    uint64_t      memory;     /* at the capacity */
    int           exact;
    double        fpr;        /* the rate it is made with: the target, or less
                                 for a kind that resizes (--grow-to) */
    unsigned      doublings;  /* --grow-to: fk_filter_grow calls to reach it */
    double        theory;     /* theoretical FPR holding `capacity` items */
    double        best_fpr;   /* the lowest theoretical FPR within the budget; NaN: none */
    double        cost;       /* ns per operation at the read ratio (medians) */
    double        cost_low;   /* ... from the fastest of the runs (min) */
    double        cost_high;  /* ... from the slowest of the runs (max) */
    int           untimed;    /* ruled out by its sizing before any timing */
    int           tied;       /* in the group tied on time with the fastest
                                 (the fastest too, when others are) */
    char          why_not[200];
    char          params[160];
    /* growth mode (--n-uncertain, --grow-to): a scaled run of the growth
     * workload (bench/measure/growth.h), read at its end */
    int           grown;        /* the growth run took place */
    double        grow_bits;    /* bits per key at the end */
    double        grow_fpr;     /* the worst measured FPR over its doublings */
    double        grow_absent_ns, grow_absent_batch_ns, grow_insert_ns;
} candidate;

/* The shortest decimal that reads back as exactly d (0.001, not
 * 0.0010000000000000000208). */
static void shortest(double d, char *buf, size_t len)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

/* The theoretical FPR of a filter sized for (capacity, fpr) holding
 * `capacity` items; 1.0 when the kind refuses the params, NaN when it
 * cannot say. */
static double theory_at(const fk_ops *ops, uint64_t capacity, double fpr)
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
    double t = theory_at(ops, capacity, exp(hi));
    return t < 1.0 ? t : NAN;
}

/* Rules a kind out when its memory or theory at capacity do not fit;
 * returns whether it did (why then says why). */
static int judge_fields(uint64_t memory, double theory, double fpr, uint64_t budget, char *why, size_t len)
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
 * whether it did (c->why_not then says why). */
static int judge(candidate *c, double fpr, uint64_t budget)
{
    return judge_fields(c->memory, c->theory, fpr, budget, c->why_not, sizeof c->why_not);
}

/* Why `o` lost to `best`, when both are feasible. */
static void why_lost(const candidate *o, const candidate *best, double read_ratio, char *buf, size_t len)
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

/* How the user runs this program again: "filterkit" when that name on PATH
 * is this very program (or it was started by name), else its absolute path
 * (/src/filterkit/build/filterkit: the line runs from any folder), quoted
 * for the shell when it must be. */
static void runnable_name(char *buf, size_t len)
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

/* Runs the scaled growth for every growing candidate still in: fills its
 * grow_* figures, its memory at the end size and its cost, and rules out
 * those whose FPR was not held. run_n0 and run_doublings: the run's shape. */
static void growth_weigh(candidate *c, size_t nc, uint64_t capacity, uint64_t end, double fpr, double read_ratio,
                         uint64_t seed, uint64_t *run_n0, unsigned *run_doublings)
{
    unsigned d = doublings_to(capacity, end), dr = d;
    uint64_t n0 = capacity;
    while (dr > 1 && (n0 << dr) > PICK_MAX_MEASURED && n0 > PICK_GROWTH_MIN_N0)
        n0 = (n0 >> 1) > PICK_GROWTH_MIN_N0 ? n0 >> 1 : PICK_GROWTH_MIN_N0;
    while (dr > 1 && (n0 << dr) > PICK_MAX_MEASURED)
        dr--; /* past 2^11 fewer doublings are run (said in the output) */
    *run_n0 = n0;
    *run_doublings = dr;
    uint64_t probes = (n0 << dr) < (UINT64_C(1) << 18) ? n0 << dr : UINT64_C(1) << 18;
    fkc_growth_point pts[49];
    for (size_t i = 0; i < nc; i++) {
        candidate *x = &c[i];
        if (x->why_not[0] || !(fk_ops_caps(x->ops) & (FK_CAP_GROWS | FK_CAP_RESIZES)))
            continue;
        fkc_growth_cfg cfg = { n0, dr, x->fpr, seed, probes, 1 };
        size_t got = 0;
        fkc_progress_step("growing %s from %llu keys x%llu", x->ops->name, (unsigned long long)n0,
                          (unsigned long long)(UINT64_C(1) << dr));
        fk_status s = fkc_growth_run(&cfg, x->ops, pts, &got, NULL);
        if (s != FK_OK || !got) {
            snprintf(x->why_not, sizeof x->why_not, "cannot take the growth (%s)", fk_strerror(s));
            continue;
        }
        const fkc_growth_point *last = &pts[got - 1];
        x->grown = x->measured = x->sized = 1;
        x->grow_fpr = 0;
        for (size_t j = 0; j < got; j++)
            x->grow_fpr = pts[j].measured_fpr > x->grow_fpr ? pts[j].measured_fpr : x->grow_fpr;
        x->grow_bits = last->bits_per_key;
        x->grow_absent_ns = last->absent_ns;
        x->grow_absent_batch_ns = last->absent_batch_ns;
        x->grow_insert_ns = last->insert_ns;
        x->memory = (uint64_t)ceil(last->bits_per_key / 8.0 * (double)end);
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
            snprintf(x->why_not, sizeof x->why_not, "FPR not held: measured %.3g%% after growing x%llu (%.3g%% "
                     "asked)%s", 100 * x->grow_fpr, (unsigned long long)(UINT64_C(1) << dr), 100 * fpr,
                     fk_ops_caps(x->ops) & FK_CAP_RESIZES ? "; each doubling in place takes a remainder bit" : "");
        else if (last->stopped)
            snprintf(x->why_not, sizeof x->why_not, "cannot double %u times (its remainder runs out at %llu keys "
                     "of the run)", dr, (unsigned long long)last->keys);
    }
}

/* The growth table of the text output: each grown candidate at the end. */
static void growth_print(FILE *out, const candidate *c, size_t nc, uint64_t end, uint64_t run_n0, unsigned dr,
                         unsigned d)
{
    fprintf(out, "growth to %llu, weighed on a run from %llu keys x%llu%s (memory at the end = bits per key x "
            "%llu):\n", (unsigned long long)end, (unsigned long long)run_n0, (unsigned long long)(UINT64_C(1) << dr),
            dr < d ? " (fewer doublings than asked: FPR of the chains and quotient rises further)" : "",
            (unsigned long long)end);
    fprintf(out, "  %-16s %9s %11s %12s %10s %10s\n", "kind", "bits/key", "worst FPR", "absent ns", "batch ns",
            "insert ns");
    for (size_t i = 0; i < nc; i++)
        if (c[i].grown)
            fprintf(out, "  %-16s %9.2f %10.4f%% %12.1f %10.1f %10.1f%s\n", c[i].ops->name, c[i].grow_bits,
                    100 * c[i].grow_fpr, c[i].grow_absent_ns, c[i].grow_absent_batch_ns, c[i].grow_insert_ns,
                    c[i].why_not[0] ? "  ruled out" : "");
}

/* ---------------------------------------------------------- the JSON form */

static void json_num(FILE *out, double d)
{
    char buf[40];
    if (isnan(d) || isinf(d)) {
        fputs("null", out);
        return;
    }
    shortest(d, buf, sizeof buf);
    fputs(buf, out);
}

static void json_summary(FILE *out, const char *name, fkc_summary s)
{
    fprintf(out, ", \"%s\": {\"median\": ", name);
    json_num(out, s.median);
    fprintf(out, ", \"min\": ");
    json_num(out, s.min);
    fprintf(out, ", \"max\": ");
    json_num(out, s.max);
    fprintf(out, "}");
}

static void json_candidate(FILE *out, const candidate *c, const candidate *best, double read_ratio, uint64_t capacity)
{
    char lost[240] = "";
    if (c->why_not[0])
        snprintf(lost, sizeof lost, "%s", c->why_not);
    else if (c != best && best)
        why_lost(c, best, read_ratio, lost, sizeof lost);
    fprintf(out, "    {\"kind\": ");
    fkc_json_string(out, c->ops->name);
    fprintf(out, ", \"chosen\": %s, \"feasible\": %s, \"tied\": %s, \"reason\": ", c == best ? "true" : "false",
           c->why_not[0] ? "false" : "true", c->tied ? "true" : "false");
    if (lost[0])
        fkc_json_string(out, lost);
    else
        fputs("null", out);
    fprintf(out, ", \"can_remove\": %s, \"grows\": %s, \"bounded\": %s",
           fk_ops_caps(c->ops) & FK_CAP_REMOVE ? "true" : "false",
           fk_ops_caps(c->ops) & FK_CAP_GROWS ? "true" : "false",
           fk_ops_caps(c->ops) & FK_CAP_BOUNDED ? "true" : "false");
    if (c->sized) {
        fprintf(out, ", \"geometry\": ");
        fkc_json_string(out, c->params);
        if (c->memory == FKC_MODEL_TOO_BIG) {
            fprintf(out, ", \"memory_bytes\": null, \"bits_per_item\": null");
        } else {
            fprintf(out, ", \"memory_bytes\": %llu, \"bits_per_item\": ", (unsigned long long)c->memory);
            json_num(out, 8.0 * (double)c->memory / (double)capacity);
        }
        fprintf(out, ", \"fpr_made\": ");
        json_num(out, c->fpr);
        fprintf(out, ", \"doublings\": %u", c->doublings);
        fprintf(out, ", \"memory_exact\": %s, \"theory_fpr\": ", c->exact ? "true" : "false");
        json_num(out, c->theory);
        fprintf(out, ", \"best_fpr_in_budget\": ");
        json_num(out, c->best_fpr);
    }
    if (c->grown) {
        fprintf(out, ", \"grown\": {\"bits_per_item\": ");
        json_num(out, c->grow_bits);
        fprintf(out, ", \"worst_fpr\": ");
        json_num(out, c->grow_fpr);
        fprintf(out, ", \"absent_ns\": ");
        json_num(out, c->grow_absent_ns);
        fprintf(out, ", \"absent_batch_ns\": ");
        json_num(out, c->grow_absent_batch_ns);
        fprintf(out, ", \"insert_ns\": ");
        json_num(out, c->grow_insert_ns);
        fprintf(out, "}");
    }
    if (c->measured) {
        fprintf(out, ",\n     \"measured\": {\"n\": %llu, \"fpr\": ", (unsigned long long)c->r.n);
        json_num(out, c->r.fpr_measured);
        fprintf(out, ", \"fpr_low\": ");
        json_num(out, c->r.fpr_low);
        fprintf(out, ", \"fpr_high\": ");
        json_num(out, c->r.fpr_high);
        fprintf(out, ", \"fpr_negatives\": %llu", (unsigned long long)c->r.fpr_negatives);
        json_summary(out, "insert_ns", c->r.insert);
        json_summary(out, "lookup_absent_ns", c->r.lookup[0]);
        json_summary(out, "lookup_50_ns", c->r.lookup[2]);
        json_summary(out, "lookup_present_ns", c->r.lookup[4]);
        json_summary(out, "remove_ns", c->r.remove);
        fprintf(out, ", \"insert_failures\": %llu, \"cost_ns\": ", (unsigned long long)c->r.insert_failures);
        json_num(out, c->cost);
        fprintf(out, ", \"cost_ns_low\": ");
        json_num(out, c->cost_low);
        fprintf(out, ", \"cost_ns_high\": ");
        json_num(out, c->cost_high);
        fprintf(out, "}");
    }
    fprintf(out, "}");
}

/* ----------------------------------------------------------- the CSV file */

/* DIR/pick.csv, the data of plot 8 (plots/8_pick.gp): one row per
 * candidate that was measured, with the run info as '#' lines. Returns 0,
 * or -1 after printing why. */
/* The JSON answer's last member, "run": the provenance of the measurement
 * (both modes, sets and sliding windows, end with it). */
static void print_json_run(FILE *out, const fkc_runinfo *ri)
{
    const char *name;
    char value[2048];
    fprintf(out, "  \"run\": {");
    for (int i = 0; fkc_runinfo_field(ri, i, &name, value, sizeof value); i++) {
        fprintf(out, "%s", i ? ", " : "");
        fkc_json_string(out, name);
        fprintf(out, ": ");
        fkc_json_string(out, value);
    }
    fprintf(out, "}\n}\n");
}

static int write_csv(const char *dir, const candidate *c, size_t nc, const candidate *best, uint64_t n,
                     uint64_t capacity, double fpr, uint64_t budget, uint64_t seed)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/pick.csv", dir) >= (int)sizeof path) {
        fprintf(stderr, "filterkit pick: --out: path too long\n");
        return -1;
    }
    if (fkc_make_dirs(dir)) { /* as bench --out: the folder is made */
        fprintf(stderr, "filterkit pick: cannot create '%s': %s\n", dir, strerror(errno));
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "filterkit pick: %s: %s\n", path, strerror(errno));
        return -1;
    }
    fkc_runinfo ri;
    fkc_runinfo_fill(&ri, seed);
    const char *name;
    char value[2048];
    fprintf(f, "# filterkit pick: one row per measured candidate (plots/8_pick.gp)\n");
    for (int i = 0; fkc_runinfo_field(&ri, i, &name, value, sizeof value); i++)
        fprintf(f, "# %s: %s\n", name, value);
    fprintf(f, "kind,chosen,feasible,n,capacity,target_fpr,budget_bits_per_item,memory_bytes,bits_per_item,"
               "theory_fpr,fpr_measured,lookup50_ns,lookup50_ns_min,lookup50_ns_max,insert_ns,insert_ns_min,"
               "insert_ns_max\n");
    for (size_t i = 0; i < nc; i++) {
        const candidate *x = &c[i];
        if (!x->measured)
            continue;
        fprintf(f, "%s,%d,%d,%llu,%llu,%.6g,", x->ops->name, x == best, !x->why_not[0], (unsigned long long)n,
                (unsigned long long)capacity, fpr);
        if (budget)
            fprintf(f, "%.6g", 8.0 * (double)budget / (double)capacity);
        fprintf(f, ",%llu,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", (unsigned long long)x->memory,
                8.0 * (double)x->memory / (double)capacity, x->theory, x->r.fpr_measured, x->r.lookup[2].median,
                x->r.lookup[2].min, x->r.lookup[2].max, x->r.insert.median, x->r.insert.min, x->r.insert.max);
    }
    int bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "filterkit pick: writing %s failed\n", path);
        return -1;
    }
    fprintf(stderr, "filterkit pick: wrote %s\n", path);
    return 0;
}

/* ------------------------------------------------------ pick --window
 *
 * "Was this key seen recently?": the kinds that forget (FK_CAP_EXPIRES:
 * the library's window kind, and the benchmark's baselines, rotating-bloom,
 * apbf and apbf-best) weighed as the other kinds are -- memory from their
 * sizing, the theoretical fpr, and speed and the fpr by key age measured on
 * a stream (bench/measure/window_stream.c) -- but on a window: memory per
 * window item, lookups of keys inside the window and never seen, inserts
 * with the rotation (sweep, slice) included. The baselines cannot be built
 * by filterkit (they are the hand-made patterns a user would otherwise
 * write): they are measured and explained beside the window kind, never
 * recommended. */

/* The window is timed at no more than this many items, on a stream of
 * PICK_WINDOW_STREAM windows of distinct keys (enough for keys of every
 * age: inside the window, in the slack, expired), with at most
 * PICK_WINDOW_PROBES lookups per age band. */
#define PICK_WINDOW_MAX_MEASURED UINT64_C(1048576)
#define PICK_WINDOW_STREAM 3
#define PICK_WINDOW_PROBES UINT64_C(262144)

typedef struct {
    uint64_t window;     /* N: inserts (count window) or items per T at the peak */
    uint64_t seconds;    /* T of a time window; 0 for a count window */
    uint64_t rate;       /* --rate (items per second), 0 when --n gave N */
    uint64_t capacity;   /* what every kind is sized for */
    double   fpr, read_ratio, headroom;
    uint64_t memory, seed, repeat;
    int      deletes, counts, merges, no_timing, json;
} window_query;

typedef struct {
    const fk_ops *ops;
    int      baseline;   /* the benchmark's, not libfilterkit's */
    int      sized, measured, untimed, tied, exact;
    uint64_t memory;
    uint64_t lifetime;   /* inserts (count) a key may answer present, at most */
    double   theory;
    fkc_fpr_count band[FKC_BANDS];
    uint64_t window_checked, window_misses;
    double   outside, outside_low, outside_high; /* the worst band past the slack */
    int      worst_band;
    fkc_summary insert, absent, found, cost;
    char     why_not[240];
    char     params[160];
} window_candidate;

/* The most inserts a key of a window of n answers present for, from each
 * design's rotation: the window kind 8 ceil(n / 7), two rotating Bloom
 * filters 2n, an APBF (l + 1) ceil(n / l). 0 when unknown. */
static uint64_t window_lifetime(const fk_ops *ops, uint64_t n, double fpr)
{
    unsigned k, l;
    if (ops == &fk_window_ops)
        return FK_WINDOW_GENERATIONS * ((n + FK_WINDOW_SPAN_GENERATIONS - 1) / FK_WINDOW_SPAN_GENERATIONS);
    if (ops == &fkc_rotating_bloom_ops)
        return 2 * n;
    if ((ops == &fkc_apbf_ops || ops == &fkc_apbf_best_ops) &&
        fkc_apbf_choose(fpr, ops == &fkc_apbf_best_ops, &k, &l) == 0)
        return (uint64_t)(l + 1) * ((n + l - 1) / l);
    return 0;
}

/* Why o lost to best (both feasible), in the words of why_lost plus what a
 * window adds: how long a key outlives the window. */
static void window_why_lost(const window_candidate *o, const window_candidate *best, const window_query *q,
                            char *buf, size_t len)
{
    double mr = (double)o->memory / (double)best->memory;
    double tr = o->measured && best->measured ? o->cost.median / best->cost.median : NAN;
    size_t at = 0;
    if (o->baseline)
        at = (size_t)snprintf(buf, len, "a benchmark baseline (the hand-made pattern; filterkit cannot build it): ");
    if (at >= len)
        return;
    if (isnan(tr))
        at += (size_t)snprintf(buf + at, len - at, "%.2fx the memory of %s (by the formulas)", mr, best->ops->name);
    else if (o->tied)
        at += (size_t)snprintf(buf + at, len - at, "tied on time with %s (%.1f-%.1f vs %.1f-%.1f ns), %.2fx "
                               "its memory", best->ops->name, o->cost.min, o->cost.max, best->cost.min,
                               best->cost.max, mr);
    else
        at += (size_t)snprintf(buf + at, len - at, "%.2fx the memory and %.2fx the time per operation of %s",
                               mr, tr, best->ops->name);
    if (at < len && o->lifetime && best->lifetime && o->lifetime > best->lifetime)
        snprintf(buf + at, len - at, "; a key lives up to %.2fN (%s: %.2fN)",
                 (double)o->lifetime / (double)q->capacity, best->ops->name,
                 (double)best->lifetime / (double)q->capacity);
}

/* Times every candidate not ruled out on q->repeat streams of
 * PICK_WINDOW_STREAM windows of n_meas, and rules out (why_not) those
 * that failed on the stream, missed a key inside the window or measured
 * an fpr above the target. */
static void window_measure(window_candidate *c, size_t nc, const window_query *q, uint64_t n_meas)
{
    size_t todo = 0;
    for (size_t i = 0; i < nc; i++)
        todo += !c[i].why_not[0];
    if (!todo)
        return;
    fkc_window_cfg cfg = { n_meas, q->fpr, q->seed, PICK_WINDOW_STREAM * n_meas,
                           n_meas < PICK_WINDOW_PROBES ? n_meas : PICK_WINDOW_PROBES, 0 };
    if (cfg.probes < 1000)
        cfg.probes = 1000;
    double ins[FKC_REPEAT_MAX], abs_ns[FKC_REPEAT_MAX], fnd[FKC_REPEAT_MAX], cost[FKC_REPEAT_MAX];
    fkc_progress_begin("pick", todo * q->repeat);
    for (size_t i = 0; i < nc; i++) {
        window_candidate *x = &c[i];
        if (x->why_not[0])
            continue;
        size_t runs = 0;
        for (uint64_t r = 0; r < q->repeat; r++) {
            fkc_progress_step("%s: %llu inserts (run %llu of %llu)", x->ops->name,
                              (unsigned long long)cfg.stream, (unsigned long long)r + 1,
                              (unsigned long long)q->repeat);
            fkc_window_row row;
            fk_status s = fkc_window_run(&cfg, x->ops, 0, &row, NULL);
            if (s != FK_OK) {
                snprintf(x->why_not, sizeof x->why_not, "failed on the stream (%s%s): a key refused inside "
                         "the window is a false negative", fk_status_name(s),
                         s == FK_EFULL ? ", an insert found no room" : "");
                break;
            }
            for (int b = 0; b < FKC_BANDS; b++) {
                x->band[b].false_positives += row.present[b];
                x->band[b].negatives += row.probes[b];
            }
            x->window_checked += row.window_checked;
            x->window_misses += row.window_misses;
            ins[runs] = row.insert_ns;
            abs_ns[runs] = row.absent_ns;
            fnd[runs] = row.found_ns;
            cost[runs] = q->read_ratio * (row.absent_ns + row.found_ns) / 2 + (1 - q->read_ratio) * row.insert_ns;
            runs++;
        }
        if (x->why_not[0])
            continue;
        x->measured = 1;
        x->insert = fkc_summarize(ins, runs);
        x->absent = fkc_summarize(abs_ns, runs);
        x->found = fkc_summarize(fnd, runs);
        x->cost = fkc_summarize(cost, runs);
        /* the fpr: the worst of the bands past every design's lifetime
         * (old: aged 2N and more; never seen) */
        x->worst_band = -1;
        for (int b = FKC_BAND_OLD; b < FKC_BANDS; b++) {
            double lo, hi, rate = fkc_fpr_rate(x->band[b]);
            if (isnan(rate))
                continue;
            fkc_fpr_interval(x->band[b], &lo, &hi);
            if (x->worst_band < 0 || rate > x->outside) {
                x->worst_band = b;
                x->outside = rate, x->outside_low = lo, x->outside_high = hi;
            }
        }
        double exp_lo, exp_hi, expired = fkc_fpr_rate(x->band[FKC_BAND_EXPIRED]);
        fkc_fpr_interval(x->band[FKC_BAND_EXPIRED], &exp_lo, &exp_hi);
        /* a key aged 8N/7 .. 2N is gone from a design whose keys live at
         * most 8N/7 (the window kind, an APBF), so it must answer present
         * at most at the fpr; two rotating Bloom filters keep it by design
         * (said in why_lost, not a failure) */
        int gone = x->lifetime && 7 * (double)x->lifetime <= 8 * (double)q->capacity;
        if (x->window_misses)
            snprintf(x->why_not, sizeof x->why_not, "%llu false negatives among %llu keys checked inside the "
                     "window", (unsigned long long)x->window_misses, (unsigned long long)x->window_checked);
        else if (x->worst_band >= 0 && x->outside_low > q->fpr)
            snprintf(x->why_not, sizeof x->why_not, "measured fpr %.3g%% for %s keys, above the %.3g%% asked",
                     100 * x->outside, fkc_band_names[x->worst_band], 100 * q->fpr);
        else if (gone && !isnan(expired) && exp_lo > q->fpr)
            snprintf(x->why_not, sizeof x->why_not, "keys just past the window (aged 8N/7 to 2N) answer present "
                     "%.3g%% of the time, above the %.3g%% asked", 100 * expired, 100 * q->fpr);
    }
    fkc_progress_end();
}

static void json_window_candidate(FILE *out, const window_candidate *c, const window_candidate *best,
                                  const window_query *q)
{
    char lost[400] = "";
    if (c->why_not[0])
        snprintf(lost, sizeof lost, "%s%s", c->baseline ? "a benchmark baseline: " : "", c->why_not);
    else if (c != best && best)
        window_why_lost(c, best, q, lost, sizeof lost);
    else if (!best && c->baseline)
        snprintf(lost, sizeof lost, "a benchmark baseline (the hand-made pattern; filterkit cannot build it)");
    fprintf(out, "    {\"kind\": ");
    fkc_json_string(out, c->ops->name);
    fprintf(out, ", \"baseline\": %s, \"chosen\": %s, \"feasible\": %s, \"tied\": %s, \"reason\": ",
            c->baseline ? "true" : "false", c == best ? "true" : "false", c->why_not[0] ? "false" : "true",
            c->tied ? "true" : "false");
    if (lost[0])
        fkc_json_string(out, lost);
    else
        fputs("null", out);
    fprintf(out, ", \"can_remove\": %s", fk_ops_caps(c->ops) & FK_CAP_REMOVE ? "true" : "false");
    if (c->sized) {
        fprintf(out, ", \"geometry\": ");
        fkc_json_string(out, c->params);
        if (c->memory == FKC_MODEL_TOO_BIG) {
            fprintf(out, ", \"memory_bytes\": null, \"bits_per_window_item\": null");
        } else {
            fprintf(out, ", \"memory_bytes\": %llu, \"bits_per_window_item\": ", (unsigned long long)c->memory);
            json_num(out, 8.0 * (double)c->memory / (double)q->capacity);
        }
        fprintf(out, ", \"memory_exact\": %s, \"fpr_made\": ", c->exact ? "true" : "false");
        json_num(out, q->fpr);
        fprintf(out, ", \"theory_fpr\": ");
        json_num(out, c->theory);
        fprintf(out, ", \"lifetime\": ");
        if (c->lifetime)
            fprintf(out, "%llu", (unsigned long long)c->lifetime);
        else
            fputs("null", out);
    }
    if (c->measured) {
        fprintf(out, ",\n     \"measured\": {\"fpr\": ");
        json_num(out, c->outside);
        fprintf(out, ", \"fpr_low\": ");
        json_num(out, c->outside_low);
        fprintf(out, ", \"fpr_high\": ");
        json_num(out, c->outside_high);
        fprintf(out, ", \"bands\": {");
        for (int b = 0; b < FKC_BANDS; b++) {
            fprintf(out, "%s\"%s\": {\"probes\": %llu, \"present\": %llu}", b ? ", " : "", fkc_band_names[b],
                    (unsigned long long)c->band[b].negatives, (unsigned long long)c->band[b].false_positives);
        }
        fprintf(out, "}, \"window_checked\": %llu, \"window_misses\": %llu",
                (unsigned long long)c->window_checked, (unsigned long long)c->window_misses);
        json_summary(out, "insert_ns", c->insert);
        json_summary(out, "lookup_absent_ns", c->absent);
        json_summary(out, "lookup_found_ns", c->found);
        fprintf(out, ", \"cost_ns\": ");
        json_num(out, c->cost.median);
        fprintf(out, ", \"cost_ns_low\": ");
        json_num(out, c->cost.min);
        fprintf(out, ", \"cost_ns_high\": ");
        json_num(out, c->cost.max);
        fprintf(out, "}");
    }
    fprintf(out, "}");
}

/* `filterkit pick --window N` / `--window-seconds T`: returns the exit
 * status as fkc_pick_run. */
static int window_pick(FILE *out, window_query *q)
{
    window_candidate c[FKC_KINDS_MAX];
    size_t nc = 0;
    for (size_t i = 0; fkc_kind_at(i) && nc < FKC_KINDS_MAX; i++) {
        const fk_ops *ops = fkc_kind_at(i);
        if (!(fk_ops_caps(ops) & FK_CAP_EXPIRES))
            continue;
        window_candidate *x = &c[nc++];
        memset(x, 0, sizeof *x);
        x->ops = ops;
        x->baseline = fkc_kind_is_baseline(ops);
        x->worst_band = -1;
        x->memory = fkc_model_bytes(ops, q->capacity, q->fpr, x->params, sizeof x->params);
        x->exact = 1;
        x->lifetime = window_lifetime(ops, q->capacity, q->fpr);
        if (x->memory) {
            x->sized = 1;
            x->theory = theory_at(ops, q->capacity, q->fpr);
        }
        unsigned caps = fk_ops_caps(ops);
        if (q->deletes && !(caps & FK_CAP_REMOVE))
            snprintf(x->why_not, sizeof x->why_not, "no deletes");
        else if (q->counts && !(caps & FK_CAP_COUNT))
            snprintf(x->why_not, sizeof x->why_not, "cannot count copies of an item");
        else if (q->merges && !(caps & FK_CAP_MERGE))
            snprintf(x->why_not, sizeof x->why_not, "cannot merge two filters without the keys");
        else if (!x->sized)
            snprintf(x->why_not, sizeof x->why_not, "cannot be made for a window of %llu at this fpr",
                     (unsigned long long)q->capacity);
        else
            x->untimed = judge_fields(x->memory, x->theory, q->fpr, q->memory, x->why_not, sizeof x->why_not);
    }
    uint64_t n_meas = q->capacity < PICK_WINDOW_MAX_MEASURED ? q->capacity : PICK_WINDOW_MAX_MEASURED;
    if (!q->no_timing)
        window_measure(c, nc, q, n_meas);
    size_t nmeas = 0;
    for (size_t i = 0; i < nc; i++)
        nmeas += c[i].measured;

    /* the fastest feasible, then the smallest of those tied with it, as
     * for sets -- among the kinds filterkit builds; a baseline is measured
     * and explained, never recommended */
    window_candidate *best = NULL, *fastest = NULL;
    for (size_t i = 0; i < nc; i++)
        if (!c[i].why_not[0] && !c[i].baseline && c[i].measured &&
            (!fastest || c[i].cost.median < fastest->cost.median))
            fastest = &c[i];
    size_t ties = 0;
    for (size_t i = 0; i < nc; i++) {
        window_candidate *x = &c[i];
        if (x->why_not[0] || !x->sized)
            continue;
        if (fastest && x != fastest &&
            (x->cost.median <= fastest->cost.median * PICK_SPEED_SLACK || x->cost.min <= fastest->cost.max)) {
            x->tied = 1;
            ties += !x->baseline;
        }
        if (!x->baseline && (fastest ? x == fastest || x->tied : q->no_timing))
            if (!best || x->memory < best->memory)
                best = x;
    }
    if (ties)
        fastest->tied = 1;
    size_t libs = 0;
    for (size_t i = 0; i < nc; i++)
        libs += !c[i].baseline && !c[i].why_not[0];
    char decided[400] = "";
    if (best && libs == 1)
        snprintf(decided, sizeof decided, "the only sliding-window kind of filterkit that qualifies; the "
                 "baselines, the patterns one builds by hand, are %s beside it below",
                 nmeas ? "measured" : "sized");
    else if (best && !fastest)
        snprintf(decided, sizeof decided, "the smallest that qualifies, by the sizing formulas alone "
                 "(--no-timing: nothing timed)");
    else if (best && !ties)
        snprintf(decided, sizeof decided, "the fastest at read ratio %.2f", q->read_ratio);
    else if (best)
        snprintf(decided, sizeof decided, "tied on time with the fastest (within %.2fx or overlapping over the "
                 "runs); the tie goes to the least memory", PICK_SPEED_SLACK);

    char fpr_text[40], self[4200], dedup_line[4600] = "", c_line[400] = "", py_line[240] = "";
    shortest(q->fpr, fpr_text, sizeof fpr_text);
    runnable_name(self, sizeof self);
    if (best) {
        char secs[48] = "";
        if (q->seconds)
            snprintf(secs, sizeof secs, " --window-seconds %llu", (unsigned long long)q->seconds);
        snprintf(dedup_line, sizeof dedup_line, "%s dedup --kind %s --fpr %s --capacity %llu%s seen.fk < lines > new-lines",
                 self, best->ops->name, fpr_text, (unsigned long long)q->capacity, secs);
        if (q->seconds) {
            snprintf(c_line, sizeof c_line, "fk_params p = fk_params_make(%llu, %s); p.clock = FK_CLOCK_UNIX_NS; "
                     "fk_window *w = NULL; fk_status s = fk_window_new_time(&p, %llu /* T in ns */, &w); "
                     "/* fk_window_advance(fk_window_as_filter(w), Unix ns: CLOCK_REALTIME) before each insert */",
                     (unsigned long long)q->capacity, fpr_text, (unsigned long long)(q->seconds * UINT64_C(1000000000)));
            snprintf(py_line, sizeof py_line, "w = filterkit.Window(capacity=%llu, fpr=%s, span=%llu)  "
                     "# T in ns, Unix time: w.advance() (time.time_ns()) before each add", (unsigned long long)q->capacity,
                     fpr_text, (unsigned long long)(q->seconds * UINT64_C(1000000000)));
        } else {
            snprintf(c_line, sizeof c_line, "fk_params p = fk_params_make(%llu, %s); fk_filter *f = NULL; "
                     "fk_status s = fk_filter_new(fk_ops_find(\"%s\"), &p, &f);",
                     (unsigned long long)q->capacity, fpr_text, best->ops->name);
            snprintf(py_line, sizeof py_line, "w = filterkit.Window(capacity=%llu, fpr=%s)",
                     (unsigned long long)q->capacity, fpr_text);
        }
    }
    /* the floor: no structure answers "in the window?" at fpr e with fewer
     * than about log2(1/e) + log2(e) bits per window item */
    double floor_bits = log2(1 / q->fpr) + log2(exp(1.0));

    if (q->json) {
        fkc_runinfo ri;
        fkc_runinfo_fill(&ri, q->seed);
        fprintf(out, "{\n  \"query\": {\"window\": %llu, \"window_seconds\": ", (unsigned long long)q->window);
        if (q->seconds)
            fprintf(out, "%llu", (unsigned long long)q->seconds);
        else
            fputs("null", out);
        fprintf(out, ", \"rate\": ");
        if (q->rate)
            fprintf(out, "%llu", (unsigned long long)q->rate);
        else
            fputs("null", out);
        fprintf(out, ", \"fpr\": %s, \"deletes\": %s, \"counts\": %s, \"merges\": %s, \"memory_budget\": ", fpr_text,
                q->deletes ? "true" : "false", q->counts ? "true" : "false", q->merges ? "true" : "false");
        if (q->memory)
            fprintf(out, "%llu", (unsigned long long)q->memory);
        else
            fputs("null", out);
        fprintf(out, ", \"headroom\": ");
        json_num(out, q->headroom);
        fprintf(out, ", \"capacity\": %llu, \"read_ratio\": ", (unsigned long long)q->capacity);
        json_num(out, q->read_ratio);
        fprintf(out, ", \"keys\": \"u64\", \"repeat\": %llu, \"seed\": %llu, \"no_timing\": %s, \"timed_at_n\": %llu, "
                "\"stream\": %llu},\n", (unsigned long long)q->repeat, (unsigned long long)q->seed,
                q->no_timing ? "true" : "false", (unsigned long long)(nmeas ? n_meas : 0),
                (unsigned long long)(nmeas ? PICK_WINDOW_STREAM * n_meas : 0));
        fprintf(out, "  \"recommendation\": ");
        if (best) {
            fprintf(out, "{\"kind\": ");
            fkc_json_string(out, best->ops->name);
            fprintf(out, ", \"capacity\": %llu, \"fpr\": %s, \"window_seconds\": ", (unsigned long long)q->capacity,
                    fpr_text);
            if (q->seconds)
                fprintf(out, "%llu", (unsigned long long)q->seconds);
            else
                fputs("null", out);
            fprintf(out, ", \"memory_bytes\": %llu, \"bits_per_window_item\": ", (unsigned long long)best->memory);
            json_num(out, 8.0 * (double)best->memory / (double)q->capacity);
            fprintf(out, ", \"build\": ");
            fkc_json_string(out, dedup_line);
            fprintf(out, ", \"c\": ");
            fkc_json_string(out, c_line);
            fprintf(out, ", \"python\": ");
            if (py_line[0])
                fkc_json_string(out, py_line);
            else
                fputs("null", out);
            fprintf(out, ", \"decided_by\": ");
            fkc_json_string(out, decided);
            fprintf(out, "},\n");
        } else {
            fprintf(out, "null,\n");
        }
        fprintf(out, "  \"floor_bits_per_window_item\": ");
        json_num(out, floor_bits);
        fprintf(out, ",\n  \"candidates\": [\n");
        for (size_t i = 0; i < nc; i++) {
            json_window_candidate(out, &c[i], best, q);
            fprintf(out, "%s\n", i + 1 < nc ? "," : "");
        }
        fprintf(out, "  ],\n");
        print_json_run(out, &ri);
        if (!best)
            fprintf(stderr, "filterkit pick: no sliding-window filter meets these constraints (see \"reason\")\n");
        return best ? 0 : 1;
    }

    char budget[32] = "any";
    if (q->memory)
        fkc_human_bytes(q->memory, budget, sizeof budget);
    if (q->seconds)
        fprintf(out, "filterkit pick --window-seconds %llu: seen in the last %llu s, up to %llu items per window"
                "%s, fpr=%.3g%%, memory budget: %s, read ratio %.2f\n", (unsigned long long)q->seconds,
                (unsigned long long)q->seconds, (unsigned long long)q->window, q->rate ? " (--rate x T)" : "",
                100 * q->fpr, budget, q->read_ratio);
    else
        fprintf(out, "filterkit pick --window %llu: seen among the last %llu inserts, fpr=%.3g%%, memory budget: %s, "
                "read ratio %.2f\n", (unsigned long long)q->window, (unsigned long long)q->window, 100 * q->fpr,
                budget, q->read_ratio);
    if (q->seconds)
        fprintf(out, "sized for: %llu items per %llu s = the peak + %.3g%% headroom (--headroom); a burst past it "
                "is refused (FK_EFULL), never a key inside the window forgotten\n", (unsigned long long)q->capacity,
                (unsigned long long)q->seconds, 100 * q->headroom);
    if (nmeas)
        fprintf(out, "(timed on a window of %llu: a stream of %llu distinct u64 keys, lookups of keys inside "
                "the window and never seen, %s%llu run%s%s)\n\n", (unsigned long long)n_meas,
                (unsigned long long)(PICK_WINDOW_STREAM * n_meas), q->repeat > 1 ? "median of " : "",
                (unsigned long long)q->repeat, q->repeat > 1 ? "s" : "",
                q->seconds ? "; the baselines as count windows, they have no clock" : "");
    else
        fprintf(out, "(nothing timed: %s)\n\n", q->no_timing ? "--no-timing" : "the sizing formulas rule every kind out");

    if (!best) {
        fprintf(stderr, "filterkit pick: no sliding-window filter meets these constraints.\n");
        for (size_t i = 0; i < nc; i++)
            fprintf(stderr, "  %s: %s%s\n", c[i].ops->name, c[i].baseline ? "(a benchmark baseline) " : "",
                    c[i].why_not[0] ? c[i].why_not : "qualifies, but filterkit cannot build it");
        return 1;
    }
    char mem[32];
    fkc_human_bytes(best->memory, mem, sizeof mem);
    fprintf(out, "recommend: %s\n", best->ops->name);
    fprintf(out, "  dedup:      %s\n", dedup_line);
    fprintf(out, "  C:          %s\n", c_line);
    if (py_line[0])
        fprintf(out, "  Python:     %s\n", py_line);
    if (best->params[0])
        fprintf(out, "  geometry:   %s\n", best->params);
    fprintf(out, "  memory:     %s (%.2f bits per window item; the floor is log2(1/fpr) + log2(e) = %.2f)\n", mem,
            8.0 * (double)best->memory / (double)q->capacity, floor_bits);
    if (q->seconds)
        fprintf(out, "  promise:    every key added in the last %llu s answers present; one answers present at most "
                "%llu s after its last add (slack T/7)\n", (unsigned long long)q->seconds,
                (unsigned long long)((8 * q->seconds + 6) / 7));
    else if (best->lifetime)
        fprintf(out, "  promise:    every key among the last %llu inserts answers present; one answers present for "
                "at most %llu inserts after its last add (slack %llu, N/7)\n", (unsigned long long)q->capacity,
                (unsigned long long)best->lifetime, (unsigned long long)(best->lifetime - q->capacity));
    if (best->measured) {
        fprintf(out, "  measured:   fpr %.3g%% (%s keys; theory %.3g%%), keys just past the window %.3g%%, "
                "%llu keys checked inside the window, %llu missed; insert %.1f ns, lookup %.1f ns (never seen), "
                "%.1f ns (in the window)\n", 100 * best->outside,
                best->worst_band >= 0 ? fkc_band_names[best->worst_band] : "-", 100 * best->theory,
                100 * fkc_fpr_rate(best->band[FKC_BAND_EXPIRED]), (unsigned long long)best->window_checked,
                (unsigned long long)best->window_misses, best->insert.median, best->absent.median,
                best->found.median);
        fprintf(out, "  cost:       %.1f ns per operation at read ratio %.2f (%.1f-%.1f over the %llu run%s)\n",
                best->cost.median, q->read_ratio, best->cost.min, best->cost.max, (unsigned long long)q->repeat,
                q->repeat > 1 ? "s" : "");
    }
    fprintf(out, "  decided:    %s\n", decided);
    if (nmeas) {
        fprintf(out, "measured at read ratio %.2f (ns: median, min-max of the runs; fpr: the worst of old and "
                "never-seen keys; 'past': keys aged 8N/7 to 2N):\n", q->read_ratio);
        fprintf(out, "  %-16s %7s %13s %8s %8s %7s %7s\n", "kind", "cost", "min-max", "fpr", "past", "insert", "lookup");
        for (size_t i = 0; i < nc; i++) {
            const window_candidate *x = &c[i];
            if (!x->measured)
                continue;
            char range[64];
            snprintf(range, sizeof range, "%.1f-%.1f", x->cost.min, x->cost.max);
            fprintf(out, "  %-16s %7.1f %13s %7.3f%% %7.3f%% %7.1f %7.1f%s\n", x->ops->name, x->cost.median, range,
                    100 * x->outside, 100 * fkc_fpr_rate(x->band[FKC_BAND_EXPIRED]), x->insert.median,
                    (x->absent.median + x->found.median) / 2,
                    x == best ? "  chosen" : x->baseline ? "  baseline" : x->tied ? "  tied" : "");
        }
    }
    fprintf(out, "why not the others:\n");
    for (size_t i = 0; i < nc; i++) {
        const window_candidate *o = &c[i];
        if (o == best)
            continue;
        char why[400];
        if (o->why_not[0])
            snprintf(why, sizeof why, "%s%s", o->baseline ? "a benchmark baseline: " : "", o->why_not);
        else
            window_why_lost(o, best, q, why, sizeof why);
        fprintf(out, "  %s: %s%s\n", o->ops->name, why, o->untimed ? " (by the formulas: not timed)" : "");
    }
    fprintf(out, "bits per window item at fpr %.3g%% (sizing formulas; floor %.2f):\n", 100 * q->fpr, floor_bits);
    for (size_t i = 0; i < nc; i++) {
        if (!c[i].sized || c[i].memory == FKC_MODEL_TOO_BIG)
            continue;
        fprintf(out, "  %-16s %6.2f", c[i].ops->name, 8.0 * (double)c[i].memory / (double)q->capacity);
        if (c[i].lifetime)
            fprintf(out, "   keys live %.3gN at most", (double)c[i].lifetime / (double)q->capacity);
        fputc('\n', out);
    }
    return 0;
}

/* ------------------------------------------------------------ the command */

int fkc_pick_run(FILE *out, int argc, char **argv)
{
    uint64_t n = 0, memory = 0, seed = 1, repeat = 3, window = 0, window_seconds = 0, rate = 0;
    double fpr = 0, read_ratio = 0.9, headroom = -1; /* -1: not given */
    int deletes = 0, uncertain = 0, binary_lines = 0, is_static = 0, counts = 0, merges = 0, no_timing = 0;
    uint64_t grow_to = 0;
    const char *keys = "u64", *format = "text", *out_dir = NULL;
    /* the kinds named in the help come from the registry, by capability */
    char statics[256], resizers[256], static_help[400], grow_help[400];
    fkc_kinds_with(FK_CAP_STATIC, statics, sizeof statics);
    fkc_kinds_with(FK_CAP_RESIZES, resizers, sizeof resizers);
    snprintf(static_help, sizeof static_help, "the whole set is known before the first lookup and "
             "never changes (admits static kinds: %s)", statics);
    snprintf(grow_help, sizeof grow_help, "the set starts at n and grows to N later, without the keys: "
             "a growing kind, or one that doubles in place (%s), made to reach the fpr at N", resizers);
    const fkc_opt opts[] = {
        { "n", FKC_OPT_COUNT, &n, "N", "items the filter must hold, e.g. 10M or 1B (required but with --window; "
          "with --window-seconds: the items one window brings at the peak)" },
        { "fpr", FKC_OPT_FPR, &fpr, "P", "largest acceptable false-positive rate, e.g. 0.1% (required)" },
        { "window", FKC_OPT_COUNT, &window, "N", "a sliding window: \"seen among the last N inserts\"; weighs the "
          "kinds that forget (window) and the baselines (rotating-bloom, apbf, apbf-best)" },
        { "window-seconds", FKC_OPT_COUNT, &window_seconds, "T", "a time window: \"seen in the last T seconds\", "
          "with --n (items per T at the peak) or --rate" },
        { "rate", FKC_OPT_COUNT, &rate, "R", "--window-seconds: items per second at the peak (N = R x T)" },
        { "deletes", FKC_OPT_FLAG, &deletes, NULL, "items must be removable" },
        { "static", FKC_OPT_FLAG, &is_static, NULL, static_help },
        { "counts", FKC_OPT_FLAG, &counts, NULL, "the filter must count each item's copies (fk_filter_count)" },
        { "merges", FKC_OPT_FLAG, &merges, NULL, "two filters must merge into one without the keys (fk_filter_merge)" },
        { "memory", FKC_OPT_BYTES, &memory, "BYTES", "memory budget (e.g. 64M, 1GiB); default: none" },
        { "headroom", FKC_OPT_RATIO, &headroom, "R", "share of n to be added later (default: 25%; 0 for a fixed set)" },
        { "n-uncertain", FKC_OPT_FLAG, &uncertain, NULL, "n is a guess: weigh the kinds that grow (expandable, scalable-*, quotient in place) over a 1024-fold growth" },
        { "grow-to", FKC_OPT_COUNT, &grow_to, "N", grow_help },
        { "read-ratio", FKC_OPT_RATIO, &read_ratio, "R", "share of operations that are lookups (default: 0.9)" },
        { "keys", FKC_OPT_STR, &keys, "u64|str|FILE", "key type to measure with; a FILE of - is stdin (default: u64)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "--keys FILE: keep a '\\r' before the '\\n' as part of the key" },
        { "repeat", FKC_OPT_REPEAT, &repeat, "R", "timed runs per figure; the spread of the runs decides ties (default: 3)" },
        { "no-timing", FKC_OPT_FLAG, &no_timing, NULL, "time nothing: the smallest kind the sizing formulas admit wins" },
        { "seed", FKC_OPT_U64, &seed, "S", "seed of the keys and of the hash (default: 1)" },
        { "format", FKC_OPT_CHOICE, &format, "text|json", "text for people, or the whole decision as JSON (default: text)" },
        { "out", FKC_OPT_STR, &out_dir, "DIR", "also write DIR/pick.csv, the data of plot 8 (default: none)" },
        { NULL, 0, NULL, NULL, NULL },
    };
    char about[4096];
    snprintf(about, sizeof about,
        "Measures each built-in filter briefly (at most 2M items; memory is extrapolated\n"
        "exactly from the sizing formulas) and recommends the one that is fastest for the\n"
        "read ratio. Kinds tied with the fastest (within 1.25x of it, or whose cost over\n"
        "the --repeat runs, min to max, overlaps its own) count as as fast, and the one\n"
        "with the least memory wins; the output shows each cost's spread and says which\n"
        "rule decided. Kinds the formulas rule out (over --memory, lacking a required\n"
        "capability) are listed with their reason and not timed (unless --out, for plot 8).\n"
        "Every kind is sized for n plus the headroom (--headroom, default 25%%), so the\n"
        "filter built by the printed line takes the n keys and later 'filterkit add's of\n"
        "that many more; with --n-uncertain it recommends a growing kind instead.\n"
        "With --n-uncertain or --grow-to, the kinds that grow (expandable, the scalable-*\n"
        "chains) or double in place (quotient) are weighed at the end of the growth\n"
        "(--grow-to N, else 1024 n): each runs the growth workload of 'bench --workload\n"
        "growth' scaled to at most 2M keys over the same doublings; the worst FPR over the\n"
        "doublings must stay at the target (a quotient filter made for n gives a bit per\n"
        "doubling), memory is bits per key at the end times N, and the cost is absent\n"
        "lookups at the end and inserts over the growth at the read ratio.\n"
        "With --grow-to N the filter starts at n and must reach N items without the\n"
        "keys: a growing kind (scalable-*: it adds sub-filters by itself) or one that\n"
        "doubles in place (%s: each fk_filter_grow doubles its slots and its fpr,\n"
        "so it is made with fpr P / 2^g for the g doublings that reach N); a fixed kind\n"
        "would have to be sized for N now or rebuilt from the keys. Memory is at n.\n"
        "It ends in the 'filterkit build' line, the C and the Python calls, and the best\n"
        "fpr each kind reaches within the memory budget (or the recommended filter's\n"
        "memory). --format json prints the whole decision: every candidate, its sizes,\n"
        "measured figures (median, min and max of the runs) and why it lost.\n"
        "A static kind (%s) is built once from the whole set: it is a candidate only\n"
        "with --static (the set is known up front and never changes), and its build\n"
        "time per key stands in for the insert time in the cost, so a low read ratio\n"
        "weighs its build.\n"
        "With --window N (\"was this key among the last N inserts?\") or --window-seconds T\n"
        "and --n or --rate (\"... in the last T seconds?\", sized for the peak: N items\n"
        "per T plus --headroom), it weighs the kinds that forget instead: the window\n"
        "kind and the benchmark's baselines, two rotating Bloom filters and the\n"
        "age-partitioned Bloom filter (default and best (k, l)), by bits per window item,\n"
        "fpr for keys past the window (measured per key age on a stream of 3 windows of\n"
        "distinct keys) and speed; the baselines are explained, never recommended\n"
        "(filterkit cannot build them). It ends in the 'filterkit dedup' line.\n"
        "Exit status 1 when no filter meets the constraints.", resizers, statics);
    const fkc_cmd_spec spec = {
        "pick", "--n N --fpr P | --window N --fpr P | --window-seconds T (--n N | --rate R) --fpr P [--deletes] [--static] [--counts] [--merges] [--memory BYTES] [--headroom R] [--n-uncertain] [--grow-to N] "
                "[--read-ratio R] [--keys u64|str|FILE] [--repeat R] [--no-timing] [--format text|json] [--out DIR]",
        about,
        opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (window || window_seconds) {
        if (fpr == 0)
            return fkc_args_fail(&spec, "missing --fpr P");
        if (window && window_seconds)
            return fkc_args_fail(&spec, "--window N and --window-seconds T: give one (a count or a time window)");
        if (window && (n || rate))
            return fkc_args_fail(&spec, "--window N is the window's size: no --n or --rate");
        if (window && headroom >= 0)
            return fkc_args_fail(&spec, "--headroom: a count window holds exactly its last N inserts (headroom "
                                        "is for a time window's peak rate)");
        if (window_seconds && !n == !rate)
            return fkc_args_fail(&spec, "--window-seconds T: give the items per window, --n N, or the rate, --rate R");
        if (is_static || uncertain || grow_to || out_dir || strcmp(keys, "u64") != 0)
            return fkc_args_fail(&spec, "--window: not with %s", is_static ? "--static (a window changes all the time)"
                                 : uncertain || grow_to ? "--n-uncertain or --grow-to (a window's size is its N)"
                                 : out_dir ? "--out (the window figures: filterkit bench --workload window --out)"
                                 : "--keys (a window is timed on its own stream of distinct u64 keys)");
        if (window_seconds > UINT64_MAX / UINT64_C(1000000000))
            return fkc_args_fail(&spec, "--window-seconds: at most %llu (the clock counts nanoseconds in 64 bits)",
                                 (unsigned long long)(UINT64_MAX / UINT64_C(1000000000)));
        window_query q = { 0 };
        q.seconds = window_seconds;
        q.rate = rate;
        if (rate && (double)rate * (double)window_seconds > (double)FKC_COUNT_MAX)
            return fkc_args_fail(&spec, "--rate x --window-seconds: at most 2^48 items per window");
        q.window = window ? window : n ? n : rate * window_seconds;
        q.headroom = window ? 0 : headroom >= 0 ? headroom : PICK_DEFAULT_HEADROOM;
        double want = ceil((double)q.window * (1 + q.headroom));
        if (want > (double)FKC_COUNT_MAX)
            return fkc_args_fail(&spec, "the window with --headroom: at most 2^48 items");
        q.capacity = (uint64_t)want;
        q.fpr = fpr, q.read_ratio = read_ratio, q.memory = memory, q.seed = seed, q.repeat = repeat;
        q.deletes = deletes, q.counts = counts, q.merges = merges, q.no_timing = no_timing;
        q.json = strcmp(format, "json") == 0;
        return window_pick(out, &q);
    }
    if (rate)
        return fkc_args_fail(&spec, "--rate R: only with --window-seconds T");
    if (!n)
        return fkc_args_fail(&spec, "missing --n N");
    if (fpr == 0)
        return fkc_args_fail(&spec, "missing --fpr P");
    if (headroom < 0)
        headroom = PICK_DEFAULT_HEADROOM;
    if (grow_to && grow_to <= n)
        return fkc_args_fail(&spec, "--grow-to N: N must be more than --n");
    if (grow_to && (uncertain || is_static))
        return fkc_args_fail(&spec, uncertain ? "--grow-to N and --n-uncertain: give one (a known bound, or none)"
                                              : "--grow-to N and --static: a static set never grows");
    int json = strcmp(format, "json") == 0;
    fkc_keyspec ks = { FKC_KEYS_U64, NULL, seed, binary_lines };
    if (fkc_keyspec_parse(keys, &ks))
        return fkc_args_fail(&spec, "--keys: expected u64, str or a file name");
    ks.seed = seed;
    /* what the filter is sized for: n and what will be added later (a
     * growing kind starts at n and grows past it); a static set never
     * changes, so it has nothing to add later */
    if (is_static)
        headroom = 0;
    int grows = uncertain || grow_to; /* starts at n, grows past it */
    if (grow_to)
        headroom = 0; /* the growth is the room for later adds */
    double want = ceil((double)n * (1 + (grows ? 0 : headroom)));
    if (want > (double)FKC_COUNT_MAX)
        return fkc_args_fail(&spec, "--n with --headroom: at most 2^48 items");
    uint64_t capacity = (uint64_t)want;

    candidate c[FKC_KINDS_MAX];
    size_t nc = 0;
    for (size_t i = 0; fk_ops_at(i) && nc < FKC_KINDS_MAX; i++) {
        memset(&c[nc], 0, sizeof c[nc]);
        c[nc].best_fpr = NAN;
        c[nc].fpr = fpr;
        c[nc++].ops = fk_ops_at(i);
    }
    /* What the formulas rule out needs no measurement: too big for the
     * constructor or the budget, or a theory above the target. */
    size_t nmeas = 0;
    fkc_measure_cfg cfg[FKC_KINDS_MAX];
    size_t which[FKC_KINDS_MAX];
    for (size_t i = 0; i < nc; i++) {
        unsigned caps = fk_ops_caps(c[i].ops);
        if (grow_to && (caps & FK_CAP_RESIZES)) {
            /* g doublings take capacity past grow_to; each doubles the fpr */
            while (c[i].doublings < 48 && ldexp((double)capacity, (int)c[i].doublings) < (double)grow_to)
                c[i].doublings++;
            c[i].fpr = ldexp(fpr, -(int)c[i].doublings);
        }
        c[i].memory = fkc_model_bytes(c[i].ops, capacity, c[i].fpr, c[i].params, sizeof c[i].params);
        if (c[i].memory) {
            c[i].sized = 1;
            c[i].theory = theory_at(c[i].ops, capacity, c[i].fpr);
        }
        if (caps & FK_CAP_EXPIRES) {
            /* it answers for a sliding window, not for a set */
            snprintf(c[i].why_not, sizeof c[i].why_not, "forgets: a key leaves after a window of inserts "
                     "(for \"seen recently\", pick --window N)");
            continue;
        }
        if (deletes && !(caps & FK_CAP_REMOVE)) {
            snprintf(c[i].why_not, sizeof c[i].why_not, "no deletes");
            continue;
        }
        if (grow_to && !(caps & (FK_CAP_GROWS | FK_CAP_RESIZES))) {
            snprintf(c[i].why_not, sizeof c[i].why_not,
                     "fixed size: it cannot grow to %llu items without the keys (size it for them "
                     "now with --n, or rebuild it from the keys)", (unsigned long long)grow_to);
            continue;
        }
        if (!is_static && (fk_ops_caps(c[i].ops) & FK_CAP_STATIC)) {
            snprintf(c[i].why_not, sizeof c[i].why_not,
                     "static: built once from the whole set, never added to (give --static "
                     "when the set is known up front)");
            continue;
        }
        if (counts && !(fk_ops_caps(c[i].ops) & FK_CAP_COUNT)) {
            snprintf(c[i].why_not, sizeof c[i].why_not, "cannot count copies of an item");
            continue;
        }
        if (merges && !(fk_ops_caps(c[i].ops) & FK_CAP_MERGE)) {
            snprintf(c[i].why_not, sizeof c[i].why_not, "cannot merge two filters without the keys");
            continue;
        }
        if ((caps & FK_CAP_GROWS) && !grows) {
            snprintf(c[i].why_not, sizeof c[i].why_not,
                     "grows when n is unknown (--n-uncertain); with n known its inner kind sized "
                     "for n needs less memory and one lookup instead of one per sub-filter");
            continue;
        }
        if (!(caps & (FK_CAP_GROWS | FK_CAP_RESIZES)) && uncertain) {
            snprintf(c[i].why_not, sizeof c[i].why_not, "n is uncertain: past its capacity a fixed "
                     "filter %s", (caps & FK_CAP_BOUNDED) ? "refuses inserts (FK_EFULL)"
                                                          : "loses its false-positive rate");
            continue;
        }
        /* over the budget is known from the formulas: not timed, unless
         * for plot 8 (--out), which shows every kind beside the budget line */
        if (c[i].sized)
            c[i].untimed = judge(&c[i], c[i].fpr, out_dir ? 0 : memory);
        if (!c[i].why_not[0] && !no_timing && !grows) { /* growth mode: growth_weigh */
            cfg[nmeas] = (fkc_measure_cfg){ c[i].ops, c[i].fpr, (unsigned)repeat, 0, 0, 0 };
            which[nmeas++] = i;
        }
    }
    uint64_t n_meas = capacity < PICK_MAX_MEASURED ? capacity : PICK_MAX_MEASURED;
    if (nmeas) {
        fkc_bench_keys bk;
        char err[256];
        fkc_progress_begin("pick", 1 + nmeas * repeat);
        fkc_progress_step("generating %llu keys", (unsigned long long)n_meas);
        if (fkc_bench_keys_make(&ks, n_meas, fpr, 0, &bk, err, sizeof err)) {
            fkc_progress_end();
            fprintf(stderr, "filterkit pick: %s\n", err);
            return 1;
        }
        n_meas = bk.n;
        fkc_result rows[FKC_KINDS_MAX];
        fk_status st[FKC_KINDS_MAX];
        fkc_measure_kinds(cfg, nmeas, &bk, rows, st);
        for (size_t j = 0; j < nmeas; j++) {
            candidate *x = &c[which[j]];
            x->r = rows[j];
            if (st[j] != FK_OK) {
                snprintf(x->why_not, sizeof x->why_not, "cannot be built at this fpr (%s)", fk_strerror(st[j]));
                continue;
            }
            x->measured = x->sized = 1;
            x->memory = fkc_model_extrapolate(x->ops, x->fpr, n_meas, x->r.memory_bytes, capacity, &x->exact);
            x->theory = fkc_model_fpr(x->ops, capacity, x->fpr, x->r.fpr_theory);
            x->cost = read_ratio * x->r.lookup[2].median + (1 - read_ratio) * x->r.insert.median;
            x->cost_low = read_ratio * x->r.lookup[2].min + (1 - read_ratio) * x->r.insert.min;
            x->cost_high = read_ratio * x->r.lookup[2].max + (1 - read_ratio) * x->r.insert.max;
            if (x->r.insert_failures)
                snprintf(x->why_not, sizeof x->why_not, "%llu of %llu inserts failed at this size",
                         (unsigned long long)x->r.insert_failures, (unsigned long long)n_meas);
            else if (!judge(x, x->fpr, memory) && x->r.fpr_low > x->fpr)
                snprintf(x->why_not, sizeof x->why_not, "measured fpr %.3g%% is above the %.3g%% asked",
                         100 * x->r.fpr_measured, 100 * x->fpr);
        }
        fkc_bench_keys_free(&bk);
        fkc_progress_end();
    }

    uint64_t end = grow_to ? grow_to : capacity * PICK_UNCERTAIN_GROWTH, run_n0 = 0;
    unsigned run_doublings = 0;
    if (grows && no_timing) {
        /* nothing is run, but the formula already answers for a table that
         * doubles in place (FK_CAP_RESIZES without FK_CAP_GROWS): each
         * doubling takes a remainder bit, so its fpr doubles each time;
         * ranked by its memory at n it looked smallest (the timed run,
         * which measures it, rules it out) */
        unsigned d = doublings_to(capacity, end);
        for (size_t i = 0; i < nc; i++) {
            candidate *x = &c[i];
            unsigned caps = fk_ops_caps(x->ops);
            if (!x->why_not[0] && d && (caps & FK_CAP_RESIZES) && !(caps & FK_CAP_GROWS))
                snprintf(x->why_not, sizeof x->why_not, "FPR not held: x%.0f by formula after %u doublings in "
                         "place (each takes a remainder bit)", ldexp(1.0, (int)d), d);
        }
    }
    if (grows && !no_timing) {
        fkc_progress_begin("pick", nc);
        growth_weigh(c, nc, capacity, end, fpr, read_ratio, seed, &run_n0, &run_doublings);
        fkc_progress_end();
        for (size_t i = 0; i < nc; i++)
            if (c[i].grown && !c[i].why_not[0])
                (void)judge(&c[i], c[i].fpr, memory); /* the budget, against the memory at the end */
    }

    /* The fastest feasible, then the smallest of those tied with it on
     * time: within PICK_SPEED_SLACK of it, or whose min..max over the runs
     * overlaps its own. --no-timing: the smallest feasible. */
    const candidate *best = NULL;
    candidate *fastest = NULL;
    size_t ties = 0;
    for (size_t i = 0; i < nc; i++)
        if (!c[i].why_not[0] && c[i].measured && (!fastest || c[i].cost < fastest->cost))
            fastest = &c[i];
    for (size_t i = 0; i < nc; i++) {
        candidate *x = &c[i];
        if (x->why_not[0] || !x->sized)
            continue;
        if (fastest && x != fastest &&
            (x->cost <= fastest->cost * PICK_SPEED_SLACK || x->cost_low <= fastest->cost_high)) {
            x->tied = 1;
            ties++;
        }
        if (fastest ? x == fastest || x->tied : no_timing)
            if (!best || x->memory < best->memory)
                best = x;
    }
    if (ties)
        fastest->tied = 1;
    char decided[400] = "";
    if (best && !fastest) {
        snprintf(decided, sizeof decided, "the smallest that qualifies, by the sizing formulas alone "
                 "(--no-timing: nothing timed)");
    } else if (best && !ties) {
        snprintf(decided, sizeof decided, "the fastest at read ratio %.2f; no other kind is within %.2fx of "
                 "it or within its spread over the runs (%.1f-%.1f ns)", read_ratio, PICK_SPEED_SLACK,
                 fastest->cost_low, fastest->cost_high);
    } else if (best) {
        size_t at = (size_t)snprintf(decided, sizeof decided, "tied on time:");
        for (size_t i = 0; i < nc && at < sizeof decided; i++)
            if (c[i].tied)
                at += (size_t)snprintf(decided + at, sizeof decided - at, " %s %.1f (%.1f-%.1f)", c[i].ops->name,
                                       c[i].cost, c[i].cost_low, c[i].cost_high);
        if (at < sizeof decided)
            snprintf(decided + at, sizeof decided - at, " ns per operation (median, min-max of the runs: "
                     "they overlap or are within %.2fx); the tie goes to the least memory: %s", PICK_SPEED_SLACK,
                     best->ops->name);
    }
    /* the best fpr of each kind within the budget (or the recommendation's
     * memory): what the same bytes buy from each */
    uint64_t budget_for_best = memory ? memory : best ? best->memory : 0;
    for (size_t i = 0; i < nc && budget_for_best; i++)
        if (c[i].sized && !c[i].doublings && !grows && !(fk_ops_caps(c[i].ops) & FK_CAP_EXPIRES))
            c[i].best_fpr = best_fpr_within(c[i].ops, capacity, budget_for_best);

    if (out_dir && strcmp(out_dir, "-") != 0 &&
        write_csv(out_dir, c, nc, best, n, capacity, fpr, memory ? memory : budget_for_best, seed) != 0)
        return 1;

    char fpr_text[40], budget[32] = "any";
    shortest(fpr, fpr_text, sizeof fpr_text);
    if (memory)
        fkc_human_bytes(memory, budget, sizeof budget);
    char build_line[4600] = "", c_line[400] = "", py_line[200] = "", grow_line[300] = "";
    char made_text[40] = "";
    if (best) {
        shortest(best->fpr, made_text, sizeof made_text); /* what it is made with */
        if (best->doublings) {
            /* grown g times it is the table made for 2^g capacity at the
             * target (one remainder bit fewer per doubling) */
            uint64_t grown = (uint64_t)ldexp((double)capacity, (int)best->doublings);
            char grown_mem[32] = "?";
            uint64_t gm = fkc_model_bytes(best->ops, grown, fpr, NULL, 0);
            if (gm && gm != FKC_MODEL_TOO_BIG)
                fkc_human_bytes(gm, grown_mem, sizeof grown_mem);
            snprintf(grow_line, sizeof grow_line,
                     "made with fpr %s; grow it when an insert answers FK_EFULL (fk_filter_grow, "
                     "f.grow() in Python, FK.GROW in Redis, filterkit grow): %u doublings take it "
                     "to %llu items at fpr %.3g in about %s", made_text,
                     best->doublings, (unsigned long long)grown, ldexp(best->fpr, (int)best->doublings),
                     grown_mem);
        }
        char self[4200];
        runnable_name(self, sizeof self);
        snprintf(build_line, sizeof build_line, "%s build --kind %s --fpr %s --capacity %llu < keys.txt > filter.fk",
                 self, best->ops->name, made_text, (unsigned long long)capacity);
        if (fk_ops_caps(best->ops) & FK_CAP_STATIC) {
            /* built once from all the keys: no headroom to add to */
            snprintf(build_line, sizeof build_line, "%s build --kind %s --fpr %s < keys.txt > filter.fk",
                     self, best->ops->name, made_text);
            snprintf(c_line, sizeof c_line, "fk_params p = fk_params_make(0, %s); fk_filter *f = NULL; "
                     "fk_status s = fk_filter_build(fk_ops_find(\"%s\"), &p, n, keys, lens, &f);",
                     made_text, best->ops->name);
            snprintf(py_line, sizeof py_line, "f = filterkit.kind_class(\"%s\").build(keys, fpr=%s)",
                     best->ops->name, made_text);
        } else {
            snprintf(c_line, sizeof c_line, "fk_params p = fk_params_make(%llu, %s); fk_filter *f = NULL; "
                     "fk_status s = fk_filter_new(fk_ops_find(\"%s\"), &p, &f);",
                     (unsigned long long)capacity, made_text, best->ops->name);
            snprintf(py_line, sizeof py_line, "f = filterkit.Filter(\"%s\", capacity=%llu, fpr=%s)",
                     best->ops->name, (unsigned long long)capacity, made_text);
        }
    }

    if (json) {
        fkc_runinfo ri;
        fkc_runinfo_fill(&ri, seed);
        fprintf(out, "{\n  \"query\": {\"n\": %llu, \"fpr\": %s, \"deletes\": %s, \"static\": %s, "
               "\"counts\": %s, \"merges\": %s, \"memory_budget\": ",
               (unsigned long long)n, fpr_text, deletes ? "true" : "false", is_static ? "true" : "false",
               counts ? "true" : "false", merges ? "true" : "false");
        if (memory)
            fprintf(out, "%llu", (unsigned long long)memory);
        else
            fprintf(out, "null");
        fprintf(out, ", \"headroom\": ");
        json_num(out, grows ? 0 : headroom);
        fprintf(out, ", \"n_uncertain\": %s, \"grow_to\": ", uncertain ? "true" : "false");
        if (grow_to)
            fprintf(out, "%llu", (unsigned long long)grow_to);
        else
            fputs("null", out);
        fprintf(out, ", \"weighed_to\": ");
        if (grows)
            fprintf(out, "%llu", (unsigned long long)end);
        else
            fputs("null", out);
        fprintf(out, ", \"capacity\": %llu, \"read_ratio\": ", (unsigned long long)capacity);
        json_num(out, read_ratio);
        fprintf(out, ", \"keys\": \"%s\", \"repeat\": %llu, \"seed\": %llu, \"no_timing\": %s, \"timed_at_n\": %llu},\n",
               fkc_key_type_name(ks.type), (unsigned long long)repeat, (unsigned long long)seed,
               no_timing ? "true" : "false", (unsigned long long)(nmeas ? n_meas : 0));
        fprintf(out, "  \"recommendation\": ");
        if (best) {
            fprintf(out, "{\"kind\": ");
            fkc_json_string(out, best->ops->name);
            fprintf(out, ", \"capacity\": %llu, \"fpr\": %s, \"doublings\": %u, \"memory_bytes\": %llu, \"build\": ",
                   (unsigned long long)capacity, made_text, best->doublings, (unsigned long long)best->memory);
            fkc_json_string(out, build_line);
            fprintf(out, ", \"c\": ");
            fkc_json_string(out, c_line);
            fprintf(out, ", \"python\": ");
            fkc_json_string(out, py_line);
            fprintf(out, ", \"grow\": ");
            if (grow_line[0])
                fkc_json_string(out, grow_line);
            else
                fputs("null", out);
            fprintf(out, ", \"decided_by\": ");
            fkc_json_string(out, decided);
            fprintf(out, "},\n");
        } else {
            fprintf(out, "null,\n");
        }
        fprintf(out, "  \"budget_for_best_fpr\": %llu,\n  \"candidates\": [\n", (unsigned long long)budget_for_best);
        for (size_t i = 0; i < nc; i++) {
            json_candidate(out, &c[i], best, read_ratio, capacity);
            fprintf(out, "%s\n", i + 1 < nc ? "," : "");
        }
        fprintf(out, "  ],\n");
        print_json_run(out, &ri);
        if (!best)
            fprintf(stderr, "filterkit pick: no filter meets these constraints (see \"reason\")\n");
        return best ? 0 : 1;
    }

    fprintf(out, "filterkit pick: n=%llu, fpr=%.3g%%, deletes: %s%s%s, static set: %s, memory budget: %s, "
           "read ratio %.2f\n", (unsigned long long)n, 100 * fpr, deletes ? "yes" : "no",
           counts ? ", counts" : "", merges ? ", merges" : "", is_static ? "yes" : "no", budget,
           read_ratio);
    if (grow_to)
        fprintf(out, "sized for: %llu items to start with, growing to %llu without the keys (--grow-to)\n",
               (unsigned long long)capacity, (unsigned long long)grow_to);
    else if (uncertain)
        fprintf(out, "sized for: %llu items to start with; a growing kind grows past them (weighed at x%u: "
                "--grow-to N to say where it ends)\n", (unsigned long long)capacity, PICK_UNCERTAIN_GROWTH);
    else
        fprintf(out, "sized for: %llu items = n + %.3g%% headroom for later adds (--headroom)\n",
               (unsigned long long)capacity, 100 * headroom);
    if (nmeas)
        fprintf(out, "(timed at n=%llu with %s keys, %s%llu run%s%s)\n\n", (unsigned long long)n_meas,
               fkc_key_type_name(ks.type), repeat > 1 ? "median of " : "", (unsigned long long)repeat,
               repeat > 1 ? "s" : "",
               n_meas < capacity ? "; at the full n lookups slow down once the filter outgrows the caches" : "");
    else if (no_timing)
        fprintf(out, "(nothing timed: --no-timing)\n\n");
    else if (grows)
        fprintf(out, "(timed on the growth run below)\n\n");
    else
        fprintf(out, "(nothing timed: the sizing formulas rule every kind out)\n\n");

    if (!best) {
        const candidate *smallest = NULL;
        for (size_t i = 0; i < nc; i++)
            if (c[i].sized && (!deletes || (fk_ops_caps(c[i].ops) & FK_CAP_REMOVE)) &&
                !(fk_ops_caps(c[i].ops) & FK_CAP_EXPIRES) &&
                (is_static || !(fk_ops_caps(c[i].ops) & FK_CAP_STATIC)) &&
                (!smallest || c[i].memory < smallest->memory))
                smallest = &c[i];
        fprintf(stderr, "filterkit pick: no filter meets these constraints.\n");
        if (smallest && memory) {
            char need[32], floor_b[32];
            fkc_human_bytes(smallest->memory, need, sizeof need);
            fkc_human_bytes((uint64_t)ceil((double)capacity * log2(1 / fpr) / 8), floor_b, sizeof floor_b);
            fprintf(stderr, "  the smallest%s is %s with %s, over the %s budget (no filter can go below"
                            " n*log2(1/fpr) = %s at this fpr)\n", deletes ? " with deletes" : "",
                    smallest->ops->name, need, budget, floor_b);
        }
        for (size_t i = 0; i < nc; i++) {
            fprintf(stderr, "  %s: %s", c[i].ops->name, c[i].why_not);
            if (!isnan(c[i].best_fpr))
                fprintf(stderr, " (within the budget it reaches fpr %.3g%%)", 100 * c[i].best_fpr);
            fputc('\n', stderr);
        }
        for (size_t i = 0; !is_static && i < nc; i++)
            if ((fk_ops_caps(c[i].ops) & FK_CAP_STATIC) && !deletes) {
                uint64_t bytes = fkc_model_bytes(c[i].ops, n, fpr, NULL, 0);
                if (!bytes || bytes == FKC_MODEL_TOO_BIG || (memory && bytes > memory) ||
                    !(fkc_model_fpr(c[i].ops, n, fpr, NAN) <= fpr * PICK_THEORY_SLACK))
                    continue;
                char need[32];
                fkc_human_bytes(bytes, need, sizeof need);
                fprintf(stderr, "  (if the set is known up front, %s fits in %s: try --static)\n",
                        c[i].ops->name, need);
            }
        return 1;
    }

    char mem[32];
    fkc_human_bytes(best->memory, mem, sizeof mem);
    fprintf(out, "recommend: %s\n", best->ops->name);
    fprintf(out, "  build:      %s\n", build_line);
    fprintf(out, "  C:          %s\n", c_line);
    fprintf(out, "  Python:     %s\n", py_line);
    if (grow_line[0])
        fprintf(out, "  grow:       %s\n", grow_line);
    if (best->params[0])
        fprintf(out, "  geometry:   %s\n", best->params);
    if (best->grown)
        fprintf(out, "  memory:     ~%s at %llu items, the end of the growth (%.2f bits per item)\n", mem,
                (unsigned long long)end, best->grow_bits);
    else
        fprintf(out, "  memory:     %s%s (%.2f bits per item at capacity)\n", best->exact ? "" : "~", mem,
               8.0 * (double)best->memory / (double)capacity);
    if (best->grown)
        fprintf(out, "  grown:      x%llu from %llu keys: worst fpr %.3g%% over the doublings, absent lookup "
                "%.1f ns (batch %.1f) at the end, insert %.1f ns per key over the growth\n",
                (unsigned long long)(UINT64_C(1) << run_doublings), (unsigned long long)run_n0,
                100 * best->grow_fpr, best->grow_absent_ns, best->grow_absent_batch_ns, best->grow_insert_ns);
    if (best->measured && !best->grown) {
    fprintf(out, "  measured:   fpr %.3g%% (theory %.3g%% at capacity), insert %.1f ns, lookup %.1f ns (50%% present), "
           "%.1f ns (absent)", 100 * best->r.fpr_measured, 100 * best->theory, best->r.insert.median,
           best->r.lookup[2].median, best->r.lookup[0].median);
    if (!isnan(best->r.remove.median))
        fprintf(out, ", remove %.1f ns", best->r.remove.median);
    if (best->r.static_kind) {
        fprintf(out, "\n  static:     built once from the whole set: %.1f ns per key to build (the insert"
               " figure above)", best->r.insert.median);
        if (!isnan(best->r.build_temp_per_key))
            fprintf(out, ", %.1f bytes per key of temporary memory at its peak",
                   best->r.build_temp_per_key);
        fprintf(out, "; no inserts or removes afterwards");
    }
    fprintf(out, "\n  cost:       %.1f ns per operation at read ratio %.2f (%.1f-%.1f over the %llu run%s)\n",
            best->cost, read_ratio, best->cost_low, best->cost_high, (unsigned long long)repeat,
            repeat > 1 ? "s" : "");
    }
    fprintf(out, "  decided:    %s\n", decided);
    if (fastest) {
        fprintf(out, "cost per operation at read ratio %.2f, ns (median, and min-max of the %llu run%s):\n",
                read_ratio, (unsigned long long)repeat, repeat > 1 ? "s" : "");
        for (size_t i = 0; i < nc; i++)
            if (c[i].measured) {
                const char *mark = &c[i] == best ? "  chosen" : c[i].tied ? "  tied" : c[i].why_not[0] ?
                                   "  ruled out" : "";
                char range[64];
                snprintf(range, sizeof range, "%.1f-%.1f", c[i].cost_low, c[i].cost_high);
                fprintf(out, "  %-16s %7.1f  %*s%s\n", c[i].ops->name, c[i].cost, mark[0] ? -15 : 0, range, mark);
            }
    }
    if (grows && !no_timing)
        growth_print(out, c, nc, end, run_n0, run_doublings, doublings_to(capacity, end));
    fprintf(out, "why not the others:\n");
    for (size_t i = 0; i < nc; i++) {
        const candidate *o = &c[i];
        if (o == best)
            continue;
        char why[240];
        if (o->why_not[0])
            snprintf(why, sizeof why, "%s", o->why_not);
        else
            why_lost(o, best, read_ratio, why, sizeof why);
        fprintf(out, "  %s: %s%s\n", o->ops->name, why, o->untimed ? " (by the formulas: not timed)" : "");
    }
    if (grows)
        return 0; /* the best fpr at n within a budget says nothing of the growth */
    char bb[32];
    fkc_human_bytes(budget_for_best, bb, sizeof bb);
    fprintf(out, "best fpr within %s (%s) at capacity %llu:\n", bb, memory ? "the budget" : "the recommendation's memory",
           (unsigned long long)capacity);
    for (size_t i = 0; i < nc; i++) {
        if (!c[i].sized || c[i].doublings || ((fk_ops_caps(c[i].ops) & FK_CAP_GROWS) && !grows) ||
            (fk_ops_caps(c[i].ops) & FK_CAP_EXPIRES))
            continue;
        fprintf(out, "  %-16s ", c[i].ops->name);
        if (isnan(c[i].best_fpr))
            fprintf(out, "does not fit\n");
        else
            fprintf(out, "%.3g%%%s\n", 100 * c[i].best_fpr,
                   deletes && !(fk_ops_caps(c[i].ops) & FK_CAP_REMOVE) ? " (no deletes)" : "");
    }
    return 0;
}

int fkc_cmd_pick(int argc, char **argv)
{
    return fkc_pick_run(stdout, argc, argv);
}
