#!/usr/bin/env bash
# bench/scripts/device_figures.sh [OUTDIR]: the figures this project's
# 2-core machine cannot give, in one run on a borrowed many-core Linux
# machine (written for 16 cores, 128 GiB): fill figures at n = 10^6, 10^7, 10^8
# and (cheap kinds, time allowing) 10^9; the concurrent-writer figures at
# 16 threads (PAPER_NOTES "Many threads: what the concurrent calls cost");
# the growth workload twice, to show its run-to-run spread.
#
# It needs only the filterkit binary (built here; links libc and libm),
# bash, coreutils, awk and /proc: no compiler, no network. Each stage has a
# wall-clock budget: a sub-run whose estimate (from the runs before it)
# would pass its stage's budget is skipped with the reason printed, and
# every command is killed at the total deadline, so the script ends on time.
# Every command is printed before it runs, for quoting (each also gets
# `--out TMPDIR --name LABEL`, which only name its files; the CSVs keep the
# whole command line in their '# command:' comments).
#
# On the device, from the repository root, with build/filterkit carried:
#   bench/scripts/device_figures.sh "$OUT"
# Here, to check the script (about 15 s): SMALL=1 bench/scripts/device_figures.sh
#
# Writes under OUTDIR (default $OUT, else /tmp/device-figures): machine.txt,
# log.txt (all it printed), progress.txt (the bench's progress lines,
# time-stamped), scale.csv, threads.csv, growth.csv, timings.csv (each
# sub-run: estimate, seconds, status), summary.txt (the closing tables).
#
# Environment:
#   FK_BIN=build/filterkit   the binary
#   STAGES="scale threads growth"   the stages to run, in this order
#   SMALL=1                  sizes / 100 (a check of the script, seconds)
#   SCALE_BUDGET=180 THREADS_BUDGET=100 GROWTH_BUDGET=35   seconds per stage
#   TOTAL_BUDGET=330         seconds; any command still running then is killed
#   SCALE_N="1000000 10000000 100000000" BIG_N=1000000000   the scale sizes
#   SCALE_KINDS=blocked,bloom,cuckoo,fuse,quotient BIG_KINDS=blocked,cuckoo,bloom
#                            the kinds, cheapest first: a budget drops the last
#   THREAD_KINDS=blocked,cuckoo,bloom,counting
#   THREADS=min(16, nproc)   the thread count of the threads stage (n = 10^7, 5
#                            repeats, one run per kind; then n = 10^8, 1 repeat)
#   SWEEP="8 4 2"            further thread counts at n = 10^7, 3 repeats
#   DECADE_COST=1.4          the assumed cost per key growth for 10x the keys
#                            (cache misses), used by the estimates
set -u

fk=${FK_BIN:-build/filterkit}
out=${1:-${OUT:-/tmp/device-figures}}
stages=${STAGES:-scale threads growth}
small=${SMALL:-0}
total_budget=${TOTAL_BUDGET:-330}
decade_cost=${DECADE_COST:-1.4}
cores=$(nproc)
threads=${THREADS:-$((cores < 16 ? cores : 16))}
sweep=${SWEEP-8 4 2}

if [ "$small" = 1 ]; then
    scale_n="10000 100000 1000000" big_n=10000000 thr_n="100000 1000000"
    growth_args="--n0 1000 --grow 64 --probes 100000"
else
    scale_n="1000000 10000000 100000000" big_n=1000000000 thr_n="10000000 100000000"
    growth_args="--n0 10000 --grow 1024 --probes 1000000"
fi
scale_n=${SCALE_N:-$scale_n} big_n=${BIG_N-$big_n} # BIG_N= : no run past SCALE_N
scale_kinds=${SCALE_KINDS:-blocked,bloom,cuckoo,fuse,quotient} # cheapest first: the budget drops the last
big_kinds=${BIG_KINDS:-blocked,cuckoo,bloom}
thr_kinds=${THREAD_KINDS:-blocked,cuckoo,bloom,counting}

mkdir -p "$out" || exit 1
exec > >(tee "$out/log.txt") 2>&1
tee_pid=$!
parts=$(mktemp -d) || exit 1
trap 'rm -rf "$parts"' EXIT
: >"$out/progress.txt"
echo "stage,label,n,kinds,estimate_s,seconds,status,command" >"$out/timings.csv"

now() { if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/,/.}"; else date +%s.%N; fi; }
calc() { awk "BEGIN { printf \"%.1f\", $1 }"; }   # calc EXPR: one decimal
lt() { awk "BEGIN { exit !($1 < $2) }"; }         # lt A B: A < B
start=$(now)
left_total() { calc "$total_budget - ($(now) - $start)"; }

