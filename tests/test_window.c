/* tests/test_window.c: the sliding window (window/window.h) against an
 * exact sliding set: no false negative inside the window for count and
 * time windows (10^6 inserts at full scale), the slack and the FPR of each
 * age band within binomial bounds, windows of 1, 2 and 7 items to the
 * insert, refreshes, save/load in the middle of a stream continuing
 * identically, the clock going backwards refused, a time window fed at 10x
 * its sized rate, huge windows, forged files, batches = single calls, the
 * saved bytes of a fixed stream pinned to the released layout. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "keys.h"
#include "../window/window.h"
#include "../window/window_internal.h"
#include "../common/hash.h"
#include "../common/endian.h"

static fk_window *count_window(uint64_t n, double fpr, uint32_t fbits, uint64_t seed)
{
    fk_params p = fk_params_make(n, fpr);
    p.fingerprint_bits = fbits;
    p.seed = seed;
    fk_window *w = NULL;
    CHECK_STATUS(fk_window_new(&p, &w), FK_OK);
    return w;
}

static fk_window *time_window(uint64_t n, uint64_t span, double fpr, uint32_t fbits,
                              uint64_t seed)
{
    fk_params p = fk_params_make(n, fpr);
    p.fingerprint_bits = fbits;
    p.seed = seed;
    fk_window *w = NULL;
    CHECK_STATUS(fk_window_new_time(&p, span, &w), FK_OK);
    return w;
}

static uint8_t *save(const fk_window *w, size_t *len)
{
    uint64_t n = 0;
    fk_filter *f = fk_window_as_filter((fk_window *)(uintptr_t)w);
    if (fk_filter_serialized_size(f, &n) != FK_OK)
        return NULL;
    uint8_t *buf = malloc((size_t)n);
    if (buf && fk_window_save(w, buf, (size_t)n, len) != FK_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static bool same_bytes(const fk_window *a, const fk_window *b)
{
    size_t la = 0, lb = 0;
    uint8_t *x = save(a, &la), *y = save(b, &lb);
    bool same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static uint64_t splitmix(uint64_t *s)
{
    return keys_mix(*s += UINT64_C(0x9e3779b97f4a7c15));
}

/* ------------------------------------------- count windows, exact model
 *
 * A stream of inserts of keys drawn from 3N values (so keys repeat and
 * refresh), the model the index of each key's last insert. After every
 * insert the key that entered the window exactly N inserts ago (the
 * oldest the promise covers) and one random in-window key must answer
 * present; a key whose last insert is 8L or more inserts back must have
 * been swept (it answers present only as a false positive, counted). */
static void count_model(uint64_t n, uint32_t fbits, uint64_t inserts, uint64_t seed)
{
    fk_window *w = count_window(n, 0.01, fbits, seed);
    if (!w)
        return;
    const uint64_t L = fk_win_gen_len(n), universe = 3 * n + 1;
    uint64_t *ring = malloc(n * sizeof *ring);          /* key of insert j, j mod n */
    uint64_t *last = malloc(universe * sizeof *last);   /* last insert index + 1 */
    if (!ring || !last) {
        CHECK(0);
        goto out;
    }
    memset(last, 0, universe * sizeof *last);
    uint64_t rng = seed, missing = 0, expired_hits = 0, expired_probes = 0;
    for (uint64_t j = 0; j < inserts; j++) {
        uint64_t k = splitmix(&rng) % universe;
        CHECK_STATUS(fk_window_insert_u64(w, keys_positive(k)), FK_OK);
        ring[j % n] = k;
        last[k] = j + 1;
        /* the oldest insert still inside the window: max(0, j - n + 1) */
        uint64_t oldest = j + 1 >= n ? ring[(j + 1) % n] : ring[0];
        missing += !fk_window_contains_u64(w, keys_positive(oldest));
        uint64_t back = splitmix(&rng) % (j + 1 < n ? j + 1 : n);
        missing += !fk_window_contains_u64(w, keys_positive(ring[(j - back) % n]));
        /* a random key of the universe whose generation is 8 or more back:
         * swept (the current generation after j + 1 inserts: (j + 1) / L) */
        uint64_t q = splitmix(&rng) % universe;
        if (last[q] && (j + 1) / L - (last[q] - 1) / L >= FK_WINDOW_GENERATIONS) {
            expired_probes++;
            expired_hits += fk_window_contains_u64(w, keys_positive(q));
        }
    }
    CHECK_MSG(missing == 0, "N=%llu f=%u: %llu false negatives inside the window",
              (unsigned long long)n, fbits, (unsigned long long)missing);
    /* the expired keys answer like never-seen ones: the FPR bound */
    double bound = 0.01 * (double)expired_probes + 5.0 * sqrt(0.01 * (double)expired_probes) + 3;
    CHECK_MSG((double)expired_hits <= bound, "N=%llu: %llu of %llu expired keys present",
              (unsigned long long)n, (unsigned long long)expired_hits,
              (unsigned long long)expired_probes);
    fk_window_description d;
    fk_window_describe(w, &d);
    CHECK(d.live <= d.live_budget);
    CHECK(d.refreshed > 0);
out:
    free(ring);
    free(last);
    fk_window_free(w);
}

TEST(count_windows_never_miss_a_key_inside_the_window)
{
    const uint64_t m = 1000000; /* cheap enough for the sanitizer builds too */
    count_model(1000, 0, m, 1);    /* f = 10: the word path, 7000 generations */
    count_model(50, 29, m / 4, 2); /* f = 29: the slot-by-slot path */
    count_model(20000, 13, m / 2, 3);
}

/* Windows of 1, 2 and 7 items, to the insert, at f = 29 (a false positive
 * would take odds of 2^-26): a key answers present exactly while fewer
 * than 8L inserts (its own included) have come since it, L = ceil(N / 7);
 * a key inserted again lives from its last insert. */
TEST(tiny_windows_to_the_insert)
{
    const uint64_t ns[] = { 1, 2, 7, 8, 14 };
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        uint64_t n = ns[t], L = fk_win_gen_len(n);
        fk_window *w = count_window(n, 0.01, 29, 7 + t);
        if (!w)
            continue;
        uint64_t wrong = 0;
        const uint64_t total = 400;
        for (uint64_t j = 0; j < total; j++) {
            /* every 5th insert repeats the key of 3 inserts back */
            uint64_t key = (j % 5 == 4) ? j - 3 : j;
            CHECK_STATUS(fk_window_insert_u64(w, key), FK_OK);
            /* after j + 1 inserts the current generation is (j + 1) / L; a
             * key is present exactly while its last insert's generation is
             * at most 7 back */
            for (uint64_t i = j >= 60 ? j - 60 : 0; i <= j; i++) {
                if (i % 5 == 4)
                    continue; /* a repeat: its key is i - 3 */
                uint64_t at = (i % 5 == 1 && i + 3 <= j) ? i + 3 : i; /* last insert */
                uint64_t since = j - at + 1; /* inserts since, its own included */
                bool want = (j + 1) / L - at / L < FK_WINDOW_GENERATIONS;
                bool got = fk_window_contains_u64(w, i);
                wrong += got != want;
                if (since <= n)
                    wrong += !got; /* the promise itself */
            }
        }
        CHECK_MSG(wrong == 0, "N=%llu: %llu wrong answers", (unsigned long long)n,
                  (unsigned long long)wrong);
        fk_window_free(w);
    }
}

/* ----------------------------------------------------- FPR per age band
 *
 * 10N distinct inserts into a window of N = 20000, then lookups of keys
 * of every age: inside the window (all present), in the slack (present or
 * not, nothing promised), expired (past 8L) and never seen: those two
 * within a binomial bound of the target (mean + 5 sigma). Fixed seeds. */
