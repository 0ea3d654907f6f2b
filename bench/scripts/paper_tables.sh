#!/usr/bin/env bash
# bench/scripts/paper_tables.sh: regenerates every measured figure of PAPER_NOTES.md.
#
#   bench/scripts/paper_tables.sh [--build DIR] [--update FILE] [--plots] [--quick]
#                         [--only run,theory,sweep,load,memory,speed,cost,pick,trace,growth,static,quotient,plots,batch]
#
# Runs the `filterkit` commands behind each table (bench, sweep, pick, theory,
# trace), turns their CSV or text into Markdown, and either prints every
# section on stdout or, with --update FILE, rewrites the blocks between
# `<!-- generated:NAME -->` and `<!-- /generated -->` in FILE, leaving the
# prose alone. Each block names the command that produced it, the commit and
# the machine, so no measured number in the notes is typed by hand. Theory
# columns are the CLI's own (fpr_theory = fk_stats.expected_fpr) or are
# computed here from the formula named in the column heading.
# --plots copies the reference plots drawn by `make bench` (plots/out/*.png)
# into plots/ref/ and writes the plots block; --quick uses smaller n for a
# fast check of the script itself (do not commit its output); --only
# regenerates just the named groups of blocks and leaves the others as they are.
# The batch group (bench/scripts/batch_tables.sh: 10^8 keys, library rebuilt
# per window size, about 40 minutes) runs only when --only names it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build"
update=""
plots=0
quick=0
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --update) update=$2; shift 2 ;;
        --plots) plots=1; shift ;;
        --quick) quick=1; shift ;;
        --only) only=",$2,"; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "paper_tables.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
# want GROUP: is this group of blocks to be generated? (--only, --plots)
want() {
    if [ -n "$only" ]; then case "$only" in *",$1,"*) return 0 ;; *) return 1 ;; esac; fi
    [ "$1" != batch ] && { [ "$1" != plots ] || [ "$plots" = 1 ]; }
}
fk="$build/filterkit"
[ -x "$fk" ] || { echo "paper_tables.sh: no $fk; run make first" >&2; exit 1; }
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$quick" = 1 ]; then N=100000; NBIG=1000000; NS=10000,100000,1000000; else N=1000000; NBIG=10000000; NS=10000,100000,1000000,10000000; fi

commit=$(git rev-parse --short=10 HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no -- . ':!PAPER_NOTES.md' ':!plots/ref' 2>/dev/null)" ]; then
    commit="$commit+uncommitted-changes"
fi
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || uname -m)
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
cc_version=$(${CC:-cc} --version 2>/dev/null | head -n 1)
stamp="commit \`$commit\`, $cpu ($cores cores)"

# --------------------------------------------------------------- helpers

# Runs a filterkit command, saving its stdout in $tmp/$1; prints progress.
run() {
    local out=$1; shift
    echo "paper_tables.sh: $*" >&2
    "$fk" "$@" > "$tmp/$out"
}

# The line that names a block's source.
source_line() { # command...
    printf 'Measured by `build/filterkit %s` at %s.\n\n' "$*" "$stamp"
}

# csv FILE AWK-PROGRAM: runs the program over the CSV (comment lines
# dropped) with c["column"] = field index from the header, and the
# functions v(name) (field value) and fmt helpers.
csv() {
    local file=$1 prog=$2
    grep -v '^#' "$file" | awk -F, '
        function v(name) { return (name in c) ? $(c[name]) : "" }
        function g(x) { return x == "" ? "-" : sprintf("%.4g", x) }
        function pct(x) { return x == "" ? "-" : sprintf("%.4g%%", 100 * x) }
        function log2(x) { return log(x) / log(2) }
        function ceil(x) { return (x == int(x)) ? x : int(x) + 1 }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        '"$prog"
}

section() { # NAME: stdin -> $tmp/section.NAME
    cat > "$tmp/section.$1"
}

# ------------------------------------ batch: memory-level parallelism
if want batch; then {
    bash "$root/bench/scripts/batch_tables.sh" --build "$build" $([ "$quick" = 1 ] && echo --quick)
} | section batch; fi

