/* bench/cli/cmd_bench.c: `filterkit bench`: every filter at one parameter set
 * (or a few, given comma lists), side by side with the baselines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "hints.h"
#include "../baselines/runnable_kinds.h"
#include "../measure/grid.h"
#include "../measure/growth.h"
#include "../measure/window_stream.h"
#include "../report/report.h"
#include "../report/runinfo.h"

/* The window workload's default filters: every runnable kind that forgets
 * (FK_CAP_EXPIRES: the library's window kind, the window baselines), and
 * the speed reference. */
static void window_defaults(const char *reference, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; fkc_kind_at(i) && at < len; i++)
        if (fk_ops_caps(fkc_kind_at(i)) & FK_CAP_EXPIRES)
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "," : "", fkc_kind_at(i)->name);
    if (at < len)
        snprintf(buf + at, len - at, "%s%s", at ? "," : "", reference);
}

/* Whether name is in the comma list. */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

/* Appends the CSV of one (n, fpr) set to csv: its header line only for the
 * first set, so the file is one table (the plots read it whole). */
static void window_csv_rows(FILE *csv, const fkc_window_cfg *cfg, const fkc_window_row *set, size_t got, int header)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        fkc_window_csv(csv, cfg, set, got); /* a header too many beats losing the rows */
        return;
    }
    fkc_window_csv(mem, cfg, set, got);
    if (fclose(mem) == 0 && text) {
        const char *rows = header ? text : strchr(text, '\n');
        if (rows)
            fputs(header ? rows : rows + 1, csv);
    }
    free(text);
}

/* `bench --workload window`: each (n, fpr) in turn, a table each, one CSV
 * (the run's provenance as '#' lines, as every result file has). */
static int bench_window(const fkc_cmd_spec *spec, const char *filters, int filters_given, const char *reference,
                        const fkc_u64_list *ns, const fkc_double_list *fprs, uint64_t seed, uint64_t stream,
                        uint64_t probes, int no_batches, const char *format, const char *out, const char *name)
{
    char defaults[256];
    window_defaults(reference, defaults, sizeof defaults);
    const char *list = filters_given ? filters : defaults;
    const fk_ops *kinds[FKC_KINDS_MAX];
    size_t nkinds;
    char err[512];
    if (fkc_kinds_parse(list, kinds, &nkinds, err, sizeof err))
        return fkc_args_fail(spec, "--filters: %s", err);
    if (strcmp(format, "table") != 0 && strcmp(format, "csv") != 0)
        return fkc_args_fail(spec, "--format: the window workload prints a table or csv");
    size_t cap = ns->n * fprs->n * nkinds;
    fkc_window_row *rows = calloc(cap ? cap : 1, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "filterkit bench: out of memory\n");
        return 1;
    }
    FILE *csv = NULL;
    char path[1024] = "";
    if (strcmp(out, "-") != 0) {
        snprintf(path, sizeof path, "%s/%s.csv", out, name ? name : "bench-window");
        if (fkc_make_dirs(out) != 0 || !(csv = fopen(path, "w"))) {
            fprintf(stderr, "filterkit bench: cannot write %s\n", path);
            free(rows);
            return 1;
        }
    }
    /* the rows, kept until the end, when the provenance is known */
    char *body_text = NULL;
    size_t body_len = 0;
    FILE *body = csv ? open_memstream(&body_text, &body_len) : NULL;
    int rc = 0;
    size_t done = 0;
    for (size_t a = 0; a < ns->n && rc == 0; a++)
        for (size_t b = 0; b < fprs->n && rc == 0; b++) {
            fkc_window_cfg cfg = { ns->v[a], fprs->v[b], seed, stream, probes, !no_batches };
            fkc_window_row *set = rows + done;
            size_t got = 0;
            for (size_t i = 0; i < nkinds; i++) {
                char prefix[96];
                snprintf(prefix, sizeof prefix, "filterkit bench: window n=%llu fpr=%g: ",
                         (unsigned long long)cfg.n, cfg.fpr);
                fk_status s = fkc_window_run(&cfg, kinds[i], in_list(reference, kinds[i]->name), &set[got], prefix);
                if (s != FK_OK) {
                    fprintf(stderr, "filterkit bench: %s at n=%llu fpr=%g: %s; skipped\n", kinds[i]->name,
                            (unsigned long long)cfg.n, cfg.fpr, fk_strerror(s));
                    continue;
                }
                if (set[got].window_misses) {
                    fprintf(stderr, "filterkit bench: %s: %llu FALSE NEGATIVES inside the window\n",
                            kinds[i]->name, (unsigned long long)set[got].window_misses);
                    rc = 1;
                }
                got++;
            }
            if (strcmp(format, "table") == 0)
                fkc_window_table(stdout, &cfg, set, got, reference);
            else
                fkc_window_csv(stdout, &cfg, set, got);
            if (body)
                window_csv_rows(body, &cfg, set, got, done == 0);
            done += got;
        }
    if (body && !done)
        fkc_window_csv(body, &(fkc_window_cfg){ 0 }, rows, 0); /* the header alone */
    if (csv) {
        /* the provenance first, filled now: the other work it records is
         * what ran beside the whole measurement */
        fkc_runinfo ri;
        fkc_runinfo_fill(&ri, seed);
        const char *field;
        char value[2048];
        fprintf(csv, "# filterkit bench --workload window: one row per filter and (n, fpr) (plots 10 and 11)\n");
        for (int i = 0; fkc_runinfo_field(&ri, i, &field, value, sizeof value); i++)
            fprintf(csv, "# %s: %s\n", field, value);
        if (!body || fclose(body) != 0 || !body_text)
            rc = 1;
        else
            fputs(body_text, csv);
        body = NULL;
    }
    free(body_text);
    if (csv && fclose(csv) != 0) {
        fprintf(stderr, "filterkit bench: cannot write %s\n", path);
        rc = 1;
    }
    free(rows);
    return rc;
}

