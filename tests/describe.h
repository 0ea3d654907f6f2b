/* tests/describe.h: a kind's description as a value, so that a test can
 * read one field inline (bloom_desc(b).bits). Include it after the kinds'
 * headers; it gives a helper for each kind already included. */
#ifndef FK_TESTS_DESCRIBE_H
#define FK_TESTS_DESCRIBE_H

#include <string.h>

/* kind_desc(x): fk_<kind>_describe(x, &d) with d zeroed first, so NULL
 * gives all zeros. */
#define FK_TEST_DESCRIBE(kind)                                                         \
    static inline fk_##kind##_description kind##_desc(const fk_##kind *x)              \
    {                                                                                  \
        fk_##kind##_description d;                                                     \
        memset(&d, 0, sizeof d);                                                       \
        fk_##kind##_describe(x, &d);                                                   \
        return d;                                                                      \
    }

#ifdef FK_BLOOM_H
FK_TEST_DESCRIBE(bloom)
#endif
#ifdef FK_BLOCKED_H
FK_TEST_DESCRIBE(blocked)
#endif
#ifdef FK_COUNTING_H
FK_TEST_DESCRIBE(counting)
#endif
#ifdef FK_CUCKOO_H
FK_TEST_DESCRIBE(cuckoo)
#endif
#ifdef FK_FUSE_H
FK_TEST_DESCRIBE(fuse)
#endif
#ifdef FK_RIBBON_H
FK_TEST_DESCRIBE(ribbon)
#endif

#endif
