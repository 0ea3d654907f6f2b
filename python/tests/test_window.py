"""filterkit.Window: the sliding window's promises from Python.

A count window (capacity=N) holds every key among its last N adds; a time
window (span=T) every key added less than T ticks before its clock, which
only advance(now) moves, never backwards. Past the window and its slack
(ceil(N/7) adds or ceil(T/7) ticks: 8 generations in all) a key answers
present only at the false-positive rate. Save, load, copy and pickle keep
the stream's state: a window restored mid-stream continues exactly."""
import math
import os
import pickle

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import filterkit
from conftest import key_bytes

KEYS = st.one_of(st.integers(0, 60), st.text(alphabet="ab✓", max_size=2),
                 st.builds(lambda i: i.to_bytes(8, "little"), st.integers(0, 60)))


def gen_len(n):
    return -(-n // 7)


def binomial_bound(trials, p, sigmas=5):
    """Hits above which a rate p over `trials` independent tries is
    implausible (mean + 5 sigma + 1: fixed seeds, so never flaky)."""
    return trials * p + sigmas * math.sqrt(trials * p * (1 - p)) + 1


# --------------------------------------------------------------- count

@pytest.mark.parametrize("n", [1, 2, 7, 1000])
def test_count_window_holds_the_last_n_and_forgets_the_rest(n):
    w = filterkit.Window(capacity=n, fpr=0.01, seed=7)
    total = max(10 * n, 200)
    for i in range(total):
        w.add(i)
        # the last n adds, at every step for small windows
        if n < 1000 or i % 997 == 0:
            assert all(j in w for j in range(max(0, i - n + 1), i + 1)), (n, i)
    assert w.contains_many(list(range(total - n, total))).all()
    # older than the window plus its slack (8 generations of L adds): gone
    # but for false positives, which a never-seen key shows at the same rate
    expired = list(range(0, total - 8 * gen_len(n)))
    never = list(range(10**12, 10**12 + len(expired)))
    bound = binomial_bound(len(expired), w.stats()["expected_fpr"] * 1.5 + 1e-3)
    assert sum(w.contains_many(expired)) <= bound
    assert sum(w.contains_many(never)) <= bound


def test_count_window_refreshes_a_repeated_key():
    w = filterkit.Window(capacity=50, fpr=0.001, seed=1)
    for i in range(5000):
        w.add(i)
        if i % 20 == 0:
            w.add("kept")   # never more than 50 adds old
        assert "kept" in w or i < 20
    d = w.describe()
    assert d["refreshed"] >= 5000 // 20 - 1 and d["mode"] == "count" and d["window"] == 50


# ---------------------------------------------------------------- time

def test_time_window_with_advance():
    span = 70  # D = 10 ticks a generation
    w = filterkit.Window(capacity=100, fpr=0.01, seed=3, span=span)
    assert w.span == span and w.now is None and "expires" in w.capabilities
    w.add("before")              # before the first advance: stamped with the origin
    w.advance(1000)
    assert w.now == 1000
    w.add("at-1000")
    w.advance(1005)
    w.add("at-1005")
    w.advance(1000 + span - 1)   # 69 ticks on: all still inside the window
    assert all(k in w for k in ("before", "at-1000", "at-1005"))
    w.advance(1000 + span)       # in the slack: still present (at most 8D = 80 ticks)
    assert "at-1005" in w
    w.advance(1000 + 8 * 10)     # 8 generations after 1000's: its keys are gone
    assert "at-1000" not in w and "before" not in w
    assert "at-1005" not in w    # 1005 shares generation [1000, 1010)
    w.advance(1000 + 8 * 10)     # the same time again: a no-op
    assert w.now == 1080
    d = w.describe()
    assert d["mode"] == "time" and d["generation_length"] == 10 and d["swept_total"] >= 3


def test_time_going_backwards_is_refused_and_changes_nothing():
    w = filterkit.Window(capacity=100, fpr=0.01, span=1_000_000_000)
    w.advance(5_000_000_000)
    w.add("x")
    before = w.to_bytes()
    with pytest.raises(ValueError, match=r"never goes back.*\(FK_EINVAL\)"):
        w.advance(4_999_999_999)
    assert w.to_bytes() == before and w.now == 5_000_000_000 and "x" in w
    with pytest.raises(ValueError):
        w.advance(-1)
    with pytest.raises(TypeError):
        w.advance(1.5)
    with pytest.raises(filterkit.UnsupportedError, match="count window has no clock"):
        filterkit.Window(capacity=10).advance(1)


# Issue 48: the clock ends at 2**62 (FK_WINDOW_MAX_TIME). advance(2**64-1) used to
# leave a window whose save did not load, and advances repeated at that time each
# started a generation, expiring keys inside the window.
def test_advance_past_the_clocks_end_is_refused_and_saves_always_load():
    w = filterkit.Window(capacity=100, fpr=0.01, span=70)
    w.advance(1000)
    w.add("x")
    before = w.to_bytes()
    for late in (2**64 - 1, 2**62 + 1):
        with pytest.raises(ValueError, match=r"2\*\*62.*\(FK_EINVAL\)"):
            w.advance(late)
        assert w.to_bytes() == before and w.now == 1000 and "x" in w
    w.advance(2**62 - 20)
    keys = [f"k{i}" for i in range(60)]
    w.update(keys)
    for _ in range(20):               # the same time again and again: no generation passes
        w.advance(2**62)
    assert all(k in w for k in keys)  # added 20 ticks ago, span 70
    back = filterkit.Filter.from_bytes(w.to_bytes())
    back.update(f"m{i}" for i in range(60))
    again = filterkit.Filter.from_bytes(back.to_bytes())
    assert all(k in again for k in keys) and again.now == 2**62
    assert pickle.loads(pickle.dumps(again)).to_bytes() == again.to_bytes()


FORGED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fuzz",
                      "corpus", "load")


