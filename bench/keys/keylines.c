/* bench/keys/keylines.c: reading keys as lines (see keylines.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "keylines.h"

#define CHUNK ((size_t)1 << 16)

int fkc_read_all(FILE *fp, char **data, size_t *len)
{
    char *buf = NULL;
    size_t have = 0, cap = 0;
    for (;;) {
        if (have == cap) {
            size_t grown = cap ? cap * 2 : CHUNK;
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

int fkc_linereader_init(fkc_linereader *r, FILE *fp, int binary_lines)
{
    memset(r, 0, sizeof *r);
    r->fp = fp;
    r->binary_lines = binary_lines;
    r->buf = malloc(CHUNK);
    if (!r->buf) {
        errno = ENOMEM;
        return -1;
    }
    r->cap = CHUNK;
    struct stat st;
    off_t at = lseek(fileno(fp), 0, SEEK_CUR);
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && at >= 0 && st.st_size > at)
        r->total = (uint64_t)(st.st_size - at);
    return 0;
}

void fkc_linereader_progress(const fkc_linereader *r, char *buf, size_t len)
{
    if (r->total)
        snprintf(buf, len, "%llu lines (%.0f%%)", (unsigned long long)r->lines,
                 100.0 * (double)r->bytes / (double)r->total);
    else
        snprintf(buf, len, "%llu lines", (unsigned long long)r->lines);
}

int fkc_linereader_init_mem(fkc_linereader *r, char *data, size_t len, int binary_lines)
{
    memset(r, 0, sizeof *r);
    r->binary_lines = binary_lines;
    r->buf = data;
    r->cap = r->end = len;
    r->eof = 1;
    return 0;
}

void fkc_linereader_free(fkc_linereader *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

/* Makes room after the unread bytes: moves them to the front, or doubles
 * the buffer when they fill it (a line longer than the buffer). */
static int make_room(fkc_linereader *r)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
        if (r->end < r->cap)
            return 0;
    }
    if (r->cap >= FKC_LINE_MAX) {
        errno = EOVERFLOW;
        return -1;
    }
    char *p = realloc(r->buf, r->cap * 2);
    if (!p) {
        errno = ENOMEM;
        return -1;
    }
    r->buf = p;
    r->cap *= 2;
    return 0;
}

/* Reads what is available into the free space: read(2) on a descriptor,
 * so a pipe's lines are handled as they arrive instead of after 64 KiB;
 * fread on a stream without one (fmemopen). *got 0 is the end. */
static int fill(fkc_linereader *r, size_t *got)
{
    int fd = fileno(r->fp);
    if (fd < 0) {
        *got = fread(r->buf + r->end, 1, r->cap - r->end, r->fp);
        if (*got == 0 && ferror(r->fp)) {
            errno = EIO;
            return -1;
        }
        return 0;
    }
    for (;;) {
        if (r->wait && r->wait(r->wait_ctx, fd) != 0)
            return -1;
        ssize_t n = read(fd, r->buf + r->end, r->cap - r->end);
        if (n >= 0) {
            *got = (size_t)n;
            return 0;
        }
        if (errno != EINTR)
            return -1;
    }
}

int fkc_linereader_next(fkc_linereader *r, const char **key, size_t *len)
{
    size_t scanned = r->start; /* bytes before this have no '\n' */
    for (;;) {
        char *nl = memchr(r->buf + scanned, '\n', r->end - scanned);
        if (nl || (r->eof && r->end > r->start)) {
            char *line = r->buf + r->start;
            size_t n = nl ? (size_t)(nl - line) : r->end - r->start;
            r->start += n + (nl != NULL);
            r->bytes += n + (nl != NULL);
            r->lines++;
            *key = line;
            *len = fkc_line_key_len(line, n, r->binary_lines);
            return 1;
        }
        if (r->eof)
            return 0;
        scanned = r->end - r->start;
        if (r->end == r->cap && make_room(r) != 0)
            return -1;
        scanned += r->start;
        size_t got;
        if (fill(r, &got) != 0)
            return -1;
        r->end += got;
        r->eof = got == 0;
    }
}

const char *fkc_linereader_error(int err)
{
    if (err == EOVERFLOW)
        return "a line is longer than 64 MiB (FKC_LINE_MAX)";
    return strerror(err);
}
