#!/usr/bin/env bash
# tests/redis/cli_redis_scaling.sh: BF and CF keys that grow (the scalable kinds)
# on a real server, as RedisBloom's scaling filters behave. Run by
# tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`;
# says "skipped: ..." without redis-server.
#  - BF.RESERVE at capacity 100 (expansion 2, and 4) takes 10^4 adds: zero
#    false negatives, BF.INFO's "Number of filters", "Capacity" and
#    "Expansion rate" as RedisBloom reports them (100, 200, 400, ...);
#  - BF.ADD's auto-created key (error 0.01, capacity 100, expansion 2)
#    scales; NONSCALING answers RedisBloom's error when full;
#  - CF.RESERVE with EXPANSION scales (zero false negatives, CF.DEL
#    through the chain, "Number of filters" > 1); EXPANSION 0 fills up;
#  - FK.RESERVE of scalable-bloom grows, FK.DUMP/FK.LOAD round-trip the
#    chain byte for byte, `filterkit query` reads the dump, and SAVE +
#    restart brings back identical chains.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
redis_lib_init || exit 77
fk="$build/filterkit"
start_server s --dbfilename dump.rdb || exit 1
S=s

seq 1 10000 | sed 's/^/k-/' >"$tmp/keys"
seq 1 10000 | sed 's/^/absent-/' >"$tmp/absent"
keys=$(tr '\n' ' ' <"$tmp/keys")
absent=$(tr '\n' ' ' <"$tmp/absent")
found() { # KEY CMD: how many of the 10^4 keys CMD (BF.MEXISTS ...) finds
    echo "$2 $1 $keys" | rc $S | grep -c '^1$'
}
false_pos() {
    echo "$2 $1 $absent" | rc $S | grep -c '^1$'
}

# ---------------------------------------------------------------- BF
batch $S <<'SPEC'
BF.RESERVE b2 0.01 100 => OK
BF.RESERVE b4 0.01 100 EXPANSION 4 => OK
BF.RESERVE bns 0.01 100 NONSCALING => OK
SPEC
echo "BF.MADD b2 $keys" | rc $S >/dev/null
echo "BF.MADD b4 $keys" | rc $S >/dev/null
for k in $(head -n 2000 "$tmp/keys"); do echo "BF.ADD auto $k"; done | rc $S >/dev/null
check "BF expansion 2: every key found" test "$(found b2 BF.MEXISTS)" = 10000
check "BF expansion 4: every key found" test "$(found b4 BF.MEXISTS)" = 10000
fp=$(false_pos b2 BF.MEXISTS)
check "BF expansion 2: $fp false positives of 10^4 at 0.01" test "$fp" -le 150
# RedisBloom: filters of 100, 200, ..., 6400 (7, capacity 12700) hold
# 10^4 items; at expansion 4: 100, 400, ..., 25600 (5, capacity 34100)
batch $S <<'SPEC'
BF.INFO b2 FILTERS => 7
BF.INFO b2 CAPACITY => 12700
BF.INFO b2 EXPANSION => 2
BF.INFO b4 FILTERS => 5
BF.INFO b4 CAPACITY => 34100
BF.INFO b4 EXPANSION => 4
BF.INFO auto CAPACITY => 3100
BF.INFO auto FILTERS => 5
BF.INFO auto EXPANSION => 2
BF.INFO bns FILTERS => 1
BF.INFO bns EXPANSION =>
SPEC
check "BF.INFO b2 as RedisBloom" test "$(rc $S BF.INFO b2 | sed -n '1p;2p;5,10p' | tr '\n' ,)" = \
    "Capacity,12700,Number of filters,7,Number of items inserted,$(rc $S BF.CARD b2),Expansion rate,2,"
echo "BF.MADD bns $(head -n 101 "$tmp/keys" | tr '\n' ' ')" | rc $S >"$tmp/bns"
check "NONSCALING: full after its capacity" test "$(grep -c '^1$' "$tmp/bns"),$(grep -c '^ERR non scaling filter is full$' "$tmp/bns")" = 100,1
expect "NONSCALING: BF.ADD when full" "ERR non scaling filter is full" $S BF.ADD bns never-seen

