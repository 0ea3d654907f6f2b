/* bench/report/report.h: the three outputs of a run: a table for people (stdout),
 * CSV and JSON for plots and tools (also written to --out DIR). */
#ifndef FKC_BENCH_REPORT_H
#define FKC_BENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include "doc.h"
#include "result.h"
#include "runinfo.h"

/* The per-filter table of bench and sweep --vary n|fpr: compact (about 90
 * columns: sizes, fpr, insert, absent and found lookups, remove, batch) or,
 * wide, every figure; the "x libbloom" columns appear when a libbloom row
 * is present. */
void fkc_report_table(FILE *to, const char *title, const fkc_result *rows, size_t n, int wide);

/* The per-step table of sweep --vary load. */
void fkc_report_table_load(FILE *to, const char *title, const fkc_result *rows, size_t n);

/* CSV: '#' comment lines with the run info, one header line of column
 * names, then one line per row (empty field = not measured). */
void fkc_report_csv(FILE *to, const fkc_runinfo *ri, const fkc_schema *s, const fkc_result *rows, size_t n);

/* JSON: {"run": {...run info...}, "results": [{column: value, ...}, ...]}
 * (null = not measured). */
/* Writes s as a JSON string: quoted, with '"', '\\' and control bytes
 * escaped (other bytes as they are). */
void fkc_json_string(FILE *to, const char *s);

void fkc_report_json(FILE *to, const fkc_runinfo *ri, const fkc_schema *s, const fkc_result *rows, size_t n);

/* A doc (doc.h) as JSON: the top object's members one a line, the items
 * of its arrays one a line, the rest inline; numbers in their shortest
 * form, NaN and infinities as null; ends in a newline. */
void fkc_json_doc(FILE *to, const fkc_doc *d);

/* Writes DIR/STEM.csv and DIR/STEM.json (creating DIR), and names each
 * file written on stderr. Returns 0, or -1 after printing why. */
int fkc_report_files(const char *dir, const char *stem, const fkc_runinfo *ri, const fkc_schema *s,
                    const fkc_result *rows, size_t n);

/* Value of column c of row r as text (empty for NaN), for CSV and tests. */
void fkc_report_cell(const fkc_column *c, const fkc_result *r, char *buf, size_t len);

/* mkdir -p dir: returns 0, or -1 (errno set) when a folder could not be made. */
int fkc_make_dirs(const char *dir);

#endif
