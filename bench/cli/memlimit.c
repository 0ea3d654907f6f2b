/* bench/cli/memlimit.c: the default byte limit of the CLI's filters. */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include "memlimit.h"
#include "../../common/params.h"
#include "../../registry/registry.h"
#include "../../scalable/scalable.h"

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

uint64_t fkc_memlimit_default(void)
{
    uint64_t cap = FK_MEMORY_CAP;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        cap = lower(cap, (uint64_t)pages / 2 * (uint64_t)page);
    cap = lower(cap, soft_limit(RLIMIT_AS));
    cap = lower(cap, soft_limit(RLIMIT_DATA));
    return cap ? cap : 1;
}

int fkc_memlimit_apply(const char *cmd, fk_filter *f, uint64_t max_bytes)
{
    if (!(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_GROWS))
        return 0;
    fk_status s = fk_scalable_set_max_bytes(f, max_bytes ? max_bytes : fkc_memlimit_default());
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
