/* bench/cli/cmd_info.c: `filterkit info [--json] FILTER`: what a saved filter is
 * -- kind, geometry, sizes, fill and expected false-positive rate -- as
 * aligned text or as one JSON object with the same fields. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "operands.h"
#include "../report/report.h"
#include "../report/units.h"
#include "../../bloom/bloom.h"
#include "../../scalable/scalable.h"
#include "../../window/window.h"

/* One line of the description: its text label, its JSON key, and a value
 * of one of three types. */
typedef enum { F_U64, F_BYTES, F_DOUBLE, F_STR } field_type;
typedef struct {
    char        label[40];
    char        key[40];
    field_type  type;
    uint64_t    u;
    double      d;
    const char *s;
    const char *note; /* text form only, after the value */
} field;

#define MAX_FIELDS (24 + FK_SERIAL_PARAMS)

/* Header parameters a reader cannot act on: the kick generator's state, the
 * cuckoo bucket map's encoding, fuse's construction seed, and two that the
 * text shows in user terms ("inner kind", "tightening"). The text form
 * lists them only with --raw; --json always has them (a program may
 * compare files by them). */
static const char *const internal_params[] = {
    "kick rng state", "cuckoo scheme", "chunk bits", "hash seed",
    "inner kind id", "tightening (r), f64 bits",
};

static int is_internal(const char *name)
{
    for (size_t i = 0; i < sizeof internal_params / sizeof *internal_params; i++)
        if (strcmp(name, internal_params[i]) == 0)
            return 1;
    return 0;
}

/* "fp bits (f)" -> "fp_bits": the label up to " (", spaces as '_'. */
static void json_key(const char *label, char *key, size_t len)
{
    size_t n = strcspn(label, "(");
    while (n && label[n - 1] == ' ')
        n--;
    if (n >= len)
        n = len - 1;
    for (size_t i = 0; i < n; i++)
        key[i] = label[i] == ' ' ? '_' : label[i];
    key[n] = 0;
}

static field *add(field *fs, size_t *n, const char *label, field_type type)
{
    field *f = &fs[(*n)++];
    memset(f, 0, sizeof *f);
    snprintf(f->label, sizeof f->label, "%s", label);
    json_key(label, f->key, sizeof f->key);
    f->type = type;
    return f;
}

static void print_text(const field *fs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const field *f = &fs[i];
        char human[32];
        size_t width = strlen(f->label) + 1;
        printf("%s:%*s", f->label, width < 17 ? (int)(17 - width) : 1, "");
        switch (f->type) {
        case F_U64:
            printf("%llu", (unsigned long long)f->u);
            break;
        case F_BYTES:
            fkc_human_bytes(f->u, human, sizeof human);
            printf("%s (%llu bytes)", human, (unsigned long long)f->u);
            break;
        case F_DOUBLE:
            printf("%.4g", f->d);
            break;
        case F_STR:
            printf("%s", f->s);
            break;
        }
        printf("%s%s\n", f->note ? " " : "", f->note ? f->note : "");
    }
}

/* The shortest decimal that reads back as exactly d (0.05, not
 * 0.050000000000000003). */
static void print_shortest(double d)
{
    char buf[32];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    printf("%s", buf);
}

/* A growing filter's links, oldest first, one line (text) or one object
 * (JSON) each. */
static void print_chain_text(const fk_filter *f)
{
    size_t links = fk_scalable_links(f);
    printf("chain:           %zu links of %s, newest last (takes the inserts)\n", links,
           fk_scalable_inner(f)->name);
    for (size_t i = 0; i < links; i++) {
        fk_stats ls;
        double target = 0;
        char human[32];
        fk_scalable_link_stats(f, i, &ls, &target);
        fkc_human_bytes(ls.memory_bytes, human, sizeof human);
        printf("  link %-3zu capacity %llu, items %llu, %s, sized for fpr %.4g, expected %.4g\n",
               i, (unsigned long long)ls.capacity, (unsigned long long)ls.items, human, target,
               ls.expected_fpr);
    }
}

