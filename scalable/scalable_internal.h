/* scalable/scalable_internal.h: the growing filter's struct, shared by
 * scalable.c (the chain) and scalable_serial.c (its saved form). */
#ifndef FK_SCALABLE_INTERNAL_H
#define FK_SCALABLE_INTERNAL_H

#include <stdbool.h>
#include "../common/hashed.h"
#include "scalable.h"

typedef struct {
    fk_filter *filter;
    uint64_t   capacity; /* items it was sized for: c0 * s^i */
    double     fpr;      /* fpr it was asked for: at least e0 * r^i */
    uint64_t   items;    /* inserted into it minus removed from it */
    fk_hashed_probes probes; /* its probes from a hash, where the chain
                                hashes once (hash_once) */
    uint64_t   unused[2]; /* 64 bytes a link: the hot paths index links by
                             a shift, not a multiply (3 instructions an
                             insert) */
} fk_scalable_link;
_Static_assert(sizeof(fk_scalable_link) == 64 || sizeof(void *) != 8,
               "a link is 64 bytes on 64-bit targets");

typedef struct {
    fk_filter         base;
    const fk_ops     *inner;
    fk_params         first;   /* link 0's params (fpr e0, knobs cleared) */
    double            target;  /* the caller's fpr for the whole chain */
    uint32_t          growth;
    double            tightening;
    bool              bounded; /* inner has FK_CAP_BOUNDED: full at FK_EFULL */
    bool              newest_full;
    size_t            count;   /* links in use, >= 1 */
    size_t            slots;   /* links allocated: fk_scalable_slots(count) */
    fk_scalable_link *link;
    uint64_t          items;
    uint64_t          link_memory; /* sum of the links' memory_bytes */
    double            spent;       /* sum of the links' fprs when full */
    uint64_t          max_bytes;   /* the chain's byte limit, all of it
                                      (fk_params_max_bytes); not saved */
    const fk_hashed_ops *hashed;   /* the inner kind's probes from a hash
                                      (fk_scalable_bind_hashed), or NULL */
    bool              hash_once;   /* hashed, and every link takes its hash:
                                      a key is hashed once for all links */
} fk_scalable;

/* Links allocated for `count` in use: 8, then the next power of two, so
 * the memory a chain reports depends only on its links. */
static inline size_t fk_scalable_slots(size_t count)
{
    size_t n = 8;
    while (n < count)
        n *= 2;
    return n;
}

/* Bytes the chain holds beside its links, with `count` links. */
static inline uint64_t fk_scalable_overhead(size_t count)
{
    return sizeof(fk_scalable) + fk_scalable_slots(count) * sizeof(fk_scalable_link);
}

/* True when f is a chain made by this wrapper (its stats slot is ours). */
bool fk_scalable_is(const fk_filter *f);

/* Resolves defaults and checks the knobs: FK_OK or FK_EINVAL. */
fk_status fk_scalable_knobs_check(const fk_params *p, uint32_t *growth, double *tightening);

/* The params of link i = c->count (capacity and fpr) following link
 * i-1's (prev): capacity times growth; fpr the chain's budget up to link i
 * less what links 0 to i-1 spend (c->spent), never below prev's fpr times
 * tightening. FK_EINVAL on overflow or underflow. */
fk_status fk_scalable_next_params(const fk_scalable *c, const fk_params *prev,
                                  fk_params *next);

/* The fpr link q reaches when full (what it spends of the chain's
 * budget): at its capacity, or with every slot taken for a bounded kind;
 * q->fpr when the inner kind has no sizing slot. */
double fk_scalable_link_spend(const fk_ops *inner, const fk_params *q);

/* A new chain object with no links (count 0) and `slots` link slots, for
 * fk_scalable_new_as and the loader; NULL when allocation fails. */
fk_scalable *fk_scalable_alloc(const fk_ops *outer, const fk_ops *inner, const fk_params *p,
                               uint32_t growth, double tightening, size_t slots);

#endif
