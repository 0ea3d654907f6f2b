/* common/probe.h: the probe sequence shared by the Bloom and counting
 * filters (internal header), so both set the same positions for a key.
 *
 * Double hashing (Kirsch & Mitzenmacher 2006) over 64-bit integers: from the
 * two 64-bit halves h1, h2 of the key's one hash, probe i is the value
 * x_i = h1 + i*h2 (mod 2^64), mapped to [0, m) by its high bits with the
 * multiply-high reduction (no division).
 *
 * Why not the enhanced variant (Dillinger & Manolios 2004)? Its cubic term
 * fixes what arithmetic modulo m does to plain double hashing (a step
 * h2 = 0 mod m, short cycles, shifted progressions shared by other keys).
 * Here the arithmetic is modulo 2^64 and each position covers ~2^64/m
 * values, so those cases need (j - i)*h2 to land within 2^64/m of a
 * multiple of 2^64 (odds ~k/m per key, no more than two random probes
 * colliding), and a cubic term below 4*10^4 almost never moves a position
 * anyway. PAPER_NOTES.md ("Why two hashes are enough") has the argument and
 * the measured FPR at every k.
 */
#ifndef FK_PROBE_H
#define FK_PROBE_H

#include <stdint.h>
#include "bits.h"
#include "hash.h"
#include "params.h"
#include "status.h"

typedef struct {
    uint64_t x; /* current 64-bit probe value */
    uint64_t y; /* stride h2 */
} fk_probe;

static inline fk_probe fk_probe_start(fk_hash128 h)
{
    fk_probe p = { h.lo, h.hi };
    return p;
}

/* Returns the next position in [0, m) and advances the sequence. */
static inline uint64_t fk_probe_next(fk_probe *p, uint64_t m)
{
    uint64_t pos = fk_reduce(p->x, m);
    p->x += p->y;
    return pos;
}

/* The geometry of a Bloom or counting filter asked for by p: m = p->bits if
 * nonzero, else fk_size_bloom_bits(capacity, fpr); k = p->hashes if
 * nonzero, else fk_size_bloom_hashes(m, capacity). Returns FK_OK with *m
 * and *k set; FK_EINVAL when p fails fk_params_check, p->hashes is above
 * FK_BLOOM_MAX_HASHES, or m cannot be sized (overflow). The memory cap is
 * the allocator's to check. Cost: O(1). */
fk_status fk_size_bloom_geometry(const fk_params *p, uint64_t *m, uint32_t *k);

#endif
