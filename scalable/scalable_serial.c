/* scalable/scalable_serial.c: a growing filter's part of the saved format
 * (file kind FK_KIND_SCALABLE; framing in serial.h).
 *
 * Header: seed, capacity (link 0's), fpr (the chain's target), items (the
 * chain's). Kind parameters: param[0] = the inner kind's file id,
 * param[1] = growth s, param[2] = tightening r as IEEE-754 binary64 bits,
 * param[3] = number of links n, param[4] = 1 when the newest link is full
 * (the next insert opens a link); the rest 0.
 * Payload: the n links, oldest first, each as a u64 length L followed by L
 * bytes: that link saved as a whole record of the inner kind (its own
 * header, payload and checksum), so each link is validated by the inner
 * kind's loader. Every link's capacity, fpr and seed must be exactly those
 * the chain derives for it (c0 s^i, e0 r^i, the header's seed), the
 * links' items must add up to the header's (the sum capped at UINT64_MAX,
 * as the chain's count stops there), and a link of bloom or blocked
 * filters holds at most its capacity (what inserts leave: see load_link).
 * Not checkable, and harmless: which link a key went to (every link
 * answers for any key), and newest_full (either value leads to a valid
 * chain on the next insert).
 */
#include <string.h>
#include "scalable_internal.h"
#include "../common/serial_internal.h"
#include "../common/endian.h"
#include "../common/hash.h"

enum { P_INNER, P_GROWTH, P_TIGHTENING, P_LINKS, P_NEWEST_FULL, P_USED };

#define LINK_LEN_BYTES 8u
#define RECORD_OVERHEAD (FK_SERIAL_HEADER_BYTES + FK_SERIAL_TRAILER_BYTES)

static uint64_t link_record_bytes(const fk_filter *link)
{
    uint64_t n = 0;
    (void)fk_filter_serialized_size(link, &n);
    return n;
}

void fk_scalable_save_head(const fk_filter *f, fk_serial_head *h)
{
    const fk_scalable *c = (const fk_scalable *)f;
    h->seed = c->first.seed;
    h->capacity = c->first.capacity;
    h->fpr = c->target;
    h->items = fk_scalable_items(c);
    h->param[P_INNER] = c->inner->serial ? c->inner->serial->kind_id : 0;
    h->param[P_GROWTH] = c->growth;
    double r = c->tightening;
    uint64_t r_bits;
    memcpy(&r_bits, &r, sizeof r_bits);
    h->param[P_TIGHTENING] = r_bits;
    h->param[P_LINKS] = c->count;
    h->param[P_NEWEST_FULL] = c->newest_full;
    uint64_t len = 0;
    for (size_t i = 0; i < c->count; i++)
        len += LINK_LEN_BYTES + link_record_bytes(c->link[i].filter);
    h->payload_len = len;
}

void fk_scalable_save_payload(const fk_filter *f, uint8_t *dst)
{
    const fk_scalable *c = (const fk_scalable *)f;
    for (size_t i = 0; i < c->count; i++) {
        uint64_t n = link_record_bytes(c->link[i].filter);
        fk_le_put64(dst, n);
        size_t written = 0;
        (void)fk_filter_save(c->link[i].filter, dst + LINK_LEN_BYTES, (size_t)n, &written);
        dst += LINK_LEN_BYTES + n;
    }
}

/* Each link: its record's length, then the record, streamed in turn. */
bool fk_scalable_stream_payload(const fk_filter *f, fk_serial_put put, void *ctx)
{
    const fk_scalable *c = (const fk_scalable *)f;
    for (size_t i = 0; i < c->count; i++) {
        uint8_t len[LINK_LEN_BYTES];
        fk_le_put64(len, link_record_bytes(c->link[i].filter));
        if (!put(ctx, len, sizeof len) || fk_serial_stream(c->link[i].filter, put, ctx) != FK_OK)
            return false;
    }
    return true;
}

static double tightening_of(const fk_serial_head *h)
{
    double r;
    uint64_t bits = h->param[P_TIGHTENING];
    memcpy(&r, &bits, sizeof r);
    return r;
}

fk_status fk_scalable_check_head(const fk_ops *inner, const fk_serial_head *h)
{
    if (fk_ops_check(inner) != FK_OK || !inner->serial)
        return FK_ECORRUPT;
    for (unsigned i = P_USED; i < FK_SERIAL_PARAMS; i++)
        if (h->param[i] != 0)
            return FK_ECORRUPT;
    double r = tightening_of(h);
    uint64_t links = h->param[P_LINKS];
    if (h->param[P_INNER] != inner->serial->kind_id || h->param[P_GROWTH] == 0 ||
        h->param[P_GROWTH] > FK_SCALABLE_MAX_GROWTH || !(r > 0.0 && r < 1.0) || links == 0 ||
        links > FK_SCALABLE_MAX_LINKS || h->param[P_NEWEST_FULL] > 1)
        return FK_ECORRUPT;
    if (!(h->fpr > 0.0 && h->fpr < 1.0) || h->capacity == 0 || !(h->fpr * (1.0 - r) > 0.0))
        return FK_ECORRUPT;
    if (h->payload_len / links < LINK_LEN_BYTES + RECORD_OVERHEAD)
        return FK_ECORRUPT;
    return FK_OK;
}

