/* bench/cli/cmd_dedup.c: `filterkit dedup FILTER < in > out`: the streaming
 * deduplicator -- prints each line not already in the saved filter (nor
 * earlier in this input), adds it, and saves the filter at the end,
 * atomically. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "hints.h"
#include "memlimit.h"
#include "../keys/keybatch.h"
#include "../keys/keylines.h"
#include "operands.h"
#include "../clock/progress.h"
#include "../../registry/registry.h"

/* Creates the filter of a FILTER that does not exist yet, from the options.
 * Returns 0, 2 (usage, printed) or 1 (printed). */
static int create(const fkc_cmd_spec *spec, const char *path, const fkc_kind_opt *kind, double fpr,
                  uint64_t capacity, uint64_t seed, uint64_t max_bytes, fk_filter **out)
{
    char kinds[1024];
    fkc_kind_opt_names(kind, ", ", kinds, sizeof kinds);
    if (!kind->ops || fpr == 0)
        return fkc_args_fail(spec, "%s does not exist: give --kind K --fpr P --capacity N to create it "
                            "(kinds: %s)", path, kinds);
    const fk_ops *ops = kind->ops;
    if (!capacity && !(fk_ops_caps(ops) & FK_CAP_GROWS))
        return fkc_args_fail(spec, "--capacity N is needed to create a %s filter (it cannot grow)", ops->name);
    fk_params p = fk_params_make(capacity ? capacity : UINT64_C(1) << 16, fpr);
    p.seed = seed;
    p.max_bytes = max_bytes ? max_bytes : fkc_memlimit_default();
    fk_status s = fk_filter_new(ops, &p, out);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit dedup: cannot create a %s filter for %llu items at fpr %g: %s%s\n",
                ops->name, (unsigned long long)p.capacity, fpr, fk_strerror(s), fkc_memlimit_hint(s));
        return 1;
    }
    return 0;
}

