/* tests/fpset/fpset_internal.h: the fpset kind's layout, shared by its
 * core (fpset.c) and its saving (fpset_serial.c). */
#ifndef FK_TEST_FPSET_INTERNAL_H
#define FK_TEST_FPSET_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "fpset.h"
#include "../../common/serial.h"

typedef struct {
    fk_filter base;     /* first: an fpset * is an fk_filter * */
    uint64_t *slot;     /* 0 = empty, else fingerprint + 1 */
    uint64_t  mask;     /* slots - 1; slots is a power of two */
    uint32_t  f;        /* fingerprint bits, 1..62 */
    uint64_t  seed, capacity, items;
    double    fpr;
} fpset;

/* Full at 7/8 of the slots; sized so that capacity fills at most half. */
static inline uint64_t fpset_limit(uint64_t slots) { return slots / 8 * 7; }

/* A filter of exactly `slots` slots (a power of two) of f-bit
 * fingerprints; FK_EINVAL / FK_ENOMEM as fk_filter_new. */
fk_status fpset_create_exact(uint64_t slots, uint32_t f, uint64_t seed, uint64_t capacity,
                             double fpr, fpset **out);
void fpset_free(fpset *s);

/* The saving hooks of fk_test_fpset_ops (fpset_serial.c). */
extern const fk_serial_ops fpset_serial_ops;

#endif
