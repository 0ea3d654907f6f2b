/* bench/clock/progress.h: a one-line progress note on stderr for long work.
 * It appears only when stderr is a terminal and the work has already taken
 * more than a second, and is erased when done, so logs and pipes stay clean. */
#ifndef FK_BENCH_PROGRESS_H
#define FK_BENCH_PROGRESS_H

/* Starts the clock for the "more than a second" rule. */
void fk_progress_begin(void);

/* Rewrites the progress line (printf-style) when it is due. */
__attribute__((format(printf, 1, 2)))
void fk_progress(const char *fmt, ...);

/* Erases the line if one was drawn. */
void fk_progress_end(void);

#endif