static void print_chain_json(const fk_filter *f)
{
    size_t links = fk_scalable_links(f);
    printf(",\n  \"chain\": [");
    for (size_t i = 0; i < links; i++) {
        fk_stats ls;
        double target = 0;
        fk_scalable_link_stats(f, i, &ls, &target);
        printf("%s\n    {\"capacity\": %llu, \"items\": %llu, \"memory_bytes\": %llu, "
               "\"target_fpr\": ", i ? "," : "", (unsigned long long)ls.capacity,
               (unsigned long long)ls.items, (unsigned long long)ls.memory_bytes);
        print_shortest(target);
        printf(", \"expected_fpr\": ");
        print_shortest(ls.expected_fpr);
        printf("}");
    }
    printf("\n  ]");
}

static void print_json(const field *fs, size_t n, const fk_filter *filter)
{
    printf("{");
    for (size_t i = 0; i < n; i++) {
        const field *f = &fs[i];
        printf("%s\n  ", i ? "," : "");
        fkc_json_string(stdout, f->key);
        printf(": ");
        if (f->type == F_STR)
            fkc_json_string(stdout, f->s);
        else if (f->type == F_DOUBLE && !isfinite(f->d))
            printf("null");
        else if (f->type == F_DOUBLE)
            print_shortest(f->d);
        else
            printf("%llu", (unsigned long long)f->u);
    }
    if (fk_scalable_links(filter))
        print_chain_json(filter);
    printf("\n}\n");
}

