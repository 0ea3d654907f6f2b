/* redis/clock.c: a time window key's clock (FK.RESERVE key window fpr N
 * SECONDS T): where its time comes from, and how a replica and the AOF
 * get the same time (see fkr.h, "time windows"). A key's times are Unix
 * ns (FK_CLOCK_UNIX_NS); FK.ADVANCE and the replies speak ms.
 *
 * Everything goes through the generic door (common/filter.h): the kind's
 * capabilities (FK_CAP_EXPIRES), its rows (fk_filter_describe: timed,
 * clock_id, clock_set, now, next_boundary) and fk_filter_advance /
 * _contains_at / _stats_at / _describe_at. No kind's header or table. */
#include "commands.h"

#include <stdio.h>
#include <string.h>

/* A filter's clock, from its rows (as of *at when at is not NULL). */
typedef struct {
    bool     timed;     /* it has a clock (a time window) */
    bool     clock_set; /* the clock was set (first advance) */
    uint64_t clock_id;  /* FK_CLOCK_CALLER or FK_CLOCK_UNIX_NS */
    uint64_t now;       /* the clock */
    uint64_t boundary;  /* the next time its answers change */
} win_clock;

static uint64_t row_u64(const fk_describe_row *rows, size_t n, const char *name)
{
    const fk_describe_row *r = fk_describe_find(rows, n, name);
    return r && r->type == FK_DESCRIBE_U64 ? r->value.u64 : 0;
}

static bool row_bool(const fk_describe_row *rows, size_t n, const char *name)
{
    const fk_describe_row *r = fk_describe_find(rows, n, name);
    return r && r->type == FK_DESCRIBE_BOOL && r->value.b;
}

/* Fills *c for f; false (c zeroed) when f has no clock. O(1) (a pass
 * over the table when `at` lies past a boundary: only the INFO path). */
static bool clock_of(const fk_filter *f, win_clock *c)
{
    memset(c, 0, sizeof *c);
    if (!f || !(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_EXPIRES))
        return false;
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    if (fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n) != FK_OK)
        return false;
    c->timed = row_bool(rows, n, "timed");
    c->clock_set = row_bool(rows, n, "clock_set");
    c->clock_id = row_u64(rows, n, "clock_id");
    c->now = row_u64(rows, n, "now");
    c->boundary = row_u64(rows, n, "next_boundary");
    return c->timed;
}

fk_filter *fkr_time_window(const fkr_value *v)
{
    win_clock c;
    return v && clock_of(v->filter, &c) ? v->filter : NULL;
}

const char *fkr_clock_refusal(const fkr_value *v)
{
    win_clock c;
    if (!v || !clock_of(v->filter, &c) || c.clock_id == FK_CLOCK_UNIX_NS)
        return NULL;
    return c.clock_id == FK_CLOCK_CALLER
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
    win_clock c;
    if (!v || !clock_of(v->filter, &c) || !clock_is_ours(ctx))
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
    if (ms < 0 || (uint64_t)ms > FKR_WINDOW_MAX_MS || (c.clock_set && ns < c.boundary))
        return;
    if (fk_filter_advance(v->filter, ns) == FK_OK)
        rm_Replicate(ctx, "FK.ADVANCE", "sl", name, ms); /* ms: applied as ms * 10^6 ns */
}

/* fkr_clock_as_of for a filter whose clock c is. */
static uint64_t as_of(RedisModuleCtx *ctx, const win_clock *c)
{
    if (!clock_is_ours(ctx))
        return c->now;
    uint64_t ns = ms_to_ns(rm_Milliseconds());
    return ns > c->now ? ns : c->now;
}

uint64_t fkr_clock_as_of(RedisModuleCtx *ctx, const fkr_value *v)
{
    win_clock c;
    if (!v || !clock_of(v->filter, &c))
        return 0;
    return as_of(ctx, &c);
}

/* ------------------------------------------------------------ reads
 *
 * A read answers as of fkr_clock_as_of without changing the key and
 * propagates nothing (fkr.h, issue 48): the generic calls read what an
 * advance to that time would leave (fk_filter_contains_at,
 * fk_filter_describe_at, fk_filter_stats_at). */

const fk_filter *fkr_read_window(RedisModuleCtx *ctx, const fkr_value *v, uint64_t *at)
{
    win_clock c;
    if (!v || !clock_of(v->filter, &c) || !c.clock_set)
        return NULL; /* no clock yet: an advance would only set the origin */
    uint64_t t = as_of(ctx, &c);
    if (t < c.boundary)
        return NULL; /* nothing retires before the next boundary */
    *at = t;
    return v->filter;
}

void fkr_read_stats(RedisModuleCtx *ctx, const fkr_value *v, fk_stats *out)
{
    win_clock c;
    if (clock_of(v->filter, &c) && c.clock_set)
        fk_filter_stats_at(v->filter, as_of(ctx, &c), out);
    else
        fk_filter_stats(v->filter, out);
}

fk_status fkr_read_describe(RedisModuleCtx *ctx, const fkr_value *v, fk_describe_row *rows,
                            size_t cap, size_t *n)
{
    win_clock c;
    if (clock_of(v->filter, &c) && c.clock_set)
        return fk_filter_describe_at(v->filter, as_of(ctx, &c), rows, cap, n);
    return fk_filter_describe(v->filter, rows, cap, n);
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
    win_clock d;
    if (!clock_of(v->filter, &d))
        return fkr_reply_error(ctx, "ERR FK_EUNSUPPORTED: FK.ADVANCE needs a time window key "
                                    "(FK.RESERVE key window fpr N SECONDS T)");
    if (d.clock_set && (uint64_t)ms < d.now / FKR_NS_PER_MS) {
        char msg[160];
        snprintf(msg, sizeof msg, "ERR FK_EINVAL: the clock never goes back (the key's clock is "
                 "at %llu ms)", (unsigned long long)(d.now / FKR_NS_PER_MS));
        return fkr_reply_error(ctx, msg);
    }
    uint64_t ns = ms_to_ns(ms);
    fk_status s = d.clock_set && ns < d.now ? FK_OK /* within the key's ms */
                                            : fk_filter_advance(v->filter, ns);
    if (s != FK_OK)
        return fkr_reply_status(ctx, s);
    rm_ReplicateVerbatim(ctx);
    return rm_ReplyWithSimpleString(ctx, "OK");
}
