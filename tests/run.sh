#!/usr/bin/env bash
# tests/run.sh BUILD_DIR...: runs every test program of each build folder
# (tests/test_* and tests/link_*) and every tests/cli_*.sh script (and the
# Redis module's, tests/redis/cli_*.sh) against
# that folder's CLI (an argument that is a program or a script runs just
# that), adds up their `N passed, N failed` lines and ends with the total on
# one line, `N passed, N failed, N skipped`. A program that crashes or
# prints no such line counts as one failure.
#
# Skips say so (CONTRIBUTING.md, "Skips"): a test that cannot run here
# prints `skipped: <why>` as its last line and exits
#   77  when something it needs is missing (a package, a tool: no
#       redis-server, no node, no Python packages); listed as
#       `skip  NAME  (why)`, and a failure under FK_NO_SKIP=1, which CI=true
#       implies (FK_NO_SKIP=0 turns that off): CI installs everything, so
#       a suite that did not run there is a failure, not a pass;
#   0   when it does not apply to this build folder by design (the
#       sanitizer folder); listed as skipped, never a failure.
# A test that runs but leaves a part out says `part skipped: <why>` (the
# part is named on its ok line; under FK_NO_SKIP=1 the test itself counts
# it as a failure, lib_cli.sh's skip_part).
# Exit status is nonzero on any failure. While a test runs longer than 30 s
# (FK_TEST_HEARTBEAT seconds) a "... still running NAME (N s)" line says so.
#
# Tests run FK_TEST_JOBS at a time (default: the number of CPUs, at most 4;
# FK_TEST_JOBS=1 runs them one after another). Each test's lines are printed
# whole when it ends, so results come in the order tests finish; the totals
# do not depend on the order. Tests share nothing but the machine: each
# writes under its own mktemp folder or $$-named files and each Redis test
# starts its own server on a free port (tests/redis/lib.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
total_pass=0
total_fail=0
total_skip=0
# FK_NO_SKIP=1 (CI=true implies it): a skip for something missing fails.
case "${FK_NO_SKIP:-}" in
    1) no_skip=1 ;;
    0) no_skip=0 ;;
    *) no_skip=0; [ "${CI:-}" = true ] && no_skip=1 ;;
esac
export FK_NO_SKIP=$no_skip
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Seconds between the "... still running" lines printed while one test
# runs (a quiet `make test` under load looked hung for minutes).
heartbeat=${FK_TEST_HEARTBEAT:-30}
# the "still running" lines go straight to the terminal, not into the
# test's buffered lines
exec 3>&1

# Prints "... still running LABEL (N s)" every $heartbeat seconds until
# killed; its sleep writes nowhere, so a pipe reading run.sh's output is not
# held open by a sleep outliving it.
heartbeat_lines() { # label
    local waited=0
    while sleep "$heartbeat" </dev/null >/dev/null 2>&1; do
        waited=$((waited + heartbeat))
        printf '... still running %s (%d s)\n' "$1" "$waited"
    done
}

