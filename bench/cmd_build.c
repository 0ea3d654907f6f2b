/* bench/cmd_build.c: `filterkit build --kind K --fpr P [--capacity N]
 * [--seed S] < keys > f.fk`: builds a filter from the lines of stdin and
 * writes it, saved (common/serial.h), to stdout. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "args.h"
#include "cmd.h"
#include "keylines.h"
#include "../common/serial.h"

/* The kinds that can be saved, comma-separated, for messages. */
static void saveable_kinds(char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if (!(fk_ops_caps(ops) & FK_CAP_SERIALIZE))
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", used ? ", " : "", ops->name);
    }
}

int fk_cmd_build(int argc, char **argv)
{
    const char *kind = NULL;
    double fpr = 0;
    uint64_t capacity = 0, seed = 0;
    const fk_opt opts[] = {
        { "kind", FK_OPT_STR, &kind, "K", "filter kind: bloom, counting, cuckoo (required)" },
        { "fpr", FK_OPT_FPR, &fpr, "P", "target false-positive rate, e.g. 0.01 or 1% (required)" },
        { "capacity", FK_OPT_COUNT, &capacity, "N", "items to size for (default: the number of input lines)" },
        { "seed", FK_OPT_U64, &seed, "S", "hash seed (default: 0)" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fk_cmd_spec spec = {
        "build", "--kind K --fpr P [--capacity N] [--seed S] < keys > FILTER",
        "Reads one key per line from stdin (the line's bytes without its newline),\n"
        "inserts each into a new filter (duplicate lines once) and writes the saved\n"
        "filter to stdout, e.g.\n"
        "  filterkit build --kind bloom --fpr 0.001 < seen.txt > seen.fk\n"
        "Query it with 'filterkit query', describe it with 'filterkit info'.",
        opts,
    };
    int rc = fk_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FK_ARGS_HELP ? 0 : 2;
    char kinds[200];
    saveable_kinds(kinds, sizeof kinds);
    if (!kind)
        return fk_args_fail(&spec, "missing --kind K (one of: %s)", kinds);
    const fk_ops *ops = fk_ops_find(kind);
    if (!ops || !(fk_ops_caps(ops) & FK_CAP_SERIALIZE))
        return fk_args_fail(&spec, "--kind: '%s' is not a kind that can be saved (one of: %s)", kind,
                            kinds);
    if (fpr == 0)
        return fk_args_fail(&spec, "missing --fpr P");
    if (isatty(STDOUT_FILENO))
        return fk_args_fail(&spec, "refusing to write a binary filter to a terminal; redirect stdout");

    fk_keylines keys;
    if (fk_keylines_read(stdin, &keys) != 0) {
        perror("filterkit build: reading keys from stdin");
        return 1;
    }
    fk_params p = fk_params_make(capacity ? capacity : keys.lines ? keys.lines : 1, fpr);
    p.seed = seed;
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(ops, &p, &f);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit build: cannot create a %s filter for %llu items at fpr %g: %s\n",
                ops->name, (unsigned long long)p.capacity, fpr, fk_strerror(s));
        fk_keylines_free(&keys);
        return 1;
    }
    size_t pos = 0, len;
    const char *key;
    uint64_t n = 0;
    /* Set semantics: a key already answered "maybe present" is not stored
     * again, so duplicate lines cost nothing (a cuckoo filter would run out
     * of slots for a key repeated more than 8 times). */
    while (s == FK_OK && fk_keylines_next(&keys, &pos, &key, &len)) {
        if (fk_filter_contains(f, key, len))
            continue;
        s = fk_filter_insert(f, key, len);
        n += s == FK_OK;
    }
    if (s == FK_EFULL)
        fprintf(stderr, "filterkit build: the %s filter is full after %llu keys; "
                "give a larger --capacity\n", ops->name, (unsigned long long)n);
    else if (s != FK_OK)
        fprintf(stderr, "filterkit build: insert failed: %s\n", fk_strerror(s));
    if (s == FK_OK && (s = fk_filter_save_file(f, stdout)) != FK_OK)
        fprintf(stderr, "filterkit build: writing the filter to stdout: %s\n", fk_strerror(s));
    fk_filter_free(f);
    fk_keylines_free(&keys);
    return s == FK_OK ? 0 : 1;
}
