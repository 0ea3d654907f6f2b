"""The set-like API, the same for every kind: keys, batches, stats, classes."""
import array
import os
import struct
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import given, strategies as st

import filterkit
from conftest import KINDS, caps, key_bytes, make, random_keys


def test_kinds_and_classes():
    assert {"bloom", "blocked", "counting", "cuckoo"} <= set(KINDS)
    for k in KINDS:
        cls = filterkit.kind_class(k)
        assert cls.kind == k and issubclass(cls, filterkit.Filter)
        assert getattr(filterkit, cls.__name__) is cls and cls.__module__ == "filterkit"
        assert ("remove" in cls.capabilities) == hasattr(cls, "remove") == hasattr(cls, "discard")
        assert ("count" in cls.capabilities) == hasattr(cls, "count")
        assert ("static" in cls.capabilities) != hasattr(cls, "add")
        assert cls.summary
    assert filterkit.Bloom is filterkit.kind_class("bloom")
    assert filterkit.ScalableBloom.kind == "scalable-bloom"


def test_filter_returns_kind_class(kind):
    if "static" in caps(kind):
        with pytest.raises(filterkit.UnsupportedError):
            filterkit.Filter(kind, capacity=10)
        return
    f = filterkit.Filter(kind, capacity=100, fpr=0.01, seed=7)
    assert type(f) is filterkit.kind_class(kind)
    assert f.kind == kind and f.fpr == 0.01 and f.seed == 7
    assert repr(f).startswith("<filterkit.")


def test_no_false_negatives(kind):
    keys = random_keys(20000, 1)
    f = make(kind, capacity=20000, fpr=0.01, keys=keys)
    assert all(k in f for k in keys)
    assert f.contains_many(keys).all()
    ints = np.array([k for k in keys if isinstance(k, int)], dtype=np.uint64)
    assert f.contains_many(ints).all()
    st = f.stats()
    assert st["kind"] == kind and st["capacity"] >= 1 and st["memory_bytes"] > 0
    assert st["items"] == len(keys) or "static" in caps(kind)


def test_false_positive_rate_near_target():
    # fixed seed: at capacity each classic kind is within 2x of its target
    for kind in ("bloom", "blocked", "counting", "cuckoo"):
        f = make(kind, capacity=20000, fpr=0.01, seed=3, keys=range(20000))
        fp = f.contains_many(np.arange(10**6, 10**6 + 100000, dtype=np.uint64)).mean()
        theory = f.stats()["expected_fpr"]
        assert 0.002 < fp < 0.02, (kind, fp)
        assert abs(fp - theory) < 6 * (theory / 100000) ** 0.5 + 0.1 * theory, (kind, fp, theory)


def test_key_types_are_their_bytes(kind):
    if "static" in caps(kind):
        pytest.skip("static")
    f = filterkit.Filter(kind, capacity=1000)
    g = filterkit.Filter(kind, capacity=1000)
    for k in (0, 1, 2**64 - 1, 12345678901234567890, "", "héllo ✓", b"", b"\x00\xff", True):
        f.add(k)
        g.add(key_bytes(k))
    assert f.to_bytes() == g.to_bytes()
    f.add(77)
    assert struct.pack("<Q", 77) in f and bytearray(struct.pack("<Q", 77)) in f
    assert memoryview(struct.pack("<Q", 77)) in f and np.uint64(77) in f and np.int32(77) in f
    assert "héllo ✓".encode() in f


# Around the digit boundaries of CPython ints (15- and 30-bit digits, and
# 3.12's compact ints): `int in f` reads small ints straight from their
# digits and the others through PyLong_AsUnsignedLong; both must answer as
# the key's 8 little-endian bytes.
INT_EDGES = sorted({v for e in (15, 30, 31, 32, 45, 60, 62, 63, 64) for v in (2**e - 1, 2**e, 2**e + 1)
                    if v < 2**64} | {0, 1, 2})


