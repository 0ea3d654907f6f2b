/* bench/cmd_info.c: `filterkit info FILTER`: what a saved filter is --
 * kind, geometry, sizes, fill and expected false-positive rate. */
#include <stdio.h>
#include <string.h>
#include "../bloom/blocked_serial.h"
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "operands.h"

/* What each kind's header parameters mean (see the kind's *_serial.c). */
static const struct {
    uint32_t    kind_id;
    const char *names[FK_SERIAL_PARAMS];
} param_names[] = {
    { FK_KIND_BLOOM, { "bits (m)", "hashes (k)" } },
    { FK_KIND_COUNTING, { "counters (m)", "hashes (k)", "counter bits" } },
    { FK_KIND_CUCKOO, { "buckets", "fp bits (f)", "kicks so far", "kick rng state" } },
    { FK_KIND_BLOCKED, { "blocks", "bits per block" } },
};

static const char *param_name(uint32_t kind_id, unsigned i)
{
    for (size_t k = 0; k < sizeof param_names / sizeof param_names[0]; k++)
        if (param_names[k].kind_id == kind_id)
            return param_names[k].names[i];
    return NULL;
}

int fk_cmd_info(int argc, char **argv)
{
    const fk_opt opts[] = { { NULL, 0, NULL, NULL, NULL } };
    const fk_cmd_spec spec = {
        "info", "FILTER",
        "Describes a saved filter (a file written by 'filterkit build'): its kind,\n"
        "parameters, sizes, fill and the false-positive rate expected at that fill.\n"
        "Exit status 1 when the file is not a valid filter.",
        opts,
    };
    const char *path = NULL;
    int rc = fk_args_parse_operands(&spec, NULL, argc, argv, &path, 1, "FILTER");
    if (rc)
        return rc == FK_ARGS_HELP ? 0 : 2;
    fk_filter *f = NULL;
    fk_serial_head h;
    uint64_t bytes = 0;
    if (fk_filterfile_load(spec.name, path, &f, &h, &bytes) != 0)
        return 1;
    fk_stats st;
    fk_filter_stats(f, &st);
    printf("file:            %s\n", path);
    printf("kind:            %s\n", fk_filter_ops(f)->name);
    printf("format:          version %u, hashing scheme %u (XXH3-128), checksum ok\n",
           (unsigned)h.version, (unsigned)h.hash_scheme);
    printf("file bytes:      %llu\n", (unsigned long long)bytes);
    printf("memory bytes:    %llu\n", (unsigned long long)st.memory_bytes);
    printf("seed:            %llu\n", (unsigned long long)h.seed);
    for (unsigned i = 0; i < FK_SERIAL_PARAMS; i++) {
        const char *name = param_name(h.kind_id, i);
        char label[48];
        if (name)
            snprintf(label, sizeof label, "%s:", name);
        else if (h.param[i])
            snprintf(label, sizeof label, "parameter %u:", i);
        else
            continue;
        printf("%-16s %llu\n", label, (unsigned long long)h.param[i]);
    }
    printf("capacity:        %llu\n", (unsigned long long)st.capacity);
    printf("items:           %llu\n", (unsigned long long)st.items);
    printf("bits per item:   %.2f (at capacity)\n", st.bits_per_item);
    printf("load factor:     %.4f\n", st.load_factor);
    printf("target fpr:      %g\n", h.fpr);
    printf("expected fpr:    %.3g (at the current load)\n", st.expected_fpr);
    fk_filter_free(f);
    return 0;
}
