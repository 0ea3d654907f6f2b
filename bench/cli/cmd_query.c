/* bench/cli/cmd_query.c: `filterkit query [-c] [-v] FILTER [FILE...]`: prints
 * the lines that may be in the saved filter (or, with -v, those that are
 * definitely not), or with -c only how many; exits as grep does. */
#include <errno.h>
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

/* Looks up every line of `in` (named `name` in messages), printing or
 * counting the matches. Returns 0, or -1 after a read error (printed). */
static int query_stream(const fk_filter *f, FILE *in, const char *name, int binary_lines, int invert,
                        int count, uint64_t *matched)
{
    fkc_linereader r;
    if (fkc_linereader_init(&r, in, binary_lines) != 0) {
        fprintf(stderr, "filterkit query: out of memory\n");
        return -1;
    }
    fkc_keybatch b;
    fkc_keybatch_init(&b);
    bool maybe[FKC_KEYBATCH_KEYS];
    int got = 0;
    /* a batch of lines at a time, looked up together (fk_filter_contains_many);
     * stops early when stdout fails (the exit status comes from main) */
    while (!ferror(stdout) && (got = fkc_keybatch_read(&b, &r)) != 0) {
        if ((r.lines ^ (r.lines - b.n)) & ~(uint64_t)0xffff) {
            char at[64];
            fkc_linereader_progress(&r, at, sizeof at);
            fkc_progress("query: %s, %llu matched", at, (unsigned long long)*matched);
        }
        fk_filter_contains_many(f, b.n, b.keys, b.lens, maybe);
        for (size_t i = 0; i < b.n; i++) {
            if (maybe[i] == !invert) {
                ++*matched;
                if (!count) {
                    fwrite(b.keys[i], 1, b.lens[i], stdout);
                    putchar('\n');
                }
            }
        }
        if (got < 0)
            break;
    }
    if (got < 0)
        fprintf(stderr, "filterkit query: reading keys from %s: %s\n", name, fkc_linereader_error(b.err));
    fkc_keybatch_free(&b);
    fkc_linereader_free(&r);
    return got < 0 ? -1 : 0;
}

/* Exit status as grep's: 0 when a line was selected, 1 when none was, 2 on
 * an error (a missing file, a read error, bad usage). */
enum { QUERY_MATCHED = 0, QUERY_NONE = 1, QUERY_ERROR = 2 };

#define QUERY_MAX_FILES 64

int fkc_cmd_query(int argc, char **argv)
{
    int count = 0, invert = 0, binary_lines = 0;
    const char *filter_path = NULL;
    const fkc_opt opts[] = {
        { "count", FKC_OPT_FLAG, &count, NULL, "-c: print only the number of matching lines (one FILE:N line per key file when several, as grep)" },
        { "invert", FKC_OPT_FLAG, &invert, NULL, "-v: match the lines definitely NOT in it" },
        { "filter", FKC_OPT_STR, &filter_path, "FILTER", "-f: the saved filter, when not the first operand (- = stdin)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "keep a '\\r' before the '\\n' as part of the key" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = {
        "query", "[-c] [-v] FILTER [FILE...] | [-c] [-v] -f FILTER [FILE...]",
        "Reads one key per line from each FILE (stdin when none, or for '-') and prints\n"
        "each line whose key may be in FILTER (a file written by 'filterkit build');\n"
        "false positives are possible, false negatives are not. With -v it prints the\n"
        "lines that are definitely new, which makes a streaming deduplicator:\n"
        "  filterkit build --kind bloom --fpr 1e-6 < seen.txt > seen.fk\n"
        "  filterkit query -v seen.fk < incoming.txt > fresh.txt\n"
        "(or 'filterkit dedup', which also adds the new lines). FILTER '-' (or -f -)\n"
        "reads the filter from stdin; the keys then come from the FILEs:\n"
        "  ssh host cat seen.fk | filterkit query -f - incoming.txt\n"
        "Keys are read as 'filterkit build' reads them: without one '\\r' before the\n"
        "'\\n' unless --binary-lines; a printed line is the key plus '\\n'.\n"
        "Exit status as grep's: 0 when a line matched, 1 when none did, 2 on an error.",
        opts,
    };
    static const fkc_short_flag shorts[] = { { 'c', "count" }, { 'v', "invert" }, { 'f', "filter" }, { 0, NULL } };
    const char *operand[QUERY_MAX_FILES + 1];
    int nop = 0;
    int rc = fkc_args_parse_operands_range(&spec, shorts, argc, argv, operand, 0, QUERY_MAX_FILES + 1, &nop,
                                          "FILTER (a file written by 'filterkit build')");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : QUERY_ERROR;
    const char **files = operand;
    int nfiles = nop;
    if (!filter_path) {
        if (nop == 0) {
            fkc_args_fail(&spec, "missing FILTER (a file written by 'filterkit build')");
            return QUERY_ERROR;
        }
        filter_path = operand[0];
        files++;
        nfiles--;
    } else if (nop > QUERY_MAX_FILES) {
        fkc_args_fail(&spec, "at most %d key files", QUERY_MAX_FILES);
        return QUERY_ERROR;
    }
    int stdin_keys = nfiles == 0;
    for (int i = 0; i < nfiles; i++)
        stdin_keys |= strcmp(files[i], "-") == 0;
    if (strcmp(filter_path, "-") == 0 && stdin_keys) {
        fkc_args_fail(&spec, "the filter comes from stdin (-), so the keys must come from files");
        return QUERY_ERROR;
    }
    fk_filter *f = NULL;
    if (fkc_filterfile_load(spec.name, filter_path, &f, NULL, NULL) != 0)
        return QUERY_ERROR;
    uint64_t matched = 0;
    int failed = 0;
    fkc_progress_begin(NULL, 0);
    /* -c with several key files: one "FILE:count" line each, as grep -c */
    int per_file = count && nfiles > 1;
    if (nfiles == 0)
        failed |= query_stream(f, stdin, "stdin", binary_lines, invert, count, &matched) != 0;
    for (int i = 0; i < nfiles && !ferror(stdout); i++) {
        uint64_t here = 0;
        int is_stdin = strcmp(files[i], "-") == 0;
        FILE *in = is_stdin ? stdin : fopen(files[i], "rb");
        if (!in) {
            fprintf(stderr, "filterkit query: %s: %s\n", files[i], strerror(errno));
            failed = 1;
            continue;
        }
        failed |= query_stream(f, in, is_stdin ? "stdin" : files[i], binary_lines, invert, count, &here) != 0;
        if (!is_stdin)
            fclose(in);
        matched += here;
        if (per_file)
            printf("%s:%llu\n", is_stdin ? "(standard input)" : files[i], (unsigned long long)here);
    }
    fkc_progress_end();
    fk_filter_free(f);
    if (count && !per_file)
        printf("%llu\n", (unsigned long long)matched);
    return failed ? QUERY_ERROR : matched ? QUERY_MATCHED : QUERY_NONE;
}