static void age_bands(double fpr, uint32_t seed)
{
    const uint64_t n = 20000, total = 10 * n, L = fk_win_gen_len(n);
    fk_window *w = count_window(n, fpr, 0, seed);
    if (!w)
        return;
    for (uint64_t i = 0; i < total; i++)
        CHECK_STATUS(fk_window_insert_u64(w, keys_positive(i)), FK_OK);
    uint64_t in = 0, slack = 0, slack_n = 0, old = 0, old_n = 0, never = 0;
    const uint64_t never_n = 400000;
    for (uint64_t i = 0; i < total; i++) {
        uint64_t age = total - i; /* inserts since, its own included */
        bool got = fk_window_contains_u64(w, keys_positive(i));
        if (age <= n)
            in += !got;
        else if (age < 8 * L) {
            slack += got;
            slack_n++;
        } else {
            old += got;
            old_n++;
        }
    }
    for (uint64_t i = 0; i < never_n; i++)
        never += fk_window_contains_u64(w, keys_negative(i));
    CHECK_MSG(in == 0, "fpr %g: %llu false negatives in the window", fpr, (unsigned long long)in);
    double b_old = fpr * (double)old_n + 5.0 * sqrt(fpr * (double)old_n);
    double b_never = fpr * (double)never_n + 5.0 * sqrt(fpr * (double)never_n);
    CHECK_MSG((double)old <= b_old, "fpr %g: expired %llu of %llu", fpr, (unsigned long long)old,
              (unsigned long long)old_n);
    CHECK_MSG((double)never <= b_never, "fpr %g: never seen %llu of %llu", fpr,
              (unsigned long long)never, (unsigned long long)never_n);
    CHECK(never > 0); /* a real lookup */
    printf("  fpr %g: in-window misses 0; slack present %llu/%llu; expired %.5f; never %.5f\n",
           fpr, (unsigned long long)slack, (unsigned long long)slack_n,
           (double)old / (double)old_n, (double)never / (double)never_n);
    fk_window_free(w);
}

TEST(fpr_per_age_band_within_binomial_bounds)
{
    age_bands(0.01, 11);
    age_bands(0.001, 12);
}

/* ------------------------------------------- time windows, exact model */

/* Keys inserted at times t (ticks), the clock advancing by random steps
 * (sometimes a jump past the whole window); a key inserted less than T
 * ticks ago answers present, always; one older than 8D is gone. */
TEST(time_windows_never_miss_a_key_inside_the_window)
{
    const uint64_t T = 1000, D = fk_win_gen_len(T), steps = FK_TEST_SCALE(200000, 30000);
    fk_window *w = time_window(5000, T, 0.01, 29, 21);
    if (!w)
        return;
    enum { RING = 8192 };
    static uint64_t key_at[RING], time_at[RING];
    uint64_t rng = 5, now = 1000000, head = 0, missing = 0, lingering = 0, refused = 0;
    CHECK_STATUS(fk_window_advance(fk_window_as_filter(w), now), FK_OK);
    for (uint64_t s = 0; s < steps; s++) {
        uint64_t r = splitmix(&rng);
        if (r % 100 == 0)
            now += (r >> 8) % (3 * T); /* sometimes a long quiet spell */
        else
            now += (r >> 8) % 3;
        CHECK_STATUS(fk_window_advance(fk_window_as_filter(w), now), FK_OK);
        uint64_t key = keys_positive(s);
        fk_status st = fk_window_insert_u64(w, key);
        refused += st == FK_EFULL;
        if (st == FK_OK) {
            key_at[head % RING] = key;
            time_at[head % RING] = now;
            head++;
        }
        /* remembered keys at random: younger than T present, older than
         * 8D absent (f = 29: no false positive in practice) */
        uint64_t have = head < RING ? head : RING;
        for (int c = 0; c < 16 && have; c++) {
            uint64_t i = (head - 1 - splitmix(&rng) % have) % RING;
            uint64_t age = now - time_at[i];
            bool got = fk_window_contains_u64(w, key_at[i]);
            if (age < T)
                missing += !got;
            else if (age >= 8 * D)
                lingering += got;
        }
    }
    CHECK_MSG(missing == 0, "%llu false negatives inside the time window",
              (unsigned long long)missing);
    CHECK_MSG(lingering == 0, "%llu keys older than 8D still present", (unsigned long long)lingering);
    CHECK_EQ_U64(refused, 0); /* 5000 per window is more than this rate needs */
    fk_window_free(w);
}

/* Fed at 10x its sized rate: the window stays exact for every key it
 * accepted, refuses the rest with FK_EFULL (counted), and never holds more
 * than 8L live slots. */
TEST(time_window_fed_at_10x_its_rate_refuses_and_never_misses)
{
    const uint64_t T = 7000, cap = 700; /* sized for 0.1 keys per tick */
    fk_window *w = time_window(cap, T, 0.01, 0, 31);
    if (!w)
        return;
    enum { RING = 16384 };
    static uint64_t key_at[RING], time_at[RING];
    uint64_t head = 0, missing = 0, refused = 0, ok = 0;
    for (uint64_t now = 0; now < 10 * T; now++) {
        CHECK_STATUS(fk_window_advance(fk_window_as_filter(w), now), FK_OK);
        uint64_t key = keys_positive(now); /* 1 key per tick: 10x the rate */
        fk_status s = fk_window_insert_u64(w, key);
        CHECK(s == FK_OK || s == FK_EFULL);
        if (s == FK_OK) {
            ok++;
            key_at[head % RING] = key;
            time_at[head % RING] = now;
            head++;
        } else {
            refused++;
        }
        if (now % 97 == 0)
            for (uint64_t b = 1; b <= head && b < RING; b++) {
                uint64_t i = (head - b) % RING;
                if (now - time_at[i] >= T)
                    break;
                missing += !fk_window_contains_u64(w, key_at[i]);
            }
        fk_window_description d;
        fk_window_describe(w, &d);
        if (d.live > d.live_budget)
            missing++;
    }
    fk_window_description d;
    fk_window_describe(w, &d);
    CHECK_EQ_U64(d.refused, refused);
    CHECK_MSG(missing == 0, "%llu false negatives at 10x the rate", (unsigned long long)missing);
    CHECK_MSG(refused > 8 * ok / 10, "refused %llu, accepted %llu", (unsigned long long)refused,
              (unsigned long long)ok);
    /* the refused keys were not remembered: a refused insert changed nothing */
    fk_window_free(w);
}

TEST(clock_going_backwards_is_refused_and_changes_nothing)
{
    fk_window *w = time_window(100, 70, 0.01, 0, 41);
    fk_window *c = count_window(100, 0.01, 0, 41);
    if (!w || !c)
        goto out;
    fk_filter *f = fk_window_as_filter(w);
    CHECK_STATUS(fk_window_advance(f, 500), FK_OK);
    for (uint64_t i = 0; i < 50; i++)
        CHECK_STATUS(fk_window_insert_u64(w, i), FK_OK);
    CHECK_STATUS(fk_window_advance(f, 530), FK_OK);
    size_t len = 0;
    uint8_t *before = save(w, &len);
    CHECK_STATUS(fk_window_advance(f, 529), FK_EINVAL);
    CHECK_STATUS(fk_window_advance(f, 0), FK_EINVAL);
    size_t len2 = 0;
    uint8_t *after = save(w, &len2);
    CHECK(before && after && len == len2 && memcmp(before, after, len) == 0);
    free(before);
    free(after);
    CHECK_STATUS(fk_window_advance(f, 530), FK_OK); /* the same time again is fine */
    CHECK_STATUS(fk_window_advance(NULL, 1), FK_EINVAL);
    CHECK_STATUS(fk_window_advance(fk_window_as_filter(c), 1), FK_EUNSUPPORTED);
    fk_params p = fk_params_make(100, 0.01);
    fk_window *z = NULL;
    CHECK_STATUS(fk_window_new_time(&p, 0, &z), FK_EINVAL);
    CHECK(z == NULL);
    /* the clock's end: FK_WINDOW_MAX_TIME is the last time, a later one is
     * refused and changes nothing (clock_end_* below has the rest) */
    before = save(w, &len);
    CHECK_STATUS(fk_window_advance(f, UINT64_MAX), FK_EINVAL);
    CHECK_STATUS(fk_window_advance(f, FK_WINDOW_MAX_TIME + 1), FK_EINVAL);
    after = save(w, &len2);
    CHECK(before && after && len == len2 && memcmp(before, after, len) == 0);
    free(before);
    free(after);
    CHECK_STATUS(fk_window_advance(f, FK_WINDOW_MAX_TIME), FK_OK);
    CHECK(!fk_window_contains_u64(w, 1));
out:
    fk_window_free(w);
    fk_window_free(c);
}

/* ----------------------------------------------- save/load mid-stream */

