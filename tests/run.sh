#!/usr/bin/env bash
# tests/run.sh BUILD_DIR...: runs every test program of each build folder
# (tests/test_* and tests/link_*) and every tests/cli_*.sh script against
# that folder's CLI (an argument that is a program or a script runs just
# that), adds up their `N passed, N failed` lines and ends with the total on
# one line. A program that crashes or prints no such line counts as one
# failure, except one that exits 0 with the last line `skipped: <why>`
# (a script whose tool is missing): it is listed as skipped, with its why.
# Exit status is nonzero on any failure. While a test runs longer than 30 s
# (FK_TEST_HEARTBEAT seconds) a "... still running NAME (N s)" line says so.
set -u
here=$(cd "$(dirname "$0")" && pwd)
total_pass=0
total_fail=0
total_skip=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Seconds between the "... still running" lines printed while one test
# runs (a quiet `make test` under load looked hung for minutes).
heartbeat=${FK_TEST_HEARTBEAT:-30}

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
    local out rc line p f start end beat name
    start=$(date +%s.%N)
    name=${label%% (*}          # "/x/tests/cli_a.sh (build/w)" -> "cli_a.sh"
    heartbeat_lines "${name##*/}" &
    beat=$!
    out=$("$@" 2>&1); rc=$?
    kill "$beat" 2>/dev/null
    wait "$beat" 2>/dev/null
    end=$(date +%s.%N)
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    why=$(printf '%s\n' "$out" | tail -n 1 | sed -n 's/^skipped: //p')
    if [ "$rc" -eq 0 ] && [ -z "$line" ] && [ -n "$why" ]; then
        total_skip=$((total_skip + 1))
        printf 'skip  %-40s %s\n' "$label" "$why"
        return
    fi
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
        printf 'ok    %-40s %4d passed  %5.1fs\n' "$label" "$p" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')"
    fi
}

for build in "$@"; do
    case "$build" in *.sh)
        run_one "$build" env FK_BUILD="${FK_BUILD:-build}" bash "$build"
        continue;;
    esac
    if [ -f "$build" ] && [ -x "$build" ]; then
        run_one "$build" "$build"
        continue
    fi
    for t in "$build"/tests/test_* "$build"/tests/link_*; do
        [ -x "$t" ] && [ -f "$t" ] || continue
        case "$t" in *.o|*.d) continue;; esac
        run_one "$t" "$t"
    done
    for s in "$here"/cli_*.sh; do
        [ -f "$s" ] || continue
        run_one "$s ($build)" env FK_BUILD="$build" bash "$s"
    done
done
[ "$total_skip" -eq 0 ] || echo "($total_skip skipped, listed above)"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
