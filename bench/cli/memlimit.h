/* bench/cli/memlimit.h: the most bytes a CLI command lets a filter reach
 * (--max-bytes), so that growing a filter stops with a clear error before
 * the kernel's out-of-memory killer stops the process. */
#ifndef FKC_BENCH_MEMLIMIT_H
#define FKC_BENCH_MEMLIMIT_H

#include <stdint.h>
#include "../../common/filter.h"
#include "../measure/memory_limit.h" /* fkc_memlimit_default: the default */

/* Gives a loaded growing filter (a chain) the limit max_bytes (0: the
 * default above): the library's own default, FK_MEMORY_CAP, may exceed the
 * machine. Other kinds keep theirs. 0, or -1 after printing why. */
int fkc_memlimit_apply(const char *cmd, fk_filter *f, uint64_t max_bytes);

/* " (--max-bytes B raises the limit)" after a message for FK_ELIMIT, else "". */
const char *fkc_memlimit_hint(fk_status s);

/* The option that sets it, the same line in every command that grows. */
#define FKC_MEMLIMIT_OPT(dst) \
    { "max-bytes", FKC_OPT_BYTES, (dst), "B", "the most memory the filter may grow to (default: half the least of physical memory, rlimits and cgroup memory.max)" }

#endif
