/* redis/cmd_cf.c: the RedisBloom cuckoo filter commands (CF.*), same
 * arguments and replies as RedisBloom, over a filterkit "cuckoo" filter
 * (or "scalable-cuckoo" when that kind is registered and EXPANSION > 0).
 * filterkit's cuckoo buckets always hold 4 fingerprints: BUCKETSIZE is
 * checked as RedisBloom checks it and then refused unless 4.
 * MAXITERATIONS is each insert's kick limit (fkr_apply_kicks; at most
 * FK_CUCKOO_MAX_KICKS walk). CF.INFO reports both, and a chain's buckets
 * summed over its links. */
#include "commands.h"

#include <stdio.h>
#include "../scalable/scalable_internal.h" /* RedisBloom replies: a chain's links (static library) */
#include "../cuckoo/cuckoo.h"
#include "../cuckoo/cuckoo_internal.h" /* fk_size_cuckoo_table (static library) */

#define CF_FULL "ERR Filter is full"

typedef struct {
    long long capacity, bucket_size, max_iterations, expansion;
} cf_opts;

/* What a filter made without options gets: the module's configs
 * (cf-initial-size, cf-bucket-size, cf-max-iterations,
 * cf-expansion-factor). */
static cf_opts cf_defaults(void)
{
    cf_opts o = { fkr_cfg.cf_initial_size, fkr_cfg.cf_bucket_size, fkr_cfg.cf_max_iterations,
                  fkr_cfg.cf_expansion };
    return o;
}

/* cf-max-expansions: a scaling chain holding 1 + cf-max-expansions links
 * grows no more (its byte limit is held at what it holds, so a growth
 * answers FK_ELIMIT, replied "Filter is full"). Returns 1 when v is so
 * bounded. Applied before each command's inserts and after each growth. */
static int cf_bound(fkr_value *v)
{
    size_t links = fk_scalable_links(v->filter);
    if (!links)
        return 0;
    int full = links >= (uint64_t)fkr_cfg.cf_max_expansions + 1;
    uint64_t cap = full ? fk_scalable_memory_bytes(v->filter) : fkr_max_bytes;
    if (cap > fkr_max_bytes)
        cap = fkr_max_bytes;
    (void)fk_filter_set_max_bytes(v->filter, cap);
    return full;
}

static const char *cf_create(RedisModuleKey *key, RedisModuleString *name, const cf_opts *o,
                             fkr_value **out)
{
    const fk_ops *grows = o->expansion > 0 ? fk_ops_find("scalable-cuckoo") : NULL;
    if (grows && !(fk_ops_caps(grows) & FK_CAP_SERIALIZE))
        grows = NULL; /* a value Redis cannot persist is no value */
    const fk_ops *ops = grows ? grows : fk_ops_find("cuckoo");
    if (!ops)
        return "ERR no cuckoo kind is registered";
    fk_params p = fk_params_make((uint64_t)o->capacity, FKR_CF_ERROR);
    p.seed = fkr_key_seed(name);
    if (grows)
        p.growth = (uint32_t)o->expansion;
    fkr_value *v;
    const char *err = fkr_new_value(ops, &p, FKR_FAMILY_CF, (uint64_t)o->capacity, &v);
    if (err)
        return err;
    v->expansion = (uint32_t)o->expansion;
    v->bucket_size = (uint32_t)o->bucket_size;
    v->max_iterations = (uint32_t)o->max_iterations;
    v->flags = grows ? 0 : FKR_FLAG_NONSCALING;
    fkr_apply_kicks(v);
    fkr_set(key, v);
    *out = v;
    return NULL;
}

