#!/usr/bin/env bash
# tests/cli_plots.sh: bench/scripts/plots.sh (`make plots`) redraws from CSVs alone.
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
# Needs gnuplot (says "skipped: ..." without it) and runs for the
# plain build only (it tests the script, not the binary).
#  - no CSVs: exit 1 with a message, no image;
#  - CSVs for only some plots: those are drawn, the others fail by name with
#    gnuplot's reason, exit 1, and no 0-byte image is left anywhere;
#  - text inside the image: no text past its edges (the provenance and
#    warning lines once were), plot 1's legend inside the graph (it once
#    covered the x-axis label): tests/svg_layout.awk;
#  - the load warning: from the other work measured during the run
#    ("# otherload:"), tried on crafted provenance lines;
#  - captions (plots/caption.sh) name the series the plot draws, no other;
#    plots 1 and 4's reading guides name every kind drawn (plot 1's never
#    named window);
#  - series against the legend (tests/svg_series.awk): every series drawn
#    as its legend entry shows it, each kind in the colour and marker of
#    plots/kind_styles.txt, no two kinds alike (plot 1 drew quotient and
#    window in the same purple dots), every legend marker inside the
#    legend's box (plot 8's ring stood out of it);
#  - plots 1 and 4's memory axes end near the kinds other than counting
#    (counting stretched them to 80 bits), counting's points past the edge
#    named; every panel names the command that made its data (plot 7's
#    right panel named nothing);
#  - the results page names every CSV's provenance, lists the plots in
#    their order (1, 2, ... 10, 11, not 10, 11, 1), holds no path of the
#    clone (pick.txt and index.html held it), and make bench's "files
#    written" lists every file it wrote (pick.txt was missing).
. "$(dirname "$0")/lib_cli.sh"
unset FK_SUITE_STARTED # the runs below are outside any suite unless they say
if [ -n "$build_san" ]; then echo "skipped: a sanitizer build (the plain build draws the plots)"; exit 0; fi
if ! command -v gnuplot >/dev/null 2>&1; then
    skip "no gnuplot (apt-get install gnuplot-nox)"
fi

mkdir -p "$tmp/none"
"$root/bench/scripts/plots.sh" "$tmp/none" "$tmp/out0" 2>"$tmp/err"
check "no CSVs: exit 1" test $? -eq 1
check "no CSVs: says so" grep -q 'no CSV files' "$tmp/err"
check "no CSVs: no image" test -z "$(ls "$tmp/out0" 2>/dev/null)"

# only the fpr sweep: plot 1 is drawn; the bench-based plots fail (no
# bench-u64.csv), plots that need other sweeps say what they miss
# (every kind the sweep runs by default, libbloom and window among them)
"$fk" sweep --vary fpr --fpr 10%,1% --n 2000 --repeat 1 --lookups 2000 \
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
check "1_fpr_vs_bits draws window and libbloom" sh -c "grep -q '>window<' '$tmp/out/1_fpr_vs_bits.svg' && grep -q '>libbloom<' '$tmp/out/1_fpr_vs_bits.svg'"
# the memory axis: plot 1's x, plot 4's y. Its last tick is at most twice
# the largest bits per item of the kinds other than counting (whose 4-bit
# counters once stretched both to 80 bits), and counting's points past it
# are named on the image
axis_top() { # SVG x|y: the largest number labelling the x (or y) axis
    awk -v axis="$2" '
        /<g transform="translate\(/ { s = $0; sub(/.*translate\(/, "", s); split(s, xy, /[,)]/)
            a = ($0 ~ /text-anchor="middle"/) ? "x" : ($0 ~ /text-anchor="end"/) ? "y" : "" }
        /<text> *-?[0-9.]+ *<\/text>/ && a == axis { t = $0; sub(/.*<text> */, "", t); sub(/ *<.*/, "", t)
            at = (axis == "x") ? xy[2] : xy[1]; n[at]++; if (!(at in m) || t + 0 > m[at]) m[at] = t + 0 }
        END { for (at in n) if (n[at] > best) { best = n[at]; top = m[at] } print top + 0 }' "$1"
}
others=$(awk -F, -v cols=kind,bits_per_item,bits_per_item_at_full -v where= -f "$root/plots/csvsel.awk" "$tmp/res/sweep-fpr-u64.csv" |
    awk '$1 != "counting" { for (i = 2; i <= 3; i++) if ($i != "NaN" && $i + 0 > m) m = $i + 0 } END { print m + 0 }')
for pa in 1_fpr_vs_bits:x 4_memory_per_item:y; do
    p=${pa%:*}
    top=$(axis_top "$tmp/out/$p.svg" "${pa#*:}")
    check "$p: the memory axis ends at $top bits, at most twice the other kinds' $others (counting does not stretch it)" \
        awk -v t="$top" -v o="$others" 'BEGIN { exit !(t > 0 && t <= 2 * o) }'
    check "$p: counting's points past the axis are named on the image" grep -q '>counting: [0-9]* more points\{0,1\} [a-z]* this edge' "$tmp/out/$p.svg"
