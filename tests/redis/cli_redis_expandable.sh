#!/usr/bin/env bash
# tests/redis/cli_redis_expandable.sh: FK keys of kind `expandable` (one table that
# doubles in place, issue 43) on a real server. Run by tests/run.sh with
# FK_BUILD=<build dir>; prints `N passed, N failed`; says "skipped: ..."
# without redis-server.
#  - FK.RESERVE key expandable 0.001 10000 with FK.ADD, FK.MADD, FK.EXISTS,
#    FK.MEXISTS, FK.DEL, FK.COUNT and FK.INFO in RESP2 and RESP3 (booleans,
#    a map with the kind's own pairs: doublings, fingerprint lengths, voids;
#    growth the expected growth its fingerprints were sized for, 1024, or
#    GROWTH's: 0.4.0 said 0);
#  - 50,000 keys: it doubles three times (FK.INFO), every key found, few
#    false positives;
#  - growth past the module's MAXBYTES is refused with FK_ELIMIT and
#    nothing lost (the key's digest, items and every key unchanged);
#  - a replica holds the same key (DEBUG DIGEST-VALUE), refused writes too;
#  - SAVE + restart: the same digest and the same answers.
# Plain build only (the sanitized build runs tests/test_expandable).
source "$(dirname "$0")/lib.sh"
redis_lib_init || exit 77
if [ "$sanitized" = 1 ]; then
    echo "skipped: the expandable key checks run on the plain build only"
    redis_lib_done >/dev/null
    exit 0
fi
# 10^4 keys take 23 KB, 80,000 about 182 KB (14-bit slots at 0.1%): the
# doubling after that (about 364 KB) passes a MAXBYTES of 300,000
start_server p MAXBYTES 300000 --dbfilename dump.rdb || exit 1
start_server r MAXBYTES 300000 --propagation-error-behavior panic || exit 1
rc r REPLICAOF 127.0.0.1 "$port_p" >/dev/null
for _ in $(seq 1 600); do
    rc r INFO replication | grep -q '^master_link_status:up' &&
        rc r INFO replication | grep -q '^master_sync_in_progress:0' && break
    sleep 0.1
done
check "the replica is in sync" sh -c "redis-cli -p $port_r INFO replication | grep -q '^master_link_status:up'"

info() { # KEY FIELD [SERVER]: one FK.INFO value
    rc "${3:-p}" FK.INFO "$1" | awk -v f="$2" 'prev == f { print; exit } { prev = $0 }'
}

# ------------------------------------------------------ RESP2 and RESP3
batch p <<'SPEC'
FK.RESERVE e expandable 0.001 10000 => OK
FK.RESERVE e expandable 0.001 10000 => ~ERR
FK.ADD e apple => 1
FK.MADD e pear plum => 1|1
FK.EXISTS e apple => 1
FK.EXISTS e absent-1 => 0
FK.MEXISTS e pear absent-2 plum => 1|0|1
FK.COUNT e plum => 1
FK.COUNT e absent-3 => 0
FK.DEL e plum => 1
FK.EXISTS e plum => 0
FK.DEL e plum => 0
FK.COUNT e plum => 0
FK.INFO e => ~kind|expandable|family|fk|capacity|10000|items|2|
TYPE e => filterkit
FK.GROW e => ~ERR FK_EUNSUPPORTED
FK.MERGE e e => ~ERR FK_EUNSUPPORTED
SPEC
check "FK.INFO: no doubling yet" test "$(info e doublings)" = 0
check "FK.INFO: new entries get 13-bit fingerprints (14-bit slots) at 0.001" \
    test "$(info e fingerprint_bits),$(info e slot_bits)" = 13,14
check "FK.INFO: growth is the expected growth (1024), not 0" test "$(info e growth)" = 1024
check "FK.INFO: the target and bits per entry" sh -c "case \"$(info e target_fpr),$(info e bits_per_entry)\" in 0.001*,?*) ;; *) exit 1 ;; esac"
rc p FK.RESERVE e1 expandable 0.01 10000 >/dev/null
check "FK.INFO: made for 0.01, 10-bit fingerprints in 11-bit slots, less memory than for 0.001" \
    test "$(info e1 fingerprint_bits),$(info e1 slot_bits),$(( $(info e1 memory_bytes) < $(info e memory_bytes) ))" = 10,11,1
rc p FK.RESERVE e64 expandable 0.01 10000 GROWTH 64 >/dev/null
check "FK.INFO: GROWTH 64 is the growth, F sized for 6 doublings (9 bits for 1%, not 10)" \
    test "$(info e64 growth),$(info e64 fingerprint_bits)" = 64,9
rc p DEL e1 e64 >/dev/null
check "FK.INFO: no voids" test "$(info e voids),$(info e void_share)" = "0,0"
BATCH_CLI_OPTS="-3 --no-raw" batch p <<'SPEC'
FK.ADD e fig => (true)
FK.MADD e kiwi fig => 1) (true)|2) (true)
FK.EXISTS e fig => (true)
FK.EXISTS e absent-4 => (false)
FK.MEXISTS e kiwi absent-5 => 1) (true)|2) (false)
FK.COUNT e kiwi => (integer) 1
FK.DEL e kiwi => (true)
FK.DEL e kiwi => (false)
FK.INFO e => ~ 1# kind => expandable| 2# family => fk| 3# capacity => (integer) 10000| 4# items => (integer) 4|
SPEC
r3=$(rc p -3 --no-raw FK.INFO e | tr '\n' '|')
check "RESP3 FK.INFO: doublings an integer, void_share a double ($r3)" \
    sh -c "printf '%s' '$r3' | grep -q '# doublings => (integer) 0|.*# void_share => (double) 0|'"

