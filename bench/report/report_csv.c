/* bench/report/report_csv.c: CSV output and the files written to --out. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include "report.h"

void fkc_report_cell(const fkc_column *c, const fkc_result *r, char *buf, size_t len)
{
    const char *at = (const char *)r + c->offset;
    double d;
    switch (c->type) {
    case FKC_COL_STR:
        snprintf(buf, len, "%s", *(const char *const *)(const void *)at);
        return;
    case FKC_COL_U64:
        snprintf(buf, len, "%" PRIu64, *(const uint64_t *)(const void *)at);
        return;
    case FKC_COL_F:
        d = *(const double *)(const void *)at;
        if (isnan(d) || isinf(d))
            buf[0] = 0;
        else
            snprintf(buf, len, "%.6g", d);
        return;
    }
    buf[0] = 0;
}

void fkc_report_csv(FILE *to, const fkc_runinfo *ri, const fkc_schema *s, const fkc_result *rows, size_t n)
{
    const char *name;
    char value[2048];
    fprintf(to, "# filterkit results; columns are documented in docs/bench.md and by filterkit columns\n");
    for (int i = 0; fkc_runinfo_field(ri, i, &name, value, sizeof value); i++) {
        for (char *p = value; *p; p++)
            if (*p == '\n')
                *p = ' ';
        fprintf(to, "# %s: %s\n", name, value);
    }
    for (size_t c = 0; c < s->n; c++)
        fprintf(to, "%s%s", c ? "," : "", s->cols[c].name);
    fputc('\n', to);
    for (size_t i = 0; i < n; i++) {
        for (size_t c = 0; c < s->n; c++) {
            char cell[64];
            fkc_report_cell(&s->cols[c], &rows[i], cell, sizeof cell);
            fprintf(to, "%s%s", c ? "," : "", cell);
        }
        fputc('\n', to);
    }
}

int fkc_make_dirs(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return -1;
    for (char *p = path + 1;; p++) {
        if (*p == '/' || *p == 0) {
            char c = *p;
            *p = 0;
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = c;
            if (!c)
                break;
        }
    }
    return 0;
}

int fkc_report_files(const char *dir, const char *stem, const fkc_runinfo *ri, const fkc_schema *s,
                    const fkc_result *rows, size_t n)
{
    if (fkc_make_dirs(dir)) {
        fprintf(stderr, "filterkit: cannot create '%s': %s\n", dir, strerror(errno));
        return -1;
    }
    for (int json = 0; json < 2; json++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s", dir, stem, json ? "json" : "csv");
        FILE *f = fopen(path, "w");
        if (!f) {
            fprintf(stderr, "filterkit: cannot write '%s': %s\n", path, strerror(errno));
            return -1;
        }
        if (json)
            fkc_report_json(f, ri, s, rows, n);
        else
            fkc_report_csv(f, ri, s, rows, n);
        if (fclose(f) != 0) {
            fprintf(stderr, "filterkit: error writing '%s'\n", path);
            return -1;
        }
        fprintf(stderr, "wrote %s\n", path);
    }
    return 0;
}
