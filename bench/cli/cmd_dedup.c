/* bench/cli/cmd_dedup.c: `filterkit dedup FILTER < in > out`: the streaming
 * deduplicator -- prints each line not already in the saved filter (nor
 * earlier in this input), adds it, and saves the filter atomically at the
 * end, at each checkpoint (--save-every) and when SIGINT, SIGTERM or SIGHUP
 * stops it (a Unix filter that runs for days: tail -f log | dedup). The
 * printed lines are flushed before each save, so a saved filter never
 * holds a line that was not written out. With a kind that forgets
 * (FK_CAP_EXPIRES: window), "seen" means seen within the window: every
 * line is inserted (a repeat refreshes its key), and a time window's clock
 * is read at each line. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "hints.h"
#include "memlimit.h"
#include "../keys/keybatch.h"
#include "../keys/keylines.h"
#include "operands.h"
#include "../clock/progress.h"
#include "../../registry/registry.h"

/* The wall clock in Unix nanoseconds (FK_CLOCK_UNIX_NS, the clock a time
 * window made here records): a time window saved by one run and reloaded
 * by the next, or by Python or Redis, keeps one time line (a monotonic
 * clock restarts at each boot). Returns 0 if the clock cannot be read. */
static uint64_t wall_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0 || ts.tv_sec < 0)
        return 0;
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* True (said on stderr) when f is a time window whose times are not Unix
 * nanoseconds: wall_ns() would mix clocks (its file says which clock). */
static bool wrong_clock(const char *path, const fk_filter *f)
{
    if (!(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_EXPIRES))
        return false;
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    if (fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n) != FK_OK)
        return false;
    const fk_describe_row *timed = fk_describe_find(rows, n, "timed");
    const fk_describe_row *id = fk_describe_find(rows, n, "clock_id");
    if (!timed || !timed->value.b || !id || id->value.u64 == FK_CLOCK_UNIX_NS)
        return false;
    const uint64_t clock = id->value.u64;
    const char *name = clock <= FK_CLOCK_MAX ? fk_clock_name((uint32_t)clock) : NULL;
    fprintf(stderr, "filterkit dedup: %s: a time window on clock %llu (%s: %s), not Unix time in "
            "nanoseconds (clock 1, unix_ns): dedup reads the wall clock and will not advance it; "
            "the file is unchanged\n", path, (unsigned long long)clock, name ? name : "unknown",
            clock == FK_CLOCK_CALLER ? "the ticks of the program that made it" : "not known here");
    return true;
}

/* True when fd is a regular file: input read in batches, output whose
 * bytes a power cut can lose unless fsynced. */
static bool is_regular(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/* The monotonic clock in nanoseconds, for checkpoints; 0 if unreadable. */
static uint64_t mono_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0 || ts.tv_sec < 0)
        return 0;
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* Default checkpoint: every minute (when something changed). */
#define SAVE_EVERY_DEFAULT_NS (UINT64_C(60) * 1000000000u)
/* Longest checkpoint interval: a year. */
#define SAVE_EVERY_MAX_S (366.0 * 86400.0)

/* --save-every: "0" (never), a time ("30s", "500ms", "5min", "2h") or a
 * count of lines read ("100000", "100k", "1M", "1e6"). Returns 0 with one
 * of *lines, *ns set (both 0: never), or -1 with *why set. */
