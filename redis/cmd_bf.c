/* redis/cmd_bf.c: the RedisBloom Bloom filter commands (BF.*), same
 * arguments and replies as RedisBloom, over a filterkit "scalable-bloom"
 * filter when that kind is registered (else a "bloom" filter that refuses
 * items past its capacity, as RedisBloom's NONSCALING filters do). */
#include "commands.h"

#include <stdio.h>
#include <string.h>

#include "../scalable/scalable.h"
#include "../scalable/scalable_internal.h" /* BF.DEBUG: each link */
#include "../bloom/bloom_internal.h"       /* BF.DEBUG: a table's bits and hashes */

#define BF_FULL "ERR non scaling filter is full"
#define BF_MAX_EXPANSION ((long long)FK_SCALABLE_MAX_GROWTH)

typedef struct {
    double    error_rate;
    long long capacity;
    long long expansion;
    int       nonscaling;
} bf_opts;

/* What a filter made without options gets: the module's configs
 * (bf-error-rate, bf-initial-size, bf-expansion-factor; 0 is NONSCALING). */
static bf_opts bf_defaults(void)
{
    bf_opts o = { fkr_cfg.bf_error_rate, fkr_cfg.bf_initial_size, fkr_cfg.bf_expansion, 0 };
    if (o.expansion == 0) {
        o.expansion = FKR_BF_EXPANSION;
        o.nonscaling = 1;
    }
    return o;
}

/* Creates an empty Bloom value for key (open for writing) and stores it.
 * Returns NULL, or the error text to reply. */
static const char *bf_create(RedisModuleKey *key, RedisModuleString *name, const bf_opts *o,
                             fkr_value **out)
{
    const fk_ops *grows = o->nonscaling ? NULL : fk_ops_find("scalable-bloom");
    if (grows && !(fk_ops_caps(grows) & FK_CAP_SERIALIZE))
        grows = NULL; /* a value Redis cannot persist is no value */
    const fk_ops *ops = grows ? grows : fk_ops_find("bloom");
    if (!ops)
        return "ERR no bloom kind is registered";
    fk_params p = fk_params_make((uint64_t)o->capacity, o->error_rate);
    p.seed = fkr_key_seed(name);
    if (grows)
        p.growth = (uint32_t)o->expansion;
    fkr_value *v;
    const char *err = fkr_new_value(ops, &p, FKR_FAMILY_BF, (uint64_t)o->capacity, &v);
    if (err)
        return err;
    v->expansion = o->nonscaling ? 0 : (uint32_t)o->expansion;
    v->flags = o->nonscaling ? FKR_FLAG_NONSCALING : 0;
    fkr_set(key, v);
    *out = v;
    return NULL;
}

/* BF.RESERVE key error_rate capacity [EXPANSION n] [NONSCALING] */
int fkr_bf_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 4 || argc > 7)
        return rm_WrongArity(ctx);
    bf_opts o = bf_defaults();
    if (rm_StringToDouble(argv[2], &o.error_rate) != RM_OK)
        return fkr_reply_error(ctx, "ERR bad error rate");
    if (!(o.error_rate > 0.0 && o.error_rate < 1.0))
        return fkr_reply_error(ctx, "ERR (0 < error rate range < 1) ");
    if (rm_StringToLongLong(argv[3], &o.capacity) != RM_OK)
        return fkr_reply_error(ctx, "ERR bad capacity");
    if (o.capacity <= 0)
        return fkr_reply_error(ctx, "ERR (capacity should be larger than 0)");
    int expansion_given = 0, nonscaling_given = 0;
    for (int i = 4; i < argc; i++) {
        if (fkr_arg_is(argv[i], "NONSCALING")) {
            if (nonscaling_given)
                return fkr_reply_error(ctx, "ERR NONSCALING given twice");
            o.nonscaling = nonscaling_given = 1;
        } else if (fkr_arg_is(argv[i], "EXPANSION")) {
            if (expansion_given)
                return fkr_reply_error(ctx, "ERR EXPANSION given twice");
            if (++i == argc)
                return fkr_reply_error(ctx, "ERR no expansion");
            if (rm_StringToLongLong(argv[i], &o.expansion) != RM_OK)
                return fkr_reply_error(ctx, "ERR bad expansion");
            if (o.expansion < 1 || o.expansion > BF_MAX_EXPANSION)
                return fkr_reply_error(ctx, "ERR expansion should be between 1 and 65536");
            expansion_given = 1;
            o.nonscaling = nonscaling_given;
        } else {
            return fkr_reply_error(ctx, "ERR unknown argument");
        }
    }
    if (nonscaling_given && expansion_given)
        return fkr_reply_error(ctx, "ERR Nonscaling filters cannot expand");

    RedisModuleKey *key;
    if (!fkr_open_new(ctx, argv[1], &key))
        return RM_OK;
    fkr_value *v;
    return fkr_reply_created(ctx, key, bf_create(key, argv[1], &o, &v));
}

