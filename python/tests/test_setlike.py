"""Issue 40: the set protocol where a filter can honour it, a clear error
where it cannot, and errors that say what to do."""
import pydoc
import weakref

import pytest

import filterkit
from conftest import KINDS, caps, make


def test_a_small_cuckoo_filter_holds_its_capacity():
    # Cuckoo(capacity=10, fpr=0.01, seed=2) refused its 6th key in 0.3.0
    for seed in range(50):
        for capacity in (5, 10, 50, 100):
            f = filterkit.Cuckoo(capacity=capacity, fpr=0.01, seed=seed)
            f.update(range(capacity))
            assert all(i in f for i in range(capacity))


def test_filter_full_error_says_what_to_do():
    f = filterkit.Cuckoo(capacity=10, fpr=0.01, seed=2)
    with pytest.raises(filterkit.FilterFullError) as e:
        for i in range(1000):
            f.add(i)
    msg = str(e.value)
    assert "sized for 10" in msg and "headroom" in msg and "filterkit.ScalableCuckoo" in msg
    with pytest.raises(filterkit.FilterFullError) as e:
        f.add_many(list(range(1000, 2000)))
    assert "sized for 10" in str(e.value) and e.value.done == 0
    with pytest.raises(filterkit.FilterFullError) as e:
        f.update(range(2000, 3000))
    assert "filterkit.ScalableCuckoo" in str(e.value)


@pytest.mark.parametrize("kind", KINDS)
def test_len_is_a_type_error_that_says_why_and_bool_stays_true(kind):
    f = make(kind, 100, keys=[b"a", b"b"])
    with pytest.raises(TypeError, match=r"len\(\) of a %s filter would be an estimate.*stats\(\)\['items'\]"
                       % kind):
        len(f)
    assert bool(f) and f


@pytest.mark.parametrize("kind", KINDS)
def test_capacity_attribute(kind):
    f = make(kind, 1234)
    assert f.capacity == f.stats()["capacity"]
    if "static" not in caps(kind) and "grows" not in caps(kind):
        assert f.capacity == 1234


@pytest.mark.parametrize("kind", [k for k in KINDS if "static" not in caps(k)])
def test_clear_empties_and_keeps_the_shape(kind):
    cls = filterkit.kind_class(kind)
    f = cls(500, 0.01, seed=7)
    empty = f.to_bytes()
    f.update(range(400))
    f.clear()
    assert f.stats()["items"] == 0
    assert not any(i in f for i in range(400))
    assert f.to_bytes() == empty
    f.add(1)
    assert 1 in f
    # a loaded filter is remade from its header when that gives its shape
    g = cls.from_bytes(f.to_bytes())
    g.clear()
    assert g.to_bytes() == empty


def test_clear_refuses_what_it_cannot_remake():
    q = filterkit.Quotient(100, 0.01)
    q.add(1)
    q.grow()
    loaded = filterkit.from_bytes(q.to_bytes())
    with pytest.raises(filterkit.UnsupportedError, match="cannot be made again"):
        loaded.clear()
    assert 1 in loaded


@pytest.mark.parametrize("kind", KINDS)
def test_equality_is_kind_params_and_bits(kind):
    f = make(kind, 200, seed=3, keys=[b"x", b"y"])
    g = make(kind, 200, seed=3, keys=[b"x", b"y"])
    assert f == g and not (f != g) and f == f.copy()
    assert f != make(kind, 200, seed=4, keys=[b"x", b"y"])
    assert f != make(kind, 200, seed=3, keys=[b"x", b"z"])
    assert f != object() and (f == 1) is False
    other = "cuckoo" if kind != "cuckoo" else "bloom"
    assert f != make(other, 200, seed=3, keys=[b"x", b"y"])
    with pytest.raises(TypeError):
        hash(f)


@pytest.mark.parametrize("kind", ["bloom", "blocked"])
def test_subset_by_bits(kind):
    cls = filterkit.kind_class(kind)
    small, big = cls(1000, 0.01, seed=1), cls(1000, 0.01, seed=1)
    small.update(range(10))
    big.update(range(100))
    assert small <= big and big >= small and not (big <= small) and small <= small
    with pytest.raises(ValueError, match="made alike"):
        small <= cls(1000, 0.01, seed=2)
    with pytest.raises(TypeError):
        small < big


@pytest.mark.parametrize("kind", [k for k in KINDS if k not in ("bloom", "blocked")])
def test_subset_is_a_type_error_elsewhere(kind):
    f = make(kind, 100)
    with pytest.raises(TypeError, match="subset is defined only"):
        f <= f.copy()


@pytest.mark.parametrize("kind", KINDS)
def test_weak_references(kind):
    f = make(kind, 100)
    r = weakref.ref(f)
    assert r() is f
    del f
    assert r() is None


def test_positional_capacity_and_fpr():
    f = filterkit.Bloom(1000, 0.001)
    assert (f.capacity, f.fpr) == (1000, 0.001)
    g = filterkit.Filter("cuckoo", 50, 0.01, seed=3)
    assert (g.kind, g.capacity, g.fpr, g.seed) == ("cuckoo", 50, 0.01, 3)
    assert filterkit.Bloom(1000).fpr == 0.01
    with pytest.raises(TypeError, match="multiple values for argument 'capacity'"):
        filterkit.Bloom(1000, capacity=10)
    with pytest.raises(TypeError, match="at most 2 positional"):
        filterkit.Bloom(1000, 0.01, 5)


def test_help_on_filter_shows_the_methods():
    text = pydoc.render_doc(filterkit.Filter)
    for name in ("add(key)", "clear()", "remove(key)", "count(key)", "contains_many"):
        assert name in text, name


def test_a_huge_capacity_says_the_memory_it_would_need():
    with pytest.raises(ValueError, match=r"would need about 1\.06 PiB \(\d+ bytes\), over the library's cap"):
        filterkit.Bloom(capacity=10**15)
    with pytest.raises(filterkit.LimitError, match=r"would need 11\.2 GiB .* max_bytes"):
        filterkit.Bloom(capacity=10**10, max_bytes=10**6)


def test_from_bytes_of_something_else_is_not_a_filterkit_file(tmp_path):
    for load in (filterkit.from_bytes, filterkit.Bloom.from_bytes):
        with pytest.raises(filterkit.CorruptError, match="not a filterkit file"):
            load(b"hello")
    p = tmp_path / "hello.txt"
    p.write_bytes(b"hello\n")
    with pytest.raises(filterkit.CorruptError, match="not a filterkit file"):
        filterkit.load(str(p))
    # a damaged filter still reads as corrupt
    data = bytearray(filterkit.Bloom(100).to_bytes())
    data[-1] ^= 1
    with pytest.raises(filterkit.CorruptError) as e:
        filterkit.from_bytes(bytes(data))
    assert "not a filterkit file" not in str(e.value)
