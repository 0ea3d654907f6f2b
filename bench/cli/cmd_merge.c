/* bench/cli/cmd_merge.c: `filterkit merge A.fk B.fk > C.fk`: the union of two
 * compatible saved filters, through fk_filter_merge (the kinds with a
 * merge slot, FK_CAP_MERGE). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "hints.h"
#include "operands.h"
#include "../../registry/registry.h"

typedef fk_status (*union_fn)(fk_filter *dst, const fk_filter *src);

/* The library's union of the kind (its fk_ops merge slot, FK_CAP_MERGE),
 * or NULL: merge learns which kinds unite from their tables. */
static union_fn union_of(const fk_ops *ops)
{
    return (fk_ops_caps(ops) & FK_CAP_MERGE) ? fk_filter_merge : NULL;
}

/* Why two headers of the same kind cannot be merged, or NULL. */
static const char *incompatible(const fk_serial_head *a, const fk_serial_head *b, char *why, size_t len)
{
    if (a->hash_scheme != b->hash_scheme) {
        snprintf(why, len, "their hashing schemes differ (%u and %u; see 'filterkit info')",
                 (unsigned)a->hash_scheme, (unsigned)b->hash_scheme);
        return why;
    }
    if (a->seed != b->seed) {
        snprintf(why, len, "their seeds differ (%llu and %llu)", (unsigned long long)a->seed,
                 (unsigned long long)b->seed);
        return why;
    }
    for (unsigned i = 0; i < FK_SERIAL_PARAMS; i++)
        if (a->param[i] != b->param[i]) {
            const char *name = fkc_filterfile_param_name(a->kind_id, i);
            char label[48];
            if (name)
                snprintf(label, sizeof label, "%s", name);
            else
                snprintf(label, sizeof label, "parameter %u", i);
            snprintf(why, len, "their geometry differs (%s: %llu and %llu; see 'filterkit info')", label,
                     (unsigned long long)a->param[i], (unsigned long long)b->param[i]);
            return why;
        }
    return NULL;
}

int fkc_cmd_merge(int argc, char **argv)
{
    int strict = 0;
    const fkc_opt opts[] = {
        { "strict", FKC_OPT_FLAG, &strict, NULL, "refuse (exit 1, nothing written) when the union's expected fpr exceeds the target" },
        { NULL, 0, NULL, NULL, NULL },
    };
    char mergers[256], about[2048];
    fkc_kinds_with(FK_CAP_MERGE, mergers, sizeof mergers);
    snprintf(about, sizeof about,
        "Writes to stdout, saved, the union of two saved filters: a filter that\n"
        "answers 'maybe present' for every key either one held, as if built from both\n"
        "inputs. They must be compatible: the same kind, geometry (same --fpr and\n"
        "--capacity at build time) and seed; anything else exits 1 saying what\n"
        "differs. The kinds whose fk_ops has a merge slot merge (%s;\n"
        "kinds that count add the counts); others exit 1, naming the kinds\n"
        "that do: build one filter from both inputs instead.\n"
        "The union holds the keys of both, in a filter of the same size: when its\n"
        "expected false-positive rate exceeds the target the inputs were built for, a\n"
        "warning says so (as 'filterkit add' does); --strict refuses instead (exit 1,\n"
        "nothing written). Build a larger filter from both key lists then.", mergers);
    const fkc_cmd_spec spec = {
        "merge", "[--strict] A.fk B.fk > C.fk",
        about,
        opts,
    };
    const char *path[2] = { NULL, NULL };
    int rc = fkc_args_parse_operands(&spec, NULL, argc, argv, path, 2, "A.fk B.fk (two saved filters)");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (isatty(STDOUT_FILENO))
        return fkc_args_fail(&spec, "refusing to write a binary filter to a terminal; redirect stdout");
    fk_filter *f[2] = { NULL, NULL };
    fk_serial_head h[2];
    rc = 1;
    if (fkc_filterfile_load(spec.name, path[0], &f[0], &h[0], NULL) != 0 ||
        fkc_filterfile_load(spec.name, path[1], &f[1], &h[1], NULL) != 0)
        goto out;
    const fk_ops *ops = fk_filter_ops(f[0]);
    union_fn unite = union_of(ops);
    char why[200];
    if (fk_filter_ops(f[1]) != ops) {
        fprintf(stderr, "filterkit merge: %s is a %s filter and %s a %s filter: only filters of the same "
                "kind can be merged\n", path[0], ops->name, path[1], fk_filter_ops(f[1])->name);
    } else if (!unite) {
        char kinds[200];
        fkc_kinds_with(FK_CAP_MERGE, kinds, sizeof kinds);
        fprintf(stderr, "filterkit merge: %s filters cannot be merged: the library has no merge for "
                "this kind (kinds that merge: %s); build one filter from both inputs instead\n",
                ops->name, kinds);
    } else if (incompatible(&h[0], &h[1], why, sizeof why)) {
        fprintf(stderr, "filterkit merge: %s and %s cannot be merged: %s\n", path[0], path[1], why);
    } else if (h[0].items > UINT64_MAX - h[1].items) {
        /* the union's item count is the sum; it must not wrap */
        fprintf(stderr, "filterkit merge: %s and %s cannot be merged: their item counts (%llu and %llu) "
                "add up past 2^64-1\n", path[0], path[1], (unsigned long long)h[0].items,
                (unsigned long long)h[1].items);
    } else {
        fk_status s = unite(f[0], f[1]);
        fk_stats st;
        if (s == FK_OK) {
            fk_filter_stats(f[0], &st);
            if (st.expected_fpr > h[0].fpr * 1.1) {
                fprintf(stderr, "filterkit merge: %s: the union's expected false-positive rate is %.3g, above "
                        "the %g target of its inputs (%llu items for a capacity of %llu)%s\n",
                        strict ? "refused (--strict)" : "warning", st.expected_fpr, h[0].fpr,
                        (unsigned long long)st.items, (unsigned long long)st.capacity,
                        strict ? "; nothing written: build one filter with a larger --capacity from both "
                                 "key lists" : "");
                if (strict)
                    goto out;
            }
            s = fk_filter_save_file(f[0], stdout);
        }
        if (s != FK_OK)
            fprintf(stderr, "filterkit merge: %s\n", s == FK_EIO ? "writing the filter to stdout failed"
                                                                 : fk_strerror(s));
        else
            rc = 0;
    }
out:
    fk_filter_free(f[0]);
    fk_filter_free(f[1]);
    return rc;
}
