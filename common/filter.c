/* common/filter.c: status strings, params helpers and the fk_filter_*
 * dispatchers. */
#include <string.h>
#include "filter.h"
#include "pipeline.h"
#include "serial.h"

/* ---------------------------------------------------------------- status */

const char *fk_strerror(fk_status s)
{
    switch (s) {
    case FK_OK:           return "success";
    case FK_EINVAL:       return "invalid argument";
    case FK_ENOMEM:       return "not enough memory";
    case FK_EFULL:        return "filter is full; nothing was lost";
    case FK_ENOTFOUND:    return "key is definitely not in the filter";
    case FK_EUNSUPPORTED: return "operation not supported by this filter kind or format version";
    case FK_ECORRUPT:     return "serialized data is corrupt";
    case FK_EIO:          return "reading or writing the file failed";
    case FK_ELIMIT:       return "past a size limit (a filter's byte limit, a cap of the Parquet reader); nothing changed";
    }
    return "unknown status";
}

const char *fk_status_name(fk_status s)
{
    switch (s) {
    case FK_OK:           return "FK_OK";
    case FK_EINVAL:       return "FK_EINVAL";
    case FK_ENOMEM:       return "FK_ENOMEM";
    case FK_EFULL:        return "FK_EFULL";
    case FK_ENOTFOUND:    return "FK_ENOTFOUND";
    case FK_EUNSUPPORTED: return "FK_EUNSUPPORTED";
    case FK_ECORRUPT:     return "FK_ECORRUPT";
    case FK_EIO:          return "FK_EIO";
    case FK_ELIMIT:       return "FK_ELIMIT";
    }
    return "FK_UNKNOWN";
}

/* ---------------------------------------------------------------- params */

fk_params fk_params_make(uint64_t capacity, double fpr)
{
    fk_params p;
    memset(&p, 0, sizeof p);
    p.capacity = capacity;
    p.fpr = fpr;
    return p;
}

fk_status fk_params_check(const fk_params *p)
{
    if (!p || p->capacity == 0 || p->reserved != 0)
        return FK_EINVAL;
    /* The comparisons are false for NaN, and infinities fall outside (0,1). */
    if (!(p->fpr > 0.0 && p->fpr < 1.0))
        return FK_EINVAL;
    return FK_OK;
}

/* --------------------------------------------------- asking the kind */

fk_status fk_ops_check(const fk_ops *ops)
{
    if (!ops || ops->version < FK_OPS_V1 || !ops->name || !ops->name[0])
        return FK_EINVAL;
    if (!ops->destroy || !ops->contains || !ops->stats)
        return FK_EINVAL;
    /* A dynamic kind is made empty and filled; a static one is built. */
    bool dynamic = ops->create && ops->insert;
    if (!dynamic && !(FK_OPS_HAS(ops, FK_OPS_V5, build) || FK_OPS_HAS(ops, FK_OPS_V5, build_u64)))
        return FK_EINVAL;
    const fk_serial_ops *s = ops->serial;
    if (s && (!s->kind_id || !s->save_head || !s->save_payload || !s->check_head || !s->load))
        return FK_EINVAL;
    return FK_OK;
}

unsigned fk_ops_caps(const fk_ops *ops)
{
    if (!ops)
        return 0;
    bool builds = FK_OPS_HAS(ops, FK_OPS_V5, build) || FK_OPS_HAS(ops, FK_OPS_V5, build_u64);
    return (ops->caps & ~FK_CAP_DERIVED) | (ops->remove ? FK_CAP_REMOVE : 0u) |
           (ops->serial ? FK_CAP_SERIALIZE : 0u) |
           (builds && !ops->insert ? FK_CAP_STATIC : 0u) |
           (FK_OPS_HAS(ops, FK_OPS_V5, merge) ? FK_CAP_MERGE : 0u) |
           (FK_OPS_HAS(ops, FK_OPS_V5, intersect) ? FK_CAP_INTERSECT : 0u) |
           (FK_OPS_HAS(ops, FK_OPS_V5, grow) ? FK_CAP_RESIZES : 0u);
}

/* Asks the kind's size slot; *out zeroed on error. */
static fk_status size_at(const fk_ops *ops, const fk_params *p, double items, fk_sizing *out)
{
    memset(out, 0, sizeof *out);
    if (!p || !(items >= 0.0) || fk_ops_check(ops) != FK_OK)
        return FK_EINVAL;
    if (!FK_OPS_HAS(ops, FK_OPS_V2, size))
        return FK_EUNSUPPORTED;
    fk_status s = ops->size(p, items, out);
    if (s != FK_OK)
        memset(out, 0, sizeof *out);
    out->geometry[sizeof out->geometry - 1] = 0;
    return s;
}

