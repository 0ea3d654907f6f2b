/* common/lookup_paths.h: what the kinds' specialised single-key lookups
 * share (internal header, modules only).
 *
 * A kind whose lookup runs k probes (bloom, counting) compiles one lookup
 * per k up to FK_UNROLLED_K, with k a constant (straight-line code, no
 * loop counter), each twice: for any x86-64 CPU and for one with BMI2
 * (mulx and shrx leave their operands where they are, saving copies a
 * probe). The filter picks its lookup once, when it is made, so no call
 * pays a test of k or of the CPU; both builds answer the same bits.
 */
#ifndef FK_LOOKUP_PATHS_H
#define FK_LOOKUP_PATHS_H

#include <stdbool.h>
#include "cpu.h"

/* FK_TARGET_BMI2 (cpu.h): a function compiled for BMI2, chosen at run
 * time by fk_cpu_has(FK_CPU_BMI2). */

/* Keeps x's computation where it stands in a loop: the compiler may not
 * regroup the ANDs of a probe loop around it. Regrouped, they hold every
 * loaded word live at once and the registers run out (at k = 7, 6 pushes
 * and pops and 3 spills); kept in probe order, the loads still overlap in
 * the core. Costs no instruction. */
#if defined(__GNUC__) || defined(__clang__)
#define FK_KEEP_IN_ORDER(x) __asm__("" : "+r"(x))
#else
#define FK_KEEP_IN_ORDER(x) ((void)0)
#endif

/* The largest k with its own unrolled lookup, and X(k) for each of them,
 * to define the lookups and fill the table they are chosen from. */
#define FK_UNROLLED_K 16u
#define FK_EACH_UNROLLED_K(X) \
    X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

#endif
