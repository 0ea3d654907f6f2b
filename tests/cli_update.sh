#!/usr/bin/env bash
# tests/cli_update.sh: `filterkit build` stores every distinct line, and
# `add` / `remove` change a saved filter in place, atomically.
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
#  - the deletes test: for every kind that can remove, build from 20000
#    lines at fpr 5% (so hundreds of lines are false positives of earlier
#    ones), remove the first half through the CLI, and find every key of the
#    other half (no false negatives);
#  - duplicate lines are stored once (items = distinct lines) and removed once;
#  - remove counts the definitely absent keys and refuses kinds without removes;
#  - add then query finds the new keys; a failed add leaves the file as it was
#    (a full cuckoo table; a file size limit standing in for a full disk), and
#    no temporary file is left behind; the file keeps its permissions.
. "$(dirname "$0")/lib_cli.sh"

seq 1 20000 | sed 's/^/key-/' >"$tmp/all"
head -n 10000 "$tmp/all" >"$tmp/first"
tail -n 10000 "$tmp/all" >"$tmp/second"
seq 1 5000 | sed 's/^/never-/' >"$tmp/never"

for kind in counting cuckoo; do
    f="$tmp/$kind.fk"
    "$fk" build --kind "$kind" --fpr 0.05 <"$tmp/all" >"$f"
    check "$kind: build" test -s "$f"
    # At 5% a filter answers "maybe present" for hundreds of these keys
    # before they are inserted; each must be stored all the same.
    check "$kind: every distinct line stored" grep -q '^items: *20000$' <("$fk" info "$f")
    out=$("$fk" remove "$f" <"$tmp/first")
    check "$kind: remove reports ($out)" test "$out" = "removed 10000, definitely absent 0, repeated lines 0"
    check "$kind: items after remove" grep -q '^items: *10000$' <("$fk" info "$f")
    check "$kind: no false negatives after removing half" \
        test "$("$fk" query -c -v "$f" <"$tmp/second")" -eq 0
    # the same through repeated lines: each line twice, stored and removed once
    sed 'p' "$tmp/all" >"$tmp/twice"
    "$fk" build --kind "$kind" --fpr 0.05 --capacity 20000 <"$tmp/twice" >"$f"
    check "$kind: duplicates stored once" grep -q '^items: *20000$' <("$fk" info "$f")
    out=$(sed 'p' "$tmp/first" | "$fk" remove "$f")
    check "$kind: duplicates removed once ($out)" \
        test "$out" = "removed 10000, definitely absent 0, repeated lines 10000"
    check "$kind: no false negatives after removing duplicated lines" \
        test "$("$fk" query -c -v "$f" <"$tmp/second")" -eq 0
    # keys never added: those the filter surely lacks are counted, nothing changes
    nabsent=$("$fk" query -c -v "$f" <"$tmp/never")
    out=$("$fk" remove "$f" < <("$fk" query -v "$f" <"$tmp/never"))
    check "$kind: absent keys counted ($out)" \
        test "$out" = "removed 0, definitely absent $nabsent, repeated lines 0"
    check "$kind: and nothing changed" grep -q '^items: *10000$' <("$fk" info "$f")
    # --unique-input keeps no line set and, on unique lines, builds the same bytes
    "$fk" build --kind "$kind" --fpr 0.05 <"$tmp/all" >"$tmp/set.fk"
    "$fk" build --kind "$kind" --fpr 0.05 --unique-input <"$tmp/all" >"$tmp/unique.fk"
    check "$kind: --unique-input builds the same filter" cmp -s "$tmp/set.fk" "$tmp/unique.fk"
    # add: the removed half comes back
    check "$kind: add" "$fk" add "$f" <"$tmp/first"
    check "$kind: items after add" grep -q '^items: *20000$' <("$fk" info "$f")
    check "$kind: added keys found" test "$("$fk" query -c -v "$f" <"$tmp/all")" -eq 0
done

# Kinds without removes: remove is refused, the file untouched.
"$fk" build --kind bloom --fpr 0.01 <"$tmp/all" >"$tmp/bloom.fk"
cp "$tmp/bloom.fk" "$tmp/bloom.orig"
"$fk" remove "$tmp/bloom.fk" <"$tmp/first" >"$tmp/out" 2>"$tmp/err"
check "bloom: remove exits 1" test $? -eq 1 -a ! -s "$tmp/out"
check "bloom: remove says why" grep -q 'cannot remove' "$tmp/err"
check "bloom: file unchanged" cmp -s "$tmp/bloom.fk" "$tmp/bloom.orig"
check "bloom: add" "$fk" add "$tmp/bloom.fk" <"$tmp/never"
check "bloom: added keys found" test "$("$fk" query -c "$tmp/bloom.fk" <"$tmp/never")" -eq 5000

# Atomic replacement: permissions kept, no temporary file left.
chmod 640 "$tmp/bloom.fk"
"$fk" add "$tmp/bloom.fk" </dev/null
check "add keeps the file's mode" test "$(stat -c %a "$tmp/bloom.fk")" = 640
check "no temporary file left" test "$(ls "$tmp" | grep -c '\.tmp-')" -eq 0

# A full cuckoo table: exit 1, the file as it was.
"$fk" build --kind cuckoo --fpr 0.01 --capacity 100 </dev/null >"$tmp/small.fk"
cp "$tmp/small.fk" "$tmp/small.orig"
"$fk" add "$tmp/small.fk" <"$tmp/all" 2>"$tmp/err"
check "full cuckoo: add exits 1" test $? -eq 1
check "full cuckoo: says so" grep -q 'full' "$tmp/err"
check "full cuckoo: file unchanged" cmp -s "$tmp/small.fk" "$tmp/small.orig"

# A write that fails (a file size limit: writes past it fail with EFBIG,
# like a full disk): exit 1, the old file intact, no temporary file.
cp "$tmp/bloom.fk" "$tmp/bloom.orig"
( trap '' XFSZ; ulimit -f 4; "$fk" add "$tmp/bloom.fk" <"$tmp/never" ) 2>"$tmp/err"
check "failed write: add exits 1" test $? -eq 1
check "failed write: says the file is unchanged" grep -q 'unchanged' "$tmp/err"
check "failed write: file intact" cmp -s "$tmp/bloom.fk" "$tmp/bloom.orig"
check "failed write: no temporary file left" test "$(ls "$tmp" | grep -c '\.tmp-')" -eq 0

# Usage errors exit 2; a missing file exits 1.
"$fk" add </dev/null >/dev/null 2>&1
check "add without FILTER exits 2" test $? -eq 2
"$fk" remove "$tmp/a.fk" "$tmp/b.fk" </dev/null >/dev/null 2>&1
check "remove with two files exits 2" test $? -eq 2
"$fk" add "$tmp/missing.fk" </dev/null >/dev/null 2>&1
check "add to a missing file exits 1" test $? -eq 1

finish
