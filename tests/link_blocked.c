/* tests/link_blocked.c: built with only blocked/blocked.h, libfk_blocked.a
 * and libfk_common.a (see the Makefile's link_% rule): proves the blocked
 * Bloom module links alone, saving and loading included. */
#include <stdio.h>
#include "../blocked/blocked.h"

int main(void)
{
    fk_params p = fk_params_make(1000, 0.01);
    fk_blocked *c = NULL, *d = NULL;
    uint8_t buf[4096];
    size_t len = 0;
    int ok = fk_blocked_new(&p, &c) == FK_OK
          && fk_blocked_insert(c, "apple", 5) == FK_OK
          && fk_blocked_contains(c, "apple", 5)
          && fk_filter_contains(fk_blocked_as_filter(c), "apple", 5)
          && fk_blocked_save(c, buf, sizeof buf, &len) == FK_OK
          && fk_blocked_load(buf, len, &d) == FK_OK
          && fk_blocked_contains(d, "apple", 5);
    /* the inline integer calls: 42 is the key "\x2a\0\0\0\0\0\0\0" */
    ok = ok && fk_blocked_insert_u64(c, 42) == FK_OK && fk_blocked_contains_u64(c, 42) &&
         fk_blocked_contains(c, "\x2a\0\0\0\0\0\0\0", 8);
    fk_blocked_free(c);
    fk_blocked_free(d);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
