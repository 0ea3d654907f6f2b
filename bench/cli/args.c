/* bench/cli/args.c: see args.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "suggest.h"
#include "../../registry/registry.h"

/* ---------------------------------------------------- the vocabulary */

/* The options every command names alike, each pair one option under two
 * names: a command declares either name and answers to both. The first
 * name of a pair is printed first wherever both are shown. */
static const char *const synonyms[][2] = {
    { "kind", "filters" }, /* the kind of filter a command makes, or the kinds it runs */
    { "n", "capacity" },   /* a count of items: inserted, held, sized for */
};
#define NSYNONYMS (sizeof synonyms / sizeof synonyms[0])

static int name_is(const char *name, size_t len, const char *word)
{
    return strlen(word) == len && strncmp(word, name, len) == 0;
}

const char *fkc_args_synonym(const char *name, size_t len)
{
    for (size_t i = 0; name && i < NSYNONYMS; i++)
        for (int j = 0; j < 2; j++)
            if (name_is(name, len, synonyms[i][j]))
                return synonyms[i][!j];
    return NULL;
}

const fkc_opt *fkc_args_find(const fkc_cmd_spec *spec, const char *name, size_t len)
{
    const char *other = fkc_args_synonym(name, len);
    for (const fkc_opt *o = spec->opts; o && o->name; o++)
        if (name_is(name, len, o->name))
            return o;
    for (const fkc_opt *o = spec->opts; other && o && o->name; o++)
        if (strcmp(o->name, other) == 0)
            return o;
    return NULL;
}

/* The names an option is shown under: "--kind, --filters" in the
 * vocabulary's order, else "--name". */
static void shown_names(const fkc_opt *o, char *buf, size_t len)
{
    const char *other = fkc_args_synonym(o->name, strlen(o->name));
    if (!other) {
        snprintf(buf, len, "--%s", o->name);
        return;
    }
    int first = 0;
    for (size_t i = 0; i < NSYNONYMS; i++)
        first |= strcmp(synonyms[i][0], o->name) == 0;
    snprintf(buf, len, "--%s, --%s", first ? o->name : other, first ? other : o->name);
}

/* ----------------------------------------------------------- the kinds */

static const fk_ops *kind_at(const fkc_kind_opt *k, size_t i)
{
    return k->at ? k->at(i) : fk_ops_at(i);
}

int fkc_kind_opt_offers(const fkc_kind_opt *k, const fk_ops *ops)
{
    unsigned caps = fk_ops_caps(ops);
    return ops && (caps & k->need) == k->need && !(caps & k->refuse);
}

void fkc_kind_opt_names(const fkc_kind_opt *k, const char *sep, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (size_t i = 0; kind_at(k, i) && used < len; i++) {
        const fk_ops *ops = kind_at(k, i);
        if (!fkc_kind_opt_offers(k, ops))
            continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? sep : "", ops->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* The offered kind called name, or NULL. */
static const fk_ops *kind_named(const fkc_kind_opt *k, const char *name)
{
    for (size_t i = 0; kind_at(k, i); i++)
        if (strcmp(kind_at(k, i)->name, name) == 0 && fkc_kind_opt_offers(k, kind_at(k, i)))
            return kind_at(k, i);
    return NULL;
}

/* The offered kind nearest a misspelt name, or NULL. */
static const char *kind_suggest(const fkc_kind_opt *k, const char *typed)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; kind_at(k, i) && n < 63; i++)
        if (fkc_kind_opt_offers(k, kind_at(k, i)))
            names[n++] = kind_at(k, i)->name;
    names[n] = NULL;
    return fkc_suggest(typed, names);
}

/* ------------------------------------------------------ value parsers */

/* A number with an optional multiplier suffix from `suffixes` (a list of
 * {suffix, factor} pairs ending in {NULL, 0}); the result must be a whole
 * number in [0, 2^64). */
typedef struct { const char *suffix; double factor; } suffix_t;

/* strtod, limited to plain decimal text: digits, '.', an exponent. strtod
 * alone also takes leading blanks, signs, hex floats ("0x1p-3"), inf and
 * nan. A subnormal result (1e-320) is kept, not refused as a range error.
 * Returns 0 with the value and *end past the number, or -1. */
static int parse_decimal(const char *s, double *v, char **end)
{
    if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
        return -1;
    errno = 0;
    *v = strtod(s, end);
    if (*end == s || strspn(s, "0123456789.eE+-") < (size_t)(*end - s))
        return -1;
    if (errno == ERANGE && !(*v != 0 && isfinite(*v)))
        return -1; /* overflow, or underflow to 0 */
    return isfinite(*v) ? 0 : -1;
}

