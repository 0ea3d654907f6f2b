/* common/batch.c: the fk_filter_*_many dispatchers. A kind with the
 * version-3 slots runs its own pipeline (hash a window, prefetch, probe);
 * the others are served here by loops over the single-key slots, which give
 * the same answers by construction. */
#include <stdlib.h>
#include <string.h>
#include "filter.h"
#include "pipeline.h"

/* ------------------------------------------------------------ helpers */

/* Arguments every batch call checks alike: the filter, and the arrays when
 * there is at least one key. */
static bool batch_args_ok(const fk_filter *f, size_t n, const void *keys, const void *lens)
{
    return f && (n == 0 || (keys && lens));
}

/* --------------------------------------------------------- lookups */

void fk_filter_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                             const size_t lens[], bool out[])
{
    if (!out || n == 0)
        return;
    if (!batch_args_ok(f, n, keys, lens)) {
        memset(out, 0, n * sizeof out[0]);
        return;
    }
    if (FK_OPS_HAS(f->ops, FK_OPS_V3, contains_many) && fk_batch_first_bad(n, keys, lens) == n) {
        f->ops->contains_many(f, n, keys, lens, out);
        return;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = (keys[i] || lens[i] == 0) && f->ops->contains(f, keys[i], lens[i]);
}

void fk_filter_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[], bool out[])
{
    if (!out || n == 0)
        return;
    if (!f || !keys) {
        memset(out, 0, n * sizeof out[0]);
        return;
    }
    if (FK_OPS_HAS(f->ops, FK_OPS_V3, contains_many_u64)) {
        f->ops->contains_many_u64(f, n, keys, out);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t le[8];
        fk_batch_le8(le, keys[i]);
        out[i] = f->ops->contains(f, le, sizeof le);
    }
}

/* --------------------------------------------------------- writers */

/* Runs `one` over keys[0..n) until a status other than FK_OK. */
static fk_status loop_writer(fk_filter *f, fk_status (*one)(fk_filter *, const void *, size_t),
                             size_t n, const void *const keys[], const size_t lens[],
                             size_t *done)
{
    size_t i = 0;
    fk_status s = FK_OK;
    for (; i < n; i++) {
        s = one(f, keys[i], lens[i]);
        if (s != FK_OK)
            break;
    }
    if (done)
        *done = i;
    return s;
}

/* The common front of insert_many and remove_many: argument checks, a bad
 * key's index, then the kind's slot (when set) or the loop. */
static fk_status run_writer(fk_filter *f, size_t n, const void *const keys[], const size_t lens[],
                            size_t *done,
                            fk_status (*batch)(fk_filter *, size_t, const void *const *,
                                               const size_t *, size_t *),
                            fk_status (*one)(fk_filter *, const void *, size_t))
{
    if (done)
        *done = 0;
    if (!batch_args_ok(f, n, keys, lens))
        return FK_EINVAL;
    if (!one)
        return FK_EUNSUPPORTED;
    if (n == 0)
        return FK_OK;
    /* Keys before a bad one go in, exactly as a loop of single calls. */
    size_t good = fk_batch_first_bad(n, keys, lens);
    size_t did = 0;
    fk_status s = batch ? batch(f, good, keys, lens, &did)
                        : loop_writer(f, one, good, keys, lens, &did);
    if (done)
        *done = did;
    if (s == FK_OK && good < n)
        s = FK_EINVAL;
    return s;
}

fk_status fk_filter_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                const size_t lens[], size_t *done)
{
    return run_writer(f, n, keys, lens, done,
                      f && FK_OPS_HAS(f->ops, FK_OPS_V3, insert_many) ? f->ops->insert_many : NULL,
                      f ? f->ops->insert : NULL);
}

fk_status fk_filter_remove_many(fk_filter *f, size_t n, const void *const keys[],
                                const size_t lens[], size_t *done)
{
    return run_writer(f, n, keys, lens, done,
                      f && FK_OPS_HAS(f->ops, FK_OPS_V3, remove_many) ? f->ops->remove_many : NULL,
                      f ? f->ops->remove : NULL);
}

fk_status fk_filter_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[], size_t *done)
{
    if (done)
        *done = 0;
    if (!f || (n > 0 && !keys))
        return FK_EINVAL;
    if (FK_OPS_HAS(f->ops, FK_OPS_V3, insert_many_u64)) {
        size_t did = 0;
        fk_status s = f->ops->insert_many_u64(f, n, keys, &did);
        if (done)
            *done = did;
        return s;
    }
    if (!f->ops->insert)
        return FK_EUNSUPPORTED;
    size_t i = 0;
    fk_status s = FK_OK;
    for (; i < n; i++) {
        uint8_t le[8];
        fk_batch_le8(le, keys[i]);
        s = f->ops->insert(f, le, sizeof le);
        if (s != FK_OK)
            break;
    }
    if (done)
        *done = i;
    return s;
}

/* ------------------------------------------------- concurrent batches
 * The kind's version-7 slot, else a loop over its concurrent insert (a
 * kind with no concurrent insert: FK_EUNSUPPORTED, nothing done). */

static fk_status concurrent_one(fk_filter *f, const void *key, size_t len)
{
    return f->ops->insert_concurrent(f, key, len);
}

