#!/usr/bin/env bash
# tests/cli_install.sh: what a new user does first. Compiles and runs the
# README's C example exactly as written, linked with the Bloom module and
# common/ only; then `make install` into a scratch DESTDIR and builds the
# same program against the installed headers through pkg-config, checking
# that only public headers were installed. FK_BUILD=<build dir>.
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
# a sanitizer build's archives need the sanitizer runtime at link time
san=""
make_san=()
case "$build" in
    */san) san="-fsanitize=address,undefined"; make_san=(SAN=address,undefined OPT=-O1);;
esac

# 1. The README example, verbatim (the first ```c block).
awk '/^```c$/{on=1; next} /^```$/{if (on) exit} on' "$root/README.md" > "$tmp/app.c"
check "README has a C example" test -s "$tmp/app.c"
check "README example builds with libfk_bloom.a + libfk_common.a only" \
    $cc -std=c11 $san -I"$root" "$tmp/app.c" "$build/libfk_bloom.a" "$build/libfk_common.a" \
        -lm -o "$tmp/app"
check "README example runs and finds its key" "$tmp/app"

# 2. make install into a scratch root, then build against what it installed.
dest="$tmp/root"
if make -s -C "$root" install BUILD="$build" "${make_san[@]}" PREFIX=/usr DESTDIR="$dest" \
        >"$tmp/install.log" 2>&1; then
    ok
else
    ko "make install"; cat "$tmp/install.log"
fi
inc="$dest/usr/include/filterkit"
# What must be installed is derived, not listed: the interface, each
# module's own header (one per module archive), and everything those
# include, which holds when every installed header compiles on its own
# against the installed tree alone.
check "installed common/filter.h" test -f "$inc/common/filter.h"
for a in "$build"/libfk_*.a; do
    m=${a##*/libfk_}; m=${m%.a}
    [ "$m" = common ] || [ "$m" = bench ] || check "installed $m/$m.h" test -f "$inc/$m/$m.h"
done
for h in $(cd "$inc" 2>/dev/null && find . -name '*.h' | sed 's|^\./||'); do
    check "installed $h compiles alone" \
        sh -c "printf '#include <%s>\\n' '$h' | $cc -std=c11 -fsyntax-only -I'$inc' -x c -"
done
leaked=$(cd "$inc" 2>/dev/null && ls */*_internal.h common/hash.h common/bits.h common/probe.h \
         common/alloc.h 2>/dev/null)
check "no internal header installed (found: $leaked)" test -z "$leaked"
for lib in libfilterkit.a libfilterkit.so libfk_common.a libfk_bloom.a libfk_counting.a \
           libfk_cuckoo.a pkgconfig/filterkit.pc; do
    check "installed lib/$lib" test -f "$dest/usr/lib/$lib"
done
sed 's|#include "bloom/bloom.h".*|#include <bloom/bloom.h>|' "$tmp/app.c" > "$tmp/app2.c"
pc="$dest/usr/lib/pkgconfig/filterkit.pc"
if command -v pkg-config >/dev/null 2>&1; then
    flags=$(PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" \
            pkg-config --cflags filterkit 2>/dev/null)
else # no pkg-config here: read the .pc's Cflags the way it would
    flags=$(sed -n 's/^Cflags: //p' "$pc" | sed "s|\${includedir}|$dest/usr/include|")
fi
flags=$(echo $flags) # pkg-config pads with a space
check "filterkit.pc gives the include flags ($flags)" test "$flags" = "-I$inc"
# shellcheck disable=SC2086
check "an app builds against the installed headers and archive" \
    $cc -std=c11 $san $flags "$tmp/app2.c" "$dest/usr/lib/libfilterkit.a" -lm -o "$tmp/app2"
check "that app runs" "$tmp/app2"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
