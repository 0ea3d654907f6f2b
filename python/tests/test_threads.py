"""Threads on one filter. A merge, an intersection or a grow holds every
filter it touches for its whole run, so a GIL-free batch on either never
overlaps it (issue 38); a writer and a GIL-free batch never overlap, and a
call that must wait blocks on the filter's lock instead of spinning (issue
39). Run under ASan+UBSan by tests/cli_python.sh in `make test`; there the
issue-38 binding's merge freed a quotient table under a running
contains_many (heap-use-after-free)."""
import threading
import time

import numpy as np
import pytest

import filterkit

# Each scenario waits for its threads at most this long: a deadlock fails
# the test instead of hanging the run.
TIMEOUT_S = 60


def busy(f):
    """True while a GIL-free add_many runs on f (its repr says so)."""
    return repr(f).endswith("(busy)>")


def run_threads(*targets):
    """Starts one daemon thread per target and joins them all within
    TIMEOUT_S; returns the exceptions the targets raised."""
    errors = []

    def guard(fn):
        try:
            fn()
        except BaseException as e:  # noqa: B902 -- reported, not swallowed
            errors.append(e)

    threads = [threading.Thread(target=guard, args=(t,), daemon=True) for t in targets]
    for t in threads:
        t.start()
    return threads, errors


