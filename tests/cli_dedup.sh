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
#    no progress line reaches a file or a pipe;
#  - dedup runs as a Unix filter (issue 48): stopped by SIGINT, SIGTERM or
#    SIGHUP it keeps every line it printed (the next run prints none of them
#    again), ends by that signal, and leaves no placeholder and no temporary
#    file; a SIGKILL after a checkpoint (--save-every, by lines or by time
#    while the input is idle) loses nothing checkpointed; with a pipe as
#    input the output file grows line by line; a new filter is never an
#    empty placeholder; a stale FILE.tmp-XXXXXX is never read and is
#    removed; --save-every's forms and errors.
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
# A line repeated inside one batch (issue 54): from a regular file dedup
# looks a whole batch up at once, so a repeat whose first copy went in
# earlier in the same batch must be asked again. Every kind dedup takes
# (its --help lists them), input from a regular file and from a pipe; the
# expected output is each line's first copy, in order.
kinds=$("$fk" dedup --help | awk '/^  --kind/{on=1; next} on && /^  --/{on=0} on' |
        sed 's/.*kinds://' | tr ',' ' ')
check "dedup --help lists its kinds" test -n "$(echo $kinds)"
printf 'a\nb\na\nc\nb\n' >"$tmp/rep5"
awk 'BEGIN { for (i = 1; i <= 300; i++) { print "k" i; print "k" int(i / 2) } }' >"$tmp/rep600"
for kind in $kinds; do
    for input in rep5 rep600; do
        awk '!seen[$0]++' "$tmp/$input" >"$tmp/want"
        rm -f "$tmp/rep.fk"
        "$fk" dedup --kind "$kind" --fpr 1e-6 --capacity 10000 "$tmp/rep.fk" <"$tmp/$input" >"$tmp/out" 2>"$tmp/err"
        check "$kind: $input from a file: each line once, in order ($(wc -l <"$tmp/out") of $(wc -l <"$tmp/want"))" \
            cmp -s "$tmp/out" "$tmp/want"
        rm -f "$tmp/rep.fk"
        cat "$tmp/$input" | "$fk" dedup --kind "$kind" --fpr 1e-6 --capacity 10000 "$tmp/rep.fk" >"$tmp/out" 2>"$tmp/err"
        check "$kind: $input from a pipe: each line once, in order ($(wc -l <"$tmp/out") of $(wc -l <"$tmp/want"))" \
            cmp -s "$tmp/out" "$tmp/want"
    done
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

# --- dedup as a Unix filter: signals, checkpoints, line-by-line output -------
# dedup reads the FIFO $tmp/in, held open here on fd 3 (so it waits for
# more, as behind `tail -f`), and writes to the regular file $tmp/sout. A
# background job of a script starts with SIGINT ignored, which dedup keeps
# (as nohup's SIGHUP): env --default-signal gives it the default back.
mkfifo "$tmp/in"
defsig=(env --default-signal=INT,TERM,HUP)
"${defsig[@]}" true 2>/dev/null || defsig=()
start_dedup() { # ARGS...: dedup ARGS <fifo >$tmp/sout, pid in $pid
    "${defsig[@]}" "$fk" dedup "$@" <"$tmp/in" >"$tmp/sout" 2>"$tmp/serr" &
    pid=$!
    exec 3>"$tmp/in"
}
wait_lines() { # N: true once $tmp/sout has N lines (at most 10 s)
    local i
    for i in $(seq 100); do
        [ "$(wc -l <"$tmp/sout")" -ge "$1" ] && return 0
        sleep 0.1
    done
    return 1
}
holds_all() { # FILTER KEYFILE: true once the saved filter holds every key (at most 10 s)
    local i n
    n=$(wc -l <"$2")
    for i in $(seq 100); do
        [ "$("$fk" query -c "$1" <"$2" 2>/dev/null)" = "$n" ] && return 0
        sleep 0.1
    done
    return 1
}
stop_dedup() { # SIGNAL: sends it, closes fd 3, waits (at most 10 s; then SIGKILL), status in $rc
    local i hung=0
    { # (the shell's "Killed" notices go nowhere)
        kill -"$1" "$pid"
        for i in $(seq 100); do kill -0 "$pid" || break; sleep 0.1; done
        kill -0 "$pid" && { hung=1; kill -KILL "$pid"; }
        exec 3>&-
        wait "$pid"
        rc=$?
    } 2>/dev/null
    [ "$hung" = 0 ] || bad "dedup still running 10 s after SIG$1"
}
no_temp() { test -z "$(ls -a "$tmp" | grep -e '\.tmp-')"; }
printf 'a\nb\na\nc\n' >"$tmp/abc"
printf 'a\nb\nc\n' >"$tmp/abc.want"

