#!/usr/bin/env bash
# plots/caption.sh NAME RESULTS_DIR [--quick]: the caption of plot NAME
# (e.g. 5_throughput) for the run whose CSVs are in RESULTS_DIR, as
# bench/scripts/index_html.sh prints it under the image. Its reading guide
# is plots/ref/NAME.txt, with each @placeholder@ filled from the CSV the
# plot draws (a caption once said only counting and cuckoo had a remove
# bar while quotient had one too, and described a warning line the plot
# did not draw):
#   @remove_kinds@   (5) the kinds with a remove bar: a remove_ns figure at
#                    the plot's n and fpr 1%
#   @pick_story@     (8) which kind pick recommended, and which were faster
#                    but outside the budget
#   @load_warning@   (8) what the red warning line says, only when the plot
#                    draws one (provenance.awk's rule)
#   @window_bits@    (10) each drawn filter's bits per window item at 1% and
#                    0.1% in this run
#   @window_past@    (11) each drawn filter's share of keys just past the
#                    window (8N/7 to 2N) answering present at 1%
#   @growth_story@   (7) each filter of bench-growth.csv at its last
#                    doubling: bits per item and ns per absent lookup
# then one generated line: the file drawn from and the series it has (plot
# 7: a second, bench-growth.csv's filters, drawn in its right panel), which
# tests/cli_plots.sh compares with the series the image draws. --quick (the
# page of make bench-quick) says that the guide was written for the full
# run's figure (plots/ref/NAME.png), whose sizes and numbers differ.
# Prints plain text (the caller escapes it); nothing when there is no guide.
set -u
name=${1:?plot name}
results=${2:?results folder}
quick=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
ref="$here/ref/$name.txt"
[ -f "$ref" ] || exit 0

# sel FILE COLS WHERE [unique]: named columns of a CSV (plots/csvsel.awk)
sel() {
    [ -s "$results/$1" ] || return 0
    awk -F, -v cols="$2" -v where="$3" -v unique="${4:-}" -f "$here/csvsel.awk" "$results/$1" 2>/dev/null
}
# "a", "a and b", "a, b and c"
listing() {
    awk 'NF { w[++n] = $0 } END {
        if (n == 0) { printf "no kind"; exit }
        for (i = 1; i <= n; i++) printf "%s%s", w[i], (i == n ? "" : i == n - 1 ? " and " : ", ")
    }'
}

file=""; where=""; only=""; kindcol=kind
case "$name" in
1_*) file=sweep-fpr-u64.csv ;;
2_* | 6_*) file=sweep-n-u64.csv ;;
3_*) file=sweep-load-u64.csv ;;
4_*) file=sweep-fpr-u64.csv; only="bloom blocked counting cuckoo fuse ribbon quotient" ;;
5_*)
    file=bench-u64.csv
    n=$(sel "$file" n 'target_fpr=0.01' | head -n 1)
    where="n=$n;target_fpr=0.01" ;;
7_*) file=growth-memory.csv ;;
8_*) file=pick.csv ;;
10_* | 11_*) file=bench-window.csv; kindcol=filter; where="streamed=1"; only="window rotating-bloom apbf apbf-best" ;;
esac
kinds=""
if [ -n "$file" ] && [ -s "$results/$file" ]; then
    if [ "$name" = 3_cuckoo_load ]; then
        kinds=cuckoo
    else
        kinds=$(sel "$file" "$kindcol" "$where" 1)
    fi
    if [ -n "$only" ]; then
        kinds=$(for k in $kinds; do case " $only " in *" $k "*) echo "$k" ;; esac; done)
    fi
fi

remove_kinds=""
pick_story=""
load_warning=""
window_bits=""
window_past=""
growth_story=""
file2=bench-growth.csv
case "$name" in
5_*)
    remove_kinds=$(sel "$file" kind,remove_ns "$where" | awk '$2 != "NaN" { print $1 }' | listing) ;;
