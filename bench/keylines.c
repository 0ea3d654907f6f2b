/* bench/keylines.c: reading keys as lines (see keylines.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "keylines.h"

int fk_read_all(FILE *fp, char **data, size_t *len)
{
    char *buf = NULL;
    size_t have = 0, cap = 0;
    for (;;) {
        if (have == cap) {
            size_t grown = cap ? cap * 2 : (size_t)1 << 16;
            char *p = grown > cap ? realloc(buf, grown) : NULL;
            if (!p) {
                free(buf);
                errno = ENOMEM;
                return -1;
            }
            buf = p;
            cap = grown;
        }
        size_t got = fread(buf + have, 1, cap - have, fp);
        have += got;
        if (got == 0)
            break;
    }
    if (ferror(fp)) {
        free(buf);
        return -1;
    }
    *data = buf;
    *len = have;
    return 0;
}

int fk_keylines_read(FILE *fp, fk_keylines *out)
{
    memset(out, 0, sizeof *out);
    if (fk_read_all(fp, &out->data, &out->len) != 0)
        return -1;
    for (const char *p = out->data, *end = p + out->len; p < end; out->lines++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return 0;
}

void fk_keylines_free(fk_keylines *k)
{
    free(k->data);
    memset(k, 0, sizeof *k);
}

int fk_keylines_next(const fk_keylines *k, size_t *pos, const char **key, size_t *len)
{
    if (*pos >= k->len)
        return 0;
    const char *p = k->data + *pos;
    const char *nl = memchr(p, '\n', k->len - *pos);
    *key = p;
    *len = nl ? (size_t)(nl - p) : k->len - *pos;
    *pos += *len + (nl != NULL);
    return 1;
}
