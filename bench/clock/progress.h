/* bench/clock/progress.h: a one-line progress note on stderr for long work.
 * It appears only when stderr is a terminal and the work has already taken
 * more than a second, and is erased when done, so logs and pipes stay clean. */
#ifndef FKC_BENCH_PROGRESS_H
#define FKC_BENCH_PROGRESS_H

/* Starts the clock for the "more than a second" rule. */
void fkc_progress_begin(void);

/* Rewrites the progress line (printf-style) when it is due. */
__attribute__((format(printf, 1, 2)))
void fkc_progress(const char *fmt, ...);

/* Erases the line if one was drawn. */
void fkc_progress_end(void);

#endif
