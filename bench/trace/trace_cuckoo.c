/* bench/trace/trace_cuckoo.c: `filterkit trace cuckoo`.
 *
 * Fingerprint and buckets come from fk_cuckoo_locate, the table is read
 * back with fk_cuckoo_cell and every kick is reported by the filter itself
 * through fk_cuckoo_set_observer, so the trace shows what the filter did,
 * not a re-enactment of it. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "../../cuckoo/cuckoo.h"
#include "../../cuckoo/cuckoo_internal.h"
#include "trace.h"

typedef struct {
    fk_cuckoo_kick_event ev[FKC_TRACE_MAX_KICK_LINES];
    uint32_t             n; /* kicks seen in the current insert */
} kick_log;

static void on_kick(void *ctx, const fk_cuckoo_kick_event *ev)
{
    kick_log *log = ctx;
    if (log->n < FKC_TRACE_MAX_KICK_LINES)
        log->ev[log->n] = *ev;
    log->n++;
}

typedef struct {
    fk_cuckoo *c;
    uint64_t   buckets;
    int        fp_digits; /* hex digits per fingerprint */
    int        idx_digits; /* decimal digits per bucket index */
    uint32_t  *snap;      /* table before the step: buckets * FK_CUCKOO_SLOTS */
} table;

/* Slot s of bucket b in the snapshot. */
static uint32_t *snap_at(const table *t, uint64_t b, unsigned s)
{
    return &t->snap[b * FK_CUCKOO_SLOTS + s];
}

static void snapshot(const table *t)
{
    for (uint64_t b = 0; b < t->buckets; b++)
        for (unsigned s = 0; s < FK_CUCKOO_SLOTS; s++)
            *snap_at(t, b, s) = fk_cuckoo_cell(t->c, b, s);
}

static void print_fp(FILE *out, const table *t, uint32_t fp)
{
    if (fp)
        fprintf(out, "%0*x", t->fp_digits, fp);
    else
        for (int i = 0; i < t->fp_digits; i++)
            fputc('-', out);
}

static void print_bucket(FILE *out, const table *t, uint64_t b, bool mark_changes)
{
    fprintf(out, "    bucket %*llu:", t->idx_digits, (unsigned long long)b);
    for (unsigned s = 0; s < FK_CUCKOO_SLOTS; s++) {
        uint32_t now = fk_cuckoo_cell(t->c, b, s);
        fputc(' ', out);
        print_fp(out, t, now);
        if (mark_changes && now != *snap_at(t, b, s))
            fputc('*', out);
    }
    fputc('\n', out);
}

static void print_table(FILE *out, const table *t)
{
    fk_cuckoo_description d;
    fk_cuckoo_describe(t->c, &d);
    fprintf(out, "  table after: %llu of %llu slots used (load %.3f)\n",
            (unsigned long long)d.items, (unsigned long long)d.slots, d.load_factor);
    for (uint64_t b = 0; b < t->buckets; b++)
        print_bucket(out, t, b, true);
}

static unsigned free_slots(const table *t, uint64_t b)
{
    unsigned n = 0;
    for (unsigned s = 0; s < FK_CUCKOO_SLOTS; s++)
        n += fk_cuckoo_cell(t->c, b, s) == 0;
    return n;
}

/* The first slot that changed between the snapshot and now, from empty to
 * full when `filled`, else from full to empty. Returns false if none. */
static bool changed_slot(const table *t, bool filled, uint64_t *b_out, unsigned *s_out)
{
    for (uint64_t b = 0; b < t->buckets; b++)
        for (unsigned s = 0; s < FK_CUCKOO_SLOTS; s++) {
            uint32_t was = *snap_at(t, b, s), now = fk_cuckoo_cell(t->c, b, s);
            if (filled ? (!was && now) : (was && !now)) {
                *b_out = b;
                *s_out = s;
                return true;
            }
        }
    return false;
}

static void print_location(FILE *out, const table *t, const fk_cuckoo_location *loc)
{
    fprintf(out, "  hash lo 0x%016llx hi 0x%016llx\n", (unsigned long long)loc->hash_lo,
            (unsigned long long)loc->hash_hi);
    fputs("  fingerprint 0x", out);
    print_fp(out, t, loc->fingerprint);
    fputc('\n', out);
    fprintf(out, "  i1 %llu\n", (unsigned long long)loc->i1);
    fprintf(out, "  i2 %llu\n", (unsigned long long)loc->i2);
    fprintf(out, "  (i2 = alt(i1, fp): i1 XOR a hash of fp inside one power-of-two block of the"
                 " table; alt(i2, fp) = %llu = i1 again)\n",
            (unsigned long long)fk_cuckoo_alt_bucket(t->c, loc->i2, loc->fingerprint));
}

