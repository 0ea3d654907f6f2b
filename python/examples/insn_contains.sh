#!/bin/sh
# python/examples/insn_contains.sh [N] [BUILD]: instructions per iteration
# of `for x in ints: x in f` (blocked filter of N items, default 1e6) and of
# the same loop over a Python set of the same N ints, the ints 0..N-1
# probed in order, counted by callgrind: the loop is timed twice and once,
# and the difference divided by N is one iteration (interpreter, call and
# lookup; the process's start and the containers' fill cancel out). A
# noise-free view of what `x in f` executes; its time on a machine also
# pays the filter's cache misses, which the set's in-order walk does not.
# Run from the repository root after `make python`.
set -eu
n=${1:-1000000} build=${2:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/loop.py" <<PY
import gc, sys, filterkit
n, which, passes = $n, sys.argv[1], int(sys.argv[2])
ints = list(range(n))
c = set(ints) if which == "set" else filterkit.Blocked(capacity=n, fpr=0.01)
if which != "set":
    c.update(ints)
gc.disable()
def loop():
    for x in ints:
        x in c
for _ in range(passes):
    loop()
PY
count() {
    PYTHONPATH="$build/python/lib" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1.$2" \
        /usr/bin/python3 "$tmp/loop.py" "$1" "$2" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
f1=$(count filter 1) f3=$(count filter 3) s1=$(count set 1) s3=$(count set 3)
awk -v f1="$f1" -v f3="$f3" -v s1="$s1" -v s3="$s3" -v n="$n" 'BEGIN {
    f = (f3 - f1) / (2 * n); s = (s3 - s1) / (2 * n)
    printf "x in f (blocked, n=%d, ints in order): %.1f instructions per loop iteration; ", n, f
    printf "x in s (set): %.1f; ratio %.2f\n", s, f / s }'
