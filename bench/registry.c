/* bench/registry.c: name -> ops for the built-in kinds (part of the
 * all-in-one library; the CLI adds external baselines on top of it). */
#include <string.h>
#include "../bloom/bloom.h"
#include "../counting/counting.h"
#include "../cuckoo/cuckoo.h"

static const fk_ops *const builtin[] = {
    &fk_bloom_ops,
    &fk_counting_ops,
    &fk_cuckoo_ops,
};

const fk_ops *fk_ops_at(size_t i)
{
    return i < sizeof builtin / sizeof builtin[0] ? builtin[i] : NULL;
}

const fk_ops *fk_ops_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; fk_ops_at(i); i++)
        if (strcmp(fk_ops_at(i)->name, name) == 0)
            return fk_ops_at(i);
    return NULL;
}
