/* bench/figures/ribbon_scale.c: one large ribbon build, checked afterwards
 * (run by bench/figures/ribbon_scale.sh; not part of `make test`: 10^9
 * keys take minutes and about 11 GiB).
 *
 *   usage: ribbon_scale N R THREADS SAMPLE
 *
 * Generates N distinct 8-byte keys in process (key i = a bijective 64-bit
 * mix of 2i), builds one filter of R result bits from them with THREADS
 * threads (timed), frees the keys, then looks up SAMPLE of them spread
 * over the set (every one must answer true) and SAMPLE keys never inserted
 * (mix of 2j + 1) for the FPR beside 2^-r and a 3.3-sigma binomial bound.
 * Prints one line of figures (with bits / log2(1/measured fpr)), then
 * PASS or FAIL; exit 1 on a false negative or an FPR out of bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../ribbon/ribbon.h"

static uint64_t mix(uint64_t z) /* splitmix64's finalizer: a bijection */
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fputs("usage: ribbon_scale N R THREADS SAMPLE\n", stderr);
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10), sample = strtoull(argv[4], NULL, 10);
    fk_params p = fk_params_make(0, 0.5);
    p.fingerprint_bits = (uint32_t)strtoul(argv[2], NULL, 10);
    p.threads = (uint32_t)strtoul(argv[3], NULL, 10);
    uint64_t *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
    if (!keys) {
        fprintf(stderr, "ribbon_scale: no memory for %llu keys\n", (unsigned long long)n);
        return 1;
    }
    double t0 = now_s();
    for (uint64_t i = 0; i < n; i++)
        keys[i] = mix(2 * i);
    double gen = now_s() - t0;
    fk_ribbon *rb = NULL;
    t0 = now_s();
    fk_status s = fk_ribbon_build_u64(&p, (size_t)n, keys, &rb);
    double build = now_s() - t0;
    free(keys);
    if (s != FK_OK) {
        printf("FAIL: build: %s\n", fk_strerror(s));
        return 1;
    }
    fk_stats st;
    fk_filter_stats(fk_ribbon_as_filter(rb), &st);
    fk_ribbon_description d;
    fk_ribbon_describe(rb, &d);
    uint64_t missing = 0, hits = 0, step = sample && n > sample ? n / sample : 1, checked = 0;
    t0 = now_s();
    for (uint64_t i = 0; i < n && checked < sample; i += step, checked++)
        missing += !fk_ribbon_contains_u64(rb, mix(2 * i));
    for (uint64_t j = 0; j < sample; j++)
        hits += fk_ribbon_contains_u64(rb, mix(2 * (n + j) + 1));
    double look = now_s() - t0;
    double rate = ldexp(1.0, -(int)d.result_bits);
    double fpr = sample ? (double)hits / (double)sample : 0.0;
    double bound = 3.3 * sqrt(rate * (1 - rate) / (double)(sample ? sample : 1)) +
                   1.0 / (double)(sample ? sample : 1);
    int ok = missing == 0 && fabs(fpr - rate) <= bound;
    printf("n=%llu r=%u threads=%u: keys generated in %.1f s; build %.1f s (%.1f ns/key), "
           "%llu shards of %llu slots, %llu attempts (most %llu by one shard), level %llu, "
           "%llu passes over the keys; %.3f bits/item (%.1f MiB), bits / log2(1/fpr) %.4f; "
           "build temporary memory %.1f MiB (%.2f bytes/key); %llu sampled keys: %llu missing; "
           "fpr %.4g%% over %llu absent keys (2^-r = %.4g%%, +-%.2g%%); lookups %.1f ns\n",
           (unsigned long long)n, d.result_bits, p.threads, gen, build,
           build * 1e9 / (double)(n ? n : 1), (unsigned long long)d.shards,
           (unsigned long long)d.slots_per_shard, (unsigned long long)d.attempts,
           (unsigned long long)d.max_attempts, (unsigned long long)d.level,
           (unsigned long long)d.key_passes, st.bits_per_item,
           (double)st.memory_bytes / 1048576.0,
           fpr > 0 ? st.bits_per_item / log2(1.0 / fpr) : 0.0, (double)d.temp_bytes / 1048576.0,
           (double)d.temp_bytes / (double)(n ? n : 1), (unsigned long long)checked,
           (unsigned long long)missing, 100 * fpr, (unsigned long long)sample, 100 * rate,
           100 * bound, look * 1e9 / (double)(checked + sample ? checked + sample : 1));
    puts(ok ? "PASS" : "FAIL");
    fk_ribbon_free(rb);
    return ok ? 0 : 1;
}
