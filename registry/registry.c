/* registry/registry.c: name and file kind id -> ops for every kind
 * libfilterkit knows: the built-in ones, listed once below, then those
 * added with fk_ops_register. */
#include <string.h>
#include "registry.h"
#include "../common/serial_internal.h"

/* The built-in kinds, in listing order: one line per kind. */
#define BUILTIN_KINDS(X) \
    X(fk_bloom_ops)      \
    X(fk_counting_ops)   \
    X(fk_cuckoo_ops)     \
    X(fk_blocked_ops) /* after the first three: fuzz seeds name kinds by index */ \
    X(fk_scalable_bloom_ops)   /* growing kinds: scalable_kinds.c */           \
    X(fk_scalable_blocked_ops)                                                 \
    X(fk_scalable_cuckoo_ops)                                                  \
    X(fk_fuse_ops)             /* static: built from the whole set */          \
    X(fk_quotient_ops)                                                         \
    X(fk_window_ops)           /* sliding window: count or time */             \
    X(fk_expandable_ops)                                                       \
    X(fk_ribbon_ops)           /* static: Gaussian elimination on a band */

#define DECLARE_OPS(ops) extern const fk_ops ops;
BUILTIN_KINDS(DECLARE_OPS)
#define ADDRESS_OF(ops) &ops,
static const fk_ops *const builtin[] = { BUILTIN_KINDS(ADDRESS_OF) };
#define BUILTIN_COUNT (sizeof builtin / sizeof builtin[0])

static const fk_ops *extra[FK_REGISTRY_EXTRA_MAX];
static size_t extra_count;

const fk_ops *fk_ops_at(size_t i)
{
    if (i < BUILTIN_COUNT)
        return builtin[i];
    i -= BUILTIN_COUNT;
    return i < extra_count ? extra[i] : NULL;
}

const fk_ops *fk_ops_find(const char *name)
{
    const fk_ops *ops;
    for (size_t i = 0; name && (ops = fk_ops_at(i)) != NULL; i++)
        if (strcmp(ops->name, name) == 0)
            return ops;
    return NULL;
}

const fk_ops *fk_ops_find_kind_id(uint32_t kind_id)
{
    const fk_ops *ops;
    for (size_t i = 0; kind_id && (ops = fk_ops_at(i)) != NULL; i++)
        if (ops->serial && ops->serial->kind_id == kind_id)
            return ops;
    return NULL;
}

fk_status fk_ops_register(const fk_ops *ops)
{
    if (fk_ops_check(ops) != FK_OK)
        return FK_EINVAL;
    const fk_ops *same_name = fk_ops_find(ops->name);
    if (same_name == ops)
        return FK_OK;
    if (same_name || (ops->serial && fk_ops_find_kind_id(ops->serial->kind_id)))
        return FK_EINVAL;
    if (extra_count == FK_REGISTRY_EXTRA_MAX)
        return FK_EFULL;
    extra[extra_count++] = ops;
    return FK_OK;
}

/* The kind that loads a file with header h: the one with its kind id, or,
 * when kinds share an id (the growing kinds: one id, the inner kind in a
 * parameter), the first whose check_head accepts h. */
static const fk_ops *kind_of_head(const fk_serial_head *h)
{
    const fk_ops *first = fk_ops_find_kind_id(h->kind_id), *ops;
    if (!first)
        return NULL;
    for (size_t i = 0; (ops = fk_ops_at(i)) != NULL; i++)
        if (ops != first && ops->serial && ops->serial->kind_id == h->kind_id &&
            ops->serial->check_head(h) == FK_OK)
            return ops;
    return first;
}

fk_status fk_filter_load_any(const void *buf, size_t len, fk_filter **out)
{
    return fk_serial_load(NULL, kind_of_head, buf, len, out);
}

fk_status fk_filter_load_file_any(FILE *fp, fk_filter **out)
{
    return fk_serial_load_file(NULL, kind_of_head, fp, out);
}
