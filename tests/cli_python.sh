#!/usr/bin/env bash
# tests/cli_python.sh: the Python package (python/) against the build in
# FK_BUILD: builds it (make python, same configuration), runs python/tests
# with pytest + hypothesis, and checks that pip installs it into a clean
# virtual environment. Run by tests/run.sh; prints `N passed, N failed`.
# A sanitizer build (SAN= in its configuration) runs the extension under
# ASan+UBSan (LD_PRELOAD of the runtimes; leak checks off: CPython keeps
# its interned objects to the end), quick hypothesis examples, and no
# timed pick (FK_SANITIZED=1: cli_pick.sh times picks there). FK_TEST_SCALE=small (make check): fewer
# hypothesis examples and no pip run. PYTHON picks the interpreter.
set -u
build=${FK_BUILD:-build}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
py=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$build" in /*) ;; *) build="$root/$build" ;; esac

missing=
for m in numpy pytest hypothesis; do
    "$py" -c "import $m" 2>/dev/null || missing="$missing python3-$m"
done
"$py" -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    2>/dev/null || missing="$missing python3-dev"
if [ -n "$missing" ]; then
    echo "skipped: missing Debian packages:$missing (make deps-python-test installs them)"
    exit 77
fi

# The extension in the build folder's own configuration (make test built
# it already; this only catches up with sources changed since): the knobs
# read back from the folder's configuration stamp.
. "$root/tests/build_knobs.sh"
stamp=$(build_stamp "$build")
san=$(build_san "$build")
opt=$(build_opt "$build")
cc=$(printf '%s' "$stamp" | sed -n 's/^CC=\([^ ]*\) .*/\1/p')
werror=0; case "$stamp" in *" -Werror "*) werror=1 ;; esac
native=0; case "$stamp" in *"NATIVE=1"*) native=1 ;; esac
rel=${build#"$root"/}
fresh=0
if [ -f "$build/python/built.stamp" ] && [ -f "$build/libfilterkit.a" ] && [ -z "$(find "$root/python/src" \
        "$root/python/filterkit" "$root/python/setup.py" "$root/python/pyproject.toml" "$build/libfilterkit.a" -newer "$build/python/built.stamp" \
        2>/dev/null | head -n 1)" ]; then
    fresh=1 # built by make test already: do not touch the folder's configuration
fi
if [ "$fresh" = 0 ] && ! make -C "$root" --no-print-directory "$rel/python/built.stamp" BUILD="$rel" ${san:+SAN=$san} \
        ${opt:+OPT=$opt} ${cc:+CC=$cc} WERROR=$werror NATIVE=$native PYTHON="$py" >"$tmp/make.log" 2>&1; then
    tail -n 30 "$tmp/make.log"
    echo "python: make python failed"
    echo "0 passed, 1 failed"
    exit 1
fi

pass=0
fail=0
env_vars=(PYTHONPATH="$build/python/lib" FK_BUILD="$rel" PYTHONDONTWRITEBYTECODE=1)
small=0
[ "${FK_TEST_SCALE:-}" = small ] && small=1 # make check: fewer examples, no pip run
[ "$small" = 1 ] && env_vars+=(FK_HYPOTHESIS_PROFILE=quick)
if [ -n "$san" ]; then
    preload=
    for rt in libasan.so libubsan.so; do
        case "$san" in *address*) ;; *) [ "$rt" = libasan.so ] && continue ;; esac
        f=$(${cc:-cc} -print-file-name=$rt)
        [ -f "$f" ] && preload="$preload $f"
    done
    env_vars+=(LD_PRELOAD="${preload# }" ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
               UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 FK_HYPOTHESIS_PROFILE=quick FK_SANITIZED=1)
fi
(cd "$root/python/tests" && env "${env_vars[@]}" "$py" -m pytest -q -p no:cacheprovider \
    -o addopts= -o console_output_style=classic . >"$tmp/pytest.log" 2>&1)
rc=$?
summary=$(tail -n 1 "$tmp/pytest.log")
p=$(printf '%s' "$summary" | grep -o '[0-9]* passed' | cut -d' ' -f1)
f=$(printf '%s' "$summary" | grep -o '[0-9]* failed' | cut -d' ' -f1)
e=$(printf '%s' "$summary" | grep -o '[0-9]* error' | cut -d' ' -f1)
pass=$((pass + ${p:-0}))
fail=$((fail + ${f:-0} + ${e:-0}))
if [ "$rc" -ne 0 ]; then
    grep -v '^\.*$' "$tmp/pytest.log" | tail -n 40
    [ "${f:-0}${e:-0}" = 00 ] && fail=$((fail + 1))
fi
echo "pytest: $summary"

# pip installs the package into a clean virtual environment (it sees
# Debian's packages, as numpy, through --system-site-packages) and it
# imports there; the plain build only (pip knows no sanitizer).
if [ "$small" = 1 ]; then
    echo "python: pip install not checked at FK_TEST_SCALE=small"
elif [ -z "$san" ] && ! { "$py" -c 'import ensurepip' && "$py" -m pip --version; } >/dev/null 2>&1; then
    if [ "${FK_NO_SKIP:-0}" = 1 ]; then
        echo "FAIL: pip install not checked: missing python3-venv or python3-pip (FK_NO_SKIP=1)"
        fail=$((fail + 1))
    else
        echo "part skipped: pip install: missing python3-venv or python3-pip"
    fi
elif [ -z "$san" ]; then
    if "$py" -m venv --system-site-packages "$tmp/venv" >"$tmp/venv.log" 2>&1 &&
        FK_LIBFILTERKIT="$build/libfilterkit.a" "$tmp/venv/bin/pip" install -q --no-build-isolation \
            --no-index "$root/python" >"$tmp/pip.log" 2>&1 &&
        (cd "$tmp" && "$tmp/venv/bin/python" -c '
import filterkit, sys
f = filterkit.Filter("blocked", capacity=1000)
f.add("x")
sys.exit(not ("x" in f and filterkit.__file__.startswith(sys.prefix)))'); then
        pass=$((pass + 1))
    else
        cat "$tmp/venv.log" "$tmp/pip.log" | tail -n 20
        echo "FAIL: pip install --no-build-isolation ./python into a clean venv"
        fail=$((fail + 1))
    fi
    rm -rf "$root/python/build" "$root/python/filterkit.egg-info"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
