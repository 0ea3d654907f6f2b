/* bench/figures/fuse_scale.c: one large binary fuse build, checked
 * afterwards (run by bench/figures/fuse_scale.sh; not part of `make test`:
 * 10^9 keys take minutes and about 10 GiB).
 *
 *   usage: fuse_scale N FP_BITS THREADS SAMPLE
 *
 * Generates N distinct 8-byte keys in process (key i = a bijective 64-bit
 * mix of 2i, so no file is read and keys never repeat), builds one filter
 * from them with THREADS threads (timed), frees the keys, then looks up
 * SAMPLE of them spread over the whole set (every one must answer true)
 * and SAMPLE keys never inserted (mix of 2j + 1) for the false-positive
 * rate, beside 2^-f and its 99.9% binomial bound. Prints one line of
 * figures, then PASS or FAIL; exit 1 on a false negative or an FPR out of
 * bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../fuse/fuse.h"

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

/* A /proc/self/status field in bytes (0 when absent). */
static uint64_t status_bytes(const char *name)
{
    FILE *fp = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    size_t len = strlen(name);
    while (fp && fgets(line, sizeof line, fp))
        if (strncmp(line, name, len) == 0 && line[len] == ':' &&
            sscanf(line + len + 1, "%llu", &kb) == 1)
            break;
    if (fp)
        fclose(fp);
    return (uint64_t)kb * 1024;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fputs("usage: fuse_scale N FP_BITS THREADS SAMPLE\n", stderr);
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10), sample = strtoull(argv[4], NULL, 10);
    fk_params p = fk_params_make(0, 0.5);
    p.fingerprint_bits = (uint32_t)strtoul(argv[2], NULL, 10);
    p.threads = (uint32_t)strtoul(argv[3], NULL, 10);
    uint64_t *keys = malloc((size_t)(n ? n : 1) * sizeof *keys);
    if (!keys) {
        fprintf(stderr, "fuse_scale: no memory for %llu keys\n", (unsigned long long)n);
        return 1;
    }
    double t0 = now_s();
    for (uint64_t i = 0; i < n; i++)
        keys[i] = mix(2 * i);
    double gen = now_s() - t0;
    uint64_t before = status_bytes("VmRSS");
    FILE *fp = fopen("/proc/self/clear_refs", "w"); /* reset the high-water mark */
    if (fp) {
        fputs("5", fp);
        fclose(fp);
    }
    fk_fuse *fu = NULL;
    t0 = now_s();
    fk_status s = fk_fuse_build_u64(&p, (size_t)n, keys, &fu);
    double build = now_s() - t0;
    uint64_t peak = status_bytes("VmHWM");
    free(keys);
    if (s != FK_OK) {
        printf("FAIL: build: %s\n", fk_strerror(s));
        return 1;
    }
    fk_stats st;
    fk_filter_stats(fk_fuse_as_filter(fu), &st);
    fk_fuse_description b;
    fk_fuse_describe(fu, &b);
    /* every sampled key answers true; never-inserted keys give the FPR */
    uint64_t missing = 0, hits = 0, step = sample && n > sample ? n / sample : 1;
    uint64_t checked = 0;
    t0 = now_s();
    for (uint64_t i = 0; i < n && checked < sample; i += step, checked++)
        missing += !fk_fuse_contains_u64(fu, mix(2 * i));
    for (uint64_t j = 0; j < sample; j++)
        hits += fk_fuse_contains_u64(fu, mix(2 * (n + j) + 1));
    double look = now_s() - t0;
    double rate = ldexp(1.0, -(int)b.fingerprint_bits);
    double fpr = sample ? (double)hits / (double)sample : 0.0;
    double bound = 3.3 * sqrt(rate * (1 - rate) / (double)(sample ? sample : 1)) +
                   1.0 / (double)(sample ? sample : 1);
    int ok = missing == 0 && fabs(fpr - rate) <= bound;
    printf("n=%llu f=%u threads=%u: keys generated in %.1f s; build %.1f s (%.1f ns/key), "
           "%llu shards, %llu attempts (most %llu by one shard), %llu passes over the keys; "
           "%.3f bits/item (%.1f MiB); build temporary memory %.1f MiB (%.2f bytes/key) by the "
           "library's count, resident peak above the keys %.1f MiB; %llu sampled keys: %llu "
           "missing; fpr %.3g%% over %llu absent keys (2^-f = %.3g%%, +-%.2g%%); lookups %.1f ns\n",
           (unsigned long long)n, b.fingerprint_bits, p.threads, gen, build,
           build * 1e9 / (double)(n ? n : 1), (unsigned long long)b.shards,
           (unsigned long long)b.attempts, (unsigned long long)b.max_attempts,
           (unsigned long long)b.key_passes, st.bits_per_item,
           (double)st.memory_bytes / 1048576.0, (double)b.temp_bytes / 1048576.0,
           (double)b.temp_bytes / (double)(n ? n : 1),
           peak > before ? (double)(peak - before) / 1048576.0 : 0.0,
           (unsigned long long)checked, (unsigned long long)missing, 100 * fpr,
           (unsigned long long)sample, 100 * rate, 100 * bound,
           look * 1e9 / (double)(checked + sample ? checked + sample : 1));
    puts(ok ? "PASS" : "FAIL");
    fk_fuse_free(fu);
    return ok ? 0 : 1;
}
