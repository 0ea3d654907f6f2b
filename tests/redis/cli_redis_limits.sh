#!/usr/bin/env bash
# tests/redis/cli_redis_limits.sh: one client cannot take the server down (issue
# 22). A server with MAXBYTES 1 MiB: every path that makes or grows a key
# (BF, CF and FK growth, RESERVE with a huge EXPANSION/GROWTH, FK.LOAD and
# RESTORE of a small chain saved with growth 65,536, FK.GROW of a quotient
# filter, made or loaded) is refused with an
# error naming MAXBYTES, no key's MEMORY USAGE passes the limit, and the
# process stays small. A second server (default 1 GiB) makes a ~900 MB key
# while PINGs are timed: none waits 100 ms. CF keys: CF.COUNT sums the
# copies over a chain, removes of inserted items lose no other key, and
# 10^5 CF.ADDs with the defaults make few links. Configs refuse what no
# key can use (issue 48): each filterkit.* config's range is one the keys
# it shapes can be made with (bf-error-rate down to 1e-20, where a Bloom
# key is still made; cf-max-expansions up to 65535, where a chain's links
# end), out of range refused at CONFIG SET and at load (module argument or
# config) naming the range, and keys made at each end of every range.
source "$(dirname "$0")/lib.sh"
redis_lib_init || exit 77

LIMIT=1048576
start_server small MAXBYTES $LIMIT || { echo "0 passed, 1 failed"; exit 1; }
start_server big || { echo "0 passed, 1 failed"; exit 1; }

# madd NAME CMD KEY FROM TO: CMD KEY with items FROM..TO, 1000 per call;
# prints the error replies (one line each, deduplicated).
madd() {
    local name=$1 cmd=$2 key=$3 from=$4 to=$5
    seq "$from" "$to" | awk -v c="$cmd" -v k="$key" '
        { line = line " i" $1; n++ }
        n == 1000 { print c " " k line; line = ""; n = 0 }
        END { if (n) print c " " k line }' | rc "$name" 2>&1 | grep -E '^(ERR|\(error\))' | sort -u
}

mem() { rc small MEMORY USAGE "$1"; }
under_limit() { # DESC KEY
    local m; m=$(mem "$2")
    if [ -n "$m" ] && [ "$m" -le $LIMIT ]; then ok; else bad "$1: MEMORY USAGE $m > $LIMIT"; fi
}
has_limit_error() { # DESC ERRORS
    case "$2" in *FK_ELIMIT*MAXBYTES*) ok ;; *) bad "$1: no MAXBYTES error, got '$2'" ;; esac
}

# ---- creation: a first growth step over the limit is refused
expect_prefix "BF.RESERVE EXPANSION 65536" "ERR FK_ELIMIT" small BF.RESERVE g 0.01 10000 EXPANSION 65536
expect_prefix "BF.INSERT EXPANSION 65536" "ERR FK_ELIMIT" small BF.INSERT g2 EXPANSION 65536 CAPACITY 10000 ITEMS a
expect_prefix "CF.RESERVE EXPANSION 32768" "ERR FK_ELIMIT" small CF.RESERVE c 10000 EXPANSION 32768
expect_prefix "FK.RESERVE GROWTH 65536" "ERR FK_ELIMIT" small FK.RESERVE f scalable-cuckoo 0.01 10000 GROWTH 65536
expect_prefix "BF.RESERVE over MAXBYTES" "ERR capacity too large" small BF.RESERVE g 0.001 100000000 NONSCALING
expect "nothing was made" "0" small EXISTS g g2 c f

