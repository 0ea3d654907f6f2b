#!/usr/bin/env bash
# run.sh: alone
# tests/cli_install.sh: what a new user and a packager do first. Compiles and
# runs the README's C example exactly as written, with cc and with g++,
# linked with the Bloom module and common/ only; checks the shared library's
# SONAME; then `make install PREFIX=/usr DESTDIR=...` (with an apt-get on
# PATH that must not be called), builds the example through pkg-config in C
# (static) and C++ (shared), compiles every installed header alone as C and
# as C++, checks that the .pc, fk_version() and `filterkit --version` agree,
# and that `make uninstall` leaves no file behind. FK_BUILD=<build dir>.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/${FK_BUILD:-build}"
case "${FK_BUILD:-build}" in /*) build=$FK_BUILD;; esac
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
# a part that cannot run here: said, and a failure under FK_NO_SKIP=1 (CI; tests/run.sh)
part_skipped() { if [ "${FK_NO_SKIP:-0}" = 1 ]; then ko "$* (FK_NO_SKIP=1)"; else echo "part skipped: $*"; fi; }
check() { local what=$1; shift; if "$@"; then ok; else ko "$what"; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
cxx=g++
have_cxx=1
command -v $cxx >/dev/null 2>&1 || { have_cxx=0; part_skipped "the C++ checks: no g++ here"; }
# a sanitizer build's archives need the sanitizer runtime at link time, and
# its install must keep its configuration (build_knobs.sh)
. "$root/tests/build_knobs.sh"
san=""
make_san=()
san_knob=$(build_san "$build")
if [ -n "$san_knob" ]; then
    san="-fsanitize=$san_knob"
    make_san=(SAN="$san_knob" OPT="$(build_opt "$build")")
fi
version=$("$build/filterkit" --version | sed 's/^filterkit //')
check "filterkit --version prints a version ($version)" \
    grep -qE '^[0-9]+\.[0-9]+\.[0-9]+$' <<<"$version"
major=${version%%.*}
# The ABI number in the SONAME: MAJOR from 1.0 on; before it, MAJOR.MINOR,
# since a 0.x minor release may break the ABI (the packagers' convention).
case "$major" in 0) minor=${version#0.}; major=0.${minor%%.*};; esac

# 1. The README example, verbatim (the first ```c block), in-tree.
awk '/^```c$/{on=1; next} /^```$/{if (on) exit} on' "$root/README.md" > "$tmp/app.c"
check "README has a C example" test -s "$tmp/app.c"
check "README example includes <filterkit/...> (one namespace)" grep -q '#include <filterkit/' "$tmp/app.c"
# in the tree, BUILD/include/filterkit is the source root: the installed spelling builds here
check "README example builds with libfk_bloom.a + libfk_common.a only" \
    $cc -std=c11 $san -I"$build/include" "$tmp/app.c" "$build/libfk_bloom.a" "$build/libfk_common.a" \
        -lm -o "$tmp/app"
check "README example runs and finds its key" "$tmp/app"
if [ $have_cxx = 1 ]; then
    cp "$tmp/app.c" "$tmp/app_cxx.cpp"
    check "README example builds as C++ with g++ (extern \"C\" headers)" \
        $cxx $san -I"$build/include" "$tmp/app_cxx.cpp" "$build/libfk_bloom.a" "$build/libfk_common.a" \
            -lm -o "$tmp/app_cxx"
    check "the C++ build runs and finds its key" "$tmp/app_cxx"
fi

# 2. The shared library: versioned file, SONAME, the two symlinks.
soname() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
check "build/libfilterkit.so.$version exists" test -f "$build/libfilterkit.so.$version"
check "its SONAME is libfilterkit.so.$major ($(soname "$build/libfilterkit.so.$version"))" \
    test "$(soname "$build/libfilterkit.so.$version")" = "libfilterkit.so.$major"
check "build/libfilterkit.so.$major links to it" \
    test "$(readlink "$build/libfilterkit.so.$major")" = "libfilterkit.so.$version"
check "build/libfilterkit.so links to it" \
    test "$(readlink "$build/libfilterkit.so")" = "libfilterkit.so.$version"

# 3. make install into a scratch root. An apt-get earlier on PATH records
# any call: installing must copy files, never install packages.
dest="$tmp/root"
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "$0 $*" >> "%s/apt-called"\nexit 1\n' "$tmp" > "$tmp/bin/apt-get"
chmod +x "$tmp/bin/apt-get"
mk() { PATH="$tmp/bin:$PATH" make -s -C "$root" BUILD="$build" "${make_san[@]}" PREFIX=/usr DESTDIR="$dest" "$@"; }
if mk install >"$tmp/install.log" 2>&1; then ok; else ko "make install"; cat "$tmp/install.log"; fi
check "make install ran no apt-get ($(cat "$tmp/apt-called" 2>/dev/null))" test ! -e "$tmp/apt-called"
inc="$dest/usr/include/filterkit"
incroot="$dest/usr/include" # the one folder -I names: #include <filterkit/...>
# What must be installed is derived, not listed: the interface, each
# module's own header (one per module archive), and everything those
# include, which holds when every installed header compiles on its own
# against the installed tree alone.
check "installed common/filter.h" test -f "$inc/common/filter.h"
check "installed common/version.h" test -f "$inc/common/version.h"
for a in "$build"/libfk_*.a; do
    m=${a##*/libfk_}; m=${m%.a}
    # bench and its pick component (libfk_pick.a, for the Python extension) are not installed
    [ "$m" = common ] || [ "$m" = bench ] || [ "$m" = pick ] || check "installed $m/$m.h" test -f "$inc/$m/$m.h"
