/* bench/cli/cmd_update.c: `filterkit add FILTER < keys` and `filterkit remove
 * FILTER < keys`: change a saved filter in place, atomically (the file is
 * replaced only once every key went in; see fkc_filterfile_save). */
#include <stdio.h>
#include <string.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "hints.h"
#include "memlimit.h"
#include "../keys/keyfeed.h"
#include "operands.h"
#include "../../registry/registry.h"

/* add and remove: the same options, operand and steps; name and about
 * differ. */
static int update(const char *name, const char *about, fkc_feed_op op, int argc, char **argv)
{
    int binary_lines = 0;
    uint64_t max_bytes = 0;
    fkc_opt opts[] = {
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "keep a '\\r' before the '\\n' as part of the key" },
        FKC_MEMLIMIT_OPT(&max_bytes),
        { NULL, 0, NULL, NULL, NULL },
    };
    if (op == FKC_FEED_REMOVE) /* removing never grows a filter */
        opts[1] = opts[2];
    const fkc_cmd_spec cmd_spec = { name, op == FKC_FEED_REMOVE ? "[--binary-lines] FILTER < keys"
                                          : "[--binary-lines] [--max-bytes B] FILTER < keys", about, opts };
    const fkc_cmd_spec *spec = &cmd_spec;
    const char *path = NULL;
    int rc = fkc_args_parse_operands(spec, NULL, argc, argv, &path, 1,
                                    "FILTER (a file written by 'filterkit build')");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (strcmp(path, "-") == 0) /* stdin holds the keys, and a stream cannot be replaced */
        return fkc_args_fail(spec, "FILTER '-': %s rewrites the filter's file; give its path "
                             "(the keys come from stdin)", spec->name);
    fk_filter *f = NULL;
    fkc_filelock lk;
    /* held from the read to the rename: a second writer waits, then reads
     * what this one saved (else one of two batches would be lost) */
    if (fkc_filterfile_lock(spec->name, path, 0, &lk) != 0)
        return 1;
    if (fkc_filterfile_load(spec->name, lk.real, &f, NULL, NULL) != 0 ||
        fkc_filterfile_can_save(spec->name, lk.real) != 0 ||
        fkc_memlimit_apply(spec->name, f, max_bytes) != 0) {
        fk_filter_free(f);
        fkc_filterfile_unlock(&lk, 0);
        return 1;
    }
    const fk_ops *ops = fk_filter_ops(f);
    if (fk_ops_caps(ops) & FK_CAP_STATIC) { /* before reading a key: nothing to skip */
        fprintf(stderr, "filterkit %s: %s: a %s filter is static: built once from the whole "
                "set, it cannot %s keys; rebuild it from the new set with 'filterkit build "
                "--kind %s'\n", spec->name, path, ops->name,
                op == FKC_FEED_REMOVE ? "remove" : "add", ops->name);
        fk_filter_free(f);
        fkc_filterfile_unlock(&lk, 0);
        return 1;
    }
    if (op == FKC_FEED_REMOVE && !(fk_ops_caps(ops) & FK_CAP_REMOVE)) {
        char kinds[200];
        fkc_kinds_with(FK_CAP_REMOVE | FK_CAP_SERIALIZE, kinds, sizeof kinds);
        fprintf(stderr, "filterkit remove: %s: a %s filter cannot remove keys (kinds that can: %s)\n",
                path, ops->name, kinds);
        fk_filter_free(f);
        fkc_filterfile_unlock(&lk, 0);
        return 1;
    }
    fkc_linereader r;
    if (fkc_linereader_init(&r, stdin, binary_lines) != 0) {
        fprintf(stderr, "filterkit %s: out of memory\n", spec->name);
        fk_filter_free(f);
        fkc_filterfile_unlock(&lk, 0);
        return 1;
    }
    fk_stats st;
    fk_filter_stats(f, &st);
    fkc_feed_counts c;
    fk_status s = fkc_feed_lines(f, op, &r, 0, 0, spec->name, &c);
    fkc_linereader_free(&r);
    if (s == FK_EFULL) {
        fprintf(stderr, "filterkit add: %s: the %s filter is full after adding %llu keys; the file is "
                "unchanged\n", path, ops->name, (unsigned long long)c.done);
        fkc_hint_full(stderr, "add", ops, (unsigned long long)st.capacity);
    } else if (s == FK_EIO)
        fprintf(stderr, "filterkit %s: reading keys from stdin: %s; the file is unchanged\n", spec->name,
                fkc_linereader_error(c.read_err));
    else if (s != FK_OK)
        fprintf(stderr, "filterkit %s: %s: %s failed after %llu keys: %s%s; the file is unchanged\n",
                spec->name, path, spec->name, (unsigned long long)c.done, fk_strerror(s),
                fkc_memlimit_hint(s));
    fk_stats after;
    fk_filter_stats(f, &after);
    if (s == FK_OK && op == FKC_FEED_INSERT && after.items < st.items) {
        /* a loaded count near 2^64 would wrap on the kind's increment */
        fprintf(stderr, "filterkit add: %s: the item count would pass 2^64-1 (it was %llu); the file is "
                "unchanged\n", path, (unsigned long long)st.items);
        s = FK_EINVAL;
    }
    if (s == FK_OK && op == FKC_FEED_INSERT && !(fk_ops_caps(ops) & FK_CAP_GROWS) &&
        (double)(st.items + c.done) > 1.1 * (double)st.capacity)
        fprintf(stderr, "filterkit add: %s: warning: it now holds %llu items for a capacity of %llu "
                "(more than 10%% over): its false-positive rate is above target\n", path,
                (unsigned long long)(st.items + c.done), (unsigned long long)st.capacity);
    if (s == FK_OK && fkc_filterfile_save_locked(spec->name, &lk, f) != 0)
        s = FK_EIO;
    fkc_filterfile_unlock(&lk, s == FK_OK);
    fk_filter_free(f);
    if (s != FK_OK)
        return 1;
    if (op == FKC_FEED_REMOVE)
        printf("removed %llu, definitely absent %llu, repeated lines %llu\n", (unsigned long long)c.done,
               (unsigned long long)c.absent, (unsigned long long)c.repeats);
    return 0;
}

