/* redis/value.c: the filterkit key value and its encoding (see value.h). */
#include "value.h"

#include <stdlib.h>
#include <string.h>
#include "../scalable/scalable_internal.h" /* RedisBloom replies: a chain's links (static library) */
#include "../common/serial.h"

/* ------------------------------------------------ little-endian fields */

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* --------------------------------------------------------------- value */

fkr_value *fkr_value_wrap(fk_filter *filter, fkr_family family, uint64_t capacity)
{
    fkr_value *v = calloc(1, sizeof *v);
    if (!v) {
        fk_filter_free(filter);
        return NULL;
    }
    v->filter = filter;
    v->family = (uint8_t)family;
    v->capacity = capacity;
    fk_stats st;
    fk_filter_stats(filter, &st);
    v->items = st.items;
    v->memory_bytes = st.memory_bytes;
    v->links = fk_scalable_links(filter);
    return v;
}

fkr_value *fkr_value_wrap_new(fk_filter *filter, fkr_family family, uint64_t capacity,
                              uint64_t memory_bytes)
{
    fkr_value *v = calloc(1, sizeof *v);
    if (!v) {
        fk_filter_free(filter);
        return NULL;
    }
    v->filter = filter;
    v->family = (uint8_t)family;
    v->capacity = capacity;
    v->links = fk_scalable_links(filter);
    v->memory_bytes = v->links ? fk_scalable_memory_bytes(filter) : memory_bytes;
    return v;
}

void fkr_value_changed(fkr_value *v, int64_t items_delta)
{
    /* saturating: merges add counts without bound */
    uint64_t n = items_delta < 0 ? (uint64_t)0 - (uint64_t)items_delta : (uint64_t)items_delta;
    if (items_delta >= 0)
        v->items = n > UINT64_MAX - v->items ? UINT64_MAX : v->items + n;
    else
        v->items = n > v->items ? 0 : v->items - n;
}

void fkr_value_added(fkr_value *v, uint64_t items)
{
    v->items = items > UINT64_MAX - v->items ? UINT64_MAX : v->items + items;
}

void fkr_value_refresh(fkr_value *v)
{
    /* A chain's memory changes only when it grows a sub-filter; the stats
     * scan every Bloom link's bits, so take them then and not on every
     * write (a BF.ADD cost ~1 ms on a 1M-item chain). */
    size_t links = fk_scalable_links(v->filter);
    if (links != v->links) {
        v->memory_bytes = fk_scalable_memory_bytes(v->filter); /* O(1), no scan */
        v->links = links;
    }
}

void fkr_value_free(fkr_value *v)
{
    if (!v)
        return;
    fk_filter_free(v->filter);
    free(v);
}

size_t fkr_value_encoded_size(const fkr_value *v)
{
    uint64_t n;
    if (fk_filter_serialized_size(v->filter, &n) != FK_OK || n > SIZE_MAX - FKR_VALUE_HEADER)
        return 0;
    return FKR_VALUE_HEADER + (size_t)n;
}

fk_status fkr_value_encode(const fkr_value *v, uint8_t *dst, size_t cap)
{
    if (cap < FKR_VALUE_HEADER)
        return FK_EINVAL;
    memset(dst, 0, FKR_VALUE_HEADER);
    memcpy(dst, FKR_VALUE_MAGIC, 4);
    dst[4] = FKR_VALUE_VERSION;
    dst[5] = v->family;
    dst[6] = v->flags;
    put_u32(dst + 8, v->expansion);
    put_u32(dst + 12, v->bucket_size);
    put_u32(dst + 16, v->max_iterations);
    put_u64(dst + 24, v->deleted);
    put_u64(dst + 32, v->capacity);
    return fk_filter_save(v->filter, dst + FKR_VALUE_HEADER, cap - FKR_VALUE_HEADER, NULL);
}

/* Loads a bare filterkit record, refusing payloads over max_bytes before
 * anything is allocated. */
static fk_status load_record(const uint8_t *buf, size_t len, uint64_t max_bytes, fk_filter **out)
{
    fk_serial_head h;
    fk_status s = fk_serial_read_head(buf, len, &h);
    if (s != FK_OK)
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    /* a length that does not match the bytes is damage, not a big filter */
    uint64_t framing = FK_SERIAL_HEADER_BYTES + FK_SERIAL_TRAILER_BYTES;
    if (h.payload_len > max_bytes && len >= framing && h.payload_len == len - framing)
        return FK_EINVAL;
    return fk_filter_load_any(buf, len, out);
}

fk_status fkr_value_decode(const void *buf, size_t len, uint64_t max_bytes, fkr_value **out)
{
    const uint8_t *p = buf;
    *out = NULL;
    if (!buf)
        return FK_ECORRUPT;
    if (len < FKR_VALUE_HEADER || memcmp(p, FKR_VALUE_MAGIC, 4) != 0) {
        /* not a wrapped value: a bare filterkit file, as `filterkit build` writes */
        fk_filter *f;
        fk_status s = load_record(p, len, max_bytes, &f);
        if (s != FK_OK)
            return s;
        fk_stats st;
        fk_filter_stats(f, &st);
        *out = fkr_value_wrap(f, FKR_FAMILY_FK, st.capacity);
        return *out ? FK_OK : FK_ENOMEM;
    }
    if (p[4] != FKR_VALUE_VERSION)
        return p[4] > FKR_VALUE_VERSION ? FK_EUNSUPPORTED : FK_ECORRUPT;
    if (p[5] >= FKR_FAMILY_COUNT || (p[6] & ~FKR_FLAG_NONSCALING) || p[7] || get_u32(p + 20))
        return FK_ECORRUPT;
    fk_filter *f;
    fk_status s = load_record(p + FKR_VALUE_HEADER, len - FKR_VALUE_HEADER, max_bytes, &f);
    if (s != FK_OK)
        return s;
    fkr_value *v = fkr_value_wrap(f, (fkr_family)p[5], get_u64(p + 32));
    if (!v)
        return FK_ENOMEM;
    v->flags = p[6];
    v->expansion = get_u32(p + 8);
    v->bucket_size = get_u32(p + 12);
    v->max_iterations = get_u32(p + 16);
    v->deleted = get_u64(p + 24);
    *out = v;
    return FK_OK;
}

size_t fkr_value_memory(const fkr_value *v)
{
    return sizeof *v + (size_t)v->memory_bytes;
}
