#!/usr/bin/env bash
# tests/cli_fuse.sh: the static kind from the command line.
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
#  - build --kind fuse from a file and from a pipe (repeated lines count
#    once), the same bytes either way and for any --threads; query finds
#    every line; info names the kind and its layout; an empty input builds
#    an empty filter;
#  - add, remove, dedup and merge refuse a static filter with one clear
#    line and leave the file as it was;
#  - bench times the build as the insert column (static_kind 1 in the CSV);
#  - pick admits fuse only with --static, and then recommends it where only
#    it fits the memory budget.
. "$(dirname "$0")/lib_cli.sh"

seq 1 20000 | sed 's/^/key-/' >"$tmp/keys"
sed 'p' "$tmp/keys" >"$tmp/twice"

"$fk" build --kind fuse --fpr 0.004 <"$tmp/keys" >"$tmp/a.fk"
check "build from a file" test -s "$tmp/a.fk"
cat "$tmp/twice" | "$fk" build --kind fuse --fpr 0.004 >"$tmp/b.fk"
check "a pipe with every line twice: the same items" grep -q '^items: *20000' <("$fk" info "$tmp/b.fk")
check "... and the same answers" test "$(seq 1 50000 | sed 's/^/key-/' | "$fk" query "$tmp/a.fk" | md5sum)" = \
    "$(seq 1 50000 | sed 's/^/key-/' | "$fk" query "$tmp/b.fk" | md5sum)"
"$fk" build --kind fuse --fpr 0.004 --threads 2 <"$tmp/keys" >"$tmp/c.fk"
check "--threads gives the same bytes" cmp -s "$tmp/a.fk" "$tmp/c.fk"
check "query finds every key" test "$("$fk" query -c "$tmp/a.fk" <"$tmp/keys")" -eq 20000
absent=$(seq 1 100000 | sed 's/^/other-/' | "$fk" query -c "$tmp/a.fk")
check "absent keys: about 2^-8 of them answer maybe ($absent of 100000)" test "$absent" -lt 700
"$fk" info "$tmp/a.fk" >"$tmp/info"
check "info names the kind" grep -q '^kind: *fuse' "$tmp/info"
check "info shows the width once, as the fingerprint bits" sh -c "grep -q '^fingerprint bits: *8' '$tmp/info' && ! grep -q '^fp bits' '$tmp/info'"
check "info shows the items" grep -q '^items: *20000' "$tmp/info"
: | "$fk" build --kind fuse --fpr 0.01 >"$tmp/empty.fk"
check "an empty input builds" test -s "$tmp/empty.fk"
check "an empty filter answers nothing" test "$("$fk" query -c "$tmp/empty.fk" <"$tmp/keys")" -eq 0

cp "$tmp/a.fk" "$tmp/keep.fk"
for cmd in add remove; do
    echo new-key | "$fk" "$cmd" "$tmp/a.fk" 2>"$tmp/err"
    check "$cmd exits 1" test $? -eq 1
    check "$cmd says the filter is static" grep -q 'is static' "$tmp/err"
    check "$cmd: one line" test "$(wc -l <"$tmp/err")" -eq 1
    check "$cmd leaves the file" cmp -s "$tmp/a.fk" "$tmp/keep.fk"
done
echo new-key | "$fk" dedup "$tmp/a.fk" >/dev/null 2>"$tmp/err"
check "dedup into a static filter exits nonzero" test $? -ne 0
check "dedup leaves the file" cmp -s "$tmp/a.fk" "$tmp/keep.fk"
"$fk" merge "$tmp/a.fk" "$tmp/c.fk" >"$tmp/m.fk" 2>"$tmp/err"
check "merge exits 1" test $? -eq 1
check "merge says why" grep -q 'cannot be merged' "$tmp/err"

"$fk" bench --filters fuse,bloom --n 20000 --repeat 1 --no-fill --format csv --out - >"$tmp/bench.csv" 2>/dev/null
check "bench runs fuse" grep -q '^fuse,' "$tmp/bench.csv"
grep -v '^#' "$tmp/bench.csv" >"$tmp/rows.csv"
col=$(head -n 1 "$tmp/rows.csv" | tr ',' '\n' | grep -n '^static_kind$' | cut -d: -f1)
check "bench: fuse is static_kind 1" test "$(grep '^fuse,' "$tmp/rows.csv" | cut -d, -f"$col")" = 1
check "bench: bloom is static_kind 0" test "$(grep '^bloom,' "$tmp/rows.csv" | cut -d, -f"$col")" = 0
# a static kind has no single-key insert, but its u64 lookups are timed
# on the built filter (they read 0.0 before, as if free)
field() { # field ROW COLUMN
    c=$(head -n 1 "$tmp/rows.csv" | tr ',' '\n' | grep -n "^$2\$" | cut -d: -f1)
    grep "^$1," "$tmp/rows.csv" | cut -d, -f"$c"
}
check "bench: fuse has no insert_u64_ns" test -z "$(field fuse insert_u64_ns)"
check "bench: fuse's lookup0_u64_ns is timed" awk -v v="$(field fuse lookup0_u64_ns)" 'BEGIN { exit !(v + 0 > 0) }'
check "bench: fuse's lookup100_u64_ns is timed" awk -v v="$(field fuse lookup100_u64_ns)" 'BEGIN { exit !(v + 0 > 0) }'

# pick: a static kind only with --static, and then it wins on memory
"$fk" pick --n 1000000 --fpr 0.004 --memory 1300K --repeat 1 >"$tmp/pick" 2>"$tmp/pick.err"
check "pick without --static: nothing fits (exit 1)" test $? -eq 1
check "... and it suggests --static" grep -q 'try --static' "$tmp/pick.err"
"$fk" pick --n 1000000 --fpr 0.004 --memory 1300K --static --repeat 1 >"$tmp/pick" 2>/dev/null
check "pick --static recommends fuse" grep -q '^recommend: fuse' "$tmp/pick"
check "... and says what its build costs" grep -q 'ns per key to build' "$tmp/pick"
finish
