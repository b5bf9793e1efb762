"""A kick-off ball struck from the centre spot is found the frame it is struck (issue 5).

A fit on a painted spot in a video is the bare mark when parallax says so
(:func:`vision.ball_search.ball_on_spot`, ``tests/vision/test_ball_resting_by_hand.py``). The
frame a kick-off ball is struck it lies 1-3 mm off the spot along its way, which parallax reads
as a bare mark's offset as readily: on the ten-minute renders the ball was lost there on 8
kick-offs. Where the ball was found near the spot a moment ago, a fit on it may be the ball.

Random cameras and felts (the table brasileira's): the ball learned elsewhere, then at rest on
the centre spot for six frames, then struck along a random way 2.5, 10 and 18 mm a frame.
The row of seed 5 lost the struck frame on the code that first judged video spots by parallax.
The faster frames after are not asserted (a rolling ball lost at 26 mm a frame on some cameras
is another matter), nor cameras on which the ball at rest on the spot is not found at all
(white on the white spot: seeds 1 and 8 of these, a known limit).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.typing import NDArray

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import _style
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.state import FrameTruth
from tests.vision.clips import decoded_clip, keepers_four_and_ball
from vision.detect import Detector

TABLE = load_table("brasileira")
HL = TABLE.half_length
LEARN, REST = 6, 6
STEPS_MM = (2.5, 10.0, 18.0)  # the struck ball's steps a frame


def _pieces(ball_xy: tuple[float, float]) -> Pieces:
    xy = [(-HL + 8.5, 0.0), (HL - 8.5, 0.0), (-60.0, 40.0), (300.0, 250.0), (150.0, -200.0)]
    xy += [(-350.0, -240.0), ball_xy]
    return keepers_four_and_ball(xy)


def _path(angle_rad: float) -> list[tuple[float, float]]:
    u = np.array([math.cos(angle_rad), math.sin(angle_rad)])
    path = [(300.0, -60.0)] * LEARN + [(0.0, 0.0)] * REST
    return path + [(float(x), float(y)) for x, y in (u * np.cumsum(STEPS_MM)[:, None])]


def _found(seed: int, angle_rad: float) -> list[float | None]:
    """The ball's error (mm) on each frame after the table is learned; None where not found."""
    path = _path(angle_rad)
    frames = []
    for k, b in enumerate(path):
        p = _pieces(b)
        n = len(p)
        v, moving = np.zeros((n, 2)), np.zeros(n, bool)
        if k >= LEARN + REST:
            v[-1] = (np.asarray(b) - np.asarray(path[k - 1])) * 30.0
            moving[-1] = True
        frames.append(FrameTruth(k, k / 30.0, p, v, moving))
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, TABLE, (1920, 1080))[0]
    style, _, _ = _style(rng)
    images = decoded_clip(frames, TABLE, cam, 30.0, style, seed=seed)
    det = Detector(cam, TABLE)
    det.learn_background(images[:LEARN])
    out: list[float | None] = []
    for k in range(LEARN, len(images)):
        d = det.detect(images[k], k, k / 30.0)
        b: NDArray[np.intp] = np.flatnonzero(d.kind == "ball")
        out.append(float(np.hypot(*(d.xy_mm[b[0]] - path[k]))) if len(b) else None)
    return out


@pytest.mark.parametrize(
    ("seed", "angle_rad"),
    [(5, -0.9), (2, -0.9), (3, -0.9), (7, -0.9), (9, -0.9), (2, 2.2), (5, 2.2)],
)
def test_a_kickoff_ball_is_found_as_it_is_struck(seed: int, angle_rad: float) -> None:
    errors = _found(seed, angle_rad)
    wrong = [(LEARN + i, e) for i, e in enumerate(errors[: REST + 2]) if e is None or e > 1.5]
    assert not wrong, f"(frame, mm off) on the spot and as it was struck: {wrong}"
