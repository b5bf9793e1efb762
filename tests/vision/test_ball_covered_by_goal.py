"""The ball at rest by a goal, covered by a coach's forearm: nothing else is taken for it.

Gaucha's ten minutes, seed 38 (rendered anew at the forty-first stop, ``python -m
benchmarks.bench_analyze --seconds 600 --rules gaucha --seed 38``), frame 14391: the ball at
rest 80 mm from the penalty mark, a forearm came over it, and the search fitted the bare mark,
80% of it under the arm (0.2 visible, 0.17 explained). :func:`vision.ball_stay.
sliver_off_a_covered_ball` turned that fit down, but the goalkeeper was within the ball's
reach, so the search beside a box ran and found the same sliver again: the ball was read
80 mm away for a frame, the engine took it for carried by hand, the play for dead, and B2's
foul on A7 (000 REGRA 12 FALTA) a moment later was lost. The search beside a box now asks
the same question of what it finds.

Here the same on random cameras and felts (the table brasileira's): the ball 80 mm from the
left penalty mark, a goalkeeper in its goal, a piece standing on the mark while the table is
learned (the learned table stale there, as on the clip), and from frame 10 a forearm whose
palm covers the ball, its arm toward the mark from either side. Expected: no ball reported
more than 1.5 mm from the ball's place. The first row fails on the code before (a ball 120 mm
away on the arm's first frame); two rows are known failures, left strict so that a fix shows.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import _style
from geometry.field import FieldModel
from geometry.tablespec import load_table
from simulator.state import FrameTruth, Hand
from tests.vision.clips import decoded_clip, keepers_four_and_ball
from vision.detect import Detector

TABLE = load_table("brasileira")
HL = TABLE.half_length
MARK = np.asarray(FieldModel(TABLE).penalty_mark("left"), float)
HOME = (float(MARK[0]) - 10.0, 80.0)  # the ball at rest, 80 mm from the mark
LEARN, FRAMES, HAND_FROM = 6, 24, 10


def _frames(angle_rad: float) -> list[FrameTruth]:
    """A2 on the mark while the table is learned, then 31 mm beside it; the ball at rest; from
    frame :data:`HAND_FROM` a forearm with its fingertip 15 mm past the ball (the palm over
    it), the arm toward ``angle_rad``."""
    u = np.array([math.cos(angle_rad), math.sin(angle_rad)])
    tip = np.asarray(HOME) - 15.0 * u
    hand = Hand((tip[0], tip[1]), (tip[0] + 600.0 * u[0], tip[1] + 600.0 * u[1]))
    out = []
    for k in range(FRAMES):
        a2 = MARK if k < LEARN else MARK + np.array([0.0, -31.0])
        xy = [(-HL + 8.5, -20.0), (HL - 8.5, 0.0), tuple(a2), (300.0, 250.0), (150.0, -200.0)]
        pieces = keepers_four_and_ball([*xy, (-350.0, -240.0), HOME])
        n = len(pieces)
        hands = (hand,) if k >= HAND_FROM else ()
        out.append(
            FrameTruth(k, k / 30.0, pieces, np.zeros((n, 2)), np.zeros(n, bool), hands=hands)
        )
    return out


def _elsewhere(seed: int, angle_rad: float) -> list[tuple[int, float]]:
    """(frame, mm from the ball's place) of each ball reported more than 1.5 mm from it."""
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, TABLE, (1920, 1080))[0]
    style, _, _ = _style(rng)
    images = decoded_clip(_frames(angle_rad), TABLE, cam, 30.0, style, seed=seed)
    det = Detector(cam, TABLE)
    det.learn_background(images[:LEARN])
    out: list[tuple[int, float]] = []
    for k in range(LEARN, FRAMES):
        d = det.detect(images[k], k, k / 30.0)
        b = np.flatnonzero(d.kind == "ball")
        if len(b):
            off = float(np.hypot(*(d.xy_mm[b[0]] - np.asarray(HOME))))
            if off > 1.5:
                out.append((k, round(off, 1)))
    return out


# the ball unseen under the arm for longer than the sliver rule looks back (3 frames)
KNOWN = "taken for the ball once it has been under the arm for five frames"
ROWS = [
    pytest.param(4, -1.8, id="seed4-arm-beside-the-mark"),  # before: the sliver 120 mm off
    pytest.param(5, -1.8, id="seed5"),
    pytest.param(6, -1.1, id="seed6"),
    pytest.param(7, -1.8, id="seed7"),
    pytest.param(
        4,
        -1.1,
        id="seed4-centre-mark",
        marks=pytest.mark.xfail(strict=True, reason=f"the bare centre mark (0.3): {KNOWN}"),
    ),
    pytest.param(
        8,
        -1.1,
        id="seed8-goal",
        marks=pytest.mark.xfail(
            strict=True, reason="the goal's net, 230 mm off, scored sure (0.67) while covered"
        ),
    ),
]


@pytest.mark.parametrize(("seed", "angle_rad"), ROWS)
def test_nothing_else_is_the_covered_ball(seed: int, angle_rad: float) -> None:
    wrong: list[tuple[int, float]] = _elsewhere(seed, angle_rad)
    assert not wrong, f"a ball reported elsewhere (frame, mm off): {wrong}"
