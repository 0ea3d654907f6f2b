/* bench/clock/timing.c: clock_gettime(CLOCK_MONOTONIC) in nanoseconds. */
#include <math.h>
#include <time.h>
#include "timing.h"

uint64_t fkc_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

double fkc_ns_per_op(uint64_t t0, uint64_t t1, uint64_t ops)
{
    return ops ? (double)(t1 - t0) / (double)ops : NAN;
}
