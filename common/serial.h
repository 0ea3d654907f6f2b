/* common/serial.h: saving filters to bytes and loading them back.
 *
 * Any kind whose fk_ops has a serial table (FK_CAP_SERIALIZE) can be written to a buffer or
 * to a FILE * the caller opened, and read back on any machine: the format is
 * little-endian, written field by field (never a struct dump), so the reader
 * depends neither on the host's byte order nor on alignment. The library
 * opens no files itself.
 *
 *   uint64_t n;  fk_filter_serialized_size(f, &n);
 *   void *buf = malloc(n);  fk_filter_save(f, buf, n, NULL);
 *   fk_filter *g;  fk_filter_load(&fk_bloom_ops, buf, n, &g);  // or
 *   fk_filter_load_any(buf, n, &g);          // registry/registry.h
 *
 * ## File format (version 1)
 *
 * All integers little-endian; offsets in bytes.
 *
 *   off  size  field
 *     0     8  magic 89 46 4B 46 0D 0A 1A 0A ("\x89FKF\r\n\x1a\n": the high
 *              byte and CR/LF catch 7-bit and text-mode transfers, as in PNG)
 *     8     2  format version (1)
 *    10     2  version XOR FK_SERIAL_VERSION_CHECK (0x5AA4 for version 1):
 *              a damaged, shifted or truncated version field reads as
 *              corrupt, never as "newer"
 *    12     2  kind id (fk_serial_ops.kind_id: each kind owns its
 *              number; registry/README.md lists them)
 *    14     2  hashing scheme id (FK_HASH_SCHEME_XXH3_128 = 1 for every
 *              kind; FK_HASH_SCHEME_PARQUET_XXH64 = 2, a blocked filter
 *              with Parquet's hashing, accepted by that kind alone)
 *    16     8  seed
 *    24     8  capacity (items the filter was sized for, > 0)
 *    32     8  target false-positive rate, IEEE-754 binary64 bits, in (0,1)
 *    40     8  item count (stats.items)
 *    48    64  8 kind parameters, u64 each (meaning per kind, see the kind's
 *              *_serial.c; unused ones are 0)
 *   112     8  payload length L in bytes
 *   120     L  payload (the kind's body, see the kind's *_serial.c)
 * 120+L     8  XXH64 (seed 0) of bytes [0, 120+L)
 *
 * Total 128 + L bytes; a saved filter is one such record and nothing else.
 * Any change to the layout or to how keys map to bits bumps the version.
 *
 * Loading validates before allocating: the magic, the version (newer than
 * FK_SERIAL_VERSION -> FK_EUNSUPPORTED), the exact total length, the
 * checksum, the kind, the hashing scheme, capacity and fpr, every kind
 * parameter's range, that the payload length is exactly what the parameters
 * imply, and FK_MEMORY_CAP. Only then is the filter allocated; the payload's
 * content is checked as it is read (e.g. unused bits are zero). Any mismatch
 * is FK_ECORRUPT and leaves nothing allocated.
 */
#ifndef FK_SERIAL_H
#define FK_SERIAL_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "filter.h"

#define FK_SERIAL_VERSION       1u
/* The version's check word is version ^ this. Not a plain complement: with
 * ~version, inserting 0xFF before the version field shifts it into another
 * valid (version, ~version) pair (0x01FF) and reads as "newer". This
 * constant was chosen so that no single inserted, deleted or replaced byte
 * in the first 12 bytes of a version-1 file forms a valid newer pair
 * (checked exhaustively; tests/test_serial.c inserts every byte value). */
#define FK_SERIAL_VERSION_CHECK 0x5AA5u
#define FK_SERIAL_MAGIC         "\x89" "FKF\r\n\x1a\n"
#define FK_SERIAL_MAGIC_BYTES   8u
#define FK_SERIAL_HEADER_BYTES  120u /* everything before the payload */
#define FK_SERIAL_TRAILER_BYTES 8u   /* the checksum */
#define FK_SERIAL_PARAMS        8u   /* kind parameter slots */

/* The header of a saved filter, decoded (an in-memory view only; it is
 * never written as a struct). */
struct fk_serial_head {
    uint32_t version;
    uint32_t kind_id;
    uint32_t hash_scheme;
    uint64_t seed;
    uint64_t capacity;
    double   fpr;
    uint64_t items;
    uint64_t param[FK_SERIAL_PARAMS];
    uint64_t payload_len;
};

