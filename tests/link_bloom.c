/* tests/link_bloom.c: built with only bloom/bloom.h, bloom/blocked.h,
 * libfk_bloom.a and libfk_common.a (see the Makefile's link_% rule): proves
 * the Bloom module, with its blocked kind, links alone. */
#include <stdio.h>
#include "../bloom/blocked.h"
#include "../bloom/blocked_serial.h"
#include "../bloom/bloom.h"

int main(void)
{
    fk_params p = fk_params_make(1000, 0.01);
    fk_bloom *b = NULL;
    int ok = fk_bloom_new(&p, &b) == FK_OK
          && fk_bloom_insert(b, "apple", 5) == FK_OK
          && fk_bloom_contains(b, "apple", 5)
          && fk_filter_contains(fk_bloom_as_filter(b), "apple", 5);
    fk_bloom_free(b);
    fk_blocked *c = NULL, *d = NULL;
    uint8_t buf[4096];
    size_t len = 0;
    ok = ok && fk_blocked_new(&p, &c) == FK_OK
            && fk_blocked_insert(c, "apple", 5) == FK_OK
            && fk_blocked_contains(c, "apple", 5)
            && fk_filter_contains(fk_blocked_as_filter(c), "apple", 5)
            && fk_blocked_save(c, buf, sizeof buf, &len) == FK_OK
            && fk_blocked_from_bytes(buf, len, &d) == FK_OK
            && fk_blocked_contains(d, "apple", 5);
    fk_blocked_free(c);
    fk_blocked_free(d);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
