#!/usr/bin/env bash
# tests/cli_man.sh: the man page filterkit.1 renders with no groff warning,
# describes every command `filterkit help` lists (and the ones announced for
# this release), --version and every exit status, and names the version
# `filterkit --version` prints. FK_BUILD=<build dir>.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/${FK_BUILD:-build}"
case "${FK_BUILD:-build}" in /*) build=$FK_BUILD;; esac
page="$root/filterkit.1"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else ko "$what"; fi; }

check "filterkit.1 exists" test -s "$page"
if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -ww -z -man "$page" 2>&1)
    check "groff -ww -z -man prints no warning (${warnings:0:300})" test -z "$warnings"
    text=$(groff -man -Tutf8 -P-cbou "$page" 2>/dev/null)
    check "it renders to text" test -n "$text"
else
    echo "note: groff is not installed (Debian groff-base): rendering not checked"
    text=$(cat "$page")
fi

# The COMMANDS section: one `.B name` tag per command.
commands=$(sed -n '/^\.SH COMMANDS/,/^\.SH /p' "$page" | awk 'prev == ".TP" && $1 == ".B" {print $2} {prev = $1}')
listed=$("$build/filterkit" help | awk '/^commands:/{on=1; next} /^$/{on=0} on && /^  [a-z]/{print $1}')
check "filterkit help lists commands" test -n "$listed"
for c in $listed add remove merge dedup help; do
    check "the man page describes '$c'" grep -qx "$c" <<<"$commands"
done
for c in $commands; do
    case " add remove merge dedup help " in *" $c "*) continue;; esac
    check "'$c' in the man page is a command filterkit help lists" grep -qx "$c" <<<"$listed"
done

exits=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$page" | awk 'prev == ".TP" && $1 == ".B" {print $2} {prev = $1}' | tr '\n' ' ')
check "EXIT STATUS lists 0, 1 and 2 ($exits)" test "$exits" = "0 1 2 "
check "the man page describes --version" grep -q 'B \\-\\-version' "$page"

# Exit statuses the page promises, as the CLI gives them.
"$build/filterkit" --version >/dev/null 2>&1; check "--version exits 0" test $? -eq 0
"$build/filterkit" no-such-command >/dev/null 2>&1; check "an unknown command exits 2" test $? -eq 2
"$build/filterkit" info "$root/no/such/file.fk" >/dev/null 2>&1; check "a missing file exits 1" test $? -eq 1

version=$("$build/filterkit" --version)
check "the page's header names '$version'" grep -q "^\.TH FILTERKIT 1 [0-9-]* \"$version\"" "$page"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