static int parse_scaled(const char *s, const suffix_t *suffixes, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    /* Plain digits first, so values above 2^53 stay exact. */
    unsigned long long whole = strtoull(s, &end, 10);
    if (*end == 0 && errno == 0 && end != s) {
        *out = (uint64_t)whole;
        return 0;
    }
    double v;
    if (parse_decimal(s, &v, &end))
        return -1;
    double factor = 1;
    if (*end) {
        const suffix_t *x = suffixes;
        while (x && x->suffix && strcmp(x->suffix, end) != 0)
            x++;
        if (!x || !x->suffix)
            return -1;
        factor = x->factor;
    }
    v *= factor;
    if (v < 0 || v >= 18446744073709551616.0 || v != floor(v))
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* Counts are decimal: K/M/G/T as SI multiples, and the lowercase k/m/b
 * (thousand, million, billion) a person writes ("1B keys"); either case of
 * each letter means the same. */
static const suffix_t count_suffixes[] = {
    { "k", 1e3 }, { "K", 1e3 }, { "m", 1e6 }, { "M", 1e6 }, { "b", 1e9 }, { "B", 1e9 },
    { "g", 1e9 }, { "G", 1e9 }, { "t", 1e12 }, { "T", 1e12 }, { NULL, 0 }
};
/* Sizes are binary: K/M/G/T (either case, with or without "iB"/"B") are
 * powers of 1024, as ls -h and free print them; a bare "B" is bytes. */
static const suffix_t byte_suffixes[] = {
    { "K", 1024.0 }, { "M", 1048576.0 }, { "G", 1073741824.0 }, { "T", 1099511627776.0 },
    { "k", 1024.0 }, { "m", 1048576.0 }, { "g", 1073741824.0 }, { "t", 1099511627776.0 },
    { "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
    { "KB", 1024.0 }, { "MB", 1048576.0 }, { "GB", 1073741824.0 }, { "TB", 1099511627776.0 },
    { "B", 1.0 }, { NULL, 0 }
};

int fkc_parse_u64(const char *s, uint64_t *out) { return parse_scaled(s, count_suffixes, out); }

int fkc_parse_bytes(const char *s, uint64_t *out)
{
    uint64_t v;
    if (parse_scaled(s, byte_suffixes, &v) || v == 0)
        return -1;
    *out = v;
    return 0;
}

/* A double, optionally written as a percentage ("1%"). */
static int parse_rate(const char *s, double *out)
{
    char *end;
    double v;
    if (parse_decimal(s, &v, &end))
        return -1;
    if (*end == '%') {
        v /= 100;
        end++;
    }
    if (*end)
        return -1;
    *out = v;
    return 0;
}

int fkc_parse_fpr(const char *s, double *out)
{
    double v;
    if (parse_rate(s, &v) || !(v > 0 && v < 1))
        return -1;
    *out = v;
    return 0;
}

int fkc_parse_ratio(const char *s, double *out)
{
    double v;
    if (parse_rate(s, &v) || !(v >= 0 && v <= 1))
        return -1;
    *out = v;
    return 0;
}

/* ------------------------------------------------------------- usage */

/* Under a kind option's line: "kinds: a, b, ...", from the registry,
 * wrapped under its first kind. */
static void print_kinds(FILE *to, const fkc_kind_opt *k)
{
    char names[1024];
    fkc_kind_opt_names(k, ", ", names, sizeof names);
    const int indent = 29, width = 100;
    int col = fprintf(to, "%*skinds:", indent, "");
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, " "); /* a name and its comma */
        if (col + 1 + (int)n > width) {
            fprintf(to, "\n%*s", indent + 6, "");
            col = indent + 6;
        }
        col += fprintf(to, " %.*s", (int)n, p);
        p += n;
        p += strspn(p, " ");
    }
    fputc('\n', to);
}

void fkc_args_usage(const fkc_cmd_spec *spec, FILE *to, int full)
{
    fprintf(to, "usage: filterkit %s %s\n", spec->name, spec->synopsis);
    if (!full) {
        fprintf(to, "run 'filterkit %s --help' for the options\n", spec->name);
        return;
    }
    if (spec->about)
        fprintf(to, "\n%s\n", spec->about);
    fprintf(to, "\noptions:\n");
    for (const fkc_opt *o = spec->opts; o && o->name; o++) {
        char names[64], left[96];
        shown_names(o, names, sizeof names);
        if (o->type == FKC_OPT_FLAG)
            snprintf(left, sizeof left, "%s", names);
        else
            snprintf(left, sizeof left, "%s %s", names, o->arg ? o->arg : "X");
        fprintf(to, "  %-26s %s\n", left, o->help);
        if (o->type == FKC_OPT_KIND || o->type == FKC_OPT_KINDS)
            print_kinds(to, o->dst);
    }
    fprintf(to, "  %-26s %s\n", "-h, --help", "show this help");
}

