/* counting/counting_concurrent.c: the counting filter's concurrent insert
 * and remove: every counter update is a compare-and-swap of the byte that
 * holds it (two 4-bit counters share a byte, so a swap that lost to a
 * neighbour's update retries with the new byte). The saturation rule holds
 * as in the plain paths: a counter seen at its maximum is never moved. */
#include "counting_internal.h"
#include "../common/atomic.h"
#include "../common/probe.h"

/* The counter's byte, bit offset and maximum. */
typedef struct {
    uint8_t *byte;
    unsigned off;
} ctr_ref;

static inline ctr_ref ref_of(const fk_ctr_view v, uint64_t pos)
{
    ctr_ref r = { &v.ctr[pos >> v.shift], fk_ctr_offset(v, pos) };
    return r;
}

/* Adds 1 to the counter unless it is saturated. Returns 1 when this add
 * saturated it, else 0. */
static inline unsigned inc_cas(ctr_ref r, uint32_t max)
{
    uint8_t old = fk_load8(r.byte);
    for (;;) {
        uint32_t x = (uint32_t)(old >> r.off) & max;
        if (x == max)
            return 0; /* saturated: stays at max for ever */
        if (fk_cas8(r.byte, &old, (uint8_t)(old + (1u << r.off))))
            return x + 1 == max;
    }
}

/* Takes 1 from the counter unless it is saturated. Returns false (nothing
 * changed) when the counter is 0. */
static inline bool dec_cas(ctr_ref r, uint32_t max)
{
    uint8_t old = fk_load8(r.byte);
    for (;;) {
        uint32_t x = (uint32_t)(old >> r.off) & max;
        if (x == max)
            return true; /* saturated: never decremented */
        if (x == 0)
            return false;
        if (fk_cas8(r.byte, &old, (uint8_t)(old - (1u << r.off))))
            return true;
    }
}

FK_HOT fk_status fk_counting_insert_concurrent(fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, c->seed));
    const fk_ctr_view v = fk_ctr_view_of(c);
    const uint32_t k = c->k;
    uint64_t pos[FK_BLOOM_MAX_HASHES];
    /* Touch every counter's line first, so the misses overlap before the
     * first locked instruction orders memory. */
    for (uint32_t i = 0; i < k; i++) {
        pos[i] = fk_probe_next(&pr, c->m);
        (void)fk_load8(&v.ctr[pos[i] >> v.shift]);
    }
    unsigned saturated = 0;
    for (uint32_t i = 0; i < k; i++)
        saturated += inc_cas(ref_of(v, pos[i]), v.max);
    if (saturated)
        fk_tally_add(&c->sat_tally, saturated);
    fk_tally_add(&c->tally, 1);
    return FK_OK;
}

FK_HOT fk_status fk_counting_remove_concurrent(fk_counting *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    fk_probe pr = fk_probe_start(fk_hash_key(key, len, c->seed));
    const fk_ctr_view v = fk_ctr_view_of(c);
    const uint32_t k = c->k;
    uint64_t pos[FK_BLOOM_MAX_HASHES];
    for (uint32_t i = 0; i < k; i++) {
        pos[i] = fk_probe_next(&pr, c->m);
        ctr_ref r = ref_of(v, pos[i]);
        if (!((fk_load8(r.byte) >> r.off) & v.max))
            return FK_ENOTFOUND; /* definitely absent, nothing changed */
    }
    /* A counter that runs out before its decrement (the key's probes repeat
     * a position, or another thread removed a key that was never inserted)
     * means the key is not there: put back what was taken, as the plain
     * remove does. */
    for (uint32_t i = 0; i < k; i++) {
        if (dec_cas(ref_of(v, pos[i]), v.max))
            continue;
        unsigned saturated = 0;
        while (i-- > 0)
            saturated += inc_cas(ref_of(v, pos[i]), v.max);
        if (saturated)
            fk_tally_add(&c->sat_tally, saturated);
        return FK_ENOTFOUND;
    }
    fk_tally_add(&c->tally, UINT64_MAX); /* minus one, mod 2^64 */
    return FK_OK;
}