/* CF.RESERVE key capacity [BUCKETSIZE b] [MAXITERATIONS m] [EXPANSION e] */
int fkr_cf_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc < 3 || argc % 2 == 0)
        return rm_WrongArity(ctx);
    cf_opts o = cf_defaults();
    if (rm_StringToLongLong(argv[2], &o.capacity) != RM_OK)
        return fkr_reply_error(ctx, "ERR Bad capacity");
    unsigned seen = 0; /* a repeated option is an error */
    static const char *const words[] = { "BUCKETSIZE", "MAXITERATIONS", "EXPANSION" };
    for (int i = 3; i < argc; i += 2) {
        for (unsigned w = 0; w < 3; w++) {
            if (!fkr_arg_is(argv[i], words[w]))
                continue;
            if (seen & (1u << w))
                return fkr_reply_error(ctx, "ERR an option is given twice");
            seen |= 1u << w;
        }
        if (fkr_arg_is(argv[i], "BUCKETSIZE")) {
            if (rm_StringToLongLong(argv[i + 1], &o.bucket_size) != RM_OK)
                return fkr_reply_error(ctx, "ERR Couldn't parse BUCKETSIZE");
            if (o.bucket_size <= 0 || o.bucket_size > 255)
                return fkr_reply_error(ctx, "ERR BUCKETSIZE parameter needs to be a positive integer (at most 255)");
            if (o.bucket_size != FK_CUCKOO_SLOTS)
                return fkr_reply_error(ctx, fkr_bucket_size_error(o.bucket_size));
        } else if (fkr_arg_is(argv[i], "MAXITERATIONS")) {
            if (rm_StringToLongLong(argv[i + 1], &o.max_iterations) != RM_OK)
                return fkr_reply_error(ctx, "ERR Couldn't parse MAXITERATIONS");
            if (o.max_iterations <= 0 || o.max_iterations > 65535)
                return fkr_reply_error(ctx, "ERR MAXITERATIONS parameter needs to be a positive integer (at most 65535)");
        } else if (fkr_arg_is(argv[i], "EXPANSION")) {
            if (rm_StringToLongLong(argv[i + 1], &o.expansion) != RM_OK)
                return fkr_reply_error(ctx, "ERR Couldn't parse EXPANSION");
            if (o.expansion < 0 || o.expansion > 32768)
                return fkr_reply_error(ctx, "ERR EXPANSION parameter needs to be a non-negative integer (at most 32768)");
        } else {
            return fkr_reply_error(ctx, "ERR unknown argument");
        }
    }
    /* RedisBloom's least capacity at its default bucket size */
    if (o.capacity < FKR_CF_BUCKETSIZE * 2)
        return fkr_reply_error(ctx, "ERR Capacity must be at least (BucketSize * 2)");

    RedisModuleKey *key;
    if (!fkr_open_new(ctx, argv[1], &key))
        return RM_OK;
    fkr_value *v;
    return fkr_reply_created(ctx, key, cf_create(key, argv[1], &o, &v));
}

/* One item's answer: a yes/no (fkr_reply_bool), or an integer where
 * RedisBloom keeps one in RESP3 too (ints: CF.INSERTNX, whose array may
 * also hold -1). */
static int reply_added(RedisModuleCtx *ctx, int added, int ints)
{
    return ints ? rm_ReplyWithLongLong(ctx, added) : fkr_reply_bool(ctx, added);
}

/* Adds items (nx: only those not already present). Single: yes / no or
 * the "Filter is full" error; multi: an array of yes / no / -1 (full),
 * CF.INSERTNX's of integers 1 / 0 / -1. */
static int cf_insert(RedisModuleCtx *ctx, RedisModuleString *name, RedisModuleString **items,
                     int nitems, long long capacity, int nocreate, int nx, int multi)
{
    RedisModuleKey *key;
    fkr_value *v;
    fkr_key_state st = fkr_open_family(ctx, name, RM_READ | RM_WRITE, FKR_FAMILY_CF, &key, &v);
    if (st == FKR_KEY_EMPTY && !nocreate) {
        cf_opts o = cf_defaults();
        o.capacity = capacity;
        const char *err = cf_create(key, name, &o, &v);
        if (err) {
            rm_CloseKey(key);
            return fkr_reply_error(ctx, err);
        }
    } else if (st != FKR_KEY_FOUND) {
        rm_CloseKey(key);
        return fkr_reply_state(ctx, st);
    }
    if (multi)
        rm_ReplyWithArray(ctx, nitems);
    int ints = multi && nx;
    int bounded = cf_bound(v);
    for (int i = 0; i < nitems; i++) {
        size_t len;
        const char *s = rm_StringPtrLen(items[i], &len);
        if (nx && fk_filter_contains(v->filter, s, len)) {
            reply_added(ctx, 0, ints);
            continue;
        }
        fk_status rc = fk_filter_insert(v->filter, s, len);
        fkr_value_changed(v, rc == FK_OK);
        if (fk_scalable_links(v->filter) != v->links) { /* a new link: give it the limits */
            fkr_value_refresh(v);
            fkr_apply_kicks(v);
            bounded = cf_bound(v);
        }
        if (rc == FK_ELIMIT && bounded)
            rc = FK_EFULL; /* cf-max-expansions reached */
        if (rc == FK_OK)
            reply_added(ctx, 1, ints);
        else if (rc == FK_EFULL && multi)
            rm_ReplyWithLongLong(ctx, -1);
        else if (rc == FK_EFULL)
            fkr_reply_error(ctx, CF_FULL);
        else
            fkr_reply_status(ctx, rc);
    }
    return fkr_wrote(ctx, key, v);
}