done
# ... and the guide under plots 1 and 4 names every kind they draw (plot 1's
# never named window). The kinds: the CLI's, libbloom, and every row of
# plots/kind_styles.txt (the window baselines)
known_kinds=$( { "$fk" help 2>&1 | sed -n '/^filter kinds/,/^$/s/^  \([a-z-]*\) .*/\1/p'; echo libbloom
                 awk '!/^#/ && NF { print $1 }' "$root/plots/kind_styles.txt" 2>/dev/null; } | sort -u)
for p in 1_fpr_vs_bits 4_memory_per_item; do
    guide=$("$root/plots/caption.sh" "$p" "$tmp/res" | sed 's/ Drawn from .*//')
    unnamed=""
    for k in $(awk -f "$root/tests/svg_series.awk" "$tmp/out/$p.svg" | awk -F'\t' '$1 == "series" { split($4, w, " "); print w[1] }' |
               grep -Fx -f <(printf '%s\n' $known_kinds) | sort -u); do
        printf '%s' "$guide" | grep -Eiq "(^|[^a-z-])$k([^a-z-]|\$)" || unnamed="$unnamed $k"
    done
    check "$p: its reading guide names every kind drawn (not named:$unnamed)" test -z "$unnamed"
done
check "only the plots of the fpr sweep (1, 4) kept" test "$(ls "$tmp/out" | grep -c -v '^[14]_')" -eq 0
# provenance and error bars: the SVG carries the commit, the CPU and the
# load at start from the CSV's '#' lines; plot 1 draws FPR intervals
commit=$(sed -n 's/^# commit: //p' "$tmp/res/sweep-fpr-u64.csv")
for svg in "$tmp/out"/*.svg; do
    check "$(basename "$svg"): shows the commit $commit" grep -q "commit $commit" "$svg"
    check "$(basename "$svg"): shows the other work during the run" grep -q "other work [0-9.]* of [0-9]* CPUs during the run" "$svg"
done
# a loaded machine is flagged in red on the image; a quiet one is not
sed 's/^# loadavg: .*/# loadavg: 9.00 9.00 9.00 on 2 CPUs/' "$tmp/res/sweep-fpr-u64.csv" >"$tmp/loaded.csv"
check "provenance.awk: a load of 9 on 2 CPUs is a warning" \
    sh -c "sed '/^# otherload: /d' '$tmp/loaded.csv' | awk -v what=warning -f '$root/plots/provenance.awk' | grep -q '^WARNING: load average 9.00 on 2 CPUs'"
# inside make bench, the suite's own earlier steps are no warning (about one
# busy process: 1.10 on 2 CPUs less 0.95), and more than them still is
sed -e '/^# suiteload: /d' -e '/^# otherload: /d' -e 's/^# loadavg: .*/# loadavg: 1.10 0.90 0.50 on 2 CPUs\n# suiteload: 0.95/' \
    "$tmp/res/sweep-fpr-u64.csv" >"$tmp/own.csv"
check "provenance.awk: load from the suite's own earlier steps is no warning" \
    test -z "$(awk -v what=warning -f "$root/plots/provenance.awk" "$tmp/own.csv")"
sed -e '/^# suiteload: /d' -e '/^# otherload: /d' -e 's/^# loadavg: .*/# loadavg: 2.10 0.90 0.50 on 2 CPUs\n# suiteload: 0.95/' \
    "$tmp/res/sweep-fpr-u64.csv" >"$tmp/own_more.csv"
check "provenance.awk: load beyond the suite's own is a warning that says its share" \
    sh -c "awk -v what=warning -f '$root/plots/provenance.awk' '$tmp/own_more.csv' | grep -q \"^WARNING: load average 2.10 on 2 CPUs when the run started (0.95 of it this suite's own)\""
sed -e '/^# suiteload: /d' -e '/^# otherload: /d' -e 's/^# loadavg: .*/# loadavg: 1.10 0.90 0.50 on 2 CPUs/' \
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
sed -e 's/^# loadavg: .*/# loadavg: 0.05 0.10 0.10 on 2 CPUs/' -e '/^# otherload: /d' "$tmp/res/sweep-fpr-u64.csv" >"$tmp/quiet.csv"
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

# ---- the load warning reflects the run (issue 40: a run flagged as loaded
# by its load average at start measured 20-30% faster than a quiet one):
# the CLI records the CPU time other work took while it measured
# ("# otherload:", /proc/stat at start and end less its own), and the rule
# reads that, not the load average at start
prov_warn() { awk -v what=warning -f "$root/plots/provenance.awk" "$1"; }
check "a CSV records the other work during its run" \
    grep -Eq '^# otherload: [0-9.]+ of [0-9]+ CPUs over [0-9.]+ s \(steal [0-9.]+' "$tmp/res/sweep-fpr-u64.csv"
