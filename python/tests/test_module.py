"""The extension's module shape (issue 39): multi-phase initialisation with
its objects in the module's state, so loading filterkit._filterkit again
(another interpreter, importlib) makes a module of its own: its own
classes and exceptions, raised by its own filters."""
import importlib.util

import numpy as np
import pytest

import filterkit
from filterkit import _filterkit


def load_again():
    spec = importlib.util.spec_from_file_location("filterkit._filterkit", _filterkit.__file__)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_a_second_load_is_a_module_of_its_own():
    m = load_again()
    assert m is not _filterkit
    assert m.Error is not _filterkit.Error and m.Filter is not _filterkit.Filter
    assert m.Bloom is not _filterkit.Bloom and issubclass(m.Bloom, m.Filter)
    assert not issubclass(m.Bloom, _filterkit.Filter)
    assert issubclass(m.LimitError, m.FilterFullError) and issubclass(m.LimitError, ValueError)
    assert [k for k, _ in m._kind_classes] == filterkit.kinds()
    # its filters raise its own exceptions
    c = m.Cuckoo(capacity=64, fpr=0.01)
    with pytest.raises(m.FilterFullError) as e:
        c.add_many(np.arange(100_000, dtype=np.uint64))
    assert not isinstance(e.value, _filterkit.FilterFullError)
    assert e.value.done > 0
    with pytest.raises(m.CorruptError):
        m.from_bytes(b"not a filter")
    # a filter of either load reads the other's bytes, and they combine
    f = m.Blocked(capacity=1000, fpr=0.01, seed=3)
    g = filterkit.Blocked(capacity=1000, fpr=0.01, seed=3)
    f.add("x")
    g.add("y")
    assert type(filterkit.from_bytes(f.to_bytes())) is filterkit.Blocked
    h = f | g
    assert type(h) is m.Blocked and "x" in h and "y" in h
    del m, c, f, h


def test_a_subclass_finds_its_module():
    class Mine(filterkit.Quotient):
        pass

    f = Mine(capacity=1000, fpr=0.01)
    f.add(1)
    assert type(f.copy()) is Mine and 1 in Mine.from_bytes(f.to_bytes())
    with pytest.raises(filterkit.UnsupportedError):
        filterkit.Fuse(capacity=10)


def test_the_module_declares_multi_phase_init():
    # PyModuleDef_Init's modules carry their def; a single-phase module
    # made by PyModule_Create is re-used from a cache on a second load
    assert load_again().Error is not load_again().Error