# --------------------------------------------------------------- run block
if want run; then {
    echo "**The machine behind the generated blocks** (each block names its own command and commit; this line was written at commit \`$commit\`): $cpu, $cores cores online;"
    caches=$(lscpu 2>/dev/null | awk -F: '/^L[23] cache/ { gsub(/^ +/, "", $2); printf "%s%s %s", sep, $1, $2; sep = ", " }')
    if [ -n "$caches" ]; then
        caches="as lscpu reports them: $caches"
    else # some VMs' lscpu lists none: the C library's figures
        caches="as getconf reports them: $(getconf -a 2>/dev/null | awk '/^LEVEL[123]_D?CACHE_SIZE/ && $2 > 0 { n = $1; sub(/^LEVEL/, "L", n); sub(/_D?CACHE_SIZE/, "", n); printf "%s%s %g KiB", sep, n, $2 / 1024; sep = ", " }')"
    fi
    echo "$(uname -sm); caches $caches;"
    echo "compiler: $cc_version; the default portable build (\`make\`, -O2)."
    echo "Regenerate with \`bench/scripts/paper_tables.sh --update PAPER_NOTES.md\` (after \`make\`)."
} | section run; fi

# --------------------------------------------- theory: k, estimate, union, counters
if want theory; then
for t in k estimate union counters; do
    run "theory-$t" theory --table "$t" --n "$N"
