/* parquet/parquet.c: the Parquet footer, its column chunks and their Bloom
 * filters (parquet.h). Field ids are parquet.thrift's; every field this
 * reader does not need is skipped, so newer writers' additions pass. */
#include <stdlib.h>
#include <string.h>
#include "parquet.h"
#include "thrift_compact.h"
#include "../blocked/blocked.h"
#include "../common/endian.h"

#define PARQUET_MAGIC "PAR1"
#define PARQUET_MAGIC_ENCRYPTED "PARE"
#define PARQUET_TAIL_BYTES 8u   /* footer length (4) + magic (4) */
#define SBBF_MIN_BYTES 32u
#define SBBF_MAX_BYTES (UINT64_C(128) << 20)
#define PAGE_TYPE_DICTIONARY 2

typedef struct {
    int64_t num_values, distinct_count, bloom_offset, bloom_length, dictionary_offset;
    int     type;        /* -1 when the chunk has no metadata */
    int     other_file;  /* file_path set: the chunk's pages live elsewhere */
} chunk_rec;

typedef struct {
    int64_t  num_rows;
    uint64_t first;      /* index of its first chunk in chunks[] */
    uint64_t count;      /* its chunks */
} row_group_rec;

typedef struct {
    const uint8_t *name; /* into names (owned by the file) */
    size_t   name_len;
    int64_t  parent;     /* schema index, -1 for the root */
    int64_t  num_children;
    int      type;       /* -1 for a group */
} schema_rec;

struct fk_parquet_file {
    fk_parquet_read_fn read;
    void    *ctx;
    uint64_t size;
    uint8_t *footer;     /* the footer's bytes: the schema's names point into it */
    schema_rec *schema;
    uint64_t n_schema;
    uint64_t *leaves;    /* schema index of each leaf column */
    uint64_t n_leaves;
    row_group_rec *groups;
    uint64_t n_groups;
    chunk_rec *chunks;
    uint64_t n_chunks, cap_chunks;
};

static const char *type_name(int type)
{
    static const char *const names[] = { "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE",
                                         "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY" };
    return type >= 0 && type < (int)(sizeof names / sizeof names[0]) ? names[type] : "UNKNOWN";
}

/* ------------------------------------------------------ Thrift helpers */

/* A field whose value must be a struct, a list or a binary: a field of
 * another type under a known id is a lie about the schema. */
static fk_status expect_type(int type, int want)
{
    return type == want ? FK_OK : FK_ECORRUPT;
}

/* A physical type: an integer in [BOOLEAN, FIXED_LEN_BYTE_ARRAY]. */
static fk_status read_type(fk_thrift_reader *r, int t, int *out)
{
    int64_t v = -1;
    fk_status s = fk_thrift_int(r, t, &v);
    if (s == FK_OK && (v < FK_PARQUET_BOOLEAN || v > FK_PARQUET_FIXED_LEN_BYTE_ARRAY))
        s = FK_ECORRUPT;
    *out = (int)v;
    return s;
}

/* ------------------------------------------------------------ the footer */

/* Each parser below is an fk_thrift_struct field callback: ctx is what the
 * struct fills. */

/* Statistics: only distinct_count (4). */
static fk_status statistics_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    return id == 4 ? fk_thrift_int(r, t, ctx) : fk_thrift_skip(r, t);
}

/* ColumnMetaData: 1 type, 5 num_values, 11 dictionary_page_offset,
 * 12 statistics, 14 bloom_filter_offset, 15 bloom_filter_length. */
static fk_status column_meta_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    chunk_rec *c = ctx;
    fk_status s;
    switch (id) {
    case 1: return read_type(r, t, &c->type);
    case 5: return fk_thrift_int(r, t, &c->num_values);
    case 11: return fk_thrift_int(r, t, &c->dictionary_offset);
    case 12:
        if ((s = expect_type(t, FK_THRIFT_STRUCT)) != FK_OK)
            return s;
        return fk_thrift_struct(r, statistics_field, &c->distinct_count);
    case 14: return fk_thrift_int(r, t, &c->bloom_offset);
    case 15: return fk_thrift_int(r, t, &c->bloom_length);
    default: return fk_thrift_skip(r, t);
    }
}

