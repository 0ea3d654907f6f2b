/* bench/keys/keybatch.c: see keybatch.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "keybatch.h"

void fkc_keybatch_init(fkc_keybatch *b)
{
    memset(b, 0, sizeof *b);
}

void fkc_keybatch_free(fkc_keybatch *b)
{
    free(b->bytes);
    fkc_keybatch_init(b);
}

/* Copies one key in; -1 (ENOMEM) when the bytes cannot grow. */
static int add(fkc_keybatch *b, const char *key, size_t len)
{
    if (len > b->cap - b->used) {
        size_t want = b->used + len, cap = b->cap ? b->cap : 4096;
        while (cap < want)
            cap *= 2;
        char *grown = realloc(b->bytes, cap);
        if (!grown) {
            errno = ENOMEM;
            return -1;
        }
        b->bytes = grown;
        b->cap = cap;
    }
    if (len)
        memcpy(b->bytes + b->used, key, len);
    b->offset[b->n] = b->used;
    b->lens[b->n] = len;
    b->used += len;
    b->n++;
    return 0;
}

int fkc_keybatch_read(fkc_keybatch *b, fkc_linereader *r)
{
    b->n = 0;
    b->used = 0;
    int got = 0;
    const char *key;
    size_t len;
    while (b->n < FKC_KEYBATCH_KEYS && b->used < FKC_KEYBATCH_BYTES &&
           (got = fkc_linereader_next(r, &key, &len)) == 1)
        if (add(b, key, len) != 0) {
            got = -1;
            break;
        }
    /* the bytes may have moved while growing: point at them now */
    for (size_t i = 0; i < b->n; i++)
        b->keys[i] = b->bytes + b->offset[i];
    if (got < 0) {
        b->err = errno;
        return -1;
    }
    return b->n > 0;
}
