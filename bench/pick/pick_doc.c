/* bench/pick/pick_doc.c: the result of a pick as data (fkc_pick_doc): what
 * `filterkit pick --format json` prints and Python's filterkit.pick returns.
 * Members: query, recommendation (null when nothing fits), budget_for_best
 * (a set) or floor_bits_per_window_item (a window), candidates, run. */
#include <math.h>
#include <stdio.h>
#include "pick_internal.h"
#include "../measure/memory_model.h"
#include "../report/runinfo.h"
#include "../../registry/registry.h"

void fkc_pick_doc_run(fkc_doc *d, uint64_t seed)
{
    fkc_runinfo ri;
    fkc_runinfo_fill(&ri, seed);
    const char *name;
    char value[2048];
    fkc_doc_obj(d, "run");
    for (int i = 0; fkc_runinfo_field(&ri, i, &name, value, sizeof value); i++) {
        /* the names are the runinfo's own static strings */
        fkc_doc_str(d, name, value);
    }
    fkc_doc_end(d);
}

static void doc_summary(fkc_doc *d, const char *key, fkc_summary s)
{
    fkc_doc_obj(d, key);
    fkc_doc_num(d, "median", s.median);
    fkc_doc_num(d, "min", s.min);
    fkc_doc_num(d, "max", s.max);
    fkc_doc_end(d);
}

static void set_query(const fkc_pick_result *res, fkc_doc *d)
{
    const fkc_pick_query *q = &res->q;
    fkc_doc_obj(d, "query");
    fkc_doc_u64(d, "n", q->n);
    fkc_doc_num(d, "fpr", q->fpr);
    fkc_doc_bool(d, "deletes", q->deletes);
    fkc_doc_bool(d, "static", q->is_static);
    fkc_doc_bool(d, "counts", q->counts);
    fkc_doc_bool(d, "merges", q->merges);
    fkc_doc_u64_or_null(d, "memory_budget", q->memory);
    fkc_doc_num(d, "headroom", res->grows ? 0 : res->headroom);
    fkc_doc_bool(d, "n_uncertain", q->uncertain);
    fkc_doc_u64_or_null(d, "grow_to", q->grow_to);
    fkc_doc_u64_or_null(d, "weighed_to", res->grows ? res->end : 0);
    fkc_doc_u64(d, "capacity", res->capacity);
    fkc_doc_num(d, "read_ratio", q->read_ratio);
    fkc_doc_str(d, "keys", fkc_key_type_name(q->keys.type));
    fkc_doc_u64(d, "repeat", q->repeat);
    fkc_doc_u64(d, "seed", q->seed);
    fkc_doc_bool(d, "no_timing", q->no_timing);
    fkc_doc_u64(d, "timed_at_n", res->nmeas ? res->n_meas : 0);
    fkc_doc_u64(d, "rounds", res->rounds);
    fkc_doc_num(d, "margin", FKC_PICK_MARGIN);
    fkc_doc_end(d);
}

/* The candidate's place in the paired rounds (raced: the decision's
 * figures): cost median, min, max of the rounds, the median ratio to the
 * fastest and the rounds it was the slower in. */
static void doc_raced(fkc_doc *d, const fkc_pick_candidate *c)
{
    if (!c->raced) {
        fkc_doc_null(d, "rounds");
        return;
    }
    fkc_doc_obj(d, "rounds");
    fkc_doc_num(d, "cost_ns", c->cost);
    fkc_doc_num(d, "cost_ns_low", c->cost_low);
    fkc_doc_num(d, "cost_ns_high", c->cost_high);
    fkc_doc_num(d, "ratio_to_fastest", c->ratio);
    fkc_doc_u64(d, "slower_rounds", c->slower_rounds);
    fkc_doc_u64(d, "paired_rounds", c->paired_rounds);
    fkc_doc_u64_or_null(d, "lookup_reads", c->lookup_reads); /* the first tie-break; null: none */
    fkc_doc_end(d);
}

static void set_recommendation(const fkc_pick_result *res, fkc_doc *d)
{
    if (res->best < 0) {
        fkc_doc_null(d, "recommendation");
        return;
    }
    const fkc_pick_candidate *best = &res->c[res->best];
    fkc_doc_obj(d, "recommendation");
    fkc_doc_str(d, "kind", best->ops->name);
    fkc_doc_u64(d, "capacity", res->capacity);
    fkc_doc_num(d, "fpr", best->fpr);
    fkc_doc_u64(d, "doublings", best->doublings);
    fkc_doc_u64(d, "memory_bytes", best->memory);
    fkc_doc_str(d, "build", res->build);
    fkc_doc_str(d, "c", res->c_line);
    fkc_doc_str(d, "python", res->py_line);
    fkc_doc_str_or_null(d, "grow", res->grow_line);
    fkc_doc_str(d, "decided_by", res->decided);
    fkc_doc_end(d);
}

