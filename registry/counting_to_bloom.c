/* registry/counting_to_bloom.c: fk_counting_to_bloom, the one call
 * that needs both the counting and the Bloom module. It lives in the
 * all-in-one library (like the registry) so that neither module includes
 * the other: counting exports its bit array, bloom builds a filter from
 * raw bits. */
#include <stdlib.h>
#include "registry.h"

fk_status fk_counting_to_bloom(const fk_counting *c, fk_bloom **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    if (!c)
        return FK_EINVAL;
    fk_counting_description d;
    fk_counting_describe(c, &d);
    uint64_t nwords = d.export_words;
    if (nwords > SIZE_MAX / sizeof(uint64_t))
        return FK_EINVAL;
    uint64_t *words = malloc((size_t)nwords * sizeof *words);
    if (!words)
        return FK_ENOMEM;
    fk_status s = fk_counting_export_bits(c, words, (size_t)nwords);
    if (s == FK_OK)
        s = fk_bloom_from_bits(d.bits, d.hashes, d.seed, d.capacity, d.target_fpr, d.items,
                               words, out);
    free(words);
    return s;
}
