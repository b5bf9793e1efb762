"""A ball struck from rest unseen, then turned by a second hit before it was timed
(vision/contacts.py, ``_restarts``).

Gaucha's ten-minute render, seed 32, frames 7146-7160: the ball at rest on the touch line;
A8, flicked from under its coach's hand, struck it at 7152 (the ball unseen that frame, A8
until 7154); the ball went off B8 at 7155. A ball that left its rest unseen is timed and its
striker found once seen on two frames in a line from the rest - the two frames last seen, by
then turned by B8, so A8's touch was lost (and at frame 14656 a touch before a ball out, the
restart given to the wrong team). Its first two steps away, in a line from its rest, time it.
The simulator's positions with 0.2 mm of noise (0.1 on the ball); the table mirrored too.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A8", "B8", "ball"])
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])
FIRST = 7146
# (A8, B8, ball), frames 7146-7160
TRUTH = np.array(
    [[[-49.245, 628.984], [74.228, 529.090], [2.726, 599.000]]] * 5
    + [
        [[-42.290, 625.308], [74.228, 529.090], [2.726, 599.000]],
        [[-25.308, 616.353], [74.228, 529.090], [4.297, 598.033]],  # 7152: A8's touch
        [[-13.066, 610.157], [74.228, 529.090], [28.310, 583.245]],
        [[-2.110, 604.613], [74.228, 529.090], [50.609, 569.513]],
        [[7.693, 599.652], [74.670, 527.727], [67.979, 567.043]],  # 7155: off B8
        [[16.465, 595.212], [75.763, 524.362], [78.756, 581.237]],
        [[24.315, 591.240], [76.740, 521.350], [88.765, 594.418]],
        [[31.339, 587.685], [77.615, 518.655], [98.058, 606.657]],
        [[37.625, 584.504], [78.398, 516.244], [106.688, 618.023]],
        [[43.249, 581.658], [79.098, 514.086], [114.702, 628.577]],
    ]
)
A8_HIDDEN = (7151, 7153)
BALL_UNSEEN = 7152
SIGMA = np.array([0.2, 0.2, 0.1])


def _touches(seed: int, mirror: bool, a8_still: bool = False) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    flip = np.array([-1.0, 1.0]) if mirror else np.ones(2)
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX)
    shown = TRUTH.copy()
    if a8_still:  # A8 seen resting all along: what struck the ball is not known
        shown[:, 0] = shown[0, 0]
    out: list[TrackContact] = []
    for k in range(len(shown)):
        frame = FIRST + k
        xy = shown[k] + rng.normal(0.0, 1.0, (3, 2)) * SIGMA[:, None]
        ok = np.ones(3, bool)
        if A8_HIDDEN[0] <= frame <= A8_HIDDEN[1] and not a8_still:
            xy[0], ok[0] = shown[0, 0], False
        if frame == BALL_UNSEEN:
            ok[2] = False
        step = np.hypot(*(shown[k] - shown[max(k - 2, 0)]).T)
        moving = (step > 2.0) & ok  # (the tracker's flag: a frame late)
        sig = np.where(ok, SIGMA, np.inf)
        out += finder.push(frame, frame / FPS, xy * flip, ok, moving, np.ones(3, bool), ok, sig)
    return [c for c in out if c.kind == "piece-ball"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_ball_struck_unseen_then_turned_is_timed_by_its_first_steps(
    seed: int, mirror: bool
) -> None:
    touches = _touches(seed, mirror)
    assert [c.a for c in touches] == ["A8", "B8"], touches
    assert abs(touches[0].t * FPS - 7151.5) <= 1.0  # the truth: between 7151 and 7152
    assert abs(touches[1].t * FPS - 7154.5) <= 1.0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
def test_no_striker_for_a_ball_struck_unseen_when_no_piece_came_at_it(
    seed: int, mirror: bool
) -> None:
    assert [c.a for c in _touches(seed, mirror, a8_still=True)] == ["B8"]
