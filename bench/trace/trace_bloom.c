/* bench/trace/trace_bloom.c: `filterkit trace bloom` and `... counting`.
 *
 * Both kinds are an array of m cells (bits or counters) and k probe
 * positions per key, so one tracer serves both through a small table of
 * accessors. Positions come from fk_bloom_locate / fk_counting_locate
 * and cells are read back with fk_bloom_cell / fk_counting_cell:
 * the trace prints the filter's real state, it recomputes nothing. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "../../bloom/bloom.h"
#include "../../bloom/bloom_internal.h"
#include "../../counting/counting.h"
#include "../../counting/counting_internal.h"
#include "../../common/hash.h"
#include "trace.h"

#define ROW 64 /* cells per printed row */

typedef struct {
    bool        counting;
    void       *f;
    uint64_t    m;
    uint32_t    k;
    uint64_t    seed;
    fk_status (*positions)(const void *f, const void *key, size_t len, uint64_t *out);
    uint32_t  (*cell)(const void *f, uint64_t i);
} cells;

static fk_status bloom_positions(const void *f, const void *key, size_t len, uint64_t *out)
{
    return fk_bloom_locate(f, key, len, out);
}

static uint32_t bloom_cell(const void *f, uint64_t i)
{
    return fk_bloom_cell(f, i);
}

static fk_status counting_positions(const void *f, const void *key, size_t len, uint64_t *out)
{
    return fk_counting_locate(f, key, len, out);
}

static uint32_t counting_cell(const void *f, uint64_t i)
{
    return fk_counting_cell(f, i);
}

static uint64_t counting_saturations(const void *f)
{
    fk_counting_description d;
    fk_counting_describe(f, &d);
    return d.saturations;
}

/* One character per cell: bits as . and 1; counters as . 1-9 a-f, and #
 * for 16 or more (8-bit counters only). */
static char cell_char(uint32_t v)
{
    if (v == 0)
        return '.';
    if (v < 10)
        return (char)('0' + v);
    if (v < 16)
        return (char)('a' + (v - 10));
    return '#';
}

static uint64_t count_nonzero(const cells *c)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < c->m; i++)
        n += c->cell(c->f, i) != 0;
    return n;
}

/* Prints the array, 64 cells a row after a right-aligned offset, with a
 * line of ^ under each of the `npos` positions in pos (none when 0). */
static void print_array(FILE *out, const cells *c, const uint64_t *pos, uint32_t npos)
{
    char line[ROW + 1], mark[ROW + 1];
    for (uint64_t row = 0; row < c->m; row += ROW) {
        uint64_t w = c->m - row < ROW ? c->m - row : ROW;
        bool marked = false;
        for (uint64_t j = 0; j < w; j++) {
            line[j] = cell_char(c->cell(c->f, row + j));
            mark[j] = ' ';
        }
        for (uint32_t i = 0; i < npos; i++)
            if (pos[i] >= row && pos[i] < row + w) {
                mark[pos[i] - row] = '^';
                marked = true;
            }
        line[w] = 0;
        size_t mlen = (size_t)w;
        while (mlen && mark[mlen - 1] == ' ')
            mlen--;
        mark[mlen] = 0;
        fprintf(out, "    %5llu  %s\n", (unsigned long long)row, line);
        if (marked)
            fprintf(out, "           %s\n", mark);
    }
}

static void print_ruler(FILE *out, uint64_t m)
{
    uint64_t w = m < ROW ? m : ROW;
    char tens[ROW + 1] = { 0 }, units[ROW + 1] = { 0 };
    for (uint64_t j = 0; j < w; j++) {
        tens[j] = j % 10 == 0 ? (char)('0' + j / 10 % 10) : ' ';
        units[j] = (char)('0' + j % 10);
    }
    size_t tlen = (size_t)w;
    while (tlen && tens[tlen - 1] == ' ')
        tlen--;
    tens[tlen] = units[w] = 0;
    fprintf(out, "  reading the arrays: position = row offset + column\n");
    fprintf(out, "  column     %s\n", tens);
    fprintf(out, "             %s\n", units);
}

