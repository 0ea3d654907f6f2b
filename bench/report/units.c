/* bench/report/units.c: see units.h. */
#include <stdio.h>
#include "units.h"

void fkc_human_bytes(uint64_t b, char *buf, size_t len)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    if (b == UINT64_MAX) {
        snprintf(buf, len, "more than 16 EiB");
        return;
    }
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
}
