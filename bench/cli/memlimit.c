/* bench/cli/memlimit.c: the default byte limit of the CLI's filters. The
 * Python package calls it for its default_max_bytes (python/src/params.c). */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include "memlimit.h"
#include "../../common/params.h"
#include "../../registry/registry.h"

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

int fkc_memlimit_apply(const char *cmd, fk_filter *f, uint64_t max_bytes)
{
    if (!(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_GROWS))
        return 0;
    uint64_t limit = max_bytes ? max_bytes : fkc_memlimit_default();
    fk_status s = fk_filter_set_max_bytes(f, limit);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit %s: setting the memory limit: %s\n", cmd, fk_strerror(s));
        return -1;
    }
    return 0;
}

const char *fkc_memlimit_hint(fk_status s)
{
    return s == FK_ELIMIT ? " (--max-bytes B raises the limit)" : "";
}
