/* bench/measure/window_stream.c: the window workload (window_stream.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "loops.h"
#include "window_stream.h"
#include "../baselines/window_baselines.h"
#include "../clock/timing.h"
#include "../keys/keygen.h"
#include "../keys/rng.h"

/* Keys per timed chunk of the stream: generated before the clock starts. */
#define CHUNK_MAX 65536u
/* Keys per batch call, as the other batch columns (batch_loops.h). */
#define BATCH 1024u

const char *const fkc_band_names[FKC_BANDS] = { "window", "slack", "expired", "old", "never" };

void fkc_band_ages(fkc_band b, uint64_t n, uint64_t s, uint64_t *lo, uint64_t *hi)
{
    uint64_t a = 0, z = 0;
    switch (b) {
    case FKC_BAND_WINDOW: a = 0, z = n; break;
    case FKC_BAND_SLACK: a = n, z = n + n / 7; break;
    case FKC_BAND_EXPIRED: a = n + n / 7, z = 2 * n; break;
    case FKC_BAND_OLD: a = 2 * n, z = s; break;
    default: break;
    }
    if (z > s)
        z = s;
    if (a > z)
        a = z;
    *lo = a, *hi = z;
}

double fkc_window_rate(const fkc_window_row *r, fkc_band b)
{
    return r->probes[b] ? (double)r->present[b] / (double)r->probes[b] : NAN;
}

/* ------------------------------------------------------------ the run */

typedef struct {
    const fkc_window_cfg *cfg;
    fk_filter *f;
    fkc_window_row *row;
    uint64_t *keys;       /* CHUNK_MAX: the chunk being inserted */
    uint64_t *probe;      /* per_cp: the keys of one band at one checkpoint */
    bool     *answers;    /* per_cp */
    uint64_t  per_cp;     /* probes per band per checkpoint */
    uint64_t  never_next; /* next never-inserted key index */
    uint64_t  absent_ns, found_ns, absent_batch_ns, found_batch_ns;
    uint64_t  absent_n, found_n, absent_batch_n, found_batch_n;
    fkc_rng   rng;
} run_state;

static void gen_keys(uint64_t seed, uint64_t from, uint64_t count, uint64_t *out)
{
    for (uint64_t i = 0; i < count; i++)
        out[i] = fkc_gen_word(seed, from + i);
}

/* Batched lookups of probe[0..n): the answers into st->answers; ns elapsed. */
static uint64_t time_batches(run_state *st, size_t n)
{
    uint64_t t0 = fkc_now_ns();
    for (size_t i = 0; i < n; i += BATCH)
        fk_filter_contains_many_u64(st->f, n - i < BATCH ? n - i : BATCH, st->probe + i, st->answers + i);
    return fkc_now_ns() - t0;
}

/* Probes every band after s inserts: the window and never bands timed. */
static void checkpoint(run_state *st, uint64_t s)
{
    const fkc_window_cfg *cfg = st->cfg;
    int batches = cfg->batches && FK_OPS_HAS(st->f->ops, FK_OPS_V3, contains_many_u64);
    for (int b = 0; b < FKC_BANDS; b++) {
        uint64_t lo, hi, n = st->per_cp;
        fkc_band_ages((fkc_band)b, cfg->n, s, &lo, &hi);
        if (b == FKC_BAND_NEVER) {
            gen_keys(cfg->seed, st->never_next, n, st->probe);
            st->never_next += n;
        } else if (lo == hi) {
            continue;
        } else {
            for (uint64_t i = 0; i < n; i++)
                st->probe[i] = fkc_gen_word(cfg->seed, s - 1 - (lo + fkc_rng_below(&st->rng, hi - lo)));
        }
        uint64_t ns;
        uint64_t hits = fkc_time_lookups_u64(st->f, st->probe, (size_t)n, &ns);
        st->row->probes[b] += n;
        st->row->present[b] += hits;
        if (b == FKC_BAND_WINDOW)
            st->found_ns += ns, st->found_n += n;
        if (b == FKC_BAND_NEVER)
            st->absent_ns += ns, st->absent_n += n;
        if (batches && (b == FKC_BAND_WINDOW || b == FKC_BAND_NEVER)) {
            ns = time_batches(st, (size_t)n);
            if (b == FKC_BAND_WINDOW)
                st->found_batch_ns += ns, st->found_batch_n += n;
            else
                st->absent_batch_ns += ns, st->absent_batch_n += n;
        }
    }
}

