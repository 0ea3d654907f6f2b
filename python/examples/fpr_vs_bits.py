#!/usr/bin/env python3
"""Measured false-positive rate against memory (bits per item) for every
filterkit kind, drawn with matplotlib from filterkit.bench rows.

    PYTHONPATH=build/python/lib python3 python/examples/fpr_vs_bits.py \
        --n 100000 --out plots/ref/9_python_fpr_vs_bits.png

Each kind is built for n random 64-bit keys at each target fpr (0.2 down to
1e-4) and probed with n keys never inserted; the dashed grey line is the
lower bound of any filter, log2(1/fpr) bits per item. Each kind has the
colour and marker of the gnuplot plots (plots/kind_styles.txt, read here).
With pandas installed, pandas.DataFrame(rows) gives the same numbers as a
table.
"""
import argparse
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

import filterkit  # noqa: E402

TARGETS = [0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001]
STYLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots",
                      "kind_styles.txt")
# gnuplot's point types (kind_styles.txt) as matplotlib markers: odd filled,
# even hollow, of one shape
GNUPLOT_MARKERS = {1: "+", 2: "x", 4: "s", 5: "s", 6: "o", 7: "o", 8: "^", 9: "^",
                   10: "v", 11: "v", 12: "D", 13: "D", 14: "p", 15: "p"}
UNLISTED = ("#444444", "*", "*")  # a kind not in kind_styles.txt: dark grey, a star (common.gnuplot)


def load_kind_styles(path=STYLES):
    """kind -> (colour, marker, hollow marker) from plots/kind_styles.txt,
    the one table the gnuplot plots draw with too."""
    styles = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.split()
            if len(cols) < 4 or cols[0].startswith("#"):
                continue
            kind, colour, point, hollow = cols[:4]
            styles[kind] = (colour, GNUPLOT_MARKERS.get(int(point), "*"),
                            GNUPLOT_MARKERS.get(int(hollow), "*"))
    return styles


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100000, help="keys per filter (default 100000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the keys and the hash (default 1)")
    ap.add_argument("--out", default="plots/out/python_fpr_vs_bits.png", help="image to write")
    args = ap.parse_args(argv)

    rows = filterkit.bench(n=args.n, fpr=TARGETS, seed=args.seed, repeat=1)
    fig = draw(rows, args.n)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print("wrote %s (%d rows)" % (args.out, len(rows)))
    return 0


def draw(rows, n, styles=None):
    """The figure of filterkit.bench rows: each kind in its kind_styles.txt
    colour and marker (hollow, dashed, for a growing kind's one link)."""
    styles = load_kind_styles() if styles is None else styles
    fig, ax = plt.subplots(figsize=(8, 5.5))
    bits = [0.5 + 0.1 * i for i in range(330)]
    ax.plot(bits, [2 ** -b for b in bits], "--", color="grey", lw=1,
            label="lower bound: log2(1/fpr) bits")
    for kind in filterkit.kinds():
        pts = [(r["bits_per_item"], r["fpr_measured"]) for r in rows
               if r["kind"] == kind and r["error"] is None and r["fpr_measured"] > 0]
        grows = "grows" in filterkit.kind_class(kind).capabilities
        colour, marker, hollow = styles.get(kind, UNLISTED)
        if pts:
            # a growing kind made for n is one link at a tighter fpr: it lies
            # on its inner kind's curve, further down
            ax.plot(*zip(*pts), color=colour, marker=hollow if grows else marker, ms=4, lw=1.2,
                    ls="--" if grows else "-", fillstyle="none" if grows else "full",
                    label=kind + (" (one link)" if grows else ""))
    ax.set_yscale("log")
    ax.set_xlim(0, 40)
    ax.set_ylim(10 ** math.floor(math.log10(min(TARGETS) / 3)), 0.5)
    ax.set_xlabel("memory: bits per item (whole filter / n)")
    ax.set_ylabel("measured false-positive rate (%d keys never inserted)" % n)
    ax.set_title("filterkit %s, n = %d, every kind (filterkit.bench)" % (filterkit.__version__, n))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return fig


if __name__ == "__main__":
    sys.exit(main())
