/* bench/trace/trace_expandable.c: `filterkit trace expandable`.
 *
 * The filter is driven through its public calls only (insert, contains,
 * remove, describe); where a key goes (hash, quotient, fingerprint) and the
 * table are read back through the module's own read-only helpers
 * (expandable_internal.h), so the trace shows what the filter holds: each
 * entry's fingerprint and its length, the run it sits in, the doubling
 * that gives every entry's top bit to the quotient, and the entries that
 * ran out of bits (voids). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "../../expandable/expandable.h"
#include "../../expandable/expandable_internal.h"
#include "trace.h"

/* The run of quotient q: its first and last slot, from the occupieds and
 * runends bits (a linear pass: traces are tiny). False when q has none. */
static bool run_of(const fk_expandable *xf, uint64_t q, uint64_t *first, uint64_t *last)
{
    uint64_t pos = 0;
    for (uint64_t p = 0; p < xf->quotients; p++) {
        if (!(fk_xf_occupieds(xf, p >> 6) >> (p & 63) & 1))
            continue;
        uint64_t start = pos > p ? pos : p, end = start;
        while (end < xf->slots && !(fk_xf_runends(xf, end >> 6) >> (end & 63) & 1))
            end++;
        if (p == q) {
            *first = start;
            *last = end;
            return true;
        }
        pos = end + 1;
    }
    return false;
}

/* v's fingerprint: its top L bits, in binary ("-" for L = 0). */
static void print_fp(FILE *out, const fk_expandable *xf, uint32_t v)
{
    unsigned len = fk_xf_len(xf, v);
    if (!len)
        fputc('-', out);
    for (unsigned i = 0; i < len; i++)
        fputc('0' + (int)(v >> (xf->width - 1 - i) & 1), out);
}

static void print_table(FILE *out, const fk_expandable *xf)
{
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    fprintf(out, "  table after: %llu entries in %llu slots, %llu quotients, %u doubling(s), lengths in use",
            (unsigned long long)d.entries, (unsigned long long)d.slots, (unsigned long long)d.quotients,
            d.doublings);
    if (d.entries)
        fprintf(out, " %u..%u", d.shortest, d.longest);
    else
        fputs(" none", out);
    fprintf(out, ", %llu void(s)\n", (unsigned long long)d.voids);
    fputs("    (used slots: slot:fingerprint, ^ its quotient has a run, | ends a run)\n", out);
    unsigned on_line = 0;
    for (uint64_t j = 0; j < xf->slots; j++) {
        uint32_t v = fk_xf_slot(xf, j);
        if (!v)
            continue;
        fputs(on_line ? " " : "    ", out);
        fprintf(out, "%llu:%s", (unsigned long long)j, fk_xf_occupieds(xf, j >> 6) >> (j & 63) & 1 ? "^" : "");
        print_fp(out, xf, v);
        if (fk_xf_runends(xf, j >> 6) >> (j & 63) & 1)
            fputc('|', out);
        if (++on_line == 8) {
            fputc('\n', out);
            on_line = 0;
        }
    }
    if (on_line)
        fputc('\n', out);
    for (size_t i = 0; i < xf->nvoids; i++)
        fprintf(out, "    void: generation %llu, quotient %llu (matches every key of that quotient then)\n",
                (unsigned long long)(xf->voids[i] >> FK_XF_VOID_SHIFT),
                (unsigned long long)(xf->voids[i] & ((UINT64_C(1) << FK_XF_VOID_SHIFT) - 1)));
}

typedef struct {
    uint64_t hash, quotient;
    uint32_t kv; /* the key as a slot of the longest length */
    bool     has_run;
    uint64_t first, last;
} place;

static place locate(const fk_expandable *xf, const fkc_trace_step *st)
{
    place p = { 0 };
    p.hash = fk_xf_hash(xf, st->key, st->len);
    p.quotient = fk_xf_place(xf, p.hash, &p.kv);
    p.has_run = run_of(xf, p.quotient, &p.first, &p.last);
    return p;
}

static void print_place(FILE *out, const fk_expandable *xf, const place *p)
{
    fprintf(out, "  hash 0x%016llx\n", (unsigned long long)p->hash);
    fprintf(out, "  quotient %llu (hash x %llu / 2^64), fingerprint ", (unsigned long long)p->quotient,
            (unsigned long long)xf->quotients);
    print_fp(out, xf, fk_xf_entry(xf, p->kv));
    fprintf(out, " (the next %u bits)\n", xf->fp_bits);
    if (p->has_run)
        fprintf(out, "  run of quotient %llu: slots %llu..%llu\n", (unsigned long long)p->quotient,
                (unsigned long long)p->first, (unsigned long long)p->last);
    else
        fprintf(out, "  run of quotient %llu: none\n", (unsigned long long)p->quotient);
}

/* The key's quotient when the table had made g doublings. */
static uint64_t quotient_at(const fk_expandable *xf, uint64_t h, unsigned g)
{
    return (uint64_t)(((unsigned __int128)h * (xf->quotients >> (xf->doublings - g))) >> 64);
}

/* The generation of a void matching hash h (its quotient then is the
 * void's), or -1. */
static long long void_of(const fk_expandable *xf, uint64_t h)
{
    for (size_t i = 0; i < xf->nvoids; i++) {
        unsigned g = (unsigned)(xf->voids[i] >> FK_XF_VOID_SHIFT);
        if (g <= xf->doublings &&
            (xf->voids[i] & ((UINT64_C(1) << FK_XF_VOID_SHIFT) - 1)) == quotient_at(xf, h, g))
            return (long long)g;
    }
    return -1;
}

