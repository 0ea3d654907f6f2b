/* bench/cli/cmd.h: the subcommands of the filterkit CLI. Each lives in its own
 * bench/cli/cmd_<name>.c and is listed once in the table in bench/cli/main.c.
 * A subcommand gets argv with argv[0] = its own name and returns the exit
 * status: 0 done, 1 the work failed (message on stderr), 2 bad usage
 * (one-line error and the usage on stderr, see fkc_args_parse). */
#ifndef FKC_BENCH_CMD_H
#define FKC_BENCH_CMD_H

#include <stddef.h>
#include <stdio.h>

int fkc_cmd_bench(int argc, char **argv);
int fkc_cmd_sweep(int argc, char **argv);
int fkc_cmd_pick(int argc, char **argv);
int fkc_cmd_columns(int argc, char **argv);
int fkc_cmd_trace(int argc, char **argv);
int fkc_cmd_theory(int argc, char **argv);
int fkc_cmd_build(int argc, char **argv); /* build a saved filter from lines */
int fkc_cmd_query(int argc, char **argv); /* look lines up in a saved filter */
int fkc_cmd_info(int argc, char **argv);  /* describe a saved filter */
int fkc_cmd_add(int argc, char **argv);   /* insert lines into a saved filter */
int fkc_cmd_remove(int argc, char **argv);/* remove lines from a saved filter */
int fkc_cmd_merge(int argc, char **argv);  /* union of two saved filters */
int fkc_cmd_export(int argc, char **argv); /* a saved filter in another format (Parquet's SBBF) */
int fkc_cmd_grow(int argc, char **argv);   /* a saved filter doubled without its keys */
int fkc_cmd_dedup(int argc, char **argv);  /* print the new lines, remember them */
int fkc_cmd_parquet(int argc, char **argv);    /* Parquet files' Bloom filters: info, probe, extract */
int fkc_cmd_completion(int argc, char **argv); /* bash/zsh completion script */

/* The kinds `filterkit trace` can show, in the registry's order, separated
 * by sep, into buf (its usage and the completion list them). */
void fkc_trace_kinds(const char *sep, char *buf, size_t len);

/* The table of subcommands (bench/cli/main.c), for the completion. */
typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *help; /* one line */
} fkc_command;
const fkc_command *fkc_command_table(size_t *n);

#endif
