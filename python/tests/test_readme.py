"""docs/python.md (the Python section README links to) runs as written."""
import os
import re

from conftest import ROOT


def test_readme_python_example(tmp_path, monkeypatch):
    text = open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8").read()
    section = text.split("# Filters in Python", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "no python block in docs/python.md"
    monkeypatch.chdir(tmp_path)
    for code in blocks:
        exec(compile(code, "docs/python.md", "exec"), {"__name__": "readme"})


def test_example_script_runs(tmp_path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "fpr_vs_bits", os.path.join(ROOT, "python", "examples", "fpr_vs_bits.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "plot.png"
    mod.TARGETS = [0.1, 0.01]
    assert mod.main(["--n", "2000", "--out", str(out)]) == 0
    assert out.stat().st_size > 1000


def test_example_draws_each_kind_in_the_gnuplot_plots_colour(tmp_path):
    """The Python plot uses plots/kind_styles.txt, the gnuplot plots' table
    (it drew in matplotlib's default colour cycle): every kind's line has
    its row's colour, a growing kind's one link the hollow marker."""
    import importlib.util
    import matplotlib.colors
    import filterkit
    spec = importlib.util.spec_from_file_location(
        "fpr_vs_bits", os.path.join(ROOT, "python", "examples", "fpr_vs_bits.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    table = {}
    with open(os.path.join(ROOT, "plots", "kind_styles.txt"), encoding="utf-8") as f:
        for line in f:
            cols = line.split()
            if len(cols) >= 4 and not cols[0].startswith("#"):
                table[cols[0]] = cols[1]
    kinds = filterkit.kinds()
    rows = [{"kind": k, "error": None, "bits_per_item": 8.0 + i, "fpr_measured": 0.01}
            for i, k in enumerate(kinds)]
    fig = mod.draw(rows, 1000)
    lines = {ln.get_label().split(" ")[0]: ln for ln in fig.axes[0].get_lines()}
    for k in kinds:
        assert k in table, "%s has no row in plots/kind_styles.txt" % k
        assert matplotlib.colors.to_hex(lines[k].get_color()) == table[k].lower(), k
        if "grows" in filterkit.kind_class(k).capabilities:
            assert lines[k].get_fillstyle() == "none", k
