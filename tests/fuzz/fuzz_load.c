/* tests/fuzz/fuzz_load.c: libFuzzer target: load a filter of any kind from
 * arbitrary bytes (`make fuzz`; seeds in tests/fuzz/corpus/load/).
 *
 * Each input is tried as it is and again with its checksum recomputed, so
 * the fuzzer also reaches the checks behind the checksum (kind parameters,
 * payload content) that random mutations could never pass otherwise.
 * Properties: no crash, no leak, no UB; the buffer, FILE and per-kind
 * loaders agree; a failure is FK_ECORRUPT or FK_EUNSUPPORTED with *out
 * NULL; whatever loads answers queries, takes inserts and saves back to the
 * very same bytes (loading accepts only canonical encodings). Then every
 * operation that makes a new table follows the load (issue 38: a record
 * that loads must stay loadable whatever is done to it): grow, merge with
 * a copy of itself and with a copy that took other keys, count, remove,
 * insert; after each, the filter saves, the saved record loads again and
 * answers 64 keys exactly as the filter does, and a merge keeps every key
 * the filter answered yes for. The fuzz build defines FK_DEBUG_INVARIANTS,
 * so each merge, grow and load also checks the kind's invariants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/serial.h"
#include "../../common/endian.h"
#include "../../common/hash.h"
#include "../../registry/registry.h"

#define REQUIRE(c) \
    do { if (!(c)) { fprintf(stderr, "fuzz_load: %s failed\n", #c); abort(); } } while (0)

/* f saves, its record loads again as the same kind, and the two answer
 * keys 0..63 alike and save the same bytes. */
static void require_round_trip(const fk_filter *f)
{
    uint64_t n = 0;
    REQUIRE(fk_filter_serialized_size(f, &n) == FK_OK);
    uint8_t *buf = malloc((size_t)n), *again = malloc((size_t)n);
    REQUIRE(buf && again);
    size_t w = 0;
    REQUIRE(fk_filter_save(f, buf, (size_t)n, &w) == FK_OK && w == n);
    fk_filter *g = NULL;
    fk_status s = fk_filter_load_any(buf, (size_t)n, &g);
    if (s != FK_OK)
        fprintf(stderr, "fuzz_load: a saved %s record does not load again: %s\n",
                fk_filter_ops(f)->name, fk_status_name(s));
    REQUIRE(s == FK_OK && fk_filter_ops(g) == fk_filter_ops(f));
    for (uint32_t k = 0; k < 64; k++)
        REQUIRE(fk_filter_contains(f, &k, sizeof k) == fk_filter_contains(g, &k, sizeof k));
    REQUIRE(fk_filter_save(g, again, (size_t)n, &w) == FK_OK && w == n);
    REQUIRE(memcmp(buf, again, (size_t)n) == 0);
    fk_filter_free(g);
    free(buf);
    free(again);
}

/* A second filter loaded from the same record (the loader is the only
 * copy the generic API has). */
static fk_filter *copy_of(const uint8_t *data, size_t size)
{
    fk_filter *g = NULL;
    REQUIRE(fk_filter_load_any(data, size, &g) == FK_OK);
    return g;
}

/* Merges src into f: on FK_OK every key f answered yes for still answers
 * yes, and the result round trips; otherwise a documented refusal. */
static void merge_and_check(fk_filter *f, const fk_filter *src)
{
    bool before[64];
    for (uint32_t k = 0; k < 64; k++)
        before[k] = fk_filter_contains(f, &k, sizeof k);
    fk_status s = fk_filter_merge(f, src);
    REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED || s == FK_EINVAL || s == FK_EFULL ||
            s == FK_ELIMIT);
    if (s != FK_OK)
        return;
    for (uint32_t k = 0; k < 64; k++)
        REQUIRE(!before[k] || fk_filter_contains(f, &k, sizeof k));
    require_round_trip(f);
}

