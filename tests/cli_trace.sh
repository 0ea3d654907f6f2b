#!/usr/bin/env bash
# tests/cli_trace.sh: `filterkit trace` argument handling and output shape.
# FK_BUILD=<build dir> (default build). The trace's content is checked
# against the filters' real state by tests/test_bench_trace.c; this script checks
# the exit statuses, the one-line errors and that each kind prints its steps.
set -u
cli="${FK_BUILD:-build}/filterkit"
pass=0
fail=0

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect STATUS ARGS...: runs `filterkit trace ARGS`, checks the exit status.
expect() {
    local want=$1; shift
    "$cli" trace "$@" >/tmp/fk_trace_out.$$ 2>/tmp/fk_trace_err.$$
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else ko "trace $* exited $got, want $want"; fi
}

# Bad arguments: exit 2, a one-line "filterkit trace: ..." error, then usage.
for args in "" "bogus apple" "bloom" "bloom --frobnicate apple" "bloom --capacity" \
            "bloom --capacity 0 apple" "bloom --capacity -3 apple" "bloom --fpr 1.5 apple" \
            "bloom --fpr abc apple" "bloom --hashes 0 apple" "bloom --hashes 65 apple" \
            "bloom --bits 100000 apple" "counting --counter-bits 5 apple" \
            "cuckoo --fp-bits 3 apple" "cuckoo --fp-bits 33 apple" "bloom --seed x apple" \
            "bloom --capacity 100000 apple" "cuckoo --capacity 100000 apple" \
            "blocked --capacity 100000 apple"; do
    # shellcheck disable=SC2086
    expect 2 $args
    if head -n 1 /tmp/fk_trace_err.$$ | grep -q '^filterkit trace: '; then ok; else ko "no one-line error for: $args"; fi
    if [ ! -s /tmp/fk_trace_out.$$ ]; then ok; else ko "stdout not empty for: $args"; fi
done

# Help: exit 0, usage on stdout.
expect 0 --help
if grep -q '^usage: filterkit trace' /tmp/fk_trace_out.$$; then ok; else ko "--help prints no usage"; fi
expect 0 cuckoo -h

# Each kind traces inserts, lookups and removes; `--` lets a key start with --.
expect 0 bloom apple banana --lookup apple kiwi --remove apple -- --dashed
for word in 'insert "apple"' 'lookup "kiwi"' 'remove "apple"' 'remove "--dashed"' 'FK_EUNSUPPORTED' 'probes '; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "bloom trace lacks: $word"; fi
done
expect 0 counting --fpr 10% apple apple --remove apple apple apple
for word in 'counters at probes' 'FK_ENOTFOUND' 'counting Bloom filter: m = '; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "counting trace lacks: $word"; fi
done
expect 0 cuckoo --capacity 8 --fp-bits 8 a b c d e f g h i j k l m n o p q r s t --lookup a zz --remove a
for word in 'fingerprint 0x' 'i1 ' 'i2 ' 'table after:' 'kick 1: 0x' 'definitely absent'; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "cuckoo trace lacks: $word"; fi
done
expect 0 blocked --bits 1024 apple banana --lookup apple kiwi --remove apple
for word in 'blocked Bloom filter: 4 blocks' 'lookup "kiwi"' 'FK_EUNSUPPORTED' '    word 7  '; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "blocked trace lacks: $word"; fi
done
# After each insert, word i of the printed block has the key's bit i set.
if awk '/^insert / { ins = 1; next } /^(lookup|remove) / { ins = 0; next }
        /^  hash 0x.*bits/ { for (i = 0; i < 8; i++) bit[i] = $(NF - 7 + i) }
        ins && /^    word [0-7]  / { w = $2; n++; if (substr($3, bit[w] + 1, 1) != "1" || $5 != bit[w]) bad++ }
        END { exit !(n == 16 && !bad) }' /tmp/fk_trace_out.$$; then ok; else ko "blocked trace: a key bit is not set"; fi
# Zero-length and non-ASCII keys are valid keys, printed escaped.
expect 0 cuckoo "" "$(printf 'caf\303\251')"
if grep -qF 'insert "caf\xc3\xa9"' /tmp/fk_trace_out.$$ && grep -qF 'insert ""' /tmp/fk_trace_out.$$; then ok; else ko "keys not escaped"; fi

# Same seed, same trace; another seed, another trace.
a=$("$cli" trace bloom --seed 1 apple banana) b=$("$cli" trace bloom --seed 1 apple banana)
c=$("$cli" trace bloom --seed 2 apple banana)
if [ "$a" = "$b" ]; then ok; else ko "trace not repeatable"; fi
if [ "$a" != "$c" ]; then ok; else ko "seed ignored"; fi

rm -f /tmp/fk_trace_out.$$ /tmp/fk_trace_err.$$
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
