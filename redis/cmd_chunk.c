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
 * it back. LOADCHUNK gathers a dump's chunks aside (up to FKR_RESTORES_MAX
 * restores at once, in memory) and replaces the key only when the last one
 * has arrived and the whole value decodes and matches its dump id: a forged
 * or damaged chunk (its checksum), a chunk out of order, a chunk of another
 * dump (the key changed between SCANDUMP calls) or of the other family is
 * refused with an error, and neither the key nor the chunks gathered so far
 * are lost (send the right chunk, or restart from the first). A first chunk
 * starts the restore of its key again. Replicas and the AOF see the same
 * LOADCHUNK commands, in order, and gather the same way. */
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
        return rm_ReplyWithError(ctx, "ERR invalid iterator");
    fkr_value *v;
    fkr_key_state st = fkr_peek_family(ctx, argv[1], family, &v);
    if (st != FKR_KEY_FOUND)
        return st == FKR_KEY_EMPTY ? rm_ReplyWithError(ctx, "ERR not found") : fkr_reply_state(ctx, st);
    size_t total = fkr_value_encoded_size(v);
    if (!total)
        return fkr_reply_status(ctx, FK_EUNSUPPORTED);
    uint64_t count = (total + fkr_chunk_bytes - 1) / fkr_chunk_bytes;
    if (count > UINT32_MAX)
        return rm_ReplyWithError(ctx, "ERR the value has too many chunks at this CHUNKBYTES");
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

/* One restore in progress: the chunks of one dump gathered for one key. */
typedef struct {
    char     *name;     /* the key's name (NULL: a free slot) */
    size_t    name_len;
    uint8_t   family;
    uint64_t  dump_id, total, filled, touched;
    uint32_t  count, next; /* chunks in the dump; the index expected next */
    uint8_t  *buf;      /* filled bytes of the value so far */
} restore;

#define FKR_RESTORES_MAX 16
static restore restores[FKR_RESTORES_MAX];
static uint64_t clock_ticks;

static void restore_drop(restore *r)
{
    free(r->name);
    free(r->buf);
    memset(r, 0, sizeof *r);
}

static restore *restore_find(const char *name, size_t len)
{
    for (int i = 0; i < FKR_RESTORES_MAX; i++)
        if (restores[i].name && restores[i].name_len == len && memcmp(restores[i].name, name, len) == 0)
            return &restores[i];
    return NULL;
}

/* A slot for a new restore: a free one, else the one left alone longest
 * (an abandoned restore; its key was never touched). */
static restore *restore_slot(void)
{
    restore *old = &restores[0];
    for (int i = 0; i < FKR_RESTORES_MAX; i++) {
        if (!restores[i].name)
            return &restores[i];
        if (restores[i].touched < old->touched)
            old = &restores[i];
    }
    restore_drop(old);
    return old;
}

