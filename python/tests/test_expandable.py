"""filterkit.Expandable (issue 50): sized for its target over the expected
growth, its doublings in stats(), the library's rows in describe(), and
docs/python.md's section on it runs and prints what its comments say."""

import filterkit
from conftest import run_guide_section


def test_made_for_one_percent_is_smaller_than_for_a_tenth():
    one, tenth = filterkit.Expandable(10_000, 0.01), filterkit.Expandable(10_000, 0.001)
    assert one.stats()["memory_bytes"] < tenth.stats()["memory_bytes"]
    assert one.describe()["slot_bits"] < tenth.describe()["slot_bits"]
    for f in (one, tenth):
        d = f.describe()
        assert d["slot_bits"] == d["fingerprint_bits"] + 1
        assert d["target_fpr"] == f.fpr


def test_stats_count_the_doublings_and_describe_agrees():
    x = filterkit.Expandable(1000, 0.01)
    assert x.stats()["doublings"] == 0 and x.describe()["doublings"] == 0
    seen = []
    for k in range(1000 * 64):  # full: the next add doubles
        x.add(k)
        s = x.stats()
        if not seen or s["doublings"] != seen[-1][0]:
            seen.append((s["doublings"], s["capacity"]))
    assert seen == [(g, 1000 << g) for g in range(7)]
    d, s = x.describe(), x.stats()
    assert d["doublings"] == s["doublings"] == 6
    assert d["entries"] + d["voids"] == s["items"] == 64000
    assert abs(d["bits_per_entry"] - 8 * s["memory_bytes"] / s["items"]) < 1e-9
    assert all(k in x for k in range(64000))
    # a copy and a pickle keep them
    import pickle
    for y in (x.copy(), pickle.loads(pickle.dumps(x))):
        assert y.stats()["doublings"] == 6 and y.describe() == d


def test_only_a_kind_that_doubles_has_doublings_in_stats():
    assert "doublings" not in filterkit.Bloom(100).stats()
    assert "doublings" not in filterkit.ScalableBloom(100).stats()
    assert "doublings" not in filterkit.Window(100).stats()


def test_worst_fpr_over_a_64_fold_growth_meets_the_target():
    import math
    for fpr in (0.01, 0.001):
        x = filterkit.Expandable(500, fpr, seed=3)
        probe, n = 1 << 62, 0
        for g in range(7):
            x.update(range(n, 500 << g))
            n = 500 << g
            assert x.stats()["doublings"] == g
            probes = 20_000
            fp = sum(probe + i in x for i in range(probes))
            probe += probes
            mean = fpr * probes
            assert fp <= mean + 4 * math.sqrt(mean) + 3, (fpr, g, fp)


def test_the_guides_expandable_example_runs(monkeypatch, tmp_path, capsys):
    """docs/python.md's section on Expandable runs as written, and each
    print prints what its comment says (the comment up to its first ':')."""
    run_guide_section("Growing in place: `filterkit.Expandable`", monkeypatch, tmp_path, capsys)
