#!/usr/bin/env bash
# tests/redis/cli_redis_reads.sh: reads never write (issue 48). A read of a time
# window key (FK.EXISTS, FK.MEXISTS, FK.COUNT, FK.INFO, also through
# EVAL_RO) answers as of the server's clock without changing the key or
# propagating anything, so Redis may run it while writes are paused. A
# primary (AOF on) and a replica (propagation-error-behavior panic) on
# loopback; prints `N passed, N failed`; skips without redis-server.
#  - CLIENT PAUSE WRITE with reads of a time window whose boundary has
#    passed since its last write: the server stays up, the reads answer
#    (a key inside its window 1, then, still paused, past its window 0,
#    FK.INFO as of now), the key's digest, the AOF and the replica are
#    unchanged; every read-only command of the module runs;
#  - FAILOVER with reads in flight (the replica stopped for a moment, so
#    the primary waits with writes paused while the reads arrive):
#    the failover completes, both servers are up, roles swapped, and
#    DEBUG DIGEST and DEBUG DIGEST-VALUE are equal on both.
# Before the fix the first paused read propagated FK.ADVANCE and the
# server stopped at "ASSERTION FAILED" (server.c, propagation while
# paused).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
redis_lib_init || exit 77

start_server p --appendonly yes || exit 1
start_server r --propagation-error-behavior panic || exit 1
rc r REPLICAOF 127.0.0.1 "$port_p" >/dev/null
insync() { # NAME: the replica NAME is connected and synced
    rc "$1" INFO replication | grep -q '^master_link_status:up' &&
        rc "$1" INFO replication | grep -q '^master_sync_in_progress:0'
}
for _ in $(seq 1 600); do insync r && break; sleep 0.1; done
check "the replica is in sync" insync r

