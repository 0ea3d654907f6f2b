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

/* One value of a doc (not an OBJ / ARR / END). */
static void json_doc_value(FILE *to, const fkc_doc_item *it)
{
    char buf[40];
    switch (it->type) {
    case FKC_DOC_BOOL:
        fputs(it->v.b ? "true" : "false", to);
        break;
    case FKC_DOC_U64:
        fprintf(to, "%" PRIu64, it->v.u);
        break;
    case FKC_DOC_NUM:
        if (isnan(it->v.d) || isinf(it->v.d)) {
            fputs("null", to);
        } else {
            fkc_doc_shortest(it->v.d, buf, sizeof buf);
            fputs(buf, to);
        }
        break;
    case FKC_DOC_STR:
        fkc_json_string(to, it->v.s);
        break;
    default:
        fputs("null", to);
        break;
    }
}

void fkc_json_doc(FILE *to, const fkc_doc *d)
{
    /* the open containers: is it an array, items so far, one item a line */
    struct { int arr, multi; size_t count; } st[64];
    int depth = 0;
    for (size_t i = 0; i < d->n; i++) {
        const fkc_doc_item *it = &d->items[i];
        if (it->type == FKC_DOC_END) {
            if (depth <= 0)
                break;
            depth--;
            if (st[depth].multi && st[depth].count)
                fprintf(to, "\n%*s", 2 * depth, "");
            fputc(st[depth].arr ? ']' : '}', to);
            continue;
        }
        if (depth > 0) {
            if (st[depth - 1].count++)
                fputc(',', to);
            if (st[depth - 1].multi)
                fprintf(to, "\n%*s", 2 * depth, "");
            else if (st[depth - 1].count > 1)
                fputc(' ', to);
            if (it->key && !st[depth - 1].arr) {
                fkc_json_string(to, it->key);
                fputs(": ", to);
            }
        }
        if (it->type == FKC_DOC_OBJ || it->type == FKC_DOC_ARR) {
            if (depth == 64)
                break;
            int arr = it->type == FKC_DOC_ARR;
            fputc(arr ? '[' : '{', to);
            /* the top's members, and the items of its arrays: one a line */
            st[depth].arr = arr, st[depth].count = 0, st[depth].multi = depth == 0 || (depth == 1 && arr);
            depth++;
        } else {
            json_doc_value(to, it);
        }
    }
    fputc('\n', to);
}
