"""The hand beside a ball found through the blob it shares with the ball
(:func:`vision.ball_hands._hand_of_blob`).

Gaucha's ten-minute render, seed 36, frames 8101-8106: at a goal kick the coach's palm rested
on A3, the ball 4 mm beside it. The hand's mask takes the arm's colour where the arm crosses
the rail; the palm, lit brighter than the forearm, fell outside it, so the nearest hand pixel
was 30 mm from the ball while the palm, A3 and the ball made one blob. The ball by a hand was
not looked for ("no hand beside it"), the ball was lost six frames, and the kick with it (a
touch and an out to the wrong team). With the hand found through the blob, the detector fits
the ball there on every one of those frames, 0.29 mm from the truth (the render's own frames;
not a fixture here, 1080p and a learned table).

Coarse masks: a blob (the palm over a button, the ball at its edge) joined to a hand mask
beyond the window the ball's search looks in; the failure rows: the blob does not reach the
hand, the ball's place is table, the hand is beyond the reach.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from vision.ball_hands import _BLOB_REACH, _hand_of_blob

SKIN = (150.0, 175.0, 215.0)
H, W = 90, 120  # coarse pixels, not square


def _scene(arm_row: int, joined: bool, ball_on_table: bool = False) -> tuple[object, np.ndarray]:
    """A ball's coarse pixel at (40, 50); a palm blob (radius 8) right of it, the ball's pixels
    touching it; an arm (the hand mask) from row ``arm_row`` down to the rail, joined to the
    palm by a strip when ``joined``."""
    yy, xx = np.mgrid[0:H, 0:W]
    fg = np.zeros((H, W), bool)
    sub = np.full((H, W, 3), (40, 120, 40), np.uint8)  # felt
    palm = np.hypot(yy - 40, xx - 60) <= 8
    ball = np.hypot(yy - 40, xx - 50) <= 1.5
    fg |= palm | ball
    sub[palm] = (200, 220, 250)  # lit brighter than the arm
    sub[ball] = (235, 240, 245)
    arm = (yy >= arm_row) & (abs(xx - 62) <= 5)
    fg |= arm
    sub[arm] = SKIN
    hands = arm.copy()
    if joined:
        strip = (yy >= 40) & (yy < arm_row) & (abs(xx - 62) <= 3)
        fg |= strip
        sub[strip] = (190, 210, 245)
    if ball_on_table:
        fg[40, 50] = False
    return SimpleNamespace(_fg=fg, _sub=sub), hands


@pytest.mark.parametrize(
    ("arm_row", "joined", "on_table", "found"),
    [
        (62, True, False, True),  # the arm's mask 22 coarse px below the ball, the palm between
        (40 + _BLOB_REACH, True, False, True),  # at the reach's edge
        (62, False, False, False),  # a palm apart from the arm: not this hand's
        (62, True, True, False),  # the ball's place is table: no blob to follow
        (41 + _BLOB_REACH, True, False, False),  # the hand beyond the reach
    ],
)
def test_the_hand_is_found_through_the_balls_blob(
    arm_row: int, joined: bool, on_table: bool, found: bool
) -> None:
    det, hands = _scene(arm_row, joined, on_table)
    skin = _hand_of_blob(det, hands, 40, 50)  # type: ignore[arg-type]
    assert (skin is not None) is found
    if skin is not None:
        # the arm's own colour (its mask's median), not the palm's nor the ball's
        np.testing.assert_allclose(skin, SKIN)