up() { test "$(rc "$1" PING 2>/dev/null)" = PONG; }
# advances NAME: FK.ADVANCE commands in NAME's AOF files (what it propagated)
advances() {
    local d="dir_$1"
    cat "${!d}"/appendonlydir/*.aof 2>/dev/null | tr -d '\r' | grep -c -i '^fk.advance$'
}
# info NAME KEY FIELD: one FK.INFO field (RESP2: name and value lines)
info() { rc "$1" FK.INFO "$2" | awk -v f="$3" 'p { print; exit } $0 == f { p = 1 }'; }
# digests NAME: DEBUG DIGEST and every key's DEBUG DIGEST-VALUE
digests() {
    local k
    echo "all $(rc "$1" DEBUG DIGEST)"
    for k in $(rc "$1" KEYS '*' | sort); do echo "$k $(rc "$1" DEBUG DIGEST-VALUE "$k")"; done
}
same_both() { # DESC: the replica caught up; both hold the same keys, bit for bit
    rc p WAIT 1 20000 >/dev/null
    for _ in $(seq 1 100); do
        digests p >"$tmp/dp"; digests r >"$tmp/dr"
        cmp -s "$tmp/dp" "$tmp/dr" && break
        sleep 0.05
    done
    check "$1 ($(diff "$tmp/dp" "$tmp/dr" | grep -c '^>') lines differ)" cmp -s "$tmp/dp" "$tmp/dr"
}

# ------------------------------------------- reads during CLIENT PAUSE WRITE
# T = 2 s (D = 286 ms) on the server's clock; other keys of every family
{
    echo "FK.RESERVE tw window 0.01 100 SECONDS 2"
    echo "FK.RESERVE cw window 0.01 100"
    echo "FK.ADD cw a"
    echo "BF.ADD bf a"
    echo "CF.ADD cf a"
    echo "FK.RESERVE fk quotient 0.01 1000"
    echo "FK.ADD fk a"
} | rc p >/dev/null
same_both "after the writes"
rc p FK.MADD tw a b c >/dev/null # the window's clock starts here
adv0=$(advances p)
check "the write propagated the key's time ($adv0 FK.ADVANCE in the AOF)" test "$adv0" -ge 1
d0=$(rc p DEBUG DIGEST-VALUE tw)
sleep 0.7 # past two generation boundaries since the last write
check "CLIENT PAUSE WRITE" test "$(rc p CLIENT PAUSE 10000 WRITE)" = OK
batch p <<'SPEC'
FK.EXISTS tw a => 1
FK.EXISTS tw never-added => 0
FK.MEXISTS tw a b c never-added => 1|1|1|0
FK.COUNT tw a => 1
EVAL_RO "return redis.call('FK.EXISTS', KEYS[1], 'a')" 1 tw => 1
EVAL_RO "return redis.call('FK.MEXISTS', KEYS[1], 'a', 'x')" 1 tw => 1|0
EVAL_RO "return redis.call('FK.COUNT', KEYS[1], 'b')" 1 tw => 1
FK.INFO tw => ~kind|window|family|fk|capacity|100|items|3|
FK.EXISTS cw a => 1
BF.EXISTS bf a => 1
BF.MEXISTS bf a x => 1|0
BF.CARD bf => 1
CF.EXISTS cf a => 1
CF.MEXISTS cf a x => 1|0
CF.COUNT cf a => 1
FK.EXISTS fk a => 1
FK.KINDS => ~bloom|
SPEC
check "the server is up after paused reads of a window past a boundary" up p
for c in "BF.INFO bf" "BF.DEBUG bf" "BF.SCANDUMP bf 0" "CF.INFO cf" "CF.DEBUG cf" "CF.SCANDUMP cf 0" \
         "FK.INFO fk" "FK.DUMP tw" "FK.INFO cw"; do
    rc p $c >/dev/null 2>&1
done
check "... and after every other read-only command of the module" up p
sleep 1.7 # past T (1 + 1/7) since the last write, still paused
batch p <<'SPEC'
FK.EXISTS tw a => 0
FK.MEXISTS tw a b c => 0|0|0
FK.COUNT tw c => 0
EVAL_RO "return redis.call('FK.EXISTS', KEYS[1], 'a')" 1 tw => 0
FK.EXISTS cw a => 1
SPEC
check "paused, past its window: FK.INFO as of now (items 0, 8 generations on: $(info p tw generation))" \
    test "$(info p tw items)" = 0 -a "$(info p tw generation)" -ge 8
check "FK.INFO now_ms is the server's time" \
    test "$(info p tw now_ms)" -ge "$(( $(date +%s%3N) - 3000 ))"
check "the server is still up" up p
check "the key is unchanged (a read never writes)" test "$(rc p DEBUG DIGEST-VALUE tw)" = "$d0"
check "the reads propagated nothing ($(advances p) FK.ADVANCE in the AOF, $adv0 before)" \
    test "$(advances p)" = "$adv0"
rc p CLIENT UNPAUSE >/dev/null
check "the replica is up" up r
check "the replica logged no error from its primary" \
    test "$(grep -c -E 'CRITICAL|sending an error' "$dir_r/log")" = 0
same_both "after the paused reads: primary and replica alike"
check "the replica answers as of the last replicated time" test "$(rc r FK.EXISTS tw a)" = 1
check "unpaused, reads still change nothing" \
    test "$(rc p FK.EXISTS tw a)$(rc p DEBUG DIGEST-VALUE tw)" = "0$d0"

# ------------------------------------------------ FAILOVER, reads in flight
# a fresh boundary since the last write, nothing read since
rc p FK.ADD tw d >/dev/null
same_both "before the failover"
sleep 0.4
# reads from a background client for the whole failover (bounded)
reader() {
    local i
    for i in $(seq 1 300); do
        printf 'FK.EXISTS tw d\nFK.MEXISTS tw a d\nFK.INFO tw\nFK.COUNT tw d\n'
        printf "EVAL_RO \"return redis.call('FK.EXISTS', KEYS[1], 'd')\" 1 tw\n"
    done | timeout 30 redis-cli -h 127.0.0.1 -p "$port_p" >"$tmp/reader.out" 2>&1
}
reader &
reader_pid=$!
# the replica stopped for a moment: the primary waits for it with writes
# paused (master_failover_state waiting-for-sync) while the reads arrive
kill -STOP "$pid_r"
rc p BF.ADD lag x >/dev/null # (a write the replica has not acknowledged)
fo=$(rc p FAILOVER TIMEOUT 10000)
check "FAILOVER accepted ($fo)" test "$fo" = OK
state=$(rc p INFO replication | tr -d '\r' | awk -F: '$1 == "master_failover_state" { print $2 }')
check "the primary waits for its replica, writes paused ($state)" test "$state" = waiting-for-sync
for i in $(seq 1 20); do
    printf 'FK.EXISTS tw d\nFK.MEXISTS tw a d\nFK.INFO tw\nFK.COUNT tw d\n'
    printf "EVAL_RO \"return redis.call('FK.EXISTS', KEYS[1], 'd')\" 1 tw\n"
done | rc p >"$tmp/paused.out" 2>&1
check "reads during the failover's pause answer ($(grep -c '^1$' "$tmp/paused.out") ones)" \
    test "$(grep -c '^1$' "$tmp/paused.out")" -ge 60
check "the primary is up during the failover" up p
kill -CONT "$pid_r"
done_fo=0
for _ in $(seq 1 200); do
    if rc p INFO replication | grep -q '^role:slave' && rc r INFO replication | grep -q '^role:master' &&
        insync p; then
        done_fo=1; break
    fi
    sleep 0.1
done
wait "$reader_pid"
check "the failover completed: roles swapped, the old primary in sync" test "$done_fo" = 1
check "both servers are up" sh -c "redis-cli -p $port_p PING | grep -q PONG && redis-cli -p $port_r PING | grep -q PONG"
check "the reads in flight were answered ($(grep -c -v -e '^[01]$' -e '^ERR' "$tmp/reader.out") other lines)" \
    test "$(grep -c -E '^(0|1)$' "$tmp/reader.out")" -ge 300
# the new primary's (r) digest, then the old one's (now its replica)
rc r WAIT 1 20000 >/dev/null
for _ in $(seq 1 100); do
    digests r >"$tmp/dr"; digests p >"$tmp/dp"
    cmp -s "$tmp/dp" "$tmp/dr" && break
    sleep 0.05
done
check "after the failover DEBUG DIGEST and every DEBUG DIGEST-VALUE are equal ($(diff "$tmp/dp" "$tmp/dr" | grep -c '^>') differ)" \
    cmp -s "$tmp/dp" "$tmp/dr"
dn=$(rc r DEBUG DIGEST-VALUE tw)
rc r FK.MEXISTS tw a b c d >/dev/null; rc r FK.INFO tw >/dev/null
check "the new primary's reads change nothing either" test "$(rc r DEBUG DIGEST-VALUE tw)" = "$dn"
check "no server logged an assertion" \
    test "$(cat "$dir_p/log" "$dir_r/log" | grep -c 'ASSERTION FAILED')" = 0

redis_lib_done
