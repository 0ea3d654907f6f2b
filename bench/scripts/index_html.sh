#!/usr/bin/env bash
# bench/scripts/index_html.sh RESULTS_DIR PLOTS_DIR > RESULTS_DIR/index.html:
# one page listing a bench run: its provenance (from the CSVs' '#' lines:
# commit, CPU, caches, build, date, load average at start, with a warning
# when the machine was loaded), every plot drawn (PNG, linking its SVG),
# the summary table and every CSV/JSON file. Paths are relative to
# RESULTS_DIR, so the folder can be opened or served as it is.
set -u
results=${1:?results folder}
plots=${2:?plots folder}
root=$(cd "$(dirname "$0")/../.." && pwd)
esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }
rel=$(realpath --relative-to="$results" "$plots" 2>/dev/null || echo "$plots")
first_csv=$(ls "$results"/bench-u64.csv "$results"/*.csv 2>/dev/null | head -n 1)
cat <<HTML
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>filterkit bench results</title>
<style>
body { font-family: sans-serif; max-width: 1200px; margin: 1em auto; padding: 0 1em; }
table.prov td { padding: 0.1em 0.8em; vertical-align: top; }
.warn { color: #b00; font-weight: bold; }
figure { margin: 1.5em 0; } img { max-width: 100%; border: 1px solid #ccc; }
pre { overflow-x: auto; background: #f6f6f6; padding: 0.6em; }
</style></head><body>
<h1>filterkit bench results</h1>
HTML
if [ -n "$first_csv" ]; then
    echo "<h2>Provenance</h2><table class=\"prov\">"
    grep '^# [a-z]*: ' "$first_csv" | sed 's/^# //' | esc |
        sed 's|^\([a-z]*\): \(.*\)$|<tr><td>\1</td><td>\2</td></tr>|'
    echo "</table>"
    warn=$(awk -v what=warning -f "$root/plots/provenance.awk" "$first_csv")
    [ -n "$warn" ] && echo "<p class=\"warn\">$(printf '%s' "$warn" | esc)</p>"
fi
echo "<h2>Plots</h2>"
found=0
for png in "$plots"/[0-9]*.png; do
    [ -e "$png" ] || continue
    found=1
    name=$(basename "$png" .png)
    ref="$root/plots/ref/$name.txt"
    echo "<figure><a href=\"$rel/$name.svg\"><img src=\"$rel/$name.png\" alt=\"$name\"></a>"
    echo "<figcaption><b>$name</b>$( [ -f "$ref" ] && printf ': %s' "$(esc <"$ref")")</figcaption></figure>"
done
[ "$found" = 1 ] || echo "<p>No plots (gnuplot missing, or no CSVs): see the log of the run.</p>"
if [ -f "$results/summary.txt" ]; then
    echo "<h2>Summary</h2><pre>"
    esc <"$results/summary.txt"
    echo "</pre>"
fi
if [ -f "$results/pick.txt" ]; then
    echo "<h2>pick</h2><pre>"
    esc <"$results/pick.txt"
    echo "</pre>"
fi
echo "<h2>Tables</h2><ul>"
for f in "$results"/*.csv "$results"/*.json; do
    [ -e "$f" ] || continue
    b=$(basename "$f")
    echo "<li><a href=\"$b\">$b</a> ($(wc -c <"$f" | tr -d ' ') bytes)</li>"
done
echo "</ul><p>Columns: <code>filterkit columns</code>; how to read each plot: docs/bench.md, plots/ref/*.txt.</p>"
echo "</body></html>"
