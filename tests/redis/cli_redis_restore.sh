#!/usr/bin/env bash
# tests/redis/cli_redis_restore.sh: issue 38 on real servers (Debian's
# redis-server, loopback, ports found free at run time).
#  - a BF.LOADCHUNK restore cut by BGREWRITEAOF: the AOF holds the whole
#    value (one FK.LOAD, no chunk), and a restart has the key;
#  - a restore cut by a replica's full sync: the replica gets the key;
#  - restores in progress are per database, dropped by FLUSHALL/FLUSHDB
#    and RESTORETIMEOUT seconds after their last chunk, bounded by
#    RESTOREBYTES and FKR_RESTORES_MAX (a new restore is refused, never
#    another's evicted), counted in used_memory and reported by INFO;
#  - counts past 2^63 answer INT64_MAX; FK.MERGE k k answers as a merge
#    from a copy of k (cuckoo: the error; quotient: counts double);
#  - every key, FK.GROWn or grown by inserts, survives SAVE + restart;
#  - (block "forged quotient record") a non-canonical quotient record is
#    refused by FK.LOAD and RESTORE (the library's loaders accept only
#    canonical tables).
# FK_BUILD=<build dir>; prints `N passed, N failed`.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
redis_lib_init || exit 77
py=/usr/bin/python3
forge="$here/forge.py"
t0=$SECONDS

# chunks NAME KEY FAMILY: SCANDUMP KEY's chunks into $tmp/KEY.chunk.N (and
# their iterators into $tmp/KEY.it.N); prints how many.
chunks() {
    local name=$1 key=$2 fam=$3 it=0 n=0 next
    while :; do
        next=$(rc "$name" EVAL "return redis.call('$fam.SCANDUMP', KEYS[1], ARGV[1])[1]" 1 "$key" "$it")
        case "$next" in 0 | "" | *[!0-9]*) break ;; esac
        rc "$name" EVAL "return redis.call('$fam.SCANDUMP', KEYS[1], ARGV[1])[2]" 1 "$key" "$it" |
            head -c -1 >"$tmp/$key.chunk.$n"
        echo "$next" >"$tmp/$key.it.$n"
        it=$next; n=$((n + 1))
    done
    echo "$n"
}
# load NAME DB FAMILY SRC N DEST: sends chunk N of SRC's dump to DEST.
load() {
    rc "$1" -n "$2" -x "$3.LOADCHUNK" "$6" "$(cat "$tmp/$4.it.$5")" <"$tmp/$4.chunk.$5"
}
# loads DESC WANT NAME DB FAMILY SRC N DEST: load's reply starts with WANT.
loads() {
    local desc=$1 want=$2 got; shift 2
    got=$(load "$@" 2>&1)
    case "$got" in "$want"*) ok ;; *) bad "$desc: got '$got', want '$want...'" ;; esac
}
info_field() { # NAME FIELD
    rc "$1" INFO filterkit | tr -d '\r' | sed -n "s/^filterkit_$2://p"
}
wait_rewrite() { # NAME
    for _ in $(seq 1 100); do
        rc "$1" INFO persistence | grep -q '^aof_rewrite_in_progress:0' &&
            ! rc "$1" INFO persistence | grep -q '^aof_rewrite_scheduled:1' && return 0
        sleep 0.1
    done
}

