#!/bin/sh
# bench/figures/static_lookups.sh [N] [FPRS] [ROUNDS]: absent lookups of
# fuse and ribbon side by side in one process (static_lookups.c), single
# and batched, the fastest of ROUNDS alternating rounds and the ratios.
# Run from the repository root after `make`. Defaults: 1000000 "0.01 0.001" 7.
set -eu
n=${1:-1000000} fprs=${2:-"0.01 0.001"} rounds=${3:-7}
. "$(dirname "$0")/figure_lib.sh"
prog=$(figure_program static_lookups)
for fpr in $fprs; do
    "$prog" "$n" "$fpr" "$rounds"
done
