/* bench/report/emit.c: see emit.h. */
#include <stdio.h>
#include <string.h>
#include "emit.h"
#include "report.h"
#include "runinfo.h"

int fkc_emit(const char *format, const char *title, int load, const fkc_result *rows, size_t n,
            const char *dir, const char *stem, uint64_t seed)
{
    fkc_runinfo ri;
    fkc_runinfo_fill(&ri, seed);
    const fkc_schema *schema = load ? &fkc_schema_load : &fkc_schema_bench;
    if (strcmp(format, "csv") == 0)
        fkc_report_csv(stdout, &ri, schema, rows, n);
    else if (strcmp(format, "json") == 0)
        fkc_report_json(stdout, &ri, schema, rows, n);
    else if (load)
        fkc_report_table_load(stdout, title, rows, n);
    else
        fkc_report_table(stdout, title, rows, n, strcmp(format, "wide") == 0);
    fflush(stdout);
    if (strcmp(dir, "-") == 0)
        return 0;
    return fkc_report_files(dir, stem, &ri, schema, rows, n) ? 1 : 0;
}
