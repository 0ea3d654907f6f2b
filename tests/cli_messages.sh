#!/usr/bin/env bash
# tests/cli_messages.sh: the CLI's words where a newcomer meets them
# (issue 40): dedup names the missing file, a cut-short or padded file says
# so (with byte counts) instead of "corrupt", query -c counts per key file
# as grep -c does, info's text keeps internals behind --raw.
source "$(dirname "$0")/lib_cli.sh"

seq 1 1000 >"$tmp/keys"
"$fk" build --kind cuckoo --fpr 0.001 <"$tmp/keys" >"$tmp/c.fk"
size=$(wc -c <"$tmp/c.fk")

# dedup: the path, not the placeholder
echo x | "$fk" dedup "$tmp/none.fk" >/dev/null 2>"$tmp/err"
check "dedup of a missing file without --kind: exit 2, names the path" \
    sh -c "test $? -eq 2 && grep -q '$tmp/none.fk does not exist: give --kind' '$tmp/err' && ! grep -q 'FILTER does not exist' '$tmp/err'"

# truncated: N bytes of the M the header announces, from a file and a pipe
head -c 500 "$tmp/c.fk" >"$tmp/cut.fk"
"$fk" info "$tmp/cut.fk" >/dev/null 2>"$tmp/err"
check "info of a cut-short file: exit 1, 'truncated: 500 bytes of the $size its header announces'" \
    sh -c "test $? -eq 1 && grep -q 'truncated: 500 bytes of the $size its header announces' '$tmp/err'"
"$fk" query -c -f - "$tmp/keys" <"$tmp/cut.fk" >/dev/null 2>"$tmp/err"
check "query of a cut-short filter on stdin: exit 2, truncated" \
    sh -c "test $? -eq 2 && grep -q 'truncated: 500 bytes of the $size' '$tmp/err'"
head -c 60 "$tmp/c.fk" >"$tmp/stub.fk"
"$fk" info "$tmp/stub.fk" >/dev/null 2>"$tmp/err"
check "info of a file cut inside its header: truncated, shorter than the header" \
    sh -c "test $? -eq 1 && grep -q 'truncated: 60 bytes, shorter than the' '$tmp/err'"

# one trailing newline (redis-cli FK.DUMP k > f.fk): said, with the fix
{ cat "$tmp/c.fk"; echo; } >"$tmp/nl.fk"
"$fk" info "$tmp/nl.fk" >/dev/null 2>"$tmp/err"
check "info of a filter plus a newline: exit 1, '1 byte after the record', names redis-cli --raw ... | head -c -1" \
    sh -c "test $? -eq 1 && grep -q '1 byte after the $size-byte record: a trailing newline' '$tmp/err' && grep -q 'head -c -1' '$tmp/err'"
"$fk" query -c -f - "$tmp/keys" <"$tmp/nl.fk" >/dev/null 2>"$tmp/err"
check "the same from stdin" \
    sh -c "test $? -eq 2 && grep -q '1 byte after the $size-byte record' '$tmp/err'"
{ cat "$tmp/c.fk" "$tmp/c.fk"; } >"$tmp/two.fk"
"$fk" info "$tmp/two.fk" >/dev/null 2>"$tmp/err"
check "two records joined: '$size bytes after the $size-byte record'" \
    sh -c "test $? -eq 1 && grep -q '$size bytes after the $size-byte record' '$tmp/err'"
head -c -1 "$tmp/nl.fk" >"$tmp/fixed.fk"
check "the documented fix (head -c -1) gives a file info reads" "$fk" info "$tmp/fixed.fk" >/dev/null

# query -c with several key files: FILE:count each, as grep -c
seq 1 10 >"$tmp/k1"; seq 2001 2005 >"$tmp/k2"
out=$("$fk" query -c "$tmp/c.fk" "$tmp/k1" "$tmp/k2")
check "query -c FILTER k1 k2: one FILE:count line per key file (got: $out)" \
    test "$(printf '%s\n' "$out" | head -n 1)" = "$tmp/k1:10"
check "... the second file's line has its own count" \
    sh -c "printf '%s\n' '$out' | sed -n 2p | grep -qE '^$tmp/k2:[0-5]\$'"
check "query -c with one key file: the bare count, as before" \
    test "$("$fk" query -c "$tmp/c.fk" "$tmp/k1")" = 10
check "query -c FILTER - k2 < k1: stdin is '(standard input)', as grep" \
    sh -c "'$fk' query -c '$tmp/c.fk' - '$tmp/k2' <'$tmp/k1' | head -n 1 | grep -qx '(standard input):10'"

# info: internals only with --raw (text) and always in --json
"$fk" info "$tmp/c.fk" >"$tmp/info"
check "info's text has no 'kick rng state' or chunk bits" \
    sh -c "! grep -qE 'kick rng state|chunk bits|cuckoo scheme' '$tmp/info' && grep -q '^buckets:' '$tmp/info'"
check "info --raw lists 'kick rng state'" sh -c "'$fk' info --raw '$tmp/c.fk' | grep -q '^kick rng state:'"
check "info --json keeps kick_rng_state" sh -c "'$fk' info --json '$tmp/c.fk' | grep -q '\"kick_rng_state\"'"
"$fk" build --kind scalable-bloom --fpr 0.01 <"$tmp/keys" >"$tmp/s.fk"
"$fk" info "$tmp/s.fk" >"$tmp/info"
check "scalable info: no 'inner kind id', no f64 bits; inner kind and tightening in user terms" \
    sh -c "! grep -qE 'inner kind id|f64 bits' '$tmp/info' && grep -q '^inner kind: *bloom' '$tmp/info' && grep -q '^tightening: *0.9' '$tmp/info' && grep -qE '^newest link full: *(yes|no)\$' '$tmp/info'"
finish