static void continue_identically(bool timed)
{
    fk_window *a = timed ? time_window(3000, 700, 0.01, 0, 51) : count_window(3000, 0.01, 0, 51);
    if (!a)
        return;
    uint64_t now = 10;
    for (uint64_t i = 0; i < 20000; i++) {
        if (timed && i % 7 == 0)
            CHECK_STATUS(fk_window_advance(fk_window_as_filter(a), now += 3), FK_OK);
        (void)fk_window_insert_u64(a, keys_positive(i % 5000));
    }
    size_t len = 0;
    uint8_t *buf = save(a, &len);
    fk_window *b = NULL;
    CHECK(buf != NULL);
    if (buf)
        CHECK_STATUS(fk_window_load(buf, len, &b), FK_OK);
    free(buf);
    if (!b)
        goto out;
    CHECK(same_bytes(a, b));
    for (uint64_t i = 20000; i < 45000; i++) {
        if (timed && i % 7 == 0) {
            now += 3;
            CHECK_STATUS(fk_window_advance(fk_window_as_filter(a), now), FK_OK);
            CHECK_STATUS(fk_window_advance(fk_window_as_filter(b), now), FK_OK);
        }
        uint64_t k = keys_positive(i % 9000);
        CHECK_EQ_U64(fk_window_insert_u64(a, k), fk_window_insert_u64(b, k));
        uint64_t q = keys_negative(i);
        CHECK(fk_window_contains_u64(a, q) == fk_window_contains_u64(b, q));
    }
    CHECK(same_bytes(a, b));
    fk_window_description da, db;
    fk_window_describe(a, &da);
    fk_window_describe(b, &db);
    CHECK_EQ_U64(da.generation, db.generation);
    CHECK_EQ_U64(da.kicks, db.kicks);
    CHECK(da.generation > 8);
out:
    fk_window_free(a);
    fk_window_free(b);
}

TEST(save_and_load_mid_stream_continue_identically)
{
    continue_identically(false);
    continue_identically(true);
}

/* ------------------------------------------------------- huge windows */

TEST(windows_of_2_to_the_32_and_more_served_or_refused_as_documented)
{
    fk_params p = fk_params_make(UINT64_C(1) << 32, 0.01);
    fk_sizing sz;
    CHECK_STATUS(fk_ops_size(&fk_window_ops, &p, &sz), FK_OK);
    double bits = 8.0 * (double)sz.memory_bytes / ldexp(1.0, 32);
    CHECK_MSG(bits > 15.0 && bits < 15.6, "2^32 at 1%%: %.3f bits per window item", bits);
    /* refused before allocating when over the caller's byte limit */
    p.max_bytes = UINT64_C(1) << 30;
    fk_window *w = NULL;
    CHECK_STATUS(fk_window_new(&p, &w), FK_ELIMIT);
    fk_filter *f = NULL;
    CHECK_STATUS(fk_filter_new(&fk_window_ops, &p, &f), FK_ELIMIT);
    /* past FK_MEMORY_CAP: refused */
    p = fk_params_make(UINT64_C(1) << 36, 0.01);
    CHECK_STATUS(fk_ops_size(&fk_window_ops, &p, &sz), FK_EINVAL);
    CHECK_STATUS(fk_window_new(&p, &w), FK_EINVAL);
    p = fk_params_make(UINT64_MAX, 0.01);
    CHECK_STATUS(fk_window_new(&p, &w), FK_EINVAL);
    CHECK(w == NULL);
    /* the bad knobs */
    p = fk_params_make(100, 0.01);
    p.fingerprint_bits = 3;
    CHECK_STATUS(fk_window_new(&p, &w), FK_EINVAL);
    p.fingerprint_bits = 30;
    CHECK_STATUS(fk_window_new(&p, &w), FK_EINVAL);
    p.fingerprint_bits = 0;
    p.max_load = 1.5;
    CHECK_STATUS(fk_window_new(&p, &w), FK_EINVAL);
    p.max_load = NAN;
    CHECK_STATUS(fk_window_new(&p, &w), FK_EINVAL);
    CHECK_STATUS(fk_window_new(NULL, &w), FK_EINVAL);
    CHECK_STATUS(fk_window_new(&p, NULL), FK_EINVAL);
}

/* The sizing the issue targets: bits per window item at N = 10^6 (the
 * table and the struct; the table alone is what memory_bytes holds). */
TEST(bits_per_window_item_meet_the_targets)
{
    const double fprs[] = { 0.01, 0.001 }, targets[] = { 15.6, 19.2 };
    for (int i = 0; i < 2; i++) {
        fk_params p = fk_params_make(1000000, fprs[i]);
        fk_sizing sz;
        CHECK_STATUS(fk_ops_size(&fk_window_ops, &p, &sz), FK_OK);
        double bits = 8.0 * (double)sz.memory_bytes / 1e6;
        CHECK_MSG(bits <= targets[i], "fpr %g: %.3f bits per window item", fprs[i], bits);
        printf("  N = 10^6, fpr %g: %.2f bits per window item (%s)\n", fprs[i], bits, sz.geometry);
    }
}

/* --------------------------------------------------------- forged files */

static void reseal(uint8_t *buf, size_t len)
{
    fk_le_put64(buf + len - 8, fk_checksum64(buf, len - 8, 0));
}

static fk_status load_edited(const uint8_t *orig, size_t len, size_t at, uint64_t word)
{
    uint8_t *buf = malloc(len);
    if (!buf)
        return FK_ENOMEM;
    memcpy(buf, orig, len);
    fk_le_put64(buf + at, word);
    reseal(buf, len);
    fk_window *w = NULL;
    fk_status s = fk_window_load(buf, len, &w);
    fk_window_free(w);
    free(buf);
    return s;
}

/* Issue 48: a time window records the clock its times are in (fk_params
 * .clock), saves it (param[7]) and loads it back; a clock-0 file is laid
 * out as before (its param is 0, as in files from before the id), a count
 * window has no clock, and an id this version does not know is refused. */
TEST(a_time_windows_clock_is_recorded_saved_and_checked)
{
    const uint64_t T = UINT64_C(2000000000), t0 = UINT64_C(1700000000000000000); /* 2 s; 2023 in Unix ns */
    fk_params p = fk_params_make(100, 0.01);
    p.seed = 5;
    fk_window *caller = NULL, *unix_ns = NULL, *bad = NULL;
    CHECK_STATUS(fk_window_new_time(&p, T, &caller), FK_OK); /* clock 0 unless asked */
    p.clock = FK_CLOCK_UNIX_NS;
    CHECK_STATUS(fk_window_new_time(&p, T, &unix_ns), FK_OK);
    if (!caller || !unix_ns)
        goto out;
    fk_window_description d;
    fk_window_describe(caller, &d);
    CHECK(d.timed && d.clock == FK_CLOCK_CALLER);
    fk_window_describe(unix_ns, &d);
    CHECK(d.timed && d.clock == FK_CLOCK_UNIX_NS);
    CHECK(strcmp(fk_clock_name(FK_CLOCK_UNIX_NS), "unix_ns") == 0 &&
          strcmp(fk_clock_name(FK_CLOCK_CALLER), "caller") == 0 && fk_clock_name(2) == NULL);

    /* a clock this version does not know, and a count window given a clock */
    p.clock = FK_CLOCK_MAX + 1;
    bad = unix_ns; /* must be reset to NULL */
    CHECK_STATUS(fk_window_new_time(&p, T, &bad), FK_EINVAL);
    CHECK(bad == NULL);
    p.clock = FK_CLOCK_UNIX_NS;
    bad = unix_ns;
    CHECK_STATUS(fk_window_new(&p, &bad), FK_EINVAL);
    CHECK(bad == NULL);
    fk_filter *gf = NULL;
    CHECK_STATUS(fk_filter_new(&fk_window_ops, &p, &gf), FK_EINVAL);
    CHECK(gf == NULL);

    /* the same stream into both: the clock id is all that differs */
    for (uint64_t i = 0; i < 60; i++) {
        uint64_t now = t0 + i * (T / 20);
        CHECK_STATUS(fk_window_advance(fk_window_as_filter(caller), now), FK_OK);
        CHECK_STATUS(fk_window_advance(fk_window_as_filter(unix_ns), now), FK_OK);
        CHECK_STATUS(fk_window_insert_u64(caller, i), FK_OK);
        CHECK_STATUS(fk_window_insert_u64(unix_ns, i), FK_OK);
    }
    size_t lc = 0, lu = 0;
    uint8_t *bc = save(caller, &lc), *bu = save(unix_ns, &lu);
    if (!bc || !bu) {
        free(bc);
        free(bu);
        goto out;
    }
    fk_serial_head hc, hu;
    CHECK_STATUS(fk_serial_read_head(bc, lc, &hc), FK_OK);
    CHECK_STATUS(fk_serial_read_head(bu, lu, &hu), FK_OK);
    const size_t clock_at = 48 + 8 * 7; /* param[7] */
    CHECK(hc.param[7] == FK_CLOCK_CALLER && hu.param[7] == FK_CLOCK_UNIX_NS);
    CHECK(fk_load_le64(bc + clock_at) == 0 && fk_load_le64(bu + clock_at) == 1);
    /* only the clock word (and the checksum) differ */
    CHECK(lc == lu);
    size_t differ = 0;
    for (size_t i = 0; lc == lu && i < lc - 8; i++)
        differ += (i < clock_at || i >= clock_at + 8) && bc[i] != bu[i];
    CHECK(differ == 0);

    /* loaded, each keeps its clock, and continues as the original */
    fk_window *lcw = NULL, *luw = NULL;
    CHECK_STATUS(fk_window_load(bc, lc, &lcw), FK_OK);
    CHECK_STATUS(fk_window_load(bu, lu, &luw), FK_OK);
    if (lcw && luw) {
        fk_window_describe(lcw, &d);
        CHECK(d.clock == FK_CLOCK_CALLER);
        fk_window_describe(luw, &d);
        CHECK(d.clock == FK_CLOCK_UNIX_NS && d.clock_set && d.now == t0 + 59 * (T / 20));
        uint64_t later = t0 + 59 * (T / 20) + T / 2; /* the last key inside, the first gone */
        CHECK_STATUS(fk_window_advance(fk_window_as_filter(luw), later), FK_OK);
        CHECK_STATUS(fk_window_advance(fk_window_as_filter(unix_ns), later), FK_OK);
        CHECK(same_bytes(luw, unix_ns));
        CHECK(fk_window_contains_u64(luw, 59));
    }
    fk_window_free(lcw);
    fk_window_free(luw);

    /* the loader: an unknown id is damage, 0 and 1 load as that clock */
    CHECK_STATUS(load_edited(bu, lu, clock_at, FK_CLOCK_MAX + 1), FK_ECORRUPT);
    CHECK_STATUS(load_edited(bu, lu, clock_at, UINT64_C(1) << 32), FK_ECORRUPT);
    CHECK_STATUS(load_edited(bc, lc, clock_at, FK_CLOCK_UNIX_NS), FK_OK);
    CHECK_STATUS(load_edited(bu, lu, clock_at, FK_CLOCK_CALLER), FK_OK);
    free(bc);
    free(bu);

    /* a count window's file: clock 0, and a clock there is damage */
    fk_window *cw = count_window(70, 0.01, 0, 3);
    size_t ln = 0;
    uint8_t *bn = cw ? save(cw, &ln) : NULL;
    if (bn) {
        CHECK(fk_load_le64(bn + clock_at) == 0);
        CHECK_STATUS(load_edited(bn, ln, clock_at, FK_CLOCK_UNIX_NS), FK_ECORRUPT);
    }
    free(bn);
    fk_window_free(cw);
out:
    fk_window_free(caller);
    fk_window_free(unix_ns);
}