def test_int_keys_at_digit_boundaries(kind):
    f = make(kind, capacity=1000, keys=INT_EDGES)
    g = make(kind, capacity=1000, keys=[struct.pack("<Q", v) for v in INT_EDGES])
    for v in INT_EDGES:
        assert v in f and struct.pack("<Q", v) in g
        assert (v in g) == (struct.pack("<Q", v) in g)
    probes = [v ^ 0x5A5A for v in INT_EDGES] + [v + 7 for v in INT_EDGES if v + 7 < 2**64]
    assert [p in f for p in probes] == [struct.pack("<Q", p) in f for p in probes]
    for bad in (-1, -2**30, -2**62, 2**64, 2**64 + 1, 2**100):
        with pytest.raises(OverflowError):
            bad in f


def test_batches_take_arrays_buffers_and_sequences():
    f = filterkit.Blocked(capacity=10000, seed=1)
    a = np.arange(0, 5000, dtype=np.uint64)
    f.add_many(a)
    assert f.contains_many(a).all() and f.contains_many(a).dtype == np.bool_
    assert f.contains_many(a.astype(np.int64)).all()
    assert f.contains_many(array.array("Q", range(5000))).all()
    assert f.contains_many(memoryview(a)).all()
    assert f.contains_many(list(range(5000))).all()
    assert f.contains_many(range(5000)).all()
    assert f.contains_many(np.arange(5000, dtype=np.int32)).all()  # by value
    out = np.zeros(5000, dtype=bool)
    assert f.contains_many(a, out=out) is out and out.all()
    mixed = [1, "one", b"uno"]
    f.add_many(mixed)
    assert list(f.contains_many(mixed)) == [True, True, True]
    assert f.contains_many([]).shape == (0,)
    f.add_many(np.array([], dtype=np.uint64))
    big = np.arange(10**6, 10**6 + 200000, dtype=np.uint64)
    single = np.array([x in f for x in big[:2000].tolist()])
    assert (f.contains_many(big)[:2000] == single).all()


def test_update(kind):
    if "static" in caps(kind):
        pytest.skip("static")
    f = filterkit.Filter(kind, capacity=20000)
    f.update((i for i in range(9000)), ["a", b"b"], np.arange(9000, 10000, dtype=np.uint64))
    assert all(i in f for i in range(10000)) and "a" in f and b"b" in f
    with pytest.raises(TypeError):
        f.update([5, 6, None, 7])
    assert 5 in f and 6 in f  # the keys before the bad one went in
    with pytest.raises(TypeError):
        f.update("abc")


def test_remove_semantics(kind):
    if "remove" not in caps(kind):
        return
    f = filterkit.Filter(kind, capacity=1000)
    f.add("x")
    f.add("x")
    f.remove("x")
    assert "x" in f
    f.discard("x")
    assert "x" not in f
    with pytest.raises(KeyError) as e:
        f.remove("x")
    assert e.value.args == ("x",)
    f.discard("x")  # absent: no error
    assert f.stats()["items"] == 0


def test_count():
    for kind in KINDS:
        if "count" not in caps(kind):
            continue
        f = filterkit.Filter(kind, capacity=1000)
        for _ in range(3):
            f.add(42)
        assert f.count(42) >= 3 and f.count(43) >= 0
        assert f.count(b"never") == 0 or b"never" in f


def test_grow():
    resizing = [k for k in KINDS if "resizes" in caps(k)]
    assert resizing == ["quotient"]
    for kind in resizing:
        f = filterkit.kind_class(kind)(capacity=1000, fpr=0.001, seed=3)
        f.update(range(1000))
        f.add(7)
        before = f.stats()
        assert f.grow() is None
        after = f.stats()
        assert after["capacity"] == 2 * before["capacity"]
        assert after["target_fpr"] == 2 * before["target_fpr"]
        assert after["items"] == before["items"] and f.count(7) >= 2
        assert all(i in f for i in range(1000))
        f.update(range(1000, 2000))  # the room it gained
        assert all(i in f for i in range(2000))
        assert filterkit.from_bytes(f.to_bytes()).to_bytes() == f.to_bytes()
        with pytest.raises(ValueError, match="cannot double again"):
            for _ in range(64):
                f.grow()
        assert all(i in f for i in range(2000))  # the refused doubling changed nothing
    for kind in KINDS:
        if "resizes" not in caps(kind):
            assert not hasattr(filterkit.kind_class(kind), "grow")


