/* redis/fkr.h: what the command files share: the data type, the module's
 * settings, key lookup, argument parsing, replies and filter creation. */
#ifndef FKR_FKR_H
#define FKR_FKR_H

#include <stdbool.h>
#include <stdint.h>
#include "../registry/registry.h"
#include "rm_api.h"
#include "value.h"

/* The data type (set at load) and the largest filter body one key may
 * hold (module argument MAXBYTES; FKR_DEFAULT_MAX_BYTES otherwise).
 * Filter bodies come from malloc, outside Redis's maxmemory accounting,
 * so this cap is what keeps one command from taking the machine. */
#define FKR_DEFAULT_MAX_BYTES (UINT64_C(1) << 30)
extern RedisModuleType *fkr_type;
extern uint64_t fkr_max_bytes;

/* The most bytes of a value one BF/CF.SCANDUMP chunk carries (module
 * argument CHUNKBYTES; a client with a smaller proto-max-bulk-len, or a
 * test, asks for less). */
#define FKR_DEFAULT_CHUNK_BYTES (UINT64_C(16) << 20)
#define FKR_MIN_CHUNK_BYTES     UINT64_C(64)
extern uint64_t fkr_chunk_bytes;

/* Restores in progress (BF/CF.LOADCHUNK, cmd_chunk.c): at most
 * FKR_RESTORES_MAX at once, holding at most fkr_restore_bytes in all
 * (module argument RESTOREBYTES; by default MAXBYTES + FKR_RESTORE_SLACK,
 * room for one dump of the largest key), each dropped
 * fkr_restore_timeout_s seconds after its last chunk (module argument
 * RESTORETIMEOUT). A first chunk past any of them is refused, never
 * another client's restore evicted. */
#define FKR_RESTORES_MAX              64
#define FKR_RESTORE_SLACK             (UINT64_C(1) << 20)
#define FKR_DEFAULT_RESTORE_TIMEOUT_S 60
#define FKR_MAX_RESTORE_TIMEOUT_S     86400
extern uint64_t fkr_restore_bytes;
extern uint64_t fkr_restore_timeout_s;

/* At load: follows FLUSHDB/FLUSHALL and replication role changes (they
 * drop restores) and adds the "filterkit_restores" INFO section. RM_OK or
 * RM_ERR. */
int fkr_restores_init(RedisModuleCtx *ctx);

/* RedisBloom's defaults and limits. */
#define FKR_BF_ERROR        0.01
#define FKR_BF_CAPACITY     100
#define FKR_BF_EXPANSION    2
#define FKR_CF_CAPACITY     1024
#define FKR_CF_BUCKETSIZE   2 /* RedisBloom's default: the least capacity is twice it */
#define FKR_CF_MAXITER      20
/* RedisBloom's CF default is 1 (equal links); filterkit's is 2: links
 * that double keep 10^6 items from CF.ADD's defaults in 10 links, not
 * ~1000 (docs/redis.md). An explicit EXPANSION 1 is kept. */
#define FKR_CF_EXPANSION    2
#define FKR_CF_ERROR        0.01 /* fingerprint width: 10 bits */
#define FKR_CF_MAX_EXPANSIONS 32

/* ----------------------------------------------------------- configs
 *
 * RedisBloom's eight module configs (config.c), with its names and
 * defaults but one (cf-expansion-factor defaults to FKR_CF_EXPANSION) and
 * its ranges but three (below). Set at load time as module arguments
 * (`bf-error-rate 0.001`, any case; also RedisBloom's older INITIAL_SIZE,
 * ERROR_RATE, CF_MAX_EXPANSIONS) and at run time by CONFIG SET <module
 * name>.<config> (Redis 7 module configs). They shape filters made from
 * then on: what RESERVE and INSERT are not told, and every filter BF.ADD /
 * CF.ADD / ... create on a missing key. cf-max-expansions bounds every
 * scaling CF chain at each insert.
 *
 * Each range is one the keys a config shapes can use (issue 48): a value
 * no key could be made with is refused at CONFIG SET and at load, with a
 * message naming the range. So, where RedisBloom's range is wider:
 * bf-error-rate starts at FKR_BF_MIN_ERROR (a Bloom key of any
 * bf-initial-size, scaling or not, is made down to about 2e-24 and no
 * lower: "out of reach"; RedisBloom: (0, 1)); cf-bucket-size takes only 4
 * (the bucket filterkit serves; RedisBloom: 1..255); cf-max-expansions
 * ends at FKR_CF_MAX_EXPANSIONS_LIMIT, the expansions of a chain of
 * FK_SCALABLE_MAX_LINKS links (RedisBloom: 65536, which no chain reaches:
 * its links end first). The capacities and expansions are within what
 * BF/CF.RESERVE accept. */
