/* bench/cli/cmd_pick.c: `filterkit pick`: measure every built-in kind briefly
 * at the asked scale and recommend one, saying why each other one loses. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "../baselines/runnable_kinds.h"
#include "../measure/memory_model.h"
#include "../clock/progress.h"
#include "../measure/grid.h"
#include "../report/units.h"
#include "../../registry/registry.h"

/* Timings are measured at no more than this many items (memory is
 * extrapolated exactly), so a pick takes seconds, not minutes. */
#define PICK_MAX_MEASURED UINT64_C(2000000)
/* A kind within this factor of the fastest counts as "as fast"; among
 * those, the smallest wins. */
#define PICK_SPEED_SLACK 1.25
/* A kind qualifies when its theoretical FPR at n is at most this times the
 * target: Bloom sizing rounds k to a whole number, which lifts its theory
 * by up to about 5% (at k = 1 or 2; under 1% at k >= 6). A kind that
 * cannot reach the target -- a cuckoo filter's 32-bit fingerprint at
 * fpr 1e-14 -- misses by orders of magnitude and is never picked. */
#define PICK_THEORY_SLACK 1.05

typedef struct {
    const fk_ops *ops;
    fkc_result     r;
    int           measured;   /* timed (cost and r are set) */
    int           sized;      /* memory and theory are known */
    uint64_t      memory;     /* at the full n */
    int           exact;
    double        theory;     /* theoretical FPR at the full n */
    double        cost;       /* ns per operation at the read ratio */
    char          why_not[200];
    char          params[160];
} candidate;

/* Rules c out when its memory or theory at n do not fit; returns whether
 * it did (c->why_not then says why). */
static int judge(candidate *c, double fpr, uint64_t budget)
{
    char need[32], have[32];
    fkc_human_bytes(c->memory, need, sizeof need);
    fkc_human_bytes(budget, have, sizeof have);
    if (c->memory > FK_MEMORY_CAP)
        snprintf(c->why_not, sizeof c->why_not, "needs %s, over filterkit's 64 GiB cap "
                 "(its constructor refuses it)", need);
    else if (!(c->theory <= fpr * PICK_THEORY_SLACK))
        snprintf(c->why_not, sizeof c->why_not, "its theoretical fpr at n is %.3g, above the %.3g asked",
                 c->theory, fpr);
    else if (budget && c->memory > budget)
        snprintf(c->why_not, sizeof c->why_not, "needs %s, over the %s budget", need, have);
    return c->why_not[0] != 0;
}

