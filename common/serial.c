/* common/serial.c: the framing of saved filters (header, checksum) and the
 * generic save/load entry points; each kind supplies its parameters and
 * payload through its fk_ops hooks. Format: see serial.h. */
#include <stdlib.h>
#include <string.h>
#include "serial_internal.h"
#include "endian.h"
#include "hash.h"

/* Offsets of the header fields (serial.h has the table). */
enum {
    OFF_MAGIC = 0,
    OFF_VERSION = 8,
    OFF_VERSION_CHECK = 10,
    OFF_KIND = 12,
    OFF_SCHEME = 14,
    OFF_SEED = 16,
    OFF_CAPACITY = 24,
    OFF_FPR = 32,
    OFF_ITEMS = 40,
    OFF_PARAMS = 48,
    OFF_PAYLOAD_LEN = 112,
    OFF_PAYLOAD = FK_SERIAL_HEADER_BYTES,
    PREFIX_BYTES = 12 /* magic + version pair: stable across all versions */
};

_Static_assert(OFF_PARAMS + 8 * FK_SERIAL_PARAMS == OFF_PAYLOAD_LEN, "header layout");
_Static_assert(OFF_PAYLOAD_LEN + 8 == FK_SERIAL_HEADER_BYTES, "header layout");

#define OVERHEAD (FK_SERIAL_HEADER_BYTES + FK_SERIAL_TRAILER_BYTES)
#define CHECKSUM_SEED 0u
#define READ_CHUNK ((size_t)1 << 20) /* first read buffer for files */

static bool can_serialize(const fk_ops *ops)
{
    return fk_ops_check(ops) == FK_OK && ops->serial;
}

/* ------------------------------------------------------------ saving */

/* Fills h for f; false when f's kind cannot serialize. */
static bool head_of(const fk_filter *f, fk_serial_head *h)
{
    if (!can_serialize(f->ops))
        return false;
    memset(h, 0, sizeof *h);
    f->ops->serial->save_head(f, h);
    /* a kind names its second scheme for a filter hashing that way; the
     * rest (whose save_head may assign the whole head) leave it 0 */
    if (h->hash_scheme == 0)
        h->hash_scheme = FK_HASH_SCHEME_XXH3_128;
    h->version = FK_SERIAL_VERSION;
    h->kind_id = f->ops->serial->kind_id;
    return true;
}

static void put_head(uint8_t *p, const fk_serial_head *h)
{
    memcpy(p + OFF_MAGIC, FK_SERIAL_MAGIC, FK_SERIAL_MAGIC_BYTES);
    fk_le_put16(p + OFF_VERSION, (uint16_t)h->version);
    fk_le_put16(p + OFF_VERSION_CHECK, (uint16_t)(h->version ^ FK_SERIAL_VERSION_CHECK));
    fk_le_put16(p + OFF_KIND, (uint16_t)h->kind_id);
    fk_le_put16(p + OFF_SCHEME, (uint16_t)h->hash_scheme);
    fk_le_put64(p + OFF_SEED, h->seed);
    fk_le_put64(p + OFF_CAPACITY, h->capacity);
    fk_le_put_f64(p + OFF_FPR, h->fpr);
    fk_le_put64(p + OFF_ITEMS, h->items);
    for (unsigned i = 0; i < FK_SERIAL_PARAMS; i++)
        fk_le_put64(p + OFF_PARAMS + 8 * i, h->param[i]);
    fk_le_put64(p + OFF_PAYLOAD_LEN, h->payload_len);
}

fk_status fk_filter_serialized_size(const fk_filter *f, uint64_t *out)
{
    if (out)
        *out = 0;
    if (!f || !out)
        return FK_EINVAL;
    fk_serial_head h;
    if (!head_of(f, &h))
        return FK_EUNSUPPORTED;
    *out = OVERHEAD + h.payload_len;
    return FK_OK;
}

