#!/usr/bin/env bash
# tests/cli_docs_truth.sh: the numbers and synopses README and docs/ state
# are read from where they come from, so none goes stale again (issue 50):
#  - every libfilterkit.so.X name in README.md and docs/ is the built
#    library's SONAME or its file name (readelf of build/libfilterkit.so,
#    which the Makefile names from common/version.h);
#  - docs/library.md's export count: the names in tests/exports.txt and
#    the functions libfilterkit.so exports (nm -D);
#  - the number of plots README and docs/bench.md speak of: the plots
#    `make bench` draws (plots/N_name.gp), each listed in docs/bench.md;
#  - README's "N ways in": its Quick start's ### sections;
#  - docs/bench.md's `== [i/N]` progress line: run_default.sh's nsteps;
#  - every option `filterkit CMD --help` lists is in docs/cli.md's
#    synopsis of CMD (an alias, --n / --capacity, counts for both);
#  - README's trace line shows what its comment promises: a kick;
#  - README's first-hour needs are named: make, cc, jq, redis-server.
source "$(dirname "$0")/lib_cli.sh"

words=(zero one two three four five six seven eight nine ten eleven twelve thirteen
       fourteen fifteen sixteen seventeen eighteen nineteen twenty)
docs=("$root/README.md" "$root"/docs/*.md)

# ------------------------------------------------------------ soname
so="$build/libfilterkit.so"
if [ -e "$so" ] && command -v readelf >/dev/null 2>&1; then
    soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
    real=$(basename "$(readlink -f "$so")")
    check "the built library has a SONAME ($soname) and a file name ($real)" \
        sh -c "[ -n '$soname' ] && [ '$real' != libfilterkit.so ]"
    named=$(grep -ohE 'libfilterkit\.so\.[0-9][0-9.]*[0-9]' "${docs[@]}" | sort -u)
    check "README and docs/ name the library (got: $(echo $named))" test -n "$named"
    for n in $named; do
        check "'$n' in README/docs is the built SONAME ($soname) or file ($real)" \
            sh -c "[ '$n' = '$soname' ] || [ '$n' = '$real' ]"
    done
    check "README names the SONAME ($soname)" grep -qF "$soname" "$root/README.md"
    check "docs/library.md names the SONAME and the file ($soname, $real)" \
        sh -c "grep -qF '\`$soname\`' '$root/docs/library.md' && grep -qF '\`$real\`' '$root/docs/library.md'"
else
    skip_part "no $so or no readelf: the SONAME checks"
fi

# ----------------------------------------------------------- exports
names=$(grep -cvE '^[[:space:]]*(#|$)' "$root/tests/exports.txt")
check "docs/library.md: the export count is tests/exports.txt's ($names names)" \
    grep -qE "exports $names names" <(tr '\n' ' ' <"$root/docs/library.md")
if [ -e "$so" ] && command -v nm >/dev/null 2>&1; then
    functions=$(nm -D --defined-only "$so" | awk '$2 == "T"' | grep -c -v -E ' (_init|_fini)$')
    check "docs/library.md: $functions of them functions (nm -D)" \
        grep -qE "exports $names names, $functions of them functions" <(tr '\n' ' ' <"$root/docs/library.md" | tr -s ' ')
fi
check "no doc says which old version exports how many" \
    sh -c "! grep -qE '[0-9]+\.[0-9]+\.[0-9]+ exports [0-9]+' '$root/docs/library.md' '$root/README.md'"

# ------------------------------------------------------------- plots
plots=$(cd "$root/plots" && ls [0-9]*_*.gp | sed 's/\.gp$//')
nplots=$(echo "$plots" | wc -l)
word=${words[$nplots]}
check "README: 'the $word plots' ($nplots plots/N_name.gp)" grep -qF "the $word plots" "$root/README.md"
check "README: no other count of the plots" \
    sh -c "! grep -oE 'the (${words[*]// /|}) plots' '$root/README.md' | grep -vqx 'the $word plots'"
for p in $plots; do
    check "docs/bench.md lists plot $p" grep -qE "^ *${p%%_*}\. \`$p\`" "$root/docs/bench.md"
done
listed=$(grep -cE '^ *[0-9]+\. `[0-9]+_[a-z0-9_]+`' "$root/docs/bench.md")
check "docs/bench.md lists $nplots plots (lists $listed)" test "$listed" = "$nplots"
ranges=$(grep -oE 'numbered as `make bench` draws them \([0-9, and-]*' "$root/README.md" | grep -oE '[0-9]+(-[0-9]+)?')
drawn=""
for r in $ranges; do drawn="$drawn $(seq "${r%-*}" "${r#*-}" | tr '\n' ' ')"; done
check "README's layout table numbers the plots make bench draws ($(echo $drawn))" \
    test "$(echo $drawn | tr ' ' '\n' | sort -n | tr '\n' ' ')" = "$(echo "$plots" | sed 's/_.*//' | sort -n | tr '\n' ' ')"

# ------------------------------------------------------- ways in, steps
ways=$(sed -n '/^## Quick start/,/^## [^#]/p' "$root/README.md" | grep -c '^### ')
check "README: '${words[$ways]^} ways in' ($ways sections under Quick start)" \
    grep -qF "${words[$ways]^} ways in" "$root/README.md"
nsteps=$(sed -n 's/^nsteps=\([0-9]*\).*/\1/p' "$root/bench/scripts/run_default.sh")
check "docs/bench.md: '== [i/$nsteps]' (run_default.sh's nsteps)" \
    grep -qF "== [i/$nsteps] step" "$root/docs/bench.md"

# ---------------------------------------------------------- synopses
awk '/^## Usage/ { u = 1 } u && /^```/ { n++; if (n == 2) exit; next } u && n == 1' \
    "$root/docs/cli.md" >"$tmp/synopsis"
cmds=$(awk '$1 == "filterkit" { print $2 }' "$tmp/synopsis" | sort -u)
check "docs/cli.md's synopsis has the commands (got: $(echo $cmds))" \
    sh -c "echo '$cmds' | grep -qx pick && echo '$cmds' | grep -qx dedup"
# every command the CLI has is in the synopsis
all=$("$fk" --help 2>&1 | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
for c in $all; do
    check "docs/cli.md's synopsis has 'filterkit $c'" grep -qx "$c" <<<"$cmds"
done
for c in $cmds; do
    syn=$(awk -v c="$c" '$1 == "filterkit" { on = ($2 == c) } on' "$tmp/synopsis")
    missing=""
    while IFS= read -r line; do
        line=${line#"${line%%[! ]*}"}
        head=${line%%  *} # the option and its aliases, before the description
        # its words that begin with '-' ("--n,", "--capacity"), not a
        # description run into it ("... sliding-window ...")
        opts=$(tr ' ' '\n' <<<"$head" | sed 's/,$//' | grep -E -e '^-{1,2}[a-z0-9][a-z0-9-]*$')
        [ "$opts" = "-h
--help" ] && continue
        found=0
        for o in $opts; do
            grep -qE -e "$o([^a-z0-9-]|\$)" <<<"$syn" && found=1
        done
        [ "$found" = 1 ] || missing="$missing $(echo $opts | tr ' ' /)"
    done < <("$fk" "$c" --help 2>/dev/null | grep -E '^  -')
    check "docs/cli.md's synopsis of '$c' has every option of its --help (missing:$missing)" \
        test -z "$missing"
done

# ------------------------------------------------------------- trace
line=$(grep -E '^build/filterkit trace cuckoo' "$root/README.md" | head -n 1)
check "README has a cuckoo trace line" test -n "$line"
check "... that promises a kick" grep -q 'kick' <<<"$line"
cmd=${line%%#*}
set -f
# shellcheck disable=SC2086 # the README's words, as a shell splits them
"$fk" ${cmd#build/filterkit } >"$tmp/trace" 2>&1
rc=$?
set +f
check "README's trace line runs (exit $rc)" test "$rc" = 0
check "README's trace line shows a kick ('kick 1: 0x..')" grep -qE '^  kick 1: 0x[0-9a-f]+ from bucket' "$tmp/trace"
check "... and the kicked key finds a place (after N kick(s))" grep -qE 'FK_OK: .* after [0-9]+ kick' "$tmp/trace"

# ------------------------------------------------ what a newcomer needs
quick=$(sed -n '/^## Quick start/,/^### /p' "$root/README.md" | tr '\n' ' ')
check "README names make and cc before the first command" \
    sh -c "grep -q '\`make\`' <<'X' && grep -q '\`cc\`' <<'X2'
$quick
X
$quick
X2"
pickjq=$(grep -E '^build/filterkit pick .*\| *jq ' "$root/README.md")
check "README's pick | jq line names jq's package" sh -c "[ -z '$pickjq' ] || echo '$pickjq' | grep -q 'apt-get install jq'"
redis_make=$(grep -E '^make redis' "$root/README.md")
check "README's make redis line says it brings redis-server" grep -q 'redis-server' <<<"$redis_make"
check "make redis installs or names redis-server (Makefile)" \
    sh -c "make -n -s -C '$root' redis 2>/dev/null | grep -q 'apt-get install -y redis-server'"
check "make deps-redis says it installs nodejs and npm" \
    sh -c "make -n -s -C '$root' deps-redis 2>/dev/null | grep -q 'echo .*nodejs + npm'"
check "README says deps-redis brings Node.js (nodejs, npm)" \
    sh -c "tr '\n' ' ' <'$root/README.md' | grep -q 'deps-redis.*\`nodejs\` and \`npm\`'"
finish
