/* tests/fuzz/fuzz_load.c: libFuzzer target: load a filter of any kind from
 * arbitrary bytes (`make fuzz`; seeds in tests/fuzz/corpus/load/).
 *
 * Each input is tried as it is and again with its checksum recomputed, so
 * the fuzzer also reaches the checks behind the checksum (kind parameters,
 * payload content) that random mutations could never pass otherwise.
 * Properties: no crash, no leak, no UB; the buffer, FILE and per-kind
 * loaders agree; a failure is FK_ECORRUPT or FK_EUNSUPPORTED with *out
 * NULL; whatever loads answers queries, takes inserts and saves back to the
 * very same bytes (loading accepts only canonical encodings). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../common/serial.h"
#include "../../common/endian.h"
#include "../../common/hash.h"
#include "../../registry/registry.h"

#define REQUIRE(c) \
    do { if (!(c)) { fprintf(stderr, "fuzz_load: %s failed\n", #c); abort(); } } while (0)

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
