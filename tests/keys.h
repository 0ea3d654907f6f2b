/* tests/keys.h: deterministic test keys (header-only).
 *
 * keys_positive(i) and keys_negative(j) never collide: both are a bijective
 * 64-bit mix of 2i and 2j+1 respectively. keys_realistic(i) gives distinct
 * real-world-shaped strings (file paths, words, URLs) with long shared
 * prefixes, the shape that exposes weak hashing. */
#ifndef FK_TESTS_KEYS_H
#define FK_TESTS_KEYS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define KEYS_MAX_LEN 96

/* The splitmix64 finalizer: a bijection on 64-bit integers. */
static inline uint64_t keys_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline uint64_t keys_positive(uint64_t i) { return keys_mix(2 * i); }
static inline uint64_t keys_negative(uint64_t i) { return keys_mix(2 * i + 1); }

/* Writes the i-th realistic key to out (KEYS_MAX_LEN bytes) and returns its
 * length; keys for distinct i are distinct. */
static inline size_t keys_realistic(uint64_t i, char *out)
{
    static const char *const syll[16] = { "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi",
                                          "be", "di", "fu", "go", "ha", "je", "pu", "zo" };
    uint64_t j = i / 3;
    int n;
    switch (i % 3) {
    case 0:
        n = snprintf(out, KEYS_MAX_LEN, "/usr/share/doc/package-%llu/changelog.Debian.gz",
                     (unsigned long long)j);
        break;
    case 1: { /* a pronounceable word: j written in base 16, one syllable a digit */
        size_t len = 0;
        do {
            memcpy(out + len, syll[j & 15], 2);
            len += 2;
            j >>= 4;
        } while (j);
        out[len] = '\0';
        return len;
    }
    default:
        n = snprintf(out, KEYS_MAX_LEN, "https://www.example.org/search?q=item%llu&lang=en",
                     (unsigned long long)j);
        break;
    }
    return (size_t)n;
}

#endif
