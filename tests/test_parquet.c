/* tests/test_parquet.c: the Parquet reader (parquet/parquet.h) on files
 * written here byte by byte with a small Thrift compact writer: a valid
 * file reads back (schema paths, chunks, filters equal to the bitsets
 * written, dictionary sizes), and hostile ones (truncated, bad magic,
 * lengths past the end, huge counts, deep nesting, lying schemas and
 * filter headers, every single-byte change) end in the named status,
 * never a crash (the sanitizer build of `make test` runs this too). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../parquet/parquet.h"
#include "../blocked/blocked.h"

/* ------------------------------------------- a Thrift compact writer */

typedef struct {
    uint8_t b[1 << 16];
    size_t n;
    int16_t last[64]; /* the previous field id per open struct */
    int depth;
} wbuf;

static void put(wbuf *w, const void *p, size_t n)
{
    if (w->n + n <= sizeof w->b)
        memcpy(w->b + w->n, p, n);
    w->n += n;
}
static void put1(wbuf *w, uint8_t v) { put(w, &v, 1); }
static void varint(wbuf *w, uint64_t v)
{
    while (v >= 0x80) {
        put1(w, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    put1(w, (uint8_t)v);
}
static uint64_t zz(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static void field(wbuf *w, int16_t id, int type)
{
    int16_t d = (int16_t)(id - w->last[w->depth]);
    if (d > 0 && d <= 15) {
        put1(w, (uint8_t)(d << 4 | type));
    } else {
        put1(w, (uint8_t)type);
        varint(w, zz(id));
    }
    w->last[w->depth] = id;
}
static void f_i32(wbuf *w, int16_t id, int64_t v) { field(w, id, 5); varint(w, zz(v)); }
static void f_i64(wbuf *w, int16_t id, int64_t v) { field(w, id, 6); varint(w, zz(v)); }
static void f_bin(wbuf *w, int16_t id, const char *s)
{
    field(w, id, 8);
    varint(w, strlen(s));
    put(w, s, strlen(s));
}
static void s_begin(wbuf *w) { w->last[++w->depth] = 0; }          /* a struct value starts */
static void f_struct(wbuf *w, int16_t id) { field(w, id, 12); s_begin(w); }
static void s_end(wbuf *w) { put1(w, 0); w->depth--; }
static void list(wbuf *w, int elem_type, uint64_t n)
{
    if (n < 15) {
        put1(w, (uint8_t)(n << 4 | (uint64_t)elem_type));
    } else {
        put1(w, (uint8_t)(0xf0 | elem_type));
        varint(w, n);
    }
}
static void le32(wbuf *w, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    put(w, b, 4);
}

/* ------------------------------------------------------ the test file */

/* A file of 3 row groups and 3 leaf columns: "id" INT64, "g.name"
 * BYTE_ARRAY (in group g), "v" INT32. Column id carries a Bloom filter of
 * 64 bytes holding id values rg*100 .. rg*100+9 (built with the Parquet
 * scheme), name a dictionary page of 7 entries, v nothing. */
#define GROUPS 3
#define COLS 3
#define FILTER_BYTES 64u

typedef struct {
    uint32_t num_bytes;     /* the header's numBytes */
    int algorithm_arm;      /* 1 = BLOCK */
    int64_t length_delta;   /* added to bloom_filter_length */
    int64_t offset_delta;   /* added to bloom_filter_offset */
    int v_children_extra;   /* added to the root's num_children */
    int drop_column;        /* row group 1 lists one chunk too few */
    int v_type_lie;         /* chunk v's metadata says INT64 */
} file_opts;

static const file_opts plain_file = { FILTER_BYTES, 1, 0, 0, 0, 0, 0 };

static uint8_t bitsets[GROUPS][FILTER_BYTES];

static void make_bitsets(void)
{
    for (int rg = 0; rg < GROUPS; rg++) {
        fk_filter *f = NULL;
        CHECK_STATUS(fk_blocked_new_parquet(FILTER_BYTES, &f), FK_OK);
        for (int64_t v = rg * 100; v < rg * 100 + 10; v++) {
            uint8_t le[8];
            for (int i = 0; i < 8; i++)
                le[i] = (uint8_t)((uint64_t)v >> (8 * i));
            fk_filter_insert(f, le, 8);
        }
        const void *bits;
        size_t n;
        CHECK_STATUS(fk_blocked_sbbf(f, &bits, &n), FK_OK);
        CHECK_EQ_U64(n, FILTER_BYTES);
        memcpy(bitsets[rg], bits, FILTER_BYTES);
        fk_filter_free(f);
    }
}

/* Writes the file into *w and returns its length. */
static size_t make_file(wbuf *w, const file_opts *o)
{
    memset(w, 0, sizeof *w);
    put(w, "PAR1", 4);
    int64_t filter_at[GROUPS], filter_len[GROUPS], dict_at[GROUPS];
    for (int rg = 0; rg < GROUPS; rg++) {
        /* a dictionary page header for g.name: type 2, dictionary_page_header { num_values 7 } */
        dict_at[rg] = (int64_t)w->n;
        s_begin(w);
        f_i32(w, 1, 2);
        f_i32(w, 2, 0);
        f_i32(w, 3, 0);
        f_struct(w, 7);
        f_i32(w, 1, 7);
        f_i32(w, 2, 0);
        s_end(w);
        s_end(w);
        /* the Bloom filter of id: BloomFilterHeader, then the bitset */
        filter_at[rg] = (int64_t)w->n;
        s_begin(w);
        f_i32(w, 1, o->num_bytes);
        f_struct(w, 2); f_struct(w, (int16_t)o->algorithm_arm); s_end(w); s_end(w);
        f_struct(w, 3); f_struct(w, 1); s_end(w); s_end(w);
        f_struct(w, 4); f_struct(w, 1); s_end(w); s_end(w);
        s_end(w);
        put(w, bitsets[rg], FILTER_BYTES);
        filter_len[rg] = (int64_t)w->n - filter_at[rg];
    }
    size_t footer_at = w->n;
    s_begin(w); /* FileMetaData */
    f_i32(w, 1, 2);
    field(w, 2, 9); /* schema */
    list(w, 12, 5);
    s_begin(w); f_bin(w, 4, "schema"); f_i32(w, 5, 3 + o->v_children_extra); s_end(w);
    s_begin(w); f_i32(w, 1, FK_PARQUET_INT64); f_i32(w, 3, 0); f_bin(w, 4, "id"); s_end(w);
    s_begin(w); f_i32(w, 3, 1); f_bin(w, 4, "g"); f_i32(w, 5, 1); s_end(w);
    s_begin(w); f_i32(w, 1, FK_PARQUET_BYTE_ARRAY); f_bin(w, 4, "name"); f_i32(w, 6, 0); s_end(w);
    s_begin(w); f_i32(w, 1, FK_PARQUET_INT32); f_bin(w, 4, "v"); s_end(w);
    f_i64(w, 3, GROUPS * 10);
    field(w, 4, 9); /* row_groups */
    list(w, 12, GROUPS);
    for (int rg = 0; rg < GROUPS; rg++) {
        s_begin(w);
        int ncols = o->drop_column && rg == 1 ? COLS - 1 : COLS;
        field(w, 1, 9);
        list(w, 12, (uint64_t)ncols);
        for (int c = 0; c < ncols; c++) {
            static const int types[COLS] = { FK_PARQUET_INT64, FK_PARQUET_BYTE_ARRAY, FK_PARQUET_INT32 };
            s_begin(w);
            f_i64(w, 2, 4);
            f_struct(w, 3);
            f_i32(w, 1, c == 2 && o->v_type_lie ? FK_PARQUET_INT64 : types[c]);
            field(w, 2, 9); list(w, 5, 2); varint(w, zz(0)); varint(w, zz(8));
            field(w, 3, 9); list(w, 8, 1); varint(w, 2); put(w, "id", 2);
            f_i32(w, 4, 0);
            f_i64(w, 5, 10);
            f_i64(w, 6, 100);
            f_i64(w, 7, 100);
            f_i64(w, 9, 4);
            if (c == 1)
                f_i64(w, 11, dict_at[rg]);
            if (c == 0) {
                f_struct(w, 12); f_i64(w, 3, 0); f_i64(w, 4, 10); s_end(w);
                f_i64(w, 14, filter_at[rg] + o->offset_delta);
                f_i32(w, 15, filter_len[rg] + o->length_delta);
            }
            s_end(w);
            s_end(w);
        }
        f_i64(w, 2, 1000);
        f_i64(w, 3, 10);
        s_end(w);
    }
    f_bin(w, 6, "filterkit tests/test_parquet.c");
    s_end(w);
    le32(w, (uint32_t)(w->n - footer_at));
    put(w, "PAR1", 4);
    return w->n;
}

/* The read callback over bytes in memory. */
typedef struct {
    const uint8_t *b;
    size_t n;
} mem;

static int read_mem(void *ctx, uint64_t off, void *buf, size_t len)
{
    const mem *m = ctx;
    if (off > m->n || len > m->n - off)
        return -1;
    memcpy(buf, m->b + off, len);
    return 0;
}

/* Opens a copy of exactly n bytes (so ASan sees any read past them) and
 * closes it again; the open's status. */
static fk_status open_bytes(const uint8_t *b, size_t n, fk_parquet_file **pf)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, b, n);
    mem m = { copy, n };
    fk_status s = fk_parquet_open(read_mem, &m, n, pf);
    if (s != FK_OK)
        CHECK(*pf == NULL);
    fk_parquet_close(*pf);
    *pf = NULL;
    free(copy);
    return s;
}

/* Opens, then reads every chunk's filter and dictionary: the statuses of
 * the open and of the first failing filter read. */
static fk_status read_everything(const uint8_t *b, size_t n, fk_status *filter_status)
{
    fk_parquet_file *pf = NULL;
    *filter_status = FK_OK;
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, b, n);
    mem m = { copy, n };
    fk_status s = fk_parquet_open(read_mem, &m, n, &pf);
    if (s != FK_OK) {
        CHECK(pf == NULL);
        free(copy);
        return s;
    }
    uint64_t groups, cols;
    fk_parquet_shape(pf, &groups, &cols);
    for (uint64_t rg = 0; rg < groups; rg++)
        for (uint64_t c = 0; c < cols; c++) {
            fk_filter *f = NULL;
            fk_status fs = fk_parquet_chunk_filter(pf, rg, c, &f);
            if (fs == FK_OK)
                CHECK(f != NULL);
            else
                CHECK(f == NULL);
            if (fs != FK_OK && fs != FK_ENOTFOUND && *filter_status == FK_OK)
                *filter_status = fs;
            fk_filter_free(f);
            fk_parquet_chunk k;
            CHECK_STATUS(fk_parquet_chunk_info(pf, rg, c, &k), FK_OK);
            char path[64];
            fk_parquet_column_path(pf, c, path, sizeof path);
        }
    fk_parquet_close(pf);
    free(copy);
    return FK_OK;
}

