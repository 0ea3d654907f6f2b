/* redis/util.c: key lookup, arguments, replies and filter creation shared
 * by the command files (see fkr.h). */
#include "fkr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../scalable/scalable.h"
#include "../cuckoo/cuckoo.h"
#include "../cuckoo/cuckoo_internal.h" /* fk_cuckoo_set_max_kicks (static library) */
#include "../scalable/scalable_internal.h" /* a chain's links, to give each the kick limit */

RedisModuleType *fkr_type;
uint64_t fkr_max_bytes = FKR_DEFAULT_MAX_BYTES;

/* ------------------------------------------------------------ keys */

fkr_key_state fkr_open(RedisModuleCtx *ctx, RedisModuleString *name, int mode,
                       RedisModuleKey **key, fkr_value **v)
{
    *key = rm_OpenKey(ctx, name, mode);
    *v = NULL;
    int type = rm_KeyType(*key);
    if (type == RM_KEYTYPE_EMPTY)
        return FKR_KEY_EMPTY;
    if (type != RM_KEYTYPE_MODULE || rm_ModuleTypeGetType(*key) != fkr_type)
        return FKR_KEY_WRONGTYPE;
    *v = rm_ModuleTypeGetValue(*key);
    return FKR_KEY_FOUND;
}

fkr_key_state fkr_open_family(RedisModuleCtx *ctx, RedisModuleString *name, int mode,
                              fkr_family family, RedisModuleKey **key, fkr_value **v)
{
    fkr_key_state st = fkr_open(ctx, name, mode, key, v);
    if (st == FKR_KEY_FOUND && (*v)->family != family) {
        *v = NULL;
        return FKR_KEY_WRONGTYPE;
    }
    return st;
}

fkr_key_state fkr_peek_family(RedisModuleCtx *ctx, RedisModuleString *name, fkr_family family,
                              fkr_value **v)
{
    RedisModuleKey *key;
    fkr_key_state st = fkr_open_family(ctx, name, RM_READ, family, &key, v);
    rm_CloseKey(key);
    return st;
}

int fkr_wrote(RedisModuleCtx *ctx, RedisModuleKey *key, fkr_value *v)
{
    fkr_value_refresh(v);
    rm_CloseKey(key);
    rm_ReplicateVerbatim(ctx);
    return RM_OK;
}

/* d as the shortest decimal that reads back as exactly d (20.848, not
 * %.17g's 20.847999999999999), as Redis 7.2 prints doubles; "inf",
 * "-inf" and "nan" as Redis names them. */
