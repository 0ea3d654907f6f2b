# tests/build_knobs.sh: sourced by the test scripts that must know how a
# build folder was configured (not a test itself). The Makefile writes a
# folder's configuration into its config-<checksum>.stamp (one line,
# `CC=... | CFLAGS=... | ... | SAN=... | ...`); these read it back, so a
# sanitizer build is known by its SAN= knob in whatever folder it was
# made, not by the folder's name.
#   build_stamp DIR   the stamp's line (empty: DIR has no stamp)
#   build_san DIR     its SAN= value (empty: not a sanitizer build)
#   build_opt DIR     its optimisation flag (-O1, -O2, ...), for a test's
#                     own `make ... BUILD=DIR`, which must pass the same
#                     knobs or the folder is rebuilt in another configuration
build_stamp() { cat "$1"/config-*.stamp 2>/dev/null | head -n 1; }
build_san() { build_stamp "$1" | sed -n 's/.*| SAN=\([^ |]*\) .*/\1/p'; }
build_opt() { build_stamp "$1" | sed -n 's/.*CFLAGS=.* \(-O[0-3sg]\) .*/\1/p'; }
