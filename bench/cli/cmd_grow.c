/* bench/cli/cmd_grow.c: `filterkit grow [--times G | --to N] A.fk > B.fk`:
 * a saved filter doubled in place without its keys, through fk_filter_grow
 * (the kinds with a grow slot, FK_CAP_RESIZES). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "hints.h"
#include "memlimit.h"
#include "operands.h"
#include "../../registry/registry.h"
#include "../report/units.h"

/* The doublings that take a filter of capacity `have` to at least `want`
 * (0 when it is there already). */
static unsigned doublings_to(uint64_t have, uint64_t want)
{
    unsigned g = 0;
    while (have < want && have <= UINT64_MAX / 2) {
        have *= 2;
        g++;
    }
    return have < want ? g + 1 : g; /* past 2^63: one more, which fails */
}

int fkc_cmd_grow(int argc, char **argv)
{
    uint64_t times = 0, to = 0, max_bytes = 0;
    const fkc_opt opts[] = {
        { "times", FKC_OPT_COUNT, &times, "G", "double G times (default 1)" },
        { "to", FKC_OPT_COUNT, &to, "N", "double until the capacity is at least N items" },
        FKC_MEMLIMIT_OPT(&max_bytes),
        { NULL, 0, NULL, NULL, NULL },
    };
    char resizers[256], about[2048];
    fkc_kinds_with(FK_CAP_RESIZES, resizers, sizeof resizers);
    snprintf(about, sizeof about,
        "Writes to stdout, saved, the filter A.fk doubled in place without its keys:\n"
        "every key it held (with its count) and room for twice as many. Each doubling\n"
        "doubles the false-positive rate at a given number of keys, and the capacity\n"
        "and the target fpr that 'filterkit info' reports: make the filter with the\n"
        "fpr you need at the end divided by 2^G ('filterkit pick --grow-to N' says\n"
        "which). The kinds whose fk_ops has a grow slot resize (%s; a quotient\n"
        "filter's slots double and its remainders lose a bit); others exit 1, naming\n"
        "the kinds that do. Growing kinds (scalable-*) need no call: they grow as keys arrive.\n"
        "A filter that cannot double again (its remainders at the minimum width, or\n"
        "the doubled table past the library's memory cap) exits 1, nothing written.\n"
        "A doubling whose filter would hold more than --max-bytes (its memory twice\n"
        "over) exits 1 before allocating, nothing written.", resizers);
    const fkc_cmd_spec spec = {
        "grow", "[--times G | --to N] [--max-bytes B] A.fk > B.fk",
        about,
        opts,
    };
    const char *path[1] = { NULL };
    int rc = fkc_args_parse_operands(&spec, NULL, argc, argv, path, 1, "A.fk (a saved filter)");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (times && to)
        return fkc_args_fail(&spec, "--times G and --to N: give one");
    if (isatty(STDOUT_FILENO))
        return fkc_args_fail(&spec, "refusing to write a binary filter to a terminal; redirect stdout");
    fk_filter *f = NULL;
    fk_serial_head h;
    if (fkc_filterfile_load(spec.name, path[0], &f, &h, NULL) != 0)
        return 1;
    rc = 1;
    const fk_ops *ops = fk_filter_ops(f);
    if (!(fk_ops_caps(ops) & FK_CAP_RESIZES)) {
        char kinds[200];
        fkc_kinds_with(FK_CAP_RESIZES, kinds, sizeof kinds);
        fprintf(stderr, "filterkit grow: %s filters cannot be resized: the library has no grow for "
                "this kind (kinds that resize: %s)%s\n", ops->name, kinds,
                (fk_ops_caps(ops) & FK_CAP_GROWS) ? "; this one grows by itself as keys arrive"
                                                  : "; build a larger filter from the keys instead");
        goto out;
    }
    fk_stats st;
    fk_filter_stats(f, &st);
    unsigned g = to ? doublings_to(st.capacity, to) : times ? (unsigned)(times > 64 ? 65 : times) : 1;
    if (!max_bytes)
        max_bytes = fkc_memlimit_default();
    for (unsigned i = 0; i < g; i++) {
        fk_filter_stats(f, &st);
        uint64_t need = st.memory_bytes > UINT64_MAX / 2 ? UINT64_MAX : 2 * st.memory_bytes;
        if (need > max_bytes) {
            char have[32], want[32], now[32];
            fkc_human_bytes(need, want, sizeof want);
            fkc_human_bytes(st.memory_bytes, now, sizeof now);
            fkc_human_bytes(max_bytes, have, sizeof have);
            fprintf(stderr, "filterkit grow: %s: doubling %u of %u would make a filter of about %s "
                    "(twice %s), over the memory limit of %s (--max-bytes B raises it); "
                    "nothing written\n", path[0], i + 1, g, want,
                    now, have);
            goto out;
        }
        fk_status s = fk_filter_grow(f);
        if (s != FK_OK) {
            fprintf(stderr, "filterkit grow: %s: doubling %u of %u: %s%s; nothing written\n", path[0],
                    i + 1, g, fk_strerror(s),
                    s == FK_EINVAL ? " (it cannot double again: its remainders are at the minimum "
                                     "width, or the doubled table would pass the memory cap)" : "");
            goto out;
        }
    }
    fk_status s = fk_filter_save_file(f, stdout);
    if (s != FK_OK)
        fprintf(stderr, "filterkit grow: %s\n", s == FK_EIO ? "writing the filter to stdout failed"
                                                            : fk_strerror(s));
    else
        rc = 0;
out:
    fk_filter_free(f);
    return rc;
}
