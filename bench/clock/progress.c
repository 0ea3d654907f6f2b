/* bench/clock/progress.c: see progress.h. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "progress.h"
#include "timing.h"

static struct {
    int      tty;        /* stderr is a terminal (asked once); -1 unknown */
    int      off;        /* FILTERKIT_PROGRESS=0 */
    int      depth;      /* begin calls not yet ended */
    const char *who;     /* NULL: terminal only */
    uint64_t total, done;
    uint64_t started, last; /* ns: task start, last line printed or drawn */
    int      shown;      /* a line is on the terminal */
    char     step[160];  /* the current step's text */
} P = { .tty = -1 };

/* Off a terminal, a named task has a heartbeat thread: a step that runs
 * long (a counting filter's repeat at n = 10M on a loaded machine) still
 * prints a line every FKC_PROGRESS_LOG_SECONDS, so a log never looks hung.
 * The lock keeps it and the steps from writing P at once. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static pthread_t beat;
static int beating, stopping;

static void emit(const char *detail, int force_log);

static void *heartbeat(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&wake, &lock, &until);
        if (!stopping)
            emit(": still working", 0);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void init(void)
{
    if (P.tty >= 0)
        return;
    P.tty = isatty(2);
    const char *e = getenv("FILTERKIT_PROGRESS");
    P.off = e && strcmp(e, "0") == 0;
}

void fkc_progress_begin(const char *who, uint64_t total)
{
    init();
    pthread_mutex_lock(&lock);
    if (P.depth++ > 0) { /* nested: one task, one clock */
        P.total += total;
        if (!P.who)
            P.who = who;
        pthread_mutex_unlock(&lock);
        return;
    }
    P.who = who;
    P.total = total;
    P.done = 0;
    P.step[0] = 0;
    P.started = P.last = fkc_now_ns();
    stopping = 0;
    if (who && !P.tty && !P.off && !beating)
        beating = pthread_create(&beat, NULL, heartbeat, NULL) == 0;
    pthread_mutex_unlock(&lock);
}

/* "12 s", "3.5 min", "2.0 h" */
static void span(double s, char *buf, size_t len)
{
    if (s < 90)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 5400)
        snprintf(buf, len, "%.1f min", s / 60);
    else
        snprintf(buf, len, "%.1f h", s / 3600);
}

/* "12 s, about 2.0 min left" (the estimate once a step is done) */
static void timing(double elapsed, char *buf, size_t len)
{
    char e[32], left[32];
    span(elapsed, e, sizeof e);
    if (P.total && P.done > 1 && P.done <= P.total) {
        double per = elapsed / (double)(P.done - 1);
        span(per * (double)(P.total - P.done + 1), left, sizeof left);
        snprintf(buf, len, "%s, about %s left", e, left);
    } else {
        snprintf(buf, len, "%s", e);
    }
}

static void emit(const char *detail, int force_log)
{
    uint64_t now = fkc_now_ns();
    double elapsed = fkc_seconds(P.started, now), quiet = fkc_seconds(P.last, now);
    char t[80], count[48] = "";
    if (P.total)
        snprintf(count, sizeof count, "[%llu/%llu] ", (unsigned long long)P.done, (unsigned long long)P.total);
    else if (P.done)
        snprintf(count, sizeof count, "[%llu] ", (unsigned long long)P.done);
    if (P.tty) {
        if (elapsed < 1.0 || (!force_log && quiet < 0.2))
            return;
        timing(elapsed, t, sizeof t);
        char line[512];
        snprintf(line, sizeof line, "%s%s%s%s%s (%s)", P.who ? P.who : "", P.who ? ": " : "", count,
                 P.step, detail ? detail : "", t);
        fprintf(stderr, "\r\033[K%.*s", 150, line);
        fflush(stderr);
        P.shown = 1;
        P.last = now;
        return;
    }
    if (!P.who || (!force_log && quiet < FKC_PROGRESS_LOG_SECONDS))
        return;
    timing(elapsed, t, sizeof t);
    fprintf(stderr, "filterkit %s: %s%s%s (%s)\n", P.who, count, P.step, detail ? detail : "", t);
    fflush(stderr);
    P.last = now;
}

void fkc_progress_step(const char *fmt, ...)
{
    init();
    if (P.off)
        return;
    if (P.depth == 0)
        fkc_progress_begin(NULL, 0);
    pthread_mutex_lock(&lock);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P.step, sizeof P.step, fmt, ap);
    va_end(ap);
    P.done++;
    emit(NULL, 1);
    pthread_mutex_unlock(&lock);
}

void fkc_progress(const char *fmt, ...)
{
    init();
    if (P.off)
        return;
    if (P.depth == 0)
        fkc_progress_begin(NULL, 0);
    char detail[160] = ": ";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail + 2, sizeof detail - 2, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&lock);
    emit(P.step[0] ? detail : detail + 2, 0);
    pthread_mutex_unlock(&lock);
}

static void clear_locked(void)
{
    if (P.shown)
        fputs("\r\033[K", stderr);
    P.shown = 0;
}

void fkc_progress_clear(void)
{
    pthread_mutex_lock(&lock);
    clear_locked();
    pthread_mutex_unlock(&lock);
}

void fkc_progress_end(void)
{
    pthread_mutex_lock(&lock);
    if (P.depth > 0 && --P.depth > 0) {
        pthread_mutex_unlock(&lock);
        return;
    }
    clear_locked();
    P.who = NULL;
    P.step[0] = 0;
    int joining = beating;
    stopping = 1;
    beating = 0;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    if (joining)
        pthread_join(beat, NULL);
}
