"""A still's ball a few pixels from a coach's hand is found (issue 5; vision/ball_hands.py).

The hand's mask is coarse and grown by a margin (a fingertip must never become a ball); on a
still a ball lying 2-4 px from the hand's edge lost most of itself to that margin (seen 0.3)
and was taken for the hand's: stills 1341 and 1353 of ``bench_detect --seed 1300``, white
balls on green felt, whole in the image. A still's fit beside a hand is now fitted again with
the hand's own pixels left out as they are, and kept when it then shows itself as a ball in
the open does and is not of the hand's colour.

The scenes: seeded random cameras (the acceptance's ranges), felts of every shade, balls of
several colours, skins, hands at several heights and the ball at a chosen gap (px, in the
image) from the hand's outline beside the palm or the forearm. Failure rows: the same stills
without the ball show none (the hand's fingertips, knuckles and rim are no ball); and the two
stills of ``bench_detect`` themselves.
"""

from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy as np
import pytest

from benchmarks.bench_calibration import random_camera
from calibration.camera import Camera
from geometry.tablespec import load_table
from simulator.render import Renderer
from simulator.state import FrameTruth, Hand
from tests.scenes import seeded_style, still_truth
from tests.vision.bench_stills import bench_still
from vision.detect import Detector
from vision.detections import Detections

TABLE = load_table("brasileira")
BUTTONS_MM = [(-600.0, -250.0), (-150.0, 350.0), (250.0, -300.0), (700.0, 150.0)]
WHITE, ORANGE, YELLOW = (235, 240, 245), (30, 140, 250), (40, 220, 235)
# seed: (felt, ball colour, skin, hand height mm, gap px from the hand's outline, where: the
# palm's side or the forearm's)
CASES = {
    1: ("green", WHITE, (120, 150, 200), 20.0, 2.0, "palm"),
    2: ("blue", ORANGE, (90, 120, 170), 30.0, 3.0, "palm"),
    3: ("dark_green", YELLOW, (140, 170, 215), 15.0, 2.5, "arm"),
    4: ("light", ORANGE, (120, 150, 200), 25.0, 3.5, "palm"),
    5: ("green", YELLOW, (80, 105, 150), 40.0, 2.0, "arm"),
    6: ("blue", WHITE, (120, 150, 200), 20.0, 4.0, "palm"),
}


def _camera(seed: int) -> Camera:
    return random_camera(np.random.default_rng(100 + seed), TABLE, (1920, 1080))[0]


def _hand(seed: int) -> Hand:
    """A hand reaching in from a rail toward the field's middle, its tip at random."""
    rng = np.random.default_rng(seed)
    _, _, skin, height, _, _ = CASES[seed]
    tip = np.array([rng.uniform(-500.0, 500.0), rng.uniform(-150.0, 150.0)])
    elbow = np.array([tip[0] + rng.uniform(-200.0, 200.0), np.sign(rng.uniform(-1, 1)) * 950.0])
    return Hand(tuple(tip), tuple(elbow), height_mm=height, skin_bgr=skin)


def _ball_place(cam: Camera, r: Renderer, hand: Hand, gap_px: float, where: str) -> np.ndarray:
    """A footprint (mm) whose ball's image lies ``gap_px`` from the hand's outline, beside the
    palm (``where="palm"``, out across the arm at the palm's middle) or the forearm (a third of
    the way along it)."""
    item = r._hand_item(hand)
    assert item is not None
    polys = [np.asarray(uv, np.float32) for uv, _ in item.polys]
    tip, elbow = np.asarray(hand.tip_xy_mm), np.asarray(hand.elbow_xy_mm)
    u = (elbow - tip) / np.linalg.norm(elbow - tip)
    side = np.array([-u[1], u[0]])
    at = tip + u * (hand.width_mm * (0.6 if where == "palm" else 2.5))
    for d in np.arange(0.0, 150.0, 0.1):
        xy = at + side * d
        c = cam.table_to_image(np.array([[*xy, 5.0]]))[0]
        edge = cam.table_to_image(np.array([[xy[0] + 5.0, xy[1], 5.0]]))[0]
        r_px = float(np.hypot(*(edge - c)))
        dist = min(-cv2.pointPolygonTest(p, (float(c[0]), float(c[1])), True) for p in polys)
        if dist - r_px >= gap_px:
            return np.asarray(xy, np.float64)
    raise AssertionError("no place beside the hand")


def _frame(ball_mm: np.ndarray | None, hand: Hand) -> FrameTruth:
    """The goalkeepers on their lines, four buttons, the hand and, if given, the ball."""
    hl = TABLE.half_length
    ids = ["A1", "B1", "A2", "A3", "B2", "B3"]
    team, kind = [i[0] for i in ids], ["goalkeeper"] * 2 + ["button"] * 4
    xy = [(-hl + 8.5, 20.0), (hl - 8.5, -30.0), *BUTTONS_MM]
    size = [(70.0, 15.0)] * 2 + [(50.0, 50.0)] * 4
    angle, height = [np.pi / 2] * 2 + [0.0] * 4, [35.0] * 2 + [10.0] * 4
    if ball_mm is not None:
        ids, team, kind = [*ids, "ball"], [*team, ""], [*kind, "ball"]
        xy, size = [*xy, tuple(ball_mm)], [*size, (10.0, 10.0)]
        angle, height = [*angle, 0.0], [*height, 10.0]
    frame = still_truth(ids, team, kind, xy, size, angle, height)
    return dataclasses.replace(frame, hands=(hand,))


@functools.cache
def _detected(seed: int) -> tuple[Detections, Detections, np.ndarray]:
    """The case's still with the ball and without it, each detected as a still; the ball's
    footprint (mm)."""
    felt, ball_bgr, _, _, gap, where = CASES[seed]
    style = seeded_style(np.random.default_rng(seed), seed, felt, ball_bgr)
    cam, hand = _camera(seed), _hand(seed)
    r = Renderer(TABLE, cam, style, rng=seed)
    ball = _ball_place(cam, r, hand, gap, where)
    with_ball, without = (r.render(_frame(b, hand)) for b in (ball, None))
    return Detector(cam, TABLE).detect(with_ball), Detector(cam, TABLE).detect(without), ball


def _balls(d: Detections) -> np.ndarray:
    return np.asarray(d.xy_mm[d.kind == "ball"], np.float64)


@pytest.mark.parametrize("seed", sorted(CASES))
def test_a_ball_beside_a_hand_is_found_on_a_still(seed: int) -> None:
    det, _, ball = _detected(seed)
    balls = _balls(det)
    assert len(balls) == 1, (balls, ball)
    assert float(np.hypot(*(balls[0] - ball))) < 0.5, (balls, ball)


@pytest.mark.parametrize("seed", sorted(CASES))
def test_without_the_ball_the_hand_shows_none(seed: int) -> None:
    """Failure rows: the hand's own parts are no ball."""
    assert not len(_balls(_detected(seed)[1]))


@pytest.mark.parametrize("seed", [1341, 1353, 2141])
def test_bench_detect_stills_beside_a_hand(seed: int) -> None:
    """The stills of ``bench_detect`` whose balls were lost beside a hand (``--seed 1300``'s
    two, and 2141's against a wrist, seen 0.61 of itself: the bare penalty mark was reported
    instead)."""
    det, ball = bench_still(seed)
    found = det.xy_mm[det.kind == "ball"]
    assert len(found) == 1 and np.hypot(*(found[0] - ball)) < 0.5, (found, ball)
