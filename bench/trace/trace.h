/* bench/trace/trace.h: `filterkit trace`, the teaching mode. It builds one tiny
 * filter and prints every step of each insert, lookup and remove: the hash,
 * the probe positions (bloom, counting) or fingerprint, buckets and kicks
 * (cuckoo), and the filter's array after the step, read back through the
 * module's public accessors (never recomputed), so what it shows is the
 * filter's real state.
 *
 * The output is plain text meant for a terminal or a Markdown code block;
 * its line shapes are stable (tests/test_bench_trace.c parses them):
 *   insert|lookup|remove "KEY"          one block per step
 *     probes P1 P2 ...                   bloom/counting, in probe order
 *     fingerprint 0xFP / i1 B / i2 B     cuckoo
 *     kick N: 0xFP from bucket A slot S -> bucket B
 *     <offset>  <one char per bit/counter>   the array (bloom/counting)
 *     bucket B: FP FP FP FP              the table (cuckoo), -- = empty
 *     cells C1 C2 C3 (segments ...)       fuse: the key's three cells
 *     xor V1 ^ V2 ^ V3 = X, fingerprint F fuse: the lookup's comparison
 *     band slots A..B (...), row R         ribbon: the key's equation
 *     column J: solved W & row = X, parity P   ribbon: one result bit
 *     result R, fingerprint F             ribbon: the lookup's comparison
 *     -> FK_OK: 0xFP sits in bucket B (iN) slot S, generation G (...)
 *                                        window: where the key sits after
 *     generations (current first, slots held): gG N | ...   window
 *     ... the sweep freed its N slot(s)  window: a generation turned over
 */
#ifndef FKC_BENCH_TRACE_H
#define FKC_BENCH_TRACE_H

#include <stddef.h>
#include <stdio.h>
#include "../../common/params.h"

/* The subcommand itself, fkc_cmd_trace, is declared in bench/cli/cmd.h. */

/* ------------------------------------------ shared by bench/trace/trace_*.c */

typedef enum { FKC_TRACE_INSERT, FKC_TRACE_LOOKUP, FKC_TRACE_REMOVE } fkc_trace_op;

typedef struct {
    fkc_trace_op op;
    const char *key; /* from argv */
    size_t      len;
} fkc_trace_step;

/* What the trace should do, after argument parsing. */
typedef struct {
    fk_params            params;
    const fkc_trace_step *steps;
    size_t               nsteps;
    FILE                *out;
} fkc_trace_job;

/* The keys inserted and not yet removed, so a lookup can be labelled a false
 * positive. Backed by the job's steps (at most nsteps distinct keys). */
typedef struct {
    const fkc_trace_step *steps;
    size_t              *count; /* count[i]: copies of steps[i].key held */
    size_t               n;
} fkc_trace_truth;

int    fkc_trace_truth_init(fkc_trace_truth *t, const fkc_trace_job *job);
void   fkc_trace_truth_free(fkc_trace_truth *t);
void   fkc_trace_truth_add(fkc_trace_truth *t, const char *key, size_t len);
void   fkc_trace_truth_del(fkc_trace_truth *t, const char *key, size_t len);
size_t fkc_trace_truth_has(const fkc_trace_truth *t, const char *key, size_t len);

/* The static kinds (fuse, ribbon) are built once from every inserted
 * key: the job's insert steps in order, *n of them (duplicates kept; the
 * build drops them). The caller frees *keys and *lens. 0, or -1 when out
 * of memory (nothing to free). */
int fkc_trace_static_keys(const fkc_trace_job *job, const void ***keys, size_t **lens,
                          size_t *n);
/* fkc_trace_truth_init with every insert step already counted, as a
 * static kind's build holds them before its first step is shown. 0, or -1
 * when out of memory. */
int fkc_trace_truth_of_static(fkc_trace_truth *t, const fkc_trace_job *job);

/* Prints key in double quotes, escaping quotes, backslashes and bytes
 * outside printable ASCII as \xHH. */
void fkc_trace_print_key(FILE *out, const char *key, size_t len);

/* Prints the step's heading line: `insert "apple"`. */
void fkc_trace_print_heading(FILE *out, const fkc_trace_step *s);

/* The largest filters a trace will draw. */
#define FKC_TRACE_MAX_CELLS   4096u /* bloom bits / counting counters */
#define FKC_TRACE_MAX_BUCKETS 64u   /* cuckoo buckets */
/* Kicks printed one per line before the rest are summed up. */
#define FKC_TRACE_MAX_KICK_LINES 16u

/* One tracer per kind; each returns the exit status. */
int fkc_trace_bloom(const fkc_trace_job *job);
int fkc_trace_blocked(const fkc_trace_job *job);
int fkc_trace_counting(const fkc_trace_job *job);
int fkc_trace_cuckoo(const fkc_trace_job *job);
int fkc_trace_fuse(const fkc_trace_job *job);
int fkc_trace_ribbon(const fkc_trace_job *job);
int fkc_trace_quotient(const fkc_trace_job *job);
int fkc_trace_expandable(const fkc_trace_job *job);
int fkc_trace_window(const fkc_trace_job *job);

#endif
