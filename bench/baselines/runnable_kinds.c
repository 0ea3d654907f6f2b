/* bench/baselines/runnable_kinds.c: built-in kinds + compiled-in baselines. */
#include <stdio.h>
#include <string.h>
#include "runnable_kinds.h"
#include "window_baselines.h"
#include "../../registry/registry.h"

static const fk_ops *const baselines[] = {
#ifdef FK_HAVE_LIBBLOOM
    &fkc_libbloom_ops,
#endif
    &fkc_rotating_bloom_ops,
    &fkc_apbf_ops,
    &fkc_apbf_best_ops,
    NULL
};

int fkc_kind_is_window_baseline(const fk_ops *ops)
{
    return ops == &fkc_rotating_bloom_ops || ops == &fkc_apbf_ops || ops == &fkc_apbf_best_ops;
}

static size_t builtin_count(void)
{
    size_t n = 0;
    while (fk_ops_at(n))
        n++;
    return n;
}

const fk_ops *fkc_kind_at(size_t i)
{
    size_t nb = builtin_count();
    if (i < nb)
        return fk_ops_at(i);
    size_t at = nb;
    for (size_t j = 0; baselines[j]; j++) {
#ifdef FK_HAVE_LIBBLOOM
        if (baselines[j] == &fkc_libbloom_ops && !fkc_libbloom_load())
            continue; /* compiled in, but libbloom.so.1 is not there */
#endif
        if (at++ == i)
            return baselines[j];
    }
    return NULL;
}

const fk_ops *fkc_kind_find(const char *name)
{
    for (size_t i = 0; name && fkc_kind_at(i); i++)
        if (strcmp(fkc_kind_at(i)->name, name) == 0)
            return fkc_kind_at(i);
    return NULL;
}

int fkc_kind_is_baseline(const fk_ops *ops)
{
    for (size_t i = 0; baselines[i]; i++)
        if (baselines[i] == ops)
            return 1;
    return 0;
}

int fkc_kind_known_missing(const char *name)
{
    return fkc_kind_missing_why(name) != NULL;
}

const char *fkc_kind_missing_why(const char *name)
{
    if (!name || strcmp(name, "libbloom") != 0)
        return NULL;
#ifdef FK_HAVE_LIBBLOOM
    return fkc_libbloom_unavailable();
#else
    return "not built in (install libbloom-dev and rebuild)";
#endif
}

void fkc_kinds_names(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; fkc_kind_at(i) && at < len; i++) {
        int w = snprintf(buf + at, len - at, "%s%s", i ? "," : "", fkc_kind_at(i)->name);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

int fkc_kinds_parse(const char *list, const fk_ops **out, size_t *n, char *err, size_t errlen)
{
    *n = 0;
    if (!list || strcmp(list, "all") == 0) {
        /* every kind but the growing ones: sized for n they are their inner
         * kind at a tenth of the fpr; sweep --vary growth shows them grow;
         * nor the window baselines: `bench --workload window` runs them */
        for (size_t i = 0; fkc_kind_at(i) && *n < FKC_KINDS_MAX; i++)
            if (!(fk_ops_caps(fkc_kind_at(i)) & FK_CAP_GROWS) && !fkc_kind_is_window_baseline(fkc_kind_at(i)))
                out[(*n)++] = fkc_kind_at(i);
        return 0;
    }
    char name[64];
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof name) {
            snprintf(err, errlen, "empty or overlong filter name in '%s'", list);
            return -1;
        }
        memcpy(name, p, len);
        name[len] = 0;
        const fk_ops *ops = fkc_kind_find(name);
        if (!ops) {
            char names[256];
            fkc_kinds_names(names, sizeof names);
            if (fkc_kind_known_missing(name))
                snprintf(err, errlen, "'%s' is not available: %s; available: %s", name,
                         fkc_kind_missing_why(name), names);
            else
                snprintf(err, errlen, "unknown filter '%s'; available: %s", name, names);
            return -1;
        }
        int dup = 0;
        for (size_t i = 0; i < *n; i++)
            dup |= out[i] == ops;
        if (!dup) {
            if (*n == FKC_KINDS_MAX) {
                snprintf(err, errlen, "too many filters in '%s'", list);
                return -1;
            }
            out[(*n)++] = ops;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}