TEST(forged_files_are_refused)
{
    /* a young count window (generation 2 of 8: tags 3..7 unused) */
    fk_window *w = count_window(70, 0.01, 0, 61);
    if (!w)
        return;
    for (uint64_t i = 0; i < 25; i++)
        CHECK_STATUS(fk_window_insert_u64(w, i), FK_OK);
    size_t len = 0;
    uint8_t *buf = save(w, &len);
    if (!buf)
        goto out;
    const size_t head = FK_SERIAL_HEADER_BYTES, state = head, table = head + 8 * 16;
    fk_window *g = NULL;
    CHECK_STATUS(fk_window_load(buf, len, &g), FK_OK);
    fk_window_free(g);
    /* the stream state against the slots */
    CHECK_STATUS(load_edited(buf, len, state + 8 * 0, 9), FK_ECORRUPT);  /* gen 0 got 9 != L */
    CHECK_STATUS(load_edited(buf, len, state + 8 * 2, 0), FK_ECORRUPT);  /* fewer than its slots */
    CHECK_STATUS(load_edited(buf, len, state + 8 * 2, 10), FK_ECORRUPT); /* current = L */
    CHECK_STATUS(load_edited(buf, len, state + 8 * 5, 1), FK_ECORRUPT);  /* an unborn generation */
    CHECK_STATUS(load_edited(buf, len, state + 8 * 11, 2), FK_ECORRUPT); /* clock flag 2 */
    CHECK_STATUS(load_edited(buf, len, state + 8 * 9, 5), FK_ECORRUPT);  /* a count window's clock */
    CHECK_STATUS(load_edited(buf, len, 48 + 8 * 3, 1), FK_ECORRUPT);     /* generation 1 */
    CHECK_STATUS(load_edited(buf, len, 48 + 8 * 2, 11), FK_ECORRUPT);    /* L != ceil(N / 7) */
    CHECK_STATUS(load_edited(buf, len, 48 + 8 * 4, 5), FK_ECORRUPT);     /* a span without D */
    CHECK_STATUS(load_edited(buf, len, 48 + 8 * 6, 1), FK_ECORRUPT);     /* a stash not there */
    CHECK_STATUS(load_edited(buf, len, 48 + 8 * 7, 1), FK_ECORRUPT);     /* an unused param */
    CHECK_STATUS(load_edited(buf, len, 40, 24), FK_ECORRUPT);            /* items */
    /* a slot with tag 5 (no generation 5 yet), and one with a tag but no
     * fingerprint: find an empty slot and write it */
    fk_window *e = NULL;
    CHECK_STATUS(fk_window_load(buf, len, &e), FK_OK);
    if (e) {
        uint64_t b = 0;
        int j = -1;
        for (; b < e->buckets && j < 0; b++)
            j = fk_win_find_free(e, b);
        b--;
        uint64_t bit = (4 * b + (uint64_t)j) * e->w;
        uint8_t *copy = malloc(len);
        const uint64_t forged[] = { (7u << 3) | 5u, 2u };
        for (int k = 0; copy && k < 2; k++) {
            memcpy(copy, buf, len);
            uint8_t *p = copy + table + (bit >> 3);
            uint64_t x = fk_load_le64(p) | (forged[k] << (bit & 7));
            /* only the table's bytes: the write stays inside the record */
            for (unsigned byte = 0; byte < 8 && p + byte < copy + len - 8; byte++)
                p[byte] = (uint8_t)(x >> (8 * byte));
            reseal(copy, len);
            fk_window *h = NULL;
            CHECK_STATUS(fk_window_load(copy, len, &h), FK_ECORRUPT);
            fk_window_free(h);
        }
        free(copy);
        fk_window_free(e);
    }
    free(buf);
out:
    fk_window_free(w);
}

/* ------------------------------------- counters and clocks (issue 48)
 *
 * Whatever loads takes any later inserts and advances, and its save loads
 * again: a record whose generation counter or clock is near 2^64 would
 * wrap on the next generation (a generation number of 2^64 - 1 went to 0,
 * after which the window's own save was refused), so the loader refuses
 * every counter and clock the live code cannot reach, and the live code
 * keeps below the same limits. */

/* The window in buf (which must load) takes `inserts` new keys with an
 * advance of `step` ticks before each (time windows), then saves a record
 * that loads again and answers the last `keep` keys present. */
static void survives_inserts_and_advances(const uint8_t *buf, size_t len, uint64_t inserts,
                                          uint64_t step, uint64_t keep, const char *what)
{
    fk_window *w = NULL;
    CHECK_STATUS(fk_window_load(buf, len, &w), FK_OK);
    if (!w)
        return;
    fk_window_description d;
    for (uint64_t i = 0; i < inserts; i++) {
        fk_window_describe(w, &d);
        if (d.timed && d.now + step <= FK_WINDOW_MAX_TIME)
            CHECK_STATUS(fk_window_advance(fk_window_as_filter(w), d.now + step), FK_OK);
        CHECK_STATUS(fk_window_insert_u64(w, 900000 + i), FK_OK);
    }
    for (uint64_t i = inserts - keep; i < inserts; i++)
        CHECK_MSG(fk_window_contains_u64(w, 900000 + i), "%s: key %llu of the window missing",
                  what, (unsigned long long)i);
    size_t n = 0;
    uint8_t *again = save(w, &n);
    fk_window *g = NULL;
    CHECK_MSG(again && fk_window_load(again, n, &g) == FK_OK,
              "%s: the save after %llu inserts does not load", what,
              (unsigned long long)inserts);
    CHECK(g == NULL || same_bytes(w, g));
    fk_window_free(g);
    free(again);
    fk_window_free(w);
}

