/* tests/link_quotient.c: built with only quotient/quotient.h,
 * libfk_quotient.a and libfk_common.a (see the Makefile's link_% rule):
 * proves the quotient module links alone. */
#include <stdio.h>
#include "../quotient/quotient.h"
#include "../quotient/quotient_internal.h"

int main(void)
{
    fk_params p = fk_params_make(1000, 0.001);
    fk_quotient *qf = NULL;
    uint64_t c = 0;
    int ok = fk_quotient_new(&p, &qf) == FK_OK
          && fk_quotient_insert(qf, "apple", 5) == FK_OK
          && fk_quotient_insert(qf, "apple", 5) == FK_OK
          && fk_quotient_contains(qf, "apple", 5)
          && fk_quotient_count(qf, "apple", 5, &c) == FK_OK && c == 2
          && fk_filter_contains(fk_quotient_as_filter(qf), "apple", 5)
          && fk_filter_remove(fk_quotient_as_filter(qf), "apple", 5) == FK_OK
          && fk_quotient_remove(qf, "apple", 5) == FK_OK
          && !fk_quotient_contains(qf, "apple", 5);
    /* the inline integer calls: 42 is the key "\x2a\0\0\0\0\0\0\0" */
    ok = ok && fk_quotient_insert_u64(qf, 42) == FK_OK && fk_quotient_contains_u64(qf, 42) &&
         fk_quotient_contains(qf, "\x2a\0\0\0\0\0\0\0", 8) &&
         fk_quotient_remove_u64(qf, 42) == FK_OK && !fk_quotient_contains_u64(qf, 42);
    fk_quotient_free(qf);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
