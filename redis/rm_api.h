/* redis/rm_api.h: the part of the Redis module API (Redis 7.0, API
 * version 1) this module uses, declared from the documented API reference
 * (https://redis.io/docs/reference/modules/modules-api-ref/).
 *
 * Why not Redis's own header: it ships in no Debian binary package, and
 * fetching the `redis` source package at build time needs deb-src lines and
 * network. The module ABI is stable and documented: the server passes a
 * context whose first word is the address of RedisModule_GetApi, and every
 * other function is looked up by its name through it. So this file names
 * only the opaque types, constants, callback shapes and functions we call;
 * rm_api_init() resolves them once at load time and refuses to load if
 * any is missing (a server older than 7.0).
 *
 * Functions are reached through rm_* pointers (rm_ReplyWithError is the
 * server's RedisModule_ReplyWithError).
 */
#ifndef FKR_RM_API_H
#define FKR_RM_API_H

#include <stddef.h>
#include <stdint.h>

/* Opaque server objects. */
typedef struct RedisModuleCtx RedisModuleCtx;
typedef struct RedisModuleString RedisModuleString;
typedef struct RedisModuleKey RedisModuleKey;
typedef struct RedisModuleType RedisModuleType;
typedef struct RedisModuleIO RedisModuleIO;
typedef struct RedisModuleDigest RedisModuleDigest;
typedef struct RedisModuleDefragCtx RedisModuleDefragCtx;
typedef struct RedisModuleInfoCtx RedisModuleInfoCtx;

/* Documented constants. */
#define RM_OK  0
#define RM_ERR 1
#define RM_APIVER_1 1
#define RM_READ  (1 << 0)
#define RM_WRITE (1 << 1)
#define RM_KEYTYPE_EMPTY  0
#define RM_KEYTYPE_MODULE 6
#define RM_POSTPONED_ARRAY_LEN (-1L)
#define RM_OPTIONS_HANDLE_IO_ERRORS (1 << 0)
#define RM_ERRORMSG_WRONGTYPE "WRONGTYPE Operation against a key holding the wrong kind of value"
/* RM_GetContextFlags: the server is a primary; a replica; the command
 * came over the replication link (from this server's primary); the server
 * is loading (AOF or RDB); the client speaks RESP3 (HELLO 3). */
#define RM_CTX_FLAGS_MASTER     (1 << 2)
#define RM_CTX_FLAGS_SLAVE      (1 << 3)
#define RM_CTX_FLAGS_REPLICATED (1 << 12)
#define RM_CTX_FLAGS_LOADING    (1 << 13)
#define RM_CTX_FLAGS_RESP3      (1 << 22)
/* RM_Register*Config flags: none (a plain, mutable config). */
#define RM_CONFIG_DEFAULT 0

typedef int (*rm_cmd_fn)(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);

/* Server events (RedisModuleEvent: an id and the version of the data the
 * callback gets) and the two this module follows. */
typedef struct {
    uint64_t id;
    uint64_t dataver;
} rm_event;
#define RM_EVENT_REPLICATION_ROLE_CHANGED 0
#define RM_EVENT_FLUSHDB 2
#define RM_SUBEVENT_FLUSHDB_START 0
#define RM_EVENT_REPLROLECHANGED_NOW_REPLICA 1
/* RedisModuleFlushInfo, version 1: the database flushed, -1 for all. */
typedef struct {
    uint64_t version;
    int32_t  sync;
    int32_t  dbnum;
} rm_flush_info;
typedef void (*rm_event_fn)(RedisModuleCtx *ctx, rm_event eid, uint64_t subevent, void *data);
typedef void (*rm_timer_fn)(RedisModuleCtx *ctx, void *data);
typedef void (*rm_info_fn)(RedisModuleInfoCtx *ctx, int for_crash_report);

/* RedisModuleTypeMethods, method-table version 3 (Redis >= 6.2): the
 * server reads the slots up to `defrag` and no further. */
#define RM_TYPE_METHOD_VERSION 3
typedef struct {
    uint64_t version;
    void *(*rdb_load)(RedisModuleIO *rdb, int encver);
    void (*rdb_save)(RedisModuleIO *rdb, void *value);
    void (*aof_rewrite)(RedisModuleIO *aof, RedisModuleString *key, void *value);
    size_t (*mem_usage)(const void *value);
    void (*digest)(RedisModuleDigest *digest, void *value);
    void (*free)(void *value);
    int (*aux_load)(RedisModuleIO *rdb, int encver, int when);
    void (*aux_save)(RedisModuleIO *rdb, int when);
    int aux_save_triggers;
    size_t (*free_effort)(RedisModuleString *key, const void *value);
    void (*unlink)(RedisModuleString *key, const void *value);
    void *(*copy)(RedisModuleString *fromkey, RedisModuleString *tokey, const void *value);
    int (*defrag)(RedisModuleDefragCtx *ctx, RedisModuleString *key, void **value);
} rm_type_methods;

