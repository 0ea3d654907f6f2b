/* bench/keys/keyset.c: a set of keys stored back to back. */
#include <stdlib.h>
#include <string.h>
#include "keyset.h"

void fkc_keyset_free(fkc_keyset *s)
{
    if (!s)
        return;
    free(s->bytes);
    free(s->off);
    memset(s, 0, sizeof *s);
}

/* Room for count keys of at most maxlen bytes each (fixed width when
 * fixed is nonzero). Returns 0 or -1. */
int fkc_keyset_alloc(fkc_keyset *s, size_t count, size_t maxlen, int fixed)
{
    memset(s, 0, sizeof *s);
    size_t n = count ? count : 1;
    if (n > SIZE_MAX / (maxlen ? maxlen : 1) / 2)
        return -1;
    s->bytes = malloc(n * (maxlen ? maxlen : 1));
    if (!s->bytes)
        return -1;
    if (fixed) {
        s->width = maxlen;
    } else {
        s->off = malloc((n + 1) * sizeof *s->off);
        if (!s->off) {
            fkc_keyset_free(s);
            return -1;
        }
        s->off[0] = 0;
    }
    return 0;
}

/* Appends one key to a set made by keyset_alloc (variable-width sets only
 * need the offset bookkeeping). */
void fkc_keyset_push(fkc_keyset *s, const void *key, size_t len)
{
    uint8_t *dst = s->off ? s->bytes + s->off[s->count] : s->bytes + s->count * s->width;
    if (len)
        memcpy(dst, key, len);
    if (s->off)
        s->off[s->count + 1] = s->off[s->count] + len;
    s->count++;
}

/* Gives back the unused tail of a variable-width set's byte array. */
void fkc_keyset_shrink(fkc_keyset *s)
{
    if (!s->off || !s->count)
        return;
    uint8_t *b = realloc(s->bytes, s->off[s->count] ? s->off[s->count] : 1);
    if (b)
        s->bytes = b;
}