static void trace_insert(FILE *out, table *t, kick_log *log, const fkc_trace_step *st,
                         const fk_cuckoo_location *loc, fkc_trace_truth *truth)
{
    unsigned f1 = free_slots(t, loc->i1), f2 = free_slots(t, loc->i2);
    if (f1)
        fprintf(out, "  room: bucket %llu has %u free slot(s)\n", (unsigned long long)loc->i1, f1);
    else if (f2 && loc->i2 != loc->i1)
        fprintf(out, "  room: bucket %llu is full, bucket %llu has %u free slot(s)\n",
                (unsigned long long)loc->i1, (unsigned long long)loc->i2, f2);
    else if (loc->i1 == loc->i2)
        fprintf(out, "  room: bucket %llu (both i1 and i2) is full: kick a fingerprint out of it\n",
                (unsigned long long)loc->i1);
    else
        fprintf(out, "  room: buckets %llu and %llu are full: kick a fingerprint to its other bucket\n",
                (unsigned long long)loc->i1, (unsigned long long)loc->i2);
    log->n = 0;
    fk_status r = fk_cuckoo_insert(t->c, st->key, st->len);
    uint32_t shown = log->n < FKC_TRACE_MAX_KICK_LINES ? log->n : FKC_TRACE_MAX_KICK_LINES;
    for (uint32_t i = 0; i < shown; i++) {
        const fk_cuckoo_kick_event *ev = &log->ev[i];
        fprintf(out, "  kick %u: 0x", ev->kick);
        print_fp(out, t, ev->fingerprint);
        fprintf(out, " from bucket %llu slot %u -> bucket %llu\n", (unsigned long long)ev->from,
                ev->slot, (unsigned long long)ev->to);
    }
    if (log->n > shown)
        fprintf(out, "  ... %u more kicks\n", log->n - shown);
    uint64_t b;
    unsigned s;
    if (r == FK_OK) {
        fkc_trace_truth_add(truth, st->key, st->len);
        fprintf(out, "  -> FK_OK");
        if (changed_slot(t, true, &b, &s)) {
            fputs(": 0x", out);
            print_fp(out, t, fk_cuckoo_cell(t->c, b, s));
            fprintf(out, " lands in the empty slot %u of bucket %llu", s, (unsigned long long)b);
            if (log->n)
                fprintf(out, " after %u kick(s)", log->n);
        }
        fputc('\n', out);
    } else if (r == FK_EFULL) {
        fprintf(out, "  -> FK_EFULL after %u kicks: every kick was undone in reverse, the table is"
                     " exactly as before\n", log->n);
    } else {
        fprintf(out, "  -> %s\n", fk_status_name(r));
    }
}

static void trace_lookup(FILE *out, const table *t, const fkc_trace_step *st,
                         const fk_cuckoo_location *loc, const fkc_trace_truth *truth)
{
    print_bucket(out, t, loc->i1, false);
    if (loc->i2 != loc->i1)
        print_bucket(out, t, loc->i2, false);
    bool hit = fk_cuckoo_contains(t->c, st->key, st->len);
    if (hit) {
        fputs("  -> maybe present: 0x", out);
        print_fp(out, t, loc->fingerprint);
        fputs(" is in one of its buckets", out);
        if (!fkc_trace_truth_has(truth, st->key, st->len))
            fputs(" (a false positive: this key was never inserted)", out);
    } else {
        fputs("  -> definitely absent: 0x", out);
        print_fp(out, t, loc->fingerprint);
        fputs(" is in neither bucket", out);
    }
    fputc('\n', out);
}

static void trace_remove(FILE *out, table *t, const fkc_trace_step *st, fkc_trace_truth *truth)
{
    bool was_inserted = fkc_trace_truth_has(truth, st->key, st->len) > 0;
    fk_status r = fk_cuckoo_remove(t->c, st->key, st->len);
    uint64_t b;
    unsigned s;
    fprintf(out, "  -> %s", fk_status_name(r));
    if (r == FK_OK) {
        fkc_trace_truth_del(truth, st->key, st->len);
        if (changed_slot(t, false, &b, &s))
            fprintf(out, ": cleared slot %u of bucket %llu", s, (unsigned long long)b);
        if (!was_inserted)
            fputs("\n  (this key was never inserted: the fingerprint removed was another key's,"
                  " which is now a false negative)", out);
    } else if (r == FK_ENOTFOUND) {
        fputs(": the fingerprint is in neither bucket; nothing changed", out);
    }
    fputc('\n', out);
}