craft() { # LOADAVG OTHERLOAD > CSV: the sweep's CSV with these two lines
    sed -e '/^# otherload: /d' -e "s/^# loadavg: .*/# loadavg: $1\n# otherload: $2/" "$tmp/res/sweep-fpr-u64.csv"
}
craft "9.00 9.00 9.00 on 2 CPUs" "0.05 of 2 CPUs over 30.0 s (steal 0.00, load average at end 0.40)" >"$tmp/w1.csv"
check "loaded at start, quiet during the run: no warning" test -z "$(prov_warn "$tmp/w1.csv")"
craft "0.05 0.10 0.10 on 2 CPUs" "1.20 of 2 CPUs over 30.0 s (steal 0.00, load average at end 1.30)" >"$tmp/w2.csv"
check "quiet at start, other work took 1.2 of 2 CPUs during the run: a warning that says so" \
    sh -c "awk -v what=warning -f '$root/plots/provenance.awk' '$tmp/w2.csv' | grep -q '^WARNING: other work took 1.20 of 2 CPUs while this run measured (30 s)'"
craft "0.05 0.10 0.10 on 2 CPUs" "0.49 of 2 CPUs over 30.0 s (steal 0.00, load average at end 0.60)" >"$tmp/w3.csv"
check "just under half a CPU of other work on 2: no warning" test -z "$(prov_warn "$tmp/w3.csv")"
craft "0.05 0.10 0.10 on 16 CPUs" "3.00 of 16 CPUs over 30.0 s (steal 0.00, load average at end 3.10)" >"$tmp/w4.csv"
check "3 of 16 CPUs (under a quarter): no warning" test -z "$(prov_warn "$tmp/w4.csv")"
craft "0.05 0.10 0.10 on 16 CPUs" "4.00 of 16 CPUs over 30.0 s (steal 0.00, load average at end 4.10)" >"$tmp/w5.csv"
check "4 of 16 CPUs (a quarter): a warning" sh -c "awk -v what=warning -f '$root/plots/provenance.awk' '$tmp/w5.csv' | grep -q '^WARNING: other work took 4.00 of 16 CPUs'"
craft "0.05 0.10 0.10 on 8 CPUs" "0.00 of 8 CPUs over 30.0 s (steal 1.00, load average at end 0.10)" >"$tmp/w6.csv"
check "a hypervisor stealing 1 of 8 CPUs: a warning that names it" \
    sh -c "awk -v what=warning -f '$root/plots/provenance.awk' '$tmp/w6.csv' | grep -q 'the hypervisor 1.00 more'"
# the measure itself: a busy loop beside a run shows as other work
( while :; do :; done ) &
busy=$!
"$fk" bench --filters bloom --n 300000 --repeat 2 --lookups 300000 --no-fill --out "$tmp/busy" >/dev/null 2>&1
kill "$busy" 2>/dev/null; wait "$busy" 2>/dev/null
other=$(sed -n 's/^# otherload: \([0-9.]*\) .*/\1/p' "$tmp/busy/bench-u64.csv")
check "a busy loop beside the run is measured as other work (got ${other:-none} CPUs, want >= 0.3: a whole CPU on 2 or more, half of one on 1)" \
    awk -v o="${other:-0}" 'BEGIN { exit !(o >= 0.3) }'

# ---- text inside the image. A long CPU name and a loaded run: the
# provenance lines and the warning stay inside the 1100 pixels (they ran
# past the right edge of plots 1, 2, 4 and 7), and no text overlaps the
# x-axis label (plot 1's legend covered it)
mkdir -p "$tmp/long"
sed -e 's/^# cpu: .*/# cpu: AMD EPYC 7B13 64-Core Processor with a long marketing name (2 cores online)/' \
    -e 's/^# otherload: .*/# otherload: 1.90 of 2 CPUs over 300.0 s (steal 0.40, load average at end 2.10)/' \
    "$tmp/res/sweep-fpr-u64.csv" >"$tmp/long/sweep-fpr-u64.csv"
"$root/bench/scripts/plots.sh" "$tmp/long" "$tmp/outlong" >/dev/null 2>&1
for p in 1_fpr_vs_bits 4_memory_per_item; do
    xl=$(sed -n 's/^set xlabel "\(.*\)"$/\1/p' "$root/plots/$p.gp")
    awk -v label="$xl" -f "$root/tests/svg_layout.awk" "$tmp/outlong/$p.svg" >"$tmp/layout" 2>&1
    check "$p: every text inside the image, none over the x label ($(head -c 300 "$tmp/layout"))" test ! -s "$tmp/layout"
    check "$p: the warning is drawn" grep -q '>WARNING: other work took 1.90' "$tmp/outlong/$p.svg"
done
# plot 1's legend sits inside the graph: its entries above the x-axis label
ty() { # SVG TEXT: the y of the text exactly TEXT
    grep -B1 "<text>$2</text>" "$1" | sed -n 's/.*translate([0-9.]*,\([0-9.]*\)).*/\1/p' | head -n 1
}
ylabel=$(ty "$tmp/outlong/1_fpr_vs_bits.svg" "memory per item (bits)")
ykey=$(ty "$tmp/outlong/1_fpr_vs_bits.svg" "lower bound log₂(1\/fpr)")
check "1_fpr_vs_bits: the legend is inside the graph, above the x label (key at y ${ykey:-?}, label at ${ylabel:-?})" \
    awk -v k="${ykey:-9999}" -v l="${ylabel:-0}" 'BEGIN { exit !(k + 0 < l - 20) }'