static wbuf file;

/* ------------------------------------------------------------- tests */

TEST(valid_file_reads_back)
{
    size_t n = make_file(&file, &plain_file);
    fk_parquet_file *pf = NULL;
    static mem m;
    m.b = file.b;
    m.n = n;
    CHECK_STATUS(fk_parquet_open(read_mem, &m, n, &pf), FK_OK);
    uint64_t groups = 0, cols = 0;
    fk_parquet_shape(pf, &groups, &cols);
    CHECK_EQ_U64(groups, GROUPS);
    CHECK_EQ_U64(cols, COLS);
    fk_parquet_shape(NULL, &groups, NULL);
    CHECK_EQ_U64(groups, 0);
    char path[32];
    CHECK_EQ_U64(fk_parquet_column_path(pf, 0, path, sizeof path), 2);
    CHECK(strcmp(path, "id") == 0);
    CHECK_EQ_U64(fk_parquet_column_path(pf, 1, path, sizeof path), 6);
    CHECK(strcmp(path, "g.name") == 0);
    CHECK_EQ_U64(fk_parquet_column_path(pf, 1, path, 4), 6); /* cut short, NUL-terminated */
    CHECK(strcmp(path, "g.n") == 0);
    uint64_t col = 99;
    CHECK_STATUS(fk_parquet_column_find(pf, "g.name", &col), FK_OK);
    CHECK_EQ_U64(col, 1);
    CHECK_STATUS(fk_parquet_column_find(pf, "v", &col), FK_OK);
    CHECK_EQ_U64(col, 2);
    CHECK_STATUS(fk_parquet_column_find(pf, "name", &col), FK_ENOTFOUND);
    CHECK_STATUS(fk_parquet_column_find(pf, "g", &col), FK_ENOTFOUND);
    CHECK_STATUS(fk_parquet_column_find(pf, "x.name", &col), FK_ENOTFOUND);
    CHECK_STATUS(fk_parquet_column_find(pf, ".id", &col), FK_ENOTFOUND);
    for (uint64_t rg = 0; rg < GROUPS; rg++) {
        fk_parquet_chunk k;
        CHECK_STATUS(fk_parquet_chunk_info(pf, rg, 0, &k), FK_OK);
        CHECK_EQ_U64(k.type, FK_PARQUET_INT64);
        CHECK(strcmp(k.type_name, "INT64") == 0);
        CHECK_EQ_U64(k.num_rows, 10);
        CHECK_EQ_U64(k.num_values, 10);
        CHECK_EQ_U64(k.distinct_count, 10);
        fk_filter *f = NULL;
        CHECK_STATUS(fk_parquet_chunk_filter(pf, rg, 0, &f), FK_OK);
        const void *bits;
        size_t bytes;
        CHECK_STATUS(fk_blocked_sbbf(f, &bits, &bytes), FK_OK);
        CHECK_EQ_U64(bytes, FILTER_BYTES);
        CHECK(memcmp(bits, bitsets[rg], FILTER_BYTES) == 0);
        /* its own values answer yes; the other groups' mostly no */
        int others = 0;
        for (int64_t v = 0; v < GROUPS * 100; v++) {
            uint8_t le[8];
            for (int i = 0; i < 8; i++)
                le[i] = (uint8_t)((uint64_t)v >> (8 * i));
            bool mine = v >= (int64_t)rg * 100 && v < (int64_t)rg * 100 + 10;
            bool yes = fk_filter_contains(f, le, 8);
            if (mine)
                CHECK(yes);
            else
                others += yes;
        }
        CHECK_MSG(others < 60, "row group %d: %d of 290 absent values pass", (int)rg, others);
        fk_filter_free(f);
        CHECK_EQ_U64(k.dictionary_entries, -1); /* id has no dictionary page */
        CHECK_STATUS(fk_parquet_chunk_info(pf, rg, 1, &k), FK_OK);
        CHECK(strcmp(k.type_name, "BYTE_ARRAY") == 0);
        CHECK_EQ_U64(k.dictionary_entries, 7);
        CHECK_STATUS(fk_parquet_chunk_filter(pf, rg, 1, &f), FK_ENOTFOUND);
        CHECK(f == NULL);
        CHECK_STATUS(fk_parquet_chunk_info(pf, rg, 2, &k), FK_OK);
        CHECK_EQ_U64(k.type, FK_PARQUET_INT32);
        CHECK(k.bloom_filter_offset == -1 && k.distinct_count == -1 && k.dictionary_page_offset == -1 &&
              k.dictionary_entries == -1);
    }
    fk_filter *f = NULL;
    fk_parquet_chunk k;
    CHECK_STATUS(fk_parquet_chunk_filter(pf, GROUPS, 0, &f), FK_EINVAL);
    CHECK_STATUS(fk_parquet_chunk_filter(pf, 0, COLS, &f), FK_EINVAL);
    CHECK_STATUS(fk_parquet_chunk_info(pf, 0, COLS, &k), FK_EINVAL);
    CHECK_STATUS(fk_parquet_chunk_info(NULL, 0, 0, &k), FK_EINVAL);
    CHECK_STATUS(fk_parquet_column_find(pf, NULL, &col), FK_EINVAL);
    fk_parquet_close(pf);
    fk_parquet_close(NULL);
    CHECK_STATUS(fk_parquet_open(NULL, NULL, 0, &pf), FK_EINVAL);
    CHECK_STATUS(fk_parquet_open(read_mem, &m, n, NULL), FK_EINVAL);
    /* a read callback that fails: FK_EIO */
    mem short_file = { file.b, 10 };
    CHECK_STATUS(fk_parquet_open(read_mem, &short_file, n, &pf), FK_EIO);
    CHECK(pf == NULL);
}

