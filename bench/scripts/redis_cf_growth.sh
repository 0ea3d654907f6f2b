#!/usr/bin/env bash
# bench/scripts/redis_cf_growth.sh [BUILD_DIR]: a CF key grown by CF.ADD's
# defaults against one reserved for all its items (issue 22).
#
# Fills key `grown` with N items (default 1000000) by CF.ADD (defaults:
# capacity 1024, EXPANSION 2) and key `fixed` with the same items after
# CF.RESERVE fixed N EXPANSION 0; prints the links (CF.INFO "Number of
# filters"), the bits per item (MEMORY USAGE * 8 / N) and the seconds
# CF.MEXISTS of all N items takes on each (1000 items per call, one
# redis-cli pipe, best of 3), with the ratios grown / fixed.
set -u
build=${1:-build}
N=${N:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../tests/redis/lib.sh"
FK_BUILD=$build
module="$(cd "$build" && pwd)/filterkit-redis.so"
redis_lib_init || exit 1
start_server bench || exit 1

# no time limit per pipe (rc's 30 s would cut 10^6 CF.ADDs short)
rcp() { redis-cli -h 127.0.0.1 -p "$port_bench" "$@"; }
seq -f 'item:%.0f' 1 "$N" >"$tmp/items"
awk '{ print "CF.ADD grown " $1 }' "$tmp/items" | rcp >/dev/null
rc bench CF.RESERVE fixed "$N" EXPANSION 0 >/dev/null
awk '{ l = l " " $1 } NR % 1000 == 0 { print "CF.INSERT fixed ITEMS" l; l = "" }
     END { if (l != "") print "CF.INSERT fixed ITEMS" l }' "$tmp/items" | rcp >/dev/null
awk -v k=KEY '{ l = l " " $1 } NR % 1000 == 0 { print "CF.MEXISTS KEY" l; l = "" }
     END { if (l != "") print "CF.MEXISTS KEY" l }' "$tmp/items" >"$tmp/mexists"

info() { rc bench CF.INFO "$1" | awk -v f="$2" 'p { print; exit } $0 == f { p = 1 }'; }
best_time() { # KEY: best of 3 wall times of the CF.MEXISTS pipe, seconds
    local best="" t0 t1 t absent
    sed "s/KEY/$1/" "$tmp/mexists" >"$tmp/mexists.$1"
    for _ in 1 2 3; do
        t0=$(date +%s%N)
        absent=$(rcp <"$tmp/mexists.$1" | grep -c '^0$')
        t1=$(date +%s%N)
        t=$(((t1 - t0) / 1000000))
        [ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
    done
    [ "$absent" = 0 ] || echo "redis_cf_growth: $absent items of $1 answered 0" >&2
    echo "$best"
}
declare -A links bits ms
for key in grown fixed; do
    links[$key]=$(info "$key" "Number of filters")
    bits[$key]=$(awk -v m="$(rc bench MEMORY USAGE "$key")" -v n="$N" 'BEGIN { printf "%.2f", 8 * m / n }')
    ms[$key]=$(best_time "$key")
done
echo "| key ($N items) | links | bits/item | CF.MEXISTS of all, ms |"
echo "|---|---|---|---|"
for key in grown fixed; do
    echo "| $key | ${links[$key]} | ${bits[$key]} | ${ms[$key]} |"
done
awk -v bg="${bits[grown]}" -v bf="${bits[fixed]}" -v tg="${ms[grown]}" -v tf="${ms[fixed]}" \
    'BEGIN { printf "ratios grown/fixed: bits/item %.2fx, CF.MEXISTS time %.2fx\n", bg / bf, tg / tf }'