# --- the machine -----------------------------------------------------------
{
    echo "date -u: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "nproc: $cores"
    echo "model name: $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
    echo "siblings, cpu cores: $(awk -F': ' '/^siblings/ { s = $2 } /^cpu cores/ { c = $2 } END { print s ", " c }' /proc/cpuinfo)"
    echo "sockets: $(awk -F': ' '/^physical id/ { s[$2] = 1 } END { print length(s) }' /proc/cpuinfo)," \
         "numa nodes: $(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)"
    for c in /sys/devices/system/cpu/cpu0/cache/index*; do
        [ -r "$c/size" ] || continue
        echo "cache L$(cat "$c/level") $(cat "$c/type"): $(cat "$c/size")" \
             "(shared by cpus $(cat "$c/shared_cpu_list" 2>/dev/null))"
    done
    grep -E '^(MemTotal|MemAvailable|Hugepagesize)' /proc/meminfo
    echo "transparent hugepages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
    echo "governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo none)"
    echo "kernel: $(uname -srm)"
    echo "loadavg: $(cat /proc/loadavg)"
    echo "binary: $fk ($("$fk" --version 2>&1 | head -1))"
    echo "script: STAGES=\"$stages\" SMALL=$small TOTAL_BUDGET=$total_budget THREADS=$threads SWEEP=\"$sweep\""
} | tee "$out/machine.txt"
"$fk" --version >/dev/null 2>&1 || { echo "$0: $fk does not run here" >&2; exit 1; }

# --- running one bench -------------------------------------------------------
# Per-kind seconds of the last run, from its progress lines: each line
# names the kind whose repeat starts; the time until the next line is that
# kind's ("keys": generating the keys; with --threads or a fill, the last
# kind's time also holds those parts of every kind).
declare -A kind_s
split_seconds() { # FILE T0 T1
    kind_s=()
    local k s
    while read -r k s; do kind_s[$k]=$s; done < <(awk -v t0="$2" -v t1="$3" '
        BEGIN { cur = "keys"; prev = t0 }
        { t = $1; line = $0; k = cur
          if (line ~ /generating keys/) k = "keys"
          else if (match(line, /\] [a-z-]+ n=/)) k = substr(line, RSTART + 2, RLENGTH - 5)
          sec[cur] += t - prev; cur = k; prev = t }
        END { sec[cur] += t1 - prev; for (k in sec) printf "%s %.2f\n", k, sec[k] }' "$1")
}

# run_bench STAGE LABEL N KINDS ESTIMATE ARGS...: prints and runs
# `filterkit bench ARGS` (its CSV into the stage's CSV), killed at the total
# deadline; sets last_s (seconds) and last_status.
run_bench() {
    local stage=$1 label=$2 n=$3 kinds=$4 est=$5
    shift 5
    local left t0 t1 rc
    left=$(left_total)
    last_s=0
    if lt "$left" 5; then
        last_status="skipped: total budget spent"
        echo "skip $label: $last_status"
        echo "$stage,$label,$n,${kinds//,/+},$est,0,$last_status," >>"$out/timings.csv"
        return 1
    fi
    echo
    echo "== $label (estimate ${est} s; ${left} s left in total)"
    echo "\$ $fk bench $*"
    t0=$(now)
    { timeout -k 10 "${left%.*}" "$fk" bench "$@" --out "$parts" --name "$label" 2>&1 1>&3 |
        while IFS= read -r l; do printf '%s %s\n' "$(now)" "$l"; done >"$parts/progress"
      rc=${PIPESTATUS[0]}; } 3>&1
    t1=$(now)
    last_s=$(calc "$t1 - $t0")
    sed "s/^/$label /" "$parts/progress" >>"$out/progress.txt"
    split_seconds "$parts/progress" "$t0" "$t1"
    case $rc in
        0) last_status=ok ;;
        124 | 137) last_status="killed at the total deadline" ;;
        *) last_status="failed (exit $rc)"; tail -3 "$parts/progress" ;;
    esac
    echo "-- $label: $last_status, $last_s s"
    echo "$stage,$label,$n,${kinds//,/+},$est,$last_s,$last_status,\"$fk bench $*\"" >>"$out/timings.csv"
    if [ -f "$parts/$label.csv" ]; then # comment lines kept: they hold the command, commit, cpu
        awk -v have="$([ -s "$out/$stage.csv" ] && echo 1 || echo 0)" \
            '/^#/ { print; next } !seen++ { if (!have) print; next } { print }' \
            "$parts/$label.csv" >>"$out/$stage.csv"
        rm -f "$parts/$label".*
    fi
    [ "$rc" = 0 ]
}

