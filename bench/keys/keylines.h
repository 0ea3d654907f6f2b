/* bench/keys/keylines.h: keys as lines of text -- the one line reader and the one
 * line rule of every command that reads keys (build, add, remove, query,
 * dedup, and `bench --keys FILE`).
 *
 * The rule: a key is a line's bytes without its '\n' and without ONE '\r'
 * just before it (so a CRLF file and an LF file give the same keys); with
 * binary lines (--binary-lines) the '\r' is kept. A last line without '\n'
 * is a key too; an empty line is the empty key. */
#ifndef FKC_BENCH_KEYLINES_H
#define FKC_BENCH_KEYLINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest line the streaming reader accepts: it holds one line at a time
 * in a buffer that grows to the longest line, at most this. */
#define FKC_LINE_MAX ((size_t)1 << 26) /* 64 MiB */

/* The key of a line of len bytes (its '\n' already cut off): len, less one
 * for a trailing '\r' unless binary_lines. */
static inline size_t fkc_line_key_len(const char *line, size_t len, int binary_lines)
{
    return !binary_lines && len && line[len - 1] == '\r' ? len - 1 : len;
}

/* A streaming reader: a bounded buffer (64 KiB, more only for a longer
 * line, up to FKC_LINE_MAX) over a FILE * the caller opened and closes. It
 * reads the stream's descriptor directly (read(2), so lines from a pipe are
 * handled as they arrive): do not mix it with stdio reads of the same
 * stream. */
typedef struct {
    FILE    *fp;
    char    *buf;
    size_t   cap, start, end; /* unread bytes are buf[start, end) */
    int      eof, binary_lines;
    uint64_t lines;           /* keys returned so far */
    uint64_t bytes;           /* bytes consumed so far */
    uint64_t total;           /* bytes to read when known (a regular file), else 0 */
    /* Optional (NULL after init): called before each read(2) of the
     * descriptor, to wait for input its own way (dedup: a stop signal, a
     * checkpoint while the input is idle). Returns 0 to read; -1 with
     * errno set to give up (fkc_linereader_next then returns -1 with that
     * errno; the unread bytes stay, so it may be called again). */
    int    (*wait)(void *ctx, int fd);
    void    *wait_ctx;
} fkc_linereader;

/* Starts reading fp. Returns 0, or -1 when the buffer cannot be allocated
 * (errno ENOMEM). Release with fkc_linereader_free. */
int fkc_linereader_init(fkc_linereader *r, FILE *fp, int binary_lines);

/* Stores the next key in *key / *len (valid until the next call) and
 * returns 1; returns 0 at the end of the input; -1 on a read error (errno
 * from the stream), or a line longer than FKC_LINE_MAX (errno EOVERFLOW), or
 * no memory for a long line (ENOMEM). */
int fkc_linereader_next(fkc_linereader *r, const char **key, size_t *len);

void fkc_linereader_free(fkc_linereader *r);

/* Starts reading the len bytes at data (from fkc_read_all), which the
 * reader now owns and frees. Returns 0. */
int fkc_linereader_init_mem(fkc_linereader *r, char *data, size_t len, int binary_lines);

/* Reads fp to its end into a new buffer *data (*len bytes; free() it).
 * Returns 0, or -1 when memory runs out or reading fails (errno says which;
 * *data is then NULL). */
int fkc_read_all(FILE *fp, char **data, size_t *len);

/* Writes "1234567 lines" plus " (42%)" when the input size is known,
 * for progress lines. */
void fkc_linereader_progress(const fkc_linereader *r, char *buf, size_t len);

/* Describes a reader failure for a message: strerror(err), with the limit
 * named for EOVERFLOW. */
const char *fkc_linereader_error(int err);

#endif
