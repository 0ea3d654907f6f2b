/* bench/pick/pick_window.c: pick --window N / --window-seconds T.
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pick_internal.h"
#include "../baselines/window_baselines.h"
#include "../clock/progress.h"
#include "../measure/memory_model.h"
#include "../report/stats.h"
#include "../../registry/registry.h"

/* The window is timed at no more than this many items, on a stream of
 * PICK_WINDOW_STREAM windows of distinct keys (enough for keys of every
 * age: inside the window, in the slack, expired), with at most
 * PICK_WINDOW_PROBES lookups per age band. */
#define PICK_WINDOW_MAX_MEASURED UINT64_C(1048576)
#define PICK_WINDOW_STREAM 3
#define PICK_WINDOW_PROBES UINT64_C(262144)

/* The window a lifetime is read on: big enough that ceil(W / L) is the
 * kind's generations per window (W / L > that less one), small enough to
 * make at once. */
#define PICK_LIFETIME_PROBE UINT64_C(4096)

/* The most inserts a key of a window of n answers present for, from each
 * design's rotation: a baseline's from its own formula (two rotating Bloom
 * filters 2n, an APBF (l + 1) ceil(n / l): fkc_window_baseline_lifetime);
 * a library kind's from the rows fk_filter_describe gives of a small one
 * made at fpr (PICK_LIFETIME_PROBE): it holds a key one generation per
 * "generation_slots_<k>" row (G), each of "generation_length" (L) inserts,
 * a window of "window" (W) spanning S = ceil(W / L) of them, so a window
 * of n lives G ceil(n / S) (the window kind: 8 ceil(n / 7)). 0 when
 * unknown. */
static uint64_t window_lifetime(const fk_ops *ops, uint64_t n, double fpr)
{
    if (fkc_kind_is_baseline(ops))
        return fkc_window_baseline_lifetime(ops, n, fpr);
    fk_params p = fk_params_make(PICK_LIFETIME_PROBE, fpr);
    fk_filter *f = NULL;
    if (fk_filter_new(ops, &p, &f) != FK_OK)
        return 0;
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t nr = 0;
    uint64_t life = 0;
    if (fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &nr) == FK_OK && nr <= FK_DESCRIBE_MAX_ROWS) {
        const fk_describe_row *w = fk_describe_find(rows, nr, "window"),
                              *len = fk_describe_find(rows, nr, "generation_length");
        uint64_t g = 0;
        for (size_t i = 0; i < nr; i++)
            if (strncmp(rows[i].name, "generation_slots_", 17) == 0)
                g++;
        if (w && len && w->type == FK_DESCRIBE_U64 && len->type == FK_DESCRIBE_U64 && len->value.u64) {
            uint64_t span = (w->value.u64 + len->value.u64 - 1) / len->value.u64;
            life = span ? g * ((n + span - 1) / span) : 0;
        }
    }
    fk_filter_free(f);
    return life;
}

/* Why o lost to best (both feasible), in the words of the set's why_lost
 * plus what a window adds: how long a key outlives the window. */
static void window_why_lost(const fkc_pick_result *res, const fkc_pick_candidate *o, char *buf, size_t len)
{
    const fkc_pick_candidate *best = &res->c[res->best];
    size_t at = 0;
    if (o->baseline)
        at = (size_t)snprintf(buf, len, "a benchmark baseline (the hand-made pattern; filterkit cannot build it): ");
    if (at >= len)
        return;
    fkc_pick_why_lost(res, o, buf + at, len - at);
    at += strlen(buf + at);
    if (at < len && o->lifetime && best->lifetime && o->lifetime > best->lifetime)
        snprintf(buf + at, len - at, "; a key lives up to %.2fN (%s: %.2fN)",
                 (double)o->lifetime / (double)res->capacity, best->ops->name,
                 (double)best->lifetime / (double)res->capacity);
}

/* Checks a window's query and fills what it derives: N, the headroom, the
 * capacity. Returns the status. */
