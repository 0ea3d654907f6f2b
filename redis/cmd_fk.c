/* redis/cmd_fk.c: filterkit's own commands (FK.*): any registered kind,
 * the library's own semantics, and FK.DUMP / FK.LOAD in filterkit's
 * portable file format (what `filterkit build` writes and `filterkit
 * query` reads). FK.* commands work on every filterkit key, whichever
 * family made it. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../scalable/scalable.h"
#include "../common/serial.h"

/* A static kind (FK_CAP_STATIC, fuse) is built once from the whole set
 * and never written: it arrives by FK.LOAD of a file that `filterkit
 * build` (or fk_filter_save) wrote, and every write names that. */
static int reply_static(RedisModuleCtx *ctx, const fk_ops *ops)
{
    char msg[256];
    snprintf(msg, sizeof msg,
             "ERR FK_EUNSUPPORTED: a %s filter is static (built once from the whole set, never "
             "written): build it with 'filterkit build --kind %s' and FK.LOAD the file",
             ops->name, ops->name);
    return fkr_reply_error(ctx, msg);
}

/* The options FK.RESERVE takes for kind ops, for an error's "kind K takes
 * the options ...": GROWTH means one thing for a chain (its factor) and
 * another for expandable (the growth its fingerprints are sized for: the
 * table only ever doubles), so each says which. */
static void kind_options(const fk_ops *ops, char *buf, size_t len)
{
    unsigned caps = fk_ops_caps(ops);
    const char *growth = "";
    if (caps & FK_CAP_GROWS)
        growth = strcmp(ops->name, "expandable") == 0
                     ? ", GROWTH n (the growth expected, not a factor: the table doubles; its "
                       "fingerprints last ceil(log2 n) doublings, default 1024)"
                     : ", GROWTH n (each next sub-filter n times the last one's capacity)";
    snprintf(buf, len, "SEED n%s%s", growth, caps & FK_CAP_EXPIRES ? ", SECONDS t" : "");
}

/* An option FK.RESERVE knows that kind ops does not use (GROWTH of a kind
 * that does not grow, SECONDS of one with no clock): refused by name, as
 * RedisBloom refuses an option that does not apply, never ignored. */
static int reply_unused_option(RedisModuleCtx *ctx, const fk_ops *ops, const char *option,
                               const char *why)
{
    char takes[256], msg[512];
    kind_options(ops, takes, sizeof takes);
    snprintf(msg, sizeof msg, "ERR %s is not an option of kind %s (%s); kind %s takes the options %s",
             option, ops->name, why, ops->name, takes);
    return fkr_reply_error(ctx, msg);
}

/* The reply to an option FK.RESERVE does not take for kind ops (word, with
 * value after it): what the word is, if it means something elsewhere (a
 * time unit: SECONDS is the only one; a module argument), and the options
 * this kind does take. RedisBloom's style: "ERR " and one sentence. */
