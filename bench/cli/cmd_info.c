/* bench/cli/cmd_info.c: `filterkit info [--json] FILTER`: what a saved filter is
 * -- kind, geometry, sizes, fill and expected false-positive rate -- as
 * aligned text or as one JSON object with the same fields. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "operands.h"
#include "../report/report.h"
#include "../report/units.h"
#include "../../common/hash.h"
#include "../../common/serial.h"

/* One line of the description: its text label, its JSON key, and a value
 * of one of three types. */
/* F_NS: a duration in ns, F_UNIX_NS: a point in Unix ns (text: in human
 * units, the ns after; JSON: the ns). */
typedef enum { F_U64, F_BYTES, F_DOUBLE, F_STR, F_BOOL, F_NS, F_UNIX_NS } field_type;
typedef struct {
    char        label[40];
    char        key[40];
    field_type  type;
    uint64_t    u;
    double      d;
    const char *s;
    const char *note; /* text form only, after the value */
} field;

#define MAX_FIELDS (24 + FK_SERIAL_PARAMS + FK_DESCRIBE_MAX_ROWS)

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

/* ns as a duration a reader takes in at once: "1.5 s", "10 min". */
static void human_ns(uint64_t ns, char *buf, size_t len)
{
    static const struct {
        double      ns;
        const char *unit;
    } units[] = { { 86400e9, "d" }, { 3600e9, "h" }, { 60e9, "min" }, { 1e9, "s" },
                  { 1e6, "ms" },    { 1e3, "us" },   { 1, "ns" } };
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof *units && (double)ns < units[u].ns)
        u++;
    snprintf(buf, len, "%.4g %s", (double)ns / units[u].ns, units[u].unit);
}

/* a point in Unix ns as UTC: "2026-11-29 10:31:02.250 UTC" */
static void human_unix_ns(uint64_t ns, char *buf, size_t len)
{
    time_t t = (time_t)(ns / 1000000000u);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm)) {
        snprintf(buf, len, "?");
        return;
    }
    size_t at = strlen(buf);
    snprintf(buf + at, len - at, ".%03u UTC", (unsigned)(ns / 1000000u % 1000u));
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
        case F_BOOL:
            printf("%s", f->u ? "yes" : "no");
            break;
        case F_NS:
        case F_UNIX_NS:
            (f->type == F_NS ? human_ns : human_unix_ns)(f->u, human, sizeof human);
            printf("%s (%llu ns)", human, (unsigned long long)f->u);
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

/* The rows of a growing filter's links: a row named "link" (its index)
 * begins a link, the rows named link_* after it are its figures. */
static bool is_link_row(const fk_describe_row *r)
{
    return strncmp(r->name, "link", 4) == 0 && (r->name[4] == 0 || r->name[4] == '_');
}

static double link_value(const fk_describe_row *rows, size_t n, size_t at, const char *name)
{
    for (size_t i = at + 1; i < n && strcmp(rows[i].name, "link") != 0 && is_link_row(&rows[i]); i++)
        if (strcmp(rows[i].name, name) == 0)
            return rows[i].type == FK_DESCRIBE_DOUBLE ? rows[i].value.d : (double)rows[i].value.u64;
    return 0;
}

static size_t link_count(const fk_describe_row *rows, size_t n)
{
    size_t links = 0;
    for (size_t i = 0; i < n; i++)
        links += strcmp(rows[i].name, "link") == 0;
    return links;
}

/* A growing filter's links, oldest first, one line (text) or one object
 * (JSON) each, from its rows. */
static void print_chain_text(const fk_describe_row *rows, size_t n)
{
    const fk_describe_row *inner = fk_describe_find(rows, n, "inner_kind");
    printf("chain:           %zu links of %s, newest last (takes the inserts)\n",
           link_count(rows, n), inner && inner->type == FK_DESCRIBE_STRING ? inner->value.s : "?");
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].name, "link") != 0)
            continue;
        char human[32];
        fkc_human_bytes((uint64_t)link_value(rows, n, i, "link_memory_bytes"), human, sizeof human);
        printf("  link %-3llu capacity %.0f, items %.0f, %s, sized for fpr %.4g, expected %.4g\n",
               (unsigned long long)rows[i].value.u64, link_value(rows, n, i, "link_capacity"),
               link_value(rows, n, i, "link_items"), human,
               link_value(rows, n, i, "link_target_fpr"),
               link_value(rows, n, i, "link_expected_fpr"));
    }
}