static int parse_save_every(const char *arg, uint64_t *lines, uint64_t *ns, const char **why)
{
    static const struct { const char *unit; double ns; } units[] = {
        { "ms", 1e6 }, { "min", 60e9 }, { "s", 1e9 }, { "h", 3600e9 },
    };
    *lines = *ns = 0;
    size_t len = strlen(arg);
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t ul = strlen(units[u].unit);
        if (len <= ul || strcmp(arg + len - ul, units[u].unit) != 0)
            continue;
        /* a decimal number before the unit: digits and at most one '.' */
        size_t dots = 0, digits = 0, other = 0;
        for (size_t i = 0; i < len - ul; i++) {
            if (arg[i] == '.')
                dots++;
            else if (arg[i] >= '0' && arg[i] <= '9')
                digits++;
            else
                other++;
        }
        if (other || dots > 1 || digits == 0) {
            *why = "a time is a decimal number and a unit: 500ms, 30s, 5min, 2h";
            return -1;
        }
        double v = strtod(arg, NULL) * units[u].ns;
        if (!isfinite(v) || v > SAVE_EVERY_MAX_S * 1e9) {
            *why = "longer than a year";
            return -1;
        }
        if (v > 0 && v < 1e6) {
            *why = "shorter than a millisecond";
            return -1;
        }
        *ns = (uint64_t)v;
        return 0;
    }
    if (len && (arg[len - 1] == 'm')) {
        *why = "'m' could be minutes or millions: write 5min, or 5M lines";
        return -1;
    }
    if (fkc_parse_u64(arg, lines) != 0) {
        *why = "not a time (500ms, 30s, 5min, 2h), a count of lines (100000, 100k, 1M) nor 0";
        return -1;
    }
    return 0;
}

/* ---- stopping: SIGINT, SIGTERM, SIGHUP end the run as end of input ------
 * The handler only records the signal. The three are blocked while lines
 * are decided, written and saved, and let in only while waiting for input
 * (pselect), so a stop never cuts a write or a save short and a read never
 * blocks past one. A signal that was ignored when dedup started (nohup,
 * a background job of a script) stays ignored. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

typedef struct {
    struct sigaction old[NSTOP];
    bool caught[NSTOP];
    sigset_t blocked;   /* the ones caught */
    sigset_t old_mask;  /* the mask dedup started with */
    sigset_t wait_mask; /* while waiting for input: the caught ones let in */
} stopper;

static void stopper_install(stopper *st)
{
    stop_signal = 0;
    sigemptyset(&st->blocked);
    for (size_t i = 0; i < NSTOP; i++) {
        st->caught[i] = false;
        if (sigaction(stop_signals[i], NULL, &st->old[i]) != 0 || st->old[i].sa_handler == SIG_IGN)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0; /* no SA_RESTART: a wait for input returns EINTR */
        if (sigaction(stop_signals[i], &sa, NULL) == 0) {
            st->caught[i] = true;
            sigaddset(&st->blocked, stop_signals[i]);
        }
    }
    pthread_sigmask(SIG_BLOCK, &st->blocked, &st->old_mask);
    st->wait_mask = st->old_mask;
    for (size_t i = 0; i < NSTOP; i++)
        if (st->caught[i])
            sigdelset(&st->wait_mask, stop_signals[i]);
}

/* A caught signal pending while blocked (the input never made dedup
 * wait: a regular file) is taken as delivered. */
static void stopper_poll(const stopper *st)
{
    sigset_t pending;
    if (stop_signal || sigpending(&pending) != 0)
        return;
    for (size_t i = 0; i < NSTOP; i++)
        if (st->caught[i] && sigismember(&pending, stop_signals[i]))
            stop_signal = stop_signals[i];
}

/* Puts the mask and the actions back (a signal still pending is then
 * delivered to on_stop and recorded). Returns the signal that stopped the
 * run, 0 if none. */
static int stopper_remove(stopper *st)
{
    pthread_sigmask(SIG_SETMASK, &st->old_mask, NULL);
    for (size_t i = 0; i < NSTOP; i++)
        if (st->caught[i])
            sigaction(stop_signals[i], &st->old[i], NULL);
    return stop_signal;
}

