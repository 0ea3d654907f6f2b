/* bench/trace/trace_blocked.c: `filterkit trace blocked`: the split-block filter
 * step by step: each key's hash, its block, the bit it sets in each of the
 * block's eight words, and the block's words after the step. Positions come
 * from fk_blocked_locate and words are read back with fk_blocked_cell:
 * the trace prints the filter's real state, it recomputes nothing. */
#include <stdlib.h>
#include "../../blocked/blocked.h"
#include "../../blocked/blocked_internal.h"
#include "trace.h"

/* One 32-bit word as 32 characters, bit 0 first: . = 0, 1 = set. */
static void print_word(FILE *out, unsigned w, uint32_t word, int mark_bit)
{
    char line[FK_BLOCKED_WORD_BITS + 1];
    for (unsigned j = 0; j < FK_BLOCKED_WORD_BITS; j++)
        line[j] = (word >> j) & 1 ? '1' : '.';
    line[FK_BLOCKED_WORD_BITS] = 0;
    fprintf(out, "    word %u  %s", w, line);
    if (mark_bit >= 0)
        fprintf(out, "  bit %2d", mark_bit);
    fputc('\n', out);
}

/* The block's eight words, with the key's bit in each named. */
static void print_block(FILE *out, const fk_blocked *b, const fk_blocked_probe *pr)
{
    unsigned set = 0;
    for (unsigned w = 0; w < FK_BLOCKED_WORDS; w++)
        set += (unsigned)__builtin_popcount(fk_blocked_cell(b, pr->block, w));
    fprintf(out, "  block %llu (%u of %u bits set):\n", (unsigned long long)pr->block, set,
            FK_BLOCKED_BLOCK_BITS);
    for (unsigned w = 0; w < FK_BLOCKED_WORDS; w++)
        print_word(out, w, fk_blocked_cell(b, pr->block, w), pr->bit[w]);
}

static void print_header(FILE *out, const fk_blocked *b, const fk_params *p)
{
    fk_blocked_description d;
    fk_blocked_describe(b, &d);
    uint64_t blocks = d.blocks;
    fprintf(out, "blocked Bloom filter: %llu block%s of %u bits (%u words of %u bits), seed %llu\n",
            (unsigned long long)blocks, blocks == 1 ? "" : "s", FK_BLOCKED_BLOCK_BITS, FK_BLOCKED_WORDS,
            FK_BLOCKED_WORD_BITS, (unsigned long long)d.seed);
    fprintf(out, "  sized for n = %llu items at fpr %g: theory, averaged over the Poisson load of a\n"
                 "  block, sum_x P(x) (1 - (31/32)^x)^8 = %.4g at %.2f keys per block\n",
            (unsigned long long)p->capacity, p->fpr,
            fk_theory_blocked_fpr((double)p->capacity / (double)blocks),
            (double)p->capacity / (double)blocks);
    fprintf(out, "  each key: one XXH3-64 hash h; its block is (h >> 32) * blocks >> 32, and in\n"
                 "  word i it sets bit (low32(h) * salt[i]) >> 27, the eight odd salts of the\n"
                 "  Parquet split-block spec: 8 bits in one block, one memory access per lookup\n");
    fprintf(out, "  words: bit 0 first; . = 0, 1 = set; `bit N` is the key's bit in that word\n");
}

static void step(FILE *out, fk_blocked *b, const fkc_trace_step *st, fkc_trace_truth *truth,
                 const fk_blocked_probe *pr)
{
    unsigned before = 0; /* of the key's 8 bits, how many were already set */
    for (unsigned w = 0; w < FK_BLOCKED_WORDS; w++)
        before += (fk_blocked_cell(b, pr->block, w) >> pr->bit[w]) & 1;
    fk_filter *f = fk_blocked_as_filter(b);
    if (st->op == FKC_TRACE_INSERT) {
        fk_status s = fk_filter_insert(f, st->key, st->len);
        if (s == FK_OK)
            fkc_trace_truth_add(truth, st->key, st->len);
        fprintf(out, "  -> %s: %u new bit%s set (%u of its 8 were already 1)\n",
                fk_status_name(s), 8 - before, 8 - before == 1 ? "" : "s", before);
    } else if (st->op == FKC_TRACE_LOOKUP) {
        fprintf(out, "  %u of its 8 bits set", before);
        if (fk_filter_contains(f, st->key, st->len)) {
            fputs(" -> maybe present", out);
            if (!fkc_trace_truth_has(truth, st->key, st->len))
                fputs(" (a false positive: this key was never inserted)", out);
        } else {
            unsigned w = 0; /* the first word whose bit is 0 */
            while (w + 1 < FK_BLOCKED_WORDS && ((fk_blocked_cell(b, pr->block, w) >> pr->bit[w]) & 1))
                w++;
            fprintf(out, " -> definitely absent (word %u bit %u is 0)", w, pr->bit[w]);
        }
        fputc('\n', out);
    } else {
        fprintf(out, "  -> %s: a Bloom filter cannot remove (its bits may be other keys' too)\n",
                fk_status_name(fk_filter_remove(f, st->key, st->len)));
    }
    print_block(out, b, pr);
}

int fkc_trace_blocked(const fkc_trace_job *job)
{
    /* sized before anything is allocated, as fk_blocked_new will */
    const fk_params *p = &job->params;
    uint64_t blocks = 0;
    if (fk_blocked_geometry(p, &blocks) != FK_OK ||
        blocks > FKC_TRACE_MAX_CELLS / FK_BLOCKED_BLOCK_BITS) {
        fprintf(stderr, "filterkit trace: the filter would have %llu blocks of %u bits; traces draw "
                        "at most %u bits (lower --capacity or raise --fpr)\n",
                (unsigned long long)blocks, FK_BLOCKED_BLOCK_BITS, FKC_TRACE_MAX_CELLS);
        return 2;
    }
    fk_blocked *b;
    fk_status r = fk_blocked_new(p, &b);
    if (r != FK_OK) {
        fprintf(stderr, "filterkit trace: fk_blocked_new: %s\n", fk_strerror(r));
        return 1;
    }
    fkc_trace_truth truth;
    if (fkc_trace_truth_init(&truth, job) != 0) {
        fputs("filterkit trace: out of memory\n", stderr);
        fk_blocked_free(b);
        return 1;
    }
    print_header(job->out, b, &job->params);
    for (size_t s = 0; s < job->nsteps; s++) {
        const fkc_trace_step *st = &job->steps[s];
        fk_blocked_probe pr;
        fkc_trace_print_heading(job->out, st);
        fk_blocked_locate(b, st->key, st->len, &pr); /* cannot fail: b and key are set */
        fprintf(job->out, "  hash 0x%016llx: block %llu, bits", (unsigned long long)pr.hash,
                (unsigned long long)pr.block);
        for (unsigned w = 0; w < FK_BLOCKED_WORDS; w++)
            fprintf(job->out, " %u", pr.bit[w]);
        fputc('\n', job->out);
        step(job->out, b, st, &truth, &pr);
    }
    fk_stats st;
    fk_filter_stats(fk_blocked_as_filter(b), &st);
    fk_blocked_description d;
    fk_blocked_describe(b, &d);
    fprintf(job->out, "\nafter %zu steps: items held %llu, fill %.3f, fpr now (Poisson average at "
                      "%.2f keys per block) = %.4g, distinct items estimated from the fill %.2f\n",
            job->nsteps, (unsigned long long)st.items, st.load_factor,
            (double)st.items / (double)d.blocks, st.expected_fpr, d.estimated_items);
    fkc_trace_truth_free(&truth);
    fk_blocked_free(b);
    return 0;
}
