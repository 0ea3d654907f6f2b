# bench/figures/figure_lib.sh: sourced by the figure scripts of this
# folder (`. "$(dirname "$0")/figure_lib.sh"`), not run.
# figure_program NAME prints the path of the measurement program NAME
# (bench/figures/NAME.c) in the build folder $BUILD (default build), or
# says to run make and fails, so `prog=$(figure_program NAME)` stops a
# script under `set -e`.
figure_program() {
    _fp="${BUILD:-build}/bench/figures/$1"
    [ -x "$_fp" ] || { echo "$0: no $_fp; run make first (BUILD=${BUILD:-build})" >&2; return 1; }
    echo "$_fp"
}
