/* common/rank_select.h: rank and select on one 64-bit word, for the
 * rank-and-select tables (quotient/, expandable/). Internal header.
 *
 * Each table makes its lookup bodies twice: once with these portable
 * forms, once for CPUs with BMI2 and popcnt (FK_CPU_X86: pdep then
 * tzcnt, and the popcnt instruction, inside functions compiled with
 * target("bmi2,popcnt")), chosen when the filter is made. Both give the
 * same answers, which the tests compare. */
#ifndef FK_RANK_SELECT_H
#define FK_RANK_SELECT_H

#include <stdint.h>

#include "cpu.h"
#if FK_CPU_X86
#include <immintrin.h>
#endif

/* Set bits of w: the instruction where the build has it, else the SWAR
 * sum (a portable build's __builtin_popcountll is a library call). */
static inline unsigned fk_rs_popcount(uint64_t w)
{
#if defined(__POPCNT__)
    return (unsigned)__builtin_popcountll(w);
#else
    w = w - ((w >> 1) & UINT64_C(0x5555555555555555));
    w = (w & UINT64_C(0x3333333333333333)) + ((w >> 2) & UINT64_C(0x3333333333333333));
    w = (w + (w >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((w * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* Position of the k-th (from 0) set bit of w (w has more than k): the
 * bytes' running popcounts found with one multiply, then the byte's bits.
 * Portable, branch-light; no BMI2 needed. */
static inline unsigned fk_rs_select(uint64_t w, unsigned k)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t s = w - ((w >> 1) & UINT64_C(0x5555555555555555));
    s = (s & UINT64_C(0x3333333333333333)) + ((s >> 2) & UINT64_C(0x3333333333333333));
    s = (s + (s >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    uint64_t cum = s * ones;                              /* byte i: bits in bytes 0..i */
    uint64_t le = ((k * ones) | highs) - cum;             /* high bit set where cum_i <= k */
    unsigned byte = (unsigned)((((le & highs) >> 7) * ones) >> 56);
    unsigned before = byte ? (unsigned)(cum >> (8 * byte - 8)) & 0xffu : 0u;
    uint64_t bits = (w >> (8 * byte)) & 0xffu;
    for (unsigned r = k - before; r; r--)
        bits &= bits - 1;
    return 8 * byte + (unsigned)__builtin_ctzll(bits);
}

#if FK_CPU_X86
/* The same select with BMI2: the k-th set bit isolated by pdep. */
FK_TARGET_BMI2 static inline unsigned fk_rs_select_bmi2(uint64_t w, unsigned k)
{
    return (unsigned)__builtin_ctzll(_pdep_u64(UINT64_C(1) << k, w));
}

/* popcount for the bodies compiled with target("popcnt"). */
#define FK_RS_POPCNT(w) ((unsigned)__builtin_popcountll(w))
#endif

#endif
