/* bench/cli/cmd_pick.c: `filterkit pick`: its options become a query to
 * the pick component (bench/pick/pick.h), which measures every built-in kind
 * briefly at the asked scale and recommends one; its result becomes the
 * text (why each other kind loses, and what builds the winner: the
 * `filterkit build` line, the C and the Python calls), the JSON (--format
 * json: the whole decision, fkc_pick_doc through report_json.c's writer)
 * and DIR/pick.csv (--out). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "hints.h"
#include "../pick/pick.h"
#include "../measure/memory_model.h"
#include "../report/report.h"
#include "../report/runinfo.h"
#include "../report/stats.h"
#include "../report/units.h"
#include "../../registry/registry.h"

static void best_fpr_table(FILE *out, const fkc_pick_result *res);

/* Parses the options into a query and runs it into *res. Returns 0 (ran:
 * res->status says how it went), 2 after a usage error said on stderr (the
 * component's refusals too), or -1 after --help. */
static int run_query(int argc, char **argv, fkc_pick_query *q, fkc_pick_result *res, const char **format,
                     const char **out_dir, int *parquet, fkc_pick_parquet_result *pq)
{
    fkc_pick_query_init(q);
    int binary_lines = 0;
    const char *keys = "u64";
    *format = "text";
    *out_dir = NULL;
    /* the kinds named in the help come from the registry, by capability */
    char statics[256], resizers[256], static_help[400], grow_help[400];
    fkc_kinds_with(FK_CAP_STATIC, statics, sizeof statics);
    fkc_kinds_with(FK_CAP_RESIZES, resizers, sizeof resizers);
    snprintf(static_help, sizeof static_help, "the whole set is known before the first lookup and "
             "never changes (admits static kinds: %s)", statics);
    snprintf(grow_help, sizeof grow_help, "the set starts at n and grows to N later, without the keys: "
             "a growing kind, or one that doubles in place (%s), made to reach the fpr at N", resizers);
    const fkc_opt opts[] = {
        { "n", FKC_OPT_COUNT, &q->n, "N", "items the filter must hold, e.g. 10M or 1B (required but with --window; "
          "with --window-seconds: the items one window brings at the peak)" },
        { "fpr", FKC_OPT_FPR, &q->fpr, "P", "largest acceptable false-positive rate, e.g. 0.1% (required)" },
        { "window", FKC_OPT_COUNT, &q->window, "N", "a sliding window: \"seen among the last N inserts\"; weighs the "
          "kinds that forget (window) and the baselines (rotating-bloom, apbf, apbf-best)" },
        { "window-seconds", FKC_OPT_COUNT, &q->window_seconds, "T", "a time window: \"seen in the last T seconds\", "
          "with --n (items per T at the peak) or --rate" },
        { "rate", FKC_OPT_COUNT, &q->rate, "R", "--window-seconds: items per second at the peak (N = R x T)" },
        { "deletes", FKC_OPT_FLAG, &q->deletes, NULL, "items must be removable" },
        { "static", FKC_OPT_FLAG, &q->is_static, NULL, static_help },
        { "counts", FKC_OPT_FLAG, &q->counts, NULL, "the filter must count each item's copies (fk_filter_count)" },
        { "merges", FKC_OPT_FLAG, &q->merges, NULL, "two filters must merge into one without the keys (fk_filter_merge)" },
        { "memory", FKC_OPT_BYTES, &q->memory, "BYTES", "memory budget (e.g. 64M, 1GiB); default: none" },
        { "headroom", FKC_OPT_RATIO, &q->headroom, "R", "share of n to be added later (default: 25%; 0 for a fixed set)" },
        { "n-uncertain", FKC_OPT_FLAG, &q->uncertain, NULL, "n is a guess: weigh the kinds that grow (expandable, scalable-*, quotient in place) over a 1024-fold growth" },
        { "grow-to", FKC_OPT_COUNT, &q->grow_to, "N", grow_help },
        { "read-ratio", FKC_OPT_RATIO, &q->read_ratio, "R", "share of operations that are lookups (default: 0.9)" },
        { "keys", FKC_OPT_STR, &keys, "u64|str|FILE", "key type to measure with; a FILE of - is stdin (default: u64)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "--keys FILE: keep a '\\r' before the '\\n' as part of the key" },
        { "repeat", FKC_OPT_REPEAT, &q->repeat, "R", "timed runs per measured figure (median, min-max; the growth and window runs too); the decision is on 32 paired rounds (default: 3)" },
        { "no-timing", FKC_OPT_FLAG, &q->no_timing, NULL, "time nothing: the smallest kind the sizing formulas admit wins" },
        { "seed", FKC_OPT_U64, &q->seed, "S", "seed of the keys and of the hash (default: 1)" },
        { "format", FKC_OPT_CHOICE, format, "text|json", "text for people, or the whole decision as JSON (default: text)" },
        { "out", FKC_OPT_STR, out_dir, "DIR", "also write DIR/pick.csv, the data of plot 8 (default: none)" },
        { "parquet", FKC_OPT_FLAG, parquet, NULL, "Parquet's question: the Bloom filter size Parquet writers give --n distinct values at --fpr, "
          "its FPR by formula and measured, and every kind at that memory" },
        { NULL, 0, NULL, NULL, NULL },
    };
    char about[6144];
    snprintf(about, sizeof about,
        "Measures each built-in filter briefly (at most 2M items; memory is extrapolated\n"
        "exactly from the sizing formulas) and recommends the one that is fastest for the\n"
        "read ratio. The decision is made on 32 paired rounds: every candidate is held at\n"
        "once, and each round times a slice of every candidate's inserts and lookups, one\n"
        "right after another, in CPU time (lookups: the median of parts of 2048), so load\n"
        "on the machine falls on all of them alike. A kind is slower than the fastest\n"
        "only when its cost is over 1.25x the fastest's in the median round and it was\n"
        "the slower in 7 rounds of 8; closer kinds are too close to separate: tied, named\n"
        "in the 'decided:' line, and of the tied the one whose lookup makes the fewest\n"
        "random reads wins (the kind's lookup_reads, shown by 'filterkit info': out of\n"
        "cache each is a miss), then the least memory, then the fixed (registry) order;\n"
        "so a kind round the margin gets the same answer on either side of it. Ranges\n"
        "(min-max) are printed, never compared. Kinds\n"
        "the formulas rule out (over --memory, lacking a required\n"
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
        "With --parquet it answers what a Parquet writer asks for a column chunk of\n"
        "--n distinct values at --fpr (its fpp): the size of the split-block Bloom\n"
        "filter Parquet writers write (parquet-cpp's and parquet-java's\n"
        "OptimalNumOfBits: a power of two from 32 bytes to 128 MiB), that filter's\n"
        "FPR by the blocked Bloom formula (k = 8) and measured (--n random INT64\n"
        "values inserted, absent ones probed; past 4M values the values and the\n"
        "bitset are halved together, keeping the keys per block), and the best fpr\n"
        "each kind reaches in the same memory (the sizing formulas; nothing timed).\n"
        "Exit status 1 when no filter meets the constraints.", resizers, statics);
    const fkc_cmd_spec spec = {
        "pick", "--n N --fpr P | --parquet --n NDV --fpr FPP | --window N --fpr P | --window-seconds T (--n N | --rate R) --fpr P [--deletes] [--static] [--counts] [--merges] [--memory BYTES] [--headroom R] [--n-uncertain] [--grow-to N] "
                "[--read-ratio R] [--keys u64|str|FILE] [--repeat R] [--no-timing] [--format text|json] [--out DIR]",
        about,
        opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? -1 : 2;
    q->keys = (fkc_keyspec){ FKC_KEYS_U64, NULL, q->seed, binary_lines };
    if (fkc_keyspec_parse(keys, &q->keys))
        return fkc_args_fail(&spec, "--keys: expected u64, str or a file name");
    q->keys.seed = q->seed;
    if ((q->window || q->window_seconds) && *out_dir)
        return fkc_args_fail(&spec, "--window: not with --out (the window figures: filterkit bench --workload "
                                    "window --out)");
    q->time_all = *out_dir != NULL; /* plot 8 shows every kind beside the budget line */
    if (*parquet) {
        if (q->window || q->window_seconds || q->grow_to || q->uncertain || q->memory || *out_dir ||
            strcmp(*format, "text") != 0)
            return fkc_args_fail(&spec, "--parquet: with --n, --fpr and --seed only (no window, growth, "
                                        "--memory, --out or --format json)");
        char why[200];
        if (fkc_pick_parquet(q->n, q->fpr, q->seed, pq, why, sizeof why) != 0)
            return fkc_args_fail(&spec, "%s", why);
        /* every kind weighed at the split-block filter's memory, by the formulas */
        q->memory = pq->memory;
        q->headroom = 0;
        q->no_timing = 1;
    }
    if (fkc_pick(q, res) == FKC_PICK_EINVAL)
        return fkc_args_fail(&spec, "%s", res->message);
    return 0;
}

/* ------------------------------------------------------------- a set */

/* The growth table: each grown candidate at the end. */
static void growth_print(FILE *out, const fkc_pick_result *res)
{
    unsigned dr = res->run_doublings;
    unsigned long long runs = (unsigned long long)res->q.repeat;
    fprintf(out, "growth to %llu, weighed on a run from %llu keys x%llu%s (memory at the end = bits per key x "
            "%llu; bits and FPR the same in each of the %llu run%s, the timings the median and min-max of "
            "them):\n", (unsigned long long)res->end, (unsigned long long)res->run_n0,
            (unsigned long long)(UINT64_C(1) << dr),
            dr < res->doublings_wanted ? " (fewer doublings than asked: FPR of the chains and quotient rises further)"
                                       : "", (unsigned long long)res->end, runs, runs > 1 ? "s" : "");
    fprintf(out, "  %-16s %9s %11s %10s %13s %9s %10s %13s\n", "kind", "bits/key", "worst FPR", "absent ns",
            "min-max", "batch ns", "insert ns", "min-max");
    for (size_t i = 0; i < res->nc; i++) {
        const fkc_pick_candidate *x = &res->c[i];
        if (!x->grown)
            continue;
        char ra[48], ri[48];
        snprintf(ra, sizeof ra, "%.1f-%.1f", x->grow_absent.min, x->grow_absent.max);
        snprintf(ri, sizeof ri, "%.1f-%.1f", x->grow_insert.min, x->grow_insert.max);
        fprintf(out, "  %-16s %9.2f %10.4f%% %10.1f %13s %9.1f %10.1f %13s%s\n", x->ops->name, x->grow_bits,
                100 * x->grow_fpr, x->grow_absent_ns, ra, x->grow_absent_batch_ns, x->grow_insert_ns, ri,
                x->ruled_out[0] ? "  ruled out" : "");
    }
}

/* The query in words, and what was timed. */
static void set_header(FILE *out, const fkc_pick_result *res, const char *budget)
{
    const fkc_pick_query *q = &res->q;
    unsigned long long cap = (unsigned long long)res->capacity;
    fprintf(out, "filterkit pick: n=%llu, fpr=%.3g%%, deletes: %s%s%s, static set: %s, memory budget: %s, "
            "read ratio %.2f\n", (unsigned long long)q->n, 100 * q->fpr, q->deletes ? "yes" : "no",
            q->counts ? ", counts" : "", q->merges ? ", merges" : "", q->is_static ? "yes" : "no", budget,
            q->read_ratio);
    if (q->grow_to)
        fprintf(out, "sized for: %llu items to start with, growing to %llu without the keys (--grow-to)\n", cap,
                (unsigned long long)q->grow_to);
    else if (q->uncertain)
        fprintf(out, "sized for: %llu items to start with; a growing kind grows past them (weighed at x%u: "
                "--grow-to N to say where it ends)\n", cap, FKC_PICK_UNCERTAIN_GROWTH);
    else
        fprintf(out, "sized for: %llu items = n + %.3g%% headroom for later adds (--headroom)\n", cap,
                100 * res->headroom);
    if (res->nmeas)
        fprintf(out, "(timed at n=%llu with %s keys, %s%llu run%s for the measured figures, %llu paired rounds for "
                "the cost and the decision%s)\n\n", (unsigned long long)res->n_meas, fkc_key_type_name(q->keys.type),
                q->repeat > 1 ? "median of " : "", (unsigned long long)q->repeat, q->repeat > 1 ? "s" : "",
                (unsigned long long)res->rounds,
                res->n_meas < res->capacity ? "; at the full n lookups slow down once the filter outgrows the caches"
                                            : "");
    else if (q->no_timing)
        fprintf(out, "(nothing timed: --no-timing)\n\n");
    else if (res->grows)
        fprintf(out, "(timed on the growth run below: %s%llu run%s of it, the cost and the decision %llu paired "
                "rounds)\n\n", q->repeat > 1 ? "the median of " : "", (unsigned long long)q->repeat,
                q->repeat > 1 ? "s" : "", (unsigned long long)res->rounds);
    else
        fprintf(out, "(nothing timed: the sizing formulas rule every kind out)\n\n");
}

/* No pick: why, on stderr. */
static void set_none(const fkc_pick_result *res, const char *budget)
{
    const fkc_pick_query *q = &res->q;
    fprintf(stderr, "filterkit pick: no filter meets these constraints.\n");
    if (res->smallest >= 0 && q->memory) {
        const fkc_pick_candidate *s = &res->c[res->smallest];
        char need[32], floor_b[32];
        fkc_human_bytes(s->memory, need, sizeof need);
        fkc_human_bytes((uint64_t)ceil((double)res->capacity * log2(1 / q->fpr) / 8), floor_b, sizeof floor_b);
        fprintf(stderr, "  the smallest%s is %s with %s, over the %s budget (no filter can go below"
                        " n*log2(1/fpr) = %s at this fpr)\n", q->deletes ? " with deletes" : "",
                s->ops->name, need, budget, floor_b);
    }
    for (size_t i = 0; i < res->nc; i++) {
        fprintf(stderr, "  %s: %s", res->c[i].ops->name, res->c[i].ruled_out);
        if (!isnan(res->c[i].best_fpr))
            fprintf(stderr, " (within the budget it reaches fpr %.3g%%)", 100 * res->c[i].best_fpr);
        fputc('\n', stderr);
    }
    for (size_t i = 0; i < res->nc; i++)
        if (res->c[i].static_bytes) {
            char need[32];
            fkc_human_bytes(res->c[i].static_bytes, need, sizeof need);
            fprintf(stderr, "  (if the set is known up front, %s fits in %s: try --static)\n",
                    res->c[i].ops->name, need);
        }
}

/* The chosen's figures: as measured, or at the end of its growth. */
static void set_best_figures(FILE *out, const fkc_pick_result *res, const fkc_pick_candidate *best)
{
    const fkc_pick_query *q = &res->q;
    const char *runs = q->repeat > 1 ? "median of the runs" : "one run";
    if (best->grown)
        fprintf(out, "  grown:      x%llu from %llu keys: worst fpr %.3g%% over the doublings, absent lookup "
                "%.1f ns (batch %.1f) at the end, insert %.1f ns per key over the growth (%s: %llu)\n",
                (unsigned long long)(UINT64_C(1) << res->run_doublings), (unsigned long long)res->run_n0,
                100 * best->grow_fpr, best->grow_absent_ns, best->grow_absent_batch_ns, best->grow_insert_ns, runs,
                (unsigned long long)q->repeat);
    if (best->raced)
        fprintf(out, "  cost:       %.1f CPU ns per operation at read ratio %.2f (median of %llu paired rounds, "
                "%.1f-%.1f)\n", best->cost, q->read_ratio, (unsigned long long)res->rounds, best->cost_low,
                best->cost_high);
    if (!best->measured || best->grown)
        return;
    fprintf(out, "  measured:   fpr %.3g%% (theory %.3g%% at capacity), insert %.1f ns, lookup %.1f ns (50%% "
            "present), %.1f ns (absent)", 100 * best->r.fpr_measured, 100 * best->theory, best->r.insert.median,
            best->r.lookup[2].median, best->r.lookup[0].median);
    if (!isnan(best->r.remove.median))
        fprintf(out, ", remove %.1f ns", best->r.remove.median);
    if (best->r.static_kind) {
        fprintf(out, "\n  static:     built once from the whole set: %.1f ns per key to build (the insert"
                " figure above)", best->r.insert.median);
        if (!isnan(best->r.build_temp_per_key))
            fprintf(out, ", %.1f bytes per key of temporary memory at its peak", best->r.build_temp_per_key);
        fprintf(out, "; no inserts or removes afterwards");
    }
    fprintf(out, " (%s: %llu)\n", runs, (unsigned long long)q->repeat);
}

/* The recommendation: its lines, geometry, memory, figures and the rule
 * that decided. */
static void set_best(FILE *out, const fkc_pick_result *res, const fkc_pick_candidate *best)
{
    char mem[32];
    fkc_human_bytes(best->memory, mem, sizeof mem);
    fprintf(out, "recommend: %s\n", best->ops->name);
    fprintf(out, "  build:      %s\n", res->build);
    fprintf(out, "  C:          %s\n", res->c_line);
    fprintf(out, "  Python:     %s\n", res->py_line);
    if (res->grow_line[0])
        fprintf(out, "  grow:       %s\n", res->grow_line);
    if (best->params[0])
        fprintf(out, "  geometry:   %s\n", best->params);
    if (best->grown)
        fprintf(out, "  memory:     ~%s at %llu items, the end of the growth (%.2f bits per item)\n", mem,
                (unsigned long long)res->end, best->grow_bits);
    else
        fprintf(out, "  memory:     %s%s (%.2f bits per item at capacity)\n", best->exact ? "" : "~", mem,
                8.0 * (double)best->memory / (double)res->capacity);
    set_best_figures(out, res, best);
    fprintf(out, "  decided:    %s\n", res->decided);
}

/* The tables after the recommendation: cost per kind, the growth, why
 * not the others, the best fpr within the budget. */
static void set_tables(FILE *out, const fkc_pick_result *res, const fkc_pick_candidate *best)
{
    const fkc_pick_query *q = &res->q;
    if (res->fastest >= 0) {
        fprintf(out, "cost per operation at read ratio %.2f over %llu paired rounds: CPU ns (median, min-max of the "
                "rounds), and against %s round by round (the median ratio, the rounds it was the slower in); "
                "slower means over %.2fx and 7 rounds of 8:\n", q->read_ratio, (unsigned long long)res->rounds,
                res->c[res->fastest].ops->name, FKC_PICK_MARGIN);
        for (size_t i = 0; i < res->nc; i++) {
            const fkc_pick_candidate *x = &res->c[i];
            if (!x->raced)
                continue;
            const char *mark = x == best ? "  chosen" : x->tied ? "  tied" : "  slower";
            char range[64], rounds[48];
            snprintf(range, sizeof range, "%.1f-%.1f", x->cost_low, x->cost_high);
            snprintf(rounds, sizeof rounds, "%llu of %llu", (unsigned long long)x->slower_rounds,
                     (unsigned long long)x->paired_rounds);
            fprintf(out, "  %-16s %7.1f  %-15s %6.2fx %10s%s\n", x->ops->name, x->cost, range, x->ratio, rounds,
                    mark);
        }
    }
    if (res->grows && !q->no_timing)
        growth_print(out, res);
    fprintf(out, "why not the others:\n");
    for (size_t i = 0; i < res->nc; i++)
        if (&res->c[i] != best)
            fprintf(out, "  %s: %s%s\n", res->c[i].ops->name, res->c[i].reason,
                    res->c[i].untimed ? " (by the formulas: not timed)" : "");
    if (res->grows)
        return; /* the best fpr at n within a budget says nothing of the growth */
    best_fpr_table(out, res);
}

/* What the budget (or the recommendation's memory) buys from each kind
 * that can be sized at n: its lowest theoretical fpr. */
static void best_fpr_table(FILE *out, const fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    char bb[32];
    fkc_human_bytes(res->budget_for_best, bb, sizeof bb);
    fprintf(out, "best fpr within %s (%s) at capacity %llu:\n", bb,
            q->memory ? "the budget" : "the recommendation's memory", (unsigned long long)res->capacity);
    for (size_t i = 0; i < res->nc; i++) {
        const fkc_pick_candidate *x = &res->c[i];
        unsigned caps = fk_ops_caps(x->ops);
        if (!x->sized || x->doublings || (caps & FK_CAP_GROWS) || (caps & FK_CAP_EXPIRES))
            continue;
        fprintf(out, "  %-16s ", x->ops->name);
        if (isnan(x->best_fpr))
            fprintf(out, "does not fit\n");
        else
            fprintf(out, "%.3g%%%s\n", 100 * x->best_fpr, q->deletes && !(caps & FK_CAP_REMOVE) ? " (no deletes)" : "");
    }
}

/* Parquet's question in words (--parquet): always 0. */
static int parquet_text(FILE *out, const fkc_pick_result *res, const fkc_pick_parquet_result *pq)
{
    char size[32], mem[32], measured_size[32];
    fkc_human_bytes(pq->bytes, size, sizeof size);
    fkc_human_bytes(pq->memory, mem, sizeof mem);
    fkc_human_bytes(pq->measured_bytes, measured_size, sizeof measured_size);
    fprintf(out, "filterkit pick --parquet: %llu distinct values at fpp %.3g%%\n", (unsigned long long)pq->ndv,
            100 * pq->fpp);
    fprintf(out, "Parquet writers' size:   %s (%llu bytes, %llu blocks): %.2f bits per value; the rule asks "
            "%.2f, rounded up to a power of two\n", size, (unsigned long long)pq->bytes,
            (unsigned long long)(pq->bytes / 32), pq->bits_per_value, pq->rule_bits_per_value);
    fprintf(out, "split-block filter FPR:  %.4g%% by the blocked Bloom formula (k = 8, %.2f values per block), "
            "%.4g%% measured (%llu of %llu absent values; %llu values in %s, seed %llu), %.4g%% from its "
            "bits\n", 100 * pq->formula, (double)pq->ndv / (double)(pq->bytes / 32), 100 * pq->measured,
            (unsigned long long)pq->passed, (unsigned long long)pq->probes,
            (unsigned long long)pq->measured_ndv, measured_size, (unsigned long long)res->q.seed,
            100 * pq->fill_fpr);
    fprintf(out, "the rule sizes a classic Bloom filter (k = 8) for the fpp: at its own %.2f bits per value "
            "a split-block filter gives %.4g%%, %.2fx the %.3g%% asked; the power of two leaves it %s\n",
            pq->rule_bits_per_value, 100 * pq->rule_formula, pq->rule_formula / pq->fpp, 100 * pq->fpp,
            pq->formula > pq->fpp ? "above the fpp" : "within the fpp");
    fprintf(out, "every kind in the same memory (%s: the bitset and the filter's header in filterkit):\n", mem);
    best_fpr_table(out, res);
    return 0;
}

/* A set's answer in words: 0, or 1 when nothing fits (said on stderr). */
static int set_text(FILE *out, const fkc_pick_result *res)
{
    char budget[32] = "any";
    if (res->q.memory)
        fkc_human_bytes(res->q.memory, budget, sizeof budget);
    set_header(out, res, budget);
    if (res->best < 0) {
        set_none(res, budget);
        return 1;
    }
    const fkc_pick_candidate *best = &res->c[res->best];
    set_best(out, res, best);
    set_tables(out, res, best);
    return 0;
}

/* DIR/pick.csv, the data of plot 8 (plots/8_pick.gp): one row per
 * candidate that was measured, with the run info as '#' lines. Returns 0,
 * or -1 after printing why. */
static int write_csv(const char *dir, const fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    uint64_t budget = q->memory ? q->memory : res->budget_for_best;
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
    fkc_runinfo_fill(&ri, q->seed);
    const char *name;
    char value[2048];
    fprintf(f, "# filterkit pick: one row per measured candidate (plots/8_pick.gp)\n");
    for (int i = 0; fkc_runinfo_field(&ri, i, &name, value, sizeof value); i++)
        fprintf(f, "# %s: %s\n", name, value);
    fprintf(f, "kind,chosen,feasible,n,capacity,target_fpr,budget_bits_per_item,memory_bytes,bits_per_item,"
               "theory_fpr,fpr_measured,lookup50_ns,lookup50_ns_min,lookup50_ns_max,insert_ns,insert_ns_min,"
               "insert_ns_max\n");
    double cap = (double)res->capacity;
    for (size_t i = 0; i < res->nc; i++) {
        const fkc_pick_candidate *x = &res->c[i];
        if (!x->measured)
            continue;
        fprintf(f, "%s,%d,%d,%llu,%llu,%.6g,", x->ops->name, x->verdict == FKC_PICK_CHOSEN, !x->ruled_out[0],
                (unsigned long long)q->n, (unsigned long long)res->capacity, q->fpr);
        if (budget)
            fprintf(f, "%.6g", 8.0 * (double)budget / cap);
        fprintf(f, ",%llu,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", (unsigned long long)x->memory,
                8.0 * (double)x->memory / cap, x->theory, x->r.fpr_measured, x->r.lookup[2].median,
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

/* ---------------------------------------------------------- a window */

/* The query in words, and what was timed. */
static void window_header(FILE *out, const fkc_pick_result *res)
{
    const fkc_pick_query *q = &res->q;
    unsigned long long secs = (unsigned long long)q->window_seconds, n = (unsigned long long)res->window_items;
    char budget[32] = "any";
    if (q->memory)
        fkc_human_bytes(q->memory, budget, sizeof budget);
    if (secs)
        fprintf(out, "filterkit pick --window-seconds %llu: seen in the last %llu s, up to %llu items per window"
                "%s, fpr=%.3g%%, memory budget: %s, read ratio %.2f\n", secs, secs, n, q->rate ? " (--rate x T)" : "",
                100 * q->fpr, budget, q->read_ratio);
    else
        fprintf(out, "filterkit pick --window %llu: seen among the last %llu inserts, fpr=%.3g%%, memory budget: %s, "
                "read ratio %.2f\n", n, n, 100 * q->fpr, budget, q->read_ratio);
    if (secs)
        fprintf(out, "sized for: %llu items per %llu s = the peak + %.3g%% headroom (--headroom); a burst past it "
                "is refused (FK_EFULL), never a key inside the window forgotten\n", (unsigned long long)res->capacity,
                secs, 100 * res->headroom);
    if (res->nmeas)
        fprintf(out, "(timed on a window of %llu: a stream of %llu distinct u64 keys, lookups of keys inside "
                "the window and never seen, %s%llu run%s%s)\n\n", (unsigned long long)res->n_meas,
                (unsigned long long)res->stream, q->repeat > 1 ? "median of " : "", (unsigned long long)q->repeat,
                q->repeat > 1 ? "s" : "", secs ? "; the baselines as count windows, they have no clock" : "");
    else
        fprintf(out, "(nothing timed: %s)\n\n", q->no_timing ? "--no-timing" : "the sizing formulas rule every kind out");
}

/* The recommendation: its lines, geometry, memory, promise, figures and
 * the rule that decided. */
static void window_best(FILE *out, const fkc_pick_result *res, const fkc_pick_candidate *best)
{
    const fkc_pick_query *q = &res->q;
    char mem[32];
    fkc_human_bytes(best->memory, mem, sizeof mem);
    fprintf(out, "recommend: %s\n", best->ops->name);
    fprintf(out, "  dedup:      %s\n", res->build);
    fprintf(out, "  C:          %s\n", res->c_line);
    if (res->py_line[0])
        fprintf(out, "  Python:     %s\n", res->py_line);
    if (best->params[0])
        fprintf(out, "  geometry:   %s\n", best->params);
    fprintf(out, "  memory:     %s (%.2f bits per window item; the floor is log2(1/fpr) + log2(e) = %.2f)\n", mem,
            8.0 * (double)best->memory / (double)res->capacity, res->floor_bits);
    if (q->window_seconds)
        fprintf(out, "  promise:    every key added in the last %llu s answers present; one answers present at most "
                "%llu s after its last add (slack T/7)\n", (unsigned long long)q->window_seconds,
                (unsigned long long)((8 * q->window_seconds + 6) / 7));
    else if (best->lifetime)
        fprintf(out, "  promise:    every key among the last %llu inserts answers present; one answers present for "
                "at most %llu inserts after its last add (slack %llu, N/7)\n", (unsigned long long)res->capacity,
                (unsigned long long)best->lifetime, (unsigned long long)(best->lifetime - res->capacity));
    if (best->measured) {
        fprintf(out, "  measured:   fpr %.3g%% (%s keys; theory %.3g%%), keys just past the window %.3g%%, "
                "%llu keys checked inside the window, %llu missed; insert %.1f ns, lookup %.1f ns (never seen), "
                "%.1f ns (in the window)\n", 100 * best->outside,
                best->worst_band >= 0 ? fkc_band_names[best->worst_band] : "-", 100 * best->theory,
                100 * fkc_fpr_rate(best->band[FKC_BAND_EXPIRED]), (unsigned long long)best->window_checked,
                (unsigned long long)best->window_misses, best->insert.median, best->absent.median,
                best->found.median);
        fprintf(out, "  cost:       %.1f ns per operation at read ratio %.2f (%.1f-%.1f over the %llu run%s)\n",
                best->cost, q->read_ratio, best->cost_low, best->cost_high, (unsigned long long)q->repeat,
                q->repeat > 1 ? "s" : "");
    }
    fprintf(out, "  decided:    %s\n", res->decided);
}

/* The tables after the recommendation: the measured figures, why not the
 * others, bits per window item. */
static void window_tables(FILE *out, const fkc_pick_result *res, const fkc_pick_candidate *best)
{
    const fkc_pick_query *q = &res->q;
    double cap = (double)res->capacity;
    if (res->nmeas) {
        fprintf(out, "measured at read ratio %.2f (ns: median, min-max of the runs; fpr: the worst of old and "
                "never-seen keys; 'past': keys aged 8N/7 to 2N):\n", q->read_ratio);
        fprintf(out, "  %-16s %7s %13s %8s %8s %7s %7s\n", "kind", "cost", "min-max", "fpr", "past", "insert", "lookup");
        for (size_t i = 0; i < res->nc; i++) {
            const fkc_pick_candidate *x = &res->c[i];
            if (!x->measured)
                continue;
            char range[64];
            snprintf(range, sizeof range, "%.1f-%.1f", x->cost_low, x->cost_high);
            fprintf(out, "  %-16s %7.1f %13s %7.3f%% %7.3f%% %7.1f %7.1f%s\n", x->ops->name, x->cost, range,
                    100 * x->outside, 100 * fkc_fpr_rate(x->band[FKC_BAND_EXPIRED]), x->insert.median,
                    (x->absent.median + x->found.median) / 2,
                    x == best ? "  chosen" : x->baseline ? "  baseline" : x->tied ? "  tied" : "");
        }
    }
    fprintf(out, "why not the others:\n");
    for (size_t i = 0; i < res->nc; i++)
        if (&res->c[i] != best)
            fprintf(out, "  %s: %s%s\n", res->c[i].ops->name, res->c[i].reason,
                    res->c[i].untimed ? " (by the formulas: not timed)" : "");
    fprintf(out, "bits per window item at fpr %.3g%% (sizing formulas; floor %.2f):\n", 100 * q->fpr, res->floor_bits);
    for (size_t i = 0; i < res->nc; i++) {
        const fkc_pick_candidate *x = &res->c[i];
        if (!x->sized || x->memory == FKC_MODEL_TOO_BIG)
            continue;
        fprintf(out, "  %-16s %6.2f", x->ops->name, 8.0 * (double)x->memory / cap);
        if (x->lifetime)
            fprintf(out, "   keys live %.3gN at most", (double)x->lifetime / cap);
        fputc('\n', out);
    }
}

/* A window's answer in words: 0, or 1 when nothing fits (said on stderr). */
static int window_text(FILE *out, const fkc_pick_result *res)
{
    window_header(out, res);
    if (res->best < 0) {
        fprintf(stderr, "filterkit pick: no sliding-window filter meets these constraints.\n");
        for (size_t i = 0; i < res->nc; i++) {
            const fkc_pick_candidate *x = &res->c[i];
            fprintf(stderr, "  %s: %s%s\n", x->ops->name, x->baseline ? "(a benchmark baseline) " : "",
                    x->ruled_out[0] ? x->ruled_out : "qualifies, but filterkit cannot build it");
        }
        return 1;
    }
    const fkc_pick_candidate *best = &res->c[res->best];
    window_best(out, res, best);
    window_tables(out, res, best);
    return 0;
}

/* ------------------------------------------------------------ the command */

/* The JSON form: the result's doc through report_json.c's writer. */
static int print_json(FILE *out, const fkc_pick_result *res)
{
    fkc_doc d = { 0 };
    if (fkc_pick_doc(res, &d) != 0) {
        fkc_doc_free(&d);
        fprintf(stderr, "filterkit pick: out of memory\n");
        return 1;
    }
    fkc_json_doc(out, &d);
    fkc_doc_free(&d);
    if (res->best < 0)
        fprintf(stderr, "filterkit pick: no %sfilter meets these constraints (see \"reason\")\n",
                res->window_mode ? "sliding-window " : "");
    return res->best >= 0 ? 0 : 1;
}

int fkc_cmd_pick(int argc, char **argv)
{
    fkc_pick_query q;
    fkc_pick_result *res = malloc(sizeof *res);
    const char *format = "text", *out_dir = NULL;
    int parquet = 0;
    fkc_pick_parquet_result pq;
    if (!res) {
        fprintf(stderr, "filterkit pick: out of memory\n");
        return 1;
    }
    int rc = run_query(argc, argv, &q, res, &format, &out_dir, &parquet, &pq);
    if (rc == 0 && res->status == FKC_PICK_EFAIL) {
        fprintf(stderr, "filterkit pick: %s\n", res->message);
        rc = 1;
    } else if (rc == 0 && out_dir && strcmp(out_dir, "-") != 0 && write_csv(out_dir, res) != 0) {
        rc = 1;
    } else if (rc == 0 && parquet) {
        rc = parquet_text(stdout, res, &pq);
    } else if (rc == 0) {
        rc = strcmp(format, "json") == 0 ? print_json(stdout, res)
           : res->window_mode ? window_text(stdout, res) : set_text(stdout, res);
    }
    free(res);
    return rc < 0 ? 0 : rc;
}