int fkc_args_fail(const fkc_cmd_spec *spec, const char *fmt, ...)
{
    fprintf(stderr, "filterkit %s: ", spec->name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fkc_args_usage(spec, stderr, 0);
    return FKC_ARGS_BAD;
}

/* ------------------------------------------------------------ parsing */

static int choice_ok(const char *choices, const char *v)
{
    size_t n = strlen(v);
    for (const char *c = choices; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && n && strncmp(c, v, n) == 0)
            return 1;
        c = bar ? bar + 1 : c + len;
    }
    return 0;
}

/* Splits a comma list and parses each item with one of the parsers. */
static int parse_list(const char *v, int rates, void *dst)
{
    fkc_u64_list *ul = dst;
    fkc_double_list *dl = dst;
    size_t n = 0;
    char item[64];
    for (const char *p = v;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || len >= sizeof item || n == FKC_LIST_MAX)
            return -1;
        memcpy(item, p, len);
        item[len] = 0;
        if (rates) {
            if (fkc_parse_fpr(item, &dl->v[n]))
                return -1;
        } else if (fkc_parse_u64(item, &ul->v[n]) || ul->v[n] == 0 || ul->v[n] > FKC_COUNT_MAX) {
            return -1;
        }
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (rates)
        dl->n = n;
    else
        ul->n = n;
    return 0;
}

/* A kind option's value: one offered kind (FKC_OPT_KIND) or a list kept
 * for the command (FKC_OPT_KINDS). `as` is the name it was given under. */
static int store_kind(const fkc_cmd_spec *spec, const fkc_opt *o, const char *as, const char *v)
{
    fkc_kind_opt *k = o->dst;
    if (!*v)
        return fkc_args_fail(spec, "--%s: empty value", as);
    if (o->type == FKC_OPT_KINDS) {
        k->value = v;
        return 0;
    }
    char names[1024];
    fkc_kind_opt_names(k, ", ", names, sizeof names);
    if (strchr(v, ','))
        return fkc_args_fail(spec, "--%s: %s takes one kind, not a list ('%s'); one of: %s", as,
                            spec->name, v, names);
    const fk_ops *ops = kind_named(k, v);
    if (!ops) {
        char dym[96];
        fkc_did_you_mean(kind_suggest(k, v), dym, sizeof dym);
        return fkc_args_fail(spec, "--%s: '%s' is not a kind %s (one of: %s)%s", as, v,
                            k->what ? k->what : "it knows", names, dym);
    }
    k->value = v;
    k->ops = ops;
    return 0;
}