static int reply_bad_option(RedisModuleCtx *ctx, const fk_ops *ops, const RedisModuleString *word,
                            const RedisModuleString *value)
{
    static const struct {
        const char *word;
        long long   seconds; /* one of it in seconds; 0: less than one */
    } units[] = {
        { "MS", 0 }, { "MILLISECONDS", 0 }, { "SECOND", 1 }, { "SEC", 1 }, { "S", 1 },
        { "MINUTE", 60 }, { "MINUTES", 60 }, { "MIN", 60 }, { "HOUR", 3600 }, { "HOURS", 3600 },
        { "DAY", 86400 }, { "DAYS", 86400 },
    };
    static const char *const module_args[] = { "MAXBYTES", "CHUNKBYTES", "RESTOREBYTES",
                                               "RESTORETIMEOUT" };
    char takes[256];
    kind_options(ops, takes, sizeof takes);
    size_t len;
    const char *w = rm_StringPtrLen(word, &len);
    char msg[512];
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (!fkr_arg_is(word, units[i].word))
            continue;
        long long n;
        char as[64] = "";
        if (units[i].seconds > 1 && fkr_arg_int(value, 1, FKR_WINDOW_MAX_SECONDS / units[i].seconds, &n) == RM_OK)
            snprintf(as, sizeof as, ": %lld %s is SECONDS %lld", n, units[i].word, n * units[i].seconds);
        snprintf(msg, sizeof msg,
                 "ERR unknown option '%.*s': the unit of a time window is SECONDS only "
                 "(SECONDS t, t in 1..9223372036, kind window)%s; kind %s takes the "
                 "options %s",
                 (int)(len > 40 ? 40 : len), w, as, ops->name, takes);
        return fkr_reply_error(ctx, msg);
    }
    for (size_t i = 0; i < sizeof module_args / sizeof *module_args; i++) {
        if (!fkr_arg_is(word, module_args[i]))
            continue;
        snprintf(msg, sizeof msg,
                 "ERR %s is not an option of FK.RESERVE: it is a module argument, one limit for "
                 "every key (redis-server --loadmodule filterkit-redis.so %s n); kind %s "
                 "takes the options %s",
                 module_args[i], module_args[i], ops->name, takes);
        return fkr_reply_error(ctx, msg);
    }
    snprintf(msg, sizeof msg, "ERR unknown option '%.*s': kind %s takes the options %s",
             (int)(len > 40 ? 40 : len), w, ops->name, takes);
    return fkr_reply_error(ctx, msg);
}

/* FK.RESERVE key KIND fpr capacity [GROWTH s] [SEED n] [SECONDS t]: GROWTH
 * (the growing kinds) is a chain's factor, or expandable's expected growth
 * (kind_options); SEED
 * (0 to 2^63 - 1) replaces the seed taken from the key's name, so that
 * filters of two keys reserved alike can be merged (FK.MERGE). SECONDS
 * (kind window only) makes a time window of t seconds, sized for
 * `capacity` keys per window, its times in Unix ns (clock.c);
 * without it a window key is a count window of the last `capacity`
 * inserts. Any other word is answered with what it is and the options
 * the kind takes (reply_bad_option), a repeated option by its name. */
