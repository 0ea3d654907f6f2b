/* parquet/thrift_compact.c: the Thrift compact protocol reader
 * (thrift_compact.h). Encoding: integers are ULEB128 varints, zigzag for
 * signed ones; a field header is one byte, id delta (1..15) in the high
 * nibble and type in the low one, or delta 0 and a zigzag varint id; a list
 * header is one byte, count (0..14, or 15 = a varint count follows) and
 * element type; a map, a varint count then one byte of key and value types. */
#include "thrift_compact.h"

/* An unsigned varint of at most max_bytes bytes (5 for 32 bits, 10 for 64). */
static fk_status read_varint(fk_thrift_reader *r, unsigned max_bytes, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < max_bytes; i++) {
        if (r->p == r->end)
            return FK_ECORRUPT;
        uint8_t b = *r->p++;
        /* the tenth byte of a 64-bit varint holds bit 63 only */
        if (i == 9 && b > 1)
            return FK_ECORRUPT;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *out = v;
            return FK_OK;
        }
    }
    return FK_ECORRUPT;
}

static int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

fk_status fk_thrift_struct_begin(fk_thrift_reader *r)
{
    if (r->depth >= FK_THRIFT_DEPTH_MAX)
        return FK_ECORRUPT;
    r->depth++;
    return FK_OK;
}

void fk_thrift_struct_end(fk_thrift_reader *r)
{
    r->depth--;
}

void fk_thrift_container_end(fk_thrift_reader *r)
{
    r->depth--;
}

fk_status fk_thrift_field(fk_thrift_reader *r, int16_t *last_id, int *type, int16_t *id)
{
    if (r->p == r->end)
        return FK_ECORRUPT;
    uint8_t b = *r->p++;
    *type = b & 0x0f;
    if (*type == FK_THRIFT_STOP) {
        *id = 0;
        return b == 0 ? FK_OK : FK_ECORRUPT;
    }
    if (*type > FK_THRIFT_UUID)
        return FK_ECORRUPT;
    unsigned delta = b >> 4;
    int64_t v;
    if (delta) {
        v = (int64_t)*last_id + delta;
    } else {
        uint64_t z;
        fk_status s = read_varint(r, 3, &z);
        if (s)
            return s;
        v = unzigzag(z);
    }
    if (v < INT16_MIN || v > INT16_MAX)
        return FK_ECORRUPT;
    *id = (int16_t)v;
    *last_id = *id;
    return FK_OK;
}

fk_status fk_thrift_struct(fk_thrift_reader *r, fk_thrift_field_fn on_field, void *ctx)
{
    fk_status s = fk_thrift_struct_begin(r);
    int16_t last = 0, id;
    int t;
    while (s == FK_OK && (s = fk_thrift_field(r, &last, &t, &id)) == FK_OK && t != FK_THRIFT_STOP)
        s = on_field(r, id, t, ctx);
    if (s == FK_OK)
        fk_thrift_struct_end(r);
    return s;
}

/* fk_thrift_struct's on_field for a struct skipped whole. */
static fk_status skip_field(fk_thrift_reader *r, int16_t id, int type, void *ctx)
{
    (void)id;
    (void)ctx;
    return fk_thrift_skip(r, type);
}

fk_status fk_thrift_int(fk_thrift_reader *r, int type, int64_t *out)
{
    uint64_t z;
    fk_status s;
    switch (type) {
    case FK_THRIFT_BYTE:
        if (r->p == r->end)
            return FK_ECORRUPT;
        *out = (int8_t)*r->p++;
        return FK_OK;
    case FK_THRIFT_I16:
    case FK_THRIFT_I32:
        if ((s = read_varint(r, type == FK_THRIFT_I16 ? 3 : 5, &z)) != FK_OK)
            return s;
        *out = unzigzag(z);
        if (type == FK_THRIFT_I16 ? (*out < INT16_MIN || *out > INT16_MAX)
                                  : (*out < INT32_MIN || *out > INT32_MAX))
            return FK_ECORRUPT;
        return FK_OK;
    case FK_THRIFT_I64:
        if ((s = read_varint(r, 10, &z)) != FK_OK)
            return s;
        *out = unzigzag(z);
        return FK_OK;
    default:
        return FK_ECORRUPT; /* a field of another type where an integer belongs */
    }
}