static fk_status load_edited2(const uint8_t *orig, size_t len, size_t at1, uint64_t word1,
                              size_t at2, uint64_t word2)
{
    uint8_t *buf = malloc(len);
    if (!buf)
        return FK_ENOMEM;
    memcpy(buf, orig, len);
    fk_le_put64(buf + at1, word1);
    fk_le_put64(buf + at2, word2);
    reseal(buf, len);
    fk_window *w = NULL;
    fk_status s = fk_window_load(buf, len, &w);
    fk_window_free(w);
    free(buf);
    return s;
}

TEST(a_generation_counter_near_wrap_around_is_refused)
{
    /* a count window of N = 70 (L = 10) at generation 7 (all 8 tags live),
     * 5 inserts into it */
    fk_window *w = count_window(70, 0.01, 0, 71);
    if (!w)
        return;
    for (uint64_t i = 0; i < 75; i++)
        CHECK_STATUS(fk_window_insert_u64(w, i), FK_OK);
    fk_window_description d;
    fk_window_describe(w, &d);
    CHECK_EQ_U64(d.generation, 7);
    size_t len = 0;
    uint8_t *buf = save(w, &len);
    if (!buf)
        goto out;
    const size_t gen_at = 48 + 8 * 3;
    /* the same tags at numbers that wrap within a few generations */
    CHECK_STATUS(load_edited(buf, len, gen_at, UINT64_MAX), FK_ECORRUPT);
    CHECK_STATUS(load_edited(buf, len, gen_at, UINT64_MAX - 8), FK_ECORRUPT);
    CHECK_STATUS(load_edited(buf, len, gen_at, FK_WINDOW_MAX_GENERATION + 7), FK_ECORRUPT);
    /* the last number below the limit loads, and its next generation
     * continues 2^62 lower with the same tags: 60 inserts (6 generations)
     * later it saves a record that loads, the last N keys present */
    uint8_t *edge = malloc(len);
    if (edge) {
        memcpy(edge, buf, len);
        fk_le_put64(edge + gen_at, FK_WINDOW_MAX_GENERATION - 1);
        reseal(edge, len);
        survives_inserts_and_advances(edge, len, 60, 0, 60, "generation 2^63 - 1");
        fk_window *e = NULL;
        CHECK_STATUS(fk_window_load(edge, len, &e), FK_OK);
        for (uint64_t i = 0; e && i < 10; i++)
            CHECK_STATUS(fk_window_insert_u64(e, 5000 + i), FK_OK);
        if (e) {
            fk_window_describe(e, &d);
            CHECK_EQ_U64(d.generation, FK_WINDOW_MAX_GENERATION / 2);
            for (uint64_t i = 50; i < 75; i++)
                CHECK(fk_window_contains_u64(e, i)); /* the same keys, the same tags */
        }
        fk_window_free(e);
        free(edge);
    }
    free(buf);
out:
    fk_window_free(w);
}

TEST(a_forged_clock_or_insert_count_is_refused)
{
    /* a time window of T = 70 (D = 10): origin 1000, now 1035, generation 3,
     * next boundary 1040 */
    fk_window *w = time_window(100, 70, 0.01, 0, 73);
    if (!w)
        return;
    fk_filter *f = fk_window_as_filter(w);
    CHECK_STATUS(fk_window_advance(f, 1000), FK_OK);
    for (uint64_t i = 0; i < 40; i++) {
        CHECK_STATUS(fk_window_advance(f, 1000 + i), FK_OK);
        CHECK_STATUS(fk_window_insert_u64(w, i), FK_OK);
    }
    fk_window_description d;
    fk_window_describe(w, &d);
    CHECK_EQ_U64(d.generation, 3);
    CHECK_EQ_U64(d.next_boundary, 1040);
    size_t len = 0;
    uint8_t *buf = save(w, &len);
    if (!buf)
        goto out;
    const size_t state = FK_SERIAL_HEADER_BYTES, now_at = state + 8 * 9,
                 boundary_at = state + 8 * 10;
    fk_window *g = NULL;
    CHECK_STATUS(fk_window_load(buf, len, &g), FK_OK);
    fk_window_free(g);
    /* a next boundary of 2^64 - 1 (it never forgot) */
    CHECK_STATUS(load_edited2(buf, len, now_at, UINT64_MAX - 5, boundary_at, UINT64_MAX),
                 FK_ECORRUPT);
    /* a clock past FK_WINDOW_MAX_TIME, its boundary D later */
    CHECK_STATUS(load_edited2(buf, len, now_at, FK_WINDOW_MAX_TIME + 1, boundary_at,
                              FK_WINDOW_MAX_TIME + 11), FK_ECORRUPT);
    /* a grid that starts before time 0: generation 3 at now 5, boundary 10 */
    CHECK_STATUS(load_edited2(buf, len, now_at, 5, boundary_at, 10), FK_ECORRUPT);
    /* ... and the same record one generation's span later is fine */
    CHECK_STATUS(load_edited2(buf, len, now_at, 35, boundary_at, 40), FK_OK);
    /* the boundary more than D ahead, or at the clock */
    CHECK_STATUS(load_edited2(buf, len, now_at, 1035, boundary_at, 1046), FK_ECORRUPT);
    CHECK_STATUS(load_edited2(buf, len, now_at, 1040, boundary_at, 1040), FK_ECORRUPT);
    /* an insert count past FK_WINDOW_MAX_INSERTS (items adjusted to match):
     * a few inserts would have wrapped the sum */
    uint64_t cur = fk_le_get64(buf + state + 8 * 3), items = fk_le_get64(buf + 40);
    CHECK_STATUS(load_edited2(buf, len, state + 8 * 3, UINT64_MAX - 100, 40,
                              items - cur + UINT64_MAX - 100), FK_ECORRUPT);
    CHECK_STATUS(load_edited2(buf, len, state + 8 * 3, FK_WINDOW_MAX_INSERTS + 1, 40,
                              items - cur + FK_WINDOW_MAX_INSERTS + 1), FK_ECORRUPT);
    /* at the limit it loads, and the count stays there */
    uint8_t *edge = malloc(len);
    if (edge) {
        memcpy(edge, buf, len);
        fk_le_put64(edge + state + 8 * 3, FK_WINDOW_MAX_INSERTS);
        fk_le_put64(edge + 40, items - cur + FK_WINDOW_MAX_INSERTS);
        reseal(edge, len);
        survives_inserts_and_advances(edge, len, 50, 0, 50, "insert count at the limit");
        free(edge);
    }
    free(buf);
out:
    fk_window_free(w);
}

TEST(clock_end_refused_and_every_saved_window_loads_again)
{
    /* the longest span there is: D = ceil((2^64 - 1) / 7) */
    fk_window *w = time_window(100, UINT64_MAX, 0.01, 0, 79);
    fk_window *s = time_window(100, 70, 0.01, 0, 79);
    if (!w || !s)
        goto out;
    fk_filter *f = fk_window_as_filter(w), *fs = fk_window_as_filter(s);
    CHECK_STATUS(fk_window_advance(f, UINT64_MAX), FK_EINVAL); /* not even as the origin */
    fk_window_description d;
    fk_window_describe(w, &d);
    CHECK(!d.clock_set);
    CHECK_STATUS(fk_window_advance(f, FK_WINDOW_MAX_TIME - 1), FK_OK);
    CHECK_STATUS(fk_window_insert_u64(w, 1), FK_OK);
    CHECK_STATUS(fk_window_advance(f, FK_WINDOW_MAX_TIME), FK_OK);
    CHECK_STATUS(fk_window_advance(f, UINT64_MAX), FK_EINVAL);
    fk_window_describe(w, &d);
    CHECK(d.next_boundary > d.now && d.next_boundary - d.now <= d.generation_length);
    size_t len = 0;
    uint8_t *buf = save(w, &len);
    CHECK(buf != NULL);
    if (buf)
        survives_inserts_and_advances(buf, len, 40, 0, 40, "span 2^64 - 1 at the clock's end");
    free(buf);
    CHECK(fk_window_contains_u64(w, 1));
    /* a short span at the clock's end: repeated advances at the same time
     * keep every key inside the window (before, each one at 2^64 - 1
     * started a generation) */
    CHECK_STATUS(fk_window_advance(fs, FK_WINDOW_MAX_TIME - 20), FK_OK);
    for (uint64_t i = 0; i < 20; i++)
        CHECK_STATUS(fk_window_insert_u64(s, 100 + i), FK_OK);
    for (int k = 0; k < 20; k++)
        CHECK_STATUS(fk_window_advance(fs, FK_WINDOW_MAX_TIME), FK_OK);
    for (uint64_t i = 0; i < 20; i++)
        CHECK(fk_window_contains_u64(s, 100 + i)); /* 20 ticks ago, T = 70 */
    buf = save(s, &len);
    CHECK(buf != NULL);
    if (buf)
        survives_inserts_and_advances(buf, len, 30, 0, 30, "span 70 at the clock's end");
    free(buf);
out:
    fk_window_free(w);
    fk_window_free(s);
}