int fkr_fk_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 5 || argc > 11 || argc % 2 == 0)
        return rm_WrongArity(ctx);
    size_t n;
    const char *name = rm_StringPtrLen(argv[2], &n);
    const fk_ops *ops = fk_ops_find(name);
    if (!ops)
        return fkr_reply_error(ctx, "ERR unknown kind (FK.KINDS lists them)");
    if (!(fk_ops_caps(ops) & FK_CAP_SERIALIZE))
        return fkr_reply_error(ctx, "ERR FK_EUNSUPPORTED: this kind cannot be saved, so it cannot live in Redis");
    if (fk_ops_caps(ops) & FK_CAP_STATIC)
        return reply_static(ctx, ops);
    double fpr;
    long long capacity, growth = 0, seed = 0, seconds = 0;
    int has_growth = 0, has_seed = 0, has_seconds = 0;
    if (fkr_arg_rate(argv[3], &fpr) != RM_OK)
        return fkr_reply_error(ctx, "ERR fpr must be a number in (0, 1)");
    if (fkr_arg_int(argv[4], 1, INT64_MAX, &capacity) != RM_OK)
        return fkr_reply_error(ctx, "ERR capacity must be a positive integer");
    for (int i = 5; i < argc; i += 2) {
        static const char *const options[] = { "GROWTH", "SEED", "SECONDS" };
        for (size_t o = 0; o < sizeof options / sizeof *options; o++)
            if (fkr_arg_is(argv[i], options[o]) &&
                (o == 0 ? has_growth : o == 1 ? has_seed : has_seconds)) {
                char msg[64];
                snprintf(msg, sizeof msg, "ERR %s given twice", options[o]);
                return fkr_reply_error(ctx, msg);
            }
        if (fkr_arg_is(argv[i], "GROWTH")) {
            has_growth = 1;
            if (!(fk_ops_caps(ops) & FK_CAP_GROWS))
                return reply_unused_option(ctx, ops, "GROWTH",
                                           "it does not grow: GROWTH is scalable-*'s factor and "
                                           "expandable's expected growth");
            if (fkr_arg_int(argv[i + 1], 1, FK_SCALABLE_MAX_GROWTH, &growth) != RM_OK)
                return fkr_reply_error(ctx, "ERR GROWTH must be an integer in 1..65536");
        } else if (fkr_arg_is(argv[i], "SEED")) {
            has_seed = 1;
            if (fkr_arg_int(argv[i + 1], 0, INT64_MAX, &seed) != RM_OK)
                return fkr_reply_error(ctx, "ERR SEED must be an integer in 0..9223372036854775807");
        } else if (fkr_arg_is(argv[i], "SECONDS")) {
            has_seconds = 1;
            if (!(fk_ops_caps(ops) & FK_CAP_EXPIRES)) /* the kinds with a clock */
                return reply_unused_option(ctx, ops, "SECONDS",
                                           "SECONDS t makes a time window: kind window");
            if (fkr_arg_int(argv[i + 1], 1, FKR_WINDOW_MAX_SECONDS, &seconds) != RM_OK)
                return fkr_reply_error(ctx, "ERR SECONDS must be a positive integer (at most "
                                            "9223372036: its ns fit 63 bits)");
        } else {
            return reply_bad_option(ctx, ops, argv[i], argv[i + 1]);
        }
    }
    RedisModuleKey *key;
    if (!fkr_open_new(ctx, argv[1], &key))
        return RM_OK;
    fk_params p = fk_params_make((uint64_t)capacity, fpr);
    p.seed = has_seed ? (uint64_t)seed : fkr_key_seed(argv[1]);
    p.growth = (uint32_t)growth;
    fkr_value *v;
    const char *err = has_seconds
        ? fkr_new_time_window(ops, &p, (uint64_t)seconds * UINT64_C(1000000000), &v)
        : fkr_new_value(ops, &p, FKR_FAMILY_FK, (uint64_t)capacity, &v);
    if (!err) {
        v->expansion = (uint32_t)growth;
        fkr_set(key, v);
    }
    return fkr_reply_created(ctx, key, err);
}

/* Opens name (any family): its value, or NULL with *st saying why. */
static fkr_value *fk_value(RedisModuleCtx *ctx, RedisModuleString *name, int mode,
                           RedisModuleKey **key, fkr_key_state *st)
{
    fkr_value *v;
    *st = fkr_open(ctx, name, mode, key, &v);
    return v;
}

/* Opens name read-write for a change: its value, or NULL (key closed) with
 * the reply's status in *replied: the key state's error, or a static
 * kind's refusal. */
static fkr_value *fk_writable(RedisModuleCtx *ctx, RedisModuleString *name, RedisModuleKey **key,
                              int *replied)
{
    fkr_key_state st;
    fkr_value *v = fk_value(ctx, name, RM_READ | RM_WRITE, key, &st);
    if (v && !(fk_ops_caps(fk_filter_ops(v->filter)) & FK_CAP_STATIC))
        return v;
    rm_CloseKey(*key); /* v stays valid: nothing runs in between */
    *replied = v ? reply_static(ctx, fk_filter_ops(v->filter)) : fkr_reply_state(ctx, st);
    return NULL;
}

/* FK.ADD key item / FK.MADD key item [item ...]: 1 per stored item, or the
 * library's status as an error ("ERR FK_EFULL: ..."); MADD carries on. */
