#!/usr/bin/env bash
# bench/scripts/run_default.sh BUILD_DIR [OUT_DIR]: the default benchmark suite, run
# by `make bench`. Uses BUILD_DIR/filterkit for everything:
#   - every filter at n = 1M and 10M, fpr 1% and 0.1%, 8-byte integer keys;
#   - every filter at 1M, 1% with 8..64-byte string keys;
#   - the sweeps behind the plots: n (1e4..1e7), fpr (10%..0.01%), cuckoo load;
# writes CSV/JSON into OUT_DIR (default results/), draws plots/out/*.png|svg
# when gnuplot is installed, and ends with the summary table and the list of
# files written. Sized to finish in under 5 minutes on 2 cores.
set -euo pipefail
build=${1:-build}
out=${2:-results}
fk="$build/filterkit"
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$fk" ] || { echo "run_default.sh: no $fk; run make first" >&2; exit 1; }
mkdir -p "$out"
start=$(date +%s)
summary="$out/summary.txt"

step() { printf '\n== %s  (%ds)\n' "$*" $(($(date +%s) - start)); }

step "bench: every filter, n = 1M and 10M, fpr 1% and 0.1%, u64 keys"
"$fk" bench --n 1M,10M --fpr 1%,0.1% --repeat 3 --out "$out" | tee "$summary"

step "bench: string keys (8..64 bytes), n = 1M, fpr 1%"
"$fk" bench --keys str --n 1M --fpr 1% --repeat 3 --no-fill --out "$out" | tee -a "$summary"

step "sweep: n from 1e4 to 1e7 at fpr 1%"
"$fk" sweep --vary n --fpr 1% --repeat 3 --out "$out"

step "sweep: fpr from 10% to 0.01% at n = 1M"
"$fk" sweep --vary fpr --n 1M --repeat 1 --out "$out"

if "$fk" sweep --vary load --help >/dev/null 2>&1 && "$fk" bench --filters cuckoo --help >/dev/null 2>&1 &&
   "$fk" bench --filters cuckoo --n 1000 --repeat 1 --lookups 1000 --no-fill --out - >/dev/null 2>&1; then
    step "sweep: cuckoo load from 10% to 95% (sized for n = 1M)"
    "$fk" sweep --vary load --n 1M --fpr 0.1% --repeat 5 --out "$out"
else
    step "sweep: load skipped: no cuckoo kind is registered in this build"
fi

step "plots"
"$root/bench/scripts/plots.sh" "$out" "$root/plots/out" || true # says what failed

step "summary (ns per operation; x lb = throughput relative to libbloom, >1 = faster)"
cat "$summary"
echo
echo "files written:"
ls -1 "$out"/*.csv "$out"/*.json "$summary" 2>/dev/null | sed 's/^/  /'
ls -1 "$root"/plots/out/*.png "$root"/plots/out/*.svg 2>/dev/null | sed 's/^/  /' || true
echo "total: $(($(date +%s) - start)) s"
