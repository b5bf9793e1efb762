"""The seeded random match: deterministic, and a 2-minute brasileira match has it all."""

from __future__ import annotations

from collections import Counter

import numpy as np

from geometry.tablespec import load_table
from simulator.match import Match

TABLE = load_table("brasileira")


def _two_minutes(seed: int) -> tuple[Counter[str], int, int, list[dict]]:
    match = Match(TABLE, "brasileira", seed=seed, fps=30.0)
    frames = hands = 0
    for ft in match.frames(120.0):
        frames += 1
        hands += bool(ft.hands)
    return Counter(e["type"] for e in match.events), frames, hands, match.events


def _has_it_all(counts: Counter[str]) -> bool:
    return counts["goal"] >= 1 and counts["ball_out"] >= 2 and counts["foul"] >= 1


def test_two_minute_brasileira_match_has_goal_outs_foul() -> None:
    # The default seed (0), not one picked because it scores.
    counts, frames, hands, events = _two_minutes(0)
    assert frames == 3601
    assert _has_it_all(counts), counts
    assert hands > 300  # hands over the table before/after every flick and at restarts
    restarts = {e["evidence"]["restart"] for e in events if e["type"] == "ball_out"}
    assert restarts <= {"throw_in", "corner", "goal_kick"}


def test_most_seeds_have_goal_outs_foul() -> None:
    # Not a property of one lucky seed: most 2-minute matches have a goal, two outs and a foul.
    good = sum(_has_it_all(_two_minutes(seed)[0]) for seed in range(1, 5))
    assert good >= 2, f"only {good} of seeds 1-4 have a goal, two outs and a foul"


def test_same_seed_same_states() -> None:
    def states(seed: int) -> np.ndarray:
        return np.stack(
            [ft.pieces.xy_mm for ft in Match(TABLE, "brasileira", seed, 30.0).frames(12.0)]
        )

    a = states(3)
    assert np.array_equal(a, states(3))
    assert not np.array_equal(a, states(4))


def test_hand_precedes_each_flick() -> None:
    frames = list(Match(TABLE, "brasileira", seed=5, fps=30.0).frames(15.0))
    flick_frames = [i for i, ft in enumerate(frames) if ft.flicked]
    assert flick_frames
    for i in flick_frames:
        before = [bool(frames[k].hands) for k in range(i - 9, i)]  # 0.3 s
        assert all(before)
        # Team A's coach on the near side (y < 0), team B's on the far side.
        piece = frames[i].flicked[0]
        hand = frames[i - 3].hands[0]
        assert (hand.elbow_xy_mm[1] < hand.tip_xy_mm[1]) == piece.startswith("A")
