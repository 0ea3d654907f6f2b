#!/usr/bin/env bash
# tests/cli_dedup.sh: `filterkit dedup` and `filterkit merge` in pipelines.
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
#  - dedup prints exactly the lines not seen before (nor earlier in the
#    input), remembers them across runs, creates a missing FILTER from
#    --kind/--fpr/--capacity, refuses to create one without them, and a
#    full filter leaves the file as it was;
#  - merge of two Bloom filters answers for both inputs and equals the filter
#    built from both; incompatible seeds, geometry, kinds, and kinds without
#    a union exit 1 naming the reason;
#  - build --capacity warns when the input exceeds it by more than 10%, and
#    no progress line reaches a file or a pipe.
. "$(dirname "$0")/lib_cli.sh"

seq 1 6000 | sed 's/^/u/' >"$tmp/day1"
seq 4001 10000 | sed 's/^/u/' >"$tmp/day2"

# --- dedup -----------------------------------------------------------------
for kind in bloom counting cuckoo; do
    f="$tmp/$kind.fk"
    # day 1 with every line twice: each printed once, in order
    sed 'p' "$tmp/day1" | "$fk" dedup --kind "$kind" --fpr 1e-6 --capacity 20000 "$f" >"$tmp/out1"
    check "$kind: dedup creates the filter" test -s "$f"
    check "$kind: day 1 printed once each, in order" cmp -s "$tmp/out1" "$tmp/day1"
    # the same from a regular file, which dedup reads in batches looked up
    # together: a line repeated within one batch is still printed once
    sed 'p' "$tmp/day1" >"$tmp/twice"
    "$fk" dedup --kind "$kind" --fpr 1e-6 --capacity 20000 "$tmp/$kind-file.fk" <"$tmp/twice" >"$tmp/out1f"
    check "$kind: day 1 twice from a file (batches): printed once each, in order" cmp -s "$tmp/out1f" "$tmp/day1"
    "$fk" dedup "$f" <"$tmp/day2" >"$tmp/out2"
    check "$kind: day 2 prints only the unseen lines" cmp -s "$tmp/out2" <(seq 6001 10000 | sed 's/^/u/')
    check "$kind: the filter remembers both days" test "$("$fk" query -c -v "$f" <"$tmp/day2")" -eq 0
    check "$kind: a third run prints nothing" test "$("$fk" dedup "$f" <"$tmp/day2" | wc -l)" -eq 0
done
"$fk" dedup "$tmp/new.fk" <"$tmp/day1" >/dev/null 2>"$tmp/err"
check "dedup without a filter or --kind: exit 2" test $? -eq 2
check "dedup says how to create one" grep -q -- '--kind' "$tmp/err"
check "and creates nothing" test ! -e "$tmp/new.fk"
"$fk" dedup --kind bloom --fpr 0.01 --capacity 100 "$tmp/no/such/dir.fk" <"$tmp/day1" >"$tmp/out" 2>"$tmp/err"
check "dedup into a missing folder: exit 1 before any work" test $? -eq 1 -a ! -s "$tmp/out"
check "missing folder: says so" grep -q 'folder does not exist' "$tmp/err"
"$fk" dedup --kind cuckoo --fpr 0.01 --capacity 50 "$tmp/small.fk" </dev/null
cp "$tmp/small.fk" "$tmp/small.orig"
"$fk" dedup "$tmp/small.fk" <"$tmp/day1" >/dev/null 2>"$tmp/err"
check "dedup into a full cuckoo filter: exit 1" test $? -eq 1
check "full: says the file is unchanged" grep -q 'unchanged' "$tmp/err"
check "full: file unchanged" cmp -s "$tmp/small.fk" "$tmp/small.orig"