for sig in INT TERM HUP; do
    [ "$sig" = INT ] && [ ${#defsig[@]} -eq 0 ] && { echo "note: env --default-signal missing: SIGINT not checked"; continue; }
    case $sig in INT) code=130;; TERM) code=143;; HUP) code=129;; esac
    for kind in bloom window; do
        f="$tmp/sig-$kind.fk"
        rm -f "$f"
        start_dedup --kind "$kind" --fpr 1e-6 --capacity 1000 "$f"
        printf 'a\n' >&3
        check "SIG$sig $kind: from a pipe the output file has the first line while dedup waits" wait_lines 1
        printf 'b\na\n' >&3
        check "SIG$sig $kind: ... then the second" wait_lines 2
        printf 'c\n' >&3
        check "SIG$sig $kind: ... then the third" wait_lines 3
        stop_dedup "$sig"
        check "SIG$sig $kind: ends by the signal (status $rc, want $code)" test "$rc" = "$code"
        check "SIG$sig $kind: printed each new line once" cmp -s "$tmp/sout" "$tmp/abc.want"
        check "SIG$sig $kind: nothing on stderr ($(head -c 200 "$tmp/serr"))" test ! -s "$tmp/serr"
        check "SIG$sig $kind: the filter is saved (info reads it)" "$fk" info "$f" >/dev/null
        check "SIG$sig $kind: no temporary file left" no_temp
        printf 'c\nb\nd\na\n' | "$fk" dedup "$f" >"$tmp/again" 2>"$tmp/err"
        check "SIG$sig $kind: the next run prints none of the lines printed before" \
            test "$(cat "$tmp/again")" = d
    done
done

# a SIGHUP ignored at the start (nohup) stays ignored; SIGTERM still stops it
rm -f "$tmp/nohup.fk"
(trap '' HUP; exec "$fk" dedup --kind bloom --fpr 1e-6 --capacity 1000 "$tmp/nohup.fk" \
    <"$tmp/in" >"$tmp/sout" 2>"$tmp/serr") &
pid=$!
exec 3>"$tmp/in"
printf 'x\n' >&3
wait_lines 1
kill -HUP "$pid"
sleep 0.3
check "an ignored SIGHUP (nohup) does not stop dedup" kill -0 "$pid"
printf 'y\n' >&3
check "and it goes on reading" wait_lines 2
stop_dedup TERM
check "then SIGTERM stops it, everything kept (status $rc)" \
    sh -c 'test "$1" = 143 && test "$(printf "x\ny\n" | "$2" dedup "$3" | wc -l)" = 0' sh "$rc" "$fk" "$tmp/nohup.fk"

# a new filter is never an empty placeholder: while dedup waits for its
# first line, and after a SIGKILL, the file is a filter that info reads
# and plain `dedup FILE` adds to
rm -f "$tmp/kill0.fk"
start_dedup --kind cuckoo --fpr 0.001 --capacity 1000 "$tmp/kill0.fk"
for i in $(seq 100); do [ -e "$tmp/kill0.fk" ] && break; sleep 0.1; done
check "new filter, no line yet: info reads the file" "$fk" info "$tmp/kill0.fk" >/dev/null 2>&1
stop_dedup KILL
check "new filter killed before any line: info reads the file" "$fk" info "$tmp/kill0.fk" >/dev/null 2>&1
printf 'p\n' | "$fk" dedup "$tmp/kill0.fk" >"$tmp/out" 2>"$tmp/err"
check "and plain 'dedup FILE' adds to it (exit $?, $(head -c 100 "$tmp/err"))" test "$(cat "$tmp/out")" = p

# SIGKILL after a checkpoint loses nothing checkpointed: --save-every 1
# (a checkpoint after each line), and --save-every 1s (a checkpoint while
# the input is idle)
for every in 1 1s; do
    for kind in bloom window; do
        f="$tmp/kill-$kind.fk"
        rm -f "$f"
        start_dedup --kind "$kind" --fpr 1e-6 --capacity 1000 --save-every "$every" "$f"
        printf 'a\nb\na\nc\n' >&3
        wait_lines 3
        check "--save-every $every $kind: the checkpoint holds the printed lines" holds_all "$f" "$tmp/abc.want"
        stop_dedup KILL
        check "--save-every $every $kind: SIGKILL: the file is a filter" "$fk" info "$f" >/dev/null 2>&1
        printf 'c\nb\nd\na\n' | "$fk" dedup "$f" >"$tmp/again" 2>"$tmp/err"
        check "--save-every $every $kind: after SIGKILL the next run prints only the new line" \
            test "$(cat "$tmp/again")" = d
        check "--save-every $every $kind: no temporary file left" no_temp
    done
