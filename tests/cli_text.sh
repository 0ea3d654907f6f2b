#!/usr/bin/env bash
# tests/cli_text.sh: the prose a newcomer reads first agrees with the code
# (issue 40): every registered kind is named where the kinds are listed
# (man page, pkg-config description, PAPER_NOTES' opening), no text says
# cuckoo tables are a power of two of buckets (any count since 0.3.0),
# PAPER_NOTES does not promise a 2-minute `make bench`, README's inner
# loop is CONTRIBUTING's and its Python line runs the interpreter `make
# python` builds for.
source "$(dirname "$0")/lib_cli.sh"

# the registry's kinds, as build --help lists them
kinds=$("$fk" build --help | sed -n '/kinds:/,/^  --/p' | grep -v '^  --' | sed 's/.*kinds://' | tr ',' '\n' | tr -d ' ' | grep .)
check "build --help lists the kinds (got: $(echo $kinds))" sh -c "echo '$kinds' | grep -qx cuckoo && echo '$kinds' | grep -qx quotient"
man_desc=$(sed -n '/^\.SH DESCRIPTION/,/^\.SH /p' "$root/filterkit.1" | sed 's/\\-/-/g')
pc_desc=$(grep '^Description:' "$root/filterkit.pc.in")
notes_head=$(sed -n '1,/^```/p' "$root/PAPER_NOTES.md")
for k in $kinds; do
    base=${k#scalable-}
    word=$base
    check "man page DESCRIPTION names $k" grep -qi -- "$k" <<<"$man_desc"
    check "filterkit.pc.in's Description names $base" grep -qi -- "$word" <<<"$pc_desc"
    check "PAPER_NOTES' opening names $base" grep -qi -- "$word" <<<"$notes_head"
done
check "pc Description names the growing kinds" grep -qi "scalable" <<<"$pc_desc"
check "PAPER_NOTES' opening: not 'the three filters'" sh -c "! grep -qi 'three filters' <<'X'
$notes_head
X"
check "PAPER_NOTES' opening: make bench is not 'about 2 minutes'" \
    sh -c "! sed -n '1,30p' '$root/PAPER_NOTES.md' | grep -q 'about 2 minutes on 2 cores'"
check "no power-of-two cuckoo table sizes in docs/bench.md, PAPER_NOTES' tables or 'filterkit columns'" \
    sh -c "! grep -qE 'power of two of buckets|buckets rounded up to a power of two' '$root/docs/bench.md' '$root/PAPER_NOTES.md' '$root/bench/scripts/paper_tables.sh' && ! '$fk' columns | grep -q 'power of two of buckets'"
readme_build=$(sed -n '/^## Build and test/,/^### /p' "$root/README.md")
check "README's build block has make check and make check-KIND (CONTRIBUTING's loop)" \
    sh -c "grep -q '^make check ' <<'X' && grep -q '^make check-' <<'X2' && grep -q 'make check-<kind>' '$root/CONTRIBUTING.md'
$readme_build
X
$readme_build
X2"
py=$(sed -n 's/^PYTHON *?= *//p' "$root/Makefile")
check "README's Python line runs $py, the interpreter make python builds for" \
    grep -q "^PYTHONPATH=build/python/lib $py -c" "$root/README.md"
help=$(make -s -C "$root" help 2>/dev/null)
check "make help lists redis and the deps-* targets" \
    sh -c "grep -q '^make redis' <<'X' && grep -q 'deps-redis' <<'X2'
$help
X
$help
X2"
finish
