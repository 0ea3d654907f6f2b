/* bench/trace/trace_window.c: `filterkit trace window`, a count window.
 *
 * Each step shows the key's hash, fingerprint and two buckets and where
 * its fingerprint sits (bucket, slot, generation) before and after, from
 * fk_window_locate; the generations' fill, each turn-over and what its
 * sweep freed from fk_window_describe, and which traced keys left with
 * it. Only the window's public calls and those two are used (the packed
 * table's layout is the module's own), so what the trace shows is what
 * the filter answers. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "../../window/window.h"
#include "../../window/window_internal.h"
#include "trace.h"

/* The traced keys: each distinct key's last accepted insert (1-based
 * number; 0 = never) and whether it was found before the step. */
typedef struct {
    const fkc_trace_step *steps;
    size_t                n;
    uint64_t             *last;  /* by the index of the key's first step */
    bool                 *found;
} history;

static size_t key_index(const history *h, const char *key, size_t len)
{
    for (size_t i = 0; i < h->n; i++)
        if (h->steps[i].len == len && memcmp(h->steps[i].key, key, len) == 0)
            return i;
    return h->n;
}

static void print_fp(FILE *out, int digits, uint32_t fp)
{
    fprintf(out, "0x%0*x", digits, fp);
}

static void print_location(FILE *out, int digits, const fk_window_location *loc)
{
    fprintf(out, "  hash 0x%016llx\n", (unsigned long long)loc->hash);
    fputs("  fingerprint ", out);
    print_fp(out, digits, loc->fingerprint);
    fputc('\n', out);
    fprintf(out, "  i1 %llu\n", (unsigned long long)loc->i1);
    fprintf(out, "  i2 %llu\n", (unsigned long long)loc->i2);
}

/* "bucket 3 (i1) slot 0, generation 4 (the current one)" */
static void print_place(FILE *out, const fk_window_location *loc)
{
    fprintf(out, "bucket %llu (i%d) slot %d, generation %llu ",
            (unsigned long long)(loc->bucket == 1 ? loc->i1 : loc->i2), loc->bucket, loc->slot,
            (unsigned long long)loc->generation);
    if (loc->age == 0)
        fputs("(the current one)", out);
    else
        fprintf(out, "(%llu back)", (unsigned long long)loc->age);
}

/* "generations (current first): g5 1 | g4 2 | ...; live 7 of 36 slots (at most 16)" */
static void print_generations(FILE *out, const fk_window_description *d)
{
    uint64_t shown = d->generation < FK_WINDOW_GENERATIONS - 1 ? d->generation + 1 : FK_WINDOW_GENERATIONS;
    fputs("  generations (current first, slots held):", out);
    for (uint64_t k = 0; k < shown; k++)
        fprintf(out, "%s g%llu %llu", k ? " |" : "", (unsigned long long)(d->generation - k),
                (unsigned long long)d->generation_slots[k]);
    fprintf(out, "; live %llu of %llu slots (at most %llu)\n", (unsigned long long)d->live,
            (unsigned long long)d->slots, (unsigned long long)d->live_budget);
}

/* Where the key stands against the window: its last insert `ago` inserts
 * back (1 = the latest); slack_end = 8L, from where no key is left. */
static void print_age(FILE *out, uint64_t last, uint64_t adds, uint64_t window, uint64_t slack_end)
{
    if (!last) {
        fputs(" (never inserted)", out);
        return;
    }
    uint64_t ago = adds - last + 1;
    fprintf(out, " (its last insert is %llu insert(s) back: ", (unsigned long long)ago);
    if (ago <= window)
        fprintf(out, "inside the window of %llu)", (unsigned long long)window);
    else if (ago < slack_end)
        fprintf(out, "past the window of %llu, in the slack)", (unsigned long long)window);
    else
        fprintf(out, "past the window and its slack)");
}

static void locate_all(const fk_window *w, history *h)
{
    for (size_t i = 0; i < h->n; i++) {
        fk_window_location loc;
        h->found[i] = key_index(h, h->steps[i].key, h->steps[i].len) == i &&
                      fk_window_locate(w, h->steps[i].key, h->steps[i].len, &loc) == FK_OK &&
                      loc.bucket != 0;
    }
}