def test_merge():
    for kind in KINDS:
        if "merge" not in caps(kind):
            continue
        a = filterkit.Filter(kind, capacity=1000, seed=5)
        b = filterkit.Filter(kind, capacity=1000, seed=5)
        a.update(range(300))
        b.update(range(300, 600))
        c = a | b
        assert all(i in c for i in range(600)) and 400 not in a
        a |= b
        assert a.to_bytes() == c.to_bytes()
        with pytest.raises(ValueError):
            a | filterkit.Filter(kind, capacity=2000, seed=5)
        with pytest.raises(TypeError):
            a | 5
    for kind in KINDS:
        if "merge" not in caps(kind) and "static" not in caps(kind):
            with pytest.raises(TypeError):
                filterkit.Filter(kind, capacity=10) | filterkit.Filter(kind, capacity=10)


INTERSECT_KINDS = [k for k in KINDS if "intersect" in caps(k)]
SET_KEYS = st.one_of(st.integers(0, 2**64 - 1), st.binary(max_size=12), st.text(max_size=6))


def test_intersect_kinds():
    # the kinds whose C table has the intersect slot (FK_CAP_INTERSECT)
    assert set(INTERSECT_KINDS) == {"bloom", "blocked"}


@pytest.mark.parametrize("kind", INTERSECT_KINDS)
@given(a=st.sets(SET_KEYS, max_size=300), b=st.sets(SET_KEYS, max_size=300),
       probes=st.lists(SET_KEYS, max_size=200))
def test_intersect_against_set_semantics(kind, a, b, probes):
    cls = filterkit.kind_class(kind)
    f, g = cls(capacity=400, seed=3), cls(capacity=400, seed=3)
    f.update(a)
    g.update(b)
    both = f & g
    assert type(both) is cls and f.to_bytes() != b"" and (f & g).to_bytes() == both.to_bytes()
    # no false negative for a key in both sets
    for k in a & b:
        assert k in both
    # the intersection answers yes only where both filters do (its bits are
    # a subset of each one's), so it never adds a key either lacks
    for k in list(a | b) + probes:
        if k in both:
            assert k in f and k in g
    # f and g are unchanged; f &= g gives the same bits in place
    h = f.copy()
    h &= g
    assert h.to_bytes() == both.to_bytes()
    assert all(k in f for k in a) and all(k in g for k in b)
    # set laws the bits obey exactly (the answers; the header's item count
    # is an estimate after an intersection): commutative, idempotent
    many = np.random.default_rng(len(a) * 1000 + len(b)).integers(0, 2**64 - 1, 2000, dtype=np.uint64,
                                                                   endpoint=True)
    keys = list(a | b) + probes

    def answers(x):
        return [k in x for k in keys], x.contains_many(many).tolist()
    assert answers(g & f) == answers(both)
    assert answers(f & f) == answers(f)
    f2 = f.copy()
    f2 &= f2
    assert f2.to_bytes() == f.to_bytes()


@pytest.mark.parametrize("kind", INTERSECT_KINDS)
def test_intersect_drops_keys_of_one_side(kind):
    # disjoint halves: the intersection of two filters of 5000 keys each at
    # 1% keeps only the false positives, far below the keys of either side
    cls = filterkit.kind_class(kind)
    f, g = cls(capacity=10000, fpr=0.01, seed=8), cls(capacity=10000, fpr=0.01, seed=8)
    f.add_many(np.arange(0, 5000, dtype=np.uint64))
    g.add_many(np.arange(5000, 10000, dtype=np.uint64))
    g.add_many(np.arange(20000, 21000, dtype=np.uint64))
    f.add_many(np.arange(20000, 21000, dtype=np.uint64))
    both = f & g
    assert both.contains_many(np.arange(20000, 21000, dtype=np.uint64)).all()
    kept = both.contains_many(np.arange(0, 10000, dtype=np.uint64)).mean()
    assert kept < 0.2, kept


