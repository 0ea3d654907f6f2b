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

# fuse: one build from the --insert keys, then each key's three cells and
# their XOR beside its fingerprint (equal for every key of the set); remove
# is refused in the trace; a fingerprint width below cuckoo's 4 is fuse's.
expect 0 fuse --fp-bits 8 apple banana cherry --lookup apple kiwi --remove apple
if grep -q '^build from 3 keys' /tmp/fk_trace_out.$$; then ok; else ko "fuse: no build line"; fi
if [ "$(grep -c '^  cells [0-9]* [0-9]* [0-9]* (segments ' /tmp/fk_trace_out.$$)" -eq 5 ]; then ok; else ko "fuse: not 5 cell lines"; fi
# every inserted key: its XOR equals its fingerprint
awk '/^insert /{ins=1} /^lookup /{ins=0} ins && /^  xor /{ x=$8; sub(",", "", x); if (x != $10) bad=1 } END{exit bad}' /tmp/fk_trace_out.$$ \
    && ok || ko "fuse: an inserted key's XOR is not its fingerprint"
if grep -q 'unsupported: a fuse filter is static' /tmp/fk_trace_out.$$; then ok; else ko "fuse: remove not refused"; fi
expect 0 fuse --fp-bits 1 a b
# ribbon: one build, then each key's band and, per result column, the
# solved bits under it and their parity; an inserted key's result is its
# fingerprint, and the parities read as the result's bits
expect 0 ribbon --fp-bits 6 apple banana cherry --lookup apple kiwi --remove apple
if grep -q '^build from 3 keys (3 distinct): r = 6 result bits' /tmp/fk_trace_out.$$; then ok; else ko "ribbon: no build line"; fi
if [ "$(grep -c '^  band slots [0-9]*\.\.[0-9]* (block ' /tmp/fk_trace_out.$$)" -eq 5 ]; then ok; else ko "ribbon: not 5 band lines"; fi
if [ "$(grep -c '^  column  [0-5]: solved ' /tmp/fk_trace_out.$$)" -eq 30 ]; then ok; else ko "ribbon: not 6 columns a key"; fi
awk '/^insert /{ins=1} /^lookup /{ins=0} ins && /^  result /{ r=$2; sub(",", "", r); if (r != $4) bad=1 }
     /^  column /{ bits = bits $NF } /^  result /{ v = 0; for (i = length(bits); i >= 1; i--) v = v * 2 + substr(bits, i, 1);
       r = $2; sub(",", "", r); if (sprintf("%02x", v) != r) bad=1; bits = "" } END{exit bad}' /tmp/fk_trace_out.$$ \
    && ok || ko "ribbon: an inserted key's result is not its fingerprint, or the parities are not the result"
if grep -q 'unsupported: a ribbon filter is static' /tmp/fk_trace_out.$$; then ok; else ko "ribbon: remove not refused"; fi
expect 2 cuckoo --fp-bits 2 apple

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
# (--max-load 94%: a real filter's packing, so 20 keys in 8's room kick)
expect 0 cuckoo --capacity 8 --fp-bits 8 --max-load 94% a b c d e f g h i j k l m n o p q r s t --lookup a zz --remove a
for word in 'fingerprint 0x' 'i1 ' 'i2 ' 'table after:' 'kick 1: 0x' 'definitely absent'; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "cuckoo trace lacks: $word"; fi
done
expect 0 quotient --capacity 40 --fp-bits 6 a b c d e f g h i j k l m n o p q r s t a a a --lookup a zz --remove a b never
for word in 'quotient filter: 128 slots in 2 block(s)' 'remainder 0x' 'run of quotient' 'shifted' 'count of this remainder in the run: 3' 'table after:' 'definitely absent' 'FK_ENOTFOUND'; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "quotient trace lacks: $word"; fi
done
# expandable (issue 43): capacity 4 and 2-bit fingerprints, so 26 keys make
# three doublings and the oldest entries run out of bits (voids); every
# key inserted is still found, one absent key is answered by a void
keys26="a b c d e f g h i j k l m n o p q r s t u v w x y z"
expect 0 expandable --capacity 4 --fp-bits 2 a b --lookup kiwi mango --insert c d e f g h i j k l m n o p q r s t u v w x y z \
    --lookup $keys26 zz yy xx --remove a
for word in 'expandable filter: 64 slots of 3 bits, 5 quotients, new fingerprints of 2 bits, doubles at 4 entries' \
    'fingerprint 10 (the next 2 bits)' 'run of quotient' 'its entry sits at slot' 'lengths in use 0..2' \
    'in the doubled table:' 'had no bit left to give: moved to the void list' '    void: generation 2, quotient ' \
    'matches every key that had that quotient' 'definitely absent: no entry of the run matches' \
    'definitely absent: the quotient has no run' 'table after: 22 entries'; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "expandable trace lacks: $word"; fi
