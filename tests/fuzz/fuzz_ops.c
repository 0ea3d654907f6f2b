/* tests/fuzz/fuzz_ops.c: libFuzzer target: random operation sequences on
 * each kind, checked against an exact model (a count per key).
 *
 * Input: [kind][capacity][fpr][seed lo][seed hi] then operations of 3 bytes
 * [op][key lo][key hi]; key 0xFFFF is the empty key, any other is 2 bytes.
 * Properties: no crash, leak or UB; statuses are the documented ones; no
 * false negatives (a key inserted with FK_OK and not removed is found, also
 * after FK_EFULL and after a save/load round trip); removing a definitely
 * absent key is FK_ENOTFOUND; items == successful inserts - removes.
 * One exception: a growing kind that removes (a chain of cuckoo filters)
 * takes a removed key's copy from the newest sub-filter answering yes, which
 * may be another key's copy when a newer sub-filter's yes is a false
 * positive (scalable/scalable.h); after its first remove the run stops
 * checking for false negatives (tests/test_scalable.c checks removes
 * through growth at an fpr where that cannot happen in its seeded run).
 * A static kind (FK_CAP_STATIC) is built from the keys of the insert
 * operations, then: every one is found, also after a round trip; items
 * counts them once each; its writers answer FK_EUNSUPPORTED.
 * A kind that forgets (FK_CAP_EXPIRES, a count window of capacity N)
 * promises only the keys among its last N successful inserts (a repeat
 * counts and refreshes the key), and its items count the live generations'
 * inserts, so at most all of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/serial.h"
#include "../../registry/registry.h"

#define REQUIRE(c) \
    do { if (!(c)) { fprintf(stderr, "fuzz_ops: %s failed\n", #c); abort(); } } while (0)

#define KEYS 65536u
static uint32_t model[KEYS];   /* successful inserts - removes, per key */
static uint8_t  seen[KEYS];    /* 1 once a key was inserted in this run */
static uint16_t touched[KEYS]; /* the keys with seen set, to reset them */
static size_t ntouched;
static int lossy; /* a growing kind removed a key: false negatives possible */
static uint64_t last_insert[KEYS]; /* the insert number of a key's latest insert */
static uint64_t inserts;           /* successful inserts so far in this run */
static uint64_t window;            /* an expiring kind's N; 0 for the others */

/* The model says the key must answer present. */
static int must_hold(uint16_t id)
{
    return model[id] && !lossy && (!window || inserts - last_insert[id] < window);
}

static const double fprs[8] = { 0.5, 0.1, 0.01, 0.001, 1e-4, 1e-6, 1e-12, 0.999999 };

static size_t key_bytes(uint16_t id, uint8_t out[2])
{
    out[0] = (uint8_t)id;
    out[1] = (uint8_t)(id >> 8);
    return id == 0xFFFF ? 0 : 2;
}

static void check_all(const fk_filter *f)
{
    uint8_t k[2];
    for (size_t i = 0; i < ntouched && !lossy; i++)
        if (must_hold(touched[i]))
            REQUIRE(fk_filter_contains(f, k, key_bytes(touched[i], k)));
}

/* Save and load back; the copy must answer like the original. */
static fk_filter *round_trip(fk_filter *f)
{
    uint64_t n = 0;
    if (fk_filter_serialized_size(f, &n) != FK_OK)
        return f;
    uint8_t *buf = malloc(n);
    size_t w = 0;
    REQUIRE(buf && fk_filter_save(f, buf, n, &w) == FK_OK && w == n);
    fk_filter *g = NULL;
    REQUIRE(fk_filter_load(fk_filter_ops(f), buf, w, &g) == FK_OK);
    free(buf);
    uint8_t k[2];
    for (uint32_t id = 0; id < 4096; id += 61)
        REQUIRE(fk_filter_contains(f, k, key_bytes((uint16_t)id, k)) ==
                fk_filter_contains(g, k, key_bytes((uint16_t)id, k)));
    fk_filter_free(f);
    return g;
}