static void print_header(FILE *out, const cells *c, const fk_params *p, uint32_t counter_bits,
                         uint32_t counter_max)
{
    if (c->counting)
        fprintf(out, "counting Bloom filter: m = %llu counters of %u bits (%llu bits), k = %u probes, seed %llu\n",
                (unsigned long long)c->m, counter_bits,
                (unsigned long long)(c->m * counter_bits), c->k, (unsigned long long)c->seed);
    else
        fprintf(out, "bloom filter: m = %llu bits, k = %u probes, seed %llu\n",
                (unsigned long long)c->m, c->k, (unsigned long long)c->seed);
    fprintf(out, "  sized for n = %llu items at fpr %g: theory (1 - e^(-kn/m))^k = %.4g\n",
            (unsigned long long)p->capacity, p->fpr,
            fk_theory_bloom_fpr(c->m, c->k, (double)p->capacity));
    fprintf(out, "  each key: one XXH3-128 hash = (h1, h2); probe i is\n"
                 "  x_i = h1 + i*h2 + (i^3 - i)/6 (mod 2^64), mapped to [0, m) by multiply-high\n");
    if (c->counting)
        fprintf(out, "  counters: . = 0, 1-9, a-f = 10-15%s; a counter at %u saturates (stays there)\n",
                counter_bits > 4 ? ", # = 16 or more" : "", counter_max);
    else
        fprintf(out, "  bits: . = 0, 1 = set; ^ marks the key's probe positions\n");
    print_ruler(out, c->m);
}

static void print_probes(FILE *out, const uint64_t *pos, uint32_t k)
{
    fputs("  probes", out);
    for (uint32_t i = 0; i < k; i++)
        fprintf(out, " %llu", (unsigned long long)pos[i]);
    fputc('\n', out);
}

/* Why a Bloom filter cannot remove: names each other live key that shares
 * one of pos[0..k) and the shared positions (clearing them would make that
 * key a false negative). */
static void print_sharers(FILE *out, const cells *c, const fkc_trace_truth *t, const char *key,
                          size_t len, const uint64_t *pos, uint64_t *other)
{
    bool any = false;
    for (size_t s = 0; s < t->n; s++) {
        const fkc_trace_step *st = &t->steps[s];
        if (!t->count[s] || (st->len == len && memcmp(st->key, key, len) == 0))
            continue;
        if (c->positions(c->f, st->key, st->len, other) != FK_OK)
            continue;
        uint32_t nshared = 0; /* distinct positions of pos that st also uses */
        for (uint32_t i = 0; i < c->k; i++) {
            bool shared = false, seen = false;
            for (uint32_t j = 0; j < c->k; j++)
                shared |= pos[i] == other[j];
            for (uint32_t j = 0; j < i; j++)
                seen |= pos[j] == pos[i];
            if (shared && !seen)
                other[nshared++] = pos[i]; /* other[] is free again from here */
        }
        if (!nshared)
            continue;
        fputs(any ? "" : "  clearing its bits would break other keys:\n", out);
        fputs("    ", out);
        fkc_trace_print_key(out, st->key, st->len);
        fprintf(out, " also needs position%s", nshared > 1 ? "s" : "");
        for (uint32_t i = 0; i < nshared; i++)
            fprintf(out, "%s %llu", i ? "," : "", (unsigned long long)other[i]);
        fputs(" (it would turn into a false negative)\n", out);
        any = true;
    }
    if (!any)
        fputs("  (no other key shares its bits yet, but nothing records that: the filter cannot\n"
              "  know which bits are safe to clear)\n", out);
}

/* One trace in progress: the filter, the truth, and scratch arrays. */
typedef struct {
    FILE           *out;
    const cells    *c;
    fk_filter      *f;                     /* the same filter, generic API */
    fkc_trace_truth  truth;
    uint64_t       *pos, *other;           /* k positions: this key, another */
    uint32_t       *before;                /* cells at pos before the step */
    uint32_t        counter_max;           /* counting: the saturation value */
} run_state;

/* "  counters at probes 1 0 2 -> 2 1 3" (before and after the step). */
static void print_transition(const run_state *r)
{
    fputs("  counters at probes", r->out);
    for (uint32_t i = 0; i < r->c->k; i++)
        fprintf(r->out, " %u", r->before[i]);
    fputs(" ->", r->out);
    for (uint32_t i = 0; i < r->c->k; i++)
        fprintf(r->out, " %u", r->c->cell(r->c->f, r->pos[i]));
    fputc('\n', r->out);
}