TEST(truncated_files_are_corrupt)
{
    size_t n = make_file(&file, &plain_file);
    for (size_t len = 0; len < n; len++) {
        fk_parquet_file *pf = (fk_parquet_file *)&file; /* must be reset to NULL */
        fk_status s = open_bytes(file.b, len, &pf);
        CHECK_MSG(s == FK_ECORRUPT && pf == NULL, "prefix of %zu bytes: %s", len, fk_status_name(s));
    }
    /* cut from the front: the head magic goes */
    fk_parquet_file *pf = NULL;
    CHECK_STATUS(open_bytes(file.b + 1, n - 1, &pf), FK_ECORRUPT);
}

TEST(bad_magic)
{
    size_t n = make_file(&file, &plain_file);
    fk_parquet_file *pf = NULL;
    file.b[0] = 'Q';
    CHECK_STATUS(open_bytes(file.b, n, &pf), FK_ECORRUPT);
    file.b[0] = 'P';
    file.b[n - 1] = '2';
    CHECK_STATUS(open_bytes(file.b, n, &pf), FK_ECORRUPT);
    memcpy(file.b + n - 4, "PARE", 4); /* an encrypted footer */
    CHECK_STATUS(open_bytes(file.b, n, &pf), FK_EUNSUPPORTED);
    memcpy(file.b + n - 4, "PAR1", 4);
    CHECK_STATUS(open_bytes(file.b, n, &pf), FK_OK);
}

