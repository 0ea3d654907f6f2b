#!/usr/bin/env bash
# tests/cli_conventions.sh: the shell conventions of the CLI and the pick
# command's output. Run by tests/run.sh with FK_BUILD=<build dir>; prints
# `N passed, N failed`.
#  - query exits as grep: 0 a line matched, 1 none did, 2 an error;
#  - '-' is stdin wherever a file is read (info -, query -f -, query F -);
#  - a foreign file is "not a filterkit file";
#  - merge warns when the union's expected fpr exceeds the target, --strict
#    refuses and writes nothing;
#  - build's over-capacity warning counts lines read; a cuckoo built without
#    --capacity takes 25% more keys by 'add'; FK_EFULL names scalable-cuckoo;
#  - "did you mean" for commands, options and kinds;
#  - counts take K/M/G/T and k/m/b;
#  - grow doubles a saved quotient filter (--times, --to) keeping every key,
#    and exits 1 naming the kinds that resize for any other;
#  - an option given twice is a usage error; grow, build, add and dedup stop
#    at --max-bytes (default: half the physical memory) with exit 1;
#  - pick --format json is one JSON document whose build line, run as is,
#    makes a filter that takes the n keys and an 'add' of 10% more;
#  - one vocabulary (issue 39): --kind and --filters, --n and --capacity are
#    one option each in every command (the same bytes either way; both names
#    given is the option given twice; one kind where one is made); each
#    --help lists exactly the registry's kinds the command can use.
source "$(dirname "$0")/lib_cli.sh"
export FILTERKIT_PROGRESS=0

seq 1 1000 >"$tmp/seen"
seq 5001 6000 >"$tmp/fresh"
"$fk" build --kind bloom --fpr 1e-6 <"$tmp/seen" >"$tmp/s.fk"

# --- query exit status, as grep -------------------------------------------
"$fk" query "$tmp/s.fk" <"$tmp/seen" >/dev/null
check "query: a match exits 0" test $? -eq 0
"$fk" query "$tmp/s.fk" <"$tmp/fresh" >/dev/null
check "query: no match exits 1" test $? -eq 1
out=$("$fk" query -c "$tmp/s.fk" <"$tmp/fresh"); rc=$?
check "query -c: no match prints 0 and exits 1" test "$out" = 0 -a $rc -eq 1
"$fk" query -v "$tmp/s.fk" <"$tmp/seen" >/dev/null
check "query -v: nothing new exits 1" test $? -eq 1
"$fk" query "$tmp/s.fk" "$tmp/missing" 2>/dev/null
check "query: a missing key file exits 2" test $? -eq 2
"$fk" query "$tmp/missing.fk" </dev/null 2>/dev/null
check "query: a missing filter exits 2" test $? -eq 2
"$fk" query --nope "$tmp/s.fk" </dev/null 2>/dev/null
check "query: bad usage exits 2" test $? -eq 2
check "query -c FILTER FILE FILE: both files read, one FILE:count line each (as grep -c)" \
    test "$("$fk" query -c "$tmp/s.fk" "$tmp/seen" "$tmp/fresh")" = "$(printf '%s:1000\n%s:0' "$tmp/seen" "$tmp/fresh")"

# --- '-' is stdin ----------------------------------------------------------
check "info - reads the filter from stdin" sh -c "'$fk' info - <'$tmp/s.fk' | grep -q '^kind: *bloom'"
check "query -f - FILE: the filter from stdin" \
    test "$(cat "$tmp/s.fk" | "$fk" query -c -f - "$tmp/seen")" = 1000
check "query -f- (attached): the filter from stdin" \
    test "$(cat "$tmp/s.fk" | "$fk" query -c -f- "$tmp/seen")" = 1000
