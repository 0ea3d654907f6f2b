#!/usr/bin/env bash
# tests/cli_memory.sh: build's memory follows the lines it reads, not the
# --capacity it is given (issue 40: 164,720 lines with --capacity 12.5M
# peaked at 258 MiB for a 20.7 MiB cuckoo filter, the duplicate-check line
# set being sized for 12.5M lines; saving then staged the whole record, a
# second copy of the filter). The bound: the filter's file plus 32 MiB of
# address space (the binary, its stack and the line set take about 21 MiB),
# checked with ulimit -v; a build that buffers the record on save needs
# twice the filter and fails it. --max-bytes lifts the CLI's own default
# limit (half the address-space limit), which would otherwise refuse first.
source "$(dirname "$0")/lib_cli.sh"

seq 1 164720 >"$tmp/lines"
"$fk" build --kind cuckoo --fpr 0.001 --capacity 12500000 <"$tmp/lines" >"$tmp/free.fk"
size=$(wc -c <"$tmp/free.fk")
check "the unbounded build writes a filter of about 20 MiB" test "$size" -gt 20000000
limit_kb=$((size / 1024 + 32768))
# (a sanitizer build cannot start under ulimit -v: ASan reserves terabytes
# of shadow address space first; the plain build runs the check)
if (ulimit -v "$limit_kb"; "$fk" --version) >/dev/null 2>&1; then
    (ulimit -v "$limit_kb"; "$fk" build --kind cuckoo --fpr 0.001 --capacity 12500000 --max-bytes 1G <"$tmp/lines" >"$tmp/capped.fk" 2>"$tmp/err")
    check "164,720 lines, --capacity 12.5M: builds under ${limit_kb} KiB of address space (the filter + 32 MiB)" \
        sh -c "test $? -eq 0 && cmp -s '$tmp/free.fk' '$tmp/capped.fk'"
    [ -s "$tmp/err" ] && cat "$tmp/err" >&2
    # the same for a kind that removes, fed the lines twice: the repeats
    # are found by the line set all the same
    (ulimit -v "$limit_kb"; cat "$tmp/lines" "$tmp/lines" | "$fk" build --kind cuckoo --fpr 0.001 --capacity 12500000 --max-bytes 1G >"$tmp/twice.fk" 2>"$tmp/err")
    check "every line twice: same bound, the same filter (repeats found exactly)" \
        sh -c "test $? -eq 0 && cmp -s '$tmp/free.fk' '$tmp/twice.fk'"
    # four times the table: the margin over a second copy is then ~50 MiB
    # (0.3.0's save needs 180 MiB here, the streamed one about 105)
    big_kb=$((4 * size / 1024 + 32768))
    (ulimit -v "$big_kb"; "$fk" build --kind cuckoo --fpr 0.001 --capacity 50000000 --max-bytes 1G <"$tmp/lines" >"$tmp/big.fk" 2>"$tmp/err")
    check "--capacity 50M (an ~83 MiB filter): saved under ${big_kb} KiB (the filter + 32 MiB, no second copy)" \
        sh -c "test $? -eq 0 && test \$(wc -c <'$tmp/big.fk') -gt $((4 * size - 4 * size / 16))"
    [ -s "$tmp/err" ] && cat "$tmp/err" >&2
    rm -f "$tmp/big.fk"
else
    echo "cli_memory.sh: $fk cannot start under ulimit -v (a sanitizer build): the bound is left to the plain build"
fi
if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$fk" build --kind cuckoo --fpr 0.001 --capacity 12500000 <"$tmp/lines" >/dev/null 2>"$tmp/time"
    echo "cli_memory.sh: peak $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time") KiB for a $((size / 1024)) KiB filter"
fi
finish
