#!/usr/bin/env bash
# tests/mutate.sh [PATCH...]: `make mutate`. Plants each kept mutant
# (tests/mutants/*.patch, or the patches named) in a copy of the tree and
# checks that the tests kill it:
#   1. a scratch copy of the tree (tracked and untracked files, not the
#      ignored ones) and of its build folder, built once (`make tests-build`);
#   2. per mutant, a copy of that (sources and build: make then rebuilds
#      only what the patch touched), the patch applied with `git apply`,
#      and its header's `# Caught by:` command run there at small scale
#      (FK_TEST_SCALE=small);
#   3. when that command passes, the mutant survived its own test: `make
#      check` runs in that copy too (the suite may still kill it).
# Prints a table: mutant, the test that caught it (its command, `make
# check`, or SURVIVED), seconds. Exits 1 when a mutant survives, does not
# apply, or does not compile (a mutant must build: a kill by a compile
# error proves nothing).
#
# FK_MUTATE_DIR: the scratch folder (default: a new one under $TMPDIR,
# removed at the end unless FK_MUTATE_KEEP=1). FK_MUTATE_TIMEOUT: seconds
# one command may take (default 900). The make knobs of the environment
# (CC, WERROR, ...) apply in the copies. Run before each release, not in
# every CI run (CONTRIBUTING.md).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-build}
limit=${FK_MUTATE_TIMEOUT:-900}
cd "$root" || exit 2
if [ "$#" -gt 0 ]; then
    patches=("$@")
else
    patches=(tests/mutants/*.patch)
fi
[ -e "${patches[0]}" ] || { echo "mutate: no patches in tests/mutants/" >&2; exit 2; }
for p in "${patches[@]}"; do
    case "$p" in /*) ;; *) p="$root/$p" ;; esac
    [ -f "$p" ] || { echo "mutate: no patch $p" >&2; exit 2; }
done

if [ -n "${FK_MUTATE_DIR:-}" ]; then
    scratch=$FK_MUTATE_DIR
    mkdir -p "$scratch" || exit 2
else
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/filterkit-mutate.XXXXXX") || exit 2
fi
cleanup() { [ "${FK_MUTATE_KEEP:-0}" = 1 ] || rm -rf "$scratch"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the base copy: the tree as it is, and its build folder ------------------
base="$scratch/base"
rm -rf "$base"
mkdir -p "$base"
git ls-files -z -c -o --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -xf - -C "$base" || { echo "mutate: cannot copy the tree" >&2; exit 2; }
if [ -d "$build" ]; then
    mkdir -p "$base/$build"
    cp -a "$build/." "$base/$build/" || exit 2
fi
t0=$(date +%s)
echo "mutate: building the unmutated copy in $base (make tests-build)"
if ! (cd "$base" && timeout "$limit" make -j"${FK_MUTATE_JOBS:-2}" --no-print-directory tests-build \
        >"$scratch/base-build.log" 2>&1); then
    tail -n 30 "$scratch/base-build.log"
    echo "mutate: the unmutated tree does not build" >&2
    exit 2
fi
echo "mutate: built in $(($(date +%s) - t0)) s"

# --- one mutant ----------------------------------------------------------------
header() { # patch field
    sed -n "s/^# $2: //p" "$1" | head -n 1
}
rows=()
failed=0
n=0
for p in "${patches[@]}"; do
    case "$p" in /*) ;; *) p="$root/$p" ;; esac
    name=$(basename "$p" .patch)
    catch=$(header "$p" "Caught by")
    n=$((n + 1))
    dir="$scratch/m"
    rm -rf "$dir"
    cp -a "$base" "$dir"
    start=$(date +%s)
    log="$scratch/$name.log"
    if [ -z "$catch" ]; then
        result="NO '# Caught by:' LINE"; failed=1
    elif ! (cd "$dir" && git apply "$p") >"$log" 2>&1; then
        result="DOES NOT APPLY (tests/mutants/regen.py)"; failed=1
    else
        # the patched file is newer than every object built from it
        (cd "$dir" && git apply --numstat "$p" | cut -f3 | while read -r f; do touch "$f"; done)
        echo "mutate: [$n/${#patches[@]}] $name: $catch"
        (cd "$dir" && FK_TEST_SCALE=small timeout "$limit" bash -c "$catch") >"$log" 2>&1
        rc=$?
        if grep -qE '^[^ :]+\.(c|h):[0-9]+:[0-9]+: error:|undefined reference' "$log" &&
                ! grep -qE '^(FAIL|ok) ' "$log"; then
            result="DOES NOT COMPILE (see $name.log)"; failed=1
        elif [ "$rc" -eq 124 ]; then
            result="$catch (timed out after $limit s)"
        elif [ "$rc" -ne 0 ]; then
            result="$catch"
        else
            echo "mutate: $name survived its test; make check"
            if (cd "$dir" && timeout "$limit" make -j"${FK_MUTATE_JOBS:-2}" --no-print-directory check) \
                    >>"$log" 2>&1; then
                result="SURVIVED"; failed=1
            else
                result="make check (not: $catch)"
            fi
        fi
    fi
    secs=$(($(date +%s) - start))
    rows+=("$(printf '%-42s %-6s %s' "$name" "$secs" "$result")")
    printf 'mutate: %s: %s (%d s)\n' "$name" "$result" "$secs"
    [ "${FK_MUTATE_KEEP:-0}" = 1 ] && [ "$result" = SURVIVED ] && mv "$dir" "$scratch/$name.tree"
done
rm -rf "$scratch/m"

echo
printf '%-42s %-6s %s\n' "mutant" "s" "caught by"
printf '%s\n' "${rows[@]}"
total=$(($(date +%s) - t0))
if [ "$failed" -ne 0 ]; then
    echo "mutate: $n mutants in $total s: NOT all killed (logs: FK_MUTATE_KEEP=1 keeps $scratch)"
    exit 1
fi
echo "mutate: $n mutants, every one killed, in $total s"
