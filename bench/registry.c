/* bench/registry.c: name -> ops for the built-in kinds (part of the
 * all-in-one library; the CLI adds external baselines on top of it), and the
 * kind-id lookup that lets a saved filter of any kind be loaded. */
#include <string.h>
#include "../bloom/blocked.h"
#include "../bloom/bloom.h"
#include "../common/serial.h"
#include "../counting/counting.h"
#include "../cuckoo/cuckoo.h"

static const fk_ops *const builtin[] = {
    &fk_bloom_ops,
    &fk_counting_ops,
    &fk_cuckoo_ops,
    &fk_blocked_ops, /* last: earlier kinds keep their index (fuzz seeds name it) */
};
#define BUILTIN_COUNT (sizeof builtin / sizeof builtin[0])

const fk_ops *fk_ops_at(size_t i)
{
    return i < BUILTIN_COUNT ? builtin[i] : NULL;
}

const fk_ops *fk_ops_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < BUILTIN_COUNT; i++)
        if (strcmp(builtin[i]->name, name) == 0)
            return builtin[i];
    return NULL;
}

const fk_ops *fk_ops_find_kind_id(uint32_t kind_id)
{
    if (kind_id == 0)
        return NULL;
    for (size_t i = 0; i < BUILTIN_COUNT; i++)
        if (builtin[i]->kind_id == kind_id)
            return builtin[i];
    return NULL;
}

fk_status fk_filter_load_any(const void *buf, size_t len, fk_filter **out)
{
    return fk_serial_load(NULL, fk_ops_find_kind_id, buf, len, out);
}

fk_status fk_filter_load_file_any(FILE *fp, fk_filter **out)
{
    return fk_serial_load_file(NULL, fk_ops_find_kind_id, fp, out);
}