static fk_status add_chunk(fk_parquet_file *pf, chunk_rec **out)
{
    if (pf->n_chunks == pf->cap_chunks) {
        if (pf->cap_chunks >= FK_PARQUET_CHUNKS_MAX)
            return FK_ELIMIT;
        uint64_t cap = pf->cap_chunks ? 2 * pf->cap_chunks : 64;
        if (cap > FK_PARQUET_CHUNKS_MAX)
            cap = FK_PARQUET_CHUNKS_MAX;
        chunk_rec *c = realloc(pf->chunks, (size_t)cap * sizeof *c);
        if (!c)
            return FK_ENOMEM;
        pf->chunks = c;
        pf->cap_chunks = cap;
    }
    chunk_rec *c = &pf->chunks[pf->n_chunks++];
    c->num_values = c->distinct_count = c->bloom_offset = c->bloom_length = c->dictionary_offset = -1;
    c->type = -1;
    c->other_file = 0;
    *out = c;
    return FK_OK;
}

/* ColumnChunk: 1 file_path (the chunk lives in another file), 3 meta_data. */
static fk_status column_chunk_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    chunk_rec *c = ctx;
    fk_status s;
    if (id == 1) {
        const uint8_t *b;
        size_t n;
        c->other_file = 1;
        return (s = expect_type(t, FK_THRIFT_BINARY)) != FK_OK ? s : fk_thrift_binary(r, &b, &n);
    }
    if (id == 3) {
        if ((s = expect_type(t, FK_THRIFT_STRUCT)) != FK_OK ||
            (s = fk_thrift_struct(r, column_meta_field, c)) != FK_OK)
            return s;
        return c->type < 0 ? FK_ECORRUPT : FK_OK; /* type is a required field */
    }
    return fk_thrift_skip(r, t);
}

typedef struct {
    fk_parquet_file *pf;
    row_group_rec *g;
    int seen_columns;
} row_group_ctx;

/* RowGroup: 1 columns, 3 num_rows. */
static fk_status row_group_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    row_group_ctx *x = ctx;
    fk_status s = FK_OK;
    if (id == 3)
        return fk_thrift_int(r, t, &x->g->num_rows);
    if (id != 1)
        return fk_thrift_skip(r, t);
    int et;
    uint64_t n;
    if (x->seen_columns++)
        return FK_ECORRUPT; /* given twice */
    if ((s = expect_type(t, FK_THRIFT_LIST)) != FK_OK || (s = fk_thrift_list_begin(r, &et, &n)) != FK_OK)
        return s;
    if (et != FK_THRIFT_STRUCT)
        return FK_ECORRUPT;
    x->g->first = x->pf->n_chunks;
    x->g->count = n;
    for (uint64_t i = 0; i < n; i++) {
        chunk_rec *c;
        if ((s = add_chunk(x->pf, &c)) != FK_OK || (s = fk_thrift_struct(r, column_chunk_field, c)) != FK_OK)
            return s;
    }
    fk_thrift_container_end(r);
    return FK_OK;
}

/* SchemaElement: 1 type, 4 name, 5 num_children. */
static fk_status schema_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    schema_rec *e = ctx;
    fk_status s;
    switch (id) {
    case 1: return read_type(r, t, &e->type);
    case 4: return (s = expect_type(t, FK_THRIFT_BINARY)) != FK_OK ? s : fk_thrift_binary(r, &e->name, &e->name_len);
    case 5:
        if ((s = fk_thrift_int(r, t, &e->num_children)) == FK_OK && e->num_children < 0)
            s = FK_ECORRUPT;
        return s;
    default: return fk_thrift_skip(r, t);
    }
}

/* A list of structs under a known field: its count, checked and capped. */
static fk_status struct_list_begin(fk_thrift_reader *r, int type, uint64_t *n)
{
    int et;
    fk_status s = expect_type(type, FK_THRIFT_LIST);
    if (s == FK_OK)
        s = fk_thrift_list_begin(r, &et, n);
    if (s == FK_OK && et != FK_THRIFT_STRUCT)
        s = FK_ECORRUPT;
    if (s == FK_OK && *n > FK_PARQUET_CHUNKS_MAX)
        s = FK_ELIMIT;
    return s;
}

