/* tests/test_bench_pick.c: the pick component (bench/pick/pick.h) called as
 * Python calls it, a query struct in and a result struct out, by the sizing
 * formulas alone (no timing: the answers do not move with the machine's
 * load); and the JSON writer of a doc (fkc_json_doc). Links libfk_bench.a. */
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
    return check_report();
}
