#!/bin/sh
# bench/figures/ribbon_attempts.sh [NS] [EPSES] [TRIALS] [R]: how often a
# standard ribbon's first attempt fails, for each set size in NS and each
# overhead in EPSES (ribbon_attempts.c; 0 = the library's own eps). Run
# from the repository root after `make`. Defaults: "3000 10000 131072
# 1048576" "0.03 0.045 0" 100 7.
set -eu
ns=${1:-"3000 10000 131072 1048576"} epses=${2:-"0.03 0.045 0"} trials=${3:-100} r=${4:-7}
. "$(dirname "$0")/figure_lib.sh"
prog=$(figure_program ribbon_attempts)
for n in $ns; do
    for e in $epses; do
        "$prog" "$n" "$e" "$trials" "$r"
    done
done
