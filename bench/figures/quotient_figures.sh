#!/bin/sh
# bench/figures/quotient_figures.sh [space|full|heavy|merge|merge-insn|shift|all]:
# the counting quotient filter's figures as Markdown tables
# (bench/figures/quotient_figures.c, built by `make`):
# bits per item sized for n at 1% and 0.1% against (r + 2.125) / 0.95; the
# load at the first FK_EFULL over 10 seeds; one key inserted 10^6 times;
# merging two 10^6-key filters against copying both (merge-insn: its
# callgrind instruction count, not part of all); the slots an insert
# moves at load alpha against theory. Run from the repository root after
# `make`; BUILD=dir picks the build folder (default build).
set -eu
what=${1:-all}
build=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
qf="$build/bench/figures/quotient_figures"
[ -x "$qf" ] || { echo "$0: no $qf; run make first (BUILD=$build)" >&2; exit 1; }
run() { "$qf" "$@"; }
if [ "$what" = space ] || [ "$what" = all ]; then
    echo "| n | fpr | r | slots | load at n | bits/item (all memory) | (r + 2.125) / 0.95 | measured FPR | theory |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for n in 100000 1000000 10000000; do for p in 0.01 0.001; do run space $n $p; done; done
fi
if [ "$what" = full ] || [ "$what" = all ]; then
    echo "| n sized for | seeds | mean load at first FK_EFULL | min | seeds accepting n | keys lost |"
    echo "|---|---|---|---|---|---|"
    for n in 10000 100000 1000000; do run full $n 10; done
fi
if [ "$what" = heavy ] || [ "$what" = all ]; then
    echo "| inserts of one key | r | FK_OK | count | slots of its group | ns per insert |"
    echo "|---|---|---|---|---|---|"
    run heavy 1000000
fi
if [ "$what" = merge ] || [ "$what" = all ]; then
    echo "| keys merged | tables | merge (median of 9, thread CPU time) | copy both (median of 9, thread CPU time) | merge / copy | insert both key sets anew | merge / inserts |"
    echo "|---|---|---|---|---|---|---|"
    run merge 1000000 9
fi
if [ "$what" = merge-insn ]; then # not in all: callgrind takes minutes
    # instructions of fk_quotient_merge alone (callgrind), per key merged
    valgrind --tool=callgrind --toggle-collect=fk_quotient_merge --callgrind-out-file="$tmp/cg" \
        "$qf" merge 1000000 1 >/dev/null 2>"$tmp/vg"
    ir=$(awk '/^summary:/ {print $2}' "$tmp/cg")
    echo "| keys merged | instructions in fk_quotient_merge | per key |"
    echo "|---|---|---|"
    awk -v ir="$ir" 'BEGIN { printf "| 1000000 + 1000000 | %d | %.1f |\n", ir, ir / 2000000 }'
fi
if [ "$what" = shift ] || [ "$what" = all ]; then
    echo "| load alpha | inserts counted | mean slots moved per insert | (1/(1-alpha)^2 - 1) / 2 |"
    echo "|---|---|---|---|"
    for a in 0.5 0.7 0.8 0.9 0.95; do run shift 1000000 $a; done
fi