static void print_chain_json(const fk_describe_row *rows, size_t n)
{
    printf(",\n  \"chain\": [");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(rows[i].name, "link") != 0)
            continue;
        printf("%s\n    {\"capacity\": %.0f, \"items\": %.0f, \"memory_bytes\": %.0f, "
               "\"target_fpr\": ", k++ ? "," : "", link_value(rows, n, i, "link_capacity"),
               link_value(rows, n, i, "link_items"), link_value(rows, n, i, "link_memory_bytes"));
        print_shortest(link_value(rows, n, i, "link_target_fpr"));
        printf(", \"expected_fpr\": ");
        print_shortest(link_value(rows, n, i, "link_expected_fpr"));
        printf("}");
    }
    printf("\n  ]");
}

static void print_json(const field *fs, size_t n, const fk_describe_row *rows, size_t nrows)
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
        else if (f->type == F_BOOL)
            printf("%s", f->u ? "true" : "false");
        else
            printf("%llu", (unsigned long long)f->u);
    }
    if (link_count(rows, nrows))
        print_chain_json(rows, nrows);
    printf("\n}\n");
}

/* Words and notes for some rows (text form; the JSON key is the row's
 * name): what a reader of `filterkit info` has always seen. */
static const struct {
    const char *row, *label, *note;
} row_hints[] = {
    { "inner_kind", "inner kind", NULL },
    { "generation", "current generation", NULL },
    { "oldest_age", "oldest age", "(since the oldest live generation began)" },
    { "live", "live slots", "(at most 8L)" },
    { "generation_slots", "fill per generation", "(live slots, current first)" },
    { "generation_inserts", "inserts per generation", "(current first)" },
    { "stashed", NULL, "(keys beside the table: walks that failed)" },
    { "refused", NULL, "(inserts past a time window's rate)" },
    { "estimated_items", NULL, "(distinct keys, from the set bits)" },
    { "lookup_reads", NULL, "(random places a lookup reads: out of cache, a miss each)" },
};

/* A row name's text label: its hint's, else the name with spaces. */
static void row_label(const char *name, char *label, size_t len, const char **note)
{
    *note = NULL;
    for (size_t i = 0; i < sizeof row_hints / sizeof *row_hints; i++)
        if (strcmp(row_hints[i].row, name) == 0) {
            *note = row_hints[i].note;
            if (row_hints[i].label) {
                snprintf(label, len, "%s", row_hints[i].label);
                return;
            }
        }
    snprintf(label, len, "%s", name);
    for (char *c = label; *c; c++)
        if (*c == '_')
            *c = ' ';
}

/* Whether the header parameter whose JSON key is key is better shown by
 * the kind's row of that name: the row has a unit (a window's "window":
 * its N inserts or its span in ns, where the header's span is 0 for a
 * count window) or words of its own (row_hints), so the parameter is
 * listed once, as that row. */
static bool shown_by_row(const fk_describe_row *rows, size_t n, const char *key)
{
    const fk_describe_row *r = fk_describe_find(rows, n, key);
    if (!r)
        return false;
    if (r->unit)
        return true;
    for (size_t i = 0; i < sizeof row_hints / sizeof *row_hints; i++)
        if (strcmp(row_hints[i].row, key) == 0)
            return true;
    return false;
}

/* Whether the file header's parameter `key` is a figure the kind also
 * gives as a row under another name (cuckoo's and fuse's "fp bits (f)" is
 * their fingerprint_bits, cuckoo's "kicks so far" its kicks): listed once,
 * as the row. */
