/* bench/trace/trace.h: `filterkit trace`, the teaching mode. It builds one tiny
 * filter and prints every step of each insert, lookup and remove: the hash,
 * the probe positions (bloom, counting) or fingerprint, buckets and kicks
 * (cuckoo), and the filter's array after the step, read back through the
 * module's public accessors (never recomputed), so what it shows is the
 * filter's real state.
 *
 * The output is plain text meant for a terminal or a Markdown code block;
 * its line shapes are stable (tests/test_trace.c parses them):
 *   insert|lookup|remove "KEY"          one block per step
 *     probes P1 P2 ...                   bloom/counting, in probe order
 *     fingerprint 0xFP / i1 B / i2 B     cuckoo
 *     kick N: 0xFP from bucket A slot S -> bucket B
 *     <offset>  <one char per bit/counter>   the array (bloom/counting)
 *     bucket B: FP FP FP FP              the table (cuckoo), -- = empty
 */
#ifndef FK_BENCH_TRACE_H
#define FK_BENCH_TRACE_H

#include <stddef.h>
#include <stdio.h>
#include "../../common/params.h"

/* The subcommand itself, fk_cmd_trace, is declared in bench/cli/cmd.h. */

/* ------------------------------------------ shared by bench/trace_*.c */

typedef enum { FK_TRACE_INSERT, FK_TRACE_LOOKUP, FK_TRACE_REMOVE } fk_trace_op;

typedef struct {
    fk_trace_op op;
    const char *key; /* from argv */
    size_t      len;
} fk_trace_step;

/* What the trace should do, after argument parsing. */
typedef struct {
    fk_params            params;
    const fk_trace_step *steps;
    size_t               nsteps;
    FILE                *out;
} fk_trace_job;

/* The keys inserted and not yet removed, so a lookup can be labelled a false
 * positive. Backed by the job's steps (at most nsteps distinct keys). */
typedef struct {
    const fk_trace_step *steps;
    size_t              *count; /* count[i]: copies of steps[i].key held */
    size_t               n;
} fk_trace_truth;

int    fk_trace_truth_init(fk_trace_truth *t, const fk_trace_job *job);
void   fk_trace_truth_free(fk_trace_truth *t);
void   fk_trace_truth_add(fk_trace_truth *t, const char *key, size_t len);
void   fk_trace_truth_del(fk_trace_truth *t, const char *key, size_t len);
size_t fk_trace_truth_has(const fk_trace_truth *t, const char *key, size_t len);

/* Prints key in double quotes, escaping quotes, backslashes and bytes
 * outside printable ASCII as \xHH. */
void fk_trace_print_key(FILE *out, const char *key, size_t len);

/* Prints the step's heading line: `insert "apple"`. */
void fk_trace_print_heading(FILE *out, const fk_trace_step *s);

/* The largest filters a trace will draw. */
#define FK_TRACE_MAX_CELLS   4096u /* bloom bits / counting counters */
#define FK_TRACE_MAX_BUCKETS 64u   /* cuckoo buckets */
/* Kicks printed one per line before the rest are summed up. */
#define FK_TRACE_MAX_KICK_LINES 16u

/* One tracer per kind; each returns the exit status. */
int fk_trace_bloom(const fk_trace_job *job);
int fk_trace_blocked(const fk_trace_job *job);
int fk_trace_counting(const fk_trace_job *job);
int fk_trace_cuckoo(const fk_trace_job *job);

#endif