static fkc_pick_status check_window(fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    if (q->window && q->window_seconds)
        return fkc_pick_refuse(res, "--window N and --window-seconds T: give one (a count or a time window)");
    if (q->window && (q->n || q->rate))
        return fkc_pick_refuse(res, "--window N is the window's size: no --n or --rate");
    if (q->window && q->headroom >= 0)
        return fkc_pick_refuse(res, "--headroom: a count window holds exactly its last N inserts (headroom is "
                                    "for a time window's peak rate)");
    if (q->window_seconds && !q->n == !q->rate)
        return fkc_pick_refuse(res, "--window-seconds T: give the items per window, --n N, or the rate, --rate R");
    if (q->is_static || q->uncertain || q->grow_to || q->keys.type != FKC_KEYS_U64)
        return fkc_pick_refuse(res, "--window: not with %s", q->is_static ? "--static (a window changes all the time)"
                               : q->uncertain || q->grow_to ? "--n-uncertain or --grow-to (a window's size is its N)"
                               : "--keys (a window is timed on its own stream of distinct u64 keys)");
    if (q->window > FKC_PICK_COUNT_MAX || q->n > FKC_PICK_COUNT_MAX || q->rate > FKC_PICK_COUNT_MAX)
        return fkc_pick_refuse(res, "--window, --n, --rate: at most 2^48");
    if (q->window_seconds > UINT64_MAX / UINT64_C(1000000000))
        return fkc_pick_refuse(res, "--window-seconds: at most %llu (the clock counts nanoseconds in 64 bits)",
                               (unsigned long long)(UINT64_MAX / UINT64_C(1000000000)));
    if (q->rate && (double)q->rate * (double)q->window_seconds > (double)FKC_PICK_COUNT_MAX)
        return fkc_pick_refuse(res, "--rate x --window-seconds: at most 2^48 items per window");
    res->window_mode = 1;
    res->window_items = q->window ? q->window : q->n ? q->n : q->rate * q->window_seconds;
    res->headroom = q->window ? 0 : q->headroom >= 0 ? q->headroom : PICK_DEFAULT_HEADROOM;
    double want = ceil((double)res->window_items * (1 + res->headroom));
    if (want > (double)FKC_PICK_COUNT_MAX)
        return fkc_pick_refuse(res, "the window with --headroom: at most 2^48 items");
    res->capacity = (uint64_t)want;
    return FKC_PICK_OK;
}

/* Sizes every kind that forgets and rules out what the capabilities and
 * the formulas rule out. */
static void size_window(fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    for (size_t i = 0; fkc_kind_at(i) && res->nc < FKC_KINDS_MAX; i++) {
        const fk_ops *ops = fkc_kind_at(i);
        if (!(fk_ops_caps(ops) & FK_CAP_EXPIRES))
            continue;
        fkc_pick_candidate *x = &res->c[res->nc++];
        x->ops = ops;
        x->baseline = fkc_kind_is_baseline(ops);
        x->worst_band = -1;
        x->fpr = q->fpr;
        x->best_fpr = NAN;
        x->memory = fkc_model_bytes(ops, res->capacity, q->fpr, x->params, sizeof x->params);
        x->exact = 1;
        x->lifetime = window_lifetime(ops, res->capacity, q->fpr);
        if (x->memory) {
            x->sized = 1;
            x->theory = fkc_pick_theory_at(ops, res->capacity, q->fpr);
        }
        unsigned caps = fk_ops_caps(ops);
        if (q->deletes && !(caps & FK_CAP_REMOVE))
            snprintf(x->ruled_out, sizeof x->ruled_out, "no deletes");
        else if (q->counts && !(caps & FK_CAP_COUNT))
            snprintf(x->ruled_out, sizeof x->ruled_out, "cannot count copies of an item");
        else if (q->merges && !(caps & FK_CAP_MERGE))
            snprintf(x->ruled_out, sizeof x->ruled_out, "cannot merge two filters without the keys");
        else if (!x->sized)
            snprintf(x->ruled_out, sizeof x->ruled_out, "cannot be made for a window of %llu at this fpr",
                     (unsigned long long)res->capacity);
        else
            x->untimed = fkc_pick_judge(x->memory, x->theory, q->fpr, q->memory, x->ruled_out, sizeof x->ruled_out);
    }
}

/* One candidate's verdict from its stream figures: a key missed inside
 * the window, or an fpr above the target past the window, rules it out. */
static void window_judge(fkc_pick_candidate *x, const fkc_pick_result *res)
{
    double fpr = res->q.fpr;
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
    int gone = x->lifetime && 7 * (double)x->lifetime <= 8 * (double)res->capacity;
    if (x->window_misses)
        snprintf(x->ruled_out, sizeof x->ruled_out, "%llu false negatives among %llu keys checked inside the "
                 "window", (unsigned long long)x->window_misses, (unsigned long long)x->window_checked);
    else if (x->worst_band >= 0 && x->outside_low > fpr)
        snprintf(x->ruled_out, sizeof x->ruled_out, "measured fpr %.3g%% for %s keys, above the %.3g%% asked",
                 100 * x->outside, fkc_band_names[x->worst_band], 100 * fpr);
    else if (gone && !isnan(expired) && exp_lo > fpr)
        snprintf(x->ruled_out, sizeof x->ruled_out, "keys just past the window (aged 8N/7 to 2N) answer present "
                 "%.3g%% of the time, above the %.3g%% asked", 100 * expired, 100 * fpr);
}

/* Run `run` of one candidate: one stream; its timings go to t (insert,
 * absent, found, cost: [what * runs + run]). Rules it out when the stream
 * failed; returns whether it ran. */
