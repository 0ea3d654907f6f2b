# tests/lib_cli.sh: sourced by the tests/cli_*.sh scripts of the CLI (not a
# test itself). Sets build, fk (the CLI), root and tmp (removed on exit),
# and the counters behind the closing `N passed, N failed` line:
#   check DESCRIPTION CMD...   passes when CMD succeeds
#   ok / bad DESCRIPTION       count one result directly
#   finish                     prints the closing line; exit 1 on a failure
set -u
build=${FK_BUILD:-build}
fk="$build/filterkit"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
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