# fit KINDS SECONDS_PER_KIND_EXPR FIXED BUDGET: the longest prefix of the
# comma list KINDS whose estimated time (FIXED + the sum of
# SECONDS_PER_KIND_EXPR, an awk expression of s = the kind's seconds in
# the last run) fits in BUDGET seconds; sets fit_kinds, fit_est.
fit() {
    local kinds=$1 expr=$2 budget=$4 k e sum=$3
    fit_kinds="" fit_est=$3
    for k in ${kinds//,/ }; do
        [ -n "${kind_s[$k]:-}" ] || continue
        e=$(awk -v s="${kind_s[$k]}" "BEGIN { printf \"%.1f\", $expr }")
        sum=$(calc "$sum + $e")
        lt "$budget" "$sum" && break
        fit_kinds=${fit_kinds:+$fit_kinds,}$k fit_est=$sum
    done
}

stage_left() { calc "$1 - ($(now) - $2)"; } # stage_left BUDGET STAGE_START

# --- stage scale: fill figures at growing n -----------------------------------
# Each kind's time at the next n is estimated from its last two runs as
# a + b n (the lookups, 2^20..2^21 keys a mix, cost the same at any n; the
# inserts and removes grow with n), the slope b times DECADE_COST per
# tenfold n (cache and TLB misses); the keys' time grows as n.
declare -A prev_s
extrapolate() { # N_PREV N_CUR N_NEXT: sets kind_s to the estimates at N_NEXT
    local k p s
    for k in "${!kind_s[@]}"; do
        s=${kind_s[$k]} p=${prev_s[$k]:-}
        if [ "$k" = keys ] || [ -z "$p" ]; then
            kind_s[$k]=$(awk -v s="$s" -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", s * b / a }')
        else
            kind_s[$k]=$(awk -v s="$s" -v p="$p" -v n0="$1" -v n1="$2" -v n2="$3" -v c="$decade_cost" '
                BEGIN { b = (s - p) / (n1 - n0); if (b < 0) b = 0
                        printf "%.2f", s + b * (n2 - n1) * c * log(n2 / n1) / log(10) }')
        fi
    done
}
stage_scale() {
    local budget=${SCALE_BUDGET:-180} t0 n p=0 left k next kinds est
    t0=$(now)
    echo; echo "=== stage scale (budget $budget s)"
    local -a sizes
    local i
    read -r -a sizes <<<"$scale_n $big_n"
    kinds=$scale_kinds est=-
    for ((i = 0; i < ${#sizes[@]}; i++)); do
        n=${sizes[$i]}
        run_bench scale "scale-n$n" "$n" "$kinds" "$est" \
            --n "$n" --filters "$kinds" --fpr 0.01 --repeat 1 --no-fill || return
        next=${sizes[$((i + 1))]:-}
        [ -n "$next" ] || break
        local cur_s=()
        for k in "${!kind_s[@]}"; do cur_s+=("$k=${kind_s[$k]}"); done
        [ "$next" = "$big_n" ] && kinds=$big_kinds
        extrapolate "$p" "$n" "$next"
        left=$(stage_left "$budget" "$t0")
        fit "$kinds" s "${kind_s[keys]:-0}" "$left"
        prev_s=()
        for k in "${cur_s[@]}"; do prev_s[${k%%=*}]=${k#*=}; done
        p=$n
        if [ -z "$fit_kinds" ]; then
            echo "skip scale n=$next: ${kinds%%,*} alone is estimated at" \
                 "$(calc "${kind_s[keys]:-0} + ${kind_s[${kinds%%,*}]:-0}") s (keys ${kind_s[keys]:-0} s)," \
                 "$left s left in the stage"
            echo "scale,scale-n$next,$next,${kinds//,/+},-,0,skipped: stage budget," >>"$out/timings.csv"
            return
        fi
        [ "$fit_kinds" != "$kinds" ] &&
            echo "scale n=$next: only $fit_kinds fit in the $left s left in the stage (all: $kinds)"
        if [ "$next" = "$big_n" ]; then
            local mem_kb need_kb
            mem_kb=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
            need_kb=$(awk -v n="$next" 'BEGIN { printf "%.0f", n * 48 / 1024 }') # 31 B a key at 10^7
            if [ "$mem_kb" -lt "$need_kb" ]; then
                echo "skip scale n=$next: needs about $((need_kb / 1048576)) GiB, $((mem_kb / 1048576)) GiB available"
                echo "scale,scale-n$next,$next,${kinds//,/+},-,0,skipped: memory," >>"$out/timings.csv"
                return
            fi
        fi
        kinds=$fit_kinds est=$fit_est
    done
}

# --- stage threads: concurrent inserts and lookups at THREADS threads --------
stage_threads() {
    local budget=${THREADS_BUDGET:-100} t0 n1 n2 k t kg=0
    t0=$(now)
    read -r n1 n2 <<<"$thr_n"
    echo; echo "=== stage threads (budget $budget s, $threads threads)"
    # one run per kind (the keys at n1 cost little), so each kind's time is known
    declare -A thr_s
    for k in ${thr_kinds//,/ }; do
        run_bench threads "threads$threads-n$n1-$k" "$n1" "$k" - \
            --n "$n1" --filters "$k" --threads "$threads" --repeat 5 --no-fill || continue
        thr_s[$k]=$(calc "$last_s - ${kind_s[keys]:-0}")
        kg=${kind_s[keys]:-0}
    done
    # n2, one repeat: (time at n1 - keys) / 5 x 10 x DECADE_COST, keys x 10
    kind_s=()
    for k in "${!thr_s[@]}"; do kind_s[$k]=${thr_s[$k]}; done
    fit "$thr_kinds" "s / 5 * 10 * $decade_cost" "$(calc "${kg:-0} * 10")" "$(stage_left "$budget" "$t0")"
    if [ -z "$fit_kinds" ]; then
        echo "skip threads n=$n2: estimate for ${thr_kinds%%,*} alone passes the $(stage_left "$budget" "$t0") s left in the stage"
        echo "threads,threads$threads-n$n2,$n2,${thr_kinds//,/+},-,0,skipped: stage budget," >>"$out/timings.csv"
    else
        [ "$fit_kinds" != "$thr_kinds" ] &&
            echo "threads n=$n2: only $fit_kinds fit in the stage budget (all: $thr_kinds)"
        run_bench threads "threads$threads-n$n2" "$n2" "$fit_kinds" "$fit_est" \
            --n "$n2" --filters "$fit_kinds" --threads "$threads" --repeat 1 --no-fill
    fi
    # the sweep at n1, 3 repeats, as many kinds as fit
    for t in $sweep; do
        [ "$t" -lt "$threads" ] || continue
        kind_s=()
        for k in "${!thr_s[@]}"; do kind_s[$k]=${thr_s[$k]}; done
        fit "$thr_kinds" "s * 3 / 5" "${kg:-0}" "$(stage_left "$budget" "$t0")"
        if [ -z "$fit_kinds" ]; then
            echo "skip threads $t at n=$n1: passes the $(stage_left "$budget" "$t0") s left in the stage"
            echo "threads,threads$t-n$n1,$n1,${thr_kinds//,/+},-,0,skipped: stage budget," >>"$out/timings.csv"
            continue
        fi
        run_bench threads "threads$t-n$n1" "$n1" "$fit_kinds" "$fit_est" \
            --n "$n1" --filters "$fit_kinds" --threads "$t" --repeat 3 --no-fill
    done
}

# --- stage growth: the growth workload, twice ---------------------------------
stage_growth() {
    local budget=${GROWTH_BUDGET:-35} t0 r
    t0=$(now)
    echo; echo "=== stage growth (budget $budget s)"
    # shellcheck disable=SC2086 # growth_args is a list of words
    run_bench growth growth-run1 - expandable,scalable-cuckoo,quotient,cuckoo - --workload growth $growth_args \
        --fpr 0.001 --filters expandable,scalable-cuckoo,quotient,cuckoo || return
    r=$(stage_left "$budget" "$t0")
    if lt "$r" "$last_s"; then
        echo "skip growth run 2: run 1 took $last_s s, $r s left in the stage"
        echo "growth,growth-run2,-,-,$last_s,0,skipped: stage budget," >>"$out/timings.csv"
        return
    fi
    # shellcheck disable=SC2086
    run_bench growth growth-run2 - expandable,scalable-cuckoo,quotient,cuckoo "$last_s" --workload growth $growth_args \
        --fpr 0.001 --filters expandable,scalable-cuckoo,quotient,cuckoo
}

for s in $stages; do
    case $s in
        scale) stage_scale ;;
        threads) stage_threads ;;
        growth) stage_growth ;;
        *) echo "unknown stage $s (scale, threads, growth)" ;;
    esac
done

# --- summary ---------------------------------------------------------------------
# csvcols FILE COL...: the named columns of a CSV with '#' comments, tab-separated
csvcols() {
    local f=$1; shift
    [ -s "$f" ] || return 0
    awk -F, -v cols="$*" 'BEGIN { nc = split(cols, want, " ") }
        /^#/ { next }
        !hdr { for (i = 1; i <= NF; i++) at[$i] = i; hdr = 1; next }
        $1 == "kind" || $1 == "filter" { next }
        { line = ""; for (c = 1; c <= nc; c++) line = line (c > 1 ? "\t" : "") (want[c] in at ? $(at[want[c]]) : "?"); print line }' "$f"
}
{
    echo
    echo "=== summary ($(calc "$(now) - $start") s in all)"
    cat "$out/machine.txt"
    echo "binary's commit: $(cat "$out"/scale.csv "$out"/threads.csv "$out"/growth.csv 2>/dev/null |
        awk '/^# commit:/ { print $3; exit }')"
    echo
    echo "runs:"
    column_print() { awk -F'\t' '{ for (i = 1; i <= NF; i++) printf "%-*s", (i == 1 ? 18 : 12), $i; printf "\n" }'; }
    awk -F, 'NR > 1 { printf "  %-26s %-11s est %-6s took %-7s %s\n", $2, $3, $5, $6, $7
                      c = $0; if (sub(/^[^"]*"/, "", c)) { sub(/"$/, "", c); print "    $ " c } }' "$out/timings.csv"
    if [ -s "$out/scale.csv" ]; then
        echo
        echo "scale (fpr 1%, repeat 1; ns per operation):"
        { printf 'kind\tn\tbits/item\tfpr\tinsert\tabsent\tfound\tremove\tbatch-ins\tbatch-abs\n'
          csvcols "$out/scale.csv" kind n bits_per_item fpr_measured insert_ns lookup0_ns lookup100_ns remove_ns \
              insert_batch_ns lookup0_batch_ns |
              awk -F'\t' -v OFS='\t' '{ $3 = sprintf("%.2f", $3); $4 = sprintf("%.4f%%", 100 * $4)
                  for (i = 5; i <= NF; i++) $i = $i == "" ? "-" : sprintf("%.1f", $i); print }'; } | column_print
    fi
    if [ -s "$out/threads.csv" ]; then
        echo
        echo "threads (million operations per second, aggregate; cinsert = fk_filter_insert_concurrent):"
        { printf 'kind\tn\tthreads\tcins-1t\tcins-T\tscaling\tcost-vs-ins\tlook-1t\tlook-T\tscaling\n'
          csvcols "$out/threads.csv" kind n threads cinsert_1t_mops cinsert_mops cinsert_vs_insert lookup_1t_mops lookup_mops |
              awk -F'\t' -v OFS='\t' '{ printf "%s\t%s\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n",
                  $1, $2, $3, $4, $5, ($4 > 0 ? $5 / $4 : 0), $6, $7, $8, ($7 > 0 ? $8 / $7 : 0) }'; } | column_print
    fi
    if [ -s "$out/growth.csv" ]; then
        echo
        echo "growth (per run: the last doubling; worst FPR over the doublings):"
        { printf 'filter\trun\tkeys\tbits/key\tworst-fpr\tabsent-ns\tbatch-ns\tinsert-ns\n'
          csvcols "$out/growth.csv" filter doubling keys bits_per_key measured_fpr absent_ns absent_batch_ns insert_ns |
              awk -F'\t' -v OFS='\t' '
                { if ($2 == 0 && seen[$1]) { flush($1) } seen[$1] = 1
                  last[$1] = $0; if ($5 + 0 > worst[$1]) worst[$1] = $5 + 0 }
                function flush(f,   a) { split(last[f], a, "\t"); run[f]++
                  printf "%s\t%s\t%s\t%.2f\t%.4f%%\t%.1f\t%.1f\t%.1f\n", f, run[f], a[3], a[4], 100 * worst[f], a[6], a[7], a[8]
                  worst[f] = 0 }
                END { for (f in last) flush(f) }' | sort; } | column_print
    fi
    echo
    echo "files in $out: $(cd "$out" && ls | tr '\n' ' ')"
} | tee "$out/summary.txt"
exec >&- 2>&-
wait "$tee_pid" 2>/dev/null # so the log is whole when the script returns