awk -v what=line -v data=sweep-fpr-u64.csv -f "$root/plots/provenance.awk" "$tmp/long/sweep-fpr-u64.csv" |
    sed 's/\\n/\n/g' >"$tmp/provlines"
check "provenance.awk: the line comes in pieces of at most 160 characters" \
    awk '{ gsub(/[\200-\277]/, "") } length($0) > 160 { bad = 1 } END { exit bad }' "$tmp/provlines"
check "provenance.awk: and loses nothing (the CPU, the data file)" \
    sh -c "tr '\n' ' ' <'$tmp/provlines' | grep -q 'long marketing name.*data: sweep-fpr-u64.csv'"

# ---- captions name what the plot draws (plots/caption.sh). Plot 5 from a
# bench of bloom, counting, cuckoo and quotient: its remove sentence names
# exactly the kinds with a remove figure (it once said counting and cuckoo
# only), and its "Drawn from" line exactly the bars drawn
"$fk" bench --filters bloom,counting,cuckoo,quotient --n 2000 --fpr 1% --repeat 1 --lookups 2000 \
    --no-fill --out "$tmp/cap" >/dev/null 2>&1
mkdir -p "$tmp/cap"
"$fk" pick --n 2000 --fpr 1% --repeat 1 --out "$tmp/cap" >/dev/null 2>&1
"$root/bench/scripts/plots.sh" "$tmp/cap" "$tmp/capout" >/dev/null 2>&1
kinds_in() { printf '%s\n' "$1" | sed 's/, / /g; s/ and / /g' | tr ' ' '\n' | grep . | sort | tr '\n' ' '; }
# the kinds a plot draws as measured series: texts that are a kind's name,
# or start with it and go on as the plots' titles do
drawn() { # SVG
    sed -n 's/.*<text>\([^<]*\)<\/text>.*/\1/p' "$1" | sed -n -E 's/^ *([a-z-]+)( \(| sized| present| absent| single| batched|$).*/\1/p' |
        grep -Ex "$("$fk" help 2>&1 | sed -n '/^filter kinds/,/^$/s/^  \([a-z-]*\) .*/\1/p' | paste -sd '|')|libbloom" | sort -u | tr '\n' ' '
}
cap5=$("$root/plots/caption.sh" 5_throughput "$tmp/cap")
named=$(kinds_in "$(printf '%s' "$cap5" | sed -n 's/.*Only \(.*\) have a remove bar.*/\1/p')")
want=$(awk -F, -v cols=kind,remove_ns -v where= -f "$root/plots/csvsel.awk" "$tmp/cap/bench-u64.csv" | awk '$2 != "NaN" { print $1 }' | sort | tr '\n' ' ')
check "5_throughput caption: the remove bars named are the kinds that have one ('$named' vs '$want')" \
    test -n "$want" -a "$named" = "$want"
for p in 1_fpr_vs_bits 4_memory_per_item; do
    c=$("$root/plots/caption.sh" "$p" "$tmp/res")
    listed=$(kinds_in "$(printf '%s' "$c" | sed -n 's/.*Drawn from [a-z0-9-]*\.csv: \(.*\)\.$/\1/p')")
    check "$p caption names the kinds the plot draws ('$listed' vs '$(drawn "$tmp/out/$p.svg")')" \
        test -n "$listed" -a "$listed" = "$(drawn "$tmp/out/$p.svg")"
done
for p in 5_throughput 8_pick; do
    c=$("$root/plots/caption.sh" "$p" "$tmp/cap")
    listed=$(kinds_in "$(printf '%s' "$c" | sed -n 's/.*Drawn from [a-z0-9-]*\.csv: \(.*\)\.$/\1/p')")
    check "$p caption names the kinds the plot draws ('$listed' vs '$(drawn "$tmp/capout/$p.svg")')" \
        test -n "$listed" -a "$listed" = "$(drawn "$tmp/capout/$p.svg")"
done
chosen=$(awk -F, -v cols=kind -v where=chosen=1 -f "$root/plots/csvsel.awk" "$tmp/cap/pick.csv")
check "8_pick caption names pick's choice ($chosen)" \
    sh -c "'$root/plots/caption.sh' 8_pick '$tmp/cap' | grep -q 'In this run pick recommends $chosen[;.]'"
# the red warning line is described exactly when the image draws it
for load in "0.00 of 2 CPUs over 3.0 s (steal 0.00)" "1.90 of 2 CPUs over 3.0 s (steal 0.00)"; do
    mkdir -p "$tmp/cap8"
    sed "s/^# otherload: .*/# otherload: $load/" "$tmp/cap/pick.csv" >"$tmp/cap8/pick.csv"
    "$root/bench/scripts/plots.sh" "$tmp/cap8" "$tmp/cap8out" >/dev/null 2>&1
    says=0; "$root/plots/caption.sh" 8_pick "$tmp/cap8" | grep -q 'red line' && says=1
    draws=0; grep -q '>WARNING' "$tmp/cap8out/8_pick.svg" && draws=1
    check "8_pick, other work ${load%% *}: the caption describes a warning line ($says) exactly when the plot draws one ($draws)" \
        test "$says" = "$draws"
    rm -rf "$tmp/cap8" "$tmp/cap8out"
