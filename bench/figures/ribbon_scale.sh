#!/bin/sh
# bench/figures/ribbon_scale.sh [N] [R] [THREADS] [SAMPLE]: one ribbon build
# of N distinct 8-byte keys generated in process, timed, then checked
# (ribbon_scale.c): zero false negatives in SAMPLE keys spread over the set
# and the FPR of SAMPLE absent keys within a binomial bound of 2^-r. Run
# from the repository root after `make`. Defaults: 1000000000 8 2 10000000
# (10^9 keys: about 8 GiB for the keys, 1 GiB for the filter and at most
# 2 GiB of build memory).
set -eu
n=${1:-1000000000} r=${2:-8} threads=${3:-2} sample=${4:-10000000}
. "$(dirname "$0")/figure_lib.sh"
prog=$(figure_program ribbon_scale)
"$prog" "$n" "$r" "$threads" "$sample"
