/* bloom/bloom_serial.h: saving a Bloom filter and loading it back, on a
 * buffer or a FILE * the caller opened. The same as fk_filter_save / _load
 * with &fk_bloom_ops (common/serial.h has the format and the full contract);
 * the layout of the Bloom payload is in bloom/bloom_serial.c.
 *
 *   uint64_t n; fk_bloom_serialized_size(b, &n);
 *   fk_bloom_save(b, buf, n, NULL);  ...  fk_bloom_from_bytes(buf, n, &copy);
 */
#ifndef FK_BLOOM_SERIAL_H
#define FK_BLOOM_SERIAL_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdio.h>
#include "bloom.h"
#include "../common/serial.h"

/* Bytes fk_bloom_save writes: 128 + 8 * ceil(m/64). FK_OK, or FK_EINVAL for
 * NULL arguments. Cost: O(1). */
FK_API fk_status fk_bloom_serialized_size(const fk_bloom *b, uint64_t *out);

/* Writes b to buf (cap bytes); *written (optional) gets the byte count.
 * FK_OK; FK_EINVAL for NULL b/buf or cap too small (nothing written).
 * Cost: O(m/8). */
FK_API fk_status fk_bloom_save(const fk_bloom *b, void *buf, size_t cap, size_t *written);

/* Writes b to fp and flushes it. FK_OK; FK_EINVAL for NULL arguments;
 * FK_ENOMEM (staging buffer); FK_EIO when writing fails. Cost: O(m/8). */
FK_API fk_status fk_bloom_save_file(const fk_bloom *b, FILE *fp);

/* Builds a Bloom filter from exactly one saved Bloom filter in buf[0..len).
 * FK_OK with *out owned by the caller (fk_bloom_free); FK_EINVAL for out
 * NULL or buf NULL with len > 0; FK_EUNSUPPORTED for a newer format version;
 * FK_ECORRUPT for bad bytes or another kind's file; FK_ENOMEM. *out is NULL
 * on error. Cost: O(len). */
FK_API fk_status fk_bloom_from_bytes(const void *buf, size_t len, fk_bloom **out);

/* As fk_bloom_from_bytes, reading fp from its position to its end; adds FK_EIO
 * for read errors. Cost: O(size). */
FK_API fk_status fk_bloom_from_file(FILE *fp, fk_bloom **out);

#ifdef __cplusplus
}
#endif

#endif