int fkc_cmd_dedup(int argc, char **argv)
{
    /* a filter added to line by line: a kind that can be saved and is not
     * built once from the whole set */
    fkc_kind_opt kind = { .need = FK_CAP_SERIALIZE, .refuse = FK_CAP_STATIC,
                          .what = "that can be saved and added to" };
    double fpr = 0;
    uint64_t capacity = 0, seed = 0;
    int binary_lines = 0;
    uint64_t max_bytes = 0;
    const fkc_opt opts[] = {
        { "kind", FKC_OPT_KIND, &kind, "K", "a new FILTER's kind" },
        { "fpr", FKC_OPT_FPR, &fpr, "P", "a new FILTER's false-positive rate" },
        { "capacity", FKC_OPT_COUNT, &capacity, "N", "a new FILTER's capacity (not needed by growing kinds)" },
        { "seed", FKC_OPT_U64, &seed, "S", "a new FILTER's hash seed (default: 0)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "keep a '\\r' before the '\\n' as part of the key" },
        FKC_MEMLIMIT_OPT(&max_bytes),
        { NULL, 0, NULL, NULL, NULL },
    };
    char bounded[256], about[2048];
    fkc_kinds_with(FK_CAP_BOUNDED, bounded, sizeof bounded);
    snprintf(about, sizeof about,
        "Prints each line of stdin whose key is not yet in FILTER nor earlier in this\n"
        "input, adds it, and at the end saves FILTER atomically (as 'filterkit add'):\n"
        "  filterkit dedup seen.fk < today.log > new-today.log\n"
        "A new line whose key is a false positive of the filter is taken as seen and\n"
        "dropped (at the filter's false-positive rate); a seen line is never printed.\n"
        "When FILTER does not exist it is created with --kind, --fpr and --capacity.\n"
        "Keys follow the line rule of 'filterkit build'; a printed line is its key and\n"
        "'\\n'. If the filter fills up (%s) or saving fails, FILTER is left as\n"
        "it was and the exit status is 1 (the lines printed so far were new).", bounded);
    const fkc_cmd_spec spec = {
        "dedup", "[--binary-lines] [--max-bytes B] FILTER < in > out   (new FILTER: --kind K --fpr P --capacity N)",
        about,
        opts,
    };
    const char *path = NULL;
    int rc = fkc_args_parse_operands(&spec, NULL, argc, argv, &path, 1, "FILTER");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (strcmp(path, "-") == 0) /* stdin holds the lines, and a stream cannot be replaced */
        return fkc_args_fail(&spec, "FILTER '-': dedup rewrites the filter's file; give its path "
                             "(the lines come from stdin)");
    if (fkc_filterfile_can_save(spec.name, path) != 0)
        return 1;
    fk_filter *f = NULL;
    fkc_filelock lk;
    /* held from the read to the rename (see cmd_update.c) */
    if (fkc_filterfile_lock(spec.name, path, 1, &lk) != 0)
        return 1;
    if (lk.created) {
        rc = create(&spec, path, &kind, fpr, capacity, seed, max_bytes, &f);
    } else {
        rc = fkc_filterfile_load(spec.name, lk.real, &f, NULL, NULL) != 0 ||
             fkc_memlimit_apply(spec.name, f, max_bytes) != 0;
        if (!rc && (kind.ops || fpr != 0 || capacity || seed))
            fprintf(stderr, "filterkit dedup: %s: warning: the file exists, so --kind, --fpr, "
                    "--capacity and --seed are ignored (its own settings hold)\n", path);
    }
    if (rc) {
        fkc_filterfile_unlock(&lk, 0);
        return rc;
    }
    fkc_linereader r;
    if (fkc_linereader_init(&r, stdin, binary_lines) != 0) {
        fprintf(stderr, "filterkit dedup: out of memory\n");
        fk_filter_free(f);
        fkc_filterfile_unlock(&lk, 0);
        return 1;
    }
    fk_stats before, after;
    fk_filter_stats(f, &before);
    fkc_keybatch b;
    fkc_keybatch_init(&b);
    bool maybe[FKC_KEYBATCH_KEYS];
    int got = 0;
    uint64_t fresh = 0;
    fk_status s = FK_OK;
    fkc_progress_begin(NULL, 0);
    /* A batch of lines is looked up together (its lines come into cache at
     * once), then taken in order as the filter stands at each one's turn:
     * once a line of the batch went in, each later "absent" answer is asked
     * again (an insert only ever turns answers to "maybe", and a line
     * repeated within the batch must be seen). */
    while (s == FK_OK && !ferror(stdout) && (got = fkc_keybatch_read(&b, &r)) != 0) {
        if ((r.lines ^ (r.lines - b.n)) & ~(uint64_t)0xffff) {
            char at[64];
            fkc_linereader_progress(&r, at, sizeof at);
            fkc_progress("dedup: %s, %llu new", at, (unsigned long long)fresh);
        }
        fk_filter_contains_many(f, b.n, b.keys, b.lens, maybe);
        bool changed = false;
        for (size_t i = 0; i < b.n; i++) {
            if (maybe[i] || (changed && fk_filter_contains(f, b.keys[i], b.lens[i])))
                continue;
            if ((s = fk_filter_insert(f, b.keys[i], b.lens[i])) != FK_OK)
                break;
            changed = true;
            fresh++;
            fwrite(b.keys[i], 1, b.lens[i], stdout);
            putchar('\n');
        }
        if (got < 0)
            break;
    }
    fkc_progress_end();
    rc = 1;
    if (got < 0)
        fprintf(stderr, "filterkit dedup: reading stdin: %s; %s is unchanged\n", fkc_linereader_error(b.err), path);
    else if (s == FK_EFULL) {
        fprintf(stderr, "filterkit dedup: %s: the %s filter is full after %llu new keys; the file is "
                "unchanged\n", path, fk_filter_ops(f)->name, (unsigned long long)fresh);
        fk_stats full;
        fk_filter_stats(f, &full);
        fkc_hint_full(stderr, "dedup", fk_filter_ops(f), (unsigned long long)full.capacity);
    }
    else if (s != FK_OK)
        fprintf(stderr, "filterkit dedup: %s: insert failed: %s%s; the file is unchanged\n", path,
                fk_strerror(s), fkc_memlimit_hint(s));
    else if (fk_filter_stats(f, &after), after.items < before.items)
        fprintf(stderr, "filterkit dedup: %s: the item count would pass 2^64-1 (it was %llu); the file is "
                "unchanged\n", path, (unsigned long long)before.items);
    else if (fflush(stdout) != 0 || ferror(stdout))
        fprintf(stderr, "filterkit dedup: writing to stdout: %s; %s is unchanged\n", strerror(errno), path);
    else if (fkc_filterfile_save_locked(spec.name, &lk, f) == 0)
        rc = 0;
    fkc_filterfile_unlock(&lk, rc == 0);
    fkc_keybatch_free(&b);
    fkc_linereader_free(&r);
    fk_filter_free(f);
    return rc;
}