/* The longest entry of the key's run matching it: its slot, or -1. */
static long long match_in_run(const fk_expandable *xf, const place *p)
{
    long long best = -1;
    unsigned best_len = 0;
    for (uint64_t j = p->first; p->has_run && j <= p->last; j++) {
        uint32_t v = fk_xf_slot(xf, j);
        if (fk_xf_match(v, p->kv) && (best < 0 || fk_xf_len(xf, v) > best_len)) {
            best = (long long)j;
            best_len = fk_xf_len(xf, v);
        }
    }
    return best;
}

int fkc_trace_expandable(const fkc_trace_job *job)
{
    FILE *out = job->out;
    fk_expandable *xf = NULL;
    if (fk_expandable_new(&job->params, &xf) != FK_OK) {
        fputs("filterkit trace: cannot make that expandable filter\n", stderr);
        return 2;
    }
    if (xf->slots > FKC_TRACE_MAX_CELLS) {
        fprintf(stderr, "filterkit trace: %llu slots is too many to draw (at most %u): use a smaller --capacity\n",
                (unsigned long long)xf->slots, FKC_TRACE_MAX_CELLS);
        fk_expandable_free(xf);
        return 2;
    }
    fkc_trace_truth truth;
    if (fkc_trace_truth_init(&truth, job) != 0) {
        fk_expandable_free(xf);
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    fprintf(out, "expandable filter: %llu slots of %u bits, %llu quotients, new fingerprints of %u bits,"
                 " doubles at %llu entries, seed %llu\n",
            (unsigned long long)d.slots, d.slot_bits, (unsigned long long)d.quotients, d.fingerprint_bits,
            (unsigned long long)xf->limit, (unsigned long long)d.seed);
    for (size_t i = 0; i < job->nsteps; i++) {
        const fkc_trace_step *st = &job->steps[i];
        place p = locate(xf, st);
        fkc_trace_print_heading(out, st);
        print_place(out, xf, &p);
        if (st->op == FKC_TRACE_LOOKUP) {
            long long at = match_in_run(xf, &p);
            if (at >= 0) {
                fprintf(out, "  -> maybe present: the entry at slot %lld (length %u) matches", at,
                        fk_xf_len(xf, fk_xf_slot(xf, (uint64_t)at)));
            } else if (fk_expandable_contains(xf, st->key, st->len)) {
                long long g = void_of(xf, p.hash);
                if (g >= 0)
                    fprintf(out, "  -> maybe present: the void of generation %lld, quotient %llu, matches every key"
                                 " that had that quotient",
                            g, (unsigned long long)quotient_at(xf, p.hash, (unsigned)g));
                else
                    fputs("  -> maybe present: a void matches", out);
            } else {
                fputs(p.has_run ? "  -> definitely absent: no entry of the run matches"
                                : "  -> definitely absent: the quotient has no run", out);
            }
            if (fk_expandable_contains(xf, st->key, st->len) && !fkc_trace_truth_has(&truth, st->key, st->len))
                fputs(" (a false positive: this key was never inserted)", out);
            fputc('\n', out);
            continue;
        }
        fk_expandable_description before;
        fk_expandable_describe(xf, &before);
        fk_status r;
        if (st->op == FKC_TRACE_INSERT) {
            r = fk_expandable_insert(xf, st->key, st->len);
            if (r == FK_OK)
                fkc_trace_truth_add(&truth, st->key, st->len);
        } else {
            bool was = fkc_trace_truth_has(&truth, st->key, st->len) > 0;
            r = fk_expandable_remove(xf, st->key, st->len);
            if (r == FK_OK)
                fkc_trace_truth_del(&truth, st->key, st->len);
            if (r == FK_OK && !was)
                fputs("  (this key was never inserted: the entry removed was another key's that matches it)\n",
                      out);
        }
        fk_expandable_description after;
        fk_expandable_describe(xf, &after);
        if (after.doublings > before.doublings) {
            fprintf(out, "  doubled: the table held its limit of %llu entries; %llu -> %llu quotients: every entry"
                         " gave its top fingerprint bit to the quotient (lengths now %u..%u)\n",
                    (unsigned long long)(xf->limit / 2), (unsigned long long)before.quotients,
                    (unsigned long long)after.quotients, after.shortest, after.longest);
            if (after.voids > before.voids)
                fprintf(out, "  void: %llu entr%s had no bit left to give: moved to the void list, matching"
                             " every key of its old quotient\n",
                        (unsigned long long)(after.voids - before.voids), after.voids - before.voids == 1 ? "y" : "ies");
            place now = locate(xf, st);
            fputs("  in the doubled table:\n", out);
            print_place(out, xf, &now);
        }
        p = locate(xf, st); /* where the step left the key's run */
        fprintf(out, "  -> %s", fk_status_name(r));
        if (r == FK_OK && st->op == FKC_TRACE_INSERT) {
            long long at = match_in_run(xf, &p);
            if (at >= 0)
                fprintf(out, ": its entry sits at slot %lld, a fingerprint of %u bits", at, xf->fp_bits);
        }
        fputc('\n', out);
        if (r == FK_ENOTFOUND)
            fputs("  (no entry matches: nothing changed)\n", out);
        if (r == FK_ELIMIT)
            fputs("  (doubling would pass the memory limit: nothing changed)\n", out);
        print_table(out, xf);
    }
    fkc_trace_truth_free(&truth);
    fk_expandable_free(xf);
    return 0;
}
