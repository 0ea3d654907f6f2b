#!/usr/bin/env bash
# tests/redis/cli_redis_errors.sh: what a newcomer's mistakes and FK.INFO's
# numbers look like on a real server (issue 50). Run by tests/run.sh with
# FK_BUILD=<build dir>; prints `N passed, N failed`; says "skipped: ..."
# without redis-server.
#  - FK.RESERVE with an option it does not take names that option and
#    what the kind takes, never a bare `ERR syntax error`: a time unit
#    (MINUTES 3: the unit is SECONDS, and 3 minutes in it), a module
#    argument (MAXBYTES), an unknown word, an option the kind does not
#    use (GROWTH of a kind that does not grow, SECONDS of one with no
#    clock); what GROWTH means for the kinds that take it (expandable:
#    the growth expected, not a factor); a repeated option is named; no
#    key is made;
#  - RESP2 doubles (FK.INFO's rates) are the shortest decimal that reads
#    back as the same double (20.848, not 20.847999999999999); RESP3's
#    are still doubles.
source "$(dirname "$0")/lib.sh"
redis_lib_init || exit 77
start_server e || exit 1

# ------------------------------------------------- FK.RESERVE's options
batch e <<'SPEC'
FK.RESERVE k window 0.01 1000 MINUTES 3 => ERR unknown option 'MINUTES': the unit of a time window is SECONDS only (SECONDS t, t in 1..9223372036, kind window): 3 MINUTES is SECONDS 180; kind window takes the options SEED n, SECONDS t
FK.RESERVE k window 0.01 1000 hours 2 => ~ERR unknown option 'hours': the unit of a time window is SECONDS only (SECONDS t, t in 1..9223372036, kind window): 2 HOURS is SECONDS 7200;
FK.RESERVE k window 0.01 1000 MS 500 => ~ERR unknown option 'MS': the unit of a time window is SECONDS only (SECONDS t, t in 1..9223372036, kind window); kind window takes the options
FK.RESERVE k expandable 0.01 1000 MAXBYTES 100 => ERR MAXBYTES is not an option of FK.RESERVE: it is a module argument, one limit for every key (redis-server --loadmodule filterkit-redis.so MAXBYTES n); kind expandable takes the options SEED n, GROWTH n (the growth expected, not a factor: the table doubles; its fingerprints last ceil(log2 n) doublings, default 1024)
FK.RESERVE k bloom 0.01 10 SIZE 2 => ERR unknown option 'SIZE': kind bloom takes the options SEED n
FK.RESERVE k scalable-bloom 0.01 10 BOGUS 2 => ERR unknown option 'BOGUS': kind scalable-bloom takes the options SEED n, GROWTH n (each next sub-filter n times the last one's capacity)
FK.RESERVE k bloom 0.01 10 SEED 1 SEED 2 => ERR SEED given twice
FK.RESERVE k window 0.01 100 SECONDS 5 SECONDS 5 => ERR SECONDS given twice
FK.RESERVE k scalable-cuckoo 0.01 100 GROWTH 2 GROWTH 2 => ERR GROWTH given twice
FK.RESERVE k cuckoo 0.01 100 GROWTH 2 => ERR GROWTH is not an option of kind cuckoo (it does not grow: GROWTH is scalable-*'s factor and expandable's expected growth); kind cuckoo takes the options SEED n
FK.RESERVE k window 0.01 100 GROWTH 2 => ERR GROWTH is not an option of kind window (it does not grow: GROWTH is scalable-*'s factor and expandable's expected growth); kind window takes the options SEED n, SECONDS t
FK.RESERVE k bloom 0.01 100 SECONDS 9 => ERR SECONDS is not an option of kind bloom (SECONDS t makes a time window: kind window); kind bloom takes the options SEED n
EXISTS k => 0
FK.RESERVE k window 0.01 1000 SECONDS 180 => OK
SPEC
# a name that is not an option at all is named too (not `ERR syntax error`)
for cmd in "window 0.01 1000 MINUTES 3" "expandable 0.01 1000 MAXBYTES 100" "cuckoo 0.01 10 X 1"; do
    got=$(rc e FK.RESERVE x $cmd 2>&1)
    check "FK.RESERVE x $cmd: not a bare syntax error (got '$got')" \
        sh -c "[ '$got' != 'ERR syntax error' ] && echo '$got' | grep -q '^ERR .*$(echo $cmd | cut -d' ' -f4)'"
done

# ------------------------------------------------------------ doubles
# a Bloom key of 1000 at 1%: 9.6-odd bits per item, which %.17g prints
# with 17 digits
batch e <<'SPEC'
FK.RESERVE b bloom 0.01 1000 => OK
FK.MADD b a b c d e f g => 1|1|1|1|1|1|1
FK.RESERVE q quotient 0.001 3000 => OK
FK.MADD q a b c => 1|1|1
SPEC
doubles() { # KEY: the RESP2 values of FK.INFO's double fields
    rc e FK.INFO "$1" | awk 'prev == "bits_per_item" || prev == "load_factor" || prev == "expected_fpr" { print }
                              { prev = $0 }'
}
vals="$(doubles b) $(doubles q) $(doubles k)"
check "FK.INFO has its three doubles per key (got: $(echo $vals))" test "$(echo $vals | wc -w)" = 9
# shortest(v): the fewest %g digits that read back as float(v)
result=$(cd / && /usr/bin/python3 -I -c '
import sys
def shortest(d):
    for k in range(1, 18):
        s = "%.*g" % (k, d)
        if float(s) == d:
            return s
long = 0
for v in sys.argv[1:]:
    d = float(v)
    if v != shortest(d):
        print("not shortest:", v, "is", shortest(d)); sys.exit(1)
    long += ("%.17g" % d) != v
# the test can fail: some value would print longer under %.17g
print("ok" if long else "none would differ under %.17g")
' $vals)
check "RESP2 doubles are the shortest round-trip form ($result)" test "$result" = ok
check "RESP3 FK.INFO rates are still doubles" \
    sh -c "redis-cli -h 127.0.0.1 -p $port_e -3 --no-raw FK.INFO b | grep -q 'bits_per_item => (double)'"

redis_lib_done
