/* bench/clock/progress.h: progress of long work on stderr, so that a user can
 * tell a hang from work both on a terminal and in a log.
 *
 * A task (bench, sweep, pick, build) has steps. Off a terminal each step
 * prints one line, "filterkit bench: [3/40] bloom n=1M fpr=1%: run 1 of 3
 * (12 s, about 2 min left)", and a step that runs long prints a line at least
 * every FKC_PROGRESS_LOG_SECONDS. On a terminal one line is rewritten in
 * place with the rate and the time left, once the work has taken more than
 * a second, and erased when it is done. A task begun without a name (query,
 * dedup: commands whose stderr scripts read) shows the terminal line only.
 * FILTERKIT_PROGRESS=0 in the environment silences all of it. */
#ifndef FKC_BENCH_PROGRESS_H
#define FKC_BENCH_PROGRESS_H

#include <stdint.h>

/* Off a terminal, the longest silence within a step. */
#define FKC_PROGRESS_LOG_SECONDS 15.0

/* Starts a task: who names it in the lines ("bench"; NULL: terminal only),
 * total is its number of steps (0: unknown, no estimate of the time left).
 * A task begun while another runs (a grid inside a sweep) keeps the outer
 * one's name and clock and adds its steps to the total. */
void fkc_progress_begin(const char *who, uint64_t total);

/* A step starts, described printf-style. */
__attribute__((format(printf, 1, 2)))
void fkc_progress_step(const char *fmt, ...);

/* News within a step (keys read so far, ...): redraws the terminal line
 * when due; off a terminal prints a line only after
 * FKC_PROGRESS_LOG_SECONDS of silence. */
__attribute__((format(printf, 1, 2)))
void fkc_progress(const char *fmt, ...);

/* Erases the terminal line (before printing a message); the task goes on. */
void fkc_progress_clear(void);

/* Ends the task: erases the terminal line if one was drawn. */
void fkc_progress_end(void);

#endif