def join_all(threads):
    end = time.monotonic() + TIMEOUT_S
    for t in threads:
        t.join(max(0.0, end - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "threads still running: a deadlock"


def wait_until(cond, what):
    end = time.monotonic() + TIMEOUT_S
    while not cond():
        assert time.monotonic() < end, what
        time.sleep(0.001)


def merge_while_batches(f, g, g_keys, batch, expect_all):
    """Three threads: T1 fills g with a GIL-free add_many; T2 runs f |= g,
    which must wait for T1; T3 starts batches on f while T2 waits, and goes
    on until the merge is done. `batch()` is T3's call, `expect_all` the
    keys f must hold at the end."""
    merged = threading.Event()
    t1, e1 = run_threads(lambda: g.add_many(g_keys))
    wait_until(lambda: busy(g) or not t1[0].is_alive(), "g's add_many never started")
    assert busy(g), "g's add_many ended before the merge began: make g_keys larger"

    def merge():
        f.__ior__(g)
        merged.set()

    t2, e2 = run_threads(merge)
    time.sleep(0.02)  # T2 now waits for g (the old code: having checked f once)

    def batches():
        while not merged.is_set():
            batch()

    t3, e3 = run_threads(batches)
    join_all(t1 + t2 + t3)
    assert not (e1 + e2 + e3), e1 + e2 + e3
    assert f.contains_many(expect_all).all(), "keys lost: a batch ran beside the merge"


def test_contains_many_never_reads_a_table_the_merge_frees():
    # quotient merges into a new table and frees the old one: a GIL-free
    # lookup on f that overlaps f |= g reads freed memory (ASan reports it,
    # a plain build may crash or miss keys)
    n = 1_000_000
    f = filterkit.Quotient(capacity=4 * n, fpr=0.01, seed=7)
    g = filterkit.Quotient(capacity=4 * n, fpr=0.01, seed=7)
    f_keys = np.arange(n, dtype=np.uint64) * np.uint64(4)
    g_keys = np.arange(3 * n, dtype=np.uint64) * np.uint64(4) + np.uint64(1)
    f.add_many(f_keys)
    looked_up = np.tile(f_keys, 8)  # one batch outlasts the merge

    def lookups():
        assert f.contains_many(looked_up).all()

    merge_while_batches(f, g, g_keys, lookups, np.concatenate([f_keys, g_keys]))


@pytest.mark.parametrize("kind", ["bloom", "blocked"])
def test_add_many_never_overlaps_an_in_place_merge(kind):
    # bloom and blocked merge in place (word by word, f |= g): an add_many
    # on f running beside it loses the bits the merge writes back stale,
    # and the count of items the merge sets
    n = 1_000_000
    cls = filterkit.kind_class(kind)
    for _ in range(3):  # a lost bit is a matter of timing: three tries
        f = cls(capacity=8 * n, fpr=0.01, seed=3)
        g = cls(capacity=8 * n, fpr=0.01, seed=3)
        g_keys = np.arange(4 * n, dtype=np.uint64)
        added = []
        chunks = iter(np.array_split(np.uint64(5 * n) + np.arange(4 * n, dtype=np.uint64), 8))

        def adds():
            c = next(chunks, None)
            if c is not None:
                f.add_many(c)
                added.append(c)

        merge_while_batches(f, g, g_keys, adds, g_keys)
        assert added, "no add_many ran"
        all_added = np.concatenate(added)
        assert f.stats()["items"] == len(g_keys) + len(all_added), "items lost beside the merge"
        assert f.contains_many(all_added).all(), "keys added beside the merge lost"


def test_two_merges_in_opposite_orders_finish():
    # f |= g and g |= f at once, each waiting for batches on both filters:
    # neither may wait for the other forever
    n = 500_000
    f = filterkit.Bloom(capacity=4 * n, fpr=0.01, seed=1)
    g = filterkit.Bloom(capacity=4 * n, fpr=0.01, seed=1)
    fk = np.arange(n, dtype=np.uint64)
    gk = fk + np.uint64(n)
    for _ in range(5):
        t, e = run_threads(lambda: f.add_many(fk), lambda: g.add_many(gk),
                           lambda: f.__ior__(g), lambda: g.__ior__(f),
                           lambda: f.contains_many(gk), lambda: g.contains_many(fk))
        join_all(t)
        assert not e, e
    both = np.concatenate([fk, gk])
    assert f.contains_many(both).all() and g.contains_many(both).all()


def test_grow_and_intersect_wait_for_batches():
    # grow replaces the table, &= rewrites it: both wait for a GIL-free
    # batch on either filter, and a batch started while they wait comes after
    n = 1_000_000
    q = filterkit.Quotient(capacity=2 * n, fpr=0.001)
    keys = np.arange(n, dtype=np.uint64)
    more = keys + np.uint64(n)
    t, e = run_threads(lambda: q.add_many(keys), lambda: q.grow(),
                       lambda: q.contains_many(keys), lambda: q.add_many(more))
    join_all(t)
    assert not e, e
    assert q.contains_many(np.concatenate([keys, more])).all()
    a = filterkit.Blocked(capacity=4 * n, fpr=0.01)
    b = filterkit.Blocked(capacity=4 * n, fpr=0.01)
    a.add_many(keys)
    b.add_many(keys)
    t, e = run_threads(lambda: a.add_many(more), lambda: a.__iand__(b),
                       lambda: b.add_many(more), lambda: a.contains_many(keys))
    join_all(t)
    assert not e, e
    assert a.contains_many(keys).all()


def test_contains_many_beside_add_many_on_one_filter():
    # cuckoo inserts move fingerprints between buckets: a GIL-free lookup
    # overlapping a GIL-free insert could miss a key that is in (or read a
    # bucket being written: ASan/TSan). Readers wait for the writer, the
    # writer for the readers; every key added before is always found.
    n = 100_000
    f = filterkit.Cuckoo(capacity=8 * n, fpr=0.001, seed=5)
    base = np.arange(n, dtype=np.uint64) * np.uint64(3)
    f.add_many(base)
    chunks = [np.uint64(10 * n) + np.arange(i * 4096, (i + 1) * 4096, dtype=np.uint64) for i in range(60)]
    added = threading.Event()
    lookups = [0]

    def adds():
        for c in chunks:
            f.add_many(c)
        added.set()

    def reads():
        while not added.is_set() or lookups[0] == 0:
            assert f.contains_many(base).all(), "a key added before was missed beside add_many"
            lookups[0] += 1

    t, e = run_threads(adds, reads)
    join_all(t)
    assert not e, e
    assert lookups[0] > 0
    assert f.contains_many(np.concatenate([base] + chunks)).all()


def thread_switches():
    """This thread's context switches so far (Linux), or None."""
    try:
        with open("/proc/thread-self/status") as fp:
            return sum(int(line.split()[1]) for line in fp if "ctxt_switches" in line)
    except OSError:
        return None


def test_a_waiting_call_blocks_instead_of_spinning():
    # f.add waits for a GIL-free add_many on f: it must sleep on the lock
    # (a few context switches, no CPU), not spin. The issue-38 binding
    # looped on sched_yield: on an idle machine that burns the waiting
    # thread's CPU for the whole wait; on a busy one it gives the CPU away
    # once per time slice (about 100 switches a second here).
    for n in (4_000_000, 8_000_000, 16_000_000):
        f = filterkit.Bloom(capacity=2 * n, fpr=0.01)
        keys = np.arange(n, dtype=np.uint64)
        t, e = run_threads(lambda: f.add_many(keys))
        wait_until(lambda: busy(f) or not t[0].is_alive(), "add_many never started")
        sw0, cpu0, wall0 = thread_switches(), time.thread_time(), time.perf_counter()
        f.add(n + 1)  # waits for the add_many
        cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        sw = thread_switches() - sw0 if sw0 is not None else 0
        join_all(t)
        assert not e, e
        assert n + 1 in f and f.contains_many(keys).all()
        if wall >= 0.3:
            break
    assert wall >= 0.3, "add_many too short to measure the wait (%.3f s)" % wall
    assert cpu < 0.25 * wall, "the waiting thread used %.3f s of CPU in %.3f s of waiting" % (cpu, wall)
    assert sw < 12, "the waiting thread switched %d times in %.3f s of waiting" % (sw, wall)


@pytest.mark.parametrize("kind", ["cuckoo", "bloom"])
def test_concurrent_add_many_from_two_threads_loses_no_key(kind):
    """add_many(concurrent=True) from two threads on one filter: the
    batches run together (the GIL released, the kind's concurrent inserts)
    and every key of both is found, the item count exact; a lookup thread
    and stats() run beside them."""
    per = 200_000
    f = filterkit.kind_class(kind)(capacity=2 * per, fpr=0.01)
    a = np.arange(1, per + 1, dtype=np.uint64)
    b = np.arange(per + 1, 2 * per + 1, dtype=np.uint64)
    chunks = 20
    stop = threading.Event()

    def add(keys):
        for part in np.array_split(keys, chunks):
            f.add_many(part, concurrent=True)

    def look():
        while not stop.is_set():
            _ = 1 in f  # lookups beside the writers
            f.stats()

    t_look, e_look = run_threads(look)
    ts, errors = run_threads(lambda: add(a), lambda: add(b))
    join_all(ts)
    stop.set()
    join_all(t_look)
    assert not (errors + e_look), errors + e_look
    both = np.concatenate([a, b])
    assert f.contains_many(both).all(), "a key of a concurrent add_many is missing"
    assert f.stats()["items"] == 2 * per


def test_concurrent_add_many_needs_concurrent_inserts():
    f = filterkit.Cuckoo(capacity=1000, fpr=0.01)
    f.add_many([b"x", "y", 3], concurrent=True)
    assert b"x" in f and "y" in f and 3 in f
    with pytest.raises(TypeError):
        f.add_many([1], True)  # concurrent is keyword-only
