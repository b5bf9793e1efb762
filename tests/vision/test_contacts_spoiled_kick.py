"""A ball struck from rest and hit again within the next frame: the first hit's touch.

The contact finder reads a hit from the bodies' velocities a frame either side; a ball struck
from rest that meets a second piece within the next frame has no clean velocity after the
first hit. Its step over the frame of the hit is what it shows, a lower bound: it left its rest
at the hit and covered that step in the part of the frame after it. Read over the whole frame
(gaucha seed 38's ten minutes, frame 5262: A8 at 1.2 m/s into the resting ball, which struck
B11 half a frame later) the ball's speed, 577 mm/s, was under A8's going on, the two seemed
still closing in after the hit, and the touch was lost; A8's hit on B10 two frames later was
called a foul (001 Art. XXIV: a piece that touches an opponent before the ball), and the ball's
out at 5273 given to the wrong side. 001 Art. XXXIV: the restart goes to the team that did not
touch the ball last.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 5256
# gaucha s38 frames 5256-5268, as tracked: A8, B11, B10 (buttons, 60 mm) and the ball
_A8 = [(-771.10, 515.07), (-771.08, 515.07), (-771.03, 515.06), (-770.98, 515.05),
       (-750.34, 511.17), (-709.64, 502.23), (-675.00, 496.36), (-646.51, 493.49),
       (-636.55, 490.83), (-634.10, 487.85), (-632.19, 485.30), (-630.29, 483.27),
       (-628.88, 481.32)]  # fmt: skip
_B11 = [(-609.50, 427.10)] * 6 + [(-609.47, 427.11), (-604.47, 423.08), (-598.06, 417.76),
                                  (-591.74, 412.41), (-586.22, 408.21), (-581.50, 404.42),
                                  (-577.22, 400.99)]  # fmt: skip
_B10 = [(-579.13, 495.17)] * 7 + [(-579.11, 495.24), (-563.50, 495.66), (-543.03, 495.89),
                                  (-524.66, 496.49), (-508.29, 497.19),
                                  (-493.71, 497.90)]  # fmt: skip
_BALL = [(-662.74, 474.55)] * 5 + [(-662.79, 474.57), (-649.66, 461.77), (-651.95, 457.67),
                                   (-674.13, 470.53), (-694.75, 482.53), (-714.05, 493.39),
                                   (-732.03, 503.60), (-748.46, 512.98)]  # fmt: skip
_MOVING_FROM = (5261, 5265, 5265, 5263)  # the tracker's flags


def _play(mirror: bool, noise_mm: float, seed: int) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    ids = np.array(["A8", "B11", "B10", "ball"])
    kind = np.array(["button", "button", "button", "ball"])
    size = np.array([[60.0, 60.0]] * 3 + [[10.0, 10.0]])
    finder = ContactFinder(
        ids, kind, size, np.zeros(4), max_speed_mm_s=np.array([3500.0] * 3 + [6000.0])
    )
    paths = np.stack([np.array(p) for p in (_A8, _B11, _B10, _BALL)], axis=1)
    paths = paths + rng.normal(0.0, noise_mm, paths.shape)
    if mirror:
        paths[..., 0] *= -1.0
    out: list[TrackContact] = []
    for q in range(len(paths)):
        frame = FIRST + q
        moving = np.array([frame >= f for f in _MOVING_FROM])
        out += finder.push(
            frame,
            frame / FPS,
            paths[q],
            np.ones(4, bool),
            moving,
            sigma_mm=np.array([0.3, 0.3, 0.3, 0.5]),
        )
    return out


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize(("noise_mm", "seed"), [(0.0, 0), (0.2, 1), (0.2, 2), (0.2, 3)])
def test_the_kick_from_rest_is_a_touch_before_the_ball_meets_the_next_piece(
    mirror: bool, noise_mm: float, seed: int
) -> None:
    hits = _play(mirror, noise_mm, seed)
    got = [(c.a, c.b, c.frame) for c in hits]
    # the truth: A8 on the ball at t = 175.3875 s (frame 5262), the ball on B11 at 175.4125
    # (5263), B10 on A8 at 175.4438 (5264)
    assert got[:3] == [("A8", "ball", 5262), ("B11", "ball", 5263), ("A8", "B10", 5264)], got
    first = hits[0]
    assert abs(first.t - 175.3875) < 1.0 / FPS, first
    assert all(c.a != "B11" or c.b == "ball" for c in hits)
