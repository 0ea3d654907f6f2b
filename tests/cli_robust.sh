#!/usr/bin/env bash
# tests/cli_robust.sh: the CLI as a dependable shell tool (issue 11, defects 2-7).
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
#  - every subcommand exits 1 with one line on stderr when stdout cannot be
#    written (> /dev/full), and 0 when it can;
#  - numeric options are bounded at parse time, the range named in the error
#    (--repeat 858993460 used to overflow a heap buffer in bench/sweep/pick);
#    decimal only (no hex floats), subnormal rates accepted;
#  - pick never recommends a kind whose theory cannot reach the target, and
#    exits 1 with the reasons when nothing fits;
#  - info / query check the header first: /dev/zero and a 1 GiB non-filter
#    fail at once under a small address-space limit;
#  - one CRLF rule: build, query and bench --keys give the same keys for a
#    CRLF and an LF file; --binary-lines keeps the CR;
#  - `help build extra` blames the extra argument.
. "$(dirname "$0")/lib_cli.sh"
sanitized=0
[ -n "$build_san" ] && sanitized=1

seq 1 2000 | sed 's/^/k/' >"$tmp/keys"
"$fk" build --kind counting --fpr 0.01 <"$tmp/keys" >"$tmp/c.fk"
"$fk" build --kind bloom --fpr 0.01 --capacity 4000 <"$tmp/keys" >"$tmp/b.fk"
cp "$tmp/b.fk" "$tmp/b2.fk"
"$fk" build --kind quotient --fpr 0.01 <"$tmp/keys" >"$tmp/q.fk"
"$fk" build --kind blocked --hash parquet --type bytes --bytes 4096 <"$tmp/keys" >"$tmp/p.fk"

# --- stdout that cannot be written -------------------------------------
# one cheap real run per subcommand; `filterkit help` lists them all, so a
# new subcommand without a line here fails the coverage check below.
declare -A run=(
    [bench]="bench --filters bloom --n 1000 --repeat 1 --lookups 1000 --no-fill --out -"
    [sweep]="sweep --vary n --n 1000 --filters bloom --repeat 1 --lookups 1000 --out -"
    [pick]="pick --n 1000 --fpr 0.1 --repeat 1"
    [columns]="columns"
    [trace]="trace bloom apple"
    [theory]="theory --table counters"
    [build]="build --kind bloom --fpr 0.01"
    [query]="query $tmp/c.fk"
    [info]="info $tmp/c.fk"
    [add]="add --help"
    [remove]="remove $tmp/c.fk"
    [merge]="merge $tmp/b.fk $tmp/b2.fk"
    [export]="export --sbbf $tmp/p.fk"
    [grow]="grow $tmp/q.fk"
    [dedup]="dedup $tmp/d.fk --kind bloom --fpr 0.01 --capacity 100"
    [parquet]="parquet info $root/tests/parquet/duckdb_small.parquet"
    [completion]="completion bash"
)
cmds=$("$fk" help | awk '/^commands:/{on=1; next} on && !NF {exit} on {print $1}')
check "help lists the subcommands" test -n "$cmds"
for c in $cmds; do
    if [ -z "${run[$c]:-}" ]; then bad "$c: no /dev/full case in tests/cli_robust.sh"; continue; fi
    # shellcheck disable=SC2086
    "$fk" ${run[$c]} <"$tmp/keys" >/dev/full 2>"$tmp/err"
    rc=$?
    check "$c > /dev/full exits 1 (got $rc)" test "$rc" -eq 1
    # (progress lines, "filterkit bench: [3/40] ...", are not messages)
    check "$c > /dev/full: one line on stderr" test "$(grep -cv '^filterkit [a-z]*: \[[0-9/]*\]' "$tmp/err")" -eq 1
    check "$c > /dev/full: says stdout" grep -q 'stdout' "$tmp/err"
    rm -f "$tmp/d.fk"
done
# add writes nothing to stdout: /dev/full is no failure for it
check "add > /dev/full: nothing to write, exit 0" "$fk" add "$tmp/b2.fk" <"$tmp/keys" >/dev/full
check "help > /dev/full exits 1" test "$("$fk" help >/dev/full 2>/dev/null; echo $?)" -eq 1

# --- option ranges ---------------------------------------------------------
# expect2 PATTERN ARGS...: exit 2, the error names PATTERN, nothing on stdout
expect2() {
    local want=$1; shift
    "$fk" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -qF -- "$want" "$tmp/err"; then
        ok
    else
        bad "filterkit $* -> exit $rc, stderr: $(head -c 200 "$tmp/err")"
    fi
}
for c in bench sweep pick; do
    extra=(); [ "$c" = sweep ] && extra=(--vary n); [ "$c" = pick ] && extra=(--n 1000 --fpr 0.01)
    expect2 "[1, 1000]" "$c" "${extra[@]}" --repeat 858993460
    expect2 "[1, 1000]" "$c" "${extra[@]}" --repeat 4294967297
    expect2 "[1, 1000]" "$c" "${extra[@]}" --repeat 0