static int window_run(fkc_pick_candidate *x, const fkc_pick_result *res, const fkc_window_cfg *cfg, size_t run,
                      size_t runs, double *t)
{
    const fkc_pick_query *q = &res->q;
    fkc_progress_step("%s: %llu inserts (run %zu of %zu)", x->ops->name, (unsigned long long)cfg->stream, run + 1,
                      runs);
    fkc_window_row row;
    fk_status s = fkc_window_run(cfg, x->ops, 0, &row, NULL);
    if (s != FK_OK) {
        snprintf(x->ruled_out, sizeof x->ruled_out, "failed on the stream (%s%s): a key refused inside the "
                 "window is a false negative", fk_status_name(s), s == FK_EFULL ? ", an insert found no room" : "");
        return 0;
    }
    for (int b = 0; b < FKC_BANDS; b++) {
        x->band[b].false_positives += row.present[b];
        x->band[b].negatives += row.probes[b];
    }
    x->window_checked += row.window_checked;
    x->window_misses += row.window_misses;
    t[run] = row.insert_ns;
    t[runs + run] = row.absent_ns;
    t[2 * runs + run] = row.found_ns;
    t[3 * runs + run] = q->read_ratio * (row.absent_ns + row.found_ns) / 2 + (1 - q->read_ratio) * row.insert_ns;
    return 1;
}

/* Times every candidate not ruled out on q->repeat streams of
 * PICK_WINDOW_STREAM windows of n_meas, run 1 of every candidate before
 * run 2 of any (the order turned by one each run), and decides on the
 * runs as paired rounds (fkc_pick_apply_rank; a baseline is ranked, never
 * chosen). */
static void window_measure(fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    uint64_t n_meas = res->capacity < PICK_WINDOW_MAX_MEASURED ? res->capacity : PICK_WINDOW_MAX_MEASURED;
    size_t which[FKC_KINDS_MAX], nk = 0, runs = (size_t)q->repeat;
    for (size_t i = 0; i < res->nc; i++)
        if (!res->c[i].ruled_out[0])
            which[nk++] = i;
    if (!nk || q->no_timing)
        return;
    double *t = calloc(4 * nk * runs, sizeof *t), *cost = calloc(nk * runs, sizeof *cost);
    int ok[FKC_KINDS_MAX], eligible[FKC_KINDS_MAX];
    if (!t || !cost) {
        free(t);
        free(cost);
        for (size_t j = 0; j < nk; j++)
            snprintf(res->c[which[j]].ruled_out, sizeof res->c[which[j]].ruled_out, "not timed (out of memory)");
        return;
    }
    fkc_window_cfg cfg = { n_meas, q->fpr, q->seed, PICK_WINDOW_STREAM * n_meas,
                           n_meas < PICK_WINDOW_PROBES ? n_meas : PICK_WINDOW_PROBES, 0 };
    if (cfg.probes < 1000)
        cfg.probes = 1000;
    fkc_progress_begin("pick", nk * runs);
    for (size_t j = 0; j < nk; j++)
        ok[j] = 1;
    for (size_t run = 0; run < runs; run++)
        for (size_t o = 0; o < nk; o++) {
            size_t j = (run + o) % nk;
            if (ok[j])
                ok[j] = window_run(&res->c[which[j]], res, &cfg, run, runs, t + 4 * runs * j);
        }
    fkc_progress_end();
    size_t nr = 0;
    for (size_t j = 0; j < nk; j++) {
        fkc_pick_candidate *x = &res->c[which[j]];
        if (!ok[j])
            continue;
        const double *tj = t + 4 * runs * j;
        x->measured = 1;
        x->insert = fkc_summarize(tj, runs);
        x->absent = fkc_summarize(tj + runs, runs);
        x->found = fkc_summarize(tj + 2 * runs, runs);
        fkc_summary c = fkc_summarize(tj + 3 * runs, runs); /* ruled out below: still shown */
        x->cost = c.median, x->cost_low = c.min, x->cost_high = c.max;
        window_judge(x, res);
        if (x->ruled_out[0])
            continue;
        memcpy(cost + nr * runs, tj + 3 * runs, runs * sizeof *cost);
        eligible[nr] = !x->baseline;
        which[nr++] = which[j];
    }
    for (size_t i = 0; i < res->nc; i++)
        res->nmeas += res->c[i].measured;
    if (res->nmeas) {
        res->n_meas = n_meas;
        res->stream = PICK_WINDOW_STREAM * n_meas;
    }
    if (nr)
        fkc_pick_apply_rank(res, which, nr, eligible, cost, runs);
    free(t);
    free(cost);
}

/* The decided line: the only library kind that qualifies (the usual
 * case: the baselines are never chosen), the smallest by the formulas
 * (--no-timing), or the set's rule on the runs as paired rounds. */
