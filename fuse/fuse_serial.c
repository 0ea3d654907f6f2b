/* fuse/fuse_serial.c: the binary fuse filter's part of the saved format
 * (framing: common/serial.h), file kind id FK_KIND_FUSE (6).
 *
 * Kind parameters: param[0] = f (fingerprint bits, 1..32), param[1] = S
 * (shards, >= 1), param[2] = the segment length (a power of two in
 * 4..2^18), param[3] = segments per shard (>= 1; a shard has segments + 2
 * segments of cells), param[4] = the XXH3 seed the keys are hashed with
 * (the params seed, or a retry's seed for a one-shard filter), param[5] =
 * the arity (3); the rest 0. The header's seed is the params seed, its
 * items the distinct keys stored (at most the cells; 0 only for an empty
 * filter, whose cells are all 0).
 * Payload: S shard seeds (u64 little-endian each; 0 for a one-shard
 * filter), then the cells of all shards in order, shard by shard, as one
 * little-endian bit string of f bits per cell (cell i at bits
 * [f*i, f*(i+1)); for f = 8, 16, 32 that is the plain array of bytes,
 * 16-bit or 32-bit words), ceil(cells * f / 8) bytes, bits past the last
 * cell 0. */
#include <stdlib.h>
#include "fuse_internal.h"
#include "../common/serial_internal.h"

enum { P_FP_BITS, P_SHARDS, P_SEG_LEN, P_SEGMENTS, P_HASH_SEED, P_ARITY, P_USED };
#define FUSE_ARITY 3u

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_fuse *fu = (const fk_fuse *)f;
    h->seed = fu->seed;
    h->capacity = fu->capacity;
    h->fpr = fu->fpr;
    h->items = fu->items;
    h->param[P_FP_BITS] = fu->f;
    h->param[P_SHARDS] = fu->geom.shards;
    h->param[P_SEG_LEN] = fu->geom.seg_len;
    h->param[P_SEGMENTS] = fu->geom.segments;
    h->param[P_HASH_SEED] = fu->hash_seed;
    h->param[P_ARITY] = FUSE_ARITY;
    h->payload_len = 8 * fu->geom.shards + fk_fuse_packed_bytes(&fu->geom, fu->f);
}

/* The cells as the file has them (little-endian) from host order, or back:
 * a plain copy on little-endian hosts and for bytes and packed cells. */
static void copy_cells(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint32_t f)
{
    memcpy(dst, src, (size_t)bytes);
    if (FK_HOST_LITTLE_ENDIAN || (f != 16 && f != 32))
        return;
    for (uint64_t i = 0; i < bytes; i += f / 8)
        for (uint32_t a = 0, b = f / 8 - 1; a < b; a++, b--) {
            uint8_t t = dst[i + a];
            dst[i + a] = dst[i + b];
            dst[i + b] = t;
        }
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_fuse *fu = (const fk_fuse *)f;
    for (uint64_t s = 0; s < fu->geom.shards; s++)
        fk_le_put64(dst + 8 * s, fu->shard_seed[s]);
    copy_cells(dst + 8 * fu->geom.shards, fu->cells, fk_fuse_packed_bytes(&fu->geom, fu->f),
               fu->f);
}

/* The shard seeds, then the cells: as they lie on a little-endian host (and
 * for packed widths), else byte-swapped through a small scratch buffer. */
static bool stream_payload(const fk_filter *f, fk_serial_put put, void *ctx)
{
    const fk_fuse *fu = (const fk_fuse *)f;
    if (!fk_serial_put_le64(put, ctx, fu->shard_seed, fu->geom.shards))
        return false;
    uint64_t bytes = fk_fuse_packed_bytes(&fu->geom, fu->f);
    if (FK_HOST_LITTLE_ENDIAN || (fu->f != 16 && fu->f != 32))
        return put(ctx, fu->cells, (size_t)bytes);
    uint8_t buf[4096]; /* a multiple of 4: no cell straddles two pieces */
    for (uint64_t i = 0; i < bytes; i += sizeof buf) {
        uint64_t k = bytes - i < sizeof buf ? bytes - i : sizeof buf;
        copy_cells(buf, fu->cells + i, k, fu->f);
        if (!put(ctx, buf, (size_t)k))
            return false;
    }
    return true;
}

