/* bench/cli/operands.h: operands (file names) and one-letter flags for the
 * subcommands that take them (query, info), on top of fkc_args_parse, which
 * knows only --long options. */
#ifndef FKC_BENCH_OPERANDS_H
#define FKC_BENCH_OPERANDS_H

#include "args.h"

/* A one-letter flag and the long option it stands for ('c', "count"). */
typedef struct {
    char        letter;
    const char *name;
} fkc_short_flag;

/* Parses argv like fkc_args_parse, also accepting one-letter flags from
 * shorts (terminated by letter 0; "-cv" combines them) and operands: the
 * arguments that are not options (or all after "--") are stored in
 * operand[0..]; exactly `want` of them are required. Returns FKC_ARGS_OK,
 * FKC_ARGS_HELP (help printed) or FKC_ARGS_BAD (error and usage printed). */
int fkc_args_parse_operands(const fkc_cmd_spec *spec, const fkc_short_flag *shorts, int argc,
                           char **argv, const char **operand, int want, const char *what);

/* The same with min to max operands; *nfound receives how many were given.
 * A one-letter flag standing for an option that takes a value takes it
 * from the rest of its argument ("-fX") or from the next one ("-f X"). */
int fkc_args_parse_operands_range(const fkc_cmd_spec *spec, const fkc_short_flag *shorts, int argc,
                                 char **argv, const char **operand, int min, int max, int *nfound,
                                 const char *what);

#endif