/* ------------------------------------------------- batches, stats, misc */

TEST(batches_answer_as_single_calls)
{
    fk_window *a = count_window(5000, 0.01, 0, 71), *b = count_window(5000, 0.01, 0, 71);
    if (!a || !b)
        goto out;
    enum { N = 30000 };
    static uint64_t keys[N];
    static bool one[N], many[N];
    for (uint64_t i = 0; i < N; i++)
        keys[i] = keys_positive(i % 12000);
    size_t done = 0;
    CHECK_STATUS(fk_filter_insert_many_u64(fk_window_as_filter(a), N, keys, &done), FK_OK);
    CHECK_EQ_U64(done, N);
    for (uint64_t i = 0; i < N; i++)
        CHECK_STATUS(fk_window_insert_u64(b, keys[i]), FK_OK);
    CHECK(same_bytes(a, b));
    for (uint64_t i = 0; i < N; i++) {
        keys[i] = i % 2 ? keys_positive(i) : keys_negative(i);
        one[i] = fk_window_contains_u64(a, keys[i]);
    }
    fk_filter_contains_many_u64(fk_window_as_filter(a), N, keys, many);
    CHECK(memcmp(one, many, sizeof one) == 0);
    /* byte keys of every length: the same answers as the u64 calls */
    const void *ptrs[64];
    size_t lens[64];
    bool out[64];
    char text[64][32];
    for (int i = 0; i < 64; i++) {
        lens[i] = (size_t)snprintf(text[i], sizeof text[i], "key-%d-%.*s", i, i % 20,
                                   "xxxxxxxxxxxxxxxxxxxx");
        ptrs[i] = text[i];
        CHECK_STATUS(fk_window_insert(a, ptrs[i], lens[i]), FK_OK);
    }
    fk_filter_contains_many(fk_window_as_filter(a), 64, ptrs, lens, out);
    for (int i = 0; i < 64; i++)
        CHECK(out[i] && fk_window_contains(a, ptrs[i], lens[i]));
    uint8_t le[8];
    fk_le_put64(le, 12345);
    CHECK_STATUS(fk_window_insert(b, le, 8), FK_OK);
    CHECK(fk_window_contains_u64(b, 12345));
    CHECK(fk_filter_contains_u64(fk_window_as_filter(b), 12345));
    /* NULL rules */
    CHECK_STATUS(fk_window_insert(NULL, "a", 1), FK_EINVAL);
    CHECK_STATUS(fk_window_insert(a, NULL, 1), FK_EINVAL);
    CHECK(!fk_window_contains(NULL, "a", 1));
    CHECK(!fk_window_contains(a, NULL, 1));
    CHECK_STATUS(fk_filter_remove(fk_window_as_filter(a), "a", 1), FK_EUNSUPPORTED);
out:
    fk_window_free(a);
    fk_window_free(b);
}

TEST(stats_and_describe_follow_the_stream)
{
    fk_window *w = count_window(700, 0.01, 0, 81); /* L = 100 */
    if (!w)
        return;
    for (uint64_t i = 0; i < 1250; i++)
        CHECK_STATUS(fk_window_insert_u64(w, i % 1000), FK_OK);
    fk_window_description d;
    fk_window_describe(w, &d);
    CHECK_EQ_U64(d.generation, 12);
    CHECK_EQ_U64(d.generation_length, 100);
    CHECK_EQ_U64(d.window, 700);
    CHECK_EQ_U64(d.generation_inserts[0], 50);
    for (int k = 1; k < 8; k++)
        CHECK_EQ_U64(d.generation_inserts[k], 100);
    CHECK_EQ_U64(d.oldest_age, 750);
    uint64_t live = 0;
    for (int k = 0; k < 8; k++)
        live += d.generation_slots[k];
    CHECK_EQ_U64(live, d.live);
    CHECK(d.swept_total > 0 && d.refreshed > 0);
    fk_stats st;
    fk_filter_stats(fk_window_as_filter(w), &st);
    CHECK_EQ_U64(st.items, 750);
    CHECK_EQ_U64(st.capacity, 700);
    CHECK(st.load_factor > 0 && st.load_factor <= 1);
    fk_window_location loc;
    CHECK_STATUS(fk_window_locate(w, &(uint64_t){ 0 }, 8, &loc), FK_OK);
    fk_window_free(w);
}

/* The clock rows (timed, clock_set, clock_id, now, next_boundary) and
 * refused mean something only for a time window: a count window's
 * describe leaves them out (they read 0 there, and `filterkit info`
 * printed them), a time window's has each once ("clock" is in both, a
 * null string for a count window: Python's describe()["clock"] is None). */
static size_t rows_named(const fk_filter *f, const char *name)
{
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0, found = 0;
    CHECK_STATUS(fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n), FK_OK);
    for (size_t i = 0; i < n && i < FK_DESCRIBE_MAX_ROWS; i++)
        found += strcmp(rows[i].name, name) == 0;
    return found;
}

TEST(describe_shows_clock_rows_only_for_a_time_window)
{
    static const char *const clock_rows[] = { "timed", "clock_set", "clock_id", "now",
                                              "next_boundary", "refused" };
    fk_window *c = count_window(700, 0.01, 0, 3), *t = time_window(700, 7000, 0.01, 0, 3);
    for (size_t i = 0; c && t && i < sizeof clock_rows / sizeof clock_rows[0]; i++) {
        CHECK_MSG(rows_named(fk_window_as_filter(c), clock_rows[i]) == 0,
                  "a count window describes %s", clock_rows[i]);
        CHECK_MSG(rows_named(fk_window_as_filter(t), clock_rows[i]) == 1,
                  "a time window describes %s once", clock_rows[i]);
    }
    for (size_t i = 0; c && i < 2; i++) /* what both have */
        CHECK(rows_named(fk_window_as_filter(c), i ? "generation_length" : "window") == 1);
    fk_window_free(c);
    fk_window_free(t);
}

/* ------------------------------------------------------ never refused
 *
 * A count window packed at max_load 1 (8L slots for 8L live keys: the
 * cuckoo walk must fail near the top of every generation) still takes
 * every insert (the stash), answers present for every key of the window,
 * names where a stashed key is, and saves and loads its stash to continue
 * identically. Before the stash, inserts failed with FK_EFULL from about
 * 1.1N on (a lost key: a false negative inside the window). */
