#!/bin/bash
# bench/scripts/pick_repeat.sh: is pick's answer repeatable? Runs the same
# `filterkit pick` N times and prints each run's winner and its decided
# line, then how often each kind won ("winner blocked: 10 of 10"). Exit 0
# when every run chose the same kind, 1 when they differ, 2 on a usage
# error or a pick that failed.
# Usage: bench/scripts/pick_repeat.sh N -- pick ARGS...
#   FK_BUILD=<build dir> (default: build/ of this repo)
#   e.g. bench/scripts/pick_repeat.sh 10 -- pick --n 1M --fpr 1%
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
fk="${FK_BUILD:-$here/build}/filterkit"
if [ $# -lt 3 ] || [ "$2" != "--" ] || [ "$3" != pick ] || ! [ "$1" -ge 1 ] 2>/dev/null; then
    echo "usage: $0 N -- pick ARGS..." >&2
    exit 2
fi
runs=$1
shift 3
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
winners=()
for i in $(seq 1 "$runs"); do
    start=$(date +%s)
    if ! FILTERKIT_PROGRESS=0 "$fk" pick "$@" >"$out" 2>&1; then
        echo "run $i: pick failed:" >&2
        cat "$out" >&2
        exit 2
    fi
    winner=$(sed -n 's/^recommend: //p' "$out")
    decided=$(sed -n 's/^  decided: *//p' "$out")
    winners+=("$winner")
    echo "run $i of $runs ($(( $(date +%s) - start )) s): winner $winner"
    echo "  decided: $decided"
done
echo "pick $*: $runs runs"
printf '%s\n' "${winners[@]}" | sort | uniq -c | sort -rn | while read -r count kind; do
    echo "winner $kind: $count of $runs"
done
[ "$(printf '%s\n' "${winners[@]}" | sort -u | wc -l)" -eq 1 ]
