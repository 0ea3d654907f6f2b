/* cuckoo/cuckoo_internal.h: the cuckoo filter's layout, shared by the
 * files of this module (policy, vtable, serialization). Not installed. */
#ifndef FK_CUCKOO_INTERNAL_H
#define FK_CUCKOO_INTERNAL_H

#include "cuckoo.h"
#include "cuckoo_table.h"

struct fk_cuckoo {
    fk_filter base;        /* must stay first: an fk_cuckoo * is an fk_filter * */
    fk_ctab   table;       /* the packed buckets */
    uint64_t  mask;        /* buckets - 1 */
    uint64_t  seed;        /* hash seed */
    uint64_t  capacity;    /* items it was sized for */
    double    fpr;         /* target it was sized for */
    uint64_t  items;       /* occupied slots */
    uint64_t  kicks;       /* evictions so far (including undone ones) */
    uint64_t  rng;         /* kick PRNG state (splitmix64), from the seed */
    fk_cuckoo_observer observer; /* NULL: no kick events */
    void     *observer_ctx;
};

/* Builds an empty filter of exactly `buckets` buckets (a power of two) and
 * f-bit fingerprints (no sizing). The allocation rules of fk_cuckoo_new. */
fk_status fk_cuckoo_create_exact(uint64_t buckets, uint32_t f, uint64_t seed,
                                 uint64_t capacity, double fpr, fk_cuckoo **out);

/* The saving hooks of fk_cuckoo_ops (cuckoo_serial.c; contracts in
 * common/serial.h). */
extern const fk_serial_ops fk_cuckoo_serial_ops;

#endif
