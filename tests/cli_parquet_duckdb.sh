#!/usr/bin/env bash
# tests/cli_parquet_duckdb.sh: `filterkit parquet` on Parquet files DuckDB
# writes (@duckdb/node-api from npm, installed once into a cache outside the
# source tree, FK_NODE_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/filterkit,
# as tests/redis/cli_redis_node.sh installs node-redis; skipped, saying why,
# without node/npm (make deps-node) or when npm cannot fetch it).
# DuckDB writes a file of 6 row groups with dictionary-encoded INT32, INT64,
# DOUBLE and VARCHAR (BYTE_ARRAY) columns, so a Bloom filter per chunk
# (tests/parquet/duckdb_parquet.js); then for each column 1200 present
# values and as many absent ones go through both `filterkit parquet probe`
# and DuckDB's parquet_bloom_probe, and the answers must be equal line for
# line: the same row groups for every value, false positives included.
# Also: `parquet info` lists every chunk's filter, `parquet extract` gives
# a filter that answers the same, `build --hash parquet` from a chunk's
# values at DuckDB's size makes DuckDB's bitset byte for byte (both through
# `export --sbbf`), and a wrong column, a file that is not
# Parquet and a value that does not parse are errors (exit 2).
# FK_BUILD=<build dir>; prints `N passed, N failed`.
source "$(dirname "$0")/lib_cli.sh"

source "$root/tests/parquet/duckdb_install.sh"
if ! duckdb_install >"$tmp/install.log"; then
    grep -v '^skipped: ' "$tmp/install.log"
    skip "$(sed -n 's/^skipped: //p' "$tmp/install.log")"
fi
cat "$tmp/install.log"

if ! duck write "$tmp" 24576 4096 400 2>"$tmp/write.err"; then
    skip "DuckDB: @duckdb/node-api $duckdb_version does not run here: $(tail -n 1 "$tmp/write.err")"
fi
file=$tmp/data.parquet

# info: a header, then 6 row groups x 4 columns, each with a filter
"$fk" parquet info "$file" >"$tmp/info" 2>"$tmp/info.err"
check "parquet info: exit 0 ($(cat "$tmp/info.err"))" test $? -eq 0
check "parquet info: 24 chunks, each with a filter" \
    test "$(awk -F'\t' 'NR > 1 && $5 ~ /^[0-9]+$/' "$tmp/info" | wc -l)" -eq 24
check "parquet info: types INT32 INT64 DOUBLE BYTE_ARRAY" \
    test "$(awk -F'\t' 'NR > 1 { print $3 "=" $4 }' "$tmp/info" | sort -u | tr '\n' ' ')" = \
         "dbl=DOUBLE i32=INT32 i64=INT64 s=BYTE_ARRAY "
check "parquet info: 400 distinct values per chunk (statistics)" \
    test "$(awk -F'\t' 'NR > 1 { print $8 }' "$tmp/info" | sort -u)" = 400
check "parquet info: FPR from the fill in (0, 0.5)" \
    awk -F'\t' 'NR > 1 && !($7 > 0 && $7 < 0.5) { exit 1 }' "$tmp/info"

# probe: present and absent values against DuckDB's own answers: 1200 of
# each per column (every other of the 2400; 267 in the sanitizer build,
# whose CLI is slower and whose DuckDB side is the same)
declare -A sqltype=([i32]=INTEGER [i64]=BIGINT [dbl]=DOUBLE [s]=VARCHAR)
every=2
[ -n "$build_san" ] && every=9
total_fp=0 total_absent=0
for col in i32 i64 dbl s; do
    for set in present absent; do
        awk -v k="$every" 'NR % k == 1' "$tmp/$col.$set" >"$tmp/$col.$set.some"
        mv "$tmp/$col.$set.some" "$tmp/$col.$set"
    done
    cat "$tmp/$col.present" "$tmp/$col.absent" >"$tmp/$col.values"
    duck probe "$file" "$col" "${sqltype[$col]}" <"$tmp/$col.values" >"$tmp/$col.duck" 2>"$tmp/$col.duck.err"
    check "DuckDB probe $col ran ($(tail -n 1 "$tmp/$col.duck.err"))" test $? -eq 0
    "$fk" parquet probe "$file" "$col" <"$tmp/$col.values" >"$tmp/$col.fk" 2>"$tmp/$col.fk.err"
    check "parquet probe $col: exit 0 ($(head -n 1 "$tmp/$col.fk.err"))" test $? -eq 0
    n=$(wc -l <"$tmp/$col.values")
    same=$(paste -d '\n' "$tmp/$col.fk" "$tmp/$col.duck" | paste - - | awk -F'\t' '$0 != "" && $1 == $3 && $2 == $4' | wc -l)
    check "parquet probe $col: all $n answers equal DuckDB's ($same equal; first difference: $(diff "$tmp/$col.fk" "$tmp/$col.duck" | sed -n 2p))" \
        test "$same" -eq "$n"
    # present values: each in its one row group at least (no false negative)
    check "parquet probe $col: every present value listed" \
        test "$(head -n "$(wc -l <"$tmp/$col.present")" "$tmp/$col.fk" | awk -F'\t' '$2 == ""' | wc -l)" -eq 0
    fp=$(tail -n "$(wc -l <"$tmp/$col.absent")" "$tmp/$col.fk" | awk -F'\t' '$2 != "" { n += split($2, a, ",") } END { print n + 0 }')
    absent=$(wc -l <"$tmp/$col.absent")
    echo "$col: $absent absent values x 6 row groups: $fp false positives, equal in DuckDB"
    total_fp=$((total_fp + fp)) total_absent=$((total_absent + absent * 6))
