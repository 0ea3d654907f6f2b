/* common/cpu.h: what the CPU can do, asked once per process (internal
 * header, modules only; nothing here is exported).
 *
 * A kind compiles some lookups twice, for any CPU and under a target
 * attribute (BMI1/BMI2, popcnt, AVX2), and chooses one when a filter is
 * made (its choose_paths). Every such choice reads the flags below, the
 * one probe of the library (zstd's cpu.h habit): fk_cpu_flags() runs the
 * CPU probe the first time and keeps the answer in an atomic word, so
 * threads that make filters at once agree and never race. Both builds of
 * a path answer the same bits.
 */
#ifndef FK_CPU_H
#define FK_CPU_H

#include <stdbool.h>

/* FK_CPU_X86: 1 where code may be compiled for an x86-64 extension with a
 * target attribute (FK_TARGET_*) and chosen at run time by fk_cpu_has().
 * Elsewhere every fk_cpu_has() answers false and only the portable paths
 * exist. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FK_CPU_X86 1
#else
#define FK_CPU_X86 0
#endif

/* A function compiled for the extensions of a flag set, to be called only
 * when fk_cpu_has() says the CPU has them (nothing where FK_CPU_X86 is
 * 0): the one spelling of each target the kinds use. */
#if FK_CPU_X86
#define FK_TARGET_BMI2        __attribute__((target("bmi2")))        /* FK_CPU_BMI2 */
#define FK_TARGET_BMI12       __attribute__((target("bmi,bmi2")))    /* BMI | BMI2 */
#define FK_TARGET_BMI2_POPCNT __attribute__((target("bmi2,popcnt"))) /* BMI2 | POPCNT */
#define FK_TARGET_AVX2        __attribute__((target("avx2,bmi2")))   /* AVX2 | BMI2 */
#else
#define FK_TARGET_BMI2
#define FK_TARGET_BMI12
#define FK_TARGET_BMI2_POPCNT
#define FK_TARGET_AVX2
#endif

/* The flags, one bit each. */
#define FK_CPU_BMI    (1u << 0) /* BMI1: andn, tzcnt, blsr */
#define FK_CPU_BMI2   (1u << 1) /* BMI2: mulx, shrx, rorx, pdep */
#define FK_CPU_POPCNT (1u << 2)
#define FK_CPU_AVX2   (1u << 3)

/* The flags of this CPU (0 where FK_CPU_X86 is 0). The first call probes
 * the CPU; every later one is one relaxed atomic load. Thread-safe. */
unsigned fk_cpu_flags(void);

/* True when the CPU has every flag in `want`. */
static inline bool fk_cpu_has(unsigned want)
{
    return (fk_cpu_flags() & want) == want;
}

#endif
