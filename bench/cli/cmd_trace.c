/* bench/cli/cmd_trace.c: `filterkit trace`: argument parsing and the choice
 * of tracer (bench/trace/trace_<kind>.c; their shared helpers are in
 * bench/trace/trace.c). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "../trace/trace.h"
#include "../../blocked/blocked.h"
#include "../../bloom/bloom.h"
#include "../../counting/counting.h"
#include "../../cuckoo/cuckoo.h"
#include "../../fuse/fuse.h"
#include "../../quotient/quotient.h"
#include "../../window/window.h"
#include "../../expandable/expandable.h"
#include "../../ribbon/ribbon.h"
#include "../../registry/registry.h"

/* The kinds that can be traced, keyed by their ops (the registry resolves
 * the name): a kind without an entry here is not traceable. */
static const struct {
    const fk_ops *ops;
    int (*trace)(const fkc_trace_job *job);
} tracers[] = {
    { &fk_bloom_ops, fkc_trace_bloom },
    { &fk_blocked_ops, fkc_trace_blocked },
    { &fk_counting_ops, fkc_trace_counting },
    { &fk_cuckoo_ops, fkc_trace_cuckoo },
    { &fk_fuse_ops, fkc_trace_fuse },
    { &fk_quotient_ops, fkc_trace_quotient },
    { &fk_window_ops, fkc_trace_window },
    { &fk_expandable_ops, fkc_trace_expandable },
    { &fk_ribbon_ops, fkc_trace_ribbon },
};

static int (*tracer_of(const fk_ops *ops))(const fkc_trace_job *)
{
    for (size_t i = 0; ops && i < sizeof tracers / sizeof tracers[0]; i++)
        if (tracers[i].ops == ops)
            return tracers[i].trace;
    return NULL;
}