/* The growth workload's default filters: every runnable kind that gets
 * larger after it is made (FK_CAP_GROWS by itself, FK_CAP_RESIZES in place),
 * and the reference, made for the end size. */
static void growth_defaults(const char *reference, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; fkc_kind_at(i) && at < len; i++)
        if (fk_ops_caps(fkc_kind_at(i)) & (FK_CAP_GROWS | FK_CAP_RESIZES))
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "," : "", fkc_kind_at(i)->name);
    if (at < len)
        snprintf(buf + at, len - at, "%s%s", at ? "," : "", reference);
}

/* `bench --workload growth`: each kind from n0 to n0 * grow, a point per
 * doubling; a table (or CSV) on stdout and the CSV in out/. */
static int bench_growth(const fkc_cmd_spec *spec, const char *filters, int filters_given, const char *reference,
                        const char *presized, const fkc_growth_cfg *cfg, const char *format, const char *out,
                        const char *name)
{
    char defaults[512];
    growth_defaults(reference, defaults, sizeof defaults);
    const fk_ops *kinds[FKC_KINDS_MAX];
    size_t nkinds;
    char err[512];
    if (fkc_kinds_parse(filters_given ? filters : defaults, kinds, &nkinds, err, sizeof err))
        return fkc_args_fail(spec, "--filters: %s", err);
    /* --presized: these kinds also run made for the end size, after the others */
    const fk_ops *extra[FKC_KINDS_MAX];
    size_t nextra = 0;
    if (presized && fkc_kinds_parse(presized, extra, &nextra, err, sizeof err))
        return fkc_args_fail(spec, "--presized: %s", err);
    for (size_t i = 0; i < nextra; i++) {
        if (fkc_growth_role_of(extra[i]) == FKC_PRESIZED)
            return fkc_args_fail(spec, "--presized: %s is pre-sized already; name it in --filters",
                                 extra[i]->name);
        if (nkinds >= FKC_KINDS_MAX)
            return fkc_args_fail(spec, "--presized: too many kinds");
        kinds[nkinds++] = extra[i];
    }
    size_t grown = nkinds - nextra;
    if (strcmp(format, "table") != 0 && strcmp(format, "csv") != 0)
        return fkc_args_fail(spec, "--format: the growth workload prints a table or csv");
    size_t per = cfg->doublings + 1u, n = 0;
    fkc_growth_point *pts = calloc(per * nkinds, sizeof *pts);
    if (!pts) {
        fprintf(stderr, "filterkit bench: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < nkinds; i++) {
        size_t got = 0;
        fk_status s = fkc_growth_run_as(cfg, kinds[i], i < grown ? fkc_growth_role_of(kinds[i]) : FKC_PRESIZED,
                                        pts + n, &got, "filterkit bench: growth: ");
        if (s != FK_OK) {
            fprintf(stderr, "filterkit bench: %s: %s%s\n", kinds[i]->name, fk_strerror(s),
                    got ? "; its run stops there" : "; skipped");
            rc = 1;
        }
        n += got;
    }
    if (strcmp(format, "table") == 0)
        fkc_growth_table(stdout, cfg, pts, n, reference);
    else
        fkc_growth_csv(stdout, cfg, pts, n);
    if (strcmp(out, "-") != 0) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.csv", out, name ? name : "bench-growth");
        FILE *csv = fkc_make_dirs(out) == 0 ? fopen(path, "w") : NULL;
        if (csv) {
            /* the provenance every result file has (plot 7 prints it) */
            fkc_runinfo ri;
            fkc_runinfo_fill(&ri, cfg->seed);
            const char *field;
            char value[2048];
            fprintf(csv, "# filterkit bench --workload growth: one row per filter and doubling (plot 7)\n");
            for (int i = 0; fkc_runinfo_field(&ri, i, &field, value, sizeof value); i++)
                fprintf(csv, "# %s: %s\n", field, value);
            fkc_growth_csv(csv, cfg, pts, n);
        }
        if (!csv || fclose(csv) != 0) {
            fprintf(stderr, "filterkit bench: cannot write %s\n", path);
            rc = 1;
        }
    }
    free(pts);
    return rc;
}

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
    const char *workload = "fill", *reference = "cuckoo", *presized = NULL;
    uint64_t stream = 0, probes = 0, n0 = 10000, grow = 1024;
    int no_batches = 0;
    const fkc_opt opts[] = {
        { "workload", FKC_OPT_CHOICE, &workload, "fill|window|growth", "fill: n keys, then lookups (default); window: a stream of 10 n distinct inserts into sliding-window filters of n, lookups of keys of every age; growth: the growing kinds from n0 keys to n0 x grow, measured at each doubling" },
        { "n0", FKC_OPT_COUNT, &n0, "N", "--workload growth: the keys the growing kinds are made for (default: 10000)" },
        { "grow", FKC_OPT_COUNT, &grow, "G", "--workload growth: the growth, a power of two >= 2 (default: 1024)" },
        { "stream", FKC_OPT_COUNT, &stream, "S", "--workload window: inserts in the stream (default: 10 n)" },
        { "probes", FKC_OPT_COUNT, &probes, "P", "--workload window: lookups per age band (default: n clamped to [1000, 2^20]); growth: absent keys per doubling (default: the end size up to 2^20)" },
        { "reference", FKC_OPT_STR, &reference, "LIST", "--workload window: kinds that take n keys, not the stream: the speed reference; growth: the kind the ratios are over (default: cuckoo)" },
        { "presized", FKC_OPT_STR, &presized, "LIST", "--workload growth: kinds that grow or resize, also run made for the end size (the same design without the growth)" },
        { "no-batches", FKC_OPT_FLAG, &no_batches, NULL, "--workload window|growth: skip the batch calls" },
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
        "(a second table). Columns: 'filterkit columns'.\n"
        "--workload window: sliding-window filters of n (the window kind, the APBF and\n"
        "rotating-Bloom baselines) take 10 n distinct inserts; printed per filter: bits per\n"
        "window item, the share of keys answering present by age (window: false negatives;\n"
        "slack N..8N/7; expired 8N/7..2N; old; never seen), ns per insert and lookup, single\n"
        "and batched, and ratios to the reference (a cuckoo filter holding n keys).\n"
        "--workload growth: the kinds that grow (chains, expandable) made for --n0 keys and\n"
        "the quotient filter grown in place (fk_filter_grow when full) take keys up to\n"
        "n0 x --grow, beside the reference made for the end size (--presized LIST: growing\n"
        "kinds made for the end size too); at each doubling: bits per key, measured FPR\n"
        "and absent-lookup ns (single, batch) over --probes keys never inserted, then\n"
        "inserts per key over the whole growth (first --fpr).",
        opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (strcmp(workload, "window") == 0)
        return bench_window(&spec, filters.value, strcmp(filters.value, "all") != 0, reference, &ns, &fprs, seed,
                            stream, probes, no_batches, format, out, name);
    if (strcmp(workload, "growth") == 0) {
        if (grow < 2 || (grow & (grow - 1)) || n0 == 0 || n0 > (UINT64_MAX >> 1) / grow)
            return fkc_args_fail(&spec, "--grow: a power of two >= 2, with --n0 x --grow in range");
        unsigned doublings = 0;
        while ((UINT64_C(1) << doublings) < grow)
            doublings++;
        fkc_growth_cfg cfg = { n0, doublings, fprs.v[0], seed, probes, !no_batches };
        return bench_growth(&spec, filters.value, strcmp(filters.value, "all") != 0, reference, presized, &cfg,
                            format, out, name);
    }
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
