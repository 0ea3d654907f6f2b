#!/usr/bin/env bash
# bench/figures/parquet_duckdb.sh [ROW_GROUPS] [VALUES]: the figures of
# issue 53's closing note, DuckDB and filterkit in one run (DuckDB 1.5 from
# npm, @duckdb/node-api, installed as tests/cli_parquet_duckdb.sh installs it).
#
# 1. The filters DuckDB writes: a file of ROW_GROUPS (default 200) row
#    groups of 4096 rows, INT32, INT64, DOUBLE and VARCHAR columns of 400
#    distinct values per chunk (dictionary-encoded, so a Bloom filter per
#    chunk, at DuckDB's default settings); per column, from `filterkit
#    parquet info`: filter bytes, bits per distinct value, the FPR the fill
#    gives (mean over chunks), and the FPR measured with every absent value
#    (400 per row group) probed against every row group by filterkit
#    (false positives / probes); then VALUES of those probed by both
#    filterkit and DuckDB's parquet_bloom_probe, their false positives
#    counted and every answer compared.
# 2. Probe throughput over that file: values per second through `filterkit
#    parquet probe` (whole command: open, footer, every filter read, then
#    the values) and through DuckDB's parquet_bloom_probe (one prepared
#    query per value, in node; its time in the queries) on the same VALUES
#    values of the INT64 column (half present, half absent), each answer
#    compared; and filterkit on 1000 times as many values.
# Defaults 200 and 500: about 2 minutes, most of it DuckDB's queries (each
# reads the footer and every row group's filter again).
# Run from the repository root after `make`. Timings are wall-clock on a
# possibly shared machine: the script prints the load average beside them.
set -u
groups=${1:-200} values=${2:-500}
build=${BUILD:-build}
fk="$build/filterkit"
[ -x "$fk" ] || { echo "$0: no $fk; run make first (BUILD=$build)" >&2; exit 1; }
source tests/parquet/duckdb_install.sh
duckdb_install || exit 1
duck_timeout=1800
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }

duck write "$tmp" $((groups * 4096)) 4096 400 || exit 1
file=$tmp/data.parquet
echo "file: $groups row groups x 4096 rows, 4 columns of 400 distinct values per chunk ($(stat -c %s "$file") bytes); load average: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "## The filters DuckDB $duckdb_version wrote (defaults) and their FPR"
"$fk" parquet info "$file" >"$tmp/info"
printf '%-6s %-11s %6s %8s %9s %-26s %s\n' column type bytes bits/ndv fill_fpr "measured_fpr (fp/probes)" \
    "filterkit vs DuckDB on $values absent values"
declare -A sqltype=([i32]=INTEGER [i64]=BIGINT [dbl]=DOUBLE [s]=VARCHAR)
count_fp() { awk -F'\t' '$2 != "" { c += split($2, a, ",") } END { print c + 0 }' "$1"; }
for col in i32 i64 dbl s; do
    "$fk" parquet probe "$file" "$col" <"$tmp/$col.absent" >"$tmp/$col.all"
    fk_fp=$(count_fp "$tmp/$col.all")
    probes=$(( $(wc -l <"$tmp/$col.absent") * groups ))
    awk -v k=$(( $(wc -l <"$tmp/$col.absent") / values )) 'NR % k == 1' "$tmp/$col.absent" | head -n "$values" >"$tmp/$col.q"
    "$fk" parquet probe "$file" "$col" <"$tmp/$col.q" >"$tmp/$col.q.fk"
    duck probe "$file" "$col" "${sqltype[$col]}" <"$tmp/$col.q" >"$tmp/$col.q.duck" 2>/dev/null
    both="$(count_fp "$tmp/$col.q.fk") vs $(count_fp "$tmp/$col.q.duck") false positives, $(cmp -s "$tmp/$col.q.fk" "$tmp/$col.q.duck" && echo "answers equal" || echo "answers DIFFER")"
    awk -F'\t' -v col="$col" -v fp="$fk_fp" -v probes="$probes" -v both="$both" '
        NR > 1 && $3 == col { t = $4; b += $5; bpd += $9; fill += $7; k++ }
        END { printf "%-6s %-11s %6.0f %8.2f %9.4f %-26s %s\n", col, t, b / k, bpd / k, fill / k,
              sprintf("%.4f (%d/%d)", fp / probes, fp, probes), both }' "$tmp/info"
done

echo
echo "## Probe throughput, INT64 column, $groups row groups"
{ head -n $((values / 2)) "$tmp/i64.present"; head -n $((values / 2)) "$tmp/i64.absent"; } >"$tmp/q"
t0=$(now)
duck probe "$file" i64 BIGINT <"$tmp/q" >"$tmp/q.duck" 2>"$tmp/q.duck.err"
t1=$(now)
"$fk" parquet probe "$file" i64 <"$tmp/q" >"$tmp/q.fk"
t2=$(now)
for _ in $(seq 1000); do cat "$tmp/q"; done >"$tmp/q100"
t3=$(now)
"$fk" parquet probe "$file" i64 <"$tmp/q100" >/dev/null
t4=$(now)
same=$(cmp -s "$tmp/q.fk" "$tmp/q.duck" && echo "all equal" || echo "DIFFERENT")
awk -v n="$values" -v d="$(echo "$t1 - $t0" | bc)" -v f="$(echo "$t2 - $t1" | bc)" -v f100="$(echo "$t4 - $t3" | bc)" \
    -v inner="$(sed -n 's/^probed [0-9]* values in \([0-9.]*\) s$/\1/p' "$tmp/q.duck.err")" -v same="$same" 'BEGIN {
    printf "DuckDB parquet_bloom_probe: %d values in %.3f s (node included; %.3f s in the queries): %.0f values/s\n", n, d, inner, n / inner
    printf "filterkit parquet probe:    %d values in %.3f s (the whole command):             %.0f values/s\n", n, f, n / f
    printf "filterkit parquet probe:    %d values in %.3f s (the whole command):           %.0f values/s\n", 1000 * n, f100, 1000 * n / f100
    printf "answers for the %d values: %s; ratio (filterkit %d values / DuckDB queries): %.0fx\n", n, same, 1000 * n, (1000 * n / f100) / (n / inner)
}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
