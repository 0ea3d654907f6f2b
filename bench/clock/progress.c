/* bench/clock/progress.c: see progress.h. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include "progress.h"
#include "timing.h"

static uint64_t started;
static int shown;     /* a line is on the terminal */
static int tty = -1;  /* isatty(2), asked once */

void fkc_progress_begin(void)
{
    if (tty < 0)
        tty = isatty(2);
    started = fkc_now_ns();
}

void fkc_progress(const char *fmt, ...)
{
    if (tty < 0)
        fkc_progress_begin();
    if (!tty || fkc_seconds(started, fkc_now_ns()) < 1.0)
        return;
    char line[100];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    shown = 1;
}

void fkc_progress_end(void)
{
    if (shown)
        fputs("\r\033[K", stderr);
    shown = 0;
}
