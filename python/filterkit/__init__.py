"""filterkit: approximate membership filters over the filterkit C library.

Every kind of the library (filterkit.kinds(): bloom, blocked, counting,
cuckoo, the growing scalable-* kinds, ...) is a set-like class with the same
methods::

    import filterkit
    f = filterkit.Blocked(capacity=10**6, fpr=0.01)   # or Filter("blocked", ...)
    f.add("alice"); f.update([1, 2, 3])
    "alice" in f, 4 in f                              # True, False (or a false positive)
    f.contains_many(numpy.arange(10**6, dtype=numpy.uint64))   # a NumPy bool array
    f.save("users.fk"); g = filterkit.load("users.fk")

Keys: bytes (as they are), str (its UTF-8 bytes: the same key as a line of
the CLI), int in 0 .. 2**64-1 (its 8 little-endian bytes: the same key as
the C calls fk_filter_*_u64). A negative or larger int raises OverflowError;
any other type TypeError. Files and to_bytes() are the CLI's and Redis's
format: a filter saved by one is loaded by the others.

Methods by capability (a class has only those its kind supports; the
class attribute `capabilities` lists them): add/update/add_many (every
kind but the static ones, made with Kind.build(keys)); remove/discard
("remove"); count ("count"); f | g and f |= g ("merge": true for every
key either holds); f & g and f &= g ("intersect": true for every key both
hold, and possibly for more keys than a filter of the common keys alone).
Both need filters made alike (same kind, capacity, fpr and seed), else
ValueError; a kind without them raises TypeError, as any unsupported operand.
advance(now) and describe() ("expires": filterkit.Window, a sliding
window: present for the last `capacity` adds, or with span=T for T ticks
of a clock only advance(now) moves, an int in the caller's unit that never
goes back; help(filterkit.Window)).
Every kind: clear() (but static ones), f == g (same kind, parameters and
bits), f.capacity, weakref.ref(f); f <= g (subset by bits) for bloom and
blocked, TypeError for the others; len(f) raises TypeError (no filter knows
how many distinct keys it holds: stats()["items"] counts insertions).

Exceptions: ValueError (bad parameters: fpr not in (0, 1) or NaN, capacity
0, a filter over 64 GiB), TypeError (wrong types), OverflowError (int key
out of range), MemoryError, KeyError (remove of an absent key),
FilterFullError (a bounded kind such as cuckoo has no room; nothing lost),
LimitError (a FilterFullError and a ValueError: the filter would pass its
byte limit when made or grown: the max_bytes knob, else
default_max_bytes(), half the least of the physical memory, RLIMIT_AS,
RLIMIT_DATA and the cgroup's memory.max, at most 64 GiB; f.max_bytes
says which), CorruptError and UnsupportedError (both ValueError: damaged bytes, a newer
format, or an operation the kind cannot do), OSError (files). All of
filterkit's own derive from filterkit.Error.

Threads: every call may run from any thread at any time; the binding
keeps each filter's table from changing under a reader. Each filter has
a lock: contains_many, add_many and save (for 1024 keys and more), grow,
|=, &=, | and & release the GIL and hold their filters meanwhile, a
writer alone, readers together; | and & hold both filters (the left one
written, the right one read), taken in address order, so f |= g beside
g |= f cannot deadlock. The calls that keep the GIL (x in f, add,
update, remove, discard, count, stats, to_bytes) run when no holder
conflicts. A call that must wait sleeps on the lock with the GIL
released (no CPU while waiting); batches queue behind a waiting writer.
Filters not in the same call never wait for each other.

Cost: x in f and add are one hash and a few memory accesses (tens of ns);
the batch calls overlap the memory accesses of many keys; to_bytes, copy,
pickle, | and & are O(size).
"""
import json
import struct
import threading

from . import _filterkit
from ._filterkit import (  # noqa: F401  (re-exported)
    CorruptError,
    Error,
    Filter,
    FilterFullError,
    LimitError,
    UnsupportedError,
    bench,
    default_max_bytes,
    from_bytes,
    kinds,
    library_version,
    load,
)

__version__ = _filterkit.__version__

# One class per kind of the registry, named from the kind ("scalable-bloom"
# -> ScalableBloom), made by the extension; exported here.
_classes = dict(_filterkit._kind_classes)
globals().update({cls.__name__: cls for cls in _classes.values()})


