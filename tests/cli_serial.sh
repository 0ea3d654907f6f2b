#!/usr/bin/env bash
# tests/cli_serial.sh: `filterkit build`, `query` and `info` end to end.
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
#  - for every kind that can be saved: build from lines, query finds every
#    key (no false negatives), -c counts, -v is the complement, info
#    describes the file;
#  - the deduplication pipeline of `filterkit query --help`;
#  - keys are whole lines: empty lines, spaces, a last line without newline;
#  - errors: bad usage exits 2, a missing, truncated, corrupted or non-filter
#    file exits 1 with one line on stderr and nothing on stdout.
set -u
build=${FK_BUILD:-build}
fk="$build/filterkit"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { # description, then a command that must succeed
    local what=$1; shift
    if "$@"; then ok; else bad "$what"; fi
}

if [ ! -x "$fk" ]; then
    echo "no CLI at $fk" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

seq 1 20000 | sed 's/^/user-/' >"$tmp/seen"
seq 10001 30000 | sed 's/^/user-/' >"$tmp/incoming"

for kind in bloom counting cuckoo; do
    # only kinds the build can save (cuckoo may not be there yet)
    "$fk" build --kind "$kind" --fpr 0.01 </dev/null >"$tmp/probe.fk" 2>/dev/null || continue
    f="$tmp/$kind.fk"
    check "$kind: build" "$fk" build --kind "$kind" --fpr 0.001 <"$tmp/seen" >"$f"
    check "$kind: no false negatives" \
        test "$("$fk" query "$f" <"$tmp/seen" | cmp - "$tmp/seen" && echo same)" = same
    n=$("$fk" query -c "$f" <"$tmp/incoming")
    # 10000 of incoming are in; of the 10000 others ~0.1% are false positives
    check "$kind: -c counts ($n)" test "$n" -ge 10000 -a "$n" -le 10100
    nv=$("$fk" query -cv "$f" <"$tmp/incoming")
    check "$kind: -v is the complement ($n + $nv)" test $((n + nv)) -eq 20000
    check "$kind: -v -c == -cv" test "$("$fk" query -v -c "$f" <"$tmp/incoming")" = "$nv"
    "$fk" info "$f" >"$tmp/info" 2>"$tmp/err"
    check "$kind: info exits 0" test $? -eq 0
    check "$kind: info names the kind" grep -q "^kind: *$kind\$" "$tmp/info"
    # every distinct line is stored (bloom skips a line it already answers
    # "maybe present" to, which sets no new bit; counting and cuckoo store it)
    items=$(sed -n 's/^items: *//p' "$tmp/info")
    check "$kind: info counts the items ($items)" test "$items" -ge 19950 -a "$items" -le 20000
    check "$kind: info gives the file size" \
        grep -q "^file bytes: .* ($(wc -c <"$f" | tr -d ' ') bytes)\$" "$tmp/info"
    # each figure once (cuckoo listed its width and kicks twice, as the
    # header's "fp bits (f)", "kicks so far" and the rows' names)
    check "$kind: info lists each figure once ($(cut -d: -f1 "$tmp/info" | sort | uniq -d | tr '\n' ' '))" \
        sh -c "test -z \"\$(cut -d: -f1 '$tmp/info' | sort | uniq -d)\" && test \$(grep -cE '^(fp bits|fingerprint bits|kicks)' '$tmp/info') -le 2"
    check "$kind: info gives the random reads a lookup makes" grep -qE '^lookup reads: *[1-9]' "$tmp/info"
    # (a kind that fills up gets 25% headroom for later adds)
    want=20000; [ "$kind" = cuckoo ] && want=25000
    check "$kind: info gives the capacity (the line count, +25% for cuckoo)" grep -q "^capacity: *$want\$" "$tmp/info"
    "$fk" build --kind "$kind" --fpr 0.01 --capacity 50000 --seed 7 <"$tmp/seen" >"$tmp/cap.fk"
    check "$kind: --capacity is used" grep -q "^capacity: *50000\$" <("$fk" info "$tmp/cap.fk")
    check "$kind: --seed is used" grep -q "^seed: *7\$" <("$fk" info "$tmp/cap.fk")
    check "$kind: same input, same bytes" \
        cmp -s "$f" <("$fk" build --kind "$kind" --fpr 0.001 <"$tmp/seen")
done

# Duplicate lines are stored once: a cuckoo filter does not run out of slots.
for kind in bloom counting cuckoo; do
    "$fk" build --kind "$kind" --fpr 0.01 </dev/null >/dev/null 2>&1 || continue
    yes same-line | head -n 100 >"$tmp/dups"
    check "$kind: 100 copies of one line" "$fk" build --kind "$kind" --fpr 0.01 <"$tmp/dups" >"$tmp/dups.fk"
    check "$kind: stored once" grep -q "^items: *1\$" <("$fk" info "$tmp/dups.fk")