#define FKR_BF_MIN_ERROR            1e-20
#define FKR_CF_MAX_EXPANSIONS_LIMIT 65535
typedef struct {
    double    bf_error_rate;     /* [1e-20, 1) */
    long long bf_initial_size;   /* 1..1048576 */
    long long bf_expansion;      /* 0..32768; 0: auto-created filters do not scale */
    long long cf_bucket_size;    /* 4 only (RedisBloom: 1..255) */
    long long cf_initial_size;   /* 4..1048576 */
    long long cf_max_iterations; /* 1..65535 */
    long long cf_expansion;      /* 0..32768; 0: auto-created filters do not scale */
    long long cf_max_expansions; /* 1..65535: sub-filters a CF chain may add */
} fkr_config;
extern fkr_config fkr_cfg;

/* Registers the configs with Redis and loads the values a config file or
 * MODULE LOADEX gave (their defaults: the values the module arguments
 * left). RM_OK or RM_ERR. From RedisModule_OnLoad, after the arguments. */
int fkr_config_register(RedisModuleCtx *ctx);

/* A module argument pair name value: 1 when name is a config (or a legacy
 * name) and value fits it (stored), -1 when value does not (logged), 0
 * when name is not a config. */
int fkr_config_arg(RedisModuleCtx *ctx, RedisModuleString *name, RedisModuleString *value);

/* The error for a BUCKETSIZE other than the 4 slots filterkit serves. */
const char *fkr_bucket_size_error(long long b);

/* ------------------------------------------------------------ keys */

typedef enum { FKR_KEY_EMPTY, FKR_KEY_FOUND, FKR_KEY_WRONGTYPE } fkr_key_state;

/* Opens name with mode (RM_READ or RM_READ | RM_WRITE); stores the key in
 * *key (close it with rm_CloseKey, even on EMPTY / WRONGTYPE) and, when it
 * holds a filterkit value, that value in *v (else NULL). */
fkr_key_state fkr_open(RedisModuleCtx *ctx, RedisModuleString *name, int mode,
                       RedisModuleKey **key, fkr_value **v);

/* As fkr_open, and FOUND only when the value's family is `family`
 * (RedisBloom keeps Bloom and cuckoo filters apart: BF.* on a CF key is
 * WRONGTYPE). */
fkr_key_state fkr_open_family(RedisModuleCtx *ctx, RedisModuleString *name, int mode,
                              fkr_family family, RedisModuleKey **key, fkr_value **v);

/* fkr_open_family for reading, the key closed at once: *v stays valid
 * while the command runs (nothing else runs in between), NULL unless
 * FOUND. For commands that only read the value's fields. */
fkr_key_state fkr_peek_family(RedisModuleCtx *ctx, RedisModuleString *name, fkr_family family,
                              fkr_value **v);

/* -------------------------------------------------------- arguments */

/* 1 when arg equals word, ignoring ASCII case. */
int fkr_arg_is(const RedisModuleString *arg, const char *word);

/* A rate in (0,1): RM_OK or RM_ERR (not a number, NaN, out of range). */
int fkr_arg_rate(const RedisModuleString *arg, double *out);

/* An integer in [lo, hi]: RM_OK or RM_ERR. */
int fkr_arg_int(const RedisModuleString *arg, long long lo, long long hi, long long *out);

/* ----------------------------------------------------------- replies */

/* The one place that decides a reply's shape by protocol (RedisBloom's
 * rule): a client that said HELLO 3 gets booleans for yes/no answers and
 * maps for field/value replies; a RESP2 client gets integers 1 / 0 and
 * flat arrays, as before. Every command replies through these. */

/* 1 when the calling client speaks RESP3. */
int fkr_resp3(RedisModuleCtx *ctx);

/* A yes/no answer: RESP3 true/false, RESP2 integer 1/0. */
int fkr_reply_bool(RedisModuleCtx *ctx, int yes);

/* Starts a reply of `pairs` name/value pairs: RESP3 a map, RESP2 an
 * array of 2 * pairs. The caller then replies each name and its value. */
int fkr_reply_map(RedisModuleCtx *ctx, long pairs);

