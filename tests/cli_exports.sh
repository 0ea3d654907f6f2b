#!/usr/bin/env bash
# run.sh: alone
# tests/cli_exports.sh: the shared library exports exactly the documented
# API. Installs the public headers into a scratch root, lists every
# declaration they mark FK_API (read after the preprocessor, so macros
# such as FK_SERIAL_DIRECT_DECLARE count), and compares that list with
# `nm -D --defined-only` of libfilterkit.so: nothing undocumented leaks,
# nothing documented is missing, and every export has the fk_ prefix.
# Then the export list itself is checked against tests/exports.txt, the
# reviewed list of what users call: an export nobody meant (a new FK_API
# the list does not name) fails here, and so does one that went missing;
# a change that means it edits that file, one line per export: its name
# and why a user calls it. At most FK_MAX_EXPORTS (150: 140 from issue 39,
# then issue 53's parquet/ reader, a library module that is no kind; a kind's
# typed exports are its direct API, new, insert, contains, remove, save,
# load, describe, as_filter, free; set operations, growth, counts, stats,
# sizes and theory are the fk_filter_* and fk_ops_* calls; where a key
# goes, what a cell holds and the sizing formulas are internal, for the
# trace, the bench and the tests) functions. Every FK_API declaration in
# an installed header is documented (a comment ends right above it, or
# it continues a group under one).
# FK_BUILD=<build dir>.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/${FK_BUILD:-build}"
case "${FK_BUILD:-build}" in /*) build=$FK_BUILD;; esac
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else ko "$what"; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
# a sanitizer build's install must keep its configuration (build_knobs.sh)
. "$root/tests/build_knobs.sh"
make_san=()
san=$(build_san "$build")
[ -n "$san" ] && make_san=(SAN="$san" OPT="$(build_opt "$build")")

if ! make -s -C "$root" install BUILD="$build" "${make_san[@]}" PREFIX=/usr DESTDIR="$tmp/root" \
        >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    ko "make install"
    echo "$pass passed, $fail failed"
    exit 1
fi
inc="$tmp/root/usr/include/filterkit"
headers=$(cd "$inc" && find . -name '*.h' | sed 's|^\./||' | sort)
check "public headers were installed" test -n "$headers"

# Every declaration marked FK_API, after preprocessing: the name before the
# first '(' (a function) or the last word (an object).
for h in $headers; do printf '#include <%s>\n' "$h"; done > "$tmp/all.c"
check "the public headers preprocess together" \
    $cc -std=c11 -E -P -I"$inc" "$tmp/all.c" -o "$tmp/all.i"
tr '\n' ' ' < "$tmp/all.i" | tr ';' '\n' | grep 'visibility("default")' |
    sed 's/.*visibility("default")))//' |
    sed -E 's/\(.*//; s/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*$/\1/' |
    sort -u > "$tmp/declared"
check "the headers declare an API" test -s "$tmp/declared"

so=$(ls "$build"/libfilterkit.so* 2>/dev/null | head -n 1)
check "libfilterkit.so is built" test -n "$so"
# (minus the linker's own symbols and ASan's ODR indicators in san builds)
nm -D --defined-only "${so:-/dev/null}" 2>/dev/null | awk '{print $NF}' |
    grep -v -x -E '_init|_fini|_edata|_end|__bss_start|__odr_asan\..*' | sort -u > "$tmp/exported"
check "the library exports symbols" test -s "$tmp/exported"

undocumented=$(comm -13 "$tmp/declared" "$tmp/exported" | tr '\n' ' ')
missing=$(comm -23 "$tmp/declared" "$tmp/exported" | tr '\n' ' ')
unprefixed=$(grep -v '^fk_' "$tmp/exported" | tr '\n' ' ')
check "every export is declared FK_API in a public header (undocumented: $undocumented)" \
    test -z "$undocumented"
check "every FK_API declaration is exported (missing: $missing)" test -z "$missing"
check "every export starts with fk_ (found: $unprefixed)" test -z "$unprefixed"
check "the list holds the core calls" grep -q -x -e fk_filter_new "$tmp/exported"
check "the list holds macro-declared calls" grep -q -x -e fk_bloom_load "$tmp/exported"
check "the list holds the ops tables" grep -q -x -e fk_cuckoo_ops "$tmp/exported"

# The reviewed list (functions and ops tables alike): NAME REASON per line.
awk '{ print $1 }' "$root/tests/exports.txt" | sort > "$tmp/listed"
listed="$tmp/listed"
bare=$(awk 'NF < 3 { print $1 }' "$root/tests/exports.txt" | tr '\n' ' ')
check "every name in tests/exports.txt gives its reason (bare: $bare)" test -z "$bare"
unlisted=$(comm -13 "$listed" "$tmp/exported" | tr '\n' ' ')
gone=$(comm -23 "$listed" "$tmp/exported" | tr '\n' ' ')
check "every export is in tests/exports.txt (not listed: $unlisted)" test -z "$unlisted"
check "every name in tests/exports.txt is exported (gone: $gone)" test -z "$gone"
functions=$(nm -D --defined-only "${so:-/dev/null}" 2>/dev/null | awk '$2 == "T"' | grep -c -v -E ' (_init|_fini)$')
check "at most ${FK_MAX_EXPORTS:-150} exported functions (found $functions)" \
    test "$functions" -le "${FK_MAX_EXPORTS:-150}"

# Documented: the line above each FK_API declaration ends a comment, or is
# itself an FK_API line of the same group (its continuation lines skipped).
undoc=$(cd "$root" && for h in $(cd "$inc" && find . -name '*.h' | sed 's|^\./||'); do
    awk -v h="$h" '
        /^FK_API/ { if (!(prev ~ /\*\/[[:space:]]*$/ || ingroup)) print h ":" NR; ingroup = 1 }
        !/^FK_API/ { if ($0 !~ /^[[:space:]]/ || $0 ~ /^[[:space:]]*$/) ingroup = 0 }
        { if ($0 !~ /^[[:space:]]*$/) prev = $0; else prev = "" }' "$h"
done | tr '\n' ' ')
check "every FK_API declaration has its comment (bare: $undoc)" test -z "$undoc"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