# ---- growth: links of 1000, 64 000, then 4.1 M items (over 1 MiB)
expect "BF.RESERVE growth 64" "OK" small BF.RESERVE bg 0.01 1000 EXPANSION 64
has_limit_error "BF.MADD past MAXBYTES" "$(madd small BF.MADD bg 1 70000)"
under_limit "BF key" bg
expect "BF key still answers" "1" small BF.EXISTS bg i12345
expect "CF.RESERVE growth 64" "OK" small CF.RESERVE cg 1000 EXPANSION 64
has_limit_error "CF.INSERT past MAXBYTES" "$(madd small 'CF.INSERT' "cg ITEMS" 1 70000)"
under_limit "CF key" cg
expect "CF key still answers" "1" small CF.EXISTS cg i12345
expect "FK.RESERVE growth 64" "OK" small FK.RESERVE fg scalable-bloom 0.01 1000 GROWTH 64
has_limit_error "FK.MADD past MAXBYTES" "$(madd small FK.MADD fg 1 70000)"
under_limit "FK key" fg

# ---- FK.LOAD and RESTORE of a small chain saved with growth 65536
expect "big: a chain with growth 65536" "OK" big FK.RESERVE src scalable-bloom 0.01 100 GROWTH 65536
rc big FK.DUMP src | head -c -1 >"$tmp/src.fk"
expect "FK.LOAD of the small chain" "OK" small -x FK.LOAD loaded <"$tmp/src.fk"
has_limit_error "growth after FK.LOAD" "$(madd small FK.MADD loaded 1 200)"
under_limit "FK.LOAD key" loaded
rc big DUMP src | head -c -1 >"$tmp/src.dump"
expect "RESTORE of the small chain" "OK" small -x RESTORE restored 0 <"$tmp/src.dump"
has_limit_error "growth after RESTORE" "$(madd small FK.MADD restored 1 200)"
under_limit "RESTORE key" restored
# DEBUG RELOAD: the RDB path keeps the limit
rc small DEBUG RELOAD >/dev/null
has_limit_error "growth after DEBUG RELOAD" "$(madd small FK.MADD restored 201 400)"
# FK.GROW: a quotient filter doubles until twice its memory would pass
# MAXBYTES, however it was made (FK.LOAD'ed ones were made without a limit)
expect "FK.RESERVE a small quotient filter" "OK" small FK.RESERVE qg quotient 0.000001 1000
grows=0
for _ in $(seq 1 30); do
    r=$(rc small FK.GROW qg)
    [ "$r" = OK ] || break
    grows=$((grows + 1))
done
has_limit_error "FK.GROW past MAXBYTES" "$r"
if [ "$grows" -ge 3 ]; then ok; else bad "FK.GROW: only $grows doublings under MAXBYTES"; fi
under_limit "FK.GROW key" qg
rc big FK.RESERVE qsrc quotient 0.000001 1000 >/dev/null
rc big FK.DUMP qsrc | head -c -1 >"$tmp/qsrc.fk"
expect "FK.LOAD of a quotient filter" "OK" small -x FK.LOAD qloaded <"$tmp/qsrc.fk"
for _ in $(seq 1 30); do r=$(rc small FK.GROW qloaded); [ "$r" = OK ] || break; done
has_limit_error "FK.GROW of an FK.LOAD key past MAXBYTES" "$r"
under_limit "FK.GROW of an FK.LOAD key" qloaded
rss=$(rc small INFO memory | tr -d '\r' | awk -F: '$1 == "used_memory_rss" { print $2 }')
if [ -n "$rss" ] && [ "$rss" -lt $((256 << 20)) ]; then ok; else bad "small server RSS $rss"; fi

