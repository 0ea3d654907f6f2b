#!/usr/bin/env bash
# tests/cli_threads.sh: `filterkit build --threads T` and `bench --threads T`.
# Run by tests/run.sh with FK_BUILD=<build dir>; prints `N passed, N failed`.
#  - every listed kind either builds with T threads (every distinct line
#    found, the item count = distinct lines) or is refused with exit 2;
#  - kinds whose inserts commute (OR of bits, sums of counters) write the
#    same bytes as a one-thread --unique-input build of the distinct lines
#    (tests/test_concurrent.c checks the same property in the library,
#    kind by kind through fk_ops);
#  - bench --threads fills the thread columns and prints the second table.
source "$(dirname "$0")/lib_cli.sh"

if [ ! -x "$fk" ]; then
    echo "no CLI at $fk" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

# keys with repeats, CRLF endings and an empty line
for i in $(seq 1 3000); do printf 'key-%d\r\n' $((i % 2000)); done >"$tmp/keys"
printf '\n' >>"$tmp/keys"
tr -d '\r' <"$tmp/keys" | sort -u >"$tmp/distinct"
distinct=$(wc -l <"$tmp/distinct")
order_free="bloom blocked counting"

kinds=$("$fk" help 2>&1 | awk '/^filter kinds/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{exit}')
check "help lists kinds" [ -n "$kinds" ]
for kind in $kinds; do
    "$fk" build --kind "$kind" --fpr 0.01 --threads 3 <"$tmp/keys" >"$tmp/$kind.fk" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "no concurrent insert" "$tmp/err"; then
        ok
        continue
    fi
    check "$kind: build --threads 3 exits 0 ($(cat "$tmp/err"))" [ $rc -eq 0 ]
    missing=$("$fk" query -v "$tmp/$kind.fk" <"$tmp/distinct" | wc -l)
    check "$kind: every key found ($missing missing)" [ "$missing" -eq 0 ]
    items=$("$fk" info "$tmp/$kind.fk" | awk '$1 == "items:" {print $2; exit}')
    check "$kind: items $items = distinct lines $distinct" [ "$items" = "$distinct" ]
    case " $order_free " in *" $kind "*)
        "$fk" build --kind "$kind" --fpr 0.01 --unique-input --capacity "$distinct" \
            <"$tmp/distinct" >"$tmp/$kind.1.fk"
        check "$kind: same bytes as a one-thread build" cmp -s "$tmp/$kind.fk" "$tmp/$kind.1.fk" ;;
    esac
done
check "--threads 0 is a usage error" \
    bash -c '"$0" build --kind bloom --fpr 0.01 --threads 0 </dev/null >/dev/null 2>&1; [ $? -eq 2 ]' "$fk"

# bench --threads: the thread columns and the second table; with the
# window, whose lookups beside concurrent inserts are a call of their own
# (the mixed phase must make it: under ThreadSanitizer, in test-tsan, a
# plain lookup there races with the inserts)
if "$fk" bench --filters bloom,window --n 5000 --repeat 1 --lookups 5000 \
       --no-fill --threads 2 --format csv --out - >"$tmp/b.csv" 2>"$tmp/err"; then ok
else bad "bench --threads 2 failed: $(tail -5 "$tmp/err")"; fi
col() { awk -F, -v name="$1" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == name) c = i; next}
                              $1 == "bloom" {print $c; exit}' <(grep -v '^#' "$tmp/b.csv"); }
check "threads column is 2" [ "$(col threads)" = 2 ]
for c in cinsert_1t_mops cinsert_mops lookup_1t_mops lookup_mops cinsert_vs_insert mixed_1t_mops mixed_mops \
         ceiling_cinsert ceiling_lookup; do
    v=$(col $c)
    check "$c is a positive number ($v)" awk -v v="$v" 'BEGIN{exit !(v + 0 > 0)}'
done
if "$fk" bench --filters bloom --n 20000 --repeat 1 --lookups 20000 --no-fill --threads 2 --out - \
       2>/dev/null | grep -q '^threads: million operations per second'; then ok
else bad "bench --threads table"; fi
if "$fk" bench --threads 100 --out - >/dev/null 2>&1; then bad "--threads 100 accepted"; else ok; fi

# bench/figures/threads_runs.sh: a row per kind, each run's scaling and
# ceiling, and medians that are those runs' (two runs: their mean)
here=$(cd "$(dirname "$0")" && pwd)
if BUILD=$build sh "$here/../bench/figures/threads_runs.sh" 2 bloom,blocked 5000 2 5000 \
       >"$tmp/runs" 2>"$tmp/err"; then ok; else bad "threads_runs.sh failed: $(cat "$tmp/err")"; fi
for kind in bloom blocked; do
    row=$(grep "^| $kind |" "$tmp/runs")
    check "threads_runs: a row for $kind" [ -n "$row" ]
    check "threads_runs: $kind's medians are its runs' ($row)" awk -F'|' -v row="$row" 'BEGIN {
        split(row, f, "|")
        n = split(f[3], runs, ",")
        if (n != 2) exit 1
        for (i = 1; i <= 2; i++) {
            if (split(runs[i], p, /[ ()]+/) < 3) exit 1
            s[i] = p[2] + 0; c[i] = p[3] + 0
            if (s[i] <= 0 || c[i] <= 0) exit 1
        }
        ms = (s[1] + s[2]) / 2; mc = (c[1] + c[2]) / 2
        mr = (s[1] / c[1] + s[2] / c[2]) / 2
        d1 = f[4] - ms; d2 = f[5] - mc; d3 = f[6] - mr
        exit !(d1 * d1 < 1e-4 && d2 * d2 < 1e-4 && d3 * d3 < 1e-4)
    }'
done
check "threads_runs: BUILD without a CLI is refused" \
    bash -c 'BUILD=/nonexistent sh "$0" 1 bloom 1000 2 >/dev/null 2>&1; [ $? -ne 0 ]' \
    "$here/../bench/figures/threads_runs.sh"
finish
