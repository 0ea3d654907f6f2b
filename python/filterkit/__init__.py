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


# A kind qualifies when its theory at n is within this factor of the target
# (Bloom sizing rounds k to a whole number), as `filterkit pick` does.
_PICK_THEORY_SLACK = 1.05
# Among measured kinds within this factor of the fastest, the smallest wins.
_PICK_SPEED_SLACK = 1.25
_PICK_MAX_MEASURED = 200_000


def pick(n, fpr, *, deletes=False, memory=None, static=False, measure=False,
         read_ratio=0.9, seed=1):
    """Recommends a kind for n items at false-positive rate fpr, as the CLI's
    `filterkit pick` does.

    Every kind is sized by its own formulas (fk_ops_size: exact memory and
    theoretical FPR at n, nothing built). A kind is ruled out when it cannot
    remove and deletes=True, when it grows (with n known, its inner kind
    sized for n is smaller and faster), when it is static and static=False
    (pass static=True when the whole set is known before any lookup), when
    its theory at n is above fpr (5% slack), or when it needs more than
    `memory` bytes. Of the rest the smallest wins; with measure=True each is
    timed briefly (filterkit.bench at up to 200000 keys) and the fastest at
    read_ratio (the share of lookups among operations) wins, preferring the
    smallest of those within 1.25x of it.

    Returns a dict: kind (a name, or None when nothing fits), params (the
    keyword arguments to build it: filterkit.Filter(r["kind"], **r["params"])),
    memory_bytes, expected_fpr, and candidates (one dict per kind: kind,
    memory_bytes, expected_fpr, geometry, insert_ns / lookup_ns when
    measured, why_not (None for the ones that qualify)). Cost: O(kinds),
    plus the measurement (about a second per kind).
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError("n must be an int >= 1")
    if not (isinstance(fpr, (int, float)) and 0 < fpr < 1):
        raise ValueError("fpr must be in (0, 1), got %r" % (fpr,))
    if not 0 <= read_ratio <= 1:
        raise ValueError("read_ratio must be in [0, 1]")
    rows = []
    for name in kinds():
        caps = _classes[name].capabilities
        row = {"kind": name, "memory_bytes": None, "expected_fpr": None, "geometry": None,
               "insert_ns": None, "lookup_ns": None, "why_not": None}
        rows.append(row)
        if deletes and "remove" not in caps:
            row["why_not"] = "no deletes"
            continue
        if "grows" in caps:
            row["why_not"] = ("grows when n is unknown; with n known its inner kind sized for n "
                              "needs less memory and one lookup instead of one per sub-filter")
            continue
        if "static" in caps and not static:
            row["why_not"] = "static: made once from the whole set (pass static=True if it is known up front)"
            continue
        try:
            size = sizing(name, n, fpr)
        except (ValueError, UnsupportedError) as e:
            row["why_not"] = "cannot be made at this size and fpr (%s)" % e
            continue
        row.update(memory_bytes=size["memory_bytes"], expected_fpr=size["expected_fpr"],
                   geometry=size["geometry"])
        if size["expected_fpr"] > fpr * _PICK_THEORY_SLACK:
            row["why_not"] = "its theoretical fpr at n is %.3g, above the %.3g asked" % (
                size["expected_fpr"], fpr)
        elif memory is not None and size["memory_bytes"] > memory:
            row["why_not"] = "needs %d bytes, over the %d budget" % (size["memory_bytes"], memory)
    ok = [r for r in rows if r["why_not"] is None]
    if ok and measure:
        measured = bench([r["kind"] for r in ok], n=min(n, _PICK_MAX_MEASURED), fpr=fpr, seed=seed,
                         repeat=1)
        for r, m in zip(ok, measured):
            if m["error"]:
                r["why_not"] = "cannot be built at this fpr (%s)" % m["error"]
            elif m["insert_failures"]:
                r["why_not"] = "%d of %d inserts failed" % (m["insert_failures"], m["n"])
            else:
                r["insert_ns"] = m["insert_ns"]
                r["lookup_ns"] = (m["lookup_hit_ns"] + m["lookup_miss_ns"]) / 2
        ok = [r for r in ok if r["why_not"] is None]

        def cost(r):
            return read_ratio * r["lookup_ns"] + (1 - read_ratio) * r["insert_ns"]
        if ok:
            fastest = min(cost(r) for r in ok)
            ok = [r for r in ok if cost(r) <= fastest * _PICK_SPEED_SLACK]
    best = min(ok, key=lambda r: r["memory_bytes"]) if ok else None
    return {
        "kind": best["kind"] if best else None,
        "params": {"capacity": n, "fpr": fpr} if best else None,
        "memory_bytes": best["memory_bytes"] if best else None,
        "expected_fpr": best["expected_fpr"] if best else None,
        "candidates": rows,
    }


__all__ = ["Filter", "Error", "FilterFullError", "LimitError", "CorruptError", "UnsupportedError", "kinds",
           "kind_class", "load", "from_bytes", "bench", "pick", "sizing", "library_version",
           "default_max_bytes"] + \
    sorted(c.__name__ for c in _classes.values())
