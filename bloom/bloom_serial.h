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

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_BLOOM 1u

/* fk_bloom_serialized_size, fk_bloom_save, fk_bloom_save_file, fk_bloom_from_bytes,
 * fk_bloom_from_file: the five calls of FK_SERIAL_DIRECT_DECLARE (common/serial.h
 * has their contracts), typed for fk_bloom.
 * Bytes a saved Bloom filter takes: 128 + 8 * ceil(m/64). Saving and
 * loading cost O(m/8). */
FK_SERIAL_DIRECT_DECLARE(fk_bloom, fk_bloom);

#ifdef __cplusplus
}
#endif

#endif