/* Untimed: keys [from, to) of the stream must answer present. */
static void check_window(run_state *st, uint64_t from, uint64_t to)
{
    for (uint64_t j = from; j < to; j++) {
        st->row->window_checked++;
        st->row->window_misses += !fk_filter_contains_u64(st->f, fkc_gen_word(st->cfg->seed, j));
    }
}

/* Inserts and removes n keys no stream uses (indexes from 2^62). */
static void warm(fk_filter *f, uint64_t seed, uint64_t n, uint64_t *buf)
{
    for (uint64_t j = 0; j < n; j += CHUNK_MAX) {
        uint64_t len = n - j < CHUNK_MAX ? n - j : CHUNK_MAX;
        gen_keys(seed, (UINT64_C(1) << 62) + j, len, buf);
        for (uint64_t i = 0; i < len; i++)
            if (fk_filter_insert_u64(f, buf[i]) != FK_OK)
                break;
    }
    for (uint64_t j = 0; j < n; j += CHUNK_MAX) {
        uint64_t len = n - j < CHUNK_MAX ? n - j : CHUNK_MAX;
        gen_keys(seed, (UINT64_C(1) << 62) + j, len, buf);
        for (uint64_t i = 0; i < len; i++)
            (void)fk_filter_remove_u64(f, buf[i]);
    }
}

static double per(uint64_t ns, uint64_t n) { return n ? (double)ns / (double)n : NAN; }

/* The stream through the batch insert, timed alone (a second filter). */
static fk_status batch_stream(const fkc_window_cfg *cfg, const fk_ops *ops, int as_reference, uint64_t total,
                              uint64_t *keys, double *ns_per)
{
    fk_params p = { .capacity = cfg->n, .fpr = cfg->fpr, .seed = cfg->seed };
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(ops, &p, &f);
    if (s == FK_OK && as_reference && FK_OPS_HAS(ops, FK_OPS_V1, remove))
        warm(f, cfg->seed, cfg->n, keys);
    uint64_t ns = 0;
    for (uint64_t j = 0; s == FK_OK && j < total;) {
        uint64_t len = total - j < CHUNK_MAX ? total - j : CHUNK_MAX;
        gen_keys(cfg->seed, j, len, keys);
        uint64_t t0 = fkc_now_ns();
        for (uint64_t i = 0; s == FK_OK && i < len; i += BATCH)
            s = fk_filter_insert_many_u64(f, len - i < BATCH ? len - i : BATCH, keys + i, NULL);
        ns += fkc_now_ns() - t0;
        j += len;
    }
    fk_filter_free(f);
    *ns_per = s == FK_OK ? per(ns, total) : NAN;
    return s;
}

/* The window, lifetime and shape of a kind that forgets from the rows
 * fk_filter_describe gives (the library's window: "window",
 * "generation_length", one "generation_slots_<k>" row per generation,
 * "fingerprint_bits", "slot_bits", "buckets"), with no kind's own call.
 * Returns 0, or -1 when the filter has no such rows (a baseline: see
 * fkc_window_baseline_shape). */
