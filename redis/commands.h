/* redis/commands.h: the command handlers (cmd_bf.c, cmd_cf.c, cmd_fk.c)
 * that module.c registers. Each has Redis's command signature, replies to
 * the client and returns RM_OK. */
#ifndef FKR_COMMANDS_H
#define FKR_COMMANDS_H

#include "fkr.h"

#define FKR_COMMAND(name) int name(RedisModuleCtx *ctx, RedisModuleString **argv, int argc)

FKR_COMMAND(fkr_bf_reserve);
FKR_COMMAND(fkr_bf_add);
FKR_COMMAND(fkr_bf_madd);
FKR_COMMAND(fkr_bf_insert);
FKR_COMMAND(fkr_bf_exists);
FKR_COMMAND(fkr_bf_mexists);
FKR_COMMAND(fkr_bf_info);
FKR_COMMAND(fkr_bf_card);
FKR_COMMAND(fkr_bf_debug);
FKR_COMMAND(fkr_bf_scandump);   /* cmd_chunk.c */
FKR_COMMAND(fkr_bf_loadchunk);

FKR_COMMAND(fkr_cf_reserve);
FKR_COMMAND(fkr_cf_add);
FKR_COMMAND(fkr_cf_addnx);
FKR_COMMAND(fkr_cf_insert);
FKR_COMMAND(fkr_cf_insertnx);
FKR_COMMAND(fkr_cf_exists);
FKR_COMMAND(fkr_cf_mexists);
FKR_COMMAND(fkr_cf_del);
FKR_COMMAND(fkr_cf_count);
FKR_COMMAND(fkr_cf_info);
FKR_COMMAND(fkr_cf_compact);
FKR_COMMAND(fkr_cf_debug);
FKR_COMMAND(fkr_cf_scandump);   /* cmd_chunk.c */
FKR_COMMAND(fkr_cf_loadchunk);

FKR_COMMAND(fkr_fk_reserve);
FKR_COMMAND(fkr_fk_add);
FKR_COMMAND(fkr_fk_madd);
FKR_COMMAND(fkr_fk_exists);
FKR_COMMAND(fkr_fk_mexists);
FKR_COMMAND(fkr_fk_del);
FKR_COMMAND(fkr_fk_count);
FKR_COMMAND(fkr_fk_info);
FKR_COMMAND(fkr_fk_dump);
FKR_COMMAND(fkr_fk_load);
FKR_COMMAND(fkr_fk_merge);
FKR_COMMAND(fkr_fk_grow);
FKR_COMMAND(fkr_fk_kinds);
FKR_COMMAND(fkr_fk_advance);    /* clock.c */

/* docs.c: gives the server the docs of the command `name` (COMMAND DOCS,
 * COMMAND INFO: summary, cost, since, arity, arguments). RM_OK, also on a
 * server without RedisModule_SetCommandInfo; RM_ERR, logged, when the
 * table has no entry for it or the server refused it (the command works
 * either way). Call right after creating the command. */
int fkr_command_docs_set(RedisModuleCtx *ctx, const char *name);

#endif
