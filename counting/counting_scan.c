/* counting/counting_scan.c: whole-array work (stats, nonzero count, export
 * to Bloom bits) done a 64-bit word at a time, plus the accessors. */
#include <string.h>
#include "counting_internal.h"

/* ---------------------------------------------------------------- scans */

uint64_t fk_counting_count_nonzero(const fk_counting *c)
{
    if (!c)
        return 0;
    uint64_t n = 0;
    for (uint64_t b = 0; b < c->bytes; b += 8)
        n += (uint64_t)__builtin_popcountll(fk_ctr_nonzero_flags(fk_ctr_load_le64(c->ctr + b), c->width));
    return n; /* padding counters past m are always 0 */
}

uint64_t fk_counting_export_words(const fk_counting *c)
{
    return c ? (c->m + 63) / 64 : 0;
}

fk_status fk_counting_export_bits(const fk_counting *c, uint64_t *words, size_t nwords)
{
    if (!c || !words || nwords < fk_counting_export_words(c))
        return FK_EINVAL;
    const uint64_t nw = fk_counting_export_words(c);
    memset(words, 0, nw * sizeof *words);
    /* Each 8-byte word holds 64 / width counters; set one output bit per
     * nonzero counter, visiting only the nonzero ones. */
    const uint32_t per_word_log2 = c->width == 4 ? 4u : 3u; /* 16 or 8 counters */
    const uint32_t width_log2 = c->width == 4 ? 2u : 3u;
    for (uint64_t b = 0; b < c->bytes; b += 8) {
        uint64_t flags = fk_ctr_nonzero_flags(fk_ctr_load_le64(c->ctr + b), c->width);
        uint64_t base = (b >> 3) << per_word_log2;
        while (flags) {
            uint64_t i = base + ((uint64_t)__builtin_ctzll(flags) >> width_log2);
            words[i >> 6] |= UINT64_C(1) << (i & 63);
            flags &= flags - 1;
        }
    }
    return FK_OK;
}

void fk_counting_stats(const fk_counting *c, fk_stats *out)
{
    if (!c || !out)
        return;
    double fill = (double)fk_counting_count_nonzero(c) / (double)c->m;
    memset(out, 0, sizeof *out);
    out->items = fk_counting_item_count(c);
    out->capacity = c->capacity;
    out->memory_bytes = c->bytes + sizeof *c + fk_tally_bytes(&c->tally) +
                        fk_tally_bytes(&c->sat_tally);
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)c->capacity;
    out->load_factor = fill;
    out->expected_fpr = fk_theory_bloom_fpr_at_fill(fill, c->k);
}

/* --------------------------------------------------------------- access */

fk_filter *fk_counting_as_filter(fk_counting *c) { return c ? &c->base : NULL; }
uint64_t fk_counting_bits(const fk_counting *c) { return c ? c->m : 0; }
uint32_t fk_counting_hashes(const fk_counting *c) { return c ? c->k : 0; }
uint32_t fk_counting_counter_bits(const fk_counting *c) { return c ? c->width : 0; }
uint32_t fk_counting_counter_max(const fk_counting *c) { return c ? c->max : 0; }
uint64_t fk_counting_seed(const fk_counting *c) { return c ? c->seed : 0; }
uint64_t fk_counting_capacity(const fk_counting *c) { return c ? c->capacity : 0; }
double fk_counting_target_fpr(const fk_counting *c) { return c ? c->fpr : 0.0; }
uint64_t fk_counting_items(const fk_counting *c) { return c ? fk_counting_item_count(c) : 0; }

uint64_t fk_counting_saturations(const fk_counting *c)
{
    return c ? c->saturations + fk_tally_sum(&c->sat_tally) : 0;
}

uint32_t fk_counting_get_counter(const fk_counting *c, uint64_t i)
{
    return c && i < c->m ? fk_ctr_get(fk_ctr_view_of(c), i) : 0;
}
