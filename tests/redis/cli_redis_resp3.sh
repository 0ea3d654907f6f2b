#!/usr/bin/env bash
# tests/redis/cli_redis_resp3.sh: the module as RedisBloom answers in both
# protocols, and RedisBloom's options and configs (issue 41). Real Debian
# redis-server, loopback only; prints `N passed, N failed`; skips without
# redis-server.
#  - `redis-cli -3`: booleans for BF.ADD/MADD/INSERT/EXISTS/MEXISTS,
#    CF.ADD/ADDNX/INSERT/EXISTS/MEXISTS/DEL, FK.ADD/EXISTS/DEL; integers
#    for CF.COUNT, CF.INSERTNX (multi), BF.CARD; maps for BF.INFO (five
#    pairs, null expansion for a NONSCALING key; one pair for a single
#    field), CF.INFO (eight pairs in RedisBloom's order), FK.INFO;
#  - RESP2: the same commands answer integers and flat arrays, as before;
#  - CF.RESERVE: MAXITERATIONS is each insert's kick limit (a nonscaling
#    filter with 1 kick holds fewer items than one with 500), reported by
#    CF.INFO/CF.DEBUG; BUCKETSIZE other than 4 refused, naming 4; options
#    in any letter case;
#  - RedisBloom's eight configs: module arguments (new and legacy names),
#    CONFIG SET/GET with range errors, and what each changes (BF.ADD and
#    CF.ADD on a missing key, cf-max-expansions bounding a chain);
#  - BF.DEBUG / CF.DEBUG lines; NAME bf (MODULE LIST, config prefix).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
redis_lib_init || exit 77

# legacy and new config names as module arguments, any case
start_server main INITIAL_SIZE 200 error_rate 0.001 CF_MAX_EXPANSIONS 2 \
    cf-max-iterations 50 || exit 1
S=main

# -------------------------------------------------------------- RESP3
BATCH_CLI_OPTS="-3 --no-raw" batch $S <<'SPEC'
BF.ADD b x => (true)
BF.ADD b x => (false)
BF.MADD b x y => 1) (false)|2) (true)
BF.INSERT b ITEMS z x => 1) (true)|2) (false)
BF.EXISTS b x => (true)
BF.EXISTS b nope => (false)
BF.EXISTS missing x => (false)
BF.MEXISTS b x nope => 1) (true)|2) (false)
BF.CARD b => (integer) 3
BF.INFO b => ~1# Capacity => (integer) 200|2# Size => (integer)
BF.INFO b CAPACITY => 1# Capacity => (integer) 200
BF.INFO b ITEMS => 1# Number of items inserted => (integer) 3
BF.RESERVE ns 0.01 10 NONSCALING => OK
BF.INFO ns EXPANSION => 1# Expansion rate => (nil)
CF.ADD c x => (true)
CF.ADDNX c x => (false)
CF.ADDNX c y => (true)
CF.INSERT c ITEMS z x => 1) (true)|2) (true)
CF.INSERTNX c ITEMS w x => 1) (integer) 1|2) (integer) 0
CF.EXISTS c x => (true)
CF.EXISTS c nope => (false)
CF.MEXISTS c x nope => 1) (true)|2) (false)
CF.COUNT c x => (integer) 2
CF.DEL c x => (true)
CF.DEL c nope => (false)
CF.INFO c => ~1# Size => (integer)
FK.ADD b q => (true)
FK.EXISTS b q => (true)
FK.MEXISTS b q nope => 1) (true)|2) (false)
FK.COUNT b q => (integer) 1
SPEC
info3() { rc $S -3 --no-raw "$@" | sed 's/^ *[0-9]*# //; s/ => .*//' | paste -sd,; }
check "RESP3 BF.INFO: RedisBloom's five pairs, a map" test "$(info3 BF.INFO b)" = \
    "Capacity,Size,Number of filters,Number of items inserted,Expansion rate"
check "RESP3 BF.INFO NONSCALING: Expansion rate null" \
    test "$(rc $S -3 --no-raw BF.INFO ns | tail -n 1)" = "5# Expansion rate => (nil)"
check "RESP3 CF.INFO: RedisBloom's eight pairs in its order, a map" test "$(info3 CF.INFO c)" = \
    "Size,Number of buckets,Number of filters,Number of items inserted,Number of items deleted,Bucket size,Expansion rate,Max iterations"
check "RESP3 FK.INFO: a map with doubles" \
    sh -c "redis-cli -h 127.0.0.1 -p $port_main -3 --no-raw FK.INFO b | grep -q 'expected_fpr => (double)'"