static void shortest_double(double d, char *buf, size_t len)
{
    if (isnan(d)) {
        snprintf(buf, len, "nan");
        return;
    }
    if (isinf(d)) {
        snprintf(buf, len, "%sinf", d < 0 ? "-" : "");
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

/* One INFO value (fkr_info_value). A RESP2 double is the bulk string of
 * its shortest form (Redis 7.0's own reply prints %.17g); RESP3's double
 * type carries the value itself. */
static void reply_info_value(RedisModuleCtx *ctx, const fkr_info_value *v)
{
    switch (v->type) {
    case FKR_INFO_INT:
        rm_ReplyWithLongLong(ctx, v->v.i);
        break;
    case FKR_INFO_DOUBLE:
        if (fkr_resp3(ctx)) {
            rm_ReplyWithDouble(ctx, v->v.d);
        } else {
            char buf[32];
            shortest_double(v->v.d, buf, sizeof buf);
            rm_ReplyWithStringBuffer(ctx, buf, strlen(buf));
        }
        break;
    case FKR_INFO_BOOL:
        fkr_reply_bool(ctx, v->v.b);
        break;
    case FKR_INFO_STRING:
        if (!v->v.s)
            rm_ReplyWithNull(ctx);
        else if (strpbrk(v->v.s, "\r\n")) /* a simple string cannot hold them */
            rm_ReplyWithStringBuffer(ctx, v->v.s, strlen(v->v.s));
        else
            rm_ReplyWithSimpleString(ctx, v->v.s);
        break;
    default:
        rm_ReplyWithNull(ctx);
        break;
    }
}

int fkr_reply_info(RedisModuleCtx *ctx, const char *const names[], const char *const fields[],
                   const fkr_info_value values[], int n, const RedisModuleString *field)
{
    int from = 0, to = n, resp3 = fkr_resp3(ctx);
    if (field) {
        for (from = 0; from < n && !(fields && fkr_arg_is(field, fields[from])); from++)
            ;
        if (from == n)
            return fkr_reply_error(ctx, "ERR Invalid information value");
        to = from + 1;
        /* one field: RedisBloom keeps its name in a RESP3 map */
        if (resp3)
            fkr_reply_map(ctx, 1);
        else
            rm_ReplyWithArray(ctx, 1);
    } else {
        fkr_reply_map(ctx, n);
    }
    for (int i = from; i < to; i++) {
        if (!field || resp3)
            rm_ReplyWithSimpleString(ctx, names[i]);
        reply_info_value(ctx, &values[i]);
    }
    return RM_OK;
}

void fkr_set(RedisModuleKey *key, fkr_value *v)
{
    rm_ModuleTypeSetValue(key, fkr_type, v);
}

/* -------------------------------------------------------- arguments */

int fkr_arg_is(const RedisModuleString *arg, const char *word)
{
    size_t n, w = strlen(word);
    const char *s = rm_StringPtrLen(arg, &n);
    if (n != w)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char a = (unsigned char)s[i], b = (unsigned char)word[i];
        if (a >= 'a' && a <= 'z')
            a = (unsigned char)(a - 'a' + 'A');
        if (b >= 'a' && b <= 'z')
            b = (unsigned char)(b - 'a' + 'A');
        if (a != b)
            return 0;
    }
    return 1;
}

int fkr_arg_rate(const RedisModuleString *arg, double *out)
{
    double d;
    if (rm_StringToDouble(arg, &d) != RM_OK || !(d > 0.0 && d < 1.0))
        return RM_ERR;
    *out = d;
    return RM_OK;
}

int fkr_arg_int(const RedisModuleString *arg, long long lo, long long hi, long long *out)
{
    long long v;
    if (rm_StringToLongLong(arg, &v) != RM_OK || v < lo || v > hi)
        return RM_ERR;
    *out = v;
    return RM_OK;
}

/* ----------------------------------------------------------- replies */

int fkr_resp3(RedisModuleCtx *ctx)
{
    return (rm_GetContextFlags(ctx) & RM_CTX_FLAGS_RESP3) != 0;
}

int fkr_reply_bool(RedisModuleCtx *ctx, int yes)
{
    return fkr_resp3(ctx) ? rm_ReplyWithBool(ctx, yes != 0) : rm_ReplyWithLongLong(ctx, yes != 0);
}

int fkr_reply_map(RedisModuleCtx *ctx, long pairs)
{
    return fkr_resp3(ctx) ? rm_ReplyWithMap(ctx, pairs) : rm_ReplyWithArray(ctx, 2 * pairs);
}

int fkr_reply_error(RedisModuleCtx *ctx, const char *msg)
{
    if (rm_GetContextFlags(ctx) & RM_CTX_FLAGS_REPLICATED)
        return rm_ReplyWithSimpleString(ctx, msg); /* the primary's outcome, expected */
    return rm_ReplyWithError(ctx, msg);
}

int fkr_reply_status(RedisModuleCtx *ctx, fk_status s)
{
    if (s == FK_ELIMIT)
        return fkr_reply_error(ctx, fkr_limit_error());
    char msg[160];
    snprintf(msg, sizeof msg, "ERR %s: %s", fk_status_name(s), fk_strerror(s));
    return fkr_reply_error(ctx, msg);
}

long long fkr_count_reply(uint64_t n)
{
    return n > (uint64_t)INT64_MAX ? INT64_MAX : (long long)n;
}

int fkr_reply_state(RedisModuleCtx *ctx, fkr_key_state st)
{
    return fkr_reply_error(ctx, st == FKR_KEY_WRONGTYPE ? RM_ERRORMSG_WRONGTYPE : "ERR not found");
}

/* ---------------------------------------------------------- filters */

uint64_t fkr_key_seed(const RedisModuleString *key)
{
    size_t n;
    const unsigned char *s = (const unsigned char *)rm_StringPtrLen(key, &n);
    uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a: tiny, and only for a seed */
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* Filters this small are built without a size probe. */
#define PROBE_CAPACITY 65536u

const char *fkr_limit_error(void)
{
    static char msg[200];
    snprintf(msg, sizeof msg,
             "ERR FK_ELIMIT: the filter would grow past the module's limit of %llu bytes "
             "(MAXBYTES); nothing changed", (unsigned long long)fkr_max_bytes);
    return msg;
}

/* fkr_new_filter, for a time window of span ticks when span > 0. */
static const char *new_filter(const fk_ops *ops, const fk_params *given, uint64_t span,
                              fk_filter **out)
{
    static char msg[240];
    *out = NULL;
    fk_params q = *given, *p = &q;
    q.max_bytes = fkr_max_bytes; /* creation and every later growth */
    fk_sizing sz;
    if (fk_ops_size(ops, p, &sz) == FK_OK && sz.expected_fpr > 2.0 * p->fpr) {
        /* the kind clamps what it cannot reach (Bloom: 64 hashes; cuckoo:
         * 32-bit fingerprints): an OK would promise a rate it never has */
        snprintf(msg, sizeof msg,
                 "ERR error rate %g is out of reach: a %s filter of this capacity reaches about "
                 "%.3g at best", p->fpr, ops->name, sz.expected_fpr);
        return msg;
    }
    if (p->capacity > PROBE_CAPACITY) {
        /* Every kind's size is linear in capacity (plus rounding of at most
         * 2x for power-of-two tables): measure a small one and scale. */
        fk_params small = *p;
        small.capacity = PROBE_CAPACITY;
        small.clock = FK_CLOCK_CALLER; /* a time window's probe: the count window of its table */
        small.span = 0;
        fk_filter *probe;
        fk_status s = fk_filter_new(ops, &small, &probe);
        if (s != FK_OK) {
            snprintf(msg, sizeof msg, "ERR %s: %s", fk_status_name(s), fk_strerror(s));
            return msg;
        }
        fk_stats st;
        fk_filter_stats(probe, &st);
        fk_filter_free(probe);
        double need = (double)st.memory_bytes * ((double)p->capacity / PROBE_CAPACITY);
        if (need > (double)fkr_max_bytes) {
            snprintf(msg, sizeof msg,
                     "ERR capacity too large: the filter would need about %.0f bytes, over the "
                     "module's limit of %llu (MAXBYTES)", need, (unsigned long long)fkr_max_bytes);
            return msg;
        }
    }
    fk_status s;
    q.span = span; /* a time window when nonzero (fk_params.span) */
    s = fk_filter_new(ops, p, out);
    if (s == FK_ELIMIT && (fk_ops_caps(ops) & FK_CAP_GROWS)) {
        snprintf(msg, sizeof msg,
                 "ERR FK_ELIMIT: the filter and one growth step (EXPANSION/GROWTH) would need "
                 "more than the module's limit of %llu bytes (MAXBYTES)",
                 (unsigned long long)fkr_max_bytes);
        return msg;
    }
    if (s == FK_ELIMIT)
        return fkr_limit_error();
    if (s != FK_OK) {
        snprintf(msg, sizeof msg, "ERR %s: %s", fk_status_name(s), fk_strerror(s));
        return msg;
    }
    return NULL;
}

const char *fkr_new_filter(const fk_ops *ops, const fk_params *p, fk_filter **out)
{
    return new_filter(ops, p, 0, out);
}

static const char *new_value(const fk_ops *ops, const fk_params *p, uint64_t span,
                             fkr_family family, uint64_t capacity, fkr_value **out)
{
    *out = NULL;
    fk_filter *f;
    const char *err = new_filter(ops, p, span, &f);
    if (err)
        return err;
    fk_sizing sz;
    uint64_t memory;
    if (fk_ops_size(ops, p, &sz) == FK_OK) {
        memory = sz.memory_bytes;
    } else {
        fk_stats st;
        fk_filter_stats(f, &st);
        memory = st.memory_bytes;
    }
    *out = fkr_value_wrap_new(f, family, capacity, memory);
    return *out ? NULL : "ERR FK_ENOMEM: not enough memory";
}

const char *fkr_new_value(const fk_ops *ops, const fk_params *p, fkr_family family,
                          uint64_t capacity, fkr_value **out)
{
    return new_value(ops, p, 0, family, capacity, out);
}

const char *fkr_new_time_window(const fk_ops *ops, const fk_params *p, uint64_t span_ns,
                                fkr_value **out)
{
    /* a time window's table is a count window's of the same capacity:
     * the same checks and size; its times are Unix ns (fkr.h) */
    fk_params q = *p;
    q.clock = FK_CLOCK_UNIX_NS;
    return new_value(ops, &q, span_ns ? span_ns : 1, FKR_FAMILY_FK, p->capacity, out);
}

int fkr_at_capacity(const fkr_value *v)
{
    const fk_ops *ops = fk_filter_ops(v->filter);
    if (v->family == FKR_FAMILY_FK || (fk_ops_caps(ops) & (FK_CAP_GROWS | FK_CAP_BOUNDED)))
        return 0; /* FK keeps the library's semantics; bounded kinds say FK_EFULL */
    return v->items >= v->capacity;
}

long long fkr_count(const fkr_value *v, const char *key, size_t len)
{
    /* the kind's count (cuckoo: stored copies; a growing kind: the sum
     * over its links), else 1 when it answers yes */
    uint64_t n = 0;
    if (fk_filter_count(v->filter, key, len, &n) == FK_OK)
        return fkr_count_reply(n);
    return fk_filter_contains(v->filter, key, len) ? 1 : 0;
}

void fkr_apply_limit(fkr_value *v)
{
    /* every growing kind (chains, expandable) checks its growth against
     * it; the kinds of fixed size answer FK_EUNSUPPORTED */
    (void)fk_filter_set_max_bytes(v->filter, fkr_max_bytes);
    fkr_apply_kicks(v);
}

void fkr_apply_kicks(fkr_value *v)
{
    if (v->family != FKR_FAMILY_CF || v->max_iterations == 0)
        return; /* FK keys keep the library's limit */
    fk_filter *f = v->filter;
    if (fk_filter_ops(f) == &fk_cuckoo_ops) {
        fk_cuckoo_set_max_kicks((fk_cuckoo *)(void *)f, v->max_iterations);
        return;
    }
    if (fk_scalable_inner(f) != &fk_cuckoo_ops)
        return;
    fk_scalable *chain = (fk_scalable *)(void *)f;
    for (size_t i = 0; i < chain->count; i++)
        fk_cuckoo_set_max_kicks((fk_cuckoo *)(void *)chain->link[i].filter, v->max_iterations);
}

/* ------------------------------------------------------------ batches */

int fkr_batch_take(fkr_batch *b, RedisModuleString **items, int from, int count)
{
    b->n = count - from < FKR_BATCH ? count - from : FKR_BATCH;
    for (int i = 0; i < b->n; i++)
        b->keys[i] = rm_StringPtrLen(items[from + i], &b->lens[i]);
    return b->n;
}

void fkr_batch_lookup(fkr_batch *b, const fk_filter *f)
{
    if (f)
        fk_filter_contains_many(f, (size_t)b->n, b->keys, b->lens, b->maybe);
    else
        memset(b->maybe, 0, sizeof b->maybe);
}

/* ------------------------------------------- replies shared by families */

int fkr_reply_lookups(RedisModuleCtx *ctx, RedisModuleKey *key, fkr_key_state st,
                      const fkr_value *v, RedisModuleString **argv, int argc, int multi,
                      int count)
{
    if (st == FKR_KEY_WRONGTYPE) {
        rm_CloseKey(key);
        return fkr_reply_state(ctx, st);
    }
    if (multi)
        rm_ReplyWithArray(ctx, argc - 2);
    /* a time window past a boundary: answered as of now, not advanced (a
     * read never writes; a window counts 1 for present) */
    uint64_t as_of = 0;
    const fk_filter *w = fkr_read_window(ctx, v, &as_of);
    fkr_batch b;
    for (int i = 2; i < argc; i += b.n) {
        fkr_batch_take(&b, argv, i, argc);
        if (w)
            for (int j = 0; j < b.n; j++)
                b.maybe[j] = fk_filter_contains_at(w, b.keys[j], b.lens[j], as_of);
        else if (!count)
            fkr_batch_lookup(&b, v ? v->filter : NULL);
        for (int j = 0; j < b.n; j++) {
            if (count && !w)
                rm_ReplyWithLongLong(ctx, v ? fkr_count(v, b.keys[j], b.lens[j]) : 0);
            else if (count)
                rm_ReplyWithLongLong(ctx, b.maybe[j]);
            else
                fkr_reply_bool(ctx, b.maybe[j]);
        }
    }
    rm_CloseKey(key);
    return RM_OK;
}

int fkr_open_new(RedisModuleCtx *ctx, RedisModuleString *name, RedisModuleKey **key)
{
    fkr_value *v;
    fkr_key_state st = fkr_open(ctx, name, RM_READ | RM_WRITE, key, &v);
    if (st == FKR_KEY_EMPTY)
        return 1;
    rm_CloseKey(*key);
    fkr_reply_error(ctx, st == FKR_KEY_FOUND ? "ERR item exists" : RM_ERRORMSG_WRONGTYPE);
    return 0;
}

int fkr_reply_created(RedisModuleCtx *ctx, RedisModuleKey *key, const char *err)
{
    rm_CloseKey(key);
    if (err)
        return fkr_reply_error(ctx, err);
    rm_ReplicateVerbatim(ctx);
    return rm_ReplyWithSimpleString(ctx, "OK");
}
