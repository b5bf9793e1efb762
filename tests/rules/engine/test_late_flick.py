"""A flick made late in a frame's interval that strikes a team-mate or an opponent at once.

The striker has moved less than ``start_mm`` when the frame is taken and the tracker flags it
moving a frame later; the piece it struck is already sliding away, flagged moving now. The
contact (``a``, the faster before the hit, is the striker) says who was flicked: the struck
piece's start is no lance of its own. On a rendered 120 s match (brasileira, seed 31) a foul
- B2 flicked into A5 before the ball, 000 REGRA 4 - was called the other way round (A5's
lance, fouling B2) before this was read.
"""

from __future__ import annotations

import numpy as np
import pytest

from geometry.pieces import Pieces
from rules.engine.motion import find_flick
from rules.engine.state import Contacts, FrameState

IDS = ["B2", "A5", "ball"]


def _state(k: int, xy: list[tuple[float, float]], moving: list[bool], rows=()) -> FrameState:
    n = len(IDS)
    pieces = Pieces(
        np.array(IDS),
        np.array(["B", "A", ""]),
        np.array(["button", "button", "ball"]),
        np.array(xy, float),
        np.array([[40.0, 40.0], [40.0, 40.0], [10.0, 10.0]]),
        np.zeros(n),
        np.array([8.0, 8.0, 10.0]),
    )
    return FrameState(
        k,
        k / 30.0,
        pieces,
        np.zeros((n, 2)),
        np.array(moving),
        Contacts.from_rows(list(rows)),
        np.ones(n, bool),
        hands_over_table=True,
    )


@pytest.mark.parametrize(
    ("striker_moving_next", "expected"),
    [
        (True, "B2"),  # the striker slides on: it was the flick
        (False, "A5"),  # no sign the 'striker' moved at all: the contact alone is no flick
    ],
)
def test_a_late_flick_striking_at_once_is_the_strikers(
    striker_moving_next: bool, expected: str
) -> None:
    rest = [(0.0, 0.0), (41.0, 0.0), (300.0, 200.0)]
    prev = _state(10, rest, [False, False, False])
    # B2 moved 2 mm (under start_mm) and hit A5, which moved 9 mm away already
    cur = _state(
        11,
        [(2.0, 0.0), (50.0, 0.0), (300.0, 200.0)],
        [False, True, False],
        [(11, 10.8 / 30.0, "B2", "A5", "piece-piece")],
    )
    nxt = _state(
        12,
        [(6.0 if striker_moving_next else 2.0, 0.0), (62.0, 0.0), (300.0, 200.0)],
        [striker_moving_next, True, False],
    )
    rows = [(r[0], r[1], r[2], r[3], r[4]) for r in cur.contacts.rows()]
    assert find_flick(prev, cur, [nxt], rows) == expected


@pytest.mark.parametrize(
    ("moved_mm", "expected"),
    [
        (47.0, "B2"),  # 47 mm on by the next frame, not yet flagged moving: out of the hand
        (9.0, "B2"),  # 9 mm: three times start_mm (3 mm), the least that counts
        (4.0, "A5"),  # 4 mm: a resting piece's fits jitter this much: no sign it moved
        (0.0, "A5"),  # where it stood
    ],
)
def test_a_striker_seen_again_far_from_its_place_was_the_flick(
    moved_mm: float, expected: str
) -> None:
    """A piece flicked from under its coach's hand is frozen where it stood until it comes out
    a frame or two later, centimetres on, before the tracker's hysteresis flags it moving. On
    a rendered 120 s match (brasileira, seed 3, frame 1188) A10 struck B9 so: B9's start read
    as the lance, the foul called against B (000 REGRA 12 FALTA: A10 touched B9 first)."""
    rest = [(-50.0, 0.0), (0.0, 0.0), (300.0, 200.0)]
    prev = _state(10, rest, [False, False, False])
    cur = _state(
        11,
        [(-50.0, 0.0), (55.0, 0.0), (300.0, 200.0)],  # B2 frozen under the hand, A5 struck
        [False, True, False],
        [(10, 10.9 / 30.0, "B2", "A5", "piece-piece")],
    )
    nxt = _state(
        12,
        [(-50.0 + moved_mm, 0.0), (105.0, 0.0), (300.0, 200.0)],
        [False, True, False],
    )
    rows = [(r[0], r[1], r[2], r[3], r[4]) for r in cur.contacts.rows()]
    assert find_flick(prev, cur, [nxt], rows) == expected
