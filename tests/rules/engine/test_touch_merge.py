"""A piece's contacts with the ball a tenth of a second apart are one touch.

A ball pinched between two pieces, or pushed along by one, bounces on them several times within
a frame or two (the simulator's physics reports each bounce; on a rendered ten-minute match,
brasileira seed 31, the ball squeezed between B3 and B1 made six "touches" in two frames). The
rule sets count touches per lance and per button (000 REGRA 4 LANCE: the ball's whole path is
part of the lance; "Pontos divergentes": 3 touches a button, 12 a team): one push is one toque,
and a camera at 30 frames/s cannot part the bounces either. ``EngineOptions.touch_merge_s``.
"""

from __future__ import annotations

import pytest

from tests.rules.engine.script import Script, brasileira_roster
from tests.rules.engine.situations import find, run


def _pinch(gaps: list[int]) -> Script:
    """A7 slides into the ball resting against B5; A7's contacts with the ball at steps
    2, 2 + gaps[0], ...; B5's at the same steps (the ball squeezed between them)."""
    s = Script(
        brasileira_roster(
            [
                ("A7", "A", "button", 0.0, 0.0),
                ("ball", "", "ball", 36.0, 0.0),
                ("B5", "B", "button", 72.0, 0.0),
            ]
        )
    )
    s.rest(3)
    steps = [2]
    for g in gaps:
        steps.append(steps[-1] + g)
    hits = {k: [("A7", "ball", "piece-ball"), ("B5", "ball", "piece-ball")] for k in steps}
    end = steps[-1] + 2
    s.move({"A7": (0, end, (4.0, 0.0)), "ball": (1, end, (38.0, 0.0))}, hits)
    s.rest(4)
    return s


@pytest.mark.parametrize(
    ("gaps", "merge_s", "touches_each"),
    [
        ([], 0.1, 1),
        ([1, 1], 0.1, 1),  # three bounces in three frames: one touch each
        ([3], 0.1, 1),  # 0.1 s apart: still the same push
        ([1, 1, 1, 1, 1], 0.1, 1),  # pushed along for six frames
        ([4], 0.1, 2),  # 0.13 s apart: two touches
        ([1, 9], 0.1, 2),
        ([1, 1], 0.0, 3),  # merging off: every bounce counts
    ],
)
def test_bounces_of_one_push_are_one_touch(
    gaps: list[int], merge_s: float, touches_each: int
) -> None:
    events = run("brasileira", _pinch(gaps), touch_merge_s=merge_s)
    assert len(find(events, "touch", piece="A7")) == touches_each
    assert len(find(events, "touch", piece="B5")) == touches_each
