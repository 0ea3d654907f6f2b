/* tests/golden.h: the files of tests/golden/ (formats pinned by an older
 * release), found beside this header whatever the working folder. Include
 * it after check.h. */
#ifndef FK_TESTS_GOLDEN_H
#define FK_TESTS_GOLDEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tests/golden/<name> opened for reading; NULL (a failed CHECK) when it
 * cannot be. */
static inline FILE *golden_open(const char *name)
{
    const char *src = __FILE__, *slash = strrchr(src, '/');
    char path[600];
    snprintf(path, sizeof path, "%.*sgolden/%s", slash ? (int)(slash - src + 1) : 0, src, name);
    FILE *fp = fopen(path, "rb");
    CHECK_MSG(fp != NULL, "open %s", path);
    return fp;
}

/* The bytes of tests/golden/<name> (at most 64 KiB; caller frees), *len
 * set; NULL when it cannot be read. */
static inline uint8_t *golden_read(const char *name, size_t *len)
{
    FILE *fp = golden_open(name);
    *len = 0;
    if (!fp)
        return NULL;
    uint8_t *buf = malloc(1 << 16);
    *len = buf ? fread(buf, 1, 1 << 16, fp) : 0;
    fclose(fp);
    return buf;
}

#endif
