/* redis/cmd_chunk.c: BF.SCANDUMP / BF.LOADCHUNK and CF.SCANDUMP /
 * CF.LOADCHUNK, RedisBloom's incremental backup and restore, so that a
 * backup or migration script written for RedisBloom runs unchanged:
 *
 *   it = 0
 *   loop: it, data = BF.SCANDUMP key it; stop when it == 0; keep (it, data)
 *   for each (it, data), in order: BF.LOADCHUNK newkey it data
 *
 * A dump is the key's value encoded as for RDB (value.h: its settings and
 * the filter in filterkit's checksummed format), cut into chunks of at most
 * fkr_chunk_bytes. Each chunk carries a header:
 *
 *   off size field (little-endian)
 *     0   4  magic "FKRC"
 *     4   4  chunk format version (1)
 *     8   4  index of this chunk (0 = first)
 *    12   4  chunks in the dump
 *    16   8  bytes of the whole encoded value
 *    24   8  dump id: XXH64 of the whole encoded value
 *    32   8  XXH64 of bytes 0..31 and of the chunk's data
 *    40   -  the data: bytes [index * chunk size, ...) of the value
 *
 * The iterator SCANDUMP returns with chunk i is i + 1, and LOADCHUNK takes
 * it back. LOADCHUNK gathers a dump's chunks aside (restores in progress: at
 * most FKR_RESTORES_MAX, RESTOREBYTES in all, each per database and key,
 * dropped RESTORETIMEOUT seconds after its last chunk and by FLUSHDB /
 * FLUSHALL) and replaces the key only when the last one has arrived and the whole value decodes and matches its dump id: a forged
 * or damaged chunk (its checksum), a chunk out of order, a chunk of another
 * dump (the key changed between SCANDUMP calls) or of the other family is
 * refused with an error, and neither the key nor the chunks gathered so far
 * are lost (send the right chunk, or restart from the first). A first chunk
 * starts the restore of its key again. Replicas and the AOF see no chunk:
 * only one FK.LOAD of the whole value once the last chunk is in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "../common/hash.h"
#include "../common/serial.h"

#define CHUNK_MAGIC   "FKRC"
#define CHUNK_VERSION 1u
#define CHUNK_HEADER  40u
#define DUMP_SEED     UINT64_C(0x464b5244554d5031) /* "FKRDUMP1" */

uint64_t fkr_chunk_bytes = FKR_DEFAULT_CHUNK_BYTES;

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* The checksum of a chunk: its header's first 32 bytes, then its data. */
static uint64_t chunk_sum(const uint8_t *head, const uint8_t *data, size_t len)
{
    XXH64_state_t st;
    XXH64_reset(&st, DUMP_SEED);
    XXH64_update(&st, head, 32);
    XXH64_update(&st, data, len);
    return XXH64_digest(&st);
}

/* ------------------------------------------------------------ SCANDUMP */

static int scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, fkr_family family)
{
    if (argc != 3)
        return rm_WrongArity(ctx);
    long long it;
    if (fkr_arg_int(argv[2], 0, (long long)UINT32_MAX, &it) != RM_OK)
        return fkr_reply_error(ctx, "ERR invalid iterator");
    fkr_value *v;
    fkr_key_state st = fkr_peek_family(ctx, argv[1], family, &v);
    if (st != FKR_KEY_FOUND)
        return st == FKR_KEY_EMPTY ? fkr_reply_error(ctx, "ERR not found") : fkr_reply_state(ctx, st);
    size_t total = fkr_value_encoded_size(v);
    if (!total)
        return fkr_reply_status(ctx, FK_EUNSUPPORTED);
    uint64_t count = (total + fkr_chunk_bytes - 1) / fkr_chunk_bytes;
    if (count > UINT32_MAX)
        return fkr_reply_error(ctx, "ERR the value has too many chunks at this CHUNKBYTES");
    if ((uint64_t)it >= count) { /* past the last chunk: done */
        rm_ReplyWithArray(ctx, 2);
        rm_ReplyWithLongLong(ctx, 0);
        return rm_ReplyWithStringBuffer(ctx, "", 0);
    }
    /* the whole value, encoded again at each call (the key may not be
     * modified between the calls; the dump id tells LOADCHUNK if it was) */
    uint8_t *all = malloc(total);
    if (!all)
        return fkr_reply_status(ctx, FK_ENOMEM);
    fk_status s = fkr_value_encode(v, all, total);
    if (s != FK_OK) {
        free(all);
        return fkr_reply_status(ctx, s);
    }
    uint64_t at = (uint64_t)it * fkr_chunk_bytes;
    size_t len = (size_t)(total - at < fkr_chunk_bytes ? total - at : fkr_chunk_bytes);
    uint8_t *chunk = malloc(CHUNK_HEADER + len);
    if (!chunk) {
        free(all);
        return fkr_reply_status(ctx, FK_ENOMEM);
    }
    memcpy(chunk, CHUNK_MAGIC, 4);
    put32(chunk + 4, CHUNK_VERSION);
    put32(chunk + 8, (uint32_t)it);
    put32(chunk + 12, (uint32_t)count);
    put64(chunk + 16, total);
    put64(chunk + 24, fk_checksum64(all, total, DUMP_SEED));
    memcpy(chunk + CHUNK_HEADER, all + at, len);
    put64(chunk + 32, chunk_sum(chunk, chunk + CHUNK_HEADER, len));
    free(all);
    rm_ReplyWithArray(ctx, 2);
    rm_ReplyWithLongLong(ctx, it + 1);
    rm_ReplyWithStringBuffer(ctx, (const char *)chunk, CHUNK_HEADER + len);
    free(chunk);
    return RM_OK;
}