static void trace_insert(FILE *out, fk_window *w, int digits, const fkc_trace_step *st,
                         const fk_window_location *before, history *h, uint64_t *adds)
{
    fk_window_description d0, d1;
    fk_window_describe(w, &d0);
    if (before->bucket) {
        fputs("  before: ", out);
        print_fp(out, digits, before->fingerprint);
        fputs(" is in ", out);
        print_place(out, before);
        fputs(": a refresh, the slot moves to the current generation\n", out);
    } else {
        fputs("  before: ", out);
        print_fp(out, digits, before->fingerprint);
        fputs(" is in neither bucket: it takes a free slot\n", out);
    }
    locate_all(w, h);
    fk_status r = fk_window_insert(w, st->key, st->len);
    fk_window_describe(w, &d1);
    fk_window_location after;
    fk_window_locate(w, st->key, st->len, &after);
    if (r != FK_OK) {
        fprintf(out, "  -> %s", fk_status_name(r));
        if (r == FK_EFULL)
            fprintf(out, ": no room after %llu kicks; every kick undone, the window exactly as before",
                    (unsigned long long)(d1.kicks - d0.kicks));
        fputc('\n', out);
        return;
    }
    (*adds)++;
    size_t k = key_index(h, st->key, st->len);
    if (k < h->n)
        h->last[k] = *adds;
    fputs("  -> FK_OK: ", out);
    print_fp(out, digits, after.fingerprint);
    fputs(" sits in ", out);
    print_place(out, &after);
    if (d1.kicks > d0.kicks)
        fprintf(out, " after %llu kick(s) (other fingerprints moved to their other bucket, tags kept)",
                (unsigned long long)(d1.kicks - d0.kicks));
    fputc('\n', out);
    if (d1.generation != d0.generation) {
        uint64_t g = d1.generation;
        fprintf(out, "  generation %llu is full (%llu inserts): generation %llu starts with tag %llu",
                (unsigned long long)d0.generation, (unsigned long long)d0.generation_length,
                (unsigned long long)g, (unsigned long long)(g & 7));
        if (g < FK_WINDOW_GENERATIONS) {
            fputs(", a tag no generation used yet: nothing to sweep\n", out);
        } else {
            fprintf(out, ", the tag of generation %llu (8 back): the sweep freed its %llu slot(s)\n",
                    (unsigned long long)(g - FK_WINDOW_GENERATIONS), (unsigned long long)d1.swept_last);
            bool any = false;
            for (size_t i = 0; i < h->n; i++) {
                fk_window_location loc;
                if (!h->found[i] || fk_window_locate(w, h->steps[i].key, h->steps[i].len, &loc) != FK_OK ||
                    loc.bucket != 0)
                    continue;
                fputs(any ? " " : "  traced keys gone with it: ", out);
                fkc_trace_print_key(out, h->steps[i].key, h->steps[i].len);
                any = true;
            }
            if (any)
                fputc('\n', out);
        }
    }
    print_generations(out, &d1);
}

static void trace_lookup(FILE *out, const fk_window *w, int digits, const fkc_trace_step *st,
                         const fk_window_location *loc, const history *h, uint64_t adds)
{
    fk_window_description d;
    fk_window_describe(w, &d);
    size_t k = key_index(h, st->key, st->len);
    uint64_t last = k < h->n ? h->last[k] : 0;
    bool hit = fk_window_contains(w, st->key, st->len);
    if (hit) {
        fputs("  -> maybe present: ", out);
        print_fp(out, digits, loc->fingerprint);
        fputs(" is in ", out);
        print_place(out, loc);
        if (!last)
            fputs(" (a false positive: this key was never inserted)", out);
        else if (adds - last + 1 >= 8 * d.generation_length)
            fputs(" (a false positive: its own insert was swept)", out);
        else
            print_age(out, last, adds, d.window, 8 * d.generation_length);
    } else {
        fputs("  -> definitely absent: ", out);
        print_fp(out, digits, loc->fingerprint);
        fputs(" is in neither bucket", out);
        print_age(out, last, adds, d.window, 8 * d.generation_length);
    }
    fputc('\n', out);
}

