# Type stubs of filterkit (the classes are made at import, one per kind of
# the C registry; the ones below are those of this release). Methods a kind
# lacks are absent from its class (Bloom has no remove): the stubs list each
# class's methods by capability.
import os
from typing import Any, ClassVar, Iterable, NotRequired, Optional, Sequence, TypedDict, TypeVar, Union

import numpy as np
import numpy.typing as npt

__version__: str

Key = Union[bytes, bytearray, memoryview, str, int]
"""bytes as they are; str as its UTF-8 bytes; int in 0 .. 2**64-1 as its 8
little-endian bytes (OverflowError outside)."""
Keys = Union[npt.NDArray[np.uint64], npt.NDArray[np.int64], Sequence[Key], Iterable[Key]]
"""A NumPy array or buffer of 64-bit integers (no copy, GIL released), or any
sequence or iterable of keys."""
PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
_F = TypeVar("_F", bound="Filter")

class Error(Exception): ...
class FilterFullError(Error):
    done: int  # set by the batch calls: keys inserted before the refused one
class LimitError(FilterFullError, ValueError): ...
class CorruptError(Error, ValueError): ...
class UnsupportedError(Error, ValueError): ...

class Stats(TypedDict):
    kind: str
    items: int
    capacity: int
    memory_bytes: int
    bits_per_item: float
    load_factor: float
    expected_fpr: float
    target_fpr: float
    seed: int

class BenchRow(TypedDict):
    kind: str
    n: int
    fpr: float
    seed: int
    memory_bytes: Optional[int]
    bits_per_item: Optional[float]
    fpr_measured: Optional[float]
    fpr_theory: Optional[float]
    insert_ns: Optional[float]
    lookup_hit_ns: Optional[float]
    lookup_miss_ns: Optional[float]
    contains_many_ns: Optional[float]
    remove_ns: Optional[float]
    insert_failures: Optional[int]
    false_negatives: Optional[int]
    error: Optional[str]

class Filter:
    """Filter(kind, /, capacity, fpr=0.01, *, seed=0, **knobs): an instance
    of the kind's class (Bloom(capacity, fpr) too). Knobs (0 = derive): bits,
    hashes, counter_bits, fingerprint_bits, growth, max_load, tightening,
    max_bytes (0: default_max_bytes()). f == g: same kind, parameters and
    bits; f <= g / f >= g: subset by bits (bloom, blocked; TypeError for
    the others); len(f) raises TypeError (a filter does not know how many
    distinct keys it holds: stats()["items"] counts insertions); weakref.ref(f)
    works."""
    kind: ClassVar[str]          # on each kind's class
    summary: ClassVar[str]
    capabilities: ClassVar[frozenset[str]]  # remove count serialize bounded grows static merge intersect resizes expires
    def __new__(cls: type[_F], kind: str = ..., /, capacity: Optional[int] = ..., fpr: float = 0.01, *,
                seed: int = 0, bits: int = 0, hashes: int = 0, counter_bits: int = 0,
                fingerprint_bits: int = 0, growth: int = 0, max_load: float = 0.0,
                tightening: float = 0.0, max_bytes: int = 0) -> _F: ...
    @property
    def fpr(self) -> float: ...
    @property
    def seed(self) -> int: ...
    @property
    def max_bytes(self) -> int: ...   # the byte limit growth stays under
    @property
    def capacity(self) -> int: ...    # items it is sized for (stats()["capacity"])
    def __contains__(self, key: Key) -> bool: ...
    def __len__(self) -> int: ...     # raises TypeError: a filter's count of distinct keys is an estimate
    def __bool__(self) -> bool: ...   # always True
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...
    def __le__(self, other: Filter) -> bool: ...   # bloom, blocked: subset by bits; else TypeError
    def __ge__(self, other: Filter) -> bool: ...
    def contains_many(self, keys: Keys, /, out: Optional[npt.NDArray[np.bool_]] = None) -> npt.NDArray[np.bool_]: ...
    def stats(self) -> Stats: ...
    # the kind's own figures (the library's describe rows), every kind;
    # a window's are WindowState, a growing kind's links under "chain"
    def describe(self) -> dict[str, Any]: ...
    def to_bytes(self) -> bytes: ...
    def save(self, path: PathLike, /) -> None: ...
    @classmethod
    def from_bytes(cls: type[_F], data: Union[bytes, bytearray, memoryview], /) -> _F: ...
    @classmethod
    def build(cls: type[_F], keys: Keys, /, *, capacity: Optional[int] = None, fpr: float = 0.01,
              seed: int = 0, **knobs: Any) -> _F: ...
    def copy(self: _F) -> _F: ...
    def __copy__(self: _F) -> _F: ...
    def __deepcopy__(self: _F, memo: Any) -> _F: ...
    def __sizeof__(self) -> int: ...

