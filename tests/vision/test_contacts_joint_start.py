"""A ball kicked from rest into a piece resting beside it (vision/contacts.py, ``_find``).

Gaucha's ten-minute render, seed 32, frames 17358-17372: A11, flicked from 220 mm away,
struck the resting ball (unseen that frame, predicted at rest) and the ball struck B5,
resting 0.8 mm beside it, in the same instant; ball and B5 were set going together. Two
touches (001 Art. I: a piece the ball strikes touched it): A11's was found, B5's lost - the
tracker's moving flag for the ball came a frame later, and the pair's relative change (63
mm/s) understates B5's own start (190 mm/s). A ball's own step shows it going, the slower of
two set going together shows the hit, and the ball's striker is still looked for. The
simulator's positions with 0.2 mm of noise (0.1 on the ball); the table mirrored too.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A11", "B5", "ball"])
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])
FIRST = 17358
HIT = 17365.5  # the truth's 578.85 s
UNSEEN = 17365  # the ball, predicted at rest
# (A11, B5, ball), frames 17358-17372
TRUTH = np.array(
    [
        [[382.568, -172.785], [434.985, 51.120], [400.390, 44.497]],
        [[382.568, -172.785], [434.985, 51.120], [400.390, 44.497]],
        [[382.568, -172.785], [434.985, 51.120], [400.390, 44.497]],
        [[381.094, -150.045], [434.985, 51.120], [400.390, 44.497]],
        [[377.981, -102.036], [434.985, 51.120], [400.390, 44.497]],
        [[375.195, -59.076], [434.985, 51.120], [400.390, 44.497]],
        [[372.702, -20.633], [434.985, 51.120], [400.390, 44.497]],
        [[370.471, 13.767], [434.985, 51.120], [400.390, 44.497]],
        [[365.407, 43.215], [437.817, 51.637], [402.173, 50.673]],  # 17366
        [[357.220, 68.001], [443.787, 52.727], [405.521, 63.625]],
        [[349.894, 90.181], [449.129, 53.701], [408.630, 75.653]],
        [[343.339, 110.028], [453.910, 54.574], [411.517, 86.822]],
        [[337.472, 127.788], [458.188, 55.354], [414.198, 97.194]],
        [[332.223, 143.680], [462.016, 56.053], [415.885, 91.333]],
        [[327.526, 157.902], [465.441, 56.678], [417.452, 85.891]],
    ]
)
SIGMA = np.array([0.3, 0.3, 0.1])


def _contacts(seed: int, mirror: bool, b5_shift_mm: float = 0.0) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    flip = np.array([-1.0, 1.0]) if mirror else np.ones(2)
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX)
    shown = TRUTH.copy()
    shown[:, 1, 0] += b5_shift_mm  # B5 that far off the ball (set going all the same)
    out: list[TrackContact] = []
    prev = shown[0]
    for k in range(len(shown)):
        frame = FIRST + k
        xy = shown[k] * flip + rng.normal(0.0, 1.0, (3, 2)) * SIGMA[:, None] * np.array(
            [[1.0], [0.3], [1.0]]
        )
        seen = np.ones(3, bool)
        if frame == UNSEEN:
            xy[2], seen[2] = shown[k - 1, 2] * flip, False
        # the tracker's flags: a frame behind for the ball and B5 (60 mm/s twice running)
        step = np.hypot(*(shown[k] - prev).T)
        moving = step > np.array([1.0, 99.0, 99.0])
        if k >= 10:
            moving[:] = True
        prev = shown[k]
        sig = np.where(seen, SIGMA, np.inf)
        out += finder.push(frame, frame / FPS, xy, np.ones(3, bool), moving, None, seen, sig)
    return [c for c in out if c.kind == "piece-ball"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_ball_kicked_into_a_piece_beside_it_is_two_touches(seed: int, mirror: bool) -> None:
    touches = _contacts(seed, mirror)
    pieces = sorted(c.a for c in touches)
    assert pieces == ["A11", "B5"], touches
    for c in touches:
        assert abs(c.t * FPS - HIT) <= 1.0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_piece_set_going_apart_from_the_ball_did_not_touch_it(seed: int, mirror: bool) -> None:
    # B5 15 mm further off (10 mm apart, beyond the touch tolerance) though set going too
    pieces = [c.a for c in _contacts(seed, mirror, b5_shift_mm=15.0)]
    assert pieces == ["A11"]