static void step_insert(run_state *r, const fkc_trace_step *st)
{
    const cells *c = r->c;
    uint64_t sat0 = c->counting ? counting_saturations(c->f) : 0;
    fk_status s = fk_filter_insert(r->f, st->key, st->len);
    if (s == FK_OK)
        fkc_trace_truth_add(&r->truth, st->key, st->len);
    if (c->counting) {
        print_transition(r);
        fprintf(r->out, "  -> %s", fk_status_name(s));
        uint64_t sat = counting_saturations(c->f) - sat0;
        if (sat)
            fprintf(r->out, "; %llu counter(s) reached %u and saturated: they never move again",
                    (unsigned long long)sat, r->counter_max);
        fputc('\n', r->out);
        return;
    }
    uint32_t fresh = 0;
    for (uint32_t i = 0; i < c->k; i++) {
        bool dup = false; /* a position probed twice counts once */
        for (uint32_t j = 0; j < i; j++)
            dup |= r->pos[j] == r->pos[i];
        fresh += !dup && !r->before[i];
    }
    fprintf(r->out, "  -> %s: %u new bit%s set (%u of its %u were already 1)\n", fk_status_name(s),
            fresh, fresh == 1 ? "" : "s", c->k - fresh, c->k);
}

static void step_lookup(run_state *r, const fkc_trace_step *st)
{
    const cells *c = r->c;
    fprintf(r->out, "  %s at probes", c->counting ? "counters" : "bits");
    for (uint32_t i = 0; i < c->k; i++)
        fprintf(r->out, " %u", r->before[i]);
    if (fk_filter_contains(r->f, st->key, st->len)) {
        fputs(" -> maybe present", r->out);
        if (!fkc_trace_truth_has(&r->truth, st->key, st->len))
            fputs(" (a false positive: this key was never inserted)", r->out);
    } else {
        uint32_t i = 0; /* the first probe that found a 0 */
        while (i + 1 < c->k && r->before[i])
            i++;
        fprintf(r->out, " -> definitely absent (position %llu is 0)", (unsigned long long)r->pos[i]);
    }
    fputc('\n', r->out);
}

static void step_remove(run_state *r, const fkc_trace_step *st)
{
    fk_status s = fk_filter_remove(r->f, st->key, st->len);
    if (s == FK_OK)
        fkc_trace_truth_del(&r->truth, st->key, st->len);
    if (!r->c->counting) {
        fprintf(r->out, "  -> %s: a Bloom filter cannot remove\n", fk_status_name(s));
        print_sharers(r->out, r->c, &r->truth, st->key, st->len, r->pos, r->other);
        return;
    }
    print_transition(r);
    fprintf(r->out, "  -> %s", fk_status_name(s));
    if (s == FK_ENOTFOUND)
        fputs(": a counter is 0, so the key is definitely absent; nothing changed", r->out);
    else if (s == FK_OK) {
        uint32_t stuck = 0;
        for (uint32_t i = 0; i < r->c->k; i++)
            stuck += r->before[i] == r->counter_max;
        if (stuck == r->c->k)
            fprintf(r->out, ": all its counters are saturated and stay at %u; nothing went down",
                    r->counter_max);
        else if (stuck)
            fprintf(r->out, ": its counters went down by one, except %u saturated one(s) at %u",
                    stuck, r->counter_max);
        else
            fputs(": each of its counters went down by one", r->out);
    }
    fputc('\n', r->out);
}

static void print_summary(const run_state *r, size_t steps)
{
    fk_stats st;
    fk_filter_stats(r->f, &st);
    fprintf(r->out, "\nafter %zu steps: items held %llu, %s %.3f, fpr now fill^k = %.4g", steps,
            (unsigned long long)st.items, r->c->counting ? "nonzero counters" : "fill",
            st.load_factor, st.expected_fpr);
    if (!r->c->counting) {
        fk_bloom_description d;
        fk_bloom_describe(r->c->f, &d);
        fprintf(r->out, ", distinct items estimated from the fill %.2f", d.estimated_items);
    }
    fputc('\n', r->out);
}

