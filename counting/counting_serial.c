/* counting/counting_serial.c: the counting filter's part of the saved
 * format (framing: common/serial.h).
 *
 * Kind parameters: param[0] = m (counters), param[1] = k (probes),
 * param[2] = counter width in bits (4 or 8); the rest 0.
 * Payload: the counter array, ceil(m * width / 64) * 8 bytes. With 4-bit
 * counters counter i is the low nibble of byte i/2 when i is even, the high
 * nibble when odd; with 8-bit counters it is byte i. Everything past
 * counter m-1 is 0. The header's items is inserts minus removes. The
 * saturation count is not stored: saturated counters never change, so it
 * is the number of counters at their maximum, recounted on load.
 */
#include "counting_internal.h"
#include "../common/bits.h"

enum { P_COUNTERS, P_HASHES, P_WIDTH, P_USED };

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_counting *c = (const fk_counting *)f;
    h->seed = c->seed;
    h->capacity = c->capacity;
    h->fpr = c->fpr;
    h->items = fk_counting_item_count(c);
    h->param[P_COUNTERS] = c->m;
    h->param[P_HASHES] = c->k;
    h->param[P_WIDTH] = c->width;
    h->payload_len = c->bytes;
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_counting *c = (const fk_counting *)f;
    memcpy(dst, c->ctr, (size_t)c->bytes); /* bytes: the same on every host */
}

static bool stream_payload(const fk_filter *f, fk_serial_put put, void *ctx)
{
    const fk_counting *c = (const fk_counting *)f;
    return put(ctx, c->ctr, (size_t)c->bytes);
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    uint64_t m = h->param[P_COUNTERS], k = h->param[P_HASHES], w = h->param[P_WIDTH];
    if (m == 0 || k == 0 || k > FK_BLOOM_MAX_HASHES || (w != 4 && w != 8))
        return FK_ECORRUPT;
    if (m > FK_MEMORY_CAP / w * 8)
        return FK_ECORRUPT;
    if (h->payload_len != (m * w + 63) / 64 * 8)
        return FK_ECORRUPT;
    return FK_OK;
}

/* Counters at their maximum in one little-endian word: fold each counter's
 * bits onto its lowest bit with AND, then count. */
static unsigned saturated_in(uint64_t w, uint32_t width)
{
    if (width == 4)
        return fk_popcount64(w & (w >> 1) & (w >> 2) & (w >> 3) & UINT64_C(0x1111111111111111));
    w &= w >> 4;
    w &= w >> 2;
    w &= w >> 1;
    return fk_popcount64(w & UINT64_C(0x0101010101010101));
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    fk_counting *c = NULL;
    *out = NULL;
    fk_status s = fk_counting_create_exact(h->param[P_COUNTERS], (uint32_t)h->param[P_HASHES],
                                           (uint32_t)h->param[P_WIDTH], h->seed, h->capacity,
                                           h->fpr, &c);
    if (s != FK_OK)
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    memcpy(c->ctr, payload, (size_t)c->bytes);
    /* Everything past counter m-1 must be 0: bits [m * width, bytes * 8). */
    uint64_t used_bits = c->m * c->width;
    uint64_t first_free_byte = used_bits / 8;
    uint8_t partial = (uint8_t)(used_bits & 7 ? c->ctr[first_free_byte++] >> (used_bits & 7) : 0);
    bool clean = partial == 0;
    for (uint64_t b = first_free_byte; clean && b < c->bytes; b++)
        clean = c->ctr[b] == 0;
    if (!clean) {
        fk_counting_free(c);
        return FK_ECORRUPT;
    }
    uint64_t sat = 0;
    for (uint64_t b = 0; b < c->bytes; b += 8)
        sat += saturated_in(fk_ctr_load_le64(c->ctr + b), c->width);
    c->saturations = sat;
    c->items = h->items;
    *out = &c->base;
    return FK_OK;
}

const fk_serial_ops fk_counting_serial_ops = {
    .kind_id = FK_KIND_COUNTING,
    .param_names = { [P_COUNTERS] = "counters (m)", [P_HASHES] = "hashes (k)",
                     [P_WIDTH] = "counter bits" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
    .stream_payload = stream_payload,
};

FK_SERIAL_DIRECT_DEFINE(fk_counting, fk_counting, fk_counting_ops)
