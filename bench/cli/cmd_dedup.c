/* bench/cli/cmd_dedup.c: `filterkit dedup FILTER < in > out`: the streaming
 * deduplicator -- prints each line not already in the saved filter (nor
 * earlier in this input), adds it, and saves the filter at the end,
 * atomically. With a kind that forgets (FK_CAP_EXPIRES: window), "seen"
 * means seen within the window: every line is inserted (a repeat
 * refreshes its key), and a time window's clock is read at each line. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
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
#include "../../window/window.h"

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
    if (fk_filter_ops(f) != &fk_window_ops)
        return false;
    fk_window_description d;
    fk_window_describe((const fk_window *)(const void *)f, &d);
    if (!d.timed || d.clock == FK_CLOCK_UNIX_NS)
        return false;
    const char *name = fk_clock_name(d.clock);
    fprintf(stderr, "filterkit dedup: %s: a time window on clock %u (%s: %s), not Unix time in "
            "nanoseconds (clock 1, unix_ns): dedup reads the wall clock and will not advance it; "
            "the file is unchanged\n", path, (unsigned)d.clock, name ? name : "unknown",
            d.clock == FK_CLOCK_CALLER ? "the ticks of the program that made it" : "not known here");
    return true;
}

/* True when fd is a pipe, a socket or a terminal: a stream whose reader
 * waits for each line (tail -f ... | filterkit dedup ... | ...). */
static bool is_stream(int fd)
{
    struct stat st;
    if (isatty(fd))
        return true;
    return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
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
    fk_status s;
    if (window_seconds) {
        fk_window *w = NULL;
        s = window_seconds > UINT64_MAX / UINT64_C(1000000000)
                ? FK_EINVAL
                : fk_window_new_time(&p, window_seconds * UINT64_C(1000000000), &w);
        *out = fk_window_as_filter(w);
    } else {
        s = fk_filter_new(ops, &p, out);
    }
    if (s != FK_OK) {
        fprintf(stderr, "filterkit dedup: cannot create a %s filter for %llu items at fpr %g: %s%s\n",
                ops->name, (unsigned long long)p.capacity, fpr, fk_strerror(s), fkc_memlimit_hint(s));
        return 1;
    }
    return 0;
}

