/* bench/memory_model.c: see memory_model.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "memory_model.h"
#include "../bloom/blocked.h"
#include "../common/sizing.h"

/* 4-bit counters unless the kind says otherwise (counting/ default). */
#define COUNTING_BITS 4u

uint64_t fk_model_bytes(const fk_ops *ops, uint64_t n, double fpr, char *desc, size_t len)
{
    if (desc && len)
        desc[0] = 0;
    const char *name = ops ? ops->name : "";
    if (strcmp(name, "bloom") == 0 || strcmp(name, "counting") == 0) {
        uint64_t m = fk_size_bloom_bits(n, fpr);
        uint32_t k = fk_size_bloom_hashes(m, n);
        if (!m)
            return 0;
        if (strcmp(name, "bloom") == 0) {
            if (desc)
                snprintf(desc, len, "m = %llu bits, k = %u probes", (unsigned long long)m, k);
            return (m + 63) / 64 * 8;
        }
        if (desc)
            snprintf(desc, len, "m = %llu %u-bit counters, k = %u probes", (unsigned long long)m,
                     COUNTING_BITS, k);
        return (m * COUNTING_BITS + 63) / 64 * 8;
    }
    if (strcmp(name, "blocked") == 0) {
        uint64_t blocks = fk_size_blocked_blocks(n, fpr);
        if (!blocks)
            return 0;
        if (desc)
            snprintf(desc, len, "%llu blocks of %u bits (%.2f keys per block)",
                     (unsigned long long)blocks, FK_BLOCKED_BLOCK_BITS, (double)n / (double)blocks);
        return blocks * FK_BLOCKED_BLOCK_BYTES;
    }
    if (strcmp(name, "cuckoo") == 0) {
        uint64_t buckets = fk_size_cuckoo_buckets(n);
        uint32_t f = fk_size_cuckoo_fp_bits(fpr);
        if (!buckets || !f)
            return 0;
        if (desc)
            snprintf(desc, len, "%u-bit fingerprints, %llu buckets x %u slots (%.0f%% full at n)", f,
                     (unsigned long long)buckets, FK_CUCKOO_SLOTS,
                     100.0 * (double)n / (double)(buckets * FK_CUCKOO_SLOTS));
        return (buckets * FK_CUCKOO_SLOTS * f + 7) / 8;
    }
    return 0;
}

uint64_t fk_model_extrapolate(const fk_ops *ops, double fpr, uint64_t n_meas, uint64_t measured,
                              uint64_t n, int *exact)
{
    uint64_t at_meas = fk_model_bytes(ops, n_meas, fpr, NULL, 0);
    uint64_t at_n = fk_model_bytes(ops, n, fpr, NULL, 0);
    *exact = 0;
    if (!at_meas || !at_n) /* no formula: linear in n */
        return (uint64_t)ceil((double)measured * (double)n / (double)n_meas);
    if (measured >= at_meas && measured - at_meas <= 4096) {
        *exact = 1;
        return at_n + (measured - at_meas);
    }
    /* e.g. fingerprints stored in wider slots than f bits */
    return (uint64_t)ceil((double)at_n * (double)measured / (double)at_meas);
}