TEST(footer_length_lies)
{
    size_t n = make_file(&file, &plain_file);
    fk_parquet_file *pf = NULL;
    uint32_t real = (uint32_t)file.b[n - 8] | (uint32_t)file.b[n - 7] << 8 | (uint32_t)file.b[n - 6] << 16 |
                    (uint32_t)file.b[n - 5] << 24;
    const uint32_t lies[] = { (uint32_t)n - 11, (uint32_t)n, 0xffffffffu, real + 1, real - 1, 0 };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        for (int k = 0; k < 4; k++)
            file.b[n - 8 + k] = (uint8_t)(lies[i] >> (8 * k));
        fk_status s = open_bytes(file.b, n, &pf);
        CHECK_MSG(s == FK_ECORRUPT, "footer length %u (real %u): %s", lies[i], real, fk_status_name(s));
    }
}

/* A footer made of `body`, between the magics. */
static size_t wrap_footer(wbuf *w, const uint8_t *body, size_t len)
{
    static uint8_t copy[sizeof file.b];
    memcpy(copy, body, len);
    memset(w, 0, sizeof *w);
    put(w, "PAR1", 4);
    put(w, copy, len);
    le32(w, (uint32_t)len);
    put(w, "PAR1", 4);
    return w->n;
}

TEST(huge_counts_and_lengths)
{
    static wbuf body;
    fk_parquet_file *pf = NULL;
    /* a schema list of 2^31 - 1 elements, a row group list of 2^32 - 1 */
    const uint64_t counts[] = { 15, 1000, 0x7fffffffu, 0xffffffffu };
    for (int which = 0; which < 2; which++)
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
            memset(&body, 0, sizeof body);
            s_begin(&body);
            field(&body, which ? 4 : 2, 9);
            list(&body, 12, counts[i]);
            s_begin(&body); s_end(&body);
            s_end(&body);
            size_t n = wrap_footer(&file, body.b, body.n);
            fk_status s = open_bytes(file.b, n, &pf);
            CHECK_MSG(s == FK_ECORRUPT, "%s list of %llu: %s", which ? "row group" : "schema",
                      (unsigned long long)counts[i], fk_status_name(s));
        }
    /* a name longer than the bytes left; a varint of 11 bytes */
    memset(&body, 0, sizeof body);
    s_begin(&body);
    field(&body, 2, 9);
    list(&body, 12, 1);
    s_begin(&body); field(&body, 4, 8); varint(&body, 1u << 30); s_end(&body);
    s_end(&body);
    CHECK_STATUS(open_bytes(file.b, wrap_footer(&file, body.b, body.n), &pf), FK_ECORRUPT);
    memset(&body, 0, sizeof body);
    s_begin(&body);
    field(&body, 3, 6);
    for (int i = 0; i < 10; i++)
        put1(&body, 0xff);
    put1(&body, 1);
    s_end(&body);
    CHECK_STATUS(open_bytes(file.b, wrap_footer(&file, body.b, body.n), &pf), FK_ECORRUPT);
    /* an unknown map field claiming 2^31 entries */
    memset(&body, 0, sizeof body);
    s_begin(&body);
    field(&body, 20, 11);
    varint(&body, 0x7fffffff);
    put1(&body, 0x55);
    s_end(&body);
    CHECK_STATUS(open_bytes(file.b, wrap_footer(&file, body.b, body.n), &pf), FK_ECORRUPT);
}

