#!/bin/sh
# bench/figures/insn_count.sh [KIND] [N] [FPR] [OP] [CAPACITY]:
# instructions per call of an 8-byte key, one call per key through fk_ops,
# loop included, counted by callgrind over bench/figures/insn_lookup.c's
# loops.
# OP: lookup (the n present then n absent keys), absent (n absent keys),
# present (the n present), mixed (n keys, present or absent by a coin flip),
# insert (n keys into a filter sized for n), cinsert (through the
# insert_concurrent slot, one thread) or build (a static kind: its build
# from the n keys through fk_filter_build_u64, per key); a `_u64` suffix (absent_u64,
# insert_u64, ...) goes through fk_filter_contains_u64 / fk_filter_insert_u64
# instead of the byte slots; a `_batch` suffix (absent_batch, ...) through
# fk_filter_contains_many_u64, 1024 keys a call (insert_batch: through
# fk_filter_insert_many_u64, cinsert_batch: _u64_concurrent, per key).
# Run from the repository root after `make` (BUILD=dir: the build folder
# whose insn_lookup runs, default build); defaults: cuckoo 1000000 0.001
# lookup, CAPACITY = N (a growing kind started smaller grows to N).
# FK_INSN_STREAM=K inserts K n distinct keys (a sliding window's steady
# state, sweeps included: `FK_INSN_STREAM=10 insn_count.sh window 100000
# 0.01 insert` is the bench's 10N stream), the present keys the last n.
# FK_INSN_ANNOTATE=FILE also writes callgrind_annotate's per-line counts
# (--auto=yes) of the counted loop to FILE. FK_INSN_CACHE=1 also simulates
# the caches (callgrind --cache-sim=yes, the host's L1 and last level) and
# adds the data lines each call missed in L1 and in the last level: the
# cache lines a call touches that it did not find there.
set -eu
kind=${1:-cuckoo} n=${2:-1000000} fpr=${3:-0.001} op=${4:-lookup} capacity=${5:-$n}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/figure_lib.sh"
prog=$(figure_program insn_lookup)
base=${op%_u64} u64=0 batch=0
[ "$base" = "$op" ] || u64=1
case $base in *_batch) base=${base%_batch} batch=1 ;; esac
loop=lookup_loop concurrent=0 which=both cache=no
[ "${FK_INSN_CACHE:-0}" = 0 ] || cache=yes
case $base in
    lookup) ;;
    absent|present|mixed) which=$base ;;
    insert) loop=insert_loop ;;
    cinsert) loop=insert_loop concurrent=1 ;;
    build) loop=fk_filter_build_u64 which=absent ;;
    *) echo "insn_count.sh: op is lookup, absent, present, mixed, insert, cinsert or build (+ _u64 or _batch)" >&2; exit 2 ;;
esac
[ "$u64" = 0 ] || [ "$base" = build ] || loop=${loop}_u64
insert_batch=0
if [ "$batch" = 1 ]; then
    case $loop in
        insert_loop*) loop=insert_loop_batch insert_batch=1 batch=0 u64=0 ;;
        lookup_loop*) loop=lookup_loop_batch ;;
        *) echo "insn_count.sh: _batch goes with lookup, absent, present, mixed, insert or cinsert" >&2; exit 2 ;;
    esac
fi
FK_INSN_CONCURRENT=$concurrent FK_INSN_U64=$u64 FK_INSN_LOOKUP=$which FK_INSN_BATCH=$batch \
    FK_INSN_INSERT_BATCH=$insert_batch \
    valgrind --tool=callgrind --toggle-collect="$loop" --cache-sim="$cache" \
    --callgrind-out-file="$tmp/cg.out" \
    "$prog" "$kind" "$n" "$fpr" "$capacity" >"$tmp/run.txt" 2>"$tmp/vg.txt"
case $loop in
    lookup*) calls=$(awk '{print $1}' "$tmp/run.txt") ;;
    *) calls=$(awk '{print $5}' "$tmp/run.txt") ;;
esac
ir=$(awk '/^summary:/ {print $2}' "$tmp/cg.out")
shape="n=$n"
[ "$capacity" = "$n" ] || shape="n=$n capacity=$capacity"
if [ -n "${FK_INSN_ANNOTATE:-}" ]; then
    callgrind_annotate --auto=yes --show-percs=no "$tmp/cg.out" >"$FK_INSN_ANNOTATE" 2>/dev/null ||
        callgrind_annotate --auto=yes "$tmp/cg.out" >"$FK_INSN_ANNOTATE"
fi
unit=$op units=${op}s
if [ "$base" = build ]; then
    [ "${ir:-0}" != 0 ] || { echo "insn_count.sh: build counts a static kind's build (fuse); $kind has none" >&2; exit 2; }
    unit="key built" units="keys built"
fi
misses=
if [ "$cache" = yes ]; then
    # the summary's events by name: data read and write misses, L1 and last level
    misses=$(awk -v calls="$calls" -v unit="$unit" '
        /^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
        /^summary:/ { printf ", %.2f L1 data misses and %.2f last-level data misses per %s",
                      ($col["D1mr"] + $col["D1mw"]) / calls, ($col["DLmr"] + $col["DLmw"]) / calls, unit }
    ' "$tmp/cg.out")
fi
echo "$kind $shape fpr=$fpr: $ir instructions / $calls $units = $(awk -v a="$ir" -v b="$calls" 'BEGIN{printf "%.1f", a/b}') per $unit$misses"
