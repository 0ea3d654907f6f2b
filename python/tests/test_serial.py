"""Round trips through the file format: to_bytes/from_bytes, save/load,
pickle, copy. The bytes are the CLI's and Redis's format."""
import copy
import os
import pickle

import numpy as np
import pytest

import filterkit
from conftest import caps, make, random_keys


def test_round_trips(kind, tmp_path):
    keys = random_keys(3000, 4)
    f = make(kind, capacity=3000, fpr=0.005, seed=99, keys=keys)
    data = f.to_bytes()
    assert data[:8] == b"\x89FKF\r\n\x1a\n"
    probes = random_keys(3000, 5, prefix="other")
    answers = f.contains_many(probes)
    path = tmp_path / "f.fk"
    f.save(path)
    assert path.read_bytes() == data
    others = [filterkit.from_bytes(data), filterkit.kind_class(kind).from_bytes(data),
              filterkit.Filter.from_bytes(bytearray(data)), filterkit.load(path),
              filterkit.load(str(path)), filterkit.load(os.fsencode(path)),
              pickle.loads(pickle.dumps(f)), copy.copy(f), copy.deepcopy(f), f.copy()]
    for g in others:
        assert type(g) is type(f) and g is not f
        assert g.to_bytes() == data
        assert g.fpr == 0.005 and g.seed == 99 and g.stats() == f.stats()
        assert g.contains_many(keys).all()
        assert (g.contains_many(probes) == answers).all()
    if "static" not in caps(kind):
        g = copy.copy(f)
        g.add("only in the copy")
        assert f.to_bytes() == data  # independent


def test_pickle_protocols_and_containers():
    f = filterkit.Counting(capacity=100)
    f.update(["a", "b", "a"])
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        d = pickle.loads(pickle.dumps({"f": f, "l": [f]}, protocol=proto))
        assert d["f"].count("a") >= 2 and d["f"].to_bytes() == f.to_bytes()


class Pickled(filterkit.Counting):
    """a user's subclass at module level: pickle finds it by name"""


def test_subclass_survives_pickle():
    p = Pickled(capacity=100)
    p.add("k")
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is Pickled and q.count("k") == 1


def test_subclass_survives_copy():
    class Mine(filterkit.Bloom):
        pass
    m = Mine(capacity=100)
    m.add(1)
    c = copy.copy(m)
    assert type(c) is Mine and 1 in c


def test_wrong_kind_is_a_type_error():
    for a in filterkit.kinds():
        if "static" in caps(a):
            continue
        data = make(a, capacity=100, keys=[1]).to_bytes()
        assert type(filterkit.Filter.from_bytes(data)) is filterkit.kind_class(a)
        for b in filterkit.kinds():
            if b != a:
                with pytest.raises(TypeError, match=a):
                    filterkit.kind_class(b).from_bytes(data)


def test_subclass_from_bytes():
    class Mine(filterkit.Cuckoo):
        pass
    data = filterkit.Cuckoo(capacity=100).to_bytes()
    assert type(Mine.from_bytes(data)) is Mine


def test_growing_filter_keeps_growing_after_load():
    f = filterkit.ScalableBloom(capacity=100, fpr=0.01)
    f.add_many(np.arange(1000, dtype=np.uint64))
    g = pickle.loads(pickle.dumps(f))
    g.add_many(np.arange(1000, 5000, dtype=np.uint64))
    assert g.contains_many(np.arange(5000, dtype=np.uint64)).all()
