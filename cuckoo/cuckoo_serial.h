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

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_CUCKOO 3u

/* fk_cuckoo_serialized_size, fk_cuckoo_save, fk_cuckoo_save_file, fk_cuckoo_from_bytes,
 * fk_cuckoo_from_file: the five calls of FK_SERIAL_DIRECT_DECLARE (common/serial.h
 * has their contracts), typed for fk_cuckoo.
 * Bytes a saved cuckoo filter takes: 128 + ceil(buckets * 4f / 8).
 * Saving and loading cost O(buckets * f / 2). On load the kick PRNG state
 * is restored, so inserts continue as they would have. */
FK_SERIAL_DIRECT_DECLARE(fk_cuckoo, fk_cuckoo);

#ifdef __cplusplus
}
#endif

#endif
