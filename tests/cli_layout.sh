#!/usr/bin/env bash
# tests/cli_layout.sh: the floor plan holds (CONTRIBUTING.md, "Layout").
#  - nothing outside bench/ includes a bench/ header, but the bench's own
#    tests (tests/test_bench_*.c, tests/fuzz/fuzz_cli_*.c);
#  - bench/figures/ (the measurement programs) includes only the library:
#    common/, the kinds and the registry, never bench/ or tests/;
#  - common/ includes no kind and not the registry; no kind includes
#    another kind, the registry, bench/ or redis/ (scalable/ reaches its
#    inner kinds through their fk_ops only);
#  - every kind named in the Makefile's KINDS has its folder with the files
#    by role (<kind>.h, <kind>_internal.h, <kind>.c), every .c there is
#    <kind>.c or <kind>_<role>.c and none is under 60 lines, and the
#    registry names its ops table (registry/registry.c); the test-only
#    kinds of TEST_KINDS (tests/<kind>/) have the same files by role.
# Reads the tree only; needs no build.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else ko "$what"; fi; }

kinds=$(sed -n 's/^KINDS *:= *//p' Makefile)
check "the Makefile names its kinds on one KINDS line ($kinds)" test -n "$kinds"

# The quoted includes of the C files under a folder (or outside one).
includes_in() { grep -rn --include='*.c' --include='*.h' -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$@" 2>/dev/null; }

bench_tests='^(bench/|tests/test_bench_|tests/fuzz/fuzz_cli_)'
outside_bench=$(git ls-files '*.c' '*.h' 2>/dev/null | grep -v -E "$bench_tests")
[ -n "$outside_bench" ] || outside_bench=$(find . -name '*.[ch]' ! -path './build*' | sed 's|^\./||' | grep -v -E "$bench_tests")
bad=$(printf '%s\n' $outside_bench | xargs grep -n -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(\.\./)*bench/' 2>/dev/null)
check "no file outside bench/ includes from bench/: $bad" test -z "$bad"

lib_dirs=$(echo common $kinds registry | tr ' ' '|')
bad=$(includes_in bench/figures | grep -v -E "#[[:space:]]*include[[:space:]]*\"\.\./\.\./($lib_dirs)/[A-Za-z0-9_]+\.h\"")
check "bench/figures/ includes only the library (common/, the kinds, registry/): $bad" test -z "$bad"

bad=$(includes_in common | grep -E "\"\.\./($(echo $kinds registry bench redis | tr ' ' '|'))/")
check "common/ includes no kind, registry, bench or redis: $bad" test -z "$bad"

# $1 = the kind's folder, $2 = its name: the files by role, the .c names
# and sizes.
roles() {
    local dir=$1 k=$2 c lines
    check "kind folder $dir/ exists" test -d "$dir"
    for role in "$k.h" "${k}_internal.h" "$k.c"; do
        check "$dir/ has $role" test -f "$dir/$role"
    done
    for c in "$dir"/*.c; do
        [ -f "$c" ] || continue
        case "$(basename "$c")" in "$k.c"|"${k}_"*.c) ok;; *) ko "$c is not named $k.c or ${k}_<role>.c";; esac
        lines=$(wc -l < "$c")
        check "$c has at least 60 lines (has $lines; fold it into its role file)" test "$lines" -ge 60
    done
}

for k in $(sed -n 's/^TEST_KINDS *:= *//p' Makefile); do
    roles "tests/$k" "$k"
done

for k in $kinds; do
    roles "$k" "$k"
    others=$(echo $kinds registry bench redis | tr ' ' '\n' | grep -v -x "$k" | tr '\n' '|')
    bad=$(includes_in "$k" | grep -E "\"\.\./(${others%|})/")
    check "$k/ includes no other kind, registry, bench or redis: $bad" test -z "$bad"
    check "registry/registry.c lists $k" grep -q -E "X\(fk_${k}[a-z_]*_ops\)" registry/registry.c
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
