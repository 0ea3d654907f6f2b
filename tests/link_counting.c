/* tests/link_counting.c: built with only counting/counting.h,
 * libfk_counting.a and libfk_common.a (see the Makefile's link_% rule):
 * proves the counting module links alone. */
#include <stdio.h>
#include "../counting/counting.h"
#include "../counting/counting_internal.h"
#include "describe.h"

int main(void)
{
    fk_params p = fk_params_make(1000, 0.01);
    fk_counting *c = NULL;
    uint64_t words[256];
    int ok = fk_counting_new(&p, &c) == FK_OK
          && fk_counting_insert(c, "apple", 5) == FK_OK
          && fk_counting_contains(c, "apple", 5)
          && fk_filter_contains(fk_counting_as_filter(c), "apple", 5)
          && fk_counting_count(c, "apple", 5) == 1
          && counting_desc(c).export_words <= 256
          && fk_counting_export_bits(c, words, 256) == FK_OK
          && fk_counting_remove(c, "apple", 5) == FK_OK
          && !fk_counting_contains(c, "apple", 5)
          && fk_counting_remove(c, "apple", 5) == FK_ENOTFOUND;
    /* the inline integer calls: 42 is the key "\x2a\0\0\0\0\0\0\0" */
    ok = ok && fk_counting_insert_u64(c, 42) == FK_OK && fk_counting_contains_u64(c, 42) &&
         fk_counting_contains(c, "\x2a\0\0\0\0\0\0\0", 8) &&
         fk_counting_remove_u64(c, 42) == FK_OK && !fk_counting_contains_u64(c, 42);
    fk_counting_free(c);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
