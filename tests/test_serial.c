/* tests/test_serial.c: save/load of every kind that serializes (through the
 * vtable, so a new kind is covered once it sets FK_CAP_SERIALIZE).
 *
 * Golden files: tests/golden/<kind>.fk pin the format. After a deliberate
 * format change (with a version bump), rewrite them with
 *   FK_REGEN_GOLDEN=1 build/tests/test_serial
 * run from the repository root, and commit the new files (this also writes
 * the load fuzzer's seeds, tests/fuzz/corpus/load/<kind>-*.fk).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../common/serial_internal.h"
#include "check.h"
#include "../common/serial.h"
#include "../common/endian.h"
#include "../common/hash.h"
#include "../bloom/bloom.h"
#include "../counting/counting.h"
#include "../counting/counting_internal.h"
#include "../cuckoo/cuckoo.h"
#include "../cuckoo/cuckoo_internal.h"
#include "../registry/registry.h"
#include "../window/window.h"
#include "describe.h"

/* -------------------------------------------------------------- helpers */

static bool serializes(const fk_ops *ops) { return (fk_ops_caps(ops) & FK_CAP_SERIALIZE) != 0; }

static void key_of(uint64_t v, uint8_t out[8]) { fk_le_put64(out, v); }

/* Fills a filter with n keys drawn from seed; kinds that remove drop every
 * tenth of them again, so counters and stashes are exercised too. */
static void fill(fk_filter *f, uint64_t seed, uint64_t n)
{
    uint64_t st = seed;
    uint8_t k[8];
    for (uint64_t i = 0; i < n; i++) {
        key_of(check_rng(&st), k);
        fk_filter_insert(f, k, sizeof k);
    }
    if (!fk_filter_ops(f)->remove)
        return;
    st = seed;
    for (uint64_t i = 0; i < n; i++) {
        key_of(check_rng(&st), k);
        if (i % 10 == 0)
            fk_filter_remove(f, k, sizeof k);
    }
}

static fk_filter *make(const fk_ops *ops, uint64_t capacity, double fpr, uint64_t seed)
{
    fk_params p = fk_params_make(capacity, fpr);
    p.seed = seed;
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
    return f;
}

static bool is_static(const fk_ops *ops) { return (fk_ops_caps(ops) & FK_CAP_STATIC) != 0; }

/* A filter holding the n keys fill(f, fill_seed, n) would insert: made
 * and filled, or, for a static kind, built from those keys. */
static fk_filter *make_filled(const fk_ops *ops, uint64_t capacity, double fpr, uint64_t seed,
                              uint64_t fill_seed, uint64_t n)
{
    if (!is_static(ops)) {
        fk_filter *f = make(ops, capacity, fpr, seed);
        if (f)
            fill(f, fill_seed, n);
        return f;
    }
    uint64_t *keys = malloc((n ? n : 1) * sizeof *keys), st = fill_seed;
    for (uint64_t i = 0; keys && i < n; i++)
        keys[i] = check_rng(&st); /* key_of: the value's 8 little-endian bytes */
    fk_params p = fk_params_make(capacity, fpr);
    p.seed = seed;
    fk_filter *f = NULL;
    CHECK_STATUS(keys ? fk_filter_build_u64(ops, &p, (size_t)n, keys, &f) : FK_ENOMEM, FK_OK);
    free(keys);
    return f;
}

/* Saves f into a new buffer (caller frees); NULL on failure. */
static uint8_t *save(const fk_filter *f, size_t *len)
{
    uint64_t n = 0;
    *len = 0;
    if (!CHECK(fk_filter_serialized_size(f, &n) == FK_OK))
        return NULL;
    uint8_t *buf = malloc(n);
    size_t w = 0;
    if (!CHECK(buf) || !CHECK(fk_filter_save(f, buf, n, &w) == FK_OK) || !CHECK(w == n)) {
        free(buf);
        return NULL;
    }
    *len = w;
    return buf;
}

/* Loads through the given ops, the registry and a FILE; all three must
 * agree on the status. Returns the status; *out only for FK_OK. */
static fk_status load_all_ways(const fk_ops *ops, const uint8_t *buf, size_t len, fk_filter **out)
{
    fk_filter *a = NULL, *b = NULL, *c = NULL;
    fk_status sa = fk_filter_load(ops, buf, len, &a);
    fk_status sb = fk_filter_load_any(buf, len, &b);
    FILE *fp = fmemopen((void *)(uintptr_t)(len ? buf : (const uint8_t *)""), len ? len : 1, "rb");
    fk_status sc = FK_EIO;
    if (fp) {
        if (len == 0)
            fgetc(fp); /* fmemopen cannot open an empty buffer: consume it */
        sc = fk_filter_load_file(ops, fp, &c);
        fclose(fp);
    }
    CHECK_MSG(sa == sb && sa == sc, "buffer %s, any %s, file %s", fk_status_name(sa),
              fk_status_name(sb), fk_status_name(sc));
    CHECK((sa == FK_OK) == (a != NULL));
    fk_filter_free(b);
    fk_filter_free(c);
    *out = a;
    return sa;
}

/* True when every way of loading buf refuses it as FK_ECORRUPT. */
static bool refused(const fk_ops *ops, const uint8_t *buf, size_t len)
{
    fk_filter *g = NULL;
    fk_status s = load_all_ways(ops, buf, len, &g);
    fk_filter_free(g);
    return s == FK_ECORRUPT;
}

static uint64_t mismatches(const fk_filter *x, const fk_filter *y, uint64_t seed, uint64_t probes)
{
    uint64_t st = seed, bad = 0;
    uint8_t k[8];
    for (uint64_t i = 0; i < probes; i++) {
        key_of(check_rng(&st), k);
        bad += fk_filter_contains(x, k, sizeof k) != fk_filter_contains(y, k, sizeof k);
    }
    return bad;
}

static bool same_bytes(const fk_filter *x, const fk_filter *y)
{
    size_t nx, ny;
    uint8_t *bx = save(x, &nx), *by = save(y, &ny);
    bool same = bx && by && nx == ny && memcmp(bx, by, nx) == 0;
    free(bx);
    free(by);
    return same;
}

/* Rewrites the checksum after a deliberate edit, so the test reaches the
 * checks that come after it. */
static void reseal(uint8_t *buf, size_t len)
{
    fk_le_put64(buf + len - 8, XXH64(buf, len - 8, 0));
}

/* -------------------------------------------------------------- tests */

/* A kind's file id finds a kind saving under it; kinds that share an id
 * (the growing kinds: one id, the inner kind in a parameter) are told
 * apart by the header: each one's saved filter loads as that kind. */
static void kind_id_finds_the_kind(const fk_ops *ops)
{
    const fk_ops *found = fk_ops_find_kind_id(ops->serial->kind_id);
    CHECK(found && found->serial->kind_id == ops->serial->kind_id);
    if (found == ops)
        return;
    fk_params p = fk_params_make(100, 0.01);
    fk_filter *f = NULL, *g = NULL;
    CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
    uint8_t buf[1 << 14];
    size_t len = 0;
    CHECK_STATUS(fk_filter_save(f, buf, sizeof buf, &len), FK_OK);
    CHECK_STATUS(fk_filter_load_any(buf, len, &g), FK_OK);
    CHECK_MSG(fk_filter_ops(g) == ops, "%s shares kind id %u with %s and loads as another kind",
              ops->name, (unsigned)ops->serial->kind_id, found->name);
    fk_filter_free(f);
    fk_filter_free(g);
}

TEST(every_serializing_kind_has_a_kind_id_that_finds_it)
{
    int n = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        CHECK_MSG(serializes(ops), "built-in kind %s cannot be saved", ops->name);
        if (!serializes(ops))
            continue;
        n++;
        const fk_serial_ops *so = ops->serial;
        CHECK(so->kind_id != 0);
        kind_id_finds_the_kind(ops);
        CHECK(so->save_head && so->save_payload && so->check_head && so->load);
    }
    CHECK(n >= 3 || check_kind_filtered());
    CHECK(fk_ops_find_kind_id(0) == NULL);
    CHECK(fk_ops_find_kind_id(0xFFFF) == NULL);
    CHECK(fk_ops_find("bloom")->serial->kind_id == FK_KIND_BLOOM);
}