int fkc_cmd_pick(int argc, char **argv)
{
    uint64_t n = 0, memory = 0, seed = 1, repeat = 3;
    double fpr = 0, read_ratio = 0.9;
    int deletes = 0;
    const char *keys = "u64";
    int binary_lines = 0;
    const fkc_opt opts[] = {
        { "n", FKC_OPT_COUNT, &n, "N", "items the filter must hold (required)" },
        { "fpr", FKC_OPT_FPR, &fpr, "P", "largest acceptable false-positive rate (required)" },
        { "deletes", FKC_OPT_FLAG, &deletes, NULL, "items must be removable" },
        { "memory", FKC_OPT_BYTES, &memory, "BYTES", "memory budget (e.g. 64M, 1GiB); default: none" },
        { "read-ratio", FKC_OPT_RATIO, &read_ratio, "R", "share of operations that are lookups (default: 0.9)" },
        { "keys", FKC_OPT_STR, &keys, "u64|str|FILE", "key type to measure with (default: u64)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "--keys FILE: keep a '\\r' before the '\\n' as part of the key" },
        { "repeat", FKC_OPT_REPEAT, &repeat, "R", "timed runs per figure (default: 3)" },
        { "seed", FKC_OPT_U64, &seed, "S", "seed of the keys and of the hash (default: 1)" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = {
        "pick", "--n N --fpr P [--deletes] [--memory BYTES] [--read-ratio R] [--keys u64|str|FILE]",
        "Measures each built-in filter briefly (at most 2M items; memory is extrapolated\n"
        "exactly from the sizing formulas) and recommends the one that is fastest for the\n"
        "read ratio, preferring the smallest among those within 1.25x of the fastest.\n"
        "Exit status 1 when no filter meets the constraints.",
        opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (!n)
        return fkc_args_fail(&spec, "missing --n N");
    if (fpr == 0)
        return fkc_args_fail(&spec, "missing --fpr P");
    fkc_keyspec ks = { FKC_KEYS_U64, NULL, seed, binary_lines };
    if (fkc_keyspec_parse(keys, &ks))
        return fkc_args_fail(&spec, "--keys: expected u64, str or a file name");
    ks.seed = seed;

    candidate c[FKC_KINDS_MAX];
    size_t nc = 0;
    for (size_t i = 0; fk_ops_at(i) && nc < FKC_KINDS_MAX; i++) {
        memset(&c[nc], 0, sizeof c[nc]);
        c[nc++].ops = fk_ops_at(i);
    }
    /* What the formulas rule out needs no measurement: too big for the
     * constructor or the budget, or a theory above the target at n. */
    size_t nmeas = 0;
    fkc_measure_cfg cfg[FKC_KINDS_MAX];
    size_t which[FKC_KINDS_MAX];
    for (size_t i = 0; i < nc; i++) {
        if (deletes && !(fk_ops_caps(c[i].ops) & FK_CAP_REMOVE)) {
            snprintf(c[i].why_not, sizeof c[i].why_not, "no deletes");
            continue;
        }
        if (fk_ops_caps(c[i].ops) & FK_CAP_GROWS) {
            snprintf(c[i].why_not, sizeof c[i].why_not,
                     "grows when n is unknown; with n known its inner kind sized for n "
                     "needs less memory and one lookup instead of one per sub-filter");
            continue;
        }
        c[i].memory = fkc_model_bytes(c[i].ops, n, fpr, c[i].params, sizeof c[i].params);
        if (c[i].memory) {
            c[i].sized = 1;
            c[i].theory = fkc_model_fpr(c[i].ops, n, fpr, NAN);
            judge(&c[i], fpr, memory);
        }
        if (!c[i].why_not[0]) {
            cfg[nmeas] = (fkc_measure_cfg){ c[i].ops, fpr, (unsigned)repeat, 0, 0, 0 };
            which[nmeas++] = i;
        }
    }
    uint64_t n_meas = n < PICK_MAX_MEASURED ? n : PICK_MAX_MEASURED;
    if (nmeas) {
        fkc_bench_keys bk;
        char err[256];
        fkc_progress_begin();
        fkc_progress("pick: generating %llu keys", (unsigned long long)n_meas);
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
            x->memory = fkc_model_extrapolate(x->ops, fpr, n_meas, x->r.memory_bytes, n, &x->exact);
            x->theory = fkc_model_fpr(x->ops, n, fpr, x->r.fpr_theory);
            x->cost = read_ratio * x->r.lookup[2].median + (1 - read_ratio) * x->r.insert.median;
            if (x->r.insert_failures)
                snprintf(x->why_not, sizeof x->why_not, "%llu of %llu inserts failed at this size",
                         (unsigned long long)x->r.insert_failures, (unsigned long long)n_meas);
            else if (!judge(x, fpr, memory) && x->r.fpr_low > fpr)
                snprintf(x->why_not, sizeof x->why_not, "measured fpr %.3g%% is above the %.3g%% asked",
                         100 * x->r.fpr_measured, 100 * fpr);
        }
        fkc_bench_keys_free(&bk);
        fkc_progress_end();
    }

    /* the fastest feasible, then the smallest of those nearly as fast */
    const candidate *best = NULL;
    for (size_t i = 0; i < nc; i++)
        if (!c[i].why_not[0] && (!best || c[i].cost < best->cost))
            best = &c[i];
    if (best) {
        double limit = best->cost * PICK_SPEED_SLACK;
        for (size_t i = 0; i < nc; i++)
            if (!c[i].why_not[0] && c[i].cost <= limit && c[i].memory < best->memory)
                best = &c[i];
    }

    char budget[32] = "any";
    if (memory)
        fkc_human_bytes(memory, budget, sizeof budget);
    printf("filterkit pick: n=%llu, fpr=%.3g%%, deletes: %s, memory budget: %s, read ratio %.2f\n",
           (unsigned long long)n, 100 * fpr, deletes ? "yes" : "no", budget, read_ratio);
    if (nmeas)
        printf("(timed at n=%llu with %s keys, median of %llu runs%s)\n\n", (unsigned long long)n_meas,
               fkc_key_type_name(ks.type), (unsigned long long)repeat,
               n_meas < n ? "; at the full n lookups slow down once the filter outgrows the caches" : "");
    else
        printf("(nothing timed: the sizing formulas rule every kind out)\n\n");

    if (!best) {
        const candidate *smallest = NULL;
        for (size_t i = 0; i < nc; i++)
            if (c[i].sized && (!deletes || (fk_ops_caps(c[i].ops) & FK_CAP_REMOVE)) &&
                (!smallest || c[i].memory < smallest->memory))
                smallest = &c[i];
        fprintf(stderr, "filterkit pick: no filter meets these constraints.\n");
        if (smallest && memory) {
            char need[32], floor_b[32];
            fkc_human_bytes(smallest->memory, need, sizeof need);
            fkc_human_bytes((uint64_t)ceil((double)n * log2(1 / fpr) / 8), floor_b, sizeof floor_b);
            fprintf(stderr, "  the smallest%s is %s with %s, over the %s budget (no filter can go below"
                            " n*log2(1/fpr) = %s at this fpr)\n", deletes ? " with deletes" : "",
                    smallest->ops->name, need, budget, floor_b);
        }
        for (size_t i = 0; i < nc; i++)
            fprintf(stderr, "  %s: %s\n", c[i].ops->name, c[i].why_not);
        return 1;
    }

    char mem[32];
    fkc_human_bytes(best->memory, mem, sizeof mem);
    printf("recommend: %s\n", best->ops->name);
    printf("  parameters: fk_params_make(%llu, %g) with fk_ops_find(\"%s\")%s%s\n", (unsigned long long)n, fpr,
           best->ops->name, best->params[0] ? ": " : "", best->params);
    printf("  memory:     %s%s (%.2f bits per item)\n", best->exact ? "" : "~", mem,
           8.0 * (double)best->memory / (double)n);
    printf("  measured:   fpr %.3g%% (theory %.3g%% at n), insert %.1f ns, lookup %.1f ns (50%% present), "
           "%.1f ns (absent)", 100 * best->r.fpr_measured, 100 * best->theory, best->r.insert.median,
           best->r.lookup[2].median, best->r.lookup[0].median);
    if (!isnan(best->r.remove.median))
        printf(", remove %.1f ns", best->r.remove.median);
    printf("\n  cost:       %.1f ns per operation at read ratio %.2f\n", best->cost, read_ratio);
    printf("why not the others:\n");
    for (size_t i = 0; i < nc; i++) {
        const candidate *o = &c[i];
        if (o == best)
            continue;
        printf("  %s: ", o->ops->name);
        if (o->why_not[0]) {
            printf("%s\n", o->why_not);
            continue;
        }
        double mr = (double)o->memory / (double)best->memory, tr = o->cost / best->cost;
        if (mr >= 1.1 && tr >= 1.1)
            printf("%.1fx the memory and %.1fx the time per operation of %s at this fpr\n", mr, tr,
                   best->ops->name);
        else if (mr >= 1.1)
            printf("%.1fx the memory of %s at this fpr%s\n", mr, best->ops->name,
                   tr < 1 ? " (for a little more speed)" : "");
        else if (tr >= 1.1)
            printf("%.1fx slower per operation (%.1f vs %.1f ns at read ratio %.2f)\n", tr, o->cost,
                   best->cost, read_ratio);
        else
            printf("close (%.2fx the memory, %.2fx the time); %s is smaller or faster\n", mr, tr,
                   best->ops->name);
    }
    return 0;
}
