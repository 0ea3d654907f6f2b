"""Bad input raises the documented exception and never crashes: wrong
types, out-of-range ints, NaN and other bad parameters, truncated,
corrupted and random bytes, bad arrays and paths."""
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import filterkit
from conftest import caps, make


@pytest.mark.parametrize("kw, exc", [
    (dict(capacity=100, fpr=float("nan")), ValueError),
    (dict(capacity=100, fpr=float("inf")), ValueError),
    (dict(capacity=100, fpr=0), ValueError),
    (dict(capacity=100, fpr=1), ValueError),
    (dict(capacity=100, fpr=-0.5), ValueError),
    (dict(capacity=0), ValueError),
    (dict(capacity=-1), ValueError),
    (dict(capacity=2**64), ValueError),
    (dict(capacity=10**15), ValueError),           # over the 64 GiB cap
    (dict(capacity=1.5), TypeError),
    (dict(capacity="10"), TypeError),
    (dict(capacity=100, fpr="0.01"), TypeError),
    (dict(capacity=100, seed=-1), ValueError),
    (dict(capacity=100, seed=2**64), ValueError),
    (dict(capacity=100, hashes=2**40), ValueError),
    (dict(capacity=100, colour=1), TypeError),
])
def test_bad_parameters(kind, kw, exc):
    if "static" in caps(kind):
        pytest.skip("static")
    with pytest.raises(exc):
        filterkit.Filter(kind, **kw)


def test_bad_constructor_calls():
    with pytest.raises(TypeError):
        filterkit.Filter()
    with pytest.raises(TypeError):
        filterkit.Filter(5, capacity=10)
    with pytest.raises(ValueError):
        filterkit.Filter("no-such-kind", capacity=10)
    with pytest.raises(TypeError):
        filterkit.Bloom("bloom", capacity=10)
    with pytest.raises(TypeError):
        filterkit.Bloom()  # capacity is required for a fixed-size kind
    assert filterkit.ScalableBloom().stats()["capacity"] > 0  # a growing one starts small


@pytest.mark.parametrize("key, exc", [
    (-1, OverflowError), (2**64, OverflowError), (-2**70, OverflowError), (10**400, OverflowError),
    (1.5, TypeError), (None, TypeError), ([1], TypeError), ({}, TypeError), (object(), TypeError),
    (np.float64(1), TypeError), (np.float32(1), TypeError), (np.int64(-3), OverflowError),
    ("\ud800", UnicodeEncodeError),
])
def test_bad_keys(kind, key, exc):
    f = make(kind, capacity=100, keys=[1, 2])
    with pytest.raises(exc):
        key in f
    with pytest.raises(exc):
        f.contains_many([1, key])
    if "static" not in caps(kind):
        with pytest.raises(exc):
            f.add(key)
        with pytest.raises(exc):
            f.add_many([key])
    if "remove" in caps(kind):
        with pytest.raises(exc):
            f.remove(key)
    assert 1 in f and 2 in f


def test_bad_arrays():
    f = filterkit.Blocked(capacity=100)
    with pytest.raises(OverflowError):
        f.contains_many(np.array([1, -1], dtype=np.int64))
    with pytest.raises(OverflowError):
        f.add_many(np.array([-5], dtype=np.int64))
    with pytest.raises(ValueError):
        f.contains_many(np.arange(4, dtype=">u8"))
    with pytest.raises(ValueError):
        f.contains_many(np.zeros((2, 2), dtype=np.uint64))
    with pytest.raises(ValueError):
        f.contains_many(np.arange(10, dtype=np.uint64)[::2])
    with pytest.raises(TypeError):
        f.contains_many(np.ones(3))  # floats are no keys
    with pytest.raises(TypeError):
        f.contains_many(b"12345678")  # one bytes object is not a batch
    with pytest.raises(TypeError):
        f.contains_many(5)
    with pytest.raises(ValueError):
        f.contains_many(np.arange(3, dtype=np.uint64), out=np.zeros(4, dtype=bool))
    with pytest.raises(TypeError):
        f.contains_many(np.arange(3, dtype=np.uint64), out=np.zeros(3, dtype=np.int64))
    with pytest.raises((TypeError, BufferError, ValueError)):
        f.contains_many(np.arange(3, dtype=np.uint64), out=np.zeros(3, dtype=bool)[::-1])
    with pytest.raises(BufferError):
        f.contains_many(np.arange(3, dtype=np.uint64), out=b"abc")  # read-only