/* FileMetaData: 2 schema, 4 row_groups. */
static fk_status file_meta_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    fk_parquet_file *pf = ctx;
    fk_status s;
    uint64_t n;
    if (id == 2) {
        if (pf->schema)
            return FK_ECORRUPT; /* given twice */
        if ((s = struct_list_begin(r, t, &n)) != FK_OK)
            return s;
        if (!(pf->schema = malloc((size_t)(n ? n : 1) * sizeof *pf->schema)))
            return FK_ENOMEM;
        for (uint64_t i = 0; i < n; i++) {
            schema_rec *e = &pf->schema[i];
            e->name = NULL;
            e->name_len = 0;
            e->parent = -1;
            e->num_children = 0;
            e->type = -1;
            if ((s = fk_thrift_struct(r, schema_field, e)) != FK_OK)
                return s;
            if (!e->name)
                return FK_ECORRUPT; /* name is a required field */
            pf->n_schema = i + 1;
        }
        fk_thrift_container_end(r);
        return FK_OK;
    }
    if (id == 4) {
        if (pf->groups)
            return FK_ECORRUPT;
        if ((s = struct_list_begin(r, t, &n)) != FK_OK)
            return s;
        if (!(pf->groups = malloc((size_t)(n ? n : 1) * sizeof *pf->groups)))
            return FK_ENOMEM;
        for (uint64_t i = 0; i < n; i++) {
            row_group_ctx x = { pf, &pf->groups[i], 0 };
            x.g->num_rows = -1;
            x.g->first = pf->n_chunks;
            x.g->count = 0;
            pf->n_groups = i + 1;
            if ((s = fk_thrift_struct(r, row_group_field, &x)) != FK_OK)
                return s;
        }
        fk_thrift_container_end(r);
        return FK_OK;
    }
    return fk_thrift_skip(r, t);
}

/* Walks the flattened schema tree (depth first: each group followed by its
 * num_children children) to find each element's parent and the leaves. */
static fk_status index_schema(fk_parquet_file *pf)
{
    if (pf->n_schema == 0)
        return FK_ECORRUPT; /* the root is required */
    struct { uint64_t index, left; } stack[FK_PARQUET_SCHEMA_DEPTH_MAX];
    unsigned depth = 0;
    uint64_t leaves = 0;
    if (pf->schema[0].num_children > 0) {
        stack[0].index = 0;
        stack[0].left = (uint64_t)pf->schema[0].num_children;
        depth = 1;
    }
    for (uint64_t i = 1; i < pf->n_schema; i++) {
        if (depth == 0)
            return FK_ECORRUPT; /* elements past the tree's end */
        schema_rec *e = &pf->schema[i];
        e->parent = (int64_t)stack[depth - 1].index;
        stack[depth - 1].left--;
        if (e->num_children > 0) {
            if (depth == FK_PARQUET_SCHEMA_DEPTH_MAX)
                return FK_ELIMIT;
            stack[depth].index = i;
            stack[depth].left = (uint64_t)e->num_children;
            depth++;
        } else {
            if (e->type < 0)
                return FK_ECORRUPT; /* a leaf without a physical type */
            leaves++;
        }
        while (depth && stack[depth - 1].left == 0)
            depth--;
    }
    if (depth)
        return FK_ECORRUPT; /* a group claims more children than there are */
    if (!(pf->leaves = malloc((size_t)(leaves ? leaves : 1) * sizeof *pf->leaves)))
        return FK_ENOMEM;
    for (uint64_t i = 1; i < pf->n_schema; i++)
        if (pf->schema[i].num_children == 0)
            pf->leaves[pf->n_leaves++] = i;
    return FK_OK;
}

/* Every row group has one chunk per leaf, of the leaf's type. */
static fk_status check_row_groups(fk_parquet_file *pf)
{
    for (uint64_t g = 0; g < pf->n_groups; g++) {
        if (pf->groups[g].count != pf->n_leaves)
            return FK_ECORRUPT;
        for (uint64_t c = 0; c < pf->n_leaves; c++) {
            chunk_rec *k = &pf->chunks[pf->groups[g].first + c];
            int leaf_type = pf->schema[pf->leaves[c]].type;
            if (k->type < 0)
                k->type = leaf_type; /* no metadata (an encrypted column) */
            else if (k->type != leaf_type)
                return FK_ECORRUPT;
        }
    }
    return FK_OK;
}