fk_status fk_filter_save(const fk_filter *f, void *buf, size_t cap, size_t *written)
{
    if (written)
        *written = 0;
    if (!f || !buf)
        return FK_EINVAL;
    fk_serial_head h;
    if (!head_of(f, &h))
        return FK_EUNSUPPORTED;
    if (h.payload_len > cap || cap - h.payload_len < OVERHEAD)
        return FK_EINVAL;
    uint8_t *p = buf;
    size_t body = OFF_PAYLOAD + (size_t)h.payload_len;
    put_head(p, &h);
    f->ops->serial->save_payload(f, p + OFF_PAYLOAD);
    fk_le_put64(p + body, fk_checksum64(p, body, CHECKSUM_SEED));
    if (written)
        *written = body + FK_SERIAL_TRAILER_BYTES;
    return FK_OK;
}

/* A record on its way out: every byte is checksummed, then passed on. */
struct stream {
    fk_checksum64_state sum;
    fk_serial_put put;
    void *ctx;
    uint64_t sent;
};

static bool sum_and_put(void *ctx, const void *bytes, size_t n)
{
    struct stream *st = ctx;
    if (n == 0)
        return true;
    fk_checksum64_add(&st->sum, bytes, n);
    st->sent += n;
    return st->put(st->ctx, bytes, n);
}

/* The record staged in one buffer, for kinds without stream_payload. */
static fk_status stage_and_put(const fk_filter *f, uint64_t n, fk_serial_put put, void *ctx)
{
    if (n > SIZE_MAX)
        return FK_ENOMEM;
    uint8_t *buf = malloc((size_t)n);
    if (!buf)
        return FK_ENOMEM;
    size_t len = 0;
    fk_status s = fk_filter_save(f, buf, (size_t)n, &len);
    if (s == FK_OK && !put(ctx, buf, len))
        s = FK_EIO;
    free(buf);
    return s;
}

fk_status fk_serial_stream(const fk_filter *f, fk_serial_put put, void *ctx)
{
    if (!f || !put)
        return FK_EINVAL;
    fk_serial_head h;
    if (!head_of(f, &h))
        return FK_EUNSUPPORTED;
    const fk_serial_ops *so = f->ops->serial;
    if (!so->stream_payload)
        return stage_and_put(f, OVERHEAD + h.payload_len, put, ctx);
    uint8_t head[FK_SERIAL_HEADER_BYTES];
    put_head(head, &h);
    struct stream st = { .put = put, .ctx = ctx, .sent = 0 };
    fk_checksum64_begin(&st.sum, CHECKSUM_SEED);
    if (!sum_and_put(&st, head, sizeof head) || !so->stream_payload(f, sum_and_put, &st))
        return FK_EIO;
    /* A hook that passed other than payload_len bytes would leave a record
     * no reader accepts; the caller's stream then holds a broken record. */
    if (st.sent != FK_SERIAL_HEADER_BYTES + h.payload_len)
        return FK_EIO;
    uint8_t tail[FK_SERIAL_TRAILER_BYTES];
    fk_le_put64(tail, fk_checksum64_end(&st.sum));
    return put(ctx, tail, sizeof tail) ? FK_OK : FK_EIO;
}

/* Converts words to little-endian through this many bytes of stack. */
#define SCRATCH_BYTES 4096u

bool fk_serial_put_le64(fk_serial_put put, void *ctx, const uint64_t *w, uint64_t n)
{
    if (FK_HOST_LITTLE_ENDIAN)
        return n <= SIZE_MAX / 8 && put(ctx, w, (size_t)(n * 8));
    uint8_t buf[SCRATCH_BYTES];
    for (uint64_t i = 0; i < n;) {
        size_t k = n - i < SCRATCH_BYTES / 8 ? (size_t)(n - i) : SCRATCH_BYTES / 8;
        fk_le_put64_array(buf, w + i, k);
        if (!put(ctx, buf, 8 * k))
            return false;
        i += k;
    }
    return true;
}

bool fk_serial_put_le32(fk_serial_put put, void *ctx, const uint32_t *w, uint64_t n)
{
    if (FK_HOST_LITTLE_ENDIAN)
        return n <= SIZE_MAX / 4 && put(ctx, w, (size_t)(n * 4));
    uint8_t buf[SCRATCH_BYTES];
    for (uint64_t i = 0; i < n;) {
        size_t k = n - i < SCRATCH_BYTES / 4 ? (size_t)(n - i) : SCRATCH_BYTES / 4;
        for (size_t j = 0; j < k; j++)
            fk_le_put32(buf + 4 * j, w[i + j]);
        if (!put(ctx, buf, 4 * k))
            return false;
        i += k;
    }
    return true;
}

