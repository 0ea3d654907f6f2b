"""Hypothesis state machines: every kind against an exact multiset, and a
forgetting kind ("expires": window) against an exact sliding window.

Keys come from a small pool of ints, bytes and str (so they repeat, and an
int and its 8 little-endian bytes are one key). After every step: no key the
model holds is missing (zero false negatives, single and batch), the item
count is the model's, counts are never below the truth, and a remove of a
key the filter says is absent raises KeyError. A window holds every key
added among the last `capacity` adds (time windows: test_window.py)."""
import collections

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

import filterkit
from conftest import KINDS, caps, key_bytes

KEYS = st.one_of(st.integers(0, 40), st.sampled_from([2**64 - 1, 2**63]),
                 st.binary(max_size=2), st.text(alphabet="aé✓", max_size=2),
                 st.builds(lambda i: i.to_bytes(8, "little"), st.integers(0, 40)))
# A counting filter's 4-bit counters saturate; a cuckoo filter holds at most
# 8 copies of a key: the model stays under both.
MAX_COPIES = 8


WINDOW = 24  # a window's capacity in the model: keys of the pool expire


def window_machine_for(kind):
    """A count window against the exact sliding window of its last WINDOW
    adds: every key added among them answers present; stats()["items"] is
    the adds of the live generations (the current one and the 7 before it,
    each of L = ceil(WINDOW / 7) adds)."""
    gen_len = -(-WINDOW // 7)

    class WindowModel(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.f = filterkit.Filter(kind, capacity=WINDOW, fpr=0.01, seed=11)
            self.adds = 0    # adds accepted so far
            self.last = {}   # key bytes -> the number of its last add

        def added(self, k):
            self.last[key_bytes(k)] = self.adds
            self.adds += 1

        @rule(k=KEYS)
        def add(self, k):
            try:
                self.f.add(k)
            except filterkit.FilterFullError:
                return  # nothing changed: the add does not count
            self.added(k)

        @rule(ks=st.lists(KEYS, max_size=12))
        def update(self, ks):
            try:
                self.f.update(ks)
                done = len(ks)
            except filterkit.FilterFullError as e:
                done = e.done
            for k in ks[:done]:
                self.added(k)

        @rule()
        def round_trip(self):
            data = self.f.to_bytes()
            self.f = filterkit.from_bytes(data)
            assert self.f.to_bytes() == data

        @invariant()
        def no_false_negatives_in_the_window(self):
            held = [b for b, i in self.last.items() if self.adds - i <= WINDOW]
            for b in held:
                assert b in self.f
            if held:
                assert self.f.contains_many(held).all()

        @invariant()
        def items_are_the_live_generations_adds(self):
            generation = self.adds // gen_len
            assert self.f.describe()["generation"] == generation
            assert self.f.stats()["items"] == self.adds - max(0, generation - 7) * gen_len

    WindowModel.__name__ = "Model_" + kind.replace("-", "_")
    return WindowModel


def machine_for(kind):
    kcaps = caps(kind)
    if "expires" in kcaps:
        return window_machine_for(kind)
    static = "static" in kcaps

    class FilterModel(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.model = collections.Counter()
            # small capacity: growing kinds grow, cuckoo fills up
            self.f = None if static else filterkit.Filter(kind, capacity=24, fpr=0.01, seed=11)
            self.static_keys = []
            # an intersection leaves the kind's estimate of its items, not
            # an exact count: the items invariant stops there
            self.items_estimated = False

        def rebuild(self):
            if static:
                self.f = filterkit.kind_class(kind).build(self.static_keys, fpr=0.01, seed=11)

        @rule(k=KEYS)
        def add(self, k):
            b = key_bytes(k)
            if static:
                self.static_keys.append(k)
                self.model[b] += 1
                self.rebuild()
                return
            if self.model[b] >= MAX_COPIES:
                return
            try:
                self.f.add(k)
            except filterkit.FilterFullError:
                return  # nothing lost: the invariants check it
            self.model[b] += 1

        @rule(ks=st.lists(KEYS, max_size=12))
        def update(self, ks):
            if static or any(self.model[key_bytes(k)] + ks.count(k) > MAX_COPIES for k in ks):
                return
            try:
                self.f.update(ks)
                done = len(ks)
            except filterkit.FilterFullError as e:
                # only a kind with bounded slots refuses (a growing cuckoo
                # chain too: at most 8 copies of one key per link)
                assert "bounded" in kcaps or "grows" in kcaps
                done = e.done  # the keys before the refused one are in
            for k in ks[:done]:
                self.model[key_bytes(k)] += 1

        if "remove" in kcaps:
            @rule(k=KEYS)
            def remove(self, k):
                b = key_bytes(k)
                if self.model[b]:
                    self.f.remove(k)
                    self.model[b] -= 1
                elif k not in self.f:
                    with pytest.raises(KeyError):
                        self.f.remove(k)
                    self.f.discard(k)

        if "merge" in kcaps:
            @rule(ks=st.lists(KEYS, max_size=8))
            def merge(self, ks):
                g = filterkit.Filter(kind, capacity=24, fpr=0.01, seed=11)
                try:
                    g.update(ks)
                except filterkit.FilterFullError:
                    return  # g's own table was too small: nothing to merge
                before = self.f.to_bytes()
                try:
                    self.f |= g
                except filterkit.FilterFullError:
                    # a bounded kind without room for the union: unchanged
                    assert self.f.to_bytes() == before
                    return
                for k in ks:
                    self.model[key_bytes(k)] += 1

        if "intersect" in kcaps:
            @rule(ks=st.lists(KEYS, max_size=8))
            def intersect(self, ks):
                g = filterkit.Filter(kind, capacity=24, fpr=0.01, seed=11)
                g.update(ks)
                self.f &= g
                # as Counter & Counter: what both hold stays; the filter
                # must keep every such key (more may answer yes)
                self.model &= collections.Counter(key_bytes(k) for k in ks)
                self.items_estimated = True

        @rule()
        def round_trip(self):
            if self.f is not None:
                data = self.f.to_bytes()
                self.f = filterkit.from_bytes(data)
                assert self.f.to_bytes() == data

        @invariant()
        def no_false_negatives(self):
            held = [k for k, c in self.model.items() if c > 0]
            if self.f is None:
                return
            for b in held:
                assert b in self.f
            if held:
                assert self.f.contains_many(held).all()

        @invariant()
        def items_and_counts(self):
            if self.f is None or static or self.items_estimated:
                return
            items = self.f.stats()["items"]
            if "grows" in kcaps and "remove" in kcaps:
                # a growing chain removes a copy only when one link alone
                # answers yes (else the bits stay: no other key goes
                # absent), so it may hold more copies than the model
                assert items >= sum(self.model.values())
            else:
                assert items == sum(self.model.values())
            if "count" in kcaps:
                for b, c in self.model.items():
                    assert self.f.count(b) >= c

    FilterModel.__name__ = "Model_" + kind.replace("-", "_")
    return FilterModel


for _kind in KINDS:
    _m = machine_for(_kind)
    globals()["test_model_" + _kind.replace("-", "_")] = _m.TestCase
del _kind, _m
