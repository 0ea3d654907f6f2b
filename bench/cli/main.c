/* bench/cli/main.c: `filterkit COMMAND [options]`, git-style. To add a
 * subcommand, write bench/cli/cmd_<name>.c, declare it in bench/cli/cmd.h and add
 * one line to the table below. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "../../common/filter.h"
#include "cmd.h"
#include "suggest.h"
#include "../report/runinfo.h"
#include "../../registry/registry.h"

typedef fkc_command command;

static const command commands[] = {
    { "bench",   fkc_cmd_bench,   "measure every filter at one parameter set: memory, FPR, ns per operation" },
    { "sweep",   fkc_cmd_sweep,   "measure a series: --vary n, fpr or load (the data behind the plots)" },
    { "pick",    fkc_cmd_pick,    "recommend a filter for --n and --fpr (and --deletes, --memory, --read-ratio)" },
    { "columns", fkc_cmd_columns, "list the CSV/JSON columns and what each one means" },
    { "trace",   fkc_cmd_trace,   "show each step of a tiny filter: hash, probes or buckets and kicks, its array" },
    { "theory",  fkc_cmd_theory,  "formula beside measurement: optimal k, item estimate, union, counter bound" },
    { "build",   fkc_cmd_build,   "build a filter from the lines of stdin and save it to stdout" },
    { "query",   fkc_cmd_query,   "print the lines of stdin that may be in a saved filter (-c: count)" },
    { "info",    fkc_cmd_info,    "describe a saved filter: kind, sizes, load, expected FPR" },
    { "add",     fkc_cmd_add,     "insert the lines of stdin into a saved filter (file replaced atomically)" },
    { "remove",  fkc_cmd_remove,  "remove the lines of stdin from a saved filter of a kind that removes" },
    { "merge",   fkc_cmd_merge,   "write the union of two compatible saved filters to stdout" },
    { "export",  fkc_cmd_export,  "write a saved filter in another format: --sbbf, Parquet's Bloom filter" },
    { "grow",    fkc_cmd_grow,    "write a saved filter doubled without its keys to stdout (kinds that resize)" },
    { "dedup",   fkc_cmd_dedup,   "print the lines of stdin not seen before and add them to a saved filter" },
    { "parquet", fkc_cmd_parquet,  "list, probe or extract the Bloom filters in Parquet files (info, probe, extract)" },
    { "completion", fkc_cmd_completion, "print a bash or zsh completion script (make install installs both)" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

const fkc_command *fkc_command_table(size_t *n)
{
    *n = NCOMMANDS;
    return commands;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: filterkit COMMAND [options]\n"
                "       filterkit help [COMMAND]\n"
                "       filterkit --version\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(to, "  %-11s %s\n", commands[i].name, commands[i].help);
    /* the kinds come from the registry, so a new kind shows up here unasked */
    fprintf(to, "\nfilter kinds (--kind, --filters):\n");
    for (size_t i = 0; fk_ops_at(i); i++)
        fprintf(to, "  %-16s %s\n", fk_ops_at(i)->name,
                fk_ops_at(i)->summary ? fk_ops_at(i)->summary : "");
    fprintf(to, "\n'filterkit COMMAND --help' describes a command's options.\n");
}

/* "; did you mean 'query'?" for a misspelt command, or "". */
static void suggest_command(const char *name, char *buf, size_t len)
{
    const char *names[NCOMMANDS + 2];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    names[NCOMMANDS] = "help";
    names[NCOMMANDS + 1] = NULL;
    fkc_did_you_mean(fkc_suggest(name, names), buf, len);
}

static const command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* Every command's output is checked here once: a full disk or a closed
 * pipe must not pass for success (`filterkit info f.fk > /dev/full`). */
static int finish(const char *name, int rc)
{
    int failed = fflush(stdout) != 0 || ferror(stdout);
    int err = errno;
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (failed && rc == 0) {
        fprintf(stderr, "filterkit %s: writing to stdout: %s\n", name, strerror(err ? err : EIO));
        return 1;
    }
    return rc;
}

static int run(int argc, char **argv)
{
    fkc_runinfo_set_argv(argc, argv);
    if (argc < 2) {
        fprintf(stderr, "filterkit: missing command\n");
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "filterkit: --version takes no argument\n");
            return 2;
        }
        printf("filterkit %s\n", fk_version());
        return 0;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        (strcmp(name, "help") == 0 && argc == 2)) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "help") == 0) {
        const command *c = find(argv[2]);
        if (!c) {
            char dym[96];
            suggest_command(argv[2], dym, sizeof dym);
            fprintf(stderr, "filterkit help: unknown command '%s'%s\n", argv[2], dym);
            usage(stderr);
            return 2;
        }
        if (argc > 3) {
            fprintf(stderr, "filterkit help: unexpected argument '%s' (usage: filterkit help [COMMAND])\n",
                    argv[3]);
            return 2;
        }
        char *help_argv[] = { argv[2], "--help", NULL };
        return c->run(2, help_argv);
    }
    const command *c = find(name);
    if (!c) {
        char dym[96] = "";
        if (name[0] != '-')
            suggest_command(name, dym, sizeof dym);
        fprintf(stderr, "filterkit: unknown %s '%s'%s\n", name[0] == '-' ? "option" : "command", name, dym);
        usage(stderr);
        return 2;
    }
    return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    int rc = run(argc, argv);
    return finish(argc > 1 ? argv[1] : "", rc);
}
