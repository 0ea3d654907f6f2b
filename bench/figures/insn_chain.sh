#!/bin/sh
# bench/figures/insn_chain.sh [N] [FPR]: a growing chain hashes a key once, not
# once per link. XXH3 is inlined into the probes (common/hash.h), so there
# is no call to count: this counts instructions instead (callgrind, through
# insn_count.sh beside it) of N absent lookups, each of which visits every link,
# in a scalable-bloom chain of 4 links (first capacity ceil(N/15), growth
# 2: N keys fill links of c0, 2c0, 4c0 and 8c0), and compares them per link
# visited with a fixed Bloom filter of the same N and FPR, for the u64,
# byte and batched (u64) calls. A chain that hashed once per link would
# pay the hash (about 10 instructions for an 8-byte key, more for others)
# and an fk_ops call per link on top of the probes. Fails when any ratio
# exceeds 1.3 (issue #24's "Measured targets"). Run from the repository
# root after `make`; BUILD=dir as insn_count.sh. Defaults: 1000000 0.01.
# A measurement with a verdict, not a test (no make target runs it): it
# needs valgrind and its counts depend on the compiler; tests/test_scalable.c
# checks that a registered chain hashes once (its hash_once flag).
set -eu
n=${1:-1000000} fpr=${2:-0.01}
links=4
capacity=$(((n + 14) / 15))
here=$(dirname "$0")
per_call() { sed -n 's/.*= \([0-9.]*\) per .*/\1/p'; }
status=0
for op in absent_u64 absent absent_batch; do
    fixed=$(sh "$here/insn_count.sh" bloom "$n" "$fpr" "$op" | per_call)
    chain=$(sh "$here/insn_count.sh" scalable-bloom "$n" "$fpr" "$op" "$capacity" | per_call)
    ratio=$(awk -v c="$chain" -v f="$fixed" -v l="$links" 'BEGIN { printf "%.2f", c / l / f }')
    verdict=ok
    if awk -v r="$ratio" 'BEGIN { exit !(r > 1.3) }'; then
        verdict="FAIL (over 1.3)"
        status=1
    fi
    echo "$op: scalable-bloom n=$n capacity=$capacity ($links links) $chain per lookup," \
        "$(awk -v c="$chain" -v l="$links" 'BEGIN { printf "%.1f", c / l }') per link visited;" \
        "bloom $fixed: ${ratio}x $verdict"
done
exit $status
