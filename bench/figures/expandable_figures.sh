#!/bin/sh
# bench/figures/expandable_figures.sh [N0] [DOUBLINGS] [FPR] [PROBES]: the
# growth workload of issue 43 as Markdown tables
# (bench/figures/expandable_figures.c, built by `make`): start at N0 keys
# (default 10^4), grow 2^DOUBLINGS-fold (default 10: 1024 N0), made for FPR
# (default 0.001); at each doubling bits per key, measured FPR over PROBES
# absent keys (default 10^6) and absent-lookup ns for expandable,
# scalable-cuckoo, the quotient filter grown in place and a cuckoo filter
# sized for the end; then the inserts' ns per key over the whole growth.
# Run from the repository root after `make`; BUILD=dir picks the build.
set -eu
build=${BUILD:-build}
x="$build/bench/figures/expandable_figures"
[ -x "$x" ] || { echo "$0: no $x; run make first (BUILD=$build)" >&2; exit 1; }
exec "$x" "${1:-10000}" "${2:-10}" "${3:-0.001}" "${4:-1000000}"
