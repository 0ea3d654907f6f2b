#!/usr/bin/env bash
# tests/cli_plots.sh: bench/scripts/plots.sh (`make plots`) redraws from CSVs alone.
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
# Needs gnuplot (says "skipped: ..." without it) and runs for the
# plain build only (it tests the script, not the binary).
#  - no CSVs: exit 1 with a message, no image;
#  - CSVs for only some plots: those are drawn, the others fail by name with
#    gnuplot's reason, exit 1, and no 0-byte image is left anywhere.
. "$(dirname "$0")/lib_cli.sh"
unset FK_SUITE_STARTED # the runs below are outside any suite unless they say
case "$build" in */san) echo "skipped: the sanitizer build folder (the plain build draws the plots)"; exit 0;; esac
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "skipped: no gnuplot (apt-get install gnuplot-nox)"
    exit 0
fi

mkdir -p "$tmp/none"
"$root/bench/scripts/plots.sh" "$tmp/none" "$tmp/out0" 2>"$tmp/err"
check "no CSVs: exit 1" test $? -eq 1
check "no CSVs: says so" grep -q 'no CSV files' "$tmp/err"
check "no CSVs: no image" test -z "$(ls "$tmp/out0" 2>/dev/null)"

# only the fpr sweep: plot 1 is drawn; the bench-based plots fail (no
# bench-u64.csv), plots that need other sweeps say what they miss
"$fk" sweep --vary fpr --fpr 10%,1% --n 2000 --filters bloom,cuckoo,quotient --repeat 1 --lookups 2000 \
    --out "$tmp/res" >/dev/null 2>&1
"$root/bench/scripts/plots.sh" "$tmp/res" "$tmp/out" >"$tmp/log" 2>"$tmp/err"
check "some plots fail: exit 1" test $? -eq 1
check "plot 1 drawn" test -s "$tmp/out/1_fpr_vs_bits.png" -a -s "$tmp/out/1_fpr_vs_bits.svg"
check "a failed plot is named with a reason" grep -q 'lookup_vs_n failed, nothing written: .*sweep-n-u64.csv' "$tmp/err"
check "no 0-byte image" test -z "$(find "$tmp/out" -type f -size 0)"
check "no scratch folder left" test -z "$(find "$tmp/out" -name '.drawing-*')"
# plots 1 and 4 draw every kind of the sweep (plot 4 once drew no quotient)
for k in bloom cuckoo quotient; do
    for p in 1_fpr_vs_bits 4_memory_per_item; do
        check "$p draws $k" grep -q ">$k[ <]" "$tmp/out/$p.svg"
    done
done
check "only the plots of the fpr sweep (1, 4) kept" test "$(ls "$tmp/out" | grep -c -v '^[14]_')" -eq 0
# provenance and error bars: the SVG carries the commit, the CPU and the
# load at start from the CSV's '#' lines; plot 1 draws FPR intervals
commit=$(sed -n 's/^# commit: //p' "$tmp/res/sweep-fpr-u64.csv")
for svg in "$tmp/out"/*.svg; do
    check "$(basename "$svg"): shows the commit $commit" grep -q "commit $commit" "$svg"
    check "$(basename "$svg"): shows the load at start" grep -q "on [0-9]* CPUs at start" "$svg"
done
# a loaded machine is flagged in red on the image; a quiet one is not
sed 's/^# loadavg: .*/# loadavg: 9.00 9.00 9.00 on 2 CPUs/' "$tmp/res/sweep-fpr-u64.csv" >"$tmp/loaded.csv"
check "provenance.awk: a load of 9 on 2 CPUs is a warning" \
    sh -c "awk -v what=warning -f '$root/plots/provenance.awk' '$tmp/loaded.csv' | grep -q '^WARNING: load average 9.00 on 2 CPUs'"
