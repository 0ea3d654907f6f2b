#!/bin/sh
# tests/cuckoo_load.sh [NS] [FS] [SEEDS] [MAX_LOAD]: load at the first
# FK_EFULL of cuckoo filters sized for each n in NS and each width in FS
# (comma lists), SEEDS seeds each (tests/cuckoo_load.c), as a Markdown
# table. Run from the repository root after `make`.
# Defaults: 1500000,3000000  8,12,16  10  (0 = the default target load).
set -eu
ns=${1:-1500000,3000000} fs=${2:-8,12,16} seeds=${3:-10} max_load=${4:-0}
build=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/cuckoo_load" tests/cuckoo_load.c "$build/libfk_cuckoo.a" \
    "$build/libfk_common.a" -lm
echo "| n sized for | f | buckets | load at n | evictions per insert to n | mean load at first FK_EFULL | min | seeds accepting n | keys lost |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in $(echo "$ns" | tr ',' ' '); do
    for f in $(echo "$fs" | tr ',' ' '); do
        "$tmp/cuckoo_load" "$n" "$f" "$seeds" "$max_load"
    done
done