/* A reloaded filter answers exactly as the saved one over 1M probes, has the
 * same figures, re-saves to the same bytes, and keeps evolving identically. */
TEST(reload_answers_identically)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        if (!serializes(ops))
            continue;
        fk_filter *f = make_filled(ops, 100000, 0.01, 42, 7, 100000);
        if (!f)
            continue;
        size_t len;
        uint8_t *buf = save(f, &len);
        fk_filter *g = NULL;
        if (buf)
            CHECK_STATUS(load_all_ways(ops, buf, len, &g), FK_OK);
        if (g) {
            CHECK(fk_filter_ops(g) == ops);
            CHECK_EQ_U64(mismatches(f, g, 7, 100000), 0);   /* the inserted keys */
            CHECK_EQ_U64(mismatches(f, g, 99, 1000000), 0); /* mostly absent ones */
            fk_stats a, b;
            fk_filter_stats(f, &a);
            fk_filter_stats(g, &b);
            CHECK_EQ_U64(a.items, b.items);
            CHECK_EQ_U64(a.capacity, b.capacity);
            CHECK_EQ_U64(a.memory_bytes, b.memory_bytes);
            CHECK(a.load_factor == b.load_factor);
            CHECK(a.expected_fpr == b.expected_fpr);
            CHECK(same_bytes(f, g));
            /* Keep inserting (and removing) into both: still identical. */
            if (!is_static(ops)) {
                fill(f, 1234, 20000);
                fill(g, 1234, 20000);
            }
            CHECK(same_bytes(f, g));
            CHECK_EQ_U64(mismatches(f, g, 5, 100000), 0);
        }
        free(buf);
        fk_filter_free(f);
        fk_filter_free(g);
    }
}

/* A small saved file of each kind, damaged at every byte. */
static uint8_t *small_file(const fk_ops *ops, size_t *len)
{
    fk_filter *f = make_filled(ops, 40, 0.05, 3, 11, 30);
    if (!f)
        return NULL;
    uint8_t *buf = save(f, len);
    fk_filter_free(f);
    return buf;
}

TEST(truncating_at_every_byte_is_corrupt)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        size_t len;
        uint8_t *buf = serializes(ops) ? small_file(ops, &len) : NULL;
        if (!buf)
            continue;
        CHECK(len < 4096);
        for (size_t n = 0; n < len; n++) {
            CHECK_MSG(refused(ops, buf, n), "%s cut at %zu", ops->name, n);
        }
        free(buf);
    }
}

TEST(flipping_any_bit_is_corrupt)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        size_t len;
        uint8_t *buf = serializes(ops) ? small_file(ops, &len) : NULL;
        if (!buf)
            continue;
        for (size_t at = 0; at < len; at++) {
            for (unsigned bit = 0; bit < 8; bit++) {
                buf[at] ^= (uint8_t)(1u << bit);
                CHECK_MSG(refused(ops, buf, len), "%s byte %zu bit %u",
                          ops->name, at, bit);
                buf[at] ^= (uint8_t)(1u << bit);
            }
            /* whole-byte patterns too */
            uint8_t keep = buf[at];
            for (unsigned pat = 0; pat < 3; pat++) {
                buf[at] = pat == 0 ? 0x00 : pat == 1 ? 0xFF : (uint8_t)~keep;
                if (buf[at] == keep)
                    continue;
                CHECK_MSG(refused(ops, buf, len), "%s byte %zu = %02x",
                          ops->name, at, buf[at]);
            }
            buf[at] = keep;
        }
        fk_filter *g = NULL;
        CHECK_STATUS(load_all_ways(ops, buf, len, &g), FK_OK); /* restored intact */
        fk_filter_free(g);
        free(buf);
    }
}

TEST(extending_at_every_byte_is_corrupt)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        size_t len;
        uint8_t *buf = serializes(ops) ? small_file(ops, &len) : NULL;
        if (!buf)
            continue;
        uint8_t *big = malloc(len + 1);
        static const uint8_t extra[] = { 0x00, 0xA5, 0x01 };
        for (size_t at = 0; big && at <= len; at++) {
            /* every byte value in the magic + version prefix, where a
             * shifted field could pass for another valid one; three
             * elsewhere (the checksum and length catch the rest) */
            unsigned values = at <= 12 ? 256 : sizeof extra;
            for (unsigned e = 0; e < values; e++) {
                uint8_t x = at <= 12 ? (uint8_t)e : extra[e];
                memcpy(big, buf, at);
                big[at] = x;
                memcpy(big + at + 1, buf + at, len - at);
                CHECK_MSG(refused(ops, big, len + 1),
                          "%s: %02x inserted at %zu", ops->name, x, at);
            }
        }
        free(big);
        free(buf);
    }
}

/* The payload length field must equal the bytes the record holds. Each
 * record below is resealed (its checksum recomputed), and its header and
 * payload are otherwise the kind's own, so only that comparison in
 * common/serial.c can refuse it: bytes inserted before the trailer or
 * removed before it with the field unchanged, and the field longer or
 * shorter than the bytes there. Every registered kind that saves. */
static void length_field_disagrees(const fk_ops *ops)
{
    size_t len;
    uint8_t *buf = small_file(ops, &len);
    if (!buf)
        return;
    const size_t trailer = FK_SERIAL_TRAILER_BYTES, head = FK_SERIAL_HEADER_BYTES;
    uint64_t payload = fk_le_get64(buf + head - 8);
    CHECK_EQ_U64(payload, len - head - trailer); /* the field as saved */
    /* room for the longest variant, and slack past it so a loader that
     * trusted a longer field reads bytes of this buffer, not past it */
    uint8_t *rec = calloc(1, len + 64 + 64);
    if (!CHECK(rec)) {
        free(buf);
        return;
    }
    static const size_t deltas[] = { 1, 8, 16, 64 };
    for (size_t d = 0; d < sizeof deltas / sizeof deltas[0]; d++) {
        size_t k = deltas[d];
        /* k bytes inserted before the trailer, the field unchanged */
        memcpy(rec, buf, len - trailer);
        memset(rec + len - trailer, 0, k);
        reseal(rec, len + k);
        CHECK_MSG(refused(ops, rec, len + k), "%s: %zu bytes inserted before the trailer", ops->name, k);
        /* k bytes removed before the trailer, the field unchanged */
        if (k <= payload) {
            memcpy(rec, buf, len - trailer - k);
            reseal(rec, len - k);
            CHECK_MSG(refused(ops, rec, len - k), "%s: %zu payload bytes removed", ops->name, k);
        }
        /* the field k longer, then k shorter, than the bytes there */
        memcpy(rec, buf, len);
        fk_le_put64(rec + head - 8, payload + k);
        reseal(rec, len);
        CHECK_MSG(refused(ops, rec, len), "%s: length field %zu too long", ops->name, k);
        if (k <= payload) {
            fk_le_put64(rec + head - 8, payload - k);
            reseal(rec, len);
            CHECK_MSG(refused(ops, rec, len), "%s: length field %zu too short", ops->name, k);
        }
    }
    /* the record itself still loads: the edits, not the copy, were refused */
    memcpy(rec, buf, len);
    fk_filter *g = NULL;
    CHECK_STATUS(load_all_ways(ops, rec, len, &g), FK_OK);
    fk_filter_free(g);
    free(rec);
    free(buf);
}

TEST(a_length_field_that_disagrees_with_the_record_is_corrupt)
{
    size_t kinds = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        if (!serializes(ops) || !check_kind_selected(ops->name))
            continue;
        length_field_disagrees(ops);
        kinds++;
    }
    CHECK(kinds > 0 || check_kind_filtered());
}