/* Adds items to the filter at name, creating it with o unless nocreate.
 * multi: reply an array (stopping at the first "full" error, whose error
 * is the array's last element, as RedisBloom does). */
static int bf_insert(RedisModuleCtx *ctx, RedisModuleString *name, RedisModuleString **items,
                     int nitems, const bf_opts *o, int nocreate, int multi)
{
    RedisModuleKey *key;
    fkr_value *v;
    fkr_key_state st = fkr_open_family(ctx, name, RM_READ | RM_WRITE, FKR_FAMILY_BF, &key, &v);
    if (st == FKR_KEY_EMPTY && !nocreate) {
        const char *err = bf_create(key, name, o, &v);
        if (err) {
            rm_CloseKey(key);
            return fkr_reply_error(ctx, err);
        }
    } else if (st != FKR_KEY_FOUND) {
        rm_CloseKey(key);
        return fkr_reply_state(ctx, st);
    }
    if (multi)
        rm_ReplyWithArray(ctx, RM_POSTPONED_ARRAY_LEN);
    /* A batch of items is looked up at once; then each is taken in order as
     * the filter stands at its turn: after the batch's first insert a
     * "no" is asked again (an insert only turns answers to "maybe", and an
     * item repeated in the command must answer 0 the second time). */
    long done = 0;
    fkr_batch b;
    bool stop = false;
    for (int at = 0; at < nitems && !stop; at += b.n) {
        fkr_batch_take(&b, items, at, nitems);
        fkr_batch_lookup(&b, v->filter);
        bool changed = false;
        for (int j = 0; j < b.n; j++) {
            done++;
            if (b.maybe[j] || (changed && fk_filter_contains(v->filter, b.keys[j], b.lens[j]))) {
                fkr_reply_bool(ctx, 0);
                continue;
            }
            fk_status rc = fkr_at_capacity(v) ? FK_EFULL
                                              : fk_filter_insert(v->filter, b.keys[j], b.lens[j]);
            if (rc == FK_OK) {
                fkr_reply_bool(ctx, 1);
                fkr_value_changed(v, 1);
                changed = true;
                continue;
            }
            if (rc == FK_EFULL)
                fkr_reply_error(ctx, BF_FULL);
            else
                fkr_reply_status(ctx, rc);
            stop = true;
            break;
        }
    }
    if (multi)
        rm_ReplySetArrayLength(ctx, done);
    return fkr_wrote(ctx, key, v);
}

/* BF.ADD key item */
int fkr_bf_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    bf_opts o = bf_defaults();
    return bf_insert(ctx, argv[1], argv + 2, 1, &o, 0, 0);
}

/* BF.MADD key item [item ...] */
int fkr_bf_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 3)
        return rm_WrongArity(ctx);
    bf_opts o = bf_defaults();
    return bf_insert(ctx, argv[1], argv + 2, argc - 2, &o, 0, 1);
}

/* BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION n] [NOCREATE] [NONSCALING]
 *           ITEMS item [item ...] */