int fkc_trace_cuckoo(const fkc_trace_job *job)
{
    FILE *out = job->out;
    uint64_t nb = fk_size_cuckoo_buckets(job->params.capacity);
    if (nb == 0 || nb > FKC_TRACE_MAX_BUCKETS) {
        fprintf(stderr, "filterkit trace: the filter would have %llu buckets; traces draw at most "
                        "%u (lower --capacity)\n",
                (unsigned long long)nb, FKC_TRACE_MAX_BUCKETS);
        return 2;
    }
    fk_cuckoo *c;
    fk_status r = fk_cuckoo_new(&job->params, &c);
    if (r != FK_OK) {
        fprintf(stderr, "filterkit trace: fk_cuckoo_new: %s\n", fk_strerror(r));
        return 1;
    }
    fk_cuckoo_description d;
    fk_cuckoo_describe(c, &d);
    table t = { c, d.buckets, (int)((d.fingerprint_bits + 3) / 4), 1, NULL };
    for (uint64_t x = t.buckets - 1; x >= 10; x /= 10)
        t.idx_digits++;
    kick_log *log = calloc(1, sizeof *log);
    fkc_trace_truth truth;
    t.snap = calloc((size_t)t.buckets * FK_CUCKOO_SLOTS, sizeof *t.snap);
    if (!log || !t.snap || fkc_trace_truth_init(&truth, job) != 0) {
        free(log);
        free(t.snap);
        fk_cuckoo_free(c);
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    fk_cuckoo_set_observer(c, on_kick, log);

    uint32_t f = d.fingerprint_bits;
    fprintf(out, "cuckoo filter: %llu buckets x %u slots, f = %u-bit fingerprints, seed %llu\n",
            (unsigned long long)t.buckets, FK_CUCKOO_SLOTS, f, (unsigned long long)d.seed);
    fprintf(out, "  sized for %llu items at <= %.0f%% load; fpr bound 2b/2^f = %.4g, at that load %.4g\n",
            (unsigned long long)job->params.capacity, 100.0 * FK_CUCKOO_MAX_LOAD,
            2.0 * FK_CUCKOO_SLOTS / (double)(1ull << f),
            fk_theory_cuckoo_fpr(f, FK_CUCKOO_MAX_LOAD));
    fputs("  each key: one XXH3-64 hash (lo; hi unused); fingerprint from its low 32 bits,\n"
          "  never 0 (0 marks an empty slot); i1 from the whole hash (multiply-high), and\n"
          "  i2 = alt(i1, fp): i1 XOR a hash of fp, inside the power-of-two block of the\n"
          "  table (its blocks are the binary digits of the bucket count) that holds i1\n"
          "  once the table is rotated by a per-fingerprint offset\n", out);
    fputs("  table: fingerprints in hex, ", out);
    print_fp(out, &t, 0);
    fputs(" = empty slot, * = changed by this step\n", out);

    int status = 0;
    for (size_t i = 0; i < job->nsteps && !status; i++) {
        const fkc_trace_step *st = &job->steps[i];
        fk_cuckoo_location loc;
        fkc_trace_print_heading(out, st);
        if (fk_cuckoo_locate(c, st->key, st->len, &loc) != FK_OK) {
            fputs("filterkit trace: fk_cuckoo_locate failed\n", stderr);
            status = 1;
            continue;
        }
        print_location(out, &t, &loc);
        snapshot(&t);
        if (st->op == FKC_TRACE_INSERT)
            trace_insert(out, &t, log, st, &loc, &truth);
        else if (st->op == FKC_TRACE_LOOKUP)
            trace_lookup(out, &t, st, &loc, &truth);
        else
            trace_remove(out, &t, st, &truth);
        if (st->op != FKC_TRACE_LOOKUP)
            print_table(out, &t);
    }
    fk_stats stats;
    fk_filter_stats(fk_cuckoo_as_filter(c), &stats);
    if (!status)
        fprintf(out, "\nafter %zu steps: items held %llu, load %.3f, fpr now 1 - (1 - 2^-f)^(2b load) = %.4g\n",
                job->nsteps, (unsigned long long)stats.items, stats.load_factor, stats.expected_fpr);
    fkc_trace_truth_free(&truth);
    free(t.snap);
    free(log);
    fk_cuckoo_free(c);
    return status;
}