done

# ---- make bench's page and its "files written", end to end with a stand-in
# CLI that writes small CSVs at once (the real steps take minutes)
mkdir -p "$tmp/fake"
cat >"$tmp/fake/filterkit" <<FAKE
#!/bin/sh
# stand-in for run_default.sh: each result-writing command writes a CSV
out=""; prev=""
for a in "\$@"; do [ "\$prev" = --out ] && out=\$a; prev=\$a; done
case "\$1" in
info) printf '{\n  "memory_bytes": 1000,\n  "links": 1,\n}\n'; exit 0 ;;
build) echo filter; exit 0 ;;
pick) echo "recommend: bloom"; echo "  build:      $root/build/filterkit build --kind bloom --fpr 0.001 < keys.txt > filter.fk" ;;
bench | sweep) ;;
*) exit 0 ;;
esac
[ -n "\$out" ] && [ "\$out" != - ] || exit 0
mkdir -p "\$out"
name=\$1-u64.csv; [ "\$1" = pick ] && name=pick.csv; [ "\$1" = sweep ] && name=sweep-\$3-u64.csv
{ echo "# commit: c0ffee"; echo "# cpu: stand-in (2 cores online)"; echo "# date: 2026-01-01T00:00:00Z"
  echo "# command: filterkit \$*"; echo "# otherload: 0.00 of 2 CPUs over 1.0 s (steal 0.00)"
  echo "kind,n"; echo "bloom,1000"; } >"\$out/\$name"
echo "\$1 done"
FAKE
chmod +x "$tmp/fake/filterkit"
"$root/bench/scripts/run_default.sh" --quick "$tmp/fake" "$tmp/page" "$tmp/pageplots" >"$tmp/page.log" 2>&1
sed -n '/^files written:/,/^total:/p' "$tmp/page.log" | sed -n 's/^  //p' >"$tmp/written"
check "files written lists pick.txt" grep -q '/pick.txt$' "$tmp/written"
check "files written lists index.html and summary.txt" sh -c "grep -q '/index.html\$' '$tmp/written' && grep -q '/summary.txt\$' '$tmp/written'"
missing=""
for f in "$tmp/page"/*; do grep -qx "$f" "$tmp/written" || missing="$missing $(basename "$f")"; done
check "files written lists every file in the results folder (missing:$missing)" test -z "$missing"
# the page's provenance names every CSV, says what they share, marks a quick run
for f in "$tmp/page"/*.csv; do
    check "index.html: the provenance names $(basename "$f")" grep -q "<td>$(basename "$f")</td>" "$tmp/page/index.html"
done
check "index.html: one commit shared by every CSV is said once, as shared" \
    grep -q "c0ffee (the same in all $(ls "$tmp/page"/*.csv | wc -l) files)" "$tmp/page/index.html"
check "index.html: a quick run says so" grep -q '<b>Quick run</b>' "$tmp/page/index.html"
# no path of this clone in the results (pick once printed the CLI's
# absolute path when it was not on PATH; pick.txt and index.html kept it)
check "pick.txt names the CLI from the repository root" grep -q '^  build:      build/filterkit build --kind bloom' "$tmp/page/pick.txt"
check "no file of the results folder holds the clone's path $root ($(grep -rlF "$root/" "$tmp/page" | tr '\n' ' '))" \
    sh -c "! grep -rqF '$root/' '$tmp/page'"
# the plots in their own order: 1, 2, ... 10, 11 (a glob put 10 and 11 first)
mkdir -p "$tmp/order/res" "$tmp/order/plots"
for n in 1_a 2_b 3_c 9_d 10_e 11_f; do : >"$tmp/order/plots/$n.png"; done
"$root/bench/scripts/index_html.sh" "$tmp/order/res" "$tmp/order/plots" >"$tmp/order/index.html"
order=$(sed -n 's/.*<figcaption><b>\([0-9]*\)_.*/\1/p' "$tmp/order/index.html" | tr '\n' ' ')
check "index.html lists the plots in their order (got: $order)" test "$order" = "1 2 3 9 10 11 "

