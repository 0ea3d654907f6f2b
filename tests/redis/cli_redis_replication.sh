#!/usr/bin/env bash
# tests/redis/cli_redis_replication.sh: nothing a write does is lost on the way
# to a replica or the AOF. A primary (AOF on, MAXBYTES small so growing
# keys hit the limit) and a replica; after each class of write, every key
# it touched has the same DEBUG DIGEST-VALUE on both and exists on both:
#  - BF/CF/FK writes with every option, auto-created keys (BF.ADD, BF.MADD,
#    BF.INSERT, CF.ADD, CF.ADDNX, CF.INSERT, CF.INSERTNX);
#  - commands that create a key and then fail (RedisBloom PR #1034: a key
#    that existed only on the primary): CF.INSERT / CF.ADD into a new key
#    that fills up or grows past MAXBYTES, BF.INSERT NONSCALING past its
#    capacity, and cf-max-expansions 1 where the module has that config;
#  - a SCANDUMP/LOADCHUNK restore, after every chunk (RedisBloom PR #1014:
#    data chunks that never reached the replica, an empty filter after
#    failover), for a BF and a CF key;
# then a failover (REPLICAOF NO ONE on the replica): every key answers
# every probe as it did on the primary; and an AOF rewrite + restart of
# the primary gives the same DEBUG DIGEST. The replica (with
# propagation-error-behavior panic) must log no error from its primary,
# also for the writes that fail on the primary and are replicated to make
# the same change there (fkr_reply_error). Plain build only (replication
# is Redis's work).
source "$(dirname "$0")/lib.sh"
redis_lib_init || exit 77
if [ "$sanitized" = 1 ]; then
    echo "skipped: replication checks run on the plain build only"
    redis_lib_done >/dev/null
    exit 0
fi
start_server p MAXBYTES 65536 CHUNKBYTES 4096 --appendonly yes || exit 1
start_server r MAXBYTES 65536 CHUNKBYTES 4096 --propagation-error-behavior panic || exit 1
rc r REPLICAOF 127.0.0.1 "$port_p" >/dev/null
for _ in $(seq 1 600); do
    rc r INFO replication | grep -q '^master_link_status:up' &&
        rc r INFO replication | grep -q '^master_sync_in_progress:0' && break
    sleep 0.1
done
check "the replica is in sync" sh -c "redis-cli -p $port_r INFO replication | grep -q '^master_link_status:up'"

items() { # PREFIX FROM TO: items on one line
    seq "$2" "$3" | sed "s/^/$1/" | tr '\n' ' '
}
# same DESC KEY...: the replica has caught up and holds each KEY exactly
# as the primary does (DEBUG DIGEST-VALUE, and EXISTS: a missing key's
# digest is zeros on both)
same() {
    local desc=$1 k dp dr ep er bad_keys=""; shift
    rc p WAIT 1 20000 >/dev/null
    for k in "$@"; do
        for _ in $(seq 1 100); do # (a replica may apply a moment after it acks)
            dp=$(rc p DEBUG DIGEST-VALUE "$k"); dr=$(rc r DEBUG DIGEST-VALUE "$k")
            [ "$dp" = "$dr" ] && break
            sleep 0.05
        done
        ep=$(rc p EXISTS "$k"); er=$(rc r EXISTS "$k")
        if [ "$dp" != "$dr" ] || [ "$ep" != "$er" ]; then
            bad_keys="$bad_keys $k(primary exists=$ep digest=${dp:0:12}, replica exists=$er digest=${dr:0:12})"
        fi
    done
    if [ -z "$bad_keys" ]; then ok; else bad "$desc: differ:$bad_keys"; fi
}
# exists_p DESC KEY: the key exists on the primary (same then compares the replica)
exists_p() { check "$1: the key exists on the primary" test "$(rc p EXISTS "$2")" = 1; }