# Records whose counter or clock no real window reaches, checksums recomputed
# (tests/test_serial.c writes them): a count window at generation 2**64-1 (it
# wrapped to 0 a generation later, and its save raised 60 adds on), a time window
# whose next boundary is 2**64-1, one whose generation grid starts before time 0.
@pytest.mark.parametrize("name", ["window-generation-wrap", "window-clock-end",
                                  "window-grid-before-zero"])
def test_a_forged_counter_or_clock_is_refused(name):
    with open(os.path.join(FORGED, name + ".fk"), "rb") as fh:
        data = fh.read()
    with pytest.raises(ValueError, match="FK_ECORRUPT"):
        filterkit.Filter.from_bytes(data)


def test_the_last_generation_number_below_the_limit_stays_loadable():
    with open(os.path.join(FORGED, "window-generation-edge.fk"), "rb") as fh:
        w = filterkit.Filter.from_bytes(fh.read())
    assert w.describe()["generation"] == 2**63 - 1
    for i in range(6):                # 60 adds: 6 generations, through the fold
        w.update(f"g{i}-{j}" for j in range(10))
        w = filterkit.Filter.from_bytes(w.to_bytes())
    assert w.describe()["generation"] == 2**62 + 5
    assert all(f"g{i}-{j}" in w for i in range(6) for j in range(10))


def test_time_window_fed_past_its_capacity_refuses_and_loses_nothing():
    w = filterkit.Window(capacity=70, fpr=0.01, seed=2, span=700)
    w.advance(0)
    accepted = []
    with pytest.raises(filterkit.FilterFullError, match="advance.now. frees room"):
        for i in range(10 * 70):   # 10x the rate the window is sized for, all at once
            w.add(i)
            accepted.append(i)
    budget = w.describe()["live_budget"]
    assert len(accepted) == budget == 8 * gen_len(70)
    assert w.contains_many(accepted).all()     # nothing inside the window lost
    with pytest.raises(filterkit.FilterFullError) as e:
        w.add_many(list(range(10**6, 10**6 + 5)))
    assert e.value.done == 0 and w.describe()["refused"] >= 2
    w.advance(800)                # a whole window and its slack later: room again
    w.add("later")
    assert "later" in w and w.describe()["refused"] >= 2