/* The one place an error is replied (the module calls rm_ReplyWithError
 * nowhere else; tests/redis/cli_redis_window.sh checks). A command that came
 * from this server's primary (RM_CTX_FLAGS_REPLICATED) failed on the
 * primary too: the primary replicates a write that changed a key and then
 * stopped (CF.INSERT into a key that fills up, FK.MADD past MAXBYTES, an
 * insert a full time window refuses) so that the replica makes the same
 * change, and on the same data the replica stops at the same place. Redis
 * discards what a replica answers its primary, but logs each error reply
 * as "== CRITICAL == This replica is sending an error to its master"
 * (and, with propagation-error-behavior panic, stops the replica): so that
 * expected failure is answered as a status line of the same text. A
 * replica that really differs from its primary shows in DEBUG DIGEST,
 * which the error never did. */
int fkr_reply_error(RedisModuleCtx *ctx, const char *msg);

/* Replies "ERR FK_XXX: <sentence>" for s. */
int fkr_reply_status(RedisModuleCtx *ctx, fk_status s);

/* A count as a reply's integer: RESP integers are signed 64-bit, so a
 * count past INT64_MAX (a quotient filter's counts add up through merges,
 * and the library's saturate at UINT64_MAX) is answered INT64_MAX. */
long long fkr_count_reply(uint64_t n);

/* Replies with a key-state error: "ERR not found" or WRONGTYPE. */
int fkr_reply_state(RedisModuleCtx *ctx, fkr_key_state st);

/* ---------------------------------------------------------- filters */

/* The seed a new filter for key gets: a hash of the key's name, so a
 * replica (which runs the same command on the same key) builds the same
 * filter bit for bit. */
uint64_t fkr_key_seed(const RedisModuleString *key);

/* Creates a filter of kind ops with params p and max_bytes = MAXBYTES
 * (so a growing one never grows past it), first refusing (without
 * allocating more than a small probe) anything whose body would exceed
 * fkr_max_bytes, or a growing one whose first growth step would. Returns NULL and stores the filter in *out, or returns
 * the error text to reply (*out NULL). */
const char *fkr_new_filter(const fk_ops *ops, const fk_params *p, fk_filter **out);

/* As fkr_new_value for a time window (kind "window") of span_ns Unix
 * nanoseconds (fk_params.span, clock FK_CLOCK_UNIX_NS whatever
 * p->clock says): p->capacity keys per window. */
const char *fkr_new_time_window(const fk_ops *ops, const fk_params *p, uint64_t span_ns,
                                fkr_value **out);

/* fkr_new_filter, then the value wrapping it (fkr_value_wrap_new: no scan
 * of the new body). Returns NULL with the value in *out, or the error
 * text to reply. */
const char *fkr_new_value(const fk_ops *ops, const fk_params *p, fkr_family family,
                          uint64_t capacity, fkr_value **out);

/* The error text for FK_ELIMIT: names MAXBYTES and its value. */
const char *fkr_limit_error(void);

/* Gives a loaded value's growing filter the module's byte limit (the
 * limit is not saved with a filter): it grows no further past MAXBYTES;
 * and a CF value its kick limit (fkr_apply_kicks). */
void fkr_apply_limit(fkr_value *v);

/* Gives a CF value's cuckoo tables (a chain's, every link) its
 * max_iterations as their kick limit (fk_cuckoo_set_max_kicks: at most
 * FK_CUCKOO_MAX_KICKS). The limit is not saved with a filter: applied at
 * creation, at load (fkr_apply_limit) and after a chain grows a link.
 * A no-op for BF and FK values. */
void fkr_apply_kicks(fkr_value *v);

/* A BF/CF value that may not grow past its capacity and has reached it:
 * the kind does not grow by itself, and the value is NONSCALING or no
 * growing kind is registered. */
int fkr_at_capacity(const fkr_value *v);

/* How many times key was added (CF.COUNT / FK.COUNT): the kind's count (fk_filter_count: cuckoo copies, summed over a chain),
 * else 1 when contained, 0 otherwise. */
long long fkr_count(const fkr_value *v, const char *key, size_t len);

/* Stores v under key (open for writing), replacing what was there. */
void fkr_set(RedisModuleKey *key, fkr_value *v);

/* ------------------------------------------------------------ batches
 *
 * Many items of one command go through the library's batch calls
 * (fk_filter_contains_many, ...), FKR_BATCH items at a time, so their cache
 * misses overlap. */
#define FKR_BATCH 256

/* One batch of a command's items as the library takes them. */
typedef struct {
    int         n;
    const void *keys[FKR_BATCH];
    size_t      lens[FKR_BATCH];
    bool        maybe[FKR_BATCH];  /* fkr_batch_lookup's answers */
} fkr_batch;

/* Points b at items[from .. from + min(FKR_BATCH, count - from)) and
 * returns how many that is. */