/* ---- checkpoints ------------------------------------------------------- */
typedef struct {
    const char   *cmd, *path;
    fk_filter    *f;
    fkc_filelock *lk;
    const stopper *stop;
    uint64_t every_lines, every_ns; /* checkpoint triggers, 0: off */
    uint64_t since;                 /* lines read since the last save */
    uint64_t dirty;                 /* inserts since the last save */
    uint64_t saved_at;              /* mono_ns() of the last save (or the start) */
    uint64_t items_before;          /* the loaded item count (wrap check) */
    uint64_t saves;                 /* saves made in this run */
    bool expires, out_regular;
    bool flush_idle;                /* write the printed lines out before each wait for input */
    bool failed;                    /* a checkpoint failed (said): stop, save no more */
    /* the read loop's (dedup_read, dedup_batch, dedup_finish) */
    fkc_linereader r;
    fkc_keybatch   b;
    int      got;                   /* the last read: 1 a line, 0 the end, < 0 an error */
    uint64_t fresh;                 /* new lines printed */
    uint64_t unremembered;          /* lines a time window fed past its rate did not take */
    fk_status s;                    /* the last insert */
    bool timed, stream_in, line_buffered;
} dedup_run;

/* Saves the filter (when force, or when it changed since the last save):
 * first the printed lines go out (flushed; fsynced when stdout is a
 * regular file), so that the saved filter never holds a key whose line a
 * crash could still lose. Returns 0, or -1 after saying why (the file as
 * at the last save). */
static int checkpoint(dedup_run *d, bool force)
{
    d->since = 0;
    d->saved_at = mono_ns();
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "filterkit %s: writing to stdout: %s; %s is %s\n", d->cmd, strerror(errno), d->path,
                d->saves ? "as at its last checkpoint" : "unchanged");
        return -1;
    }
    if (!d->dirty && !force)
        return 0;
    if (d->out_regular && fsync(STDOUT_FILENO) != 0 && errno != EINVAL && errno != EROFS) {
        fprintf(stderr, "filterkit %s: writing to stdout: %s; %s is %s\n", d->cmd, strerror(errno), d->path,
                d->saves ? "as at its last checkpoint" : "unchanged");
        return -1;
    }
    fk_stats now;
    fk_filter_stats(d->f, &now);
    if (!d->expires && now.items < d->items_before) {
        fprintf(stderr, "filterkit %s: %s: the item count would pass 2^64-1 (it was %llu); the file is "
                "%s\n", d->cmd, d->path, (unsigned long long)d->items_before,
                d->saves ? "as at its last checkpoint" : "unchanged");
        return -1;
    }
    if (fkc_filterfile_save_held(d->cmd, d->lk, d->f) != 0)
        return -1;
    d->lk->created = 0; /* saved with lines in it: kept whatever comes */
    d->dirty = 0;
    d->saves++;
    return 0;
}

/* A checkpoint when one is due by time. Returns 0, or -1 (said). */
static int checkpoint_if_due(dedup_run *d)
{
    if (d->every_ns && d->dirty && mono_ns() - d->saved_at >= d->every_ns)
        return checkpoint(d, false);
    return 0;
}

/* The line reader's wait (keylines.h): lets the stop signals in while
 * waiting for input, and saves a checkpoint that falls due meanwhile (a
 * quiet `tail -f`). Returns 0 to read, -1 (errno EINTR) to stop. */
static int wait_input(void *ctx, int fd)
{
    dedup_run *d = ctx;
    /* every line decided so far goes out before dedup may wait: a reader
     * of the output (tail -f log | dedup > new.log) has each line as soon
     * as the input has no more for now; a burst costs one write per read
     * of input, not one per line */
    if (d->flush_idle)
        fflush(stdout);
    for (;;) {
        stopper_poll(d->stop);
        if (stop_signal || d->failed) {
            errno = EINTR;
            return -1;
        }
        struct timespec left, *timeout = NULL;
        if (d->every_ns && d->dirty) {
            uint64_t now = mono_ns(), due = d->saved_at + d->every_ns;
            if (now >= due) {
                if (checkpoint(d, false) != 0)
                    d->failed = true;
                continue;
            }
            left.tv_sec = (time_t)((due - now) / 1000000000u);
            left.tv_nsec = (long)((due - now) % 1000000000u);
            timeout = &left;
        }
        if (fd >= FD_SETSIZE)
            return 0; /* cannot wait on it: read, blocking */
        fd_set in;
        FD_ZERO(&in);
        FD_SET(fd, &in);
        int n = pselect(fd + 1, &in, NULL, NULL, timeout, &d->stop->wait_mask);
        if (n > 0 || (n < 0 && errno != EINTR))
            return 0; /* input, or an error read(2) will report */
    }
}