fk_status fk_ops_size(const fk_ops *ops, const fk_params *p, fk_sizing *out)
{
    if (!out)
        return FK_EINVAL;
    return size_at(ops, p, p ? (double)p->capacity : 0.0, out);
}

fk_status fk_ops_expected_fpr(const fk_ops *ops, const fk_params *p, double items, double *out)
{
    if (!out)
        return FK_EINVAL;
    fk_sizing sz;
    fk_status s = size_at(ops, p, items, &sz);
    *out = sz.expected_fpr;
    return s;
}

/* ------------------------------------------------------------ dispatchers */

fk_status fk_filter_new(const fk_ops *ops, const fk_params *p, fk_filter **out)
{
    if (out)
        *out = NULL;
    if (!out || fk_ops_check(ops) != FK_OK)
        return FK_EINVAL;
    if (!ops->create)
        return FK_EUNSUPPORTED;
    if (p && p->max_bytes != 0) {
        /* refused before anything is allocated: the size slot says what
         * create would hold (a growing kind checks again per link) */
        fk_sizing sz;
        if (fk_ops_size(ops, p, &sz) == FK_OK && sz.memory_bytes > fk_params_max_bytes(p))
            return FK_ELIMIT;
    }
    return ops->create(p, out);
}

fk_status fk_filter_insert(fk_filter *f, const void *key, size_t len)
{
    if (!f)
        return FK_EINVAL;
    if (!f->ops->insert)
        return FK_EUNSUPPORTED;
    return f->ops->insert(f, key, len);
}

bool fk_filter_contains(const fk_filter *f, const void *key, size_t len)
{
    if (!f)
        return false;
    return f->ops->contains(f, key, len);
}

fk_status fk_filter_remove(fk_filter *f, const void *key, size_t len)
{
    if (!f)
        return FK_EINVAL;
    if (!f->ops->remove)
        return FK_EUNSUPPORTED;
    return f->ops->remove(f, key, len);
}

/* ------------------------------------------------------ concurrent writers
 * Only a kind that says how its writers may overlap (the version-4 slots)
 * takes them; there is no generic fallback, since a loop cannot make a
 * plain writer safe to run beside another. */

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

bool fk_filter_contains_concurrent(const fk_filter *f, const void *key, size_t len)
{
    if (!f || (!key && len > 0))
        return false;
    if (FK_OPS_HAS(f->ops, FK_OPS_V7, contains_concurrent))
        return f->ops->contains_concurrent(f, key, len);
    return f->ops->contains(f, key, len);
}

/* ------------------------------------------------------- 64-bit keys */

/* The table's answer for a filter whose kind chose no path of its own. */
__attribute__((noinline)) static bool contains_u64_by_ops(const fk_filter *f, uint64_t key)
{
    if (FK_OPS_HAS(f->ops, FK_OPS_V5, contains_u64))
        return f->ops->contains_u64(f, key);
    uint8_t le[8];
    fk_batch_le8(le, key);
    return f->ops->contains(f, le, sizeof le);
}

bool fk_filter_contains_u64(const fk_filter *f, uint64_t key)
{
    if (!f)
        return false;
    if (__builtin_expect(f->contains_u64 != NULL, 1))
        return f->contains_u64(f, key); /* the path chosen when f was made */
    return contains_u64_by_ops(f, key);
}

/* The byte-slot path of the u64 writers: the key's 8 LE bytes. */
static fk_status write_le8(fk_filter *f, fk_status (*one)(fk_filter *, const void *, size_t),
                           uint64_t key)
{
    if (!one)
        return FK_EUNSUPPORTED;
    uint8_t le[8];
    fk_batch_le8(le, key);
    return one(f, le, sizeof le);
}

fk_status fk_filter_insert_u64(fk_filter *f, uint64_t key)
{
    if (!f)
        return FK_EINVAL;
    if (FK_OPS_HAS(f->ops, FK_OPS_V5, insert_u64))
        return f->ops->insert_u64(f, key);
    return write_le8(f, f->ops->insert, key);
}

fk_status fk_filter_remove_u64(fk_filter *f, uint64_t key)
{
    if (!f)
        return FK_EINVAL;
    if (FK_OPS_HAS(f->ops, FK_OPS_V5, remove_u64))
        return f->ops->remove_u64(f, key);
    return write_le8(f, f->ops->remove, key);
}

