/* bloom/bloom_serial.c: the Bloom filter's part of the saved format.
 *
 * Kind parameters: param[0] = m (bits), param[1] = k (probes); the rest 0.
 * Payload: the ceil(m/64) words of the bit array, each as a little-endian
 * u64 (bit i of the filter is bit i%64 of word i/64); the bits past m are 0.
 * The header's items is the insert count.
 */
#include "bloom_internal.h"
#include "../common/serial_internal.h"
#include "../common/endian.h"

enum { P_BITS, P_HASHES, P_USED };

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_bloom *b = (const fk_bloom *)f;
    h->seed = b->seed;
    h->capacity = b->capacity;
    h->fpr = b->fpr;
    h->items = fk_bloom_item_count(b);
    h->param[P_BITS] = b->m;
    h->param[P_HASHES] = b->k;
    h->payload_len = b->words * 8;
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_bloom *b = (const fk_bloom *)f;
    fk_le_put64_array(dst, b->bits, (size_t)b->words);
}

/* The words are the payload: on a little-endian host, as they lie. */
static bool stream_payload(const fk_filter *f, fk_serial_put put, void *ctx)
{
    const fk_bloom *b = (const fk_bloom *)f;
    return fk_serial_put_le64(put, ctx, b->bits, b->words);
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    uint64_t m = h->param[P_BITS], k = h->param[P_HASHES];
    if (m == 0 || m > FK_MEMORY_CAP * 8 || k == 0 || k > FK_BLOOM_MAX_HASHES)
        return FK_ECORRUPT;
    if (h->payload_len != (m + 63) / 64 * 8)
        return FK_ECORRUPT;
    return FK_OK;
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    fk_bloom *b = NULL;
    *out = NULL;
    fk_status s = fk_bloom_create_exact(h->param[P_BITS], (uint32_t)h->param[P_HASHES], h->seed,
                                        h->capacity, h->fpr, &b);
    if (s != FK_OK)
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    fk_le_get64_array(b->bits, payload, (size_t)b->words);
    /* Bits past m must be clear, or the loaded filter would count them. */
    unsigned tail = (unsigned)(b->m & 63);
    if (tail && (b->bits[b->words - 1] >> tail) != 0) {
        fk_bloom_free(b);
        return FK_ECORRUPT;
    }
    b->items = h->items;
    *out = &b->base;
    return FK_OK;
}

const fk_serial_ops fk_bloom_serial_ops = {
    .kind_id = FK_KIND_BLOOM,
    .param_names = { [P_BITS] = "bits (m)", [P_HASHES] = "hashes (k)" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
    .stream_payload = stream_payload,
};

FK_SERIAL_DIRECT_DEFINE(fk_bloom, fk_bloom, fk_bloom_ops)
