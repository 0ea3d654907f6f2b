#!/bin/sh
# python/examples/insn_contains_many.sh [N] [BUILD]: instructions of
# f.contains_many(keys) (the whole Python call: argument checks, the NumPy
# result array, the GIL hand-over) against the C batch call it makes
# (fk_filter_contains_many_u64), blocked filter of N items (default 1e6),
# N uint64 keys half present, counted by callgrind: a noise-free figure of
# the Python layer's overhead. Run from the repository root after
# `make python`.
set -eu
n=${1:-1000000} build=${2:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/cm.py" <<PY
import numpy as np, filterkit
n = $n
rng = np.random.default_rng(12345)
keys = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
f = filterkit.Blocked(capacity=n, fpr=0.01)
f.add_many(keys)
probe = rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
probe[::2] = keys[::2]
for _ in range(3):
    f.contains_many(probe)
PY
PYTHONPATH="$build/python/lib" valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
    --toggle-collect=pyfk_contains_many /usr/bin/python3 "$tmp/cm.py" >/dev/null 2>"$tmp/vg.txt"
callgrind_annotate --inclusive=yes "$tmp/cg.out" >"$tmp/ann.txt" 2>/dev/null
py=$(grep 'batch.c:pyfk_contains_many \[' "$tmp/ann.txt" | head -n 1 | awk '{gsub(",", "", $1); print $1}')
c=$(grep 'fk_filter_contains_many_u64 \[' "$tmp/ann.txt" | head -n 1 | awk '{gsub(",", "", $1); print $1}')
awk -v py="$py" -v c="$c" -v n="$n" 'BEGIN {
    printf "contains_many, blocked, n=%d, 3 calls: Python call %d instructions, C batch call %d: ", n, py, c
    printf "%.2f vs %.2f per key, ratio %.5f (+%d per call)\n", py / 3 / n, c / 3 / n, py / c, (py - c) / 3 }'