TEST(newer_version_is_unsupported_older_is_corrupt)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        size_t len;
        uint8_t *buf = serializes(ops) ? small_file(ops, &len) : NULL;
        if (!buf)
            continue;
        CHECK_EQ_U64(fk_le_get16(buf + 8), FK_SERIAL_VERSION);
        fk_filter *g = NULL;
        for (unsigned v = FK_SERIAL_VERSION + 1; v < 0x10000; v = v * 3 + 1) {
            fk_le_put16(buf + 8, (uint16_t)v);
            fk_le_put16(buf + 10, (uint16_t)(v ^ FK_SERIAL_VERSION_CHECK));
            CHECK_MSG(load_all_ways(ops, buf, len, &g) == FK_EUNSUPPORTED, "version %u", v);
            reseal(buf, len); /* a valid checksum changes nothing */
            CHECK_MSG(load_all_ways(ops, buf, len, &g) == FK_EUNSUPPORTED, "version %u", v);
        }
        /* a newer version is recognised even in a short file */
        CHECK_STATUS(fk_filter_load(ops, buf, 12, &g), FK_EUNSUPPORTED);
        fk_le_put16(buf + 8, 0);
        fk_le_put16(buf + 10, FK_SERIAL_VERSION_CHECK);
        reseal(buf, len);
        CHECK_STATUS(load_all_ways(ops, buf, len, &g), FK_ECORRUPT);
        free(buf);
    }
}

/* Header fields that pass the checksum (resealed) but make no sense. */
TEST(sealed_nonsense_is_corrupt)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        size_t len;
        uint8_t *buf = serializes(ops) ? small_file(ops, &len) : NULL;
        if (!buf)
            continue;
        uint8_t *bad = malloc(len);
        /* Parameter slots mean different things per kind: those edits are
         * for bloom (m, k), whose ranges this test knows. */
        bool bloom = ops->serial->kind_id == FK_KIND_BLOOM;
        struct { size_t off; unsigned width; uint64_t value; const char *what; } edits[] = {
            { 12, 2, 0, "kind 0" },
            { 12, 2, 0x7777, "unknown kind" },
            { 12, 2, ops->serial->kind_id == 1 ? 2 : 1, "another kind" },
            { 14, 2, 0, "hash scheme 0" },
            { 14, 2, 2, "hash scheme 2" },
            { 24, 8, 0, "capacity 0" },
            { 32, 8, 0, "fpr 0" },
            { 32, 8, 0x3FF0000000000000u, "fpr 1" },
            { 32, 8, 0x7FF8000000000000u, "fpr NaN" },
            { 32, 8, 0xBF847AE147AE147Bu, "fpr -0.01" },
            { bloom ? 48 : 104, 8, bloom ? 0 : 1, "param 0 zero" },
            { bloom ? 48 : 104, 8, bloom ? UINT64_MAX : 1, "param 0 huge" },
            { bloom ? 56 : 104, 8, bloom ? 0 : 1, "param 1 zero" },
            { bloom ? 56 : 104, 8, bloom ? UINT64_MAX : 1, "param 1 huge" },
            { 104, 8, 1, "last param set" },
            { bloom ? 64 : 104, 8, 1, "third param set" },
            { 112, 8, 0, "payload length 0" },
            { 112, 8, FK_MEMORY_CAP, "payload length at the cap" },
        };
        for (size_t e = 0; bad && e < sizeof edits / sizeof edits[0]; e++) {
            memcpy(bad, buf, len);
            for (unsigned b = 0; b < edits[e].width; b++)
                bad[edits[e].off + b] = (uint8_t)(edits[e].value >> (8 * b));
            reseal(bad, len);
            CHECK_MSG(refused(ops, bad, len), "%s: %s", ops->name,
                      edits[e].what);
        }
        free(bad);
        free(buf);
    }
}

TEST(bloom_bits_past_m_must_be_clear)
{
    fk_params p = fk_params_make(10, 0.1);
    p.bits = 100; /* two words, 28 spare bits */
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(fk_ops_find("bloom"), &p, &f), FK_OK);
    size_t len;
    uint8_t *buf = f ? save(f, &len) : NULL;
    if (buf) {
        CHECK_EQ_U64(len, 128 + 16);
        buf[120 + 15] |= 0x80; /* bit 127 */
        reseal(buf, len);
        fk_filter *g = NULL;
        CHECK_STATUS(load_all_ways(fk_ops_find("bloom"), buf, len, &g), FK_ECORRUPT);
        buf[120 + 15] &= 0x7F;
        buf[120 + 12] |= 0x08; /* bit 99: the last real one */
        reseal(buf, len);
        CHECK_STATUS(load_all_ways(fk_ops_find("bloom"), buf, len, &g), FK_OK);
        fk_filter_free(g);
    }
    free(buf);
    fk_filter_free(f);
}

/* Saturations are recounted on load; both widths; padding must be clear. */
TEST(counting_saturation_width_and_padding)
{
    for (uint32_t width = 4; width <= 8; width += 4) {
        fk_params p = fk_params_make(10, 0.1);
        p.bits = 101; /* odd, and not a multiple of 64 / width */
        p.counter_bits = width;
        fk_counting *c = NULL;
        CHECK_STATUS(fk_counting_new(&p, &c), FK_OK);
        if (!c)
            continue;
        for (int i = 0; i < 300; i++)
            fk_counting_insert(c, "hot", 3);
        fk_counting_insert(c, "cold", 4);
        CHECK(counting_desc(c).saturations > 0);
        uint64_t n = 0;
        CHECK_STATUS(fk_filter_serialized_size(fk_counting_as_filter(c), &n), FK_OK);
        CHECK_EQ_U64(n, 128 + (101 * width + 63) / 64 * 8);
        uint8_t buf[512];
        size_t len = 0;
        CHECK_STATUS(fk_counting_save(c, buf, sizeof buf, &len), FK_OK);
        fk_counting *d = NULL;
        CHECK_STATUS(fk_counting_load(buf, len, &d), FK_OK);
        if (d) {
            CHECK_EQ_U64(counting_desc(d).saturations, counting_desc(c).saturations);
            CHECK_EQ_U64(fk_counting_count(d, "hot", 3), fk_counting_count(c, "hot", 3));
            CHECK_EQ_U64(fk_counting_count(d, "cold", 4), fk_counting_count(c, "cold", 4));
            CHECK_EQ_U64(counting_desc(d).counter_bits, width);
            CHECK_STATUS(fk_counting_remove(d, "cold", 4), FK_OK);
            CHECK_STATUS(fk_counting_remove(c, "cold", 4), FK_OK);
            CHECK(same_bytes(fk_counting_as_filter(c), fk_counting_as_filter(d)));
        }
        fk_counting_free(d);
        /* counter 101 (the first past m) set: corrupt; counter 100: fine */
        uint64_t bit = 101 * width;
        buf[120 + bit / 8] |= (uint8_t)(1u << (bit & 7));
        reseal(buf, len);
        CHECK_STATUS(fk_counting_load(buf, len, &d), FK_ECORRUPT);
        CHECK(d == NULL);
        buf[120 + bit / 8] &= (uint8_t)~(1u << (bit & 7));
        buf[120 + len - 128 - 1] |= 0x80; /* the very last padding bit */
        reseal(buf, len);
        CHECK_STATUS(fk_counting_load(buf, len, &d), FK_ECORRUPT);
        buf[120 + len - 128 - 1] &= 0x7F;
        bit = 100 * width;
        buf[120 + bit / 8] |= (uint8_t)(1u << (bit & 7));
        reseal(buf, len);
        CHECK_STATUS(fk_counting_load(buf, len, &d), FK_OK);
        fk_counting_free(d);
        /* width 5 is no width */
        fk_le_put64(buf + 64, 5);
        reseal(buf, len);
        CHECK_STATUS(fk_counting_load(buf, len, &d), FK_ECORRUPT);
        fk_counting_free(c);
    }
}

