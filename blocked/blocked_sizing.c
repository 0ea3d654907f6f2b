/* blocked/blocked_sizing.c: the blocked filter's theory (Putze, Sanders &
 * Singler 2007): the FPR as the Poisson average of the per-block rate,
 * the number of blocks solved from it, and the item estimate. */
#include <math.h>
#include "blocked_internal.h"

/* Above this many keys per block every word is full to double precision
 * ((31/32)^4096 ~ 1e-57), so the Poisson average is the point value. */
#define LOAD_SATURATED 4096.0

/* Chance that an absent key finds its 8 bits set in a block of x keys. */
static double block_fpr(double x)
{
    double word = 1.0 - pow(1.0 - 1.0 / FK_BLOCKED_WORD_BITS, x);
    double w2 = word * word, w4 = w2 * w2;
    return w4 * w4;
}

double fk_theory_blocked_fpr(double load)
{
    if (!(load > 0.0))
        return 0.0;
    if (load >= LOAD_SATURATED)
        return block_fpr(load);
    /* Poisson terms built in log space (no factorials, no lgamma, which is
     * not thread-safe), out to 12 standard deviations past the mean. */
    double sum = 0.0, log_term = -load, log_load = log(load);
    double last = load + 12.0 * sqrt(load) + 20.0;
    for (double x = 0.0; x <= last; x += 1.0) {
        if (x > 0.0)
            log_term += log_load - log(x);
        if (log_term > -745.0) /* below that exp() is 0 */
            sum += exp(log_term) * block_fpr(x);
    }
    return sum < 1.0 ? sum : 1.0;
}

uint64_t fk_size_blocked_blocks(uint64_t n, double p)
{
    if (n == 0 || !(p > 0.0 && p < 1.0))
        return 0;
    /* The FPR rises with the load: bisect for the largest load that meets p,
     * no lower than the floor (below it the FPR only falls in proportion to
     * the memory spent, and a tiny target would ask for petabytes). */
    double lo = FK_BLOCKED_MIN_LOAD, hi = LOAD_SATURATED;
    bool floored = fk_theory_blocked_fpr(lo) > p;
    for (int i = 0; i < 80 && !floored; i++) {
        double mid = 0.5 * (lo + hi);
        if (fk_theory_blocked_fpr(mid) <= p)
            lo = mid;
        else
            hi = mid;
    }
    double blocks = ceil((double)n / lo);
    if (blocks > 4294967296.0) /* 2^32: the block index is 32 bits */
        return 0;
    uint64_t count = (uint64_t)blocks;
    /* n / count <= lo, so this holds but for rounding; a step or two fixes that. */
    for (int step = 0; step < 4 && !floored && count < (UINT64_C(1) << 32) &&
                       fk_theory_blocked_fpr((double)n / (double)count) > p; step++)
        count++;
    return count;
}

double fk_theory_blocked_items(uint64_t blocks, uint64_t x)
{
    if (blocks == 0)
        return 0.0;
    double fill = (double)x / ((double)blocks * FK_BLOCKED_BLOCK_BITS);
    if (fill >= 1.0)
        return INFINITY;
    return (double)blocks * log1p(-fill) / log1p(-1.0 / FK_BLOCKED_WORD_BITS);
}

fk_status fk_blocked_geometry(const fk_params *p, uint64_t *blocks)
{
    if (!blocks)
        return FK_EINVAL;
    *blocks = 0;
    if (fk_params_check(p) != FK_OK)
        return FK_EINVAL;
    uint64_t count = p->bits ? p->bits / FK_BLOCKED_BLOCK_BITS +
                                   ((p->bits & (FK_BLOCKED_BLOCK_BITS - 1)) != 0)
                             : fk_size_blocked_blocks(p->capacity, p->fpr);
    if (count == 0 || count > (UINT64_C(1) << 32))
        return FK_EINVAL;
    *blocks = count;
    return FK_OK;
}