def test_truncated_and_corrupted_bytes(kind):
    f = make(kind, capacity=50, keys=range(40))
    data = f.to_bytes()
    for cut in list(range(0, 130)) + [len(data) - 9, len(data) - 1]:
        with pytest.raises(filterkit.CorruptError):
            filterkit.from_bytes(data[:cut])
    with pytest.raises(filterkit.CorruptError):
        filterkit.from_bytes(data + b"\0")
    for pos in range(0, len(data), max(1, len(data) // 97)):
        bad = bytearray(data)
        bad[pos] ^= 0x5A
        with pytest.raises(ValueError):  # CorruptError, or UnsupportedError (version)
            filterkit.from_bytes(bytes(bad))
    assert issubclass(filterkit.CorruptError, ValueError)
    assert issubclass(filterkit.UnsupportedError, ValueError)


@given(st.binary(max_size=300))
def test_random_bytes_never_crash(data):
    with pytest.raises(ValueError):
        filterkit.from_bytes(data)


@given(st.integers(0, 500), st.integers(0, 255))
def test_corrupted_payload_byte(pos, value):
    data = bytearray(filterkit.Counting(capacity=20).to_bytes())
    pos %= len(data)
    if data[pos] == value:
        return
    data[pos] = value
    with pytest.raises(ValueError):
        filterkit.from_bytes(bytes(data))


def test_from_bytes_types():
    with pytest.raises(TypeError):
        filterkit.from_bytes("not bytes")
    with pytest.raises(TypeError):
        filterkit.from_bytes(None)
    with pytest.raises(TypeError):
        filterkit.from_bytes(12)


def test_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        filterkit.load(tmp_path / "missing.fk")
    with pytest.raises(OSError):
        filterkit.load(tmp_path)  # a folder
    with pytest.raises(FileNotFoundError):
        filterkit.Bloom(capacity=10).save(tmp_path / "no" / "such" / "dir.fk")
    (tmp_path / "text.fk").write_text("hello\n")
    with pytest.raises(filterkit.CorruptError):
        filterkit.load(tmp_path / "text.fk")
    (tmp_path / "empty.fk").write_bytes(b"")
    with pytest.raises(filterkit.CorruptError):
        filterkit.load(tmp_path / "empty.fk")
    with pytest.raises(TypeError):
        filterkit.load(3.5)
    with pytest.raises(ValueError):
        filterkit.load("nul\0byte")


def test_bench_and_pick_arguments():
    with pytest.raises(ValueError):
        filterkit.bench(["bloom"], n=0)
    with pytest.raises(ValueError):
        filterkit.bench(["nope"], n=10)
    with pytest.raises(ValueError):
        filterkit.bench(["bloom"], n=10, fpr=math.nan)
    with pytest.raises(ValueError):
        filterkit.bench(["bloom"], n=10, repeat=0)
    with pytest.raises(ValueError):
        filterkit.pick(0, 0.01)
    with pytest.raises(ValueError):
        filterkit.pick(10, 2.0)
    # what only the pick component refuses comes back with its reason
    with pytest.raises(ValueError, match="headroom"):
        filterkit.pick(10, 0.01, headroom=2, measure=False)
    with pytest.raises(ValueError, match="at most 2\\^48"):
        filterkit.pick(2**50, 0.01, measure=False)
    with pytest.raises(ValueError, match="window_seconds"):
        filterkit.pick(100, 0.01, window_seconds=1.5, measure=False)
    with pytest.raises(ValueError):
        filterkit.sizing("bloom", 100, fpr=math.nan)
