#!/usr/bin/env bash
# bench/scripts/redis_bench.sh [BUILD_DIR]: the Redis module under redis-benchmark.
#
# Starts one redis-server (Debian's) with BUILD_DIR/filterkit-redis.so on a
# free loopback port, then measures ops/s of GET (the yardstick: the
# server's own cost per command), BF.ADD, BF.EXISTS, CF.ADD, CF.EXISTS and
# FK.EXISTS on a `blocked` filter (on `bloom` when that kind is not
# registered), with 1 and 50 clients, without and with pipelining (-P 16),
# and keys/s of BF.MEXISTS with 100 keys per call; then MEMORY USAGE
# against the filter's own bytes (FK.INFO memory_bytes). Prints Markdown
# tables; each ratio is against GET measured in the same run, next to it.
#
# bench/scripts/redis_bench.sh --instructions [BUILD_DIR]: instead of timing,
# runs the server under valgrind's callgrind and counts the instructions
# the server executes per request (1 client, -P 16), GET against each
# filter command: noise-free where the machine is shared.
#
# Knobs (environment): N (requests per unpipelined run, default 20000;
# pipelined runs do 10x), CAPACITY (items each filter is sized for and
# filled with before the lookups, default 1000000; 100000 with
# --instructions), RESP (2 or 3: the protocol redis-benchmark speaks,
# default 2; RESP3 replies booleans and maps where RedisBloom does).
set -u
mode=time
if [ "${1:-}" = --instructions ]; then
    mode=instructions
    shift
fi
build=${1:-build}
N=${N:-20000}
case ${RESP:-2} in
    2) resp_flag= ;;
    3) resp_flag=-3 ;;
    *) echo "redis_bench: RESP must be 2 or 3" >&2; exit 2 ;;
esac
CAPACITY=${CAPACITY:-}
if [ -z "$CAPACITY" ]; then
    CAPACITY=1000000
    [ "$mode" = instructions ] && CAPACITY=100000
fi
here=$(cd "$(dirname "$0")" && pwd)
# start_server / rc / cleanup come from the tests' helpers, which load the
# module of $FK_BUILD: point it at BUILD_DIR (it loaded build/'s before)
FK_BUILD=$build
. "$here/../../tests/redis/lib.sh"
for tool in redis-server redis-cli redis-benchmark; do
    command -v "$tool" >/dev/null || { echo "redis_bench: $tool missing (make deps-redis)" >&2; exit 1; }
done
[ -f "$module" ] || { echo "redis_bench: no $build/filterkit-redis.so (make redis)" >&2; exit 1; }
tmp=$(mktemp -d)
trap redis_lib_cleanup EXIT
trap 'exit 1' INT TERM
if [ "$mode" = instructions ]; then
    command -v valgrind >/dev/null || { echo "redis_bench: valgrind missing" >&2; exit 1; }
    REDIS_WRAP="valgrind --tool=callgrind --callgrind-out-file=$tmp/cg.out" REDIS_START_TRIES=600 \
        start_server bench || exit 1
else
    start_server bench || exit 1
fi

kinds=" $(rc bench FK.KINDS | tr '\n' ' ') "
fkind=bloom
case "$kinds" in *" blocked "*) fkind=blocked ;; esac
# lookups run on filters filled to (90% of) their capacity; the ADD runs
# go to filters with room for all of them
rc bench BF.RESERVE bf 0.01 "$CAPACITY" >/dev/null
rc bench CF.RESERVE cf "$CAPACITY" >/dev/null
rc bench FK.RESERVE fk "$fkind" 0.01 "$CAPACITY" >/dev/null
room=$((CAPACITY + 100 * N))
rc bench BF.RESERVE bfadd 0.01 "$room" >/dev/null
rc bench CF.RESERVE cfadd "$room" >/dev/null
fill=$((CAPACITY * 9 / 10))
for cmd in "BF.ADD bf" "CF.ADD cf" "FK.ADD fk"; do
    redis-benchmark $resp_flag -h 127.0.0.1 -p "$port_bench" -c 50 -P 64 -n "$fill" -r 100000000 -q \
        $cmd __rand_int__ >/dev/null
done