/* The cuckoo header must agree with its table; the PRNG state carries over. */
TEST(cuckoo_items_geometry_and_prng)
{
    fk_params p = fk_params_make(200, 0.01);
    p.seed = 5;
    fk_cuckoo *c = NULL;
    CHECK_STATUS(fk_cuckoo_new(&p, &c), FK_OK);
    if (!c)
        return;
    for (uint64_t k = 0; k < 400; k++) /* to the first failures: kicks happen */
        (void)fk_cuckoo_insert(c, &k, sizeof k);
    CHECK(cuckoo_desc(c).kicks > 0);
    uint8_t buf[4096];
    size_t len = 0;
    CHECK_STATUS(fk_cuckoo_save(c, buf, sizeof buf, &len), FK_OK);
    CHECK_EQ_U64(len, 128 + cuckoo_desc(c).buckets * 4 * cuckoo_desc(c).fingerprint_bits / 8);
    fk_cuckoo *d = NULL;
    CHECK_STATUS(fk_cuckoo_load(buf, len, &d), FK_OK);
    if (d) {
        CHECK_EQ_U64(cuckoo_desc(d).kicks, cuckoo_desc(c).kicks);
        CHECK_EQ_U64(cuckoo_desc(d).items, cuckoo_desc(c).items);
        /* the same evictions from here on: free some room, refill, compare */
        for (uint64_t k = 0; k < 400; k += 3) {
            fk_cuckoo_remove(c, &k, sizeof k);
            fk_cuckoo_remove(d, &k, sizeof k);
        }
        for (uint64_t k = 1000; k < 1400; k++)
            CHECK(fk_cuckoo_insert(c, &k, sizeof k) == fk_cuckoo_insert(d, &k, sizeof k));
        CHECK(same_bytes(fk_cuckoo_as_filter(c), fk_cuckoo_as_filter(d)));
        fk_cuckoo_free(d);
    }
    struct { size_t off; uint64_t value; const char *what; } edits[] = {
        { 40, cuckoo_desc(c).items + 1, "items one more than occupied" },
        { 40, cuckoo_desc(c).items - 1, "items one less than occupied" },
        { 48, cuckoo_desc(c).buckets - 1, "buckets not a power of two" },
        { 48, 0, "no buckets" },
        { 56, 3, "3-bit fingerprints" },
        { 56, 33, "33-bit fingerprints" },
    };
    uint8_t bad[sizeof buf];
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        memcpy(bad, buf, len);
        fk_le_put64(bad + edits[e].off, edits[e].value);
        reseal(bad, len);
        CHECK_MSG(fk_cuckoo_load(bad, len, &d) == FK_ECORRUPT && d == NULL, "%s",
                  edits[e].what);
    }
    fk_cuckoo_free(c);
    /* one bucket of 5-bit fingerprints: 20 bits, so 4 padding bits */
    p = fk_params_make(1, 0.5);
    p.fingerprint_bits = 5;
    CHECK_STATUS(fk_cuckoo_new(&p, &c), FK_OK);
    if (c) {
        CHECK_STATUS(fk_cuckoo_save(c, buf, sizeof buf, &len), FK_OK);
        CHECK_EQ_U64(len, 128 + 3);
        buf[120 + 2] |= 0x10; /* bit 20: padding */
        reseal(buf, len);
        CHECK_STATUS(fk_cuckoo_load(buf, len, &d), FK_ECORRUPT);
        buf[120 + 2] = 0x08;  /* bit 19: slot 3, fingerprint 16, but items says 0 */
        reseal(buf, len);
        CHECK_STATUS(fk_cuckoo_load(buf, len, &d), FK_ECORRUPT);
        fk_le_put64(buf + 40, 1); /* now items agrees */
        reseal(buf, len);
        CHECK_STATUS(fk_cuckoo_load(buf, len, &d), FK_OK);
        CHECK(d && fk_cuckoo_cell(d, 0, 3) == 16);
        fk_cuckoo_free(d);
        fk_cuckoo_free(c);
    }
}

TEST(file_round_trip_and_trailing_bytes)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        if (!serializes(ops))
            continue;
        fk_filter *f = make_filled(ops, 5000, 0.01, 9, 21, 4000);
        if (!f)
            continue;
        FILE *fp = tmpfile();
        if (!CHECK(fp)) {
            fk_filter_free(f);
            continue;
        }
        CHECK_STATUS(fk_filter_save_file(f, fp), FK_OK);
        rewind(fp);
        fk_filter *g = NULL, *h = NULL;
        CHECK_STATUS(fk_filter_load_file(ops, fp, &g), FK_OK);
        rewind(fp);
        CHECK_STATUS(fk_filter_load_file_any(fp, &h), FK_OK);
        CHECK(g && h && same_bytes(f, g) && same_bytes(f, h));
        CHECK(g && mismatches(f, g, 21, 4000) == 0);
        fk_filter_free(g);
        fk_filter_free(h);
        /* one more byte at the end */
        fputc(0, fp);
        rewind(fp);
        CHECK_STATUS(fk_filter_load_file(ops, fp, &g), FK_ECORRUPT);
        CHECK(g == NULL);
        /* two records back to back are not one filter either */
        rewind(fp);
        CHECK_STATUS(fk_filter_save_file(f, fp), FK_OK);
        CHECK_STATUS(fk_filter_save_file(f, fp), FK_OK);
        rewind(fp);
        CHECK_STATUS(fk_filter_load_file_any(fp, &g), FK_ECORRUPT);
        fclose(fp);
        /* an empty stream */
        fp = tmpfile();
        if (fp) {
            CHECK_STATUS(fk_filter_load_file(ops, fp, &g), FK_ECORRUPT);
            fclose(fp);
        }
        /* a stream opened for writing only: reading fails */
        fp = fopen("/dev/null", "wb");
        if (fp) {
            CHECK_STATUS(fk_filter_load_file(ops, fp, &g), FK_EIO);
            fclose(fp);
        }
        /* a stream opened for reading only: writing fails */
        fp = fopen("/dev/null", "rb");
        if (fp) {
            CHECK_STATUS(fk_filter_save_file(f, fp), FK_EIO);
            fclose(fp);
        }
        fk_filter_free(f);
    }
}

/* A sink for fk_serial_stream: keeps what it is given, counts the pieces,
 * and fails once `fail_at` bytes have gone through (never when 0). */
struct sink {
    uint8_t *buf;
    size_t len, cap, pieces, largest, fail_at;
};

static bool sink_put(void *ctx, const void *bytes, size_t n)
{
    struct sink *s = ctx;
    if (s->fail_at && s->len + n >= s->fail_at)
        return false;
    if (s->len + n > s->cap) {
        size_t cap = 2 * (s->len + n);
        uint8_t *p = realloc(s->buf, cap);
        if (!p)
            return false;
        s->buf = p;
        s->cap = cap;
    }
    if (n)
        memcpy(s->buf + s->len, bytes, n);
    s->len += n;
    s->pieces++;
    s->largest = n > s->largest ? n : s->largest;
    return true;
}

/* fk_filter_save_file streams the record (issue 40: a build peaked at twice
 * the filter, the record staged in a buffer of its size): the bytes are
 * fk_filter_save's, through the kind's stream_payload where it has one
 * (every built-in kind does) and staged where it has none (a kind written
 * before the hook); a failing sink is FK_EIO at any point. */