int fkc_trace_window(const fkc_trace_job *job)
{
    FILE *out = job->out;
    const fk_params *p = &job->params;
    if (p->fingerprint_bits &&
        (p->fingerprint_bits < FK_WINDOW_MIN_FP_BITS || p->fingerprint_bits > FK_WINDOW_MAX_FP_BITS)) {
        fprintf(stderr, "filterkit trace: --fp-bits: a window takes %u..%u\n", FK_WINDOW_MIN_FP_BITS,
                FK_WINDOW_MAX_FP_BITS);
        return 2;
    }
    fk_window *w;
    fk_status r = fk_window_new(p, &w);
    if (r != FK_OK) {
        fprintf(stderr, "filterkit trace: fk_window_new: %s\n", fk_strerror(r));
        return r == FK_EINVAL ? 2 : 1;
    }
    fk_window_description d;
    fk_window_describe(w, &d);
    if (d.buckets > FKC_TRACE_MAX_BUCKETS) {
        fprintf(stderr, "filterkit trace: the window would have %llu buckets; traces draw at most "
                        "%u (lower --capacity)\n",
                (unsigned long long)d.buckets, FKC_TRACE_MAX_BUCKETS);
        fk_window_free(w);
        return 2;
    }
    history h = { job->steps, job->nsteps, calloc(job->nsteps + 1, sizeof(uint64_t)),
                  calloc(job->nsteps + 1, sizeof(bool)) };
    if (!h.last || !h.found) {
        free(h.last);
        free(h.found);
        fk_window_free(w);
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    int digits = (int)((d.fingerprint_bits + 3) / 4);
    uint64_t L = d.generation_length;
    fprintf(out, "window filter (count): the last %llu inserts; %llu buckets x 4 slots, f = %u-bit "
            "fingerprints + 3-bit generation tags, seed %llu\n",
            (unsigned long long)d.window, (unsigned long long)d.buckets, d.fingerprint_bits,
            (unsigned long long)d.seed);
    fprintf(out, "  a generation lasts L = ceil(%llu / 7) = %llu inserts; the 8 tags name the current "
            "generation and the 7 before it, so a key answers present while it is among the last "
            "%llu to %llu inserts, its own counted (7L to 8L - 1, by its place in its generation): "
            "the window of %llu, then the slack\n",
            (unsigned long long)d.window, (unsigned long long)L, (unsigned long long)(7 * L),
            (unsigned long long)(8 * L - 1), (unsigned long long)d.window);
    fprintf(out, "  when a generation starts, its tag is the one of the generation 8 back: one pass "
            "(the sweep) empties that generation's slots first; at most %llu live slots (8L) of %llu\n",
            (unsigned long long)d.live_budget, (unsigned long long)d.slots);
    fputs("  each key: one XXH3-64 hash; fingerprint from its low 32 bits (never 0: 0 marks an\n"
          "  empty slot), i1 from the whole hash (multiply-high), i2 = s(fp) - i1 mod buckets,\n"
          "  so i1 = s(fp) - i2: either bucket finds the other. A key inserted again refreshes its\n"
          "  slot's tag instead of taking another\n", out);

    int status = 0;
    uint64_t adds = 0;
    for (size_t i = 0; i < job->nsteps && !status; i++) {
        const fkc_trace_step *st = &job->steps[i];
        fk_window_location loc;
        fkc_trace_print_heading(out, st);
        if (fk_window_locate(w, st->key, st->len, &loc) != FK_OK) {
            fputs("filterkit trace: fk_window_locate failed\n", stderr);
            status = 1;
            continue;
        }
        print_location(out, digits, &loc);
        if (st->op == FKC_TRACE_INSERT) {
            trace_insert(out, w, digits, st, &loc, &h, &adds);
        } else if (st->op == FKC_TRACE_LOOKUP) {
            trace_lookup(out, w, digits, st, &loc, &h, adds);
        } else {
            r = fk_filter_remove(fk_window_as_filter(w), st->key, st->len);
            fprintf(out, "  -> %s: a window cannot remove (two keys whose fingerprint and buckets "
                    "agree share one slot after a refresh; removing one would remove the other, a "
                    "false negative inside the window); keys leave by age\n", fk_status_name(r));
        }
    }
    fk_stats stats;
    fk_filter_stats(fk_window_as_filter(w), &stats);
    if (!status)
        fprintf(out, "\nafter %zu steps: %llu inserts, items (inserts of the live generations) %llu, "
                "load %.3f, fpr now %.4g\n", job->nsteps, (unsigned long long)adds,
                (unsigned long long)stats.items, stats.load_factor, stats.expected_fpr);
    free(h.last);
    free(h.found);
    fk_window_free(w);
    return status;
}
