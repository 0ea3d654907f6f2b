/* expandable/expandable_serial.c: the expandable filter's part of the
 * saved format (framing: common/serial.h), file kind id 9.
 *
 * Header: capacity = the entries the first table was made for, fpr = the
 * target, items = table entries plus voids. Kind parameters: param[0] =
 * quotients N, param[1] = slot bits W (2..32: 0.4.0 wrote 16 or 32, read
 * as before; later versions F + 1, which 0.4.0 refuses as corrupt),
 * param[2] = fingerprint bits F of a new entry (1..W-1), param[3] =
 * doublings G, param[4] = voids V, param[5] = the expected growth factor F
 * was sized for; the rest 0. The slots S follow from N (fk_xf_slots_for).
 * Payload: the table exactly as expandable_internal.h lays it out, S / 64
 * blocks of 18 + 8W bytes (slots packed W bits apiece), without the
 * in-memory padding; then the V void
 * keys as little-endian u64 (generation << 56 | quotient at that
 * generation), rising. Keys map through XXH3-64 (expandable_internal.h):
 * the header's hashing scheme id 1 names the XXH3 family.
 *
 * Validation: the loader rebuilds the table from the runs the payload
 * describes (values nonzero, rising within each run, of length at most F)
 * and requires every byte to match, so offsets, free slots and runends are
 * exactly what inserts would leave; every void key must rise, name an
 * earlier generation and a quotient that generation had; items must equal
 * the entries. The counters must be ones a real filter reaches, so that
 * later inserts double the table only as a real one would: the first
 * table's quotients N0 = N / 2^G as fk_expandable_new sizes them for the
 * capacity (N0 = ceil(capacity / max_load) with max_load in [0.5, 1):
 * capacity <= N0 <= 2 capacity), and the table's entries at most capacity
 * 2^G (a real filter doubles before it passes that). Anything else is
 * FK_ECORRUPT. O(S + V). */
#include <stdlib.h>
#include "expandable_internal.h"

enum { P_QUOTIENTS, P_WIDTH, P_FP_BITS, P_DOUBLINGS, P_VOIDS, P_GROWTH, P_USED };

static uint64_t payload_bytes(uint64_t quotients, uint32_t width, uint64_t voids)
{
    return fk_xf_table_bytes(fk_xf_slots_for(quotients), width) - FK_XF_PAD + 8 * voids;
}

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_expandable *xf = (const fk_expandable *)f;
    h->seed = xf->seed;
    h->capacity = xf->capacity;
    h->fpr = xf->fpr;
    h->items = fk_xf_used(xf) + xf->nvoids;
    h->param[P_QUOTIENTS] = xf->quotients;
    h->param[P_WIDTH] = xf->width;
    h->param[P_FP_BITS] = xf->fp_bits;
    h->param[P_DOUBLINGS] = xf->doublings;
    h->param[P_VOIDS] = xf->nvoids;
    h->param[P_GROWTH] = xf->growth;
    h->payload_len = payload_bytes(xf->quotients, xf->width, xf->nvoids);
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_expandable *xf = (const fk_expandable *)f;
    size_t tb = (size_t)(fk_xf_table_bytes(xf->slots, xf->width) - FK_XF_PAD);
    memcpy(dst, xf->table, tb);
    fk_le_put64_array(dst + tb, xf->voids, xf->nvoids);
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    uint64_t N = h->param[P_QUOTIENTS], W = h->param[P_WIDTH], F = h->param[P_FP_BITS];
    uint64_t G = h->param[P_DOUBLINGS], V = h->param[P_VOIDS], growth = h->param[P_GROWTH];
    if (W < 2 || W > 32 || F < 1 || F > W - 1 || G > FK_EXPANDABLE_MAX_DOUBLINGS ||
        growth < 1 || growth > UINT32_MAX)
        return FK_ECORRUPT;
    if (N == 0 || N > (UINT64_C(1) << 40) || (N >> G) << G != N || (N >> G) == 0)
        return FK_ECORRUPT;
    if ((h->capacity << G) >> G != h->capacity)
        return FK_ECORRUPT;
    /* the first table as sizing makes it for this capacity (see the top) */
    uint64_t N0 = N >> G;
    if (N0 < h->capacity || (N0 + 1) / 2 > h->capacity)
        return FK_ECORRUPT;
    uint64_t S = fk_xf_slots_for(N);
    if (S == 0 || fk_xf_table_bytes(S, (uint32_t)W) > FK_MEMORY_CAP || V > h->items ||
        V > FK_MEMORY_CAP / 8)
        return FK_ECORRUPT;
    if (h->payload_len != payload_bytes(N, (uint32_t)W, V))
        return FK_ECORRUPT;
    return FK_OK;
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    *out = NULL;
    uint64_t N = h->param[P_QUOTIENTS], V = h->param[P_VOIDS];
    uint32_t W = (uint32_t)h->param[P_WIDTH], F = (uint32_t)h->param[P_FP_BITS];
    uint32_t G = (uint32_t)h->param[P_DOUBLINGS];
    fk_expandable *seen = NULL, *xf = NULL;
    fk_status s = fk_xf_create_exact(N, W, F, G, h->seed, h->capacity, h->fpr, &seen);
    if (s == FK_OK)
        s = fk_xf_create_exact(N, W, F, G, h->seed, h->capacity, h->fpr, &xf);
    if (s != FK_OK) {
        fk_expandable_free(seen);
        fk_expandable_free(xf);
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    }
    size_t tb = (size_t)(fk_xf_table_bytes(seen->slots, W) - FK_XF_PAD);
    memcpy(seen->table, payload, tb);
    s = fk_xf_rebuild_canonical(seen, xf);
    fk_expandable_free(seen);
    if (s == FK_OK && V) {
        xf->voids = malloc((size_t)V * sizeof *xf->voids);
        if (!xf->voids)
            s = FK_ENOMEM;
        else
            xf->voids_cap = xf->nvoids = (size_t)V;
    }
    for (uint64_t i = 0; s == FK_OK && i < V; i++) {
        uint64_t key = fk_le_get64(payload + tb + 8 * i);
        uint64_t gen = key >> FK_XF_VOID_SHIFT;
        uint64_t q = key & ((UINT64_C(1) << FK_XF_VOID_SHIFT) - 1);
        if (gen >= G || q >= N >> (G - gen) || (i > 0 && key < xf->voids[i - 1]))
            s = FK_ECORRUPT;
        else {
            xf->voids[i] = key;
            xf->void_gens |= UINT64_C(1) << gen;
        }
    }
    if (s == FK_OK && (xf->used + V != h->items || xf->used > xf->limit))
        s = FK_ECORRUPT;
    if (s != FK_OK) {
        fk_expandable_free(xf);
        return s;
    }
    xf->growth = (uint32_t)h->param[P_GROWTH];
    FK_XF_DEBUG_CHECK(xf);
    *out = &xf->base;
    return FK_OK;
}

const fk_serial_ops fk_expandable_serial_ops = {
    .kind_id = FK_KIND_EXPANDABLE,
    .param_names = { [P_QUOTIENTS] = "quotients (N)", [P_WIDTH] = "slot bits (W)",
                     [P_FP_BITS] = "fingerprint bits (F)", [P_DOUBLINGS] = "doublings (G)",
                     [P_VOIDS] = "voids", [P_GROWTH] = "expected growth" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
};

FK_SERIAL_DIRECT_DEFINE(fk_expandable, fk_expandable, fk_expandable_ops)
