/* parquet/thrift_compact.h: a reader for the Thrift compact protocol, the
 * subset Parquet's footer and Bloom filter header use. Internal header.
 *
 * The reader walks a byte range it borrows and never reads past it: every
 * varint, length and count is checked against the bytes that remain, and
 * structs and containers nest at most FK_THRIFT_DEPTH_MAX deep, so bytes of
 * any content end in FK_OK or FK_ECORRUPT (never a crash, never an
 * allocation: the reader allocates nothing). A count of n elements is
 * accepted only when n <= the bytes that remain (every element takes at
 * least one byte), so a caller that sizes an array from a count allocates
 * no more than a small multiple of the input's length. */
#ifndef FK_PARQUET_THRIFT_COMPACT_H
#define FK_PARQUET_THRIFT_COMPACT_H

#include <stddef.h>
#include <stdint.h>
#include "../common/status.h"

/* Deepest nesting of structs, lists, sets and maps the reader follows;
 * Parquet's footer nests 5 deep (FileMetaData > RowGroup > ColumnChunk >
 * ColumnMetaData > Statistics), logical types one or two more. */
#define FK_THRIFT_DEPTH_MAX 32

/* Compact protocol element types (the low nibble of a field header). */
enum {
    FK_THRIFT_STOP = 0,
    FK_THRIFT_TRUE = 1,   /* a bool field's value rides in its type */
    FK_THRIFT_FALSE = 2,
    FK_THRIFT_BYTE = 3,
    FK_THRIFT_I16 = 4,
    FK_THRIFT_I32 = 5,
    FK_THRIFT_I64 = 6,
    FK_THRIFT_DOUBLE = 7,
    FK_THRIFT_BINARY = 8,
    FK_THRIFT_LIST = 9,
    FK_THRIFT_SET = 10,
    FK_THRIFT_MAP = 11,
    FK_THRIFT_STRUCT = 12,
    FK_THRIFT_UUID = 13
};

typedef struct {
    const uint8_t *p;    /* next byte */
    const uint8_t *end;  /* one past the last byte */
    unsigned depth;      /* structs and containers entered now */
} fk_thrift_reader;

static inline void fk_thrift_init(fk_thrift_reader *r, const void *bytes, size_t len)
{
    r->p = (const uint8_t *)bytes;
    r->end = r->p + len;
    r->depth = 0;
}

/* Bytes left to read. */
static inline size_t fk_thrift_left(const fk_thrift_reader *r)
{
    return (size_t)(r->end - r->p);
}

/* A struct's fields: call fk_thrift_struct_begin, then fk_thrift_field until
 * it gives type FK_THRIFT_STOP, reading or skipping each field's value, then
 * fk_thrift_struct_end. *last_id carries the previous field's id (start at
 * 0) for the compact protocol's id deltas. */
fk_status fk_thrift_struct_begin(fk_thrift_reader *r);
void fk_thrift_struct_end(fk_thrift_reader *r);
fk_status fk_thrift_field(fk_thrift_reader *r, int16_t *last_id, int *type, int16_t *id);

/* A struct's fields, walked: begins it, calls on_field(r, id, type, ctx)
 * for each field until STOP (on_field reads or skips the field's value and
 * returns FK_OK to go on), and ends it. Returns FK_OK, the first status
 * that is not FK_OK from on_field, or FK_ECORRUPT. */
typedef fk_status (*fk_thrift_field_fn)(fk_thrift_reader *r, int16_t id, int type, void *ctx);
fk_status fk_thrift_struct(fk_thrift_reader *r, fk_thrift_field_fn on_field, void *ctx);

/* Values. Each returns FK_OK, or FK_ECORRUPT for bytes that end early or
 * do not encode such a value (a varint longer than its type, an i32 out of
 * range). fk_thrift_int reads BYTE, I16, I32 or I64 by `type` into a
 * 64-bit integer (a field may be widened by a later schema). */
fk_status fk_thrift_int(fk_thrift_reader *r, int type, int64_t *out);
/* A binary/string: *bytes points into the input (borrowed), *len <= left. */
fk_status fk_thrift_binary(fk_thrift_reader *r, const uint8_t **bytes, size_t *len);
/* A list or set header: element type and count (count <= bytes left).
 * Enters one level (FK_ECORRUPT past FK_THRIFT_DEPTH_MAX); the caller reads
 * `count` elements, then calls fk_thrift_container_end. */
fk_status fk_thrift_list_begin(fk_thrift_reader *r, int *elem_type, uint64_t *count);
void fk_thrift_container_end(fk_thrift_reader *r);
/* Skips one value of `type` (any depth up to the cap). */
fk_status fk_thrift_skip(fk_thrift_reader *r, int type);

#endif