# ------------------------------------------------------ growth
seq 1 50000 | sed 's/^/k-/' >"$tmp/keys"
seq 1 10000 | sed 's/^/absent-key-/' >"$tmp/absent"
split -l 5000 "$tmp/keys" "$tmp/chunk."
for c in "$tmp"/chunk.*; do echo "FK.MADD e $(tr '\n' ' ' <"$c")"; done | rc p | sort | uniq -c >"$tmp/madd"
check "FK.MADD of 50,000 keys: every one added ($(tr -s ' \n' ' ' <"$tmp/madd"))" \
    test "$(grep -c . "$tmp/madd"),$(awk '{ print $1, $2 }' "$tmp/madd")" = "1,50000 1"
found() { # SERVER FILE: how many of FILE's keys FK.MEXISTS finds
    echo "FK.MEXISTS e $(tr '\n' ' ' <"$2")" | rc "$1" | grep -c '^1$'
}
check "after 50,000 keys: three doublings (10^4 -> 80,000)" test "$(info e doublings),$(info e capacity)" = "3,80000"
check "after 50,000 keys: every key found" test "$(found p "$tmp/keys")" = 50000
fp=$(found p "$tmp/absent")
# the bound after 3 doublings: 0.9 2^-13 (1 + 3/2) = 2.7e-4; 10^4 probes
check "after 50,000 keys: $fp false positives of 10^4 absent keys at fpr 0.001 (at most 10)" test "$fp" -le 10
check "after 50,000 keys: lengths 10..13 in use" \
    test "$(info e shortest_fingerprint),$(info e longest_fingerprint)" = "10,13"
check "after 50,000 keys: FK.INFO's doublings and growth" test "$(info e doublings),$(info e growth)" = "3,1024"

# ------------------------------------------------------ the byte limit
seq 50001 100000 | sed 's/^/k-/' | awk '{ print "FK.ADD e " $0 }' | rc p >"$tmp/adds"
added=$(grep -c '^1$' "$tmp/adds")
check "growth past MAXBYTES: refused with FK_ELIMIT after $added more keys (at capacity 80,000), every other add answered 1" \
    sh -c "test $((50004 + added)) = 80000 && grep -q 'FK_ELIMIT.*MAXBYTES' '$tmp/adds' && test \$(grep -v -c -e '^1\$' -e '^\$' -e 'FK_ELIMIT' '$tmp/adds') = 0"
check "past MAXBYTES: no doubling past the limit (3 doublings, memory under 300,000)" \
    test "$(info e doublings)" = 3 -a "$(info e memory_bytes)" -le 300000
check "past MAXBYTES: items = the keys added (4 + 50,000 + $added)" test "$(info e items)" = $((50004 + added))
seq 50001 $((50000 + added)) | sed 's/^/k-/' >"$tmp/more"
check "past MAXBYTES: nothing lost (every key added found)" \
    test "$(found p "$tmp/keys"),$(found p "$tmp/more")" = "50000,$added"
d1=$(rc p DEBUG DIGEST-VALUE e)
expect "past MAXBYTES: FK.ADD refused" "ERR FK_ELIMIT: the filter would grow past the module's limit of 300000 bytes (MAXBYTES); nothing changed" p FK.ADD e one-more
check "a refused FK.ADD changes nothing (digest)" test "$(rc p DEBUG DIGEST-VALUE e)" = "$d1"
expect "past MAXBYTES: a key already present still answers" "1" p FK.EXISTS e k-1
expect "past MAXBYTES: a delete still works" "1" p FK.DEL e k-1
expect "... and makes room for one key" "1" p FK.ADD e k-1

# ------------------------------------------------------ replication
rc p WAIT 1 20000 >/dev/null
dp=$(rc p DEBUG DIGEST-VALUE e)
for _ in $(seq 1 100); do [ "$(rc r DEBUG DIGEST-VALUE e)" = "$dp" ] && break; sleep 0.05; done
check "the replica's key has the primary's digest" test "$(rc r DEBUG DIGEST-VALUE e)" = "$dp"
check "the replica answers the same (doublings, items, keys found)" \
    test "$(info e doublings r),$(info e items r),$(found r "$tmp/keys")" = "$(info e doublings),$(info e items),50000"

# ------------------------------------------------------ SAVE + restart
answers=$(echo "FK.MEXISTS e $(tr '\n' ' ' <"$tmp/absent") $(head -n 2000 "$tmp/more" | tr '\n' ' ')" | rc p | tr -d '\n')
rc p SAVE >/dev/null
stop_server p NOSAVE
start_server p MAXBYTES 300000 --dbfilename dump.rdb || exit 1
check "SAVE + restart: the same digest" test "$(rc p DEBUG DIGEST-VALUE e)" = "$dp"
check "SAVE + restart: the same answers" \
    test "$(echo "FK.MEXISTS e $(tr '\n' ' ' <"$tmp/absent") $(head -n 2000 "$tmp/more" | tr '\n' ' ')" | rc p | tr -d '\n')" = "$answers"
check "SAVE + restart: every key found, FK.INFO as before" \
    test "$(found p "$tmp/keys"),$(info e doublings),$(info e items)" = "50000,3,$((50004 + added))"
expect "SAVE + restart: the loaded key keeps the limit" \
    "ERR FK_ELIMIT: the filter would grow past the module's limit of 300000 bytes (MAXBYTES); nothing changed" p FK.ADD e one-more
redis_lib_done
