#!/usr/bin/env bash
# bench/scripts/batch_tables.sh [--build DIR] [--quick]: the figures of
# PAPER_NOTES "Memory-level parallelism", as Markdown on stdout, each table
# under the commands that produced it:
#  1. per kind, batched (fk_filter_*_many) against one-key-a-call ns per
#     insert and per lookup, at n = 10^6, 10^7 and 10^8 (u64 keys, fpr 1%,
#     4M lookups per mix; the bench's batched columns);
#  2. ns per batched lookup against the window W of the pipelines
#     (common/pipeline.h): the library rebuilt with -DFK_BATCH_WINDOW=W into
#     build/window-<W>/ for W = 4, 8, 16, 32, each benched at n = 10^8.
# Takes about 40 minutes on 2 cores and 6 GB of memory; --quick uses 10^5,
# 10^6 and 10^7 (a check of the script, not figures to keep).
# bench/scripts/paper_tables.sh --only batch runs it into PAPER_NOTES.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build"
quick=0
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --quick) quick=1; shift ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "batch_tables.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$quick" = 1 ]; then NS=100k,1M,10M; NW=10M; LOOKUPS=1M; else NS=1M,10M,100M; NW=100M; LOOKUPS=4M; fi
KINDS=bloom,counting,cuckoo,blocked

echo "Caches (\`lscpu\`): $(lscpu 2>/dev/null | awk -F: '/^L[123][di]? cache/ { gsub(/^ +/, "", $2); printf "%s%s %s", sep, $1, $2; sep = ", " }')."
echo

# ---------------------------------------------------- 1. batched / single
args=(bench --filters "$KINDS" --n "$NS" --fpr 1% --lookups "$LOOKUPS" --no-fill --repeat 3
      --format csv --out -)
echo "batch_tables.sh: ${args[*]}" >&2
"$build/filterkit" "${args[@]}" > "$tmp/ratios.csv"
printf 'Measured by `build/filterkit %s` (portable build, commit `%s`): ns per key, median of 3 runs, and batched throughput over single-key throughput.\n\n' \
    "${args[*]}" "$(git rev-parse --short=10 HEAD 2>/dev/null || echo unknown)"
echo "| kind | n | insert single | insert batched | ×  | lookup 0% single | batched | × | lookup 100% single | batched | × |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
grep -v '^#' "$tmp/ratios.csv" | awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    function v(name) { return $(c[name]) }
    function x(single, batch) { return batch > 0 ? sprintf("%.2f", single / batch) : "-" }
    {
        printf "| %s | %s | %.1f | %.1f | %s | %.1f | %.1f | %s | %.1f | %.1f | %s |\n", v("kind"), v("n"),
               v("insert_ns"), v("insert_batch_ns"), x(v("insert_ns"), v("insert_batch_ns")),
               v("lookup0_ns"), v("lookup0_batch_ns"), x(v("lookup0_ns"), v("lookup0_batch_ns")),
               v("lookup100_ns"), v("lookup100_batch_ns"), x(v("lookup100_ns"), v("lookup100_batch_ns"))
    }'
echo

# ------------------------------------------------------- 2. the window W
for w in 4 8 16 32; do
    echo "batch_tables.sh: make BUILD=build/window-$w CFLAGS=-DFK_BATCH_WINDOW=$w cli" >&2
    make -s BUILD="build/window-$w" CFLAGS="-DFK_BATCH_WINDOW=$w" cli >&2
    wargs=(bench --filters "$KINDS" --n "$NW" --fpr 1% --lookups "$LOOKUPS" --no-fill --repeat 1
           --format csv --out -)
    echo "batch_tables.sh: build/window-$w/filterkit ${wargs[*]}" >&2
    "build/window-$w/filterkit" "${wargs[@]}" | grep -v '^#' | awk -F, -v w="$w" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print w, $(c["kind"]), $(c["lookup0_ns"]), $(c["lookup0_batch_ns"]), $(c["lookup100_batch_ns"]), $(c["insert_batch_ns"]) }' \
        >> "$tmp/window.txt"
done
printf 'Measured by `make BUILD=build/window-W CFLAGS=-DFK_BATCH_WINDOW=W cli` then `build/window-W/filterkit %s` for each W: ns per key, batched (one-key-a-call lookup0 in brackets, from the same run).\n\n' "${wargs[*]}"
kinds=$(awk '{ print $2 }' "$tmp/window.txt" | awk '!seen[$0]++' | tr '\n' ' ')
printf '| W |'; for k in $kinds; do printf ' %s lookup 0%% | %s lookup 100%% | %s insert |' "$k" "$k" "$k"; done; echo
printf '|---|'; for k in $kinds; do printf -- '---|---|---|'; done; echo
for w in 4 8 16 32; do
    printf '| %s |' "$w"
    for k in $kinds; do
        awk -v w="$w" -v k="$k" '$1 == w && $2 == k { printf " %.1f (%.1f) | %.1f | %.1f |", $4, $3, $5, $6 }' "$tmp/window.txt"
    done
    echo
done
