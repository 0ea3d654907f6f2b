/* bench/report/doc.c: a result as data (doc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "doc.h"

static fkc_doc_item *add(fkc_doc *d, fkc_doc_type t, const char *key)
{
    if (d->failed)
        return NULL;
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        fkc_doc_item *m = realloc(d->items, cap * sizeof *m);
        if (!m) {
            d->failed = 1;
            return NULL;
        }
        d->items = m, d->cap = cap;
    }
    fkc_doc_item *it = &d->items[d->n++];
    memset(it, 0, sizeof *it);
    it->type = t;
    it->key = key;
    return it;
}

void fkc_doc_obj(fkc_doc *d, const char *key) { (void)add(d, FKC_DOC_OBJ, key); }
void fkc_doc_arr(fkc_doc *d, const char *key) { (void)add(d, FKC_DOC_ARR, key); }
void fkc_doc_end(fkc_doc *d) { (void)add(d, FKC_DOC_END, NULL); }
void fkc_doc_null(fkc_doc *d, const char *key) { (void)add(d, FKC_DOC_NULL, key); }

void fkc_doc_bool(fkc_doc *d, const char *key, int b)
{
    fkc_doc_item *it = add(d, FKC_DOC_BOOL, key);
    if (it)
        it->v.b = b != 0;
}

void fkc_doc_u64(fkc_doc *d, const char *key, uint64_t u)
{
    fkc_doc_item *it = add(d, FKC_DOC_U64, key);
    if (it)
        it->v.u = u;
}

void fkc_doc_num(fkc_doc *d, const char *key, double v)
{
    fkc_doc_item *it = add(d, FKC_DOC_NUM, key);
    if (it)
        it->v.d = v;
}

void fkc_doc_str(fkc_doc *d, const char *key, const char *s)
{
    fkc_doc_item *it = add(d, FKC_DOC_STR, key);
    if (!it)
        return;
    size_t len = strlen(s) + 1;
    it->v.s = malloc(len);
    if (!it->v.s) {
        it->type = FKC_DOC_NULL;
        d->failed = 1;
        return;
    }
    memcpy(it->v.s, s, len);
}

void fkc_doc_str_or_null(fkc_doc *d, const char *key, const char *s)
{
    if (s && s[0])
        fkc_doc_str(d, key, s);
    else
        fkc_doc_null(d, key);
}

void fkc_doc_u64_or_null(fkc_doc *d, const char *key, uint64_t u)
{
    if (u)
        fkc_doc_u64(d, key, u);
    else
        fkc_doc_null(d, key);
}

void fkc_doc_free(fkc_doc *d)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->items[i].type == FKC_DOC_STR)
            free(d->items[i].v.s);
    free(d->items);
    memset(d, 0, sizeof *d);
}

void fkc_doc_shortest(double v, char *buf, size_t len)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}
