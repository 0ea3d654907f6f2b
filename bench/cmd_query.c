/* bench/cmd_query.c: `filterkit query [-c] [-v] FILTER < keys`: prints the
 * lines of stdin that may be in the saved filter (or, with -v, those that
 * are definitely not), or with -c only how many. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "operands.h"

int fk_cmd_query(int argc, char **argv)
{
    int count = 0, invert = 0;
    const fk_opt opts[] = {
        { "count", FK_OPT_FLAG, &count, NULL, "-c: print only the number of matching lines" },
        { "invert", FK_OPT_FLAG, &invert, NULL, "-v: match the lines definitely NOT in it" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fk_cmd_spec spec = {
        "query", "[-c] [-v] FILTER < keys",
        "Reads one key per line from stdin and prints each line whose key may be in\n"
        "FILTER (a file written by 'filterkit build'); false positives are possible,\n"
        "false negatives are not. With -v it prints the lines that are definitely new,\n"
        "which makes a streaming deduplicator:\n"
        "  filterkit build --kind bloom --fpr 1e-6 < seen.txt > seen.fk\n"
        "  filterkit query -v seen.fk < incoming.txt > fresh.txt",
        opts,
    };
    static const fk_short_flag shorts[] = { { 'c', "count" }, { 'v', "invert" }, { 0, NULL } };
    const char *path = NULL;
    int rc = fk_args_parse_operands(&spec, shorts, argc, argv, &path, 1,
                                    "FILTER (a file written by 'filterkit build')");
    if (rc)
        return rc == FK_ARGS_HELP ? 0 : 2;
    fk_filter *f = NULL;
    if (fk_filterfile_load(spec.name, path, &f, NULL, NULL) != 0)
        return 1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    uint64_t matched = 0;
    while ((got = getline(&line, &cap, stdin)) >= 0) {
        size_t len = (size_t)got;
        if (len && line[len - 1] == '\n')
            len--;
        if (fk_filter_contains(f, line, len) == !invert) {
            matched++;
            if (!count) {
                fwrite(line, 1, len, stdout);
                putchar('\n');
            }
        }
    }
    int failed = ferror(stdin);
    if (failed)
        perror("filterkit query: reading keys from stdin");
    free(line);
    fk_filter_free(f);
    if (count)
        printf("%llu\n", (unsigned long long)matched);
    if (fflush(stdout) != 0) {
        perror("filterkit query: writing to stdout");
        failed = 1;
    }
    return failed ? 1 : 0;
}
