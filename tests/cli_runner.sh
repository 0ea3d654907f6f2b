#!/usr/bin/env bash
# tests/cli_runner.sh: tests/run.sh itself. While one test runs it says so
# every FK_TEST_HEARTBEAT seconds (30 by default; issue 40: `make test` sat
# silent for 160 s), and those lines leave the counting alone: the total
# is still the last line, a failure still counts. Skips say so (issue 54):
# exit 77 with `skipped: why` is listed as `skip (why)` and counted in the
# closing line, and is a failure under FK_NO_SKIP=1 or CI=true; a skip by
# design (exit 0) never is; `0 passed, 0 failed` is not a skip. Tests run
# FK_TEST_JOBS at a time, scripts marked `# run.sh: alone` by themselves.
source "$(dirname "$0")/lib_cli.sh"

cat >"$tmp/slow_pass.sh" <<'T'
sleep 2.4
echo "3 passed, 0 failed"
T
cat >"$tmp/quick_fail.sh" <<'T'
echo "1 passed, 2 failed"
exit 1
T
mkdir -p "$tmp/b/tests"
cp "$tmp/slow_pass.sh" "$tmp/b/tests/test_slow"
chmod +x "$tmp/b/tests/test_slow"
FK_TEST_HEARTBEAT=1 "$root/tests/run.sh" "$tmp/slow_pass.sh" "$tmp/quick_fail.sh" >"$tmp/out" 2>&1
rc=$?
check "run.sh exits nonzero on the failing test" test "$rc" -ne 0
check "a heartbeat line each second while slow_pass.sh runs" \
    sh -c "grep -qx '... still running slow_pass.sh (1 s)' '$tmp/out' && grep -qx '... still running slow_pass.sh (2 s)' '$tmp/out'"
check "no heartbeat for the quick test" sh -c "! grep -q 'still running quick_fail' '$tmp/out'"
check "the total is still the last line, heartbeats not counted" \
    test "$(tail -n 1 "$tmp/out")" = "4 passed, 2 failed, 0 skipped"
check "the slow test's own line still reads ok with its count" \
    grep -qE '^ok +.*slow_pass.sh +3 passed' "$tmp/out"
# a test program of a build folder (labelled "DIR/tests/test_slow") and a
# script run against a folder (labelled "PATH/cli_x.sh (DIR)"): the name is
# the program's or script's
FK_TEST_HEARTBEAT=1 "$root/tests/run.sh" "$tmp/b/tests/test_slow" >"$tmp/out2" 2>&1
check "a build folder's program: '... still running test_slow (1 s)'" grep -qx '... still running test_slow (1 s)' "$tmp/out2"
# the heartbeat stops with its test: no line after the total
sleep 1.3
check "no heartbeat after run.sh ended" test "$(tail -n 1 "$tmp/out")" = "4 passed, 2 failed, 0 skipped"

# --- skips -------------------------------------------------------------------
cat >"$tmp/missing.sh" <<'T'
echo "looking for the tool"
echo "skipped: no frobnicator (apt-get install frob)"
exit 77
T
cat >"$tmp/by_design.sh" <<'T'
echo "skipped: the sanitizer build folder"
exit 0
T
cat >"$tmp/silent.sh" <<'T'
echo "tool missing"
echo "0 passed, 0 failed"
exit 0
T
cat >"$tmp/skip_not_last.sh" <<'T'
echo "skipped: no frobnicator"
echo "then something else"
exit 77
T
cat >"$tmp/part.sh" <<'T'
echo "part skipped: the JSON checks: no jq"
echo "2 passed, 0 failed"
T
run() { env -u CI -u FK_NO_SKIP FK_TEST_HEARTBEAT=100 "$@" >"$tmp/o" 2>&1; echo $? >"$tmp/rc"; }
run "$root/tests/run.sh" "$tmp/missing.sh" "$tmp/by_design.sh" "$tmp/pass.sh"
check "exit 77 + 'skipped: why': listed as skip with its why" \
    grep -qE '^skip +.*missing\.sh +\(no frobnicator \(apt-get install frob\)\)$' "$tmp/o"
check "exit 0 + 'skipped: why' (by design): listed as skip" \
    grep -qE '^skip +.*by_design\.sh +\(the sanitizer build folder\)$' "$tmp/o"
check "skips counted in the closing line" test "$(tail -n 1 "$tmp/o")" = "0 passed, 1 failed, 2 skipped"
echo 'echo "3 passed, 0 failed"' >"$tmp/pass.sh" # (missing before: a failure)
run "$root/tests/run.sh" "$tmp/missing.sh" "$tmp/by_design.sh" "$tmp/pass.sh"
check "skips alone do not fail the run" test "$(cat "$tmp/rc")" = 0
check "... and the closing line says 3 passed, 0 failed, 2 skipped" \
    test "$(tail -n 1 "$tmp/o")" = "3 passed, 0 failed, 2 skipped"
