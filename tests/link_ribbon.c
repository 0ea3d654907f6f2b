/* tests/link_ribbon.c: built with only ribbon/ribbon.h, libfk_ribbon.a and
 * libfk_common.a (see the Makefile's link_% rule): proves the ribbon
 * module links alone. */
#include <stdio.h>
#include <string.h>
#include "../ribbon/ribbon.h"

static int seven_result_bits(fk_ribbon *rb)
{
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    if (fk_filter_describe(fk_ribbon_as_filter(rb), rows, FK_DESCRIBE_MAX_ROWS, &n) != FK_OK)
        return 0;
    const fk_describe_row *r = fk_describe_find(rows, n, "result_bits");
    const fk_describe_row *i = fk_describe_find(rows, n, "items");
    fk_ribbon_description d;
    fk_ribbon_describe(rb, &d);
    return r && i && r->value.u64 == 7 && i->value.u64 == 3 && d.result_bits == 7 &&
           d.items == 3 && d.band_width == FK_RIBBON_WIDTH;
}

int main(void)
{
    static const char *const words[] = { "apple", "pear", "plum" };
    const void *keys[3] = { words[0], words[1], words[2] };
    size_t lens[3] = { 5, 4, 4 };
    fk_params p = fk_params_make(0, 0.01);
    fk_ribbon *rb = NULL;
    int ok = fk_ribbon_build(&p, 3, keys, lens, &rb) == FK_OK
          && fk_ribbon_contains(rb, "apple", 5)
          && fk_filter_contains(fk_ribbon_as_filter(rb), "plum", 4)
          && fk_filter_insert(fk_ribbon_as_filter(rb), "fig", 3) == FK_EUNSUPPORTED
          && seven_result_bits(rb);
    fk_ribbon_free(rb);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