/* Creates the filter of a FILTER that does not exist yet, from the options.
 * Returns 0, 2 (usage, printed) or 1 (printed). */
static int create(const fkc_cmd_spec *spec, const char *path, const fkc_kind_opt *kind, double fpr,
                  uint64_t capacity, uint64_t seed, uint64_t max_bytes, uint64_t window_seconds,
                  fk_filter **out)
{
    if (window_seconds && (!kind->ops || !(fk_ops_caps(kind->ops) & FK_CAP_EXPIRES)))
        return fkc_args_fail(spec, "--window-seconds T needs a kind that forgets (--kind window)");
    if (kind->ops && (fk_ops_caps(kind->ops) & FK_CAP_EXPIRES) && fpr == 0)
        fpr = 0.01; /* a window's default target */
    char kinds[1024];
    fkc_kind_opt_names(kind, ", ", kinds, sizeof kinds);
    if (!kind->ops || fpr == 0)
        return fkc_args_fail(spec, "%s does not exist: give --kind K --fpr P --capacity N to create it "
                            "(kinds: %s)", path, kinds);
    const fk_ops *ops = kind->ops;
    if (!capacity && !(fk_ops_caps(ops) & FK_CAP_GROWS))
        return fkc_args_fail(spec, "--capacity N is needed to create a %s filter (it cannot grow)", ops->name);
    fk_params p = fk_params_make(capacity ? capacity : UINT64_C(1) << 16, fpr);
    p.seed = seed;
    p.max_bytes = max_bytes ? max_bytes : fkc_memlimit_default();
    p.clock = window_seconds ? FK_CLOCK_UNIX_NS : FK_CLOCK_CALLER; /* read with wall_ns() */
    /* a time window: its span in ns (fk_params.span) */
    p.span = window_seconds <= UINT64_MAX / UINT64_C(1000000000)
                 ? window_seconds * UINT64_C(1000000000)
                 : 0;
    fk_status s = window_seconds && p.span == 0 ? FK_EINVAL : fk_filter_new(ops, &p, out);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit dedup: cannot create a %s filter for %llu items at fpr %g: %s%s\n",
                ops->name, (unsigned long long)p.capacity, fpr, fk_strerror(s), fkc_memlimit_hint(s));
        return 1;
    }
    return 0;
}

/* A run's options, and the spec that parsed them (the usage that
 * fkc_args_fail prints names it): filled by dedup_options. */
typedef struct {
    fkc_kind_opt kind;
    double       fpr;
    uint64_t     capacity, seed, max_bytes, window_seconds;
    int          binary_lines, line_buffered;
    const char  *save_every;
    const char  *path;                  /* the FILTER operand */
    uint64_t     every_lines, every_ns; /* --save-every, parsed */
    fkc_opt      opts[10];
    char         about[3072];
    fkc_cmd_spec spec;
} dedup_opts;

/* Parses the options and the FILTER operand into o. Returns true to run,
 * or false with *rc the exit status (0 after --help, 2 usage, 1 said). */
