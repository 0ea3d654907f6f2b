/* bench/keys/workload_file.c: keys from the lines of a file (the line rule of
 * keylines.h, as for every command): the first npos
 * distinct lines are the positives; the negatives are the other lines, then
 * generated strings checked against the positives (sorted 64-bit hashes,
 * bytes compared on a hash match). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "workload.h"
#include "keylines.h"
#include "keygen.h"
#include "keyset.h"
#include "workload_file.h"
#include "../../common/hash.h"

typedef struct {
    uint64_t h;
    size_t   idx; /* line number */
} line_ref;

static int cmp_line_ref(const void *a, const void *b)
{
    const line_ref *x = a, *y = b;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

typedef struct {
    char   *text;
    size_t *start; /* count + 1 entries; line i is text[start[i] .. end) */
    size_t *len;
    size_t  count;
} lines;

static uint64_t line_hash(const void *p, size_t n) { return fk_hash_key(p, n, 0).lo; }

/* "--keys -": stdin, read once and kept (a grid reads the key file once
 * per n, and stdin can be read only once); freed at exit. */
static char *stdin_text;
static size_t stdin_len;
static int stdin_read;

static void free_stdin(void) { free(stdin_text); }

static int split_lines(lines *L, size_t used, int binary_lines, char *err, size_t errlen);

static int read_lines(const char *path, int binary_lines, lines *L, char *err, size_t errlen)
{
    memset(L, 0, sizeof *L);
    int from_stdin = strcmp(path, "-") == 0;
    if (from_stdin && stdin_read) {
        L->text = malloc(stdin_len ? stdin_len : 1);
        if (!L->text) {
            snprintf(err, errlen, "out of memory reading stdin");
            return -1;
        }
        memcpy(L->text, stdin_text, stdin_len);
        return split_lines(L, stdin_len, binary_lines, err, errlen);
    }
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open key file '%s': %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, used = 0;
    L->text = malloc(cap);
    for (;;) {
        if (!L->text) {
            if (!from_stdin)
                fclose(f);
            snprintf(err, errlen, "out of memory reading '%s'", path);
            return -1;
        }
        used += fread(L->text + used, 1, cap - used, f);
        if (used < cap)
            break;
        cap *= 2;
        char *t = realloc(L->text, cap);
        if (!t)
            free(L->text);
        L->text = t;
    }
    int bad = ferror(f);
    if (!from_stdin)
        fclose(f);
    if (bad) {
        snprintf(err, errlen, "error reading '%s'", path);
        return -1;
    }
    if (from_stdin) {
        stdin_text = malloc(used ? used : 1);
        if (!stdin_text) {
            snprintf(err, errlen, "out of memory reading stdin");
            return -1;
        }
        memcpy(stdin_text, L->text, used);
        stdin_len = used;
        stdin_read = 1;
        atexit(free_stdin);
    }
    return split_lines(L, used, binary_lines, err, errlen);
}

/* Splits the `used` bytes of L->text into lines. Returns 0, or -1 with err. */
static int split_lines(lines *L, size_t used, int binary_lines, char *err, size_t errlen)
{
    size_t nl = 1;
    for (size_t i = 0; i < used; i++)
        nl += L->text[i] == '\n';
    L->start = malloc(nl * sizeof *L->start);
    L->len = malloc(nl * sizeof *L->len);
    if (!L->start || !L->len) {
        snprintf(err, errlen, "out of memory splitting the key file into lines");
        return -1;
    }
    size_t s = 0;
    for (size_t i = 0; i <= used; i++) {
        if (i < used && L->text[i] != '\n')
            continue;
        if (i == used && s == used)
            break; /* no empty last line after a final newline */
        L->start[L->count] = s;
        L->len[L->count] = fkc_line_key_len(L->text + s, i - s, binary_lines);
        L->count++;
        s = i + 1;
    }
    return 0;
}

static void free_lines(lines *L)
{
    free(L->text);
    free(L->start);
    free(L->len);
}

/* Is (p, n) among the sorted positive refs? */
static int in_positives(const lines *L, const line_ref *set, size_t count, const void *p, size_t n)
{
    uint64_t h = line_hash(p, n);
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (set[mid].h < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < count && set[lo].h == h; lo++)
        if (L->len[set[lo].idx] == n && memcmp(L->text + L->start[set[lo].idx], p, n) == 0)
            return 1;
    return 0;
}

int fkc_workload_from_file(const fkc_keyspec *spec, size_t npos, size_t nneg, fkc_workload *w,
                          char *err, size_t errlen)
{
    lines L;
    if (read_lines(spec->path, spec->binary_lines, &L, err, errlen)) {
        free_lines(&L);
        return -1;
    }
    int rc = -1;
    line_ref *refs = malloc((L.count ? L.count : 1) * sizeof *refs);
    unsigned char *dup = calloc(L.count ? L.count : 1, 1);
    unsigned char *chosen = calloc(L.count ? L.count : 1, 1);
    line_ref *posset = malloc((L.count ? L.count : 1) * sizeof *posset);
    if (!refs || !dup || !chosen || !posset)
        goto out;
    for (size_t i = 0; i < L.count; i++) {
        refs[i].h = line_hash(L.text + L.start[i], L.len[i]);
        refs[i].idx = i;
    }
    qsort(refs, L.count, sizeof *refs, cmp_line_ref);
    /* Within a run of equal hashes, a line equal to an earlier one is a duplicate. */
    for (size_t a = 0; a < L.count;) {
        size_t b = a;
        while (b < L.count && refs[b].h == refs[a].h)
            b++;
        for (size_t i = a; i < b; i++)
            for (size_t k = a; k < i && !dup[refs[i].idx]; k++)
                if (!dup[refs[k].idx] && L.len[refs[i].idx] == L.len[refs[k].idx] &&
                    memcmp(L.text + L.start[refs[i].idx], L.text + L.start[refs[k].idx],
                           L.len[refs[i].idx]) == 0)
                    dup[refs[i].idx] = 1;
        a = b;
    }
    size_t maxlen = 1;
    for (size_t i = 0; i < L.count; i++)
        if (L.len[i] > maxlen)
            maxlen = L.len[i];
    if (maxlen < FKC_STR_MAX)
        maxlen = FKC_STR_MAX;
    if (fkc_keyset_alloc(&w->pos, npos < L.count ? npos : L.count, maxlen, 0) ||
        fkc_keyset_alloc(&w->neg, nneg, maxlen, 0))
        goto out;
    size_t npicked = 0;
    for (size_t i = 0; i < L.count && w->pos.count < npos; i++) {
        if (dup[i])
            continue;
        chosen[i] = 1;
        fkc_keyset_push(&w->pos, L.text + L.start[i], L.len[i]);
        posset[npicked].h = line_hash(L.text + L.start[i], L.len[i]);
        posset[npicked++].idx = i;
    }
    if (w->pos.count == 0) {
        snprintf(err, errlen, "key file '%s' has no lines", spec->path);
        goto out;
    }
    qsort(posset, npicked, sizeof *posset, cmp_line_ref);
    for (size_t i = 0; i < L.count && w->neg.count < nneg; i++)
        if (!dup[i] && !chosen[i])
            fkc_keyset_push(&w->neg, L.text + L.start[i], L.len[i]);
    uint8_t buf[FKC_STR_MAX];
    for (uint64_t j = 1; w->neg.count < nneg; j += 2) {
        size_t n = fkc_gen_string(spec->seed, j, buf);
        if (!in_positives(&L, posset, npicked, buf, n))
            fkc_keyset_push(&w->neg, buf, n);
    }
    fkc_keyset_shrink(&w->pos);
    fkc_keyset_shrink(&w->neg);
    rc = 0;
out:
    if (rc && !err[0])
        snprintf(err, errlen, "out of memory loading keys from '%s'", spec->path);
    free(refs);
    free(dup);
    free(chosen);
    free(posset);
    free_lines(&L);
    return rc;
}