class TimeWindowModel(RuleBasedStateMachine):
    """A time window against an exact sliding window of (key, time)."""
    SPAN = 70

    def __init__(self):
        super().__init__()
        self.f = filterkit.Window(capacity=24, fpr=0.01, seed=5, span=self.SPAN)
        self.now = None      # the model's clock: None before the first advance
        self.last = {}       # key bytes -> time of its last accepted add (None: before the origin)

    @rule(k=KEYS)
    def add(self, k):
        try:
            self.f.add(k)
        except filterkit.FilterFullError:
            return   # refused: nothing changed
        self.last[key_bytes(k)] = self.now

    @rule(dt=st.integers(0, 45))
    def advance(self, dt):
        now = 1000 if self.now is None else self.now + dt
        self.f.advance(now)
        if self.now is None:   # the origin: keys added before count as added now
            self.last = {b: now for b in self.last}
        self.now = now

    @precondition(lambda self: self.now is not None and self.now > 1000)
    @rule(back=st.integers(1, 30))
    def backwards(self, back):
        before = self.f.to_bytes()
        with pytest.raises(ValueError):
            self.f.advance(self.now - back)
        assert self.f.to_bytes() == before

    @rule()
    def pickle_round_trip(self):
        data = self.f.to_bytes()
        self.f = pickle.loads(pickle.dumps(self.f))
        assert self.f.to_bytes() == data and self.f.span == self.SPAN

    @invariant()
    def no_false_negatives_in_the_window(self):
        now = self.now
        held = [b for b, t in self.last.items() if t is None or now - t < self.SPAN]
        for b in held:
            assert b in self.f
        if held:
            assert self.f.contains_many(held).all()
        assert self.f.now == now


test_time_window_model = TimeWindowModel.TestCase


# ---------------------------------------------------- state carried over