/* Memory and bits per item (per window item): null when too big to say. */
static void doc_memory(fkc_doc *d, const fkc_pick_candidate *c, uint64_t capacity, const char *bits_key)
{
    if (c->memory == FKC_MODEL_TOO_BIG) {
        fkc_doc_null(d, "memory_bytes");
        fkc_doc_null(d, bits_key);
    } else {
        fkc_doc_u64(d, "memory_bytes", c->memory);
        fkc_doc_num(d, bits_key, 8.0 * (double)c->memory / (double)capacity);
    }
}

static void set_measured(fkc_doc *d, const fkc_pick_candidate *c, const fkc_pick_result *res)
{
    fkc_doc_obj(d, "measured");
    fkc_doc_u64(d, "runs", res->q.repeat);
    fkc_doc_u64(d, "n", c->r.n);
    fkc_doc_num(d, "fpr", c->r.fpr_measured);
    fkc_doc_num(d, "fpr_low", c->r.fpr_low);
    fkc_doc_num(d, "fpr_high", c->r.fpr_high);
    fkc_doc_u64(d, "fpr_negatives", c->r.fpr_negatives);
    doc_summary(d, "insert_ns", c->r.insert);
    doc_summary(d, "lookup_absent_ns", c->r.lookup[0]);
    doc_summary(d, "lookup_50_ns", c->r.lookup[2]);
    doc_summary(d, "lookup_present_ns", c->r.lookup[4]);
    doc_summary(d, "remove_ns", c->r.remove);
    fkc_doc_u64(d, "insert_failures", c->r.insert_failures);
    fkc_doc_num(d, "cost_ns", c->cost);
    fkc_doc_num(d, "cost_ns_low", c->cost_low);
    fkc_doc_num(d, "cost_ns_high", c->cost_high);
    fkc_doc_end(d);
}

static void set_candidate(fkc_doc *d, const fkc_pick_candidate *c, const fkc_pick_result *res)
{
    unsigned caps = fk_ops_caps(c->ops);
    fkc_doc_obj(d, NULL);
    fkc_doc_str(d, "kind", c->ops->name);
    fkc_doc_bool(d, "chosen", c->verdict == FKC_PICK_CHOSEN);
    fkc_doc_bool(d, "feasible", !c->ruled_out[0]);
    fkc_doc_bool(d, "tied", c->tied);
    fkc_doc_str_or_null(d, "reason", c->reason);
    fkc_doc_bool(d, "can_remove", caps & FK_CAP_REMOVE);
    fkc_doc_bool(d, "grows", caps & FK_CAP_GROWS);
    fkc_doc_bool(d, "bounded", caps & FK_CAP_BOUNDED);
    if (c->sized) {
        fkc_doc_str(d, "geometry", c->params);
        doc_memory(d, c, res->capacity, "bits_per_item");
        fkc_doc_num(d, "fpr_made", c->fpr);
        fkc_doc_u64(d, "doublings", c->doublings);
        fkc_doc_bool(d, "memory_exact", c->exact);
        fkc_doc_num(d, "theory_fpr", c->theory);
        fkc_doc_num(d, "best_fpr_in_budget", c->best_fpr);
    }
    if (c->grown) {
        fkc_doc_obj(d, "grown");
        fkc_doc_num(d, "bits_per_item", c->grow_bits);
        fkc_doc_num(d, "worst_fpr", c->grow_fpr);
        fkc_doc_num(d, "absent_ns", c->grow_absent_ns);
        fkc_doc_num(d, "absent_batch_ns", c->grow_absent_batch_ns);
        fkc_doc_num(d, "insert_ns", c->grow_insert_ns);
        fkc_doc_u64(d, "runs", res->q.repeat);
        doc_summary(d, "absent", c->grow_absent);
        doc_summary(d, "absent_batch", c->grow_absent_batch);
        doc_summary(d, "insert", c->grow_insert);
        fkc_doc_end(d);
    }
    if (c->measured)
        set_measured(d, c, res);
    doc_raced(d, c);
    fkc_doc_end(d);
}

int fkc_pick_doc(const fkc_pick_result *res, fkc_doc *d)
{
    fkc_doc_obj(d, NULL);
    if (res->window_mode) {
        fkc_pick_window_doc(res, d);
    } else {
        set_query(res, d);
        set_recommendation(res, d);
        fkc_doc_u64(d, "budget_for_best_fpr", res->budget_for_best);
        fkc_doc_arr(d, "candidates");
        for (size_t i = 0; i < res->nc; i++)
            set_candidate(d, &res->c[i], res);
        fkc_doc_end(d);
    }
    fkc_pick_doc_run(d, res->q.seed);
    fkc_doc_end(d);
    return d->failed ? -1 : 0;
}

/* ------------------------------------------------------------ a window */

