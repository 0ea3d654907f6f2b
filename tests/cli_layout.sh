#!/usr/bin/env bash
# tests/cli_layout.sh: the floor plan holds (CONTRIBUTING.md, "Layout").
#  - nothing outside bench/ includes a bench/ header, but the bench's own
#    tests (tests/test_bench_*.c, tests/fuzz/fuzz_cli_*.c) and python/src/,
#    which includes the pick component's header (bench/pick/pick.h) and
#    nothing else from bench/, and declares no bench function (fkc_*) by
#    hand: what it calls of bench/ it reaches through that header;
#  - bench/pick/ (the component) includes nothing of the CLI (bench/cli/,
#    bench/trace/), and no function in bench/pick/ or bench/cli/ is longer
#    than 150 lines;
#  - bench/figures/ (the measurement programs) includes only the library:
#    common/, the kinds and the registry, never bench/ or tests/;
#  - common/ includes no kind and not the registry; no kind includes
#    another kind, the registry, bench/ or redis/ (scalable/ reaches its
#    inner kinds through their fk_ops only);
#  - every kind named in the Makefile's KINDS has its folder with the files
#    by role (<kind>.h, <kind>_internal.h, <kind>.c), every .c there is
#    <kind>.c or <kind>_<role>.c and none is under 60 lines, and the
#    registry names its ops table (registry/registry.c); the test-only
#    kinds of TEST_KINDS (tests/<kind>/) have the same files by role. A .c
#    under 60 lines is accepted when it is the body file of the header of
#    its name (as cuckoo/cuckoo_table.c beside cuckoo_table.h);
#  - no include circle among a kind's files, nor between folders (none
#    in bench/ runs back up): see circles() below;
#  - the clients (redis/, python/src/, and bench/ but bench/trace/) reach
#    a kind only through the generic door (common/filter.h: its
#    capabilities and the advance and describe slots, issue 49): no
#    <kind>_internal.h, no call of fk_window_* or fk_expandable_*, no
#    comparison with an ops table (fk_*_ops or the bench's fkc_*_ops).
#    The files excepted are named below, each with its reason.
# Reads the tree only; needs no build.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else ko "$what"; fi; }

