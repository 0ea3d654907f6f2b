#!/usr/bin/env bash
# tests/cli_window_bench.sh: `filterkit bench --workload window` at small
# scale: the sliding-window baselines (rotating-bloom, apbf, apbf-best) and
# the cuckoo reference run on one stream; no false negatives inside any
# window; the CSV has its documented columns and each band's share; the
# options it refuses. Prints `N passed, N failed`.
. "$(dirname "$0")/lib_cli.sh"

out="$tmp/w"
"$fk" bench --workload window --filters rotating-bloom,apbf,apbf-best,cuckoo --n 3000 --fpr 1% \
    --probes 20000 --out "$out" >"$tmp/table" 2>"$tmp/err"
rc=$?
check "bench --workload window: exit 0 (no false negatives)" test "$rc" -eq 0
check "the table names every filter" sh -c "grep -q '^rotating-bloom ' '$tmp/table' && grep -q '^apbf ' '$tmp/table' &&
    grep -q '^apbf-best ' '$tmp/table' && grep -q '^cuckoo ' '$tmp/table'"
check "the table gives the ratios to the cuckoo" grep -q '^ratios to cuckoo' "$tmp/table"
csv="$out/bench-window.csv"
check "the CSV is written" test -s "$csv"
head=$(grep -v '^#' "$csv" | head -1) # after the run's provenance ('#' lines)
want="filter,n,fpr,stream,seed,streamed,memory_bytes,bits_per_window_item,theory_fpr,window_checked,window_misses"
for b in window slack expired old never; do want="$want,probes_$b,present_$b,rate_$b"; done
want="$want,insert_ns,insert_batch_ns,absent_ns,found_ns,absent_batch_ns,found_batch_ns,window,lifetime"
check "the CSV header" test "$head" = "$want"
# every streamed filter: all 30000 keys checked, none missing; the window
# band all present; the never-seen band near the target (5 sigma of 1%)
awk -F, '/^#/ { next } $1 != "filter" && $6 == 1 { rows++; if ($10 != 30000 || $11 != 0 || $14 != 1 || $26 > 0.0175) bad++ }
         END { exit !(rows == 3 && bad == 0) }' "$csv"
check "no false negatives, window band 1, never-seen near 1%" test $? -eq 0
# rotating Bloom filters keep a key up to 2N: the expired band (8N/7..2N)
# mostly present; an APBF keeps it at most N + N/l: that band near the rate
awk -F, '$1 == "rotating-bloom" && $20 > 0.3 { r = 1 } $1 == "apbf" && $20 < 0.02 { a = 1 }
         END { exit !(r && a) }' "$csv"
check "expired band: rotating keeps keys to 2N, APBF forgets them" test $? -eq 0
awk -F, '$1 == "cuckoo" { exit !($6 == 0 && $4 == 3000 && $15 == 0) }' "$csv"
check "the cuckoo reference takes N keys and has no slack band" test $? -eq 0

"$fk" bench --workload window --filters apbf --n 2000 --format csv --out - >"$tmp/csv" 2>/dev/null
check "--format csv prints the CSV on stdout" sh -c "head -1 '$tmp/csv' | grep -q '^filter,n,fpr,stream' && test \$(wc -l <'$tmp/csv') -eq 2"
"$fk" bench --workload window --filters apbf --n 2000 --format json --out - >"$tmp/o" 2>"$tmp/e"
check "--format json: refused (exit 2)" sh -c "test $? -eq 2 && grep -q 'table or csv' '$tmp/e' && test ! -s '$tmp/o'"
"$fk" bench --workload nosuch >/dev/null 2>&1
check "--workload nosuch: exit 2" test $? -eq 2
check "bench --help describes the window workload" sh -c "'$fk' bench --help | grep -q -- '--workload'"
check "window_figures.sh parses" bash -n "$root/bench/scripts/window_figures.sh"
finish