/* Where fk_serial_ops.stream_payload sends the payload: takes the n bytes
 * at bytes (any n, 0 included); returns false when they could not be
 * written, and the save stops. */
typedef bool (*fk_serial_put)(void *ctx, const void *bytes, size_t n);

/* ------------------------------------------------- the kind's hooks
 * (fk_ops.serial; called only by the functions below, never by users)
 *
 * A kind that saves points fk_ops.serial at one static const table;
 * fk_ops_check rejects a table with a hook or the kind id missing. */
struct fk_serial_ops {
    /* The kind's number in the file header, nonzero and never reused; the
     * kind defines it in its own header (FK_KIND_BLOOM in bloom/bloom.h). */
    uint32_t kind_id;
    /* What param[i] means, for tools that describe a file (`filterkit
     * info`); NULL past the last used one. */
    const char *param_names[FK_SERIAL_PARAMS];
    /* Fills seed, capacity, fpr, items, param[] and payload_len (h arrives
     * zeroed; version and kind are filled by the caller, and so is
     * hash_scheme, FK_HASH_SCHEME_XXH3_128, where save_head leaves it 0: a
     * kind with a second scheme sets it for a filter hashing that way). */
    void (*save_head)(const fk_filter *f, fk_serial_head *h);
    /* Writes exactly h->payload_len bytes at dst. */
    void (*save_payload)(const fk_filter *f, uint8_t *dst);
    /* h's common fields are already valid (capacity > 0, fpr in (0,1), kind
     * match, scheme FK_HASH_SCHEME_XXH3_128 or second_hash_scheme). Checks every param[] range, that unused params are
     * 0, that payload_len is exactly what the params imply and that the
     * filter fits FK_MEMORY_CAP. Returns FK_OK or FK_ECORRUPT. Must not
     * allocate. */
    fk_status (*check_head)(const fk_serial_head *h);
    /* h passed check_head; payload holds h->payload_len bytes. Builds the
     * filter, checking the payload's content. Returns FK_OK, FK_ECORRUPT
     * (nothing leaked, *out NULL) or FK_ENOMEM. */
    fk_status (*load)(const fk_serial_head *h, const uint8_t *payload, fk_filter **out);
    /* Optional (NULL: fk_filter_save_file stages the record in a buffer of
     * its size, through save_payload; appended last, so tables written
     * before it leave it NULL). Passes the bytes save_payload writes, in
     * order, to put, in pieces of any size: a table whose memory has the
     * file's layout on this host goes out as it lies, one that converts goes
     * through a small scratch buffer, so saving to a file needs no second
     * copy of the filter. Returns false as soon as put does, else true. */
    bool (*stream_payload)(const fk_filter *f, fk_serial_put put, void *ctx);
    /* Optional (0: none; appended last): a hashing scheme id (common/hash.h)
     * the kind accepts on load besides FK_HASH_SCHEME_XXH3_128; the blocked
     * kind's is FK_HASH_SCHEME_PARQUET_XXH64. Any other id is FK_ECORRUPT. */
    uint32_t second_hash_scheme;
};

/* ------------------------------------------------------------ saving */

/* Stores in *out the number of bytes fk_filter_save writes for f.
 * Returns FK_OK; FK_EINVAL for f or out NULL; FK_EUNSUPPORTED when f's kind
 * cannot serialize. Cost: O(1). */
FK_API fk_status fk_filter_serialized_size(const fk_filter *f, uint64_t *out);

/* Writes f into buf (cap bytes available) in the format above and, when
 * written is not NULL, stores the byte count there. Returns FK_OK;
 * FK_EINVAL for f NULL, buf NULL, or cap smaller than
 * fk_filter_serialized_size (nothing written); FK_EUNSUPPORTED when f's kind
 * cannot serialize. The bytes depend only on the filter's content, never on
 * the host. Cost: O(size of the filter). */
FK_API fk_status fk_filter_save(const fk_filter *f, void *buf, size_t cap, size_t *written);

/* Writes f to fp (opened for writing in binary mode by the caller, who also
 * closes it) at its current position, then flushes it. Returns FK_OK;
 * FK_EINVAL for NULL arguments; FK_EUNSUPPORTED as fk_filter_save;
 * FK_ENOMEM when a kind without stream_payload cannot have its staging
 * buffer; FK_EIO when a write or the flush fails (the stream holds a
 * partial record). Cost: O(size); streams the record (checksum computed as
 * it goes), so it allocates nothing for the kinds with stream_payload
 * (every built-in kind); others stage it in one buffer of its size. */