fk_status fk_thrift_binary(fk_thrift_reader *r, const uint8_t **bytes, size_t *len)
{
    uint64_t n;
    fk_status s = read_varint(r, 5, &n);
    if (s)
        return s;
    if (n > fk_thrift_left(r))
        return FK_ECORRUPT;
    *bytes = r->p;
    *len = (size_t)n;
    r->p += n;
    return FK_OK;
}

fk_status fk_thrift_list_begin(fk_thrift_reader *r, int *elem_type, uint64_t *count)
{
    if (r->depth >= FK_THRIFT_DEPTH_MAX || r->p == r->end)
        return FK_ECORRUPT;
    uint8_t b = *r->p++;
    uint64_t n = b >> 4;
    if (n == 15) {
        fk_status s = read_varint(r, 5, &n);
        if (s)
            return s;
    }
    *elem_type = b & 0x0f;
    if (*elem_type == FK_THRIFT_STOP || *elem_type > FK_THRIFT_UUID)
        return FK_ECORRUPT;
    if (n > fk_thrift_left(r))
        return FK_ECORRUPT; /* each element takes at least one byte */
    *count = n;
    r->depth++;
    return FK_OK;
}

/* Skips one element of a container: a bool there is one byte. */
static fk_status skip_element(fk_thrift_reader *r, int type)
{
    if (type == FK_THRIFT_TRUE || type == FK_THRIFT_FALSE) {
        if (r->p == r->end)
            return FK_ECORRUPT;
        r->p++;
        return FK_OK;
    }
    return fk_thrift_skip(r, type);
}

static fk_status skip_bytes(fk_thrift_reader *r, size_t n)
{
    if (n > fk_thrift_left(r))
        return FK_ECORRUPT;
    r->p += n;
    return FK_OK;
}

fk_status fk_thrift_skip(fk_thrift_reader *r, int type)
{
    fk_status s;
    int64_t iv;
    const uint8_t *bytes;
    size_t len;
    switch (type) {
    case FK_THRIFT_TRUE:
    case FK_THRIFT_FALSE:
        return FK_OK; /* a bool field's value is its type */
    case FK_THRIFT_BYTE:
    case FK_THRIFT_I16:
    case FK_THRIFT_I32:
    case FK_THRIFT_I64:
        return fk_thrift_int(r, type, &iv);
    case FK_THRIFT_DOUBLE:
        return skip_bytes(r, 8);
    case FK_THRIFT_UUID:
        return skip_bytes(r, 16);
    case FK_THRIFT_BINARY:
        return fk_thrift_binary(r, &bytes, &len);
    case FK_THRIFT_LIST:
    case FK_THRIFT_SET: {
        int et;
        uint64_t n;
        if ((s = fk_thrift_list_begin(r, &et, &n)) != FK_OK)
            return s;
        for (uint64_t i = 0; i < n; i++)
            if ((s = skip_element(r, et)) != FK_OK)
                return s;
        fk_thrift_container_end(r);
        return FK_OK;
    }
    case FK_THRIFT_MAP: {
        uint64_t n;
        if (r->depth >= FK_THRIFT_DEPTH_MAX)
            return FK_ECORRUPT;
        if ((s = read_varint(r, 5, &n)) != FK_OK)
            return s;
        if (n == 0)
            return FK_OK;
        if (r->p == r->end)
            return FK_ECORRUPT;
        uint8_t kv = *r->p++;
        int kt = kv >> 4, vt = kv & 0x0f;
        if (kt == FK_THRIFT_STOP || kt > FK_THRIFT_UUID || vt == FK_THRIFT_STOP || vt > FK_THRIFT_UUID)
            return FK_ECORRUPT;
        if (n > fk_thrift_left(r) / 2)
            return FK_ECORRUPT; /* a key and a value take at least two bytes */
        r->depth++;
        for (uint64_t i = 0; i < n; i++)
            if ((s = skip_element(r, kt)) != FK_OK || (s = skip_element(r, vt)) != FK_OK)
                return s;
        r->depth--;
        return FK_OK;
    }
    case FK_THRIFT_STRUCT:
        return fk_thrift_struct(r, skip_field, NULL);
    default:
        return FK_ECORRUPT;
    }
}
