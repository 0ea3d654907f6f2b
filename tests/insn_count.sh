#!/bin/sh
# tests/insn_count.sh [KIND] [N] [FPR]: instructions per lookup of an 8-byte
# key (half present, half absent), one call per key through fk_ops, loop
# included, counted by callgrind over tests/insn_lookup.c's lookup_loop.
# Run from the repository root after `make`; defaults: cuckoo 1000000 0.001.
set -eu
kind=${1:-cuckoo} n=${2:-1000000} fpr=${3:-0.001}
build=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/insn_lookup" tests/insn_lookup.c "$build/libfilterkit.a" -lm
valgrind --tool=callgrind --toggle-collect=lookup_loop --callgrind-out-file="$tmp/cg.out" \
    "$tmp/insn_lookup" "$kind" "$n" "$fpr" >"$tmp/run.txt" 2>"$tmp/vg.txt"
lookups=$(awk '{print $1}' "$tmp/run.txt")
ir=$(awk '/^summary:/ {print $2}' "$tmp/cg.out")
echo "$kind n=$n fpr=$fpr: $ir instructions / $lookups lookups = $(awk -v a="$ir" -v b="$lookups" 'BEGIN{printf "%.1f", a/b}') per lookup"
