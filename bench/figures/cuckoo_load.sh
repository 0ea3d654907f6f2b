#!/bin/sh
# bench/figures/cuckoo_load.sh [NS] [FS] [SEEDS] [MAX_LOAD]: load at the first
# FK_EFULL of cuckoo filters sized for each n in NS and each width in FS
# (comma lists), SEEDS seeds each (bench/figures/cuckoo_load.c), as a
# Markdown table. Run from the repository root after `make` (BUILD=dir:
# the build folder, default build).
# Defaults: 1500000,3000000  8,12,16  10  (0 = the default target load).
set -eu
ns=${1:-1500000,3000000} fs=${2:-8,12,16} seeds=${3:-10} max_load=${4:-0}
. "$(dirname "$0")/figure_lib.sh"
prog=$(figure_program cuckoo_load)
echo "| n sized for | f | buckets | load at n | evictions per insert to n | mean load at first FK_EFULL | min | seeds accepting n | keys lost |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in $(echo "$ns" | tr ',' ' '); do
    for f in $(echo "$fs" | tr ',' ' '); do
        "$prog" "$n" "$f" "$seeds" "$max_load"
    done
done
