/* bench/report/report_table.c: the tables printed for people. */
#include <math.h>
#include <string.h>
#include "report.h"

/* A number in a fixed width, or "-" when not measured. */
static void cell(FILE *to, int width, const char *fmt, double v)
{
    if (isnan(v) || isinf(v))
        fprintf(to, " %*s", width, "-");
    else
        fprintf(to, fmt, width, v);
}

/* A rate as a percentage with 3 significant digits. */
static void pct(FILE *to, int width, double v)
{
    char buf[32];
    if (isnan(v)) {
        fprintf(to, " %*s", width, "-");
        return;
    }
    snprintf(buf, sizeof buf, "%.3g%%", 100 * v);
    fprintf(to, " %*s", width, buf);
}

/* Item counts read better as 10M than 10000000. */
static void count(FILE *to, int width, uint64_t n)
{
    char buf[32];
    if (n >= 1000000 && n % 1000000 == 0)
        snprintf(buf, sizeof buf, "%lluM", (unsigned long long)(n / 1000000));
    else if (n >= 1000 && n % 1000 == 0)
        snprintf(buf, sizeof buf, "%lluk", (unsigned long long)(n / 1000));
    else
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)n);
    fprintf(to, " %*s", width, buf);
}

static void thread_table(FILE *to, const fkc_result *rows, size_t n);

/* The default table: what a chooser compares first, about 90 columns wide
 * (--wide prints every figure). */
static void compact_table(FILE *to, const char *title, const fkc_result *rows, size_t n)
{
    int lb = 0, grows = 0, w = 9;
    for (size_t i = 0; i < n; i++) {
        lb |= !isnan(rows[i].x_lb_lookup0);
        grows |= rows[i].growth > 1;
        if (strlen(rows[i].kind) > (size_t)w)
            w = (int)strlen(rows[i].kind);
    }
    if (title)
        fprintf(to, "%s\n", title);
    fprintf(to, "%-*s", w, "filter");
    if (grows)
        fprintf(to, " %5s", "grown");
    fprintf(to, " %4s %6s %7s %8s %6s %6s %6s %6s %6s", "n", "fpr", "bits", "fpr", "insert", "lookup",
            "lookup", "remove", "batch");
    if (lb)
        fprintf(to, " %6s", "lookup");
    fprintf(to, "\n%-*s", w, "");
    if (grows)
        fprintf(to, " %5s", "x");
    fprintf(to, " %4s %6s %7s %8s %6s %6s %6s %6s %6s", "", "target", "/item", "measured", "ns", "absent",
            "found", "ns", "absent");
    if (lb)
        fprintf(to, " %6s", "x lb");
    fputc('\n', to);
    for (size_t i = 0; i < n; i++) {
        const fkc_result *r = &rows[i];
        fprintf(to, "%-*s", w, r->kind);
        if (grows)
            count(to, 5, r->growth ? r->growth : 1);
        count(to, 4, r->n);
        pct(to, 6, r->target_fpr);
        cell(to, 7, " %*.2f", r->bits_per_item);
        pct(to, 8, r->fpr_measured);
        cell(to, 6, " %*.1f", r->insert.median);
        cell(to, 6, " %*.1f", r->lookup[0].median);
        cell(to, 6, " %*.1f", r->lookup[FKC_MIXES - 1].median);
        cell(to, 6, " %*.1f", r->remove.median);
        cell(to, 6, " %*.1f", r->lookup0_batch.median);
        if (lb)
            cell(to, 6, " %*.2f", r->x_lb_lookup0);
        if (r->insert_failures || r->false_negatives || r->remove_failures)
            fprintf(to, "  (%llu failed inserts, %llu false negatives, %llu failed removes)",
                    (unsigned long long)r->insert_failures, (unsigned long long)r->false_negatives,
                    (unsigned long long)r->remove_failures);
        fputc('\n', to);
    }
    fprintf(to, "ns = median ns per operation over the repeats; absent/found = lookups of keys\n"
                "not inserted / inserted; batch = through fk_filter_contains_many\n");
    if (lb)
        fprintf(to, "x lb = absent-lookup throughput relative to libbloom (>1 = faster)\n");
    if (grows)
        fprintf(to, "grown x = n / the capacity it started at\n");
    fprintf(to, "--wide prints every column ('filterkit columns' documents them)\n");
    thread_table(to, rows, n);
}

