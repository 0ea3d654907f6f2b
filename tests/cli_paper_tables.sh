#!/usr/bin/env bash
# tests/cli_paper_tables.sh: bench/scripts/paper_tables.sh rewrites only the
# generated blocks of a notes file, leaves the prose and unknown blocks
# alone, gives the same output twice, and knows every block PAPER_NOTES.md
# asks for. Uses only the fast, deterministic trace group.
# FK_BUILD=<build dir> (default build).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "${FK_BUILD:-build}" && pwd)
script="$root/bench/scripts/paper_tables.sh"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/notes.md" <<'EOF'
# prose before
<!-- generated:trace-bloom -->
OLD CONTENT
<!-- /generated -->
prose between
<!-- generated:no-such-block -->
KEPT CONTENT
<!-- /generated -->
prose after
EOF

if "$script" --build "$build" --only trace --update "$tmp/notes.md" 2>"$tmp/err"; then ok; else ko "script failed: $(cat "$tmp/err")"; fi
if ! grep -q 'OLD CONTENT' "$tmp/notes.md"; then ok; else ko "stale block content kept"; fi
if grep -q '^\$ build/filterkit trace bloom ' "$tmp/notes.md"; then ok; else ko "trace not written into its block"; fi
if grep -q 'KEPT CONTENT' "$tmp/notes.md"; then ok; else ko "a block the script does not know was changed"; fi
for line in '# prose before' 'prose between' 'prose after'; do
    if grep -qx "$line" "$tmp/notes.md"; then ok; else ko "prose line lost: $line"; fi
done
if [ "$(grep -c '^<!-- generated:' "$tmp/notes.md")" -eq 2 ] && [ "$(grep -c '^<!-- /generated -->' "$tmp/notes.md")" -eq 2 ]; then ok; else ko "markers changed"; fi

cp "$tmp/notes.md" "$tmp/first.md"
"$script" --build "$build" --only trace --update "$tmp/notes.md" 2>/dev/null
if cmp -s "$tmp/first.md" "$tmp/notes.md"; then ok; else ko "second run differs (traces must be deterministic)"; fi

# Every block PAPER_NOTES.md declares is one the script can write.
# Names come from `} | section NAME`, `trace_block NAME` and the theory
# loop's table:NAME pairs.
known=$( { sed -n 's/^ *} | section \([a-z0-9-]*\).*/\1/p; s/^trace_block \([a-z0-9-]*\).*/\1/p' "$script"
           sed -n 's/^for t in \(.*:.*\); do$/\1/p' "$script" | tr ' ' '\n' | sed -n 's/^[a-z]*:\([a-z0-9-]*\)$/\1/p'; } | sort -u)
for name in $(sed -n 's/^<!-- generated:\([a-z0-9-]*\) -->$/\1/p' "$root/PAPER_NOTES.md"); do
    if printf '%s\n' "$known" | grep -qx "$name"; then ok; else ko "PAPER_NOTES.md block '$name' has no generator"; fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