done
expect2 "2^48" bench --n 281474976710657
expect2 "2^48" pick --n 9223372036854775808 --fpr 1e-300
expect2 "2^48" build --kind bloom --fpr 0.01 --capacity 1e15
expect2 "2^64-1" bench --seed 18446744073709551616
expect2 "(0,1)" build --kind bloom --fpr 0x1p-3
expect2 "(0,1)" build --kind bloom --fpr inf
expect2 "(0,1)" build --kind bloom --fpr 1e-400
expect2 "(0,1)" trace bloom --fpr 0x1p-3 apple
expect2 "1e6" bench --lookups 0x10
check "a subnormal rate is a rate" "$fk" build --kind bloom --fpr 1e-320 <"$tmp/keys" >"$tmp/tiny.fk"
expect2 "extra" help build extra

# --- pick -------------------------------------------------------------------
"$fk" pick --n 1000 --fpr 1e-300 >"$tmp/out" 2>"$tmp/err"
check "pick: nothing reaches 1e-300, exit 1" test $? -eq 1
check "pick: says no filter fits" grep -q 'no filter meets' "$tmp/err"
check "pick: cuckoo ruled out by its theory" grep -q 'cuckoo: its theoretical fpr at capacity is' "$tmp/err"
check "pick: recommends nothing" test "$(grep -c recommend "$tmp/out")" -eq 0
"$fk" pick --n 1000 --fpr 0.01 --memory 100 >"$tmp/out" 2>"$tmp/err"
check "pick: a budget nothing fits, exit 1" test $? -eq 1
check "pick: says which budget" grep -q 'over the 100 B budget' "$tmp/err"

# --- info / query read the header first ---------------------------------------
expect1() { # ARGS...: exit 1, one line on stderr, nothing on stdout
    "$fk" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then ok
    else bad "filterkit $* -> exit $rc, stderr: $(head -c 200 "$tmp/err")"; fi
}
truncate -s 1G "$tmp/big"
if [ "$sanitized" -eq 0 ]; then # ASan needs a huge address space of its own
    for c in info query; do
        want=1; [ "$c" = query ] && want=2 # query exits as grep: 2 on an error
        ( ulimit -v 100000; "$fk" "$c" /dev/zero </dev/null >"$tmp/out" 2>"$tmp/err" )
        check "$c /dev/zero under ulimit -v 100 MB: exit $want" test $? -eq $want
        check "$c /dev/zero: says it is not a filter" grep -q 'not a filter' "$tmp/err"
        ( ulimit -v 100000; "$fk" "$c" "$tmp/big" </dev/null >/dev/null 2>&1 )
        check "$c on a 1 GiB non-filter under ulimit -v 100 MB: exit $want" test $? -eq $want
    done
fi
expect1 info /dev/zero
expect1 add "$tmp/big"
# a filter read through a pipe (not seekable) loads the same
check "info reads a filter from a pipe" \
    test "$(cat "$tmp/c.fk" | "$fk" info /dev/stdin | grep '^items')" = "$("$fk" info "$tmp/c.fk" | grep '^items')"
check "a pipe with bytes after the filter is refused" \
    test "$(cat "$tmp/c.fk" /dev/zero | head -c 100000 | "$fk" info /dev/stdin >/dev/null 2>&1; echo $?)" -eq 1

# --- one CRLF rule ---------------------------------------------------------------
seq 1 3000 | sed 's/^/line-/' >"$tmp/lf"
sed 's/$/\r/' "$tmp/lf" >"$tmp/crlf"
check "CRLF file differs from LF" test "$(cmp -s "$tmp/lf" "$tmp/crlf"; echo $?)" -eq 1
"$fk" build --kind bloom --fpr 0.001 <"$tmp/crlf" >"$tmp/crlf.fk"
"$fk" build --kind bloom --fpr 0.001 <"$tmp/lf" >"$tmp/lf.fk"
check "build: CRLF and LF give the same filter" cmp -s "$tmp/crlf.fk" "$tmp/lf.fk"
check "query: LF keys in a CRLF-built filter" test "$("$fk" query -c "$tmp/crlf.fk" <"$tmp/lf")" -eq 3000
check "query: CRLF keys in an LF-built filter" test "$("$fk" query -c "$tmp/lf.fk" <"$tmp/crlf")" -eq 3000
check "query prints the key (no CR)" cmp -s <("$fk" query "$tmp/lf.fk" <"$tmp/crlf") "$tmp/lf"
"$fk" build --kind bloom --fpr 0.001 --binary-lines <"$tmp/crlf" >"$tmp/bin.fk"
n=$("$fk" query -c "$tmp/bin.fk" <"$tmp/lf")
check "--binary-lines keeps the CR: LF keys are absent ($n found)" test "$n" -le 30
check "--binary-lines on both sides" test "$("$fk" query -c --binary-lines "$tmp/bin.fk" <"$tmp/crlf")" -eq 3000
bench_cols() { # the key-dependent columns of a tiny bench run on file $1
    "$fk" bench --filters bloom --keys "$1" "${@:2}" --n 2000 --repeat 1 --lookups 2000 --no-fill \
        --out - --format csv | grep -v '^#' | cut -d, -f1-4,8-12,15-17
}
check "bench --keys: CRLF and LF give the same keys" cmp -s <(bench_cols "$tmp/crlf") <(bench_cols "$tmp/lf")
check "bench --keys --binary-lines keeps the CR" \
    test "$(cmp -s <(bench_cols "$tmp/crlf" --binary-lines) <(bench_cols "$tmp/lf"); echo $?)" -eq 1

finish