fk_status fk_filter_insert_many_concurrent(fk_filter *f, size_t n, const void *const keys[],
                                           const size_t lens[], size_t *done)
{
    bool can = f && FK_OPS_HAS(f->ops, FK_OPS_V4, insert_concurrent);
    return run_writer(f, n, keys, lens, done,
                      can && FK_OPS_HAS(f->ops, FK_OPS_V7, insert_many_concurrent)
                          ? f->ops->insert_many_concurrent
                          : NULL,
                      can ? concurrent_one : NULL);
}

fk_status fk_filter_insert_many_u64_concurrent(fk_filter *f, size_t n, const uint64_t keys[],
                                               size_t *done)
{
    if (done)
        *done = 0;
    if (!f || (n > 0 && !keys))
        return FK_EINVAL;
    if (!FK_OPS_HAS(f->ops, FK_OPS_V4, insert_concurrent))
        return FK_EUNSUPPORTED;
    size_t i = 0;
    fk_status s = FK_OK;
    if (FK_OPS_HAS(f->ops, FK_OPS_V7, insert_many_u64_concurrent)) {
        s = f->ops->insert_many_u64_concurrent(f, n, keys, &i);
    } else {
        for (; i < n; i++) {
            uint8_t le[8];
            fk_batch_le8(le, keys[i]);
            s = f->ops->insert_concurrent(f, le, sizeof le);
            if (s != FK_OK)
                break;
        }
    }
    if (done)
        *done = i;
    return s;
}

/* ------------------------------------------------- building from a set */

/* For a kind that builds only from byte keys: each u64 key's 8 LE bytes
 * laid out in one buffer, with the pointer and length arrays over it. */
static fk_status build_u64_as_bytes(const fk_ops *ops, const fk_params *q, size_t n,
                                    const uint64_t keys[], fk_filter **out)
{
    if (n > SIZE_MAX / (8 + sizeof(void *) + sizeof(size_t)))
        return FK_ENOMEM;
    uint8_t *bytes = malloc(n ? n * 8 : 1);
    const void **ptrs = malloc(n ? n * sizeof *ptrs : 1);
    size_t *lens = malloc(n ? n * sizeof *lens : 1);
    fk_status s = FK_ENOMEM;
    if (bytes && ptrs && lens) {
        for (size_t i = 0; i < n; i++) {
            fk_batch_le8(bytes + 8 * i, keys[i]);
            ptrs[i] = bytes + 8 * i;
            lens[i] = 8;
        }
        s = ops->build(q, n, ptrs, lens, out);
    }
    free(bytes);
    free(ptrs);
    free(lens);
    return s;
}

/* The checks both builds share; *q = *p with a capacity of 0 made n. */
static fk_status build_args(const fk_ops *ops, const fk_params *p, size_t n, fk_params *q)
{
    if (!p || fk_ops_check(ops) != FK_OK)
        return FK_EINVAL;
    *q = *p;
    if (q->capacity == 0)
        q->capacity = n > 0 ? (uint64_t)n : 1u;
    return fk_params_check(q);
}

/* A kind without a build slot: made empty, then filled; nothing is left
 * behind when a key does not go in. */
static fk_status build_by_inserts(const fk_ops *ops, const fk_params *q, size_t n,
                                  const void *const keys[], const size_t lens[],
                                  const uint64_t keys64[], fk_filter **out)
{
    if (!ops->create || !ops->insert)
        return FK_EUNSUPPORTED;
    fk_filter *f = NULL;
    fk_status s = ops->create(q, &f);
    if (s == FK_OK)
        s = keys64 ? fk_filter_insert_many_u64(f, n, keys64, NULL)
                   : fk_filter_insert_many(f, n, keys, lens, NULL);
    if (s != FK_OK) {
        fk_filter_free(f);
        return s;
    }
    *out = f;
    return FK_OK;
}

fk_status fk_filter_build(const fk_ops *ops, const fk_params *p, size_t n,
                          const void *const keys[], const size_t lens[], fk_filter **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    fk_params q;
    fk_status s = build_args(ops, p, n, &q);
    if (s != FK_OK)
        return s;
    if (n > 0 && (!keys || !lens || fk_batch_first_bad(n, keys, lens) != n))
        return FK_EINVAL;
    if (FK_OPS_HAS(ops, FK_OPS_V5, build))
        s = ops->build(&q, n, keys, lens, out);
    else
        return build_by_inserts(ops, &q, n, keys, lens, NULL, out);
    if (s != FK_OK)
        *out = NULL;
    return s;
}

fk_status fk_filter_build_u64(const fk_ops *ops, const fk_params *p, size_t n,
                              const uint64_t keys[], fk_filter **out)
{
    if (!out)
        return FK_EINVAL;
    *out = NULL;
    fk_params q;
    fk_status s = build_args(ops, p, n, &q);
    if (s != FK_OK)
        return s;
    if (n > 0 && !keys)
        return FK_EINVAL;
    if (FK_OPS_HAS(ops, FK_OPS_V5, build_u64))
        s = ops->build_u64(&q, n, keys, out);
    else if (FK_OPS_HAS(ops, FK_OPS_V5, build)) {
        /* A static kind with only the byte build: the keys' LE bytes. */
        s = build_u64_as_bytes(ops, &q, n, keys, out);
    } else
        return build_by_inserts(ops, &q, n, NULL, NULL, keys, out);
    if (s != FK_OK)
        *out = NULL;
    return s;
}