def kind_class(kind):
    """The class of the kind named `kind` (filterkit.kind_class("bloom") is
    filterkit.Bloom). ValueError for an unknown name."""
    try:
        return _classes[kind]
    except (KeyError, TypeError):
        raise ValueError("unknown filter kind %r (filterkit.kinds() lists them)" % (kind,)) from None


def sizing(kind, capacity, fpr=0.01, **knobs):
    """What Filter(kind, capacity=..., fpr=..., **knobs) would build, without
    building it: a dict with memory_bytes, expected_fpr (theory once
    `capacity` distinct keys are in) and geometry (the derived shape in
    words). ValueError when the kind refuses the parameters. Cost: O(1)."""
    return _filterkit._sizing(kind, capacity=capacity, fpr=fpr, **knobs)


# Parquet's split-block Bloom filter: a Blocked filter hashing as Parquet
# does (XXH64, seed 0, of the value's PLAIN encoding), byte for byte the
# bitset a Parquet writer stores for a column chunk (blocked/blocked.h).
parquet_bytes = _filterkit.parquet_bytes


def parquet_filter(ndv=None, fpp=0.01, *, nbytes=None):
    """An empty Blocked filter with Parquet's hashing scheme: of nbytes
    bytes (a power of two from 32 to 128 MiB), or of the size Parquet
    writers give ndv distinct values at false-positive probability fpp
    (parquet_bytes(ndv, fpp)). Keys are the values' PLAIN encodings: an
    int is its 8 little-endian bytes, an INT64 value (an INT32 column takes
    struct.pack("<i", v), FLOAT "<f", DOUBLE "<d"); a str its UTF-8 bytes
    and bytes as they are (BYTE_ARRAY). ValueError for a bad size or fpp.
    Cost: nbytes allocated and zeroed."""
    if nbytes is None:
        if isinstance(ndv, bool) or not isinstance(ndv, int) or ndv < 0:
            raise ValueError("parquet_filter: give ndv (an int >= 0) and fpp, or nbytes; got ndv=%r" % (ndv,))
        nbytes = parquet_bytes(ndv, fpp)
    elif ndv is not None:
        raise ValueError("parquet_filter: give ndv and fpp, or nbytes, not both")
    if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < 0:
        raise ValueError("parquet_filter: nbytes must be an int, got %r" % (nbytes,))
    return _filterkit._sbbf_new(nbytes)


def from_sbbf(data, /):
    """A Blocked filter with Parquet's hashing scheme holding a copy of
    data, a split-block bitset as a Parquet file stores it (after its
    BloomFilterHeader): its size a power of two from 32 bytes to 128 MiB,
    else ValueError. Probe it with the PLAIN encodings of the column's
    values (see parquet_filter). Cost: one copy."""
    return _filterkit._sbbf_from(data)


def to_sbbf(f, /):
    """The bitset of f, a Blocked filter with Parquet's hashing scheme
    (parquet_filter, from_sbbf, parquet_filters), as bytes laid out as a
    Parquet file stores it: from_sbbf(to_sbbf(f)) is f again. ValueError
    for any other filter. Cost: one copy."""
    return _filterkit._sbbf_bytes(f)


# One pick at a time: the pick component behind it (bench/pick/) writes
# process-wide progress lines (it runs with the GIL released).
_pick_lock = threading.Lock()


def _pick_number(x, what, low, high=None):
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not x >= low or \
            (high is not None and not x <= high):
        raise ValueError("%s must be a number in [%r, %r], got %r" % (what, low, high, x))
    return repr(x) if isinstance(x, float) else str(x)