static bool put_file(void *fp, const void *bytes, size_t n)
{
    return fwrite(bytes, 1, n, fp) == n;
}

fk_status fk_filter_save_file(const fk_filter *f, FILE *fp)
{
    if (!f || !fp)
        return FK_EINVAL;
    fk_status s = fk_serial_stream(f, put_file, fp);
    if (s == FK_OK && fflush(fp) != 0)
        s = FK_EIO;
    return s;
}

/* ----------------------------------------------------------- loading */

/* Checks the magic and the version pair of the first PREFIX_BYTES bytes. */
static fk_status check_prefix(const uint8_t *p)
{
    if (memcmp(p + OFF_MAGIC, FK_SERIAL_MAGIC, FK_SERIAL_MAGIC_BYTES) != 0)
        return FK_ECORRUPT;
    uint16_t v = fk_le_get16(p + OFF_VERSION);
    uint16_t check = (uint16_t)(v ^ FK_SERIAL_VERSION_CHECK);
    if (fk_le_get16(p + OFF_VERSION_CHECK) != check || v == 0)
        return FK_ECORRUPT;
    return v > FK_SERIAL_VERSION ? FK_EUNSUPPORTED : FK_OK;
}

static void get_head(const uint8_t *p, fk_serial_head *h)
{
    memset(h, 0, sizeof *h);
    h->version = fk_le_get16(p + OFF_VERSION);
    h->kind_id = fk_le_get16(p + OFF_KIND);
    h->hash_scheme = fk_le_get16(p + OFF_SCHEME);
    h->seed = fk_le_get64(p + OFF_SEED);
    h->capacity = fk_le_get64(p + OFF_CAPACITY);
    h->fpr = fk_le_get_f64(p + OFF_FPR);
    h->items = fk_le_get64(p + OFF_ITEMS);
    for (unsigned i = 0; i < FK_SERIAL_PARAMS; i++)
        h->param[i] = fk_le_get64(p + OFF_PARAMS + 8 * i);
    h->payload_len = fk_le_get64(p + OFF_PAYLOAD_LEN);
}

fk_status fk_serial_read_head(const void *buf, size_t len, fk_serial_head *out)
{
    if (!buf || !out)
        return FK_EINVAL;
    memset(out, 0, sizeof *out);
    if (len < PREFIX_BYTES)
        return FK_ECORRUPT;
    fk_status s = check_prefix(buf);
    if (s != FK_OK)
        return s;
    if (len < FK_SERIAL_HEADER_BYTES)
        return FK_ECORRUPT;
    get_head(buf, out);
    return FK_OK;
}

/* Validates a decoded header's fields and picks its kind into *ops_io
 * (given, or found by lookup). Allocates nothing. */
static fk_status check_head(const fk_serial_head *h, const fk_ops **ops_io,
                            fk_serial_lookup lookup)
{
    const fk_ops *ops = *ops_io ? *ops_io : lookup ? lookup(h) : NULL;
    if (!can_serialize(ops) || h->kind_id != ops->serial->kind_id)
        return FK_ECORRUPT;
    if (h->hash_scheme != FK_HASH_SCHEME_XXH3_128 &&
        (h->hash_scheme == 0 || h->hash_scheme != ops->serial->second_hash_scheme))
        return FK_ECORRUPT;
    if (h->capacity == 0 || !(h->fpr > 0.0 && h->fpr < 1.0))
        return FK_ECORRUPT;
    if (h->payload_len > FK_MEMORY_CAP)
        return FK_ECORRUPT;
    if (ops->serial->check_head(h) != FK_OK)
        return FK_ECORRUPT;
    *ops_io = ops;
    return FK_OK;
}