int fkr_bf_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return scandump(ctx, argv, argc, FKR_FAMILY_BF);
}

int fkr_cf_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return scandump(ctx, argv, argc, FKR_FAMILY_CF);
}

/* ----------------------------------------------------------- LOADCHUNK */

/* One restore in progress: the chunks of one dump gathered for one key of
 * one database. Its buffers come from the server's allocator (rm_Alloc),
 * so used_memory and maxmemory count them. */
typedef struct {
    char     *name;     /* the key's name (NULL: a free slot) */
    size_t    name_len;
    int       db;       /* the database the first chunk was sent in */
    uint8_t   family;
    uint64_t  dump_id, total, filled;
    long long touched_ms; /* when its last chunk arrived */
    uint32_t  count, next; /* chunks in the dump; the index expected next */
    uint8_t  *buf;      /* filled bytes of the value so far */
} restore;

static restore restores[FKR_RESTORES_MAX];
uint64_t fkr_restore_bytes = FKR_DEFAULT_MAX_BYTES + FKR_RESTORE_SLACK;
uint64_t fkr_restore_timeout_s = FKR_DEFAULT_RESTORE_TIMEOUT_S;

/* What INFO reports (fkr_restores_info). */
static struct {
    uint64_t live;     /* restores in progress */
    uint64_t reserved; /* their dumps' sizes and names: what RESTOREBYTES bounds */
    uint64_t buffered; /* bytes gathered so far */
    uint64_t expired, dropped, refused; /* since the server started */
} tally;
static int timer_armed;

/* The bytes a restore holds against RESTOREBYTES: its whole dump, from
 * the first chunk on (so a restore never fails halfway for room), and its
 * name. */
static uint64_t restore_cost(uint64_t total, size_t name_len)
{
    return total + name_len;
}

static void restore_drop(restore *r)
{
    tally.live--;
    tally.reserved -= restore_cost(r->total, r->name_len);
    tally.buffered -= r->filled;
    rm_Free(r->name);
    if (r->buf)
        rm_Free(r->buf);
    memset(r, 0, sizeof *r);
}

static restore *restore_find(int db, const char *name, size_t len)
{
    for (int i = 0; i < FKR_RESTORES_MAX; i++)
        if (restores[i].name && restores[i].db == db && restores[i].name_len == len &&
            memcmp(restores[i].name, name, len) == 0)
            return &restores[i];
    return NULL;
}

static restore *restore_free_slot(void)
{
    for (int i = 0; i < FKR_RESTORES_MAX; i++)
        if (!restores[i].name)
            return &restores[i];
    return NULL;
}

/* Drops the restores left alone for RESTORETIMEOUT seconds or more. */
static void restore_expire(long long now)
{
    long long ttl = (long long)fkr_restore_timeout_s * 1000;
    for (int i = 0; i < FKR_RESTORES_MAX; i++)
        if (restores[i].name && now - restores[i].touched_ms >= ttl) {
            restore_drop(&restores[i]);
            tally.expired++;
        }
}

static void restore_arm_timer(RedisModuleCtx *ctx);

static void restore_on_timer(RedisModuleCtx *ctx, void *data)
{
    (void)data;
    timer_armed = 0;
    restore_expire(rm_Milliseconds());
    restore_arm_timer(ctx);
}

