/* common/batch.c: the fk_filter_*_many dispatchers. A kind with the
 * version-3 slots runs its own pipeline (hash a window, prefetch, probe);
 * the others are served here by loops over the single-key slots, which give
 * the same answers by construction. */
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
