/* bench/cli/operands.c: operands and one-letter flags (see operands.h). The
 * options are rewritten into a --long argv and handed to fkc_args_parse, so
 * option values, errors and help stay the same for every subcommand. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "operands.h"

/* The option "--name" or "--name=value" stands for (either name of a
 * synonym pair), or NULL. */
static const fkc_opt *long_opt(const fkc_cmd_spec *spec, const char *arg)
{
    const char *name = arg + 2;
    return fkc_args_find(spec, name, strcspn(name, "="));
}

static const char *short_name(const fkc_short_flag *shorts, char c)
{
    for (; shorts && shorts->letter; shorts++)
        if (shorts->letter == c)
            return shorts->name;
    return NULL;
}

int fkc_args_parse_operands(const fkc_cmd_spec *spec, const fkc_short_flag *shorts, int argc,
                           char **argv, const char **operand, int want, const char *what)
{
    int found = 0;
    return fkc_args_parse_operands_range(spec, shorts, argc, argv, operand, want, want, &found, what);
}

int fkc_args_parse_operands_range(const fkc_cmd_spec *spec, const fkc_short_flag *shorts, int argc,
                                 char **argv, const char **operand, int min, int max, int *nfound,
                                 const char *what)
{
    int want = max;
    /* Each short letter becomes one "--name"; there are at most as many
     * letters as argv bytes, so count them first. */
    size_t slots = 1;
    for (int i = 1; i < argc; i++)
        slots += strlen(argv[i]) + 1;
    char **out = malloc(slots * sizeof *out);
    char (*names)[64] = malloc(slots * sizeof *names);
    if (!out || !names) {
        free(out);
        free(names);
        return fkc_args_fail(spec, "out of memory");
    }
    int n = 0, found = 0, rc = FKC_ARGS_OK;
    size_t used = 0;
    out[n++] = argv[0];
    for (int i = 1; i < argc && rc == FKC_ARGS_OK; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) { /* the rest are operands */
            while (++i < argc && rc == FKC_ARGS_OK) {
                if (found < want)
                    operand[found++] = argv[i];
                else
                    rc = fkc_args_fail(spec, "unexpected argument '%s'", argv[i]);
            }
            break;
        }
        if (strcmp(a, "-h") == 0 || strncmp(a, "--", 2) == 0) {
            out[n++] = argv[i];
            const fkc_opt *o = a[1] == '-' ? long_opt(spec, a) : NULL;
            /* "--name value": keep the value with its option */
            if (o && o->type != FKC_OPT_FLAG && !strchr(a, '=') && i + 1 < argc)
                out[n++] = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            for (const char *c = a + 1; *c && rc == FKC_ARGS_OK; c++) {
                const char *name = short_name(shorts, *c);
                if (!name || strlen(name) > 60) {
                    rc = fkc_args_fail(spec, "unknown option '-%c'", *c);
                    break;
                }
                snprintf(names[used], sizeof names[used], "--%s", name);
                out[n++] = names[used++];
                /* a letter that takes a value: the rest of this argument
                 * ("-fseen.fk") or the next one ("-f seen.fk", "-f -") */
                char probe[72];
                snprintf(probe, sizeof probe, "--%s", name);
                const fkc_opt *o = long_opt(spec, probe);
                if (o && o->type != FKC_OPT_FLAG) {
                    if (c[1])
                        out[n++] = (char *)(uintptr_t)(c + 1);
                    else if (i + 1 < argc)
                        out[n++] = argv[++i];
                    break;
                }
            }
        } else if (found < want) {
            operand[found++] = a;
        } else {
            rc = fkc_args_fail(spec, "unexpected argument '%s'", a);
        }
    }
    if (rc == FKC_ARGS_OK)
        rc = fkc_args_parse(spec, n, out);
    if (rc == FKC_ARGS_OK && found < min)
        rc = fkc_args_fail(spec, "missing %s", what);
    *nfound = found;
    free(out);
    free(names);
    return rc;
}