class _Inserts(Filter):
    def add(self, key: Key, /) -> None: ...
    def update(self, *iterables: Keys) -> None: ...
    def add_many(self, keys: Keys, /, *, concurrent: bool = ...) -> None: ...
    def clear(self) -> None: ...   # every key gone; UnsupportedError when its shape cannot be remade

class _Removes(Filter):
    def remove(self, key: Key, /) -> None: ...   # KeyError when definitely absent
    def discard(self, key: Key, /) -> None: ...

class _Counts(Filter):
    def count(self, key: Key, /) -> int: ...

class _Resizes(Filter):
    # doubles in place without the keys: every key and count kept; the fpr
    # at a given number of keys, capacity and target_fpr double. ValueError
    # when it cannot double again, LimitError past max_bytes. O(size).
    def grow(self) -> None: ...

class _Merges(Filter):
    # the union: true for every key either holds; filters made alike (same
    # kind, capacity, fpr, seed), else ValueError. O(size).
    def __or__(self: _F, other: _F) -> _F: ...
    def __ior__(self: _F, other: _F) -> _F: ...

class _Intersects(Filter):
    # the intersection: true for every key both hold (and possibly more
    # than a filter of the common keys alone); filters made alike, else
    # ValueError. O(size).
    def __and__(self: _F, other: _F) -> _F: ...
    def __iand__(self: _F, other: _F) -> _F: ...

class WindowState(TypedDict):
    mode: str                      # "count" or "time"
    clock: Optional[str]           # time: "unix_ns" or "caller"; count: None
    window: int                    # N adds (count) or span ticks (time)
    generation_length: int         # ceil(window / 7)
    generation: int                # the current generation's number, from 0
    oldest_age: int                # adds or ticks since the oldest live generation began
    live: int                      # slots in use
    live_budget: int               # the most live slots: 8 generation_length
    slots: int
    buckets: int
    generation_slots: list[int]    # [0] the current generation, [7] the oldest
    generation_inserts: list[int]
    swept_last: int                # slots the last sweep freed
    swept_total: int
    refreshed: int                 # adds of a key already there
    refused: NotRequired[int]      # time only: adds refused (fed past its capacity)
    kicks: int
    stashed: int                   # live keys beside the table (walks that failed)
    clock_set: NotRequired[bool]   # this and the rows below: a time window's only
    clock_id: NotRequired[int]     # 0 caller, 1 unix_ns
    timed: NotRequired[bool]
    now: NotRequired[int]
    next_boundary: NotRequired[int]
    fingerprint_bits: int
    slot_bits: int
    seed: int

class _Expires(Filter):
    # a sliding window: present for the last `capacity` adds (span=None) or
    # for span ticks of its clock (advance); no remove; len() raises
    @property
    def span(self) -> Optional[int]: ...   # ticks, the unit of advance(now); None: a count window
    @property
    def now(self) -> Optional[int]: ...    # the clock; None before the first advance / count window
    @property
    def clock(self) -> Optional[str]: ...  # "unix_ns" (Unix ns) or "caller" (your ticks); None: count
    # advance(): time.time_ns() on a "unix_ns" window (TypeError on "caller");
    # ValueError for an explicit now backwards or past 2**62; UnsupportedError on a count window
    def advance(self, now: Optional[int] = None, /) -> None: ...
    def describe(self) -> WindowState: ...  # type: ignore[override]

