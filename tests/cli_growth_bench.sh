#!/usr/bin/env bash
# tests/cli_growth_bench.sh: `filterkit bench --workload growth` at a small
# scale (n0 = 500, x16): a point per kind per doubling in the CSV, the
# kinds taking the growth as their fk_ops say (grown, in-place, pre-sized),
# the properties the workload is there to show (the expandable kind's FPR
# held at every doubling, the quotient filter's rising as it grows in
# place, the pre-sized reference's memory fixed), the table's summary, and
# the argument errors. FK_BUILD=<build dir>; prints `N passed, N failed`.
set -u
build=${FK_BUILD:-build}
fk="$build/filterkit"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

kinds=expandable,scalable-cuckoo,scalable-bloom,quotient,cuckoo
"$fk" bench --workload growth --n0 500 --grow 16 --fpr 0.001 --probes 20000 --filters "$kinds" \
    --out "$tmp/res" >"$tmp/table" 2>"$tmp/err"
check "growth bench exits 0 ($(head -c 300 "$tmp/err"))" test $? -eq 0
csv="$tmp/res/bench-growth.csv"
check "the CSV is written" test -s "$csv"
col() { # NAME: the column's number in the CSV header
    grep -v '^#' "$csv" | head -n 1 | tr ',' '\n' | grep -n -x "$1" | cut -d: -f1
}
check "the CSV starts with its provenance" grep -q '^# commit: ' "$csv"
check "the CSV header" test "$(grep -v '^#' "$csv" | head -n 1)" = \
    "filter,how,n0,growth,fpr,seed,probes,doubling,keys,stopped,memory_bytes,bits_per_key,measured_fpr,absent_ns,absent_batch_ns,insert_ns"
for k in expandable scalable-cuckoo scalable-bloom quotient cuckoo; do
    check "$k: a point at each of the 5 doublings" test "$(grep -c "^$k," "$csv")" -eq 5
done
# keys at doubling g are 500 * 2^g for every kind
check "keys = n0 2^doubling at every point" \
    awk -F, -v d="$(col doubling)" -v k="$(col keys)" '!/^#/ && $1 != "filter" && $k != 500 * 2 ^ $d { bad = 1 } END { exit bad }' "$csv"
how() { grep "^$1," "$csv" | head -n 1 | cut -d, -f2; }
check "the chains and expandable grow by themselves" test "$(how expandable),$(how scalable-cuckoo)" = "grown,grown"
check "quotient grows in place" test "$(how quotient)" = in-place
check "cuckoo is the pre-sized reference" test "$(how cuckoo)" = pre-sized
fprcol=$(col measured_fpr) memcol=$(col memory_bytes)
# expandable made for 0.001 holds it at every doubling (20000 probes:
# 0.001 + 4 sigma is 0.00122)
check "expandable's FPR stays under the target at every doubling" \
    awk -F, -v c="$fprcol" '$1 == "expandable" && $c > 0.00122 { bad = 1 } END { exit bad }' "$csv"
# the quotient filter gives a remainder bit per doubling: its FPR rises
q0=$(grep '^quotient,' "$csv" | head -n 1 | cut -d, -f"$fprcol")
q4=$(grep '^quotient,' "$csv" | tail -n 1 | cut -d, -f"$fprcol")
check "quotient's FPR rises as it grows in place ($q0 -> $q4)" awk -v a="$q0" -v b="$q4" 'BEGIN { exit !(b > 4 * a && b > 0.004) }'
check "the pre-sized cuckoo's memory is fixed" \
    test "$(grep '^cuckoo,' "$csv" | cut -d, -f"$memcol" | sort -u | wc -l)" -eq 1
e0=$(grep '^expandable,' "$csv" | head -n 1 | cut -d, -f"$memcol")
e4=$(grep '^expandable,' "$csv" | tail -n 1 | cut -d, -f"$memcol")
check "expandable's memory grows ($e0 -> $e4)" test "$e4" -ge $((8 * e0))
check "the table ends with the summary over the reference" grep -q '^At the end (.*x: over cuckoo)' "$tmp/table"
check "the summary has a line per kind" test "$(sed -n '/^At the end/,$p' "$tmp/table" | grep -c -E '^(expandable|scalable-cuckoo|scalable-bloom|quotient|cuckoo) ')" -eq 5

# CSV on stdout, no file with --out -
"$fk" bench --workload growth --n0 200 --grow 2 --probes 1000 --filters expandable --format csv --out - \
    >"$tmp/stdout" 2>/dev/null
check "--format csv prints the CSV" test "$(grep -c '^expandable,grown,200,2,' "$tmp/stdout")" -eq 2

# the default filters: every kind that grows or resizes, and the reference
"$fk" bench --workload growth --n0 200 --grow 2 --probes 1000 --no-batches --format csv --out - \
    >"$tmp/defaults" 2>/dev/null