# ---- a key near MAXBYTES is made without blocking the server
pings() { # PING N times on one connection, each timed: prints the slowest, ms
    local i t0 t1 worst=0
    for i in $(seq 1 "$1"); do
        t0=$(date +%s%N)
        rc big PING >/dev/null
        t1=$(date +%s%N)
        [ $(((t1 - t0) / 1000000)) -gt "$worst" ] && worst=$(((t1 - t0) / 1000000))
    done
    echo "$worst"
}
base=$(pings 5)
rc big BF.RESERVE huge 0.0001 400000000 NONSCALING >"$tmp/huge.out" &
maker=$!
worst=$(pings 20)
wait "$maker"
grep -q OK "$tmp/huge.out" && ok || bad "BF.RESERVE huge: $(cat "$tmp/huge.out")"
m=$(rc big MEMORY USAGE huge)
if [ -n "$m" ] && [ "$m" -gt $((800 << 20)) ] && [ "$m" -le $((1 << 30)) ]; then ok; else bad "huge key: MEMORY USAGE $m"; fi
# the PINGs: a redis-cli process costs a few ms; the server must not add 100
case "$build" in
    */san) # ASan's allocator zeroes a fresh allocation itself, on the event
           # loop: the page-dropping this measures exists in the plain build
        echo "skipped under the sanitizer build: the PING latency while a big key is made" ;;
    *) if [ "$worst" -lt $((base + 100)) ]; then ok
       else bad "a PING waited $worst ms (idle: $base ms) while a big key was made"; fi ;;
esac
rc big DEL huge >/dev/null

# ---- CF.COUNT over a chain: five adds of one item on a grown key
expect "CF.RESERVE small links" "OK" big CF.RESERVE cc 8
madd big "CF.INSERT" "cc ITEMS" 1 100 >/dev/null
for _ in 1 2 3 4 5; do rc big CF.ADD cc x >/dev/null; done
expect "CF.COUNT sums the chain" "5" big CF.COUNT cc x
for _ in 1 2; do rc big CF.DEL cc x >/dev/null; done
expect "CF.COUNT after two CF.DEL" "3" big CF.COUNT cc x
expect "CF.COUNT on a default key" "2" big EVAL "redis.call('CF.ADD','cd','y'); redis.call('CF.ADD','cd','y'); return redis.call('CF.COUNT','cd','y')" 0

# ---- CF.DEL of inserted items on a default key loses no other key:
# 20 000 items by CF.ADD's defaults, every third removed, the rest present
seq 1 20000 | awk '{ print "CF.ADD cdel k" $1 }' | rc big >/dev/null
seq 3 3 20000 | awk '{ print "CF.DEL cdel k" $1 }' | rc big | sort | uniq -c | tr -s ' ' >"$tmp/dels"
lost=$(seq 1 20000 | awk '$1 % 3 { print "CF.EXISTS cdel k" $1 }' | rc big | grep -c '^0$')
[ "$lost" = 0 ] && ok || bad "CF.DEL lost $lost other keys ($(cat "$tmp/dels"))"
links=$(rc big CF.INFO cdel | awk 'p { print; exit } /Number of filters/ { p = 1 }')
[ -n "$links" ] && [ "$links" -le 6 ] && ok || bad "20 000 CF.ADDs made $links links"
expect_prefix "CF.INFO expansion rate of a default key" "2" big EVAL "local r = redis.call('CF.INFO','cdel'); return tostring(r[14])" 0

# ---- the minor items: each refused with an error, nothing made
expect "BF.RESERVE EXPANSION 65537" "ERR expansion should be between 1 and 65536" big BF.RESERVE m1 0.01 100 EXPANSION 65537
expect "BF.INSERT EXPANSION 65537" "ERR Bad argument received" big BF.INSERT m1 EXPANSION 65537 ITEMS a
expect "BF.INSERT NONSCALING with EXPANSION" "ERR Nonscaling filters cannot expand" big BF.INSERT m1 NONSCALING EXPANSION 2 ITEMS a
expect "BF.RESERVE EXPANSION twice" "ERR EXPANSION given twice" big BF.RESERVE m1 0.01 100 EXPANSION 2 EXPANSION
expect "BF.RESERVE NONSCALING twice" "ERR NONSCALING given twice" big BF.RESERVE m1 0.01 100 NONSCALING NONSCALING
expect "BF.INSERT CAPACITY twice" "ERR an option is given twice" big BF.INSERT m1 CAPACITY 10 CAPACITY 20 ITEMS a
expect "CF.RESERVE EXPANSION twice" "ERR an option is given twice" big CF.RESERVE m1 100 EXPANSION 2 EXPANSION 4
expect_prefix "BF.RESERVE at 5e-324" "ERR error rate 4.94066e-324 is out of reach" big BF.RESERVE m1 5e-324 100 NONSCALING
expect_prefix "FK.RESERVE cuckoo at 1e-300" "ERR error rate 1e-300 is out of reach" big FK.RESERVE m1 cuckoo 1e-300 1000
expect "FK.RESERVE GROWTH 65537" "ERR GROWTH must be an integer in 1..65536" big FK.RESERVE m1 scalable-bloom 0.01 100 GROWTH 65537
expect "no key made by the refused commands" "0" big EXISTS m1

