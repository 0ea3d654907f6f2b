/* bench/measure/growth.c: the growth workload (growth.h). */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "growth.h"
#include "../clock/timing.h"
#include "../keys/keygen.h"

/* Keys per batch call, as the other batch columns (batch_loops.h). */
#define BATCH 1024u

const char *fkc_growth_role_name(fkc_growth_role r)
{
    return r == FKC_GROWN ? "grown" : r == FKC_IN_PLACE ? "in-place" : "pre-sized";
}

fkc_growth_role fkc_growth_role_of(const fk_ops *ops)
{
    unsigned caps = fk_ops_caps(ops);
    return caps & FK_CAP_GROWS ? FKC_GROWN : caps & FK_CAP_RESIZES ? FKC_IN_PLACE : FKC_PRESIZED;
}

static uint64_t probes_of(const fkc_growth_cfg *cfg)
{
    uint64_t end = cfg->n0 << cfg->doublings;
    return cfg->probes ? cfg->probes : end < (UINT64_C(1) << 20) ? end : UINT64_C(1) << 20;
}

/* Times the absent keys: best of 3 passes, single then batched. */
static void time_lookups(const fkc_growth_cfg *cfg, const fk_filter *f, const uint64_t *absent, uint64_t n,
                         bool *answers, fkc_growth_point *pt)
{
    double best = INFINITY, bbest = INFINITY;
    uint64_t hits = 0;
    for (int rep = 0; rep < 3; rep++) {
        uint64_t h = 0, t0 = fkc_now_ns();
        for (uint64_t i = 0; i < n; i++)
            h += fk_filter_contains_u64(f, absent[i]);
        double t = fkc_ns_per_op(t0, fkc_now_ns(), n);
        best = t < best ? t : best;
        hits = h;
        if (!cfg->batches)
            continue;
        t0 = fkc_now_ns();
        for (uint64_t i = 0; i < n; i += BATCH)
            fk_filter_contains_many_u64(f, n - i < BATCH ? (size_t)(n - i) : BATCH, absent + i, answers + i);
        t = fkc_ns_per_op(t0, fkc_now_ns(), n);
        bbest = t < bbest ? t : bbest;
    }
    pt->absent_ns = best;
    pt->absent_batch_ns = cfg->batches ? bbest : NAN;
    pt->measured_fpr = n ? (double)hits / (double)n : NAN;
}

fk_status fkc_growth_run(const fkc_growth_cfg *cfg, const fk_ops *ops, fkc_growth_point *pts, size_t *npts,
                         const char *progress)
{
    return fkc_growth_run_as(cfg, ops, fkc_growth_role_of(ops), pts, npts, progress);
}

fk_status fkc_growth_run_as(const fkc_growth_cfg *cfg, const fk_ops *ops, fkc_growth_role role,
                            fkc_growth_point *pts, size_t *npts, const char *progress)
{
    *npts = 0;
    uint64_t end = cfg->n0 << cfg->doublings, probes = probes_of(cfg);
    uint64_t *keys = malloc(end * sizeof *keys), *absent = malloc(probes * sizeof *absent);
    bool *answers = malloc(probes ? probes : 1);
    fk_filter *f = NULL;
    fk_status s = keys && absent && answers ? FK_OK : FK_ENOMEM;
    if (s == FK_OK) {
        fk_params p = fk_params_make(role == FKC_PRESIZED ? end : cfg->n0, cfg->fpr);
        p.seed = cfg->seed;
        s = fk_filter_new(ops, &p, &f);
    }
    if (s != FK_OK)
        goto out;
    for (uint64_t j = 0; j < end; j++)
        keys[j] = fkc_gen_word(cfg->seed, j);
    for (uint64_t i = 0; i < probes; i++)
        absent[i] = fkc_gen_word(cfg->seed, end + i);
    uint64_t done = 0, insert_ns = 0;
    for (unsigned g = 0; g <= cfg->doublings; g++) {
        uint64_t upto = cfg->n0 << g, t0 = fkc_now_ns();
        int stopped = 0;
        for (; done < upto; done++) {
            s = fk_filter_insert_u64(f, keys[done]);
            while (s == FK_EFULL && role == FKC_IN_PLACE && (s = fk_filter_grow(f)) == FK_OK)
                s = fk_filter_insert_u64(f, keys[done]);
            if (s != FK_OK)
                break;
        }
        insert_ns += fkc_now_ns() - t0;
        if (s != FK_OK && role == FKC_IN_PLACE && done > 0) {
            stopped = 1; /* cannot double again: its last point, where it stopped */
            s = FK_OK;
        } else if (s != FK_OK) {
            goto out;
        }
        fkc_growth_point *pt = &pts[(*npts)++];
        fk_stats st;
        fk_filter_stats(f, &st);
        *pt = (fkc_growth_point){ .ops = ops, .role = role, .doubling = g, .keys = done, .stopped = stopped,
                                  .memory_bytes = st.memory_bytes,
                                  .bits_per_key = 8.0 * (double)st.memory_bytes / (double)done,
                                  .insert_ns = (double)insert_ns / (double)done };
        time_lookups(cfg, f, absent, probes, answers, pt);
        if (progress)
            fprintf(stderr, "%s%s (%s): %llu keys (x%llu)%s\n", progress, ops->name, fkc_growth_role_name(role),
                    (unsigned long long)done, (unsigned long long)(UINT64_C(1) << g),
                    stopped ? ", cannot double again" : "");
        if (stopped)
            break;
    }
out:
    fk_filter_free(f);
    free(keys);
    free(absent);
    free(answers);
    return s;
}

