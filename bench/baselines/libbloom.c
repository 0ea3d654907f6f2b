/* bench/baselines/libbloom.c: libbloom (Debian's libbloom-dev, version 1.6)
 * behind the fk_ops vtable, so the bench measures it with the same loops,
 * keys and clock as filterkit's own kinds. Compiled only when the Makefile
 * finds libbloom's header (FK_HAVE_LIBBLOOM). Not part of libfilterkit.
 *
 * The library itself is loaded with dlopen the first time a bench asks for
 * it, so the CLI has no run-time dependency on libbloom.so.1 (`ldd
 * filterkit` does not list it): build, query and the rest run where
 * libbloom is not installed, and the bench runs without the baseline,
 * saying why.
 *
 * libbloom 1.6 sizes with int: entries and bits must fit in an int, and it
 * refuses fewer than 1000 entries; both are reported as FK_EINVAL here. Its
 * bit array is private, so the load factor is the theoretical fill
 * 1 - e^{-kn/m} for the items added, not a count of set bits. */
#include <bloom.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>
#include "runnable_kinds.h"
#include "../../common/sizing_internal.h"

/* ------------------------------------------------------- loading */

/* The soname Debian's libbloom1 package installs. */
#define LIBBLOOM_SONAME "libbloom.so.1"

static struct {
    int   tried, ok;
    char  why[200];
    int (*init)(struct bloom *, int, double);
    int (*add)(struct bloom *, const void *, int);
    int (*check)(struct bloom *, const void *, int);
    void (*free)(struct bloom *);
    const char *(*version)(void);
} lb;

/* A function of the loaded library into *slot, or 0 after noting why. */
static int resolve(void *h, const char *name, void *slot, size_t size)
{
    void *fn = dlsym(h, name);
    if (!fn) {
        snprintf(lb.why, sizeof lb.why, "%s has no %s", LIBBLOOM_SONAME, name);
        return 0;
    }
    memcpy(slot, &fn, size); /* a data pointer to a function pointer, as POSIX allows */
    return 1;
}

int fkc_libbloom_load(void)
{
    if (lb.tried)
        return lb.ok;
    lb.tried = 1;
    void *h = dlopen(LIBBLOOM_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(lb.why, sizeof lb.why, "%s (install Debian's libbloom1)", e ? e : LIBBLOOM_SONAME);
        return 0;
    }
    lb.ok = resolve(h, "bloom_init", &lb.init, sizeof lb.init) && resolve(h, "bloom_add", &lb.add, sizeof lb.add) &&
            resolve(h, "bloom_check", &lb.check, sizeof lb.check) &&
            resolve(h, "bloom_free", &lb.free, sizeof lb.free) &&
            resolve(h, "bloom_version", &lb.version, sizeof lb.version);
    if (!lb.ok)
        dlclose(h);
    return lb.ok;
}

const char *fkc_libbloom_unavailable(void)
{
    return fkc_libbloom_load() ? NULL : lb.why;
}

/* ------------------------------------------------------- the kind */

typedef struct {
    fk_filter    base;   /* first: a pointer to this is an fk_filter * */
    struct bloom b;
    uint64_t     items;
    uint64_t     capacity;
} lb_filter;

static fk_status lb_create(const fk_params *p, fk_filter **out)
{
    *out = NULL;
    if (fk_params_check(p) != FK_OK || p->capacity > INT_MAX)
        return FK_EINVAL;
    if (!fkc_libbloom_load())
        return FK_EUNSUPPORTED;
    /* libbloom computes bits = entries * (-ln p / ln^2 2) in an int. */
    double bits = (double)p->capacity * -log(p->fpr) / (0.69314718055994530942 * 0.69314718055994530942);
    if (!(bits < (double)INT_MAX - 64))
        return FK_EINVAL;
    lb_filter *f = calloc(1, sizeof *f);
    if (!f)
        return FK_ENOMEM;
    if (lb.init(&f->b, (int)p->capacity, p->fpr) != 0) {
        free(f);
        return p->capacity < 1000 ? FK_EINVAL : FK_ENOMEM;
    }
    f->base.ops = &fkc_libbloom_ops;
    f->capacity = p->capacity;
    *out = &f->base;
    return FK_OK;
}

static void lb_destroy(fk_filter *f)
{
    lb_filter *l = (lb_filter *)f;
    lb.free(&l->b);
    free(l);
}

static fk_status lb_insert(fk_filter *f, const void *key, size_t len)
{
    lb_filter *l = (lb_filter *)f;
    if ((!key && len) || len > INT_MAX)
        return FK_EINVAL;
    if (lb.add(&l->b, key, (int)len) < 0)
        return FK_EINVAL;
    l->items++;
    return FK_OK;
}

static bool lb_contains(const fk_filter *f, const void *key, size_t len)
{
    /* bloom_check takes a non-const struct but only reads it. */
    lb_filter *l = (lb_filter *)(uintptr_t)f;
    if ((!key && len) || len > INT_MAX)
        return false;
    return lb.check(&l->b, key, (int)len) == 1;
}

static void lb_stats(const fk_filter *f, fk_stats *out)
{
    const lb_filter *l = (const lb_filter *)f;
    uint64_t m = (uint64_t)l->b.bits;
    uint32_t k = (uint32_t)l->b.hashes;
    out->items = l->items;
    out->capacity = l->capacity;
    out->memory_bytes = (uint64_t)l->b.bytes + sizeof *l;
    out->bits_per_item = 8.0 * (double)out->memory_bytes / (double)l->capacity;
    out->load_factor = m ? -expm1(-(double)k * (double)l->items / (double)m) : 0.0;
    out->expected_fpr = fk_theory_bloom_fpr(m, k, (double)l->items);
}

const char *fkc_libbloom_version(void)
{
    return fkc_libbloom_load() ? lb.version() : "not loaded";
}

const fk_ops fkc_libbloom_ops = {
    .version = FK_OPS_VERSION,
    .name = "libbloom",
    .summary = "baseline: libbloom 1.6 (Debian libbloom-dev), measured through the same vtable",
    .create = lb_create,
    .destroy = lb_destroy,
    .insert = lb_insert,
    .contains = lb_contains,
    .stats = lb_stats,
    .remove = NULL,
};
