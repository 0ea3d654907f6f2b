/* blocked/blocked_serial.c: the blocked filter's part of the saved format
 * (kind id 4).
 *
 * Kind parameters: param[0] = number of blocks (1 .. 2^32, within
 * FK_MEMORY_CAP), param[1] = bits per block (256); the rest 0.
 * Payload: the blocks in order, each as its eight 32-bit words in order,
 * every word a little-endian u32 (bit j of word i of block b is key bit
 * (low32 * salt[i]) >> 27 == j for keys in block b); 32 bytes a block.
 * Every bit pattern is a valid payload. The header's items is the insert
 * count. The key mapping (XXH3-64 of the key with the seed; block from its
 * high half, bits from its low half and the Parquet salts) belongs to this
 * kind id: changing it needs a new kind id or format version.
 *
 * Hashing scheme FK_HASH_SCHEME_XXH3_128 (1): that mapping. Scheme
 * FK_HASH_SCHEME_PARQUET_XXH64 (2): XXH64 with seed 0 instead of XXH3, the
 * same block and bits (blocked.h, "Parquet's split-block filter"); the
 * seed must be 0 and the blocks a power of two up to 2^22 (128 MiB), and
 * the payload is then byte for byte the bitset a Parquet file stores.
 */
#include "blocked_internal.h"
#include "../common/serial_internal.h"
#include "../common/endian.h"

enum { P_BLOCKS, P_BLOCK_BITS, P_USED };

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_blocked *b = (const fk_blocked *)f;
    h->hash_scheme = b->scheme;
    h->seed = b->seed;
    h->capacity = b->capacity;
    h->fpr = b->fpr;
    h->items = fk_blocked_item_count(b);
    h->param[P_BLOCKS] = b->blocks;
    h->param[P_BLOCK_BITS] = FK_BLOCKED_BLOCK_BITS;
    h->payload_len = b->blocks * FK_BLOCKED_BLOCK_BYTES;
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_blocked *b = (const fk_blocked *)f;
    for (uint64_t i = 0, n = b->blocks * FK_BLOCKED_WORDS; i < n; i++)
        fk_le_put32(dst + 4 * i, b->words[i]);
}

static bool stream_payload(const fk_filter *f, fk_serial_put put, void *ctx)
{
    const fk_blocked *b = (const fk_blocked *)f;
    return fk_serial_put_le32(put, ctx, b->words, b->blocks * FK_BLOCKED_WORDS);
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    uint64_t blocks = h->param[P_BLOCKS];
    if (h->param[P_BLOCK_BITS] != FK_BLOCKED_BLOCK_BITS || blocks == 0 ||
        blocks > (UINT64_C(1) << 32) || blocks > FK_MEMORY_CAP / FK_BLOCKED_BLOCK_BYTES)
        return FK_ECORRUPT;
    if (h->payload_len != blocks * FK_BLOCKED_BLOCK_BYTES)
        return FK_ECORRUPT;
    if (h->hash_scheme == FK_HASH_SCHEME_PARQUET_XXH64 &&
        (h->seed != 0 || !fk_blocked_parquet_blocks_ok(blocks)))
        return FK_ECORRUPT;
    return FK_OK;
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    fk_blocked *b = NULL;
    *out = NULL;
    fk_status s = fk_blocked_create_exact(h->hash_scheme, h->param[P_BLOCKS], h->seed, h->capacity,
                                          h->fpr, &b);
    if (s != FK_OK)
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    for (uint64_t i = 0, n = b->blocks * FK_BLOCKED_WORDS; i < n; i++)
        b->words[i] = fk_le_get32(payload + 4 * i);
    b->items = h->items;
    *out = &b->base;
    return FK_OK;
}

const fk_serial_ops fk_blocked_serial_ops = {
    .kind_id = FK_KIND_BLOCKED,
    .param_names = { [P_BLOCKS] = "blocks", [P_BLOCK_BITS] = "bits per block" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
    .stream_payload = stream_payload,
    .second_hash_scheme = FK_HASH_SCHEME_PARQUET_XXH64,
};

FK_SERIAL_DIRECT_DEFINE(fk_blocked, fk_blocked, fk_blocked_ops)
