/* tests/test_bench_pick.c: the pick component (bench/pick/pick.h) called as
 * Python calls it, a query struct in and a result struct out, by the sizing
 * formulas alone (no timing: the answers do not move with the machine's
 * load); the decision rule (fkc_pick_rank) fed synthetic noisy timings,
 * paired by round as the race gives them; and the JSON writer of a doc
 * (fkc_json_doc). Links libfk_bench.a. */
#define _DEFAULT_SOURCE /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../bench/pick/pick.h"
#include "../bench/report/report.h"
#include "../registry/registry.h"

static fkc_pick_result res; /* about 36 KiB: not on the stack */

static fkc_pick_status run_set(uint64_t n, double fpr, uint64_t memory, int deletes)
{
    fkc_pick_query q;
    fkc_pick_query_init(&q);
    q.n = n, q.fpr = fpr, q.memory = memory, q.deletes = deletes, q.no_timing = 1;
    return fkc_pick(&q, &res);
}

/* The doc as JSON text (caller frees). */
static char *doc_json(const fkc_doc *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fkc_json_doc(f, d);
    fclose(f);
    return text;
}

TEST(a_refused_query_is_a_status_and_a_message)
{
    fkc_pick_query q;
    fkc_pick_query_init(&q);
    q.fpr = 0.01; /* no n */
    CHECK_STATUS(fkc_pick(&q, &res), FKC_PICK_EINVAL);
    CHECK_MSG(strstr(res.message, "--n") != NULL, "message: %s", res.message);
    CHECK(res.nc == 0 && res.best == -1);
    q.n = 1000, q.grow_to = 500; /* a growth that shrinks */
    CHECK_STATUS(fkc_pick(&q, &res), FKC_PICK_EINVAL);
    CHECK(strstr(res.message, "--grow-to") != NULL);
    q.grow_to = 0, q.fpr = 1.5;
    CHECK_STATUS(fkc_pick(&q, &res), FKC_PICK_EINVAL);
    q.fpr = 0.01, q.window = 1000, q.window_seconds = 60; /* two kinds of window */
    q.n = 0;
    CHECK_STATUS(fkc_pick(&q, &res), FKC_PICK_EINVAL);
    CHECK(strstr(res.message, "give one") != NULL);
    q.window_seconds = 0, q.repeat = 0;
    CHECK_STATUS(fkc_pick(&q, &res), FKC_PICK_EINVAL);
}

TEST(untimed_the_smallest_qualifying_kind_wins_and_every_other_says_why)
{
    CHECK_STATUS(run_set(10000, 0.01, 0, 0), FKC_PICK_OK);
    CHECK_EQ_U64(res.capacity, 12500); /* n and the 25% headroom */
    CHECK(res.best >= 0 && res.nmeas == 0 && res.n_meas == 0);
    const fkc_pick_candidate *best = &res.c[res.best];
    size_t chosen = 0;
    for (size_t i = 0; i < res.nc; i++) {
        const fkc_pick_candidate *x = &res.c[i];
        CHECK(!x->measured);
        chosen += x->verdict == FKC_PICK_CHOSEN;
        if (!x->ruled_out[0])
            CHECK_MSG(best->memory <= x->memory, "%s (%llu bytes) is smaller than the chosen %s (%llu)",
                      x->ops->name, (unsigned long long)x->memory, best->ops->name,
                      (unsigned long long)best->memory);
        if (x != best)
            CHECK_MSG(x->reason[0] != 0, "%s lost without a reason", x->ops->name);
        CHECK((x->verdict == FKC_PICK_RULED_OUT) == (x->ruled_out[0] != 0) || x == best);
    }
    CHECK_EQ_U64(chosen, 1);
    CHECK(best->reason[0] == 0 && strstr(res.decided, "smallest") != NULL);
    /* the lines build what was chosen, at the capacity */
    char want[64];
    snprintf(want, sizeof want, "--kind %s ", best->ops->name);
    CHECK_MSG(strstr(res.build, want) && strstr(res.build, "--capacity 12500"), "build: %s", res.build);
    snprintf(want, sizeof want, "Filter(\"%s\", capacity=12500", best->ops->name);
    CHECK_MSG(strstr(res.py_line, want) != NULL, "python: %s", res.py_line);
    CHECK(strstr(res.c_line, "fk_params_make(12500, 0.01)") != NULL);
}