done
for h in $(cd "$inc" 2>/dev/null && find . -name '*.h' | sed 's|^\./||'); do
    check "installed $h compiles alone" \
        sh -c "printf '#include <filterkit/%s>\\n' '$h' | $cc -std=c11 -fsyntax-only -I'$incroot' -x c -"
done
leaked=$(cd "$inc" 2>/dev/null && ls */*_internal.h common/hash.h common/bits.h common/probe.h \
         common/alloc.h common/endian.h cuckoo/cuckoo_table.h 2>/dev/null)
check "no internal header installed (found: $leaked)" test -z "$leaked"
# ... nor one whose opening comment calls it internal (the Makefile names
# its public headers; this catches a name put there by mistake)
leaked=$(cd "$inc" 2>/dev/null && for h in $(find . -name '*.h' | sed 's|^\./||'); do
    awk '{ print } /\*\// { exit }' "$h" | grep -q -i -E 'internal( header|\))' && echo "$h"; done)
check "no installed header says it is internal (found: $leaked)" test -z "$leaked"
lib="$dest/usr/lib"
for f in libfilterkit.a libfk_common.a libfk_bloom.a libfk_blocked.a libfk_counting.a libfk_cuckoo.a libfk_scalable.a \
         "libfilterkit.so.$version" pkgconfig/filterkit.pc; do
    check "installed lib/$f" test -f "$lib/$f"
done
check "installed lib/libfilterkit.so.$major -> libfilterkit.so.$version" \
    test "$(readlink "$lib/libfilterkit.so.$major")" = "libfilterkit.so.$version"
check "installed lib/libfilterkit.so -> libfilterkit.so.$version" \
    test "$(readlink "$lib/libfilterkit.so")" = "libfilterkit.so.$version"
check "installed SONAME libfilterkit.so.$major" \
    test "$(soname "$lib/libfilterkit.so.$version")" = "libfilterkit.so.$major"
check "installed man page share/man/man1/filterkit.1" test -f "$dest/usr/share/man/man1/filterkit.1"
check "installed bin/filterkit" test -x "$dest/usr/bin/filterkit"
check "installed bash completion share/bash-completion/completions/filterkit" \
    sh -c "bash -n '$dest/usr/share/bash-completion/completions/filterkit' && grep -q 'complete -o filenames -F _filterkit filterkit' '$dest/usr/share/bash-completion/completions/filterkit'"
check "installed zsh completion share/zsh/site-functions/_filterkit" \
    grep -q '^#compdef filterkit' "$dest/usr/share/zsh/site-functions/_filterkit"

# 4. The .pc names this command's PREFIX and the library's version.
pc="$lib/pkgconfig/filterkit.pc"
check "filterkit.pc says prefix=/usr ($(grep '^prefix=' "$pc"))" grep -qx 'prefix=/usr' "$pc"
check "filterkit.pc says Version: $version ($(grep '^Version:' "$pc"))" grep -qx "Version: $version" "$pc"
# (PKG_CONFIG_ALLOW_SYSTEM_CFLAGS: /usr/include is a system folder, which
# pkg-config leaves out; under DESTDIR it is not)
pkgconf() { PKG_CONFIG_SYSROOT_DIR="$dest" PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_LIBDIR=/nonexistent \
            PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 pkg-config "$@"; }
if command -v pkg-config >/dev/null 2>&1; then
    cflags=$(echo $(pkgconf --cflags filterkit))
    libs=$(echo $(pkgconf --libs filterkit))
    check "pkg-config --modversion filterkit = $version" test "$(pkgconf --modversion filterkit)" = "$version"
else # no pkg-config here: read the .pc the way it would
    echo "note: no pkg-config here: reading filterkit.pc by hand"
    cflags="-I$incroot"
    libs="-L$lib -lfilterkit"
fi
check "filterkit.pc gives one namespaced include folder ($cflags)" test "$cflags" = "-I$incroot"
check "filterkit.pc gives the link flags ($libs)" test "$libs" = "-L$lib -lfilterkit"

# 5. The README example against the installed tree: C with the static
# archive, C++ with the shared library (run through its SONAME).
cp "$tmp/app.c" "$tmp/app2.c" # the same source as in the tree
# shellcheck disable=SC2086
check "the example builds as C against the installed headers and libfilterkit.a" \
    $cc -std=c11 $san $cflags "$tmp/app2.c" "$lib/libfilterkit.a" -lm -o "$tmp/app2"
check "that C app runs" "$tmp/app2"
cat > "$tmp/version.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <filterkit/bloom/bloom.h>
int main(void) { /* the version this was compiled with, then the library's */
    printf("%s %s\n", FK_VERSION_STRING, fk_version());
    return strcmp(FK_VERSION_STRING, fk_version()) != 0 || fk_version_number() != FK_VERSION_NUMBER;
}
EOF
# shellcheck disable=SC2086
check "a program using fk_version() links with the shared library" \
    $cc -std=c11 $san $cflags "$tmp/version.c" $libs -o "$tmp/version"
