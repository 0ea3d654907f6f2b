/* bench/cli/cmd_query.c: `filterkit query [-c] [-v] FILTER < keys`: prints the
 * lines of stdin that may be in the saved filter (or, with -v, those that
 * are definitely not), or with -c only how many. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "../keys/keybatch.h"
#include "../keys/keylines.h"
#include "operands.h"
#include "../clock/progress.h"

int fkc_cmd_query(int argc, char **argv)
{
    int count = 0, invert = 0, binary_lines = 0;
    const fkc_opt opts[] = {
        { "count", FKC_OPT_FLAG, &count, NULL, "-c: print only the number of matching lines" },
        { "invert", FKC_OPT_FLAG, &invert, NULL, "-v: match the lines definitely NOT in it" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "keep a '\\r' before the '\\n' as part of the key" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = {
        "query", "[-c] [-v] FILTER < keys",
        "Reads one key per line from stdin and prints each line whose key may be in\n"
        "FILTER (a file written by 'filterkit build'); false positives are possible,\n"
        "false negatives are not. With -v it prints the lines that are definitely new,\n"
        "which makes a streaming deduplicator:\n"
        "  filterkit build --kind bloom --fpr 1e-6 < seen.txt > seen.fk\n"
        "  filterkit query -v seen.fk < incoming.txt > fresh.txt\n"
        "(or 'filterkit dedup', which also adds the new lines). Keys are read as\n"
        "'filterkit build' reads them: without one '\\r' before the '\\n' unless\n"
        "--binary-lines; a printed line is the key plus '\\n'.",
        opts,
    };
    static const fkc_short_flag shorts[] = { { 'c', "count" }, { 'v', "invert" }, { 0, NULL } };
    const char *path = NULL;
    int rc = fkc_args_parse_operands(&spec, shorts, argc, argv, &path, 1,
                                    "FILTER (a file written by 'filterkit build')");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    fk_filter *f = NULL;
    if (fkc_filterfile_load(spec.name, path, &f, NULL, NULL) != 0)
        return 1;
    fkc_linereader r;
    if (fkc_linereader_init(&r, stdin, binary_lines) != 0) {
        fk_filter_free(f);
        fprintf(stderr, "filterkit query: out of memory\n");
        return 1;
    }
    fkc_keybatch b;
    fkc_keybatch_init(&b);
    bool maybe[FKC_KEYBATCH_KEYS];
    int got = 0;
    uint64_t matched = 0;
    fkc_progress_begin(NULL, 0);
    /* a batch of lines at a time, looked up together (fk_filter_contains_many);
     * stops early when stdout fails (the exit status comes from main) */
    while (!ferror(stdout) && (got = fkc_keybatch_read(&b, &r)) != 0) {
        if ((r.lines ^ (r.lines - b.n)) & ~(uint64_t)0xffff) {
            char at[64];
            fkc_linereader_progress(&r, at, sizeof at);
            fkc_progress("query: %s, %llu matched", at, (unsigned long long)matched);
        }
        fk_filter_contains_many(f, b.n, b.keys, b.lens, maybe);
        for (size_t i = 0; i < b.n; i++) {
            if (maybe[i] == !invert) {
                matched++;
                if (!count) {
                    fwrite(b.keys[i], 1, b.lens[i], stdout);
                    putchar('\n');
                }
            }
        }
        if (got < 0)
            break;
    }
    fkc_progress_end();
    int failed = got < 0;
    if (failed)
        fprintf(stderr, "filterkit query: reading keys from stdin: %s\n", fkc_linereader_error(b.err));
    fkc_keybatch_free(&b);
    fkc_linereader_free(&r);
    fk_filter_free(f);
    if (count && !failed)
        printf("%llu\n", (unsigned long long)matched);
    return failed ? 1 : 0;
}
