/* redis/rm_api.c: resolves the Redis module API by name (see rm_api.h). */
#include "rm_api.h"

#include <string.h>

/* The storage for each pointer: one line per function of rm_api.h. */
void (*rm_SetModuleAttribs)(RedisModuleCtx *, const char *, int, int);
int (*rm_IsModuleNameBusy)(const char *);
void (*rm_SetModuleOptions)(RedisModuleCtx *, int);
int (*rm_CreateCommand)(RedisModuleCtx *, const char *, rm_cmd_fn, const char *, int, int, int);
RedisModuleType *(*rm_CreateDataType)(RedisModuleCtx *, const char *, int, rm_type_methods *);
void (*rm_Log)(RedisModuleCtx *, const char *, const char *, ...);
void (*rm_LogIOError)(RedisModuleIO *, const char *, const char *, ...);
RedisModuleKey *(*rm_OpenKey)(RedisModuleCtx *, RedisModuleString *, int);
void (*rm_CloseKey)(RedisModuleKey *);
int (*rm_KeyType)(RedisModuleKey *);
RedisModuleType *(*rm_ModuleTypeGetType)(RedisModuleKey *);
void *(*rm_ModuleTypeGetValue)(RedisModuleKey *);
int (*rm_ModuleTypeSetValue)(RedisModuleKey *, RedisModuleType *, void *);
int (*rm_WrongArity)(RedisModuleCtx *);
int (*rm_ReplyWithError)(RedisModuleCtx *, const char *);
int (*rm_ReplyWithSimpleString)(RedisModuleCtx *, const char *);
int (*rm_ReplyWithLongLong)(RedisModuleCtx *, long long);
int (*rm_ReplyWithDouble)(RedisModuleCtx *, double);
int (*rm_ReplyWithArray)(RedisModuleCtx *, long);
void (*rm_ReplySetArrayLength)(RedisModuleCtx *, long);
int (*rm_ReplyWithStringBuffer)(RedisModuleCtx *, const char *, size_t);
int (*rm_ReplyWithNull)(RedisModuleCtx *);
int (*rm_ReplyWithBool)(RedisModuleCtx *, int);
int (*rm_ReplyWithMap)(RedisModuleCtx *, long);
int (*rm_GetContextFlags)(RedisModuleCtx *);
int (*rm_ReplicateVerbatim)(RedisModuleCtx *);
const char *(*rm_StringPtrLen)(const RedisModuleString *, size_t *);
int (*rm_StringToLongLong)(const RedisModuleString *, long long *);
int (*rm_StringToDouble)(const RedisModuleString *, double *);
void (*rm_SaveUnsigned)(RedisModuleIO *, uint64_t);
uint64_t (*rm_LoadUnsigned)(RedisModuleIO *);
void (*rm_SaveStringBuffer)(RedisModuleIO *, const char *, size_t);
char *(*rm_LoadStringBuffer)(RedisModuleIO *, size_t *);
int (*rm_IsIOError)(RedisModuleIO *);
void (*rm_EmitAOF)(RedisModuleIO *, const char *, const char *, ...);
void (*rm_DigestAddStringBuffer)(RedisModuleDigest *, const char *, size_t);
void (*rm_DigestEndSequence)(RedisModuleDigest *);
void (*rm_Free)(void *);
void *(*rm_Alloc)(size_t);
void *(*rm_Realloc)(void *, size_t);
int (*rm_GetSelectedDb)(RedisModuleCtx *);
int (*rm_Replicate)(RedisModuleCtx *, const char *, const char *, ...);
long long (*rm_Milliseconds)(void);
int (*rm_SubscribeToServerEvent)(RedisModuleCtx *, rm_event, rm_event_fn);
uint64_t (*rm_CreateTimer)(RedisModuleCtx *, long long, rm_timer_fn, void *);
int (*rm_RegisterInfoFunc)(RedisModuleCtx *, rm_info_fn);
int (*rm_InfoAddSection)(RedisModuleInfoCtx *, const char *);
int (*rm_InfoAddFieldULongLong)(RedisModuleInfoCtx *, const char *, unsigned long long);
int (*rm_RegisterNumericConfig)(RedisModuleCtx *, const char *, long long, unsigned int, long long,
                                long long, rm_config_get_numeric_fn, rm_config_set_numeric_fn,
                                rm_config_apply_fn, void *);
