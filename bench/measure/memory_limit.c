/* bench/measure/memory_limit.c: the default byte limit of the filters the
 * CLI and the Python package make (memory_limit.h). */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include "memory_limit.h"
#include "../../common/params.h"

static uint64_t lower(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static uint64_t soft_limit(int resource)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    return (uint64_t)rl.rlim_cur;
}

/* The cgroup (v2) memory.max the process runs under: the OOM killer acts
 * there first in a container. "max" or no file: no limit. */
static uint64_t cgroup_memory_max(void)
{
    FILE *fp = fopen("/sys/fs/cgroup/memory.max", "r");
    unsigned long long v = 0;
    int got = fp ? fscanf(fp, "%llu", &v) : 0;
    if (fp)
        fclose(fp);
    return got == 1 && v > 0 ? (uint64_t)v : UINT64_MAX;
}

uint64_t fkc_memlimit_default(void)
{
    uint64_t room = UINT64_MAX;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        room = (uint64_t)pages * (uint64_t)page;
    room = lower(room, soft_limit(RLIMIT_AS));
    room = lower(room, soft_limit(RLIMIT_DATA));
    room = lower(room, cgroup_memory_max());
    uint64_t cap = lower(room / 2, FK_MEMORY_CAP);
    return cap ? cap : 1;
}