# ------------------------------------------------------ writes, every option
{
    echo "BF.RESERVE b1 0.01 1000"
    echo "BF.RESERVE b2 0.001 500 EXPANSION 4"
    echo "BF.RESERVE b3 0.01 300 NONSCALING"
    echo "bf.reserve b4 0.05 200 expansion 1"
    echo "BF.ADD b1 x"
    echo "BF.MADD b1 $(items a 1 3000)"
    echo "BF.MADD b2 $(items a 1 2000)"
    echo "BF.MADD b3 $(items a 1 200)"
    echo "BF.MADD b4 $(items a 1 900)"
    echo "BF.INSERT b1 ITEMS $(items c 1 100)"
    echo "BF.INSERT b1 NOCREATE ITEMS y z"
    echo "CF.RESERVE c1 1000"
    echo "CF.RESERVE c2 1000 BUCKETSIZE 4 MAXITERATIONS 20 EXPANSION 1"
    echo "CF.RESERVE c3 64 EXPANSION 0"
    echo "cf.reserve c4 500 expansion 2 maxiterations 100"
    echo "CF.ADD c1 x"
    echo "CF.ADD c1 x"
    echo "CF.ADDNX c1 x"
    echo "CF.ADDNX c1 y"
    echo "CF.INSERT c1 ITEMS $(items a 1 900)"
    echo "CF.INSERT c2 NOCREATE ITEMS $(items a 1 3000)"
    echo "CF.INSERTNX c2 ITEMS $(items a 2900 3200)"
    echo "CF.INSERT c4 ITEMS $(items a 1 2000) $(items a 1 50)"
    echo "CF.INSERTNX c4 NOCREATE ITEMS $(items a 1 3000)"
    echo "CF.DEL c1 a7"
    echo "CF.DEL c1 never-added"
    echo "CF.DEL c4 a9"
    echo "CF.COMPACT c4"
    echo "FK.RESERVE f1 quotient 0.01 2000 SEED 3"
    echo "FK.RESERVE f2 quotient 0.01 2000 SEED 3"
    echo "FK.RESERVE f3 counting 0.01 1000"
    echo "FK.RESERVE f4 scalable-bloom 0.01 100 GROWTH 2"
    echo "FK.MADD f1 $(items a 1 900)"
    echo "FK.MADD f2 $(items a 800 1500)"
    echo "FK.ADD f3 x"
    echo "FK.MADD f3 $(items a 1 500)"
    echo "FK.DEL f3 a4"
    echo "FK.MADD f4 $(items a 1 1000)"
    echo "FK.MERGE f1 f2"
    echo "FK.MERGE f5 f2"
    echo "FK.GROW f2"
} | rc p >/dev/null
same "BF.RESERVE (every option) / ADD / MADD / INSERT" b1 b2 b3 b4
same "CF.RESERVE (every option) / ADD / ADDNX / INSERT / INSERTNX / DEL / COMPACT" c1 c2 c3 c4
same "FK.RESERVE / ADD / MADD / DEL / MERGE (also into a new key) / GROW" f1 f2 f3 f4 f5

# ------------------------------------------------------ auto-created keys
{
    echo "BF.ADD ab1 x"
    echo "BF.MADD ab2 $(items a 1 500)"
    echo "BF.INSERT ab3 CAPACITY 50 ERROR 0.001 EXPANSION 3 ITEMS $(items a 1 400)"
    echo "BF.INSERT ab4 CAPACITY 1000 NONSCALING ITEMS a b"
    echo "CF.ADD ac1 x"
    echo "CF.ADDNX ac2 x"
    echo "CF.INSERT ac3 CAPACITY 100 ITEMS $(items a 1 700)"
    echo "CF.INSERTNX ac4 CAPACITY 200 ITEMS $(items a 1 300)"
    echo "FK.ADD af1 x"
    echo "FK.MADD af2 $(items a 1 300)"
} | rc p >/dev/null
same "auto-created BF keys" ab1 ab2 ab3 ab4
same "auto-created CF keys" ac1 ac2 ac3 ac4
same "auto-created FK keys" af1 af2

replica_errors() { grep -c -E 'CRITICAL|sending an error' "$dir_r/log"; }
check "the replica logged no error from its primary for writes that succeed" test "$(replica_errors)" = 0
# ------------------------------------- commands that create a key and fail
# CF.INSERT into a new key that grows past MAXBYTES: the key is made,
# then the insert stops with an error element or an error
rc p CF.INSERT cfail1 CAPACITY 1000 ITEMS $(items a 1 36000) >"$tmp/cfail1" 2>&1
check "CF.INSERT into a new key past MAXBYTES stops ($(grep -v '^1$' "$tmp/cfail1" | sort | uniq -c | tr '\n' ' '))" \
    grep -q -v '^1$' "$tmp/cfail1"
