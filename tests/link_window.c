/* tests/link_window.c: built with only window/window.h, libfk_window.a and
 * libfk_common.a (see the Makefile's link_% rule): proves the window module
 * links alone. */
#include <stdio.h>
#include "../window/window.h"

int main(void)
{
    fk_params p = fk_params_make(7, 0.001);
    fk_window *w = NULL;
    int ok = fk_window_new(&p, &w) == FK_OK
          && fk_window_insert(w, "apple", 5) == FK_OK
          && fk_window_contains(w, "apple", 5)
          && fk_filter_contains(fk_window_as_filter(w), "apple", 5)
          && fk_filter_remove(fk_window_as_filter(w), "apple", 5) == FK_EUNSUPPORTED;
    /* 8 ceil(7 / 7) = 8 inserts later "apple" has left the window */
    for (uint64_t i = 0; ok && i < 8; i++)
        ok = fk_window_insert_u64(w, 1000 + i) == FK_OK;
    ok = ok && !fk_window_contains(w, "apple", 5) && fk_window_contains_u64(w, 1007);
    fk_window_free(w);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
