/* ribbon/ribbon_serial.c: the ribbon filter's part of the saved format
 * (framing: common/serial.h), file kind id FK_KIND_RIBBON (10).
 *
 * Kind parameters: param[0] = r (result bits, 1..32), param[1] = S
 * (shards, >= 1), param[2] = m (slots per shard: a multiple of 64, at
 * least FK_RIBBON_MIN_SLOTS), param[3] = the XXH3 seed the keys are hashed
 * with (the params seed, or a retry's seed for a one-shard filter),
 * param[4] = the band width (128); the rest 0. The header's seed is the
 * params seed, its items the distinct keys stored (at most S m; 0 only
 * for an empty filter, whose solution is all 0).
 * Payload: S shard seeds (u64 little-endian each; 0 for a one-shard
 * filter), then the solution: S m / 64 blocks, each r little-endian u64
 * words (word j of block b holds column j's bits of slots 64b..64b+63,
 * slot 64b in bit 0), 8 (S + r S m / 64) bytes in all. */
#include <stdlib.h>
#include "ribbon_internal.h"
#include "../common/serial_internal.h"

enum { P_RESULT_BITS, P_SHARDS, P_SLOTS, P_HASH_SEED, P_WIDTH, P_USED };

static uint64_t payload_words(const fk_ribbon_geom *g, uint32_t r)
{
    return g->shards * g->blocks * r;
}

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_ribbon *rb = (const fk_ribbon *)f;
    h->seed = rb->seed;
    h->capacity = rb->capacity;
    h->fpr = rb->fpr;
    h->items = rb->items;
    h->param[P_RESULT_BITS] = rb->r;
    h->param[P_SHARDS] = rb->geom.shards;
    h->param[P_SLOTS] = rb->geom.slots;
    h->param[P_HASH_SEED] = rb->hash_seed;
    h->param[P_WIDTH] = FK_RIBBON_WIDTH;
    h->payload_len = 8 * (rb->geom.shards + payload_words(&rb->geom, rb->r));
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_ribbon *rb = (const fk_ribbon *)f;
    for (uint64_t s = 0; s < rb->geom.shards; s++)
        fk_le_put64(dst + 8 * s, rb->shard_seed[s]);
    dst += 8 * rb->geom.shards;
    uint64_t words = payload_words(&rb->geom, rb->r);
    for (uint64_t i = 0; i < words; i++)
        fk_le_put64(dst + 8 * i, rb->solution[i]);
}

static bool stream_payload(const fk_filter *f, fk_serial_put put, void *ctx)
{
    const fk_ribbon *rb = (const fk_ribbon *)f;
    return fk_serial_put_le64(put, ctx, rb->shard_seed, rb->geom.shards) &&
           fk_serial_put_le64(put, ctx, rb->solution, payload_words(&rb->geom, rb->r));
}

static bool head_geom(const fk_serial_head *h, fk_ribbon_geom *g)
{
    memset(g, 0, sizeof *g);
    g->shards = h->param[P_SHARDS];
    g->slots = h->param[P_SLOTS];
    uint64_t r = h->param[P_RESULT_BITS];
    if (r < FK_RIBBON_MIN_RESULT_BITS || r > FK_RIBBON_MAX_RESULT_BITS)
        return false;
    /* bound each factor before geom_finish multiplies them */
    if (g->shards > FK_MEMORY_CAP / 8 || g->slots > FK_MEMORY_CAP)
        return false;
    return fk_ribbon_geom_finish(g, (uint32_t)r);
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    if (h->param[P_WIDTH] != FK_RIBBON_WIDTH)
        return FK_ECORRUPT;
    fk_ribbon_geom g;
    if (!head_geom(h, &g))
        return FK_ECORRUPT;
    uint32_t r = (uint32_t)h->param[P_RESULT_BITS];
    if (h->payload_len != 8 * (g.shards + payload_words(&g, r)))
        return FK_ECORRUPT;
    if (h->items > g.shards * g.slots)
        return FK_ECORRUPT;
    return FK_OK;
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    *out = NULL;
    fk_ribbon_geom g;
    if (!head_geom(h, &g))
        return FK_ECORRUPT;
    uint32_t r = (uint32_t)h->param[P_RESULT_BITS];
    fk_ribbon *rb = NULL;
    fk_status s = fk_ribbon_alloc(&g, r, h->items, &rb);
    if (s != FK_OK)
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    for (uint64_t i = 0; i < g.shards; i++)
        rb->shard_seed[i] = fk_le_get64(payload + 8 * i);
    payload += 8 * g.shards;
    uint64_t words = payload_words(&g, r);
    uint64_t any = 0;
    for (uint64_t i = 0; i < words; i++) {
        rb->solution[i] = fk_le_get64(payload + 8 * i);
        any |= rb->solution[i];
    }
    bool ok = g.shards > 1 || rb->shard_seed[0] == 0;
    if (h->items == 0 && any != 0) /* an empty filter has nothing stored */
        ok = false;
    if (!ok) {
        fk_ribbon_free(rb);
        return FK_ECORRUPT;
    }
    fk_ribbon_set_hash_seed(rb, h->param[P_HASH_SEED]);
    rb->seed = h->seed;
    rb->capacity = h->capacity;
    rb->fpr = h->fpr;
    *out = &rb->base;
    return FK_OK;
}

const fk_serial_ops fk_ribbon_serial_ops = {
    .kind_id = FK_KIND_RIBBON,
    .param_names = { [P_RESULT_BITS] = "result bits (r)", [P_SHARDS] = "shards",
                     [P_SLOTS] = "slots per shard", [P_HASH_SEED] = "hash seed",
                     [P_WIDTH] = "band width" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
    .stream_payload = stream_payload,
};

FK_SERIAL_DIRECT_DEFINE(fk_ribbon, fk_ribbon, fk_ribbon_ops)