exists_p "CF.INSERT that created a key and then failed" cfail1
same "CF.INSERT that created a key and then failed (RedisBloom PR #1034)" cfail1
# CF.ADD into a new full key: a key reserved with EXPANSION 0 filled up, then
# CF.ADD into another new key, alone
{
    echo "CF.RESERVE cfull 8 EXPANSION 0"
    echo "CF.INSERT cfull ITEMS $(items a 1 64)"
    echo "CF.ADD cfull one-more"
    echo "CF.ADDNX cfull one-more-nx"
} | rc p >"$tmp/cfull" 2>&1
check "CF.ADD into a full key is refused ($(tail -n 2 "$tmp/cfull" | tr '\n' ' '))" grep -q 'ERR' "$tmp/cfull"
same "CF.INSERT/ADD into a full key" cfull
# BF.INSERT / BF.MADD NONSCALING past capacity: a new key, then an error element
rc p BF.INSERT bfail CAPACITY 10 ERROR 0.01 NONSCALING ITEMS $(items a 1 200) >"$tmp/bfail" 2>&1
check "BF.INSERT NONSCALING past capacity stops ($(grep -c 'full' "$tmp/bfail") errors)" grep -q 'full' "$tmp/bfail"
exists_p "BF.INSERT that created a key and then failed" bfail
rc p BF.MADD bfail $(items b 1 50) >/dev/null 2>&1
same "BF.INSERT / BF.MADD past a NONSCALING key's capacity" bfail
# FK.MADD into a new growing key past MAXBYTES
rc p FK.MADD ffail $(items a 1 36000) >/dev/null 2>&1
same "FK.MADD into a new key past MAXBYTES" ffail
# RedisBloom's own PR #1034 case, where the module has the config:
# cf-max-expansions 1, CF.ADD into a new key until it cannot grow
# (Redis 7.0 names a module's config <module name>.<name>)
cfg=$(rc p CONFIG GET '*cf-max-expansions' | head -n 1)
if [ -n "$cfg" ]; then
    pre=${cfg%cf-max-expansions}
    for s in p r; do
        rc $s CONFIG SET "${pre}cf-max-expansions" 1 >/dev/null
        rc $s CONFIG SET "${pre}cf-initial-size" 8 >/dev/null
    done
    for i in $(seq 1 100); do echo "CF.ADD cmaxexp k$i"; done | rc p >"$tmp/cmaxexp" 2>&1
    check "cf-max-expansions 1: CF.ADD into a new key stops with an error" grep -q 'ERR' "$tmp/cmaxexp"
    exists_p "CF.ADD past cf-max-expansions" cmaxexp
    same "CF.ADD past cf-max-expansions (RedisBloom PR #1034)" cmaxexp
    for s in p r; do
        rc $s CONFIG SET "${pre}cf-max-expansions" 32 >/dev/null
        rc $s CONFIG SET "${pre}cf-initial-size" 1024 >/dev/null
    done
else
    echo "note: no cf-max-expansions config in this module: its PR #1034 case is covered by MAXBYTES above"
fi
# a failing write into an existing key leaves both sides alike, too
rc p CF.INSERT c3 ITEMS $(items z 1 600) >/dev/null 2>&1
same "CF.INSERT past a full existing key" c3

# ------------------------------------------ SCANDUMP/LOADCHUNK, every chunk
# dump FAMILY KEY: the key's chunks on the primary into $tmp/KEY.{it,chunk}.N
dump() {
    local fam=$1 key=$2 it=0 n=0 next
    while :; do
        next=$(rc p EVAL "return redis.call('$fam.SCANDUMP', KEYS[1], ARGV[1])[1]" 1 "$key" "$it")
        # the last chunk, or no cursor at all (a server gone: the check below fails)
        case "$next" in 0 | "" | *[!0-9]*) break ;; esac
        rc p EVAL "return redis.call('$fam.SCANDUMP', KEYS[1], ARGV[1])[2]" 1 "$key" "$it" |
            head -c -1 >"$tmp/$key.chunk.$n"
        printf '%s' "$next" >"$tmp/$key.it.$n"
        it=$next; n=$((n + 1))
    done
    echo "$n"
}
for fam in BF CF; do
    src=src$fam dst=dst$fam
    if [ $fam = BF ]; then
        rc p BF.MADD "$src" $(items s 1 8000) >/dev/null
        rc p BF.ADD "$dst" old-item >/dev/null
    else
        rc p CF.INSERT "$src" CAPACITY 4000 ITEMS $(items s 1 8000) >/dev/null
        rc p CF.ADD "$dst" old-item >/dev/null
    fi
    n=$(dump $fam "$src")
    check "$fam.SCANDUMP takes several chunks ($n)" test "$n" -ge 3
    diverged=""
    for i in $(seq 0 $((n - 1))); do
        r=$(rc p -x $fam.LOADCHUNK "$dst" "$(cat "$tmp/$src.it.$i")" <"$tmp/$src.chunk.$i")
        [ "$r" = OK ] || diverged="$diverged chunk $i: $r;"
        rc p WAIT 1 20000 >/dev/null
        for _ in $(seq 1 100); do
            [ "$(rc p DEBUG DIGEST-VALUE "$dst")" = "$(rc r DEBUG DIGEST-VALUE "$dst")" ] && break
            sleep 0.05
        done
        [ "$(rc p DEBUG DIGEST-VALUE "$dst")" = "$(rc r DEBUG DIGEST-VALUE "$dst")" ] ||
            diverged="$diverged after chunk $i;"
    done
    check "$fam.LOADCHUNK: primary and replica alike after each of $n chunks:$diverged" test -z "$diverged"
    check "$fam.LOADCHUNK: the restored key is the source's" \
        test "$(rc p DEBUG DIGEST-VALUE "$dst")" = "$(rc p DEBUG DIGEST-VALUE "$src")"
    same "$fam.LOADCHUNK restore (RedisBloom PR #1014)" "$dst"
