/* tests/fuzz/fuzz_cli_args.c: libFuzzer target: the CLI's argument parsing
 * (bench/cli/args.c, bench/cli/operands.c) on arbitrary argument vectors.
 *
 * Input: the arguments, separated by NUL bytes. They are parsed against a
 * table holding every option type (and both names of each synonym pair of
 * the shared vocabulary: --kind/--filters, --n/--capacity), as --long
 * options and as operands with one-letter flags, and each one through
 * every single-value parser. Properties: no crash, leak or UB; the result
 * is one of the three documented codes; every value stored is inside its
 * type's domain (a kind is one the option offers); an operand is one of
 * the arguments given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../bench/cli/args.h"
#include "../../bench/cli/operands.h"

#define REQUIRE(c) \
    do { if (!(c)) { fprintf(stderr, "fuzz_cli_args: %s failed\n", #c); abort(); } } while (0)
#define MAX_ARGS 64


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    copy[size] = 0;
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    argv[argc++] = "fuzz";
    for (char *p = copy; p < copy + size && argc < MAX_ARGS; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;

    int flag = 0;
    uint64_t u = 0, count = 0, bytes = 0;
    double fpr = 0, ratio = 0;
    const char *str = NULL, *choice = NULL;
    fkc_kind_opt kind = { .refuse = FK_CAP_STATIC }, kinds = { 0 };
    fkc_u64_list counts = { { 0 }, 0 };
    fkc_double_list fprs = { { 0 }, 0 };
    const fkc_opt opts[] = {
        { "flag", FKC_OPT_FLAG, &flag, NULL, "a flag" },
        { "count", FKC_OPT_FLAG, &flag, NULL, "-c" },
        { "u", FKC_OPT_U64, &u, "N", "u64" },
        { "n", FKC_OPT_COUNT, &count, "N", "count" },
        { "fpr", FKC_OPT_FPR, &fpr, "P", "rate" },
        { "ratio", FKC_OPT_RATIO, &ratio, "R", "ratio" },
        { "bytes", FKC_OPT_BYTES, &bytes, "B", "bytes" },
        { "str", FKC_OPT_STR, &str, "S", "string" },
        { "ns", FKC_OPT_COUNT_LIST, &counts, "N,...", "counts" },
        { "fprs", FKC_OPT_FPR_LIST, &fprs, "P,...", "rates" },
        { "choice", FKC_OPT_CHOICE, &choice, "bloom|counting|cuckoo", "choice" },
        { "kind", FKC_OPT_KIND, &kind, "K", "one kind" },
        { "kinds", FKC_OPT_KINDS, &kinds, "LIST", "kinds" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = { "fuzz", "[options]", "fuzzing", opts };

    for (int pass = 0; pass < 2; pass++) {
        count = bytes = 0;
        fpr = ratio = 0.5;
        counts.n = fprs.n = 0;
        choice = NULL;
        kind.value = kinds.value = NULL;
        kind.ops = NULL;
        const char *operand = NULL;
        static const fkc_short_flag shorts[] = { { 'c', "count" }, { 'f', "flag" }, { 0, NULL } };
        int rc = pass == 0 ? fkc_args_parse(&spec, argc, argv)
                           : fkc_args_parse_operands(&spec, shorts, argc, argv, &operand, 1, "X");
        REQUIRE(rc == FKC_ARGS_OK || rc == FKC_ARGS_HELP || rc == FKC_ARGS_BAD);
        if (rc != FKC_ARGS_OK)
            continue;
        REQUIRE(fpr > 0 && fpr < 1);
        REQUIRE(ratio >= 0 && ratio <= 1);
        REQUIRE(counts.n <= FKC_LIST_MAX && fprs.n <= FKC_LIST_MAX);
        for (size_t i = 0; i < counts.n; i++)
            REQUIRE(counts.v[i] > 0);
        for (size_t i = 0; i < fprs.n; i++)
            REQUIRE(fprs.v[i] > 0 && fprs.v[i] < 1);
        REQUIRE(!choice || !strcmp(choice, "bloom") || !strcmp(choice, "counting") ||
                !strcmp(choice, "cuckoo"));
        REQUIRE(!kind.value == !kind.ops);
        REQUIRE(!kind.ops || (fkc_kind_opt_offers(&kind, kind.ops) &&
                              strcmp(kind.ops->name, kind.value) == 0));
        REQUIRE(!kinds.value || *kinds.value);
        if (pass == 1) {
            int found = 0;
            for (int i = 1; i < argc; i++)
                found |= operand == argv[i];
            REQUIRE(found);
        }
    }
    /* every argument through every single-value parser */
    for (int i = 1; i < argc; i++) {
        uint64_t v;
        double d;
        (void)fkc_parse_u64(argv[i], &v);
        if (fkc_parse_bytes(argv[i], &v) == 0)
            REQUIRE(v > 0);
        if (fkc_parse_fpr(argv[i], &d) == 0)
            REQUIRE(d > 0 && d < 1);
        if (fkc_parse_ratio(argv[i], &d) == 0)
            REQUIRE(d >= 0 && d <= 1);
    }
    free(copy);
    return 0;
}