# ---- plots 10 and 11 (sliding windows) from a small window run: drawn,
# text inside the image, captions naming exactly the filters drawn and
# filled from the run; the window CSV carries its provenance and is one
# table for several (n, fpr)
"$fk" bench --workload window --n 2000 --fpr 1%,0.1% --no-batches --out "$tmp/win" --name bench-window >/dev/null 2>&1
"$root/bench/scripts/plots.sh" "$tmp/win" "$tmp/winout" >/dev/null 2>&1
check "the window CSV carries its provenance" grep -q '^# commit: ' "$tmp/win/bench-window.csv"
check "... and one header line for its two (n, fpr) sets" test "$(grep -c '^filter,' "$tmp/win/bench-window.csv")" = 1
for p in 10_window_bits_vs_fpr 11_window_fpr_by_age; do
    check "$p drawn" test -s "$tmp/winout/$p.png" -a -s "$tmp/winout/$p.svg"
    xl=$(sed -n 's/^set xlabel "\(.*\)"$/\1/p' "$root/plots/$p.gp")
    awk -v label="$xl" -f "$root/tests/svg_layout.awk" "$tmp/winout/$p.svg" >"$tmp/layout" 2>&1
    check "$p: every text inside the image ($(head -c 300 "$tmp/layout"))" test ! -s "$tmp/layout"
    c=$("$root/plots/caption.sh" "$p" "$tmp/win")
    listed=$(kinds_in "$(printf '%s' "$c" | sed -n 's/.*Drawn from [a-z0-9-]*\.csv: \(.*\)\.$/\1/p')")
    shown=$(sed -n 's/.*<text>\([^<]*\)<\/text>.*/\1/p' "$tmp/winout/$p.svg" |
            grep -Ex ' *(window|rotating-bloom|apbf|apbf-best) *' | tr -d ' ' | sort -u | tr '\n' ' ')
    check "$p caption names the filters drawn ('$listed' vs '$shown')" test -n "$listed" -a "$listed" = "$shown"
    check "$p caption: every @placeholder@ filled from the run" bash -c '! grep -q @ <<<"$1" && grep -q "In this run" <<<"$1"' _ "$c"
done

# ---- plot 7 (growth): the chains' memory (growth-memory.csv) and, from
# `bench --workload growth` (bench-growth.csv), expandable's memory and every
# filter's absent lookups per doubling. Drawn, text inside the image, the
# caption naming exactly the series of each file and filled from the run.
# (growth_memory.sh takes seconds: its CSV is crafted here, the real
# provenance lines over a few rows of its columns.)
"$fk" bench --workload growth --n0 200 --grow 8 --fpr 1% --probes 2000 \
    --filters scalable-bloom,scalable-cuckoo,expandable,cuckoo --out "$tmp/g7" >/dev/null 2>&1
check "bench --workload growth writes bench-growth.csv with its provenance" grep -q '^# commit: ' "$tmp/g7/bench-growth.csv"
{ grep '^#' "$tmp/g7/bench-growth.csv"
  echo "kind,s,r,target_fpr,growth,items,links,memory_bytes,bits_per_item,theory_bits_per_item,fixed_bits_per_item"
  for kr in "scalable-bloom 0.9" "scalable-bloom 0.5" "scalable-cuckoo 0.9"; do
      set -- $kr
      for g in 1 2 3 5 7; do echo "$1,2,$2,0.01,$g,$((g * 1000)),2,$((g * 2400)),19.2,$([ "$1" = scalable-bloom ] && echo 17.5),9.6"; done
  done; } >"$tmp/g7/growth-memory.csv"
"$root/bench/scripts/plots.sh" "$tmp/g7" "$tmp/g7out" >/dev/null 2>&1
p=7_growth_memory
check "$p drawn" test -s "$tmp/g7out/$p.png" -a -s "$tmp/g7out/$p.svg"
awk -v label="growth reached (keys / first capacity, log scale)" -f "$root/tests/svg_layout.awk" "$tmp/g7out/$p.svg" >"$tmp/layout" 2>&1
check "$p: every text inside the image, none over the x label ($(head -c 300 "$tmp/layout"))" test ! -s "$tmp/layout"
texts() { sed -n 's/.*<text>\([^<]*\)<\/text>.*/\1/p' "$tmp/g7out/$p.svg" | sed 's/^ *//'; }
first_words() { awk '{ print $1 }' | sort -u | tr '\n' ' '; }
c7=$("$root/plots/caption.sh" "$p" "$tmp/g7")
from() { kinds_in "$(printf '%s' "$c7" | sed -n "s/.*Drawn from $1: \([^.]*\)\..*/\1/p")"; }
mem_drawn=$(texts | grep -E '^scalable-[a-z]+ s=[0-9].*, measured$' | first_words)
look_drawn=$(texts | grep -E '^[a-z-]+ (sized for the end, )?absent$' | first_words)
check "$p caption: growth-memory.csv's kinds are the chains drawn ('$(from growth-memory.csv)' vs '$mem_drawn')" \
    test -n "$mem_drawn" -a "$(from growth-memory.csv)" = "$mem_drawn"
check "$p caption: bench-growth.csv's filters are the lookup series drawn ('$(from bench-growth.csv)' vs '$look_drawn')" \
    test -n "$look_drawn" -a "$(from bench-growth.csv)" = "$look_drawn"