done

# -------------------------------------------------------------- failover
keys=$(rc p KEYS '*' | sort | tr '\n' ' ')
# probe NAME: every key's answers to the same 400 probes, and its INFO
probe() {
    local k t
    for k in $keys; do
        t=$(rc "$1" TYPE "$k")
        echo "$k $t $(rc "$1" FK.MEXISTS "$k" $(items a 1 300) $(items s 7900 8000) | tr -d '\n')"
        # a chain's max_bytes is the module's to set, not the key's record:
        # MAXBYTES when loaded (AOF rewrite's FK.LOAD), a full CF chain's
        # own size again before its next command (cf-max-expansions)
        rc "$1" FK.INFO "$k" | awk 'skip { skip = 0; next } $0 == "max_bytes" { skip = 1; next } 1' |
            tr '\n' ' '; echo
    done
}
probe p >"$tmp/probe.p"
same "every key, before the failover" $keys
rc r REPLICAOF NO ONE >/dev/null
check "the replica is a primary now" sh -c "redis-cli -p $port_r INFO replication | grep -q '^role:master'"
probe r >"$tmp/probe.r"
check "after the failover every key answers as before ($(echo $keys | wc -w) keys; $(diff "$tmp/probe.p" "$tmp/probe.r" | grep -c '^>') differ)" \
    cmp -s "$tmp/probe.p" "$tmp/probe.r"
check "... and they take writes" test "$(rc r CF.ADD dstCF after-failover)" = 1
# A write that fails on the primary is replicated verbatim and fails alike
# on the replica; an error reply there would log "== CRITICAL == This
# replica is sending an error to its master" for each (and with
# propagation-error-behavior panic, stop the replica): the module answers
# a command from its primary's link with a status instead.
check "the replica logged no error from its primary's failing writes ($(grep -o "after processing the command '[A-Za-z.]*'" "$dir_r/log" | sort | uniq -c | awk '{ printf "%s %s; ", $1, $NF }'))" \
    test "$(replica_errors)" = 0

# --------------------------------------------- AOF rewrite, then restart
digest=$(rc p DEBUG DIGEST); dbsize=$(rc p DBSIZE)
rc p BGREWRITEAOF >/dev/null
for _ in $(seq 1 200); do
    rc p INFO persistence | grep -q '^aof_rewrite_in_progress:0' &&
        ! rc p INFO persistence | grep -q '^aof_rewrite_scheduled:1' && break
    sleep 0.1
done
rc p CF.ADD after-rewrite x >/dev/null # (an incremental write on top)
digest2=$(rc p DEBUG DIGEST)
stop_server p
start_server p MAXBYTES 65536 CHUNKBYTES 4096 --dir "$dir_p" --appendonly yes || exit 1
check "AOF rewrite + restart: $dbsize + 1 keys back" test "$(rc p DBSIZE)" = $((dbsize + 1))
check "AOF rewrite + restart: the same DEBUG DIGEST" test "$(rc p DEBUG DIGEST)" = "$digest2"
check "(the write after the rewrite changed the digest)" test "$digest" != "$digest2"
probe p >"$tmp/probe.p2"
check "AOF rewrite + restart: every key answers as before" cmp -s "$tmp/probe.p" "$tmp/probe.p2"

redis_lib_done