/* A static kind: built once from the insert operations' keys. */
static int static_kind(const fk_ops *ops, const fk_params *p, const uint8_t *data, size_t size)
{
    size_t cap = size / 3 + 1, n = 0, distinct = 0;
    uint8_t (*bytes)[2] = malloc(cap * sizeof *bytes);
    const void **keys = malloc(cap * sizeof *keys);
    size_t *lens = malloc(cap * sizeof *lens);
    REQUIRE(bytes && keys && lens);
    /* the model too: a dynamic run before this one left its counts there */
    for (size_t i = 0; i < ntouched; i++)
        model[touched[i]] = seen[touched[i]] = 0;
    ntouched = 0;
    for (size_t at = 5; at + 3 <= size; at += 3) {
        if ((data[at] & 3) != 0)
            continue;
        uint16_t id = (uint16_t)(data[at + 1] | data[at + 2] << 8);
        lens[n] = key_bytes(id, bytes[n]);
        keys[n] = bytes[n];
        n++;
        if (!seen[id]) {
            seen[id] = 1;
            touched[ntouched++] = id;
            distinct++;
        }
    }
    fk_filter *f = NULL;
    fk_status s = fk_filter_build(ops, p, n, keys, lens, &f);
    REQUIRE(s == FK_OK && f);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++)
            REQUIRE(fk_filter_contains(f, keys[i], lens[i]));
        fk_stats st;
        fk_filter_stats(f, &st);
        REQUIRE(st.items == distinct);
        uint8_t k[2];
        REQUIRE(fk_filter_insert(f, k, key_bytes(1, k)) == FK_EUNSUPPORTED);
        REQUIRE(fk_filter_remove(f, k, key_bytes(1, k)) == FK_EUNSUPPORTED);
        f = round_trip(f);
    }
    fk_filter_free(f);
    free(bytes);
    free(keys);
    free(lens);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t nkinds = 0;
    while (fk_ops_at(nkinds))
        nkinds++;
    if (size < 5 || nkinds == 0)
        return 0;
    const fk_ops *ops = fk_ops_at(data[0] % nkinds);
    fk_params p = fk_params_make(1 + (uint64_t)data[1] * 8, fprs[data[2] & 7]);
    p.seed = (uint64_t)data[3] | (uint64_t)data[4] << 8;
    if (fk_ops_caps(ops) & FK_CAP_STATIC)
        return static_kind(ops, &p, data, size);
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(ops, &p, &f);
    REQUIRE(s == FK_OK && f);

    for (size_t i = 0; i < ntouched; i++)
        model[touched[i]] = seen[touched[i]] = 0;
    ntouched = 0;
    lossy = 0;
    inserts = 0;
    window = (fk_ops_caps(ops) & FK_CAP_EXPIRES) ? p.capacity : 0;
    uint64_t items = 0;
    uint8_t k[2];
    for (size_t at = 5; at + 3 <= size; at += 3) {
        uint8_t op = data[at];
        uint16_t id = (uint16_t)(data[at + 1] | data[at + 2] << 8);
        size_t len = key_bytes(id, k);
        switch (op & 3) {
        case 0: /* insert */
            s = fk_filter_insert(f, k, len);
            REQUIRE(s == FK_OK || s == FK_EFULL);
            if (s == FK_OK) {
                if (!seen[id]) {
                    seen[id] = 1;
                    touched[ntouched++] = id;
                }
                model[id]++;
                items++;
                last_insert[id] = ++inserts;
            } else if ((op & 0x1C) == 0) {
                check_all(f); /* nothing was lost (a full sweep: now and then) */
            }
            break;
        case 1: /* remove, only of keys that are in, or definitely out */
            if (model[id]) {
                s = fk_filter_remove(f, k, len);
                REQUIRE(ops->remove ? s == FK_OK || (lossy && s == FK_ENOTFOUND)
                                    : s == FK_EUNSUPPORTED);
                if (s == FK_OK) {
                    model[id]--;
                    items--;
                    lossy |= (fk_ops_caps(ops) & FK_CAP_GROWS) != 0;
                }
            } else if (!fk_filter_contains(f, k, len)) {
                s = fk_filter_remove(f, k, len);
                REQUIRE(s == (ops->remove ? FK_ENOTFOUND : FK_EUNSUPPORTED));
            }
            break;
        case 2: /* lookup */
            if (must_hold(id))
                REQUIRE(fk_filter_contains(f, k, len));
            else
                (void)fk_filter_contains(f, k, len);
            break;
        default:
            if (op & 4) {
                f = round_trip(f);
            } else {
                fk_stats st;
                fk_filter_stats(f, &st);
                /* a growing kind's ambiguous remove (the key reads present in
                 * more than one link) answers FK_OK and keeps the copies, so
                 * it may hold more than the model (scalable/scalable.h) */
                REQUIRE(st.items == items ||
                        ((fk_ops_caps(ops) & FK_CAP_GROWS) && ops->remove && st.items > items) ||
                        (window && st.items < items));
                REQUIRE(st.load_factor >= 0.0 && st.load_factor <= 1.0);
                if (op & 8) /* the full sweep costs, so only now and then */
                    check_all(f);
            }
        }
    }
    check_all(f);
    fk_filter_free(f);
    return 0;
}