static int run(const fkc_trace_job *job, const cells *c, fk_filter *f, uint32_t counter_max)
{
    run_state r = { job->out, c, f, { 0 }, NULL, NULL, NULL, counter_max };
    r.pos = calloc(2 * (size_t)c->k, sizeof *r.pos);
    r.before = calloc(c->k, sizeof *r.before);
    int status = 0;
    if (!r.pos || !r.before || fkc_trace_truth_init(&r.truth, job) != 0) {
        fputs("filterkit trace: out of memory\n", stderr);
        status = 1;
    } else {
        r.other = r.pos + c->k;
    }
    for (size_t s = 0; s < job->nsteps && !status; s++) {
        const fkc_trace_step *st = &job->steps[s];
        fkc_trace_print_heading(r.out, st);
        fk_hash128 h = fk_hash_key(st->key, st->len, c->seed);
        fprintf(r.out, "  hash h1 0x%016llx h2 0x%016llx\n", (unsigned long long)h.lo,
                (unsigned long long)h.hi);
        if (c->positions(c->f, st->key, st->len, r.pos) != FK_OK) {
            fputs("filterkit trace: could not compute the probe positions\n", stderr);
            status = 1;
            break;
        }
        print_probes(r.out, r.pos, c->k);
        for (uint32_t i = 0; i < c->k; i++)
            r.before[i] = c->cell(c->f, r.pos[i]);
        if (st->op == FKC_TRACE_INSERT)
            step_insert(&r, st);
        else if (st->op == FKC_TRACE_LOOKUP)
            step_lookup(&r, st);
        else
            step_remove(&r, st);
        fprintf(r.out, "  %s%s: %llu of %llu %s\n", c->counting ? "counters" : "bits",
                st->op == FKC_TRACE_LOOKUP ? "" : " after", (unsigned long long)count_nonzero(c),
                (unsigned long long)c->m, c->counting ? "nonzero" : "set");
        print_array(r.out, c, r.pos, c->k);
    }
    if (!status)
        print_summary(&r, job->nsteps);
    free(r.before);
    free(r.pos);
    fkc_trace_truth_free(&r.truth);
    return status;
}

/* 0 when the filter job->params sizes can be drawn, else the exit status
 * (the message printed). */
static int too_big(const fkc_trace_job *job)
{
    uint64_t m = job->params.bits ? job->params.bits
                                  : fk_size_bloom_bits(job->params.capacity, job->params.fpr);
    if (m <= FKC_TRACE_MAX_CELLS)
        return 0;
    fprintf(stderr, "filterkit trace: the filter would have %llu cells; traces draw at most %u "
                    "(lower --capacity or raise --fpr)\n",
            (unsigned long long)m, FKC_TRACE_MAX_CELLS);
    return 2;
}

static int failed(const char *call, fk_status r)
{
    fprintf(stderr, "filterkit trace: %s: %s\n", call, fk_strerror(r));
    return 1;
}

int fkc_trace_bloom(const fkc_trace_job *job)
{
    fk_bloom *b;
    fk_status r;
    if (too_big(job))
        return 2;
    if ((r = fk_bloom_new(&job->params, &b)) != FK_OK)
        return failed("fk_bloom_new", r);
    fk_bloom_description d;
    fk_bloom_describe(b, &d);
    cells c = { false, b, d.bits, d.hashes, d.seed, bloom_positions, bloom_cell };
    print_header(job->out, &c, &job->params, 1, 1);
    int status = run(job, &c, fk_bloom_as_filter(b), 1);
    fk_bloom_free(b);
    return status;
}

int fkc_trace_counting(const fkc_trace_job *job)
{
    fk_counting *f;
    fk_status r;
    if (too_big(job))
        return 2;
    if ((r = fk_counting_new(&job->params, &f)) != FK_OK)
        return failed("fk_counting_new", r);
    fk_counting_description d;
    fk_counting_describe(f, &d);
    cells c = { true, f, d.bits, d.hashes, d.seed, counting_positions, counting_cell };
    print_header(job->out, &c, &job->params, d.counter_bits, d.counter_max);
    int status = run(job, &c, fk_counting_as_filter(f), d.counter_max);
    fk_counting_free(f);
    return status;
}