static int fk_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int multi)
{
    RedisModuleKey *key;
    int replied;
    fkr_value *v = fk_writable(ctx, argv[1], &key, &replied);
    if (!v)
        return replied;
    fkr_clock(ctx, argv[1], v, 1); /* a time window: the primary's time first */
    if (multi)
        rm_ReplyWithArray(ctx, argc - 2);
    /* insert_many stops at a failing item; MADD answers it and goes on */
    fkr_batch b;
    for (int i = 2; i < argc; i += b.n) {
        fkr_batch_take(&b, argv, i, argc);
        for (int j = 0; j < b.n;) {
            size_t did = 0;
            fk_status rc = fk_filter_insert_many(v->filter, (size_t)(b.n - j), b.keys + j,
                                                 b.lens + j, &did);
            fkr_value_changed(v, (int64_t)did);
            for (size_t k = 0; k < did; k++)
                fkr_reply_bool(ctx, 1);
            j += (int)did;
            if (rc != FK_OK) {
                fkr_reply_status(ctx, rc);
                j++;
            }
        }
    }
    return fkr_wrote(ctx, key, v);
}

int fkr_fk_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    return fk_insert(ctx, argv, argc, 0);
}

int fkr_fk_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 3)
        return rm_WrongArity(ctx);
    return fk_insert(ctx, argv, argc, 1);
}

/* FK.EXISTS / FK.MEXISTS / FK.COUNT: a missing key holds nothing (0). */
static int fk_check(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int multi, int count)
{
    RedisModuleKey *key;
    fkr_key_state st;
    fkr_value *v = fk_value(ctx, argv[1], RM_READ, &key, &st);
    /* a time window answers as of now, unchanged (fkr_read_window) */
    return fkr_reply_lookups(ctx, key, st, v, argv, argc, multi, count);
}

FKR_LOOKUP_COMMANDS(fk, fk_check)

/* FK.DEL key item: 1 removed, 0 definitely absent; FK_EUNSUPPORTED for
 * kinds without removes. */
int fkr_fk_del(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    RedisModuleKey *key;
    int replied;
    fkr_value *v = fk_writable(ctx, argv[1], &key, &replied);
    if (!v)
        return replied;
    size_t len;
    const char *s = rm_StringPtrLen(argv[2], &len);
    fk_status rc = fk_filter_remove(v->filter, s, len);
    if (rc == FK_OK) {
        v->deleted++;
        fkr_value_changed(v, -1);
    }
    rm_CloseKey(key);
    if (rc == FK_OK || rc == FK_ENOTFOUND) {
        rm_ReplicateVerbatim(ctx);
        return fkr_reply_bool(ctx, rc == FK_OK);
    }
    if (rc == FK_EUNSUPPORTED) {
        char msg[200];
        const char *name = fk_filter_ops(v->filter)->name;
        snprintf(msg, sizeof msg, "ERR FK_EUNSUPPORTED: a %s filter cannot remove keys%s", name,
                 fk_ops_caps(fk_filter_ops(v->filter)) & FK_CAP_EXPIRES
                     ? " (two keys may share one slot: removing one would drop the other "
                       "inside its window)"
                     : "");
        return fkr_reply_error(ctx, msg);
    }
    return fkr_reply_status(ctx, rc);
}

/* A copy of v (what COPY makes), or NULL when out of memory. */
static fkr_value *value_copy(const fkr_value *v)
{
    size_t len = fkr_value_encoded_size(v);
    uint8_t *buf = len ? malloc(len) : NULL;
    fkr_value *copy = NULL;
    if (buf && (fkr_value_encode(v, buf, len) != FK_OK ||
                fkr_value_decode(buf, len, FK_MEMORY_CAP, &copy) != FK_OK))
        copy = NULL;
    free(buf);
    if (copy)
        fkr_apply_limit(copy);
    return copy;
}

/* FK.MERGE dest src: dest becomes the union of both filters
 * (fk_filter_merge: counts add up where the kind counts); src is not
 * changed; FK.MERGE k k answers as a merge from a copy of k would (Bloom:
 * unchanged; quotient: counts doubled; an error for kinds that cannot
 * merge). As SUNIONSTORE and PFMERGE do, a missing src is an empty set
 * (dest unchanged, not created) and a missing dest starts empty (it
 * becomes a copy of src). The filters must be of one kind and shape:
 * reserved with the same KIND, fpr, capacity and SEED (a key's own seed
 * comes from its name, so two keys reserved without SEED never match), or
 * loaded from files built alike. Replies OK, or an error naming the
 * status: FK_EINVAL (kinds or shapes differ), FK_EUNSUPPORTED (the kind
 * cannot merge: counting, cuckoo, the growing chains, static kinds), FK_EFULL (a
 * quotient filter without room for the union; dest unchanged). */
