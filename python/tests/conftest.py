"""Shared fixtures of filterkit's Python tests (run by tests/cli_python.sh)."""
import os
import random
import struct

import pytest
from hypothesis import HealthCheck, settings

import filterkit

# Fixed examples (derandomize) so a run is reproducible; no example database
# written into the tree; no deadline (the machine is shared).
settings.register_profile("filterkit", derandomize=True, database=None, deadline=None,
                          max_examples=25, suppress_health_check=[HealthCheck.too_slow])
# under the sanitizers (tests/cli_python.sh), a shorter run of the same tests
settings.register_profile("quick", parent=settings.get_profile("filterkit"), max_examples=12)
settings.load_profile(os.environ.get("FK_HYPOTHESIS_PROFILE", "filterkit"))

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KINDS = filterkit.kinds()


def run_guide_section(heading, monkeypatch, tmp_path, capsys):
    """Runs the python blocks of docs/python.md's section `heading` (a
    "## " line, without the hashes) in tmp_path, each as written, and
    checks that each print prints what its comment says (the comment up to
    its first ':')."""
    import re
    text = open(os.path.join(ROOT, "docs", "python.md"), encoding="utf-8").read()
    section = text.split("## " + heading, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "no python block under " + heading
    monkeypatch.chdir(tmp_path)
    for code in blocks:
        capsys.readouterr()
        exec(compile(code, "docs/python.md", "exec"), {"__name__": "guide"})
        said = [line.split("#", 1)[1].split(":", 1)[0].strip()
                for line in code.splitlines() if line.startswith("print(")]
        assert capsys.readouterr().out.splitlines() == said


def caps(kind):
    return filterkit.kind_class(kind).capabilities


def make(kind, capacity=1000, fpr=0.01, seed=0, keys=()):
    """A filter of any kind holding keys (static kinds are built)."""
    cls = filterkit.kind_class(kind)
    if "static" in caps(kind):
        return cls.build(list(keys), capacity=max(capacity, 1), fpr=fpr, seed=seed)
    f = cls(capacity=capacity, fpr=fpr, seed=seed)
    f.update(keys)
    return f


def key_bytes(k):
    """The bytes a key stands for (the model's view of a key)."""
    if isinstance(k, int):
        return struct.pack("<Q", k)
    if isinstance(k, str):
        return k.encode("utf-8")
    return bytes(k)


def random_keys(n, seed, prefix="k"):
    r = random.Random(seed)
    out = []
    for i in range(n):
        c = i % 3
        if c == 0:
            out.append(r.getrandbits(64))
        elif c == 1:
            out.append("%s-%d-%d" % (prefix, i, r.getrandbits(32)))
        else:
            out.append(prefix.encode() + r.getrandbits(64).to_bytes(8, "little") + bytes([i % 7]))
    return out


@pytest.fixture(params=KINDS)
def kind(request):
    return request.param


@pytest.fixture
def cli():
    path = os.path.join(ROOT, os.environ.get("FK_BUILD", "build"), "filterkit")
    if not os.access(path, os.X_OK):
        pytest.skip("no CLI at %s" % path)
    return path
