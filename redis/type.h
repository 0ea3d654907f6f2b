/* redis/type.h: registering the "filterkit" data type (type.c). */
#ifndef FKR_TYPE_H
#define FKR_TYPE_H

#include "fkr.h"

/* The type's name (Redis wants exactly 9 characters) and the encoding
 * version its RDB payloads carry (bump it with value.h's layout). */
#define FKR_TYPE_NAME "filterkit"
#define FKR_ENCVER    1

/* Creates the data type into fkr_type. RM_OK or RM_ERR. Call from
 * RedisModule_OnLoad only. */
int fkr_type_register(RedisModuleCtx *ctx);

#endif
