/* tests/test_cache.c: the L2 size the batch pipelines' prefetch thresholds
 * come from (common/cache.h): the /sys parser on a made-up cache folder,
 * the two sources agreeing where both answer, the override. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "../common/cache.h"

/* dir/indexI/{level,type,size} */
static void put_index(const char *dir, unsigned i, const char *level, const char *type,
                      const char *size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/index%u", dir, i);
    mkdir(path, 0700);
    const char *names[3] = { "level", "type", "size" };
    const char *values[3] = { level, type, size };
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/index%u/%s", dir, i, names[k]);
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%s\n", values[k]);
            fclose(f);
        }
    }
}

static void remove_tree(const char *dir, unsigned indexes)
{
    char path[512];
    const char *names[3] = { "level", "type", "size" };
    for (unsigned i = 0; i < indexes; i++) {
        for (int k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "%s/index%u/%s", dir, i, names[k]);
            remove(path);
        }
        snprintf(path, sizeof path, "%s/index%u", dir, i);
        rmdir(path);
    }
    rmdir(dir);
}

TEST(sysfs_reads_the_level_2_data_or_unified_cache)
{
    char dir[] = "/tmp/fk_cache_XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK_MSG(0, "mkdtemp failed");
        return;
    }
    put_index(dir, 0, "1", "Data", "48K");
    put_index(dir, 1, "1", "Instruction", "32K");
    put_index(dir, 2, "2", "Instruction", "64K"); /* not data: skipped */
    put_index(dir, 3, "2", "Unified", "1024K");
    put_index(dir, 4, "3", "Unified", "32768K");
    CHECK_EQ_U64(fk_cache_l2_from_sysfs(dir), UINT64_C(1) << 20);
    put_index(dir, 3, "2", "Unified", "2M");
    CHECK_EQ_U64(fk_cache_l2_from_sysfs(dir), UINT64_C(2) << 20);
    static const char *bad[] = { "", "K", "12Q", "1M2", "-4K", "99999999999999999999K" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put_index(dir, 3, "2", "Unified", bad[i]);
        CHECK_MSG(fk_cache_l2_from_sysfs(dir) == 0, "size \"%s\"", bad[i]);
    }
    remove_tree(dir, 5);
    CHECK_EQ_U64(fk_cache_l2_from_sysfs("/nonexistent/fk_cache"), 0);
}

/* Where both sources answer (a Linux machine that exposes its caches),
 * they agree; what the library uses is one of them, or the default. */
TEST(sources_agree_and_the_size_is_used)
{
    uint64_t sc = fk_cache_l2_from_sysconf(), fs = fk_cache_l2_from_sysfs(NULL);
    if (sc && fs)
        CHECK_EQ_U64(sc, fs);
    uint64_t l2 = fk_cache_l2_bytes();
    fk_cache_source from = fk_cache_l2_source();
    CHECK(l2 > 0);
    CHECK((from == FK_CACHE_FROM_SYSCONF && l2 == sc) || (from == FK_CACHE_FROM_SYSFS && l2 == fs) ||
          (from == FK_CACHE_FROM_DEFAULT && !sc && !fs && l2 == FK_CACHE_L2_DEFAULT));
    CHECK_EQ_U64(fk_cache_l2s(8), 8 * l2);
    printf("L2 %llu bytes (sysconf %llu, sysfs %llu)\n", (unsigned long long)l2,
           (unsigned long long)sc, (unsigned long long)fs);
}

TEST(override_replaces_then_restores)
{
    uint64_t l2 = fk_cache_l2_bytes();
    fk_cache_override_l2(4096);
    CHECK_EQ_U64(fk_cache_l2_bytes(), 4096);
    CHECK(fk_cache_l2_source() == FK_CACHE_FROM_OVERRIDE);
    fk_cache_override_l2(0);
    CHECK_EQ_U64(fk_cache_l2_bytes(), l2);
    CHECK(fk_cache_l2_source() != FK_CACHE_FROM_OVERRIDE);
}

int main(void)
{
    RUN(sysfs_reads_the_level_2_data_or_unified_cache);
    RUN(sources_agree_and_the_size_is_used);
    RUN(override_replaces_then_restores);
    return check_report();
}