check "$p draws expandable's memory beside the chains" bash -c 'grep -q "^expandable (one table, doubles in place), measured$" <<<"$1"' _ "$(texts)"
check "$p caption: every @placeholder@ filled from the run" bash -c '! grep -q @ <<<"$1" && grep -q "In this run, at the last doubling .*expandable at x8 (1600 keys): [0-9.]* bits, [0-9.]* ns" <<<"$1"' _ "$c7"
# without the growth workload's CSV: the memory panel alone, the caption says so
rm "$tmp/g7/bench-growth.csv"
"$root/bench/scripts/plots.sh" "$tmp/g7" "$tmp/g7b" >/dev/null 2>&1
check "$p without bench-growth.csv: drawn, no lookup series" \
    sh -c "test -s '$tmp/g7b/$p.svg' && ! grep -q ' absent<' '$tmp/g7b/$p.svg'"
check "$p without bench-growth.csv: the caption says it is missing" \
    sh -c "'$root/plots/caption.sh' $p '$tmp/g7' | grep -q '(No bench-growth.csv in this run.)'"

# ---- every panel names the command that made its data: plot 7's two
# panels each in its half (the right one once named nothing)
half=800
prov_in() { # SVG LEFT|RIGHT TEXT: a small-print text in that half holds TEXT
    awk -v side="$2" -v want="$3" -v half="$half" '
        /<g transform="translate\(/ { s = $0; sub(/.*translate\(/, "", s); split(s, xy, /[,)]/); small = ($0 ~ /font-size="8.00"/) }
        /<text>/ && small && index($0, want) && ((side == "left") == (xy[1] + 0 < half)) { found = 1 }
        END { exit !found }' "$1"
}
check "$p (with both files): the left panel names growth-memory.csv" prov_in "$tmp/g7out/$p.svg" left "data: growth-memory.csv"
check "$p: the right panel names bench-growth.csv" prov_in "$tmp/g7out/$p.svg" right "data: bench-growth.csv"
check "$p: the right panel names the command that made it" prov_in "$tmp/g7out/$p.svg" right "bench --workload growth --n0 200"
check "$p: the left panel names the command of expandable's points too" prov_in "$tmp/g7out/$p.svg" left "bench --workload growth --n0 200"
for svg in "$tmp/out/1_fpr_vs_bits.svg" "$tmp/capout/8_pick.svg" "$tmp/winout/10_window_bits_vs_fpr.svg"; do
    check "$(basename "$svg"): names the command that made its data" grep -q '>.*made by: .*filterkit' "$svg"
done

# ---- series against the legend, in every plot drawn above and plots 2
# and 6 (from a small n sweep): tests/svg_series.awk lists what each series
# draws in the legend and outside it
"$fk" sweep --vary n --n 2000,4000 --fpr 1% --repeat 1 --lookups 2000 --out "$tmp/resn" >/dev/null 2>&1
"$root/bench/scripts/plots.sh" "$tmp/resn" "$tmp/outn" >/dev/null 2>&1
# the table: every kind of the CLI has its row, no two rows alike
table=$root/plots/kind_styles.txt
rows=$(awk '!/^#/ && NF' "$table")
cli_kinds=$("$fk" help 2>&1 | sed -n '/^filter kinds/,/^$/s/^  \([a-z-]*\) .*/\1/p')
norow=$(for k in $cli_kinds libbloom; do printf '%s\n' "$rows" | awk -v k="$k" '$1 == k { f = 1 } END { exit !f }' || printf ' %s' "$k"; done)
check "plots/kind_styles.txt has a row for every kind (missing:$norow)" test -z "$norow"
check "plots/kind_styles.txt: each kind once" test -z "$(printf '%s\n' "$rows" | awk '{ print $1 }' | sort | uniq -d)"
check "plots/kind_styles.txt: each kind its own colour" test -z "$(printf '%s\n' "$rows" | awk '{ print tolower($2) }' | sort | uniq -d)"
check "plots/kind_styles.txt: no two kinds the same colour and marker" \
    test -z "$(printf '%s\n' "$rows" | awk '{ print tolower($2) "/" $3; print tolower($2) "/" $4 }' | sort | uniq -d)"
svgs="$tmp/out/1_fpr_vs_bits.svg $tmp/out/4_memory_per_item.svg $tmp/outn/2_lookup_vs_n.svg $tmp/outn/6_batch_vs_n.svg
      $tmp/capout/5_throughput.svg $tmp/capout/8_pick.svg $tmp/g7out/7_growth_memory.svg
      $tmp/winout/10_window_bits_vs_fpr.svg $tmp/winout/11_window_fpr_by_age.svg"
for svg in $svgs; do
    check "$(basename "$svg") drawn for the series check" test -s "$svg"
done
for svg in $svgs; do
    [ -s "$svg" ] || continue
    awk -f "$root/tests/svg_series.awk" "$svg" | sed "s|^|$(basename "$svg" .svg)\t|"
done >"$tmp/series"
for svg in $svgs; do
    b=$(basename "$svg" .svg)
    check "$b: the series check reads its legend ($(awk -F'\t' -v b="$b" '$1 == b && $2 == "series" && $5 != ""' "$tmp/series" | wc -l) entries)" \
        awk -F'\t' -v b="$b" '$1 == b && $2 == "series" && $5 != "" { n++ } END { exit !(n > 0) }' "$tmp/series"
