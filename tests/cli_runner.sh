#!/usr/bin/env bash
# tests/cli_runner.sh: tests/run.sh itself. While one test runs it says so
# every FK_TEST_HEARTBEAT seconds (30 by default; issue 40: `make test` sat
# silent for 160 s), and those lines leave the counting alone: the total
# is still the last line, a failure still counts.
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
    test "$(tail -n 1 "$tmp/out")" = "4 passed, 2 failed"
check "the slow test's own line still reads ok with its count" \
    grep -qE '^ok +.*slow_pass.sh +3 passed' "$tmp/out"
# a test program of a build folder (labelled "DIR/tests/test_slow") and a
# script run against a folder (labelled "PATH/cli_x.sh (DIR)"): the name is
# the program's or script's
FK_TEST_HEARTBEAT=1 "$root/tests/run.sh" "$tmp/b/tests/test_slow" >"$tmp/out2" 2>&1
check "a build folder's program: '... still running test_slow (1 s)'" grep -qx '... still running test_slow (1 s)' "$tmp/out2"
# the heartbeat stops with its test: no line after the total
sleep 1.3
check "no heartbeat after run.sh ended" test "$(tail -n 1 "$tmp/out")" = "4 passed, 2 failed"
finish
