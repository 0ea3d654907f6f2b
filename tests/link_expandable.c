/* tests/link_expandable.c: built with only expandable/expandable.h,
 * libfk_expandable.a and libfk_common.a (see the Makefile's link_% rule):
 * proves the expandable module links alone. */
#include <stdio.h>
#include "../expandable/expandable.h"

int main(void)
{
    fk_params p = fk_params_make(100, 0.001);
    fk_expandable *xf = NULL;
    int ok = fk_expandable_new(&p, &xf) == FK_OK;
    for (uint64_t k = 0; ok && k < 1000; k++) /* ten times the start: doubles */
        ok = fk_expandable_insert_u64(xf, k) == FK_OK;
    for (uint64_t k = 0; ok && k < 1000; k++)
        ok = fk_expandable_contains_u64(xf, k);
    fk_expandable_description d;
    fk_expandable_describe(xf, &d);
    ok = ok && d.doublings >= 3 && d.entries == 1000 &&
         fk_expandable_insert(xf, "apple", 5) == FK_OK && fk_expandable_contains(xf, "apple", 5) &&
         fk_filter_remove(fk_expandable_as_filter(xf), "apple", 5) == FK_OK &&
         fk_expandable_remove_u64(xf, 7) == FK_OK;
    fk_expandable_free(xf);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
