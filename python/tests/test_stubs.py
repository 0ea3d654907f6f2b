"""The stubs (python/filterkit/__init__.pyi) against the module: with
mypy.stubtest where mypy is installed (Debian's python3-mypy; `make
deps-python-test` installs it), and always with a check of our own: every
public name and method of the stub exists at runtime and the reverse, with
the same parameters (names and kinds) as inspect.signature reads them."""
import ast
import inspect
import os
import subprocess
import sys

import pytest

import filterkit

HERE = os.path.dirname(os.path.abspath(__file__))
STUB = os.path.join(os.path.dirname(filterkit.__file__), "__init__.pyi")
ALLOWLIST = os.path.join(HERE, "stubtest_allowlist.txt")
SANITIZED = "asan" in os.environ.get("LD_PRELOAD", "")


def stub_tree():
    with open(STUB) as fp:
        return ast.parse(fp.read())


def typing_only():
    """The stub's names for type checkers only (the allowlist's)."""
    with open(ALLOWLIST) as fp:
        return {line.strip().split(".", 1)[1] for line in fp
                if line.strip() and not line.startswith("#")}


def params_of_stub(fn):
    """[(name, kind)] of a stub def, self/cls dropped, as inspect names kinds."""
    a = fn.args
    out = [(p.arg, "POSITIONAL_ONLY") for p in a.posonlyargs]
    out += [(p.arg, "POSITIONAL_OR_KEYWORD") for p in a.args]
    if a.vararg:
        out.append((a.vararg.arg, "VAR_POSITIONAL"))
    out += [(p.arg, "KEYWORD_ONLY") for p in a.kwonlyargs]
    if a.kwarg:
        out.append((a.kwarg.arg, "VAR_KEYWORD"))
    decorators = {getattr(d, "id", None) for d in fn.decorator_list}
    if out and (out[0][0] in ("self", "cls") or "classmethod" in decorators):
        out = out[1:]
    return out


def params_of_runtime(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None  # no text signature: nothing to compare
    out = [(p.name, p.kind.name) for p in sig.parameters.values()]
    return out[1:] if out and out[0][0] == "self" else out  # a method read off its class


def stub_classes(tree):
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


def stub_methods(classes, name):
    """name's methods in the stub, its stub bases' included (nearest first)."""
    out = {}
    for base in [classes[name]] + [classes[b.id] for b in classes[name].bases
                                    if isinstance(b, ast.Name) and b.id in classes]:
        if base is not classes[name]:
            for k, v in stub_methods(classes, base.name).items():
                out.setdefault(k, v)
        for n in base.body:
            if isinstance(n, ast.FunctionDef):
                out.setdefault(n.name, n)
    return out


def test_public_names_agree():
    tree = stub_tree()
    stub_names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stub_names |= {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                   for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                   if isinstance(t, ast.Name)}
    public_stub = {n for n in stub_names if not n.startswith("_")} - typing_only()
    assert public_stub <= set(dir(filterkit)), public_stub - set(dir(filterkit))
    assert set(filterkit.__all__) <= public_stub, set(filterkit.__all__) - public_stub
    assert set(filterkit.kinds()) == {filterkit.kind_class(k).kind for k in filterkit.kinds()}
    for n in tree.body:
        if isinstance(n, ast.FunctionDef) and not n.name.startswith("_"):
            got = params_of_runtime(getattr(filterkit, n.name))
            assert got is None or got == params_of_stub(n), (n.name, got, params_of_stub(n))


@pytest.mark.parametrize("kind", filterkit.kinds())
def test_each_class_has_the_stub_methods_and_no_others(kind):
    cls = filterkit.kind_class(kind)
    classes = stub_classes(stub_tree())
    assert cls.__name__ in classes, "no stub for filterkit.%s" % cls.__name__
    methods = stub_methods(classes, cls.__name__)
    runtime = {m for m in dir(cls) if not m.startswith("_") and callable(getattr(cls, m))}
    public = {m for m, fn in methods.items() if not m.startswith("_")
              and "property" not in {getattr(d, "id", None) for d in fn.decorator_list}}
    assert runtime == public, ("runtime only", runtime - public, "stub only", public - runtime)
    for name, fn in methods.items():
        if name in ("__new__",) or (name.startswith("__") and not hasattr(cls, name)):
            continue
        assert hasattr(cls, name), name
        got = params_of_runtime(getattr(cls, name))
        if got is not None and not name.startswith("__"):
            assert got == params_of_stub(fn), (cls.__name__, name, got, params_of_stub(fn))


@pytest.mark.skipif(SANITIZED, reason="the plain build runs stubtest (the stubs do not change with it)")
def test_mypy_stubtest(tmp_path):
    try:
        import mypy.stubtest  # noqa: F401
    except ImportError:
        pytest.skip("mypy is not installed (Debian: python3-mypy; make deps-python-test)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "filterkit", "--allowlist", ALLOWLIST],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
