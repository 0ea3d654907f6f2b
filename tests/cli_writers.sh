#!/usr/bin/env bash
# tests/cli_writers.sh: the commands that rewrite a filter file (add,
# remove, dedup) take turns (issue 22): two `add` runs on one file, and
# `add` beside `dedup`, keep every key of both batches; a symlink stays a
# link and its target is replaced; the file's mode is kept exactly;
# `dedup` warns when creation options are ignored for an existing file;
# a FIFO or device named as the filter is refused and left in place.
source "$(dirname "$0")/lib_cli.sh"

# count_absent FILTER KEYFILE: keys of KEYFILE the filter says are absent
# (query prints the keys the filter may hold)
count_absent() { echo $(($(wc -l <"$2") - $("$fk" query "$1" <"$2" | wc -l))); }
# holds FILTER KEY: the filter may hold KEY
holds() { test "$(printf '%s\n' "$2" | "$fk" query "$1")" = "$2"; }

seq -f 'a%g' 1 60000 >"$tmp/A"
seq -f 'b%g' 1 60000 >"$tmp/B"
seq -f 'c%g' 1 60000 >"$tmp/C"

for run in 1 2 3; do
    rm -f "$tmp/c.fk"
    printf 'seed\n' | "$fk" build --kind bloom --fpr 0.001 --capacity 400000 >"$tmp/c.fk"
    "$fk" add "$tmp/c.fk" <"$tmp/A" & p1=$!
    "$fk" add "$tmp/c.fk" <"$tmp/B" & p2=$!
    "$fk" dedup "$tmp/c.fk" <"$tmp/C" >/dev/null & p3=$!
    wait $p1; r1=$?; wait $p2; r2=$?; wait $p3; r3=$?
    check "run $run: add, add and dedup exit 0 ($r1 $r2 $r3)" test "$r1$r2$r3" = 000
    for b in A B C; do
        n=$(count_absent "$tmp/c.fk" "$tmp/$b")
        check "run $run: every key of batch $b present ($n absent)" test "$n" = 0
    done
done
check "no temporary file left" test -z "$(ls "$tmp" | grep tmp-)"

# two dedups creating one new file: one creates, the other waits and adds
rm -f "$tmp/new.fk"
"$fk" dedup --kind scalable-bloom --fpr 0.001 "$tmp/new.fk" <"$tmp/A" >/dev/null 2>&1 & p1=$!
"$fk" dedup --kind scalable-bloom --fpr 0.001 "$tmp/new.fk" <"$tmp/B" >/dev/null 2>"$tmp/warn" & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
check "two dedups creating one file exit 0" test "$r1$r2" = 00
for b in A B; do
    n=$(count_absent "$tmp/new.fk" "$tmp/$b")
    check "created by racing dedups: batch $b present ($n absent)" test "$n" = 0
done

# dedup warns when its creation options are ignored
printf 'x\n' | "$fk" dedup --kind bloom --fpr 0.5 --capacity 10 "$tmp/new.fk" >/dev/null 2>"$tmp/warn"
check "dedup warns that --kind/--fpr/--capacity are ignored" grep -q "ignored" "$tmp/warn"
printf 'y\n' | "$fk" dedup "$tmp/new.fk" >/dev/null 2>"$tmp/warn"
check "no warning without options" test ! -s "$tmp/warn"

# a symlink stays a link; its target is replaced; the mode is kept
mkdir -p "$tmp/real"
printf 'k1\n' | "$fk" build --kind cuckoo --fpr 0.01 --capacity 1000 >"$tmp/real/v1.fk"
chmod 0640 "$tmp/real/v1.fk"
ln -s real/v1.fk "$tmp/current.fk"
printf 'k2\n' | "$fk" add "$tmp/current.fk"
check "add: the link is still a link" test -L "$tmp/current.fk"
check "add: the link points where it did" test "$(readlink "$tmp/current.fk")" = real/v1.fk
check "add: the target holds the new key" holds "$tmp/real/v1.fk" k2
check "add: mode 0640 kept" test "$(stat -c %a "$tmp/real/v1.fk")" = 640
printf 'k1\n' | "$fk" remove "$tmp/current.fk" >/dev/null
check "remove: the link is still a link" test -L "$tmp/current.fk"
check "remove: key gone from the target" test -z "$(printf 'k1\n' | "$fk" query "$tmp/real/v1.fk")"
printf 'k3\n' | "$fk" dedup "$tmp/current.fk" >/dev/null
check "dedup: the link is still a link" test -L "$tmp/current.fk"
check "dedup: the target holds the new key" holds "$tmp/real/v1.fk" k3
chmod 0444 "$tmp/real/v1.fk"
printf 'k4\n' | "$fk" add "$tmp/current.fk"
check "add: a read-only file stays 0444" test "$(stat -c %a "$tmp/real/v1.fk")" = 444
chmod 0604 "$tmp/real/v1.fk"
printf 'k5\n' | "$fk" add "$tmp/current.fk"
check "add: mode 0604 kept exactly" test "$(stat -c %a "$tmp/real/v1.fk")" = 604
ln -s real/missing.fk "$tmp/dangling.fk"
printf 'k\n' | "$fk" add "$tmp/dangling.fk" 2>"$tmp/err"
check "add: a dangling link is refused" grep -q "does not exist" "$tmp/err"
check "add: the dangling link is untouched" test -L "$tmp/dangling.fk"

# A FIFO (like a device: /dev/null reads as an empty file) named as the
# filter is refused and left in place: `dedup` once took /dev/null's
# emptiness for its own placeholder and unlinked it.
mkfifo "$tmp/fifo"
for cmd in dedup add remove; do
    rc=0
    printf 'k\n' | timeout 10 "$fk" "$cmd" "$tmp/fifo" >/dev/null 2>"$tmp/err" || rc=$?
    check "$cmd: a FIFO is refused (exit 1, not a hang)" test "$rc" = 1
    check "$cmd: says it is not a regular file" grep -q "not a regular file" "$tmp/err"
    check "$cmd: the FIFO is left in place" test -p "$tmp/fifo"
done
ln -s fifo "$tmp/to-fifo"
printf 'k\n' | timeout 10 "$fk" dedup --kind bloom --fpr 0.01 --capacity 10 "$tmp/to-fifo" \
    >/dev/null 2>"$tmp/err"
check "dedup through a link to a FIFO: refused, both left" \
    sh -c "grep -q 'not a regular file' '$tmp/err' && test -L '$tmp/to-fifo' && test -p '$tmp/fifo'"

finish