# -------------------------------------------------------------- RESP2
BATCH_CLI_OPTS="-2 --no-raw" batch $S <<'SPEC'
BF.ADD b2 x => (integer) 1
BF.MADD b2 x y => 1) (integer) 0|2) (integer) 1
BF.EXISTS b2 x => (integer) 1
BF.MEXISTS b2 x nope => 1) (integer) 1|2) (integer) 0
BF.INFO b2 CAPACITY => 1) (integer) 200
BF.INFO b2 => ~ 1) Capacity| 2) (integer) 200| 3) Size| 4) (integer)
BF.INFO ns =>  1) Capacity| 2) (integer) 10| 3) Size| 4) (integer) 200| 5) Number of filters| 6) (integer) 1| 7) Number of items inserted| 8) (integer) 0| 9) Expansion rate|10) (nil)
CF.ADD c2 x => (integer) 1
CF.ADDNX c2 x => (integer) 0
CF.INSERT c2 ITEMS y => 1) (integer) 1
CF.EXISTS c2 x => (integer) 1
CF.DEL c2 x => (integer) 1
CF.DEL c2 x => (integer) 0
CF.INFO c2 => ~ 1) Size| 2) (integer)
FK.EXISTS b2 x => (integer) 1
SPEC

# ------------------------------------------- CF.RESERVE's options
batch $S <<'SPEC'
cf.reserve k1 1000 maxiterations 20 bucketsize 4 expansion 0 => OK
CF.RESERVE k2 1000 BUCKETSIZE 2 => ERR BUCKETSIZE 2 is not served: filterkit's cuckoo buckets hold 4 fingerprints (give BUCKETSIZE 4 or leave it out)
CF.RESERVE k2 1000 BUCKETSIZE 0 => ~ERR BUCKETSIZE parameter needs to be a positive integer
CF.RESERVE k2 1000 MAXITERATIONS 0 => ~ERR MAXITERATIONS parameter needs to be a positive integer
CF.RESERVE k2 1000 MAXITERATIONS 65536 => ~ERR MAXITERATIONS parameter needs to be a positive integer
CF.RESERVE k3 1000 MaxIterations 65535 => OK
EXISTS k2 => 0
CF.DEBUG k1 => bktsize:4 buckets:512 items:0 deletes:0 filters:1 max_iterations:20 expansion:0
CF.DEBUG k3 => ~bktsize:4 buckets:
CF.DEBUG missing => ERR not found
BF.DEBUG missing => ERR not found
SPEC
check "CF.INFO reports MAXITERATIONS" test "$(rc $S CF.INFO k1 | tail -n 1)" = 20
check "CF.INFO reports MAXITERATIONS 65535" test "$(rc $S CF.INFO k3 | tail -n 1)" = 65535
# the kick limit is honored: a nonscaling table of 2048 slots offered
# 2200 distinct items holds fewer of them with 1 kick an insert than with
# 500. One key name (so one seed: the same table and kick choices) makes
# the two runs differ by the limit alone.
items=$(seq 1 2200 | sed 's/^/m-/' | tr '\n' ' ')
fill() { # kicks: items the table took
    rc $S DEL kick >/dev/null
    rc $S CF.RESERVE kick 1024 MAXITERATIONS "$1" EXPANSION 0 >/dev/null
    # shellcheck disable=SC2086
    rc $S CF.INSERT kick NOCREATE ITEMS $items | grep -cx 1
}
n1=$(fill 1)
n500=$(fill 500)
check "MAXITERATIONS 1 holds fewer items than 500 ($n1 < $n500 - 20)" test "$n1" -lt $((n500 - 20))
check "MAXITERATIONS 500 fills past 95% of 2048 slots ($n500)" test "$n500" -gt 1945

# ------------------------------------------------------------ configs
batch $S <<'SPEC'
CONFIG GET filterkit.bf-initial-size => filterkit.bf-initial-size|200
CONFIG GET filterkit.bf-error-rate => filterkit.bf-error-rate|0.001
CONFIG GET filterkit.cf-max-expansions => filterkit.cf-max-expansions|2
CONFIG GET filterkit.cf-max-iterations => filterkit.cf-max-iterations|50
CONFIG GET filterkit.cf-bucket-size => filterkit.cf-bucket-size|4
CONFIG GET filterkit.bf-expansion-factor => filterkit.bf-expansion-factor|2
CONFIG GET filterkit.cf-initial-size => filterkit.cf-initial-size|1024
CONFIG SET filterkit.bf-error-rate 1 => ~ERR CONFIG SET failed
CONFIG SET filterkit.bf-error-rate abc => ~ERR CONFIG SET failed
CONFIG SET filterkit.bf-initial-size 0 => ~ERR CONFIG SET failed
CONFIG SET filterkit.bf-initial-size 1048577 => ~ERR CONFIG SET failed
CONFIG SET filterkit.cf-bucket-size 2 => ~ERR CONFIG SET failed
CONFIG SET filterkit.cf-max-iterations 65536 => ~ERR CONFIG SET failed
CONFIG SET filterkit.cf-max-expansions 0 => ~ERR CONFIG SET failed
CONFIG SET filterkit.cf-expansion-factor 32769 => ~ERR CONFIG SET failed
CONFIG GET filterkit.bf-error-rate => filterkit.bf-error-rate|0.001
SPEC
# auto-created keys use bf-initial-size and bf-error-rate (from the
# module arguments): the same table as BF.RESERVE 0.001 200
rc $S BF.RESERVE same 0.001 200 >/dev/null
rc $S BF.ADD same x >/dev/null
rc $S BF.ADD auto x >/dev/null
check "BF.ADD auto-creates with bf-initial-size and bf-error-rate" \
    test "$(rc $S BF.DEBUG auto | tail -n +2)" = "$(rc $S BF.DEBUG same | tail -n +2)"
