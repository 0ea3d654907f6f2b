/* bench/measure/measure_load.c: the load sweep (fkc_measure_load in measure.h): a
 * filter filled step by step, timed at each load. */
#include <math.h>
#include <stdlib.h>
#include "loops.h"
#include "measure.h"
#include "../clock/progress.h"

/* Slots of a filter sized for p, read from the load factor after one
 * insert (exact for a kind whose load is occupied / slots). 0 if unknown. */
static uint64_t probe_slots(const fk_ops *ops, const fk_params *p)
{
    fk_filter *f;
    if (fk_filter_new(ops, p, &f) != FK_OK)
        return 0;
    uint64_t key = 0x1234567;
    fk_stats st;
    uint64_t slots = 0;
    if (fk_filter_insert(f, &key, sizeof key) == FK_OK) {
        fk_filter_stats(f, &st);
        if (st.load_factor > 0)
            slots = (uint64_t)llround(1.0 / st.load_factor);
    }
    fk_filter_free(f);
    return slots;
}

fk_status fkc_measure_load(const fk_ops *ops, const fkc_keyspec *spec, uint64_t n, double fpr,
                          const double *steps, size_t nsteps, unsigned repeat,
                          uint64_t lookups, fkc_result *rows)
{
    fk_params p = fk_params_make(n, fpr);
    p.seed = spec->seed;
    const unsigned reps = repeat ? repeat : 1;
    for (size_t s = 0; s < nsteps; s++) {
        fkc_result_init(&rows[s]);
        rows[s].kind = ops->name;
        rows[s].keys = fkc_key_type_name(spec->type);
        rows[s].n = n;
        rows[s].target_fpr = fpr;
        rows[s].seed = spec->seed;
        rows[s].repeat = reps;
        rows[s].load_target = steps[s];
    }
    uint64_t slots = probe_slots(ops, &p);
    if (!slots)
        slots = n; /* unknown: treat the load as items / n */
    uint64_t maxitems = (uint64_t)ceil(steps[nsteps - 1] * (double)slots) + 1;
    if (!lookups)
        lookups = fkc_fpr_negatives_for(fpr);
    fkc_workload w;
    char err[200];
    if (fkc_workload_make(spec, (size_t)maxitems, (size_t)lookups, &w, err, sizeof err))
        return FK_ENOMEM;
    size_t npos = w.pos.count;
    double *t = malloc(3 * nsteps * reps * sizeof *t); /* insert, lookup0, lookup100 */
    fkc_keyset negmix, posmix;
    size_t dummy;
    if (!t || fkc_workload_mix(&w, npos, 0, (size_t)lookups, spec->seed, &negmix, &dummy)) {
        free(t);
        fkc_workload_free(&w);
        return FK_ENOMEM;
    }
    for (size_t i = 0; i < 3 * nsteps * reps; i++)
        t[i] = NAN;
#define T_AT(kind, s, rep) t[((kind) * nsteps + (s)) * reps + (rep)]
    fk_status status = FK_OK;
    for (unsigned rep = 0; rep < reps && status == FK_OK; rep++) {
        fk_filter *f;
        status = fk_filter_new(ops, &p, &f);
        if (status != FK_OK)
            break;
        size_t items = 0;
        for (size_t s = 0; s < nsteps; s++) {
            fkc_progress_step("%s load sweep: run %u of %u, load %.2f", ops->name, rep + 1, reps, steps[s]);
            size_t target = (size_t)ceil(steps[s] * (double)slots);
            if (target <= items)
                target = items + 1;
            if (target > npos)
                target = npos;
            uint64_t ns;
            size_t reached = fkc_time_inserts_until_fail(ops->insert, f, &w.pos, items, target, &ns);
            int failed = reached < target;
            T_AT(0, s, rep) = fkc_ns_per_op(0, ns, reached - items + (size_t)failed);
            items = reached;
            if (items == 0)
                break;
            if (fkc_workload_mix(&w, items, 100, (size_t)lookups, spec->seed + s, &posmix, &dummy)) {
                status = FK_ENOMEM;
                break;
            }
            uint64_t neg_hits = fkc_time_lookups(ops->contains, f, &negmix, &ns);
            T_AT(1, s, rep) = fkc_ns_per_op(0, ns, negmix.count);
            uint64_t pos_hits = fkc_time_lookups(ops->contains, f, &posmix, &ns);
            T_AT(2, s, rep) = fkc_ns_per_op(0, ns, posmix.count);
            fkc_keyset_free(&posmix);
            if (rep == 0) {
                fk_stats st;
                fk_filter_stats(f, &st);
                fkc_result *r = &rows[s];
                r->lookups = lookups;
                r->load = st.load_factor;
                r->items = st.items;
                r->memory_bytes = st.memory_bytes;
                r->bits_per_item = st.items ? 8.0 * (double)st.memory_bytes / (double)st.items : NAN;
                r->fpr_theory = st.expected_fpr;
                fkc_fpr_count c = { neg_hits, negmix.count };
                r->fpr_measured = fkc_fpr_rate(c);
                fkc_fpr_interval(c, &r->fpr_low, &r->fpr_high);
                r->fpr_negatives = c.negatives;
                r->false_negatives = lookups - pos_hits;
                r->insert_failures = (uint64_t)failed;
            }
            if (failed)
                break;
        }
        fk_filter_free(f);
    }
    for (size_t s = 0; s < nsteps; s++) {
        rows[s].insert = fkc_summarize(&T_AT(0, s, 0), reps);
        rows[s].lookup[0] = fkc_summarize(&T_AT(1, s, 0), reps);
        rows[s].lookup[4] = fkc_summarize(&T_AT(2, s, 0), reps);
    }
#undef T_AT
    fkc_keyset_free(&negmix);
    free(t);
    fkc_workload_free(&w);
    return status;
}