TEST(deep_nesting)
{
    static wbuf body;
    fk_parquet_file *pf = NULL;
    /* 10000 nested structs and lists in an unknown field: refused at the
     * depth cap, without recursing 10000 deep */
    for (int kind = 0; kind < 2; kind++) {
        memset(&body, 0, sizeof body);
        s_begin(&body);
        field(&body, 30, kind ? 9 : 12);
        for (int i = 0; i < 10000; i++) {
            if (kind)
                list(&body, 9, 1);
            else
                put1(&body, 0x1c); /* field 1, struct */
        }
        size_t n = wrap_footer(&file, body.b, body.n);
        CHECK_STATUS(open_bytes(file.b, n, &pf), FK_ECORRUPT);
    }
    /* a schema 100 groups deep: over FK_PARQUET_SCHEMA_DEPTH_MAX */
    memset(&body, 0, sizeof body);
    s_begin(&body);
    field(&body, 2, 9);
    list(&body, 12, 101);
    for (int i = 0; i < 100; i++) {
        s_begin(&body); f_bin(&body, 4, "g"); f_i32(&body, 5, 1); s_end(&body);
    }
    s_begin(&body); f_i32(&body, 1, 1); f_bin(&body, 4, "leaf"); s_end(&body);
    s_end(&body);
    CHECK_STATUS(open_bytes(file.b, wrap_footer(&file, body.b, body.n), &pf), FK_ELIMIT);
}

