/* common/probe.h: the probe sequence shared by the Bloom and counting
 * filters (internal header), so both set the same positions for a key.
 *
 * Enhanced double hashing (Dillinger & Manolios 2004): from the two 64-bit
 * halves of the key's one hash, probe i is x_i = h1 + i*h2 + (i^3 - i)/6
 * (mod 2^64), computed incrementally as x += y; y += i. The cubic term
 * breaks the "same h1, same h2 => all k probes collide" weakness of plain
 * Kirsch-Mitzenmacher double hashing. Each x_i is mapped to [0, m) with the
 * multiply-high reduction, so there is no division in the loop.
 */
#ifndef FK_PROBE_H
#define FK_PROBE_H

#include <stdint.h>
#include "bits.h"
#include "hash.h"

typedef struct {
    uint64_t x; /* current 64-bit probe value */
    uint64_t y; /* current stride */
    uint64_t i; /* probes taken so far */
} fk_probe;

static inline fk_probe fk_probe_start(fk_hash128 h)
{
    fk_probe p = { h.lo, h.hi, 0 };
    return p;
}

/* Returns the next position in [0, m) and advances the sequence. */
static inline uint64_t fk_probe_next(fk_probe *p, uint64_t m)
{
    uint64_t pos = fk_reduce(p->x, m);
    p->i++;
    p->x += p->y;
    p->y += p->i;
    return pos;
}

#endif