def test_intersect_errors():
    for kind in INTERSECT_KINDS:
        cls = filterkit.kind_class(kind)
        a = cls(capacity=1000, seed=5)
        for other in (cls(capacity=2000, seed=5), cls(capacity=1000, seed=6),
                      cls(capacity=1000, fpr=0.001, seed=5)):
            before = a.to_bytes()
            with pytest.raises(ValueError):
                a & other
            with pytest.raises(ValueError):
                a &= other
            assert a.to_bytes() == before  # nothing changed
        with pytest.raises(TypeError):
            a & 5
        with pytest.raises(TypeError):
            a &= {1, 2}
        with pytest.raises(ValueError):  # another kind: refused by the C call
            a & filterkit.Filter("cuckoo", capacity=1000, seed=5)
    for kind in KINDS:
        if "intersect" in caps(kind):
            continue
        f = make(kind, capacity=10, keys=[1, 2])
        assert not hasattr(type(f), "__and__")
        with pytest.raises(TypeError):
            f & make(kind, capacity=10, keys=[2])
        with pytest.raises(TypeError):
            f &= make(kind, capacity=10, keys=[2])


def test_build_classmethod(kind):
    keys = random_keys(3000, 9)
    f = filterkit.kind_class(kind).build(keys, fpr=0.01)
    assert type(f) is filterkit.kind_class(kind)
    assert f.contains_many(keys).all()
    g = filterkit.kind_class(kind).build(np.arange(1000, dtype=np.uint64))
    assert g.contains_many(np.arange(1000, dtype=np.uint64)).all()


def test_full_cuckoo_raises_and_loses_nothing():
    f = filterkit.Cuckoo(capacity=100, fpr=0.01)
    added = []
    with pytest.raises(filterkit.FilterFullError):
        for i in range(100000):
            f.add(i)
            added.append(i)
    assert all(i in f for i in added)
    g = filterkit.Cuckoo(capacity=100, fpr=0.01)
    with pytest.raises(filterkit.FilterFullError) as e:
        g.add_many(np.arange(100000, dtype=np.uint64))
    assert 0 < e.value.done < 100000
    assert g.contains_many(np.arange(e.value.done, dtype=np.uint64)).all()
    assert isinstance(e.value, filterkit.Error)


def test_memory_of_an_object(kind):
    if "static" in caps(kind):
        pytest.skip("static")
    f = filterkit.Filter(kind, capacity=100000)
    overhead = sys.getsizeof(f) - f.stats()["memory_bytes"]
    assert 0 < overhead <= 200
    assert not hasattr(f, "__dict__")


def test_unhashable():
    with pytest.raises(TypeError):
        hash(filterkit.Bloom(capacity=10))


def test_threads_share_a_filter():
    f = filterkit.Blocked(capacity=200000)
    keys = np.arange(200000, dtype=np.uint64)
    f.add_many(keys[:100000])
    errors = []

    def reader():
        for _ in range(20):
            if not f.contains_many(keys[:100000]).all():
                errors.append("false negative")

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for i in range(100000, 100500):
        f.add(i)  # waits whenever a GIL-free lookup runs
    f.add_many(keys[100500:])
    for t in threads:
        t.join()
    assert not errors and f.contains_many(keys).all()


def test_bench_rows_and_pick():
    rows = filterkit.bench(["bloom", "cuckoo"], n=5000, fpr=[0.01, 0.001], repeat=1)
    assert [(r["kind"], r["fpr"]) for r in rows] == [
        ("bloom", 0.01), ("bloom", 0.001), ("cuckoo", 0.01), ("cuckoo", 0.001)]
    for r in rows:
        assert r["error"] is None and r["false_negatives"] == 0 and r["insert_ns"] > 0
        assert r["fpr_measured"] < 5 * r["fpr"] + 0.002 and r["bits_per_item"] > 0
    assert rows[0]["remove_ns"] is None and rows[2]["remove_ns"] > 0
    keys = set(rows[0])
    assert all(set(r) == keys for r in rows)  # one shape: a DataFrame takes them
    p = filterkit.pick(10**6, 0.01, measure=False)  # the smallest by the formulas
    assert p["kind"] in KINDS and p["memory_bytes"] == min(
        c["memory_bytes"] for c in p["candidates"] if c["feasible"])
    assert p["params"]["capacity"] == 1250000  # n and the 25% headroom, as the CLI's
    f = filterkit.Filter(p["kind"], **p["params"])
    assert f.stats()["memory_bytes"] == p["memory_bytes"]
    d = filterkit.pick(10**4, 0.01, deletes=True, repeat=1)
    assert "remove" in caps(d["kind"]) and d["recommendation"]["decided_by"]
    # every kind that lost says why (0.3.0 said None for the ones that fit)
    assert all(c["why_not"] for c in d["candidates"] if not c["chosen"])
    assert filterkit.pick(10**6, 0.01, memory=1000)["kind"] is None



