/* bench/cli/cmd_sweep.c: `filterkit sweep --vary n|fpr|load`: the series the
 * plots are drawn from. */
#include <stdio.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "hints.h"
#include "../baselines/runnable_kinds.h"
#include "../clock/progress.h"
#include "../measure/grid.h"

static const uint64_t series_n[] = { 10000, 30000, 100000, 300000, 1000000, 3000000, 10000000,
                                     30000000, 100000000 };
#define SERIES_N_NORMAL 7 /* up to 1e7; --large adds 3e7 and 1e8 */
static const double series_fpr[] = { 0.1, 0.03, 0.01, 0.003, 0.001, 0.0003, 0.0001 };
static const double series_load[] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95 };
/* --vary growth: a growing kind starts at n / growth; the fixed kinds run
 * once, sized for n, beside them */
static const uint64_t series_growth[] = { 1, 10, 1000 };
#define GROWTH_FILTERS "scalable-bloom,bloom,scalable-blocked,blocked,scalable-cuckoo,cuckoo"
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int fkc_cmd_sweep(int argc, char **argv)
{
    fkc_kind_opt filters = { .at = fkc_kind_at };
    const char *vary = NULL, *keys = "u64", *format = "table", *out = "results",
               *name = NULL;
    fkc_u64_list ns = { { 0 }, 0 };
    fkc_double_list fprs = { { 0 }, 0 };
    uint64_t repeat = 3, seed = 1, lookups = 0;
    int large = 0, no_fill = 0, wide = 0;
    int binary_lines = 0;
    const fkc_opt opts[] = {
        { "vary", FKC_OPT_CHOICE, &vary, "n|fpr|load|growth", "what the series varies (required)" },
        { "filters", FKC_OPT_KINDS, &filters, "LIST", "filters to run (default: all; for load: cuckoo; for growth: the growing kinds and their inner kinds)" },
        { "n", FKC_OPT_COUNT_LIST, &ns, "N", "items (default 1000000); with --vary n, the series itself" },
        { "fpr", FKC_OPT_FPR_LIST, &fprs, "P", "target FPR (default 0.01); with --vary fpr, the series itself" },
        { "large", FKC_OPT_FLAG, &large, NULL, "--vary n: go up to 1e8 items (DRAM), not 1e7" },
        { "keys", FKC_OPT_STR, &keys, "u64|str|FILE", "key type, as for bench; a FILE of - is stdin (default: u64)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "--keys FILE: keep a '\\r' before the '\\n' as part of the key" },
        { "repeat", FKC_OPT_REPEAT, &repeat, "R", "timed runs per figure (default: 3)" },
        { "seed", FKC_OPT_U64, &seed, "S", "seed of the keys and of the hash (default: 1)" },
        { "lookups", FKC_OPT_COUNT, &lookups, "N", "keys per lookup mix (default: automatic)" },
        { "no-fill", FKC_OPT_FLAG, &no_fill, NULL, "--vary fpr: skip filling to the first failed insert" },
        { "format", FKC_OPT_CHOICE, &format, "table|csv|json", "what to print on stdout (default: table)" },
        { "wide", FKC_OPT_FLAG, &wide, NULL, "the table with every column (about 150 wide), not the compact one" },
        { "out", FKC_OPT_STR, &out, "DIR", "folder for the CSV and JSON files, - for none (default: results)" },
        { "name", FKC_OPT_STR, &name, "STEM", "file name stem (default: sweep-VARY-KEYS)" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = {
        "sweep", "--vary n|fpr|load|growth [--filters LIST] [--n N] [--fpr P] [--large] [--keys u64|str|FILE] "
                 "[--repeat R] [--format table|csv|json] [--wide] [--out DIR]",
        "Series for the plots. --vary n: n from 1e4 to 1e7 (1e8 with --large) at one fpr,\n"
        "crossing the cache levels. --vary fpr: fpr from 10% to 0.01% at one n. --vary load:\n"
        "a cuckoo filter filled step by step from 10% to 95% load, timing the inserts of\n"
        "each step and lookups and FPR at each load. --vary growth: each growing kind\n"
        "(scalable-*) starts at capacity n/1, n/10 and n/1000 and grows to n keys, beside\n"
        "the fixed kinds sized for n (column growth).",
        opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (wide && strcmp(format, "table") == 0)
        format = "wide";
    if (!vary)
        return fkc_args_fail(&spec, "missing --vary n|fpr|load|growth");
    if (strcmp(vary, "n") != 0 && ns.n > 1)
        return fkc_args_fail(&spec, "--n: one value only unless --vary n");
    if (strcmp(vary, "fpr") != 0 && fprs.n > 1)
        return fkc_args_fail(&spec, "--fpr: one value only unless --vary fpr");
    if (large && strcmp(vary, "n") != 0)
        return fkc_args_fail(&spec, "--large only applies to --vary n");

    int load = strcmp(vary, "load") == 0;
    int growing = strcmp(vary, "growth") == 0;
    if (!filters.value)
        filters.value = load ? "cuckoo" : growing ? GROWTH_FILTERS : "all";
    const fk_ops *kinds[FKC_KINDS_MAX];
    size_t nkinds;
    char err[512];
    if (fkc_kinds_parse(filters.value, kinds, &nkinds, err, sizeof err)) {
        char dym[96];
        fkc_did_you_mean_kinds(filters.value, dym, sizeof dym);
        return fkc_args_fail(&spec, "--filters: %s%s%s", err, dym,
                            load && !fkc_kind_find("cuckoo") ? " (the load sweep needs a kind that fills up)" : "");
    }
    fkc_keyspec ks = { FKC_KEYS_U64, NULL, seed, binary_lines };
    if (fkc_keyspec_parse(keys, &ks))
        return fkc_args_fail(&spec, "--keys: expected u64, str or a file name");
    ks.seed = seed;

    if (strcmp(vary, "n") == 0 && ns.n == 0) {
        ns.n = large ? COUNT(series_n) : SERIES_N_NORMAL;
        memcpy(ns.v, series_n, ns.n * sizeof ns.v[0]);
    } else if (ns.n == 0) {
        ns.v[0] = 1000000;
        ns.n = 1;
    }
    if (strcmp(vary, "fpr") == 0 && fprs.n == 0) {
        fprs.n = COUNT(series_fpr);
        memcpy(fprs.v, series_fpr, sizeof series_fpr);
    } else if (fprs.n == 0) {
        fprs.v[0] = 0.01;
        fprs.n = 1;
    }

    fkc_rows rows = { 0 };
    char title[256], stem[128];
    snprintf(stem, sizeof stem, "sweep-%s-%s", vary, fkc_key_type_name(ks.type));
    snprintf(title, sizeof title, "filterkit sweep --vary %s: keys=%s, repeat=%llu, seed=%llu%s", vary,
             fkc_key_type_name(ks.type), (unsigned long long)repeat, (unsigned long long)seed,
             load ? "" : " (ns per operation)");
    if (load) {
        fkc_progress_begin("sweep", nkinds * repeat * COUNT(series_load));
        for (size_t k = 0; k < nkinds && rc == 0; k++) {
            fkc_result r[COUNT(series_load)];
            fk_status s = fkc_measure_load(kinds[k], &ks, ns.v[0], fprs.v[0], series_load,
                                          COUNT(series_load), (unsigned)repeat, lookups, r);
            if (s != FK_OK) {
                fprintf(stderr, "filterkit sweep: %s: %s\n", kinds[k]->name, fk_strerror(s));
                rc = 1;
            }
            for (size_t i = 0; i < COUNT(series_load) && rc == 0; i++)
                if (fkc_rows_push(&rows, &r[i]))
                    rc = 1;
        }
        fkc_progress_end();
    } else {
        fkc_grid g = { kinds, nkinds, ks, ns.v, ns.n, fprs.v, fprs.n, (unsigned)repeat, lookups,
                      strcmp(vary, "fpr") == 0 && !no_fill, "sweep",
                      growing ? series_growth : NULL, growing ? COUNT(series_growth) : 0, 0 };
        rc = fkc_grid_run(&g, &rows);
        if (rc == 0)
            fkc_results_ratios(rows.rows, rows.n);
    }
    if (rc == 0)
        rc = fkc_emit(format, title, load, rows.rows, rows.n, out, name ? name : stem, seed);
    fkc_rows_free(&rows);
    return rc;
}
