#!/usr/bin/env bash
# tests/redis/cli_redis_docs.sh: the module documents its commands to the server
# (RedisModule_SetCommandInfo; redis/docs.c). On one real redis-server:
#  - COMMAND DOCS BF.ADD and COMMAND DOCS FK.ADD answer with a summary, the
#    release the command came in (since), and its arguments;
#  - every command the module registers (COMMAND LIST FILTERBY MODULE) has
#    a summary, so a new command without docs fails here;
#  - COMMAND INFO gives the arity the command checks (BF.ADD 3, BF.MADD -3),
#    and the server's own arity check answers as the command did;
#  - BF.INSERT's documented arguments name its ITEMS token.
# Prints `N passed, N failed`; skips (77) without redis-server.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
redis_lib_init || exit 77

start_server a || exit 1

# docs_of CMD: COMMAND DOCS CMD's reply, one word a line
docs_of() { rc a COMMAND DOCS "$1" | tr -d '\r'; }
# field_after CMD FIELD: the line after the first line FIELD in the docs
field_after() { docs_of "$1" | awk -v f="$2" 'hit { print; exit } $0 == f { hit = 1 }'; }

for cmd in BF.ADD FK.ADD; do
    s=$(field_after "$cmd" summary)
    if [ -n "$s" ]; then ok; else bad "COMMAND DOCS $cmd: no summary"; fi
    since=$(field_after "$cmd" since)
    if [ "$since" = 0.2.0 ]; then ok; else bad "COMMAND DOCS $cmd: since '$since', want 0.2.0"; fi
    if docs_of "$cmd" | grep -qx arguments; then ok; else bad "COMMAND DOCS $cmd: no arguments"; fi
done
case "$(field_after BF.ADD summary)" in
    *Bloom*) ok ;;
    *) bad "BF.ADD's summary does not say Bloom: $(field_after BF.ADD summary)" ;;
esac

# every registered command is documented
cmds=$(rc a COMMAND LIST FILTERBY MODULE filterkit | tr -d '\r')
n=$(printf '%s\n' "$cmds" | grep -c .)
if [ "$n" -ge 39 ]; then ok; else bad "COMMAND LIST FILTERBY MODULE filterkit: $n commands, want 39 or more"; fi
missing=""
for c in $cmds; do
    [ -n "$(field_after "$c" summary)" ] || missing="$missing $c"
done
if [ -z "$missing" ]; then ok; else bad "commands without a summary:$missing"; fi

# arity, and the server's check before the module's
arity() { rc a COMMAND INFO "$1" | tr -d '\r' | sed -n 2p; }
[ "$(arity BF.ADD)" = 3 ] && ok || bad "COMMAND INFO BF.ADD arity '$(arity BF.ADD)', want 3"
[ "$(arity BF.MADD)" = -3 ] && ok || bad "COMMAND INFO BF.MADD arity '$(arity BF.MADD)', want -3"
[ "$(arity FK.KINDS)" = 1 ] && ok || bad "COMMAND INFO FK.KINDS arity '$(arity FK.KINDS)', want 1"
expect "BF.ADD with one word too few" "ERR wrong number of arguments for 'BF.ADD' command" a BF.ADD k
expect "BF.ADD still adds" 1 a BF.ADD k x

# an option's token is documented
if docs_of BF.INSERT | grep -qx ITEMS; then ok; else bad "COMMAND DOCS BF.INSERT does not name ITEMS"; fi

redis_lib_done