fk_status fk_serial_load(const fk_ops *ops, fk_serial_lookup lookup,
                         const void *buf, size_t len, fk_filter **out)
{
    if (out)
        *out = NULL;
    if ((!ops && !lookup) || !out || (!buf && len))
        return FK_EINVAL;
    if (ops && !can_serialize(ops))
        return FK_EUNSUPPORTED;
    const uint8_t *p = buf;
    if (len < PREFIX_BYTES)
        return FK_ECORRUPT;
    fk_status s = check_prefix(p);
    if (s != FK_OK)
        return s;
    if (len < OVERHEAD)
        return FK_ECORRUPT;
    fk_serial_head h;
    get_head(p, &h);
    if (h.payload_len != len - OVERHEAD)
        return FK_ECORRUPT;
    size_t body = len - FK_SERIAL_TRAILER_BYTES;
    if (fk_checksum64(p, body, CHECKSUM_SEED) != fk_le_get64(p + body))
        return FK_ECORRUPT;
    s = check_head(&h, &ops, lookup);
    if (s != FK_OK)
        return s;
    s = ops->serial->load(&h, p + OFF_PAYLOAD, out);
    if (s != FK_OK)
        *out = NULL;
    return s;
}

/* Reads exactly n bytes: FK_OK, FK_ECORRUPT at end of file, FK_EIO. */
static fk_status read_exact(FILE *fp, void *dst, size_t n)
{
    if (fread(dst, 1, n, fp) == n)
        return FK_OK;
    return ferror(fp) ? FK_EIO : FK_ECORRUPT;
}

/* Reads the rest of a record of `total` bytes whose header is in head into
 * a new buffer *buf_out (the caller frees it, also on error), then checks
 * that the stream ends there. The buffer grows as bytes actually arrive, so
 * a short file claiming a huge payload costs at most twice its real size. */
static fk_status read_record(FILE *fp, const uint8_t *head, size_t total, uint8_t **buf_out)
{
    size_t have = FK_SERIAL_HEADER_BYTES;
    size_t cap = total < READ_CHUNK ? total : READ_CHUNK;
    uint8_t *buf = malloc(cap);
    *buf_out = buf;
    if (!buf)
        return FK_ENOMEM;
    memcpy(buf, head, have);
    while (have < total) {
        if (have == cap) {
            size_t grown = cap > total - cap ? total : 2 * cap;
            uint8_t *p = realloc(buf, grown);
            if (!p)
                return FK_ENOMEM;
            *buf_out = buf = p;
            cap = grown;
        }
        fk_status s = read_exact(fp, buf + have, cap - have);
        if (s != FK_OK)
            return s;
        have = cap;
    }
    if (fgetc(fp) != EOF)
        return FK_ECORRUPT; /* trailing bytes */
    return ferror(fp) ? FK_EIO : FK_OK;
}

fk_status fk_serial_load_file(const fk_ops *ops, fk_serial_lookup lookup,
                              FILE *fp, fk_filter **out)
{
    if (out)
        *out = NULL;
    if ((!ops && !lookup) || !out || !fp)
        return FK_EINVAL;
    if (ops && !can_serialize(ops))
        return FK_EUNSUPPORTED;
    uint8_t head[FK_SERIAL_HEADER_BYTES];
    fk_status s = read_exact(fp, head, PREFIX_BYTES);
    if (s == FK_OK)
        s = check_prefix(head);
    if (s == FK_OK)
        s = read_exact(fp, head + PREFIX_BYTES, sizeof head - PREFIX_BYTES);
    if (s != FK_OK)
        return s;
    /* Validate the header before trusting its payload length for the
     * allocation; fk_serial_load re-checks everything with the checksum. */
    fk_serial_head h;
    get_head(head, &h);
    const fk_ops *kind = ops;
    s = check_head(&h, &kind, lookup);
    if (s != FK_OK)
        return s;
    if (h.payload_len > SIZE_MAX - OVERHEAD)
        return FK_ENOMEM;
    size_t total = OVERHEAD + (size_t)h.payload_len;
    uint8_t *buf = NULL;
    s = read_record(fp, head, total, &buf);
    if (s == FK_OK)
        s = fk_serial_load(kind, NULL, buf, total, out);
    free(buf);
    return s;
}

fk_status fk_filter_load(const fk_ops *ops, const void *buf, size_t len, fk_filter **out)
{
    if (!ops) {
        if (out)
            *out = NULL;
        return FK_EINVAL;
    }
    return fk_serial_load(ops, NULL, buf, len, out);
}

fk_status fk_filter_load_file(const fk_ops *ops, FILE *fp, fk_filter **out)
{
    if (!ops) {
        if (out)
            *out = NULL;
        return FK_EINVAL;
    }
    return fk_serial_load_file(ops, NULL, fp, out);
}