int (*rm_RegisterStringConfig)(RedisModuleCtx *, const char *, const char *, unsigned int,
                               rm_config_get_string_fn, rm_config_set_string_fn,
                               rm_config_apply_fn, void *);
int (*rm_LoadConfigs)(RedisModuleCtx *);
RedisModuleString *(*rm_CreateString)(RedisModuleCtx *, const char *, size_t);
void (*rm_FreeString)(RedisModuleCtx *, RedisModuleString *);

RedisModuleCommand *(*rm_GetCommand)(RedisModuleCtx *, const char *);
int (*rm_SetCommandInfo)(RedisModuleCommand *, const rm_command_info *);

/* Name -> where its address goes. */
#define ENTRY(name) { "RedisModule_" #name, (void **)&rm_##name }
static const struct { const char *name; void **slot; } wanted[] = {
    ENTRY(SetModuleAttribs), ENTRY(IsModuleNameBusy), ENTRY(SetModuleOptions),
    ENTRY(CreateCommand), ENTRY(CreateDataType), ENTRY(Log), ENTRY(LogIOError),
    ENTRY(OpenKey), ENTRY(CloseKey), ENTRY(KeyType), ENTRY(ModuleTypeGetType),
    ENTRY(ModuleTypeGetValue), ENTRY(ModuleTypeSetValue), ENTRY(WrongArity),
    ENTRY(ReplyWithError), ENTRY(ReplyWithSimpleString), ENTRY(ReplyWithLongLong),
    ENTRY(ReplyWithDouble), ENTRY(ReplyWithArray), ENTRY(ReplySetArrayLength), ENTRY(ReplyWithStringBuffer),
    ENTRY(ReplyWithNull), ENTRY(ReplicateVerbatim), ENTRY(StringPtrLen),
    ENTRY(StringToLongLong), ENTRY(StringToDouble), ENTRY(SaveUnsigned),
    ENTRY(LoadUnsigned), ENTRY(SaveStringBuffer), ENTRY(LoadStringBuffer),
    ENTRY(IsIOError), ENTRY(EmitAOF), ENTRY(DigestAddStringBuffer),
    ENTRY(DigestEndSequence), ENTRY(Free), ENTRY(Alloc), ENTRY(Realloc),
    ENTRY(GetSelectedDb), ENTRY(Replicate), ENTRY(Milliseconds), ENTRY(SubscribeToServerEvent),
    ENTRY(CreateTimer), ENTRY(RegisterInfoFunc), ENTRY(InfoAddSection),
    ENTRY(InfoAddFieldULongLong), ENTRY(ReplyWithBool), ENTRY(ReplyWithMap),
    ENTRY(GetContextFlags), ENTRY(RegisterNumericConfig), ENTRY(RegisterStringConfig),
    ENTRY(LoadConfigs), ENTRY(CreateString), ENTRY(FreeString),
};

/* The ones the module does without (NULL when the server lacks one). */
static const struct { const char *name; void **slot; } optional[] = {
    ENTRY(GetCommand), ENTRY(SetCommandInfo),
};

int rm_api_init(RedisModuleCtx *ctx)
{
    /* The documented ABI: the context's first word is RedisModule_GetApi. */
    int (*get_api)(const char *, void *);
    void *first = *(void **)ctx;
    _Static_assert(sizeof first == sizeof get_api, "function and data pointers differ in size");
    memcpy(&get_api, &first, sizeof get_api);
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        if (get_api(wanted[i].name, wanted[i].slot) != RM_OK || *wanted[i].slot == NULL)
            return RM_ERR;
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
        if (get_api(optional[i].name, optional[i].slot) != RM_OK)
            *optional[i].slot = NULL;
    return RM_OK;
}
