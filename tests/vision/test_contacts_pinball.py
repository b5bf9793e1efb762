"""A ball that meets a second piece and its striker again within one frame (vision/contacts.py,
``_find``: the "still closing" test and ``_crowded``).

Nacional's ten minutes, seed 35 (``python -m benchmarks.bench_analyze --rules nacional --seed
35``), frames 14702-14705: B5, struck by A10, kicked the resting ball into B11 (at rest 1.9 mm
off it), and met the ball again 23 ms later, within the same frame. The ball's way after the
frame is B5's second kick's, still leading toward B11, so the pair read as still closing in and
B11's touch was lost. A hit needs the bodies to part after it, unless the ball is touching a
third body by then (whose hit its velocity after holds too). The rows below are the tracked
positions (``tracks.csv``) of that run, moved near the origin; the failure row: with no third
body beside the ball, the same way after is no hit. The table mirrored too.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder

FPS = 30.0
FIRST = 14696
# frame 14696 on: B5 (tracked B8), B11 (tracked B10), the ball; mm, and the tracker's moving
B5 = [(-103.18, -554.71)] * 5 + [
    (-103.22, -554.75),
    (-111.93, -562.71),
    (-120.57, -569.77),
    (-127.22, -575.01),
    (-131.76, -578.36),
    (-135.43, -581.13),
    (-138.83, -583.64),
    (-141.88, -585.82),
]
B11 = [(-159.68, -640.01)] * 7 + [
    (-159.69, -640.01),
    (-160.64, -643.04),
    (-161.58, -646.19),
    (-162.62, -649.28),
    (-163.52, -651.94),
    (-164.40, -654.26),
]
BALL = [(-134.38, -589.68)] * 6 + [
    (-134.39, -589.68),
    (-146.98, -605.40),
    (-154.71, -599.41),
    (-174.33, -604.21),
    (-192.22, -608.69),
    (-209.21, -612.96),
    (-224.78, -616.88),
]
MOVING = {"B5": 7, "B11": 11, "ball": 8}  # first frame (index) the tracker called it moving
T_HIT = 490.10417  # the simulator's B11-ball contact


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("third_body", [True, False])
def test_a_ball_kicked_into_a_piece_and_met_again_in_the_frame_touched_it(
    mirror: bool, third_body: bool
) -> None:
    names = ["B5", "B11", "ball"] if third_body else ["B11", "ball"]
    tracks = {"B5": B5, "B11": B11, "ball": BALL}
    xy = np.stack([np.array(tracks[n]) - [-130.0, -600.0] for n in names], axis=1)
    if mirror:
        xy[..., 0] *= -1.0
    kind = np.array(["ball" if n == "ball" else "button" for n in names])
    size = np.array([[10.0, 10.0] if k == "ball" else [60.0, 60.0] for k in kind])
    vmax = np.where(kind == "ball", 6000.0, 3500.0)
    sigma = np.where(kind == "ball", 0.15, 0.3)
    finder = ContactFinder(np.array(names), kind, size, np.zeros(len(names)), max_speed_mm_s=vmax)
    hits = []
    for k, at in enumerate(xy):
        moving = np.array([k >= MOVING[n] for n in names])
        f = FIRST + k
        hits += finder.push(f, f / FPS, at, np.ones(len(names), bool), moving, sigma_mm=sigma)
    touches = [c for c in hits if {c.a, c.b} == {"B11", "ball"}]
    if third_body:
        assert len(touches) == 1, hits
        assert abs(touches[0].t - T_HIT) <= 1.0 / FPS
    else:
        assert touches == [], touches