static bool dedup_options(dedup_opts *o, int argc, char **argv, int *rc)
{
    /* a filter added to line by line: a kind that can be saved and is not
     * built once from the whole set */
    o->kind = (fkc_kind_opt){ .need = FK_CAP_SERIALIZE, .refuse = FK_CAP_STATIC,
                              .what = "that can be saved and added to" };
    o->fpr = 0;
    o->capacity = o->seed = o->max_bytes = o->window_seconds = 0;
    o->binary_lines = o->line_buffered = 0;
    o->save_every = NULL;
    const fkc_opt opts[] = {
        { "kind", FKC_OPT_KIND, &o->kind, "K", "a new FILTER's kind" },
        { "fpr", FKC_OPT_FPR, &o->fpr, "P", "a new FILTER's false-positive rate" },
        { "capacity", FKC_OPT_COUNT, &o->capacity, "N", "a new FILTER's capacity (not needed by growing kinds)" },
        { "seed", FKC_OPT_U64, &o->seed, "S", "a new FILTER's hash seed (default: 0)" },
        { "window-seconds", FKC_OPT_COUNT, &o->window_seconds, "T",
          "a new window FILTER remembers the last T seconds (--capacity: lines per T)" },
        { "save-every", FKC_OPT_STR, &o->save_every, "WHEN",
          "checkpoint: save FILTER every WHEN, a time (30s, 5min, 1h) or a count of lines "
          "read (100000, 1M); 0: only at the end (default: 60s)" },
        { "line-buffered", FKC_OPT_FLAG, &o->line_buffered, NULL,
          "write each new line out at once, as grep --line-buffered (otherwise: whenever the input "
          "pauses, unless stdin is a regular file)" },
        { "binary-lines", FKC_OPT_FLAG, &o->binary_lines, NULL, "keep a '\\r' before the '\\n' as part of the key" },
        FKC_MEMLIMIT_OPT(&o->max_bytes),
        { NULL, 0, NULL, NULL, NULL },
    };
    _Static_assert(sizeof opts == sizeof o->opts, "dedup_opts.opts holds the options");
    memcpy(o->opts, opts, sizeof opts);
    char bounded[256];
    fkc_kinds_with(FK_CAP_BOUNDED, bounded, sizeof bounded);
    snprintf(o->about, sizeof o->about,
        "Prints each line of stdin whose key is not yet in FILTER nor earlier in this\n"
        "input, adds it, and at the end saves FILTER atomically (as 'filterkit add'):\n"
        "  filterkit dedup seen.fk < today.log > new-today.log\n"
        "A new line whose key is a false positive of the filter is taken as seen and\n"
        "dropped (at the filter's false-positive rate); a seen line is never printed.\n"
        "When FILTER does not exist it is created with --kind, --fpr and --capacity\n"
        "(and saved at once, empty: never a placeholder file).\n"
        "Keys follow the line rule of 'filterkit build'; a printed line is its key and\n"
        "'\\n'. If the filter fills up (%s) or saving fails, FILTER is left as\n"
        "at its last save and the exit status is 1 (the lines printed so far were new).\n"
        "A window (--kind window --capacity N; --fpr defaults to 1%%) forgets: a line\n"
        "is printed unless it was seen among the last N lines (or, with\n"
        "--window-seconds T, in the last T seconds, the clock read at each line):\n"
        "  tail -f access.log | filterkit dedup --kind window --capacity 1M seen.fk\n"
        "Unless stdin is a regular file each line is handled as it arrives, and the new\n"
        "lines are written out whenever the input pauses (--line-buffered: after each\n"
        "line), so 'tail -f log | filterkit dedup seen.fk > new.log' grows as lines\n"
        "come. A time window fed faster than --capacity lines per T refuses to\n"
        "remember the excess (said on stderr; those lines are printed, never lost\n"
        "from the window's promise).\n"
        "Stopping: Ctrl-C (SIGINT), SIGTERM or SIGHUP ends the run as the end of the\n"
        "input does: the lines printed are written out, FILTER is saved, and dedup\n"
        "then ends by that signal (exit status 130, 143 or 129 in a shell; 1 if the\n"
        "save fails). Nothing printed is printed again by the next run. A checkpoint\n"
        "(--save-every, default every 60 s when lines came) writes the printed lines\n"
        "out, then saves FILTER, so SIGKILL or a power cut loses only the lines since\n"
        "the last one (they are printed again, never dropped). A temporary file a\n"
        "killed save left (FILTER.tmp-XXXXXX) is never read, and removed by a later run.",
        bounded);
    o->spec = (fkc_cmd_spec){
        "dedup", "[--binary-lines] [--line-buffered] [--save-every WHEN] [--max-bytes B] FILTER < in > out"
                 "   (new FILTER: --kind K --fpr P --capacity N [--window-seconds T])",
        o->about,
        o->opts,
    };
    o->path = NULL;
    *rc = fkc_args_parse_operands(&o->spec, NULL, argc, argv, &o->path, 1, "FILTER");
    if (*rc) {
        *rc = *rc == FKC_ARGS_HELP ? 0 : 2;
        return false;
    }
    o->every_lines = 0;
    o->every_ns = SAVE_EVERY_DEFAULT_NS;
    const char *why = NULL;
    if (o->save_every && parse_save_every(o->save_every, &o->every_lines, &o->every_ns, &why) != 0) {
        *rc = fkc_args_fail(&o->spec, "--save-every '%s': %s", o->save_every, why);
        return false;
    }
    if (strcmp(o->path, "-") == 0) { /* stdin holds the lines, and a stream cannot be replaced */
        *rc = fkc_args_fail(&o->spec, "FILTER '-': dedup rewrites the filter's file; give its path "
                            "(the lines come from stdin)");
        return false;
    }
    if (fkc_filterfile_can_save(o->spec.name, o->path) != 0) {
        *rc = 1;
        return false;
    }
    return true;
}

