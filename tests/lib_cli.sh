# tests/lib_cli.sh: sourced by the tests/cli_*.sh scripts of the CLI (not a
# test itself). Sets build, fk (the CLI), root and tmp (removed on exit),
# build_san (the build's SAN= knob, empty for a plain build: build_knobs.sh),
# and the counters behind the closing `N passed, N failed` line:
#   check DESCRIPTION CMD...   passes when CMD succeeds
#   ok / bad DESCRIPTION       count one result directly
#   finish                     prints the closing line; exit 1 on a failure
#   skip WHY                   the whole script cannot run here (a tool or
#                              package is missing): `skipped: WHY`, exit 77
#   skip_part WHY              one part cannot run here: `part skipped: WHY`,
#                              a failure under FK_NO_SKIP=1 (CI; tests/run.sh)
#   link_program DIR LINE      a line `filterkit pick` printed runs in DIR
#                              as printed (see below)
set -u
build=${FK_BUILD:-build}
fk="$build/filterkit"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/tests/build_knobs.sh"
build_san=$(build_san "$build")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() {
    local what=$1; shift
    if "$@"; then ok; else bad "$what"; fi
}
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}
skip() {
    echo "skipped: $*"
    exit 77
}
skip_part() {
    if [ "${FK_NO_SKIP:-0}" = 1 ] || { [ -z "${FK_NO_SKIP:-}" ] && [ "${CI:-}" = true ]; }; then
        bad "$* (FK_NO_SKIP=1: CI installs everything, so nothing may be skipped)"
    else
        echo "part skipped: $*"
    fi
}

# pick names the program as it was run, relative to the folder it ran in
# ("build/filterkit"); to run its line as printed in another folder DIR,
# DIR gets a link at that path to this build's filterkit (nothing for
# "filterkit" on PATH or an absolute path).
link_program() {
    local prog=${2%% *}
    case $prog in /* | filterkit) return 0 ;; esac
    mkdir -p "$1/$(dirname "$prog")" &&
        ln -sfn "$(cd "$(dirname "$fk")" && pwd)/filterkit" "$1/$prog"
}