# ------------------------------------------------ restores and their limits
start_server a CHUNKBYTES 256 RESTOREBYTES 3500 RESTORETIMEOUT 1 || exit 1
rc a BF.RESERVE src 0.01 1000 >/dev/null
seq 1 500 | sed 's/^/BF.ADD src k/' | rc a >/dev/null
n=$(chunks a src BF)
check "the dump takes several chunks ($n)" test "$n" -ge 4
# per database: a restore begun in db 0 is not db 1's
loads "db 0: first chunk" "OK" a 0 BF src 0 r
loads "db 1: no restore of r there" "ERR no restore of this key in progress in this database" a 1 BF src 1 r
for i in $(seq 1 $((n - 1))); do load a 0 BF src "$i" r >/dev/null; done
expect "db 0: the restore completed there" "1" a EXISTS r
expect "db 1: nothing made" "0" a -n 1 EXISTS r
check "db 0: the restored key is the source" test "$(rc a FK.DUMP src | cksum)" = "$(rc a FK.DUMP r | cksum)"
# FLUSHALL drops restores; FLUSHDB drops only its database's
load a 0 BF src 0 f1 >/dev/null
rc a -n 2 FLUSHDB >/dev/null
loads "FLUSHDB of another db keeps the restore" "OK" a 0 BF src 1 f1
rc a FLUSHALL >/dev/null
loads "FLUSHALL dropped it" "ERR no restore of this key in progress" a 0 BF src 2 f1
check "INFO: none in progress after FLUSHALL" test "$(info_field a restores_in_progress)" = 0
# expiry: RESTORETIMEOUT 1 s after the last chunk, by the timer
rc a BF.RESERVE src 0.01 1000 >/dev/null
seq 1 500 | sed 's/^/BF.ADD src k/' | rc a >/dev/null
load a 0 BF src 0 e1 >/dev/null
check "INFO: one in progress" test "$(info_field a restores_in_progress)" = 1
check "INFO: its bytes" test "$(info_field a restores_buffered_bytes)" = 256
sleep 1.6
check "INFO: expired by the timer" test "$(info_field a restores_in_progress)/$(info_field a restores_expired)" = 0/1
loads "an expired restore's next chunk" "ERR no restore of this key in progress" a 0 BF src 1 e1
# RESTOREBYTES 3500: a dump that cannot fit is refused, and so is one
# that does not fit beside another client's; the first goes on
size=$(($(stat -c %s "$tmp/src.chunk.0") - 40))
rc a BF.RESERVE big 0.001 10000 >/dev/null
nb=$(chunks a big BF)
loads "a dump over RESTOREBYTES" "ERR this dump's" a 0 BF big 0 b1
load a 0 BF src 0 m1 >/dev/null
load a 0 BF src 0 m2 >/dev/null
loads "no room beside two restores" "ERR restores in progress hold" a 0 BF src 0 m3
for i in $(seq 1 $((n - 1))); do load a 0 BF src "$i" m1 >/dev/null; done
expect "the first restore was not evicted" "1" a EXISTS m1
check "refusals counted ($nb chunks, $size)" test "$(info_field a restores_refused)" -ge 2
stop_server a

# at most FKR_RESTORES_MAX (64) at once: the 65th is refused, the 1st goes on
start_server c CHUNKBYTES 256 || exit 1
rc c BF.RESERVE src 0.01 1000 >/dev/null
seq 1 500 | sed 's/^/BF.ADD src k/' | rc c >/dev/null
n=$(chunks c src BF)
for i in $(seq 1 65); do resp_cmd BF.LOADCHUNK "many$i" 1 @"$tmp/src.chunk.0"; done >"$tmp/many.resp"
rc c --pipe <"$tmp/many.resp" >/dev/null 2>&1
check "64 restores in progress" test "$(info_field c restores_in_progress)" = 64
loads "a 65th is refused" "ERR 64 restores are in progress" c 0 BF src 0 many65
for i in $(seq 1 $((n - 1))); do load c 0 BF src "$i" many1 >/dev/null; done
expect "the first of 64 completed" "1" c EXISTS many1
stop_server c
# the chunks gathered count in used_memory (the server's allocator)
start_server c2 CHUNKBYTES 1048576 || exit 1
rc c2 BF.RESERVE mem 0.0001 2000000 NONSCALING >/dev/null
n=$(chunks c2 mem BF)
before=$(rc c2 INFO memory | tr -d '\r' | sed -n 's/^used_memory://p')
for i in 0 1 2; do load c2 0 BF mem "$i" copy >/dev/null; done
after=$(rc c2 INFO memory | tr -d '\r' | sed -n 's/^used_memory://p')
buffered=$(info_field c2 restores_buffered_bytes)
check "used_memory counts the $buffered buffered bytes ($before -> $after, $n chunks)" \
    test $((after - before)) -ge $((buffered * 9 / 10)) -a "$buffered" = 3145728
stop_server c2
echo "  restores and limits: $((SECONDS - t0)) s" >&2