/* Locks FILTER and loads it, or creates it (saved at once, empty) when it
 * does not exist. Held from the read to the last rename (see
 * cmd_update.c), moved to each checkpoint's new file as it is saved. A new
 * file is made here, saved empty before any line is read (so that a second
 * dedup creating it at the same time waits for this one and then adds to
 * it), and removed again if the run fails before it saved a line. Returns
 * 0 with *f and *lk held, or the exit status (said; nothing held). */
static int dedup_open(const dedup_opts *o, fkc_filelock *lk, fk_filter **f, bool *created_now)
{
    const char *path = o->path;
    int rc;
    *f = NULL;
    *created_now = false;
    for (int tries = 0;; tries++) {
        if (fkc_filterfile_lock(o->spec.name, path, 1, lk) != 0)
            return 1;
        if (lk->created) {
            rc = create(&o->spec, path, &o->kind, o->fpr, o->capacity, o->seed, o->max_bytes,
                        o->window_seconds, f);
            int saved = rc ? -1 : fkc_filterfile_save_held(o->spec.name, lk, *f);
            if (saved == 1 && tries < 100) { /* another dedup made it first: add to its file */
                fk_filter_free(*f);
                *f = NULL;
                fkc_filterfile_unlock(lk, 0);
                continue;
            }
            if (saved == 1)
                fprintf(stderr, "filterkit dedup: %s: the file keeps being replaced; giving up\n", path);
            if (saved != 0 && !rc)
                rc = 1;
            *created_now = !rc;
        } else {
            rc = fkc_filterfile_load(o->spec.name, lk->real, f, NULL, NULL) != 0 ||
                 fkc_memlimit_apply(o->spec.name, *f, o->max_bytes) != 0;
            if (!rc && (o->kind.ops || o->fpr != 0 || o->capacity || o->seed || o->window_seconds))
                fprintf(stderr, "filterkit dedup: %s: warning: the file exists, so --kind, --fpr, "
                        "--capacity, --seed and --window-seconds are ignored (its own settings hold)\n", path);
        }
        break;
    }
    if (!rc && wrong_clock(path, *f))
        rc = 1;
    if (rc) {
        fk_filter_free(*f);
        *f = NULL;
        fkc_filterfile_unlock(lk, 0);
    }
    return rc;
}

/* One batch of lines (d->b), taken in order as the filter stands at each
 * one's turn: a new line is printed and added, a seen one dropped (a kind
 * that forgets takes every line, a repeat refreshing it). Sets d->s (an
 * insert that failed) or d->failed (a checkpoint that failed, said). */