void fkc_report_table(FILE *to, const char *title, const fkc_result *rows, size_t n, int wide)
{
    if (!wide) {
        compact_table(to, title, rows, n);
        return;
    }
    int lb = 0, grows = 0, statics = 0, ints = 0, w = 9; /* w: the filter column fits the longest name */
    for (size_t i = 0; i < n; i++) {
        lb |= !isnan(rows[i].x_lb_insert);
        statics |= rows[i].static_kind != 0;
        ints |= !isnan(rows[i].insert_u64.median);
        grows |= rows[i].growth > 1;
        if (strlen(rows[i].kind) > (size_t)w)
            w = (int)strlen(rows[i].kind);
    }
    if (title)
        fprintf(to, "%s\n", title);
    fprintf(to, "%-*s", w, "filter");
    if (grows)
        fprintf(to, " %5s", "grown");
    fprintf(to, " %5s %4s %6s %7s %7s %7s %5s %5s %6s %6s %6s %6s %6s %6s %6s",
            "keys", "n", "fpr", "bits/it", "fpr", "fpr", "load", "full", "insert",
            "look", "look", "look", "look", "look", "remove");
    fprintf(to, " %6s %6s %6s", "b.ins", "b.look", "b.look");
    if (ints)
        fprintf(to, " %6s %6s %6s %6s", "u.ins", "u.look", "u.look", "u.look");
    if (lb)
        fprintf(to, " %6s %6s %6s", "insert", "neg", "pos");
    if (statics)
        fprintf(to, " %6s", "b.tmp");
    fprintf(to, "\n%-*s", w, "");
    if (grows)
        fprintf(to, " %5s", "x");
    fprintf(to, " %5s %4s %6s %7s %7s %7s %5s %5s %6s %6s %6s %6s %6s %6s %6s",
            "", "", "target", "", "measured", "theory", "", "load", "ns", "0%", "25%", "50%",
            "75%", "100%", "ns");
    fprintf(to, " %6s %6s %6s", "ns", "0%", "100%");
    if (ints)
        fprintf(to, " %6s %6s %6s %6s", "ns", "0%", "50%", "100%");
    if (lb)
        fprintf(to, " %6s %6s %6s", "x lb", "x lb", "x lb");
    if (statics)
        fprintf(to, " %6s", "B/key");
    fputc('\n', to);
    for (size_t i = 0; i < n; i++) {
        const fkc_result *r = &rows[i];
        fprintf(to, "%-*s", w, r->kind);
        if (grows)
            count(to, 5, r->growth ? r->growth : 1);
        fprintf(to, " %5s", r->keys);
        count(to, 4, r->n);
        pct(to, 6, r->target_fpr);
        cell(to, 7, " %*.2f", r->bits_per_item);
        pct(to, 7, r->fpr_measured);
        pct(to, 7, r->fpr_theory);
        cell(to, 5, " %*.2f", r->load);
        cell(to, 5, " %*.2f", r->load_at_full);
        cell(to, 6, " %*.1f", r->insert.median);
        for (int m = 0; m < FKC_MIXES; m++)
            cell(to, 6, " %*.1f", r->lookup[m].median);
        cell(to, 6, " %*.1f", r->remove.median);
        cell(to, 6, " %*.1f", r->insert_batch.median);
        cell(to, 6, " %*.1f", r->lookup0_batch.median);
        cell(to, 6, " %*.1f", r->lookup100_batch.median);
        if (ints) {
            cell(to, 6, " %*.1f", r->insert_u64.median);
            cell(to, 6, " %*.1f", r->lookup0_u64.median);
            cell(to, 6, " %*.1f", r->lookup50_u64.median);
            cell(to, 6, " %*.1f", r->lookup100_u64.median);
        }
        if (lb) {
            cell(to, 6, " %*.2f", r->x_lb_insert);
            cell(to, 6, " %*.2f", r->x_lb_lookup0);
            cell(to, 6, " %*.2f", r->x_lb_lookup100);
        }
        if (statics)
            cell(to, 6, " %*.1f", r->build_temp_per_key);
        if (r->insert_failures || r->false_negatives || r->remove_failures)
            fprintf(to, "  (%llu failed inserts, %llu false negatives, %llu failed removes)",
                    (unsigned long long)r->insert_failures, (unsigned long long)r->false_negatives,
                    (unsigned long long)r->remove_failures);
        fputc('\n', to);
    }
    fprintf(to, "ns = median ns per operation over the repeats; look N%% = lookups with N%% inserted keys;"
                " full load = load at the first failed insert; b. = through the batch calls"
                " (fk_filter_*_many)%s%s%s\n",
            ints ? "; u. = one call per key through fk_filter_insert_u64 / _contains_u64" : "",
            lb ? "; x lb = throughput relative to libbloom (>1 = faster)" : "",
            grows ? "; grown x = n / the capacity it started at" : "");
    if (statics)
        fprintf(to, "static kinds (built from the whole set): insert = fk_filter_build per key,"
                    " b.ins = fk_filter_build_u64 for 8-byte keys; b.tmp = temporary memory at"
                    " the build's peak, bytes per key (resident high-water mark minus the filter)\n");
    thread_table(to, rows, n);
}