# ops/s of one command line (redis-benchmark --csv: "name","rps",...)
ops() { # clients pipeline command...
    local c=$1 p=$2; shift 2
    local n=$N
    [ "$p" -gt 1 ] && n=$((N * 10))
    redis-benchmark $resp_flag -h 127.0.0.1 -p "$port_bench" -c "$c" -P "$p" -n "$n" -r 100000000 --csv "$@" |
        awk -F'"' 'NR == 2 { printf "%.0f", $4 }'
}
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# row LABEL SCALE CLIENTS PIPELINE COMMAND...: three (GET, command) pairs
# back to back; the median ops/s (times SCALE) and the median ratio
row() {
    local label=$1 scale=$2 c=$3 p=$4; shift 4
    local g r rs=() qs=()
    for _ in 1 2 3; do
        g=$(ops "$c" "$p" GET k:__rand_int__)
        r=$(ops "$c" "$p" "$@")
        rs+=("$((r * scale))")
        qs+=("$(awk -v a="$r" -v b="$g" -v s="$scale" 'BEGIN { printf "%.3f", s * a / b }')")
    done
    printf '| %s | %d | %d | %s | %s |\n' "$label" "$c" "$p" "$(median3 "${rs[@]}")" "$(median3 "${qs[@]}")"
}

echo "# redis_bench: $(redis-server --version | cut -d' ' -f1-3), module $module, RESP${RESP:-2}"
if [ "$mode" = instructions ]; then
    # instructions the server ran for n requests: zero the counters, run,
    # dump, read the dump's summary
    count() { # command...
        local n=20000 before
        callgrind_control -z "$pid_bench" >/dev/null 2>&1
        redis-benchmark $resp_flag -h 127.0.0.1 -p "$port_bench" -c 1 -P 16 -n "$n" -r 100000000 --csv "$@" >/dev/null
        before=$(ls "$tmp"/cg.out.* 2>/dev/null | wc -l)
        callgrind_control -d "$pid_bench" >/dev/null 2>&1
        for _ in $(seq 1 100); do [ "$(ls "$tmp"/cg.out.* 2>/dev/null | wc -l)" -gt "$before" ] && break; sleep 0.1; done
        sleep 0.5
        awk -v n="$n" '/^summary:/ { printf "%.0f", $2 / n }' "$(ls -t "$tmp"/cg.out.* | head -n 1)"
    }
    echo "# instructions the server executes per request (callgrind), 1 client, -P 16;"
    echo "# filters sized for $CAPACITY items at 1%, filled to 90%"
    echo
    echo "| command | instructions / request | GET / command (throughput bound) |"
    echo "|---|---:|---:|"
    get=$(count GET k:__rand_int__)
    echo "| GET | $get | 1.00 |"
    for cmd in "BF.ADD bfadd" "BF.EXISTS bf" "CF.ADD cfadd" "CF.EXISTS cf" "FK.EXISTS fk"; do
        r=$(count $cmd __rand_int__)
        label=${cmd% *}
        [ "$label" = FK.EXISTS ] && label="FK.EXISTS ($fkind)"
        echo "| $label | $r | $(awk -v a="$get" -v b="$r" 'BEGIN { printf "%.2f", a / b }') |"
    done
    exit 0
fi
echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg);" \
     "caches (getconf): $(getconf -a | awk '$1 ~ /^LEVEL[123]_[ID]?CACHE_SIZE$/ && $2 { printf "%s %d KiB; ", $1, $2 / 1024 }')"
echo "# lookups: filters sized for $CAPACITY items at 1%, filled to 90%; N=$N requests per run"
echo "# (x10 pipelined); each row: median of 3 runs, ratio: median of 3 back-to-back (GET, command) pairs"
echo
echo "| command | clients | pipeline | ops/s | x GET |"
echo "|---|---:|---:|---:|---:|"
mexists_args=$(for _ in $(seq 1 100); do printf ' __rand_int__'; done)
for c in 1 50; do
    for p in 1 16; do
        for cmd in "BF.ADD bfadd" "BF.EXISTS bf" "CF.ADD cfadd" "CF.EXISTS cf" "FK.EXISTS fk"; do
            label=${cmd% *}
            [ "$label" = FK.EXISTS ] && label="FK.EXISTS ($fkind)"
            row "$label" 1 "$c" "$p" $cmd __rand_int__
        done
        row "BF.MEXISTS x100 (keys/s)" 100 "$c" "$p" BF.MEXISTS bf $mexists_args
    done
done
echo
echo "| key | kind | items | filter bytes | MEMORY USAGE | usage / bytes | bytes per item |"
echo "|---|---|---:|---:|---:|---:|---:|"
for key in bf cf fk bfadd cfadd; do
    info=$(rc bench FK.INFO "$key" | tr '\n' ' ')
    set -- $info
    kind=$2 items=$8 bytes=${10}
    usage=$(rc bench MEMORY USAGE "$key")
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$key" "$kind" "$items" "$bytes" "$usage" \
        "$(awk -v u="$usage" -v b="$bytes" 'BEGIN { printf "%.4f", u / b }')" \
        "$(awk -v u="$usage" -v n="$items" 'BEGIN { printf "%.2f", u / n }')"
done
