/* bench/trace/trace_quotient.c: `filterkit trace quotient`.
 *
 * Quotient, remainder and the key's run come from fk_quotient_locate, the
 * table is read back with fk_quotient_cell, so the trace shows what
 * the filter holds: which slots the step changed, how far the runs after
 * the key's were shifted, and the counters once a key repeats. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "../../quotient/quotient.h"
#include "../../quotient/quotient_internal.h"
#include "trace.h"

typedef struct {
    fk_quotient           *qf;
    uint64_t               slots;
    fk_quotient_slot_info *snap; /* the table before the step */
    int                    digits; /* hex digits per remainder */
} table;

static void snapshot(const table *t)
{
    for (uint64_t j = 0; j < t->slots; j++)
        fk_quotient_cell(t->qf, j, &t->snap[j]);
}

/* Slots whose content (value, runend, in use) differs from the snapshot. */
static uint64_t changed(const table *t, uint64_t *first, uint64_t *last)
{
    uint64_t n = 0;
    for (uint64_t j = 0; j < t->slots; j++) {
        fk_quotient_slot_info now;
        fk_quotient_cell(t->qf, j, &now);
        const fk_quotient_slot_info *was = &t->snap[j];
        if (now.value != was->value || now.runend != was->runend || now.used != was->used) {
            if (!n)
                *first = j;
            *last = j;
            n++;
        }
    }
    return n;
}

static fk_quotient_description info_of(const fk_quotient *qf)
{
    fk_quotient_description in;
    fk_quotient_describe(qf, &in);
    return in;
}

static void print_table(FILE *out, const table *t)
{
    fk_quotient_description in = info_of(t->qf);
    fprintf(out, "  table after: %llu of %llu slots used (load %.3f), %llu distinct, %llu items\n",
            (unsigned long long)in.used_slots, (unsigned long long)in.slots,
            (double)in.used_slots / (double)in.slots, (unsigned long long)in.distinct,
            (unsigned long long)in.items);
    fputs("    (each slot: ^ quotient has a run, remainder or digit in hex, | ends a run,"
          " * changed; -- free)\n", out);
    for (uint64_t row = 0; row < t->slots; row += 16) {
        fprintf(out, "    %4llu:", (unsigned long long)row);
        for (uint64_t j = row; j < row + 16 && j < t->slots; j++) {
            fk_quotient_slot_info now;
            fk_quotient_cell(t->qf, j, &now);
            const fk_quotient_slot_info *was = &t->snap[j];
            bool diff = now.value != was->value || now.runend != was->runend ||
                        now.used != was->used;
            fputc(' ', out);
            fputc(now.occupied ? '^' : ' ', out);
            if (now.used)
                fprintf(out, "%0*llx", t->digits, (unsigned long long)now.value);
            else
                for (int d = 0; d < t->digits; d++)
                    fputc('-', out);
            fputc(now.runend ? '|' : ' ', out);
            fputc(diff ? '*' : ' ', out);
        }
        fputc('\n', out);
    }
}

static void print_location(FILE *out, const table *t, const fk_quotient_location *loc)
{
    fprintf(out, "  hash 0x%016llx\n", (unsigned long long)loc->hash);
    fprintf(out, "  quotient %llu (hash x %llu / 2^64), remainder 0x%0*llx (the next %u bits)\n",
            (unsigned long long)loc->quotient, (unsigned long long)info_of(t->qf).quotients,
            t->digits, (unsigned long long)loc->remainder, info_of(t->qf).remainder_bits);
    if (loc->occupied)
        fprintf(out, "  run of quotient %llu: slots %llu..%llu (shifted %llu from its home slot)\n",
                (unsigned long long)loc->quotient, (unsigned long long)loc->run_start,
                (unsigned long long)loc->run_end, (unsigned long long)loc->shift);
    else
        fprintf(out, "  run of quotient %llu: none yet; it would start at slot %llu (shift %llu)\n",
                (unsigned long long)loc->quotient, (unsigned long long)loc->run_start,
                (unsigned long long)loc->shift);
    if (loc->count)
        fprintf(out, "  count of this remainder in the run: %llu (%llu slot(s))\n",
                (unsigned long long)loc->count, (unsigned long long)loc->group_slots);
}