/* A schema of a group "a" holding "" (a leaf) and "" (a group) holding
 * "b": the paths "a." and "a..b" (the fuzzer found an empty leaf name
 * counted without its '.'), each found again. */
TEST(empty_names_keep_their_dots)
{
    static wbuf body;
    static mem m;
    memset(&body, 0, sizeof body);
    s_begin(&body);
    field(&body, 2, 9);
    list(&body, 12, 5);
    s_begin(&body); f_bin(&body, 4, "root"); f_i32(&body, 5, 1); s_end(&body);
    s_begin(&body); f_bin(&body, 4, "a"); f_i32(&body, 5, 2); s_end(&body);
    s_begin(&body); f_i32(&body, 1, 1); f_bin(&body, 4, ""); s_end(&body);
    s_begin(&body); f_bin(&body, 4, ""); f_i32(&body, 5, 1); s_end(&body);
    s_begin(&body); f_i32(&body, 1, 2); f_bin(&body, 4, "b"); s_end(&body);
    s_end(&body);
    size_t n = wrap_footer(&file, body.b, body.n);
    m.b = file.b;
    m.n = n;
    fk_parquet_file *pf = NULL;
    CHECK_STATUS(fk_parquet_open(read_mem, &m, n, &pf), FK_OK);
    char path[16];
    uint64_t col = 9;
    CHECK_EQ_U64(fk_parquet_column_path(pf, 0, path, sizeof path), 2);
    CHECK(strcmp(path, "a.") == 0);
    CHECK_STATUS(fk_parquet_column_find(pf, path, &col), FK_OK);
    CHECK_EQ_U64(col, 0);
    CHECK_EQ_U64(fk_parquet_column_path(pf, 1, path, sizeof path), 4);
    CHECK(strcmp(path, "a..b") == 0);
    CHECK_STATUS(fk_parquet_column_find(pf, path, &col), FK_OK);
    CHECK_EQ_U64(col, 1);
    CHECK_EQ_U64(fk_parquet_column_path(pf, 1, path, 2), 4); /* cut short */
    CHECK(strcmp(path, "a") == 0);
    fk_parquet_close(pf);
}

TEST(schema_element_without_a_name)
{
    /* name is required (the fuzzer found column_find comparing a missing one) */
    static wbuf body;
    fk_parquet_file *pf = NULL;
    memset(&body, 0, sizeof body);
    s_begin(&body);
    field(&body, 2, 9);
    list(&body, 12, 2);
    s_begin(&body); f_bin(&body, 4, "root"); f_i32(&body, 5, 1); s_end(&body);
    s_begin(&body); f_i32(&body, 1, 1); s_end(&body);
    s_end(&body);
    CHECK_STATUS(open_bytes(file.b, wrap_footer(&file, body.b, body.n), &pf), FK_ECORRUPT);
}

