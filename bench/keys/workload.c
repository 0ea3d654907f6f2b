/* bench/keys/workload.c: the workload (generated keys, or a file's lines
 * through workload_file.c) and lookup mixes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workload.h"
#include "rng.h"
#include "workload_file.h"

static size_t gen_key(fkc_key_type t, uint64_t seed, uint64_t j, uint8_t *buf)
{
    if (t == FKC_KEYS_U64) {
        uint64_t w = fkc_gen_word(seed, j);
        memcpy(buf, &w, 8);
        return 8;
    }
    return fkc_gen_string(seed, j, buf); /* str, and file keys beyond the file */
}

static int make_generated(const fkc_keyspec *spec, size_t npos, size_t nneg, fkc_workload *w)
{
    int fixed = spec->type == FKC_KEYS_U64;
    size_t maxlen = fixed ? 8 : FKC_STR_MAX;
    if (fkc_keyset_alloc(&w->pos, npos, maxlen, fixed) || fkc_keyset_alloc(&w->neg, nneg, maxlen, fixed))
        return -1;
    uint8_t buf[FKC_STR_MAX];
    for (size_t i = 0; i < npos; i++)
        fkc_keyset_push(&w->pos, buf, gen_key(spec->type, spec->seed, 2 * (uint64_t)i, buf));
    for (size_t i = 0; i < nneg; i++)
        fkc_keyset_push(&w->neg, buf, gen_key(spec->type, spec->seed, 2 * (uint64_t)i + 1, buf));
    fkc_keyset_shrink(&w->pos);
    fkc_keyset_shrink(&w->neg);
    return 0;
}

/* ------------------------------------------------------------ workloads */

int fkc_keyspec_parse(const char *text, fkc_keyspec *spec)
{
    if (!text || !*text)
        return -1;
    spec->path = NULL;
    if (strcmp(text, "u64") == 0)
        spec->type = FKC_KEYS_U64;
    else if (strcmp(text, "str") == 0)
        spec->type = FKC_KEYS_STR;
    else {
        spec->type = FKC_KEYS_FILE;
        spec->path = text;
    }
    return 0;
}

const char *fkc_key_type_name(fkc_key_type t)
{
    return t == FKC_KEYS_U64 ? "u64" : t == FKC_KEYS_STR ? "str" : "file";
}

int fkc_workload_make(const fkc_keyspec *spec, size_t npos, size_t nneg,
                     fkc_workload *w, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    w->spec = *spec;
    if (errlen)
        err[0] = 0;
    int rc = spec->type == FKC_KEYS_FILE ? fkc_workload_from_file(spec, npos, nneg, w, err, errlen)
                                        : make_generated(spec, npos, nneg, w);
    if (rc) {
        if (errlen && !err[0])
            snprintf(err, errlen, "out of memory generating %zu + %zu keys", npos, nneg);
        fkc_workload_free(w);
    }
    return rc;
}

void fkc_workload_free(fkc_workload *w)
{
    if (!w)
        return;
    fkc_keyset_free(&w->pos);
    fkc_keyset_free(&w->neg);
}

size_t fkc_workload_pos_key(const fkc_workload *w, size_t i, uint8_t *buf)
{
    if (i < w->pos.count && fkc_key_len(&w->pos, i) <= FKC_STR_MAX) {
        size_t n = fkc_key_len(&w->pos, i);
        if (n)
            memcpy(buf, fkc_key_ptr(&w->pos, i), n);
        return n;
    }
    return gen_key(w->spec.type, w->spec.seed, 2 * (uint64_t)i, buf);
}

int fkc_workload_mix(const fkc_workload *w, size_t avail, unsigned pct, size_t count,
                    uint64_t seed, fkc_keyset *out, size_t *npos_out)
{
    memset(out, 0, sizeof *out);
    if (pct > 100)
        return -1;
    if (avail > w->pos.count)
        avail = w->pos.count;
    size_t npos = (size_t)(((unsigned __int128)count * pct + 50) / 100);
    if ((npos && !avail) || (npos < count && !w->neg.count))
        return -1;
    size_t maxlen = w->pos.off || w->neg.off ? 0 : w->pos.width;
    if (!maxlen) { /* longest key of either set */
        for (size_t i = 0; i < w->pos.count; i++)
            if (fkc_key_len(&w->pos, i) > maxlen)
                maxlen = fkc_key_len(&w->pos, i);
        for (size_t i = 0; i < w->neg.count; i++)
            if (fkc_key_len(&w->neg, i) > maxlen)
                maxlen = fkc_key_len(&w->neg, i);
    }
    if (fkc_keyset_alloc(out, count, maxlen, !(w->pos.off || w->neg.off)))
        return -1;
    unsigned char *is_pos = malloc(count ? count : 1);
    if (!is_pos) {
        fkc_keyset_free(out);
        return -1;
    }
    memset(is_pos, 0, count);
    memset(is_pos, 1, npos);
    fkc_rng r;
    fkc_rng_seed(&r, seed ^ ((uint64_t)pct << 56));
    for (size_t i = count; i > 1; i--) { /* Fisher-Yates: random interleaving */
        size_t k = (size_t)fkc_rng_below(&r, i);
        unsigned char t = is_pos[i - 1];
        is_pos[i - 1] = is_pos[k];
        is_pos[k] = t;
    }
    size_t next_neg = (size_t)fkc_rng_below(&r, w->neg.count ? w->neg.count : 1);
    for (size_t i = 0; i < count; i++) {
        if (is_pos[i]) {
            size_t k = (size_t)fkc_rng_below(&r, avail);
            fkc_keyset_push(out, fkc_key_ptr(&w->pos, k), fkc_key_len(&w->pos, k));
        } else {
            /* negatives walk the pool from a random start, wrapping */
            fkc_keyset_push(out, fkc_key_ptr(&w->neg, next_neg), fkc_key_len(&w->neg, next_neg));
            if (++next_neg == w->neg.count)
                next_neg = 0;
        }
    }
    free(is_pos);
    fkc_keyset_shrink(out);
    *npos_out = npos;
    return 0;
}
