#!/usr/bin/env bash
# tests/cli_window.sh: the sliding window in the CLI (issue 42).
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
#  - dedup --kind window --capacity N prints a line unless it was seen
#    among the last N lines (a repeat refreshes it), matching an exact
#    sliding set computed by awk;
#  - a line from a pipe is printed and flushed before the next line
#    arrives (tail -f ... | filterkit dedup ... works);
#  - --window-seconds T creates a time window, info shows the generation,
#    the oldest age and the fill per generation; --window-seconds with a
#    kind that does not forget is a usage error;
#  - (issue 48) its file records its clock, Unix time in ns (info shows
#    it); dedup refuses a time window on another clock (a forged clock 0)
#    and says which clock the file has; a Unix-ns file forgets on the
#    wall clock's schedule across runs.
. "$(dirname "$0")/lib_cli.sh"

# a stream of 20000 lines over 3000 values: the exact answer by awk (a line
# is new unless its value appeared in the previous 700 lines)
awk 'BEGIN { s = 7; for (i = 0; i < 20000; i++) { s = (s * 1103515245 + 12345) % 2147483648; print "v" int(s / 65536) % 3000 } }' >"$tmp/stream"
awk -v n=700 '{ if (!($0 in last) || NR - last[$0] > n) print; last[$0] = NR }' "$tmp/stream" >"$tmp/want"
"$fk" dedup --kind window --capacity 700 --fpr 1e-6 "$tmp/w.fk" <"$tmp/stream" >"$tmp/got"
check "window dedup exits 0" test $? -eq 0
# the window may remember a line up to 8 ceil(N/7) - 1 = 799 lines: lines
# whose last sighting is 701..799 back may be dropped; nothing else differs
awk -v n=700 -v slack=799 'NR == FNR { got[FNR] = $0; ng = FNR; next }
    { if (!($0 in last) || FNR - last[$0] > slack) must[FNR] = 1
      else if (FNR - last[$0] > n) may[FNR] = 1
      last[$0] = FNR; line[FNR] = $0; nl = FNR }
    END { j = 1; bad = 0
          for (i = 1; i <= nl; i++) {
              if (j <= ng && got[j] == line[i] && (must[i] || may[i])) { j++; continue }
              if (must[i]) bad++ }
          if (j <= ng) bad++
          print bad }' "$tmp/got" "$tmp/stream" >"$tmp/bad"
check "window dedup = the exact sliding set (up to the slack)" test "$(cat "$tmp/bad")" = 0
check "it printed lines seen long ago again" test "$(wc -l <"$tmp/got")" -gt "$(sort -u "$tmp/stream" | wc -l)"
"$fk" info "$tmp/w.fk" >"$tmp/info"
check "info: the window" grep -q '^window: *700 (inserts)' "$tmp/info"
check "info: the current generation" grep -q '^current generation: *200$' "$tmp/info"
check "info: fill per generation" grep -q '^fill per generation: ' "$tmp/info"
check "info: oldest age" grep -q '^oldest age: *700 ' "$tmp/info"
check "info: a count window shows no clock rows ($(grep -E '^(clock|timed|now|next boundary|refused)' "$tmp/info" | cut -d: -f1 | tr '\n' ' '))" \
    sh -c "! grep -qE '^(clock|timed|now|next boundary|refused)' '$tmp/info'"

# build and add feed a window every line, repeats too: a repeat refreshes
# its key (a line skipped as "maybe present" would leave with the key it
# matched, inside its window)
printf 'a\na\nb\na\n' | "$fk" build --kind window --capacity 8 --fpr 0.01 >"$tmp/r.fk"
check "build: a window counts every line, repeats included" \
    test "$("$fk" info "$tmp/r.fk" | awk '/^items:/ { print $2 }')" = 4
printf 'a\nc\n' | "$fk" add "$tmp/r.fk"
check "add: a window counts every line, repeats included" \
    test "$("$fk" info "$tmp/r.fk" | awk '/^items:/ { print $2 }')" = 6

# a pipe: each printed line arrives before the input ends
mkfifo "$tmp/in"
( "$fk" dedup --kind window --capacity 100 "$tmp/p.fk" <"$tmp/in" | head -n 2 >"$tmp/head" ) &
reader=$!
exec 3>"$tmp/in"
printf 'a\nb\na\nc\n' >&3
for _ in $(seq 50); do [ "$(wc -l <"$tmp/head" 2>/dev/null)" = 2 ] && break; sleep 0.1; done
check "a pipe gets each new line at once" test "$(cat "$tmp/head" | tr '\n' ' ')" = "a b "
exec 3>&-
wait "$reader"

printf 'x\ny\nx\n' | "$fk" dedup --kind window --capacity 100 --window-seconds 60 "$tmp/t.fk" >"$tmp/tout"
check "time window dedup" test "$(tr '\n' ' ' <"$tmp/tout")" = "x y "
"$fk" info "$tmp/t.fk" >"$tmp/tinfo"
# issue 50: a span in human units, its ns after it (the JSON keeps the ns);
# a point in time as UTC; every row once
check "info: a time window in human units, then its ns" grep -q '^window: *1 min (60000000000 ns)$' "$tmp/tinfo"
check "info: a generation is a seventh of it" grep -q '^generation length: *8.571 s (8571428572 ns)$' "$tmp/tinfo"
check "info: the oldest age in human units" grep -qE '^oldest age: *[0-9.]+ (ns|us|ms|s|min) \([0-9]+ ns\)' "$tmp/tinfo"
check "info: now as a UTC time" grep -qE '^now: *20[0-9-]+ [0-9:.]+ UTC \([0-9]+ ns\)$' "$tmp/tinfo"
check "info --json: the window in ns" grep -q '"window": 60000000000,' <("$fk" info --json "$tmp/t.fk")
for f in "$tmp/info" "$tmp/tinfo"; do
    check "info: no label twice ($(cut -d: -f1 "$f" | sort | uniq -d | tr '\n' ' '))" \
        test -z "$(cut -d: -f1 "$f" | sort | uniq -d)"
    check "info: one row for the generation and one for the stash" \
        test "$(grep -cE '^(current )?generation:' "$f")-$(grep -c '^stash' "$f")" = 1-1
