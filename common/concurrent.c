/* common/concurrent.c: the fk_filter_*_concurrent dispatchers. Only a kind
 * that says how its writers may overlap (the version-4 slots) takes them;
 * there is no generic fallback, since a loop cannot make a plain writer
 * safe to run beside another. */
#include "filter.h"

fk_status fk_filter_insert_concurrent(fk_filter *f, const void *key, size_t len)
{
    if (!f || (!key && len > 0))
        return FK_EINVAL;
    if (!FK_OPS_HAS(f->ops, FK_OPS_V4, insert_concurrent))
        return FK_EUNSUPPORTED;
    return f->ops->insert_concurrent(f, key, len);
}

fk_status fk_filter_remove_concurrent(fk_filter *f, const void *key, size_t len)
{
    if (!f || (!key && len > 0))
        return FK_EINVAL;
    if (!FK_OPS_HAS(f->ops, FK_OPS_V4, remove_concurrent))
        return FK_EUNSUPPORTED;
    return f->ops->remove_concurrent(f, key, len);
}
