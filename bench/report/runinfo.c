/* bench/report/runinfo.c: see runinfo.h. The FK_BUILD_* strings come from the
 * Makefile (compiled into this file only, so a new commit rebuilds just it). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../baselines/runnable_kinds.h"
#include "runinfo.h"

#ifndef FK_BUILD_COMMIT
#define FK_BUILD_COMMIT "unknown"
#endif
#ifndef FK_BUILD_CC
#define FK_BUILD_CC "unknown"
#endif
#ifndef FK_BUILD_CFLAGS
#define FK_BUILD_CFLAGS "unknown"
#endif
#ifndef FK_BUILD_NATIVE
#define FK_BUILD_NATIVE 0
#endif

static char command_line[2048];
static char load_at_start[96] = "unknown";
static char suite_load[32];

/* The machine's CPU time at start (/proc/stat's first line, in clock
 * ticks), this process's own and the wall clock, to tell at the end how
 * much of the machine other work took meanwhile. */
struct cpu_sample {
    int ok;
    double busy, steal; /* seconds, all CPUs together */
    double self;        /* this process's CPU seconds, all its threads */
    double wall;        /* monotonic seconds */
};
static struct cpu_sample at_start;

static double seconds_of(clockid_t id)
{
    struct timespec ts;
    return clock_gettime(id, &ts) == 0 ? (double)ts.tv_sec + ts.tv_nsec / 1e9 : 0.0;
}

static struct cpu_sample sample_cpu(void)
{
    struct cpu_sample s = { 0 };
    FILE *f = fopen("/proc/stat", "r");
    unsigned long long user = 0, nice = 0, sys = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                       steal = 0;
    int got = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys,
                         &idle, &iowait, &irq, &softirq, &steal)
                : 0;
    if (f)
        fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    if (got < 7 || hz <= 0)
        return s;
    s.ok = 1;
    s.busy = (double)(user + nice + sys + irq + softirq) / (double)hz;
    s.steal = got >= 8 ? (double)steal / (double)hz : 0.0;
    s.self = seconds_of(CLOCK_PROCESS_CPUTIME_ID);
    s.wall = seconds_of(CLOCK_MONOTONIC);
    return s;
}

/* "X of N CPUs over T s (steal S, load average at end L)", or "". */
static void read_other_load(char *out, size_t len)
{
    out[0] = 0;
    struct cpu_sample now = sample_cpu();
    double wall = now.wall - at_start.wall;
    if (!at_start.ok || !now.ok || !(wall > 0.0))
        return;
    double other = (now.busy - at_start.busy - (now.self - at_start.self)) / wall;
    double steal = (now.steal - at_start.steal) / wall;
    double end1 = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    int got = f ? fscanf(f, "%lf", &end1) : 0;
    if (f)
        fclose(f);
    char end[48] = "";
    if (got == 1)
        snprintf(end, sizeof end, ", load average at end %.2f", end1);
    snprintf(out, len, "%.2f of %ld CPUs over %.1f s (steal %.2f%s)", other > 0 ? other : 0.0,
             sysconf(_SC_NPROCESSORS_ONLN), wall, steal > 0 ? steal : 0.0, end);
}

/* /proc/loadavg's first three fields and the CPUs online. */
static void read_loadavg(char *out, size_t len)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double a = 0, b = 0, c = 0;
    int got = f ? fscanf(f, "%lf %lf %lf", &a, &b, &c) : 0;
    if (f)
        fclose(f);
    if (got == 3)
        snprintf(out, len, "%.2f %.2f %.2f on %ld CPUs", a, b, c, sysconf(_SC_NPROCESSORS_ONLN));
}

/* 1 - exp(-t/60) for t = now - FK_SUITE_STARTED, when that is a time in
 * the past; "" otherwise. */
static void read_suite_load(char *out, size_t len)
{
    out[0] = 0;
    const char *v = getenv("FK_SUITE_STARTED");
    char *end = NULL;
    long long started = v ? strtoll(v, &end, 10) : -1;
    time_t now = time(NULL);
    if (!v || end == v || *end || started < 0 || started > (long long)now)
        return;
    snprintf(out, len, "%.2f", -expm1(-(double)((long long)now - started) / 60.0));
}

/* argv[0] as the program was started: how the user runs it again */
static char invoked_as[1024];

const char *fkc_runinfo_invoked_as(void)
{
    return invoked_as;
}

void fkc_runinfo_set_argv(int argc, char **argv)
{
    if (argc > 0 && argv[0] && strlen(argv[0]) < sizeof invoked_as)
        memcpy(invoked_as, argv[0], strlen(argv[0]) + 1);
    read_loadavg(load_at_start, sizeof load_at_start);
    at_start = sample_cpu();
    read_suite_load(suite_load, sizeof suite_load);
    size_t at = 0;
    command_line[0] = 0;
    for (int i = 0; i < argc && at < sizeof command_line; i++) {
        int w = snprintf(command_line + at, sizeof command_line - at, "%s%s", i ? " " : "", argv[i]);
        if (w < 0)
            break;
        at += (size_t)w;
    }
}

static void read_cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *colon = strchr(line, ':');
        if (!colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        line[strcspn(line, "\n")] = 0;
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(out, len, "%.120s (%ld cores online)", colon, cores);
        break;
    }
    fclose(f);
}