static int described_shape(const fk_filter *f, fkc_window_row *row)
{
    if (!(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_EXPIRES))
        return -1;
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    if (fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n) != FK_OK || n > FK_DESCRIBE_MAX_ROWS)
        return -1;
    const fk_describe_row *window = fk_describe_find(rows, n, "window"),
                          *length = fk_describe_find(rows, n, "generation_length"),
                          *fp = fk_describe_find(rows, n, "fingerprint_bits"),
                          *slot = fk_describe_find(rows, n, "slot_bits"),
                          *buckets = fk_describe_find(rows, n, "buckets");
    const fk_describe_row *need[] = { window, length, fp, slot, buckets };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (!need[i] || need[i]->type != FK_DESCRIBE_U64)
            return -1;
    uint64_t generations = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(rows[i].name, "generation_slots_", 17) == 0)
            generations++;
    row->window = window->value.u64;
    row->lifetime = generations * length->value.u64;
    snprintf(row->shape, sizeof row->shape, "%u-bit fingerprints + %u-bit tags, %llu buckets x 4, L = %llu",
             (unsigned)fp->value.u64, (unsigned)(slot->value.u64 - fp->value.u64),
             (unsigned long long)buckets->value.u64, (unsigned long long)length->value.u64);
    return 0;
}

fk_status fkc_window_run(const fkc_window_cfg *cfg, const fk_ops *ops, int as_reference, fkc_window_row *row,
                         const char *progress)
{
    memset(row, 0, sizeof *row);
    row->ops = ops;
    row->streamed = !as_reference;
    row->insert_ns = row->insert_batch_ns = NAN;
    row->absent_ns = row->found_ns = row->absent_batch_ns = row->found_batch_ns = NAN;
    row->theory = NAN;

    const uint64_t n = cfg->n;
    const uint64_t total = as_reference ? n : (cfg->stream ? cfg->stream : 10 * n);
    /* checkpoints every N/2 once 2N are in (from 2N + N/2, so that every
     * band has keys at each); the reference (and a short stream) has one,
     * at the end */
    const uint64_t step = n / 2 ? n / 2 : 1;
    const uint64_t first_cp = !as_reference && total >= 2 * n + step ? 2 * n + step : total;
    const uint64_t cps = 1 + (total - first_cp) / step;
    uint64_t probes = cfg->probes ? cfg->probes : (n < (UINT64_C(1) << 20) ? n : UINT64_C(1) << 20);
    if (!cfg->probes && probes < 1000)
        probes = 1000;

    run_state st = { .cfg = cfg, .row = row };
    st.per_cp = (probes + cps - 1) / cps;
    st.never_next = total;
    fkc_rng_seed(&st.rng, cfg->seed ^ UINT64_C(0x77696e646f77)); /* "window" */
    st.keys = malloc(CHUNK_MAX * sizeof *st.keys);
    st.probe = malloc((size_t)st.per_cp * sizeof *st.probe);
    st.answers = malloc((size_t)st.per_cp * sizeof *st.answers);
    fk_params p = { .capacity = n, .fpr = cfg->fpr, .seed = cfg->seed };
    fk_status s = st.keys && st.probe && st.answers ? fk_filter_new(ops, &p, &st.f) : FK_ENOMEM;
    if (s != FK_OK)
        goto out;
    if (progress)
        fprintf(stderr, "%s%s: %llu inserts\n", progress, ops->name, (unsigned long long)total);

    /* The reference fills a table once: warm its pages first (fill and
     * empty it with other keys, untimed) so that its inserts are timed as
     * the stream's are, on memory already touched. */
    if (as_reference && FK_OPS_HAS(ops, FK_OPS_V1, remove))
        warm(st.f, cfg->seed, n, st.keys);
    const uint64_t chunk_cap = n / 8 ? (n / 8 < CHUNK_MAX ? n / 8 : CHUNK_MAX) : 1;
    uint64_t ins_ns = 0, next_cp = first_cp;
    for (uint64_t j = 0; j < total;) {
        uint64_t end = j + chunk_cap < total ? j + chunk_cap : total;
        if (end > next_cp)
            end = next_cp;
        /* the keys that leave the window during this chunk, checked at
         * their oldest in-window age give or take a chunk */
        if (!as_reference && end > n && end - n > (j > n ? j - n : 0))
            check_window(&st, j > n ? j - n : 0, end - n);
        uint64_t len = end - j, ns, bad;
        gen_keys(cfg->seed, j, len, st.keys);
        bad = fkc_time_updates_u64(st.f, st.keys, (size_t)len, &ns);
        ins_ns += ns;
        if (bad) {
            s = FK_EFULL; /* the only failure an insert of a valid key has */
            goto out;
        }
        j = end;
        if (j == next_cp) {
            checkpoint(&st, j);
            next_cp += step;
        }
    }
    check_window(&st, total > n ? total - n : 0, total); /* the keys still in it */
    row->insert_ns = per(ins_ns, total);
    row->absent_ns = per(st.absent_ns, st.absent_n);
    row->found_ns = per(st.found_ns, st.found_n);
    row->absent_batch_ns = per(st.absent_batch_ns, st.absent_batch_n);
    row->found_batch_ns = per(st.found_batch_ns, st.found_batch_n);

    fk_stats stats;
    fk_filter_stats(st.f, &stats);
    row->memory_bytes = stats.memory_bytes;
    row->bits_per_window_item = 8.0 * (double)stats.memory_bytes / (double)n;
    row->theory = stats.expected_fpr;
    if (described_shape(st.f, row) == 0) {
        ; /* the library's window, from its rows */
    } else if (fkc_window_baseline_shape(st.f, &row->window, &row->lifetime, row->shape, sizeof row->shape) != 0) {
        fk_sizing z;
        if (fk_ops_size(ops, &p, &z) == FK_OK)
            snprintf(row->shape, sizeof row->shape, "%s", z.geometry);
    }
    if (cfg->batches && FK_OPS_HAS(ops, FK_OPS_V3, insert_many_u64)) {
        if (progress)
            fprintf(stderr, "%s%s: %llu inserts in batches\n", progress, ops->name, (unsigned long long)total);
        batch_stream(cfg, ops, as_reference, total, st.keys, &row->insert_batch_ns);
    }
out:
    fk_filter_free(st.f);
    free(st.keys);
    free(st.probe);
    free(st.answers);
    return s;
}

