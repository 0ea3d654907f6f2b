#!/usr/bin/env bash
# bench/scripts/run_default.sh [--quick] BUILD_DIR [OUT_DIR [PLOTS_DIR]]: the
# default benchmark suite, run by `make bench` (and, --quick, by `make
# bench-quick`). Uses BUILD_DIR/filterkit for everything:
#   - every filter at n = 1M and 10M, fpr 1% and 0.1%, 8-byte integer keys;
#   - every filter at 1M, 1% with 8..64-byte string keys;
#   - the sweeps behind the plots: n (1e4..1e7), fpr (10%..0.01%), cuckoo load,
#     growth (the growing kinds; and their memory as they grow);
#   - the growth workload: the chains and expandable from 1000 keys to x1024
#     (x128 --quick), memory and absent lookups at each doubling (plot 7);
#   - `filterkit pick` at n = 10M, fpr 0.1%, a 24 MiB budget (plot 8);
#   - the window workload at N = 1M, fpr 10% to 0.01% (plots 10, 11);
# writes CSV/JSON into OUT_DIR (default results/), draws PLOTS_DIR/*.png|svg
# (default plots/out/) when gnuplot is installed, writes OUT_DIR/index.html
# listing the run's plots and tables with its provenance, and ends with the
# summary table and the list of files written.
# --quick runs the same steps at small sizes (n up to 300k, one repeat)
# into results-quick/ and plots/out-quick/ unless told otherwise: every plot
# is drawn, in about a minute or two; its figures are for checking the
# pipeline, not for quoting.
# Progress: each step prints a "== step (N s)" line, and the CLI prints a
# line per measurement to stderr (at least every 15 s), so a log of
# `make bench 2>&1 | cat` shows it is working.
set -euo pipefail
quick=0
if [ "${1:-}" = --quick ]; then
    quick=1
    shift
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
if [ "$quick" = 1 ]; then
    out=${2:-results-quick}
    plots=${3:-$root/plots/out-quick}
else
    out=${2:-results}
    plots=${3:-$root/plots/out}
fi
fk="$build/filterkit"
[ -x "$fk" ] || { echo "run_default.sh: no $fk; run make first" >&2; exit 1; }
mkdir -p "$out"
start=$(date +%s)
# what this run writes is what is newer than this stamp ("files written")
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
# Each result file records how much of the load average this suite's own
# earlier steps explain, so the plots warn only of other work (runinfo.h).
export FK_SUITE_STARTED=$start
summary="$out/summary.txt"
nsteps=12
at=0

# repo_relative: the clone's absolute path out of a command's output. pick
# names the CLI as it was run (bench/pick/pick.c, fkc_pick_runnable_name:
# "build/filterkit", relative to the working folder); a build folder given
# as an absolute path elsewhere would still be printed whole, and a results
# folder must read the same in every clone.
repo_relative() {
    awk -v root="$root/" '{ while (root != "/" && (i = index($0, root)) > 0) $0 = substr($0, 1, i - 1) substr($0, i + length(root)); print }'
}

step() {
    at=$((at + 1))
    printf '\n== [%d/%d] %s  (%ds)\n' "$at" "$nsteps" "$*" $(($(date +%s) - start))
}

if [ "$quick" = 1 ]; then
    n_bench=100k,300k; n_str=100k; n_one=100k; series_n=10k,30k,100k,300k; n_pick=1M; mem_pick=2400K; rep=1; rep_load=1; n_win=100k; grow=128
    echo "run_default.sh --quick: small sizes, one repeat; figures for checking the pipeline, not for quoting"
else
    n_bench=1M,10M; n_str=1M; n_one=1M; series_n=""; n_pick=10M; mem_pick=24M; rep=3; rep_load=5; n_win=1M; grow=1024
fi

step "bench: every filter, n = $n_bench, fpr 1% and 0.1%, u64 keys"
"$fk" bench --n "$n_bench" --fpr 1%,0.1% --repeat "$rep" --out "$out" | tee "$summary"

step "bench: string keys (8..64 bytes), n = $n_str, fpr 1%"
"$fk" bench --keys str --n "$n_str" --fpr 1% --repeat "$rep" --no-fill --out "$out" | tee -a "$summary"

step "sweep: n from 1e4 to ${series_n:-1e7} at fpr 1%"
"$fk" sweep --vary n ${series_n:+--n "$series_n"} --fpr 1% --repeat "$rep" --out "$out"

step "sweep: fpr from 10% to 0.01% at n = $n_one"
"$fk" sweep --vary fpr --n "$n_one" --repeat 1 --out "$out"

if "$fk" bench --filters cuckoo --n 1000 --repeat 1 --lookups 1000 --no-fill --out - >/dev/null 2>&1; then
    step "sweep: cuckoo load from 10% to 95% (sized for n = $n_one)"
    "$fk" sweep --vary load --n "$n_one" --fpr 0.1% --repeat "$rep_load" --out "$out"
else
    step "sweep: load skipped: no cuckoo kind is registered in this build"
fi

step "sweep: growing kinds from n/1, n/10, n/1000 to n = $n_one, beside the fixed ones"
"$fk" sweep --vary growth --n "$n_one" --repeat 1 --out "$out"

step "growing kinds: bits per item as they grow (bench/scripts/growth_memory.sh)"
FK_QUICK=$quick FK_BUILD="$build" "$root/bench/scripts/growth_memory.sh" "$out/growth-memory.csv"

step "growth workload: the chains and expandable from 1000 keys to x$grow, fpr 1% (plot 7)"
"$fk" bench --workload growth --n0 1000 --grow "$grow" --fpr 1% --probes 200000 \
    --filters scalable-bloom,scalable-cuckoo,expandable,cuckoo --out "$out" | tee "$out/bench-growth.txt"

step "pick: n = $n_pick, fpr 0.1%, memory budget $mem_pick (plot 8)"
"$fk" pick --n "$n_pick" --fpr 0.1% --memory "$mem_pick" --repeat "$rep" --out "$out" | repo_relative | tee "$out/pick.txt" || true

step "window: sliding-window filters, N = $n_win, fpr 10% to 0.01% (plots 10 and 11)"
"$fk" bench --workload window --n "$n_win" --fpr 10%,1%,0.1%,0.01% --no-batches --out "$out" --name bench-window | tee "$out/bench-window.txt"

step "plots"
"$root/bench/scripts/plots.sh" "$out" "$plots" || true # says what failed

step "index: $out/index.html"
"$root/bench/scripts/index_html.sh" "$out" "$plots" $([ "$quick" = 1 ] && echo --quick) >"$out/index.html"

echo
echo "summary (ns per operation; x lb = throughput relative to libbloom, >1 = faster)"
cat "$summary"
echo
echo "files written:"
# every file this run wrote or rewrote, found rather than listed by hand
# (a hand-kept list once left out pick.txt)
find "$out" "$plots" -maxdepth 1 -type f -newer "$stamp" 2>/dev/null | sort | sed 's/^/  /'
echo "total: $(($(date +%s) - start)) s"
