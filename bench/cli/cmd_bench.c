/* bench/cli/cmd_bench.c: `filterkit bench`: every filter at one parameter set
 * (or a few, given comma lists), side by side with the baselines. */
#include <stdio.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "hints.h"
#include "../baselines/runnable_kinds.h"
#include "../measure/grid.h"

int fkc_cmd_bench(int argc, char **argv)
{
    fkc_kind_opt filters = { .at = fkc_kind_at, .value = "all" };
    const char *keys = "u64", *format = "table", *out = "results", *name = NULL;
    fkc_u64_list ns = { { 1000000 }, 1 };
    fkc_double_list fprs = { { 0.01 }, 1 };
    uint64_t repeat = 5, seed = 1, lookups = 0;
    int no_fill = 0, wide = 0;
    uint64_t threads = 0;
    int binary_lines = 0;
    const fkc_opt opts[] = {
        { "filters", FKC_OPT_KINDS, &filters, "LIST", "filters to run, comma-separated, or all: every kind but the growing ones (default: all)" },
        { "n", FKC_OPT_COUNT_LIST, &ns, "N", "items to insert; a comma list runs each (default: 1000000)" },
        { "fpr", FKC_OPT_FPR_LIST, &fprs, "P", "target false-positive rate(s), e.g. 0.01 or 1% (default: 0.01)" },
        { "keys", FKC_OPT_STR, &keys, "u64|str|FILE", "8-byte integers, 8..64-byte strings, or a file's lines (- = stdin)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "--keys FILE: keep a '\\r' before the '\\n' as part of the key" },
        { "repeat", FKC_OPT_REPEAT, &repeat, "R", "timed runs per figure; the median is reported (default: 5)" },
        { "seed", FKC_OPT_U64, &seed, "S", "seed of the keys and of the hash (default: 1)" },
        { "lookups", FKC_OPT_COUNT, &lookups, "N", "keys per lookup mix (default: n clamped to [2^20, 2^21])" },
        { "no-fill", FKC_OPT_FLAG, &no_fill, NULL, "skip filling a separate instance to its first failed insert" },
        { "threads", FKC_OPT_COUNT, &threads, "T", "also measure T threads inserting (concurrent calls) and looking up at once" },
        { "format", FKC_OPT_CHOICE, &format, "table|csv|json", "what to print on stdout (default: table)" },
        { "wide", FKC_OPT_FLAG, &wide, NULL, "the table with every column (about 150 wide), not the compact one" },
        { "out", FKC_OPT_STR, &out, "DIR", "folder for the CSV and JSON files, - for none (default: results)" },
        { "name", FKC_OPT_STR, &name, "STEM", "file name stem (default: bench-KEYS)" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = {
        "bench", "[--filters LIST] [--n N] [--fpr P] [--keys u64|str|FILE] [--repeat R] [--seed S] "
                 "[--format table|csv|json] [--wide] [--out DIR]",
        "Measures each filter at each (n, fpr) through the same vtable on the same keys:\n"
        "memory, bits per item, target/theoretical/measured FPR, load, ns per insert,\n"
        "ns per lookup at 0/25/50/75/100% inserted keys, ns per remove, and throughput\n"
        "relative to libbloom; inserts and 0%/100% lookups also through the batch calls\n"
        "(fk_filter_*_many). With --threads T, also the aggregate million operations\n"
        "per second of T threads inserting into one filter at once\n"
        "(fk_filter_insert_concurrent) and looking up in it, beside one thread\n"
        "(a second table). Columns: 'filterkit columns'.",
        opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (wide && strcmp(format, "table") == 0)
        format = "wide";

    const fk_ops *kinds[FKC_KINDS_MAX];
    size_t nkinds;
    char err[512];
    if (fkc_kinds_parse(filters.value, kinds, &nkinds, err, sizeof err)) {
        char dym[96];
        fkc_did_you_mean_kinds(filters.value, dym, sizeof dym);
        return fkc_args_fail(&spec, "--filters: %s%s", err, dym);
    }
    fkc_keyspec ks = { FKC_KEYS_U64, NULL, seed, binary_lines };
    if (fkc_keyspec_parse(keys, &ks))
        return fkc_args_fail(&spec, "--keys: expected u64, str or a file name");
    ks.seed = seed;
    if (strcmp(filters.value, "all") == 0 && !fkc_kind_find("libbloom"))
        fprintf(stderr, "filterkit bench: note: no libbloom baseline: %s; running without it\n",
                fkc_kind_missing_why("libbloom"));

    if (threads > FKC_THREADS_MAX)
        return fkc_args_fail(&spec, "--threads: at most %u", FKC_THREADS_MAX);
    fkc_grid g = { kinds, nkinds, ks, ns.v, ns.n, fprs.v, fprs.n, (unsigned)repeat, lookups, !no_fill,
                   "bench", NULL, 0, (unsigned)threads };
    fkc_rows rows = { 0 };
    rc = fkc_grid_run(&g, &rows);
    if (rc == 0) {
        fkc_results_ratios(rows.rows, rows.n);
        char title[256], stem[128];
        snprintf(title, sizeof title, "filterkit bench: keys=%s, repeat=%llu, seed=%llu (ns per operation)",
                 fkc_key_type_name(ks.type), (unsigned long long)repeat, (unsigned long long)seed);
        snprintf(stem, sizeof stem, "bench-%s", fkc_key_type_name(ks.type));
        rc = fkc_emit(format, title, 0, rows.rows, rows.n, out, name ? name : stem, seed);
    }
    fkc_rows_free(&rows);
    return rc;
}