/* One timer at a time, due when the oldest restore expires: an abandoned
 * restore's memory goes back without waiting for another LOADCHUNK. */
static void restore_arm_timer(RedisModuleCtx *ctx)
{
    if (timer_armed)
        return;
    long long oldest = 0;
    int any = 0;
    for (int i = 0; i < FKR_RESTORES_MAX; i++)
        if (restores[i].name && (!any || restores[i].touched_ms < oldest)) {
            oldest = restores[i].touched_ms;
            any = 1;
        }
    if (!any)
        return;
    long long wait = oldest + (long long)fkr_restore_timeout_s * 1000 - rm_Milliseconds();
    rm_CreateTimer(ctx, wait > 0 ? wait + 1 : 1, restore_on_timer, NULL);
    timer_armed = 1;
}

/* Drops the restores of database db (-1: every database). */
static void restore_drop_db(int db)
{
    for (int i = 0; i < FKR_RESTORES_MAX; i++)
        if (restores[i].name && (db < 0 || restores[i].db == db)) {
            restore_drop(&restores[i]);
            tally.dropped++;
        }
}

/* FLUSHDB / FLUSHALL (and the flush that starts a replica's full sync or
 * DEBUG RELOAD) drop that database's restores; a server that becomes a
 * replica drops them all (it takes no writes, and its primary never saw
 * them). */
static void restore_on_flush(RedisModuleCtx *ctx, rm_event eid, uint64_t subevent, void *data)
{
    (void)ctx;
    (void)eid;
    const rm_flush_info *fi = data;
    if (subevent == RM_SUBEVENT_FLUSHDB_START)
        restore_drop_db(fi ? fi->dbnum : -1);
}

static void restore_on_role(RedisModuleCtx *ctx, rm_event eid, uint64_t subevent, void *data)
{
    (void)ctx;
    (void)eid;
    (void)data;
    if (subevent == RM_EVENT_REPLROLECHANGED_NOW_REPLICA)
        restore_drop_db(-1);
}

static void restore_info(RedisModuleInfoCtx *ctx, int for_crash_report)
{
    (void)for_crash_report;
    rm_InfoAddSection(ctx, "restores");
    rm_InfoAddFieldULongLong(ctx, "restores_in_progress", tally.live);
    rm_InfoAddFieldULongLong(ctx, "restores_max", FKR_RESTORES_MAX);
    rm_InfoAddFieldULongLong(ctx, "restores_buffered_bytes", tally.buffered);
    rm_InfoAddFieldULongLong(ctx, "restores_reserved_bytes", tally.reserved);
    rm_InfoAddFieldULongLong(ctx, "restores_limit_bytes", fkr_restore_bytes);
    rm_InfoAddFieldULongLong(ctx, "restores_timeout_seconds", fkr_restore_timeout_s);
    rm_InfoAddFieldULongLong(ctx, "restores_expired", tally.expired);
    rm_InfoAddFieldULongLong(ctx, "restores_dropped", tally.dropped);
    rm_InfoAddFieldULongLong(ctx, "restores_refused", tally.refused);
}

int fkr_restores_init(RedisModuleCtx *ctx)
{
    rm_event flush = { RM_EVENT_FLUSHDB, 1 }, role = { RM_EVENT_REPLICATION_ROLE_CHANGED, 1 };
    if (rm_SubscribeToServerEvent(ctx, flush, restore_on_flush) != RM_OK ||
        rm_SubscribeToServerEvent(ctx, role, restore_on_role) != RM_OK ||
        rm_RegisterInfoFunc(ctx, restore_info) != RM_OK)
        return RM_ERR;
    return RM_OK;
}

/* The first chunk of a dump: r (this key's restore in this database, or
 * NULL) starts again, or a new restore takes a free slot, when the dump
 * fits RESTOREBYTES beside the others. Returns NULL with the error to
 * reply (nothing changed), or the restore, empty, in *out. */