TEST(streamed_save_is_the_buffered_record)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        if (!serializes(ops))
            continue;
        /* the built-in kinds stream; a kind added without the hook still
         * saves (staged), so only these are held to it */
        static const char *const streams[] = { "bloom", "blocked", "counting", "cuckoo",
                                               "quotient", "fuse", "scalable-bloom",
                                               "scalable-blocked", "scalable-cuckoo" };
        for (size_t j = 0; j < sizeof streams / sizeof streams[0]; j++)
            if (strcmp(ops->name, streams[j]) == 0)
                CHECK_MSG(ops->serial->stream_payload != NULL,
                          "%s has no stream_payload: saving a file stages the record", ops->name);
        /* growing kinds past their first link, so the chain has several */
        bool grows = (fk_ops_caps(ops) & FK_CAP_GROWS) != 0;
        fk_filter *f = make_filled(ops, grows ? 500 : 5000, 0.01, 4, 23, 4000);
        if (!f)
            continue;
        size_t len = 0;
        uint8_t *want = save(f, &len);
        struct sink s = { 0 };
        CHECK_STATUS(fk_serial_stream(f, sink_put, &s), FK_OK);
        CHECK(want && s.len == len && memcmp(s.buf, want, len) == 0);
        if (ops->serial->stream_payload)
            CHECK(s.pieces >= 3); /* header, payload, checksum: never staged whole */
        /* a kind without the hook: the same bytes, staged */
        fk_serial_ops plain = *ops->serial;
        plain.stream_payload = NULL;
        fk_ops plain_ops = *ops;
        plain_ops.serial = &plain;
        const fk_ops *real = f->ops;
        f->ops = &plain_ops;
        struct sink t = { 0 };
        CHECK_STATUS(fk_serial_stream(f, sink_put, &t), FK_OK);
        CHECK(want && t.len == len && memcmp(t.buf, want, len) == 0 && t.pieces == 1);
        f->ops = real;
        /* a sink that fails at the header, in the payload, at the checksum */
        size_t at[] = { 1, FK_SERIAL_HEADER_BYTES + 1, len / 2, len };
        for (size_t j = 0; j < sizeof at / sizeof at[0]; j++) {
            struct sink u = { .fail_at = at[j] };
            CHECK_STATUS(fk_serial_stream(f, sink_put, &u), FK_EIO);
            free(u.buf);
        }
        free(want);
        free(s.buf);
        free(t.buf);
        fk_filter_free(f);
    }
    CHECK_STATUS(fk_serial_stream(NULL, sink_put, NULL), FK_EINVAL);
}

/* A header claiming a payload at the memory cap, in a file that ends right
 * after it: rejected without allocating anything like the claim (under
 * ASan with allocator_may_return_null this would show as FK_ENOMEM). */
TEST(short_file_with_huge_claim_is_corrupt)
{
    const fk_ops *ops = fk_ops_find("bloom");
    fk_params p = fk_params_make(10, 0.1);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
    size_t len;
    uint8_t *buf = f ? save(f, &len) : NULL;
    if (buf) {
        fk_le_put64(buf + 48, FK_MEMORY_CAP * 8);      /* m at the cap */
        fk_le_put64(buf + 112, FK_MEMORY_CAP);         /* matching payload */
        fk_filter *g = NULL;
        FILE *fp = fmemopen(buf, len, "rb");
        if (CHECK(fp)) {
            CHECK_STATUS(fk_filter_load_file(ops, fp, &g), FK_ECORRUPT);
            fclose(fp);
        }
        CHECK_STATUS(fk_filter_load(ops, buf, len, &g), FK_ECORRUPT);
        fk_le_put64(buf + 48, FK_MEMORY_CAP * 8 + 64); /* over the cap */
        fk_le_put64(buf + 112, FK_MEMORY_CAP + 8);
        fp = fmemopen(buf, len, "rb");
        if (CHECK(fp)) {
            CHECK_STATUS(fk_filter_load_file(ops, fp, &g), FK_ECORRUPT);
            fclose(fp);
        }
    }
    free(buf);
    fk_filter_free(f);
}

