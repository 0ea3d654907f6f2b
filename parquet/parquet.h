/* parquet/parquet.h: reading Parquet files' split-block Bloom filters.
 *
 * A Parquet file ends with its footer: a Thrift compact-protocol
 * FileMetaData, its 4-byte little-endian length and the magic "PAR1" (which
 * also opens the file). The footer lists the row groups; each holds one
 * column chunk per leaf column, and a chunk's metadata may point at a Bloom
 * filter (bloom_filter_offset, bloom_filter_length): a Thrift
 * BloomFilterHeader (numBytes, algorithm BLOCK, hash XXHASH, compression
 * UNCOMPRESSED) followed by the bitset. This module reads the footer and
 * hands each chunk's filter out as a blocked filter with the Parquet
 * hashing scheme (blocked/blocked.h, fk_blocked_from_sbbf): probe it with
 * fk_filter_contains over a value's PLAIN encoding (parquet_value.h makes
 * one from text) and it answers exactly as the file's writer and readers do.
 *
 *   fk_parquet_file *pf;
 *   if (fk_parquet_open(read_at, ctx, file_size, &pf) != FK_OK) ...;
 *   uint64_t col, groups;
 *   if (fk_parquet_column_find(pf, "id", &col) != FK_OK) ...;
 *   fk_parquet_shape(pf, &groups, NULL);
 *   for (uint64_t rg = 0; rg < groups; rg++) {
 *       fk_filter *f;
 *       if (fk_parquet_chunk_filter(pf, rg, col, &f) == FK_OK) {
 *           int32_t v = 42;   // an INT32 column: 4 little-endian bytes
 *           if (fk_filter_contains(f, &v, 4)) ...;   // row group may hold 42
 *           fk_filter_free(f);
 *       }
 *   }
 *   fk_parquet_close(pf);
 *
 * The library opens no files: it reads through a callback the caller gives
 * (over a descriptor with pread, over bytes in memory with memcpy).
 *
 * Hostile input: every length, count and offset in the file is checked
 * against the bytes that remain and the caps below before it is used, the
 * Thrift reader nests at most FK_THRIFT_DEPTH_MAX (32) deep, and every
 * allocation is bounded by the caps, so any bytes give FK_OK or a named
 * status, never a crash or an unbounded allocation (tests/test_parquet.c,
 * tests/fuzz/fuzz_parquet_footer.c). Statuses used throughout:
 *   FK_ECORRUPT      not Parquet, truncated, or a footer or filter header
 *                    that contradicts itself or the file (a length past
 *                    the end, a count larger than the bytes holding it, a
 *                    schema whose leaves do not match the row groups);
 *   FK_EUNSUPPORTED  Parquet this module does not read: an encrypted
 *                    footer ("PARE"), a chunk stored in another file, a
 *                    filter of another algorithm, hash or compression;
 *   FK_ELIMIT        a footer over FK_PARQUET_FOOTER_MAX bytes, more than
 *                    FK_PARQUET_CHUNKS_MAX row groups, schema elements or
 *                    column chunks, or a schema nested deeper than
 *                    FK_PARQUET_SCHEMA_DEPTH_MAX;
 *   FK_EIO           the read callback failed;
 *   FK_ENOMEM        an allocation failed;
 *   FK_EINVAL        a NULL argument, an index out of range.
 *
 * Link: build/libfk_parquet.a build/libfk_blocked.a build/libfk_common.a -lm.
 * Thread safety: an open file is read-only after fk_parquet_open returns;
 * every call below but fk_parquet_close may run at once on one file from
 * many threads if the read callback may (pread's and memcpy's may).
 */
#ifndef FK_PARQUET_H
#define FK_PARQUET_H

#include <stddef.h>
#include <stdint.h>
#include "../common/filter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest footer read (FileMetaData bytes): 64 MiB, ample for
 * thousands of columns times thousands of row groups. */
#define FK_PARQUET_FOOTER_MAX (UINT64_C(64) << 20)
/* Most column chunks (row groups x leaf columns) one file may have. */
#define FK_PARQUET_CHUNKS_MAX (UINT64_C(1) << 22)
/* The largest Bloom filter header read, in bytes (a real one has 15). */
#define FK_PARQUET_FILTER_HEADER_MAX 256u
/* The most bytes read for a dictionary page's header (a longer one reads
 * as no dictionary). */
#define FK_PARQUET_PAGE_HEADER_MAX 1024u
/* The deepest schema (nested groups) read. */
#define FK_PARQUET_SCHEMA_DEPTH_MAX 64u

/* Parquet's physical types, numbered as the format numbers them. */
typedef enum {
    FK_PARQUET_BOOLEAN = 0,
    FK_PARQUET_INT32 = 1,
    FK_PARQUET_INT64 = 2,
    FK_PARQUET_INT96 = 3,
    FK_PARQUET_FLOAT = 4,
    FK_PARQUET_DOUBLE = 5,
    FK_PARQUET_BYTE_ARRAY = 6,
    FK_PARQUET_FIXED_LEN_BYTE_ARRAY = 7
} fk_parquet_physical_type;

