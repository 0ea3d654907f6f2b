#!/bin/sh
# tests/insn_count.sh [KIND] [N] [FPR] [lookup|absent|insert|cinsert] [CAPACITY]:
# instructions per lookup of an 8-byte key (half present, half absent;
# absent: absent keys only) or
# per insert (n keys into a filter sized for n; cinsert: through the
# insert_concurrent slot, one thread), one call per key through fk_ops,
# loop included, counted by callgrind over tests/insn_lookup.c's loops.
# Run from the repository root after `make`; defaults: cuckoo 1000000 0.001
# lookup, CAPACITY = N (a growing kind started smaller grows to N).
set -eu
kind=${1:-cuckoo} n=${2:-1000000} fpr=${3:-0.001} op=${4:-lookup} capacity=${5:-$n}
build=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/insn_lookup" tests/insn_lookup.c "$build/libfilterkit.a" -lm -pthread
loop=$op concurrent=0 absent=0
if [ "$op" = cinsert ]; then loop=insert concurrent=1; fi
if [ "$op" = absent ]; then loop=lookup absent=1; fi
FK_INSN_ABSENT=$absent FK_INSN_CONCURRENT=$concurrent valgrind --tool=callgrind --toggle-collect="${loop}_loop" \
    --callgrind-out-file="$tmp/cg.out" \
    "$tmp/insn_lookup" "$kind" "$n" "$fpr" "$capacity" >"$tmp/run.txt" 2>"$tmp/vg.txt"
case $op in
    lookup|absent) calls=$(awk '{print $1}' "$tmp/run.txt") ;;
    insert|cinsert) calls=$(awk '{print $5}' "$tmp/run.txt") ;;
    *) echo "insn_count.sh: op is lookup, absent, insert or cinsert" >&2; exit 2 ;;
esac
ir=$(awk '/^summary:/ {print $2}' "$tmp/cg.out")
shape="n=$n"
[ "$capacity" = "$n" ] || shape="n=$n capacity=$capacity"
echo "$kind $shape fpr=$fpr: $ir instructions / $calls ${op}s = $(awk -v a="$ir" -v b="$calls" 'BEGIN{printf "%.1f", a/b}') per $op"