# --- merge -----------------------------------------------------------------
"$fk" build --kind bloom --fpr 0.001 --capacity 12000 <"$tmp/day1" >"$tmp/a.fk"
"$fk" build --kind bloom --fpr 0.001 --capacity 12000 <"$tmp/day2" >"$tmp/b.fk"
"$fk" merge "$tmp/a.fk" "$tmp/b.fk" >"$tmp/ab.fk"
check "merge exits 0" test $? -eq 0
check "merged filter has both inputs" \
    test "$(cat "$tmp/day1" "$tmp/day2" | "$fk" query -c -v "$tmp/ab.fk")" -eq 0
sort -u "$tmp/day1" "$tmp/day2" | "$fk" build --kind bloom --fpr 0.001 --capacity 12000 >"$tmp/both.fk"
check "merged bits = bits of the filter built from both" \
    cmp -s <("$fk" info --json "$tmp/ab.fk" | grep -v '"items"\|"file"\|"estimated') \
           <("$fk" info --json "$tmp/both.fk" | grep -v '"items"\|"file"\|"estimated')
expect1() { # PATTERN ARGS...: exit 1, nothing on stdout, PATTERN on stderr
    local want=$1; shift
    "$fk" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q -- "$want" "$tmp/err"; then ok
    else bad "filterkit $* -> exit $rc, stderr: $(head -c 200 "$tmp/err")"; fi
}
"$fk" build --kind bloom --fpr 0.001 --capacity 12000 --seed 9 <"$tmp/day2" >"$tmp/seed9.fk"
"$fk" build --kind bloom --fpr 0.01 --capacity 12000 <"$tmp/day2" >"$tmp/fpr01.fk"
expect1 'seeds differ' merge "$tmp/a.fk" "$tmp/seed9.fk"
expect1 'geometry differs' merge "$tmp/a.fk" "$tmp/fpr01.fk"
expect1 'same kind' merge "$tmp/a.fk" "$tmp/counting.fk"
expect1 'no merge for this kind (kinds that merge: bloom' merge "$tmp/counting.fk" "$tmp/counting.fk"
# a counting kind with a merge slot: counts add (items of both inputs)
seq 1 300 | "$fk" build --kind quotient --fpr 0.01 --capacity 1000 >"$tmp/qa.fk"
seq 201 500 | "$fk" build --kind quotient --fpr 0.01 --capacity 1000 >"$tmp/qb.fk"
check "quotient merge exits 0" sh -c '"$0" merge "$1" "$2" >"$3"' "$fk" "$tmp/qa.fk" "$tmp/qb.fk" "$tmp/qab.fk"
check "quotient merge holds both inputs" test "$(seq 1 500 | "$fk" query -c "$tmp/qab.fk")" = 500
check "quotient merge adds the counts" sh -c '"$0" info "$1" | grep -q "^items: *600$"' "$fk" "$tmp/qab.fk"
expect1 'No such file' merge "$tmp/a.fk" "$tmp/missing.fk"
"$fk" merge "$tmp/a.fk" >/dev/null 2>&1
check "merge with one file: exit 2" test $? -eq 2

# --- build: capacity warning, no progress on a file or pipe -------------------
seq 1 1200 | "$fk" build --kind bloom --fpr 0.01 --capacity 1000 >/dev/null 2>"$tmp/err"
check "build warns at 20% over capacity" grep -q 'warning: 1200 lines read (1[12][0-9][0-9] inserted as new keys) for a capacity of 1000' "$tmp/err"
# a saturated Bloom filter skips most lines ("maybe present"): the warning
# still counts the lines read
seq 1 50000 | "$fk" build --kind bloom --fpr 0.01 --capacity 10 >/dev/null 2>"$tmp/err"
check "build over capacity counts lines read, not inserts" grep -q 'warning: 50000 lines read' "$tmp/err"
seq 1 1050 | "$fk" build --kind bloom --fpr 0.01 --capacity 1000 >/dev/null 2>"$tmp/err"
check "no warning at 5% over" test ! -s "$tmp/err"
seq 1 300000 | "$fk" build --kind counting --fpr 0.01 2>"$tmp/err" | cat >/dev/null
check "no progress line on a file" test ! -s "$tmp/err"

finish