/* Loads link i = c->count from the len bytes at p into c, checking that it
 * is a link the chain derives (q: its params, as fk_scalable_next_params
 * gives them; nominal: the link before's fpr times tightening). Its fpr
 * may be anything from nominal (files of 0.2.0) to q's, within rounding
 * (libm's log and expm1 may differ in the last bits between machines);
 * q->fpr becomes the saved one. */
static fk_status load_link(fk_scalable *c, fk_params *q, double nominal, const uint8_t *p,
                           size_t len)
{
    fk_serial_head lh;
    if (fk_serial_read_head(p, len, &lh) != FK_OK)
        return FK_ECORRUPT;
    if (c->count == 0)
        nominal = q->fpr; /* link 0: exactly e0 */
    bool exact = memcmp(&lh.fpr, &nominal, sizeof lh.fpr) == 0;
    /* A link of an unbounded kind that cannot remove (bloom, blocked)
     * takes inserts only while newest and closes at its capacity (bulk
     * inserts stop there too), so it never holds more: a forged count
     * above it would let the chain's item count wrap after a few inserts
     * and its save no longer load. (A bounded kind's loader bounds its
     * own count by its slots; a removable kind's, counting in a chain
     * made through the API only, counts copies and has no bound.) */
    if (!c->bounded && !c->inner->remove && lh.items > q->capacity)
        return FK_ECORRUPT;
    /* a chain's links hash as the chain does (a blocked link saved with
     * Parquet's scheme would not) */
    if (lh.hash_scheme != FK_HASH_SCHEME_XXH3_128)
        return FK_ECORRUPT;
    if (lh.capacity != q->capacity || lh.seed != q->seed ||
        !(exact || (lh.fpr > nominal && lh.fpr <= q->fpr * (1.0 + 1e-9))))
        return FK_ECORRUPT;
    q->fpr = lh.fpr;
    fk_filter *f = NULL;
    fk_status s = fk_filter_load(c->inner, p, len, &f);
    if (s != FK_OK)
        return s == FK_ENOMEM ? FK_ENOMEM : FK_ECORRUPT;
    fk_stats st;
    memset(&st, 0, sizeof st);
    c->inner->stats(f, &st);
    if (st.memory_bytes > FK_MEMORY_CAP - c->link_memory) {
        c->inner->destroy(f);
        return FK_ECORRUPT;
    }
    /* its probes from a hash: fk_scalable_bind_hashed, once loaded */
    c->link[c->count++] = (fk_scalable_link){ f, q->capacity, q->fpr, lh.items, { NULL, NULL }, { 0, 0 } };
    c->link_memory += st.memory_bytes;
    c->spent += fk_scalable_link_spend(c->inner, q);
    return FK_OK;
}

fk_status fk_scalable_load(const fk_ops *outer, const fk_ops *inner, const fk_serial_head *h,
                           const uint8_t *payload, fk_filter **out)
{
    *out = NULL;
    if (fk_scalable_check_head(inner, h) != FK_OK)
        return FK_ECORRUPT;
    fk_params p;
    memset(&p, 0, sizeof p);
    p.capacity = h->capacity;
    p.fpr = h->fpr;
    p.seed = h->seed;
    p.growth = (uint32_t)h->param[P_GROWTH];
    p.tightening = tightening_of(h);
    size_t links = (size_t)h->param[P_LINKS];
    fk_scalable *c = fk_scalable_alloc(outer, inner, &p, p.growth, p.tightening,
                                       fk_scalable_slots(links));
    if (!c)
        return FK_ENOMEM;
    fk_status s = FK_OK;
    const uint8_t *at = payload;
    uint64_t left = h->payload_len, items = 0;
    fk_params q = c->first;
    for (size_t i = 0; i < links && s == FK_OK; i++) {
        double nominal = q.fpr * c->tightening;
        if (i > 0 && fk_scalable_next_params(c, &q, &q) != FK_OK) {
            s = FK_ECORRUPT;
            break;
        }
        uint64_t n = left >= LINK_LEN_BYTES ? fk_le_get64(at) : 0;
        if (left < LINK_LEN_BYTES || n > left - LINK_LEN_BYTES || n < RECORD_OVERHEAD) {
            s = FK_ECORRUPT;
            break;
        }
        s = load_link(c, &q, nominal, at + LINK_LEN_BYTES, (size_t)n);
        at += LINK_LEN_BYTES + n;
        left -= LINK_LEN_BYTES + n;
        if (s == FK_OK) {
            uint64_t here = c->link[c->count - 1].items;
            items = here > UINT64_MAX - items ? UINT64_MAX : items + here; /* capped */
        }
    }
    if (s == FK_OK && (left != 0 || items != h->items))
        s = FK_ECORRUPT;
    if (s != FK_OK) {
        fk_scalable_slot_destroy(&c->base);
        return s;
    }
    c->items = items;
    c->newest_full = h->param[P_NEWEST_FULL] != 0;
    *out = &c->base;
    return FK_OK;
}
