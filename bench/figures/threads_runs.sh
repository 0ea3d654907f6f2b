#!/bin/sh
# bench/figures/threads_runs.sh [RUNS] [FILTERS] [N] [T] [LOOKUPS]: `filterkit bench
# --threads T` RUNS times (each --repeat 3 --no-fill, u64 keys, fpr 1%), then
# per kind the concurrent inserts' scaling (T threads over one, in the same
# run), the ceiling (T private jobs at once over one after another, the
# same run) and scaling over ceiling: each run's figures, then their
# medians, as a Markdown table.
# Why several runs: on a shared machine the ceiling itself moves between
# runs minutes apart (1.2x to 2.0x at T = 2 on the 2-core VM of
# PAPER_NOTES), so one run's scaling says as much about the machine at
# that minute as about the filter; the medians over runs, beside the
# ceiling's, say which is which.
# Run from the repository root after `make` (BUILD=dir: the build folder,
# default build). Defaults: 5, cuckoo,quotient,expandable,bloom,blocked,
# counting,window, 10000000, 2, and the bench's own --lookups (LOOKUPS
# sets it: the tests' small runs). Writes nothing but its output (--out -).
set -eu
runs=${1:-5} filters=${2:-cuckoo,quotient,expandable,bloom,blocked,counting,window}
n=${3:-10000000} threads=${4:-2}
lookups=${5:+--lookups $5}
cli="${BUILD:-build}/filterkit"
[ -x "$cli" ] || { echo "$0: no $cli; run make first (BUILD=${BUILD:-build})" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=1
while [ "$i" -le "$runs" ]; do
    # shellcheck disable=SC2086 # $lookups: empty, or the option and its value
    "$cli" bench --n "$n" --fpr 0.01 --filters "$filters" --threads "$threads" --repeat 3 \
        --no-fill $lookups --format csv --out - >"$tmp/run$i.csv" 2>"$tmp/err" ||
        { echo "$0: run $i failed:" >&2; tail -20 "$tmp/err" >&2; exit 1; }
    i=$((i + 1))
done
# One line per kind and run: kind, scaling, ceiling (from the CSV's named
# columns), then per kind the runs and the medians.
for f in "$tmp"/run*.csv; do
    grep -v '^#' "$f" | awk -F, '
        NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
        $col["threads"] > 1 && $col["cinsert_1t_mops"] > 0 {
            s = $col["cinsert_mops"] / $col["cinsert_1t_mops"]
            printf "%s %.2f %.2f\n", $col["kind"], s, $col["ceiling_cinsert"]
        }'
done >"$tmp/rows"
echo "| kind | scaling per run (ceiling) | median scaling | median ceiling | median scaling / ceiling |"
echo "|---|---|---|---|---|"
for kind in $(echo "$filters" | tr ',' ' '); do
    awk -v k="$kind" '
        function median(a, m,   i, j, t) {
            for (i = 2; i <= m; i++)
                for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
            return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        $1 == k {
            m++; s[m] = $2; c[m] = $3; r[m] = $2 / $3
            runs = runs (m > 1 ? ", " : "") sprintf("%.2f (%.2f)", $2, $3)
        }
        END {
            if (m) printf "| %s | %s | %.2f | %.2f | %.2f |\n", k, runs, median(s, m), median(c, m), median(r, m)
        }' "$tmp/rows"
done
echo
echo "($runs runs of \`filterkit bench --n $n --fpr 0.01 --filters $filters --threads $threads --repeat 3 --no-fill${lookups:+ $lookups}\`; scaling = cinsert at $threads threads / 1 thread, ceiling = $threads private jobs at once / one after another)"