int fkr_batch_take(fkr_batch *b, RedisModuleString **items, int from, int count);

/* b->maybe[i] = fk_filter_contains(f, b->keys[i], b->lens[i]); all false
 * for f NULL (a missing key holds nothing). */
void fkr_batch_lookup(fkr_batch *b, const fk_filter *f);

/* The EXISTS / MEXISTS / COUNT replies of every family, on a key its
 * command opened (key, st and v from fkr_open or fkr_open_family):
 * WRONGTYPE replies the error; otherwise each item of argv[2..argc) is
 * answered yes / no (fkr_reply_bool; count: its fkr_count, an integer),
 * a missing key holding nothing
 * (0), one reply per item, in an array when multi. Closes key; returns
 * RM_OK or the error reply's status. */
int fkr_reply_lookups(RedisModuleCtx *ctx, RedisModuleKey *key, fkr_key_state st,
                      const fkr_value *v, RedisModuleString **argv, int argc, int multi,
                      int count);

/* Defines fkr_<family>_exists, _mexists and _count, the lookup commands
 * of a family, over its check(ctx, argv, argc, multi, count) (which opens
 * the key and calls fkr_reply_lookups): arity checked, one item for
 * EXISTS and COUNT, one or more for MEXISTS. */
#define FKR_LOOKUP_COMMANDS(family, check)                                           \
    int fkr_##family##_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) \
    {                                                                                \
        return argc != 3 ? rm_WrongArity(ctx) : check(ctx, argv, argc, 0, 0);       \
    }                                                                                \
    int fkr_##family##_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) \
    {                                                                                \
        return argc < 3 ? rm_WrongArity(ctx) : check(ctx, argv, argc, 1, 0);        \
    }                                                                                \
    int fkr_##family##_count(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) \
    {                                                                                \
        return argc != 3 ? rm_WrongArity(ctx) : check(ctx, argv, argc, 0, 1);       \
    }

/* The end of every RESERVE: the key opened read-write must be empty
 * (else "ERR item exists" or WRONGTYPE, key closed, returns 0); returns 1
 * with *key open when it is. */
int fkr_open_new(RedisModuleCtx *ctx, RedisModuleString *name, RedisModuleKey **key);

/* The end of a write command that changed v: its cached figures
 * refreshed, key closed, the command replicated. Returns RM_OK. */
int fkr_wrote(RedisModuleCtx *ctx, RedisModuleKey *key, fkr_value *v);

/* One value of an INFO reply (fkr_reply_info): an integer, a double, a
 * boolean, a string or a null, each replied as the module replies that
 * type elsewhere: RESP3 integer / double / boolean / simple string / null;
 * RESP2 integer / bulk string of the double / integer 0 or 1 / simple
 * string / null. FKR_INFO_INT(v) and friends build them. */
typedef enum {
    FKR_INFO_INT = 0,
    FKR_INFO_DOUBLE,
    FKR_INFO_BOOL,
    FKR_INFO_STRING,
    FKR_INFO_NULL
} fkr_info_type;

typedef struct {
    fkr_info_type type;
    union {
        long long   i;
        double      d;
        int         b;
        const char *s; /* NULL replies a null, as FKR_INFO_NULL */
    } v;
} fkr_info_value;

#define FKR_INFO_INT(x) ((fkr_info_value){ .type = FKR_INFO_INT, .v.i = (x) })
#define FKR_INFO_DOUBLE(x) ((fkr_info_value){ .type = FKR_INFO_DOUBLE, .v.d = (x) })
#define FKR_INFO_BOOL(x) ((fkr_info_value){ .type = FKR_INFO_BOOL, .v.b = (x) != 0 })
#define FKR_INFO_STRING(x) ((fkr_info_value){ .type = FKR_INFO_STRING, .v.s = (x) })
#define FKR_INFO_NULL ((fkr_info_value){ .type = FKR_INFO_NULL })

/* An INFO reply (BF.INFO, CF.INFO, FK.INFO): n name, value pairs
 * (fkr_reply_map: a map in RESP3, a flat array in RESP2), values[i] typed
 * as above; with field (not NULL) only the pair whose upper-case name in
 * fields[] matches it, as RedisBloom answers it: RESP2 a one-value array,
 * RESP3 a one-pair map; an unknown field is "ERR Invalid information
 * value". Returns RM_OK or the error reply's status. */
int fkr_reply_info(RedisModuleCtx *ctx, const char *const names[], const char *const fields[],
                   const fkr_info_value values[], int n, const RedisModuleString *field);

/* Closes key and replies a RESERVE: err, or OK (replicated). */
int fkr_reply_created(RedisModuleCtx *ctx, RedisModuleKey *key, const char *err);