static bool named_otherwise_by_row(const fk_describe_row *rows, size_t n, const char *key)
{
    static const struct {
        const char *param, *row;
    } same[] = { { "fp_bits", "fingerprint_bits" }, { "kicks_so_far", "kicks" } };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        if (strcmp(same[i].param, key) == 0 && fk_describe_find(rows, n, same[i].row))
            return true;
    return false;
}

/* The length of name without a "_<digits>" suffix (its whole length when
 * it has none): rows x_0, x_1, ... are one list x. */
static size_t list_stem(const char *name)
{
    size_t len = strlen(name), k = len;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--;
    return k < len && k > 1 && name[k - 1] == '_' ? k - 1 : len;
}

/* Adds every row not already shown (by its JSON key) as a field; a list
 * of u64 rows x_0, x_1, ... as one field x of its values; the rows of a
 * growing filter's links go to the chain instead. */
static void add_rows(field *fs, size_t *n, const fk_describe_row *rows, size_t nrows)
{
    static char lists[FK_DESCRIBE_MAX_ROWS][8 * 24];
    size_t nlists = 0;
    for (size_t i = 0; i < nrows && *n < MAX_FIELDS; i++) {
        const fk_describe_row *r = &rows[i];
        if (is_link_row(r))
            continue;
        char name[40], label[40];
        size_t stem = list_stem(r->name);
        snprintf(name, sizeof name, "%.*s", (int)stem, r->name);
        const char *note;
        row_label(name, label, sizeof label, &note);
        /* the JSON key is the row's name, as Python's describe() and
         * FK.INFO name it */
        char key[40];
        snprintf(key, sizeof key, "%s", name);
        /* the fields every filter shows after the rows (fk_stats, the
         * header's target) */
        static const char *const after[] = { "bits_per_item", "load_factor", "target_fpr",
                                             "expected_fpr" };
        bool shown = false;
        for (size_t k = 0; k < *n && !shown; k++)
            shown = strcmp(fs[k].key, key) == 0;
        for (size_t k = 0; k < sizeof after / sizeof *after && !shown; k++)
            shown = strcmp(after[k], key) == 0;
        if (stem < strlen(r->name)) { /* a list: all its rows at once */
            size_t at = 0, j = i;
            char *buf = nlists < FK_DESCRIBE_MAX_ROWS ? lists[nlists] : NULL;
            for (; j < nrows && list_stem(rows[j].name) == stem &&
                   strncmp(rows[j].name, r->name, stem) == 0; j++)
                if (buf && at < sizeof lists[0])
                    at += (size_t)snprintf(buf + at, sizeof lists[0] - at, "%s%llu", j > i ? " " : "",
                                           (unsigned long long)rows[j].value.u64);
            i = j - 1;
            if (shown || !buf)
                continue;
            nlists++;
            field *x = add(fs, n, label, F_STR);
            snprintf(x->key, sizeof x->key, "%s", key);
            x->s = buf;
            x->note = note;
            continue;
        }
        if (shown || (r->type == FK_DESCRIBE_STRING && !r->value.s)) /* none: nothing to show */
            continue;
        field *x = add(fs, n, label, F_U64);
        snprintf(x->key, sizeof x->key, "%s", key);
        x->note = note;
        bool ns = r->type == FK_DESCRIBE_U64 && r->unit && strcmp(r->unit, "ns") == 0;
        if (ns) /* Unix ns: "now" and "next_boundary" are points, the rest spans */
            x->type = strcmp(name, "now") == 0 || strcmp(name, "next_boundary") == 0 ? F_UNIX_NS : F_NS;
        if (r->unit && !ns) { /* "(inserts)", "(caller ticks; since ...)" */
            static char units[FK_DESCRIBE_MAX_ROWS][96];
            static size_t nunits;
            if (nunits < FK_DESCRIBE_MAX_ROWS) {
                if (note)
                    snprintf(units[nunits], sizeof units[0], "(%s; %s", r->unit, note + 1);
                else
                    snprintf(units[nunits], sizeof units[0], "(%s)", r->unit);
                x->note = units[nunits++];
            }
        }
        switch (r->type) {
        case FK_DESCRIBE_U64: x->u = r->value.u64; break; /* type: F_U64 or F_NS */
        case FK_DESCRIBE_DOUBLE: x->type = F_DOUBLE; x->d = r->value.d; break;
        case FK_DESCRIBE_BOOL: x->type = F_BOOL; x->u = r->value.b; break;
        case FK_DESCRIBE_STRING: x->type = F_STR; x->s = r->value.s; break;
        }
    }
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

    /* the kind's own rows (fk_filter_describe), one loop for every kind */
    size_t nrows = 0;
    fk_describe_row *rows = NULL;
    if (fk_filter_describe(f, NULL, 0, &nrows) == FK_ELIMIT &&
        (rows = malloc(nrows * sizeof *rows)) != NULL &&
        fk_filter_describe(f, rows, nrows, &nrows) != FK_OK)
        nrows = 0;
    if (!rows)
        nrows = 0;

    field fs[MAX_FIELDS];
    size_t n = 0;
    add(fs, &n, "file", F_STR)->s = path;
    add(fs, &n, "kind", F_STR)->s = ops->name;
    add(fs, &n, "format version", F_U64)->u = h.version;
    field *x = add(fs, &n, "hashing scheme", F_U64);
    x->u = h.hash_scheme;
    x->note = h.hash_scheme == FK_HASH_SCHEME_PARQUET_XXH64
                  ? "(Parquet: XXH64 seed 0 of the PLAIN encoding), checksum ok"
                  : "(XXH3-128), checksum ok";
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
        if (name && strcmp(name, "clock") == 0) {
            /* shown when the filter has a clock (its rows name it) */
            size_t nr = 0;
            fk_describe_row cr[FK_DESCRIBE_MAX_ROWS];
            const fk_describe_row *clock = NULL;
            if (fk_filter_describe(f, cr, FK_DESCRIBE_MAX_ROWS, &nr) != FK_OK ||
                !(clock = fk_describe_find(cr, nr, "clock")) || clock->type != FK_DESCRIBE_STRING ||
                !clock->value.s)
                continue;
            x = add(fs, &n, label, F_U64);
            x->u = h.param[i];
            x->note = h.param[i] == FK_CLOCK_UNIX_NS ? "(unix_ns: Unix time in ns, CLOCK_REALTIME)"
                      : h.param[i] == FK_CLOCK_CALLER ? "(caller: the caller's own ticks, unit unknown)"
                                                      : "(a clock this version does not know)";
            continue;
        }
        char key[40];
        json_key(label, key, sizeof key);
        if (name && (shown_by_row(rows, nrows, key) || named_otherwise_by_row(rows, nrows, key)))
            continue;
        if (name && strcmp(name, "newest link full (0/1)") == 0 && !json && !raw) {
            add(fs, &n, "newest link full", F_STR)->s = h.param[i] ? "yes" : "no";
            continue;
        }
        add(fs, &n, label, F_U64)->u = h.param[i];
    }
    add(fs, &n, "capacity", F_U64)->u = st.capacity;
    add(fs, &n, "items", F_U64)->u = st.items;
    add_rows(fs, &n, rows, nrows);
    x = add(fs, &n, "bits per item", F_DOUBLE);
    x->d = st.bits_per_item;
    x->note = "(at capacity)";
    add(fs, &n, "load factor", F_DOUBLE)->d = st.load_factor;
    add(fs, &n, "target fpr", F_DOUBLE)->d = h.fpr;
    x = add(fs, &n, "expected fpr", F_DOUBLE);
    x->d = st.expected_fpr;
    x->note = "(at the current load)";
    if (json) {
        print_json(fs, n, rows, nrows);
    } else {
        print_text(fs, n);
        if (link_count(rows, nrows))
            print_chain_text(rows, nrows);
    }
    free(rows);
    fk_filter_free(f);
    return 0;
}
