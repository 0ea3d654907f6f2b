/* bench/pick/pick_rule.c: the rule that decides a pick (fkc_pick_rank),
 * on figures paired round by round: in each round every candidate was
 * timed once, one right after another, so what the machine was doing then
 * (another process on the other core, a burst of load) weighs on every
 * candidate of the round alike, and a ratio within a round cancels most of
 * it. Ranges (min to max over the rounds) are not compared: on a loaded
 * machine every range is wide and they all overlap.
 *
 *   1. The fastest is the candidate whose per-round cost, divided by each
 *      other's in the same round, has the lowest worst median (below 1:
 *      it beats every other in the median round).
 *   2. Another candidate is slower than the fastest when its per-round
 *      ratio to the fastest has a median above FKC_PICK_MARGIN and it was
 *      the slower in at least 7 rounds of 8; else the two are too close to
 *      separate: tied.
 *   3. Of the fastest and the kinds tied with it, the one whose lookup
 *      makes the fewest random reads wins (the kind's lookup_reads: once
 *      the table leaves the cache each read is a miss), then the least
 *      memory (exact, from the sizing), then the fixed order. Reads come
 *      before memory so that a kind near the margin gets the same answer
 *      on both sides of it: the fastest just past it, and just inside it
 *      the kind that reads less, which is the faster one whenever reads
 *      are what tell them apart (bloom and blocked at 10^6 keys: 1.07x to
 *      1.27x, round the margin, on one machine in one afternoon).
 *
 * Pure: no clock, no randomness; the same figures give the same answer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pick.h"
#include "../report/stats.h"

/* The median of x[k*rounds + r] / y[r] over the rounds where both are
 * timed, and how many of those rounds x was the slower in (*slower) out
 * of *paired. */
static double ratio_median(const double *x, const double *y, size_t rounds, size_t *slower, size_t *paired)
{
    double r[FKC_PICK_ROUNDS_MAX];
    size_t n = 0, s = 0;
    for (size_t i = 0; i < rounds && i < FKC_PICK_ROUNDS_MAX; i++)
        if (x[i] > 0 && y[i] > 0 && isfinite(x[i]) && isfinite(y[i])) {
            r[n++] = x[i] / y[i];
            s += x[i] > y[i];
        }
    *slower = s;
    *paired = n;
    return n ? fkc_median(r, n) : NAN;
}

/* The reads candidate k's lookup makes, for ordering: a kind that gives
 * none ranks after every one that does. */
static uint64_t reads_of(const fkc_pick_rank_in *in, size_t k)
{
    return in->reads && in->reads[k] ? in->reads[k] : UINT64_MAX;
}

/* Whether tied candidate a goes before b: fewer reads, then less memory,
 * then the earlier in the fixed order. */
static int ranks_before(const fkc_pick_rank_in *in, size_t a, size_t b)
{
    uint64_t ra = reads_of(in, a), rb = reads_of(in, b);
    if (ra != rb)
        return ra < rb;
    if (in->memory[a] != in->memory[b])
        return in->memory[a] < in->memory[b];
    return a < b;
}

int fkc_pick_rank(const fkc_pick_rank_in *in, fkc_pick_ranking *out)
{
    memset(out, 0, sizeof *out);
    out->fastest = out->winner = -1;
    size_t nk = in->nk < FKC_KINDS_MAX ? in->nk : FKC_KINDS_MAX, rounds = in->rounds;
    if (rounds > FKC_PICK_ROUNDS_MAX)
        return -1;
    for (size_t k = 0; k < nk; k++) {
        fkc_summary s = fkc_summarize(in->cost + k * rounds, rounds);
        out->cost[k] = s.median, out->cost_low[k] = s.min, out->cost_high[k] = s.max;
        out->ratio[k] = NAN;
    }
    /* 1. the fastest: the eligible timed candidate whose worst median
     * ratio to any other is the lowest (it is faster than every other,
     * round by round, when that is under 1); the first on an equal figure */
    double best = INFINITY;
    for (size_t k = 0; k < nk; k++) {
        if (!in->eligible[k] || isnan(out->cost[k]))
            continue;
        double worst = -INFINITY;
        for (size_t j = 0; j < nk; j++) {
            size_t slower, paired;
            if (j == k || !in->eligible[j] || isnan(out->cost[j]))
                continue;
            double m = ratio_median(in->cost + k * rounds, in->cost + j * rounds, rounds, &slower, &paired);
            worst = m > worst ? m : worst;
        }
        if (worst < best) /* strict: an equal figure keeps the earlier kind */
            best = worst, out->fastest = (int)k;
    }
    if (out->fastest < 0)
        return 0;
    /* 2. every kind against the fastest, round by round */
    const double *fc = in->cost + (size_t)out->fastest * rounds;
    for (size_t k = 0; k < nk; k++) {
        size_t slower = 0, paired = 0;
        out->ratio[k] = ratio_median(in->cost + k * rounds, fc, rounds, &slower, &paired);
        out->slower_rounds[k] = slower;
        out->paired_rounds[k] = paired;
        if ((int)k == out->fastest || isnan(out->ratio[k]))
            continue;
        out->separated[k] = out->ratio[k] > FKC_PICK_MARGIN && 8 * slower >= 7 * paired;
        if (!out->separated[k]) {
            out->tied[k] = 1;
            out->ties += in->eligible[k] != 0;
        }
    }
    if (out->ties)
        out->tied[out->fastest] = 1;
    /* 3. of the fastest and those tied with it: the fewest reads, then the
     * least memory, then the fixed order (the first wins when both are
     * equal) */
    out->winner = out->fastest;
    for (size_t k = 0; k < nk; k++)
        if (in->eligible[k] && out->tied[k] && (int)k != out->winner &&
            ranks_before(in, k, (size_t)out->winner))
            out->winner = (int)k;
    return 0;
}