/* The C library's figures, in the same form, for a machine whose sysfs
 * lists no caches (some VMs): glibc's sysconf reads them from CPUID. */
static void caches_from_sysconf(char *out, size_t len)
{
    out[0] = 0;
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
    const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE),
               l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l1 > 0 && l2 > 0 && l3 > 0)
        snprintf(out, len, "L1d=%ld L2=%ld L3=%ld", l1, l2, l3);
    else if (l1 > 0 && l2 > 0)
        snprintf(out, len, "L1d=%ld L2=%ld", l1, l2);
#else
    (void)len;
#endif
}

/* The data and unified caches of CPU 0 from sysfs, "L1d=49152 L2=..."
 * in bytes (else sysconf's; "unknown" where neither knows). */
static void read_caches(char *out, size_t len)
{
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < 8; i++) {
        char path[96], level[16] = "", type[32] = "", size[32] = "";
        const char *field[3] = { "level", "type", "size" };
        char *value[3] = { level, type, size };
        for (int j = 0; j < 3; j++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i, field[j]);
            FILE *f = fopen(path, "r");
            if (f) {
                if (!fgets(value[j], 16, f))
                    value[j][0] = 0;
                fclose(f);
            }
            value[j][strcspn(value[j], "\n")] = 0;
        }
        if (!level[0] || strcmp(type, "Instruction") == 0)
            continue;
        char *unit;
        unsigned long long bytes = strtoull(size, &unit, 10);
        bytes <<= *unit == 'K' ? 10 : *unit == 'M' ? 20 : 0;
        int w = snprintf(out + at, len - at, "%sL%s%s=%llu", at ? " " : "", level,
                         strcmp(type, "Data") == 0 ? "d" : "", bytes);
        if (w < 0 || (size_t)w >= len - at)
            break;
        at += (size_t)w;
    }
    if (!out[0])
        caches_from_sysconf(out, len);
    if (!out[0])
        snprintf(out, len, "unknown");
}

void fkc_runinfo_fill(fkc_runinfo *ri, uint64_t seed)
{
    memset(ri, 0, sizeof *ri);
    ri->commit = FK_BUILD_COMMIT[0] ? FK_BUILD_COMMIT : "unknown";
#if defined(__clang__)
    ri->cc = FK_BUILD_CC " (clang " __clang_version__ ")";
#elif defined(__GNUC__)
    ri->cc = FK_BUILD_CC " (gcc " __VERSION__ ")";
#else
    ri->cc = FK_BUILD_CC;
#endif
    ri->cflags = FK_BUILD_CFLAGS;
    ri->build = FK_BUILD_NATIVE ? "native (-march=native)" : "portable";
#ifdef FK_HAVE_LIBBLOOM
    ri->libbloom = fkc_libbloom_version();
#else
    ri->libbloom = "not built (libbloom-dev missing at build time)";
#endif
    read_cpu_model(ri->cpu, sizeof ri->cpu);
    read_caches(ri->caches, sizeof ri->caches);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ri->date, sizeof ri->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(ri->command, sizeof ri->command, "%s", command_line);
    snprintf(ri->loadavg, sizeof ri->loadavg, "%s", load_at_start);
    snprintf(ri->suiteload, sizeof ri->suiteload, "%s", suite_load);
    read_other_load(ri->otherload, sizeof ri->otherload);
    ri->seed = seed;
}

/* Field k of all there may be: 1 and filled, 0 when absent in this run,
 * -1 past the end. */
static int field_at(const fkc_runinfo *ri, int k, const char **name, char *value, unsigned len)
{
    switch (k) {
    case 0: *name = "commit";   snprintf(value, len, "%s", ri->commit); return 1;
    case 1: *name = "compiler"; snprintf(value, len, "%s", ri->cc); return 1;
    case 2: *name = "cflags";   snprintf(value, len, "%s", ri->cflags); return 1;
    case 3: *name = "build";    snprintf(value, len, "%s", ri->build); return 1;
    case 4: *name = "cpu";      snprintf(value, len, "%s", ri->cpu); return 1;
    case 5: *name = "seed";     snprintf(value, len, "%" PRIu64, ri->seed); return 1;
    case 6: *name = "command";  snprintf(value, len, "%s", ri->command); return 1;
    case 7: *name = "date";     snprintf(value, len, "%s", ri->date); return 1;
    case 8: *name = "libbloom"; snprintf(value, len, "%s", ri->libbloom); return 1;
    case 9: *name = "caches";   snprintf(value, len, "%s", ri->caches); return 1;
    case 10: *name = "loadavg"; snprintf(value, len, "%s", ri->loadavg); return 1;
    case 11: /* only inside a suite */
        if (!ri->suiteload[0])
            return 0;
        *name = "suiteload"; snprintf(value, len, "%s", ri->suiteload); return 1;
    case 12: /* only where /proc/stat could be read */
        if (!ri->otherload[0])
            return 0;
        *name = "otherload"; snprintf(value, len, "%s", ri->otherload); return 1;
    default: return -1;
    }
}

int fkc_runinfo_field(const fkc_runinfo *ri, int i, const char **name, char *value, unsigned len)
{
    for (int k = 0, seen = 0;; k++) {
        int r = field_at(ri, k, name, value, len);
        if (r < 0)
            return 0;
        if (r > 0 && seen++ == i)
            return 1;
    }
}