/* Reads exactly len bytes at offset of the file into buf; returns 0 on
 * success, nonzero on failure (the open or filter call returns FK_EIO).
 * The library calls it with offset + len <= the file size it was given. */
typedef int (*fk_parquet_read_fn)(void *ctx, uint64_t offset, void *buf, size_t len);

typedef struct fk_parquet_file fk_parquet_file;

/* Opens a Parquet file of file_size bytes read through read(ctx, ...):
 * checks both magics, reads the footer and parses the schema and every
 * row group's column chunks (no filter is read yet). read and ctx must stay
 * valid until fk_parquet_close. Returns FK_OK with *out (caller closes it
 * with fk_parquet_close); FK_EINVAL for NULL read or out; FK_ECORRUPT,
 * FK_EUNSUPPORTED, FK_ELIMIT, FK_EIO, FK_ENOMEM as above. *out is NULL on
 * error. Cost: two reads (the 8-byte tail, the footer), one pass over the
 * footer; memory: the footer's bytes while parsing, then about 64 bytes per
 * column chunk plus the schema's names. */
FK_API fk_status fk_parquet_open(fk_parquet_read_fn read, void *ctx, uint64_t file_size,
                                 fk_parquet_file **out);

/* Releases pf (not the callback's context or a buffer). NULL is a no-op. */
FK_API void fk_parquet_close(fk_parquet_file *pf);

/* The file's row groups and leaf columns into *row_groups and *columns
 * (either may be NULL); each row group has one chunk per leaf column, in
 * schema order. Both 0 for NULL pf. Cost: O(1). */
FK_API void fk_parquet_shape(const fk_parquet_file *pf, uint64_t *row_groups, uint64_t *columns);

/* The dotted path of leaf column col ("a.b.c": the names from the root's
 * child down to the leaf, as path_in_schema), written NUL-terminated into
 * buf (cut short to len - 1 bytes when longer). Returns the full path's
 * length in bytes (as snprintf), 0 for NULL pf or col out of range. */
FK_API size_t fk_parquet_column_path(const fk_parquet_file *pf, uint64_t col, char *buf, size_t len);

/* The leaf column whose dotted path is `path` into *col (the first, when
 * names holding '.' make two paths alike; a name holding a NUL byte cannot
 * be asked for). Returns FK_OK, FK_ENOTFOUND when none has it, FK_EINVAL
 * for NULL arguments. Cost: O(columns x path length). */
FK_API fk_status fk_parquet_column_find(const fk_parquet_file *pf, const char *path, uint64_t *col);

/* What the footer says of one column chunk. Values the footer leaves out
 * are -1. */
typedef struct {
    int      type;                   /* fk_parquet_physical_type of the column */
    const char *type_name;           /* the format's name of it: "INT32", ... (static) */
    int64_t  num_rows;               /* rows in the row group */
    int64_t  num_values;             /* values in the chunk (nulls included) */
    int64_t  distinct_count;         /* statistics.distinct_count, or -1 */
    int64_t  bloom_filter_offset;    /* or -1: the chunk has no filter */
    int64_t  bloom_filter_length;    /* header + bitset bytes, or -1 (older writers) */
    int64_t  dictionary_page_offset; /* or -1 */
    int64_t  dictionary_entries;     /* the dictionary page's num_values (the
                                        chunk's distinct values, nulls left out),
                                        or -1: no dictionary page, or a page
                                        header that does not parse */
} fk_parquet_chunk;

/* Fills *out for row group rg, column col. Returns FK_OK, FK_EINVAL for
 * NULL arguments or an index out of range; FK_EIO when the read callback
 * fails reading the dictionary page's header. Cost: O(1) and, for a chunk
 * with a dictionary page, one read of at most FK_PARQUET_PAGE_HEADER_MAX
 * bytes (no allocation). */
FK_API fk_status fk_parquet_chunk_info(const fk_parquet_file *pf, uint64_t rg, uint64_t col,
                                       fk_parquet_chunk *out);

/* The chunk's Bloom filter as a Parquet-scheme blocked filter (a copy of
 * the bitset: fk_blocked_from_sbbf), into *out; the caller frees it with
 * fk_filter_free. Returns FK_OK; FK_ENOTFOUND when the chunk has no filter;
 * FK_EUNSUPPORTED for a filter that is not BLOCK / XXHASH / UNCOMPRESSED
 * or a chunk in another file; FK_ECORRUPT for a header that does not parse,
 * a size that is not a power of two in [32 B, 128 MiB] or a filter past the
 * file's end or its stated length; FK_EIO; FK_ENOMEM; FK_EINVAL for NULL
 * arguments or indexes out of range. *out is NULL on error. Cost: two
 * reads (header, bitset), the bitset's bytes allocated twice while copying. */
FK_API fk_status fk_parquet_chunk_filter(const fk_parquet_file *pf, uint64_t rg, uint64_t col,
                                         fk_filter **out);

#ifdef __cplusplus
}
#endif

#endif