done
check "info of a count window: no time window (T ticks) row" sh -c "! grep -qi 'ticks' '$tmp/info'"
check "info --json: the rows under describe()'s names" \
    sh -c "'$fk' info --json '$tmp/w.fk' | grep -q '\"generation\": 200,' && '$fk' info --json '$tmp/w.fk' | grep -q '\"generation_slots\": '"
# issue 48: the file says which clock its times are in: Unix ns (1), the
# clock dedup reads, and Python's and Redis's
check "info: the clock, Unix time in ns" grep -q '^clock: *1 (unix_ns' "$tmp/tinfo"
check "info --json: the clock id" grep -q '"clock": 1' <("$fk" info --json "$tmp/t.fk")
# the same file on another clock (0: its maker's own ticks, as a C
# program's or Python's clock="caller" window): dedup will not advance it
# with the wall clock, says which clock it has, and leaves it unchanged
python3 -I "$root/tests/redis/forge.py" window-clock-id "$tmp/t.fk" "$tmp/t0.fk" 0
cp "$tmp/t0.fk" "$tmp/t0.before"
check "info: a clock-0 window's clock and unit" \
    sh -c "'$fk' info '$tmp/t0.fk' | grep -q '^clock: *0 (caller' && '$fk' info '$tmp/t0.fk' | grep -q '^window: .*caller'"
printf 'x\nz\n' | "$fk" dedup "$tmp/t0.fk" >"$tmp/t0.out" 2>"$tmp/t0.err"
check "dedup refuses to advance a clock-0 window: exit 1" test $? -eq 1
check "... saying which clock the file has ($(head -c 200 "$tmp/t0.err"))" grep -q 'clock 0 (caller' "$tmp/t0.err"
check "... printing nothing, the file unchanged" sh -c "test ! -s '$tmp/t0.out' && cmp -s '$tmp/t0.fk' '$tmp/t0.before'"
# the clock-1 file goes on with the wall clock across runs: a line older
# than T (1 + 1/7) is new again, one inside T is not (T = 1 s, D = 1/7 s)
printf 'old\n' | "$fk" dedup --kind window --capacity 100 --window-seconds 1 "$tmp/s.fk" >/dev/null
sleep 1.3
printf 'kept\n' | "$fk" dedup "$tmp/s.fk" >/dev/null
check "a Unix-ns window forgets on schedule across runs" \
    test "$(printf 'old\nkept\n' | "$fk" dedup "$tmp/s.fk" | tr '\n' ' ')" = "old "
"$fk" dedup --kind cuckoo --capacity 100 --fpr 0.01 --window-seconds 5 "$tmp/c.fk" </dev/null 2>"$tmp/err"
check "--window-seconds needs a window: exit 2" test $? -eq 2
check "and says so" grep -q 'forgets' "$tmp/err"

# Issue 48: window records whose counter or clock a real window never
# reaches, their checksums recomputed (tests/test_serial.c writes them into
# the load fuzzer's corpus): a count window at generation number 2^64 - 1
# (the next generation wrapped to 0 and its own save was refused), a time
# window whose next boundary is 2^64 - 1 (it never forgot), one whose
# generation grid starts before time 0. info and dedup refuse each, saying
# it is corrupt, and dedup prints nothing and leaves the file as it was.
for forged in window-generation-wrap window-clock-end window-grid-before-zero; do
    cp "$root/tests/fuzz/corpus/load/$forged.fk" "$tmp/forged.fk"
    "$fk" info "$tmp/forged.fk" >"$tmp/out" 2>"$tmp/err"
    check "$forged: info refuses it (exit 1)" test $? -eq 1
    check "$forged: info says it is corrupt" grep -q 'corrupt' "$tmp/err"
    seq 100 | "$fk" dedup "$tmp/forged.fk" >"$tmp/out" 2>"$tmp/err"
    check "$forged: dedup refuses it (exit 1)" test $? -eq 1
    check "$forged: dedup says it is corrupt" grep -q 'corrupt' "$tmp/err"
    check "$forged: dedup printed nothing" test ! -s "$tmp/out"
    check "$forged: dedup left the file as it was" \
        cmp -s "$tmp/forged.fk" "$root/tests/fuzz/corpus/load/$forged.fk"
done
# the last generation number below the limit (2^63 - 1) loads: dedup runs
# 100 lines through it (10 generations: the number folds 2^62 lower) and
# writes a file that info reads
cp "$root/tests/fuzz/corpus/load/window-generation-edge.fk" "$tmp/edge.fk"
seq 100 | "$fk" dedup "$tmp/edge.fk" >"$tmp/out" 2>"$tmp/err"
check "generation 2^63 - 1: dedup exits 0" test $? -eq 0
"$fk" info "$tmp/edge.fk" >"$tmp/info" 2>"$tmp/err"
check "generation 2^63 - 1: info reads the file dedup wrote" test $? -eq 0
check "... at generation 2^62 + 9" grep -q '^current generation: *4611686018427387913$' "$tmp/info"
finish