TEST(deletes_rule_out_the_kinds_that_cannot_remove)
{
    CHECK_STATUS(run_set(10000, 0.01, 0, 1), FKC_PICK_OK);
    CHECK(fk_ops_caps(res.c[res.best].ops) & FK_CAP_REMOVE);
    for (size_t i = 0; i < res.nc; i++)
        if (!(fk_ops_caps(res.c[i].ops) & FK_CAP_REMOVE))
            CHECK_MSG(res.c[i].verdict == FKC_PICK_RULED_OUT, "%s cannot remove yet qualifies", res.c[i].ops->name);
}

TEST(a_budget_nothing_fits_picks_none_and_every_reason_says_so)
{
    CHECK_STATUS(run_set(1000000, 0.001, 1024, 0), FKC_PICK_NONE);
    CHECK(res.best == -1 && res.build[0] == 0);
    size_t over = 0;
    for (size_t i = 0; i < res.nc; i++) {
        CHECK(res.c[i].verdict == FKC_PICK_RULED_OUT && res.c[i].reason[0]);
        over += strstr(res.c[i].reason, "budget") != NULL;
    }
    CHECK_MSG(over >= 4, "%zu kinds over the budget", over);
    CHECK(res.smallest >= 0); /* the one the text names as closest */
}

TEST(a_window_picks_the_window_kind_never_a_baseline)
{
    fkc_pick_query q;
    fkc_pick_query_init(&q);
    q.window = 5000, q.fpr = 0.01, q.no_timing = 1;
    CHECK_STATUS(fkc_pick(&q, &res), FKC_PICK_OK);
    CHECK(res.window_mode && res.window_items == 5000 && res.capacity == 5000);
    CHECK(strcmp(res.c[res.best].ops->name, "window") == 0);
    size_t baselines = 0;
    for (size_t i = 0; i < res.nc; i++) {
        CHECK(fk_ops_caps(res.c[i].ops) & FK_CAP_EXPIRES);
        if (res.c[i].baseline) {
            baselines++;
            CHECK(res.c[i].verdict != FKC_PICK_CHOSEN && strstr(res.c[i].reason, "baseline"));
        }
    }
    CHECK_EQ_U64(baselines, 3);
    CHECK(strstr(res.build, " dedup --kind window --fpr 0.01 --capacity 5000 seen.fk") != NULL);
    CHECK(res.floor_bits > log2(100) && res.floor_bits < log2(100) + 1.5);
}

TEST(the_doc_is_the_decision_as_json)
{
    CHECK_STATUS(run_set(10000, 0.01, 0, 0), FKC_PICK_OK);
    fkc_doc d = { 0 };
    CHECK(fkc_pick_doc(&res, &d) == 0);
    CHECK(d.n > 10 && d.items[0].type == FKC_DOC_OBJ && d.items[d.n - 1].type == FKC_DOC_END);
    int depth = 0, least = 1;
    for (size_t i = 0; i < d.n; i++) {
        depth += d.items[i].type == FKC_DOC_OBJ || d.items[i].type == FKC_DOC_ARR;
        depth -= d.items[i].type == FKC_DOC_END;
        if (i + 1 < d.n && depth < least)
            least = depth;
    }
    CHECK(depth == 0 && least >= 1); /* one top object, balanced */
    char *json = doc_json(&d);
    char want[96];
    snprintf(want, sizeof want, "\"recommendation\": {\"kind\": \"%s\"", res.c[res.best].ops->name);
    CHECK_MSG(json && strstr(json, want), "no %s in the JSON", want);
    CHECK(json && strstr(json, "\"timed_at_n\": 0") && strstr(json, "\n  \"candidates\": [\n    {\"kind\": "));
    free(json);
    fkc_doc_free(&d);
}