done
# A cuckoo filter too small for its keys: exit 1, a hint, nothing on stdout.
"$fk" build --kind cuckoo --fpr 0.01 --capacity 10 <"$tmp/seen" >"$tmp/out" 2>"$tmp/err"
check "cuckoo: overfull build fails" test $? -eq 1 -a ! -s "$tmp/out"
check "cuckoo: overfull build says why" grep -q 'capacity' "$tmp/err"

# The dedup pipeline: lines of incoming not seen before.
"$fk" build --kind bloom --fpr 1e-6 <"$tmp/seen" >"$tmp/seen.fk"
"$fk" query -v "$tmp/seen.fk" <"$tmp/incoming" >"$tmp/fresh"
check "dedup: fresh lines are exactly the unseen ones" \
    cmp -s "$tmp/fresh" <(seq 20001 30000 | sed 's/^/user-/')
check "dedup: works in a pipe" \
    test "$(cat "$tmp/incoming" | "$fk" query -v "$tmp/seen.fk" | wc -l)" -eq 10000

# Keys are whole lines, byte for byte.
printf 'a b\n\n  x\nlast-without-newline' >"$tmp/odd"
"$fk" build --kind bloom --fpr 1e-9 <"$tmp/odd" >"$tmp/odd.fk"
check "lines: all four keys found" test "$("$fk" query -c "$tmp/odd.fk" <"$tmp/odd")" -eq 4
check "lines: spaces matter" test "$(printf 'a  b\nx\n' | "$fk" query -c "$tmp/odd.fk")" -eq 0
check "lines: the empty line is a key" test "$(printf '\n' | "$fk" query -c "$tmp/odd.fk")" -eq 1
check "lines: capacity defaults to the line count" grep -q "^capacity: *4\$" <("$fk" info "$tmp/odd.fk")
"$fk" build --kind bloom --fpr 0.01 </dev/null >"$tmp/empty.fk"
check "empty input: a valid filter" grep -q "^items: *0\$" <("$fk" info "$tmp/empty.fk")

# expect CODE CMD...: exit CODE, nothing on stdout, something on stderr that
# starts with "filterkit".
expect() {
    local want=$1; shift
    "$fk" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq "$want" ] && [ ! -s "$tmp/out" ] && grep -q '^filterkit' "$tmp/err"; then
        ok
    else
        bad "filterkit $* -> exit $rc (want $want), stdout $(wc -c <"$tmp/out") bytes, stderr: $(head -c 200 "$tmp/err")"
    fi
}
expect 2 build --fpr 0.01
expect 2 build --kind bloom
expect 2 build --kind no-such-kind --fpr 0.01
expect 2 build --kind bloom --fpr 1.5
expect 2 build --kind bloom --fpr 0.01 --capacity 0
expect 2 build --kind bloom --fpr 0.01 extra
expect 2 query
expect 2 query a.fk b.fk
expect 2 query -x "$tmp/seen.fk"
expect 2 query --nope "$tmp/seen.fk"
expect 2 info
expect 2 query "$tmp/does-not-exist.fk"     # query exits as grep: 2 on an error
expect 1 info "$tmp/does-not-exist.fk"
expect 1 info "$tmp/seen"                  # text, not a filter
head -c 100 "$tmp/seen.fk" >"$tmp/cut.fk"
expect 2 query "$tmp/cut.fk"               # truncated
cp "$tmp/seen.fk" "$tmp/flip.fk"
printf '\x01' | dd of="$tmp/flip.fk" bs=1 seek=300 conv=notrunc 2>/dev/null
expect 2 query "$tmp/flip.fk"              # one byte changed
expect 1 info "$tmp/flip.fk"
{ cat "$tmp/seen.fk"; printf 'x'; } >"$tmp/long.fk"
expect 1 info "$tmp/long.fk"               # trailing byte
expect 1 info "$tmp"                       # a directory
# a newer format version: the version field and its check word (v ^ 0x5AA5)
cp "$tmp/seen.fk" "$tmp/v2.fk"
printf '\x02\x00\xa7\x5a' | dd of="$tmp/v2.fk" bs=1 seek=8 conv=notrunc 2>/dev/null
expect 1 info "$tmp/v2.fk"
check "newer version: says so" grep -q 'not supported' "$tmp/err"

# Issue 38: a legal quotient file with one runends byte (table byte 9) set
# to 0x80 and its checksum recomputed (tests/test_serial.c writes it, with
# the other kinds' forged seeds, into the load fuzzer's corpus) puts a
# run's groups out of order: refused, so no grow can turn it into a file
# that no longer loads. The chain forged with a link over its capacity too,
# and an expandable record with one 9-bit fingerprint in a filter of 8-bit
# ones (no entry is ever longer than a new one).
srcdir=$(cd "$(dirname "$0")" && pwd)
for forged in quotient scalable-bloom scalable-blocked expandable; do
    expect 1 info "$srcdir/fuzz/corpus/load/$forged-forged.fk"
    check "forged $forged file: info says it is corrupt" grep -q 'corrupt' "$tmp/err"
    expect 1 grow "$srcdir/fuzz/corpus/load/$forged-forged.fk"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