int fkc_cmd_info(int argc, char **argv)
{
    int json = 0, raw = 0;
    const fkc_opt opts[] = {
        { "json", FKC_OPT_FLAG, &json, NULL, "print one JSON object (the same fields, sizes in bytes)" },
        { "raw", FKC_OPT_FLAG, &raw, NULL, "also list the header's internal parameters (kick rng state, ...); --json always has them" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = {
        "info", "[--json] [--raw] FILTER",
        "Describes a saved filter (a file written by 'filterkit build'): its kind,\n"
        "parameters, sizes, fill and the false-positive rate expected at that fill;\n"
        "for a Bloom filter also the distinct items estimated from its set bits; for\n"
        "a growing kind (scalable-*) each link of its chain.\n"
        "The header is checked first, so a file that is not a filter fails at once.\n"
        "Exit status 1 when the file is not a valid filter.",
        opts,
    };
    const char *path = NULL;
    int rc = fkc_args_parse_operands(&spec, NULL, argc, argv, &path, 1, "FILTER");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    fk_filter *f = NULL;
    fk_serial_head h;
    uint64_t bytes = 0;
    if (fkc_filterfile_load(spec.name, path, &f, &h, &bytes) != 0)
        return 1;
    fk_stats st;
    fk_filter_stats(f, &st);
    const fk_ops *ops = fk_filter_ops(f);

    field fs[MAX_FIELDS];
    size_t n = 0;
    add(fs, &n, "file", F_STR)->s = path;
    add(fs, &n, "kind", F_STR)->s = ops->name;
    add(fs, &n, "format version", F_U64)->u = h.version;
    field *x = add(fs, &n, "hashing scheme", F_U64);
    x->u = h.hash_scheme;
    x->note = "(XXH3-128), checksum ok";
    add(fs, &n, "file bytes", F_BYTES)->u = bytes;
    add(fs, &n, "memory bytes", F_BYTES)->u = st.memory_bytes;
    add(fs, &n, "seed", F_U64)->u = h.seed;
    for (unsigned i = 0; i < FK_SERIAL_PARAMS; i++) {
        const char *name = fkc_filterfile_param_name(h.kind_id, i);
        char label[40];
        if (name && is_internal(name) && !json && !raw)
            continue;
        if (name)
            snprintf(label, sizeof label, "%s", name);
        else if (h.param[i])
            snprintf(label, sizeof label, "parameter %u", i);
        else
            continue;
        if (name && h.kind_id == FK_KIND_WINDOW && strcmp(name, "clock") == 0)
            continue; /* shown with the window's own rows, named */
        if (name && strcmp(name, "newest link full (0/1)") == 0 && !json && !raw) {
            add(fs, &n, "newest link full", F_STR)->s = h.param[i] ? "yes" : "no";
            continue;
        }
        add(fs, &n, label, F_U64)->u = h.param[i];
    }
    uint32_t growth;
    double tightening;
    if (fk_scalable_knobs(f, &growth, &tightening) == FK_OK) {
        add(fs, &n, "inner kind", F_STR)->s = fk_scalable_inner(f)->name;
        add(fs, &n, "tightening", F_DOUBLE)->d = tightening;
    }
    add(fs, &n, "capacity", F_U64)->u = st.capacity;
    add(fs, &n, "items", F_U64)->u = st.items;
    if (ops == &fk_bloom_ops) {
        fk_bloom_description d;
        fk_bloom_describe((const fk_bloom *)f, &d);
        double est = round(d.estimated_items);
        x = add(fs, &n, "estimated items", isfinite(est) ? F_U64 : F_DOUBLE); /* inf: every bit set */
        x->u = isfinite(est) ? (uint64_t)est : 0;
        x->d = est;
        x->note = "(distinct keys, from the set bits)";
    }
    fk_window_description wd;
    static char fill[8 * 48];
    if (ops == &fk_window_ops) {
        fk_window_describe((const fk_window *)f, &wd);
        x = add(fs, &n, "window", F_U64);
        x->u = wd.window;
        x->note = !wd.timed ? "(inserts)"
                  : wd.clock == FK_CLOCK_UNIX_NS ? "(ns)" : "(ticks of the caller's clock)";
        if (wd.timed) {
            x = add(fs, &n, "clock", F_U64);
            x->u = wd.clock;
            x->note = wd.clock == FK_CLOCK_UNIX_NS ? "(unix_ns: Unix time in ns, CLOCK_REALTIME)"
                                                   : "(caller: the caller's own ticks, unit unknown)";
        }
        add(fs, &n, "current generation", F_U64)->u = wd.generation;
        x = add(fs, &n, "oldest age", F_U64);
        x->u = wd.oldest_age;
        x->note = wd.timed ? "(ticks since the oldest live generation began)"
                           : "(inserts since the oldest live generation began)";
        x = add(fs, &n, "live slots", F_U64);
        x->u = wd.live;
        x->note = "(at most 8L)";
        size_t at = 0;
        for (unsigned k = 0; k < FK_WINDOW_GENERATIONS; k++)
            at += (size_t)snprintf(fill + at, sizeof fill - at, "%s%llu", k ? " " : "",
                                   (unsigned long long)wd.generation_slots[k]);
        x = add(fs, &n, "fill per generation", F_STR);
        x->s = fill;
        x->note = "(live slots, current first)";
        x = add(fs, &n, "stashed", F_U64);
        x->u = wd.stashed;
        x->note = "(keys beside the table: walks that failed)";
        x = add(fs, &n, "refused", F_U64);
        x->u = wd.refused;
        x->note = "(inserts past a time window's rate)";
    }
    x = add(fs, &n, "bits per item", F_DOUBLE);
    x->d = st.bits_per_item;
    x->note = "(at capacity)";
    add(fs, &n, "load factor", F_DOUBLE)->d = st.load_factor;
    add(fs, &n, "target fpr", F_DOUBLE)->d = h.fpr;
    x = add(fs, &n, "expected fpr", F_DOUBLE);
    x->d = st.expected_fpr;
    x->note = "(at the current load)";
    if (json) {
        print_json(fs, n, f);
    } else {
        print_text(fs, n);
        if (fk_scalable_links(f))
            print_chain_text(f);
    }
    fk_filter_free(f);
    return 0;
}
