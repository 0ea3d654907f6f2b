/* bench/measure/peak_memory.c: see peak_memory.h. */
#include <stdio.h>
#include <string.h>
#include "peak_memory.h"

/* A "Name:   N kB" line of /proc/self/status, in bytes (0 when absent). */
static uint64_t status_kb(const char *name)
{
    FILE *fp = fopen("/proc/self/status", "r");
    if (!fp)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    size_t len = strlen(name);
    while (fgets(line, sizeof line, fp))
        if (strncmp(line, name, len) == 0 && line[len] == ':') {
            if (sscanf(line + len + 1, "%llu", &kb) != 1)
                kb = 0;
            break;
        }
    fclose(fp);
    return (uint64_t)kb * 1024;
}

uint64_t fkc_peak_reset(void)
{
    FILE *fp = fopen("/proc/self/clear_refs", "w");
    if (!fp)
        return 0;
    int ok = fputs("5", fp) >= 0;
    ok &= fclose(fp) == 0;
    return ok ? status_kb("VmRSS") : 0;
}

uint64_t fkc_peak_bytes(void)
{
    return status_kb("VmHWM");
}