/* ------------------------------------------------------------ printing */

static void pct(FILE *out, int width, double x)
{
    if (isnan(x))
        fprintf(out, " %*s", width, "-");
    else if (x > 0 && x < 0.0001)
        fprintf(out, " %*.4f%%", width - 1, 100 * x);
    else
        fprintf(out, " %*.3f%%", width - 1, 100 * x);
}

static void num(FILE *out, int width, double x)
{
    if (isnan(x))
        fprintf(out, " %*s", width, "-");
    else
        fprintf(out, " %*.1f", width, x);
}

static void ratio(FILE *out, const char *what, double a, double b)
{
    if (!isnan(a) && !isnan(b) && b > 0)
        fprintf(out, " %s x%.2f", what, a / b);
}

void fkc_window_table(FILE *out, const fkc_window_cfg *cfg, const fkc_window_row *rows, size_t n,
                      const char *reference)
{
    const fkc_window_row *ref = NULL;
    for (size_t i = 0; i < n; i++)
        if (reference && strcmp(rows[i].ops->name, reference) == 0)
            ref = &rows[i];
    uint64_t total = cfg->stream ? cfg->stream : 10 * cfg->n;
    fprintf(out, "filterkit bench --workload window: N = %llu, fpr = %g, stream = %llu distinct inserts, seed = %llu\n",
            (unsigned long long)cfg->n, cfg->fpr, (unsigned long long)total, (unsigned long long)cfg->seed);
    fprintf(out, "%-15s %6s %8s %9s %8s %8s %8s %8s %7s %7s %7s %7s %7s %7s\n", "filter", "bits/", "theory", "window",
            "slack", "expired", "old", "never", "insert", "insert", "lookup", "lookup", "batch", "batch");
    fprintf(out, "%-15s %6s %8s %9s %8s %8s %8s %8s %7s %7s %7s %7s %7s %7s\n", "", "item", "fpr", "misses",
            "N..8N/7", "8N/7..2N", ">=2N", "seen", "ns", "batch", "absent", "found", "absent", "found");
    for (size_t i = 0; i < n; i++) {
        const fkc_window_row *r = &rows[i];
        char miss[32];
        snprintf(miss, sizeof miss, "%llu", (unsigned long long)r->window_misses);
        fprintf(out, "%-15s %6.2f", r->ops->name, r->bits_per_window_item);
        pct(out, 7, r->theory);
        fprintf(out, " %9s", r->streamed ? miss : "-");
        for (int b = FKC_BAND_SLACK; b < FKC_BANDS; b++)
            pct(out, 7, fkc_window_rate(r, (fkc_band)b));
        num(out, 7, r->insert_ns);
        num(out, 7, r->insert_batch_ns);
        num(out, 7, r->absent_ns);
        num(out, 7, r->found_ns);
        num(out, 7, r->absent_batch_ns);
        num(out, 7, r->found_batch_ns);
        fputc('\n', out);
    }
    fprintf(out, "bands: the share of keys of each age answering present (window: misses among %s keys\n"
                 "checked, each near the end of its window); ns per operation; '-': not measured or\n"
                 "not a window (the speed reference holds N keys, no stream).\n",
            n ? "all" : "the");
    for (size_t i = 0; i < n; i++) {
        const fkc_window_row *r = &rows[i];
        fprintf(out, "  %-15s %s", r->ops->name, r->shape);
        if (r->window)
            fprintf(out, "; a key answers present for %llu to %llu inserts", (unsigned long long)r->window,
                    (unsigned long long)r->lifetime);
        fputc('\n', out);
    }
    if (!ref)
        return;
    fprintf(out, "ratios to %s (ns / %s's ns; above 1 is slower):\n", ref->ops->name, ref->ops->name);
    for (size_t i = 0; i < n; i++) {
        const fkc_window_row *r = &rows[i];
        if (r == ref)
            continue;
        fprintf(out, "  %-15s", r->ops->name);
        ratio(out, "insert", r->insert_ns, ref->insert_ns);
        ratio(out, "batch insert", r->insert_batch_ns, ref->insert_batch_ns);
        ratio(out, "absent", r->absent_ns, ref->absent_ns);
        ratio(out, "found", r->found_ns, ref->found_ns);
        ratio(out, "batch absent", r->absent_batch_ns, ref->absent_batch_ns);
        ratio(out, "batch found", r->found_batch_ns, ref->found_batch_ns);
        fputc('\n', out);
    }
}