static fk_status read_at(const fk_parquet_file *pf, uint64_t off, void *buf, size_t len)
{
    return pf->read(pf->ctx, off, buf, len) == 0 ? FK_OK : FK_EIO;
}

static fk_status open_footer(fk_parquet_file *pf)
{
    uint8_t tail[PARQUET_TAIL_BYTES], head[4];
    fk_status s;
    if (pf->size < 4 + PARQUET_TAIL_BYTES)
        return FK_ECORRUPT;
    if ((s = read_at(pf, pf->size - PARQUET_TAIL_BYTES, tail, sizeof tail)) != FK_OK ||
        (s = read_at(pf, 0, head, sizeof head)) != FK_OK)
        return s;
    if (memcmp(tail + 4, PARQUET_MAGIC_ENCRYPTED, 4) == 0 || memcmp(head, PARQUET_MAGIC_ENCRYPTED, 4) == 0)
        return FK_EUNSUPPORTED;
    if (memcmp(tail + 4, PARQUET_MAGIC, 4) != 0 || memcmp(head, PARQUET_MAGIC, 4) != 0)
        return FK_ECORRUPT;
    uint64_t len = fk_le_get32(tail);
    if (len > pf->size - 4 - PARQUET_TAIL_BYTES)
        return FK_ECORRUPT;
    if (len > FK_PARQUET_FOOTER_MAX)
        return FK_ELIMIT;
    if (!(pf->footer = malloc(len ? (size_t)len : 1)))
        return FK_ENOMEM;
    if ((s = read_at(pf, pf->size - PARQUET_TAIL_BYTES - len, pf->footer, (size_t)len)) != FK_OK)
        return s;
    fk_thrift_reader r;
    fk_thrift_init(&r, pf->footer, (size_t)len);
    if ((s = fk_thrift_struct(&r, file_meta_field, pf)) != FK_OK)
        return s;
    if (!pf->schema)
        return FK_ECORRUPT;
    if ((s = index_schema(pf)) != FK_OK)
        return s;
    return check_row_groups(pf);
}

fk_status fk_parquet_open(fk_parquet_read_fn read, void *ctx, uint64_t file_size, fk_parquet_file **out)
{
    if (out)
        *out = NULL;
    if (!read || !out)
        return FK_EINVAL;
    fk_parquet_file *pf = calloc(1, sizeof *pf);
    if (!pf)
        return FK_ENOMEM;
    pf->read = read;
    pf->ctx = ctx;
    pf->size = file_size;
    fk_status s = open_footer(pf);
    if (s != FK_OK) {
        fk_parquet_close(pf);
        return s;
    }
    *out = pf;
    return FK_OK;
}

void fk_parquet_close(fk_parquet_file *pf)
{
    if (!pf)
        return;
    free(pf->footer);
    free(pf->schema);
    free(pf->leaves);
    free(pf->groups);
    free(pf->chunks);
    free(pf);
}

/* ------------------------------------------------------------- queries */

void fk_parquet_shape(const fk_parquet_file *pf, uint64_t *row_groups, uint64_t *columns)
{
    if (row_groups)
        *row_groups = pf ? pf->n_groups : 0;
    if (columns)
        *columns = pf ? pf->n_leaves : 0;
}

size_t fk_parquet_column_path(const fk_parquet_file *pf, uint64_t col, char *buf, size_t len)
{
    if (!pf || col >= pf->n_leaves)
        return 0;
    /* the names from the leaf up to (not including) the root, one '.'
     * between two (an empty name still takes its place: "a..b"), written
     * back to front; the depth is at most FK_PARQUET_SCHEMA_DEPTH_MAX */
    size_t total = 0;
    for (int64_t i = (int64_t)pf->leaves[col]; i > 0; i = pf->schema[i].parent)
        total += pf->schema[i].name_len + (pf->schema[i].parent > 0);
    if (buf && len) {
        size_t end = total;
        for (int64_t i = (int64_t)pf->leaves[col]; i > 0; i = pf->schema[i].parent) {
            const schema_rec *e = &pf->schema[i];
            size_t at = end - e->name_len;
            for (size_t k = 0; k < e->name_len; k++)
                if (at + k < len - 1)
                    buf[at + k] = (char)e->name[k];
            if (e->parent > 0) {
                if (at - 1 < len - 1)
                    buf[at - 1] = '.';
                at--;
            }
            end = at;
        }
        buf[total < len - 1 ? total : len - 1] = '\0';
    }
    return total;
}

