/* common/serial_internal.h: the file format's internal calls, for the
 * registry (the loaders behind fk_filter_load*) and the kinds' serial
 * hooks (streaming words). Not installed, not exported: the public calls
 * are in serial.h. */
#ifndef FK_SERIAL_INTERNAL_H
#define FK_SERIAL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "serial.h"

/* The loaders behind the four above: the kind is ops when ops is not NULL,
 * else lookup(decoded header) (the header's fields not yet validated).
 * Not part of the public API. */
typedef const fk_ops *(*fk_serial_lookup)(const fk_serial_head *h);
fk_status fk_serial_load(const fk_ops *ops, fk_serial_lookup lookup,
                         const void *buf, size_t len, fk_filter **out);
fk_status fk_serial_load_file(const fk_ops *ops, fk_serial_lookup lookup,
                              FILE *fp, fk_filter **out);

/* Writes f's whole record (header, payload, checksum: the bytes
 * fk_filter_save writes) through put: streamed when f's kind has
 * stream_payload, else staged in one buffer. For fk_filter_save_file and
 * kinds whose payload holds other records (a scalable chain's links).
 * Returns FK_OK; FK_EINVAL for f or put NULL; FK_EUNSUPPORTED when f's kind
 * cannot serialize; FK_ENOMEM (staging); FK_EIO when put fails. */
fk_status fk_serial_stream(const fk_filter *f, fk_serial_put put, void *ctx);

/* For stream_payload hooks: n words as the file has them (little-endian),
 * straight from memory on a little-endian host, else through a small
 * scratch buffer. Return put's verdict. */
bool fk_serial_put_le64(fk_serial_put put, void *ctx, const uint64_t *w, uint64_t n);
bool fk_serial_put_le32(fk_serial_put put, void *ctx, const uint32_t *w, uint64_t n);

#endif