void fkc_window_csv(FILE *out, const fkc_window_cfg *cfg, const fkc_window_row *rows, size_t n)
{
    uint64_t total = cfg->stream ? cfg->stream : 10 * cfg->n;
    fprintf(out, "filter,n,fpr,stream,seed,streamed,memory_bytes,bits_per_window_item,theory_fpr,window_checked,"
                 "window_misses");
    for (int b = 0; b < FKC_BANDS; b++)
        fprintf(out, ",probes_%s,present_%s,rate_%s", fkc_band_names[b], fkc_band_names[b], fkc_band_names[b]);
    fprintf(out, ",insert_ns,insert_batch_ns,absent_ns,found_ns,absent_batch_ns,found_batch_ns,window,lifetime\n");
    for (size_t i = 0; i < n; i++) {
        const fkc_window_row *r = &rows[i];
        fprintf(out, "%s,%llu,%.17g,%llu,%llu,%d,%llu,%.6f,%.6g,%llu,%llu", r->ops->name, (unsigned long long)cfg->n,
                cfg->fpr, (unsigned long long)(r->streamed ? total : cfg->n), (unsigned long long)cfg->seed,
                r->streamed, (unsigned long long)r->memory_bytes, r->bits_per_window_item, r->theory,
                (unsigned long long)r->window_checked, (unsigned long long)r->window_misses);
        for (int b = 0; b < FKC_BANDS; b++)
            fprintf(out, ",%llu,%llu,%.6g", (unsigned long long)r->probes[b], (unsigned long long)r->present[b],
                    fkc_window_rate(r, (fkc_band)b));
        fprintf(out, ",%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%llu,%llu\n", r->insert_ns, r->insert_batch_ns, r->absent_ns,
                r->found_ns, r->absent_batch_ns, r->found_batch_ns, (unsigned long long)r->window,
                (unsigned long long)r->lifetime);
    }
}