static void packed_stream(double load, uint64_t seed)
{
    const uint64_t n = 7000, total = 5 * n;
    fk_params p = fk_params_make(n, 0.01);
    p.max_load = load;
    p.seed = seed;
    fk_window *w = NULL, *b = NULL;
    CHECK_STATUS(fk_window_new(&p, &w), FK_OK);
    if (!w)
        return;
    uint64_t refused = 0, missing = 0, most = 0, located = 0, rng = seed;
    uint8_t *saved = NULL;
    size_t saved_len = 0;
    for (uint64_t j = 0; j < total; j++) {
        refused += fk_window_insert_u64(w, keys_positive(j)) != FK_OK;
        uint64_t oldest = j + 1 >= n ? j + 1 - n : 0;
        missing += !fk_window_contains_u64(w, keys_positive(oldest));
        missing += !fk_window_contains_u64(w, keys_positive(j - splitmix(&rng) % (j + 1 - oldest)));
        fk_window_description d;
        fk_window_describe(w, &d);
        if (d.stashed > most) {
            most = d.stashed;
            /* a stashed key is found there, in a live generation */
            for (uint64_t i = oldest; i <= j && located < most; i++) {
                fk_window_location loc;
                uint64_t key = keys_positive(i);
                CHECK_STATUS(fk_window_locate(w, &key, 8, &loc), FK_OK);
                if (loc.bucket == 3) {
                    located++;
                    CHECK(loc.slot >= 0 && (uint64_t)loc.slot < d.stashed && loc.age < 8);
                }
            }
        }
        if (!saved && d.stashed > 0 && j > 2 * n)
            saved = save(w, &saved_len); /* mid-stream, the stash not empty */
        if (saved && !b) {
            CHECK_STATUS(fk_window_load(saved, saved_len, &b), FK_OK);
            if (!b)
                break;
            CHECK(same_bytes(w, b));
        } else if (b) {
            CHECK_STATUS(fk_window_insert_u64(b, keys_positive(j)), FK_OK);
            CHECK(fk_window_contains_u64(b, keys_negative(j)) ==
                  fk_window_contains_u64(w, keys_negative(j)));
        }
    }
    CHECK_MSG(refused == 0 && missing == 0, "load %g: %llu inserts refused, %llu keys of the "
              "window missing", load, (unsigned long long)refused, (unsigned long long)missing);
    CHECK_MSG(most > 0 && located > 0, "load %g: the stash never used (%llu)", load,
              (unsigned long long)most);
    for (uint64_t i = total - n; i < total; i++)
        missing += !fk_window_contains_u64(w, keys_positive(i));
    CHECK_EQ_U64(missing, 0);
    fk_window_description d;
    fk_window_describe(w, &d);
    uint64_t live = 0;
    for (int k = 0; k < 8; k++)
        live += d.generation_slots[k];
    CHECK_EQ_U64(live, d.live);
    CHECK(d.live <= d.live_budget && d.refused == 0);
    if (b)
        CHECK(same_bytes(w, b));
    /* forged stash entries (the file ends: stash, checksum) */
    if (saved) {
        fk_window *x = NULL;
        CHECK_STATUS(fk_window_load(saved, saved_len, &x), FK_OK);
        uint64_t S = x ? x->stash_n : 0, nb = x ? x->buckets : 0;
        fk_window_free(x);
        size_t last = saved_len - 8 - 16; /* the last entry */
        uint64_t bucket = fk_load_le64(saved + last), slot = fk_load_le64(saved + last + 8);
        CHECK(S > 0);
        CHECK_STATUS(load_edited(saved, saved_len, last, nb), FK_ECORRUPT);     /* past the table */
        CHECK_STATUS(load_edited(saved, saved_len, last + 8, slot & 7), FK_ECORRUPT); /* fp 0 */
        if (S > 1) {
            /* the entry before it, made the same key */
            uint8_t *copy = malloc(saved_len);
            if (copy) {
                memcpy(copy, saved, saved_len);
                fk_le_put64(copy + last - 16, bucket);
                fk_le_put64(copy + last - 8, slot);
                reseal(copy, saved_len);
                fk_window *y = NULL;
                CHECK_STATUS(fk_window_load(copy, saved_len, &y), FK_ECORRUPT);
                fk_window_free(y);
                free(copy);
            }
        }
    }
    free(saved);
    fk_window_free(b);
    fk_window_free(w);
}

TEST(a_count_window_never_refuses_an_insert_even_packed_full)
{
    packed_stream(1.0, 91);
    packed_stream(0.99, 92);
}

/* The table's bytes are the file's: a fixed stream (keys of 8, 3 and 20
 * bytes, byte and u64 calls, sweeps, walks, stash, a time window's
 * advances) saves to the same bytes as the layout released with file kind
 * 8, so code that reorganizes the table in memory must convert exactly.
 * The digests were taken from main at c96711a. */
static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static uint64_t stream_digest(fk_window *w, uint64_t n, bool timed)
{
    fk_filter *f = fk_window_as_filter(w);
    static const char pad[] = "-padding-for-20-byte";
    for (uint64_t i = 0; i < 10 * n; i++) {
        if (timed)
            CHECK_STATUS(fk_window_advance(f, 3 * i), FK_OK);
        uint64_t x = fk_mix64(i + 1);
        uint8_t k[24];
        fk_store_le64(k, x);
        memcpy(k + 8, pad, 16);
        fk_status s;
        switch (i % 5) {
        case 0: s = fk_filter_insert(f, k, 3); break;
        case 1: s = fk_filter_insert(f, k, 20); break;
        case 2: s = fk_filter_insert_u64(f, x); break;
        default: s = fk_filter_insert(f, k, 8); break;
        }
        if (!timed)
            CHECK_STATUS(s, FK_OK);
    }
    size_t len = 0;
    uint8_t *buf = save(w, &len);
    CHECK(buf != NULL);
    uint64_t h = buf ? fnv1a(buf, len) : 0;
    free(buf);
    /* and what it answers */
    uint64_t hits = 0;
    for (uint64_t i = 0; i < 20 * n; i++) {
        uint64_t x = fk_mix64(i + 1);
        uint8_t k[24];
        fk_store_le64(k, x);
        memcpy(k + 8, pad, 16);
        hits += fk_filter_contains(f, k, 8) + fk_filter_contains(f, k, 3) +
                fk_filter_contains(f, k, 20) + fk_filter_contains_u64(f, x);
    }
    return h ^ (hits << 48);
}

static void a_stream_saves_the_bytes_of_the_released_layout(void)
{
    static const struct {
        uint64_t n;
        double fpr;
        uint64_t span;
        uint64_t digest;
    } cases[] = {
        { 1000, 0.01, 0, UINT64_C(0xc9ea8ecb6e081b9f) },
        { 1000, 0.001, 0, UINT64_C(0x8d1adc4ae80cea36) },
        { 7, 0.01, 0, UINT64_C(0x400d070fd4c1b0a4) },
        { 300, 0.05, 0, UINT64_C(0x0931d3854f55f312) },
        { 500, 0.0001, 0, UINT64_C(0xd1515361c0f4c88c) },
        { 1000, 0.01, 7000, UINT64_C(0xa2d4ad146cb224d5) },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fk_window *w = cases[c].span ? time_window(cases[c].n, cases[c].span, cases[c].fpr, 0, 42)
                                     : count_window(cases[c].n, cases[c].fpr, 0, 42);
        if (!w)
            continue;
        uint64_t d = stream_digest(w, cases[c].n, cases[c].span != 0);
        if (getenv("FK_PRINT_DIGESTS"))
            printf("digest %zu: 0x%016llx\n", c, (unsigned long long)d);
        CHECK(d == cases[c].digest);
        fk_window_free(w);
    }
}

/* ---------------------------------------------- reads as of a time
 *
 * fk_window_contains_at(w, key, now) is, for every key and every now,
 * what fk_window_contains answers after fk_window_advance(now) on a copy;
 * fk_win_describe_at / fk_win_stats_at are that copy's describe and stats
 * (but kicks, and stashed at most); and none of them changes w. Streams:
 * a time window at its sized load, one packed full (max_load 1: the
 * stash in use) and one of 4-bit fingerprints (slots of one key's
 * buckets sharing a fingerprint under different tags); each probed at
 * times before the clock, on it, inside the generation, on and around
 * each of the next 9 boundaries, and at the clock's end. */
static fk_window *copy_of(const fk_window *w)
{
    size_t len = 0;
    uint8_t *buf = save(w, &len);
    fk_window *c = NULL;
    if (buf)
        CHECK_STATUS(fk_window_load(buf, len, &c), FK_OK);
    free(buf);
    return c;
}

/* The probe times around w's clock. */
static size_t probe_times(const fk_window *w, uint64_t rng, uint64_t out[40])
{
    fk_window_description d;
    fk_window_describe(w, &d);
    size_t n = 0;
    if (d.now > 0)
        out[n++] = d.now - 1; /* refused by the advance: answers as now */
    out[n++] = d.now;
    out[n++] = d.now + (d.next_boundary - d.now) / 2;
    for (uint64_t k = 0; k < 10; k++) {
        uint64_t b = d.next_boundary + k * d.generation_length;
        out[n++] = b - 1;
        out[n++] = b;
        out[n++] = b + splitmix(&rng) % d.generation_length;
    }
    out[n++] = FK_WINDOW_MAX_TIME;
    out[n++] = UINT64_MAX; /* past the clock's end: refused, answers as now */
    return n;
}

