/* bench/report/result.c: the documented columns. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "result.h"

const unsigned fkc_mix_pct[FKC_MIXES] = { 0, 25, 50, 75, 100 };

#define S(f, doc) { #f, FKC_COL_STR, offsetof(fkc_result, f), doc }
#define U(f, doc) { #f, FKC_COL_U64, offsetof(fkc_result, f), doc }
#define F(f, doc) { #f, FKC_COL_F, offsetof(fkc_result, f), doc }
#define T(name, f, what) \
    { name "_ns", FKC_COL_F, offsetof(fkc_result, f.median), "median ns per " what " over the repeats" }, \
    { name "_ns_min", FKC_COL_F, offsetof(fkc_result, f.min), "fastest repeat, ns per " what }, \
    { name "_ns_max", FKC_COL_F, offsetof(fkc_result, f.max), "slowest repeat, ns per " what }

static const fkc_column bench_cols[] = {
    S(kind, "filter kind (a registered kind, or a baseline such as libbloom)"),
    S(keys,
      "key type: u64 (8-byte random integers), str (random 8..64-byte strings) or "
      "file (lines of a file)"),
    U(n, "items the filter was sized for and keys inserted"),
    F(target_fpr, "false-positive rate asked for"),
    U(seed, "workload and hash seed (--seed)"),
    U(repeat, "timed runs per figure (--repeat); each *_ns is their median"),
    U(lookups, "keys per lookup mix (each mix is timed over this many lookups)"),
    U(memory_bytes,
      "bytes the filter holds after the inserts (fk_stats.memory_bytes), headers "
      "included"),
    F(bits_per_item, "8 * memory_bytes / n"),
    F(load,
      "fk_stats.load_factor after the inserts: cuckoo occupied slots / slots; bloom "
      "set bits / bits; counting nonzero counters / counters; libbloom theoretical "
      "fill"),
    F(fpr_theory,
      "fk_stats.expected_fpr after the inserts: the kind's theoretical false-positive "
      "rate at its actual fill"),
    F(fpr_measured, "false_positives / fpr_negatives"),
    F(fpr_low, "lower end of the 95% Wilson interval of fpr_measured"),
    F(fpr_high, "upper end of the 95% Wilson interval of fpr_measured"),
    U(fpr_negatives,
      "never-inserted keys looked up to measure the FPR: at least max(1M, "
      "100/target_fpr) (capped at 32M)"),
    U(false_positives, "of those, lookups that answered 'maybe present'"),
    U(false_negatives,
      "inserted keys of the 100% mix that answered 'absent' (must be 0 unless inserts "
      "failed)"),
    U(insert_failures, "inserts among the n that did not return FK_OK (cuckoo: FK_EFULL)"),
    U(remove_failures,
      "removes of the n inserted keys that did not return FK_OK (0 for kinds without "
      "remove)"),
    F(load_at_full,
      "load factor when a separate instance, sized for n and filled with fresh keys, "
      "first answered FK_EFULL (kinds with FK_CAP_BOUNDED; tried up to 2.2n + 64 keys); "
      "empty for kinds that never fill up or when filling was skipped"),
    U(items_at_full, "items held at that first failure"),
    F(bits_per_item_at_full,
      "8 * memory_bytes / items_at_full: the memory per item of a filter filled to "
      "its first failure"),
    F(fpr_at_full,
      "false-positive rate of that full instance, measured on the same fpr_negatives "
      "keys"),
    T("insert", insert,
      "insert of n keys into an empty filter; for a static kind (static_kind 1), its "
      "build from the n keys (fk_filter_build), per key"),
    T("lookup0", lookup[0], "lookup, mix of 0% inserted keys (all negative)"),
    T("lookup25", lookup[1], "lookup, mix of 25% inserted keys"),
    T("lookup50", lookup[2], "lookup, mix of 50% inserted keys"),
    T("lookup75", lookup[3], "lookup, mix of 75% inserted keys"),
    T("lookup100", lookup[4], "lookup, mix of 100% inserted keys (all positive)"),
    T("remove", remove, "remove of the n inserted keys; empty when the kind cannot remove"),
    F(x_lb_insert,
      "insert throughput relative to libbloom in the same run (libbloom insert_ns / "
      "insert_ns; >1 is faster); empty without libbloom"),
    F(x_lb_lookup0,
      "negative-lookup throughput relative to libbloom (libbloom lookup0_ns / "
      "lookup0_ns)"),
    F(x_lb_lookup100,
      "positive-lookup throughput relative to libbloom (libbloom lookup100_ns / "
      "lookup100_ns)"),
    U(static_kind,
      "1 for a kind built from the whole set (FK_CAP_STATIC: no insert; insert_ns and "
      "insert_batch_ns time fk_filter_build and fk_filter_build_u64), else 0"),
    U(build_peak_bytes,
      "resident memory the first timed build added at its peak, filter included "
      "(Linux VmHWM after resetting it through /proc/self/clear_refs; 0 when the "
      "system cannot tell)"),
    F(build_temp_per_key,
      "(build_peak_bytes - memory_bytes) / n: temporary memory of a build per key "
      "(about 0 for kinds that insert in place)"),
    U(growth,
      "n / the capacity the filter was made with: 1, except for a growing kind "
      "(scalable-*) in sweep --vary growth, which starts at n / growth and grows"),
    T("insert_batch", insert_batch,
      "insert of the same n keys through fk_filter_insert_many (u64 keys: "
      "fk_filter_insert_many_u64) in batches of 1024"),
    T("lookup0_batch", lookup0_batch,
      "lookup of the lookup0 keys through fk_filter_contains_many (u64 keys: "
      "fk_filter_contains_many_u64) in batches of 1024"),
    T("lookup100_batch", lookup100_batch,
      "lookup of the lookup100 keys through fk_filter_contains_many (u64 keys: "
      "fk_filter_contains_many_u64) in batches of 1024"),
    F(x_lb_insert_batch,
      "batched insert throughput relative to libbloom's single-key inserts (libbloom "
      "insert_ns / insert_batch_ns); insert_batch_ns / insert_ns is the batch's own gain"),
    F(x_lb_lookup0_batch, "libbloom lookup0_ns / lookup0_batch_ns"),
    F(x_lb_lookup100_batch, "libbloom lookup100_ns / lookup100_batch_ns"),
    T("insert_u64", insert_u64,
      "insert of the same n keys one call per key through fk_filter_insert_u64 (u64 keys "
      "only: the key as an integer, the same bits as its 8 bytes; empty for other keys "
      "and for a static kind, which has no insert: its lookups are timed on its build)"),
    T("lookup0_u64", lookup0_u64,
      "lookup of the lookup0 keys one call per key through fk_filter_contains_u64 (u64 "
      "keys only)"),
    T("lookup50_u64", lookup50_u64,
      "lookup of the lookup50 keys (half inserted, in random order) one call per key "
      "through fk_filter_contains_u64 (u64 keys only)"),
    T("lookup100_u64", lookup100_u64,
      "lookup of the lookup100 keys one call per key through fk_filter_contains_u64 (u64 "
      "keys only)"),
    F(x_lb_lookup0_u64,
      "libbloom lookup0_ns / lookup0_u64_ns (libbloom has no integer call: its figure is "
      "the byte call's)"),
    F(x_lb_lookup100_u64, "libbloom lookup100_ns / lookup100_u64_ns"),
    U(threads, "bench --threads T: T (0 without --threads, and the columns below are empty)"),
    F(cinsert_1t_mops,
      "million fk_filter_insert_concurrent calls per second, one thread, n keys into an "
      "empty filter (median of the repeats); empty for kinds without a concurrent insert"),
    F(cinsert_mops,
      "the same with T threads inserting at once into one filter, each a contiguous "
      "share of the n keys: aggregate million inserts per second over the wall time"),
    F(lookup_1t_mops,
      "million fk_filter_contains calls per second on the 50% mix, one thread, on a "
      "filter holding the n keys"),
    F(lookup_mops,
      "the same with T threads each looking up a share of the mix at once: aggregate "
      "million lookups per second"),
    F(cinsert_vs_insert,
      "cost of one-thread fk_filter_insert_concurrent relative to the plain insert of "
      "the same kind (1000 / cinsert_1t_mops / insert_ns; 1 = same cost)"),
    F(mixed_1t_mops,
      "million operations per second, one thread, on a filter holding half the n keys: "
      "of every 10, 9 fk_filter_contains of the 50% mix and 1 fk_filter_insert_concurrent "
      "of a key of the other half; empty for kinds without a concurrent insert"),
    F(mixed_mops,
      "the same with T threads each taking a share of the operations at once: aggregate "
      "million operations per second"),
    F(ceiling_cinsert,
      "the machine's ceiling for cinsert_mops / cinsert_1t_mops in the same run: T private "
      "jobs (each a share of the n keys into a filter of its own sized for the share, "
      "through fk_filter_insert_concurrent) run at once, rate over the same jobs run one "
      "after another by one thread; nothing is shared, so a kind's scaling over this is "
      "the part its own sharing costs"),
    F(ceiling_lookup,
      "the same for lookup_mops / lookup_1t_mops: T private jobs, each a share of the 50% "
      "mix looked up in its private filter"),
};

static const fkc_column load_cols[] = {
    S(kind, "filter kind"),
    S(keys, "key type: u64, str or file"),
    U(n, "items the filter was sized for (the table holds a few more slots: the fewest buckets of 4 that hold n at the sizing load, any count)"),
    F(target_fpr, "false-positive rate the filter was sized for"),
    U(seed, "workload and hash seed"),
    U(repeat, "timed runs per figure; each *_ns is their median"),
    U(lookups, "keys per lookup mix at each step"),
    F(load_target, "load factor this step fills to"),
    F(load, "fk_stats.load_factor reached (below load_target when an insert failed first)"),
    U(items, "items held at this step"),
    U(memory_bytes, "bytes the filter holds"),
    F(bits_per_item, "8 * memory_bytes / items"),
    U(insert_failures, "1 when an insert of this step answered FK_EFULL (the sweep stops there)"),
    T("insert", insert, "insert, for the keys added between the previous step and this one"),
    T("lookup0", lookup[0], "lookup of never-inserted keys at this load"),
    T("lookup100", lookup[4], "lookup of inserted keys at this load"),
    F(fpr_theory, "fk_stats.expected_fpr at this load"),
    F(fpr_measured, "false positives among the lookup0 keys at this load / lookups"),
    U(fpr_negatives, "never-inserted keys looked up for fpr_measured"),
    U(false_negatives, "inserted keys that answered 'absent' (must be 0)"),
};

const fkc_schema fkc_schema_bench = { bench_cols, sizeof bench_cols / sizeof bench_cols[0] };
const fkc_schema fkc_schema_load = { load_cols, sizeof load_cols / sizeof load_cols[0] };

void fkc_result_init(fkc_result *r)
{
    memset(r, 0, sizeof *r);
    /* every double field starts as NaN = "not measured" (written through
     * memcpy: the column table gives a byte offset, not a double *) */
    const double not_measured = NAN;
    for (size_t i = 0; i < fkc_schema_bench.n; i++)
        if (bench_cols[i].type == FKC_COL_F)
            memcpy((char *)r + bench_cols[i].offset, &not_measured, sizeof not_measured);
    for (size_t i = 0; i < fkc_schema_load.n; i++)
        if (load_cols[i].type == FKC_COL_F)
            memcpy((char *)r + load_cols[i].offset, &not_measured, sizeof not_measured);
}