# inside make bench, the suite's own earlier steps are no warning (about one
# busy process: 1.10 on 2 CPUs less 0.95), and more than them still is
sed -e '/^# suiteload: /d' -e 's/^# loadavg: .*/# loadavg: 1.10 0.90 0.50 on 2 CPUs\n# suiteload: 0.95/' \
    "$tmp/res/sweep-fpr-u64.csv" >"$tmp/own.csv"
check "provenance.awk: load from the suite's own earlier steps is no warning" \
    test -z "$(awk -v what=warning -f "$root/plots/provenance.awk" "$tmp/own.csv")"
sed -e '/^# suiteload: /d' -e 's/^# loadavg: .*/# loadavg: 2.10 0.90 0.50 on 2 CPUs\n# suiteload: 0.95/' \
    "$tmp/res/sweep-fpr-u64.csv" >"$tmp/own_more.csv"
check "provenance.awk: load beyond the suite's own is a warning that says its share" \
    sh -c "awk -v what=warning -f '$root/plots/provenance.awk' '$tmp/own_more.csv' | grep -q \"^WARNING: load average 2.10 on 2 CPUs when the run started (0.95 of it this suite's own\""
sed -e '/^# suiteload: /d' -e 's/^# loadavg: .*/# loadavg: 1.10 0.90 0.50 on 2 CPUs/' \
    "$tmp/res/sweep-fpr-u64.csv" >"$tmp/alone.csv"
check "provenance.awk: the same load outside a suite is a warning" \
    sh -c "awk -v what=warning -f '$root/plots/provenance.awk' '$tmp/alone.csv' | grep -q '^WARNING: load average 1.10 on 2 CPUs when the run started:'"
# the CLI writes that share inside a suite (FK_SUITE_STARTED: make bench's
# start), 1 - exp(-t/60) after t seconds, and nothing outside one
FK_SUITE_STARTED=$(($(date +%s) - 60)) "$fk" bench --filters bloom --n 1000 --repeat 1 \
    --lookups 1000 --no-fill --out "$tmp/suite" >/dev/null 2>&1
check "a run 60 s into a suite records suiteload 0.63 (1 - 1/e)" \
    grep -q '^# suiteload: 0\.6[34]$' "$tmp/suite/bench-u64.csv"
check "a run outside a suite records no suiteload" \
    sh -c "! grep -q '^# suiteload' '$tmp/res/sweep-fpr-u64.csv'"
sed 's/^# loadavg: .*/# loadavg: 0.05 0.10 0.10 on 2 CPUs/' "$tmp/res/sweep-fpr-u64.csv" >"$tmp/quiet.csv"
check "provenance.awk: a quiet machine is no warning" \
    test -z "$(awk -v what=warning -f "$root/plots/provenance.awk" "$tmp/quiet.csv")"
# the numbering: every script is N_name.gp and draws N_name.png
for gp in "$root"/plots/[0-9]*.gp; do
    name=$(basename "$gp" .gp)
    check "$name.gp draws $name" grep -q "png('$name')\|$name.png" "$gp"
done
# one numbering: a number names one plot, in plots/*.gp and plots/ref/ alike
dups=$( (cd "$root/plots" && ls [0-9]*.gp; cd "$root/plots/ref" && ls [0-9]*.png) 2>/dev/null |
        sed 's/\.[a-z]*$//' | sort -u | cut -d_ -f1 | sort | uniq -d | tr '\n' ' ')
check "one number, one plot, across plots/*.gp and plots/ref/ (shared: $dups)" test -z "$dups"
# ... and the reference set is complete: each plot make bench draws has its
# image in plots/ref/ with a "What to see" note beside it
noref=""
for gp in "$root"/plots/[0-9]*.gp; do
    name=$(basename "$gp" .gp)
    [ -s "$root/plots/ref/$name.png" ] && [ -s "$root/plots/ref/$name.txt" ] || noref="$noref $name"
done
check "every plots/N_name.gp has plots/ref/N_name.png and .txt (missing:$noref)" test -z "$noref"

finish