# ---- configs refuse what no key can use; keys are made at each end
cfg() { rc big CONFIG SET "filterkit.$1" "$2" 2>&1; }
for bad_rate in 1e-320 5e-324 1e-21 9.9e-21 0 1 -0.5 abc; do
    expect_prefix "CONFIG SET bf-error-rate $bad_rate refused, naming the range" \
        "ERR CONFIG SET failed (possibly related to argument 'filterkit.bf-error-rate') - bf-error-rate must be a number in [1e-20, 1)" \
        big CONFIG SET filterkit.bf-error-rate "$bad_rate"
done
expect "bf-error-rate unchanged by the refused values" "filterkit.bf-error-rate|0.01" big CONFIG GET filterkit.bf-error-rate
# out of range integers: Redis names the range
for c in "bf-initial-size 0 1 1048576" "bf-initial-size 1048577 1 1048576" \
         "bf-expansion-factor 32769 0 32768" "bf-expansion-factor -1 0 32768" \
         "cf-initial-size 3 4 1048576" "cf-initial-size 1048577 4 1048576" \
         "cf-max-iterations 0 1 65535" "cf-max-iterations 65536 1 65535" \
         "cf-expansion-factor 32769 0 32768" \
         "cf-max-expansions 0 1 65535" "cf-max-expansions 65536 1 65535"; do
    set -- $c
    expect_prefix "CONFIG SET $1 $2 refused, naming the range" \
        "ERR CONFIG SET failed (possibly related to argument 'filterkit.$1') - argument must be between $3 and $4 inclusive" \
        big CONFIG SET "filterkit.$1" "$2"
done
# the ends of each range make keys (BF.ADD / CF.ADD on a missing key)
made() { # DESC CMD KEY: the command creates KEY and its item answers present
    local desc=$1 cmd=$2 key=$3 got
    got="$(rc big "$cmd" "$key" x 2>&1) $(rc big "${cmd%%.*}.EXISTS" "$key" x 2>&1)"
    if [ "$got" = "1 1" ]; then ok; else bad "$desc: $cmd $key: '$got'"; fi
}
check "bf-error-rate 1e-20 accepted" test "$(cfg bf-error-rate 1e-20)" = OK
made "a BF key at bf-error-rate 1e-20 (scaling)" BF.ADD r1
check "bf-expansion-factor 0" test "$(cfg bf-expansion-factor 0)" = OK
made "a BF key at bf-error-rate 1e-20 (NONSCALING)" BF.ADD r2
check "bf-initial-size 1048576" test "$(cfg bf-initial-size 1048576)" = OK
made "a BF key of 1048576 at bf-error-rate 1e-20 (NONSCALING)" BF.ADD r3
check "bf-expansion-factor 2" test "$(cfg bf-expansion-factor 2)" = OK
made "a BF key of 1048576 at bf-error-rate 1e-20 (scaling)" BF.ADD r4
rc big DEL r3 r4 >/dev/null
check "bf-error-rate 0.999999, bf-initial-size 1, bf-expansion-factor 32768" \
    test "$(cfg bf-error-rate 0.999999)$(cfg bf-initial-size 1)$(cfg bf-expansion-factor 32768)" = OKOKOK