got=$(LD_LIBRARY_PATH="$lib" "$tmp/version")
check "fk_version() = FK_VERSION_STRING = filterkit --version = .pc Version ($got)" \
    test "$got" = "$version $version"
check "it needs libfilterkit.so.$major" \
    grep -q "Shared library: \[libfilterkit.so.$major\]" <<<"$(readelf -d "$tmp/version")"
if [ $have_cxx = 1 ]; then
    cp "$tmp/app2.c" "$tmp/app2.cpp"
    # shellcheck disable=SC2086
    check "the example builds as C++ with g++ through pkg-config (shared)" \
        $cxx $san $cflags "$tmp/app2.cpp" $libs -o "$tmp/app2_cxx"
    check "that C++ app runs against the installed libfilterkit.so.$major" \
        env LD_LIBRARY_PATH="$lib" "$tmp/app2_cxx"
fi

# 6. Every installed header compiles alone, as C11 and as C++, pedantic,
# with only the installed tree on the include path.
nh=0
while IFS= read -r h; do
    nh=$((nh + 1))
    printf '#include <filterkit/%s>\n' "$h" > "$tmp/one.c"
    $cc -std=c11 -Wall -Wextra -pedantic -Werror -I"$incroot" -fsyntax-only "$tmp/one.c" 2>"$tmp/one.log" ||
        { ko "installed $h compiles alone as C"; cat "$tmp/one.log"; continue; }
    if [ $have_cxx = 1 ]; then
        $cxx -x c++ -Wall -Wextra -pedantic -Werror -I"$incroot" -fsyntax-only "$tmp/one.c" 2>"$tmp/one.log" ||
            { ko "installed $h compiles alone as C++"; cat "$tmp/one.log"; continue; }
    fi
    ok
done < <(cd "$inc" && find . -name '*.h' | sed 's|^\./||' | sort)
check "headers checked alone ($nh)" test "$nh" -ge 12