static void dedup_batch(dedup_run *d)
{
    fkc_keybatch *b = &d->b;
    fk_filter *f = d->f;
    bool maybe[FKC_KEYBATCH_KEYS];
    if (!d->expires && b->n > 1)
        fk_filter_contains_many(f, b->n, b->keys, b->lens, maybe);
    bool changed = false;
    for (size_t i = 0; i < b->n; i++) {
        if (d->timed)
            (void)fk_filter_advance(f, wall_ns()); /* a clock stepped back: keep its time */
        /* maybe[] is filled above under the same condition that reads it */
        // cppcheck-suppress uninitvar
        bool seen = (!d->expires && b->n > 1) ? maybe[i] || (changed && fk_filter_contains(f, b->keys[i], b->lens[i]))
                                              : fk_filter_contains(f, b->keys[i], b->lens[i]);
        if (!seen || d->expires) {
            d->s = fk_filter_insert(f, b->keys[i], b->lens[i]);
            if (d->s == FK_EFULL && d->timed) {
                /* fed past its rate: this line is not remembered */
                if (d->unremembered++ == 0)
                    fprintf(stderr, "filterkit dedup: %s: more lines than --capacity per window: "
                            "the excess is not remembered (counted at the end)\n", d->path);
                d->s = FK_OK;
            } else if (d->s == FK_OK) {
                changed = true;
                d->dirty++;
            }
            if (d->s != FK_OK)
                break;
            if (!seen) {
                d->fresh++;
                fwrite(b->keys[i], 1, b->lens[i], stdout);
                putchar('\n');
                if (d->line_buffered)
                    fflush(stdout);
            }
        }
        /* the line is decided (and written): a checkpoint may follow */
        if (d->every_lines && ++d->since >= d->every_lines && checkpoint(d, false) != 0) {
            d->failed = true;
            break;
        }
    }
}

/* The read loop, to the end of the input, a stop signal, a failed insert
 * or a failed checkpoint. A batch of lines is looked up together (its
 * lines come into cache at once), then taken in order as the filter stands
 * at each one's turn: once a line of the batch went in, each later
 * "absent" answer is asked again (an insert only ever turns answers to
 * "maybe", and a line repeated within the batch must be seen). A window
 * forgets as lines go in, so its lines are asked one at a time; so are the
 * lines of a stream, each handled as it arrives. Leaves d->got (< 0: a
 * read error, errno in d->b.err). */
static void dedup_read(dedup_run *d)
{
    fkc_keybatch *b = &d->b;
    fkc_linereader *r = &d->r;
    fkc_progress_begin(NULL, 0);
    for (;;) {
        if (d->s != FK_OK || ferror(stdout) || d->failed)
            break;
        if (d->stream_in) {
            const char *key;
            size_t len;
            d->got = fkc_linereader_next(r, &key, &len);
            if (d->got != 1) {
                if (d->got < 0)
                    b->err = errno;
                break;
            }
            b->n = 1;
            b->keys[0] = key;
            b->lens[0] = len;
        } else if ((d->got = fkc_keybatch_read(b, r)) == 0) {
            break;
        }
        if (d->failed) /* a checkpoint failed while waiting: decide no more lines */
            break;
        if ((r->lines ^ (r->lines - b->n)) & ~(uint64_t)0xffff) {
            char at[64];
            fkc_linereader_progress(r, at, sizeof at);
            fkc_progress("dedup: %s, %llu new", at, (unsigned long long)d->fresh);
        }
        dedup_batch(d);
        if (!d->failed && checkpoint_if_due(d) != 0)
            d->failed = true;
        if (d->got < 0)
            break;
    }
    fkc_progress_end();
}

/* After the read loop: says how the run ended and saves the filter (the
 * last checkpoint) when it ended well. Returns the exit status. */