done
# the doublings come exactly when the table holds 4, 8 and 16 entries
doubled=$(awk '/^insert "/ { k = $2 } /^  doubled: / { printf "%s:%s ", k, $8 }' /tmp/fk_trace_out.$$)
if [ "$doubled" = '"e":4 "i":8 "q":16 ' ]; then ok; else ko "expandable trace: doublings at '$doubled', want at e, i, q (4, 8, 16 entries)"; fi
found=$(awk '/^lookup "[a-z]"$/ { l = 1; next } l && /^  -> / { if ($2 == "maybe") n++; l = 0 } END { print n + 0 }' /tmp/fk_trace_out.$$)
if [ "$found" = 26 ]; then ok; else ko "expandable trace: $found of 26 inserted keys found"; fi
expect 0 blocked --bits 1024 apple banana --lookup apple kiwi --remove apple
for word in 'blocked Bloom filter: 4 blocks' 'lookup "kiwi"' 'FK_EUNSUPPORTED' '    word 7  '; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "blocked trace lacks: $word"; fi
done
# After each insert, word i of the printed block has the key's bit i set.
if awk '/^insert / { ins = 1; next } /^(lookup|remove) / { ins = 0; next }
        /^  hash 0x.*bits/ { for (i = 0; i < 8; i++) bit[i] = $(NF - 7 + i) }
        ins && /^    word [0-7]  / { w = $2; n++; if (substr($3, bit[w] + 1, 1) != "1" || $5 != bit[w]) bad++ }
        END { exit !(n == 16 && !bad) }' /tmp/fk_trace_out.$$; then ok; else ko "blocked trace: a key bit is not set"; fi
# window: a count window of the last 8 inserts (L = 2): each key's generation,
# the refresh of a repeated key, every turn-over and what its sweep freed.
expect 0 window apple banana cherry date elder fig grape apple hazel ice jam kiwi lime mango nut oak \
    pear quince rye sage --lookup apple banana lime sage zzz --remove apple
for word in 'window filter (count): the last 8 inserts' 'L = ceil(8 / 7) = 2 inserts' \
            'a refresh, the slot moves to the current generation' \
            'generation 7 is full (2 inserts): generation 8 starts with tag 0, the tag of generation 0 (8 back)' \
            'traced keys gone with it: "banana"' 'FK_EUNSUPPORTED: a window cannot remove' \
            'generations (current first, slots held): g0 1;'; do
    if grep -qF -- "$word" /tmp/fk_trace_out.$$; then ok; else ko "window trace lacks: $word"; fi
done
# what the trace says matches the window: a key a sweep took is absent, the
# last 8 inserts are present, the refreshed key sits in its refresh's
# generation (3, 7 back from 10), and each sweep's count is the drop in live
# slots (live before + 1 new slot - freed = live after)
awk '/^lookup /{k=$2} /definitely absent/{abs[k]=1} /maybe present/{pres[k]=1}
     END{exit !(abs["\"banana\""] && abs["\"zzz\""] && pres["\"lime\""] && pres["\"sage\""])}' \
    /tmp/fk_trace_out.$$ && ok || ko "window trace: lookups disagree with the sweeps"
if grep -A5 '^lookup "apple"' /tmp/fk_trace_out.$$ | grep -qF 'generation 3 (7 back)'; then ok; else ko "window trace: apple's refresh not in generation 3"; fi
if awk '/^insert /{fresh=0} /takes a free slot/{fresh=1}
        /the sweep freed its/{for(i=1;i<=NF;i++) if($i=="its") freed=$(i+1); swept=1}
        /^  generations /{for(i=1;i<=NF;i++) if($i=="live") now=$(i+1);
                          if (swept && now != live + fresh - freed) bad++; live=now; swept=0; n++}
        END{exit !(n == 20 && !bad)}' /tmp/fk_trace_out.$$; then ok; else ko "window trace: a sweep count disagrees with the live slots"; fi
expect 2 window --fp-bits 3 apple
expect 2 window --capacity 100000 apple

# Zero-length and non-ASCII keys are valid keys, printed escaped.
expect 0 cuckoo "" "$(printf 'caf\303\251')"
if grep -qF 'insert "caf\xc3\xa9"' /tmp/fk_trace_out.$$ && grep -qF 'insert ""' /tmp/fk_trace_out.$$; then ok; else ko "keys not escaped"; fi

# Same seed, same trace; another seed, another trace.
a=$("$cli" trace bloom --seed 1 apple banana) b=$("$cli" trace bloom --seed 1 apple banana)
c=$("$cli" trace bloom --seed 2 apple banana)
if [ "$a" = "$b" ]; then ok; else ko "trace not repeatable"; fi
if [ "$a" != "$c" ]; then ok; else ko "seed ignored"; fi

# The examples of --help, the man page and the issue on the default table:
# every key shows both of its buckets (i1 != i2).
for ex in "apple banana cherry" "apple banana --lookup apple kiwi"; do
    # shellcheck disable=SC2086
    "$cli" trace cuckoo --capacity 8 --fp-bits 8 $ex >/tmp/fk_trace_out.$$ 2>&1
    if awk '/^  i1 / { i1 = $2 } /^  i2 / { n++; if ($2 == i1) same++ } END { exit !(n >= 2 && !same) }' \
        /tmp/fk_trace_out.$$; then ok; else ko "trace cuckoo $ex: a key has i1 = i2 on the default table"; fi
done
if "$cli" trace --help | grep -q -- '--max-load'; then ok; else ko "trace --help lacks --max-load"; fi

rm -f /tmp/fk_trace_out.$$ /tmp/fk_trace_err.$$
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
