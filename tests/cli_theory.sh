#!/usr/bin/env bash
# tests/cli_theory.sh: `filterkit theory` (the PAPER_NOTES tables the bench
# does not cover). FK_BUILD=<build dir> (default build). Checks argument
# handling, and that at a small n the measured columns agree with the theory
# columns printed beside them (fill, FPR, item estimate, counter bound).
set -u
cli="${FK_BUILD:-build}/filterkit"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

for args in "--n" "--n 0" "--n 3" "--n x" "--fpr 2" "--fpr" "--table nope" "--bogus 1" "--seed -1"; do
    # shellcheck disable=SC2086
    "$cli" theory $args >/dev/null 2>/tmp/fk_theory_err.$$
    rc=$?
    if [ "$rc" -eq 2 ] && head -n 1 /tmp/fk_theory_err.$$ | grep -q '^filterkit theory: '; then ok; else ko "theory $args: exit $rc"; fi
done
if "$cli" theory --help | grep -q '^usage: filterkit theory'; then ok; else ko "--help"; fi

out=$("$cli" theory --n 20000 --negatives 200000 --seed 3) || ko "theory run failed"

# k table: measured fill within 0.01 of 1 - e^(-kn/m), measured FPR within
# 25% of the formula, and the optimal row has the smallest theory FPR.
# section NAME: the rows of the table under the "### ..." heading that
# contains NAME.
section() { printf '%s\n' "$out" | awk -v name="$1" '/^### / { on = index($0, name) > 0; next } on && /^\| [0-9A]/'; }

if section "probes k" | awk -F'|' '
    {
        rows++; th = $3 + 0; me = $4 + 0; fth = $5 + 0; fme = $6 + 0
        if (fme - fth > 0.01 || fth - fme > 0.01) bad++
        if (me < 0.75 * th || me > 1.25 * th) bad++
        if ($2 ~ /optimal/) opt = th
        if (min == "" || th < min) min = th
    }
    END { exit !(rows == 7 && !bad && opt == min) }'; then ok; else ko "k table disagrees with theory"; fi

# estimate table: every estimate within 2% of the keys inserted.
if section "estimated from the fill" | awk -F'|' '
    /^\| [0-9]+ \| [0-9]+ \|/ { rows++; t = $2 + 0; e = $4 + 0; if (e < 0.98 * t || e > 1.02 * t) bad++ }
    END { exit !(rows == 4 && !bad) }'; then ok; else ko "estimate table off"; fi

# union: the OR filter's estimate within 2% of |A u B|; the AND filter
# overestimates |A n B| (it keeps bits set by A \ B and B \ A together).
if section "union and intersection" | awk -F'|' '
    /A OR B/ { t = $3 + 0; e = $4 + 0; orok = (e > 0.98 * t && e < 1.02 * t) }
    /A AND B/ { t = $3 + 0; e = $4 + 0; andok = (e > t) }
    END { exit !(orok && andok) }'; then ok; else ko "union/intersection table off"; fi

# counters: 4-bit counters never saturate at the optimal fill; 4x the memory.
if section "Counting" | awk -F'|' '
    /^\| 4 \| [0-9]+ \|/ { found = 1; if ($5 + 0 >= 15 || $7 + 0 != 0 || $10 + 0 < 3.99 || $10 + 0 > 4.01) bad++ }
    END { exit !(found && !bad) }'; then ok; else ko "counter table off"; fi

# blocked: four targets, each sized to its Poisson-averaged theory (not the
# naive one), and measured within 25% of it at n = 20000.
if section "Blocked" | awk -F'|' '
    { rows++; tgt = $2 + 0; th = $7 + 0; me = $8 + 0
      if (th > tgt || th < 0.8 * tgt || me < 0.75 * th || me > 1.25 * th || $6 + 0 >= th) bad++ }
    END { exit !(rows == 4 && !bad) }'; then ok; else ko "blocked table off"; fi

rm -f /tmp/fk_theory_err.$$
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