done
for t in k:bloom-k estimate:bloom-estimate union:bloom-union counters:counting-counters; do
    name=${t#*:}; table=${t%%:*}
    { source_line theory --table "$table" --n "$N"; grep -v '^filterkit theory:' "$tmp/theory-$table" | sed '/^### /d' | sed '/./,$!d'; } | section "$name"
done
fi

# --------------------------------------------------- fpr sweep: bloom, cuckoo
if want sweep; then
sweep_args=(sweep --vary fpr --filters bloom,cuckoo --n "$N" --repeat 1 --format csv --out -)
run sweep-fpr "${sweep_args[@]}"

{
    source_line "${sweep_args[@]}"
    echo "| target p | bits/item theory 1.44·log2(1/p) | bits/item measured | k = round((m/n) ln 2) | fpr theory (1-e^{-kn/m})^k | fpr measured [95% interval] | fill theory 1-e^{-kn/m} at that k | fill measured |"
    echo "|---|---|---|---|---|---|---|---|"
    csv "$tmp/sweep-fpr" '
        v("kind") == "bloom" {
            p = v("target_fpr"); bpi = -log(p) / (log(2) ^ 2)
            k = int(bpi * log(2) + 0.5)
            printf "| %s | %.2f | %.2f | %d | %s | %s [%s, %s] | %.4f | %.4f |\n", pct(p), bpi, v("bits_per_item"),
                   k, pct(v("fpr_theory")), pct(v("fpr_measured")), pct(v("fpr_low")), pct(v("fpr_high")), 1 - exp(-k / bpi), v("load")
        }'
} | section bloom-fpr

{
    source_line "${sweep_args[@]}"
    echo "| target ε | f = ⌈log2(8/ε)⌉ | bound 2b/2^f | fpr theory at its load | fpr measured [95% interval] | load at n | fpr measured, full table | bits/item theory at first failure (log2(1/ε)+3)/α | measured f/α at first failure |"
    echo "|---|---|---|---|---|---|---|---|---|"
    csv "$tmp/sweep-fpr" '
        v("kind") == "cuckoo" {
            p = v("target_fpr"); f = ceil(log2(8 / p) - 1e-9); if (f < 4) f = 4
            a = v("load_at_full")
            th = (a == "") ? "-" : sprintf("%.2f", (log2(1 / p) + 3) / a)
            printf "| %s | %d | %s | %s | %s [%s, %s] | %.3f | %s | %s | %s |\n", pct(p), f, pct(8 / 2 ^ f), pct(v("fpr_theory")),
                   pct(v("fpr_measured")), pct(v("fpr_low")), pct(v("fpr_high")), v("load"), pct(v("fpr_at_full")), th, g(v("bits_per_item_at_full"))
        }'
    echo
    echo "The theory column uses the measured load α at the first failure; f/α is what a full table spends per item."
} | section cuckoo-fpr

{
    source_line "${sweep_args[@]}"
    echo "| target ε | bloom theory 1.44·log2(1/ε) | bloom measured | cuckoo theory (log2(1/ε)+3)/0.95 | cuckoo measured, sized for n | cuckoo measured, full table | fewer bits per item (full table) | bloom fpr measured | cuckoo fpr measured, full table |"
    echo "|---|---|---|---|---|---|---|---|---|"
    csv "$tmp/sweep-fpr" '
        { p = v("target_fpr"); key = p
          if (v("kind") == "bloom") { bb[key] = v("bits_per_item"); bf[key] = v("fpr_measured") }
          if (v("kind") == "cuckoo") { cb[key] = v("bits_per_item"); cf[key] = v("bits_per_item_at_full"); cp[key] = v("fpr_at_full") }
          if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
        END {
            for (i = 1; i <= n; i++) {
                p = order[i]; L = log2(1 / p)
                win = (cf[p] == "" || bb[p] == "") ? "-" : (cf[p] + 0 < bb[p] + 0 ? "cuckoo" : "bloom")
                printf "| %s | %.2f | %s | %.2f | %s | %s | %s | %s | %s |\n", pct(p), 1.44 * L, g(bb[p]), (L + 3) / 0.95,
                       g(cb[p]), g(cf[p]), win, pct(bf[p]), pct(cp[p])
            }
        }'
    echo
    echo "\"Sized for n\" is the table \`fk_cuckoo_new\` builds for n = $N items (the fewest buckets of 4 that hold n at its sizing load: any count, no power-of-two rounding); \"full table\" is the same table filled to its first failed insert."
} | section crossover
fi

# --------------------------------------------------- cuckoo load at the first failure
if want load; then
load_args=(bench --filters cuckoo --n "$NS" --fpr 0.1% --repeat 1 --format csv --out -)
run cuckoo-load "${load_args[@]}"
{
    source_line "${load_args[@]}"
    echo "| n sized for | load at n | load at the first failed insert (paper, b = 4: ~95%) | items held then | bits per item then |"
    echo "|---|---|---|---|---|"
    csv "$tmp/cuckoo-load" '
        v("kind") == "cuckoo" {
            printf "| %d | %.3f | %s | %s | %s |\n", v("n"), v("load"), g(v("load_at_full")), v("items_at_full"), g(v("bits_per_item_at_full"))
        }'
} | section cuckoo-load
fi

# --------------------------------------------------- counting: memory and speed
if want memory; then
mem_args=(bench --filters bloom,counting,cuckoo --n "$N" --fpr 1% --repeat 3 --format csv --out -)
run counting-memory "${mem_args[@]}"
{
    source_line "${mem_args[@]}"
    echo "| filter | bits per item | x bloom's memory (theory: counting 4) | fpr measured | insert ns | lookup ns, absent | lookup ns, present | remove ns |"
    echo "|---|---|---|---|---|---|---|---|"
    csv "$tmp/counting-memory" '
        { kind[NR] = v("kind"); mem[NR] = v("memory_bytes"); bpi[NR] = v("bits_per_item")
          if (v("kind") == "bloom") base = v("memory_bytes")
          rest[NR] = sprintf("| %s | %s | %s | %s | %s |", pct(v("fpr_measured")), g(v("insert_ns")), g(v("lookup0_ns")), g(v("lookup100_ns")), g(v("remove_ns"))) }
        END { for (i = 2; i <= NR; i++) printf "| %s | %.2f | %.2f %s\n", kind[i], bpi[i], mem[i] / base, rest[i] }'
} | section counting-memory
fi

# --------------------------------------------------- speed in and out of cache
if want speed; then
speed_args=(bench --n "$N,$NBIG" --fpr 1%,0.1% --repeat 3 --no-fill --format csv --out -)
run speed "${speed_args[@]}"
{
    source_line "${speed_args[@]}"
    echo "| n | target fpr | filter | memory (MiB) | insert ns | lookup ns, absent | lookup ns, 50% present | lookup ns, present | vs libbloom: insert, absent, present (x throughput) |"
    echo "|---|---|---|---|---|---|---|---|---|"
    csv "$tmp/speed" '
        { lb = (v("x_lb_insert") == "") ? "-" : sprintf("%.2f, %.2f, %.2f", v("x_lb_insert"), v("x_lb_lookup0"), v("x_lb_lookup100"))
          printf "| %d | %s | %s | %.2f | %s | %s | %s | %s | %s |\n", v("n"), pct(v("target_fpr")), v("kind"), v("memory_bytes") / 1048576,
                 g(v("insert_ns")), g(v("lookup0_ns")), g(v("lookup50_ns")), g(v("lookup100_ns")), lb }'
    echo
    echo "Medians of 3 runs; 8-byte integer keys."
    if [ "$quick" = 0 ]; then
        dram_args=(bench --filters bloom,cuckoo --n 100000000 --fpr 1% --repeat 1 --no-fill --format csv --out -)
        run dram "${dram_args[@]}"
        echo
        echo "Out of cache: the same at n = 10^8, where the filters are hundreds of MiB."
        echo
        source_line "${dram_args[@]}"
        echo "| n | target fpr | filter | memory (MiB) | insert ns | lookup ns, absent | lookup ns, 50% present | lookup ns, present |"
        echo "|---|---|---|---|---|---|---|---|"
        csv "$tmp/dram" '
            { printf "| %d | %s | %s | %.2f | %s | %s | %s | %s |\n", v("n"), pct(v("target_fpr")), v("kind"), v("memory_bytes") / 1048576,
                     g(v("insert_ns")), g(v("lookup0_ns")), g(v("lookup50_ns")), g(v("lookup100_ns")) }'
    fi
} | section speed
fi

# ------------------------------------- cost: where a lookup's instructions go
if want cost; then {
    if command -v valgrind >/dev/null 2>&1; then
        echo "Counted by callgrind over \`bench/figures/insn_count.sh KIND 1000000 FPR OP\` (one call per 8-byte key through \`fk_filter_contains_u64\`, loop included; \`FK_INSN_ANNOTATE=FILE\` writes the per-line counts) at $stamp, gcc -O2; the split is callgrind's count per function, per lookup."
        echo
        echo "| kind, fpr | absent | present | 50% mix | loop + \`fk_filter_contains_u64\` | the kind's own functions (absent) |"
        echo "|---|---|---|---|---|---|"
        for spec in "blocked 0.01" "cuckoo 0.01" "cuckoo 0.001" "bloom 0.01" "counting 0.01" "quotient 0.001" "fuse 0.01" "fuse 0.004"; do
            set -- $spec
            echo "paper_tables.sh: bench/figures/insn_count.sh $1 1000000 $2 absent_u64 (present_u64, mixed_u64)" >&2
            per() { sed 's/.* = \([0-9.]*\) per .*/\1/'; }
            absent=$(FK_INSN_ANNOTATE="$tmp/cost.txt" BUILD="$build" sh bench/figures/insn_count.sh "$1" 1000000 "$2" absent_u64 | per)
            present=$(BUILD="$build" sh bench/figures/insn_count.sh "$1" 1000000 "$2" present_u64 | per)
            mixed=$(BUILD="$build" sh bench/figures/insn_count.sh "$1" 1000000 "$2" mixed_u64 | per)
            # callgrind_annotate's function lines: "COUNT  FILE:FUNCTION [OBJECT]"
            awk '/^ *[0-9,]+ +[^ ]+:[^ ]+ \[/ { gsub(/,/, "", $1); f = $2; sub(/^[^:]*:/, "", f); print $1, f }' \
                "$tmp/cost.txt" >"$tmp/cost.fn"
            frame=$(awk '$2 == "lookup_loop_u64" || $2 == "fk_filter_contains_u64" { t += $1 } END { printf "%.0f", t / 1e6 }' "$tmp/cost.fn")
            own=$(awk '$2 != "lookup_loop_u64" && $2 != "fk_filter_contains_u64" { printf "%s`%s` %.1f", sep, $2, $1 / 1e6; sep = ", " }' "$tmp/cost.fn")
            printf '| %s %s | %s | %s | %s | %s | %s |\n' "$1" "$(awk -v p="$2" 'BEGIN { printf "%g%%", 100 * p }')" \
                "$absent" "$present" "$mixed" "$frame" "$own"
        done
    else
        echo "(valgrind is not installed: no instruction counts)"
    fi
} | section cost; fi

# --------------------------------------------------- pick
if want pick; then {
    echo "What \`filterkit pick\` answered for each case, at $stamp (it measures every kind briefly, drops those that cannot meet a constraint, then takes the cheapest per operation at a 90% read ratio over 32 paired rounds, and among kinds tied with it (not over 1.25x its cost in the median round and in 7 rounds of 8), the one whose lookup makes the fewest random reads, then the smallest):"
    echo
    echo "| command | recommends | parameters | why not the others |"
    echo "|---|---|---|---|"
    for n in 990000 1000000; do
        for p in 1% 0.1% 0.01%; do
            for d in "" "--deletes"; do
                args=(pick --n "$n" --fpr "$p" $d)
                echo "paper_tables.sh: ${args[*]}" >&2
                out=$("$fk" "${args[@]}" 2>&1 || true)
                rec=$(printf '%s\n' "$out" | sed -n 's/^recommend: //p')
                par=$(printf '%s\n' "$out" | sed -n 's/^  parameters: *//p' | sed 's/fk_params_make([^)]*) with //')
                why=$(printf '%s\n' "$out" | sed -n '/^why not the others:/,$p' | sed 1d | sed 's/^ *//' | paste -sd ';' - | sed 's/;/; /g' | tr -s ' ')
                printf '| `filterkit %s` | **%s** | %s | %s |\n' "${args[*]}" "${rec:-none}" "$par" "$why"
            done
        done
    done
    args=(pick --n 1000000 --fpr 0.1% --memory 512K)
    echo "paper_tables.sh: ${args[*]}" >&2
    set +e; out=$("$fk" "${args[@]}" 2>&1); rc=$?; set -e
    echo
    echo "An impossible budget, \`filterkit ${args[*]}\` (exit status $rc):"
    echo
    echo '```text'
    printf '%s\n' "$out"
    echo '```'
} | section pick; fi

# --------------------------------------------------- traces
trace_block() { # NAME SUMMARY ARGS...
    local name=$1 summary=$2; shift 2
    {
        echo "<details><summary>$summary</summary>"
        echo
        echo '```text'
        echo "\$ build/filterkit $*"
        "$fk" "$@"
        echo '```'
        echo
        echo "</details>"
    } | section "$name"
}
if want trace; then
trace_block trace-bloom "filterkit trace bloom: three inserts; lookups: a key that is present, one that is definitely absent, a false positive; a refused remove" \
    trace bloom --capacity 3 --fpr 0.1 apple banana cherry --lookup apple kiwi pecan --remove banana
trace_block trace-counting "filterkit trace counting: a key inserted twice, lookups, three removes of it (the third finds it absent)" \
    trace counting --capacity 3 --fpr 0.1 apple banana apple --lookup apple kiwi --remove apple apple apple
trace_block trace-saturation "filterkit trace counting: one key inserted 16 times saturates its 4-bit counters, which removes no longer lower" \
    trace counting --capacity 2 --fpr 0.3 hot hot hot hot hot hot hot hot hot hot hot hot hot hot hot hot --remove hot hot
trace_block trace-cuckoo "filterkit trace cuckoo: a tiny table filled past its capacity (kicks, then FK_EFULL), two lookups, two removes" \
    trace cuckoo --capacity 8 --fp-bits 8 apple banana cherry date elder fig grape honeydew kiwi lemon mango nectarine olive papaya quince raspberry strawberry --lookup apple zucchini --remove banana zucchini
fi

# --------------------------------------------------- growing filters
if want growth; then
gm_args=(bench/scripts/growth_memory.sh "$tmp/growth-memory.csv")
echo "paper_tables.sh: ${gm_args[*]}" >&2
FK_BUILD="$build" "${gm_args[@]}"
{
    printf 'Measured by `%s` at %s.\n\n' "bench/scripts/growth_memory.sh" "$stamp"
    echo "| kind | s | r | target | growth | keys | links | bits/item | theory (Bloom) | fixed filter bits/item | ratio | worst sampled ratio up to here |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    csv "$tmp/growth-memory.csv" '
        { key = v("kind") "," v("s") "," v("r") "," v("target_fpr"); ratio = v("bits_per_item") / v("fixed_bits_per_item")
          if (!(key in worst) || ratio > worst[key]) worst[key] = ratio }
        v("growth") == 1000 || v("growth") == 511 {
            printf "| %s | %s | %s | %s | %sx | %s | %s | %.2f | %s | %.2f | **%.2fx** | %.2fx |\n", v("kind"), v("s"), v("r"), pct(v("target_fpr")),
                   v("growth"), v("items"), v("links"), v("bits_per_item"), v("theory_bits_per_item") == "" ? "-" : sprintf("%.2f", v("theory_bits_per_item")),
                   v("fixed_bits_per_item"), ratio, worst[key] }'
} | section growth-memory

gs_args=(sweep --vary growth --n "$N" --fpr 1% --repeat 3 --format csv --out -)
run growth-sweep "${gs_args[@]}"
gs_args2=(sweep --vary growth --n "$N" --fpr 0.1% --repeat 3 --format csv --out -)
run growth-sweep2 "${gs_args2[@]}"
{
    printf 'Measured by `build/filterkit %s` and `build/filterkit %s` at %s; "x fixed" = this kind / its inner kind sized for n in the same run.\n\n' \
        "${gs_args[*]}" "${gs_args2[*]}" "$stamp"
    echo "| kind | target | grown | bits/item | x fixed | fpr measured | fpr theory | insert ns | x fixed | lookup ns, absent | x fixed | lookup ns, present | x fixed | failed removes |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    cat "$tmp/growth-sweep" <(grep -v '^kind,' "$tmp/growth-sweep2" | grep -v '^#') | csv /dev/stdin '
        { k = v("kind"); t = v("target_fpr"); inner = k; sub(/^scalable-/, "", inner) }
        v("growth") == 1 && k == inner { fb[k, t] = v("bits_per_item"); fi[k, t] = v("insert_ns"); f0[k, t] = v("lookup0_ns"); f1[k, t] = v("lookup100_ns") }
        { row[++nr] = $0; kk[nr] = k; tt[nr] = t; ii[nr] = inner }
        END {
            for (j = 1; j <= nr; j++) {
                $0 = row[j]; k = kk[j]; t = tt[j]; in_ = ii[j]
                printf "| %s | %s | %sx | %.2f | %s | %s | %s | %.1f | %s | %.1f | %s | %.1f | %s | %s |\n", k, pct(t), v("growth"), v("bits_per_item"),
                       k == in_ ? "" : sprintf("%.2f", v("bits_per_item") / fb[in_, t]), pct(v("fpr_measured")), pct(v("fpr_theory")),
                       v("insert_ns"), k == in_ ? "" : sprintf("%.2f", v("insert_ns") / fi[in_, t]),
                       v("lookup0_ns"), k == in_ ? "" : sprintf("%.2f", v("lookup0_ns") / f0[in_, t]),
                       v("lookup100_ns"), k == in_ ? "" : sprintf("%.2f", v("lookup100_ns") / f1[in_, t]), v("remove_failures") }
        }'
} | section growth-speed

{
    if command -v valgrind >/dev/null 2>&1; then
        echo "Instructions per lookup (half present, half absent keys, one call through fk_ops each), counted by callgrind, $stamp; links as \`filterkit info\` reports them for the same shape:"
        echo
        echo "| command | links | instructions per lookup | x the fixed filter |"
        echo "|---|---|---|---|"
        for kind in bloom cuckoo; do
            base=""
            for cap in "$N" $((N / 2)) $((N / 8)) $((N / 64)) $((N / 1000)); do
                if [ -z "$base" ]; then
                    args=("$kind" "$N" 0.01 lookup)
                    out=$(BUILD="$build" sh bench/figures/insn_count.sh "${args[@]}")
                    base=$(printf '%s\n' "$out" | sed 's/.* = \([0-9.]*\) per lookup/\1/')
                    printf '| `bench/figures/insn_count.sh %s` | 1 (fixed) | %s | 1 |\n' "${args[*]}" "$base"
                fi
                args=("scalable-$kind" "$N" 0.01 lookup "$cap")
                echo "paper_tables.sh: bench/figures/insn_count.sh ${args[*]}" >&2
                out=$(BUILD="$build" sh bench/figures/insn_count.sh "${args[@]}")
                per=$(printf '%s\n' "$out" | sed 's/.* = \([0-9.]*\) per lookup/\1/')
                seq 1 "$N" | "$fk" build --kind "scalable-$kind" --fpr 0.01 --capacity "$cap" --unique-input >"$tmp/links.fk"
                links=$("$fk" info --json "$tmp/links.fk" | sed -n 's/^  "links": \([0-9]*\),$/\1/p')
                printf '| `bench/figures/insn_count.sh %s` | %s | %s | %.2f |\n' "${args[*]}" "$links" "$per" "$(awk -v a="$per" -v b="$base" 'BEGIN { print a / b }')"
            done
        done
    else
        echo "(valgrind is not installed: no instruction counts)"
    fi
} | section growth-insn

{
    lines=$((N * 5))
    seq 1 "$lines" | sed 's/^/user-/' >"$tmp/lines.txt"
    echo "Streaming \`build\` without \`--capacity\` on $lines lines (\`seq 1 $lines | sed 's/^/user-/'\`), $stamp; resident memory as \`/usr/bin/time -v\` reports it:"
    echo
    echo "| command | wall s | max RSS | output file | query finds |"
    echo "|---|---|---|---|---|"
    for cmd in "build --kind scalable-bloom --fpr 0.001 < lines" "build --kind bloom --fpr 0.001 < lines" "cat lines | build --kind scalable-bloom --fpr 0.001" "cat lines | build --kind bloom --fpr 0.001"; do
        kind=$(printf '%s\n' "$cmd" | sed 's/.*--kind \([a-z-]*\).*/\1/')
        if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -v); else timer=(); fi
        case "$cmd" in
            cat*) cat "$tmp/lines.txt" | "${timer[@]}" "$fk" build --kind "$kind" --fpr 0.001 >"$tmp/f.fk" 2>"$tmp/time.txt" ;;
            *) "${timer[@]}" "$fk" build --kind "$kind" --fpr 0.001 <"$tmp/lines.txt" >"$tmp/f.fk" 2>"$tmp/time.txt" ;;
        esac
        rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
        wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time.txt")
        found=$("$fk" query -c "$tmp/f.fk" <"$tmp/lines.txt")
        case "$cmd" in
            cat*) shown="cat lines \\| filterkit ${cmd#cat lines | }" ;;
            *) shown="filterkit $cmd" ;;
        esac
        printf '| `%s` | %s | %s | %s | %s of %s |\n' "$shown" "${wall:--}" "${rss:+$((rss / 1024)) MiB}" \
            "$(($(stat -c %s "$tmp/f.fk") / 1024 / 1024)) MiB" "$found" "$lines"
    done
    rm -f "$tmp/lines.txt"
} | section growth-stream
fi

