/* cuckoo/cuckoo_serial.c: the cuckoo filter's part of the saved format
 * (framing: common/serial.h).
 *
 * Kind parameters: param[0] = buckets, param[1] = f (fingerprint bits,
 * 4..32), param[2] = evictions so far, param[3] = the kick PRNG's state,
 * param[4] = the hash scheme (FK_CUCKOO_SCHEME_*, cuckoo_hash.h),
 * param[5] = e, the chunks scheme's chunks of 2^e buckets (0 under the
 * other schemes); the rest 0.
 *   scheme 0 (legacy: every file saved before scheme 1 existed, when
 *     param 4 was always 0): buckets a power of two;
 *   scheme 1 (blocks): any buckets >= 1;
 *   scheme 2 (chunks, from 0.3.0): buckets a whole number of chunks of
 *     2^e buckets, 1 <= e <= 62.
 * Files saved by 0.2.0 (schemes 0 and 1, param 5 then always 0) load and
 * answer exactly as before.
 * With the PRNG state a loaded filter makes the same random choices as the
 * saved one would have, so both keep evolving identically.
 * Payload: the packed bucket array exactly as cuckoo_table.h lays it out,
 * ceil(buckets * 4f / 8) bytes (bucket b at bits [4f*b, 4f*(b+1)) of the
 * little-endian byte string, slot j at 4f*b + f*j; 0 = empty slot), any
 * bits past the last bucket 0. The header's items must equal the number of
 * occupied slots. There is no stash: a failed insert is undone, so the
 * table is the whole state. The kick observer is not saved.
 */
#include <stdlib.h>
#include "cuckoo_internal.h"
#include "../common/bits.h"

enum { P_BUCKETS, P_FP_BITS, P_KICKS, P_RNG, P_SCHEME, P_CHUNK_BITS, P_USED };

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    h->seed = c->seed;
    h->capacity = c->capacity;
    h->fpr = c->fpr;
    h->items = fk_cuckoo_items(c);
    h->param[P_BUCKETS] = c->table.buckets;
    h->param[P_FP_BITS] = c->table.f;
    h->param[P_KICKS] = fk_cuckoo_kicks(c);
    h->param[P_RNG] = c->rng;
    h->param[P_SCHEME] = c->map.scheme;
    h->param[P_CHUNK_BITS] = c->map.chunk_bits;
    h->payload_len = (c->table.buckets * c->table.bucket_bits + 7) / 8;
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    memcpy(dst, c->table.bytes, (size_t)((c->table.buckets * c->table.bucket_bits + 7) / 8));
}

static bool stream_payload(const fk_filter *f, fk_serial_put put, void *ctx)
{
    const fk_cuckoo *c = (const fk_cuckoo *)f;
    return put(ctx, c->table.bytes, (size_t)((c->table.buckets * c->table.bucket_bits + 7) / 8));
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    uint64_t b = h->param[P_BUCKETS], f = h->param[P_FP_BITS];
    uint64_t scheme = h->param[P_SCHEME], e = h->param[P_CHUNK_BITS];
    if (scheme > UINT32_MAX || e > 62 ||
        !fk_cuckoo_geometry_ok((uint32_t)scheme, b, (uint32_t)e) ||
        f < FK_CUCKOO_MIN_FP_BITS || f > FK_CUCKOO_MAX_FP_BITS)
        return FK_ECORRUPT;
    if (b > FK_MEMORY_CAP * 8 / (FK_CUCKOO_SLOTS * f)) /* also keeps b * 4f from overflowing */
        return FK_ECORRUPT;
    if (h->payload_len != (b * FK_CUCKOO_SLOTS * f + 7) / 8)
        return FK_ECORRUPT;
    if (h->items > b * FK_CUCKOO_SLOTS)
        return FK_ECORRUPT;
    return FK_OK;
}

/* Occupied slots of one bucket: a field is nonzero when adding
 * (2^(f-1) - 1) to its low f-1 bits carries into its top bit, or the top
 * bit is already set; no carry crosses into the next field. */
static unsigned occupied64(uint64_t x, uint64_t ones, uint64_t highs)
{
    return fk_popcount64((((x & ~highs) + (highs - ones)) | x) & highs);
}

static unsigned occupied128(fk_ctab_u128 x, fk_ctab_u128 ones, fk_ctab_u128 highs)
{
    fk_ctab_u128 y = (((x & ~highs) + (highs - ones)) | x) & highs;
    return fk_popcount64((uint64_t)y) + fk_popcount64((uint64_t)(y >> 64));
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    fk_cuckoo *c = NULL;
    *out = NULL;
    fk_status s = fk_cuckoo_create_exact((uint32_t)h->param[P_SCHEME], h->param[P_BUCKETS],
                                         (uint32_t)h->param[P_CHUNK_BITS],
                                         (uint32_t)h->param[P_FP_BITS], h->seed, h->capacity,
                                         h->fpr, &c);
    if (s != FK_OK)
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    fk_ctab *t = &c->table;
    uint64_t bits = t->buckets * t->bucket_bits;
    memcpy(t->bytes, payload, (size_t)h->payload_len);
    /* Bits past the last bucket must be 0 (only when 4f * buckets is odd
     * in nibbles: one bucket of odd f). */
    bool clean = (bits & 7) == 0 || (t->bytes[bits / 8] >> (bits & 7)) == 0;
    uint64_t occupied = 0;
    for (uint64_t b = 0; clean && b < t->buckets; b++)
        occupied += t->f <= 16 ? occupied64(fk_ctab_bucket64(t, b), t->ones, t->highs)
                               : occupied128(fk_ctab_bucket128(t, b), t->ones128, t->highs128);
    if (!clean || occupied != h->items) {
        fk_cuckoo_free(c);
        return FK_ECORRUPT;
    }
    c->items = h->items;
    c->kicks = h->param[P_KICKS];
    c->rng = h->param[P_RNG];
    *out = &c->base;
    return FK_OK;
}

const fk_serial_ops fk_cuckoo_serial_ops = {
    .kind_id = FK_KIND_CUCKOO,
    .param_names = { [P_BUCKETS] = "buckets", [P_FP_BITS] = "fp bits (f)",
                     [P_KICKS] = "kicks so far", [P_RNG] = "kick rng state",
                     [P_SCHEME] = "cuckoo scheme", [P_CHUNK_BITS] = "chunk bits" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
    .stream_payload = stream_payload,
};

FK_SERIAL_DIRECT_DEFINE(fk_cuckoo, fk_cuckoo, fk_cuckoo_ops)
