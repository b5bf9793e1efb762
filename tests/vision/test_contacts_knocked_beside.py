"""A piece knocked away from beside the ball is no touch of it (vision/contacts.py, ``_find``).

Paulista's ten-minute render, seed 39, frames 2996-3012: A11 slides into the resting ball
(the truth's hit at 3003.44) and on into B10, resting 5 mm from the ball (3004.0); the ball
goes on past B10, 0.2 mm off its edge, as B10 is knocked away. A false touch of B10 was found
in the interval of A11's hit on it: the pair's relative change along their line of centres
was B10's own start. A piece's touch sends the ball away from it; the ball's own change
there points toward B10. The simulator's positions with 0.2 mm of noise, the table mirrored
too. The failure rows: B10 flicked into the ball instead (struck by nothing else, it touches
it) - the rule holds only for a piece another piece struck in the interval.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.contact_play import FPS, play_two_and_ball
from vision.contacts import TrackContact

FIRST = 2996
A11 = np.array(
    [
        [-333.005, 318.883], [-320.391, 307.219], [-299.823, 288.201], [-281.418, 271.183],
        [-264.948, 255.954], [-250.210, 242.327], [-237.023, 230.132], [-225.222, 219.220],
        [-216.112, 210.115], [-214.165, 210.204], [-212.422, 210.284], [-210.862, 210.356],
        [-209.467, 210.420], [-208.218, 210.477], [-207.100, 210.528], [-206.587, 210.551],
        [-206.587, 210.551],
    ]
)  # fmt: skip
B10 = np.array(
    [[-183.100, 160.306]] * 9
    + [
        [-177.960, 152.552], [-173.362, 145.613], [-169.247, 139.405], [-165.564, 133.849],
        [-162.269, 128.877], [-159.321, 124.428], [-156.682, 120.448], [-154.321, 116.885],
    ]
)  # fmt: skip
BALL = np.array(
    [[-189.305, 200.669]] * 8
    + [
        [-178.330, 195.685], [-159.923, 187.326], [-142.831, 179.565], [-126.960, 172.358],
        [-112.221, 165.665], [-98.535, 159.450], [-85.826, 153.679], [-74.024, 148.320],
        [-63.065, 143.343],
    ]
)  # fmt: skip


def _contacts(seed: int, mirror: bool, a11=A11) -> list[TrackContact]:
    # the tracker's flags: A11 from its first step, the struck ones a frame or two after they went
    went = np.flatnonzero(np.any(a11 != a11[0], axis=1))
    a11_from = FIRST + int(went[0]) if len(went) else 10**9
    paths = np.stack([a11, B10, BALL], axis=1)
    return play_two_and_ball(("A11", "B10"), paths, FIRST, (a11_from, 3006, 3005), seed, mirror)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_piece_knocked_away_beside_the_passing_ball_did_not_touch_it(
    seed: int, mirror: bool
) -> None:
    found = _contacts(seed, mirror)
    assert [(c.a, c.b) for c in found] == [("A11", "ball"), ("A11", "B10")], found
    assert abs(found[0].t * FPS - 3003.44) <= 1.0
    assert abs(found[1].t * FPS - 3004.0) <= 1.0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_piece_set_going_into_the_ball_by_nothing_else_touched_it(
    seed: int, mirror: bool
) -> None:
    # A11 nowhere near: B10's start (its coach's flick) sent it into the ball's side
    found = _contacts(seed, mirror, a11=np.tile([-600.0, 500.0], (len(A11), 1)))
    assert ("B10", "ball") in [(c.a, c.b) for c in found], found