# --------------------------------------------------- static: the binary fuse filter
if want static; then
static_sweep=(sweep --vary fpr --filters fuse --n "$NBIG" --fpr 0.5,0.0625,0.01,0.004,0.001,0.0000153,0.00000003 --repeat 1 --no-fill --format csv --out -)
run static-sweep "${static_sweep[@]}"
{
    source_line "${static_sweep[@]}"
    echo "| target p | f = ceil(log2(1/p)) | fpr theory 2^-f | fpr measured [95% interval] | bits/item theory 1.125 f | bits/item measured | build ns/key | temporary bytes/key at the build's peak |"
    echo "|---|---|---|---|---|---|---|---|"
    csv "$tmp/static-sweep" '
        v("kind") == "fuse" {
            p = v("target_fpr"); f = 1; while (f < 32 && 2 ^ -f > p) f++
            printf "| %s | %d | %s | %s [%s, %s] | %.3f | %.3f | %s | %s |\n", p, f, pct(2 ^ -f),
                   pct(v("fpr_measured")), pct(v("fpr_low")), pct(v("fpr_high")), 1.125 * f,
                   v("bits_per_item"), g(v("insert_ns")), g(v("build_temp_per_key")) }'
    echo
    echo "n = 10^7 8-byte keys, one shard. Bits per item above 1.125 f: the rounding to whole segments (of 2^18 cells here) and the 8-byte pad; build: fk_filter_build from the byte keys, per key."
} | section static-size
static_speed=(bench --filters fuse,blocked,bloom,libbloom --n "$N,$NBIG" --fpr 0.01,0.004 --repeat 3 --no-fill --format csv --out -)
run static-speed "${static_speed[@]}"
{
    source_line "${static_speed[@]}"
    echo "| n | target fpr | filter | bits/item | build or insert ns/key | build temporary bytes/key | lookup ns, absent | lookup ns, present | absent lookups vs libbloom (x throughput) | u64 call: lookup ns, absent | u64 call vs libbloom (x throughput) |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    csv "$tmp/static-speed" '
        { printf "| %d | %s | %s | %.2f | %s | %s | %s | %s | %s | %s | %s |\n", v("n"), pct(v("target_fpr")), v("kind"),
                 v("bits_per_item"), g(v("insert_ns")), g(v("build_temp_per_key")), g(v("lookup0_ns")),
                 g(v("lookup100_ns")), g(v("x_lb_lookup0")), g(v("lookup0_u64_ns")), g(v("x_lb_lookup0_u64")) }'
    echo
    echo "Medians of 3 runs; 8-byte integer keys; fuse builds from the whole set (the insert column is its build per key), the others insert one key at a time. The lookup columns call the byte slot with the key's 8 bytes; the u64 columns call fk_filter_contains_u64 (libbloom has no integer call, so its ratio is against its byte call)."
} | section static-speed
{
    echo "Counted by \`build/tests/test_fuse\` (its lines 'hard sizes' and 'random sets') at $stamp."
    echo
    echo '```'
    "$build/tests/test_fuse" 2>/dev/null | grep -E '^(hard sizes|random sets):'
    echo '```'
} | section static-retries
fi