def test_pick_growing_sets_and_windows():
    growing = {"expandable", "scalable-bloom", "scalable-blocked", "scalable-cuckoo"}
    # n is a guess: the kinds that grow, weighed over a 1024-fold growth
    u = filterkit.pick(10**4, 0.001, n_uncertain=True, measure=False)
    assert u["kind"] in growing, u["kind"]
    assert u["query"]["n_uncertain"] is True and u["query"]["weighed_to"] == 1024 * 10**4
    g = filterkit.pick(10**4, 0.001, grow_to=10**7, measure=False)
    assert g["kind"] in growing | {"quotient"}, g["kind"]
    assert g["query"]["grow_to"] == 10**7
    # the last N adds: n may be None; the answer builds a window that holds them
    w = filterkit.pick(None, 0.01, window=1000, measure=False)
    assert w["kind"] == "window" and w["params"] == {"capacity": 1000, "fpr": 0.01}
    kinds = {c["kind"] for c in w["candidates"]}
    assert {"window", "rotating-bloom", "apbf"} <= kinds
    f = filterkit.Filter(w["kind"], **w["params"])
    for k in range(3000):
        f.add(k)
    assert all(k in f for k in range(2000, 3000))
    # the last T seconds at R items per second: the span in nanoseconds
    t = filterkit.pick(None, 0.01, window_seconds=60, rate=1000, measure=False)
    assert t["kind"] == "window" and t["params"]["span"] == 60 * 10**9
    assert t["recommendation"]["window_seconds"] == 60
    tw = filterkit.Filter(t["kind"], **t["params"])
    assert tw.span == 60 * 10**9
    for bad in (dict(n=None),                                   # no n and no window
                dict(window=1000, window_seconds=60),           # two kinds of window
                dict(n=None, window_seconds=60),                # T without n or rate
                dict(rate=1000),                                # rate without T
                dict(window=1000, n_uncertain=True),            # a window does not grow
                dict(n_uncertain=True, grow_to=10**6),          # one or the other
                dict(window=0), dict(grow_to=0), dict(grow_to=True),
                dict(n=None, window_seconds=-1, rate=10)):
        args = {"n": 10**4, **bad}
        n = args.pop("n")
        with pytest.raises(ValueError):
            filterkit.pick(n, 0.01, measure=False, **args)