/* The thread-scaling table of `bench --threads`, when a row has it. */
static void thread_table(FILE *to, const fkc_result *rows, size_t n)
{
    size_t i = 0;
    while (i < n && !rows[i].threads)
        i++;
    if (i == n)
        return;
    fprintf(to, "\nthreads: million operations per second (aggregate), one thread and %llu\n",
            (unsigned long long)rows[i].threads);
    fprintf(to, "%-9s %5s %4s %6s %8s %8s %7s %7s %7s %7s %8s %8s %7s %7s %7s %8s %8s %7s\n",
            "filter", "keys", "n", "fpr", "cinsert", "cinsert", "scaling", "ceiling", "of ceil",
            "cost vs", "lookup", "lookup", "scaling", "ceiling", "of ceil", "mixed", "mixed",
            "scaling");
    fprintf(to, "%-9s %5s %4s %6s %8s %8s %7s %7s %7s %7s %8s %8s %7s %7s %7s %8s %8s %7s\n", "",
            "", "", "target", "1 thr", "T thr", "", "", "", "insert", "1 thr", "T thr", "", "", "",
            "1 thr", "T thr", "");
    for (; i < n; i++) {
        const fkc_result *r = &rows[i];
        if (!r->threads)
            continue;
        fprintf(to, "%-9s %5s", r->kind, r->keys);
        count(to, 4, r->n);
        pct(to, 6, r->target_fpr);
        cell(to, 8, " %*.2f", r->cinsert_1t_mops);
        cell(to, 8, " %*.2f", r->cinsert_mops);
        cell(to, 7, " %*.2f", r->cinsert_mops / r->cinsert_1t_mops);
        cell(to, 7, " %*.2f", r->ceiling_cinsert);
        cell(to, 7, " %*.2f", r->cinsert_mops / r->cinsert_1t_mops / r->ceiling_cinsert);
        cell(to, 7, " %*.2f", r->cinsert_vs_insert);
        cell(to, 8, " %*.2f", r->lookup_1t_mops);
        cell(to, 8, " %*.2f", r->lookup_mops);
        cell(to, 7, " %*.2f", r->lookup_mops / r->lookup_1t_mops);
        cell(to, 7, " %*.2f", r->ceiling_lookup);
        cell(to, 7, " %*.2f", r->lookup_mops / r->lookup_1t_mops / r->ceiling_lookup);
        cell(to, 8, " %*.2f", r->mixed_1t_mops);
        cell(to, 8, " %*.2f", r->mixed_mops);
        cell(to, 7, " %*.2f", r->mixed_mops / r->mixed_1t_mops);
        fputc('\n', to);
    }
    fprintf(to, "cinsert = fk_filter_insert_concurrent into one filter; lookup = fk_filter_contains, "
                "50%% mix; mixed = 9 lookups and 1 concurrent insert in 10, on a filter half full; "
                "scaling = T threads / 1 thread; ceiling = T private jobs (a filter each, "
                "nothing shared) at once / one after another, the machine's limit now; "
                "of ceil = scaling / ceiling; cost vs insert = one-thread concurrent "
                "insert time / plain insert time\n");
}

void fkc_report_table_load(FILE *to, const char *title, const fkc_result *rows, size_t n)
{
    if (title)
        fprintf(to, "%s\n", title);
    fprintf(to, "%-9s %6s %6s %9s %7s %7s %7s %7s %8s %8s\n", "filter", "target", "load", "items",
            "bits/it", "insert", "look", "look", "fpr", "fpr");
    fprintf(to, "%-9s %6s %6s %9s %7s %7s %7s %7s %8s %8s\n", "", "load", "", "", "", "ns", "neg",
            "pos", "measured", "theory");
    for (size_t i = 0; i < n; i++) {
        const fkc_result *r = &rows[i];
        fprintf(to, "%-9s", r->kind);
        cell(to, 6, " %*.2f", r->load_target);
        cell(to, 6, " %*.3f", r->load);
        fprintf(to, " %9llu", (unsigned long long)r->items);
        cell(to, 7, " %*.2f", r->bits_per_item);
        cell(to, 7, " %*.1f", r->insert.median);
        cell(to, 7, " %*.1f", r->lookup[0].median);
        cell(to, 7, " %*.1f", r->lookup[4].median);
        pct(to, 8, r->fpr_measured);
        pct(to, 8, r->fpr_theory);
        if (r->insert_failures)
            fputs("  (insert failed: FK_EFULL)", to);
        fputc('\n', to);
    }
}
