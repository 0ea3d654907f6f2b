/* bench/cli/memlimit.c: the byte limit a CLI command gives a filter
 * (--max-bytes; the default is bench/measure/memory_limit.c). */
#include <stdio.h>
#include "memlimit.h"
#include "../../registry/registry.h"

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