/* CF.ADD key item / CF.ADDNX key item */
int fkr_cf_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    return cf_insert(ctx, argv[1], argv + 2, 1, fkr_cfg.cf_initial_size, 0, 0, 0);
}

int fkr_cf_addnx(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    return cf_insert(ctx, argv[1], argv + 2, 1, fkr_cfg.cf_initial_size, 0, 1, 0);
}

/* CF.INSERT / CF.INSERTNX key [CAPACITY c] [NOCREATE] ITEMS item [item ...] */
static int cf_insert_cmd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int nx)
{
    if (argc < 4)
        return rm_WrongArity(ctx);
    long long capacity = fkr_cfg.cf_initial_size;
    int nocreate = 0, items = -1;
    for (int i = 2; i < argc && items < 0; i++) {
        if (fkr_arg_is(argv[i], "ITEMS")) {
            items = i + 1;
        } else if (fkr_arg_is(argv[i], "NOCREATE")) {
            nocreate = 1;
        } else if (fkr_arg_is(argv[i], "CAPACITY")) {
            if (++i == argc)
                return rm_WrongArity(ctx);
            if (rm_StringToLongLong(argv[i], &capacity) != RM_OK)
                return fkr_reply_error(ctx, "ERR Bad capacity");
            if (capacity < 2 * FKR_CF_BUCKETSIZE)
                return fkr_reply_error(ctx, "ERR Capacity must be at least (BucketSize * 2)");
        } else {
            return fkr_reply_error(ctx, "ERR Unknown argument received");
        }
    }
    if (items < 0 || items == argc)
        return rm_WrongArity(ctx);
    return cf_insert(ctx, argv[1], argv + items, argc - items, capacity, nocreate, nx, 1);
}

int fkr_cf_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return cf_insert_cmd(ctx, argv, argc, 0);
}

int fkr_cf_insertnx(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return cf_insert_cmd(ctx, argv, argc, 1);
}

/* CF.EXISTS / CF.MEXISTS / CF.COUNT: a missing key holds nothing (0). */
static int cf_check(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, int multi, int count)
{
    RedisModuleKey *key;
    fkr_value *v;
    fkr_key_state st = fkr_open_family(ctx, argv[1], RM_READ, FKR_FAMILY_CF, &key, &v);
    return fkr_reply_lookups(ctx, key, st, v, argv, argc, multi, count);
}

FKR_LOOKUP_COMMANDS(cf, cf_check)

/* CF.DEL key item: 1 deleted, 0 not there; "Not found" for a missing key. */
int fkr_cf_del(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    RedisModuleKey *key;
    fkr_value *v;
    fkr_key_state st = fkr_open_family(ctx, argv[1], RM_READ | RM_WRITE, FKR_FAMILY_CF, &key, &v);
    if (st != FKR_KEY_FOUND) {
        rm_CloseKey(key);
        return fkr_reply_error(ctx, st == FKR_KEY_EMPTY ? "ERR Not found" : RM_ERRORMSG_WRONGTYPE);
    }
    size_t len;
    const char *s = rm_StringPtrLen(argv[2], &len);
    fk_status rc = fk_filter_remove(v->filter, s, len);
    if (rc == FK_OK) {
        v->deleted++;
        fkr_value_changed(v, -1);
    }
    rm_CloseKey(key);
    rm_ReplicateVerbatim(ctx);
    if (rc == FK_OK || rc == FK_ENOTFOUND)
        return fkr_reply_bool(ctx, rc == FK_OK);
    return fkr_reply_status(ctx, rc);
}

