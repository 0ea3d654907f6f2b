/* tests/link_registry.c: built with registry/registry.h and the
 * all-in-one libfilterkit.a only (see the Makefile's link_registry rule),
 * as registry/README.md teaches: the lookups by name, position and file
 * kind id, and loading a saved filter of a kind the program never names. */
#include <stdio.h>
#include <string.h>
#include "../registry/registry.h"

int main(void)
{
    int passed = 0, failed = 0;
#define CHECK(cond) ((cond) ? passed++ : (failed++, printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #cond)))
    const fk_ops *cuckoo = fk_ops_find("cuckoo");
    CHECK(cuckoo != NULL && strcmp(cuckoo->name, "cuckoo") == 0);
    CHECK(fk_ops_find("no-such-kind") == NULL);
    size_t kinds = 0;
    while (fk_ops_at(kinds))
        kinds++;
    CHECK(kinds >= 7);
    CHECK(cuckoo && cuckoo->serial && fk_ops_find_kind_id(cuckoo->serial->kind_id) == cuckoo);

    fk_params p = fk_params_make(1000, 0.01);
    fk_filter *f = NULL, *g = NULL;
    uint8_t buf[8192];
    size_t len = 0;
    CHECK(cuckoo && fk_filter_new(cuckoo, &p, &f) == FK_OK);
    CHECK(fk_filter_insert(f, "apple", 5) == FK_OK);
    CHECK(fk_filter_save(f, buf, sizeof buf, &len) == FK_OK);
    CHECK(fk_filter_load_any(buf, len, &g) == FK_OK);
    CHECK(g && fk_filter_ops(g) == cuckoo && fk_filter_contains(g, "apple", 5));
    fk_filter_free(f);
    fk_filter_free(g);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
