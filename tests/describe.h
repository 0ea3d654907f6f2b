/* tests/describe.h: a kind's description as a value, so that a test can
 * read one field inline (describe(b).bits). Include it after the kinds'
 * headers; it gives a helper for each kind already included. */
#ifndef FK_TESTS_DESCRIBE_H
#define FK_TESTS_DESCRIBE_H

#ifdef FK_BLOOM_H
static inline fk_bloom_description bloom_desc(const fk_bloom *b)
{
    fk_bloom_description d = { 0 };
    fk_bloom_describe(b, &d);
    return d;
}
#endif

#ifdef FK_BLOCKED_H
static inline fk_blocked_description blocked_desc(const fk_blocked *b)
{
    fk_blocked_description d = { 0 };
    fk_blocked_describe(b, &d);
    return d;
}
#endif

#ifdef FK_COUNTING_H
static inline fk_counting_description counting_desc(const fk_counting *c)
{
    fk_counting_description d = { 0 };
    fk_counting_describe(c, &d);
    return d;
}
#endif

#ifdef FK_CUCKOO_H
static inline fk_cuckoo_description cuckoo_desc(const fk_cuckoo *c)
{
    fk_cuckoo_description d = { 0 };
    fk_cuckoo_describe(c, &d);
    return d;
}
#endif

#endif
