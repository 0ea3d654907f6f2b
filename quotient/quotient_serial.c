/* quotient/quotient_serial.c: the counting quotient filter's part of the
 * saved format (framing: common/serial.h), file kind id 7.
 *
 * Kind parameters: param[0] = slots S (a positive multiple of 64),
 * param[1] = quotients N (1..S), param[2] = remainder bits r (2..56); the
 * rest 0. The header's items is the sum of the counts.
 * Payload: the table exactly as quotient_internal.h lays it out, S / 64
 * blocks of 17 + 8r bytes (occupieds and runends as little-endian u64,
 * the offset byte, 64 r-bit remainders packed little-endian), without the
 * in-memory padding. Keys map through XXH3-64 (quotient_internal.h); the
 * header's hashing scheme id 1 names the XXH3 family, as for cuckoo.
 *
 * Validation: the table is canonical (quotient_internal.h lists the
 * invariants), so the loader walks the groups the payload describes,
 * requires them to rise in (quotient, remainder) order, rebuilds a table
 * from them and requires every byte to match (runends paired with
 * occupieds, offsets, counters in their shortest encoding, free slots 0),
 * and the header's items to equal the counts' sum (capped at UINT64_MAX,
 * as fk_quotient_stats reports it): any bit that a real filter could not
 * hold is FK_ECORRUPT, and a loaded filter is one that inserts could have
 * built, so merge, grow and save keep it loadable. O(S) time. */
#include <stdlib.h>
#include "quotient_internal.h"

enum { P_SLOTS, P_QUOTIENTS, P_R, P_USED };

static uint64_t payload_bytes(uint64_t slots, uint32_t r)
{
    return slots / 64 * (FK_QF_BLOCK_HEAD + 8u * (uint64_t)r);
}

static void save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_quotient *qf = (const fk_quotient *)f;
    h->seed = qf->seed;
    h->capacity = qf->capacity;
    h->fpr = qf->fpr;
    h->items = fk_qf_items(qf);
    h->param[P_SLOTS] = qf->slots;
    h->param[P_QUOTIENTS] = qf->quotients;
    h->param[P_R] = qf->r;
    h->payload_len = payload_bytes(qf->slots, qf->r);
}

static void save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_quotient *qf = (const fk_quotient *)f;
    memcpy(dst, qf->table, (size_t)payload_bytes(qf->slots, qf->r));
}

static bool stream_payload(const fk_filter *f, fk_serial_put put, void *ctx)
{
    const fk_quotient *qf = (const fk_quotient *)f;
    return put(ctx, qf->table, (size_t)payload_bytes(qf->slots, qf->r));
}

static fk_status check_head(const fk_serial_head *h)
{
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    uint64_t r = h->param[P_R];
    if (r < FK_QUOTIENT_MIN_R || r > FK_QUOTIENT_MAX_R ||
        !fk_qf_geometry_ok(h->param[P_SLOTS], h->param[P_QUOTIENTS], (uint32_t)r))
        return FK_ECORRUPT;
    if (h->payload_len != payload_bytes(h->param[P_SLOTS], (uint32_t)r))
        return FK_ECORRUPT;
    return FK_OK;
}

static fk_status load_payload(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    *out = NULL;
    uint64_t S = h->param[P_SLOTS], N = h->param[P_QUOTIENTS];
    uint32_t r = (uint32_t)h->param[P_R];
    fk_quotient *seen = NULL, *qf = NULL;
    fk_status s = fk_qf_create_exact(S, N, r, h->seed, h->capacity, h->fpr, &seen);
    if (s == FK_OK)
        s = fk_qf_create_exact(S, N, r, h->seed, h->capacity, h->fpr, &qf);
    if (s != FK_OK) {
        fk_quotient_free(seen);
        return s == FK_EINVAL ? FK_ECORRUPT : s;
    }
    memcpy(seen->table, payload, (size_t)h->payload_len);
    s = fk_qf_rebuild_canonical(seen, qf);
    fk_quotient_free(seen);
    if (s == FK_OK && fk_qf_items(qf) != h->items)
        s = FK_ECORRUPT;
    if (s != FK_OK) {
        fk_quotient_free(qf);
        return s;
    }
    FK_QF_DEBUG_CHECK(qf);
    *out = &qf->base;
    return FK_OK;
}

const fk_serial_ops fk_quotient_serial_ops = {
    .kind_id = FK_KIND_QUOTIENT,
    .param_names = { [P_SLOTS] = "slots (S)", [P_QUOTIENTS] = "quotients (N)",
                     [P_R] = "remainder bits (r)" },
    .save_head = save_head,
    .save_payload = save_payload,
    .check_head = check_head,
    .load = load_payload,
    .stream_payload = stream_payload,
};

FK_SERIAL_DIRECT_DEFINE(fk_quotient, fk_quotient, fk_quotient_ops)