static void reads_as_of(const char *what, uint64_t cap, double max_load, uint32_t fbits,
                        uint64_t burst, uint64_t steps, uint64_t seed)
{
    const uint64_t T = 70, D = fk_win_gen_len(T); /* 10 ticks a generation */
    fk_params p = fk_params_make(cap, 0.01);
    p.max_load = max_load;
    p.fingerprint_bits = fbits;
    p.seed = seed;
    fk_window *w = NULL;
    CHECK_STATUS(fk_window_new_time(&p, T, &w), FK_OK);
    if (!w)
        return;
    /* probes: 1500 of the keys inserted over the last 2 windows, 200 never */
    const uint64_t stride = 16 * D * burst / 1500 + 1, keys = 3 * cap;
    uint64_t rng = seed, now = 1000, differ = 0, probes = 0, used_stash = 0, crossed_some = 0;
    uint64_t desc_differ = 0, unchanged_bad = 0;
    /* before the first advance (no clock): as plain lookups */
    uint64_t k0 = keys_positive(0);
    CHECK_STATUS(fk_window_insert(w, &k0, 8), FK_OK);
    CHECK(fk_window_contains_at(w, &k0, 8, 12345));
    CHECK(fk_window_contains_at(w, &k0, 8, 0));
    for (uint64_t s = 1; s < steps; s++) {
        uint64_t r = splitmix(&rng);
        now += r % 97 == 0 ? (r >> 8) % (9 * D) : (r >> 8) % 3;
        CHECK_STATUS(fk_window_advance(fk_window_as_filter(w), now), FK_OK);
        for (uint64_t b = 0; b < burst; b++) {
            uint64_t key = keys_positive((s * burst + b) % keys); /* repeats: refreshes */
            if (s % 5 == 0 && b == 0) {
                uint8_t shortkey[3] = { (uint8_t)s, (uint8_t)(s >> 8), 7 };
                (void)fk_window_insert(w, shortkey, sizeof shortkey);
            } else {
                (void)fk_window_insert(w, &key, 8); /* FK_EFULL past the rate: fine */
            }
        }
        fk_window_description dw;
        fk_window_describe(w, &dw);
        used_stash += dw.stashed > 0;
        if (s % 23 != 0 && !(dw.stashed > 0 && s % 29 == 0))
            continue;
        fk_stats sw;
        fk_window_stats(w, &sw);
        size_t before_len = 0;
        uint8_t *before = save(w, &before_len);
        uint64_t times[40];
        size_t nt = probe_times(w, r, times);
        for (size_t t = 0; t < nt; t++) {
            fk_window *c = copy_of(w);
            if (!c)
                break;
            fk_window_description da, dc;
            fk_win_describe_at(w, times[t], &da);
            fk_stats sa, sc;
            fk_win_stats_at(w, times[t], &sa);
            fk_status adv = fk_window_advance(fk_window_as_filter(c), times[t]);
            CHECK(adv == FK_OK || (adv == FK_EINVAL && (times[t] < dw.now ||
                                                        times[t] > FK_WINDOW_MAX_TIME)));
            crossed_some += da.generation > dw.generation;
            for (uint64_t j = 0; j < 1700; j++) {
                uint64_t q = j < 1500 ? keys_positive((s * burst + keys - (j * stride) % keys) % keys)
                                      : keys_negative(j);
                bool at = fk_window_contains_at(w, &q, 8, times[t]);
                differ += at != fk_window_contains(c, &q, 8);
                probes++;
            }
            for (uint64_t i = s > 400 ? s - 400 : 0; i <= s; i += 5) {
                uint8_t shortkey[3] = { (uint8_t)i, (uint8_t)(i >> 8), 7 };
                differ += fk_window_contains_at(w, shortkey, 3, times[t]) !=
                          fk_window_contains(c, shortkey, 3);
                probes++;
            }
            fk_window_describe(c, &dc);
            fk_window_stats(c, &sc);
            /* kicks may differ; stashed is at most ours; a loaded copy
             * starts without a last sweep, so swept_last is compared only
             * where the advance swept */
            desc_differ += da.stashed < dc.stashed;
            da.kicks = dc.kicks;
            da.stashed = dc.stashed;
            if (da.generation == dw.generation)
                da.swept_last = dc.swept_last;
            desc_differ += memcmp(&da, &dc, sizeof da) != 0;
            /* memory: w's own (a loaded copy's stash array is sized anew) */
            desc_differ += sa.items != sc.items || sa.capacity != sc.capacity ||
                           sa.memory_bytes != sw.memory_bytes || sa.load_factor != sc.load_factor ||
                           sa.expected_fpr != sc.expected_fpr;
            fk_window_free(c);
        }
        size_t after_len = 0;
        uint8_t *after = save(w, &after_len);
        unchanged_bad += !before || !after || before_len != after_len ||
                         memcmp(before, after, before_len) != 0;
        free(before);
        free(after);
    }
    CHECK_MSG(differ == 0, "%s: %llu of %llu reads as of a time differ from a copy advanced",
              what, (unsigned long long)differ, (unsigned long long)probes);
    CHECK_MSG(desc_differ == 0, "%s: %llu descriptions / stats as of a time differ", what,
              (unsigned long long)desc_differ);
    CHECK_MSG(unchanged_bad == 0, "%s: the reads changed the window %llu times", what,
              (unsigned long long)unchanged_bad);
    CHECK_MSG(crossed_some > 0 && probes > 0, "%s: no probe crossed a boundary", what);
    if (max_load == 1.0)
        CHECK_MSG(used_stash > 0, "%s: the stash was never in use", what);
    fk_window_free(w);
}

TEST(reads_as_of_a_time_answer_as_a_copy_advanced_and_change_nothing)
{
    const uint64_t steps = FK_TEST_SCALE(6000, 1500);
    reads_as_of("sized", 200, 0, 0, 1, steps, 61);
    reads_as_of("packed full (stash)", 7000, 1.0, 0, 150, steps / 4, 62);
    reads_as_of("4-bit fingerprints", 200, 0, 4, 1, steps, 63);
    reads_as_of("wide fingerprints", 200, 0, 20, 1, steps, 64);
    /* a count window, NULL arguments */
    fk_window *c = count_window(100, 0.01, 0, 65);
    if (c) {
        for (uint64_t i = 0; i < 300; i++)
            CHECK_STATUS(fk_window_insert_u64(c, keys_positive(i)), FK_OK);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < 600; i++) {
            uint64_t q = keys_positive(i);
            bad += fk_window_contains_at(c, &q, 8, i * 1000) != fk_window_contains(c, &q, 8);
        }
        CHECK_EQ_U64(bad, 0);
        CHECK(!fk_window_contains_at(NULL, "a", 1, 5));
        CHECK(!fk_window_contains_at(c, NULL, 1, 5));
        fk_window_free(c);
    }
    /* the repro of issue 48: a key, the clock past its window, no write */
    fk_window *w = time_window(100, 1000, 0.01, 0, 66);
    if (w) {
        CHECK_STATUS(fk_window_advance(fk_window_as_filter(w), 5000), FK_OK);
        CHECK_STATUS(fk_window_insert(w, "a", 1), FK_OK);
        CHECK(fk_window_contains_at(w, "a", 1, 5999));          /* inside T */
        CHECK(fk_window_contains_at(w, "a", 1, 5000 + 8 * 143 - 1)); /* the slack */
        CHECK(!fk_window_contains_at(w, "a", 1, 5000 + 8 * 143));    /* 8 boundaries: gone */
        CHECK(fk_window_contains(w, "a", 1));                    /* and w unchanged */
        fk_window_description d;
        fk_win_describe_at(w, 5000 + 8 * 143, &d);
        CHECK_EQ_U64(d.live, 0);
        CHECK_EQ_U64(d.generation, 8);
        fk_window_describe(w, &d);
        CHECK_EQ_U64(d.live, 1);
        fk_window_free(w);
    }
}

int main(void)
{
    RUN(count_windows_never_miss_a_key_inside_the_window);
    RUN(tiny_windows_to_the_insert);
    RUN(fpr_per_age_band_within_binomial_bounds);
    RUN(time_windows_never_miss_a_key_inside_the_window);
    RUN(time_window_fed_at_10x_its_rate_refuses_and_never_misses);
    RUN(clock_going_backwards_is_refused_and_changes_nothing);
    RUN(a_time_windows_clock_is_recorded_saved_and_checked);
    RUN(save_and_load_mid_stream_continue_identically);
    RUN(windows_of_2_to_the_32_and_more_served_or_refused_as_documented);
    RUN(bits_per_window_item_meet_the_targets);
    RUN(forged_files_are_refused);
    RUN(a_generation_counter_near_wrap_around_is_refused);
    RUN(a_forged_clock_or_insert_count_is_refused);
    RUN(clock_end_refused_and_every_saved_window_loads_again);
    RUN(batches_answer_as_single_calls);
    RUN(stats_and_describe_follow_the_stream);
    RUN(describe_shows_clock_rows_only_for_a_time_window);
    RUN(a_count_window_never_refuses_an_insert_even_packed_full);
    RUN(a_stream_saves_the_bytes_of_the_released_layout);
    RUN(reads_as_of_a_time_answer_as_a_copy_advanced_and_change_nothing);
    return check_report();
}
