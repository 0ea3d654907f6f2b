/* bench/cli/cmd_columns.c: `filterkit columns`: the documentation of every
 * CSV/JSON column, as Markdown (the docs/bench.md section is generated from it). */
#include <stdio.h>
#include "args.h"
#include "cmd.h"
#include "../report/result.h"

static void list(const char *heading, const fkc_schema *s)
{
    printf("%s\n\n| column | meaning |\n|---|---|\n", heading);
    for (size_t i = 0; i < s->n; i++)
        printf("| `%s` | %s |\n", s->cols[i].name, s->cols[i].doc);
    printf("\n");
}

int fkc_cmd_columns(int argc, char **argv)
{
    const fkc_opt opts[] = { { NULL, 0, NULL, NULL, NULL } };
    const fkc_cmd_spec spec = {
        "columns", "", "Prints, as Markdown tables, every column of the CSV and JSON files.", opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    list("`bench`, `sweep --vary n`, `sweep --vary fpr` (files bench-*.csv, sweep-n-*.csv, sweep-fpr-*.csv):",
         &fkc_schema_bench);
    list("`sweep --vary load` (files sweep-load-*.csv):", &fkc_schema_load);
    return 0;
}