run_one() { # label, command...
    local label=$1; shift
    local out rc line p f start end beat name why parts
    start=$(date +%s.%N)
    name=${label%% (*}          # "/x/tests/cli_a.sh (build/w)" -> "cli_a.sh"
    heartbeat_lines "${name##*/}" >&3 &
    beat=$!
    out=$("$@" 2>&1); rc=$?
    kill "$beat" 2>/dev/null
    wait "$beat" 2>/dev/null
    end=$(date +%s.%N)
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    why=$(printf '%s\n' "$out" | tail -n 1 | sed -n 's/^skipped: //p')
    if [ -z "$line" ] && [ -n "$why" ] && { [ "$rc" -eq 77 ] || [ "$rc" -eq 0 ]; }; then
        if [ "$rc" -eq 77 ] && [ "$no_skip" = 1 ]; then
            total_fail=$((total_fail + 1))
            printf 'FAIL  %-40s skipped (%s), and FK_NO_SKIP=1 (CI) requires it to run\n' "$label" "$why"
            return
        fi
        total_skip=$((total_skip + 1))
        printf 'skip  %-40s (%s)\n' "$label" "$why"
        return
    fi
    parts=$(printf '%s\n' "$out" | sed -n 's/^part skipped: //p' | paste -sd ';' - | sed 's/;/; /g')
    if [ -n "$line" ]; then
        p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    else
        p=0; f=0
    fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
    if [ "$f" -ne 0 ]; then
        printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 40
        printf 'FAIL  %-40s %4d passed, %d failed (exit %d)\n' "$label" "$p" "$f" "$rc"
    else
        printf 'ok    %-40s %4d passed  %5.1fs%s\n' "$label" "$p" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')" \
            "${parts:+  (part skipped: $parts)}"
    fi
}

jobs_max=${FK_TEST_JOBS:-}
if [ -z "$jobs_max" ]; then
    jobs_max=$(nproc 2>/dev/null || echo 1)
    [ "$jobs_max" -gt 4 ] && jobs_max=4
fi
case "$jobs_max" in ''|*[!0-9]*|0) jobs_max=1 ;; esac

# Each test runs in the background with its printed lines and its counts in
# files of $results; collect_any() prints and adds up those that have ended.
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
# Ctrl-C stops the tests still running, not just the runner
trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT TERM
queued=0 running=0 collected=0
collect_any() {
    local i c
    for ((i = collected; i < queued; i++)); do
        [ -f "$results/$i.done" ] && [ ! -f "$results/$i.shown" ] || continue
        cat "$results/$i.out"
        read -r c <"$results/$i.done"
        set -- $c
        total_pass=$((total_pass + $1)); total_fail=$((total_fail + $2)); total_skip=$((total_skip + $3))
        : >"$results/$i.shown"
    done
    while [ "$collected" -lt "$queued" ] && [ -f "$results/$collected.shown" ]; do
        collected=$((collected + 1))
    done
}
# A script with the line "# run.sh: alone" (it runs make on the shared
# build folder: install, exports) runs with no other
# test beside it.
drain() {
    while [ "$running" -gt 0 ]; do
        wait -n 2>/dev/null
        running=$((running - 1))
        collect_any
    done
}
queue() { # label, command...
    local i=$queued arg alone=0
    for arg in "$@"; do
        case "$arg" in *.sh) grep -q '^# run.sh: alone' "$arg" 2>/dev/null && alone=1 ;; esac
    done
    [ "$alone" = 1 ] && drain
    queued=$((queued + 1))
    (
        total_pass=0 total_fail=0 total_skip=0
        run_one "$@" >"$results/$i.out"
        echo "$total_pass $total_fail $total_skip" >"$results/$i.done.tmp"
        mv "$results/$i.done.tmp" "$results/$i.done"
    ) &
    running=$((running + 1))
    [ "$alone" = 1 ] && drain
    while [ "$running" -ge "$jobs_max" ]; do
        wait -n 2>/dev/null
        running=$((running - 1))
        collect_any
    done
}

for build in "$@"; do
    case "$build" in *.sh)
        queue "$build" env FK_BUILD="${FK_BUILD:-build}" bash "$build"
        continue;;
    esac
    if [ -f "$build" ] && [ -x "$build" ]; then
        queue "$build" "$build"
        continue
    fi
    if [ ! -d "$build" ]; then # a typo, an object file: not a folder of tests
        total_fail=$((total_fail + 1))
        printf 'FAIL  %-40s not a test program, a cli_*.sh script or a build folder\n' "$build"
        continue
    fi
    for t in "$build"/tests/test_* "$build"/tests/link_*; do
        [ -x "$t" ] && [ -f "$t" ] || continue
        case "$t" in *.o|*.d) continue;; esac
        queue "$t" "$t"
    done
    for s in "$here"/cli_*.sh "$here"/redis/cli_*.sh; do
        [ -f "$s" ] || continue
        queue "$s ($build)" env FK_BUILD="$build" bash "$s"
    done
done
drain
wait
collect_any
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
