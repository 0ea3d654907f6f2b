/* bench/memory_model.c: see memory_model.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "memory_model.h"
#include "../common/sizing.h"

/* 4-bit counters unless the kind says otherwise (counting/ default). */
#define COUNTING_BITS 4u

/* ceil(bits / 64) words of 8 bytes, saturating: FK_MODEL_TOO_BIG when the
 * product overflows. */
static uint64_t words_bytes(uint64_t cells, uint64_t bits_per_cell)
{
    if (cells > (UINT64_MAX - 63) / bits_per_cell)
        return FK_MODEL_TOO_BIG;
    return (cells * bits_per_cell + 63) / 64 * 8;
}

static int is_kind(const fk_ops *ops, const char *name)
{
    return ops && strcmp(ops->name, name) == 0;
}

uint64_t fk_model_bytes(const fk_ops *ops, uint64_t n, double fpr, char *desc, size_t len)
{
    if (desc && len)
        desc[0] = 0;
    if (is_kind(ops, "bloom") || is_kind(ops, "counting")) {
        uint64_t m = fk_size_bloom_bits(n, fpr);
        if (!m)
            return n && fpr > 0 && fpr < 1 ? FK_MODEL_TOO_BIG : 0;
        uint32_t k = fk_size_bloom_hashes(m, n);
        if (is_kind(ops, "bloom")) {
            if (desc)
                snprintf(desc, len, "m = %llu bits, k = %u probes", (unsigned long long)m, k);
            return words_bytes(m, 1);
        }
        if (desc)
            snprintf(desc, len, "m = %llu %u-bit counters, k = %u probes", (unsigned long long)m,
                     COUNTING_BITS, k);
        return words_bytes(m, COUNTING_BITS);
    }
    if (is_kind(ops, "cuckoo")) {
        uint64_t buckets = fk_size_cuckoo_buckets(n);
        uint32_t f = fk_size_cuckoo_fp_bits(fpr);
        if (!f)
            return 0;
        if (!buckets)
            return n ? FK_MODEL_TOO_BIG : 0;
        if (desc)
            snprintf(desc, len, "%u-bit fingerprints, %llu buckets x %u slots (%.0f%% full at n)", f,
                     (unsigned long long)buckets, FK_CUCKOO_SLOTS,
                     100.0 * (double)n / ((double)buckets * FK_CUCKOO_SLOTS));
        if (buckets > UINT64_MAX / FK_CUCKOO_SLOTS)
            return FK_MODEL_TOO_BIG;
        uint64_t bytes = words_bytes(buckets * FK_CUCKOO_SLOTS, f);
        return bytes == FK_MODEL_TOO_BIG ? bytes : (buckets * FK_CUCKOO_SLOTS * f + 7) / 8;
    }
    return 0;
}

/* x rounded up to a whole number of bytes, FK_MODEL_TOO_BIG past 2^64. */
static uint64_t saturate(double x)
{
    x = ceil(x);
    return x < 18446744073709549568.0 ? (uint64_t)x : FK_MODEL_TOO_BIG;
}

uint64_t fk_model_extrapolate(const fk_ops *ops, double fpr, uint64_t n_meas, uint64_t measured,
                              uint64_t n, int *exact)
{
    uint64_t at_meas = fk_model_bytes(ops, n_meas, fpr, NULL, 0);
    uint64_t at_n = fk_model_bytes(ops, n, fpr, NULL, 0);
    *exact = 0;
    if (at_n == FK_MODEL_TOO_BIG)
        return at_n;
    if (!at_meas || !at_n || at_meas == FK_MODEL_TOO_BIG || !n_meas) /* no formula: linear in n */
        return saturate((double)measured * (double)n / (double)(n_meas ? n_meas : 1));
    if (measured >= at_meas && measured - at_meas <= 4096) {
        *exact = 1;
        return at_n + (measured - at_meas);
    }
    /* e.g. fingerprints stored in wider slots than f bits */
    return saturate((double)at_n * (double)measured / (double)at_meas);
}

double fk_model_fpr(const fk_ops *ops, uint64_t n, double fpr, double measured_theory)
{
    if (is_kind(ops, "bloom") || is_kind(ops, "counting")) {
        uint64_t m = fk_size_bloom_bits(n, fpr);
        return m ? fk_theory_bloom_fpr(m, fk_size_bloom_hashes(m, n), (double)n) : 1.0;
    }
    if (is_kind(ops, "cuckoo")) {
        uint64_t buckets = fk_size_cuckoo_buckets(n);
        uint32_t f = fk_size_cuckoo_fp_bits(fpr);
        if (!buckets || !f)
            return 1.0;
        return fk_theory_cuckoo_fpr(f, (double)n / ((double)buckets * FK_CUCKOO_SLOTS));
    }
    return measured_theory;
}
