"""filterkit.parquet_filters on tests/parquet/duckdb_small.parquet, a file
DuckDB wrote (tests/parquet/duckdb_parquet.js small): 2 row groups of 2048
rows; in row group g the columns i32 and i64 hold g*1000 + 0..99, dbl those
over 4, s "v" and those, each chunk with a split-block Bloom filter."""
import os
import struct

import pytest

import filterkit

from conftest import ROOT

PATH = os.path.join(ROOT, "tests", "parquet", "duckdb_small.parquet")
TYPES = {"i32": "INT32", "i64": "INT64", "dbl": "DOUBLE", "s": "BYTE_ARRAY"}


def value(column, n):
    return {"i32": n, "i64": n, "dbl": n / 4, "s": "v%d" % n}[column]


def test_chunks_and_types():
    chunks = filterkit.parquet_filters(PATH)
    assert [(c.row_group, c.column) for c in chunks] == [(g, c) for g in (0, 1) for c in TYPES]
    for c in chunks:
        assert c.type == TYPES[c.column]
        assert isinstance(c.filter, filterkit.Blocked)
        assert c.distinct == 100
        assert c.filter.stats()["memory_bytes"] >= 128
    assert "row_group=0" in repr(chunks[0])


def test_no_false_negative_and_few_positives():
    chunks = filterkit.parquet_filters(PATH)
    for c in chunks:
        own = range(c.row_group * 1000, c.row_group * 1000 + 100)
        assert all(value(c.column, n) in c for n in own)
        # the plain encoding is the filter's key
        assert all(c.plain(value(c.column, n)) in c.filter for n in own)
        absent = range(5000, 7000)
        fp = sum(value(c.column, n) in c for n in absent)
        # 128 bytes for 100 values: an FPR near 1% (the fill's); 2000 probes
        assert fp <= 80, (c, fp)


def test_plain_encodings():
    chunks = {(c.row_group, c.column): c for c in filterkit.parquet_filters(PATH)}
    assert chunks[0, "i32"].plain(-2) == struct.pack("<i", -2)
    assert chunks[0, "i64"].plain(2**40) == struct.pack("<q", 2**40)
    assert chunks[0, "dbl"].plain(0.25) == struct.pack("<d", 0.25)
    assert chunks[0, "s"].plain("é") == "é".encode()
    assert chunks[0, "s"].plain(b"\x00") == b"\x00"
    with pytest.raises(OverflowError):
        chunks[0, "i32"].plain(2**31)
    with pytest.raises(TypeError):
        chunks[0, "i32"].plain("1")
    with pytest.raises(TypeError):
        chunks[0, "s"].plain(1)
    with pytest.raises(TypeError):
        chunks[0, "i64"].plain(True)


def test_bad_files(tmp_path):
    with pytest.raises(OSError):
        filterkit.parquet_filters(str(tmp_path / "nope.parquet"))
    text = tmp_path / "text.parquet"
    text.write_bytes(b"not parquet at all, just text\n")
    with pytest.raises(filterkit.CorruptError):
        filterkit.parquet_filters(str(text))
    data = open(PATH, "rb").read()
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(data[:-1])
    with pytest.raises(filterkit.CorruptError):
        filterkit.parquet_filters(cut)
    enc = tmp_path / "enc.parquet"
    enc.write_bytes(data[:-4] + b"PARE")
    with pytest.raises(filterkit.UnsupportedError):
        filterkit.parquet_filters(enc)