FK_API fk_status fk_filter_save_file(const fk_filter *f, FILE *fp);

/* ----------------------------------------------------------- loading */

/* Builds a filter of kind ops from the len bytes at buf, which must hold
 * exactly one saved filter (trailing bytes are corruption). Returns FK_OK
 * with a new filter in *out (the caller frees it with fk_filter_free);
 * FK_EINVAL for ops or out NULL, or buf NULL with len > 0;
 * FK_EUNSUPPORTED when ops cannot serialize or the format version is newer
 * than FK_SERIAL_VERSION; FK_ECORRUPT for anything else wrong with the bytes
 * (including a file of another kind); FK_ENOMEM when allocation fails.
 * *out is NULL on error and nothing is leaked. buf needs no alignment.
 * Cost: O(len): one checksum pass and one copy. */
FK_API fk_status fk_filter_load(const fk_ops *ops, const void *buf, size_t len, fk_filter **out);

/* As fk_filter_load, reading from fp (opened for reading in binary mode by
 * the caller, who closes it) from its current position to its end: the
 * stream must hold exactly one saved filter. The header is read and
 * validated before anything is allocated. Returns the statuses of
 * fk_filter_load (a short read is FK_ECORRUPT), plus FK_EIO when reading
 * fails. Cost: O(size); holds the record in one temporary buffer that grows
 * as bytes arrive, so a short file claiming a huge payload costs at most
 * about twice its real size. */
FK_API fk_status fk_filter_load_file(const fk_ops *ops, FILE *fp, fk_filter **out);

/* Decodes the header of a saved filter (the first bytes of buf, len bytes
 * available) into *out, for tools that describe a file: checks only the
 * magic, the version and that the header is complete -- not the checksum,
 * the kind or its parameters (fk_filter_load checks those). Returns FK_OK;
 * FK_EINVAL for buf or out NULL; FK_EUNSUPPORTED for a newer version;
 * FK_ECORRUPT otherwise. Cost: O(1). */
FK_API fk_status fk_serial_read_head(const void *buf, size_t len, fk_serial_head *out);

/* ------------------------------------- a kind's direct save/load API
 *
 * Each kind T with ops table OPS offers, under its own prefix, the buffer
 * calls above typed for T (bloom/bloom.h: fk_bloom_save, ...), so that
 * `save` and `load` mean the same in every kind.
 * FK_SERIAL_DIRECT_DECLARE(T, prefix) declares them and
 * FK_SERIAL_DIRECT_DEFINE(T, prefix, OPS) defines them as forwards, so
 * every kind's are the same calls with the same contracts:
 *
 *   prefix_save(const T *x, void *buf, size_t cap, size_t *written)
 *       as fk_filter_save
 *   prefix_load(const void *buf, size_t len, T **out)
 *       as fk_filter_load(&OPS, ...): another kind's file is FK_ECORRUPT
 *
 * The size to allocate is fk_filter_serialized_size(prefix_as_filter(x),
 * &n) (or the kind's formula in its header).
 * For a FILE *, use fk_filter_save_file(prefix_as_filter(x), fp) and
 * fk_filter_load_file(&OPS, fp, &f). T's first member must be
 * `fk_filter base`. */
#define FK_SERIAL_DIRECT_DECLARE(T, prefix)                                               \
    FK_API fk_status prefix##_save(const T *x, void *buf, size_t cap, size_t *written);   \
    FK_API fk_status prefix##_load(const void *buf, size_t len, T **out)

#define FK_SERIAL_DIRECT_DEFINE(T, prefix, OPS)                                           \
    fk_status prefix##_save(const T *x, void *buf, size_t cap, size_t *written)           \
    {                                                                                     \
        return fk_filter_save(x ? &x->base : NULL, buf, cap, written);                    \
    }                                                                                     \
    fk_status prefix##_load(const void *buf, size_t len, T **out)                         \
    {                                                                                     \
        fk_filter *f = NULL;                                                              \
        fk_status s = fk_filter_load(&(OPS), buf, len, out ? &f : NULL);                  \
        if (out)                                                                          \
            *out = (T *)f;                                                                \
        return s;                                                                         \
    }

/* The registry's loaders and the kinds' streaming helpers are internal:
 * common/serial_internal.h. */

#ifdef __cplusplus
}
#endif

#endif