check "query FILTER -: keys from stdin" test "$("$fk" query -c "$tmp/s.fk" - <"$tmp/seen")" = 1000
"$fk" query -f - </dev/null 2>"$tmp/err"
check "query -f - without key files: exit 2, says why" \
    sh -c "test $? -eq 2 && grep -q 'keys must come from files' '$tmp/err'"

seq 1 3000 >"$tmp/k3k"
check "bench --keys -: keys from stdin, read once for every n" \
    sh -c "'$fk' bench --keys - --filters bloom --n 1000,2000 --repeat 1 --lookups 1000 --out - <'$tmp/k3k' | grep -c '^bloom ' | grep -qx 2"

# --- foreign input ---------------------------------------------------------
"$fk" info "$tmp/seen" 2>"$tmp/err"
check "info on a text file: exit 1" test $? -eq 1
check "info on a text file: not a filterkit file" grep -q 'not a filterkit file' "$tmp/err"
printf 'hello\n' | "$fk" query -f - "$tmp/seen" 2>"$tmp/err"
check "query of a foreign stdin: exit 2, not a filterkit file" \
    sh -c "test $? -eq 2 && grep -q '(stdin): not a filterkit file' '$tmp/err'"
head -c 200 "$tmp/s.fk" >"$tmp/cut.fk"
"$fk" info "$tmp/cut.fk" 2>"$tmp/err"
check "a cut filter is damaged, not foreign" sh -c "! grep -q 'not a filterkit file' '$tmp/err'"

# --- merge past the target -------------------------------------------------
seq 1 1000 | "$fk" build --kind bloom --fpr 1% >"$tmp/a.fk"
seq 1001 2000 | "$fk" build --kind bloom --fpr 1% >"$tmp/b.fk"
"$fk" merge "$tmp/a.fk" "$tmp/b.fk" >"$tmp/m.fk" 2>"$tmp/err"
check "merge over the target: exit 0" test $? -eq 0
check "merge over the target: warns with the expected fpr" grep -q "warning: the union's expected false-positive rate is 0\.1" "$tmp/err"
check "merge over the target: written" test -s "$tmp/m.fk"
"$fk" merge --strict "$tmp/a.fk" "$tmp/b.fk" >"$tmp/m2.fk" 2>"$tmp/err"
check "merge --strict over the target: exit 1" test $? -eq 1
check "merge --strict: nothing written" test ! -s "$tmp/m2.fk"
seq 1 1000 | "$fk" build --kind bloom --fpr 1% --capacity 4000 >"$tmp/c.fk"
seq 1001 2000 | "$fk" build --kind bloom --fpr 1% --capacity 4000 >"$tmp/d.fk"
"$fk" merge --strict "$tmp/c.fk" "$tmp/d.fk" >"$tmp/m3.fk" 2>"$tmp/err"
check "merge --strict within the target: exit 0, silent" sh -c "test $? -eq 0 && test ! -s '$tmp/err'"

# --- build: capacity -------------------------------------------------------
seq 1 50000 | "$fk" build --kind bloom --fpr 1% --capacity 10 >/dev/null 2>"$tmp/err"
check "over capacity: the warning counts lines read" grep -q 'warning: 50000 lines read' "$tmp/err"
seq 1 10000 >"$tmp/k10k"
seq 10001 11000 >"$tmp/k1k"
"$fk" build --kind cuckoo --fpr 1% <"$tmp/k10k" >"$tmp/cu.fk"
check "cuckoo without --capacity: capacity has 25% headroom" \
    sh -c "'$fk' info '$tmp/cu.fk' | grep -q '^capacity: *12500\$'"
check "cuckoo without --capacity: add of 10% more succeeds" "$fk" add "$tmp/cu.fk" <"$tmp/k1k"
seq 1 50000 | "$fk" build --kind cuckoo --fpr 1% --capacity 1000 >/dev/null 2>"$tmp/err"
check "cuckoo full: exit 1 names scalable-cuckoo and headroom" \
    sh -c "grep -q 'scalable-cuckoo' '$tmp/err' && grep -q 'headroom' '$tmp/err'"