int fkr_fk_merge(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    RedisModuleKey *skey, *dkey;
    fkr_key_state sst, dst_state;
    fkr_value *src = fk_value(ctx, argv[2], RM_READ, &skey, &sst);
    fkr_value *dst = fk_value(ctx, argv[1], RM_READ | RM_WRITE, &dkey, &dst_state);
    int reply;
    fkr_value *self = NULL; /* FK.MERGE k k: a copy of k to merge from */
    char msg[320];
    if (sst == FKR_KEY_WRONGTYPE || dst_state == FKR_KEY_WRONGTYPE) {
        reply = fkr_reply_state(ctx, FKR_KEY_WRONGTYPE);
    } else if (!src) { /* nothing to add */
        reply = rm_ReplyWithSimpleString(ctx, "OK");
    } else if (src == dst && !(fk_ops_caps(fk_filter_ops(dst->filter)) & FK_CAP_MERGE)) {
        /* the answer a merge from any other key of this kind gets, without
         * copying a filter that cannot merge */
        snprintf(msg, sizeof msg, "ERR FK_EUNSUPPORTED: a %s filter cannot merge",
                 fk_filter_ops(dst->filter)->name);
        reply = fkr_reply_error(ctx, msg);
    } else if (src == dst && !(self = value_copy(src))) {
        reply = fkr_reply_status(ctx, FK_ENOMEM);
    } else if (!dst) {
        fkr_value *copy = value_copy(src);
        if (copy) {
            fkr_set(dkey, copy);
            rm_ReplicateVerbatim(ctx);
            reply = rm_ReplyWithSimpleString(ctx, "OK");
        } else {
            reply = fkr_reply_status(ctx, FK_ENOMEM);
        }
    } else {
        /* k with itself merges from its copy (the library takes no filter
         * as both): Bloom bits unchanged, quotient counts doubled */
        if (self)
            src = self;
        const fk_ops *ops = fk_filter_ops(dst->filter);
        fk_status rc = fk_filter_merge(dst->filter, src->filter);
        if (rc == FK_OK) {
            fkr_value_added(dst, src->items);
            fkr_value_refresh(dst);
            rm_ReplicateVerbatim(ctx);
            reply = rm_ReplyWithSimpleString(ctx, "OK");
        } else if (rc == FK_EINVAL) {
            snprintf(msg, sizeof msg,
                     "ERR FK_EINVAL: the filters differ (%s and %s, or their size, fpr or seed): "
                     "only filters reserved with the same kind, fpr, capacity and SEED merge",
                     ops->name, fk_filter_ops(src->filter)->name);
            reply = fkr_reply_error(ctx, msg);
        } else if (rc == FK_EUNSUPPORTED) {
            snprintf(msg, sizeof msg, "ERR FK_EUNSUPPORTED: a %s filter cannot merge", ops->name);
            reply = fkr_reply_error(ctx, msg);
        } else {
            reply = fkr_reply_status(ctx, rc);
        }
    }
    fkr_value_free(self);
    rm_CloseKey(skey);
    rm_CloseKey(dkey);
    return reply;
}

/* FK.GROW key: the key's filter doubled in place without its keys
 * (fk_filter_grow: a quotient filter's slots double and its remainders
 * lose a bit, so its fpr at a given number of keys doubles). Replies OK,
 * or an error naming the status: FK_EUNSUPPORTED (the kind cannot
 * resize: every kind but quotient; the growing chains grow by
 * themselves), FK_ELIMIT (twice its memory would pass the module's
 * MAXBYTES: the key is unchanged, whatever limit it was made or loaded
 * with), FK_EINVAL (it cannot double again: its remainders are at the
 * minimum width). A missing key is an error, as FK.INFO's. */
