"""The goal-line protocol's tallies (benchmarks/bench_goalline.py): issue 7's dynamic target is
on the cases outside +/-0.5 mm, where a stop aimed at 0 mm does not count (TOO_CLOSE is right
there); the rows say so instead of counting such a stop as a miss."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from benchmarks.bench_goalline import Tally, _score


def _call(decision: str, margin: float, sigma: float = 0.2) -> SimpleNamespace:
    return SimpleNamespace(decision=decision, margin_mm=margin, sigma_mm=sigma, how="at rest")


@pytest.mark.parametrize(
    ("truth", "decision", "correct", "inside", "correct_inside", "too_close", "wrong"),
    [
        (2.0, "GOAL", 1, 0, 0, 0, 0),
        (-1.0, "NO_GOAL", 1, 0, 0, 0, 0),
        (0.3, "TOO_CLOSE", 0, 1, 0, 1, 0),  # inside: an honest answer
        (0.3, "GOAL", 1, 1, 1, 0, 0),
        (-0.2, "GOAL", 0, 1, 0, 0, 1),  # inside and wrong: a false goal
        (1.0, "TOO_CLOSE", 0, 0, 0, 0, 1),  # outside, TOO_CLOSE is a miss
        (-2.0, "GOAL", 0, 0, 0, 0, 1),
    ],
)
def test_score_counts_the_zone(
    truth: float,
    decision: str,
    correct: int,
    inside: int,
    correct_inside: int,
    too_close: int,
    wrong: int,
) -> None:
    t = Tally()
    _score(t, truth, truth > 0, _call(decision, truth), "rig 1 stop 0")
    assert (t.n, t.correct, t.n_inside, t.correct_inside) == (1, correct, inside, correct_inside)
    assert (t.too_close, len(t.wrong)) == (too_close, wrong)
    assert t.false_goals == int(decision == "GOAL" and truth <= 0)