static int dedup_finish(dedup_run *d, bool created_now)
{
    /* a stop signal (or a failed checkpoint) ends the input: not an error */
    if (d->got < 0 && d->b.err == EINTR && (stop_signal || d->failed))
        d->got = 0;
    const char *kept = d->saves ? "the file is as at its last checkpoint" : "the file is unchanged";
    int rc = 1;
    if (d->failed)
        ; /* said */
    else if (d->got < 0)
        fprintf(stderr, "filterkit dedup: reading stdin: %s; %s\n", fkc_linereader_error(d->b.err), kept);
    else if (d->s == FK_EFULL) {
        fprintf(stderr, "filterkit dedup: %s: the %s filter is full after %llu new keys; %s\n",
                d->path, fk_filter_ops(d->f)->name, (unsigned long long)d->fresh, kept);
        fk_stats full;
        fk_filter_stats(d->f, &full);
        fkc_hint_full(stderr, "dedup", fk_filter_ops(d->f), (unsigned long long)full.capacity);
    }
    else if (d->s != FK_OK)
        fprintf(stderr, "filterkit dedup: %s: insert failed: %s%s; %s\n", d->path,
                fk_strerror(d->s), fkc_memlimit_hint(d->s), kept);
    else if (checkpoint(d, d->timed || (d->saves == 0 && !created_now)) == 0)
        rc = 0;
    if (d->unremembered)
        fprintf(stderr, "filterkit dedup: %s: %llu lines came faster than the window's capacity and "
                "were not remembered\n", d->path, (unsigned long long)d->unremembered);
    return rc;
}

int fkc_cmd_dedup(int argc, char **argv)
{
    dedup_opts o;
    int rc;
    if (!dedup_options(&o, argc, argv, &rc))
        return rc;
    const char *path = o.path;
    fk_filter *f = NULL;
    fkc_filelock lk;
    bool created_now = false;
    rc = dedup_open(&o, &lk, &f, &created_now);
    if (rc)
        return rc;
    /* the run's state: dedup_run is what the checkpoints and the wait see */
    dedup_run d = { .cmd = o.spec.name, .path = path, .f = f, .lk = &lk, .s = FK_OK,
                    .line_buffered = o.line_buffered };
    if (fkc_linereader_init(&d.r, stdin, o.binary_lines) != 0) {
        fprintf(stderr, "filterkit dedup: out of memory\n");
        fk_filter_free(f);
        fkc_filterfile_unlock(&lk, 0);
        return 1;
    }
    fk_stats before;
    fk_filter_stats(f, &before);
    fkc_keybatch_init(&d.b);
    /* a kind that forgets takes every line (a repeat refreshes it); a time
     * window (fk_filter_advance answers) reads the clock at each line */
    d.expires = (fk_ops_caps(fk_filter_ops(f)) & FK_CAP_EXPIRES) != 0;
    d.timed = d.expires && fk_filter_advance(f, wall_ns()) != FK_EUNSUPPORTED;
    const bool in_regular = is_regular(STDIN_FILENO);
    d.stream_in = !in_regular || d.timed;
    /* before the progress thread starts, so that it inherits the mask */
    stopper stop;
    stopper_install(&stop);
    d.stop = &stop;
    d.every_lines = o.every_lines;
    d.every_ns = o.every_ns;
    d.saved_at = mono_ns();
    d.items_before = before.items;
    d.saves = 0;
    d.out_regular = is_regular(STDOUT_FILENO);
    d.flush_idle = !in_regular;
    d.r.wait = wait_input;
    d.r.wait_ctx = &d;
    dedup_read(&d);
    rc = dedup_finish(&d, created_now);
    fkc_filterfile_unlock(&lk, rc == 0);
    fkc_keybatch_free(&d.b);
    fkc_linereader_free(&d.r);
    fk_filter_free(f);
    int sig = stopper_remove(&stop);
    if (sig && rc == 0) {
        /* stopped by a signal, everything kept: end by that signal, so that
         * the shell and a supervisor see how the run ended (a script's loop
         * stops at Ctrl-C) */
        fflush(stdout);
        raise(sig);
    }
    return rc;
}
