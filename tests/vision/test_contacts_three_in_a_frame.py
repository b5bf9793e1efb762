"""Three hits in one frame, timed in their order (vision/contacts.py, ``_find``).

Mesa-posta's ten-minute render, seed 46, frames 11779-11790: B11, sliding at 950 mm/s, strikes
A7 (a fifth of the frame in), then the resting ball (three fifths in), and A3 strikes the ball
at the frame's end. Struck from rest and hit again within the frame, the ball's velocity after
is its step over the frame ("spoiled"), and its own start timed its touch at the frame's start,
before A7's hit: B11 read as touching the ball first, and its foul lost (003 Faltas: an
opponent touched before the ball). The ball's touch is timed by B11's way into it. The
positions as tracked with 0.1 mm more noise (the ball 0.05 mm); the table mirrored too.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.contact_play import play_seen
from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 11779
IDS = np.array(["B11", "A7", "A3", "ball"])
TRUTH = {("B11", "A7"): 11783.19, ("B11", "ball"): 11783.63}  # the simulator's contact times
# as tracked (the project's detections of the render)
_B11 = [(-326.80, 455.90), (-356.57, 422.87), (-383.11, 393.27), (-406.70, 366.75),
        (-427.78, 342.95), (-443.99, 339.44), (-449.50, 342.87), (-452.88, 346.33),
        (-456.09, 348.81), (-458.89, 351.92), (-461.40, 354.40),
        (-463.65, 356.58)]  # fmt: skip
_A7 = [(-439.88, 279.70)] * 4 + [(-439.86, 279.92), (-442.37, 262.72), (-444.92, 244.13),
                                 (-447.33, 226.85), (-449.41, 211.67), (-451.35, 198.00),
                                 (-453.23, 185.93), (-454.60, 175.03)]  # fmt: skip
_A3 = [(-502.71, 322.66)] * 5 + [(-502.69, 322.66), (-511.60, 320.93), (-520.95, 319.51),
                                 (-529.74, 317.99), (-537.16, 316.84), (-543.86, 315.46),
                                 (-549.97, 314.01)]  # fmt: skip
_BALL = [(-465.15, 316.52)] * 4 + [(-465.14, 316.52), (-469.51, 311.37), (-468.20, 295.67),
                                   (-467.03, 280.65), (-465.60, 266.60), (-464.71, 253.61),
                                   (-463.69, 241.55), (-462.87, 230.53)]  # fmt: skip
_MOVING_FROM = (0, 11785, 11787, 11786)  # the tracker's flags


def _play(mirror: bool, seed: int) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(
        IDS,
        np.array(["button", "button", "button", "ball"]),
        np.array([[60.0, 60.0]] * 3 + [[10.0, 10.0]]),
        np.zeros(4),
        max_speed_mm_s=np.array([3500.0] * 3 + [6000.0]),
    )
    paths = np.stack([np.array(p) for p in (_B11, _A7, _A3, _BALL)], axis=1)
    noise, sig = np.array([0.1, 0.1, 0.1, 0.05]), np.array([0.3, 0.3, 0.3, 0.1])
    return play_seen(finder, paths, FIRST, _MOVING_FROM, noise, sig, rng, mirror)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_the_piece_struck_first_then_the_ball(seed: int, mirror: bool) -> None:
    hits = _play(mirror, seed)
    when: dict[tuple[str, str], float] = {}
    for c in sorted(hits, key=lambda c: c.t):
        when.setdefault((c.a, c.b), c.t * FPS)  # each pair's first hit
    for pair, t in TRUTH.items():
        assert pair in when, hits
        assert abs(when[pair] - t) <= 1.0, (pair, hits)
    assert when[("B11", "A7")] < when[("B11", "ball")], hits