def pick(n, fpr, *, deletes=False, memory=None, static=False, measure=True, read_ratio=0.9,
         seed=1, repeat=3, headroom=None, counts=False, merges=False, n_uncertain=False,
         grow_to=None, window=None, window_seconds=None, rate=None):
    """Recommends a kind for n items at false-positive rate fpr: what the
    CLI's `filterkit pick --format json` prints (the same C component,
    bench/pick/, linked into this module), returned as data.

    The arguments are the CLI's options: deletes (--deletes), memory (a
    budget in bytes, --memory), static (--static: the whole set is known
    before any lookup), read_ratio, seed, repeat (timed runs per figure),
    headroom (the share of n added later, default 0.25), counts, merges.
    measure=False is --no-timing: nothing timed, the smallest kind the
    sizing formulas admit wins. For a set whose size is not known:
    n_uncertain=True (--n-uncertain: n is a guess, the kinds that grow are
    weighed over a 1024-fold growth) or grow_to=N (--grow-to: it starts at
    n and reaches N). For a sliding window: window=N (--window: "seen
    among the last N adds"; n may be None), or window_seconds=T with n
    (the items one window brings at the peak) or rate (items per second).

    Returns the CLI's JSON as a dict: query, recommendation (None when
    nothing fits; else kind, capacity, fpr, memory_bytes, the build, c and
    python lines, decided_by: why it won, ties included), candidates (one
    per kind: reason it lost or was ruled out, tied, sizes, and when timed,
    measured: medians, min and max of the runs, cost_ns with cost_ns_low
    and cost_ns_high), run. Plus, as in 0.3.0: kind (the recommendation's,
    or None), params (the keyword arguments of filterkit.Filter(kind,
    **params)), memory_bytes, expected_fpr, and each candidate's why_not
    (its reason). Progress goes to stderr as the CLI's does
    (FILTERKIT_PROGRESS=0 in the environment silences it). Cost: about a
    second per kind timed; none with measure=False.
    """
    def count(x, what):
        if isinstance(x, bool) or not isinstance(x, int) or x < 1:
            raise ValueError("%s must be an int >= 1, got %r" % (what, x))
        return str(x)

    windowed = window is not None or window_seconds is not None
    if n is not None or not windowed:
        count(n, "n")
    if isinstance(fpr, bool) or not (isinstance(fpr, (int, float)) and 0 < fpr < 1):
        raise ValueError("fpr must be in (0, 1), got %r" % (fpr,))
    if window is not None and window_seconds is not None:
        raise ValueError("window (the last N adds) and window_seconds (the last T seconds) "
                         "are two kinds of window: give one")
    if window_seconds is not None and n is None and rate is None:
        raise ValueError("window_seconds needs n (items per window at the peak) or rate")
    if rate is not None and window_seconds is None:
        raise ValueError("rate (items per second) goes with window_seconds")
    if windowed and (n_uncertain or grow_to is not None):
        raise ValueError("n_uncertain and grow_to are for sets that grow, not for windows")
    if n_uncertain and grow_to is not None:
        raise ValueError("give n_uncertain (n is a guess) or grow_to (the size it reaches), not both")
    def whole(x, what):
        # a count given as a float must be whole (60.0 is 60)
        if isinstance(x, float) and x.is_integer():
            x = int(x)
        if isinstance(x, bool) or not isinstance(x, int) or x < 1:
            raise ValueError("%s must be a whole number >= 1, got %r" % (what, x))
        return x

    query = {"fpr": float(fpr), "read_ratio": float(_pick_number(read_ratio, "read_ratio", 0, 1)),
             "seed": int(_pick_number(seed, "seed", 0)), "repeat": int(_pick_number(repeat, "repeat", 1)),
             "deletes": bool(deletes), "static": bool(static), "counts": bool(counts),
             "merges": bool(merges), "no_timing": not measure, "n_uncertain": bool(n_uncertain)}
    if n is not None:
        query["n"] = int(count(n, "n"))
    if window is not None:
        query["window"] = int(count(window, "window"))
    if window_seconds is not None:
        _pick_number(window_seconds, "window_seconds", 1e-9)
        query["window_seconds"] = whole(window_seconds, "window_seconds")
    if rate is not None:
        _pick_number(rate, "rate", 1e-9)
        query["rate"] = whole(rate, "rate")
    if grow_to is not None:
        query["grow_to"] = int(count(grow_to, "grow_to"))
    if memory is not None:
        if isinstance(memory, bool) or not isinstance(memory, int) or memory < 1:
            raise ValueError("memory must be an int >= 1 (bytes) or None, got %r" % (memory,))
        query["memory"] = memory
    if headroom is not None:
        query["headroom"] = float(_pick_number(headroom, "headroom", 0))
    for k in ("n", "window", "window_seconds", "rate", "grow_to", "memory", "seed", "repeat"):
        if query.get(k, 0) >= 2**64:
            raise ValueError("%s is too large: %r" % (k, query[k]))
    with _pick_lock:
        status, answer, message = _filterkit._pick(**query)
    if status == 2:
        raise ValueError("filterkit.pick: " + message)
    if status == 3:
        raise RuntimeError("filterkit.pick: " + message)
    rec = answer["recommendation"]
    for c in answer["candidates"]:
        c["why_not"] = c["reason"]
    chosen = [c for c in answer["candidates"] if c["chosen"]]
    answer["kind"] = rec["kind"] if rec else None
    answer["params"] = {"capacity": rec["capacity"], "fpr": rec["fpr"]} if rec else None
    if rec and rec.get("window_seconds"):
        # a time window's span in nanoseconds, the unit of the recommendation's
        # Python line: a Window on Unix time (clock="unix_ns", the default),
        # advance() (time.time_ns()) before each add
        answer["params"]["span"] = int(round(rec["window_seconds"] * 10**9))
    answer["memory_bytes"] = rec["memory_bytes"] if rec else None
    answer["expected_fpr"] = chosen[0].get("theory_fpr") if chosen else None
    return answer