TEST(json_doc_writer_escapes_nulls_and_shortest_numbers)
{
    fkc_doc d = { 0 };
    fkc_doc_obj(&d, NULL);
    fkc_doc_str(&d, "s", "a \"q\" \\ \n");
    fkc_doc_num(&d, "x", 0.001);
    fkc_doc_num(&d, "nan", NAN);
    fkc_doc_u64(&d, "big", UINT64_MAX);
    fkc_doc_str_or_null(&d, "empty", "");
    fkc_doc_arr(&d, "a");
    fkc_doc_bool(&d, NULL, 1);
    fkc_doc_obj(&d, NULL);
    fkc_doc_null(&d, "z");
    fkc_doc_end(&d);
    fkc_doc_end(&d);
    fkc_doc_end(&d);
    CHECK(!d.failed);
    char *json = doc_json(&d);
    const char *want = "{\n  \"s\": \"a \\\"q\\\" \\\\ \\u000a\",\n  \"x\": 0.001,\n  \"nan\": null,\n"
                       "  \"big\": 18446744073709551615,\n  \"empty\": null,\n  \"a\": [\n    true,\n"
                       "    {\"z\": null}\n  ]\n}\n";
    CHECK_MSG(json && strcmp(json, want) == 0, "got:\n%s", json ? json : "(null)");
    free(json);
    fkc_doc_free(&d);
    CHECK(d.n == 0 && d.items == NULL);
}


/* ------------------------------------------------ the decision rule */

#define RANK_ROUNDS 32u

/* A fixed pseudo-random stream (xorshift), so the noise is the same each
 * time the test runs. */