int fkr_fk_grow(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return rm_WrongArity(ctx);
    RedisModuleKey *key;
    fkr_key_state st;
    fkr_value *v = fk_value(ctx, argv[1], RM_READ | RM_WRITE, &key, &st);
    int reply;
    char msg[200];
    const fk_ops *ops = v ? fk_filter_ops(v->filter) : NULL;
    if (!v) {
        reply = fkr_reply_state(ctx, st);
    } else if (!(fk_ops_caps(ops) & FK_CAP_RESIZES)) {
        snprintf(msg, sizeof msg, "ERR FK_EUNSUPPORTED: a %s filter cannot resize%s", ops->name,
                 (fk_ops_caps(ops) & FK_CAP_GROWS) ? " (it grows by itself as items arrive)" : "");
        reply = fkr_reply_error(ctx, msg);
    } else if (v->memory_bytes > fkr_max_bytes / 2) {
        snprintf(msg, sizeof msg, "ERR FK_ELIMIT: doubling this %llu-byte filter would pass MAXBYTES "
                 "(%llu)", (unsigned long long)v->memory_bytes, (unsigned long long)fkr_max_bytes);
        reply = fkr_reply_error(ctx, msg);
    } else {
        fk_status rc = fk_filter_grow(v->filter);
        if (rc == FK_OK) {
            fk_stats s;
            fk_filter_stats(v->filter, &s); /* O(1) for the kinds that resize */
            v->capacity = s.capacity;
            v->memory_bytes = s.memory_bytes;
            rm_ReplicateVerbatim(ctx);
            reply = rm_ReplyWithSimpleString(ctx, "OK");
        } else if (rc == FK_EINVAL) {
            reply = fkr_reply_error(ctx, "ERR FK_EINVAL: the filter cannot double again (its "
                                           "remainders are at the minimum width)");
        } else {
            reply = fkr_reply_status(ctx, rc);
        }
    }
    rm_CloseKey(key);
    return reply;
}

static const char *family_name(const fkr_value *v)
{
    static const char *const names[FKR_FAMILY_COUNT] = { "fk", "bf", "cf" };
    return names[v->family];
}

/* FK.INFO's head: the fields every key reports (fk_stats as of now,
 * fkr_read_stats), before its kind's rows. */
static const char *const info_head[] = {
    "kind",          "family",      "capacity",         "items",  "memory_bytes", "bits_per_item",
    "load_factor",   "expected_fpr", "serialized_bytes", "growth",
};
#define INFO_HEAD (sizeof info_head / sizeof info_head[0])
#define INFO_NAME_MAX 64

/* rows[i]'s FK.INFO name into buf: its own, with "_<k>" when the name
 * occurs more than once among rows[0..n) (k: which occurrence, from 0: a
 * chain's rows per link) and "_ms" when its unit is "ns". */
static void info_row_name(const fk_describe_row *rows, size_t n, size_t i, int ms, char *buf)
{
    size_t before = 0, all = 0;
    for (size_t j = 0; j < n; j++)
        if (strcmp(rows[j].name, rows[i].name) == 0) {
            all++;
            before += j < i;
        }
    int len = all > 1 ? snprintf(buf, INFO_NAME_MAX, "%s_%zu", rows[i].name, before)
                      : snprintf(buf, INFO_NAME_MAX, "%s", rows[i].name);
    if (ms && len >= 0 && (size_t)len < INFO_NAME_MAX)
        snprintf(buf + len, INFO_NAME_MAX - (size_t)len, "_ms");
}

/* A row's FK.INFO value: u64 as an integer (an "ns" row in ms, rounded
 * up: the key's clock is Unix ns, Redis shows ms), double, boolean,
 * string (NULL: null). */
