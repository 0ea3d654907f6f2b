/* redis/type.c: the "filterkit" Redis data type: RDB save/load, AOF
 * rewrite, MEMORY USAGE, COPY (and so DUMP/RESTORE, MIGRATE and cluster
 * resharding, which go through RDB), DEBUG DIGEST and freeing. Every
 * callback uses the value encoding of value.h. */
#include "type.h"

#include <stdlib.h>
#include "../common/params.h"
#include "fkr.h"

/* Encodes v into a new malloc'd buffer; NULL (and *len 0) when out of
 * memory or when the kind cannot be saved. */
static uint8_t *encode(const fkr_value *v, size_t *len)
{
    *len = fkr_value_encoded_size(v);
    uint8_t *buf = *len ? malloc(*len) : NULL;
    if (buf && fkr_value_encode(v, buf, *len) != FK_OK) {
        free(buf);
        buf = NULL;
    }
    if (!buf)
        *len = 0;
    return buf;
}

static void *type_rdb_load(RedisModuleIO *io, int encver)
{
    if (encver != FKR_ENCVER) {
        rm_LogIOError(io, "warning", "filterkit: unknown encoding version %d", encver);
        return NULL;
    }
    size_t len = 0;
    char *buf = rm_LoadStringBuffer(io, &len);
    if (rm_IsIOError(io) || !buf) {
        if (buf)
            rm_Free(buf);
        return NULL;
    }
    /* persisted filters load whatever MAXBYTES says now (refusing would
     * lose data; the bytes are all there, so nothing is blown up), but a
     * growing one grows no further past MAXBYTES (RDB, RESTORE, MIGRATE) */
    fkr_value *v;
    fk_status s = fkr_value_decode(buf, len, FK_MEMORY_CAP, &v);
    rm_Free(buf);
    if (s != FK_OK) {
        rm_LogIOError(io, "warning", "filterkit: bad value in RDB (%s)", fk_status_name(s));
        return NULL;
    }
    const char *foreign = fkr_clock_refusal(v); /* RESTORE of a time window not on Unix ns */
    if (foreign) {
        rm_LogIOError(io, "warning", "filterkit: refused value in RDB (%s)", foreign);
        fkr_value_free(v);
        return NULL;
    }
    fkr_apply_limit(v);
    return v;
}

static void type_rdb_save(RedisModuleIO *io, void *value)
{
    size_t len;
    uint8_t *buf = encode(value, &len);
    /* on failure an empty string is saved, which the loader refuses loudly */
    rm_SaveStringBuffer(io, buf ? (const char *)buf : "", len);
    free(buf);
}

static void type_aof_rewrite(RedisModuleIO *aof, RedisModuleString *key, void *value)
{
    size_t len;
    uint8_t *buf = encode(value, &len);
    if (buf)
        rm_EmitAOF(aof, "FK.LOAD", "sb", key, (const char *)buf, len);
    else
        rm_LogIOError(aof, "warning", "filterkit: could not encode a value for the AOF");
    free(buf);
}

static size_t type_mem_usage(const void *value)
{
    return fkr_value_memory(value);
}

static void type_digest(RedisModuleDigest *md, void *value)
{
    size_t len;
    uint8_t *buf = encode(value, &len);
    if (buf)
        rm_DigestAddStringBuffer(md, (const char *)buf, len);
    rm_DigestEndSequence(md);
    free(buf);
}

static void type_free(void *value)
{
    fkr_value_free(value);
}

static void *type_copy(RedisModuleString *from, RedisModuleString *to, const void *value)
{
    (void)from;
    (void)to;
    size_t len;
    uint8_t *buf = encode(value, &len);
    fkr_value *v = NULL;
    if (buf && fkr_value_decode(buf, len, FK_MEMORY_CAP, &v) != FK_OK)
        v = NULL;
    if (v)
        fkr_apply_limit(v);
    free(buf);
    return v; /* NULL makes COPY fail cleanly */
}

int fkr_type_register(RedisModuleCtx *ctx)
{
    rm_type_methods tm = {
        .version = RM_TYPE_METHOD_VERSION,
        .rdb_load = type_rdb_load,
        .rdb_save = type_rdb_save,
        .aof_rewrite = type_aof_rewrite,
        .mem_usage = type_mem_usage,
        .digest = type_digest,
        .free = type_free,
        .copy = type_copy,
    };
    fkr_type = rm_CreateDataType(ctx, FKR_TYPE_NAME, FKR_ENCVER, &tm);
    return fkr_type ? RM_OK : RM_ERR;
}
