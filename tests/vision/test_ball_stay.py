"""A faint ball at rest stays found; a hand hiding the ball is not made a ball.

Both come from the offside drills through the camera (``benchmarks/bench_offside.py``): a
white ball on a pale felt seen at 1.7 mm a pixel, the video H.264-compressed.

- The ball at rest leaves a coarse pixel or two above the foreground's threshold, its shadow
  beside it excused as a shadow. Where it had rested while the table was learned, one frame
  the noise left none was enough to lose it for good: the model took it in as table within
  three frames (:meth:`vision.background.Background.refresh`). :mod:`vision.ball_stay` fits it
  again where it was. The failure rows: without the fix the ball was kept in 10 and 4 of 40
  frames.
- With the ball under a coach's forearm, the palm's rim (lit brighter than the arm, out of the
  hand's mask) fitted a ball beside the hand, 2-100 mm from it. In a video the ball's colour
  is known: a fit beside a hand nearer the hand's colour is the hand's
  (:func:`vision.ball_search.hand_not_ball`).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.typing import NDArray

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import _style
from calibration.camera import Camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.state import FrameTruth, Hand
from tests.vision.clips import decoded_clip, keepers_four_and_ball
from vision.detect import Detector

TABLE = load_table("brasileira")
HOME_MM = (100.0, -60.0)  # where the ball lies under the hands


def _pieces(ball_xy_mm: tuple[float, float]) -> Pieces:
    """The goalkeepers on their lines, four buttons at rest, and the ball."""
    hl = TABLE.half_length
    xy = [(-hl + 8.5, 0.0), (hl - 8.5, 0.0)]
    xy += [(-400.0, 200.0), (300.0, 250.0), (150.0, -200.0), (-350.0, -240.0), ball_xy_mm]
    return keepers_four_and_ball(xy)


def _frame(k: int, ball_xy_mm: tuple[float, float], hands: tuple[Hand, ...] = ()) -> FrameTruth:
    pieces = _pieces(ball_xy_mm)
    n = len(pieces)
    return FrameTruth(k, k / 30.0, pieces, np.zeros((n, 2)), np.zeros(n, bool), hands=hands)


def _look(seed: int) -> tuple[Camera, object]:
    """The drill's random camera and look (a pale felt for the seeds used here)."""
    rng = np.random.default_rng(seed + 7919)
    cam = random_camera(rng, TABLE, (1920, 1080))[0]
    style, _, _ = _style(rng)
    return cam, style


def _decoded(frames: list[FrameTruth], cam: Camera, style: object, seed: int) -> list[NDArray]:
    """The frames rendered into an H.264 clip and read back."""
    return decoded_clip(frames, TABLE, cam, 30.0, style, seed=seed)


def _ball(det: Detector, image: NDArray, k: int) -> NDArray[np.float64] | None:
    out = det.detect(image, k, k / 30.0)
    b = np.flatnonzero(out.kind == "ball")
    return out.xy_mm[b[0]] if len(b) else None


@pytest.mark.parametrize("ball_xy_mm", [(43.7, 108.7), (44.5, 109.2)])
def test_a_faint_ball_at_rest_stays_found(ball_xy_mm: tuple[float, float]) -> None:
    cam, style = _look(4013)
    assert float(cam.pixel_size_mm(np.array([[*ball_xy_mm, 5.0]]))[0]) > 1.5  # a 6-pixel ball
    # it rests there in 2 of the 6 frames the table is learned from, then for 40 frames
    frames = [_frame(k, ball_xy_mm if k < 2 or k >= 6 else (-200.0, 100.0)) for k in range(46)]
    images = _decoded(frames, cam, style, 4013)
    det = Detector(cam, TABLE)
    det.learn_background(images[:6])
    errors = []
    for k in range(6, len(images)):
        xy = _ball(det, images[k], k)
        errors.append(math.inf if xy is None else float(np.hypot(*(xy - ball_xy_mm))))
    kept = sum(e < 1.0 for e in errors)
    assert kept == len(errors), f"kept in {kept} of {len(errors)} frames"


def _hands_over_the_ball(seed: int, n: int) -> list[Hand]:
    """Forearms over the ball, their fingertips 40-100 mm beyond it, from either long side."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        angle = (1 if rng.random() < 0.5 else -1) * math.pi / 2 + rng.uniform(-0.5, 0.5)
        u = np.array([math.cos(angle), math.sin(angle)])  # toward the elbow
        tip = np.asarray(HOME_MM) - rng.uniform(40.0, 100.0) * u
        out.append(Hand((tip[0], tip[1]), (tip[0] + 600 * u[0], tip[1] + 600 * u[1])))
    return out


def _segment_distance_mm(hand: Hand, xy: NDArray[np.float64]) -> float:
    a, e = np.asarray(hand.tip_xy_mm), np.asarray(hand.elbow_xy_mm)
    t = float(np.clip((xy - a) @ (e - a) / ((e - a) @ (e - a)), 0.0, 1.0))
    return float(np.hypot(*(xy - a - t * (e - a))))


@pytest.mark.parametrize("seed", [4014, 4016])
def test_a_hand_hiding_the_ball_is_not_a_ball(seed: int) -> None:
    cam, style = _look(seed)
    hands = _hands_over_the_ball(seed, 5)
    frames = [_frame(k, HOME_MM) for k in range(6)]
    for j, hand in enumerate(hands):  # two frames of the ball alone, then the hand over it
        frames += [_frame(6 + 8 * j + i, HOME_MM, (hand,) if i >= 2 else ()) for i in range(8)]
    images = _decoded(frames, cam, style, seed)
    det = Detector(cam, TABLE)
    det.learn_background(images[:6])
    seen, at_hand = 0, []
    for k in range(6, len(images)):
        xy = _ball(det, images[k], k)
        hand = frames[k].hands[0] if frames[k].hands else None
        if xy is None:
            continue
        if float(np.hypot(*(xy - HOME_MM))) < 1.0:
            seen += 1
        elif hand is not None and _segment_distance_mm(hand, xy) < 120.0:
            at_hand.append(np.round(xy).tolist())
    assert seen >= 2 * len(hands)  # the ball itself, whenever it is in view
    assert not at_hand, f"balls reported at the hand: {at_hand}"