seq 1 1000 | "$fk" build --kind cuckoo --fpr 1% --capacity 1000 >"$tmp/cf.fk"
seq 2001 9000 | "$fk" add "$tmp/cf.fk" 2>"$tmp/err"
check "add to a full cuckoo: exit 1 names scalable-cuckoo and headroom" \
    sh -c "test $? -eq 1 && grep -q 'scalable-cuckoo' '$tmp/err' && grep -q 'headroom' '$tmp/err'"
"$fk" add - </dev/null 2>"$tmp/err"
check "add -: a usage error (stdin holds the keys)" sh -c "test $? -eq 2 && grep -q \"FILTER '-'\" '$tmp/err'"

# --- did you mean ----------------------------------------------------------
"$fk" qeury 2>"$tmp/err"
check "a misspelt command: exit 2, did you mean" \
    sh -c "test $? -eq 2 && grep -q \"did you mean 'query'\" '$tmp/err'"
"$fk" build --kind cukoo --fpr 1% </dev/null 2>"$tmp/err" >/dev/null
check "a misspelt kind: did you mean" grep -q "did you mean 'cuckoo'" "$tmp/err"
"$fk" bench --filters blom --out - 2>"$tmp/err" >/dev/null
check "a misspelt --filters name: did you mean" grep -q "did you mean 'bloom'" "$tmp/err"
"$fk" bench --filter bloom 2>"$tmp/err" >/dev/null
check "a misspelt option: did you mean" grep -q "did you mean '--filters'" "$tmp/err"
"$fk" build --kind zzzzzz --fpr 1% </dev/null 2>"$tmp/err" >/dev/null
check "no suggestion for a name far from every kind" sh -c "! grep -q 'did you mean' '$tmp/err'"

# --- completion: generated from the command and option tables ---------------
"$fk" completion bash >"$tmp/fk.bash"
check "completion bash: valid bash" bash -n "$tmp/fk.bash"
"$fk" completion zsh >"$tmp/_fk"
check "completion zsh: a #compdef file" grep -q '^#compdef filterkit' "$tmp/_fk"
cmds=$("$fk" help | awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }')
missing=""
for c in $cmds; do
    grep -q "^    $c)" "$tmp/fk.bash" || missing="$missing $c"
    for o in $("$fk" "$c" --help 2>/dev/null | sed -n 's/^  \(--[a-z0-9-]*\(, --[a-z0-9-]*\)*\).*/\1/p' | tr ',' ' '); do
        [ "$o" = --help ] && continue
        grep -q -- "$o" "$tmp/fk.bash" || missing="$missing $c$o"
        grep -q -- "'$o\[" "$tmp/_fk" || missing="$missing zsh:$c$o"
    done
done
check "completion: every command and every --help option (missing:$missing)" test -z "$missing"
words=$(bash -c "source '$tmp/fk.bash'; COMP_WORDS=(filterkit build --kind cu); COMP_CWORD=3; _filterkit; echo \"\${COMPREPLY[*]}\"")
check "completion bash: build --kind cu -> cuckoo ($words)" test "$words" = cuckoo
words=$(bash -c "source '$tmp/fk.bash'; COMP_WORDS=(filterkit dedup --filters ''); COMP_CWORD=3; _filterkit; echo \"\${COMPREPLY[*]}\"" | tr ' ' '\n' | sort)
check "completion bash: dedup --filters offers the kinds of dedup --help" \
    sh -c "test -n '$words' && test '$words' = \"\$('$fk' dedup --help | sed -n 's/^ *kinds://p; /^                              /p' | tr ', ' '\n\n' | grep . | sort)\""