# ---------------------------------------------------------------- CF
batch $S <<'SPEC'
CF.RESERVE c1 500 EXPANSION 1 => OK
CF.RESERVE c2 500 EXPANSION 2 => OK
CF.RESERVE c0 500 EXPANSION 0 => OK
SPEC
echo "CF.INSERT c1 ITEMS $keys" | rc $S >"$tmp/c1"
echo "CF.INSERT c2 ITEMS $keys" | rc $S >"$tmp/c2"
check "CF expansion 1: every insert 1" test "$(grep -c '^1$' "$tmp/c1")" = 10000
check "CF expansion 2: every insert 1" test "$(grep -c '^1$' "$tmp/c2")" = 10000
check "CF expansion 1: every key found" test "$(found c1 CF.MEXISTS)" = 10000
check "CF expansion 2: every key found" test "$(found c2 CF.MEXISTS)" = 10000
n1=$(rc $S CF.INFO c1 | sed -n '6p')
n2=$(rc $S CF.INFO c2 | sed -n '6p')
# a link of 500 is a small cuckoo table, sized with spare room (256 buckets,
# 1,024 slots: cuckoo/cuckoo.h), and a link takes keys until it is full:
# about 1,000 each, so 10 or more links (20 before 0.4.0's sizing)
check "CF expansion 1: $n1 filters (10^4 keys, 500 each)" test "$n1" -ge 10 -a "$n1" -le 12
check "CF expansion 2: $n2 filters" test "$n2" -ge 4 -a "$n2" -le 6
check "CF.INFO expansion rate" test "$(rc $S CF.INFO c2 | sed -n '13p;14p' | tr '\n' ,)" = "Expansion rate,2,"
# delete the first half through every link: a delete takes the copy
# from the newest link answering yes, so a false positive of a newer link
# (rate under the target) takes another key's copy there; the misses are
# few, one per such collision (scalable/scalable.h)
head -n 5000 "$tmp/keys" | sed 's/^/CF.DEL c2 /' | rc $S >"$tmp/del"
deleted=$(grep -c '^1$' "$tmp/del")
check "CF.DEL through the chain: $deleted of 5000 deleted (>= 4950)" test "$deleted" -ge 4950
kept=$(echo "CF.MEXISTS c2 $(tail -n 5000 "$tmp/keys" | tr '\n' ' ')" | rc $S | grep -c '^1$')
check "CF after deletes: $kept of the other 5000 found (>= 4950)" test "$kept" -ge 4950
echo "CF.INSERT c0 ITEMS $keys" | rc $S >"$tmp/c0"
check "CF EXPANSION 0: fills up (-1: full, as RedisBloom)" grep -q "^-1$" "$tmp/c0"

# ---------------------------------------------------------------- FK
expect "FK.RESERVE scalable-bloom" "OK" $S FK.RESERVE fsb scalable-bloom 0.001 100 GROWTH 2
expect "FK.RESERVE scalable-cuckoo" "OK" $S FK.RESERVE fsc scalable-cuckoo 0.001 100
echo "FK.MADD fsb $keys" | rc $S >/dev/null
echo "FK.MADD fsc $keys" | rc $S >/dev/null
check "FK scalable-bloom: every key found" test "$(found fsb FK.MEXISTS)" = 10000
check "FK scalable-cuckoo: every key found" test "$(found fsc FK.MEXISTS)" = 10000
for k in fsb fsc; do
    rc $S FK.DUMP $k | head -c -1 >"$tmp/$k.fk"
    expect "FK.LOAD of a dumped chain ($k)" "OK" $S -x FK.LOAD "$k-copy" <"$tmp/$k.fk"
    rc $S FK.DUMP "$k-copy" | head -c -1 >"$tmp/$k.copy"
    check "FK.DUMP/FK.LOAD: identical chain ($k)" cmp -s "$tmp/$k.fk" "$tmp/$k.copy"
    if [ -x "$fk" ]; then
        check "filterkit query reads the dumped chain ($k)" \
            test "$("$fk" query -c "$tmp/$k.fk" <"$tmp/keys")" = 10000
        check "filterkit info shows the chain ($k)" sh -c "'$fk' info '$tmp/$k.fk' | grep -q '^chain: *[0-9]* links'"
    fi
done
before=$(for k in b2 b4 auto c1 c2 fsb fsc; do rc $S FK.DUMP $k | cksum; done)
rc $S SAVE >/dev/null
stop_server $S NOSAVE
start_server s --dbfilename dump.rdb || exit 1
after=$(for k in b2 b4 auto c1 c2 fsb fsc; do rc $S FK.DUMP $k | cksum; done)
check "SAVE + restart: identical chains" test "$before" = "$after"
check "after restart: every key found" test "$(found b2 BF.MEXISTS)" = 10000
redis_lib_done