run env FK_NO_SKIP=1 "$root/tests/run.sh" "$tmp/missing.sh" "$tmp/by_design.sh" "$tmp/pass.sh"
check "FK_NO_SKIP=1: a skip for something missing fails the run" test "$(cat "$tmp/rc")" != 0
check "FK_NO_SKIP=1: it is listed as FAIL with its why" grep -qE '^FAIL +.*missing\.sh +skipped \(no frobnicator' "$tmp/o"
check "FK_NO_SKIP=1: a skip by design is still a skip" test "$(tail -n 1 "$tmp/o")" = "3 passed, 1 failed, 1 skipped"
run env CI=true "$root/tests/run.sh" "$tmp/missing.sh" "$tmp/pass.sh"
check "CI=true implies FK_NO_SKIP=1" test "$(cat "$tmp/rc")" != 0
run env CI=true FK_NO_SKIP=0 "$root/tests/run.sh" "$tmp/missing.sh" "$tmp/pass.sh"
check "CI=true FK_NO_SKIP=0: a skip again" test "$(tail -n 1 "$tmp/o")" = "3 passed, 0 failed, 1 skipped"
run "$root/tests/run.sh" "$tmp/silent.sh"
check "'0 passed, 0 failed' is not a skip: listed ok with 0 passed, no skip counted" \
    sh -c "grep -qE '^ok +.*silent\.sh +0 passed' '$tmp/o' && test \"\$(tail -n 1 '$tmp/o')\" = '0 passed, 0 failed, 0 skipped'"
run "$root/tests/run.sh" "$tmp/skip_not_last.sh"
check "exit 77 without 'skipped:' as the last line is a failure" test "$(cat "$tmp/rc")" != 0
run "$root/tests/run.sh" "$tmp/part.sh"
check "'part skipped: why' is named on the ok line" \
    grep -qE '^ok +.*part\.sh +2 passed .*\(part skipped: the JSON checks: no jq\)$' "$tmp/o"

# Tests run FK_TEST_JOBS at a time: two that each wait for the other to
# have started both pass only when they run side by side; the totals are
# the same in any order; a script marked "# run.sh: alone" sees no other
# test running beside it.
for who in a b; do
    other=$([ $who = a ] && echo b || echo a)
    cat >"$tmp/pair_$who.sh" <<T
: >"$tmp/started_$who"
for i in \$(seq 100); do [ -e "$tmp/started_$other" ] && break; sleep 0.1; done
if [ -e "$tmp/started_$other" ]; then echo "2 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi
T
done
FK_TEST_JOBS=2 "$root/tests/run.sh" "$tmp/pair_a.sh" "$tmp/pair_b.sh" "$tmp/quick_fail.sh" >"$tmp/out3" 2>&1
rc=$?
check "FK_TEST_JOBS=2: two tests ran side by side, the totals add up" \
    test "$(tail -n 1 "$tmp/out3")" = "5 passed, 2 failed, 0 skipped"
check "FK_TEST_JOBS=2: a failure still fails the run" test "$rc" -ne 0
cat >"$tmp/busy.sh" <<T
: >"$tmp/busy"; sleep 1.5; rm -f "$tmp/busy"; echo "1 passed, 0 failed"
T
cat >"$tmp/lonely.sh" <<T
# run.sh: alone
if [ -e "$tmp/busy" ]; then echo "0 passed, 1 failed"; exit 1; fi
echo "1 passed, 0 failed"
T
FK_TEST_JOBS=2 "$root/tests/run.sh" "$tmp/busy.sh" "$tmp/lonely.sh" "$tmp/busy.sh" >"$tmp/out4" 2>&1
check "a script marked '# run.sh: alone' runs with no test beside it" \
    test "$(tail -n 1 "$tmp/out4")" = "3 passed, 0 failed, 0 skipped"

"$root/tests/run.sh" "$tmp/no_such_test" >"$tmp/out5" 2>&1
rc=$?
check "an argument that is no program, script or folder is a failure, not a folder to search" \
    sh -c "test $rc -ne 0 && tail -n 1 '$tmp/out5' | grep -qx '0 passed, 1 failed, 0 skipped'"

# lib_cli.sh's skip and skip_part
cat >"$tmp/uses_lib.sh" <<T
source "$root/tests/lib_cli.sh"
ok
skip_part "a part: no tool"
finish
T
run env FK_NO_SKIP=0 bash "$tmp/uses_lib.sh"
check "skip_part: says 'part skipped:' and passes" sh -c "grep -qx 'part skipped: a part: no tool' '$tmp/o' && test \"\$(cat '$tmp/rc')\" = 0"
run env FK_NO_SKIP=1 bash "$tmp/uses_lib.sh"
check "skip_part under FK_NO_SKIP=1: a failure" sh -c "grep -qx '1 passed, 1 failed' '$tmp/o' && test \"\$(cat '$tmp/rc')\" = 1"
printf 'source "%s/tests/lib_cli.sh"\nskip "no tool"\necho unreachable\n' "$root" >"$tmp/whole.sh"
run bash "$tmp/whole.sh"
check "skip: 'skipped: why' last, exit 77" sh -c "test \"\$(tail -n 1 '$tmp/o')\" = 'skipped: no tool' && test \"\$(cat '$tmp/rc')\" = 77"
finish