# Include circles. A file's unit is the header stem it is named after
# (cuckoo_table.h and cuckoo_table.c are one unit; cuckoo_batch.c belongs to
# cuckoo); with `folder` the unit is its folder. Unit A needs unit B when a
# file of A includes a file of B, or a header of A declares a function whose
# body is in B. A unit that needs itself through another is a circle: the
# bodies of a header live in a file that includes it (cuckoo_table.h's
# bodies once in cuckoo.c), or an include runs back up (bench/trace/trace.h
# defined in bench/cli/). Prints one line per circle.
# $1 = unit or folder, then the folders to read.
circles() {
    local by=$1; shift
    find "$@" -name '*.[ch]' 2>/dev/null | sort | xargs awk -v by="$by" '
    function dirof(p) { sub(/\/[^\/]*$/, "", p); return p }
    function norm(p,   n, a, i, out, k, st) {
        n = split(p, a, "/"); k = 0
        for (i = 1; i <= n; i++) {
            if (a[i] == "." || a[i] == "") continue
            if (a[i] == ".." && k > 0 && st[k] != "..") { k--; continue }
            st[++k] = a[i]
        }
        out = st[1]; for (i = 2; i <= k; i++) out = out "/" st[i]
        return out
    }
    FNR == 1 { file = FILENAME; sub(/^\.\//, "", file); files[file] = 1 }
    /^[ \t]*#[ \t]*include[ \t]*"/ {
        inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
        incs[file, ++ninc[file]] = norm(dirof(file) "/" inc)
        next
    }
    /^[A-Za-z_]/ && !/^(static|typedef|extern|return|case|default)[^A-Za-z0-9_]/ && /\(/ {
        line = $0; sub(/\(.*/, "", line)
        if (line !~ /[A-Za-z_][A-Za-z0-9_]*[ \t]*$/ || line !~ /[ *\t]/) next
        sub(/[ \t]+$/, "", line); sub(/.*[^A-Za-z0-9_]/, "", line)
        if (file ~ /\.h$/) decl[file, ++ndecl[file]] = line
        else def[line] = (line in def) ? def[line] SUBSEP file : file
    }
    END {
        # units: a header stem (name minus .h and _internal) and the files named after it
        for (f in files) if (f ~ /\.h$/) { s = f; sub(/\.h$/, "", s); sub(/_internal$/, "", s); stem[s] = 1 }
        for (f in files) {
            s = f; sub(/\.[ch]$/, "", s); sub(/_internal$/, "", s); u = s
            best = ""
            for (t in stem) if ((s == t || index(s, t "_") == 1) && dirof(s) == dirof(t) && length(t) > length(best)) best = t
            unit[f] = by == "folder" ? dirof(f) : best != "" ? best : u
        }
        for (f in files) {
            for (i = 1; i <= ninc[f]; i++) { g = incs[f, i]; if ((g in files) && unit[g] != unit[f]) edge[unit[f], unit[g]] = f " includes " g }
            for (i = 1; i <= ndecl[f]; i++) {
                n = decl[f, i]; if (!(n in def)) continue
                m = split(def[n], ds, SUBSEP)
                for (j = 1; j <= m; j++) if (unit[ds[j]] != unit[f]) edge[unit[f], unit[ds[j]]] = f " declares " n ", defined in " ds[j]
            }
        }
        for (k in edge) { split(k, p, SUBSEP); nodes[p[1]] = 1; out[p[1]] = out[p[1]] SUBSEP p[2] }
        # a circle: a unit that reaches itself
        for (a in nodes) {
            delete seen; delete from; top = 0; stack[++top] = a; found = 0
            while (top > 0 && !found) {
                x = stack[top--]; m = split(substr(out[x], 2), nx, SUBSEP)
                for (j = 1; j <= m; j++) {
                    y = nx[j]
                    if (y == a) { from[y] = x; found = 1; break }
                    if (!(y in seen)) { seen[y] = 1; from[y] = x; stack[++top] = y }
                }
            }
            if (!found) continue
            path = ""; y = a; x = from[a]
            do { path = edge[x, y] "; " path; y = x; x = from[y] } while (y != a)
            key = path; if (!(key in told)) { told[key] = 1; print "circle through " a ": " path }

        }
    }'
}

kinds=$(sed -n 's/^KINDS *:= *//p' Makefile)
check "the Makefile names its kinds on one KINDS line ($kinds)" test -n "$kinds"

# The quoted includes of the C files under a folder (or outside one).
includes_in() { grep -rn --include='*.c' --include='*.h' -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$@" 2>/dev/null; }

bench_tests='^(bench/|tests/test_bench_|tests/fuzz/fuzz_cli_)'
outside_bench=$(git ls-files '*.c' '*.h' 2>/dev/null | grep -v -E "$bench_tests")
[ -n "$outside_bench" ] || outside_bench=$(find . -name '*.[ch]' ! -path './build*' | sed 's|^\./||' | grep -v -E "$bench_tests")
bad=$(printf '%s\n' $outside_bench | xargs grep -n -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(\.\./)*bench/' 2>/dev/null |
      grep -v -E '^python/src/[A-Za-z0-9_]+\.c:[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*"bench/pick/pick\.h"')
check "no file outside bench/ includes from bench/ (python/src/: bench/pick/pick.h only): $bad" test -z "$bad"
got=$(grep -l -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"bench/pick/pick\.h"' python/src/*.c 2>/dev/null)
check "python/src/ reaches the pick component through its header (bench/pick/pick.h)" test -n "$got"
# a hand-written prototype of a bench function hides the dependency from the check above
bad=$(grep -n -H -E '^[A-Za-z_][A-Za-z0-9_ \*]*[ \*]fkc_[A-Za-z0-9_]+[[:space:]]*\([^)]*\)[[:space:]]*;' python/src/*.c python/src/*.h 2>/dev/null)
check "python/src/ declares no bench function by hand (include bench/pick/pick.h): $bad" test -z "$bad"
bad=$(includes_in bench/pick | grep -E '"\.\./(cli|trace)/')
check "bench/pick/ (the pick component) includes nothing of the CLI (bench/cli/, bench/trace/): $bad" test -z "$bad"

# Function lengths: a function's body from its opening line (a definition
# starts at the left margin and its body's "{" is alone on the next line, as
# every function in the tree is written) to its closing "}" at the margin.
long_functions() {
    awk -v max="$1" '
        FNR == 1 { name = ""; start = 0 }
        /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { name = $0; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name); head = FNR; next }
        /^\{/ && name != "" && FNR <= head + 3 { start = FNR; next }
        /^\}/ && start { if (FNR - start + 1 > max) printf "%s:%d %s (%d lines)\n", FILENAME, start, name, FNR - start + 1; start = 0; name = "" }
    ' "${@:2}"
}
bad=$(long_functions 150 bench/pick/*.c bench/cli/*.c)
check "no function in bench/pick/ or bench/cli/ is longer than 150 lines: $bad" test -z "$bad"

lib_dirs=$(echo common $kinds registry | tr ' ' '|')
bad=$(includes_in bench/figures | grep -v -E "#[[:space:]]*include[[:space:]]*\"\.\./\.\./($lib_dirs)/[A-Za-z0-9_]+\.h\"")
check "bench/figures/ includes only the library (common/, the kinds, registry/): $bad" test -z "$bad"

bad=$(includes_in common | grep -E "\"\.\./($(echo $kinds registry bench redis | tr ' ' '|'))/")
check "common/ includes no kind, registry, bench or redis: $bad" test -z "$bad"

# $1 = the kind's folder, $2 = its name: the files by role, the .c names
# and sizes.
roles() {
    local dir=$1 k=$2 c lines
    check "kind folder $dir/ exists" test -d "$dir"
    for role in "$k.h" "${k}_internal.h" "$k.c"; do
        check "$dir/ has $role" test -f "$dir/$role"
    done
    for c in "$dir"/*.c; do
        [ -f "$c" ] || continue
        case "$(basename "$c")" in "$k.c"|"${k}_"*.c) ok;; *) ko "$c is not named $k.c or ${k}_<role>.c";; esac
        lines=$(wc -l < "$c")
        # a body file of its own header (cuckoo_table.c beside
        # cuckoo_table.h) is what keeps that header out of a circle
        [ -f "${c%.c}.h" ] && { ok; continue; }
        check "$c has at least 60 lines (has $lines; fold it into its role file)" test "$lines" -ge 60
    done
    bad=$(circles unit "$dir")
    check "no include circle among $dir/'s files: $bad" test -z "$bad"
}

for k in $(sed -n 's/^TEST_KINDS *:= *//p' Makefile); do
    roles "tests/$k" "$k"
done

for k in $kinds; do
    roles "$k" "$k"
    others=$(echo $kinds registry bench redis | tr ' ' '\n' | grep -v -x "$k" | tr '\n' '|')
    bad=$(includes_in "$k" | grep -E "\"\.\./(${others%|})/")
    check "$k/ includes no other kind, registry, bench or redis: $bad" test -z "$bad"
    check "registry/registry.c lists $k" grep -q -E "X\(fk_${k}[a-z_]*_ops\)" registry/registry.c
done

# The clients and the door: redis/, python/src/ and bench/ but
# bench/trace/ (a kind's insides, by design). Excepted, one by one:
#  redis/cmd_bf.c, redis/cmd_cf.c, redis/util.c, redis/value.c: RedisBloom's
#    BF.*/CF.* replies (BF.DEBUG, CF.DEBUG, CF.INFO) show a chain's links
#    and a cuckoo table's buckets and kick limit as RedisBloom does, and
#    choose the bloom/cuckoo table of a BF/CF key (by name through the
#    registry or the table itself); no generic row carries those yet;
#  bench/cli/cmd_theory.c: shows a kind's theory from its insides (the
#    blocked and counting tables' internals);
#  bench/baselines/*.c: the benchmark's own kinds (fkc_*_ops), each
#    recognising its own tables as a kind's file does (a baseline's shape
#    and lifetime, which kinds are baselines, libbloom loaded on demand);
#    libbloom.c sizes with the library's common/sizing_internal.h;
#  bench/figures/chain_figures.c, quotient_figures.c, ribbon_attempts.c:
#    measurement programs of a kind's insides (each link of a chain; the
#    counting quotient filter's space and fill; how often a ribbon's first
#    solve fails at a given overhead eps, for PAPER_NOTES).
door_excepted='^(redis/cmd_bf\.c|redis/cmd_cf\.c|redis/util\.c|redis/value\.c|bench/cli/cmd_theory\.c|bench/baselines/[a-z_]+\.c|bench/figures/(chain|quotient)_figures\.c|bench/figures/ribbon_attempts\.c):'
door_files=$(find redis python/src bench -name '*.[ch]' ! -path 'bench/trace/*' 2>/dev/null | sort)
bad=$(printf '%s\n' $door_files | xargs grep -n -H -E '#[[:space:]]*include[[:space:]]*"[^"]*_internal\.h"' 2>/dev/null |
    grep -v -E '^bench/pick/[a-z_]+\.[ch]:[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*"pick_internal\.h"' |
    grep -v -E "$door_excepted")
check "redis/, python/src/, bench/ (but trace/) include no <kind>_internal.h: $bad" test -z "$bad"
bad=$(printf '%s\n' $door_files | xargs grep -n -H -E '\bfk_(window|expandable)_[a-z0-9_]+[[:space:]]*\(' 2>/dev/null |
    grep -v -E '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)' | grep -v -E "$door_excepted")
check "redis/, python/src/, bench/ (but trace/) call no fk_window_*/fk_expandable_* function: $bad" test -z "$bad"
bad=$(printf '%s\n' $door_files | xargs grep -n -H -E '[!=]=[[:space:]]*&fkc?_[a-z0-9_]+_ops\b|&fkc?_[a-z0-9_]+_ops[[:space:]]*[!=]=' 2>/dev/null |
    grep -v -E "$door_excepted")
check "redis/, python/src/, bench/ (but trace/) compare no ops table: $bad" test -z "$bad"

bad=$(circles folder common $kinds registry bench redis python/src)
check "no include circle between folders (and none running back up in bench/): $bad" test -z "$bad"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