# --- one vocabulary: --kind = --filters, --n = --capacity (issue 39) ----------
"$fk" build --kind quotient --capacity 2000 --fpr 1% <"$tmp/seen" >"$tmp/v1.fk"
"$fk" build --filters quotient --n 2000 --fpr 1% <"$tmp/seen" >"$tmp/v2.fk"
check "build --filters K --n N: the bytes of --kind K --capacity N" \
    sh -c "test -s '$tmp/v1.fk' && cmp -s '$tmp/v1.fk' '$tmp/v2.fk'"
"$fk" dedup --kind cuckoo --capacity 2000 --fpr 1% "$tmp/d1.fk" <"$tmp/seen" >"$tmp/d1.out"
"$fk" dedup --filters cuckoo --n 2000 --fpr 1% "$tmp/d2.fk" <"$tmp/seen" >"$tmp/d2.out"
check "dedup --filters K --n N: the file and lines of --kind K --capacity N" \
    sh -c "test -s '$tmp/d1.fk' && cmp -s '$tmp/d1.fk' '$tmp/d2.fk' && cmp -s '$tmp/d1.out' '$tmp/d2.out'"
check "trace --kind K --n N: the output of trace K --capacity N" \
    sh -c "'$fk' trace --kind cuckoo --n 8 apple --lookup apple >'$tmp/t1' && '$fk' trace cuckoo --capacity 8 apple --lookup apple >'$tmp/t2' && cmp -s '$tmp/t1' '$tmp/t2'"
check "theory --capacity N: the output of --n N" \
    sh -c "'$fk' theory --table k --capacity 1000 --negatives 20000 >'$tmp/th1' && '$fk' theory --table k --n 1000 --negatives 20000 >'$tmp/th2' && cmp -s '$tmp/th1' '$tmp/th2'"
rows() { grep -v '^#' | cut -d, -f1,3 | sort; } # kind,n of each row
"$fk" bench --kind bloom,cuckoo --capacity 1000,2000 --repeat 1 --lookups 1000 --no-fill --out - --format csv 2>/dev/null | rows >"$tmp/b1"
"$fk" bench --filters bloom,cuckoo --n 1000,2000 --repeat 1 --lookups 1000 --no-fill --out - --format csv 2>/dev/null | rows >"$tmp/b2"
check "bench --kind LIST --capacity LIST: the rows of --filters LIST --n LIST ($(tr '\n' ' ' <"$tmp/b1"))" \
    sh -c "test \$(wc -l <'$tmp/b1') -eq 5 && cmp -s '$tmp/b1' '$tmp/b2'"
"$fk" sweep --vary fpr --fpr 1%,10% --kind bloom --capacity 1000 --repeat 1 --lookups 1000 --no-fill --out - --format csv 2>/dev/null | rows >"$tmp/s1"
check "sweep --kind K --capacity N: the rows for K at N" sh -c "grep -qx 'bloom,1000' '$tmp/s1' && test \$(grep -c . '$tmp/s1') -eq 3"
# both names of a pair: one option given twice
for args in "build --n 5 --capacity 6 --kind bloom --fpr 1%" "build --kind bloom --filters bloom --fpr 1%" \
            "dedup --capacity 5 --n=5 $tmp/x.fk" "bench --kind bloom --filters cuckoo" \
            "pick --n 5 --capacity 5 --fpr 1%" "theory --capacity 5 --n 5" "trace bloom --n 8 --capacity 8 a" \
            "trace --kind bloom --filters bloom a" "trace bloom --kind bloom a"; do
    # shellcheck disable=SC2086
    "$fk" $args </dev/null >/dev/null 2>"$tmp/err"
    check "$args: exit 2, given twice" sh -c "test $? -eq 2 && grep -q 'given twice' '$tmp/err'"
done
check "the message names both spellings" \
    sh -c "'$fk' build --n 5 --capacity 6 2>&1 | grep -q \"options '--n' and '--capacity' are one option, given twice\""
