#!/usr/bin/env bash
# bench/scripts/index_html.sh RESULTS_DIR PLOTS_DIR [--quick] > RESULTS_DIR/index.html:
# one page listing a bench run: its provenance (from every CSV's '#' lines:
# what all of them share -- commit, compiler, CPU, caches, build -- once,
# saying so, and what differs per file -- date, command, the other work the
# machine did meanwhile -- in a table with one row per CSV, with each load
# warning), every plot drawn (PNG, linking its SVG) with its caption
# (plots/caption.sh: the reading guide filled from this run's CSVs; with
# --quick, marked as written for the full run), the summary table and every
# CSV/JSON file. Paths are relative to RESULTS_DIR, so the folder can be
# opened or served as it is.
set -u
results=${1:?results folder}
plots=${2:?plots folder}
quick=${3:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
# esc: HTML-escaped, and the clone's absolute path left out (paths read
# from the repository root, as `make bench` runs them: the page is the same
# in every clone, and says nothing of where this one lies)
esc() {
    awk -v root="$root/" '{ while (root != "/" && (i = index($0, root)) > 0) $0 = substr($0, 1, i - 1) substr($0, i + length(root)); print }' |
        sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'
}
rel=$(realpath --relative-to="$results" "$plots" 2>/dev/null || echo "$plots")
csvs=$(ls "$results"/*.csv 2>/dev/null)
# field FILE NAME: the value of one '# NAME: ' line
field() { sed -n "s/^# $2: //p" "$1" | head -n 1; }
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
[ "$quick" = --quick ] && echo "<p><b>Quick run</b> (make bench-quick): small sizes, one repeat; the figures check the pipeline and are not for quoting.</p>"
if [ -n "$csvs" ]; then
    count=$(printf '%s\n' $csvs | wc -l)
    echo "<h2>Provenance</h2>"
    echo "<p>From the '#' lines of each of the $count CSV files this page draws from.</p><table class=\"prov\">"
    for key in commit compiler cflags build cpu caches libbloom; do
        values=$(for f in $csvs; do field "$f" "$key"; done | sort -u)
        [ -n "$values" ] || continue
        if [ "$(printf '%s\n' "$values" | wc -l)" -eq 1 ]; then
            printf '<tr><td>%s</td><td>%s (the same in all %d files)</td></tr>\n' "$key" "$(printf '%s' "$values" | esc)" "$count"
        else
            for f in $csvs; do
                printf '<tr><td>%s</td><td>%s: %s</td></tr>\n' "$key" "$(basename "$f")" "$(field "$f" "$key" | esc)"
            done
        fi
    done
    echo "</table>"
    echo "<table class=\"prov\"><tr><th>file</th><th>date</th><th>command</th><th>other work while it measured</th></tr>"
    for f in $csvs; do
        other=$(field "$f" otherload)
        [ -n "$other" ] && other="other work: $other" || other="load average $(field "$f" loadavg) at start (no other-work figure: an older filterkit)"
        printf '<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td>%s</td></tr>\n' "$(basename "$f")" \
            "$(field "$f" date | esc)" "$(field "$f" command | esc)" "$(printf '%s' "$other" | esc)"
        warn=$(awk -v what=warning -f "$root/plots/provenance.awk" "$f")
        [ -n "$warn" ] && printf '<tr><td></td><td colspan="3" class="warn">%s: %s</td></tr>\n' "$(basename "$f")" "$(printf '%s' "$warn" | esc)"
    done
    echo "</table>"
fi
echo "<h2>Plots</h2>"
found=0
# in the plots' own order, 1, 2, ... 10, 11 (a glob sorts 10 and 11 first)
for name in $(ls "$plots" 2>/dev/null | sed -n 's/^\([0-9][0-9]*_[A-Za-z0-9_]*\)\.png$/\1/p' | sort -n); do
    found=1
    caption=$("$root/plots/caption.sh" "$name" "$results" "$quick")
    echo "<figure><a href=\"$rel/$name.svg\"><img src=\"$rel/$name.png\" alt=\"$name\"></a>"
    echo "<figcaption><b>$name</b>$( [ -n "$caption" ] && printf ': %s' "$(printf '%s' "$caption" | esc)")</figcaption></figure>"
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