# 6b. Every symbol the installed shared library exports is declared in an
# installed header with C linkage: a C++ program including all of them
# takes each one's address and links (a missing extern "C" would leave a
# mangled, undefined reference).
if [ $have_cxx = 1 ]; then
    syms=$(nm -D --defined-only "$lib/libfilterkit.so.$version" | awk '$3 ~ /^fk_/ {print $3}' | sort)
    check "the shared library exports fk_* symbols ($(wc -w <<<"$syms"))" test -n "$syms"
    { (cd "$inc" && find . -name '*.h' | sed 's|^\./||' | sort | sed 's|.*|#include <filterkit/&>|')
      echo 'static const void *const exported[] = {'
      sed 's/.*/    (const void *)\&&,/' <<<"$syms"
      echo '};'
      echo 'int main() { for (const void *p : exported) if (!p) return 1; return 0; }'
    } > "$tmp/every_symbol.cpp"
    # shellcheck disable=SC2086
    if $cxx $san $cflags "$tmp/every_symbol.cpp" $libs -o "$tmp/every_symbol" 2>"$tmp/every.log"; then
        ok
    else
        ko "every exported symbol is declared extern \"C\" in an installed header:"
        grep -E 'error|undefined reference' "$tmp/every.log" | head -n 10
    fi
    check "and that C++ program runs" env LD_LIBRARY_PATH="$lib" "$tmp/every_symbol"
fi

# 6c. The README's install example, as written, for a prefix in $HOME (not
# a system folder: the loader does not look there): its lines that name
# $HOME/.local run with HOME in the scratch folder, make pointing at this
# tree and build, then the program it links runs.
if command -v pkg-config >/dev/null 2>&1; then
    mkdir -p "$tmp/home" "$tmp/readme"
    awk '/^```sh$/{on=1; next} /^```$/{on=0} on && /\$HOME\/\.local/' "$root/README.md" >"$tmp/readme/install.sh"
    check "README has an install example for \$HOME/.local ($(wc -l <"$tmp/readme/install.sh") lines)" \
        test "$(wc -l <"$tmp/readme/install.sh")" -ge 2
    cp "$tmp/app.c" "$tmp/readme/app.c"
    if (cd "$tmp/readme" && HOME="$tmp/home" PATH="$tmp/bin:$PATH" \
            bash -e -c "make() { command make -s -C '$root' BUILD='$build' ${make_san[*]} \"\$@\"; }
                        $(cat "$tmp/readme/install.sh")") >"$tmp/readme.log" 2>&1; then ok
    else ko "the README's install example fails as written:"; tail -n 5 "$tmp/readme.log"; fi
    if [ -n "$san" ]; then
        # the README's program is built without the sanitizer, against the
        # ASan-built library, which needs its runtime loaded first: the run
        # itself is checked by the plain build
        check "... and the program it built is there" test -x "$tmp/readme/app"
    else
        check "... and the program it built runs (no LD_LIBRARY_PATH)" env -u LD_LIBRARY_PATH "$tmp/readme/app"
    fi
    check "... linked with the shared library" \
        grep -q "Shared library: \[libfilterkit.so.$major\]" <<<"$(readelf -d "$tmp/readme/app" 2>/dev/null)"
    (HOME="$tmp/home" make -s -C "$root" BUILD="$build" "${make_san[@]}" PREFIX="$tmp/home/.local" uninstall \
        >/dev/null 2>&1)
else
    part_skipped "the README's \$HOME/.local example: no pkg-config here"
fi

# 7. Other directories: the .pc follows LIBDIR and INCLUDEDIR.
dest2="$tmp/root2"
PATH="$tmp/bin:$PATH" make -s -C "$root" install-pc PREFIX=/opt/fk LIBDIR=/opt/fk/lib64 \
    INCLUDEDIR=/srv/inc DESTDIR="$dest2" >/dev/null 2>&1
pc2="$dest2/opt/fk/lib64/pkgconfig/filterkit.pc"
check "install-pc LIBDIR=/opt/fk/lib64 writes libdir=\${prefix}/lib64" grep -qx 'libdir=${prefix}/lib64' "$pc2"
check "install-pc INCLUDEDIR=/srv/inc writes includedir=/srv/inc" grep -qx 'includedir=/srv/inc' "$pc2"

# 8. make uninstall with the same variables removes every file it installed.
if mk uninstall >"$tmp/uninstall.log" 2>&1; then ok; else ko "make uninstall"; cat "$tmp/uninstall.log"; fi
left=$(cd "$dest" && find . ! -type d | sort)
check "make uninstall left no file (left: $(echo $left))" test -z "$left"
check "make uninstall removed include/filterkit/" test ! -e "$inc"
check "make uninstall ran no apt-get" test ! -e "$tmp/apt-called"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