/* The geometry a header describes (not yet checked). */
static fk_fuse_geom head_geom(const fk_serial_head *h)
{
    fk_fuse_geom g;
    memset(&g, 0, sizeof g);
    g.shards = h->param[P_SHARDS];
    g.seg_len = h->param[P_SEG_LEN] <= UINT32_MAX ? (uint32_t)h->param[P_SEG_LEN] : 0;
    g.segments = h->param[P_SEGMENTS];
    return g;
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    uint64_t f = h->param[P_FP_BITS];
    if (f < FK_FUSE_MIN_FP_BITS || f > FK_FUSE_MAX_FP_BITS || h->param[P_ARITY] != FUSE_ARITY)
        return FK_ECORRUPT;
    fk_fuse_geom g = head_geom(h);
    /* bound each factor before multiplying, so nothing overflows */
    if (!fk_fuse_geom_ok(&g) || g.shards > FK_MEMORY_CAP / 8 || g.segments > FK_MEMORY_CAP)
        return FK_ECORRUPT;
    fk_fuse_geom_finish(&g);
    uint64_t cells_bytes = fk_fuse_cell_bytes(&g, (uint32_t)f);
    if (cells_bytes == 0)
        return FK_ECORRUPT;
    if (h->payload_len != 8 * g.shards + fk_fuse_packed_bytes(&g, (uint32_t)f))
        return FK_ECORRUPT;
    if (h->items > g.shards * g.shard_cells)
        return FK_ECORRUPT;
    return FK_OK;
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    *out = NULL;
    fk_fuse_geom g = head_geom(h);
    fk_fuse_geom_finish(&g);
    uint32_t f = (uint32_t)h->param[P_FP_BITS];
    fk_fuse *fu = NULL;
    fk_status s = fk_fuse_alloc(&g, f, h->items, &fu);
    if (s != FK_OK)
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    for (uint64_t i = 0; i < g.shards; i++)
        fu->shard_seed[i] = fk_le_get64(payload + 8 * i);
    uint64_t bytes = fk_fuse_packed_bytes(&g, f);
    copy_cells(fu->cells, payload + 8 * g.shards, bytes, f);
    bool ok = g.shards > 1 || fu->shard_seed[0] == 0;
    /* bits past the last cell are 0 */
    uint64_t bits = g.shards * g.shard_cells * f;
    if ((bits & 7) && (fu->cells[bits / 8] >> (bits & 7)) != 0)
        ok = false;
    /* an empty filter has nothing stored */
    for (uint64_t i = 0; ok && h->items == 0 && i < bytes; i++)
        ok = fu->cells[i] == 0;
    if (!ok) {
        fk_fuse_free(fu);
        return FK_ECORRUPT;
    }
    fk_fuse_set_hash_seed(fu, h->param[P_HASH_SEED]);
    fu->seed = h->seed;
    fu->capacity = h->capacity;
    fu->fpr = h->fpr;
    *out = &fu->base;
    return FK_OK;
}

const fk_serial_ops fk_fuse_serial_ops = {
    .kind_id = FK_KIND_FUSE,
    .param_names = { [P_FP_BITS] = "fp bits (f)", [P_SHARDS] = "shards",
                     [P_SEG_LEN] = "segment length", [P_SEGMENTS] = "segments per shard",
                     [P_HASH_SEED] = "hash seed", [P_ARITY] = "arity" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
    .stream_payload = stream_payload,
};

FK_SERIAL_DIRECT_DEFINE(fk_fuse, fk_fuse, fk_fuse_ops)