# one kind where one filter is made
for c in "build --fpr 1% --filters bloom,cuckoo" "dedup --fpr 1% --capacity 9 --filters bloom,cuckoo $tmp/x.fk" \
         "trace --filters bloom,cuckoo apple"; do
    # shellcheck disable=SC2086
    "$fk" $c </dev/null >/dev/null 2>"$tmp/err"
    check "$c: exit 2, one kind" \
        sh -c "test $? -eq 2 && grep -q 'one kind, not' '$tmp/err' && test ! -e '$tmp/x.fk'"
done
# --help lists the kinds from the registry: exactly those the command can use
registry=$("$fk" help | awk '/^filter kinds/ { on = 1; next } /^$/ { on = 0 } on { print $1 }' | sort)
help_kinds() { # COMMAND: the kinds its --help lists under its kind option, sorted
    "$fk" "$1" --help | awk '/^ +kinds:/ { on = 1; sub(/^ +kinds:/, ""); print; next }
                             on && /^                              / { print; next } { on = 0 }' |
        tr ',' '\n' | tr -d ' ' | grep . | sort
}
check "filterkit help lists kinds" test -n "$registry"
check "build --help: every kind of the registry (all can be saved)" test "$(help_kinds build)" = "$registry"
check "bench --help: the registry's kinds and the baselines" \
    test "$(help_kinds bench | grep -vx -e libbloom -e rotating-bloom -e apbf -e apbf-best)" = "$registry"
check "sweep --help: the kinds of bench --help" test "$(help_kinds sweep)" = "$(help_kinds bench)"
listed=$(help_kinds dedup) works="" traced=""
for k in $registry; do
    rm -f "$tmp/dd.fk"
    "$fk" dedup --kind "$k" --fpr 1% --capacity 2000 "$tmp/dd.fk" <"$tmp/seen" >/dev/null 2>&1 && works="$works$k
"
    "$fk" trace "$k" apple >/dev/null 2>&1 && traced="$traced$k
"
done
works=$(printf '%s' "$works" | sort) traced=$(printf '%s' "$traced" | sort)
check "dedup --help lists exactly the kinds dedup creates (listed: $(echo $listed); work: $(echo $works))" \
    sh -c "test -n '$listed' && test '$listed' = '$works'"
check "dedup --help leaves out the static kinds it cannot add to" \
    sh -c "! printf '%s\n' '$listed' | grep -qx fuse"
tl=$("$fk" trace --help | sed -n 's/^usage: filterkit trace \([^ ]*\) .*/\1/p' | tr '|' '\n' | sort)
check "trace --help lists exactly the kinds trace shows (listed: $(echo $tl); work: $(echo $traced))" \
    sh -c "test -n '$tl' && test '$tl' = '$traced'"
# the kinds named in prose come from the registry too: remove --help names
# exactly the kinds whose saved filters 'remove' takes
rl=$("$fk" remove --help | tr '\n' ' ' | sed -n 's/.*a kind *that can remove: \([^)]*\)).*/\1/p' | tr ',' '\n' | tr -d ' ' | grep . | sort)
removes=""
for k in $registry; do
    "$fk" build --kind "$k" --fpr 1% <"$tmp/seen" >"$tmp/r.fk" 2>/dev/null &&
        echo 1 | "$fk" remove "$tmp/r.fk" >/dev/null 2>&1 && removes="$removes$k
"
done
removes=$(printf '%s' "$removes" | sort)
check "remove --help names exactly the kinds remove takes (named: $(echo $rl); work: $(echo $removes))" \
    sh -c "test -n '$rl' && test '$rl' = '$removes'"

# --- no run-time dependency on libbloom ---------------------------------------
if command -v ldd >/dev/null 2>&1; then
    check "ldd filterkit: no libbloom (the baseline is dlopen'ed by the bench)" sh -c "! ldd '$fk' | grep -q libbloom"
fi

if ! command -v jq >/dev/null 2>&1; then
    skip_part "the JSON checks and those after them: no jq (make deps-test installs it)"
    finish
fi