static fkr_info_value info_row_value(const fk_describe_row *r, int ms)
{
    switch (r->type) {
    case FK_DESCRIBE_U64: {
        uint64_t u = r->value.u64;
        if (ms)
            u = u / FKR_NS_PER_MS + (u % FKR_NS_PER_MS != 0);
        return FKR_INFO_INT(fkr_count_reply(u));
    }
    case FK_DESCRIBE_DOUBLE:
        return FKR_INFO_DOUBLE(r->value.d);
    case FK_DESCRIBE_BOOL:
        return FKR_INFO_BOOL(r->value.b);
    case FK_DESCRIBE_STRING:
        return FKR_INFO_STRING(r->value.s);
    }
    return FKR_INFO_NULL;
}

static int is_head_name(const char *name)
{
    for (size_t i = 0; i < INFO_HEAD; i++)
        if (strcmp(name, info_head[i]) == 0)
            return 1;
    return 0;
}

/* The head's growth: the GROWTH / EXPANSION the key was made with, else
 * the kind's own "growth" row (the factor a chain grows by, the growth an
 * expandable filter's fingerprints were sized for: 1024 by default, where
 * 0.4.0 said 0 and hid the row), else 0 (a kind that does not grow). */
static long long growth_of(const fkr_value *v, const fk_describe_row *rows, size_t n)
{
    if (v->expansion)
        return v->expansion;
    const fk_describe_row *r = fk_describe_find(rows, n, "growth");
    return r && r->type == FK_DESCRIBE_U64 ? fkr_count_reply(r->value.u64) : 0;
}

/* FK.INFO key: the head's field / value pairs (info_head), then one pair
 * per row the key's kind describes itself with (fk_filter_describe, as of
 * now: fkr_read_describe, the key unchanged), in the kind's order: a row
 * named as a head field is not repeated; see info_row_name and
 * info_row_value for the others. */
int fkr_fk_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return rm_WrongArity(ctx);
    RedisModuleKey *key;
    fkr_key_state st;
    fkr_value *v = fk_value(ctx, argv[1], RM_READ, &key, &st);
    rm_CloseKey(key);
    if (!v)
        return fkr_reply_state(ctx, st);
    fk_stats s;
    fkr_read_stats(ctx, v, &s); /* a time window: as of now, unchanged */
    uint64_t saved = 0;
    fk_filter_serialized_size(v->filter, &saved);
    fk_describe_row some[FK_DESCRIBE_MAX_ROWS], *rows = some, *many = NULL;
    size_t n = 0;
    fk_status rc = fkr_read_describe(ctx, v, rows, FK_DESCRIBE_MAX_ROWS, &n);
    if (rc == FK_ELIMIT) { /* a chain of many links: all its rows */
        size_t want = n;
        many = want <= SIZE_MAX / sizeof *many ? malloc(want * sizeof *many) : NULL;
        rc = many ? fkr_read_describe(ctx, v, many, want, &n) : FK_ENOMEM;
        rows = many;
    }
    if (rc != FK_OK)
        n = 0; /* no rows (a kind without the slot): the head alone */
    size_t cap = INFO_HEAD + n;
    const char **names = malloc(cap * sizeof *names);
    fkr_info_value *values = malloc(cap * sizeof *values);
    char (*bufs)[INFO_NAME_MAX] = n ? malloc(n * sizeof *bufs) : NULL;
    if (!names || !values || (n && !bufs)) {
        free(names);
        free(values);
        free(bufs);
        free(many);
        return fkr_reply_status(ctx, FK_ENOMEM);
    }
    fkr_info_value head[INFO_HEAD] = {
        FKR_INFO_STRING(fk_filter_ops(v->filter)->name),
        FKR_INFO_STRING(family_name(v)),
        FKR_INFO_INT(fkr_count_reply(s.capacity)),
        FKR_INFO_INT(fkr_count_reply(s.items)),
        FKR_INFO_INT(fkr_count_reply(s.memory_bytes)),
        FKR_INFO_DOUBLE(s.bits_per_item),
        FKR_INFO_DOUBLE(s.load_factor),
        FKR_INFO_DOUBLE(s.expected_fpr),
        FKR_INFO_INT(fkr_count_reply(saved)),
        FKR_INFO_INT(growth_of(v, rows, n)),
    };
    size_t count = 0;
    for (; count < INFO_HEAD; count++) {
        names[count] = info_head[count];
        values[count] = head[count];
    }
    for (size_t i = 0; i < n; i++) {
        if (is_head_name(rows[i].name))
            continue;
        int ms = rows[i].type == FK_DESCRIBE_U64 && rows[i].unit && strcmp(rows[i].unit, "ns") == 0;
        info_row_name(rows, n, i, ms, bufs[i]);
        names[count] = bufs[i];
        values[count++] = info_row_value(&rows[i], ms);
    }
    int reply = fkr_reply_info(ctx, names, NULL, values, (int)count, NULL);
    free(names);
    free(values);
    free(bufs);
    free(many);
    return reply;
}

