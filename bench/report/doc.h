/* bench/report/doc.h: a result as data: a flat list of items (objects and
 * arrays opened and closed, values with their member names), built by a
 * component that prints nothing (bench/pick/) and rendered by a writer:
 * JSON (fkc_json_doc, report_json.c) or a Python dict (python/src/bench.c). */
#ifndef FKC_BENCH_DOC_H
#define FKC_BENCH_DOC_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    FKC_DOC_OBJ, FKC_DOC_ARR, FKC_DOC_END, /* open an object / array; close the last opened */
    FKC_DOC_NULL, FKC_DOC_BOOL, FKC_DOC_U64, FKC_DOC_NUM, FKC_DOC_STR
} fkc_doc_type;

typedef struct {
    fkc_doc_type type;
    const char  *key;  /* member name (a string literal); NULL in an array and at the top */
    union {
        int         b;
        uint64_t    u;
        double      d; /* NaN and infinities are null */
        char       *s; /* the doc's own copy */
    } v;
} fkc_doc_item;

typedef struct {
    fkc_doc_item *items;
    size_t        n, cap;
    int           failed; /* out of memory: items stop being added */
} fkc_doc;

/* Appenders: each adds one item; key names the member (NULL in an array).
 * On failure d->failed is set and later calls do nothing. */
void fkc_doc_obj(fkc_doc *d, const char *key);
void fkc_doc_arr(fkc_doc *d, const char *key);
void fkc_doc_end(fkc_doc *d);
void fkc_doc_null(fkc_doc *d, const char *key);
void fkc_doc_bool(fkc_doc *d, const char *key, int b);
void fkc_doc_u64(fkc_doc *d, const char *key, uint64_t u);
void fkc_doc_num(fkc_doc *d, const char *key, double v);
void fkc_doc_str(fkc_doc *d, const char *key, const char *s); /* copied */
/* s, or null when s is NULL or empty. */
void fkc_doc_str_or_null(fkc_doc *d, const char *key, const char *s);
/* u, or null when u is 0. */
void fkc_doc_u64_or_null(fkc_doc *d, const char *key, uint64_t u);

void fkc_doc_free(fkc_doc *d);

/* The shortest decimal that reads back as exactly v (0.001, not
 * 0.0010000000000000000208), into buf. */
void fkc_doc_shortest(double v, char *buf, size_t len);

#endif
