"""Parquet's split-block Bloom filter from Python (filterkit.parquet_filter,
from_sbbf, to_sbbf, parquet_bytes): Arrow's reference bitsets byte for
byte (NVIDIA cuCollections tests/bloom_filter/arrow_compat_test.cu: int32
keys 1..100 into 2 blocks, int64 1..50 into 4, float 1..200 into 8), the
round trip through the bitset and through to_bytes, the writers' sizing
rule, and the refusals."""
import struct

import pytest

import filterkit

ARROW_INT32 = [3017764846, 4219371383, 4160077310, 3214786543, 4020088765, 4294437885,
               2013200345, 2550116063, 855631359, 4290436829, 2884632042, 1592483646,
               4281695998, 2080111551, 3220060030, 4021279731]
ARROW_INT64 = [860053560, 186397876, 1518788617, 2013987426, 545522943, 79856155,
               103371656, 20265733, 2168586373, 1210138712, 2437452036, 1342183988,
               1107366672, 3560981000, 2184221186, 1661010032, 2317009736, 1442875878,
               1116227467, 3458613792, 114398528, 679658134, 206734656, 340863450,
               2220104352, 141846788, 948331524, 2344943952, 4030989912, 3239203139,
               2941256193, 4035057968]
ARROW_FLOAT_HEAD = [3807057303, 3207519405, 2508188120, 1491024175, 2073585514, 2094743110,
                    2533287591, 691662424]


def words(b):
    return list(struct.unpack("<%dI" % (len(b) // 4), b))


def test_arrow_reference_bitsets():
    f = filterkit.parquet_filter(nbytes=64)
    assert isinstance(f, filterkit.Blocked)
    f.update(struct.pack("<i", v) for v in range(1, 101))
    assert words(filterkit.to_sbbf(f)) == ARROW_INT32
    g = filterkit.parquet_filter(nbytes=128)
    g.update(range(1, 51))  # an int key is its 8 little-endian bytes: INT64's PLAIN encoding
    assert words(filterkit.to_sbbf(g)) == ARROW_INT64
    h = filterkit.parquet_filter(nbytes=256)
    h.add_many([struct.pack("<f", float(v)) for v in range(1, 201)])
    assert words(filterkit.to_sbbf(h))[:8] == ARROW_FLOAT_HEAD


def test_bitset_and_file_round_trips():
    f = filterkit.parquet_filter(10000, 0.01)
    f.update(range(5000))
    bits = filterkit.to_sbbf(f)
    assert len(bits) == filterkit.parquet_bytes(10000, 0.01) == 16384
    g = filterkit.from_sbbf(bits)
    assert filterkit.to_sbbf(g) == bits
    assert all(k in g for k in range(5000))
    assert filterkit.from_sbbf(bytearray(bits)) is not None
    assert filterkit.from_sbbf(memoryview(bits)) is not None
    h = filterkit.from_bytes(f.to_bytes())  # the file records the scheme
    assert filterkit.to_sbbf(h) == bits
    assert g.describe()["hash"].startswith("parquet")
    assert 0 < g.stats()["expected_fpr"] < 0.02
    g |= f  # same scheme and size: they merge
    assert filterkit.to_sbbf(g) == bits


def test_sizing_rule():
    assert filterkit.parquet_bytes(1000, 0.01) == 2048
    assert filterkit.parquet_bytes(0, 0.01) == 32
    assert filterkit.parquet_bytes(10**12, 0.01) == 128 << 20
    for bad in (0.0, 1.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            filterkit.parquet_bytes(10, bad)


def test_refusals():
    for n in (0, 16, 48, 1000, 256 << 20):
        with pytest.raises(ValueError):
            filterkit.parquet_filter(nbytes=n)
        with pytest.raises(ValueError):
            filterkit.from_sbbf(b"\0" * n)
    with pytest.raises(ValueError):
        filterkit.parquet_filter(10, 0.01, nbytes=64)
    with pytest.raises(ValueError):
        filterkit.parquet_filter()
    with pytest.raises(TypeError):
        filterkit.from_sbbf("not bytes")
    with pytest.raises(ValueError):
        filterkit.to_sbbf(filterkit.Blocked(capacity=100, fpr=0.01))
    with pytest.raises(ValueError):
        filterkit.to_sbbf(filterkit.Bloom(capacity=100, fpr=0.01))
    with pytest.raises(TypeError):
        filterkit.to_sbbf(b"bytes")
    f = filterkit.parquet_filter(nbytes=32)
    with pytest.raises(ValueError):
        f | filterkit.Blocked(capacity=10, fpr=0.01, seed=0)
