/* tests/test_bench_workload.c: the bench's key generator: distinct keys,
 * negatives disjoint from positives, the requested lookup mixes, file keys,
 * determinism. Links build/libfk_bench.a (see the Makefile). */
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "../bench/keys/workload.h"

/* Keys as (pointer, length) for sorting. */
typedef struct { const uint8_t *p; size_t n; int side; } kref;

static int cmp_kref(const void *a, const void *b)
{
    const kref *x = a, *y = b;
    size_t n = x->n < y->n ? x->n : y->n;
    int c = n ? memcmp(x->p, y->p, n) : 0;
    if (c)
        return c;
    return x->n < y->n ? -1 : x->n > y->n;
}

/* Sorts both sets together; returns the number of equal neighbours
 * (0 = all keys distinct, and so positives and negatives disjoint). */
static size_t count_duplicates(const fkc_keyset *a, const fkc_keyset *b)
{
    size_t total = a->count + (b ? b->count : 0), k = 0, dups = 0;
    kref *r = malloc(total * sizeof *r);
    for (size_t i = 0; i < a->count; i++)
        r[k++] = (kref){ fkc_key_ptr(a, i), fkc_key_len(a, i), 0 };
    for (size_t i = 0; b && i < b->count; i++)
        r[k++] = (kref){ fkc_key_ptr(b, i), fkc_key_len(b, i), 1 };
    qsort(r, total, sizeof *r, cmp_kref);
    for (size_t i = 1; i < total; i++)
        dups += cmp_kref(&r[i - 1], &r[i]) == 0;
    free(r);
    return dups;
}

/* Is key (p, n) in set s (linear scan over a sorted copy is overkill for
 * the sizes used here, so: bsearch over sorted refs)? */
static kref *sorted_refs(const fkc_keyset *s)
{
    kref *r = malloc(s->count * sizeof *r);
    for (size_t i = 0; i < s->count; i++)
        r[i] = (kref){ fkc_key_ptr(s, i), fkc_key_len(s, i), 0 };
    qsort(r, s->count, sizeof *r, cmp_kref);
    return r;
}

static int in_refs(const kref *r, size_t n, const void *p, size_t len)
{
    kref k = { p, len, 0 };
    return bsearch(&k, r, n, sizeof *r, cmp_kref) != NULL;
}

static fkc_workload make(fkc_key_type t, size_t npos, size_t nneg, uint64_t seed)
{
    fkc_keyspec spec = { t, NULL, seed, 0 };
    fkc_workload w;
    char err[200];
    int rc = fkc_workload_make(&spec, npos, nneg, &w, err, sizeof err);
    CHECK_MSG(rc == 0, "workload: %s", err);
    return w;
}

TEST(u64_keys_are_distinct_and_disjoint)
{
    fkc_workload w = make(FKC_KEYS_U64, 200000, 100000, 7);
    CHECK_EQ_U64(w.pos.count, 200000);
    CHECK_EQ_U64(w.neg.count, 100000);
    CHECK(w.pos.off == NULL && w.pos.width == 8);
    CHECK_EQ_U64(count_duplicates(&w.pos, &w.neg), 0);
    fkc_workload_free(&w);
}

TEST(string_keys_have_lengths_8_to_64_and_are_disjoint)
{
    fkc_workload w = make(FKC_KEYS_STR, 50000, 50000, 3);
    size_t lo = 1000, hi = 0, sum = 0;
    for (size_t i = 0; i < w.pos.count; i++) {
        size_t n = fkc_key_len(&w.pos, i);
        lo = n < lo ? n : lo;
        hi = n > hi ? n : hi;
        sum += n;
    }
    CHECK_EQ_U64(lo, FKC_STR_MIN);
    CHECK_EQ_U64(hi, FKC_STR_MAX);
    CHECK_MSG(sum / w.pos.count >= 33 && sum / w.pos.count <= 39, "mean length %zu", sum / w.pos.count);
    CHECK_EQ_U64(count_duplicates(&w.pos, &w.neg), 0);
    fkc_workload_free(&w);
}

TEST(same_seed_same_keys_other_seed_other_keys)
{
    fkc_workload a = make(FKC_KEYS_STR, 1000, 10, 11), b = make(FKC_KEYS_STR, 1000, 10, 11);
    fkc_workload c = make(FKC_KEYS_STR, 1000, 10, 12);
    CHECK(a.pos.off[1000] == b.pos.off[1000] && memcmp(a.pos.bytes, b.pos.bytes, a.pos.off[1000]) == 0);
    CHECK(memcmp(a.pos.bytes, c.pos.bytes, 8) != 0);
    fkc_workload_free(&a);
    fkc_workload_free(&b);
    fkc_workload_free(&c);
}

TEST(generated_continuation_stays_disjoint_from_negatives)
{
    fkc_workload w = make(FKC_KEYS_U64, 1000, 5000, 5);
    fkc_keyset extra = { malloc(8 * 4000), NULL, 8, 4000 };
    uint8_t buf[FKC_STR_MAX];
    for (size_t i = 0; i < 4000; i++) {
        CHECK_EQ_U64(fkc_workload_pos_key(&w, 1000 + i, buf), 8);
        memcpy(extra.bytes + 8 * i, buf, 8);
    }
    CHECK_EQ_U64(count_duplicates(&extra, &w.neg), 0);
    CHECK_EQ_U64(count_duplicates(&extra, &w.pos), 0);
    /* below pos.count it returns the stored key */
    CHECK_EQ_U64(fkc_workload_pos_key(&w, 17, buf), 8);
    CHECK(memcmp(buf, fkc_key_ptr(&w.pos, 17), 8) == 0);
    fkc_keyset_free(&extra);
    fkc_workload_free(&w);
}

