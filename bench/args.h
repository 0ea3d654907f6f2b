/* bench/args.h: option parsing shared by the subcommands.
 *
 * Each subcommand describes its options in a table of fk_opt; fk_args_parse
 * walks argv ("--name value" or "--name=value"), converts and stores each
 * value, and on any mistake prints one line "filterkit CMD: what is wrong"
 * followed by the usage on stderr. */
#ifndef FK_BENCH_ARGS_H
#define FK_BENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    FK_OPT_FLAG,      /* int: set to 1 when present; takes no value */
    FK_OPT_U64,       /* uint64_t: 0, 42, 1e6, 10M (k/M/G = x1000) */
    FK_OPT_COUNT,     /* uint64_t like FK_OPT_U64 but > 0 */
    FK_OPT_FPR,       /* double in (0,1): 0.01 or 1% */
    FK_OPT_RATIO,     /* double in [0,1]: 0.9 or 90% */
    FK_OPT_BYTES,     /* uint64_t > 0: 1048576, 64K, 16M, 2G, 1GiB (x1024) */
    FK_OPT_STR,       /* const char *: the argument itself */
    FK_OPT_COUNT_LIST,/* fk_u64_list: comma-separated counts */
    FK_OPT_FPR_LIST,  /* fk_double_list: comma-separated rates */
    FK_OPT_CHOICE     /* const char *: one of the '|'-separated words in arg */
} fk_opt_type;

#define FK_LIST_MAX 32
typedef struct { uint64_t v[FK_LIST_MAX]; size_t n; } fk_u64_list;
typedef struct { double v[FK_LIST_MAX]; size_t n; } fk_double_list;

typedef struct {
    const char *name;  /* without the leading "--" */
    fk_opt_type type;
    void       *dst;   /* where the value goes (type per fk_opt_type) */
    const char *arg;   /* placeholder in the usage ("N"), or the choices */
    const char *help;  /* one line */
} fk_opt;

typedef struct {
    const char   *name;      /* "bench" */
    const char   *synopsis;  /* "[--n N] [--fpr P] ..." */
    const char   *about;     /* one paragraph under the synopsis */
    const fk_opt *opts;      /* terminated by an entry with name NULL */
} fk_cmd_spec;

enum { FK_ARGS_OK = 0, FK_ARGS_HELP = 1, FK_ARGS_BAD = 2 };

/* Parses argv[1..argc) (argv[0] is the subcommand's name) against spec.
 * Returns FK_ARGS_OK; FK_ARGS_HELP after printing the help on stdout for -h
 * or --help; FK_ARGS_BAD after printing a one-line error and the usage on
 * stderr. */
int fk_args_parse(const fk_cmd_spec *spec, int argc, char **argv);

/* Prints "usage: filterkit NAME SYNOPSIS" and, when full, the about text
 * and one line per option. */
void fk_args_usage(const fk_cmd_spec *spec, FILE *to, int full);

/* Prints "filterkit NAME: <message>" and the short usage on stderr and
 * returns FK_ARGS_BAD (exit status 2), for checks made after parsing. */
__attribute__((format(printf, 2, 3)))
int fk_args_fail(const fk_cmd_spec *spec, const char *fmt, ...);

/* Single-value parsers (also used by tests). Each returns 0 and stores the
 * value, or -1 for text that is not such a value. */
int fk_parse_u64(const char *s, uint64_t *out);
int fk_parse_fpr(const char *s, double *out);
int fk_parse_ratio(const char *s, double *out);
int fk_parse_bytes(const char *s, uint64_t *out);

#endif
