#!/usr/bin/env bash
# bench/scripts/growth_memory.sh [OUT_CSV]: memory of the growing kinds as
# they grow, beside a fixed filter of the same kind sized for the count
# reached, for the plot plots/growth_memory.gp and PAPER_NOTES ("Growing
# filters"). For each kind (scalable-bloom, scalable-cuckoo), target fpr
# (1%, 0.1%) and (growth s, tightening r) in {(2, 0.9) the defaults,
# (2, 0.5) RedisBloom's, (4, 0.9)}: a chain started at capacity 1000 is fed
# keys with `filterkit build` then `filterkit add`, and `filterkit info
# --json` read after 1x, 2x, 3x ... 1000x growth (also at each 2^k - 1, where the newest link has just filled). Columns: kind, s, r,
# target_fpr, growth, items, links, memory_bytes, bits_per_item (memory /
# items), theory_bits_per_item (Bloom: the chain's links at the optimal
# -ln(e_i)/ln(2)^2 bits each; empty for cuckoo), fixed_bits_per_item (the
# inner kind built with --capacity items). FK_BUILD=<build dir>.
# FK_QUICK=1 stops at 100x growth (make bench-quick). The CSV starts with
# the '#' provenance lines every filterkit CSV has (plots print them).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build="${FK_BUILD:-$root/build}"
fk="$build/filterkit"
out=${1:-results/growth-memory.csv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
c0=1000
steps="1 2 3 5 7 10 15 20 31 50 63 100 127 200 255 500 511 1000"
[ "${FK_QUICK:-0}" = 1 ] && steps="1 2 3 5 7 10 15 20 31 50 63 100"
mkdir -p "$(dirname "$out")"
json() { # FILE FIELD: a number from info --json
    "$fk" info --json "$1" | sed -n "s/^  \"$2\": \\([0-9.e+-]*\\),\\{0,1\\}\$/\\1/p"
}
# provenance, as the CLI writes it into its own CSVs
"$fk" pick --n 1000 --fpr 0.5 --headroom 0 --repeat 1 --format json 2>/dev/null |
    sed -n 's/.*"run": {\(.*\)}$/\1/p' | tr -d '\n' |
    awk -v RS='", "' '{ gsub(/^"|"$/, ""); i = index($0, "\": \""); if (i) print "# " substr($0, 1, i - 1) ": " substr($0, i + 4) }' \
    | grep -v '^# command: ' >"$out"
echo "# command: bench/scripts/growth_memory.sh $*" >>"$out"
echo "kind,s,r,target_fpr,growth,items,links,memory_bytes,bits_per_item,theory_bits_per_item,fixed_bits_per_item" >>"$out"
for kind in scalable-bloom scalable-cuckoo; do
    inner=${kind#scalable-}
    for fpr in 0.01 0.001; do
        for sr in "2 0.9" "2 0.5" "4 0.9"; do
            set -- $sr
            s=$1 r=$2
            echo "growth_memory: $kind fpr $fpr s=$s r=$r ($(date -u +%H:%M:%S))" >&2
            f="$tmp/chain.fk"
            done_items=0
            for g in $steps; do
                items=$((g * c0))
                awk -v a="$done_items" -v b="$items" 'BEGIN { for (i = a + 1; i <= b; i++) print "key-" i }' >"$tmp/chunk"
                if [ "$done_items" = 0 ]; then
                    "$fk" build --kind "$kind" --fpr "$fpr" --capacity "$c0" --growth "$s" \
                        --tightening "$r" --unique-input <"$tmp/chunk" >"$f" || exit 1
                else
                    "$fk" add "$f" <"$tmp/chunk" >/dev/null || exit 1
                fi
                done_items=$items
                mem=$(json "$f" memory_bytes)
                links=$(json "$f" links)
                "$fk" build --kind "$inner" --fpr "$fpr" --capacity "$items" </dev/null >"$tmp/fixed.fk" || exit 1
                fixed=$(json "$tmp/fixed.fk" memory_bytes)
                theory=""
                if [ "$inner" = bloom ]; then
                    theory=$(awk -v c="$c0" -v s="$s" -v r="$r" -v t="$fpr" -v n="$items" 'BEGIN {
                        e = t * (1 - r); cap = c; left = n; bits = 0
                        while (left > 0) { bits += cap * -log(e) / (log(2) ^ 2); left -= cap; cap *= s; e *= r }
                        printf "%.4f", bits / n }')
                fi
                awk -v k="$kind" -v s="$s" -v r="$r" -v t="$fpr" -v g="$g" -v n="$items" -v l="$links" \
                    -v m="$mem" -v th="$theory" -v fx="$fixed" 'BEGIN {
                    printf "%s,%s,%s,%s,%s,%s,%s,%s,%.4f,%s,%.4f\n", k, s, r, t, g, n, l, m, 8 * m / n, th, 8 * fx / n }' >>"$out"
            done
        done
    done
done
echo "growth_memory: wrote $out" >&2