/* The functions (see the API reference for each). */
extern void (*rm_SetModuleAttribs)(RedisModuleCtx *ctx, const char *name, int ver, int apiver);
extern int (*rm_IsModuleNameBusy)(const char *name);
extern void (*rm_SetModuleOptions)(RedisModuleCtx *ctx, int options);
extern int (*rm_CreateCommand)(RedisModuleCtx *ctx, const char *name, rm_cmd_fn fn,
                               const char *flags, int firstkey, int lastkey, int keystep);
extern RedisModuleType *(*rm_CreateDataType)(RedisModuleCtx *ctx, const char *name, int encver,
                                             rm_type_methods *methods);
extern void (*rm_Log)(RedisModuleCtx *ctx, const char *level, const char *fmt, ...);
extern void (*rm_LogIOError)(RedisModuleIO *io, const char *level, const char *fmt, ...);

extern RedisModuleKey *(*rm_OpenKey)(RedisModuleCtx *ctx, RedisModuleString *name, int mode);
extern void (*rm_CloseKey)(RedisModuleKey *key);
extern int (*rm_KeyType)(RedisModuleKey *key);
extern RedisModuleType *(*rm_ModuleTypeGetType)(RedisModuleKey *key);
extern void *(*rm_ModuleTypeGetValue)(RedisModuleKey *key);
extern int (*rm_ModuleTypeSetValue)(RedisModuleKey *key, RedisModuleType *mt, void *value);

extern int (*rm_WrongArity)(RedisModuleCtx *ctx);
extern int (*rm_ReplyWithError)(RedisModuleCtx *ctx, const char *err);
extern int (*rm_ReplyWithSimpleString)(RedisModuleCtx *ctx, const char *msg);
extern int (*rm_ReplyWithLongLong)(RedisModuleCtx *ctx, long long ll);
extern int (*rm_ReplyWithDouble)(RedisModuleCtx *ctx, double d);
extern int (*rm_ReplyWithArray)(RedisModuleCtx *ctx, long len);
extern void (*rm_ReplySetArrayLength)(RedisModuleCtx *ctx, long len);
extern int (*rm_ReplyWithStringBuffer)(RedisModuleCtx *ctx, const char *buf, size_t len);
extern int (*rm_ReplyWithNull)(RedisModuleCtx *ctx);
extern int (*rm_ReplyWithBool)(RedisModuleCtx *ctx, int b);
extern int (*rm_ReplyWithMap)(RedisModuleCtx *ctx, long len);
extern int (*rm_GetContextFlags)(RedisModuleCtx *ctx);
extern int (*rm_ReplicateVerbatim)(RedisModuleCtx *ctx);

extern const char *(*rm_StringPtrLen)(const RedisModuleString *s, size_t *len);
extern int (*rm_StringToLongLong)(const RedisModuleString *s, long long *ll);
extern int (*rm_StringToDouble)(const RedisModuleString *s, double *d);

extern void (*rm_SaveUnsigned)(RedisModuleIO *io, uint64_t value);
extern uint64_t (*rm_LoadUnsigned)(RedisModuleIO *io);
extern void (*rm_SaveStringBuffer)(RedisModuleIO *io, const char *str, size_t len);
extern char *(*rm_LoadStringBuffer)(RedisModuleIO *io, size_t *len);
extern int (*rm_IsIOError)(RedisModuleIO *io);
extern void (*rm_EmitAOF)(RedisModuleIO *io, const char *cmd, const char *fmt, ...);
extern void (*rm_DigestAddStringBuffer)(RedisModuleDigest *md, const char *ele, size_t len);
extern void (*rm_DigestEndSequence)(RedisModuleDigest *md);
extern void (*rm_Free)(void *ptr);
extern void *(*rm_Alloc)(size_t bytes);
extern void *(*rm_Realloc)(void *ptr, size_t bytes);

extern int (*rm_GetSelectedDb)(RedisModuleCtx *ctx);
extern int (*rm_Replicate)(RedisModuleCtx *ctx, const char *cmdname, const char *fmt, ...);
extern long long (*rm_Milliseconds)(void);
extern int (*rm_SubscribeToServerEvent)(RedisModuleCtx *ctx, rm_event event, rm_event_fn callback);
extern uint64_t (*rm_CreateTimer)(RedisModuleCtx *ctx, long long period_ms, rm_timer_fn callback,
                                  void *data);
extern int (*rm_RegisterInfoFunc)(RedisModuleCtx *ctx, rm_info_fn cb);
extern int (*rm_InfoAddSection)(RedisModuleInfoCtx *ctx, const char *name);
extern int (*rm_InfoAddFieldULongLong)(RedisModuleInfoCtx *ctx, const char *field,
                                       unsigned long long value);