check "BF.DEBUG: size, then one line per sub-filter" \
    sh -c "redis-cli -h 127.0.0.1 -p $port_main BF.DEBUG auto | paste -sd'|' | grep -Eq '^size:1\|bytes:[0-9]+ bits:[0-9]+ hashes:[0-9]+ hashwidth:64 capacity:200 size:1 ratio:'"
batch $S <<'SPEC'
CONFIG SET filterkit.bf-initial-size 300 => OK
CONFIG SET filterkit.bf-error-rate 0.05 => OK
CONFIG SET filterkit.bf-expansion-factor 0 => OK
BF.ADD auto2 x => 1
BF.INFO auto2 CAPACITY => 300
BF.INFO auto2 EXPANSION =>
BF.INSERT auto3 ITEMS x => 1
BF.INFO auto3 CAPACITY => 300
BF.INSERT auto4 EXPANSION 3 ITEMS x => 1
BF.INFO auto4 EXPANSION => 3
CONFIG SET filterkit.bf-expansion-factor 4 => OK
BF.ADD auto5 x => 1
BF.INFO auto5 EXPANSION => 4
CONFIG SET filterkit.cf-initial-size 4096 => OK
CONFIG SET filterkit.cf-max-iterations 7 => OK
CONFIG SET filterkit.cf-expansion-factor 0 => OK
CF.ADD cauto x => 1
CF.DEBUG cauto => bktsize:4 buckets:1090 items:1 deletes:0 filters:1 max_iterations:7 expansion:0
CONFIG SET filterkit.cf-expansion-factor 1 => OK
CONFIG SET filterkit.cf-initial-size 8 => OK
CONFIG SET filterkit.cf-max-expansions 1 => OK
SPEC
check "bf-error-rate: a new BF.ADD key asks 0.05 (fewer bits than 0.001)" \
    test "$(rc $S BF.DEBUG auto2 | sed -n 2p | sed 's/^bytes:[0-9]* bits:\([0-9]*\).*/\1/')" -lt \
         "$(rc $S BF.DEBUG auto | sed -n 2p | sed 's/^bytes:[0-9]* bits:\([0-9]*\).*/\1/')"
# cf-max-expansions 1: a chain of 8 slots-worth grows once, then is full
out=$(rc $S CF.INSERT chain ITEMS $(seq 1 200 | sed 's/^/c-/') | sort | uniq -c | awk '{print $2 ":" $1}' | sort | paste -sd,)
check "cf-max-expansions 1: two sub-filters at most ($(rc $S CF.DEBUG chain))" \
    sh -c "redis-cli -h 127.0.0.1 -p $port_main CF.DEBUG chain | grep -q ' filters:2 '"
check "cf-max-expansions 1: the rest answer full (-1) ($out)" sh -c "echo '$out' | grep -q -- '-1:'"
check "cf-max-expansions 1: CF.ADD past it is 'Filter is full'" \
    test "$(rc $S CF.ADD chain one-more-item)" = "ERR Filter is full"
stop_server main

# ---------------------------------------------- bad arguments, NAME bf
# a bad argument refuses to load: the server exits at once (a socket file
# only; one that loaded would run until the timeout, status 124)
for args in "bf-initial-size 0" "ERROR_RATE 1" "cf-bucket-size 2" "NAME redisbloom"; do
    # shellcheck disable=SC2086
    timeout 10 ${REDIS_WRAP:-} redis-server --port 0 --unixsocket "$tmp/bad.sock" --save '' \
        --loadmodule "$module" $args \
        >"$tmp/badarg.log" 2>&1
    st=$?
    check "module argument '$args' refused ($st)" \
        sh -c "[ $st -ne 0 ] && [ $st -ne 124 ] && grep -q 'filterkit: ' '$tmp/badarg.log'"
done
start_server bf NAME bf cf-max-iterations 9 || exit 1
batch bf <<'SPEC'
CONFIG GET bf.cf-max-iterations => bf.cf-max-iterations|9
CF.ADD c x => 1
CF.INFO c => ~Size|
SPEC
check "NAME bf: MODULE LIST says bf" sh -c "redis-cli -h 127.0.0.1 -p $port_bf MODULE LIST | sed -n 2p | grep -qx bf"
check "NAME bf: CF.ADD's key gets cf-max-iterations" test "$(rc bf CF.INFO c | tail -n 1)" = 9

redis_lib_done
