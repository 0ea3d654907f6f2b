/* tests/fuzz/fuzz_redis_value.c: libFuzzer target: the Redis module's value
 * decoder (redis/value.c), which FK.LOAD, RESTORE/MIGRATE and RDB loading
 * run on bytes from the network or disk (`make fuzz`).
 *
 * Each input is tried as it is and behind a valid value header (so the
 * fuzzer reaches the filterkit record inside it). Properties: no crash, no
 * leak, no UB; a failure is FK_ECORRUPT, FK_EUNSUPPORTED or FK_EINVAL (over
 * the size cap) with nothing returned; whatever decodes encodes to bytes
 * that decode and encode again to the very same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../redis/value.h"

#define REQUIRE(c) \
    do { if (!(c)) { fprintf(stderr, "fuzz_redis_value: %s failed\n", #c); abort(); } } while (0)

#define MAX_BYTES (UINT64_C(1) << 24)

static uint8_t *encode(const fkr_value *v, size_t *len)
{
    *len = fkr_value_encoded_size(v);
    REQUIRE(*len >= FKR_VALUE_HEADER);
    uint8_t *buf = malloc(*len);
    REQUIRE(buf && fkr_value_encode(v, buf, *len) == FK_OK);
    return buf;
}

static void try_decode(const uint8_t *data, size_t size)
{
    fkr_value *v = (fkr_value *)&v;
    fk_status s = fkr_value_decode(data, size, MAX_BYTES, &v);
    REQUIRE((s == FK_OK) == (v != NULL));
    REQUIRE(s == FK_OK || s == FK_ECORRUPT || s == FK_EUNSUPPORTED || s == FK_EINVAL);
    if (s != FK_OK)
        return;
    size_t n1, n2;
    uint8_t *a = encode(v, &n1);
    fkr_value *w;
    REQUIRE(fkr_value_decode(a, n1, MAX_BYTES, &w) == FK_OK);
    uint8_t *b = encode(w, &n2);
    REQUIRE(n1 == n2 && memcmp(a, b, n1) == 0);
    REQUIRE(fkr_value_memory(v) == fkr_value_memory(w));
    free(a);
    free(b);
    fkr_value_free(w);
    fkr_value_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try_decode(data, size);
    /* the same bytes behind a well-formed header (BF family, no flags) */
    uint8_t *wrapped = malloc(FKR_VALUE_HEADER + size);
    REQUIRE(wrapped);
    memset(wrapped, 0, FKR_VALUE_HEADER);
    memcpy(wrapped, FKR_VALUE_MAGIC, 4);
    wrapped[4] = FKR_VALUE_VERSION;
    wrapped[5] = FKR_FAMILY_BF;
    if (size)
        memcpy(wrapped + FKR_VALUE_HEADER, data, size);
    try_decode(wrapped, FKR_VALUE_HEADER + size);
    free(wrapped);
    return 0;
}