int fkc_cmd_add(int argc, char **argv)
{
    char removers[256], bounded[256], about[2048];
    fkc_kinds_with(FK_CAP_REMOVE, removers, sizeof removers);
    fkc_kinds_with(FK_CAP_BOUNDED, bounded, sizeof bounded);
    snprintf(about, sizeof about,
             "Inserts the key of each line of stdin into the saved FILTER and replaces the\n"
             "file atomically (a temporary file in the same folder, renamed over it once\n"
             "complete; on any failure, such as a full disk or a full table of a kind\n"
             "that fills up (%s), the file is left as it was). Lines and\n"
             "duplicates follow the rules of 'filterkit build': each distinct line of this\n"
             "input is inserted once (a key already in FILTER from before is inserted\n"
             "again into a filter of a kind that can remove (%s), and one\n"
             "'remove' then takes away one of the two).", bounded, removers);
    return update("add", about, FKC_FEED_INSERT, argc, argv);
}

int fkc_cmd_remove(int argc, char **argv)
{
    char removers[256], about[2048];
    fkc_kinds_with(FK_CAP_REMOVE | FK_CAP_SERIALIZE, removers, sizeof removers);
    snprintf(about, sizeof about,
             "Removes the key of each distinct line of stdin from the saved FILTER (a kind\n"
             "that can remove: %s), replaces the file atomically as\n"
             "'add' does, and prints one line: how many keys were removed, how many were\n"
             "definitely absent (nothing changed for those) and how many lines repeated an\n"
             "earlier one (removed once). Remove only keys that were added: removing a\n"
             "key that was never added but answers 'maybe present' (a false positive)\n"
             "takes away another key's trace and can make that key read as absent.", removers);
    return update("remove", about, FKC_FEED_REMOVE, argc, argv);
}
