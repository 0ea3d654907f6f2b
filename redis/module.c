/* redis/module.c: the entry point of filterkit-redis.so.
 *
 *   redis-server --loadmodule build/filterkit-redis.so [MAXBYTES n] [CHUNKBYTES n]
 *                [RESTOREBYTES n] [RESTORETIMEOUT s] [NAME filterkit|bf]
 *                [<RedisBloom config> value ...]
 *
 * Registers the "filterkit" data type and the BF.*, CF.* and FK.*
 * commands. MAXBYTES caps one filter's body (default 1 GiB); a RESERVE
 * or FK.LOAD above it is an error and allocates nothing. CHUNKBYTES caps
 * one SCANDUMP chunk (default 16 MiB). RESTOREBYTES caps the chunks
 * LOADCHUNK restores in progress hold (default MAXBYTES + 1 MiB) and
 * RESTORETIMEOUT drops a restore that many seconds after its last chunk
 * (default 60). NAME bf registers the module as RedisBloom names itself
 * (MODULE LIST, config prefix), for tools that look for it by name.
 * RedisBloom's configs (fkr.h, config.c) may follow as name value pairs.
 */
#include "commands.h"
#include "type.h"
#include "../common/version.h"

#define FKR_MODULE_NAME    "filterkit"
/* MODULE LIST's "ver": the release, as RedisBloom numbers its own
 * (MAJOR * 10000 + MINOR * 100 + PATCH: 0.2.0 is 200). */
#define FKR_MODULE_VERSION FK_VERSION_NUMBER

typedef struct {
    const char *name;
    rm_cmd_fn   fn;
    const char *flags;
    int         firstkey; /* 1 for every keyed command, 0 for FK.KINDS */
    int         lastkey;  /* firstkey, but 2 for FK.MERGE (dest, src) */
} command;

/* Writes that may allocate are "deny-oom"; O(1)-per-key work is "fast". */
static const command commands[] = {
    { "BF.RESERVE",  fkr_bf_reserve,  "write deny-oom",      1, 1 },
    { "BF.ADD",      fkr_bf_add,      "write deny-oom fast", 1, 1 },
    { "BF.MADD",     fkr_bf_madd,     "write deny-oom",      1, 1 },
    { "BF.INSERT",   fkr_bf_insert,   "write deny-oom",      1, 1 },
    { "BF.EXISTS",   fkr_bf_exists,   "readonly fast",      1, 1 },
    { "BF.MEXISTS",  fkr_bf_mexists,  "readonly fast",      1, 1 },
    { "BF.INFO",     fkr_bf_info,     "readonly fast",      1, 1 },
    { "BF.DEBUG",    fkr_bf_debug,    "readonly",           1, 1 },
    { "BF.CARD",     fkr_bf_card,     "readonly fast",      1, 1 },
    { "BF.SCANDUMP", fkr_bf_scandump, "readonly",           1, 1 },
    { "BF.LOADCHUNK", fkr_bf_loadchunk, "write deny-oom",    1, 1 },
    { "CF.RESERVE",  fkr_cf_reserve,  "write deny-oom",      1, 1 },
    { "CF.ADD",      fkr_cf_add,      "write deny-oom fast", 1, 1 },
    { "CF.ADDNX",    fkr_cf_addnx,    "write deny-oom fast", 1, 1 },
    { "CF.INSERT",   fkr_cf_insert,   "write deny-oom",      1, 1 },
    { "CF.INSERTNX", fkr_cf_insertnx, "write deny-oom",      1, 1 },
    { "CF.EXISTS",   fkr_cf_exists,   "readonly fast",      1, 1 },
    { "CF.MEXISTS",  fkr_cf_mexists,  "readonly fast",      1, 1 },
    { "CF.DEL",      fkr_cf_del,      "write fast",         1, 1 },
    { "CF.COUNT",    fkr_cf_count,    "readonly fast",      1, 1 },
    { "CF.INFO",     fkr_cf_info,     "readonly fast",      1, 1 },
    { "CF.DEBUG",    fkr_cf_debug,    "readonly fast",      1, 1 },
    { "CF.COMPACT",  fkr_cf_compact,  "write",              1, 1 },
    { "CF.SCANDUMP", fkr_cf_scandump, "readonly",           1, 1 },
    { "CF.LOADCHUNK", fkr_cf_loadchunk, "write deny-oom",    1, 1 },
    { "FK.RESERVE",  fkr_fk_reserve,  "write deny-oom",      1, 1 },
    { "FK.ADD",      fkr_fk_add,      "write deny-oom fast", 1, 1 },
    { "FK.MADD",     fkr_fk_madd,     "write deny-oom",      1, 1 },
    { "FK.EXISTS",   fkr_fk_exists,   "readonly fast",      1, 1 },
    { "FK.MEXISTS",  fkr_fk_mexists,  "readonly fast",      1, 1 },
    { "FK.DEL",      fkr_fk_del,      "write fast",         1, 1 },
    { "FK.COUNT",    fkr_fk_count,    "readonly fast",      1, 1 },
    { "FK.INFO",     fkr_fk_info,     "readonly",           1, 1 }, /* stats may scan */
    { "FK.DUMP",     fkr_fk_dump,     "readonly",           1, 1 },
    { "FK.LOAD",     fkr_fk_load,     "write deny-oom",      1, 1 },
    { "FK.MERGE",    fkr_fk_merge,    "write deny-oom",      1, 2 },
    { "FK.GROW",     fkr_fk_grow,     "write deny-oom",      1, 1 },
    { "FK.KINDS",    fkr_fk_kinds,    "readonly fast",      0, 0 },
    { "FK.ADVANCE",  fkr_fk_advance,  "write",              1, 1 }, /* may sweep */
};