static double ratio(double base, double x) { return base / x; }

void fkc_results_ratios(fkc_result *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const fkc_result *lb = NULL;
        for (size_t j = 0; j < n && !lb; j++)
            if (strcmp(rows[j].kind, "libbloom") == 0 && rows[j].n == rows[i].n &&
                rows[j].target_fpr == rows[i].target_fpr && strcmp(rows[j].keys, rows[i].keys) == 0)
                lb = &rows[j];
        if (!lb)
            continue;
        rows[i].x_lb_insert = ratio(lb->insert.median, rows[i].insert.median);
        rows[i].x_lb_lookup0 = ratio(lb->lookup[0].median, rows[i].lookup[0].median);
        rows[i].x_lb_lookup100 = ratio(lb->lookup[4].median, rows[i].lookup[4].median);
        rows[i].x_lb_insert_batch = ratio(lb->insert.median, rows[i].insert_batch.median);
        rows[i].x_lb_lookup0_batch = ratio(lb->lookup[0].median, rows[i].lookup0_batch.median);
        rows[i].x_lb_lookup100_batch = ratio(lb->lookup[4].median, rows[i].lookup100_batch.median);
        rows[i].x_lb_lookup0_u64 = ratio(lb->lookup[0].median, rows[i].lookup0_u64.median);
        rows[i].x_lb_lookup100_u64 = ratio(lb->lookup[4].median, rows[i].lookup100_u64.median);
    }
}
