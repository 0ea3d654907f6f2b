/* bench/report/report_json.c: JSON output. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "report.h"

void fkc_json_string(FILE *to, const char *s)
{
    fputc('"', to);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(to, "\\%c", c);
        else if (c < 0x20)
            fprintf(to, "\\u%04x", c);
        else
            fputc(c, to);
    }
    fputc('"', to);
}

void fkc_report_json(FILE *to, const fkc_runinfo *ri, const fkc_schema *s, const fkc_result *rows, size_t n)
{
    const char *name;
    char value[2048];
    fprintf(to, "{\n  \"run\": {");
    for (int i = 0; fkc_runinfo_field(ri, i, &name, value, sizeof value); i++) {
        fprintf(to, "%s\n    ", i ? "," : "");
        fkc_json_string(to, name);
        fprintf(to, ": ");
        if (strcmp(name, "seed") == 0) /* a number, not a string */
            fprintf(to, "%s", value);
        else
            fkc_json_string(to, value);
    }
    fprintf(to, "\n  },\n  \"results\": [");
    for (size_t r = 0; r < n; r++) {
        fprintf(to, "%s\n    {", r ? "," : "");
        for (size_t c = 0; c < s->n; c++) {
            const fkc_column *col = &s->cols[c];
            const char *at = (const char *)&rows[r] + col->offset;
            fprintf(to, "%s", c ? ", " : "");
            fkc_json_string(to, col->name);
            fputs(": ", to);
            if (col->type == FKC_COL_STR) {
                fkc_json_string(to, *(const char *const *)(const void *)at);
            } else if (col->type == FKC_COL_U64) {
                fprintf(to, "%" PRIu64, *(const uint64_t *)(const void *)at);
            } else {
                double d = *(const double *)(const void *)at;
                if (isnan(d) || isinf(d))
                    fputs("null", to);
                else
                    fprintf(to, "%.6g", d);
            }
        }
        fputc('}', to);
    }
    fprintf(to, "\n  ]\n}\n");
}