class ParquetChunk:
    """One column chunk of a Parquet file (filterkit.parquet_filters): its
    row_group (0 is the first), column (the dotted path, as
    path_in_schema), type (the physical type's name: "INT32", "INT64",
    "FLOAT", "DOUBLE", "BYTE_ARRAY", ...), filter (a filterkit.Blocked
    holding the chunk's split-block Bloom filter byte for byte, keyed by
    the values' PLAIN encodings; None when the chunk has none) and distinct
    (the distinct values the footer's statistics or the dictionary page
    state, or None).

    `value in chunk` answers as the file's readers do: False when the
    filter excludes the value, True when it may hold it (always True for a
    chunk without a filter). The value is encoded by the column's type: an
    int as 4 (INT32) or 8 (INT64) little-endian bytes (OverflowError out of
    range), a float (or an int) as an IEEE-754 FLOAT or DOUBLE, a str as its
    UTF-8 bytes and bytes as they are (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY);
    TypeError for another type (a BOOLEAN or INT96 column)."""

    __slots__ = ("row_group", "column", "type", "filter", "distinct")

    _TYPES = ("BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
              "FIXED_LEN_BYTE_ARRAY")
    _PACK = {"INT32": "<i", "INT64": "<q", "FLOAT": "<f", "DOUBLE": "<d"}

    def __init__(self, row_group, column, type_number, filter, distinct):
        self.row_group = row_group
        self.column = column
        self.type = self._TYPES[type_number] if 0 <= type_number < len(self._TYPES) else "UNKNOWN"
        self.filter = filter
        self.distinct = distinct

    def plain(self, value):
        """The value's PLAIN encoding for this column's type (the key its
        filter holds)."""
        if self.type in self._PACK:
            integral = self.type in ("INT32", "INT64")
            if isinstance(value, bool) or not isinstance(value, (int, float) if not integral else int):
                raise TypeError("a %s column takes %s values, not %s" % (
                    self.type, "int" if integral else "float", type(value).__name__))
            try:
                return struct.pack(self._PACK[self.type], value)
            except struct.error:
                raise OverflowError("%r does not fit a %s" % (value, self.type)) from None
        if self.type in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
            if isinstance(value, str):
                return value.encode("utf-8")
            if isinstance(value, (bytes, bytearray, memoryview)):
                return bytes(value)
            raise TypeError("a %s column takes str or bytes, not %s" % (self.type, type(value).__name__))
        raise TypeError("probing a %s column is not supported" % self.type)

    def __contains__(self, value):
        key = self.plain(value)
        return self.filter is None or key in self.filter

    def __repr__(self):
        return "ParquetChunk(row_group=%d, column=%r, type=%r, filter=%s, distinct=%r)" % (
            self.row_group, self.column, self.type,
            "None" if self.filter is None else "<%d-byte split-block filter>" % self.filter.stats()["memory_bytes"],
            self.distinct)


def parquet_filters(path):
    """Every column chunk of the Parquet file at path, in file order (row
    group by row group, columns in schema order), as ParquetChunk objects:
    row_group, column, type, filter (a filterkit.Blocked with the chunk's
    Bloom filter, or None) and distinct; `value in chunk` probes a value of
    the column's type. OSError when the file cannot be read; CorruptError
    for a file that is not Parquet or whose footer or a filter header is
    damaged; UnsupportedError for an encrypted footer or a filter of
    another algorithm; LimitError for a footer over the reader's caps.
    Cost: the footer read and parsed, then each filter's bytes read and
    copied once (the GIL released while reading)."""
    return [ParquetChunk(*row) for row in _filterkit._parquet_chunks(path)]


__all__ = ["Filter", "Error", "FilterFullError", "LimitError", "CorruptError", "UnsupportedError", "kinds",
           "kind_class", "load", "from_bytes", "bench", "pick", "sizing", "library_version",
           "default_max_bytes", "parquet_filters", "ParquetChunk"] + \
    sorted(c.__name__ for c in _classes.values())
__all__ += ["parquet_bytes", "parquet_filter", "from_sbbf", "to_sbbf"]
