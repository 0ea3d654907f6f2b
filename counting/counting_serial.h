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

/* The kind's number in the file header (common/serial.h); never reused. */
#define FK_KIND_COUNTING 2u

/* fk_counting_serialized_size, fk_counting_save, fk_counting_save_file, fk_counting_from_bytes,
 * fk_counting_from_file: the five calls of FK_SERIAL_DIRECT_DECLARE (common/serial.h
 * has their contracts), typed for fk_counting.
 * Bytes a saved counting filter takes: 128 + 8 * ceil(m * counter_bits /
 * 64). Saving and loading cost O(m * counter_bits / 8). On load the
 * saturation count is recounted from the counters. */
FK_SERIAL_DIRECT_DECLARE(fk_counting, fk_counting);

#ifdef __cplusplus
}
#endif

#endif