# --- suffixes ----------------------------------------------------------------
# (untimed: the count's spelling is what is checked; every spelling, 1B 1b
# 1G 1000M 1e9 and the rest, is tests/test_bench_stats.c's check of the one
# parser: here pick takes a suffix and an exponent through it)
seq 1 2000 >"$tmp/k2k"
for n in 1b 1e9; do
    cap=$("$fk" pick --n "$n" --fpr 1% --headroom 0 --no-timing --format json 2>/dev/null | jq .query.n)
    check "pick --n $n is 10^9 ($cap)" test "$cap" = 1000000000
done

# --- pick ends in a command ------------------------------------------------
"$fk" pick --n 100k --fpr 0.1% --deletes --repeat 1 --format json >"$tmp/pick.json"
check "pick --format json: exit 0" test $? -eq 0
check "pick --format json: one JSON document" jq -e . "$tmp/pick.json" >/dev/null
check "pick json: every kind is a candidate" \
    test "$(jq '.candidates | length' "$tmp/pick.json")" -ge 7
check "pick json: each loser has a reason" \
    test "$(jq '[.candidates[] | select(.chosen | not) | select(.reason == null)] | length' "$tmp/pick.json")" = 0
check "pick json: measured min <= median <= max" \
    test "$(jq '[.candidates[] | .measured // empty | .lookup_50_ns | select(.min <= .median and .median <= .max)] | length' "$tmp/pick.json")" -ge 1
line=$(jq -r .recommendation.build "$tmp/pick.json")
check "pick json: a build line" test -n "$line"
seq 1 100000 >"$tmp/keys.txt"
seq 100001 110000 >"$tmp/more.txt"
link_program "$tmp" "$line"
(cd "$tmp" && eval "$line")
check "the build line, run as is, makes filter.fk" test -s "$tmp/filter.fk"
check "the built filter holds the n keys" test "$("$fk" query -c "$tmp/filter.fk" <"$tmp/keys.txt")" = 100000
check "an add of 10% more succeeds" "$fk" add "$tmp/filter.fk" <"$tmp/more.txt"
check "... and every key is found" test "$(cat "$tmp/keys.txt" "$tmp/more.txt" | "$fk" query -c "$tmp/filter.fk")" = 110000
"$fk" pick --n 100k --fpr 0.1% --repeat 1 --keys "$tmp/k2k" >"$tmp/pick.txt"
check "pick text: prints the build, C and Python lines" \
    sh -c "grep -q '^  build: *[^ ]*filterkit build --kind' '$tmp/pick.txt' && grep -q '^  C: *fk_params p = fk_params_make' '$tmp/pick.txt' && grep -q '^  Python: *f = filterkit.Filter' '$tmp/pick.txt'"
check "pick text: the best fpr of each kind" grep -q '^best fpr within' "$tmp/pick.txt"
check "pick --repeat 1: '1 run', not 'median of 1 runs'" sh -c "grep -q ', 1 run' '$tmp/pick.txt' && ! grep -q 'median of 1 runs' '$tmp/pick.txt'"
"$fk" pick --n 2k --fpr 1% --n-uncertain --repeat 1 --keys "$tmp/k2k" --format json >"$tmp/grow.json"
check "pick --n-uncertain: a growing kind" sh -c "jq -r .recommendation.kind '$tmp/grow.json' | grep -Eq '^(scalable-|expandable)'"
# --grow-to: start at n, reach N without the keys; merges leave the quotient
# filter, made with fpr / 2^g for its g doublings
"$fk" pick --n 100k --fpr 1% --grow-to 300k --merges --repeat 1 --keys "$tmp/k2k" --format json >"$tmp/growto.json"
check "pick --grow-to --merges: quotient, made with 1%/4 for 2 doublings" \
    test "$(jq -r '.recommendation | "\(.kind) \(.fpr) \(.doublings)"' "$tmp/growto.json")" = "quotient 0.0025 2"
