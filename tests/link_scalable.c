/* tests/link_scalable.c: built with scalable/scalable.h and bloom/bloom.h,
 * libfk_scalable.a, libfk_bloom.a and libfk_common.a only (the Makefile's
 * link_% rule, with LINK_WITH_scalable naming the inner kind's archive):
 * proves the growing wrapper links with common/ and the one kind it grows,
 * which it reaches only through that kind's fk_ops. */
#include <stdio.h>
#include "../bloom/bloom.h"
#include "../scalable/scalable.h"

int main(void)
{
    fk_params p = fk_params_make(100, 0.01);
    fk_filter *f = NULL;
    int ok = fk_scalable_new(&fk_bloom_ops, &p, &f) == FK_OK;
    char key[16];
    for (int i = 0; ok && i < 1000; i++) { /* ten times its first capacity: it grows */
        int len = snprintf(key, sizeof key, "key%d", i);
        ok = fk_filter_insert(f, key, (size_t)len) == FK_OK;
    }
    for (int i = 0; ok && i < 1000; i++) {
        int len = snprintf(key, sizeof key, "key%d", i);
        ok = fk_filter_contains(f, key, (size_t)len);
    }
    /* its links, through the generic door (the accessors are internal) */
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    (void)fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n); /* FK_ELIMIT: the first rows */
    const fk_describe_row *links = fk_describe_find(rows, n < FK_DESCRIBE_MAX_ROWS ? n : FK_DESCRIBE_MAX_ROWS, "links");
    ok = ok && links && links->type == FK_DESCRIBE_U64 && links->value.u64 > 1;
    fk_filter_free(f);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