/* ----------------------------------------------------- time windows
 *
 * A time window key (FK.RESERVE key window fpr N SECONDS T, clock.c)
 * keeps its times in Unix nanoseconds, clock id FK_CLOCK_UNIX_NS
 * (common/params.h), the clock the CLI and Python use: FK.DUMP gives a
 * file they advance on schedule, and FK.LOAD / RESTORE / RDB take only
 * time windows on that clock. Only a primary serving a client reads the
 * server's clock (RM_Milliseconds, times 10^6); the time reaches replicas
 * and the AOF as an explicit FK.ADVANCE key ms, so that they hold the
 * primary's state bit for bit and never use their own clocks. Commands
 * and replies show times in milliseconds (FK.ADVANCE, FK.INFO). Only
 * writes move a key's clock (fkr_clock): a read (EXISTS, MEXISTS, COUNT,
 * INFO, of any family, also from EVAL_RO) answers as of the time of
 * fkr_clock_as_of without changing the key or propagating anything
 * (fkr_read_window, fkr_read_stats, fkr_read_describe), so that it runs
 * during CLIENT PAUSE WRITE and FAILOVER (issue 48: a read that
 * propagated FK.ADVANCE there stopped the server). A replica's reads (and
 * FK.INFO) answer as of the last time its primary sent. */

#include "../window/window.h"

#define FKR_NS_PER_MS UINT64_C(1000000)
#define FKR_WINDOW_MAX_SECONDS (INT64_MAX / 1000000000)
/* The latest time FK.ADVANCE takes: where a window's clock ends
 * (FK_WINDOW_MAX_TIME, 2^62 ns, in 2116), in whole ms. */
#define FKR_WINDOW_MAX_MS (FK_WINDOW_MAX_TIME / FKR_NS_PER_MS)

/* v's filter when it has a clock (FK_CAP_EXPIRES and its "timed" row:
 * a time window), else NULL (v may be NULL). */
fk_filter *fkr_time_window(const fkr_value *v);

/* Before a command writes v (name: its key; write must be 1, and a read
 * never calls it): when v is a time window and this server is a primary
 * serving a client (not a command from its own primary, not loading),
 * and the server's clock has reached the window's next generation
 * boundary (or the window's clock was never set: the origin), the window
 * advances to the server's time and `FK.ADVANCE name ms` is replicated
 * ahead of the command's own propagation. Between boundaries, and for a
 * server clock behind the key's, nothing changes (the answers would not).
 * Otherwise, and for write 0, a no-op. O(1), but a sweep per boundary
 * crossed. */
void fkr_clock(RedisModuleCtx *ctx, RedisModuleString *name, fkr_value *v, int write);

/* The time v's answers are as of (Unix ns): a primary serving a client,
 * the later of the server's clock and the key's; elsewhere the key's
 * clock (its last FK.ADVANCE). 0 for anything but a time window. */
uint64_t fkr_clock_as_of(RedisModuleCtx *ctx, const fkr_value *v);

/* The error a command answers for a value it was given (FK.LOAD, RESTORE,
 * an RDB) whose filter is a time window on another clock than Unix ns
 * (a C program's own ticks, clock 0): a key cannot advance it on the
 * server's clock. NULL for every other value. */
const char *fkr_clock_refusal(const fkr_value *v);

/* For a read of v: its window when v is a time window whose answers as of
 * fkr_clock_as_of differ from what it stores (a generation boundary lies
 * between its clock and that time), with the time in *as_of; the read
 * then answers with fk_filter_contains_at(f, key, len, *as_of). NULL
 * otherwise (v NULL, not a time window, nothing would retire): read v's
 * filter as it stands. Changes nothing. O(1). */
const fk_filter *fkr_read_window(RedisModuleCtx *ctx, const fkr_value *v, uint64_t *as_of);

/* fk_filter_stats of v's filter as of fkr_clock_as_of (a time window: its
 * items, load and expected rate once the generations that time retires
 * are gone; fk_filter_stats_at), without changing it. */
void fkr_read_stats(RedisModuleCtx *ctx, const fkr_value *v, fk_stats *out);

/* fk_filter_describe of v's filter as of fkr_clock_as_of (a time window
 * whose clock is set: fk_filter_describe_at, the generation, oldest age,
 * per-generation counts and clock at that time), without changing it.
 * Returns as fk_filter_describe. */
fk_status fkr_read_describe(RedisModuleCtx *ctx, const fkr_value *v, fk_describe_row *rows,
                            size_t cap, size_t *n);

#endif
