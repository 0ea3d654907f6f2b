/* blocked/blocked_serial.h: saving a blocked filter and loading it back, on a
 * buffer or a FILE * the caller opened. The same as fk_filter_save / _load
 * with &fk_blocked_ops (common/serial.h has the format and the full
 * contract; kind id 4); the payload layout is in blocked/blocked_serial.c.
 *
 *   uint64_t n; fk_blocked_serialized_size(b, &n);
 *   fk_blocked_save(b, buf, n, NULL);  ...  fk_blocked_from_bytes(buf, n, &copy);
 */
#ifndef FK_BLOCKED_SERIAL_H
#define FK_BLOCKED_SERIAL_H

#include <stdio.h>
#include "blocked.h"
#include "../common/serial.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kind's id in saved files (reserved for it in common/serial.h). */
#define FK_KIND_BLOCKED 4u

/* Bytes fk_blocked_save writes: 128 + 32 * blocks. FK_OK, or FK_EINVAL for
 * NULL arguments. Cost: O(1). */
FK_API fk_status fk_blocked_serialized_size(const fk_blocked *b, uint64_t *out);

/* Writes b to buf (cap bytes); *written (optional) gets the byte count.
 * FK_OK; FK_EINVAL for NULL b/buf or cap too small (nothing written).
 * Cost: O(blocks). */
FK_API fk_status fk_blocked_save(const fk_blocked *b, void *buf, size_t cap, size_t *written);

/* Writes b to fp and flushes it. FK_OK; FK_EINVAL for NULL arguments;
 * FK_ENOMEM (staging buffer); FK_EIO when writing fails. Cost: O(blocks). */
FK_API fk_status fk_blocked_save_file(const fk_blocked *b, FILE *fp);

/* Builds a blocked filter from exactly one saved blocked filter in
 * buf[0..len). FK_OK with *out owned by the caller (fk_blocked_free);
 * FK_EINVAL for out NULL or buf NULL with len > 0; FK_EUNSUPPORTED for a
 * newer format version; FK_ECORRUPT for bad bytes or another kind's file;
 * FK_ENOMEM. *out is NULL on error. The loaded filter takes this machine's
 * fastest path. Cost: O(len). */
FK_API fk_status fk_blocked_from_bytes(const void *buf, size_t len, fk_blocked **out);

/* As fk_blocked_from_bytes, reading fp from its position to its end; adds
 * FK_EIO for read errors. Cost: O(size). */
FK_API fk_status fk_blocked_from_file(FILE *fp, fk_blocked **out);

#ifdef __cplusplus
}
#endif

#endif
