#!/usr/bin/env bash
# tests/cli_build_config.sh: every object depends on the configuration that
# built it, so any order of make commands gives the same programs. In a
# scratch build folder (built once, at -O0, to stay cheap; the rest are dry
# runs) it checks the orders that once broke:
#   - the CLI built while libbloom was "missing" (HAVE_LIBBLOOM=0, as under
#     `make test` before `make bench` installs it), then built again: it
#     would rebuild; the CLI of FK_BUILD has the baseline exactly when its
#     configuration stamp says libbloom was found;
#   - `make` then `make NATIVE=1` would recompile every object, runinfo.o
#     (the CSV header) saying native;
#   - `make lib` then SAN=address,undefined, CC=clang, OPT, CFLAGS, WERROR:
#     every object would be recompiled (make -n), LDFLAGS relinks;
#   - the same command twice does nothing, and `make -q`/`-n` change nothing.
# Runs once, for the plain build folder. FK_BUILD=<build dir>.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
# a part that cannot run here: said, and a failure under FK_NO_SKIP=1 (CI; tests/run.sh)
part_skipped() { if [ "${FK_NO_SKIP:-0}" = 1 ]; then ko "$* (FK_NO_SKIP=1)"; else echo "part skipped: $*"; fi; }
check() { local what=$1; shift; if "$@"; then ok; else ko "$what"; fi; }

. "$root/tests/build_knobs.sh"
if [ -n "$(build_san "${FK_BUILD:-build}")" ]; then
    echo "skipped: a sanitizer build (the checks build their own)"
    exit 0
fi
# The scratch folder's configuration is this script's own: none of the
# caller's knobs (make test passes them in MAKEFLAGS and the environment).
unset MAKEFLAGS MFLAGS MAKELEVEL CC CFLAGS CPPFLAGS LDFLAGS OPT NATIVE WERROR SAN BUILD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b="$tmp/b"
mk() { make --no-print-directory -C "$root" BUILD="$b" OPT=-O0 "$@"; }
compiles() { grep -c -- ' -c .*\.c -o ' || true; } # compile lines in make's output
nlib=$(mk -s -n lib | compiles)
check "make -n lib in an empty folder compiles the library ($nlib objects)" test "$nlib" -ge 10

csv_build() { "$b/filterkit" bench --filters bloom --n 1000 --lookups 1000 --repeat 1 --no-fill \
              --format csv --out - 2>/dev/null | sed -n 's/^# build: //p'; }

# 1. A portable CLI without libbloom, as `make test` builds it before
# `make bench` installs libbloom-dev.
mk -s -j2 lib cli HAVE_LIBBLOOM=0 >"$tmp/log" 2>&1 || { ko "build with HAVE_LIBBLOOM=0"; cat "$tmp/log"; }
check "the CLI built without libbloom has no libbloom kind" \
    test "$("$b/filterkit" bench --filters libbloom --n 1000 --repeat 1 --out - >/dev/null 2>&1; echo $?)" -ne 0
check "the CSV header says portable ($(csv_build))" test "$(csv_build)" = portable

# 2. Dry runs: what each change of configuration would rebuild.
check "the same command again has nothing to do" mk -q lib cli HAVE_LIBBLOOM=0
nall=$(mk -s -n lib cli NATIVE=1 HAVE_LIBBLOOM=0 | compiles)
check "NATIVE=1 would recompile every object of lib and cli ($nall)" \
    test "$nall" -eq "$(mk -s -n lib cli BUILD="$tmp/empty" HAVE_LIBBLOOM=0 | compiles)"
n=$(mk -s -n cli HAVE_LIBBLOOM=1 | compiles)
check "libbloom found would recompile the CLI's objects ($n)" \
    test "$n" -ge "$(find "$root/bench" -name '*.c' | wc -l)"
for knob in SAN=address,undefined CC=clang OPT=-O1 CFLAGS=-DFK_UNUSED_MACRO WERROR=1 CPPFLAGS=-DX=1; do
    case $knob in CC=clang) command -v clang >/dev/null 2>&1 || { part_skipped "CC=clang: no clang here"; continue; };; esac
    n=$(mk -s -n lib "$knob" HAVE_LIBBLOOM=0 | compiles)
    check "make lib $knob after make lib would recompile every object ($n of $nlib)" test "$n" -eq "$nlib"
done
check "LDFLAGS=-Wl,-O1 would relink the shared library" \
    grep -q -- '-shared' <<<"$(mk -s -n lib LDFLAGS=-Wl,-O1 HAVE_LIBBLOOM=0)"
check "make -q and -n changed nothing: still nothing to do" mk -q lib cli HAVE_LIBBLOOM=0

n=$(mk -s -n lib cli NATIVE=1 HAVE_LIBBLOOM=0 | grep -c -- '-DFK_BUILD_NATIVE=1 .*runinfo\.c' || true)
check "NATIVE=1 would recompile runinfo.o saying native (the CSV header)" test "$n" -eq 1

# 3. The CLI that `make test` built in FK_BUILD has the libbloom baseline
# exactly when its configuration stamp says libbloom was found.
fkb="$root/${FK_BUILD:-build}"
case "${FK_BUILD:-build}" in /*) fkb=$FK_BUILD;; esac
stamp=$(cat "$fkb"/config-*.stamp 2>/dev/null)
check "FK_BUILD has one configuration stamp" test "$(ls "$fkb"/config-*.stamp 2>/dev/null | wc -l)" -eq 1
"$fkb/filterkit" bench --filters bloom,libbloom --n 20000 --lookups 20000 --repeat 1 --no-fill \
    --out - >"$tmp/bench" 2>&1
case "$stamp" in
    *"libbloom=1"*) check "built with libbloom: the bench has a libbloom row" grep -q '^ *libbloom ' "$tmp/bench";;
    *)  check "built without libbloom: the bench has no libbloom row" test "$(grep -c '^ *libbloom ' "$tmp/bench")" -eq 0
        echo "note: $fkb was built without libbloom";;
esac

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
