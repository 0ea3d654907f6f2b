#!/bin/sh
# bench/figures/static_builds.sh [NS] [FPRS] [ROUNDS] [THREADS]: the builds
# of fuse and ribbon side by side in one process (static_builds.c): for
# each N and FPR, ROUNDS rounds building both from the same keys (the
# first of the two alternating), the median time per key of each, the
# median ratio ribbon / fuse with its range, and each build's temporary
# memory. Run from the repository root after `make`. Defaults: "1000000
# 10000000" "0.01 0.001" 7 1.
set -eu
ns=${1:-"1000000 10000000"} fprs=${2:-"0.01 0.001"} rounds=${3:-7} threads=${4:-1}
. "$(dirname "$0")/figure_lib.sh"
prog=$(figure_program static_builds)
for n in $ns; do
    for fpr in $fprs; do
        "$prog" "$n" "$fpr" "$rounds" "$threads"
    done
done