check "pick --grow-to: the recommendation says how to grow it" \
    sh -c "jq -r .recommendation.grow '$tmp/growto.json' | grep -q 'fk_filter_grow.*filterkit grow): 2 doublings take it to 400000 items at fpr 0.01'"
check "pick --grow-to: every fixed kind is out, saying it cannot grow without the keys" \
    test "$(jq '[.candidates[] | select(.kind == "bloom" or .kind == "blocked" or .kind == "cuckoo" or .kind == "counting") | select(.reason | startswith("fixed size"))] | length' "$tmp/growto.json")" = 4
check "pick --grow-to: the query records it" test "$(jq .query.grow_to "$tmp/growto.json")" = 300000
"$fk" pick --n 100k --fpr 1% --grow-to 300k --repeat 1 --keys "$tmp/k2k" >"$tmp/growto.txt"
check "pick --grow-to (text): a kind that grows, and the sizing line" \
    sh -c "grep -Eq '^recommend: (scalable-|quotient|expandable)' '$tmp/growto.txt' && grep -q 'growing to 300000 without the keys' '$tmp/growto.txt'"
"$fk" pick --n 100k --fpr 1% --grow-to 100k --repeat 1 2>"$tmp/err"
check "pick --grow-to N at most n: usage error" sh -c "test $? -eq 2 && grep -q 'must be more than --n' '$tmp/err'"
"$fk" pick --n 100k --fpr 1% --grow-to 1M --n-uncertain --repeat 1 2>"$tmp/err"
check "pick --grow-to with --n-uncertain: usage error" sh -c "test $? -eq 2 && grep -q 'give one' '$tmp/err'"
"$fk" pick --n 100k --fpr 1% --grow-to 1M --static --repeat 1 2>"$tmp/err"
check "pick --grow-to with --static: usage error" sh -c "test $? -eq 2 && grep -q 'never grows' '$tmp/err'"

# --- grow: a saved quotient filter doubled without its keys -----------------
seq 1 20000 >"$tmp/q20k"
"$fk" build --kind quotient --capacity 20000 --fpr 0.0025 <"$tmp/q20k" >"$tmp/q.fk"
"$fk" grow --to 75000 "$tmp/q.fk" >"$tmp/q4.fk"
check "grow --to 75000: exit 0, 2 doublings (capacity 80000)" \
    sh -c "test $? -eq 0 && '$fk' info --json '$tmp/q4.fk' | jq -e '.capacity == 80000 and .items == 20000' >/dev/null"
check "grow: every key kept" test "$("$fk" query -c "$tmp/q4.fk" <"$tmp/q20k")" = 20000
"$fk" grow --times 2 "$tmp/q.fk" >"$tmp/q4b.fk"
check "grow --times 2 writes the same file as --to 75000" cmp -s "$tmp/q4.fk" "$tmp/q4b.fk"
"$fk" grow "$tmp/q.fk" >"$tmp/q2.fk"
check "grow (once): capacity 40000" sh -c "'$fk' info --json '$tmp/q2.fk' | jq -e '.capacity == 40000' >/dev/null"
"$fk" grow --times 30 "$tmp/q.fk" >"$tmp/qx.fk" 2>"$tmp/err"
check "grow past the minimum remainder: exit 1, nothing written, says why" \
    sh -c "test $? -eq 1 && test ! -s '$tmp/qx.fk' && grep -q 'cannot double again' '$tmp/err'"
"$fk" grow "$tmp/s.fk" >"$tmp/bx.fk" 2>"$tmp/err"
check "grow of a bloom filter: exit 1 naming the kinds that resize" \
    sh -c "test $? -eq 1 && test ! -s '$tmp/bx.fk' && grep -q 'kinds that resize: quotient' '$tmp/err'"
"$fk" grow --times 2 --to 9 "$tmp/q.fk" >"$tmp/bx.fk" 2>"$tmp/err"
check "grow --times with --to: usage error" sh -c "test $? -eq 2 && grep -q 'give one' '$tmp/err'"