8_*)
    if [ -s "$results/$file" ]; then
        pick_story=$(sel "$file" kind,chosen,feasible,lookup50_ns '' | awk '
            { k[NR] = $1; chosen[NR] = $2; fits[NR] = $3; ns[NR] = $4 + 0 }
            END {
                for (i = 1; i <= NR; i++) if (chosen[i] == 1) c = i
                if (!c) { printf "In this run no kind fits the budget."; exit }
                for (i = 1; i <= NR; i++)
                    if (!fits[i] && ns[i] < ns[c]) out = out (out ? ", " : "") k[i]
                printf "In this run pick recommends %s", k[c]
                if (out != "") printf "; faster but outside the budget: %s", out
                printf "."
            }')
        w=$(awk -v what=warning -f "$here/provenance.awk" "$results/$file")
        case "$w" in
        WARNING*) load_warning="The red line at the top is the load warning: other work shared the CPUs while pick measured, so its times read slower than this machine is (the memory axis is unaffected)." ;;
        esac
    fi ;;
10_*)
    # bits per window item of each drawn filter at 1% and at 0.1%, from the run
    for f in 0.01 0.001; do
        line=$(for k in $kinds; do sel "$file" filter,bits_per_window_item "streamed=1;fpr=$f;filter=$k"; done |
            awk 'NF == 2 { printf "%s%s %.1f", (n++ ? ", " : ""), $1, $2 }')
        [ -n "$line" ] && window_bits="$window_bits In this run at fpr $(awk -v f=$f 'BEGIN { printf "%g%%", 100 * f }'), bits per window item: $line."
    done ;;
7_*)
    # the last point of each filter (the CSV lists a filter's doublings in order)
    growth_story=$(sel "$file2" filter,how,doubling,keys,bits_per_key,absent_ns '' | awk '
        !($1 in at) { order[++n] = $1 }
        { at[$1] = $0 }
        END {
            for (i = 1; i <= n; i++) {
                split(at[order[i]], f, " ")
                out = out sprintf("%s%s%s at x%d (%s keys): %.1f bits, %.1f ns", i > 1 ? "; " : "", f[1],
                                  f[2] == "pre-sized" ? " (sized for the end)" : f[2] == "in-place" ? " (grown in place)" : "", 2 ^ f[3], f[4], f[5], f[6])
            }
            if (n) printf "In this run, at the last doubling (bits per item, ns per absent lookup): %s.", out
        }') ;;
11_*)
    line=$(for k in $kinds; do sel "$file" filter,rate_expired "streamed=1;fpr=0.01;filter=$k"; done |
        awk 'NF == 2 && $2 != "NaN" { printf "%s%s %.3g%%", (n++ ? ", " : ""), $1, 100 * $2 }')
    [ -n "$line" ] && window_past="In this run, keys just past the window (aged 8N/7 to 2N) answering present: $line." ;;
esac

text=$(cat "$ref")
text=${text//@remove_kinds@/$remove_kinds}
text=${text//@pick_story@/$pick_story}
text=${text//@load_warning@/$load_warning}
text=${text//@window_bits@/$window_bits}
text=${text//@window_past@/$window_past}
text=${text//@growth_story@/$growth_story}
text=$(printf '%s' "$text" | sed -e 's/  */ /g' -e 's/ *$//')
if [ "$quick" = --quick ]; then
    printf '(Quick run: small sizes, one repeat. The guide below was written for the full run'"'"'s figure, plots/ref/%s.png; its sizes and numbers differ from this one.) ' "$name"
fi
printf '%s' "$text"
if [ -n "$file" ]; then
    if [ -n "$kinds" ]; then
        printf ' Drawn from %s: %s.' "$file" "$(printf '%s\n' $kinds | listing)"
    else
        printf ' (No %s in this run.)' "$file"
    fi
fi
case "$name" in
7_*)
    kinds2=$(sel "$file2" filter '' 1)
    if [ -n "$kinds2" ]; then
        printf ' Drawn from %s: %s.' "$file2" "$(printf '%s\n' $kinds2 | listing)"
    else
        printf ' (No %s in this run.)' "$file2"
    fi ;;
esac
printf '\n'
