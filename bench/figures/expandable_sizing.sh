#!/bin/sh
# bench/figures/expandable_sizing.sh [C] [GROWTH] [PROBES] [FPRS]: the
# expandable filter's sizing over a growth (issue 50), one Markdown row per
# target (bench/figures/expandable_sizing.c, built by `make`): made for
# capacity C (default 10^4) at each FPR of FPRS (default "0.01 0.001"),
# grown GROWTH-fold (default 1000), the FPR measured over PROBES fresh
# absent keys (default 10^6) each time the table is full and at the end:
# F, W, the doublings, bits per key at the end (all memory over the keys
# held), the worst FPR over the growth and the filter's own bound there,
# false negatives. Run from the repository root after `make`; BUILD=dir
# picks the build folder (default build).
set -eu
. "$(dirname "$0")/figure_lib.sh"
prog=$(figure_program expandable_sizing)
echo "| target fpr | C | growth | F | W (slot bits) | doublings | bits/key at the end | worst FPR over the growth (at) | bound there | false negatives |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for fpr in ${4:-0.01 0.001}; do
    "$prog" "${1:-10000}" "${2:-1000}" "$fpr" "${3:-1000000}"
done
