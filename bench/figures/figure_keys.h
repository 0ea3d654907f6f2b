/* bench/figures/figure_keys.h: what the static kinds' figure programs
 * share: their keys (a bijective mix of the index, so keys never repeat
 * and no file is read) and their clock. Not part of the library. */
#ifndef FK_FIGURE_KEYS_H
#define FK_FIGURE_KEYS_H

#include <stdint.h>
#include <time.h>

static inline double figure_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline uint64_t figure_mix(uint64_t z) /* splitmix64's finalizer: a bijection */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

#endif