static const char *restore_start(restore *r, int db, const char *name, size_t nlen,
                                 uint64_t total, long long now, restore **out)
{
    static char why[320];
    uint64_t need = restore_cost(total, nlen);
    uint64_t others = tally.reserved - (r ? restore_cost(r->total, r->name_len) : 0);
    *out = NULL;
    if (need > fkr_restore_bytes) {
        tally.refused++;
        snprintf(why, sizeof why, "ERR this dump's %llu bytes pass the module's limit of %llu "
                 "bytes for restores in progress (RESTOREBYTES); nothing changed",
                 (unsigned long long)total, (unsigned long long)fkr_restore_bytes);
        return why;
    }
    if (need > fkr_restore_bytes - others) {
        tally.refused++;
        snprintf(why, sizeof why, "ERR restores in progress hold %llu of the module's %llu bytes "
                 "(RESTOREBYTES) and this dump needs %llu: nothing changed; retry when one ends or "
                 "expires (%llu s after its last chunk)", (unsigned long long)others,
                 (unsigned long long)fkr_restore_bytes, (unsigned long long)need,
                 (unsigned long long)fkr_restore_timeout_s);
        return why;
    }
    if (!r) {
        r = restore_free_slot();
        if (!r) {
            tally.refused++;
            snprintf(why, sizeof why, "ERR %d restores are in progress, the most at once: nothing "
                     "changed; retry when one ends or expires (%llu s after its last chunk)",
                     FKR_RESTORES_MAX, (unsigned long long)fkr_restore_timeout_s);
            return why;
        }
        r->name = rm_Alloc(nlen ? nlen : 1);
        memcpy(r->name, name, nlen);
        r->name_len = nlen;
        r->db = db;
        tally.live++;
    } else {
        tally.reserved -= restore_cost(r->total, r->name_len);
        tally.buffered -= r->filled;
        if (r->buf)
            rm_Free(r->buf);
        r->buf = NULL;
    }
    r->total = total;
    r->filled = 0;
    r->next = 0;
    r->touched_ms = now;
    tally.reserved += need;
    *out = r;
    return NULL;
}

/* BF.LOADCHUNK / CF.LOADCHUNK key iterator chunk. The chunks are gathered
 * on this server only and are not replicated: when the last one arrives
 * and the whole value checks out, the key is written and one FK.LOAD of
 * the whole value goes to the replicas and the AOF, so a full sync or an
 * AOF rewrite falling between the chunks (which carry only the keys) never
 * leaves a replica or a restarted server without the key. A restore that
 * was dropped (expired, flushed, a restart or failover) answers the next
 * chunk with an error: start again from the first. */
