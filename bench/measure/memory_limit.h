/* bench/measure/memory_limit.h: the most bytes a filter made by the CLI or
 * the Python package may reach by default, so that growing a filter stops
 * with a clear error before the kernel's out-of-memory killer stops the
 * process. (The CLI's --max-bytes option and its messages: bench/cli/memlimit.h.) */
#ifndef FKC_BENCH_MEMORY_LIMIT_H
#define FKC_BENCH_MEMORY_LIMIT_H

#include <stdint.h>

/* Half the least of the machine's physical memory, the process's soft
 * RLIMIT_AS and RLIMIT_DATA and its cgroup's memory.max (half, since
 * growing holds the old table beside the new one), and never above the
 * library's FK_MEMORY_CAP; at least 1. The Python package's
 * default_max_bytes() is this call (python/src/params.c, through
 * bench/pick/pick.h). Reads /sys/fs/cgroup/memory.max; prints nothing. */
uint64_t fkc_memlimit_default(void);

#endif