static void window_decide(fkc_pick_result *res)
{
    fkc_pick_candidate *c = res->c;
    size_t libs = 0;
    for (size_t i = 0; i < res->nc; i++)
        libs += !c[i].baseline && !c[i].ruled_out[0];
    if (res->fastest < 0) {
        res->best = -1;
        for (size_t i = 0; res->q.no_timing && i < res->nc; i++)
            if (!c[i].baseline && !c[i].ruled_out[0] && c[i].sized &&
                (res->best < 0 || c[i].memory < c[res->best].memory))
                res->best = (int)i;
    }
    if (res->best < 0)
        return;
    if (libs == 1)
        snprintf(res->decided, sizeof res->decided, "the only sliding-window kind of filterkit that qualifies; "
                 "the baselines, the patterns one builds by hand, are %s beside it below",
                 res->nmeas ? "measured" : "sized");
    else if (res->fastest < 0)
        snprintf(res->decided, sizeof res->decided, "the smallest that qualifies, by the sizing formulas alone "
                 "(--no-timing: nothing timed)");
    else
        fkc_pick_set_decided(res);
}

/* The lines that make the chosen: `filterkit dedup`, C, Python. */
static void window_lines(fkc_pick_result *res)
{
    if (res->best < 0)
        return;
    const fkc_pick_query *q = &res->q;
    const char *name = res->c[res->best].ops->name, *fpr = res->fpr_text;
    unsigned long long cap = (unsigned long long)res->capacity;
    unsigned long long ns = (unsigned long long)(q->window_seconds * UINT64_C(1000000000));
    char self[4200], secs[48] = "";
    fkc_pick_runnable_name(self, sizeof self);
    snprintf(res->made_text, sizeof res->made_text, "%s", fpr);
    if (q->window_seconds)
        snprintf(secs, sizeof secs, " --window-seconds %llu", (unsigned long long)q->window_seconds);
    snprintf(res->build, sizeof res->build, "%s dedup --kind %s --fpr %s --capacity %llu%s seen.fk < lines > "
             "new-lines", self, name, fpr, cap, secs);
    if (q->window_seconds) {
        snprintf(res->c_line, sizeof res->c_line, "fk_params p = fk_params_make(%llu, %s); p.span = %llu; "
                 "/* T in ns */ p.clock = FK_CLOCK_UNIX_NS; fk_filter *f = NULL; fk_status s = "
                 "fk_filter_new(fk_ops_find(\"%s\"), &p, &f); /* fk_filter_advance(f, now) before each "
                 "insert, now in Unix ns (CLOCK_REALTIME) */", cap, fpr, ns, name);
        snprintf(res->py_line, sizeof res->py_line, "w = filterkit.Window(capacity=%llu, fpr=%s, span=%llu)  "
                 "# T in ns, Unix time: w.advance() (time.time_ns()) before each add", cap, fpr, ns);
    } else {
        snprintf(res->c_line, sizeof res->c_line, "fk_params p = fk_params_make(%llu, %s); fk_filter *f = NULL; "
                 "fk_status s = fk_filter_new(fk_ops_find(\"%s\"), &p, &f);", cap, fpr, name);
        snprintf(res->py_line, sizeof res->py_line, "w = filterkit.Window(capacity=%llu, fpr=%s)", cap, fpr);
    }
}

fkc_pick_status fkc_pick_window(fkc_pick_result *res)
{
    if (check_window(res) != FKC_PICK_OK)
        return res->status;
    size_window(res);
    window_measure(res);
    window_decide(res);
    window_lines(res);
    /* the floor: no structure answers "in the window?" at fpr e with fewer
     * than about log2(1/e) + log2(e) bits per window item */
    res->floor_bits = log2(1 / res->q.fpr) + log2(exp(1.0));
    const fkc_pick_candidate *best = res->best >= 0 ? &res->c[res->best] : NULL;
    for (size_t i = 0; i < res->nc; i++) {
        fkc_pick_candidate *x = &res->c[i];
        x->verdict = x == best ? FKC_PICK_CHOSEN : x->ruled_out[0] ? FKC_PICK_RULED_OUT : FKC_PICK_LOST;
        if (x->ruled_out[0])
            snprintf(x->reason, sizeof x->reason, "%s%s", x->baseline ? "a benchmark baseline: " : "", x->ruled_out);
        else if (x != best && best)
            window_why_lost(res, x, x->reason, sizeof x->reason);
        else if (!best && x->baseline)
            snprintf(x->reason, sizeof x->reason, "a benchmark baseline (the hand-made pattern; filterkit cannot "
                     "build it)");
    }
    return res->status = best ? FKC_PICK_OK : FKC_PICK_NONE;
}
