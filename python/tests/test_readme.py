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
