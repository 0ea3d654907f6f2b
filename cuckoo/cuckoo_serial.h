/* cuckoo/cuckoo_serial.h: saving a cuckoo filter and loading it back,
 * on a buffer or a FILE * the caller opened. The same as
 * fk_filter_save / _load with &fk_cuckoo_ops (common/serial.h has the
 * format and the full contract); the payload layout is in
 * cuckoo/cuckoo_serial.c.
 *
 *   uint64_t n; fk_cuckoo_serialized_size(c, &n);
 *   fk_cuckoo_save(c, buf, n, NULL);  ...  fk_cuckoo_from_bytes(buf, n, &copy);
 */
#ifndef FK_CUCKOO_SERIAL_H
#define FK_CUCKOO_SERIAL_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdio.h>
#include "cuckoo.h"
#include "../common/serial.h"

/* Bytes fk_cuckoo_save writes: 128 + ceil(buckets * 4f / 8).
 * FK_OK, or FK_EINVAL for NULL arguments. Cost: O(1). */
FK_API fk_status fk_cuckoo_serialized_size(const fk_cuckoo *c, uint64_t *out);

/* Writes c to buf (cap bytes); *written (optional) gets the byte count.
 * FK_OK; FK_EINVAL for NULL c/buf or cap too small (nothing written).
 * Cost: O(buckets * f / 2). */
FK_API fk_status fk_cuckoo_save(const fk_cuckoo *c, void *buf, size_t cap, size_t *written);

/* Writes c to fp and flushes it. FK_OK; FK_EINVAL for NULL arguments;
 * FK_ENOMEM (staging buffer); FK_EIO when writing fails.
 * Cost: O(buckets * f / 2). */
FK_API fk_status fk_cuckoo_save_file(const fk_cuckoo *c, FILE *fp);

/* Builds a cuckoo filter from exactly one saved cuckoo filter in
 * buf[0..len). FK_OK with *out owned by the caller (fk_cuckoo_free); FK_EINVAL for out
 * NULL or buf NULL with len > 0; FK_EUNSUPPORTED for a newer format version;
 * FK_ECORRUPT for bad bytes or another kind's file; FK_ENOMEM. *out is NULL
 * on error. The kick PRNG state is restored, so inserts continue as they would have.
 * Cost: O(len). */
FK_API fk_status fk_cuckoo_from_bytes(const void *buf, size_t len, fk_cuckoo **out);

/* As fk_cuckoo_from_bytes, reading fp from its position to its end; adds FK_EIO
 * for read errors. Cost: O(size). */
FK_API fk_status fk_cuckoo_from_file(FILE *fp, fk_cuckoo **out);

#ifdef __cplusplus
}
#endif

#endif
