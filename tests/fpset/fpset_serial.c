/* tests/fpset/fpset_serial.c: saving an fpset and loading it back (the
 * hooks of common/serial.h). */
#include "fpset_internal.h"
#include "../../common/endian.h"

/* ------------------------------------------------------------ saving
 * param[0] = slots, param[1] = f; payload: the slot array, u64 LE each. */

static void fpset_save_head(const fk_filter *x, fk_serial_head *h)
{
    const fpset *s = (const fpset *)x;
    *h = (fk_serial_head){ .seed = s->seed, .capacity = s->capacity, .fpr = s->fpr,
                           .items = s->items, .param = { s->mask + 1, s->f },
                           .payload_len = (s->mask + 1) * 8 };
}

static void fpset_save_payload(const fk_filter *x, uint8_t *dst)
{
    const fpset *s = (const fpset *)x;
    fk_le_put64_array(dst, s->slot, (size_t)(s->mask + 1));
}

static fk_status fpset_check_head(const fk_serial_head *h)
{
    uint64_t slots = h->param[0], f = h->param[1];
    for (unsigned i = 2; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i])
            return FK_ECORRUPT;
    if (slots < 8 || (slots & (slots - 1)) || slots > FK_MEMORY_CAP / 8 || f < 1 || f > 62)
        return FK_ECORRUPT;
    if (h->payload_len != slots * 8 || h->items > fpset_limit(slots))
        return FK_ECORRUPT;
    return FK_OK;
}

static fk_status fpset_load(const fk_serial_head *h, const uint8_t *payload, fk_filter **out)
{
    fpset *s;
    *out = NULL;
    fk_status st = fpset_create_exact(h->param[0], (uint32_t)h->param[1], h->seed, h->capacity,
                                      h->fpr, &s);
    if (st != FK_OK)
        return st;
    fk_le_get64_array(s->slot, payload, (size_t)(s->mask + 1));
    uint64_t used = 0, top = UINT64_C(1) << s->f;
    bool ok = true;
    for (uint64_t i = 0; i <= s->mask; i++) {
        used += s->slot[i] != 0;
        ok &= s->slot[i] <= top;
    }
    if (!ok || used != h->items) {
        fpset_free(s);
        return FK_ECORRUPT;
    }
    s->items = used;
    *out = &s->base;
    return FK_OK;
}

const fk_serial_ops fpset_serial_ops = {
    .kind_id = FK_KIND_TEST_FPSET,
    .param_names = { "slots", "fingerprint bits" },
    .save_head = fpset_save_head,
    .save_payload = fpset_save_payload,
    .check_head = fpset_check_head,
    .load = fpset_load,
};