static int loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, fkr_family family)
{
    if (argc != 4)
        return rm_WrongArity(ctx);
    long long it;
    if (fkr_arg_int(argv[2], 1, (long long)UINT32_MAX, &it) != RM_OK)
        return rm_ReplyWithError(ctx, "ERR invalid iterator (SCANDUMP's iterators start at 1)");
    size_t clen, nlen;
    const uint8_t *c = (const uint8_t *)rm_StringPtrLen(argv[3], &clen);
    const char *name = rm_StringPtrLen(argv[1], &nlen);
    if (clen < CHUNK_HEADER || memcmp(c, CHUNK_MAGIC, 4) != 0)
        return rm_ReplyWithError(ctx, "ERR not a filterkit SCANDUMP chunk (nothing changed)");
    if (get32(c + 4) != CHUNK_VERSION)
        return rm_ReplyWithError(ctx, "ERR a SCANDUMP chunk of an unknown format version (nothing changed)");
    size_t dlen = clen - CHUNK_HEADER;
    if (get64(c + 32) != chunk_sum(c, c + CHUNK_HEADER, dlen))
        return rm_ReplyWithError(ctx, "ERR damaged or forged chunk: its checksum does not match "
                                      "(nothing changed; send it again)");
    uint32_t index = get32(c + 8), count = get32(c + 12);
    uint64_t total = get64(c + 16), dump_id = get64(c + 24);
    if ((uint64_t)it != (uint64_t)index + 1)
        return rm_ReplyWithError(ctx, "ERR the iterator does not match the chunk (nothing changed)");
    /* the whole value must fit the byte limit (and the framing around it) */
    uint64_t framing = FKR_VALUE_HEADER + FK_SERIAL_HEADER_BYTES + FK_SERIAL_TRAILER_BYTES;
    if (count == 0 || index >= count || total < framing || total - framing > fkr_max_bytes)
        return total >= framing && total - framing > fkr_max_bytes
                   ? rm_ReplyWithError(ctx, fkr_limit_error())
                   : rm_ReplyWithError(ctx, "ERR a chunk with impossible sizes (nothing changed)");

    RedisModuleKey *key;
    fkr_value *old;
    fkr_key_state st = fkr_open_family(ctx, argv[1], RM_READ | RM_WRITE, family, &key, &old);
    if (st == FKR_KEY_WRONGTYPE) {
        rm_CloseKey(key);
        return fkr_reply_state(ctx, st);
    }
    restore *r = restore_find(name, nlen);
    if (index == 0 && (dlen > total || (count > 1 && dlen == 0) || (count == 1 && dlen != total))) {
        rm_CloseKey(key); /* checked before a restore in progress is restarted */
        return rm_ReplyWithError(ctx, "ERR a chunk whose size does not fit its dump (nothing changed)");
    }
    if (index == 0) { /* a dump starts (again) */
        if (!r) {
            r = restore_slot();
            r->name = malloc(nlen ? nlen : 1);
            if (!r->name) {
                rm_CloseKey(key);
                return fkr_reply_status(ctx, FK_ENOMEM);
            }
            memcpy(r->name, name, nlen);
            r->name_len = nlen;
        }
        free(r->buf);
        r->buf = NULL;
        r->family = (uint8_t)family;
        r->dump_id = dump_id;
        r->total = total;
        r->count = count;
        r->next = 0;
        r->filled = 0;
    }
    const char *refuse = NULL;
    char why[200];
    if (!r)
        refuse = "ERR no restore of this key in progress: send its first chunk (iterator 1) first";
    else if (r->family != family)
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
        return rm_ReplyWithError(ctx, refuse);
    }
    uint8_t *grown = realloc(r->buf, (size_t)(r->filled + dlen ? r->filled + dlen : 1));
    if (!grown) {
        rm_CloseKey(key);
        return fkr_reply_status(ctx, FK_ENOMEM);
    }
    r->buf = grown;
    memcpy(r->buf + r->filled, c + CHUNK_HEADER, dlen);
    r->filled += dlen;
    r->next++;
    r->touched = ++clock_ticks;
    rm_ReplicateVerbatim(ctx);
    if (r->next < r->count) { /* more to come */
        rm_CloseKey(key);
        return rm_ReplyWithSimpleString(ctx, "OK");
    }
    /* the last chunk: the whole value, checked, then the key replaced */
    fkr_value *v = NULL;
    fk_status s = fk_checksum64(r->buf, (size_t)r->total, DUMP_SEED) == r->dump_id
                      ? fkr_value_decode(r->buf, (size_t)r->total, fkr_max_bytes, &v)
                      : FK_ECORRUPT;
    restore_drop(r);
    if (s == FK_OK && v->family != family) {
        fkr_value_free(v);
        rm_CloseKey(key);
        return rm_ReplyWithError(ctx, family == FKR_FAMILY_BF ? "ERR the dump is not a BF key's (use CF.LOADCHUNK)"
                                                              : "ERR the dump is not a CF key's (use BF.LOADCHUNK)");
    }
    if (s != FK_OK) {
        rm_CloseKey(key);
        return s == FK_EINVAL ? rm_ReplyWithError(ctx, fkr_limit_error()) : fkr_reply_status(ctx, s);
    }
    fkr_apply_limit(v);
    fkr_set(key, v);
    rm_CloseKey(key);
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