/* -------------------------------------------------- counts and merges */

fk_status fk_filter_count(const fk_filter *f, const void *key, size_t len, uint64_t *count)
{
    if (count)
        *count = 0;
    if (!f || !count || (!key && len > 0))
        return FK_EINVAL;
    if (!FK_OPS_HAS(f->ops, FK_OPS_V5, count))
        return FK_EUNSUPPORTED;
    fk_status s = f->ops->count(f, key, len, count);
    if (s != FK_OK)
        *count = 0;
    return s;
}

fk_status fk_filter_merge(fk_filter *dst, const fk_filter *src)
{
    if (!dst || !src || dst == src || dst->ops != src->ops)
        return FK_EINVAL;
    if (!FK_OPS_HAS(dst->ops, FK_OPS_V5, merge))
        return FK_EUNSUPPORTED;
    return dst->ops->merge(dst, src);
}

fk_status fk_filter_intersect(fk_filter *dst, const fk_filter *src)
{
    if (!dst || !src || dst == src || dst->ops != src->ops)
        return FK_EINVAL;
    if (!FK_OPS_HAS(dst->ops, FK_OPS_V5, intersect))
        return FK_EUNSUPPORTED;
    return dst->ops->intersect(dst, src);
}

fk_status fk_filter_grow(fk_filter *f)
{
    if (!f)
        return FK_EINVAL;
    if (!FK_OPS_HAS(f->ops, FK_OPS_V5, grow))
        return FK_EUNSUPPORTED;
    return f->ops->grow(f);
}

fk_status fk_filter_set_max_bytes(fk_filter *f, uint64_t max_bytes)
{
    if (!f)
        return FK_EINVAL;
    if (!FK_OPS_HAS(f->ops, FK_OPS_V6, set_max_bytes))
        return FK_EUNSUPPORTED;
    fk_params p;
    memset(&p, 0, sizeof p);
    p.max_bytes = max_bytes;
    return f->ops->set_max_bytes(f, fk_params_max_bytes(&p));
}

/* --------------------------------------------- clocks and descriptions */

fk_status fk_filter_advance(fk_filter *f, uint64_t now)
{
    if (!f)
        return FK_EINVAL;
    if (!(f->ops->caps & FK_CAP_EXPIRES) || !FK_OPS_HAS(f->ops, FK_OPS_V6, advance))
        return FK_EUNSUPPORTED;
    return f->ops->advance(f, now);
}

bool fk_filter_contains_at(const fk_filter *f, const void *key, size_t len, uint64_t now)
{
    if (!f || (!key && len > 0))
        return false;
    if (FK_OPS_HAS(f->ops, FK_OPS_V6, contains_at))
        return f->ops->contains_at(f, key, len, now);
    return f->ops->contains(f, key, len);
}

void fk_filter_stats_at(const fk_filter *f, uint64_t now, fk_stats *out)
{
    if (!f || !out || !FK_OPS_HAS(f->ops, FK_OPS_V6, stats_at)) {
        fk_filter_stats(f, out);
        return;
    }
    memset(out, 0, sizeof *out);
    f->ops->stats_at(f, now, out);
}

static fk_status describe(const fk_filter *f, const uint64_t *at, fk_describe_row *rows,
                          size_t cap, size_t *n)
{
    if (n)
        *n = 0;
    if (!f || !n || (!rows && cap > 0))
        return FK_EINVAL;
    if (!FK_OPS_HAS(f->ops, FK_OPS_V6, describe))
        return FK_EUNSUPPORTED;
    fk_status s = f->ops->describe(f, at, rows, cap, n);
    if (s != FK_OK)
        return s;
    return *n > cap ? FK_ELIMIT : FK_OK;
}

fk_status fk_filter_describe(const fk_filter *f, fk_describe_row *rows, size_t cap, size_t *n)
{
    return describe(f, NULL, rows, cap, n);
}

fk_status fk_filter_describe_at(const fk_filter *f, uint64_t now, fk_describe_row *rows,
                                size_t cap, size_t *n)
{
    return describe(f, &now, rows, cap, n);
}

/* ------------------------------------------------------------- figures */

void fk_filter_stats(const fk_filter *f, fk_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (f)
        f->ops->stats(f, out);
}

void fk_filter_free(fk_filter *f)
{
    if (f)
        f->ops->destroy(f);
}

const fk_ops *fk_filter_ops(const fk_filter *f)
{
    return f ? f->ops : NULL;
}