int fkc_cmd_dedup(int argc, char **argv)
{
    /* a filter added to line by line: a kind that can be saved and is not
     * built once from the whole set */
    fkc_kind_opt kind = { .need = FK_CAP_SERIALIZE, .refuse = FK_CAP_STATIC,
                          .what = "that can be saved and added to" };
    double fpr = 0;
    uint64_t capacity = 0, seed = 0;
    int binary_lines = 0;
    uint64_t max_bytes = 0, window_seconds = 0;
    const fkc_opt opts[] = {
        { "kind", FKC_OPT_KIND, &kind, "K", "a new FILTER's kind" },
        { "fpr", FKC_OPT_FPR, &fpr, "P", "a new FILTER's false-positive rate" },
        { "capacity", FKC_OPT_COUNT, &capacity, "N", "a new FILTER's capacity (not needed by growing kinds)" },
        { "seed", FKC_OPT_U64, &seed, "S", "a new FILTER's hash seed (default: 0)" },
        { "window-seconds", FKC_OPT_COUNT, &window_seconds, "T",
          "a new window FILTER remembers the last T seconds (--capacity: lines per T)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "keep a '\\r' before the '\\n' as part of the key" },
        FKC_MEMLIMIT_OPT(&max_bytes),
        { NULL, 0, NULL, NULL, NULL },
    };
    char bounded[256], about[2048];
    fkc_kinds_with(FK_CAP_BOUNDED, bounded, sizeof bounded);
    snprintf(about, sizeof about,
        "Prints each line of stdin whose key is not yet in FILTER nor earlier in this\n"
        "input, adds it, and at the end saves FILTER atomically (as 'filterkit add'):\n"
        "  filterkit dedup seen.fk < today.log > new-today.log\n"
        "A new line whose key is a false positive of the filter is taken as seen and\n"
        "dropped (at the filter's false-positive rate); a seen line is never printed.\n"
        "When FILTER does not exist it is created with --kind, --fpr and --capacity.\n"
        "Keys follow the line rule of 'filterkit build'; a printed line is its key and\n"
        "'\\n'. If the filter fills up (%s) or saving fails, FILTER is left as\n"
        "it was and the exit status is 1 (the lines printed so far were new).\n"
        "A window (--kind window --capacity N; --fpr defaults to 1%%) forgets: a line\n"
        "is printed unless it was seen among the last N lines (or, with\n"
        "--window-seconds T, in the last T seconds, the clock read at each line):\n"
        "  tail -f access.log | filterkit dedup --kind window --capacity 1M seen.fk\n"
        "When stdin is a pipe or a terminal each line is handled as it arrives, and\n"
        "when stdout is one each printed line is flushed at once. A time window fed\n"
        "faster than --capacity lines per T refuses to remember the excess (said on\n"
        "stderr; those lines are printed, never lost from the window's promise).", bounded);
    const fkc_cmd_spec spec = {
        "dedup", "[--binary-lines] [--max-bytes B] FILTER < in > out   (new FILTER: --kind K --fpr P --capacity N [--window-seconds T])",
        about,
        opts,
    };
    const char *path = NULL;
    int rc = fkc_args_parse_operands(&spec, NULL, argc, argv, &path, 1, "FILTER");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (strcmp(path, "-") == 0) /* stdin holds the lines, and a stream cannot be replaced */
        return fkc_args_fail(&spec, "FILTER '-': dedup rewrites the filter's file; give its path "
                             "(the lines come from stdin)");
    if (fkc_filterfile_can_save(spec.name, path) != 0)
        return 1;
    fk_filter *f = NULL;
    fkc_filelock lk;
    /* held from the read to the rename (see cmd_update.c) */
    if (fkc_filterfile_lock(spec.name, path, 1, &lk) != 0)
        return 1;
    if (lk.created) {
        rc = create(&spec, path, &kind, fpr, capacity, seed, max_bytes, window_seconds, &f);
    } else {
        rc = fkc_filterfile_load(spec.name, lk.real, &f, NULL, NULL) != 0 ||
             fkc_memlimit_apply(spec.name, f, max_bytes) != 0;
        if (!rc && (kind.ops || fpr != 0 || capacity || seed || window_seconds))
            fprintf(stderr, "filterkit dedup: %s: warning: the file exists, so --kind, --fpr, "
                    "--capacity, --seed and --window-seconds are ignored (its own settings hold)\n", path);
    }
    if (rc) {
        fkc_filterfile_unlock(&lk, 0);
        return rc;
    }
    if (wrong_clock(path, f)) {
        fk_filter_free(f);
        fkc_filterfile_unlock(&lk, 0);
        return 1;
    }
    fkc_linereader r;
    if (fkc_linereader_init(&r, stdin, binary_lines) != 0) {
        fprintf(stderr, "filterkit dedup: out of memory\n");
        fk_filter_free(f);
        fkc_filterfile_unlock(&lk, 0);
        return 1;
    }
    fk_stats before, after;
    fk_filter_stats(f, &before);
    fkc_keybatch b;
    fkc_keybatch_init(&b);
    bool maybe[FKC_KEYBATCH_KEYS];
    int got = 0;
    uint64_t fresh = 0, unremembered = 0;
    fk_status s = FK_OK;
    /* a kind that forgets takes every line (a repeat refreshes it); a time
     * window (fk_window_advance answers) reads the clock at each line */
    const bool expires = (fk_ops_caps(fk_filter_ops(f)) & FK_CAP_EXPIRES) != 0;
    const bool timed = expires && fk_window_advance(f, wall_ns()) != FK_EUNSUPPORTED;
    const bool stream_in = is_stream(STDIN_FILENO), flush_out = is_stream(STDOUT_FILENO);
    fkc_progress_begin(NULL, 0);
    /* A batch of lines is looked up together (its lines come into cache at
     * once), then taken in order as the filter stands at each one's turn:
     * once a line of the batch went in, each later "absent" answer is asked
     * again (an insert only ever turns answers to "maybe", and a line
     * repeated within the batch must be seen). A window forgets as lines
     * go in, so its lines are asked one at a time; so are the lines of a
     * stream, each handled as it arrives. */
    for (;;) {
        if (s != FK_OK || ferror(stdout))
            break;
        if (stream_in || timed) {
            const char *key;
            size_t len;
            got = fkc_linereader_next(&r, &key, &len);
            if (got != 1) {
                if (got < 0)
                    b.err = errno;
                break;
            }
            b.n = 1;
            b.keys[0] = key;
            b.lens[0] = len;
        } else if ((got = fkc_keybatch_read(&b, &r)) == 0) {
            break;
        }
        if ((r.lines ^ (r.lines - b.n)) & ~(uint64_t)0xffff) {
            char at[64];
            fkc_linereader_progress(&r, at, sizeof at);
            fkc_progress("dedup: %s, %llu new", at, (unsigned long long)fresh);
        }
        if (!expires && b.n > 1)
            fk_filter_contains_many(f, b.n, b.keys, b.lens, maybe);
        bool changed = false;
        for (size_t i = 0; i < b.n; i++) {
            if (timed)
                (void)fk_window_advance(f, wall_ns()); /* a clock stepped back: keep its time */
            bool seen = (!expires && b.n > 1) ? maybe[i] || (changed && fk_filter_contains(f, b.keys[i], b.lens[i]))
                                              : fk_filter_contains(f, b.keys[i], b.lens[i]);
            if (seen && !expires)
                continue;
            s = fk_filter_insert(f, b.keys[i], b.lens[i]);
            if (s == FK_EFULL && timed) {
                /* fed past its rate: this line is not remembered */
                if (unremembered++ == 0)
                    fprintf(stderr, "filterkit dedup: %s: more lines than --capacity per window: "
                            "the excess is not remembered (counted at the end)\n", path);
                s = FK_OK;
            }
            if (s != FK_OK)
                break;
            changed = true;
            if (seen)
                continue;
            fresh++;
            fwrite(b.keys[i], 1, b.lens[i], stdout);
            putchar('\n');
            if (flush_out)
                fflush(stdout);
        }
        if (got < 0)
            break;
    }
    fkc_progress_end();
    rc = 1;
    if (got < 0)
        fprintf(stderr, "filterkit dedup: reading stdin: %s; %s is unchanged\n", fkc_linereader_error(b.err), path);
    else if (s == FK_EFULL) {
        fprintf(stderr, "filterkit dedup: %s: the %s filter is full after %llu new keys; the file is "
                "unchanged\n", path, fk_filter_ops(f)->name, (unsigned long long)fresh);
        fk_stats full;
        fk_filter_stats(f, &full);
        fkc_hint_full(stderr, "dedup", fk_filter_ops(f), (unsigned long long)full.capacity);
    }
    else if (s != FK_OK)
        fprintf(stderr, "filterkit dedup: %s: insert failed: %s%s; the file is unchanged\n", path,
                fk_strerror(s), fkc_memlimit_hint(s));
    else if (fk_filter_stats(f, &after), !expires && after.items < before.items)
        fprintf(stderr, "filterkit dedup: %s: the item count would pass 2^64-1 (it was %llu); the file is "
                "unchanged\n", path, (unsigned long long)before.items);
    else if (fflush(stdout) != 0 || ferror(stdout))
        fprintf(stderr, "filterkit dedup: writing to stdout: %s; %s is unchanged\n", strerror(errno), path);
    else if (fkc_filterfile_save_locked(spec.name, &lk, f) == 0)
        rc = 0;
    if (unremembered)
        fprintf(stderr, "filterkit dedup: %s: %llu lines came faster than the window's capacity and "
                "were not remembered\n", path, (unsigned long long)unremembered);
    fkc_filterfile_unlock(&lk, rc == 0);
    fkc_keybatch_free(&b);
    fkc_linereader_free(&r);
    fk_filter_free(f);
    return rc;
}
