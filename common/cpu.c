/* common/cpu.c: the CPU probe, run once per process (cpu.h). */
#include <stdatomic.h>
#include "cpu.h"

/* The flags with FK_CPU_READY set once probed; 0 until then. Two threads
 * probing at once compute the same word, so either store is right. */
#define FK_CPU_READY (1u << 31)
static _Atomic unsigned cpu_flags;

static unsigned probe(void)
{
    unsigned f = 0;
#if FK_CPU_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("bmi"))
        f |= FK_CPU_BMI;
    if (__builtin_cpu_supports("bmi2"))
        f |= FK_CPU_BMI2;
    if (__builtin_cpu_supports("popcnt"))
        f |= FK_CPU_POPCNT;
    if (__builtin_cpu_supports("avx2"))
        f |= FK_CPU_AVX2;
#endif
    return f;
}

unsigned fk_cpu_flags(void)
{
    unsigned f = atomic_load_explicit(&cpu_flags, memory_order_relaxed);
    if (!f) {
        f = probe() | FK_CPU_READY;
        atomic_store_explicit(&cpu_flags, f, memory_order_relaxed);
    }
    return f & ~FK_CPU_READY;
}
