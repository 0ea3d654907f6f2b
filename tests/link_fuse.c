/* tests/link_fuse.c: built with only fuse/fuse.h, libfk_fuse.a and
 * libfk_common.a (see the Makefile's link_% rule): proves the fuse module
 * links alone. */
#include <stdio.h>
#include "../fuse/fuse.h"

static int cells_of_8_bits(const fk_fuse *fu)
{
    fk_fuse_description d;
    fk_fuse_describe(fu, &d);
    return d.fingerprint_bits == 8 && d.items == 3;
}

int main(void)
{
    static const char *const words[] = { "apple", "pear", "plum" };
    const void *keys[3] = { words[0], words[1], words[2] };
    size_t lens[3] = { 5, 4, 4 };
    fk_params p = fk_params_make(0, 0.004);
    fk_fuse *fu = NULL;
    int ok = fk_fuse_build(&p, 3, keys, lens, &fu) == FK_OK
          && fk_fuse_contains(fu, "apple", 5)
          && fk_filter_contains(fk_fuse_as_filter(fu), "plum", 4)
          && fk_filter_insert(fk_fuse_as_filter(fu), "fig", 3) == FK_EUNSUPPORTED
          && cells_of_8_bits(fu);
    fk_fuse_free(fu);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