void fkc_trace_kinds(const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = 0;
    /* in the registry's order, as every other list of kinds */
    for (size_t i = 0; fk_ops_at(i) && used < len; i++) {
        if (!tracer_of(fk_ops_at(i)))
            continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? sep : "", fk_ops_at(i)->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* The load a trace sizes a cuckoo table for unless --max-load says. */
#define FKC_TRACE_CUCKOO_LOAD 0.125

/* "usage: filterkit trace KIND|KIND... [OPTIONS] ...", the kinds that can
 * be traced. */
static void usage_line(FILE *to)
{
    char kinds[256];
    fkc_trace_kinds("|", kinds, sizeof kinds);
    fprintf(to, "usage: filterkit trace %s [OPTIONS] [--insert] KEY... [--lookup KEY...] "
            "[--remove KEY...]\n", kinds);
}

static const char usage_more[] =
    "\n"
    "Builds one tiny filter and shows each step: the key's hash, its probe\n"
    "positions (bloom, counting) or its fingerprint, buckets i1 and i2 and\n"
    "every kick (cuckoo), and the filter's array after the step; blocked: the\n"
    "key's block, the bit in each of its eight words, and the block after it;\n"
    "fuse (static): one build from every --insert key, then each key's three\n"
    "cells, what they hold and their XOR beside its fingerprint; ribbon (static):\n"
    "one build, then each key's band (start slot and 128-bit row) and, column by\n"
    "column, the solved bits under it and their parity; window (a count\n"
    "window of the last N inserts): the generation each key's fingerprint sits in,\n"
    "each generation's fill, and when one turns over what its sweep freed.\n"
    "Keys are inserted, in order, until --lookup or --remove switches what\n"
    "happens to the keys after it (--insert switches back; -- ends options).\n"
    "\n"
    "options:\n"
    "  --kind, --filters K    the kind, when not given first (one of the usage's)\n"
    "  --n, --capacity N      items the filter is sized for (default 8)\n"
    "  --fpr P                target false-positive rate, 0.05 or 5% (default 0.05)\n"
    "  --seed S               hash seed (default 0)\n"
    "  --bits M               bloom/counting: bits or counters m (default: from N, P)\n"
    "  --hashes K             bloom/counting: probes per key k (default: from m, N)\n"
    "  --counter-bits C       counting: 4 or 8 (default 4)\n"
    "  --fp-bits F            cuckoo: fingerprint bits, 4..32; fuse, ribbon: 1..32;\n"
    "                         quotient: remainder bits; window: 4..29 (default: P)\n"
    "  --max-load L           cuckoo: the load the table is sized for (default 12.5%:\n"
    "                         enough buckets that a key's two buckets differ; 94%, a\n"
    "                         real filter's packing, shows kicks with a few keys);\n"
    "                         window: the load its 8L live slots fill (default 96%)\n"
    "\n"
    "example: filterkit trace cuckoo --capacity 8 --fp-bits 8 apple banana --lookup apple kiwi\n";

static int bad(const char *fmt, const char *arg)
{
    fputs("filterkit trace: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage_line(stderr);
    return 2;
}

/* Decimal digits only, no sign, no overflow. */
static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    uint64_t v;
    if (parse_u64(s, &v) || v < lo || v > hi)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Stores the value of option --opt (one of the names in fkc_cmd_trace) in p.
 * Returns 0, or 2 after a one-line error and the usage on stderr. */
static int set_option(fk_params *p, const char *opt, const char *v)
{
    int err;
    const char *want;
    if (strcmp(opt, "capacity") == 0) {
        err = parse_u64(v, &p->capacity) || p->capacity == 0;
        want = "a whole number >= 1";
    } else if (strcmp(opt, "fpr") == 0) {
        err = fkc_parse_fpr(v, &p->fpr); /* the rule of every option (args.h) */
        want = "a rate in (0,1), like 0.05 or 5%";
    } else if (strcmp(opt, "seed") == 0) {
        err = parse_u64(v, &p->seed);
        want = "a whole number";
    } else if (strcmp(opt, "bits") == 0) {
        err = parse_u64(v, &p->bits) || p->bits == 0 || p->bits > FKC_TRACE_MAX_CELLS;
        want = "1..4096: traces are for tiny filters";
    } else if (strcmp(opt, "hashes") == 0) {
        err = parse_u32(v, 1, 64, &p->hashes);
        want = "1..64";
    } else if (strcmp(opt, "max-load") == 0) {
        err = fkc_parse_ratio(v, &p->max_load) || p->max_load <= 0;
        want = "a load in (0,1], like 0.5 or 50%";
    } else if (strcmp(opt, "counter-bits") == 0) {
        err = parse_u32(v, 4, 8, &p->counter_bits) || (p->counter_bits != 4 && p->counter_bits != 8);
        want = "4 or 8";
    } else {
        err = parse_u32(v, 1, 32, &p->fingerprint_bits);
        want = "1..32 (cuckoo: 4..32)";
    }
    if (!err)
        return 0;
    fprintf(stderr, "filterkit trace: --%s: bad value '%s' (%s)\n", opt, v, want);
    usage_line(stderr);
    return 2;
}

int fkc_cmd_trace(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage_line(stdout);
            fputs(usage_more, stdout);
            return 0;
        }
    }
    char kinds[256], why[400];
    fkc_trace_kinds(", ", kinds, sizeof kinds);
    /* the kind: the first argument, or --kind K (--filters K) anywhere among the options */
    const char *kind = argc > 1 && strncmp(argv[1], "--", 2) != 0 ? argv[1] : NULL;
    fk_params p = fk_params_make(8, 0.05);
    fkc_trace_step *steps = calloc((size_t)argc, sizeof *steps);
    if (!steps) {
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    size_t n = 0;
    fkc_trace_op mode = FKC_TRACE_INSERT;
    int options_done = 0, status = 0;
    unsigned given = 0; /* the options given, by their index in valued[]: each once */
    for (int i = kind ? 2 : 1; i < argc && !status; i++) {
        const char *a = argv[i];
        if (options_done || strncmp(a, "--", 2) != 0) {
            steps[n].op = mode;
            steps[n].key = a;
            steps[n].len = strlen(a);
            n++;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            options_done = 1;
            continue;
        }
        if (strcmp(a, "--insert") == 0) { mode = FKC_TRACE_INSERT; continue; }
        if (strcmp(a, "--lookup") == 0) { mode = FKC_TRACE_LOOKUP; continue; }
        if (strcmp(a, "--remove") == 0) { mode = FKC_TRACE_REMOVE; continue; }

        /* Options with a value: "--name value" or "--name=value", under
         * either name of a pair of the shared vocabulary (args.h). */
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
        static const char *const valued[] = {
            "kind", "capacity", "fpr", "seed", "bits", "hashes", "counter-bits", "fp-bits", "max-load",
        };
        const char *other = fkc_args_synonym(name, nlen);
        const char *opt = NULL;
        unsigned bit = 0;
        for (size_t j = 0; j < sizeof valued / sizeof valued[0]; j++)
            if ((strlen(valued[j]) == nlen && strncmp(valued[j], name, nlen) == 0) ||
                (other && strcmp(valued[j], other) == 0)) {
                opt = valued[j];
                bit = 1u << j;
            }
        if (!opt) {
            status = bad("unknown option '%s'", a);
            break;
        }
        if (given & bit) { /* as fkc_args_parse: which value was meant? */
            status = bad("option '%s' given twice (under one of its names); give it once", a);
            break;
        }
        given |= bit;
        const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!v) {
            status = bad("option '%s' needs a value", a);
            break;
        }
        if (strcmp(opt, "kind") != 0)
            status = set_option(&p, opt, v);
        else if (kind)
            status = bad("%s: the kind is given twice; give it once", a);
        else
            kind = v;
    }
    int (*tracer)(const fkc_trace_job *) = kind ? tracer_of(fk_ops_find(kind)) : NULL;
    if (!status && !kind) {
        snprintf(why, sizeof why, "which filter? %s", kinds);
        status = bad("%s", why);
    } else if (!status && strchr(kind, ',')) {
        snprintf(why, sizeof why, "a trace shows one filter: give one kind, not the list '%.40s' (%s)",
                 kind, kinds);
        status = bad("%s", why);
    } else if (!status && !tracer) {
        snprintf(why, sizeof why, "unknown filter '%.40s' (one of: %s)", kind, kinds);
        status = bad("%s", why);
    }
    if (!status && p.fingerprint_bits && p.fingerprint_bits < 4 && tracer == fkc_trace_cuckoo)
        status = bad("%s", "--fp-bits: bad value (4..32 for cuckoo)");
    if (!status && n == 0)
        status = bad("%s", "no keys given");
    /* A trace's default cuckoo table: at the 94% a real filter packs to,
     * 8 items fit 3 buckets (blocks of 2 and 1), where a key in the
     * 1-bucket block has i1 = i2 and the alternate bucket never shows;
     * at 12.5% the same 8 items get 16 buckets, one power-of-two block. */
    if (!status && p.max_load == 0 && tracer == fkc_trace_cuckoo)
        p.max_load = FKC_TRACE_CUCKOO_LOAD;
    if (!status) {
        fkc_trace_job job = { p, steps, n, stdout };
        status = tracer(&job);
        fflush(stdout);
    }
    free(steps);
    return status;
}