TEST(mixes_hold_the_requested_share_of_positives)
{
    static const unsigned pcts[] = { 0, 25, 50, 75, 100 };
    for (int t = 0; t < 2; t++) {
        fkc_workload w = make(t ? FKC_KEYS_STR : FKC_KEYS_U64, 20000, 20000, 9);
        kref *pos = sorted_refs(&w.pos), *neg = sorted_refs(&w.neg);
        for (size_t j = 0; j < 5; j++) {
            fkc_keyset mix;
            size_t npos = 0, seen_pos = 0, seen_neg = 0, first_half = 0;
            CHECK(fkc_workload_mix(&w, w.pos.count, pcts[j], 10000, 42, &mix, &npos) == 0);
            CHECK_EQ_U64(mix.count, 10000);
            CHECK_EQ_U64(npos, 10000 * pcts[j] / 100);
            for (size_t i = 0; i < mix.count; i++) {
                int p = in_refs(pos, w.pos.count, fkc_key_ptr(&mix, i), fkc_key_len(&mix, i));
                int n = in_refs(neg, w.neg.count, fkc_key_ptr(&mix, i), fkc_key_len(&mix, i));
                CHECK(p + n == 1); /* every key comes from exactly one side */
                seen_pos += p;
                seen_neg += n;
                first_half += p && i < mix.count / 2;
            }
            CHECK_EQ_U64(seen_pos, npos);
            CHECK_EQ_U64(seen_neg, mix.count - npos);
            /* interleaved, not positives first: about half in each half */
            if (pcts[j] == 50)
                CHECK_MSG(first_half > 2300 && first_half < 2700, "first half holds %zu", first_half);
            fkc_keyset_free(&mix);
        }
        free(pos);
        free(neg);
        fkc_workload_free(&w);
    }
}

TEST(mix_draws_positives_only_from_the_first_avail)
{
    fkc_workload w = make(FKC_KEYS_U64, 1000, 1000, 2);
    fkc_keyset first = { w.pos.bytes, NULL, 8, 100 };
    kref *r = sorted_refs(&first);
    fkc_keyset mix;
    size_t npos;
    CHECK(fkc_workload_mix(&w, 100, 100, 5000, 1, &mix, &npos) == 0);
    size_t inside = 0;
    for (size_t i = 0; i < mix.count; i++)
        inside += in_refs(r, 100, fkc_key_ptr(&mix, i), 8);
    CHECK_EQ_U64(inside, 5000);
    fkc_keyset_free(&mix);
    CHECK(fkc_workload_mix(&w, 100, 101, 10, 1, &mix, &npos) == -1); /* over 100% */
    CHECK(mix.bytes == NULL);
    free(r);
    fkc_workload_free(&w);
}

TEST(file_keys_are_first_distinct_lines_and_negatives_avoid_them)
{
    char path[] = "/tmp/fk_test_keysXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("apple\nbanana\napple\r\ncherry\n\ndate\nelder\n", f); /* a dup, a CRLF, an empty line */
    fclose(f);
    fkc_keyspec spec = { FKC_KEYS_U64, NULL, 0, 0 };
    CHECK(fkc_keyspec_parse(path, &spec) == 0 && spec.type == FKC_KEYS_FILE);
    spec.seed = 1;
    fkc_workload w;
    char err[200];
    CHECK(fkc_workload_make(&spec, 4, 50, &w, err, sizeof err) == 0);
    CHECK_EQ_U64(w.pos.count, 4);
    const char *want[] = { "apple", "banana", "cherry", "" };
    for (size_t i = 0; i < 4 && i < w.pos.count; i++)
        CHECK(fkc_key_len(&w.pos, i) == strlen(want[i]) &&
              memcmp(fkc_key_ptr(&w.pos, i), want[i], strlen(want[i])) == 0);
    CHECK_EQ_U64(w.neg.count, 50);
    /* the first negatives are the unused lines, in order */
    CHECK(fkc_key_len(&w.neg, 0) == 4 && memcmp(fkc_key_ptr(&w.neg, 0), "date", 4) == 0);
    CHECK_EQ_U64(count_duplicates(&w.pos, &w.neg), 0);
    fkc_workload_free(&w);
    unlink(path);
    CHECK(fkc_workload_make(&spec, 4, 5, &w, err, sizeof err) == -1 && strstr(err, "cannot open"));
}

int main(void)
{
    RUN(u64_keys_are_distinct_and_disjoint);
    RUN(string_keys_have_lengths_8_to_64_and_are_disjoint);
    RUN(same_seed_same_keys_other_seed_other_keys);
    RUN(generated_continuation_stays_disjoint_from_negatives);
    RUN(mixes_hold_the_requested_share_of_positives);
    RUN(mix_draws_positives_only_from_the_first_avail);
    RUN(file_keys_are_first_distinct_lines_and_negatives_avoid_them);
    return check_report();
}