# --------------------------------------------------- quotient
if want quotient; then
quotient_part() { # PART: bench/figures/quotient_figures.sh PART, with its command line
    echo "\`bench/figures/quotient_figures.sh $1\`, $stamp:"
    echo
    BUILD="$build" sh bench/figures/quotient_figures.sh "$1"
}
{
    quotient_part space
} | section quotient-space
{
    quotient_part shift
} | section quotient-shift
{
    quotient_part full
} | section quotient-full
{
    quotient_part heavy
} | section quotient-heavy
{
    quotient_part merge
    if command -v valgrind >/dev/null 2>&1; then
        echo
        quotient_part merge-insn
    fi
} | section quotient-merge
{
    if command -v valgrind >/dev/null 2>&1; then
        echo "Instructions per call for 8-byte keys through fk_ops, loop included, counted by callgrind, $stamp:"
        echo
        echo "| command | instructions per call |"
        echo "|---|---|"
        for args in "quotient $N 0.001 absent" "quotient $N 0.001 absent_u64" "quotient $N 0.001 lookup" "quotient $N 0.001 insert" \
                    "cuckoo $N 0.001 absent" "cuckoo $N 0.001 lookup" "cuckoo $N 0.001 insert"; do
            echo "paper_tables.sh: bench/figures/insn_count.sh $args" >&2
            # shellcheck disable=SC2086
            out=$(BUILD="$build" sh bench/figures/insn_count.sh $args)
            printf '| `bench/figures/insn_count.sh %s` | %s |\n' "$args" "$(printf '%s\n' "$out" | sed 's/.* = \([0-9.]*\) per .*/\1/')"
        done
    else
        echo "(valgrind is not installed: no instruction counts)"
    fi
} | section quotient-insn
{
    q_args=(bench --filters quotient,cuckoo,libbloom --n "$N" --fpr 0.1% --repeat 5 --wide)
    echo "\`filterkit ${q_args[*]}\` (ns per operation, median of 5; x lb = throughput relative to libbloom in the same run), $stamp:"
    echo
    echo '```'
    "$fk" "${q_args[@]}" --out - 2>/dev/null
    echo '```'
} | section quotient-speed
fi

