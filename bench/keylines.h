/* bench/keylines.h: keys as lines of text, for the build and query
 * subcommands. A key is a line's bytes without its '\n' (a '\r' before it
 * is kept, so a CRLF file gives the same keys on every system); a last
 * line without '\n' is a key too; an empty line is the empty key. */
#ifndef FK_BENCH_KEYLINES_H
#define FK_BENCH_KEYLINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    char    *data;  /* the whole input, lines separated by '\n' */
    size_t   len;
    uint64_t lines; /* number of keys in it */
} fk_keylines;

/* Reads fp to its end into a new buffer *data (*len bytes; free() it).
 * Returns 0, or -1 when memory runs out or reading fails (errno says which;
 * *data is then NULL). */
int fk_read_all(FILE *fp, char **data, size_t *len);

/* Reads fp to its end into *out. Returns 0, or -1 when memory runs out or
 * reading fails (errno says which). Free with fk_keylines_free. */
int fk_keylines_read(FILE *fp, fk_keylines *out);

void fk_keylines_free(fk_keylines *k);

/* Iterates the keys: start with *pos = 0; each call stores the next key in
 * *key / *len and returns 1, or returns 0 at the end. */
int fk_keylines_next(const fk_keylines *k, size_t *pos, const char **key, size_t *len);

#endif