def test_threads_batches_and_writers_never_overlap():
    # GIL-free add_many, contains_many and save from several threads on one
    # growing filter (an insert may add a link: a reader running beside it
    # would read freed memory); every key added stays found
    import tempfile
    f = filterkit.ScalableBloom(capacity=1000)
    chunks = [np.arange(i * 20000, (i + 1) * 20000, dtype=np.uint64) for i in range(8)]
    done = []
    errors = []

    def writer(c):
        f.add_many(c)
        done.append(c)

    def reader():
        for _ in range(10):
            for c in list(done):
                if not f.contains_many(c).all():
                    errors.append("false negative")
        with tempfile.TemporaryDirectory() as d:
            f.save(d + "/f.fk")

    threads = [threading.Thread(target=writer, args=(c,)) for c in chunks]
    threads += [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert f.contains_many(np.concatenate(chunks)).all()


def test_byte_limit():
    # max_bytes: a growing filter stops before a link that would pass it
    f = filterkit.ScalableBloom(capacity=1000, max_bytes=20000)
    with pytest.raises(filterkit.LimitError) as e:
        f.add_many(np.arange(10**6, dtype=np.uint64))
    assert isinstance(e.value, filterkit.FilterFullError) and isinstance(e.value, ValueError)
    assert 0 < e.value.done < 10**6
    assert f.contains_many(np.arange(e.value.done, dtype=np.uint64)).all()
    assert f.stats()["memory_bytes"] <= 20000
    with pytest.raises(ValueError):
        filterkit.Bloom(capacity=10**6, max_bytes=1000)  # does not fit at all


def test_grow_stops_at_the_byte_limit():
    # (issue 38) grow() raises LimitError before the doubled table would
    # pass max_bytes; a copy keeps the limit, loaded bytes get the default
    limit = 1 << 20
    q = filterkit.Quotient(capacity=1 << 14, fpr=1e-6, max_bytes=limit)
    assert q.max_bytes == limit
    q.update(range(1000))
    grows = 0
    with pytest.raises(filterkit.LimitError):
        for _ in range(20):
            q.grow()
            grows += 1
    assert grows >= 1 and q.stats()["memory_bytes"] <= limit
    assert all(i in q for i in range(1000))
    c = q.copy()
    assert c.max_bytes == limit and (q | q).max_bytes == limit
    with pytest.raises(filterkit.LimitError):
        c.grow()
    loaded = filterkit.from_bytes(q.to_bytes())
    assert loaded.max_bytes == filterkit.default_max_bytes()


def test_default_byte_limit_is_below_the_machine():
    import resource
    d = filterkit.default_max_bytes()
    phys = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGESIZE")
    assert 0 < d <= phys // 2 and d <= 64 << 30
    for which in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
        soft = resource.getrlimit(which)[0]
        if soft != resource.RLIM_INFINITY:
            assert d <= soft // 2
    for f in (filterkit.Quotient(capacity=1000), filterkit.ScalableBloom(), filterkit.Bloom(capacity=10),
              filterkit.Quotient(capacity=1000, max_bytes=0)):
        assert f.max_bytes == d
    assert filterkit.Quotient(capacity=1000, max_bytes=d * 4).max_bytes == min(d * 4, 64 << 30)
    with pytest.raises(filterkit.LimitError):  # a table over the default: refused, not allocated
        filterkit.Bloom(capacity=10**6, bits=8 * (d + 4096))


@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="ASan's shadow memory does not fit under an RLIMIT_DATA")
def test_a_grow_loop_stops_under_rlimit_data():
    # (issue 38: a grow loop ran into the OOM killer) under RLIMIT_DATA =
    # 384 MiB the default limit is 192 MiB: the loop ends with LimitError
    # while the tables fit, not with MemoryError from a failed allocation
    code = """
import resource, filterkit
resource.setrlimit(resource.RLIMIT_DATA, (384 << 20, resource.RLIM_INFINITY))
assert filterkit.default_max_bytes() == 192 << 20, filterkit.default_max_bytes()
q = filterkit.Quotient(capacity=1 << 20, fpr=1e-6)
q.update(range(1000))
try:
    while True:
        q.grow()
except filterkit.LimitError:
    pass
m = q.stats()["memory_bytes"]
assert 96 << 20 < m <= 192 << 20 and all(i in q for i in range(1000)), m
print("ok", m)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stdout + r.stderr


def test_every_version_string_agrees():
    """The package, its extension and the C library all say common/version.h's
    version, and CHANGELOG.md has its heading: dated once released (issue 39's
    release check), "(unreleased)" while its exports are still being added
    (the version, and with it the SONAME, moves with the first new export)."""
    import re
    from conftest import ROOT
    header = open(os.path.join(ROOT, "common", "version.h")).read()
    parts = [re.search(r"#define FK_VERSION_%s (\d+)" % p, header).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    version = ".".join(parts)
    assert filterkit.__version__ == version
    assert filterkit.library_version() == version
    changelog = open(os.path.join(ROOT, "CHANGELOG.md")).read()
    assert re.search(r"^## %s \((\d{4}-\d{2}-\d{2}|unreleased)\)$" % re.escape(version), changelog, re.M), \
        "CHANGELOG.md has no heading for %s (dated, or 'unreleased')" % version
