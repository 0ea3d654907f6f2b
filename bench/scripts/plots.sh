#!/usr/bin/env bash
# bench/scripts/plots.sh [RESULTS_DIR [OUT_DIR]]: draws every plots/*.gp from the
# CSVs already in RESULTS_DIR (default results/) into OUT_DIR (default
# plots/out/), without running the bench (`make plots`; `make bench` calls it
# too). Each script draws into a scratch folder first and only complete,
# non-empty images are moved into OUT_DIR, so a failed gnuplot run leaves no
# 0-byte image behind; it is named with gnuplot's own error. Exit status 1
# when gnuplot is missing, there are no CSVs, or any plot failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
results=${1:-results}
out=${2:-$root/plots/out}
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "plots: gnuplot is not installed: no plots drawn (apt-get install gnuplot-nox)" >&2
    exit 1
fi
if ! ls "$results"/*.csv >/dev/null 2>&1; then
    echo "plots: no CSV files in $results/: run 'make bench' (or filterkit bench/sweep --out $results) first" >&2
    exit 1
fi
mkdir -p "$out" || exit 1
scratch=$(mktemp -d "$out/.drawing-XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
failed=0
drawn=0
why() { grep -v '^[ ^]*$' "$scratch/.log" | tail -n 2 | tr -s ' \n' ' '; }
for gp in "$root"/plots/[0-9]*.gp; do
    name=$(basename "$gp" .gp)
    rm -f "$scratch"/*
    if ! gnuplot -e "results='$results'; outdir='$scratch'; plotdir='$root/plots'" "$gp" \
            >"$scratch/.log" 2>&1; then
        echo "plots: $name failed, nothing written: $(why)" >&2
        failed=1
        continue
    fi
    if ! ls "$scratch"/*.png "$scratch"/*.svg >/dev/null 2>&1; then
        echo "plots: $name drew nothing: $(why)" >&2
        continue
    fi
    for img in "$scratch"/*.png "$scratch"/*.svg; do
        [ -e "$img" ] || continue
        if [ -s "$img" ]; then
            mv "$img" "$out/" && drawn=$((drawn + 1))
        else
            echo "plots: $name drew an empty $(basename "$img"); not kept" >&2
            failed=1
        fi
    done
done
echo "plots: $drawn images in $out"
exit "$failed"