TEST(null_and_bad_arguments)
{
    const fk_ops *ops = fk_ops_find("bloom");
    fk_params p = fk_params_make(100, 0.01);
    fk_filter *f = NULL, *g = (fk_filter *)&p;
    CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
    uint64_t n = 1;
    uint8_t buf[512];
    size_t w = 7;
    CHECK_STATUS(fk_filter_serialized_size(NULL, &n), FK_EINVAL);
    CHECK_EQ_U64(n, 0);
    CHECK_STATUS(fk_filter_serialized_size(f, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_save(NULL, buf, sizeof buf, &w), FK_EINVAL);
    CHECK_EQ_U64(w, 0);
    CHECK_STATUS(fk_filter_save(f, NULL, sizeof buf, &w), FK_EINVAL);
    CHECK_STATUS(fk_filter_serialized_size(f, &n), FK_OK);
    CHECK_STATUS(fk_filter_save(f, buf, (size_t)n - 1, &w), FK_EINVAL);
    CHECK_STATUS(fk_filter_save(f, buf, 0, &w), FK_EINVAL);
    CHECK_STATUS(fk_filter_save(f, buf, sizeof buf, NULL), FK_OK);
    CHECK_STATUS(fk_filter_save_file(NULL, stdout), FK_EINVAL);
    CHECK_STATUS(fk_filter_save_file(f, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_load(NULL, buf, (size_t)n, &g), FK_EINVAL);
    CHECK(g == NULL);
    g = (fk_filter *)&p;
    CHECK_STATUS(fk_filter_load(ops, NULL, (size_t)n, &g), FK_EINVAL);
    CHECK(g == NULL);
    CHECK_STATUS(fk_filter_load(ops, buf, (size_t)n, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_load(ops, NULL, 0, &g), FK_ECORRUPT);
    CHECK_STATUS(fk_filter_load_any(NULL, 5, &g), FK_EINVAL);
    CHECK_STATUS(fk_filter_load_any(buf, (size_t)n, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_load_file(NULL, stdin, &g), FK_EINVAL);
    CHECK_STATUS(fk_filter_load_file(ops, NULL, &g), FK_EINVAL);
    CHECK_STATUS(fk_filter_load_file(ops, stdin, NULL), FK_EINVAL);
    CHECK_STATUS(fk_filter_load_file_any(NULL, &g), FK_EINVAL);
    CHECK_STATUS(fk_filter_load_file_any(stdin, NULL), FK_EINVAL);
    /* a kind without serialization */
    fk_ops plain = *ops;
    plain.serial = NULL;
    CHECK_STATUS(fk_filter_load(&plain, buf, (size_t)n, &g), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_load_file(&plain, stdin, &g), FK_EUNSUPPORTED);
    const fk_ops *real = f->ops;
    f->ops = &plain;
    CHECK_STATUS(fk_filter_serialized_size(f, &n), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_save(f, buf, sizeof buf, &w), FK_EUNSUPPORTED);
    CHECK_STATUS(fk_filter_save_file(f, stdout), FK_EUNSUPPORTED);
    f->ops = real;
    fk_serial_head h;
    CHECK_STATUS(fk_filter_serialized_size(f, &n), FK_OK);
    CHECK_STATUS(fk_serial_read_head(NULL, 200, &h), FK_EINVAL);
    CHECK_STATUS(fk_serial_read_head(buf, (size_t)n, NULL), FK_EINVAL);
    CHECK_STATUS(fk_serial_read_head(buf, 119, &h), FK_ECORRUPT);
    CHECK_STATUS(fk_serial_read_head(buf, 120, &h), FK_OK);
    CHECK_EQ_U64(h.kind_id, FK_KIND_BLOOM);
    CHECK_EQ_U64(h.capacity, 100);
    CHECK(h.fpr == 0.01);
    CHECK_EQ_U64(h.payload_len, n - 128);
    buf[0] ^= 1;
    CHECK_STATUS(fk_serial_read_head(buf, (size_t)n, &h), FK_ECORRUPT);
    CHECK(strcmp(fk_status_name(FK_EIO), "FK_EIO") == 0);
    CHECK(strcmp(fk_strerror(FK_EIO), "unknown status") != 0);
    fk_filter_free(f);
}

/* ------------------------------------------------ forged records (issue 38)
 *
 * A record with a valid checksum whose content a real filter could not
 * hold, of the class that loads but that a later operation turns into a
 * record that no longer loads. Per kind:
 *   quotient: a legal file with one runends byte (table byte 9) set to
 *     0x80 joins part of the next run to a run, leaving its groups out of
 *     (quotient, remainder) order; before 0.3.0's fix it loaded, and grow
 *     then wrote a table whose save did not load;
 *   scalable-bloom, scalable-blocked: link 0 claims far more items than
 *     its capacity (the header's total adjusted to match), so a few
 *     inserts wrapped the chain's count and its save did not load;
 *   bloom, blocked, counting: an item count of 2^64 - 2 (every count is
 *     valid there: an insert count, duplicates included); these load, and
 *     must keep round-tripping after inserts (the load fuzzer's seeds);
 *   cuckoo, fuse: the same count, refused (it must equal the occupied
 *     slots / be at most the cells);
 *   expandable: made with 8-bit fingerprints (F = 8 in 9-bit slots), the
 *     header's F rewritten to 7 under its 8-bit entries (0.4.0's forge
 *     wrote a 9-bit entry into 16-bit slots; slots of F + 1 bits hold none
 *     longer): no entry is ever longer than F, so a doubling would keep a
 *     fingerprint longer than any new entry's; refused.
 * NULL for a kind without a table or a saved form. */
static uint8_t *forged_record(const fk_ops *ops, size_t *len, bool *must_refuse)
{
    *must_refuse = true;
    if (!strcmp(ops->name, "quotient")) {
        fk_params p = fk_params_make(40, 0.02);
        p.seed = 93;
        fk_filter *f = NULL;
        CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
        for (uint64_t k = 0; f && k < 24; k++) {
            uint8_t key[8];
            key_of(k, key);
            CHECK_STATUS(fk_filter_insert(f, key, 8), FK_OK);
            if (k % 2 == 0)
                CHECK_STATUS(fk_filter_insert(f, key, 8), FK_OK);
        }
        uint8_t *buf = f ? save(f, len) : NULL;
        fk_filter_free(f);
        if (buf) {
            CHECK(buf[FK_SERIAL_HEADER_BYTES + 9] != 0x80); /* the edit changes a byte */
            buf[FK_SERIAL_HEADER_BYTES + 9] = 0x80;
            reseal(buf, *len);
        }
        return buf;
    }
    if (!strncmp(ops->name, "scalable-", 9) && strcmp(ops->name, "scalable-cuckoo") != 0) {
        fk_filter *f = make(ops, 16, 0.01, 5);
        if (f)
            fill(f, 6, 40); /* three links */
        uint8_t *buf = f ? save(f, len) : NULL;
        fk_filter_free(f);
        if (!buf)
            return NULL;
        uint8_t *link = buf + FK_SERIAL_HEADER_BYTES + 8; /* link 0's record */
        size_t link_len = (size_t)fk_le_get64(buf + FK_SERIAL_HEADER_BYTES);
        uint64_t was = fk_le_get64(link + 40), now = UINT64_MAX - 1000;
        fk_le_put64(link + 40, now);
        reseal(link, link_len);
        fk_le_put64(buf + 40, fk_le_get64(buf + 40) - was + now);
        reseal(buf, *len);
        return buf;
    }
    if (!strcmp(ops->name, "expandable")) {
        fk_params p = fk_params_make(40, 0.01);
        p.seed = 93;
        p.fingerprint_bits = 8;
        fk_filter *f = NULL;
        CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
        if (f)
            fill(f, 7, 20);
        uint8_t *buf = f ? save(f, len) : NULL;
        fk_filter_free(f);
        if (!buf)
            return NULL;
        CHECK(fk_le_get64(buf + 48 + 8) == 9); /* W = F + 1 */
        CHECK(fk_le_get64(buf + 48 + 16) == 8);
        /* resealed as it was, the record loads: the one field is what the
         * loader refuses, not the checksum */
        reseal(buf, *len);
        fk_filter *g = NULL;
        CHECK_STATUS(fk_filter_load(ops, buf, *len, &g), FK_OK);
        fk_filter_free(g);
        fk_le_put64(buf + 48 + 16, 7); /* F = 7 under 8-bit entries */
        reseal(buf, *len);
        return buf;
    }
    if (fk_ops_caps(ops) & FK_CAP_GROWS)
        return NULL; /* scalable-cuckoo: its links' loader bounds their counts */
    *must_refuse = !strcmp(ops->name, "cuckoo") || !strcmp(ops->name, "fuse") ||
                   !strcmp(ops->name, "ribbon") ||
                   !strcmp(ops->name, "window"); /* items = the inserts its slots imply */
    uint8_t *buf = small_file(ops, len);
    if (buf) {
        fk_le_put64(buf + 40, UINT64_MAX - 1);
        reseal(buf, *len);
    }
    return buf;
}

TEST(forged_records_load_only_when_every_operation_keeps_them_loadable)
{
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        size_t len = 0;
        bool must_refuse = false;
        uint8_t *buf = serializes(ops) ? forged_record(ops, &len, &must_refuse) : NULL;
        if (!buf)
            continue;
        fk_filter *f = NULL;
        fk_status s = load_all_ways(ops, buf, len, &f);
        if (must_refuse)
            CHECK_MSG(s == FK_ECORRUPT, "%s: a forged record loads (%s)", ops->name,
                      fk_status_name(s));
        else
            CHECK_MSG(s == FK_OK, "%s: %s", ops->name, fk_status_name(s));
        /* what loads survives every operation: grow, merge with a copy,
         * inserts, removes, and its save loads again */
        if (f) {
            (void)fk_filter_grow(f);
            fk_filter *copy = NULL;
            if (fk_filter_load(ops, buf, len, &copy) == FK_OK)
                (void)fk_filter_merge(f, copy);
            fk_filter_free(copy);
            fill(f, 99, 2000);
            for (uint64_t k = 0; k < 100; k++) {
                uint8_t key[8];
                key_of(k, key);
                (void)fk_filter_remove(f, key, 8);
            }
            size_t again_len = 0;
            uint8_t *again = save(f, &again_len);
            fk_filter *g = NULL;
            CHECK_MSG(again && fk_filter_load(ops, again, again_len, &g) == FK_OK,
                      "%s: the forged record's successor does not load", ops->name);
            CHECK(g == NULL || mismatches(f, g, 5, 1000) == 0);
            fk_filter_free(g);
            free(again);
        }
        fk_filter_free(f);
        free(buf);
    }
}

/* ------------------------------- counters and clocks at their end (issue 48)
 *
 * Records whose counters or clock a real filter reaches only at the end of
 * their range, or never: a count window's generation number 2^64 - 1 (the
 * next one wrapped to 0, after which its save no longer loaded); a time
 * window's clock at 2^64 - 6 with its next boundary at 2^64 - 1 (it never
 * forgot); a time window's generation grid starting before time 0; an
 * expandable filter's capacity 1 under 300 entries (each insert doubled
 * the table). Refused. Beside them the last legal values, which load and
 * stay loadable: generation 2^63 - 1 (the next one continues 2^62 lower),
 * and a window of span 2^64 - 1 at FK_WINDOW_MAX_TIME. The load fuzzer's
 * seeds include each (tests/fuzz/corpus/load/<name>.fk). */

enum { EDGE_RECORDS = 6 };

/* A saved count window of N = 70 at generation 7 (75 inserts). */
static uint8_t *count_window_at_generation_7(size_t *len)
{
    fk_filter *f = make(fk_ops_find("window"), 70, 0.01, 93);
    for (uint64_t k = 0; f && k < 75; k++) {
        uint8_t key[8];
        key_of(k, key);
        CHECK_STATUS(fk_filter_insert(f, key, 8), FK_OK);
    }
    uint8_t *buf = f ? save(f, len) : NULL;
    fk_filter_free(f);
    return buf;
}

/* A saved time window of T = 70 (D = 10), now 1039, next boundary 1040. */
static uint8_t *time_window_at_1039(uint64_t span, uint64_t origin, size_t *len)
{
    fk_params p = fk_params_make(100, 0.01);
    p.seed = 93;
    fk_window *w = NULL;
    CHECK_STATUS(fk_window_new_time(&p, span, &w), FK_OK);
    fk_filter *f = fk_window_as_filter(w);
    for (uint64_t k = 0; f && k < 40; k++) {
        uint8_t key[8];
        key_of(k, key);
        CHECK_STATUS(fk_window_advance(f, origin + k), FK_OK);
        CHECK_STATUS(fk_filter_insert(f, key, 8), FK_OK);
    }
    uint8_t *buf = f ? save(f, len) : NULL;
    fk_filter_free(f);
    return buf;
}

/* Record `which` (0 .. EDGE_RECORDS - 1): its name, its kind, whether the
 * loader must refuse it. */
static uint8_t *edge_record(unsigned which, const char **name, const fk_ops **ops,
                            bool *must_refuse, size_t *len)
{
    const size_t param = 48, state = FK_SERIAL_HEADER_BYTES;
    uint8_t *buf = NULL;
    *ops = fk_ops_find("window");
    *must_refuse = true;
    switch (which) {
    case 0:
    case 1:
        *name = which == 0 ? "window-generation-wrap" : "window-generation-edge";
        *must_refuse = which == 0;
        buf = count_window_at_generation_7(len);
        if (buf) /* the same tags (7 mod 8) */
            fk_le_put64(buf + param + 8 * 3,
                        which == 0 ? UINT64_MAX : (UINT64_C(1) << 63) - 1);
        break;
    case 2:
    case 3:
        *name = which == 2 ? "window-clock-end" : "window-grid-before-zero";
        buf = time_window_at_1039(70, 1000, len);
        if (buf) {
            fk_le_put64(buf + state + 8 * 9, which == 2 ? UINT64_MAX - 5 : 5);  /* now */
            fk_le_put64(buf + state + 8 * 10, which == 2 ? UINT64_MAX : 10);    /* next boundary */
        }
        break;
    case 4:
        *name = "window-time-end";
        *must_refuse = false;
        buf = time_window_at_1039(UINT64_MAX, FK_WINDOW_MAX_TIME - 40, len);
        break;
    default: {
        *name = "expandable-capacity";
        *ops = fk_ops_find("expandable");
        fk_filter *f = make(*ops, 400, 0.01, 93);
        for (uint64_t k = 0; f && k < 300; k++) {
            uint8_t key[8];
            key_of(k, key);
            CHECK_STATUS(fk_filter_insert(f, key, 8), FK_OK);
        }
        buf = f ? save(f, len) : NULL;
        fk_filter_free(f);
        if (buf)
            fk_le_put64(buf + 24, 1);
        break;
    }
    }
    if (buf)
        reseal(buf, *len);
    return buf;
}

TEST(counters_and_clocks_load_only_when_later_operations_keep_them_loadable)
{
    for (unsigned i = 0; i < EDGE_RECORDS; i++) {
        const char *name;
        const fk_ops *ops;
        bool must_refuse;
        size_t len = 0;
        uint8_t *buf = edge_record(i, &name, &ops, &must_refuse, &len);
        if (!buf || !ops)
            continue;
        fk_filter *f = NULL;
        fk_status s = load_all_ways(ops, buf, len, &f);
        CHECK_MSG(s == (must_refuse ? FK_ECORRUPT : FK_OK), "%s: %s", name, fk_status_name(s));
        if (f) {
            /* inserts past two windows (or 7 doublings' worth), advances
             * up to the clock's end and past it (refused), then the save
             * loads and answers alike */
            uint64_t step = 1;
            for (uint64_t k = 0; k < 600; k++) {
                fk_window_description d = { 0 };
                if (ops == &fk_window_ops)
                    fk_window_describe((const fk_window *)f, &d);
                if (d.timed) { /* steps of 1, 8, 64, ... ticks, the clock's end at 500 */
                    uint64_t to = d.now > FK_WINDOW_MAX_TIME - step ? FK_WINDOW_MAX_TIME
                                                                    : d.now + step;
                    CHECK_STATUS(fk_window_advance(f, k == 500 ? FK_WINDOW_MAX_TIME : to), FK_OK);
                    CHECK_STATUS(fk_window_advance(f, UINT64_MAX), FK_EINVAL);
                    if (k % 50 == 49)
                        step *= 8;
                }
                uint8_t key[8];
                key_of(5000 + k, key);
                fk_status si = fk_filter_insert(f, key, 8);
                CHECK_MSG(si == FK_OK || si == FK_EFULL, "%s: insert %llu: %s", name,
                          (unsigned long long)k, fk_status_name(si));
                CHECK(si != FK_OK || fk_filter_contains(f, key, 8));
            }
            size_t again_len = 0;
            uint8_t *again = save(f, &again_len);
            fk_filter *g = NULL;
            CHECK_MSG(again && fk_filter_load(ops, again, again_len, &g) == FK_OK,
                      "%s: the save after 600 inserts does not load", name);
            CHECK(g == NULL || mismatches(f, g, 5, 1000) == 0);
            fk_filter_free(g);
            free(again);
        }
        fk_filter_free(f);
        free(buf);
    }
}

/* ------------------------------------------------------------- golden */

static char golden_dir[512];

static void write_file(const char *path, const uint8_t *buf, size_t len)
{
    FILE *fp = fopen(path, "wb");
    CHECK_MSG(fp && fwrite(buf, 1, len, fp) == len && fclose(fp) == 0, "writing %s", path);
    printf("wrote %s (%zu bytes)\n", path, len);
}

/* Seeds for the load fuzzer (tests/fuzz/corpus/load/): valid small files of
 * each kind, written together with the golden files. */
static void write_fuzz_seeds(const fk_ops *ops)
{
    char path[700];
    size_t len;
    uint8_t *buf = small_file(ops, &len);
    snprintf(path, sizeof path, "%s/../fuzz/corpus/load/%s-small.fk", golden_dir, ops->name);
    if (buf)
        write_file(path, buf, len);
    free(buf);
    fk_filter *f = make_filled(ops, 1, 0.5, 0, 0, 0);
    buf = f ? save(f, &len) : NULL;
    snprintf(path, sizeof path, "%s/../fuzz/corpus/load/%s-empty.fk", golden_dir, ops->name);
    if (buf)
        write_file(path, buf, len);
    free(buf);
    fk_filter_free(f);
    bool must_refuse;
    buf = forged_record(ops, &len, &must_refuse);
    snprintf(path, sizeof path, "%s/../fuzz/corpus/load/%s-forged.fk", golden_dir, ops->name);
    if (buf)
        write_file(path, buf, len);
    free(buf);
    for (unsigned i = 0; i < EDGE_RECORDS; i++) {
        const char *name;
        const fk_ops *of;
        buf = edge_record(i, &name, &of, &must_refuse, &len);
        snprintf(path, sizeof path, "%s/../fuzz/corpus/load/%s.fk", golden_dir, name);
        if (buf && of == ops)
            write_file(path, buf, len);
        free(buf);
    }
}

/* The pinned filter of each kind: explicit sizes so no floating-point sizing
 * is involved; every kind ignores the knobs that are not its own. */
static fk_filter *golden_filter(const fk_ops *ops)
{
    fk_params p = fk_params_make(100, 0.01);
    p.seed = UINT64_C(0x5EED5EED12345678);
    p.bits = 2048;
    p.hashes = 5;
    p.counter_bits = 4;
    p.fingerprint_bits = 12;
    if (fk_ops_caps(ops) & FK_CAP_GROWS)
        p.capacity = 16; /* the 81 keys fill a chain of 3 links: 16, 32, 64 */
    fk_filter *f = NULL;
    char key[32];
    if (is_static(ops)) { /* built from the same 81 keys */
        static char text[80][32];
        const void *keys[81];
        size_t lens[81];
        for (int i = 0; i < 80; i++) {
            lens[i] = (size_t)snprintf(text[i], sizeof text[i], "key-%d", i);
            keys[i] = text[i];
        }
        keys[80] = NULL;
        lens[80] = 0;
        CHECK_STATUS(fk_filter_build(ops, &p, 81, keys, lens, &f), FK_OK);
        return f;
    }
    CHECK_STATUS(fk_filter_new(ops, &p, &f), FK_OK);
    if (!f)
        return NULL;
    for (int i = 0; i < 80; i++) {
        int n = snprintf(key, sizeof key, "key-%d", i);
        CHECK_STATUS(fk_filter_insert(f, key, (size_t)n), FK_OK);
    }
    CHECK_STATUS(fk_filter_insert(f, NULL, 0), FK_OK); /* the empty key */
    if (ops->remove)
        for (int i = 0; i < 10; i++) {
            int n = snprintf(key, sizeof key, "key-%d", i);
            CHECK_STATUS(fk_filter_remove(f, key, (size_t)n), FK_OK);
        }
    return f;
}

static uint8_t *read_whole(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    uint8_t *buf = malloc(1 << 16);
    *len = buf ? fread(buf, 1, 1 << 16, fp) : 0;
    fclose(fp);
    return buf;
}

TEST(golden_files_pin_the_format)
{
    bool regen = getenv("FK_REGEN_GOLDEN") != NULL;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        if (!serializes(ops))
            continue;
        char path[600];
        snprintf(path, sizeof path, "%s/%s.fk", golden_dir, ops->name);
        fk_filter *f = golden_filter(ops);
        size_t len = 0;
        uint8_t *mine = f ? save(f, &len) : NULL;
        if (regen && mine) {
            write_file(path, mine, len);
            write_fuzz_seeds(ops);
        }
        size_t glen = 0;
        uint8_t *golden = read_whole(path, &glen);
        CHECK_MSG(golden != NULL, "missing %s (regenerate: FK_REGEN_GOLDEN=1 %s)", path,
                  "build/tests/test_serial");
        if (golden && mine) {
            CHECK_MSG(glen == len && memcmp(golden, mine, len) == 0,
                      "%s differs from a fresh save: the format changed", path);
            fk_filter *g = NULL;
            CHECK_STATUS(load_all_ways(ops, golden, glen, &g), FK_OK);
            char key[32];
            for (int k = 10; g && k < 80; k++) {
                int n = snprintf(key, sizeof key, "key-%d", k);
                CHECK(fk_filter_contains(g, key, (size_t)n));
            }
            CHECK(g && fk_filter_contains(g, NULL, 0));
            CHECK(g && mismatches(f, g, 77, 100000) == 0);
            fk_stats st;
            fk_filter_stats(g, &st);
            CHECK_EQ_U64(st.items, ops->remove ? 71 : 81);
            fk_filter_free(g);
        }
        free(golden);
        free(mine);
        fk_filter_free(f);
    }
}

/* tests/golden/<kind>-0.3.fk: each kind's golden file as 0.3.0 wrote it.
 * Never regenerated: every later release must load them, hold the recipe's
 * keys and give the same answers to 100,000 probes ("probe-0" ...) as 0.3.0
 * did, pinned by the hit count and an FNV-1a digest of the answers. */
static const struct { const char *kind; uint64_t hits, digest; } release_0_3[] = {
    { "bloom", UINT64_C(19), UINT64_C(0xd9ffade75e232954) },
    { "counting", UINT64_C(14), UINT64_C(0x50c462f086377779) },
    { "cuckoo", UINT64_C(115), UINT64_C(0x7076ca894a5a301c) },
    { "blocked", UINT64_C(15), UINT64_C(0xb947ce94a98b7a48) },
    { "scalable-bloom", UINT64_C(361), UINT64_C(0xbe0a0a0ecc8d8aa6) },
    { "scalable-blocked", UINT64_C(92), UINT64_C(0x4def6d87372da07b) },
    { "scalable-cuckoo", UINT64_C(119), UINT64_C(0xcfcd1f0942e483d2) },
    { "fuse", UINT64_C(18), UINT64_C(0x7a949874dffa5519) },
    { "quotient", UINT64_C(13), UINT64_C(0x052d61e04331955e) },
};

static bool in_release_0_3(const char *kind)
{
    for (size_t r = 0; r < sizeof release_0_3 / sizeof release_0_3[0]; r++)
        if (strcmp(release_0_3[r].kind, kind) == 0)
            return true;
    return false;
}

static void probe_digest(const fk_filter *f, uint64_t *hits, uint64_t *digest)
{
    char key[32];
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    *hits = 0;
    for (int i = 0; i < 100000; i++) {
        int n = snprintf(key, sizeof key, "probe-%d", i);
        bool yes = fk_filter_contains(f, key, (size_t)n);
        *hits += yes;
        h = (h ^ (uint64_t)yes) * UINT64_C(0x100000001b3);
    }
    *digest = h;
}

TEST(release_0_3_golden_files_still_load)
{
    bool print = getenv("FK_PRINT_RELEASE_DIGESTS") != NULL;
    size_t found = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!check_kind_selected(ops->name))
            continue;
        if (!serializes(ops) || !in_release_0_3(ops->name)) /* kinds added later */
            continue;
        char path[600];
        snprintf(path, sizeof path, "%s/%s-0.3.fk", golden_dir, ops->name);
        size_t len = 0;
        uint8_t *buf = read_whole(path, &len);
        CHECK_MSG(buf != NULL, "missing %s", path);
        fk_filter *g = NULL;
        if (buf)
            CHECK_STATUS(load_all_ways(ops, buf, len, &g), FK_OK);
        free(buf);
        if (!g)
            continue;
        char key[32];
        for (int k = 10; k < 80; k++) {
            int n = snprintf(key, sizeof key, "key-%d", k);
            CHECK(fk_filter_contains(g, key, (size_t)n));
        }
        CHECK(fk_filter_contains(g, NULL, 0));
        uint64_t hits, digest;
        probe_digest(g, &hits, &digest);
        if (print)
            printf("    { \"%s\", UINT64_C(%llu), UINT64_C(0x%016llx) },\n", ops->name,
                   (unsigned long long)hits, (unsigned long long)digest);
        for (size_t r = 0; r < sizeof release_0_3 / sizeof release_0_3[0]; r++)
            if (strcmp(release_0_3[r].kind, ops->name) == 0) {
                found++;
                CHECK_EQ_U64(hits, release_0_3[r].hits);
                CHECK_MSG(digest == release_0_3[r].digest, "%s: answers differ from 0.3.0's", path);
            }
        fk_filter_free(g);
    }
    if (!check_kind_filtered())
        CHECK_EQ_U64(found, sizeof release_0_3 / sizeof release_0_3[0]);
}

