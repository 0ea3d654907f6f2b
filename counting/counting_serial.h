/* counting/counting_serial.h: saving a counting Bloom filter and loading it
 * back, on a buffer or a FILE * the caller opened. The same as
 * fk_filter_save / _load with &fk_counting_ops (common/serial.h has the
 * format and the full contract); the payload layout is in
 * counting/counting_serial.c.
 *
 *   uint64_t n; fk_counting_serialized_size(c, &n);
 *   fk_counting_save(c, buf, n, NULL);  ...  fk_counting_from_bytes(buf, n, &copy);
 */
#ifndef FK_COUNTING_SERIAL_H
#define FK_COUNTING_SERIAL_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdio.h>
#include "counting.h"
#include "../common/serial.h"

/* Bytes fk_counting_save writes: 128 + 8 * ceil(m * counter_bits / 64).
 * FK_OK, or FK_EINVAL for NULL arguments. Cost: O(1). */
FK_API fk_status fk_counting_serialized_size(const fk_counting *c, uint64_t *out);

/* Writes c to buf (cap bytes); *written (optional) gets the byte count.
 * FK_OK; FK_EINVAL for NULL c/buf or cap too small (nothing written).
 * Cost: O(m * counter_bits / 8). */
FK_API fk_status fk_counting_save(const fk_counting *c, void *buf, size_t cap, size_t *written);

/* Writes c to fp and flushes it. FK_OK; FK_EINVAL for NULL arguments;
 * FK_ENOMEM (staging buffer); FK_EIO when writing fails.
 * Cost: O(m * counter_bits / 8). */
FK_API fk_status fk_counting_save_file(const fk_counting *c, FILE *fp);

/* Builds a counting filter from exactly one saved counting filter in
 * buf[0..len). FK_OK with *out owned by the caller (fk_counting_free); FK_EINVAL for out
 * NULL or buf NULL with len > 0; FK_EUNSUPPORTED for a newer format version;
 * FK_ECORRUPT for bad bytes or another kind's file; FK_ENOMEM. *out is NULL
 * on error. The saturation count is recounted from the counters.
 * Cost: O(len). */
FK_API fk_status fk_counting_from_bytes(const void *buf, size_t len, fk_counting **out);

/* As fk_counting_from_bytes, reading fp from its position to its end; adds FK_EIO
 * for read errors. Cost: O(size). */
FK_API fk_status fk_counting_from_file(FILE *fp, fk_counting **out);

#ifdef __cplusplus
}
#endif

#endif