# --- each option once; growth stops at a memory limit (issue 38) -------------
"$fk" grow --times 2 --times 3 "$tmp/q.fk" >"$tmp/bx.fk" 2>"$tmp/err"
check "grow --times twice: usage error naming it, nothing written" \
    sh -c "test $? -eq 2 && test ! -s '$tmp/bx.fk' && grep -q \"'--times' given twice\" '$tmp/err'"
"$fk" build --kind bloom --kind cuckoo --fpr 1% <"$tmp/seen" >"$tmp/bx.fk" 2>"$tmp/err"
check "build --kind twice: usage error" sh -c "test $? -eq 2 && grep -q \"'--kind' given twice\" '$tmp/err'"
"$fk" query -c --count "$tmp/s.fk" <"$tmp/seen" >/dev/null 2>"$tmp/err"
check "query -c and --count: the same option twice, usage error" \
    sh -c "test $? -eq 2 && grep -q \"'--count' given twice\" '$tmp/err'"
"$fk" build --kind quotient --capacity 1000 --fpr 1e-15 <"$tmp/seen" >"$tmp/qm.fk"
"$fk" grow --times 20 --max-bytes 1M "$tmp/qm.fk" >"$tmp/bx.fk" 2>"$tmp/err"
check "grow past --max-bytes: exit 1 before allocating, nothing written, names the limit" \
    sh -c "test $? -eq 1 && test ! -s '$tmp/bx.fk' && grep -q 'over the memory limit of 1.0 MiB (--max-bytes B raises it)' '$tmp/err'"
"$fk" grow --times 3 --max-bytes 1M "$tmp/qm.fk" >"$tmp/bx.fk"
check "grow under --max-bytes: exit 0, every key kept" \
    sh -c "test $? -eq 0 && test \"\$('$fk' query -c '$tmp/bx.fk' <'$tmp/seen')\" = 1000"
# (a sanitizer build cannot start under ulimit -v: ASan reserves terabytes
# of shadow address space first; the plain build runs the check)
if (ulimit -v 4000000; "$fk" --version) >/dev/null 2>&1; then
    (ulimit -v 4000000; "$fk" grow --times 40 "$tmp/qm.fk" >"$tmp/bx.fk" 2>"$tmp/err")
    check "grow without --max-bytes under a 4 GB address-space limit: exit 1 naming the limit, not killed" \
        sh -c "test $? -eq 1 && test ! -s '$tmp/bx.fk' && grep -q 'over the memory limit' '$tmp/err'"
else
    echo "cli_conventions.sh: $fk cannot start under ulimit -v (a sanitizer build): the 4 GB limit check is left to the plain build"
fi
seq 1 100 | "$fk" build --kind scalable-bloom --fpr 1% >"$tmp/sb.fk"
cp "$tmp/sb.fk" "$tmp/sb0.fk"
seq 1 300000 | "$fk" add --max-bytes 100K "$tmp/sb.fk" 2>"$tmp/err"
check "add to a chain past --max-bytes: exit 1, file unchanged, names the option" \
    sh -c "test $? -eq 1 && cmp -s '$tmp/sb.fk' '$tmp/sb0.fk' && grep -q 'byte limit.*--max-bytes B raises the limit' '$tmp/err'"
seq 1 300000 | "$fk" add --max-bytes 10M "$tmp/sb.fk"
check "add to a chain under --max-bytes: exit 0" test $? -eq 0

"$fk" pick --n 100M --fpr 1% --memory 1M --repeat 1 --keys "$tmp/k2k" --format json >"$tmp/none.json" 2>/dev/null
check "pick: nothing fits, exit 1 with recommendation null" \
    sh -c "test $? -eq 1 && test \"\$(jq .recommendation '$tmp/none.json')\" = null"

finish