fk_status fk_parquet_column_find(const fk_parquet_file *pf, const char *path, uint64_t *col)
{
    if (!pf || !path || !col)
        return FK_EINVAL;
    size_t want = strlen(path);
    for (uint64_t c = 0; c < pf->n_leaves; c++) {
        /* compare back to front, name by name, without building the path */
        size_t end = want;
        int64_t i = (int64_t)pf->leaves[c];
        int same = 1;
        for (; i > 0 && same; i = pf->schema[i].parent) {
            const schema_rec *e = &pf->schema[i];
            if (e->name_len > end || (e->name_len && memcmp(path + end - e->name_len, e->name, e->name_len) != 0)) {
                same = 0;
                break;
            }
            end -= e->name_len;
            if (pf->schema[i].parent > 0) {
                if (end == 0 || path[end - 1] != '.')
                    same = 0;
                else
                    end--;
            }
        }
        if (same && end == 0) {
            *col = c;
            return FK_OK;
        }
    }
    return FK_ENOTFOUND;
}

static const chunk_rec *chunk_at(const fk_parquet_file *pf, uint64_t rg, uint64_t col)
{
    if (!pf || rg >= pf->n_groups || col >= pf->n_leaves)
        return NULL;
    return &pf->chunks[pf->groups[rg].first + col];
}

/* ------------------------------------------------------ the Bloom filter */

/* Reads the Thrift struct at file offset off, which must lie between the
 * head magic and the footer's tail, from at most cap bytes (fewer when
 * limit >= 0 says the thing there is that long, or the file ends before),
 * into head, walking it with on_field. *avail: the bytes from off to the
 * tail, or limit; *used: the struct's own bytes. */
static fk_status read_struct_at(const fk_parquet_file *pf, uint64_t off, int64_t limit, uint8_t *head, size_t cap,
                                fk_thrift_field_fn on_field, void *ctx, uint64_t *avail, size_t *used)
{
    if (off < 4 || off >= pf->size - PARQUET_TAIL_BYTES)
        return FK_ECORRUPT;
    *avail = pf->size - PARQUET_TAIL_BYTES - off;
    if (limit >= 0) {
        if ((uint64_t)limit > *avail)
            return FK_ECORRUPT;
        *avail = (uint64_t)limit;
    }
    size_t head_len = *avail < cap ? (size_t)*avail : cap;
    fk_status s = read_at(pf, off, head, head_len);
    if (s != FK_OK)
        return s;
    fk_thrift_reader r;
    fk_thrift_init(&r, head, head_len);
    if ((s = fk_thrift_struct(&r, on_field, ctx)) != FK_OK)
        return s;
    *used = head_len - fk_thrift_left(&r);
    return FK_OK;
}

/* One arm of a Thrift union whose only accepted arm is field 1, an empty
 * struct (SplitBlockAlgorithm, XxHash, Uncompressed). ctx: int, set to 1
 * for that arm. */
static fk_status union_arm_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    if (id == 1 && t == FK_THRIFT_STRUCT)
        *(int *)ctx = 1;
    return fk_thrift_skip(r, t);
}

typedef struct {
    int64_t num_bytes;
    int have;      /* bit id - 1 for each field seen */
    int supported; /* every union took its accepted arm */
} filter_header;

/* BloomFilterHeader: 1 numBytes, 2 algorithm, 3 hash, 4 compression. */
static fk_status filter_header_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    filter_header *h = ctx;
    fk_status s;
    if (id < 1 || id > 4)
        return fk_thrift_skip(r, t);
    h->have |= 1 << (id - 1);
    if (id == 1)
        return fk_thrift_int(r, t, &h->num_bytes);
    int ok = 0;
    if ((s = expect_type(t, FK_THRIFT_STRUCT)) != FK_OK || (s = fk_thrift_struct(r, union_arm_field, &ok)) != FK_OK)
        return s;
    h->supported &= ok;
    return FK_OK;
}