made "a BF key at the other ends" BF.ADD r5
check "bf-initial-size 100" test "$(cfg bf-initial-size 100)" = OK
made "a BF key of the default capacity at bf-expansion-factor 32768" BF.ADD r6
check "cf-initial-size 4, cf-max-iterations 1, cf-expansion-factor 32768" \
    test "$(cfg cf-initial-size 4)$(cfg cf-max-iterations 1)$(cfg cf-expansion-factor 32768)" = OKOKOK
made "a CF key at those" CF.ADD c5
check "cf-initial-size 1048576, cf-max-iterations 65535, cf-expansion-factor 0" \
    test "$(cfg cf-initial-size 1048576)$(cfg cf-max-iterations 65535)$(cfg cf-expansion-factor 0)" = OKOKOK
made "a CF key at those" CF.ADD c6
check "cf-initial-size 1024, cf-expansion-factor 32768" \
    test "$(cfg cf-initial-size 1024)$(cfg cf-expansion-factor 32768)" = OKOK
made "a CF key of the default capacity at cf-expansion-factor 32768" CF.ADD c7
check "cf-max-expansions 1 and 65535 accepted" \
    test "$(cfg cf-max-expansions 1)$(cfg cf-max-expansions 65535)" = OKOK
rc big DEL r1 r2 r5 r6 c5 c6 c7 >/dev/null
for c in "bf-error-rate 0.01" "bf-initial-size 100" "bf-expansion-factor 2" "cf-initial-size 1024" \
         "cf-max-iterations 20" "cf-expansion-factor 2" "cf-max-expansions 32"; do
    cfg $c >/dev/null
done
# at load: a module argument (new or legacy name) or a config out of range
# stops the module from loading, its message naming the range
refused_at_load() { # DESC WANT ARGS...: redis-server with the module and ARGS exits, WANT in its log
    local desc=$1 want=$2 d="$tmp/load.$RANDOM" code try; shift 2
    mkdir -p "$d"
    for try in 1 2 3 4 5; do # (a port another server took: try another)
        rm -f "$d/log"
        timeout 10 ${REDIS_WRAP:-} redis-server --port $((20000 + (RANDOM * 32768 + RANDOM) % 30000)) \
            --bind 127.0.0.1 --dir "$d" --logfile "$d/log" --save '' \
            --loadmodule "$module" "$@" >/dev/null 2>&1
        code=$?
        grep -q 'Address already in use' "$d/log" 2>/dev/null || break
    done
    if [ "$code" != 0 ] && [ "$code" != 124 ] && grep -qF -- "$want" "$d/log"; then ok
    else bad "$desc: exit $code, log: $(tail -n 3 "$d/log" 2>/dev/null)"; fi
}
refused_at_load "module argument bf-error-rate 1e-320" \
    "bf-error-rate must be a number in [1e-20, 1)" bf-error-rate 1e-320
refused_at_load "module argument ERROR_RATE 1e-21" \
    "bf-error-rate must be a number in [1e-20, 1)" ERROR_RATE 1e-21
refused_at_load "config filterkit.bf-error-rate 1e-320" \
    "bf-error-rate must be a number in [1e-20, 1)" --filterkit.bf-error-rate 1e-320
refused_at_load "module argument cf-max-expansions 65536" \
    "cf-max-expansions must be an integer in 1..65535" cf-max-expansions 65536
refused_at_load "config filterkit.cf-max-expansions 65536" \
    "argument must be between 1 and 65535 inclusive" --filterkit.cf-max-expansions 65536
refused_at_load "module argument bf-initial-size 0" \
    "bf-initial-size must be an integer in 1..1048576" bf-initial-size 0

redis_lib_done
