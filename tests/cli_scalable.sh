#!/usr/bin/env bash
# tests/cli_scalable.sh: the growing kinds through the CLI. Run by
# tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
#  - `build --kind scalable-*` without --capacity streams a pipe into a
#    growing chain: every line is found afterwards, `info` shows the chain
#    (text and --json), and the file loads back as the same kind;
#  - `add` grows a saved chain; `remove` takes keys out of a cuckoo chain;
#  - the measured false-positive rate on fresh lines stays under the target.
source "$(dirname "$0")/lib_cli.sh"

seq 1 300000 | sed 's/^/user-/' >"$tmp/seen"
seq 300001 400000 | sed 's/^/user-/' >"$tmp/more"
seq 1 100000 | sed 's/^/fresh-/' >"$tmp/fresh"

for kind in scalable-bloom scalable-blocked scalable-cuckoo; do
    f="$tmp/$kind.fk"
    # through a pipe: nothing to count up front, the chain grows
    check "$kind: build from a pipe" sh -c "cat '$tmp/seen' | '$fk' build --kind $kind --fpr 0.001 >'$f'"
    check "$kind: every line found" test "$("$fk" query -c "$f" <"$tmp/seen")" = 300000
    fp=$("$fk" query -c "$f" <"$tmp/fresh")
    # 100000 probes at 0.001: mean 100, sd 10; the bound is mean + 5 sd
    check "$kind: $fp false positives of 100000 at fpr 0.001" test "$fp" -le 150
    "$fk" info "$f" >"$tmp/info" 2>&1
    check "$kind: info names the kind" grep -q "^kind: *$kind\$" "$tmp/info"
    check "$kind: info shows a chain of 3 links" grep -q "^chain: *3 links" "$tmp/info"
    check "$kind: info lists link 2" grep -q "^  link 2 " "$tmp/info"
    "$fk" info --json "$f" >"$tmp/info.json" 2>&1
    check "$kind: info --json has the chain" grep -q '"chain": \[' "$tmp/info.json"
    check "$kind: info --json has 3 links" test "$(grep -c '"capacity": [0-9]*, "items"' "$tmp/info.json")" = 3
    check "$kind: add grows the chain" "$fk" add "$f" <"$tmp/more"
    check "$kind: every line found after add" \
        test "$(cat "$tmp/seen" "$tmp/more" | "$fk" query -c "$f")" = 400000
done

f="$tmp/scalable-cuckoo.fk"
check "scalable-cuckoo: remove" sh -c "'$fk' remove '$f' <'$tmp/more' >/dev/null"
left=$("$fk" query -c "$f" <"$tmp/more")
check "scalable-cuckoo: $left of 100000 removed keys still answer (false positives)" test "$left" -le 150
check "scalable-cuckoo: the rest still found" test "$("$fk" query -c "$f" <"$tmp/seen")" = 300000

finish