int main(void)
{
    /* The golden files sit next to this source: tests/golden/ from the
     * repository root, where `make test` runs. */
    const char *src = __FILE__, *slash = strrchr(src, '/');
    snprintf(golden_dir, sizeof golden_dir, "%.*sgolden", slash ? (int)(slash - src + 1) : 0, src);
    RUN(every_serializing_kind_has_a_kind_id_that_finds_it);
    RUN(reload_answers_identically);
    RUN(truncating_at_every_byte_is_corrupt);
    RUN(flipping_any_bit_is_corrupt);
    RUN(extending_at_every_byte_is_corrupt);
    RUN(a_length_field_that_disagrees_with_the_record_is_corrupt);
    RUN(newer_version_is_unsupported_older_is_corrupt);
    RUN(sealed_nonsense_is_corrupt);
    if (check_kind_selected("bloom"))
        RUN(bloom_bits_past_m_must_be_clear);
    if (check_kind_selected("counting"))
        RUN(counting_saturation_width_and_padding);
    if (check_kind_selected("cuckoo"))
        RUN(cuckoo_items_geometry_and_prng);
    RUN(file_round_trip_and_trailing_bytes);
    RUN(streamed_save_is_the_buffered_record);
    RUN(short_file_with_huge_claim_is_corrupt);
    RUN(null_and_bad_arguments);
    RUN(forged_records_load_only_when_every_operation_keeps_them_loadable);
    RUN(counters_and_clocks_load_only_when_later_operations_keep_them_loadable);
    RUN(golden_files_pin_the_format);
    RUN(release_0_3_golden_files_still_load);
    return check_report();
}
