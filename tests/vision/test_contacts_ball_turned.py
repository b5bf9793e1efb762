"""The ball struck from rest while unseen, first seen turned off a resting piece
(vision/contacts.py, ``_ball_bounced_from_rest``).

Paulista's ten-minute render, seed 39, frames 15336-15358: A5 slides into the resting ball
(the truth's hit at 15347.56), which the detector misses on frame 15348, behind A5 and in its
blur (the tracker predicts it at rest there); the ball glances off B7, at rest 38 mm from it
(15348.44), and is first seen at 15349 already past B7, 40 degrees off the line from where it
rested. B7's touch (passive: the ball into it) was lost: no finder read a velocity change
across the unseen frame. Traced back along its way out the ball meets B7 where B7 stood, and
its way in from its rest, reflected off B7 there, is its way out. The simulator's positions
with 0.2 mm of noise (the ball's frame 15348 replaced by its rest, as the tracker predicts);
the table mirrored too. Failure rows: no B7 on the way, or the ball out on its line.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 15336
UNSEEN = 15348
IDS = np.array(["A5", "B7", "ball"])
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])
TRUTH_HIT = 15347.56  # A5 on the ball (511.58542 s)
TRUTH_BOUNCE = 15348.44  # the ball off B7 (511.61458 s)
A5 = np.array(
    [
        [-468.685, -468.092], [-417.626, -432.370], [-371.936, -400.404], [-331.050, -371.801],
        [-294.465, -346.205], [-261.726, -323.300], [-232.430, -302.805], [-206.216, -284.464],
        [-182.757, -268.053], [-161.766, -253.367], [-142.982, -240.226], [-126.174, -228.466],
        [-111.739, -217.594], [-99.558, -207.440], [-88.658, -198.353], [-78.905, -190.222],
        [-70.177, -182.947], [-62.367, -176.436], [-55.378, -170.610], [-49.124, -165.397],
        [-43.528, -160.732], [-38.520, -156.557], [-34.039, -152.821],
    ]
)  # fmt: skip
B7 = np.array(
    [[-73.799, -279.329]] * 13
    + [[-73.690, -280.137], [-73.511, -281.453], [-73.351, -282.632], [-73.207, -283.686]]
    + [[-73.199, -283.748]] * 6
)
BALL = np.array(
    [[-87.475, -239.741]] * 12
    + [
        [-82.900, -242.382],  # 15348: unseen
        [-73.819, -241.989],  # 15349: first seen, past B7
        [-66.008, -237.044], [-58.755, -232.453], [-52.020, -228.190], [-45.766, -224.231],
        [-39.958, -220.554], [-34.565, -217.140], [-29.557, -213.970], [-24.907, -211.026],
        [-20.589, -208.293],
    ]
)  # fmt: skip


def _straight_ball() -> np.ndarray:
    """The ball's way out as if it had gone on from its rest along the line to its first
    sighting (no turn), at the same speeds."""
    rest, first = BALL[0], BALL[13]
    u = (first - rest) / np.hypot(*(first - rest))
    steps = np.hypot(*np.diff(BALL[13:], axis=0).T)
    out = BALL.copy()
    out[14:] = first + np.cumsum(steps)[:, None] * u
    return out


def _contacts(seed: int, mirror: bool, b7=B7, ball=BALL) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    flip = np.array([-1.0, 1.0]) if mirror else np.ones(2)
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX)
    out: list[TrackContact] = []
    for k in range(len(ball)):
        frame = FIRST + k
        xy = np.array([A5[k], b7[k], ball[k]]) + rng.normal(0.0, 0.2, (3, 2))
        seen = np.ones(3, bool)
        if frame == UNSEEN:
            xy[2], seen[2] = ball[0], False  # predicted at rest
        moving = np.array([True, False, frame > UNSEEN + 1])
        sig = np.where(seen, 0.3, np.inf)
        ok = np.ones(3, bool)
        out += finder.push(frame, frame / FPS, xy * flip, ok, moving, ok, seen, sig)
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_the_ball_out_of_an_unseen_start_turned_off_a_resting_button_touched_it(
    seed: int, mirror: bool
) -> None:
    found = _contacts(seed, mirror)
    assert [(c.a, c.b) for c in found] == [("A5", "ball"), ("B7", "ball")], found
    hit, bounce = found
    assert abs(hit.t * FPS - TRUTH_HIT) <= 1.0
    assert abs(bounce.t * FPS - TRUTH_BOUNCE) <= 1.0
    assert bounce.frame - UNSEEN in (0, 1)  # the frame the ball was first seen, or before


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("case", ["no_button_there", "out_on_its_line"])
def test_no_bounce_without_a_piece_on_the_way_or_a_turn(seed: int, mirror: bool, case: str) -> None:
    if case == "no_button_there":
        found = _contacts(seed, mirror, b7=B7 + np.array([0.0, -300.0]))
    else:
        found = _contacts(seed, mirror, ball=_straight_ball())
    assert [(c.a, c.b) for c in found] == [("A5", "ball")], found