/* Module configuration (Redis 7.0): CONFIG SET/GET <module>.<name>. */
typedef long long (*rm_config_get_numeric_fn)(const char *name, void *privdata);
typedef int (*rm_config_set_numeric_fn)(const char *name, long long val, void *privdata,
                                        RedisModuleString **err);
typedef RedisModuleString *(*rm_config_get_string_fn)(const char *name, void *privdata);
typedef int (*rm_config_set_string_fn)(const char *name, RedisModuleString *val, void *privdata,
                                       RedisModuleString **err);
typedef int (*rm_config_apply_fn)(RedisModuleCtx *ctx, void *privdata, RedisModuleString **err);
extern int (*rm_RegisterNumericConfig)(RedisModuleCtx *ctx, const char *name, long long default_val,
                                       unsigned int flags, long long min, long long max,
                                       rm_config_get_numeric_fn getfn,
                                       rm_config_set_numeric_fn setfn, rm_config_apply_fn applyfn,
                                       void *privdata);
extern int (*rm_RegisterStringConfig)(RedisModuleCtx *ctx, const char *name, const char *default_val,
                                      unsigned int flags, rm_config_get_string_fn getfn,
                                      rm_config_set_string_fn setfn, rm_config_apply_fn applyfn,
                                      void *privdata);
extern int (*rm_LoadConfigs)(RedisModuleCtx *ctx);
extern RedisModuleString *(*rm_CreateString)(RedisModuleCtx *ctx, const char *ptr, size_t len);
extern void (*rm_FreeString)(RedisModuleCtx *ctx, RedisModuleString *str);

/* Command documentation (Redis 7.0: COMMAND DOCS, COMMAND INFO), from the
 * API reference of RedisModule_SetCommandInfo. The server reads these
 * structs with the sizes the version struct gives, so each layout is the
 * documented one, field for field. Optional: rm_GetCommand and
 * rm_SetCommandInfo stay NULL on a server without them (rm_api_init
 * does not refuse to load), and the commands then work undocumented. */
typedef struct RedisModuleCommand RedisModuleCommand;
typedef struct {
    int version; /* 1 */
    size_t sizeof_historyentry;
    size_t sizeof_keyspec;
    size_t sizeof_arg;
} rm_command_info_version;
typedef struct {
    const char *since;
    const char *changes;
} rm_command_history_entry;
typedef struct {
    const char *notes;
    uint64_t flags;
    int begin_search_type;
    union {
        struct { int pos; } index;
        struct { const char *keyword; int startfrom; } keyword;
    } bs;
    int find_keys_type;
    union {
        struct { int lastkey, keystep, limit; } range;
        struct { int keynumidx, firstkey, keystep; } keynum;
    } fk;
} rm_command_key_spec;
/* RedisModuleCommandArgType */
#define RM_ARG_TYPE_STRING     0
#define RM_ARG_TYPE_INTEGER    1
#define RM_ARG_TYPE_DOUBLE     2
#define RM_ARG_TYPE_KEY        3
#define RM_ARG_TYPE_PURE_TOKEN 6
#define RM_ARG_TYPE_ONEOF      7
#define RM_ARG_TYPE_BLOCK      8
/* RedisModuleCommandArg flags */
#define RM_CMD_ARG_OPTIONAL (1 << 0)
#define RM_CMD_ARG_MULTIPLE (1 << 1)
typedef struct rm_command_arg {
    const char *name;
    int type;           /* RM_ARG_TYPE_* */
    int key_spec_index; /* a KEY: the key spec (0: the one RM_CreateCommand made); else -1 */
    const char *token;
    const char *summary;
    const char *since;
    int flags;          /* RM_CMD_ARG_* */
    const char *deprecated_since;
    const struct rm_command_arg *subargs; /* ONEOF, BLOCK: ends with a zeroed entry */
    const char *display_text;
} rm_command_arg;
typedef struct {
    const rm_command_info_version *version;
    const char *summary;
    const char *complexity;
    const char *since;
    const rm_command_history_entry *history;
    const char *tips;
    int arity; /* N: exactly N words with the name; -N: at least N */
    const rm_command_key_spec *key_specs;
    const rm_command_arg *args; /* ends with a zeroed entry */
} rm_command_info;
extern RedisModuleCommand *(*rm_GetCommand)(RedisModuleCtx *ctx, const char *name);
extern int (*rm_SetCommandInfo)(RedisModuleCommand *command, const rm_command_info *info);

/* Resolves every function above through the context's RedisModule_GetApi.
 * Returns RM_OK, or RM_ERR when one is missing (nothing else is touched);
 * the optional ones (rm_GetCommand, rm_SetCommandInfo) are left NULL when
 * the server lacks them.
 * Call once, first thing in RedisModule_OnLoad. */
int rm_api_init(RedisModuleCtx *ctx);

#endif