class Bloom(_Inserts, _Merges, _Intersects): ...
class Blocked(_Inserts, _Merges, _Intersects): ...
class Counting(_Inserts, _Removes, _Counts): ...
class Cuckoo(_Inserts, _Removes, _Counts): ...
class ScalableBloom(_Inserts): ...
class ScalableBlocked(_Inserts): ...
class ScalableCuckoo(_Inserts, _Removes, _Counts): ...
class Fuse(Filter): ...      # static: Fuse.build(keys, fpr=...)
class Ribbon(Filter): ...    # static: Ribbon.build(keys, fpr=...)
class Quotient(_Inserts, _Removes, _Counts, _Merges, _Resizes): ...
class ExpandableStats(Stats):
    doublings: int                 # doublings so far (capacity: the keys before the next)

class ExpandableState(TypedDict):
    doublings: int
    fingerprint_bits: int          # F: bits of a new key's fingerprint
    shortest_fingerprint: int      # lengths in the table (0, 0 when empty)
    longest_fingerprint: int
    voids: int                     # entries out of bits (past the expected growth)
    void_share: float
    slot_bits: int                 # F + 1 (16 or 32 in files of 0.4.0)
    growth: int                    # the expected growth F was sized for
    quotients: int
    slots: int
    entries: int
    seed: int
    target_fpr: float
    bits_per_entry: float          # memory_bytes * 8 over the keys held (0 when empty)

class Expandable(_Inserts, _Removes):
    def stats(self) -> ExpandableStats: ...
    def describe(self) -> ExpandableState: ...  # type: ignore[override]
class Window(_Inserts, _Expires):
    def __new__(cls: type[_F], capacity: Optional[int] = ..., fpr: float = 0.01, *, seed: int = 0,
                span: Optional[int] = None, clock: Optional[str] = None, fingerprint_bits: int = 0,
                max_load: float = 0.0, max_bytes: int = 0) -> _F: ...

def kinds() -> list[str]: ...
def kind_class(kind: str) -> type[Filter]: ...
def load(path: PathLike, /) -> Filter: ...
def from_bytes(data: Union[bytes, bytearray, memoryview], /) -> Filter: ...
def library_version() -> str: ...
def default_max_bytes() -> int: ...
def sizing(kind: str, capacity: int, fpr: float = 0.01, **knobs: Any) -> dict[str, Any]: ...
def parquet_bytes(ndv: int, fpp: float, /) -> int: ...
def parquet_filter(ndv: Optional[int] = None, fpp: float = 0.01, *, nbytes: Optional[int] = None) -> Blocked: ...
def from_sbbf(data: Union[bytes, bytearray, memoryview], /) -> Blocked: ...
def to_sbbf(f: Filter, /) -> bytes: ...
def bench(kinds: Union[None, str, Sequence[str]] = None, n: int = 100000,
          fpr: Union[float, Sequence[float]] = 0.01, seed: int = 1, repeat: int = 3) -> list[BenchRow]: ...
def pick(n: Optional[int], fpr: float, *, deletes: bool = False, memory: Optional[int] = None,
         static: bool = False, measure: bool = True, read_ratio: float = 0.9,
         seed: int = 1, repeat: int = 3, headroom: Optional[float] = None,
         counts: bool = False, merges: bool = False, n_uncertain: bool = False,
         grow_to: Optional[int] = None, window: Optional[int] = None,
         window_seconds: Optional[float] = None, rate: Optional[float] = None) -> dict[str, Any]: ...

class ParquetChunk:
    row_group: int
    column: str
    type: str                      # "INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY", ...
    filter: Optional[Blocked]      # the chunk's split-block Bloom filter, or None
    distinct: Optional[int]        # distinct values (statistics or dictionary), or None
    def __init__(self, row_group: int, column: str, type_number: int, filter: Optional[Blocked],
                 distinct: Optional[int]) -> None: ...
    def plain(self, value: Union[int, float, str, bytes, bytearray, memoryview]) -> bytes: ...
    def __contains__(self, value: object) -> bool: ...

def parquet_filters(path: PathLike) -> list[ParquetChunk]: ...
