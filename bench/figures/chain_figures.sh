#!/bin/sh
# bench/figures/chain_figures.sh [N] [REPEAT] [OTHER_BUILD]: a 4-link scalable-bloom
# chain's times (chain_figures.c): N integer keys inserted one by one
# into a chain started at ceil(N/15) (growth 2: links of c0, 2c0, 4c0,
# 8c0), N absent keys looked up one by one and in batches of 1024; with
# OTHER_BUILD (a build folder of another commit, e.g. main's), the same
# program linked with its library runs right after, so the two lines
# compare on the same machine in the same run. Run from the repository
# root after `make`. Defaults: 10000000 5. (The other build's program is
# this build's object linked with its library.)
set -eu
n=${1:-10000000} repeat=${2:-5} other=${3:-}
build=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
capacity=$(((n + 14) / 15))
this="$build/bench/figures/chain_figures"
[ -x "$this" ] || { echo "$0: no $this; run make first (BUILD=$build)" >&2; exit 1; }
[ -z "$other" ] ||
    ${CC:-cc} -o "$tmp/other" "$this.o" "$other/libfilterkit.a" -lm -pthread
echo "this build ($build): $("$this" scalable-bloom "$n" 0.01 "$capacity" "$repeat")"
[ -z "$other" ] ||
    echo "other build ($other): $("$tmp/other" scalable-bloom "$n" 0.01 "$capacity" "$repeat")"
echo "this build ($build): $("$this" bloom "$n" 0.01 "$n" "$repeat")"