for k in expandable scalable-cuckoo scalable-bloom quotient cuckoo; do
    check "default filters include $k" grep -q "^$k," "$tmp/defaults"
done
check "no Bloom filter of fixed size by default" test "$(grep -c '^bloom,' "$tmp/defaults")" -eq 0

# --presized: a growing kind also made for the end size (its own row, its
# own summary line), the ratios over the reference's pre-sized run
"$fk" bench --workload growth --n0 500 --grow 4 --probes 20000 --no-batches --filters expandable,quotient \
    --presized quotient,expandable --reference quotient --out "$tmp/pres" >"$tmp/ptable" 2>"$tmp/err"
check "--presized exits 0 ($(head -c 300 "$tmp/err"))" test $? -eq 0
pcsv="$tmp/pres/bench-growth.csv"
for run in expandable,grown quotient,in-place quotient,pre-sized expandable,pre-sized; do
    check "--presized: $run has a point at each of the 3 doublings" test "$(grep -c "^$run," "$pcsv")" -eq 3
done
# pre-sized: memory fixed from the first point, keys still n0 2^g
check "--presized quotient: made for the end (memory fixed)" \
    test "$(grep '^quotient,pre-sized,' "$pcsv" | cut -d, -f"$memcol" | sort -u | wc -l)" -eq 1
check "--presized expandable: made for the end (memory fixed)" \
    test "$(grep '^expandable,pre-sized,' "$pcsv" | cut -d, -f"$memcol" | sort -u | wc -l)" -eq 1
check "--presized: a summary line per run (4)" \
    test "$(sed -n '/^At the end/,$p' "$tmp/ptable" | grep -c -E '^(expandable|quotient) ')" -eq 4
# the reference named twice (in place, pre-sized): its pre-sized run is the 1.00
check "--presized: the ratios are over the reference's pre-sized run" \
    awk '/^At the end/ { s = 1 } s && $1 == "quotient" && $2 == "pre-sized" && $7 == "1.00" { ok = 1 } END { exit !ok }' "$tmp/ptable"
"$fk" bench --workload growth --n0 200 --grow 2 --presized cuckoo --out - >"$tmp/out" 2>"$tmp/err"
check "--presized cuckoo (pre-sized already): exit 2, says why" \
    test $? -eq 2 -a ! -s "$tmp/out" -a "$(grep -c 'pre-sized already' "$tmp/err")" -ge 1
"$fk" bench --workload growth --n0 200 --grow 2 --presized nosuch --out - >"$tmp/out" 2>"$tmp/err"
check "--presized nosuch: exit 2" test $? -eq 2 -a ! -s "$tmp/out"

for args in "--grow 3" "--grow 1" "--n0 0" "--format json"; do
    # shellcheck disable=SC2086
    "$fk" bench --workload growth $args --out - >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "bench --workload growth $args: exit 2, usage" test "$rc" -eq 2 -a ! -s "$tmp/out"
done

# the figures script is a thin call of this workload (no second copy)
check "expandable_figures.sh runs filterkit bench --workload growth" \
    grep -q 'bench --workload growth' "$here/../bench/figures/expandable_figures.sh"

# bench/figures/expandable_sizing.sh (issue 50), small: made for 1% and 0.1%
# at capacity 200, grown 64-fold, 20,000 probes at each full table: a row
# per target, 1% in fewer bits per key with fewer slot bits, the worst FPR
# under the target's binomial bound (1%: 0.01 + 4 sd of 20,000 probes =
# 1.28%; 0.1%: 0.19%), no false negative
BUILD=$build sh "$here/../bench/figures/expandable_sizing.sh" 200 64 20000 >"$tmp/sizing" 2>"$tmp/err"
check "expandable_sizing.sh runs" test $? -eq 0
rows=$(grep -c '^| 0\.0' "$tmp/sizing")
check "expandable_sizing.sh: a row for 1% and one for 0.1% ($rows)" test "$rows" -eq 2
check "expandable_sizing.sh: 1% in fewer slot bits and bits per key than 0.1%" \
    awk -F'|' '/^\| 0\.01 /{ w1 = $6; b1 = $8 } /^\| 0\.001 /{ w2 = $6; b2 = $8 } END { exit !(w1 < w2 && b1 < b2) }' "$tmp/sizing"
check "expandable_sizing.sh: worst FPR under the bound, no false negatives" \
    awk -F'|' '/^\| 0\.0/{ t = $2 * 100; split($9, w, "%"); lim = t == 1 ? 1.28 : 0.19; if (w[1] + 0 > lim || $11 + 0 != 0) bad = 1 } END { exit bad }' "$tmp/sizing"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
