#!/bin/sh
# bench/figures/expandable_figures.sh [N0] [DOUBLINGS] [FPR] [PROBES]: the
# growth workload of issue 43, `filterkit bench --workload growth`
# (bench/measure/growth.h): start at N0 keys (default 10^4), grow
# 2^DOUBLINGS-fold (default 10: 1024 N0), made for FPR (default 0.001); at
# each doubling bits per key, measured FPR over PROBES absent keys (default
# 10^6) and absent-lookup ns (single, batch) for expandable,
# scalable-cuckoo, scalable-bloom, the quotient filter grown in place and a
# cuckoo filter sized for the end; then the inserts' ns per key over the
# whole growth, with ratios to that cuckoo filter. The CSV goes to
# results/bench-growth.csv (OUT=dir to change). PRESIZED=LIST also runs
# those growing kinds made for the end size (`--presized`; e.g.
# PRESIZED=expandable,quotient: what growth costs, apart from what the
# table design costs; not for plot 7's CSV, which draws one series per
# kind). Run from the repository root after `make`; BUILD=dir picks the
# build.
set -eu
build=${BUILD:-build}
fk="$build/filterkit"
[ -x "$fk" ] || { echo "$0: no $fk; run make first (BUILD=$build)" >&2; exit 1; }
exec "$fk" bench --workload growth --n0 "${1:-10000}" --grow "$((1 << ${2:-10}))" --fpr "${3:-0.001}" \
    --probes "${4:-1000000}" --filters expandable,scalable-cuckoo,scalable-bloom,quotient,cuckoo \
    ${PRESIZED:+--presized "$PRESIZED"} --out "${OUT:-results}"