static int loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, fkr_family family)
{
    if (argc != 4)
        return rm_WrongArity(ctx);
    long long it;
    if (fkr_arg_int(argv[2], 1, (long long)UINT32_MAX, &it) != RM_OK)
        return fkr_reply_error(ctx, "ERR invalid iterator (SCANDUMP's iterators start at 1)");
    size_t clen, nlen;
    const uint8_t *c = (const uint8_t *)rm_StringPtrLen(argv[3], &clen);
    const char *name = rm_StringPtrLen(argv[1], &nlen);
    if (clen < CHUNK_HEADER || memcmp(c, CHUNK_MAGIC, 4) != 0)
        return fkr_reply_error(ctx, "ERR not a filterkit SCANDUMP chunk (nothing changed)");
    if (get32(c + 4) != CHUNK_VERSION)
        return fkr_reply_error(ctx, "ERR a SCANDUMP chunk of an unknown format version (nothing changed)");
    size_t dlen = clen - CHUNK_HEADER;
    if (get64(c + 32) != chunk_sum(c, c + CHUNK_HEADER, dlen))
        return fkr_reply_error(ctx, "ERR damaged or forged chunk: its checksum does not match "
                                      "(nothing changed; send it again)");
    uint32_t index = get32(c + 8), count = get32(c + 12);
    uint64_t total = get64(c + 16), dump_id = get64(c + 24);
    if ((uint64_t)it != (uint64_t)index + 1)
        return fkr_reply_error(ctx, "ERR the iterator does not match the chunk (nothing changed)");
    /* the whole value must fit the byte limit (and the framing around it) */
    uint64_t framing = FKR_VALUE_HEADER + FK_SERIAL_HEADER_BYTES + FK_SERIAL_TRAILER_BYTES;
    if (count == 0 || index >= count || total < framing || total - framing > fkr_max_bytes)
        return total >= framing && total - framing > fkr_max_bytes
                   ? fkr_reply_error(ctx, fkr_limit_error())
                   : fkr_reply_error(ctx, "ERR a chunk with impossible sizes (nothing changed)");

    RedisModuleKey *key;
    fkr_value *old;
    fkr_key_state st = fkr_open_family(ctx, argv[1], RM_READ | RM_WRITE, family, &key, &old);
    if (st == FKR_KEY_WRONGTYPE) {
        rm_CloseKey(key);
        return fkr_reply_state(ctx, st);
    }
    long long now = rm_Milliseconds();
    restore_expire(now);
    int db = rm_GetSelectedDb(ctx);
    restore *r = restore_find(db, name, nlen);
    if (index == 0 && (dlen > total || (count > 1 && dlen == 0) || (count == 1 && dlen != total))) {
        rm_CloseKey(key); /* checked before a restore in progress is restarted */
        return fkr_reply_error(ctx, "ERR a chunk whose size does not fit its dump (nothing changed)");
    }
    if (index == 0) { /* a dump starts (again) */
        const char *refuse = restore_start(r, db, name, nlen, total, now, &r);
        if (refuse) {
            rm_CloseKey(key);
            return fkr_reply_error(ctx, refuse);
        }
        r->family = (uint8_t)family;
        r->dump_id = dump_id;
        r->count = count;
    }
    const char *refuse = NULL;
    char why[300];
    if (!r) {
        snprintf(why, sizeof why, "ERR no restore of this key in progress in this database: send "
                 "its first chunk (iterator 1) first (a restore is dropped %llu s after its last "
                 "chunk, by FLUSHDB/FLUSHALL, a restart or a failover)",
                 (unsigned long long)fkr_restore_timeout_s);
        refuse = why;
    } else if (r->family != family)
        refuse = "ERR this key's restore is of the other family (BF / CF)";
    else if (dump_id != r->dump_id || total != r->total || count != r->count)
        refuse = "ERR a chunk of another dump (the key changed between SCANDUMP calls?): nothing "
                 "changed; restart from the first chunk";
    else if (index != r->next) {
        snprintf(why, sizeof why, "ERR chunk %u out of order: chunk %u is expected next (nothing changed)",
                 index + 1, r->next + 1);
        refuse = why;
    } else if (dlen > r->total - r->filled || (index + 1 < count && dlen == 0) ||
               (index + 1 == count && dlen != r->total - r->filled))
        refuse = "ERR a chunk whose size does not fit its dump (nothing changed)";
    if (refuse) {
        rm_CloseKey(key);
        return fkr_reply_error(ctx, refuse);
    }
    /* rm_Realloc never returns NULL: the server stops when out of memory,
     * as for any of its own allocations (maxmemory and deny-oom refuse the
     * command long before) */
    r->buf = rm_Realloc(r->buf, (size_t)(r->filled + dlen ? r->filled + dlen : 1));
    memcpy(r->buf + r->filled, c + CHUNK_HEADER, dlen);
    r->filled += dlen;
    tally.buffered += dlen;
    r->next++;
    r->touched_ms = now;
    if (r->next < r->count) { /* more to come */
        rm_CloseKey(key);
        restore_arm_timer(ctx);
        return rm_ReplyWithSimpleString(ctx, "OK");
    }
    /* the last chunk: the whole value, checked, then the key replaced */
    fkr_value *v = NULL;
    fk_status s = fk_checksum64(r->buf, (size_t)r->total, DUMP_SEED) == r->dump_id
                      ? fkr_value_decode(r->buf, (size_t)r->total, fkr_max_bytes, &v)
                      : FK_ECORRUPT;
    if (s == FK_OK && v->family != family) {
        fkr_value_free(v);
        restore_drop(r);
        rm_CloseKey(key);
        return fkr_reply_error(ctx, family == FKR_FAMILY_BF ? "ERR the dump is not a BF key's (use CF.LOADCHUNK)"
                                                              : "ERR the dump is not a CF key's (use BF.LOADCHUNK)");
    }
    if (s != FK_OK) {
        restore_drop(r);
        rm_CloseKey(key);
        return s == FK_EINVAL ? fkr_reply_error(ctx, fkr_limit_error()) : fkr_reply_status(ctx, s);
    }
    fkr_apply_limit(v);
    fkr_set(key, v);
    rm_CloseKey(key);
    /* the whole value, as AOF rewrite writes it: FK.LOAD decodes it into
     * the same value (family and settings included) */
    rm_Replicate(ctx, "FK.LOAD", "sb", argv[1], (const char *)r->buf, (size_t)r->total);
    restore_drop(r);
    return rm_ReplyWithSimpleString(ctx, "OK");
}

int fkr_bf_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return loadchunk(ctx, argv, argc, FKR_FAMILY_BF);
}

int fkr_cf_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    return loadchunk(ctx, argv, argc, FKR_FAMILY_CF);
}
