/* bench/report/report.h: the three outputs of a run: a table for people (stdout),
 * CSV and JSON for plots and tools (also written to --out DIR). */
#ifndef FK_BENCH_REPORT_H
#define FK_BENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "result.h"
#include "runinfo.h"

/* The per-filter table of bench and sweep --vary n|fpr; the "x libbloom"
 * columns appear when a libbloom row is present. */
void fk_report_table(FILE *to, const char *title, const fk_result *rows, size_t n);

/* The per-step table of sweep --vary load. */
void fk_report_table_load(FILE *to, const char *title, const fk_result *rows, size_t n);

/* CSV: '#' comment lines with the run info, one header line of column
 * names, then one line per row (empty field = not measured). */
void fk_report_csv(FILE *to, const fk_runinfo *ri, const fk_schema *s, const fk_result *rows, size_t n);

/* JSON: {"run": {...run info...}, "results": [{column: value, ...}, ...]}
 * (null = not measured). */
/* Writes s as a JSON string: quoted, with '"', '\\' and control bytes
 * escaped (other bytes as they are). */
void fk_json_string(FILE *to, const char *s);

void fk_report_json(FILE *to, const fk_runinfo *ri, const fk_schema *s, const fk_result *rows, size_t n);

/* Writes DIR/STEM.csv and DIR/STEM.json (creating DIR), and names each
 * file written on stderr. Returns 0, or -1 after printing why. */
int fk_report_files(const char *dir, const char *stem, const fk_runinfo *ri, const fk_schema *s,
                    const fk_result *rows, size_t n);

/* Value of column c of row r as text (empty for NaN), for CSV and tests. */
void fk_report_cell(const fk_column *c, const fk_result *r, char *buf, size_t len);

#endif