static int store(const fkc_cmd_spec *spec, const fkc_opt *o, const char *as, const char *v)
{
    uint64_t u;
    double d;
    switch (o->type) {
    case FKC_OPT_KIND:
    case FKC_OPT_KINDS:
        return store_kind(spec, o, as, v);
    case FKC_OPT_FLAG:
        *(int *)o->dst = 1;
        return 0;
    case FKC_OPT_U64:
        if (fkc_parse_u64(v, &u))
            return fkc_args_fail(spec, "--%s: expected an integer in [0, 2^64-1] such as 42, 1e6, 10M or 1B, got '%s'",
                                as, v);
        *(uint64_t *)o->dst = u;
        return 0;
    case FKC_OPT_COUNT:
        if (fkc_parse_u64(v, &u) || u == 0 || u > FKC_COUNT_MAX)
            return fkc_args_fail(spec, "--%s: expected an integer in [1, 2^48 = %llu] such as 1000, 1e6, 10M or 1B, got '%s'",
                                as, (unsigned long long)FKC_COUNT_MAX, v);
        *(uint64_t *)o->dst = u;
        return 0;
    case FKC_OPT_REPEAT:
        if (fkc_parse_u64(v, &u) || u == 0 || u > FKC_REPEAT_MAX)
            return fkc_args_fail(spec, "--%s: expected an integer in [1, %llu], got '%s'", as,
                                (unsigned long long)FKC_REPEAT_MAX, v);
        *(uint64_t *)o->dst = u;
        return 0;
    case FKC_OPT_BYTES:
        if (fkc_parse_bytes(v, &u))
            return fkc_args_fail(spec, "--%s: expected a size in [1, 2^64-1] bytes (e.g. 1048576, 64M, 2GiB), got '%s'",
                                as, v);
        *(uint64_t *)o->dst = u;
        return 0;
    case FKC_OPT_FPR:
        if (fkc_parse_fpr(v, &d))
            return fkc_args_fail(spec, "--%s: expected a rate in (0,1) such as 0.01 or 1%%, got '%s'",
                                as, v);
        *(double *)o->dst = d;
        return 0;
    case FKC_OPT_RATIO:
        if (fkc_parse_ratio(v, &d))
            return fkc_args_fail(spec, "--%s: expected a fraction in [0,1] such as 0.9 or 90%%, got '%s'",
                                as, v);
        *(double *)o->dst = d;
        return 0;
    case FKC_OPT_STR:
        if (!*v)
            return fkc_args_fail(spec, "--%s: empty value", as);
        *(const char **)o->dst = v;
        return 0;
    case FKC_OPT_COUNT_LIST:
        if (parse_list(v, 0, o->dst))
            return fkc_args_fail(spec, "--%s: expected integers in [1, 2^48] separated by commas (at most %d), got '%s'",
                                as, FKC_LIST_MAX, v);
        return 0;
    case FKC_OPT_FPR_LIST:
        if (parse_list(v, 1, o->dst))
            return fkc_args_fail(spec, "--%s: expected rates in (0,1) separated by commas (at most %d), got '%s'",
                                as, FKC_LIST_MAX, v);
        return 0;
    case FKC_OPT_CHOICE:
        if (!choice_ok(o->arg, v))
            return fkc_args_fail(spec, "--%s: expected one of %s, got '%s'", as, o->arg, v);
        *(const char **)o->dst = v;
        return 0;
    }
    return fkc_args_fail(spec, "--%s: internal error (unknown option type)", as);
}

void (*fkc_args_spy)(const fkc_cmd_spec *spec);

int fkc_args_parse(const fkc_cmd_spec *spec, int argc, char **argv)
{
    if (fkc_args_spy) {
        fkc_args_spy(spec);
        return FKC_ARGS_HELP;
    }
    /* which options were given, under which name: a second value for one
     * (under either name of a synonym pair) is a mistake (which one was
     * meant?), refused as Redis refuses a repeated argument */
    const char *given[FKC_OPTS_MAX] = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fkc_args_usage(spec, stdout, 1);
            return FKC_ARGS_HELP;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == 0)
            return fkc_args_fail(spec, "unexpected argument '%s'", a);
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        char as[64]; /* the name as given, for messages */
        snprintf(as, sizeof as, "%.*s", (int)(len < 63 ? len : 63), name);
        const fkc_opt *o = fkc_args_find(spec, name, len);
        if (!o) {
            char dym[96];
            const char *names[128];
            size_t k = 0;
            for (const fkc_opt *x = spec->opts; x && x->name && k < 126; x++) {
                names[k++] = x->name;
                const char *other = fkc_args_synonym(x->name, strlen(x->name));
                if (other)
                    names[k++] = other;
            }
            names[k] = NULL;
            fkc_did_you_mean(fkc_suggest(as, names), dym, sizeof dym);
            if (dym[0]) /* "did you mean '--x'" */
                snprintf(dym, sizeof dym, "; did you mean '--%s'?", fkc_suggest(as, names));
            return fkc_args_fail(spec, "unknown option '--%.*s'%s", (int)len, name, dym);
        }
        size_t at = (size_t)(o - spec->opts);
        if (at < FKC_OPTS_MAX) {
            if (given[at] && strcmp(given[at], as) == 0)
                return fkc_args_fail(spec, "option '--%s' given twice; give it once", as);
            if (given[at])
                return fkc_args_fail(spec, "options '--%s' and '--%s' are one option, given twice; "
                                    "give it once", given[at], as);
            /* a static string: the declared name, or its synonym */
            given[at] = strcmp(as, o->name) == 0 ? o->name : fkc_args_synonym(o->name, strlen(o->name));
        }
        const char *v = NULL;
        if (o->type == FKC_OPT_FLAG) {
            if (eq)
                return fkc_args_fail(spec, "option '--%s' takes no value", as);
        } else if (eq) {
            v = eq + 1;
        } else if (i + 1 < argc) {
            v = argv[++i];
        } else {
            return fkc_args_fail(spec, "option '--%s' needs a value (%s)", as,
                                o->arg ? o->arg : "X");
        }
        if (store(spec, o, as, v))
            return FKC_ARGS_BAD;
    }
    return FKC_ARGS_OK;
}