done
check "some false positives among $total_absent absent probes ($total_fp), so equality covered them" \
    test "$total_fp" -gt 0

# grep's exit status: 1 when no value may be anywhere
printf 'nokey-1\n' >"$tmp/one"
if [ -z "$(cut -f2 <(duck probe "$file" s VARCHAR <"$tmp/one" 2>/dev/null))" ]; then
    "$fk" parquet probe "$file" s <"$tmp/one" >/dev/null
    check "parquet probe: exit 1 when no row group may hold the value" test $? -eq 1
fi
# more files: FILE:ID
cp "$file" "$tmp/copy.parquet"
"$fk" parquet probe "$file" s "$tmp/copy.parquet" <<<"key-5" >"$tmp/two"
check "parquet probe with two files: FILE:ID names" \
    grep -q "^key-5	$file:0.*,$tmp/copy.parquet:0" "$tmp/two"

# a filter filterkit builds with the Parquet scheme from a chunk's values,
# at the size DuckDB chose, is the bitset DuckDB wrote, byte for byte
declare -A fktype=([i32]=int32 [i64]=int64 [dbl]=double [s]=bytes)
for col in i32 i64 dbl s; do
    duck values "$file" "$col" 3 >"$tmp/$col.rg3" 2>"$tmp/$col.rg3.err"
    bytes=$(awk -F'\t' -v c="$col" '$2 == 3 && $3 == c { print $5 }' "$tmp/info")
    "$fk" build --kind blocked --hash parquet --type "${fktype[$col]}" --bytes "$bytes" \
        <"$tmp/$col.rg3" >"$tmp/$col.built.fk" 2>"$tmp/$col.built.err" &&
        "$fk" export --sbbf "$tmp/$col.built.fk" >"$tmp/$col.built.sbbf" &&
        "$fk" parquet extract "$file" "$col" 3 >"$tmp/$col.rg3.fk" &&
        "$fk" export --sbbf "$tmp/$col.rg3.fk" >"$tmp/$col.rg3.sbbf"
    check "build --hash parquet from row group 3's $(wc -l <"$tmp/$col.rg3") $col values = DuckDB's $bytes-byte filter ($(cat "$tmp/$col.rg3.err" "$tmp/$col.built.err" | head -n 2))" \
        cmp -s "$tmp/$col.built.sbbf" "$tmp/$col.rg3.sbbf"
done

# errors
"$fk" parquet probe "$file" nosuch </dev/null 2>"$tmp/err"
check "parquet probe: unknown column is exit 2" test $? -eq 2
check "parquet probe: unknown column names the columns" grep -q "i32 i64 dbl s" "$tmp/err"
printf 'twelve\n' | "$fk" parquet probe "$file" i32 >/dev/null 2>&1
check "parquet probe: a value that does not parse is exit 2" test $? -eq 2
"$fk" parquet info "$tmp/i32.values" >/dev/null 2>&1
check "parquet info: a text file is exit 2" test $? -eq 2

# extract: the filter of row group 2 answers as the probe did for that group
"$fk" parquet extract "$file" s 2 >"$tmp/s2.fk"
check "parquet extract: exit 0" test $? -eq 0
"$fk" query "$tmp/s2.fk" <"$tmp/s.values" >"$tmp/s2.yes"
awk -F'\t' '("," $2 ",") ~ /,2,/ { print $1 }' "$tmp/s.fk" >"$tmp/s2.want"
check "parquet extract: 'filterkit query' of the extracted filter = probe's row group 2" \
    cmp -s "$tmp/s2.yes" "$tmp/s2.want"
"$fk" parquet extract "$file" s 6 >/dev/null 2>&1
check "parquet extract: row group past the end is exit 2" test $? -eq 2
finish