/* ------------------------------------------------------------ reports */

/* A run is a kind in a role: a kind may run twice (grown, pre-sized). */
static const fkc_growth_point *last_of(const fkc_growth_point *pts, size_t n, const fkc_growth_point *run)
{
    const fkc_growth_point *last = NULL;
    for (size_t i = 0; i < n; i++)
        if (pts[i].ops == run->ops && pts[i].role == run->role)
            last = &pts[i];
    return last;
}

static double worst_fpr(const fkc_growth_point *pts, size_t n, const fkc_growth_point *run)
{
    double w = 0;
    for (size_t i = 0; i < n; i++)
        if (pts[i].ops == run->ops && pts[i].role == run->role && pts[i].measured_fpr > w)
            w = pts[i].measured_fpr;
    return w;
}

void fkc_growth_table(FILE *out, const fkc_growth_cfg *cfg, const fkc_growth_point *pts, size_t n,
                      const char *reference)
{
    fprintf(out, "filterkit bench: growth from n0=%llu to x%llu, fpr=%g, seed=%llu, %llu absent keys per point\n\n",
            (unsigned long long)cfg->n0, (unsigned long long)(UINT64_C(1) << cfg->doublings), cfg->fpr,
            (unsigned long long)cfg->seed, (unsigned long long)probes_of(cfg));
    fprintf(out, "%-10s %-6s %-18s %-9s %9s %10s %10s %10s %10s\n", "keys", "growth", "filter", "how",
            "bits/key", "FPR %", "absent ns", "batch ns", "insert ns");
    for (size_t i = 0; i < n; i++) {
        const fkc_growth_point *p = &pts[i];
        fprintf(out, "%-10llu x%-5llu %-18s %-9s %9.2f %10.4f %10.1f %10.1f %10.1f%s\n",
                (unsigned long long)p->keys, (unsigned long long)(UINT64_C(1) << p->doubling), p->ops->name,
                fkc_growth_role_name(p->role), p->bits_per_key, 100.0 * p->measured_fpr, p->absent_ns,
                p->absent_batch_ns, p->insert_ns, p->stopped ? "  (cannot double again)" : "");
    }
    const fkc_growth_point *ref = NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(pts[i].ops->name, reference) == 0 && (!ref || pts[i].role == FKC_PRESIZED))
            ref = last_of(pts, n, &pts[i]);
    fprintf(out, "\nAt the end (insert ns: per key over the whole growth; x: over %s):\n",
            ref ? reference : "no reference");
    fprintf(out, "%-18s %-9s %10s %9s %10s %10s %7s %10s %7s %10s %7s\n", "filter", "how", "keys", "bits/key",
            "worst FPR%", "absent ns", "x", "batch ns", "x", "insert ns", "x");
    for (size_t i = 0; i < n; i++) {
        if (last_of(pts, n, &pts[i]) != &pts[i])
            continue;
        const fkc_growth_point *p = &pts[i];
        fprintf(out, "%-18s %-9s %10llu %9.2f %10.4f %10.1f %7.2f %10.1f %7.2f %10.1f %7.2f\n", p->ops->name,
                fkc_growth_role_name(p->role), (unsigned long long)p->keys, p->bits_per_key,
                100.0 * worst_fpr(pts, n, p), p->absent_ns, ref ? p->absent_ns / ref->absent_ns : NAN,
                p->absent_batch_ns, ref ? p->absent_batch_ns / ref->absent_batch_ns : NAN, p->insert_ns,
                ref ? p->insert_ns / ref->insert_ns : NAN);
    }
}

void fkc_growth_csv(FILE *out, const fkc_growth_cfg *cfg, const fkc_growth_point *pts, size_t n)
{
    fprintf(out, "filter,how,n0,growth,fpr,seed,probes,doubling,keys,stopped,memory_bytes,bits_per_key,"
                 "measured_fpr,absent_ns,absent_batch_ns,insert_ns\n");
    for (size_t i = 0; i < n; i++) {
        const fkc_growth_point *p = &pts[i];
        fprintf(out, "%s,%s,%llu,%llu,%.17g,%llu,%llu,%u,%llu,%d,%llu,%.4f,%.6g,%.3f,%.3f,%.3f\n", p->ops->name,
                fkc_growth_role_name(p->role), (unsigned long long)cfg->n0,
                (unsigned long long)(UINT64_C(1) << cfg->doublings), cfg->fpr, (unsigned long long)cfg->seed,
                (unsigned long long)probes_of(cfg), p->doubling, (unsigned long long)p->keys, p->stopped,
                (unsigned long long)p->memory_bytes, p->bits_per_key, p->measured_fpr, p->absent_ns,
                p->absent_batch_ns, p->insert_ns);
    }
}
