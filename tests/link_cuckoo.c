/* tests/link_cuckoo.c: built with only cuckoo/cuckoo.h, libfk_cuckoo.a and
 * libfk_common.a (see the Makefile's link_% rule): proves the cuckoo module
 * links alone. */
#include <stdio.h>
#include "../cuckoo/cuckoo.h"

int main(void)
{
    fk_params p = fk_params_make(1000, 0.001);
    fk_cuckoo *c = NULL;
    int ok = fk_cuckoo_new(&p, &c) == FK_OK
          && fk_cuckoo_insert(c, "apple", 5) == FK_OK
          && fk_cuckoo_contains(c, "apple", 5)
          && fk_filter_contains(fk_cuckoo_as_filter(c), "apple", 5)
          && fk_filter_remove(fk_cuckoo_as_filter(c), "apple", 5) == FK_OK
          && !fk_cuckoo_contains(c, "apple", 5);
    /* the inline integer calls: 42 is the key "\x2a\0\0\0\0\0\0\0" */
    ok = ok && fk_cuckoo_insert_u64(c, 42) == FK_OK && fk_cuckoo_contains_u64(c, 42) &&
         fk_cuckoo_contains(c, "\x2a\0\0\0\0\0\0\0", 8) &&
         fk_cuckoo_remove_u64(c, 42) == FK_OK && !fk_cuckoo_contains_u64(c, 42);
    fk_cuckoo_free(c);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