/* Module arguments: MAXBYTES n, CHUNKBYTES n, RESTOREBYTES n,
 * RESTORETIMEOUT seconds. */
static int parse_args(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    int restore_bytes_given = 0;
    for (int i = 0; i < argc; i++) {
        long long n;
        int cfg;
        if (fkr_arg_is(argv[i], "MAXBYTES") && i + 1 < argc &&
            fkr_arg_int(argv[i + 1], 1, (long long)FK_MEMORY_CAP, &n) == RM_OK) {
            fkr_max_bytes = (uint64_t)n;
            i++;
        } else if (fkr_arg_is(argv[i], "CHUNKBYTES") && i + 1 < argc &&
                   fkr_arg_int(argv[i + 1], (long long)FKR_MIN_CHUNK_BYTES, 1LL << 30, &n) == RM_OK) {
            fkr_chunk_bytes = (uint64_t)n;
            i++;
        } else if (fkr_arg_is(argv[i], "RESTOREBYTES") && i + 1 < argc &&
                   fkr_arg_int(argv[i + 1], 1, (long long)FK_MEMORY_CAP, &n) == RM_OK) {
            fkr_restore_bytes = (uint64_t)n;
            restore_bytes_given = 1;
            i++;
        } else if (fkr_arg_is(argv[i], "RESTORETIMEOUT") && i + 1 < argc &&
                   fkr_arg_int(argv[i + 1], 1, FKR_MAX_RESTORE_TIMEOUT_S, &n) == RM_OK) {
            fkr_restore_timeout_s = (uint64_t)n;
            i++;
        } else if (fkr_arg_is(argv[i], "NAME") && i + 1 < argc) {
            i++; /* taken by module_name() */
        } else if (i + 1 < argc && (cfg = fkr_config_arg(ctx, argv[i], argv[i + 1])) != 0) {
            if (cfg < 0)
                return RM_ERR;
            i++;
        } else {
            rm_Log(ctx, "warning", "filterkit: bad module argument (expected: MAXBYTES 1..%llu, "
                   "CHUNKBYTES %llu..%llu, RESTOREBYTES 1..%llu, RESTORETIMEOUT 1..%d, "
                   "NAME filterkit|bf, or a config: bf-error-rate, bf-initial-size, "
                   "bf-expansion-factor, cf-bucket-size, cf-initial-size, cf-max-iterations, "
                   "cf-expansion-factor, cf-max-expansions, INITIAL_SIZE, ERROR_RATE, "
                   "CF_MAX_EXPANSIONS)",
                   (unsigned long long)FK_MEMORY_CAP, (unsigned long long)FKR_MIN_CHUNK_BYTES,
                   1ULL << 30, (unsigned long long)FK_MEMORY_CAP, FKR_MAX_RESTORE_TIMEOUT_S);
            return RM_ERR;
        }
    }
    if (!restore_bytes_given) /* room for one dump of the largest key */
        fkr_restore_bytes = fkr_max_bytes + FKR_RESTORE_SLACK;
    return RM_OK;
}

/* The module's name (MODULE LIST, and the prefix of its configs):
 * "filterkit", or "bf" with the argument NAME bf, for tools that look for
 * RedisBloom by its name. NULL for any other NAME. */
static const char *module_name(RedisModuleString **argv, int argc)
{
    const char *name = FKR_MODULE_NAME;
    for (int i = 0; i + 1 < argc; i++) {
        if (!fkr_arg_is(argv[i], "NAME"))
            continue;
        if (fkr_arg_is(argv[i + 1], "bf"))
            name = "bf";
        else if (!fkr_arg_is(argv[i + 1], FKR_MODULE_NAME))
            return NULL;
    }
    return name;
}

/* The entry point Redis looks up by name (the module API's contract). */
__attribute__((visibility("default")))
int RedisModule_OnLoad(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);

__attribute__((visibility("default")))
int RedisModule_OnLoad(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)
{
    if (rm_api_init(ctx) != RM_OK)
        return RM_ERR; /* a server without the Redis 7.0 module API */
    const char *name = module_name(argv, argc);
    if (!name) {
        rm_Log(ctx, "warning", "filterkit: NAME must be filterkit or bf");
        return RM_ERR;
    }
    if (rm_IsModuleNameBusy(name))
        return RM_ERR;
    rm_SetModuleAttribs(ctx, name, FKR_MODULE_VERSION, RM_APIVER_1);
    if (parse_args(ctx, argv, argc) != RM_OK || fkr_config_register(ctx) != RM_OK)
        return RM_ERR;
    rm_SetModuleOptions(ctx, RM_OPTIONS_HANDLE_IO_ERRORS);
    if (fkr_type_register(ctx) != RM_OK || fkr_restores_init(ctx) != RM_OK)
        return RM_ERR;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        const command *c = &commands[i];
        if (rm_CreateCommand(ctx, c->name, c->fn, c->flags, c->firstkey, c->lastkey,
                             c->firstkey) != RM_OK)
            return RM_ERR;
        (void)fkr_command_docs_set(ctx, c->name); /* undocumented still works */
    }
    return RM_OK;
}