# --------------------------------------- a restore cut by BGREWRITEAOF
start_server p CHUNKBYTES 4096 --appendonly yes --aof-use-rdb-preamble no || exit 1
wait_rewrite p
rc p BF.RESERVE src 0.01 10000 >/dev/null
seq 1 3000 | sed 's/^/BF.ADD src k/' | rc p >/dev/null
rc p CF.RESERVE csrc 5000 >/dev/null
seq 1 3000 | sed 's/^/CF.ADD csrc k/' | rc p >/dev/null
n=$(chunks p src BF)
cn=$(chunks p csrc CF)
load p 0 BF src 0 aofkey >/dev/null
load p 0 CF csrc 0 caofkey >/dev/null
expect "BGREWRITEAOF between the chunks" "Background append only file rewriting started" p BGREWRITEAOF
wait_rewrite p
for i in $(seq 1 $((n - 1))); do load p 0 BF src "$i" aofkey >/dev/null; done
for i in $(seq 1 $((cn - 1))); do load p 0 CF csrc "$i" caofkey >/dev/null; done
expect "the restores completed" "2" p EXISTS aofkey caofkey
check "the AOF holds no chunk" sh -c "! grep -qa LOADCHUNK '$dir_p'/appendonlydir/*"
check "the AOF holds the whole value (FK.LOAD)" grep -qa 'FK.LOAD' "$dir_p"/appendonlydir/*.incr.aof
want=$(rc p FK.DUMP src | cksum); cwant=$(rc p FK.DUMP csrc | cksum)
stop_server p
start_server p --dir "$dir_p" --appendonly yes --aof-use-rdb-preamble no || exit 1
check "restart after the rewrite: the BF key is back" test "$(rc p FK.DUMP aofkey | cksum)" = "$want"
check "restart after the rewrite: the CF key is back" test "$(rc p FK.DUMP caofkey | cksum)" = "$cwant"
expect "restart: a BF key still" "1" p BF.EXISTS aofkey k77
echo "  BGREWRITEAOF: $((SECONDS - t0)) s" >&2

# ------------------------------------- a restore cut by a full sync
load p 0 BF src 0 synckey >/dev/null
start_server r || exit 1
rc r REPLICAOF 127.0.0.1 "$port_p" >/dev/null
for _ in $(seq 1 300); do
    rc r INFO replication | grep -q '^master_link_status:up' &&
        rc r INFO replication | grep -q '^master_sync_in_progress:0' && break
    sleep 0.1
done
for i in $(seq 1 $((n - 1))); do load p 0 BF src "$i" synckey >/dev/null; done
expect "WAIT" "1" p WAIT 1 20000
for _ in $(seq 1 100); do [ "$(rc r EXISTS synckey)" = 1 ] && break; sleep 0.1; done
check "the replica has the key restored across its full sync" \
    test "$(rc r FK.DUMP synckey | cksum)" = "$want"
check "the replica logged no error from its primary" sh -c "! grep -q CRITICAL '$dir_r/log'"
loads "LOADCHUNK on the replica is refused" "READONLY" r 0 BF src 0 x
stop_server r
echo "  full sync: $((SECONDS - t0)) s" >&2

# --------------------------------------------------- counts and merges
# 45 pairs of merges from one item each, then one more: the count is
# F(93) = 12200160415121876738, past 2^63 (a negative reply before)
{
    echo "FK.RESERVE ca quotient 0.01 1000 SEED 5"
    echo "FK.RESERVE cb quotient 0.01 1000 SEED 5"
    echo "FK.ADD ca x"
    echo "FK.ADD cb x"
    for _ in $(seq 1 45); do echo "FK.MERGE ca cb"; echo "FK.MERGE cb ca"; done
    echo "FK.MERGE ca cb"
} | rc p >/dev/null
batch p <<'SPEC'
FK.COUNT cb x => 7540113804746346429
FK.COUNT ca x => 9223372036854775807
FK.INFO ca => ~kind|quotient|family|fk|capacity|1000|items|9223372036854775807|
# a BF key's items through 64 merges with itself: 2^64, saturated
BF.RESERVE bn 0.01 100 NONSCALING => OK
BF.ADD bn x => 1
FK.RESERVE cu1 cuckoo 0.01 100 SEED 1 => OK
FK.RESERVE cu2 cuckoo 0.01 100 SEED 1 => OK
FK.MERGE cu1 cu2 => ERR FK_EUNSUPPORTED: a cuckoo filter cannot merge
FK.MERGE cu1 cu1 => ERR FK_EUNSUPPORTED: a cuckoo filter cannot merge
FK.RESERVE co counting 0.01 100 => OK
FK.MERGE co co => ERR FK_EUNSUPPORTED: a counting filter cannot merge
FK.RESERVE sb scalable-bloom 0.01 100 => OK
FK.MERGE sb sb => ERR FK_EUNSUPPORTED: a scalable-bloom filter cannot merge
FK.RESERVE qs quotient 0.01 1000 => OK
FK.MADD qs apple apple pear => 1|1|1
FK.MERGE qs qs => OK
FK.COUNT qs apple => 4
FK.COUNT qs pear => 2
FK.COUNT qs plum => 0
FK.INFO qs => ~kind|quotient|family|fk|capacity|1000|items|6|
FK.RESERVE bl bloom 0.01 1000 => OK
FK.MADD bl a b => 1|1
SPEC
# (the bits: the record's payload, between its 120-byte header, whose item
# count is a sum as for any merge, and its 8-byte checksum)
bits() { rc p FK.DUMP bl | head -c -1 | tail -c +121 | head -c -8 | cksum; }
bl=$(bits)
expect "FK.MERGE bl bl" "OK" p FK.MERGE bl bl
check "a Bloom filter merged with itself keeps its bits" test "$(bits)" = "$bl"
expect "... and its answers" "1|1|0" p FK.MEXISTS bl a b never
for _ in $(seq 1 64); do echo "FK.MERGE bn bn"; done | rc p >/dev/null
batch p <<'SPEC'
BF.CARD bn => 9223372036854775807
BF.INFO bn ITEMS => 9223372036854775807
SPEC
echo "  counts and merges: $((SECONDS - t0)) s" >&2

# ------------------------------- every key, grown, back after a restart
kinds=$(rc p FK.KINDS | tr '\n' ' ')
for kind in $kinds; do
    r=$(rc p FK.RESERVE "g:$kind" "$kind" 0.01 100)
    [ "$r" = OK ] || continue
    echo "FK.MADD g:$kind $(seq 1 400 | sed 's/^/g/' | tr '\n' ' ')"
    echo "FK.GROW g:$kind"
    echo "FK.ADD g:$kind after-grow"
done | rc p >/dev/null
seq 1 400 | sed 's/^/BF.ADD gbf g/' | rc p >/dev/null
seq 1 400 | sed 's/^/CF.ADD gcf g/' | rc p >/dev/null
expect "FK.GROW of a quotient key" "OK" p FK.GROW g:quotient
digest=$(rc p DEBUG DIGEST); keys=$(rc p DBSIZE)
check "keys to keep ($keys)" test "$keys" -ge 20
rc p SAVE >/dev/null
stop_server p
rm -rf "$dir_p/appendonlydir"
start_server p --dir "$dir_p" --appendonly no || exit 1
check "SAVE + restart after FK.GROW: every key back" test "$(rc p DBSIZE)" = "$keys"
check "SAVE + restart after FK.GROW: identical data" test "$(rc p DEBUG DIGEST)" = "$digest"
echo "  grow + restart: $((SECONDS - t0)) s" >&2

# ------------------------------------------ forged quotient record
# A quotient record whose one run holds groups that do not rise,
# its checksums recomputed, is refused by FK.LOAD and RESTORE.
rc p FK.RESERVE empty quotient 0.015 64 >/dev/null
rc p FK.DUMP empty | head -c -1 >"$tmp/empty.fk"
rc p CONFIG SET rdbcompression no >/dev/null
rc p DUMP empty | head -c -1 >"$tmp/empty.dump"
if "$py" -I "$forge" quotient "$tmp/empty.fk" "$tmp/forged.fk" &&
    "$py" -I "$forge" restore "$tmp/empty.dump" "$tmp/forged.fk" "$tmp/forged.dump" &&
    "$py" -I "$forge" restore "$tmp/empty.dump" - "$tmp/control.dump"; then
    ok
    check "the forged record: table byte 9 is 0x80" \
        test "$(od -An -tx1 -j129 -N1 "$tmp/forged.fk" | tr -d ' ')" = 80
    expect "RESTORE of the control payload (checksums recomputed)" "OK" p -x RESTORE control 0 <"$tmp/control.dump"
    expect "forged quotient record: FK.LOAD refuses it" "ERR FK_ECORRUPT: serialized data is corrupt" \
        p -x FK.LOAD forged <"$tmp/forged.fk"
    expect_prefix "forged quotient record: RESTORE refuses it" "ERR Bad data format" \
        p -x RESTORE forged2 0 <"$tmp/forged.dump"
    expect "forged quotient record: no key made" "0" p EXISTS forged forged2
    # the issue's own record: a real filter's table byte 9 set to 0x80, its
    # checksum recomputed (test_serial writes it into the fuzz corpus)
    expect "the issue's forged quotient file: FK.LOAD refuses it" "ERR FK_ECORRUPT: serialized data is corrupt" \
        p -x FK.LOAD forged3 <"$here/../fuzz/corpus/load/quotient-forged.fk"
else
    bad "tests/redis/forge.py failed"
fi
echo "cli_redis_restore: $((SECONDS - t0)) s"
redis_lib_done