def stream(w, start, count, timed):
    for i in range(start, start + count):
        w.add("key-%d" % i)
        if i % 3 == 0:
            w.add(i // 3)                 # repeats refresh
        if timed and i % 5 == 0:
            w.advance(10_000 + 7 * i)     # the clock moves with the stream


@pytest.mark.parametrize("timed", [False, True])
def test_save_load_pickle_copy_mid_stream_continue_identically(timed, tmp_path):
    # time: 400 new keys a span of 2100 ticks, under the 500 it is sized for
    extra = {"span": 2100} if timed else {}
    a = filterkit.Window(capacity=500, fpr=0.01, seed=9, **extra)
    stream(a, 0, 1700, timed)
    path = os.path.join(tmp_path, "w.fk")
    a.save(path)
    restored = [filterkit.load(path), pickle.loads(pickle.dumps(a)), a.copy(),
                filterkit.Window.from_bytes(a.to_bytes())]
    for r in restored:
        assert type(r) is filterkit.Window and r == a and r.span == a.span and r.now == a.now
        # (swept_last, the last sweep's count, is not saved: a diagnostic)
        assert dict(r.describe(), swept_last=0) == dict(a.describe(), swept_last=0)
    for w in [a] + restored:
        stream(w, 1700, 2300, timed)   # generations turn over, sweeps run
    probes = ["key-%d" % i for i in range(4000)] + list(range(2000))
    want = a.contains_many(probes)
    for r in restored:
        assert r.to_bytes() == a.to_bytes()
        assert (r.contains_many(probes) == want).all()


# ------------------------------------------------------------- the set face

def test_window_set_protocol():
    w = filterkit.Window(capacity=100, fpr=0.01)
    w.add("a")
    w.update(["b", b"c", 3])
    assert "a" in w and b"b" in w and 3 in w and 4 not in w
    assert "remove" not in w.capabilities and not hasattr(w, "remove") and not hasattr(w, "discard")
    with pytest.raises(TypeError, match="distinct keys are in its window"):
        len(w)
    w.clear()
    assert "a" not in w and w.span is None


def test_span_arguments():
    with pytest.raises(ValueError):
        filterkit.Window(capacity=10, span=0)
    with pytest.raises(TypeError):
        filterkit.Window(capacity=10, span=1.5)
    with pytest.raises(TypeError, match="only a window kind"):
        filterkit.Bloom(capacity=10, span=5)
    t = filterkit.Filter("window", capacity=10, fpr=0.01, span=14)
    assert type(t) is filterkit.Window and t.span == 14
    t.advance(100)
    t.add("x")
    t.clear()   # the same shape: a time window again, its clock unset
    assert t.span == 14 and t.now is None and "x" not in t
    assert filterkit.Window(capacity=10, span=None).span is None


def test_the_guides_window_examples_run(monkeypatch, tmp_path, capsys):
    """docs/python.md's section on windows runs as written, and each print
    prints what its comment says (the comment up to its first ':')."""
    from conftest import run_guide_section
    run_guide_section("Sliding windows", monkeypatch, tmp_path, capsys)


# -------------------------------------------------- one clock (issue 48)
#
# A time window records its clock: "unix_ns" (Unix time in ns, the CLI's
# and Redis's; the default) or "caller" (the caller's own ticks). advance()
# with no argument reads time.time_ns() on the first and refuses on the
# second; files carry the clock between Python, the CLI and Redis.

def test_a_time_windows_clock_is_unix_ns_by_default_or_the_callers():
    t = filterkit.Window(capacity=100, fpr=0.01, span=10**9)
    c = filterkit.Filter("window", capacity=100, fpr=0.01, span=10, clock="caller")
    n = filterkit.Window(capacity=100, fpr=0.01)
    assert (t.clock, c.clock, n.clock) == ("unix_ns", "caller", None)
    assert (t.describe()["clock"], c.describe()["clock"], n.describe()["clock"]) == ("unix_ns", "caller", None)
    assert filterkit.Window(capacity=100, span=10, clock="unix_ns").clock == "unix_ns"
    assert filterkit.Window(capacity=100, span=10, clock=None).clock == "unix_ns"
    # the clock travels with the window, and clear() keeps it
    for w in (t, c):
        w.advance(5)
        w.add("k")
        for again in (filterkit.Window.from_bytes(w.to_bytes()), w.copy(), pickle.loads(pickle.dumps(w))):
            assert again.clock == w.clock and again == w
        w.clear()
        assert w.now is None and w.clock == ("unix_ns" if w is t else "caller")
    # the bytes differ by the clock only: the same stream on both clocks
    a = filterkit.Window(capacity=100, fpr=0.01, span=70, seed=3)
    b = filterkit.Window(capacity=100, fpr=0.01, span=70, seed=3, clock="caller")
    for w in (a, b):
        w.advance(1000)
        w.update(range(50))
    x, y = a.to_bytes(), b.to_bytes()
    differ = [i for i in range(len(x)) if x[i] != y[i]]
    clock_at = 48 + 8 * 7   # header param[7] (window/window_serial.c); then the checksum
    assert len(x) == len(y) and differ and all(clock_at <= i < clock_at + 8 or i >= len(x) - 8 for i in differ)
    with pytest.raises(ValueError, match="clock= needs span="):
        filterkit.Window(capacity=10, clock="caller")
    with pytest.raises(ValueError, match="unix_ns"):
        filterkit.Window(capacity=10, span=5, clock="monotonic")
    with pytest.raises(TypeError):
        filterkit.Window(capacity=10, span=5, clock=1)
    with pytest.raises(TypeError, match="only a window kind"):
        filterkit.Bloom(capacity=10, clock="unix_ns")


def test_advance_without_an_argument_reads_time_time_ns(monkeypatch):
    import time
    w = filterkit.Window(capacity=100, fpr=0.01, span=7 * 10**9, seed=4)   # D = 1 s
    t0 = 1_800_000_000 * 10**9
    monkeypatch.setattr(time, "time_ns", lambda: t0)
    w.advance()
    assert w.now == t0
    w.add("a")
    monkeypatch.setattr(time, "time_ns", lambda: t0 + 5 * 10**9)
    w.advance()
    assert w.now == t0 + 5 * 10**9 and "a" in w and w.describe()["generation"] == 5
    # the wall clock stepped back: advance() holds the clock; an explicit
    # time before it is still refused
    monkeypatch.setattr(time, "time_ns", lambda: t0 + 10**9)
    w.advance()
    assert w.now == t0 + 5 * 10**9
    with pytest.raises(ValueError, match="never goes back"):
        w.advance(t0 + 10**9)
    # 8 generations after "a": gone
    monkeypatch.setattr(time, "time_ns", lambda: t0 + 8 * 10**9)
    w.advance()
    assert w.describe()["generation"] == 8 and "a" not in w
    # the caller's own clock: advance() cannot know its time
    c = filterkit.Window(capacity=100, span=10, clock="caller")
    with pytest.raises(TypeError, match="caller"):
        c.advance()
    assert c.now is None
    c.advance(3)
    assert c.now == 3
    with pytest.raises(filterkit.UnsupportedError):
        filterkit.Window(capacity=10).advance()


def test_a_cli_time_window_advances_in_python_as_documented(cli, tmp_path, monkeypatch):
    """The issue: a file of `filterkit dedup --window-seconds` (wall clock,
    Unix ns) advanced with advance() goes on forgetting on schedule; a
    Python window goes to the CLI; a caller-clock one is refused there."""
    import subprocess
    import time
    path = tmp_path / "seen.fk"
    subprocess.run([cli, "dedup", "--kind", "window", "--capacity", "100", "--window-seconds", "2",
                    str(path)], input=b"a\nb\n", stdout=subprocess.PIPE, check=True)
    w = filterkit.load(path)
    assert w.clock == "unix_ns" and w.span == 2 * 10**9
    made = w.now
    assert abs(made - time.time_ns()) < 60 * 10**9   # the CLI's clock is this one
    w.advance()                                      # as docs/python.md says
    assert w.now >= made and "a" in w and "b" in w
    w.add("c")
    # 3 s later (past T (1 + 1/7) = 2.29 s): a, b and c are gone
    later = w.now + 3 * 10**9
    monkeypatch.setattr(time, "time_ns", lambda: later)
    w.advance()
    assert w.now == later and not any(k in w for k in "abc")
    monkeypatch.undo()
    # Python's own window, on the default clock, in the CLI: x was seen
    p = filterkit.Window(capacity=100, fpr=0.01, span=60 * 10**9)
    p.advance()
    p.add("x")
    p.save(tmp_path / "py.fk")
    out = subprocess.run([cli, "dedup", str(tmp_path / "py.fk")], input=b"x\ny\n",
                         stdout=subprocess.PIPE, check=True).stdout
    assert out == b"y\n"
    # a caller-clock window: the CLI refuses to advance it, naming its clock
    c = filterkit.Window(capacity=100, fpr=0.01, span=60, clock="caller")
    c.advance(5)
    c.save(tmp_path / "c.fk")
    r = subprocess.run([cli, "dedup", str(tmp_path / "c.fk")], input=b"z\n",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert r.returncode == 1 and r.stdout == b"" and b"clock 0 (caller" in r.stderr
    assert filterkit.load(tmp_path / "c.fk") == c


def test_cli_info_shows_describe_once_under_its_names(cli, tmp_path):
    """issue 50: `filterkit info` and describe() read the same rows: the
    JSON has each describe() key with its value (a list as its numbers),
    the text lists each figure once, a count window has no time span row,
    and a time window's spans are in human units with their ns."""
    import json
    import subprocess
    for span in (None, 60 * 10**9):
        w = filterkit.Window(capacity=700, fpr=0.01, span=span)
        if span:
            w.advance(1_700_000_000 * 10**9)
        for i in range(500 if span else 2000):   # a time window takes 700 per span
            w.add(i)
        path = tmp_path / "w.fk"
        w.save(path)
        got = json.loads(subprocess.run([cli, "info", "--json", str(path)], stdout=subprocess.PIPE,
                                        check=True).stdout)
        # the file's window (swept_last is not saved: 0 after a load)
        for key, value in filterkit.load(path).describe().items():
            if value is None:        # a count window's clock: no row to show
                continue
            if key == "clock":       # the JSON's "clock" is the header's id (clock_id), as before
                assert got["clock"] == got["clock_id"] == 1 and value == "unix_ns"
                continue
            want = " ".join(map(str, value)) if isinstance(value, list) else value
            assert got[key] == want, key
        text = subprocess.run([cli, "info", str(path)], stdout=subprocess.PIPE,
                              check=True).stdout.decode()
        labels = [line.split(":", 1)[0] for line in text.splitlines()]
        assert len(labels) == len(set(labels)), text
        assert sum(l in ("generation", "current generation") for l in labels) == 1
        assert sum(l.startswith("stash") for l in labels) == 1
        if span:
            assert "window:          1 min (60000000000 ns)" in text
            assert "generation length: 8.571 s (8571428572 ns)" in text
        else:
            assert "ticks" not in text and "window:          700 (inserts)" in text