static double noise01(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* cost[k][r] = median[k] x load_r x own_kr: load_r, what the machine did
 * in round r, common to every kind of the round, from 0.4x to 3x (so
 * every kind's min-max range is wide and they all overlap); own_kr, each
 * timing's own jitter, within +-spread. */
static void noisy_rounds(double *cost, const double *median, size_t nk, uint64_t seed, double spread)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15u + 1;
    for (size_t r = 0; r < RANK_ROUNDS; r++) {
        double load = 0.4 + 2.6 * noise01(&s);
        for (size_t k = 0; k < nk; k++)
            cost[k * RANK_ROUNDS + r] = median[k] * load * (1 + spread * (2 * noise01(&s) - 1));
    }
}

static fkc_pick_ranking rank_reads(const double *cost, size_t nk, const uint64_t *memory, const int *eligible,
                                   const uint64_t *reads)
{
    fkc_pick_rank_in in = { nk, RANK_ROUNDS, cost, memory, eligible, reads };
    fkc_pick_ranking out;
    CHECK(fkc_pick_rank(&in, &out) == 0);
    return out;
}

static fkc_pick_ranking rank_of(const double *cost, size_t nk, const uint64_t *memory, const int *eligible)
{
    return rank_reads(cost, nk, memory, eligible, NULL);
}

/* bloom 45, cuckoo 41, blocked 30 ns (the run at 1M, 1%): bloom
 * the smallest, blocked 1.5x faster than it. */
static const double race_median[3] = { 45.0, 41.0, 30.0 };
static const uint64_t race_memory[3] = { 1000, 1120, 1100 };
static const int all_eligible[4] = { 1, 1, 1, 1 };

TEST(rank_same_medians_wide_overlapping_ranges_same_winner_every_time)
{
    double cost[3 * RANK_ROUNDS];
    for (uint64_t seed = 1; seed <= 50; seed++) {
        noisy_rounds(cost, race_median, 3, seed, 0.10);
        fkc_pick_ranking rk = rank_of(cost, 3, race_memory, all_eligible);
        /* the ranges overlap: the old rule (overlap = tie, the tie to the
         * smallest) gave this to bloom */
        CHECK_MSG(rk.cost_low[0] <= rk.cost_high[2] && rk.cost_low[1] <= rk.cost_high[2],
                  "seed %llu: ranges apart", (unsigned long long)seed);
        CHECK_MSG(rk.fastest == 2 && rk.winner == 2, "seed %llu: fastest %d winner %d (ratios %.2f %.2f)",
                  (unsigned long long)seed, rk.fastest, rk.winner, rk.ratio[0], rk.ratio[1]);
        CHECK(rk.separated[0] && rk.separated[1] && rk.ties == 0 && !rk.tied[2]);
        CHECK(rk.ratio[0] > 1.4 && rk.ratio[0] < 1.6 && rk.paired_rounds[0] == RANK_ROUNDS);
    }
}

TEST(rank_a_one_and_a_half_fold_median_advantage_is_not_lost_to_overlap)
{
    /* the figures: blocked 60.1, bloom 90.2 by median; bloom smaller */
    const double median[2] = { 90.2, 60.1 };
    const uint64_t memory[2] = { 1000, 1100 };
    double cost[2 * RANK_ROUNDS];
    noisy_rounds(cost, median, 2, 7, 0.25); /* a quarter jitter on top of the shared load */
    fkc_pick_ranking rk = rank_of(cost, 2, memory, all_eligible);
    CHECK(rk.cost_low[1] < rk.cost_high[0] && rk.cost_low[0] < rk.cost_high[1]); /* overlapping */
    CHECK_MSG(rk.winner == 1 && rk.separated[0], "winner %d, ratio %.2f slower in %zu of %zu", rk.winner,
              rk.ratio[0], rk.slower_rounds[0], rk.paired_rounds[0]);
}

TEST(rank_a_tie_names_both_and_goes_to_the_least_memory_then_the_first)
{
    /* 5% apart: too close to separate */
    const double median[3] = { 42.0, 40.0, 80.0 };
    const uint64_t memory[3] = { 900, 1000, 500 };
    double cost[3 * RANK_ROUNDS];
    noisy_rounds(cost, median, 3, 3, 0.10);
    fkc_pick_ranking rk = rank_of(cost, 3, memory, all_eligible);
    CHECK(rk.fastest == 1 && rk.tied[0] && rk.tied[1] && !rk.tied[2] && rk.ties == 1);
    CHECK_MSG(rk.winner == 0, "the smaller of the tied: got %d", rk.winner); /* not kind 2: slower, though smallest */
    /* equal memory: the fixed order, the first */
    const uint64_t same[3] = { 1000, 1000, 500 };
    rk = rank_of(cost, 3, same, all_eligible);
    CHECK(rk.winner == 0);
    /* the same figures with the rounds in another order: the same answer */
    double shuffled[3 * RANK_ROUNDS];
    for (size_t k = 0; k < 3; k++)
        for (size_t r = 0; r < RANK_ROUNDS; r++)
            shuffled[k * RANK_ROUNDS + r] = cost[k * RANK_ROUNDS + (r * 7) % RANK_ROUNDS];
    fkc_pick_ranking again = rank_of(shuffled, 3, memory, all_eligible);
    CHECK(again.winner == 0 && again.fastest == 1 && again.ties == 1);
}

TEST(rank_slower_takes_the_margin_and_seven_rounds_of_eight)
{
    /* slower by 1.5x in the median round but faster in 12 of 32 rounds: the
     * rounds do not agree, tied (7 of 8 are needed) */
    double cost[2 * RANK_ROUNDS];
    for (size_t r = 0; r < RANK_ROUNDS; r++) {
        cost[r] = 10.0;                                 /* kind 0 */
        cost[RANK_ROUNDS + r] = r < 12 ? 9.0 : 15.0;    /* kind 1 */
    }
    const uint64_t memory[2] = { 2000, 1000 };
    fkc_pick_ranking rk = rank_of(cost, 2, memory, all_eligible);
    CHECK_MSG(rk.fastest == 0 && rk.ratio[1] == 1.5 && rk.slower_rounds[1] == 20, "fastest %d ratio %.2f slower %zu",
              rk.fastest, rk.ratio[1], rk.slower_rounds[1]);
    CHECK(rk.tied[1] && rk.winner == 1); /* tied: the smaller */
    for (size_t r = 0; r < RANK_ROUNDS; r++)
        cost[RANK_ROUNDS + r] = r < 5 ? 9.0 : 15.0; /* slower in 27 of 32: under 7 of 8 */
    rk = rank_of(cost, 2, memory, all_eligible);
    CHECK(rk.tied[1] && rk.winner == 1);
    for (size_t r = 0; r < RANK_ROUNDS; r++)
        cost[RANK_ROUNDS + r] = r < 4 ? 9.0 : 15.0; /* slower in 28 of 32: 7 of 8 */
    rk = rank_of(cost, 2, memory, all_eligible);
    CHECK(rk.separated[1] && rk.winner == 0);
    for (size_t r = 0; r < RANK_ROUNDS; r++)
        cost[RANK_ROUNDS + r] = 11.9; /* slower every round, under the margin */
    rk = rank_of(cost, 2, memory, all_eligible);
    CHECK(rk.tied[1] && rk.winner == 1 && rk.slower_rounds[1] == RANK_ROUNDS);
}

/* bloom (7 reads, the smaller) against blocked (1 read) at every ratio
 * from 1.05x to 1.6x, with the shared load of a busy machine: the answer
 * is blocked at every one, inside the margin and past it (on memory
 * alone it flipped from bloom to blocked as the ratio crossed 1.25x, the
 * issue's run-to-run flip). */
TEST(rank_a_kind_round_the_margin_gets_one_answer_on_both_sides_of_it)
{
    const uint64_t memory[2] = { 1000, 1100 }, reads[2] = { 7, 1 };
    double cost[2 * RANK_ROUNDS];
    int inside = 0, past = 0;
    for (double ratio = 1.05; ratio < 1.6; ratio += 0.01) {
        const double median[2] = { 30.0 * ratio, 30.0 };
        noisy_rounds(cost, median, 2, (uint64_t)(ratio * 1000), 0.05);
        fkc_pick_ranking rk = rank_reads(cost, 2, memory, all_eligible, reads);
        CHECK_MSG(rk.winner == 1, "ratio %.2f: winner %d (tied %d)", ratio, rk.winner, rk.tied[0]);
        inside += rk.tied[0], past += rk.separated[0];
        /* what memory alone would choose there: the flip */
        fkc_pick_ranking by_memory = rank_of(cost, 2, memory, all_eligible);
        CHECK(by_memory.winner == (rk.tied[0] ? 0 : 1));
    }
    CHECK_MSG(inside > 5 && past > 5, "both sides of the margin seen: %d inside, %d past", inside, past);
}

TEST(rank_of_the_tied_the_fewest_reads_then_the_least_memory_then_the_first)
{
    /* three kinds 5% apart: all tied */
    const double median[3] = { 41.0, 40.0, 42.0 };
    double cost[3 * RANK_ROUNDS];
    noisy_rounds(cost, median, 3, 11, 0.05);
    const uint64_t memory[3] = { 900, 1000, 800 };
    const uint64_t reads[3] = { 2, 1, 7 };
    fkc_pick_ranking rk = rank_reads(cost, 3, memory, all_eligible, reads);
    CHECK(rk.ties == 2);
    CHECK_MSG(rk.winner == 1, "the fewest reads, though the largest: got %d", rk.winner);
    const uint64_t even[3] = { 1, 1, 7 }; /* equal reads: the smaller of those */
    rk = rank_reads(cost, 3, memory, all_eligible, even);
    CHECK(rk.winner == 0);
    const uint64_t same[3] = { 1000, 1000, 800 }; /* equal reads and memory: the first */
    rk = rank_reads(cost, 3, same, all_eligible, even);
    CHECK(rk.winner == 0);
    const uint64_t unknown[3] = { 0, 3, 0 }; /* a kind without the figure ranks after one with it */
    rk = rank_reads(cost, 3, memory, all_eligible, unknown);
    CHECK(rk.winner == 1);
    const uint64_t none[3] = { 0, 0, 0 }; /* none given: the least memory */
    rk = rank_reads(cost, 3, memory, all_eligible, none);
    CHECK(rk.winner == 2);
    /* a slower kind's fewer reads do not count: blocked-like 1 read but 2x */
    const double apart[2] = { 20.0, 40.0 };
    const uint64_t two_memory[2] = { 1000, 900 }, two_reads[2] = { 7, 1 };
    noisy_rounds(cost, apart, 2, 5, 0.05);
    rk = rank_reads(cost, 2, two_memory, all_eligible, two_reads);
    CHECK(rk.winner == 0 && rk.separated[1]);
}

TEST(rank_a_baseline_is_ranked_never_chosen_and_untimed_rounds_are_skipped)
{
    double cost[2 * RANK_ROUNDS];
    for (size_t r = 0; r < RANK_ROUNDS; r++) {
        cost[r] = 5.0;                              /* a baseline, fastest */
        cost[RANK_ROUNDS + r] = r % 4 ? 20.0 : NAN; /* a library kind, some rounds untimed */
    }
    const uint64_t memory[2] = { 10, 1000 };
    const int eligible[2] = { 0, 1 };
    fkc_pick_ranking rk = rank_of(cost, 2, memory, eligible);
    CHECK(rk.fastest == 1 && rk.winner == 1 && rk.paired_rounds[1] == 24 && rk.ties == 0);
    CHECK(rk.ratio[0] == 0.25);
    const int none[2] = { 0, 0 };
    rk = rank_of(cost, 2, memory, none);
    CHECK(rk.fastest == -1 && rk.winner == -1);
    fkc_pick_rank_in too_many = { 2, FKC_PICK_ROUNDS_MAX + 1, cost, memory, eligible, NULL };
    CHECK(fkc_pick_rank(&too_many, &rk) == -1);
}

int main(void)
{
    setenv("FILTERKIT_PROGRESS", "0", 1);
    RUN(a_refused_query_is_a_status_and_a_message);
    RUN(untimed_the_smallest_qualifying_kind_wins_and_every_other_says_why);
    RUN(deletes_rule_out_the_kinds_that_cannot_remove);
    RUN(a_budget_nothing_fits_picks_none_and_every_reason_says_so);
    RUN(a_window_picks_the_window_kind_never_a_baseline);
    RUN(the_doc_is_the_decision_as_json);
    RUN(json_doc_writer_escapes_nulls_and_shortest_numbers);
    RUN(rank_same_medians_wide_overlapping_ranges_same_winner_every_time);
    RUN(rank_a_one_and_a_half_fold_median_advantage_is_not_lost_to_overlap);
    RUN(rank_a_tie_names_both_and_goes_to_the_least_memory_then_the_first);
    RUN(rank_slower_takes_the_margin_and_seven_rounds_of_eight);
    RUN(rank_a_kind_round_the_margin_gets_one_answer_on_both_sides_of_it);
    RUN(rank_of_the_tied_the_fewest_reads_then_the_least_memory_then_the_first);
    RUN(rank_a_baseline_is_ranked_never_chosen_and_untimed_rounds_are_skipped);
    return check_report();
}
