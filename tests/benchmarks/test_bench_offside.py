"""The offside drills: a receiver past the offside line is called offside by the simulator's
referee when the pass reaches it, one short of it is not, and the engine agrees."""

from __future__ import annotations

import pytest

from benchmarks.bench_offside import drill, evaluate


@pytest.mark.parametrize("rules", ["brasileira", "gaucha"])
def test_drills_put_the_offside_both_ways(rules: str) -> None:
    called = {}
    for seed in range(4000, 4008):
        d = drill(rules, seed)
        assert d.passed
        reached = any(e["type"] == "touch" and e["piece"] == "A9" for e in d.truth)
        off = [e for e in d.truth if e["type"] == "offside"]
        assert len(off) <= 1 and all(e["piece"] == "A9" for e in off)
        if reached or off:
            called[seed] = (d.offset_mm > 0, bool(off))
    # past the line -> offside; short of it -> the pass is a pass (failure rows)
    assert all(past == off for past, off in called.values()), called
    assert {past for past, _ in called.values()} == {True, False}


def test_the_engines_call_the_drills_offsides() -> None:
    res = evaluate("brasileira", drills=6, seed=4000)
    truth, found, matched = res.tallies[("tracked", "offside")]
    assert truth > 0 and found == matched == truth
