/* bench/pick/pick_parquet.c: Parquet's question (pick.h, "Parquet's
 * question"): the size Parquet writers give a column chunk's split-block
 * Bloom filter, and the FPR of that filter by formula and measured. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pick.h"
#include "../../blocked/blocked.h"
#include "../../common/endian.h"

/* Value i of the set (odd 0) or of the absent values (odd 1) for a seed:
 * the splitmix64 finalizer (a bijection) of 2i + odd, XORed with an even
 * mask of the seed, so the two families never meet. */
static uint64_t value_of(uint64_t i, unsigned odd, uint64_t seed)
{
    uint64_t z = ((2 * i + odd) ^ (seed << 1)) + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

int fkc_pick_parquet(uint64_t ndv, double fpp, uint64_t seed, fkc_pick_parquet_result *out,
                     char *message, size_t len)
{
    memset(out, 0, sizeof *out);
    if (!(fpp > 0.0 && fpp < 1.0) || ndv == 0) {
        snprintf(message, len, "--parquet: give --n (distinct values, at least 1) and --fpr in (0, 1)");
        return -1;
    }
    out->ndv = ndv;
    out->fpp = fpp;
    out->bytes = fk_blocked_parquet_bytes(ndv, fpp);
    out->bits_per_value = 8.0 * (double)out->bytes / (double)ndv;
    out->rule_bits_per_value = -8.0 / log(1.0 - pow(fpp, 1.0 / 8.0));
    /* the formula and the memory, from the kind's own sizing */
    fk_params p = fk_params_make(ndv, fpp);
    p.bits = 8 * out->bytes;
    fk_sizing sz;
    if (fk_ops_size(&fk_blocked_ops, &p, &sz) != FK_OK ||
        fk_ops_expected_fpr(&fk_blocked_ops, &p, (double)ndv, &out->formula) != FK_OK) {
        snprintf(message, len, "--parquet: the blocked kind cannot size %llu bytes",
                 (unsigned long long)out->bytes);
        return -1;
    }
    out->memory = sz.memory_bytes;
    p.bits = (uint64_t)ceil(out->rule_bits_per_value * (double)ndv);
    if (fk_ops_expected_fpr(&fk_blocked_ops, &p, (double)ndv, &out->rule_formula) != FK_OK)
        out->rule_formula = NAN;
    /* measured on the same keys per block, scaled down when large */
    uint64_t n = ndv, bytes = out->bytes;
    while (n > FKC_PICK_PARQUET_KEYS && bytes > 32 * 4096) {
        n /= 2;
        bytes /= 2;
    }
    out->measured_ndv = n;
    out->measured_bytes = bytes;
    fk_filter *f = NULL;
    fk_status s = fk_blocked_new_parquet(bytes, &f);
    if (s != FK_OK) {
        snprintf(message, len, "--parquet: a filter of %llu bytes: %s", (unsigned long long)bytes,
                 fk_strerror(s));
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) /* INT64 values: their 8 little-endian bytes */
        (void)fk_filter_insert_u64(f, value_of(i, 0, seed));
    double want = 1000.0 / (out->formula > 0.0 ? out->formula : 1e-12);
    out->probes = want < (double)FKC_PICK_PARQUET_PROBES_MIN ? FKC_PICK_PARQUET_PROBES_MIN
                : want > (double)FKC_PICK_PARQUET_PROBES_MAX ? FKC_PICK_PARQUET_PROBES_MAX
                                                             : (uint64_t)want;
    for (uint64_t j = 0; j < out->probes; j++)
        out->passed += fk_filter_contains_u64(f, value_of(j, 1, seed));
    out->measured = (double)out->passed / (double)out->probes;
    fk_stats st;
    fk_filter_stats(f, &st);
    out->fill_fpr = st.expected_fpr;
    fk_filter_free(f);
    return 0;
}