# --------------------------------------------------- plots
if want plots; then
    mkdir -p plots/ref
    {
        found=0
        csv1=$(ls results/*.csv 2>/dev/null | head -n 1)
        if [ -n "$csv1" ]; then
            pc=$(sed -n 's/^# commit: //p' "$csv1" | head -n 1)
            pm=$(sed -n 's/^# cpu: //p' "$csv1" | head -n 1)
            echo "Drawn by \`make bench\` (plots/*.gp over results/*.csv) at commit \`${pc:-unknown}\`, $pm; copied to plots/ref/ by \`bench/scripts/paper_tables.sh --plots\`."
            echo
        fi
        for png in plots/out/*.png; do
            [ -f "$png" ] || continue
            base=$(basename "$png" .png)
            cp "$png" "plots/ref/$base.png"
            found=1
            echo "#### $base"
            echo
            echo "![$base](plots/ref/$base.png)"
            echo
            # the guide with its @placeholders@ filled from this run's CSVs, as the page shows it
            caption=$(bash plots/caption.sh "$base" results)
            if [ -n "$caption" ]; then printf '%s\n\n' "$caption"; fi
        done
        [ "$found" = 1 ] || echo "(no plots/out/*.png: run \`make bench\` with gnuplot installed first)"
    } | section plots
fi

# --------------------------------------------------- output
if [ -z "$update" ]; then
    for f in "$tmp"/section.*; do
        echo "<!-- generated:${f##*/section.} -->"
        cat "$f"
        echo "<!-- /generated -->"
        echo
    done
    exit 0
fi
awk -v dir="$tmp" '
    /^<!-- generated:[a-z0-9-]+ -->$/ {
        print
        name = $0; sub(/^<!-- generated:/, "", name); sub(/ -->$/, "", name)
        file = dir "/section." name
        if ((getline line < file) > 0) {
            print line
            while ((getline line < file) > 0) print line
            close(file)
            skipping = 1
        }
        next
    }
    /^<!-- \/generated -->$/ { skipping = 0; print; next }
    !skipping { print }
' "$update" > "$tmp/updated"
cp "$tmp/updated" "$update"
echo "paper_tables.sh: updated $update" >&2