fk_status fk_parquet_chunk_filter(const fk_parquet_file *pf, uint64_t rg, uint64_t col, fk_filter **out)
{
    if (out)
        *out = NULL;
    const chunk_rec *c = chunk_at(pf, rg, col);
    if (!c || !out)
        return FK_EINVAL;
    if (c->bloom_offset < 0)
        return FK_ENOTFOUND;
    if (c->other_file)
        return FK_EUNSUPPORTED;
    filter_header h = { -1, 0, 1 };
    uint64_t avail;
    size_t used;
    uint8_t head[FK_PARQUET_FILTER_HEADER_MAX];
    fk_status s = read_struct_at(pf, (uint64_t)c->bloom_offset, c->bloom_length, head, sizeof head,
                                 filter_header_field, &h, &avail, &used);
    if (s != FK_OK)
        return s;
    if (h.have != 0xf)
        return FK_ECORRUPT; /* the four fields are required */
    if (!h.supported)
        return FK_EUNSUPPORTED;
    int64_t num_bytes = h.num_bytes;
    if (num_bytes < SBBF_MIN_BYTES || (uint64_t)num_bytes > SBBF_MAX_BYTES ||
        (num_bytes & (num_bytes - 1)) != 0 || (uint64_t)num_bytes > avail - used)
        return FK_ECORRUPT;
    void *bits = malloc((size_t)num_bytes);
    if (!bits)
        return FK_ENOMEM;
    s = read_at(pf, (uint64_t)c->bloom_offset + used, bits, (size_t)num_bytes);
    if (s == FK_OK)
        s = fk_blocked_from_sbbf(bits, (size_t)num_bytes, out);
    free(bits);
    return s;
}

/* DictionaryPageHeader: 1 num_values. */
static fk_status dictionary_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    return id == 1 ? fk_thrift_int(r, t, ctx) : fk_thrift_skip(r, t);
}

typedef struct {
    int64_t type, entries;
} page_header;

/* PageHeader: 1 type, 7 dictionary_page_header. */
static fk_status page_header_field(fk_thrift_reader *r, int16_t id, int t, void *ctx)
{
    page_header *h = ctx;
    if (id == 1)
        return fk_thrift_int(r, t, &h->type);
    if (id == 7 && t == FK_THRIFT_STRUCT)
        return fk_thrift_struct(r, dictionary_field, &h->entries);
    return fk_thrift_skip(r, t);
}

/* The entries of the chunk's dictionary page into *n: FK_OK, FK_ENOTFOUND
 * (no dictionary page), FK_ECORRUPT (a header that does not parse, or is
 * not a dictionary page's), FK_EIO. */
static fk_status dictionary_entries(const fk_parquet_file *pf, const chunk_rec *c, int64_t *n)
{
    /* offset 0 is the magic: some writers put 0 for "none" */
    if (c->dictionary_offset <= 0 || c->other_file)
        return FK_ENOTFOUND;
    page_header h = { -1, -1 };
    uint64_t avail;
    size_t used;
    uint8_t head[FK_PARQUET_PAGE_HEADER_MAX];
    fk_status s = read_struct_at(pf, (uint64_t)c->dictionary_offset, -1, head, sizeof head, page_header_field, &h,
                                 &avail, &used);
    if (s != FK_OK)
        return s;
    if (h.type != PAGE_TYPE_DICTIONARY || h.entries < 0)
        return FK_ECORRUPT;
    *n = h.entries;
    return FK_OK;
}

fk_status fk_parquet_chunk_info(const fk_parquet_file *pf, uint64_t rg, uint64_t col, fk_parquet_chunk *out)
{
    const chunk_rec *c = chunk_at(pf, rg, col);
    if (!c || !out)
        return FK_EINVAL;
    out->type = c->type;
    out->type_name = type_name(c->type);
    out->num_rows = pf->groups[rg].num_rows;
    out->num_values = c->num_values;
    out->distinct_count = c->distinct_count;
    out->bloom_filter_offset = c->bloom_offset;
    out->bloom_filter_length = c->bloom_length;
    out->dictionary_page_offset = c->dictionary_offset;
    fk_status s = dictionary_entries(pf, c, &out->dictionary_entries);
    if (s != FK_OK)
        out->dictionary_entries = -1;
    return s == FK_EIO ? FK_EIO : FK_OK;
}
