/* bench/trace/trace_ribbon.c: `filterkit trace ribbon`.
 *
 * A static filter is built once from every --insert key, so the trace
 * shows the build (slots, result bits, the attempt that solved), then each
 * key: its hash, its start slot, its 128-bit coefficient row (the band),
 * and for each of the r result columns the solved bits under the band,
 * their AND with the row and its parity; the r parities are the result,
 * compared with the key's fingerprint. Positions and bits come from
 * fk_ribbon_locate and the filter's solution (ribbon_internal.h), never
 * recomputed from the key here. --remove answers that a static filter
 * cannot remove. */
#include <stdlib.h>
#include <string.h>
#include "../../ribbon/ribbon.h"
#include "../../ribbon/ribbon_internal.h"
#include "trace.h"

/* The 128 solution bits of column j under a band starting at offset o of
 * the block whose words begin at p (bit 0 = the start slot). */
static void window_of(const uint64_t *p, uint32_t r, uint32_t j, unsigned o, uint64_t w[2])
{
    uint64_t a = p[j], b = p[r + j], c = p[2 * r + j];
    w[0] = o ? (a >> o) | (b << (64 - o)) : a;
    w[1] = o ? (b >> o) | (c << (64 - o)) : b;
}

static void print_key_row(FILE *out, const fk_ribbon *rb, const fkc_trace_step *s)
{
    fk_ribbon_location loc;
    fk_ribbon_locate(rb, s->key, s->len, &loc);
    fprintf(out, "  hash %016llx\n", (unsigned long long)loc.hash);
    if (rb->geom.shards > 1)
        fprintf(out, "  shard %llu\n", (unsigned long long)loc.shard);
    fprintf(out, "  band slots %llu..%llu (block %llu, offset %llu), row %016llx%016llx\n",
            (unsigned long long)loc.start, (unsigned long long)(loc.start + FK_RIBBON_WIDTH - 1),
            (unsigned long long)(loc.start >> 6), (unsigned long long)(loc.start & 63),
            (unsigned long long)loc.coef_hi, (unsigned long long)loc.coef_lo);
    if (rb->items == 0)
        return;
    const uint64_t *p = rb->solution + loc.first_word;
    for (uint32_t j = 0; j < rb->r; j++) {
        uint64_t w[2];
        window_of(p, rb->r, j, (unsigned)(loc.start & 63), w);
        uint64_t and_hi = w[1] & loc.coef_hi, and_lo = w[0] & loc.coef_lo;
        fprintf(out, "  column %2u: solved %016llx%016llx & row = %016llx%016llx, parity %d\n", j,
                (unsigned long long)w[1], (unsigned long long)w[0], (unsigned long long)and_hi,
                (unsigned long long)and_lo, __builtin_parityll(and_hi ^ and_lo));
    }
    int digits = (int)((rb->r + 3) / 4);
    fprintf(out, "  result %0*x, fingerprint %0*x\n", digits, loc.result, digits, loc.fingerprint);
}

int fkc_trace_ribbon(const fkc_trace_job *job)
{
    FILE *out = job->out;
    const void **keys;
    size_t *lens, nin;
    if (fkc_trace_static_keys(job, &keys, &lens, &nin) != 0) {
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    fk_params p = job->params;
    p.capacity = 0;
    fk_ribbon *rb = NULL;
    fk_status s = fk_ribbon_build(&p, nin, keys, lens, &rb);
    free(keys);
    free(lens);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit trace: cannot build a ribbon filter: %s\n", fk_strerror(s));
        return 1;
    }
    fprintf(out, "build from %zu keys (%llu distinct): r = %u result bits, %llu slots "
            "(band %u), solved on attempt %llu; each key is one equation: its row AND the "
            "solved bits under its band has parity = its fingerprint, column by column\n",
            nin, (unsigned long long)rb->items, rb->r,
            (unsigned long long)(rb->geom.shards * rb->geom.slots), FK_RIBBON_WIDTH,
            (unsigned long long)rb->built.max_attempts);
    fkc_trace_truth truth;
    if (fkc_trace_truth_of_static(&truth, job) != 0) {
        fk_ribbon_free(rb);
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    for (size_t i = 0; i < job->nsteps; i++) {
        const fkc_trace_step *st = &job->steps[i];
        fkc_trace_print_heading(out, st);
        if (st->op == FKC_TRACE_REMOVE) {
            fputs("  unsupported: a ribbon filter is static (built once from the whole set)\n",
                  out);
            continue;
        }
        print_key_row(out, rb, st);
        if (st->op == FKC_TRACE_INSERT) {
            fputs("  stored: the build solved the band so the result equals its fingerprint\n",
                  out);
            continue;
        }
        bool maybe = fk_ribbon_contains(rb, st->key, st->len);
        bool held = fkc_trace_truth_has(&truth, st->key, st->len) > 0;
        fprintf(out, "  %s%s\n",
                maybe ? "maybe present" : "absent (the result is not its fingerprint)",
                maybe && !held ? " (false positive: never inserted)" : "");
    }
    fkc_trace_truth_free(&truth);
    fk_ribbon_free(rb);
    return 0;
}
