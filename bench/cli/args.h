/* bench/cli/args.h: option parsing shared by the subcommands.
 *
 * Each subcommand describes its options in a table of fkc_opt; fkc_args_parse
 * walks argv ("--name value" or "--name=value"), converts and stores each
 * value, and on any mistake prints one line "filterkit CMD: what is wrong"
 * followed by the usage on stderr.
 *
 * One vocabulary for every command: a few options have two names, kept in
 * one table in args.c (--kind and --filters: the kind or kinds of filter;
 * --n and --capacity: a count of items). A command declares one of them and
 * answers to both; --help, the completion and the "given twice" check treat
 * the two as one option. */
#ifndef FKC_BENCH_ARGS_H
#define FKC_BENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../../common/filter.h"

/* Numbers are decimal: digits, '.', an exponent (1e6); no sign, no hex, no
 * inf or nan. Each type's range is named in its error message. */
typedef enum {
    FKC_OPT_FLAG,      /* int: set to 1 when present; takes no value */
    FKC_OPT_U64,       /* uint64_t in [0, 2^64-1]: 0, 42, 1e6, 10M, 1B (k/K, m/M, b/B = G, t/T: x1000) */
    FKC_OPT_COUNT,     /* uint64_t like FKC_OPT_U64, in [1, FKC_COUNT_MAX] */
    FKC_OPT_FPR,       /* double in (0,1): 0.01 or 1%; as small as 4.9e-324 */
    FKC_OPT_RATIO,     /* double in [0,1]: 0.9 or 90% */
    FKC_OPT_BYTES,     /* uint64_t in [1, 2^64-1]: 1048576, 64K, 16M, 2G, 1GiB, 1T (K/M/G/T: x1024) */
    FKC_OPT_STR,       /* const char *: the argument itself */
    FKC_OPT_COUNT_LIST,/* fkc_u64_list: comma-separated counts, each as FKC_OPT_COUNT */
    FKC_OPT_FPR_LIST,  /* fkc_double_list: comma-separated rates */
    FKC_OPT_CHOICE,    /* const char *: one of the '|'-separated words in arg */
    FKC_OPT_REPEAT,    /* uint64_t in [1, FKC_REPEAT_MAX]: timed runs per figure */
    FKC_OPT_KIND,      /* fkc_kind_opt: one kind of those it offers, by name (a list is refused) */
    FKC_OPT_KINDS      /* fkc_kind_opt: a comma list of kinds or "all", kept as given for the
                          command to resolve (fkc_kinds_parse) */
} fkc_opt_type;

/* The value of a kind option, and which kinds it offers: --help lists
 * them, the completion offers them, FKC_OPT_KIND accepts only them. The
 * kinds come from the registry (or `at`), filtered by their fk_ops_caps,
 * so no help text names kinds by hand. */
typedef struct {
    unsigned need;                  /* FK_CAP_* flags every offered kind has */
    unsigned refuse;                /* FK_CAP_* flags no offered kind has */
    const fk_ops *(*at)(size_t i);  /* the kinds to choose from, NULL past the end;
                                       NULL: the registry's (fk_ops_at) */
    const char *what;               /* "that can be saved": ends "not a kind ..." in the
                                       error for a kind it does not offer */
    const char *value;              /* out: the text given (keep a default here) */
    const fk_ops *ops;              /* out, FKC_OPT_KIND: the kind named */
} fkc_kind_opt;

/* Whether k offers ops. */
int fkc_kind_opt_offers(const fkc_kind_opt *k, const fk_ops *ops);

/* The names of the kinds k offers, separated by sep, into buf ("" when
 * none; cut short when buf is too small). */
void fkc_kind_opt_names(const fkc_kind_opt *k, const char *sep, char *buf, size_t len);

/* Largest count (items, capacity, lookups): 2^48, far above what fits in
 * FK_MEMORY_CAP (64 GiB holds at most about 2^42 items of any kind), so
 * no size computed from it can overflow 64 bits. */
#define FKC_COUNT_MAX (UINT64_C(1) << 48)
/* Most timed runs per figure (--repeat). */
#define FKC_REPEAT_MAX UINT64_C(1000)

/* Most options one command has (fkc_args_parse tracks which were given:
 * each may be given once). */
#define FKC_OPTS_MAX 64

#define FKC_LIST_MAX 32
typedef struct { uint64_t v[FKC_LIST_MAX]; size_t n; } fkc_u64_list;
typedef struct { double v[FKC_LIST_MAX]; size_t n; } fkc_double_list;

typedef struct {
    const char *name;  /* without the leading "--" */
    fkc_opt_type type;
    void       *dst;   /* where the value goes (type per fkc_opt_type) */
    const char *arg;   /* placeholder in the usage ("N"), or the choices */
    const char *help;  /* one line */
} fkc_opt;

typedef struct {
    const char   *name;      /* "bench" */
    const char   *synopsis;  /* "[--n N] [--fpr P] ..." */
    const char   *about;     /* one paragraph under the synopsis */
    const fkc_opt *opts;      /* terminated by an entry with name NULL */
} fkc_cmd_spec;

enum { FKC_ARGS_OK = 0, FKC_ARGS_HELP = 1, FKC_ARGS_BAD = 2 };

/* When set, fkc_args_parse hands the spec to this function instead of
 * parsing argv, and returns FKC_ARGS_HELP (the command then exits at once):
 * how `filterkit completion` learns every command's options from the
 * command itself, so the completion never drifts from the options. */
extern void (*fkc_args_spy)(const fkc_cmd_spec *spec);

/* The other name of an option of the shared vocabulary ("filters" for
 * "kind", "n" for "capacity", and back), or NULL: the `len` bytes of name
 * are compared. */
const char *fkc_args_synonym(const char *name, size_t len);

/* The option of spec called by the `len` bytes of name, or by its synonym;
 * NULL when none. */
const fkc_opt *fkc_args_find(const fkc_cmd_spec *spec, const char *name, size_t len);

/* Parses argv[1..argc) (argv[0] is the subcommand's name) against spec.
 * Each option may be given once (a repeat is an error, as is a short letter
 * and its long name both given, or both names of a synonym pair). Returns FKC_ARGS_OK; FKC_ARGS_HELP after printing the help on stdout for -h
 * or --help; FKC_ARGS_BAD after printing a one-line error and the usage on
 * stderr. */
int fkc_args_parse(const fkc_cmd_spec *spec, int argc, char **argv);

/* Prints "usage: filterkit NAME SYNOPSIS" and, when full, the about text
 * and one line per option. */
void fkc_args_usage(const fkc_cmd_spec *spec, FILE *to, int full);

/* Prints "filterkit NAME: <message>" and the short usage on stderr and
 * returns FKC_ARGS_BAD (exit status 2), for checks made after parsing. */
__attribute__((format(printf, 2, 3)))
int fkc_args_fail(const fkc_cmd_spec *spec, const char *fmt, ...);

/* Single-value parsers (also used by tests). Each returns 0 and stores the
 * value, or -1 for text that is not such a value (fkc_parse_u64: any value
 * in [0, 2^64-1]; the count range is checked by the option types). */
int fkc_parse_u64(const char *s, uint64_t *out);
int fkc_parse_fpr(const char *s, double *out);
int fkc_parse_ratio(const char *s, double *out);
int fkc_parse_bytes(const char *s, uint64_t *out);

#endif