/* FK.DUMP key: the filter in filterkit's file format; nil when missing. */
int fkr_fk_dump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return rm_WrongArity(ctx);
    RedisModuleKey *key;
    fkr_key_state st;
    fkr_value *v = fk_value(ctx, argv[1], RM_READ, &key, &st);
    rm_CloseKey(key);
    if (!v)
        return st == FKR_KEY_EMPTY ? rm_ReplyWithNull(ctx) : fkr_reply_state(ctx, st);
    uint64_t n;
    fk_status s = fk_filter_serialized_size(v->filter, &n);
    if (s != FK_OK)
        return fkr_reply_status(ctx, s);
    char *buf = n <= SIZE_MAX ? malloc((size_t)n) : NULL;
    if (!buf)
        return fkr_reply_status(ctx, FK_ENOMEM);
    s = fk_filter_save(v->filter, buf, (size_t)n, NULL);
    if (s == FK_OK)
        rm_ReplyWithStringBuffer(ctx, buf, (size_t)n);
    free(buf);
    return s == FK_OK ? RM_OK : fkr_reply_status(ctx, s);
}

/* FK.LOAD key bytes: a filterkit file (family FK) or a value record as AOF
 * rewrite writes it. Replaces a filterkit key; damage leaves it untouched. */
int fkr_fk_load(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    RedisModuleKey *key;
    fkr_key_state st;
    fk_value(ctx, argv[1], RM_READ | RM_WRITE, &key, &st);
    if (st == FKR_KEY_WRONGTYPE) {
        rm_CloseKey(key);
        return fkr_reply_state(ctx, st);
    }
    size_t len;
    const char *bytes = rm_StringPtrLen(argv[2], &len);
    fkr_value *v;
    fk_status s = fkr_value_decode(bytes, len, fkr_max_bytes, &v);
    if (s != FK_OK) {
        rm_CloseKey(key);
        return s == FK_EINVAL ? fkr_reply_error(ctx, fkr_limit_error()) : fkr_reply_status(ctx, s);
    }
    const char *foreign = fkr_clock_refusal(v); /* a time window not on Unix ns */
    if (foreign) {
        fkr_value_free(v);
        rm_CloseKey(key);
        return fkr_reply_error(ctx, foreign);
    }
    fkr_apply_limit(v); /* AOF rewrite's FK.LOAD too: growth stops at MAXBYTES */
    fkr_set(key, v);
    rm_CloseKey(key);
    rm_ReplicateVerbatim(ctx);
    return rm_ReplyWithSimpleString(ctx, "OK");
}

/* FK.KINDS: the registered kind names. */
int fkr_fk_kinds(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    (void)argv;
    if (argc != 1)
        return rm_WrongArity(ctx);
    long n = 0;
    while (fk_ops_at((size_t)n))
        n++;
    rm_ReplyWithArray(ctx, n);
    for (long i = 0; i < n; i++)
        rm_ReplyWithSimpleString(ctx, fk_ops_at((size_t)i)->name);
    return RM_OK;
}