/* Every operation after a load (see the top). */
static void follow_with_every_operation(fk_filter *f, const uint8_t *data, size_t size)
{
    require_round_trip(f);
    fk_status s = fk_filter_grow(f);
    REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED || s == FK_EINVAL || s == FK_ELIMIT ||
            s == FK_EFULL);
    if (s == FK_OK)
        require_round_trip(f);

    fk_filter *same = copy_of(data, size);
    merge_and_check(f, same);
    fk_filter_free(same);
    fk_filter *other = copy_of(data, size);
    for (uint32_t k = 100; k < 116; k++)
        (void)fk_filter_insert(other, &k, sizeof k);
    merge_and_check(f, other);
    fk_filter_free(other);

    for (uint32_t k = 0; k < 64; k++) {
        uint64_t c = 0;
        s = fk_filter_count(f, &k, sizeof k, &c);
        REQUIRE(s == FK_OK || s == FK_EUNSUPPORTED);
        REQUIRE(s != FK_OK || (c > 0) == fk_filter_contains(f, &k, sizeof k));
    }
    for (uint32_t k = 0; k < 24; k++) {
        s = fk_filter_remove(f, &k, sizeof k);
        REQUIRE(s == FK_OK || s == FK_ENOTFOUND || s == FK_EUNSUPPORTED);
    }
    require_round_trip(f);
}

static void try_load(const uint8_t *data, size_t size)
{
    fk_filter *f = (fk_filter *)&f;
    fk_status s = fk_filter_load_any(data, size, &f);
    REQUIRE((s == FK_OK) == (f != NULL));
    REQUIRE(s == FK_OK || s == FK_ECORRUPT || s == FK_EUNSUPPORTED);

    /* The FILE path answers the same. */
    if (size > 0) {
        FILE *fp = fmemopen((void *)data, size, "rb");
        if (fp) {
            fk_filter *g = NULL;
            fk_status sf = fk_filter_load_file_any(fp, &g);
            fclose(fp);
            REQUIRE(sf == s);
            fk_filter_free(g);
        }
    }
    /* Each kind's own loader: the same, or FK_ECORRUPT for another kind. */
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!(fk_ops_caps(ops) & FK_CAP_SERIALIZE))
            continue;
        fk_filter *g = NULL;
        fk_status sk = fk_filter_load(ops, data, size, &g);
        REQUIRE(sk == s || (sk == FK_ECORRUPT && (s != FK_OK || fk_filter_ops(f) != ops)));
        fk_filter_free(g);
    }
    if (s != FK_OK)
        return;

    uint64_t n = 0;
    REQUIRE(fk_filter_serialized_size(f, &n) == FK_OK && n == size);
    uint8_t *again = malloc(size);
    size_t w = 0;
    REQUIRE(again && fk_filter_save(f, again, size, &w) == FK_OK && w == size);
    REQUIRE(memcmp(again, data, size) == 0);
    free(again);

    fk_stats st;
    fk_filter_stats(f, &st);
    REQUIRE(st.load_factor >= 0.0 && st.load_factor <= 1.0);
    for (uint32_t k = 0; k < 64; k++)
        (void)fk_filter_contains(f, &k, sizeof k);
    for (uint32_t k = 0; k < 16; k++) {
        fk_status si = fk_filter_insert(f, &k, sizeof k);
        unsigned caps = fk_ops_caps(fk_filter_ops(f));
        /* a static kind takes no insert; a chain may be at its byte limit */
        REQUIRE(si == FK_OK || si == FK_EFULL ||
                (si == FK_EUNSUPPORTED && (caps & FK_CAP_STATIC)) ||
                (si == FK_ELIMIT && (caps & FK_CAP_GROWS)));
        if (si == FK_OK)
            REQUIRE(fk_filter_contains(f, &k, sizeof k));
    }
    fk_filter_free(f);
    f = copy_of(data, size);
    follow_with_every_operation(f, data, size);
    fk_filter_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try_load(data, size);
    if (size >= FK_SERIAL_HEADER_BYTES + FK_SERIAL_TRAILER_BYTES) {
        uint8_t *sealed = malloc(size);
        if (!sealed)
            return 0;
        memcpy(sealed, data, size);
        fk_le_put64(sealed + size - 8, fk_checksum64(sealed, size - 8, 0));
        try_load(sealed, size);
        free(sealed);
    }
    return 0;
}
