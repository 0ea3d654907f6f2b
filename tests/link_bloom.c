/* tests/link_bloom.c: built with only bloom/bloom.h, libfk_bloom.a and
 * libfk_common.a (see the Makefile's link_% rule): proves the Bloom module
 * links alone. */
#include <stdio.h>
#include "../bloom/bloom.h"

int main(void)
{
    fk_params p = fk_params_make(1000, 0.01);
    fk_bloom *b = NULL;
    int ok = fk_bloom_new(&p, &b) == FK_OK
          && fk_bloom_insert(b, "apple", 5) == FK_OK
          && fk_bloom_contains(b, "apple", 5)
          && fk_filter_contains(fk_bloom_as_filter(b), "apple", 5);
    /* the inline integer calls: 42 is the key "\x2a\0\0\0\0\0\0\0" */
    ok = ok && fk_bloom_insert_u64(b, 42) == FK_OK && fk_bloom_contains_u64(b, 42) &&
         fk_bloom_contains(b, "\x2a\0\0\0\0\0\0\0", 8);
    fk_bloom_free(b);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
