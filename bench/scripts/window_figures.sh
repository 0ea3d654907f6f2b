#!/bin/sh
# bench/scripts/window_figures.sh [figures|long|all] [OUT]: the sliding-window
# figures of PAPER_NOTES.md ("Sliding-window membership"), from the built CLI:
#   figures  `filterkit bench --workload window` at N = 10^6 and 10^7, fpr 1%
#            and 0.1%: the window kind, APBF (default and best (k, l)),
#            rotating Bloom filters and the cuckoo reference on one stream of
#            10 N distinct inserts each: bits per window item, FPR per key age,
#            insert and lookup ns, single and batched, ratios to the cuckoo;
#            CSV into OUT (default results/window), one file per (N, fpr);
#   long     the window kind alone over 10^8 inserts (N = 10^6): every key is
#            looked up near the end of its window; the run fails (exit 1) on
#            any false negative.
# Each command is printed before it runs, so every figure sits beside the
# line that measured it. Run from the repository root after `make`;
# BUILD=dir picks the build folder (default build); REPEAT is not used:
# one stream per figure (N = 10^7 takes minutes per filter).
set -eu
what=${1:-all}
out=${2:-results/window}
build=${BUILD:-build}
fk="$build/filterkit"
[ -x "$fk" ] || { echo "$0: no $fk; run make first (BUILD=$build)" >&2; exit 1; }
mkdir -p "$out"
run() {
    echo "\$ $*"
    "$@"
}
if [ "$what" = figures ] || [ "$what" = all ]; then
    for n in 1000000 10000000; do
        for p in 0.01 0.001; do
            run "$fk" bench --workload window --n "$n" --fpr "$p" --out "$out" --name "window-n$n-fpr$p"
        done
    done
fi
if [ "$what" = long ] || [ "$what" = all ]; then
    run "$fk" bench --workload window --filters window --n 1000000 --fpr 0.01 --stream 100000000 \
        --no-batches --out "$out" --name window-long
fi