done
# PLOT series PANEL N TITLE KEY DATA  /  PLOT outside PANEL N TITLE PIXELS
series_problems() {
    awk -F'\t' -v table="$table" -v kinds="$(printf '%s ' $known_kinds)" '
        function hex(h,    d) { h = tolower(h); d = "0123456789abcdef"
            return sprintf("%d,%d,%d", (index(d, substr(h, 2, 1)) - 1) * 16 + index(d, substr(h, 3, 1)) - 1,
                (index(d, substr(h, 4, 1)) - 1) * 16 + index(d, substr(h, 5, 1)) - 1,
                (index(d, substr(h, 6, 1)) - 1) * 16 + index(d, substr(h, 7, 1)) - 1) }
        BEGIN { nkn = split(kinds, kn, " "); for (i = 1; i <= nkn; i++) known[kn[i]] = 1
                while ((getline line < table) > 0) { if (line ~ /^#/ || line !~ /[a-z]/) continue
                    split(line, f, " "); col[f[1]] = hex(f[2]); pt[f[1]] = f[3]; open[f[1]] = f[4] } }
        $2 == "outside" { printf "box %s: the legend marker of \"%s\" stands %s px out of the legend box\n", $1, $5, $6; next }
        $2 != "series" { next }
        { id = $1 SUBSEP $3; nk = split($6, key, " "); nd = split($7, dat, " ")
          if ($5 != "") { for (i = 1; i <= nk; i++) ok[id SUBSEP key[i]] = 1
                          for (i = 1; i <= nd; i++) if (index(" " $6 " ", " " dat[i] " ") == 0)
                              printf "legend %s: \"%s\" draws %s, its legend entry shows %s\n", $1, $5, dat[i], $6 }
          else for (i = 1; i <= nd; i++) orphan[++no] = id SUBSEP dat[i] SUBSEP $1
          split($5, w, " "); k = w[1]
          if ($5 == "" || !(k in known)) next
          for (i = 1; i <= nk; i++) { split(key[i], cp, "/")
              if (!(k in col))
                  printf "table %s: \"%s\" drawn, but plots/kind_styles.txt has no row for %s\n", $1, $5, k
              else if (cp[1] != col[k] || (cp[2] != "-" && cp[2] != pt[k] && cp[2] != open[k]))
                  printf "table %s: \"%s\" drawn as %s, but plots/kind_styles.txt gives %s colour %s, point %s or %s\n", $1, $5, key[i], k, col[k], pt[k], open[k]
              if (cp[2] != "-") { if ((key[i] in kind_of) && kind_of[key[i]] != k)
                      printf "alike %s: %s and %s both drawn as %s\n", $1, kind_of[key[i]], k, key[i]
                  kind_of[key[i]] = k } } }
        END { for (i = 1; i <= no; i++) { split(orphan[i], o, SUBSEP)
                  if (!((o[1] SUBSEP o[2] SUBSEP o[3]) in ok))
                      printf "legend %s: a series drawn as %s has no legend entry like it\n", o[4], o[3] } }' "$tmp/series"
}
series_problems >"$tmp/series_problems"
problems() { sed -n "s/^$1 //p" "$tmp/series_problems" | head -n 6 | tr '\n' ';'; }
check "no two kinds drawn in the same colour and marker ($(problems alike))" test -z "$(problems alike)"
check "every legend marker inside the legend's box ($(problems box))" test -z "$(problems box)"
check "every series drawn as its legend entry shows it ($(problems legend))" test -z "$(problems legend)"
check "each kind in its colour and marker of plots/kind_styles.txt ($(problems table))" test -z "$(problems table)"
# bloom and libbloom lie on the same points (plot 1: bloom once hid under
# libbloom's dots of the same shape): where both are drawn, their markers
# differ in shape, not only in colour (filled and hollow are one shape)
same=$(awk -F'\t' '$2 == "series" && ($5 ~ /^bloom( |$)/ || $5 ~ /^libbloom( |$)/) {
        split($5, w, " "); n = split($6, k, " ")
        for (i = 1; i <= n; i++) { split(k[i], cp, "/"); if (cp[2] == "-") continue
            shape = (cp[2] >= 4) ? int(cp[2] / 2) : "p" cp[2]; s[$1, w[1], shape] = 1; plots[$1] = 1 } }
    END { for (p in plots) for (key in s) { split(key, f, SUBSEP)
              if (f[1] == p && f[2] == "bloom" && ((p, "libbloom", f[3]) in s)) print p } }' "$tmp/series" | sort -u | tr '\n' ' ')
check "bloom and libbloom drawn in different shapes (the same in: $same)" test -z "$same"
check "the series check saw the plots' kinds (at least 8 kinds in legends)" \
    test "$(awk -F'\t' '$2 == "series" { split($5, w, " "); print w[1] }' "$tmp/series" | grep -Fx -f <(printf '%s\n' $known_kinds) | sort -u | wc -l)" -ge 8

finish