/* The buckets of every cuckoo table of v's filter: a plain cuckoo's own;
 * a chain's, link by link, each link's table sized for its capacity at
 * the default load (as fk_scalable_new made it). */
static long long cf_buckets(const fkr_value *v)
{
    if (fk_filter_ops(v->filter) == &fk_cuckoo_ops) {
        fk_cuckoo_description d;
        fk_cuckoo_describe((const fk_cuckoo *)(const void *)v->filter, &d);
        return (long long)d.buckets;
    }
    long long total = 0;
    size_t links = fk_scalable_links(v->filter);
    for (size_t i = 0; i < links; i++) {
        fk_stats ls;
        uint64_t b = 0;
        if (fk_scalable_link_stats(v->filter, i, &ls, NULL) == FK_OK &&
            fk_size_cuckoo_table(ls.capacity, 0, &b) == FK_OK)
            total += (long long)b;
    }
    return total;
}

/* CF.INFO key: RedisBloom's eight fields in its order: its buckets
 * (summed over a chain's links), 4 slots per bucket, the expansion and
 * the kick limit (MAXITERATIONS) it was made with (docs/redis.md).
 * "Max iterations" is RedisBloom's name, which clients read (redis-py's
 * CFInfo). */
int fkr_cf_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return rm_WrongArity(ctx);
    fkr_value *v;
    fkr_key_state st = fkr_peek_family(ctx, argv[1], FKR_FAMILY_CF, &v);
    if (st != FKR_KEY_FOUND)
        return fkr_reply_state(ctx, st);
    static const char *const names[] = { "Size", "Number of buckets", "Number of filters",
                                         "Number of items inserted", "Number of items deleted",
                                         "Bucket size", "Expansion rate", "Max iterations" };
    size_t links = fk_scalable_links(v->filter);
    long long filters = links ? (long long)links : 1;
    fkr_info_value values[] = {
        FKR_INFO_INT(fkr_count_reply(fkr_value_memory(v))), FKR_INFO_INT(cf_buckets(v)),
        FKR_INFO_INT(filters), FKR_INFO_INT(fkr_count_reply(v->items)),
        FKR_INFO_INT(fkr_count_reply(v->deleted)), FKR_INFO_INT(FK_CUCKOO_SLOTS),
        FKR_INFO_INT(v->expansion), FKR_INFO_INT(v->max_iterations),
    };
    return fkr_reply_info(ctx, names, NULL, values, 8, NULL);
}

/* CF.DEBUG key: one line, as RedisBloom's: bucket size, buckets (summed
 * over a chain's links), items, deletes, sub-filters, kick limit,
 * expansion. */
int fkr_cf_debug(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return rm_WrongArity(ctx);
    fkr_value *v;
    fkr_key_state st = fkr_peek_family(ctx, argv[1], FKR_FAMILY_CF, &v);
    if (st != FKR_KEY_FOUND)
        return fkr_reply_state(ctx, st);
    size_t links = fk_scalable_links(v->filter);
    char line[240];
    snprintf(line, sizeof line,
             "bktsize:%u buckets:%lld items:%llu deletes:%llu filters:%llu max_iterations:%u "
             "expansion:%u", FK_CUCKOO_SLOTS, cf_buckets(v), (unsigned long long)v->items,
             (unsigned long long)v->deleted, (unsigned long long)(links ? links : 1),
             v->max_iterations, v->expansion);
    return rm_ReplyWithSimpleString(ctx, line);
}

/* CF.COMPACT key: RedisBloom moves fingerprints from newer filters of a
 * chain into older ones. filterkit's links cannot take each other's
 * fingerprints (each link has its own fingerprint width and seed), so there
 * is nothing to move: the key is checked and left as it is, and OK is the
 * answer, so a maintenance script written for RedisBloom runs unchanged. */
int fkr_cf_compact(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (argc != 2)
        return rm_WrongArity(ctx);
    fkr_value *v;
    fkr_key_state st = fkr_peek_family(ctx, argv[1], FKR_FAMILY_CF, &v);
    if (st != FKR_KEY_FOUND)
        return fkr_reply_state(ctx, st);
    return rm_ReplyWithSimpleString(ctx, "OK");
}
