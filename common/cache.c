/* common/cache.c: the machine's L2 size, read once (cache.h). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cache.h"

static _Atomic uint64_t l2_bytes;   /* 0 until read */
static _Atomic int      l2_source;  /* fk_cache_source, 0 until read */

uint64_t fk_cache_l2_from_sysconf(void)
{
#ifdef _SC_LEVEL2_CACHE_SIZE
    long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return v > 0 ? (uint64_t)v : 0;
#else
    return 0;
#endif
}

/* The first line of dir/name into buf (newline cut); false if unreadable. */
static int read_line(const char *dir, unsigned index, const char *name, char *buf, size_t cap)
{
    char path[512];
    int n = snprintf(path, sizeof path, "%s/index%u/%s", dir, index, name);
    if (n < 0 || (size_t)n >= sizeof path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *got = fgets(buf, (int)cap, f);
    fclose(f);
    if (!got)
        return 0;
    buf[strcspn(buf, "\n")] = '\0';
    return 1;
}

/* "1024K", "1M", "512" (bytes) -> bytes; 0 when it is none of these. */
static uint64_t parse_size(const char *s)
{
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > UINT64_MAX / 10 / 1024 / 1024)
            return 0;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (p == s)
        return 0;
    if (*p == 'K')
        v <<= 10, p++;
    else if (*p == 'M')
        v <<= 20, p++;
    else if (*p == 'G')
        v <<= 30, p++;
    return *p == '\0' ? v : 0;
}

uint64_t fk_cache_l2_from_sysfs(const char *cache_dir)
{
    const char *dir = cache_dir ? cache_dir : "/sys/devices/system/cpu/cpu0/cache";
    char level[32], type[32], size[32];
    for (unsigned i = 0; i < 16; i++) {
        if (!read_line(dir, i, "level", level, sizeof level))
            continue;
        if (strcmp(level, "2") != 0 || !read_line(dir, i, "type", type, sizeof type))
            continue;
        if (strcmp(type, "Data") != 0 && strcmp(type, "Unified") != 0)
            continue;
        if (read_line(dir, i, "size", size, sizeof size))
            return parse_size(size);
    }
    return 0;
}

/* Reads the machine: the first source that answers. */
static uint64_t read_machine(fk_cache_source *from)
{
    uint64_t v = fk_cache_l2_from_sysconf();
    if (v) {
        *from = FK_CACHE_FROM_SYSCONF;
        return v;
    }
    v = fk_cache_l2_from_sysfs(NULL);
    if (v) {
        *from = FK_CACHE_FROM_SYSFS;
        return v;
    }
    *from = FK_CACHE_FROM_DEFAULT;
    return FK_CACHE_L2_DEFAULT;
}

uint64_t fk_cache_l2_bytes(void)
{
    uint64_t v = atomic_load_explicit(&l2_bytes, memory_order_relaxed);
    if (v)
        return v;
    /* Two threads may both read the machine; they store the same value. */
    fk_cache_source from;
    v = read_machine(&from);
    atomic_store_explicit(&l2_source, (int)from, memory_order_relaxed);
    atomic_store_explicit(&l2_bytes, v, memory_order_relaxed);
    return v;
}

fk_cache_source fk_cache_l2_source(void)
{
    fk_cache_l2_bytes();
    return (fk_cache_source)atomic_load_explicit(&l2_source, memory_order_relaxed);
}

void fk_cache_override_l2(uint64_t bytes)
{
    if (bytes) {
        atomic_store_explicit(&l2_source, FK_CACHE_FROM_OVERRIDE, memory_order_relaxed);
        atomic_store_explicit(&l2_bytes, bytes, memory_order_relaxed);
        return;
    }
    atomic_store_explicit(&l2_bytes, 0, memory_order_relaxed); /* read again */
}
