#!/usr/bin/env bash
# tests/cli_completion.sh: the zsh completion file (`filterkit completion
# zsh`, installed as share/zsh/site-functions/_filterkit) tried for real: a
# `zsh -f -i` on a pseudo-terminal (zsh/zpty) loads it through compinit,
# the line is typed with a TAB, and the candidates zsh would offer are
# recorded (compadd wrapped). Checks a command, a kind and an option.
# Skipped, with the reason, when zsh or its zpty module is missing (`make
# deps-test` installs Debian's zsh). Run by tests/run.sh with
# FK_BUILD=<build dir>; prints `N passed, N failed`. (The bash file is
# checked by tests/cli_conventions.sh.)
source "$(dirname "$0")/lib_cli.sh"

if ! command -v zsh >/dev/null 2>&1; then
    skip "zsh is not installed (make deps-test installs it)"
fi
if ! zsh -f -c 'zmodload zsh/zpty' 2>/dev/null; then
    skip "this zsh has no zsh/zpty module"
fi

mkdir -p "$tmp/fpath" "$tmp/empty"
"$fk" completion zsh >"$tmp/fpath/_filterkit"
check "completion zsh: written" test -s "$tmp/fpath/_filterkit"
check "completion zsh: zsh parses it" zsh -f -n "$tmp/fpath/_filterkit"

# complete LINE: the candidates zsh offers for LINE followed by a TAB, one a
# line. Run in an empty folder so that no file name can pass for one.
cat >"$tmp/complete.zsh" <<'ZSH'
zmodload zsh/zpty || exit 3
fpath_dir=$1 out=$2 line=$3
rm -f $out $out.done
zpty -b fk zsh -f -i
zpty -w fk "PS1='' RPROMPT=''; fpath=(${(q)fpath_dir} \$fpath); autoload -Uz compinit; compinit -u -D"
# every candidate a completion function hands to compadd lands in $out
zpty -w fk "compadd() { local -a m; builtin compadd -O m \"\$@\"; (( \$#m )) && print -rl -- \$m >> ${(q)out}; builtin compadd \"\$@\"; }"
# TAB completes, then says it is done
zpty -w fk "fk-tab() { zle complete-word; : >> ${(q)out}.done; }; zle -N fk-tab; bindkey '^I' fk-tab"
zpty -w -n fk "$line"$'\t'
for i in {1..600}; do # up to 60 s: compinit is slow on a loaded machine
    [[ -e $out.done ]] && break
    sleep 0.1
done
zpty -d fk
[[ -e $out.done ]] || { print -u2 "complete.zsh: no answer in 60 s"; exit 4; }
touch $out
ZSH
complete() {
    (cd "$tmp/empty" && zsh -f "$tmp/complete.zsh" "$tmp/fpath" "$tmp/got" "$1" >/dev/null 2>&1) ||
        echo "(zsh gave no answer)"
    [ -f "$tmp/got" ] && sort -u "$tmp/got"
}

got=$(complete "filterkit bu")
check "zsh: 'filterkit bu<TAB>' offers the command build (got: $(echo $got))" test "$got" = build
got=$(complete "filterkit build --kind cu")
check "zsh: 'build --kind cu<TAB>' offers the kind cuckoo (got: $(echo $got))" test "$got" = cuckoo
got=$(complete "filterkit build --kind scalable-")
want=$("$fk" build --kind nope </dev/null 2>&1 >/dev/null | grep -o 'scalable-[a-z]*' | sort -u)
[ -n "$want" ] || want=$(printf 'scalable-bloom\nscalable-blocked\nscalable-cuckoo')
check "zsh: 'build --kind scalable-<TAB>' offers every growing kind (got: $(echo $got))" test "$got" = "$want"
got=$(complete "filterkit pick --for")
check "zsh: 'pick --for<TAB>' offers the option --format (got: $(echo $got))" test "$got" = --format

# the same file without the function on fpath: nothing is offered, so the
# checks above can fail
rm "$tmp/fpath/_filterkit"
got=$(complete "filterkit bu")
check "zsh: without _filterkit on fpath nothing is offered (got: $(echo $got))" test -z "$got"
finish