done
# with a checkpoint after each line, the saved filter never holds a line
# the output does not have: whatever the kill cuts, each key the filter
# holds was printed
rm -f "$tmp/inv.fk"
seq -f 'i%g' 1 3000 >"$tmp/many"
start_dedup --kind bloom --fpr 1e-9 --capacity 10000 --save-every 1 "$tmp/inv.fk"
cat "$tmp/many" >&3 &
feeder=$!
wait_lines 50
stop_dedup KILL
{ kill "$feeder"; wait "$feeder"; } 2>/dev/null
"$fk" query "$tmp/inv.fk" <"$tmp/many" >"$tmp/held" 2>/dev/null
check "killed mid-stream: every key the filter holds was printed ($(wc -l <"$tmp/held") held, $(wc -l <"$tmp/sout") printed)" \
    sh -c 'test -s "$1" && test -z "$(grep -vxF -f "$2" "$1")"' sh "$tmp/held" "$tmp/sout"

# a stale temporary file (a save killed mid-write) is never read and is
# removed by the next run; a fresh one (a save that may be under way) is left
printf 'k1\n' | "$fk" build --kind bloom --fpr 0.001 --capacity 100 >"$tmp/st.fk"
head -c 3000 /dev/urandom >"$tmp/st.fk.tmp-Ab12Cd"
touch -d '1 hour ago' "$tmp/st.fk.tmp-Ab12Cd"
printf 'junk' >"$tmp/st.fk.tmp-Zz98Yy"
printf 'k1\nk2\n' | "$fk" dedup "$tmp/st.fk" >"$tmp/out" 2>"$tmp/err"
check "stale temp beside the filter: dedup reads the filter (exit $?)" test "$(cat "$tmp/out")" = k2
check "the stale temporary file is removed" test ! -e "$tmp/st.fk.tmp-Ab12Cd"
check "a fresh one is left alone" test -e "$tmp/st.fk.tmp-Zz98Yy"
rm -f "$tmp/st.fk.tmp-Zz98Yy" "$tmp/nf.fk"
head -c 100 /dev/urandom >"$tmp/nf.fk.tmp-Qq11Ww"
touch -d '1 hour ago' "$tmp/nf.fk.tmp-Qq11Ww"
printf 'n1\n' | "$fk" dedup --kind bloom --fpr 0.001 --capacity 100 "$tmp/nf.fk" >"$tmp/out" 2>"$tmp/err"
check "stale temp of a missing filter: dedup creates it (exit $?)" test "$(cat "$tmp/out")" = n1
check "and removes the stale temporary file" test ! -e "$tmp/nf.fk.tmp-Qq11Ww"

# --save-every: times, counts of lines, 0; clear errors (exit 2)
for good in 30s 500ms 2min 1h 0.5s 100000 100k 1M 0 0s; do
    rm -f "$tmp/good.fk"
    printf 'g\n' | "$fk" dedup --kind bloom --fpr 0.01 --capacity 100 --save-every "$good" "$tmp/good.fk" >/dev/null 2>"$tmp/err"
    check "--save-every $good accepted (exit $?)" test ! -s "$tmp/err"
done
for wrong in 5m abc -1 1.2.3s s 2d 1e30s 0.0001ms; do
    printf 'g\n' | "$fk" dedup --kind bloom --fpr 0.01 --capacity 100 --save-every "$wrong" "$tmp/wrong.fk" >"$tmp/out" 2>"$tmp/err"
    r=$?
    check "--save-every $wrong: exit 2, says why, creates nothing ($r: $(head -n 1 "$tmp/err"))" \
        sh -c 'test "$1" = 2 && grep -q -- "--save-every" "$2" && test ! -e "$3" && test ! -s "$4"' \
        sh "$r" "$tmp/err" "$tmp/wrong.fk" "$tmp/out"
done
grep -q "minutes or millions" < <(printf 'g\n' | "$fk" dedup --kind bloom --fpr 0.01 --capacity 100 --save-every 5m "$tmp/wrong.fk" 2>&1)
check "--save-every 5m: says 'm' is ambiguous" test $? -eq 0
# --line-buffered: from a regular file, the same lines
"$fk" dedup --kind bloom --fpr 1e-6 --capacity 100 --line-buffered "$tmp/lb.fk" <"$tmp/abc" >"$tmp/out"
check "--line-buffered: same output" cmp -s "$tmp/out" "$tmp/abc.want"

finish