int fkr_bf_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 4)
        return rm_WrongArity(ctx);
    bf_opts o = bf_defaults();
    int nocreate = 0, items = -1;
    unsigned seen = 0; /* options given, one bit each: a repeat is an error */
    static const char *const words[] = { "NOCREATE", "NONSCALING", "CAPACITY", "ERROR", "EXPANSION" };
    for (int i = 2; i < argc && items < 0; i++) {
        for (unsigned w = 0; w < 5; w++) {
            if (!fkr_arg_is(argv[i], words[w]))
                continue;
            if (seen & (1u << w))
                return fkr_reply_error(ctx, "ERR an option is given twice");
            seen |= 1u << w;
        }
        if (fkr_arg_is(argv[i], "ITEMS")) {
            items = i + 1;
        } else if (fkr_arg_is(argv[i], "NOCREATE")) {
            nocreate = 1;
        } else if (fkr_arg_is(argv[i], "NONSCALING")) {
            o.nonscaling = 1;
        } else if (fkr_arg_is(argv[i], "CAPACITY") || fkr_arg_is(argv[i], "ERROR") ||
                   fkr_arg_is(argv[i], "EXPANSION")) {
            if (i + 1 == argc)
                return rm_WrongArity(ctx);
            RedisModuleString *word = argv[i++];
            if (fkr_arg_is(word, "ERROR")) {
                if (rm_StringToDouble(argv[i], &o.error_rate) != RM_OK)
                    return fkr_reply_error(ctx, "ERR Bad error rate");
            } else if (fkr_arg_is(word, "CAPACITY")) {
                if (rm_StringToLongLong(argv[i], &o.capacity) != RM_OK)
                    return fkr_reply_error(ctx, "ERR Bad capacity");
            } else if (rm_StringToLongLong(argv[i], &o.expansion) != RM_OK) {
                return fkr_reply_error(ctx, "ERR Bad expansion");
            }
        } else {
            return fkr_reply_error(ctx, "ERR Unknown argument received");
        }
    }
    if (items < 0 || items == argc)
        return rm_WrongArity(ctx);
    if ((seen & (1u << 1)) && (seen & (1u << 4)))
        return fkr_reply_error(ctx, "ERR Nonscaling filters cannot expand");
    if (seen & (1u << 4))
        o.nonscaling = 0; /* an explicit EXPANSION scales, whatever bf-expansion-factor says */
    if (!(o.error_rate > 0.0 && o.error_rate < 1.0) || o.capacity < 1 || o.expansion < 1 ||
        o.expansion > BF_MAX_EXPANSION)
        return fkr_reply_error(ctx, "ERR Bad argument received");
    return bf_insert(ctx, argv[1], argv + items, argc - items, &o, nocreate, 1);
}

/* BF.EXISTS key item / BF.MEXISTS key item [item ...]: a missing key holds
 * nothing (0). */
static int bf_check(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int multi)
{
    RedisModuleKey *key;
    fkr_value *v;
    fkr_key_state st = fkr_open_family(ctx, argv[1], RM_READ, FKR_FAMILY_BF, &key, &v);
    return fkr_reply_lookups(ctx, key, st, v, argv, argc, multi, 0);
}

int fkr_bf_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    return bf_check(ctx, argv, argc, 0);
}

int fkr_bf_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 3)
        return rm_WrongArity(ctx);
    return bf_check(ctx, argv, argc, 1);
}

/* Sub-filters a growing filter of total capacity `total` holds, given its
 * first capacity and growth (the chain c, c*g, c*g^2, ...). */
static long long bf_filters(const fkr_value *v, uint64_t total)
{
    size_t links = fk_scalable_links(v->filter);
    if (links)
        return (long long)links; /* the chain says */
    if (!(fk_ops_caps(fk_filter_ops(v->filter)) & FK_CAP_GROWS) || v->capacity == 0)
        return 1;
    double cur = (double)v->capacity, sum = cur;
    long long n = 1;
    while (sum < (double)total && n < 64) {
        cur *= v->expansion > 1 ? v->expansion : 1;
        sum += cur;
        n++;
    }
    return n;
}

/* BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION] */
int fkr_bf_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2 && argc != 3)
        return rm_WrongArity(ctx);
    fkr_value *v;
    fkr_key_state st = fkr_peek_family(ctx, argv[1], FKR_FAMILY_BF, &v);
    if (st != FKR_KEY_FOUND)
        return fkr_reply_state(ctx, st);
    /* only a growing kind's capacity changes (its stats may cost a scan) */
    fk_stats s = { .capacity = v->capacity };
    if (fk_ops_caps(fk_filter_ops(v->filter)) & FK_CAP_GROWS)
        fk_filter_stats(v->filter, &s);
    uint64_t capacity = s.capacity > v->capacity ? s.capacity : v->capacity;
    static const char *const names[] = { "Capacity", "Size", "Number of filters",
                                         "Number of items inserted", "Expansion rate" };
    static const char *const fields[] = { "CAPACITY", "SIZE", "FILTERS", "ITEMS", "EXPANSION" };
    int nonscaling = (v->flags & FKR_FLAG_NONSCALING) != 0;
    fkr_info_value values[] = {
        FKR_INFO_INT(fkr_count_reply(capacity)), FKR_INFO_INT(fkr_count_reply(fkr_value_memory(v))),
        FKR_INFO_INT(bf_filters(v, s.capacity)), FKR_INFO_INT(fkr_count_reply(v->items)),
        nonscaling ? FKR_INFO_NULL : FKR_INFO_INT(v->expansion),
    };
    return fkr_reply_info(ctx, names, fields, values, 5, argc == 3 ? argv[2] : NULL);
}

/* BF.CARD key: items added (0 for a missing key). */
int fkr_bf_card(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return rm_WrongArity(ctx);
    fkr_value *v;
    fkr_key_state st = fkr_peek_family(ctx, argv[1], FKR_FAMILY_BF, &v);
    if (st == FKR_KEY_WRONGTYPE)
        return fkr_reply_state(ctx, st);
    return rm_ReplyWithLongLong(ctx, v ? fkr_count_reply(v->items) : 0);
}

/* One BF.DEBUG line for a Bloom table, as RedisBloom words it. */
static void bf_debug_line(RedisModuleCtx *ctx, const fk_filter *f, uint64_t items)
{
    char line[200];
    if (fk_filter_ops(f) == &fk_bloom_ops) {
        const fk_bloom *b = (const fk_bloom *)(const void *)f;
        snprintf(line, sizeof line,
                 "bytes:%llu bits:%llu hashes:%u hashwidth:64 capacity:%llu size:%llu ratio:%g",
                 (unsigned long long)(b->words * 8), (unsigned long long)b->m, b->k,
                 (unsigned long long)b->capacity, (unsigned long long)items, b->fpr);
    } else { /* a kind BF never makes: its stats */
        fk_stats s;
        fk_filter_stats(f, &s);
        snprintf(line, sizeof line, "bytes:%llu capacity:%llu size:%llu",
                 (unsigned long long)s.memory_bytes, (unsigned long long)s.capacity,
                 (unsigned long long)items);
    }
    rm_ReplyWithSimpleString(ctx, line);
}

/* BF.DEBUG key: "size:<items>", then one line per sub-filter, oldest
 * first (bytes, bits, hashes, capacity, items, error rate). */
int fkr_bf_debug(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return rm_WrongArity(ctx);
    fkr_value *v;
    fkr_key_state st = fkr_peek_family(ctx, argv[1], FKR_FAMILY_BF, &v);
    if (st != FKR_KEY_FOUND)
        return fkr_reply_state(ctx, st);
    size_t links = fk_scalable_links(v->filter);
    rm_ReplyWithArray(ctx, 1 + (long)(links ? links : 1));
    char head[40];
    snprintf(head, sizeof head, "size:%llu", (unsigned long long)v->items);
    rm_ReplyWithSimpleString(ctx, head);
    if (!links) {
        bf_debug_line(ctx, v->filter, v->items);
        return RM_OK;
    }
    const fk_scalable *chain = (const fk_scalable *)(const void *)v->filter;
    for (size_t i = 0; i < links; i++)
        bf_debug_line(ctx, chain->link[i].filter, chain->link[i].items);
    return RM_OK;
}
