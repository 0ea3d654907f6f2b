/* redis/clock.c: a time window key's clock (FK.RESERVE key window fpr N
 * SECONDS T): where its time comes from, and how a replica and the AOF
 * get the same time (see fkr.h, "time windows"). A key's times are Unix
 * ns (FK_CLOCK_UNIX_NS); FK.ADVANCE and the replies speak ms. */
#include "commands.h"

#include <stdio.h>
#include "../window/window.h"
#include "../window/window_internal.h" /* the clock's fields, read on every command (static library) */

fk_window *fkr_time_window(const fkr_value *v)
{
    if (!v || fk_filter_ops(v->filter) != &fk_window_ops)
        return NULL;
    fk_window *w = (fk_window *)(void *)v->filter; /* its fk_filter is its first member */
    return w->timed ? w : NULL;
}

const char *fkr_clock_refusal(const fkr_value *v)
{
    fk_window *w = fkr_time_window(v);
    if (!w || w->clock == FK_CLOCK_UNIX_NS)
        return NULL;
    return w->clock == FK_CLOCK_CALLER
               ? "ERR FK_EUNSUPPORTED: a time window on its maker's own clock (clock 0, caller): a "
                 "key keeps Unix time in ns (clock 1, unix_ns), as `filterkit dedup "
                 "--window-seconds` and Python's Window(span=...) make it"
               : "ERR FK_EUNSUPPORTED: a time window on a clock this module does not know";
}

/* ms of the server's clock (or of FK.ADVANCE) as a key's time, Unix ns:
 * 0 for a negative ms, UINT64_MAX for one past the clock's end (2^62 ns:
 * no advance takes it, a read as of it answers as now). */
static uint64_t ms_to_ns(long long ms)
{
    if (ms < 0)
        return 0;
    return (uint64_t)ms > FKR_WINDOW_MAX_MS ? UINT64_MAX : (uint64_t)ms * FKR_NS_PER_MS;
}

/* 1 when this command may read the server's clock: the server is a
 * primary serving a client. A command from this server's primary carries
 * the primary's time (FK.ADVANCE), AOF loading replays the times the AOF
 * holds, and a replica's reads answer as of the last replicated time. */
static int clock_is_ours(RedisModuleCtx *ctx)
{
    int flags = rm_GetContextFlags(ctx);
    return (flags & RM_CTX_FLAGS_MASTER) &&
           !(flags & (RM_CTX_FLAGS_REPLICATED | RM_CTX_FLAGS_LOADING));
}

void fkr_clock(RedisModuleCtx *ctx, RedisModuleString *name, fkr_value *v, int write)
{
    fk_window *w = fkr_time_window(v);
    if (!w || !clock_is_ours(ctx))
        return;
    if (!write)
        return; /* a read never writes: it answers as of now (fkr_read_window) */
    long long ms = rm_Milliseconds();
    uint64_t ns = ms_to_ns(ms);
    /* Between boundaries the answers do not change with the clock, so it
     * is left where it is: the key changes (and a write goes out) once per
     * generation, not at every command. A server clock behind the key's
     * (an explicit FK.ADVANCE ahead of it, or the wall clock stepped back)
     * holds the key's clock: it never goes back. */
    if (ms < 0 || (uint64_t)ms > FKR_WINDOW_MAX_MS || (w->clock_set && ns < w->boundary))
        return;
    if (fk_window_advance(fk_window_as_filter(w), ns) == FK_OK)
        rm_Replicate(ctx, "FK.ADVANCE", "sl", name, ms); /* ms: applied as ms * 10^6 ns */
}

uint64_t fkr_clock_as_of(RedisModuleCtx *ctx, const fkr_value *v)
{
    fk_window *w = fkr_time_window(v);
    if (!w)
        return 0;
    fk_window_description d;
    fk_window_describe(w, &d);
    if (!clock_is_ours(ctx))
        return d.now;
    uint64_t ns = ms_to_ns(rm_Milliseconds());
    return ns > d.now ? ns : d.now;
}

/* ------------------------------------------------------------ reads
 *
 * A read answers as of fkr_clock_as_of without changing the key and
 * propagates nothing (fkr.h, issue 48): the window library reads what an
 * advance to that time would leave (fk_window_contains_at,
 * fk_win_describe_at, fk_win_stats_at). */

const fk_window *fkr_read_window(RedisModuleCtx *ctx, const fkr_value *v, uint64_t *as_of)
{
    const fk_window *w = fkr_time_window(v);
    if (!w || !w->clock_set)
        return NULL; /* no clock yet: an advance would only set the origin */
    uint64_t t = fkr_clock_as_of(ctx, v);
    if (t < w->boundary)
        return NULL; /* nothing retires before the next boundary */
    *as_of = t;
    return w;
}

void fkr_read_stats(RedisModuleCtx *ctx, const fkr_value *v, fk_stats *out)
{
    const fk_window *w = fkr_time_window(v);
    if (w && w->clock_set)
        fk_win_stats_at(w, fkr_clock_as_of(ctx, v), out);
    else
        fk_filter_stats(v->filter, out);
}

void fkr_read_describe(RedisModuleCtx *ctx, const fkr_value *v, fk_window_description *out)
{
    const fk_window *w = (const fk_window *)(const void *)v->filter;
    if (w->timed && w->clock_set)
        fk_win_describe_at(w, fkr_clock_as_of(ctx, v), out);
    else
        fk_window_describe(w, out);
}

/* FK.ADVANCE key ms: the key's clock moves to ms * 10^6 ns (see fkr.h);
 * a time in the millisecond the key's clock is already in is a no-op. */
int fkr_fk_advance(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    long long ms;
    if (fkr_arg_int(argv[2], 0, (long long)FKR_WINDOW_MAX_MS, &ms) != RM_OK)
        return fkr_reply_error(ctx, "ERR the time must be an integer in 0..4611686018427 (ms: "
                                    "a window's clock ends at 2^62 ns, FK_WINDOW_MAX_TIME)");
    RedisModuleKey *key;
    fkr_value *v;
    fkr_key_state st = fkr_open(ctx, argv[1], RM_READ | RM_WRITE, &key, &v);
    rm_CloseKey(key); /* v stays valid: nothing runs in between */
    if (!v)
        return fkr_reply_state(ctx, st);
    fk_window *w = fkr_time_window(v);
    if (!w)
        return fkr_reply_error(ctx, "ERR FK_EUNSUPPORTED: FK.ADVANCE needs a time window key "
                                    "(FK.RESERVE key window fpr N SECONDS T)");
    fk_window_description d;
    fk_window_describe(w, &d);
    if (d.clock_set && (uint64_t)ms < d.now / FKR_NS_PER_MS) {
        char msg[160];
        snprintf(msg, sizeof msg, "ERR FK_EINVAL: the clock never goes back (the key's clock is "
                 "at %llu ms)", (unsigned long long)(d.now / FKR_NS_PER_MS));
        return fkr_reply_error(ctx, msg);
    }
    uint64_t ns = ms_to_ns(ms);
    fk_status s = d.clock_set && ns < d.now ? FK_OK /* within the key's ms */
                                            : fk_window_advance(fk_window_as_filter(w), ns);
    if (s != FK_OK)
        return fkr_reply_status(ctx, s);
    rm_ReplicateVerbatim(ctx);
    return rm_ReplyWithSimpleString(ctx, "OK");
}