static void print_change(FILE *out, const table *t, const char *what)
{
    uint64_t first = 0, last = 0, n = changed(t, &first, &last);
    if (n)
        fprintf(out, "  %s: %llu slot(s) changed, from %llu to %llu (runs after the key's shifted"
                     " along with it up to the first free slot)\n",
                what, (unsigned long long)n, (unsigned long long)first, (unsigned long long)last);
}

int fkc_trace_quotient(const fkc_trace_job *job)
{
    FILE *out = job->out;
    table t = { 0 };
    if (fk_quotient_new(&job->params, &t.qf) != FK_OK) {
        fputs("filterkit trace: cannot make that quotient filter\n", stderr);
        return 2;
    }
    fk_quotient_description in = info_of(t.qf);
    t.slots = in.slots;
    if (t.slots > FKC_TRACE_MAX_CELLS) {
        fprintf(stderr, "filterkit trace: %llu slots is too many to draw (at most %u): use a"
                        " smaller --capacity\n", (unsigned long long)t.slots, FKC_TRACE_MAX_CELLS);
        fk_quotient_free(t.qf);
        return 2;
    }
    t.digits = (int)((in.remainder_bits + 3) / 4);
    t.snap = calloc((size_t)t.slots, sizeof *t.snap);
    fkc_trace_truth truth;
    if (!t.snap || fkc_trace_truth_init(&truth, job) != 0) {
        free(t.snap);
        fk_quotient_free(t.qf);
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    fprintf(out, "quotient filter: %llu slots in %llu block(s) of 64, %llu quotients, r = %u"
                 " remainder bits, seed %llu\n",
            (unsigned long long)t.slots, (unsigned long long)(t.slots / 64),
            (unsigned long long)in.quotients, in.remainder_bits, (unsigned long long)in.seed);
    for (size_t i = 0; i < job->nsteps; i++) {
        const fkc_trace_step *st = &job->steps[i];
        fk_quotient_location loc;
        fk_quotient_locate(t.qf, st->key, st->len, &loc);
        fkc_trace_print_heading(out, st);
        print_location(out, &t, &loc);
        snapshot(&t);
        if (st->op == FKC_TRACE_LOOKUP) {
            uint64_t c = 0;
            fk_quotient_count(t.qf, st->key, st->len, &c);
            if (c) {
                fprintf(out, "  -> maybe present: remainder 0x%0*llx is in the run, count %llu",
                        t.digits, (unsigned long long)loc.remainder, (unsigned long long)c);
                if (!fkc_trace_truth_has(&truth, st->key, st->len))
                    fputs(" (a false positive: this key was never inserted)", out);
            } else {
                fputs(loc.occupied ? "  -> definitely absent: the run does not hold this remainder"
                                   : "  -> definitely absent: the quotient has no run", out);
            }
            fputc('\n', out);
            continue;
        }
        fk_status r;
        if (st->op == FKC_TRACE_INSERT) {
            r = fk_quotient_insert(t.qf, st->key, st->len);
            if (r == FK_OK)
                fkc_trace_truth_add(&truth, st->key, st->len);
        } else {
            bool was = fkc_trace_truth_has(&truth, st->key, st->len) > 0;
            r = fk_quotient_remove(t.qf, st->key, st->len);
            if (r == FK_OK)
                fkc_trace_truth_del(&truth, st->key, st->len);
            if (r == FK_OK && !was)
                fputs("  (this key was never inserted: the count removed was another key's with the"
                      " same quotient and remainder)\n", out);
        }
        fprintf(out, "  -> %s\n", fk_status_name(r));
        if (r == FK_EFULL)
            fputs("  (no room: the table is exactly as before)\n", out);
        if (r == FK_ENOTFOUND)
            fputs("  (no such remainder in the run: nothing changed)\n", out);
        print_change(out, &t, st->op == FKC_TRACE_INSERT ? "insert" : "remove");
        print_table(out, &t);
    }
    fkc_trace_truth_free(&truth);
    free(t.snap);
    fk_quotient_free(t.qf);
    return 0;
}