TEST(lying_schema_and_row_groups)
{
    fk_parquet_file *pf = NULL;
    file_opts o = plain_file;
    o.v_children_extra = 1; /* the root claims 4 children of 3 */
    CHECK_STATUS(open_bytes(file.b, make_file(&file, &o), &pf), FK_ECORRUPT);
    o.v_children_extra = -1; /* claims 2: an element past the tree */
    CHECK_STATUS(open_bytes(file.b, make_file(&file, &o), &pf), FK_ECORRUPT);
    o = plain_file;
    o.drop_column = 1;
    CHECK_STATUS(open_bytes(file.b, make_file(&file, &o), &pf), FK_ECORRUPT);
    o = plain_file;
    o.v_type_lie = 1;
    CHECK_STATUS(open_bytes(file.b, make_file(&file, &o), &pf), FK_ECORRUPT);
}

/* The file opens; reading the id filters fails with want. */
static void check_filter_status(const file_opts *o, fk_status want, const char *what)
{
    size_t n = make_file(&file, o);
    fk_status fs;
    fk_status s = read_everything(file.b, n, &fs);
    CHECK_MSG(s == FK_OK && fs == want, "%s: open %s, filter %s (want %s)", what, fk_status_name(s),
              fk_status_name(fs), fk_status_name(want));
}

TEST(hostile_filter_headers)
{
    file_opts o = plain_file;
    check_filter_status(&o, FK_OK, "plain");
    o.num_bytes = 48; /* not a power of two */
    check_filter_status(&o, FK_ECORRUPT, "numBytes 48");
    o.num_bytes = 16; /* below 32 */
    check_filter_status(&o, FK_ECORRUPT, "numBytes 16");
    o.num_bytes = 128; /* more than the length and the bytes before the footer... */
    check_filter_status(&o, FK_ECORRUPT, "numBytes 128");
    o.num_bytes = 1u << 30; /* 1 GiB: above 128 MiB, never allocated */
    check_filter_status(&o, FK_ECORRUPT, "numBytes 1 GiB");
    o = plain_file;
    o.algorithm_arm = 2; /* an algorithm this reader does not know */
    check_filter_status(&o, FK_EUNSUPPORTED, "algorithm arm 2");
    o = plain_file;
    o.length_delta = -1; /* the stated length cuts the bitset */
    check_filter_status(&o, FK_ECORRUPT, "length - 1");
    o.length_delta = 1 << 20; /* past the end of the file */
    check_filter_status(&o, FK_ECORRUPT, "length past the end");
    o = plain_file;
    o.offset_delta = 1 << 20; /* offset past the end */
    check_filter_status(&o, FK_ECORRUPT, "offset past the end");
    o.offset_delta = -1000000; /* negative offset: no filter */
    check_filter_status(&o, FK_OK, "negative offset");
    o.offset_delta = 3; /* into the middle of the header */
    size_t n = make_file(&file, &o);
    fk_status fs;
    CHECK_STATUS(read_everything(file.b, n, &fs), FK_OK);
    CHECK(fs == FK_ECORRUPT || fs == FK_EUNSUPPORTED);
}

/* Every byte of the file changed to a few values, and every byte
 * dropped: whatever status comes, no crash, no leak (ASan), and a file
 * that opens reads all its filters safely. */
TEST(every_byte_changed)
{
    static wbuf copy;
    size_t n = make_file(&file, &plain_file);
    const uint8_t values[] = { 0x00, 0xff, 0x80, 0x0f, 0x19, 0x1c };
    size_t opened = 0, tried = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t v = 0; v < sizeof values; v++) {
            memcpy(copy.b, file.b, n);
            copy.b[i] = values[v];
            fk_status fs;
            opened += read_everything(copy.b, n, &fs) == FK_OK;
            tried++;
        }
        memcpy(copy.b, file.b, i);
        memcpy(copy.b + i, file.b + i + 1, n - i - 1);
        fk_status fs;
        opened += read_everything(copy.b, n - 1, &fs) == FK_OK;
        tried++;
    }
    CHECK(opened > 0 && opened < tried);
}

int main(void)
{
    make_bitsets();
    RUN(valid_file_reads_back);
    RUN(truncated_files_are_corrupt);
    RUN(bad_magic);
    RUN(footer_length_lies);
    RUN(huge_counts_and_lengths);
    RUN(deep_nesting);
    RUN(schema_element_without_a_name);
    RUN(empty_names_keep_their_dots);
    RUN(lying_schema_and_row_groups);
    RUN(hostile_filter_headers);
    RUN(every_byte_changed);
    return check_report();
}