static void window_query(const fkc_pick_result *res, fkc_doc *d)
{
    const fkc_pick_query *q = &res->q;
    fkc_doc_obj(d, "query");
    fkc_doc_u64(d, "window", res->window_items);
    fkc_doc_u64_or_null(d, "window_seconds", q->window_seconds);
    fkc_doc_u64_or_null(d, "rate", q->rate);
    fkc_doc_num(d, "fpr", q->fpr);
    fkc_doc_bool(d, "deletes", q->deletes);
    fkc_doc_bool(d, "counts", q->counts);
    fkc_doc_bool(d, "merges", q->merges);
    fkc_doc_u64_or_null(d, "memory_budget", q->memory);
    fkc_doc_num(d, "headroom", res->headroom);
    fkc_doc_u64(d, "capacity", res->capacity);
    fkc_doc_num(d, "read_ratio", q->read_ratio);
    fkc_doc_str(d, "keys", "u64");
    fkc_doc_u64(d, "repeat", q->repeat);
    fkc_doc_u64(d, "seed", q->seed);
    fkc_doc_bool(d, "no_timing", q->no_timing);
    fkc_doc_u64(d, "timed_at_n", res->nmeas ? res->n_meas : 0);
    fkc_doc_u64(d, "stream", res->nmeas ? res->stream : 0);
    fkc_doc_u64(d, "rounds", res->rounds);
    fkc_doc_num(d, "margin", FKC_PICK_MARGIN);
    fkc_doc_end(d);
}

static void window_recommendation(const fkc_pick_result *res, fkc_doc *d)
{
    if (res->best < 0) {
        fkc_doc_null(d, "recommendation");
        return;
    }
    const fkc_pick_candidate *best = &res->c[res->best];
    fkc_doc_obj(d, "recommendation");
    fkc_doc_str(d, "kind", best->ops->name);
    fkc_doc_u64(d, "capacity", res->capacity);
    fkc_doc_num(d, "fpr", res->q.fpr);
    fkc_doc_u64_or_null(d, "window_seconds", res->q.window_seconds);
    fkc_doc_u64(d, "memory_bytes", best->memory);
    fkc_doc_num(d, "bits_per_window_item", 8.0 * (double)best->memory / (double)res->capacity);
    fkc_doc_str(d, "build", res->build);
    fkc_doc_str(d, "c", res->c_line);
    fkc_doc_str_or_null(d, "python", res->py_line);
    fkc_doc_str(d, "decided_by", res->decided);
    fkc_doc_end(d);
}

static void window_measured(fkc_doc *d, const fkc_pick_candidate *c, const fkc_pick_result *res)
{
    fkc_doc_obj(d, "measured");
    fkc_doc_u64(d, "runs", res->q.repeat);
    fkc_doc_num(d, "fpr", c->outside);
    fkc_doc_num(d, "fpr_low", c->outside_low);
    fkc_doc_num(d, "fpr_high", c->outside_high);
    fkc_doc_obj(d, "bands");
    for (int b = 0; b < FKC_BANDS; b++) {
        fkc_doc_obj(d, fkc_band_names[b]);
        fkc_doc_u64(d, "probes", c->band[b].negatives);
        fkc_doc_u64(d, "present", c->band[b].false_positives);
        fkc_doc_end(d);
    }
    fkc_doc_end(d);
    fkc_doc_u64(d, "window_checked", c->window_checked);
    fkc_doc_u64(d, "window_misses", c->window_misses);
    doc_summary(d, "insert_ns", c->insert);
    doc_summary(d, "lookup_absent_ns", c->absent);
    doc_summary(d, "lookup_found_ns", c->found);
    fkc_doc_num(d, "cost_ns", c->cost);
    fkc_doc_num(d, "cost_ns_low", c->cost_low);
    fkc_doc_num(d, "cost_ns_high", c->cost_high);
    fkc_doc_end(d);
}

static void window_candidate(fkc_doc *d, const fkc_pick_candidate *c, const fkc_pick_result *res)
{
    fkc_doc_obj(d, NULL);
    fkc_doc_str(d, "kind", c->ops->name);
    fkc_doc_bool(d, "baseline", c->baseline);
    fkc_doc_bool(d, "chosen", c->verdict == FKC_PICK_CHOSEN);
    fkc_doc_bool(d, "feasible", !c->ruled_out[0]);
    fkc_doc_bool(d, "tied", c->tied);
    fkc_doc_str_or_null(d, "reason", c->reason);
    fkc_doc_bool(d, "can_remove", fk_ops_caps(c->ops) & FK_CAP_REMOVE);
    if (c->sized) {
        fkc_doc_str(d, "geometry", c->params);
        doc_memory(d, c, res->capacity, "bits_per_window_item");
        fkc_doc_bool(d, "memory_exact", c->exact);
        fkc_doc_num(d, "fpr_made", res->q.fpr);
        fkc_doc_num(d, "theory_fpr", c->theory);
        fkc_doc_u64_or_null(d, "lifetime", c->lifetime);
    }
    if (c->measured)
        window_measured(d, c, res);
    doc_raced(d, c);
    fkc_doc_end(d);
}

void fkc_pick_window_doc(const fkc_pick_result *res, fkc_doc *d)
{
    window_query(res, d);
    window_recommendation(res, d);
    fkc_doc_num(d, "floor_bits_per_window_item", res->floor_bits);
    fkc_doc_arr(d, "candidates");
    for (size_t i = 0; i < res->nc; i++)
        window_candidate(d, &res->c[i], res);
    fkc_doc_end(d);
}
