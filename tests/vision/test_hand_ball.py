"""The ball resting beside a coach's hand is found; a fingertip where it was is not a ball.

A video's detector (the table learned) sees the ball, then a hand comes beside it: its centre
2-6 mm outside the hand's outline as the camera sees it (the hand as
:func:`benchmarks.bench_track.hand_polygons` projects it, the ball's seen centre through the
camera), so that the hand hides up to half of it. Seeded cases vary the hand's colour (skin
tones and sleeves), its arm's angle and the side of the hand the ball lies on. The coarse
search leaves out whatever touches a hand: before :mod:`vision.ball_hands` such a ball was
not reported at all.

The failure rows: the ball gone (picked up) and a fingertip - a ball-sized disc of the hand's
colour, or of a white glove's, the ball's own colour - sticking out of the hand where the ball
was. Neither is a ball.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from benchmarks.bench_track import hand_polygons
from calibration.camera import Camera, preset_camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth, Hand
from vision.detect import Detector, ball_sigma_mm
from vision.track_hands import HandRegion

TABLE = load_table("brasileira")
BALL_XY_MM = (100.0, -60.0)
BALL_BGR = (235, 240, 245)  # the default style's white ball
SKINS = ((120, 150, 200), (60, 90, 140), (40, 40, 40), (90, 60, 150), (30, 90, 200))


def _pieces(ball: bool = True) -> Pieces:
    """The goalkeepers on their lines, four buttons at rest, and the ball."""
    hl = TABLE.half_length
    xy = [(-hl + 8.5, 0.0), (hl - 8.5, 0.0)]
    xy += [(-400.0, 200.0), (300.0, 250.0), (150.0, -200.0), (-350.0, -240.0), BALL_XY_MM]
    n = 7 if ball else 6
    return Pieces(
        np.array(["A1", "B1", "A2", "A3", "B2", "B3", "ball"][:n]),
        np.array(["A", "B", "A", "A", "B", "B", ""][:n]),
        np.array(["goalkeeper"] * 2 + ["button"] * 4 + ["ball"])[:n],
        np.array(xy, float)[:n],
        np.array([[70.0, 15.0]] * 2 + [[50.0, 50.0]] * 4 + [[10.0, 10.0]])[:n],
        np.array([np.pi / 2] * 2 + [0.0] * 5)[:n],
        np.array([35.0] * 2 + [8.0] * 4 + [10.0])[:n],
    )


def _frame(k: int, pieces: Pieces, hands: tuple[Hand, ...] = ()) -> FrameTruth:
    n = len(pieces)
    return FrameTruth(k, k / 30.0, pieces, np.zeros((n, 2)), np.zeros(n, bool), hands=hands)


def _seen_gap_mm(cam: Camera, hand: Hand) -> float:
    """How far the ball's seen centre (its centre's ray down to the table) lies outside the
    hand's outline as the camera sees it (mm; negative: under it)."""
    c = cam.centre_mm
    top = np.array([*BALL_XY_MM, 5.0])
    seen = c[:2] + (top[:2] - c[:2]) * c[2] / (c[2] - top[2])
    return float(HandRegion(hand_polygons(hand, cam)).distance(seen[None])[0])


def _hand_beside(
    cam: Camera, angle_rad: float, side: str, gap_mm: float, skin: tuple[int, int, int]
) -> Hand:
    """A hand whose arm runs at ``angle_rad`` (toward the elbow), the ball ``gap_mm`` beyond its
    fingertip or the side of its palm (``side``: "tip", "left", "right"), as the camera sees."""
    u = np.array([math.cos(angle_rad), math.sin(angle_rad)])
    v = np.array([-u[1], u[0]])
    toward = {"tip": -u, "left": v, "right": -v}[side]  # from the hand to the ball

    def hand(s_mm: float) -> Hand:
        tip = np.asarray(BALL_XY_MM) - toward * s_mm - (0.0 if side == "tip" else 0.55 * 80.0) * u
        return Hand((tip[0], tip[1]), (tip[0] + 600 * u[0], tip[1] + 600 * u[1]), skin_bgr=skin)

    lo, hi = -100.0, 200.0  # the gap grows with the distance the hand is moved back
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _seen_gap_mm(cam, hand(mid)) < gap_mm else (lo, mid)
    return hand(hi)


@functools.cache
def _rig() -> tuple[Camera, Renderer, Detector]:
    cam = preset_camera("tilted", TABLE, (1280, 720))
    r = Renderer(TABLE, cam, RenderStyle(jpeg_quality=88), rng=5)
    det = Detector(cam, TABLE)
    det.learn_background([r.render(_frame(k, _pieces())) for k in range(3)])
    return cam, r, det


def _ball(det: Detector, image: NDArray[np.uint8], k: int) -> tuple[NDArray[np.float64], float]:
    """The ball the detector reports (mm) and its sigma; NaNs when none."""
    out = det.detect(image, k, k / 30.0)
    b = np.flatnonzero(out.kind == "ball")
    if not len(b):
        return np.full(2, np.nan), math.nan
    return out.xy_mm[b[0]], float(out.sigma_mm[b[0]])


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_a_ball_beside_a_hand_is_found(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cam, r, det = _rig()
    skin = SKINS[int(rng.integers(len(SKINS)))]
    angle = -math.pi / 2 + float(rng.uniform(-0.6, 0.6))  # from the near rail
    side = str(rng.choice(["tip", "left", "right"]))
    gap = float(rng.uniform(2.0, 6.0))
    hand = _hand_beside(cam, angle, side, gap, skin)
    assert abs(_seen_gap_mm(cam, hand) - gap) < 0.1
    k = 100 * seed
    free, _ = _ball(det, r.render(_frame(k, _pieces())), k)
    assert np.hypot(*(free - BALL_XY_MM)) < 0.5  # seen alone first
    xy, sigma = _ball(det, r.render(_frame(k + 1, _pieces(), (hand,))), k + 1)
    err = float(np.hypot(*(xy - BALL_XY_MM)))
    assert err < 2.0, (skin, side, gap, err)
    # the hand hides part of it: its sigma says so, and covers the error
    assert sigma > 0.5 and err < 3.0 * sigma
    # the pixels the hand hides count as hidden (up to half of it at 2 mm)
    fit = det._ball_prior[0] if det._ball_prior is not None else None
    assert fit is not None and fit.visible < 0.95
    assert ball_sigma_mm(fit) == pytest.approx(sigma)


def _fingertip(cam: Camera, image: NDArray[np.uint8], bgr: tuple[int, int, int]) -> None:
    """A ball-sized fingertip of colour ``bgr`` where the ball was (drawn in place, blurred)."""
    uv = cam.table_to_image(np.array([[*BALL_XY_MM, 5.0]]))[0]
    d_px = 10.0 / float(cam.pixel_size_mm(np.array([[*BALL_XY_MM, 5.0]]))[0])
    layer = image.copy()
    centre = (round(uv[0] * 4), round(uv[1] * 4))
    cv2.circle(layer, centre, round(d_px * 2), bgr, -1, cv2.LINE_AA, shift=2)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.circle(mask, centre, round(d_px * 2), 255, -1, cv2.LINE_AA, shift=2)
    a = cv2.GaussianBlur(mask, (0, 0), 0.7).astype(np.float32)[:, :, None] / 255.0
    image[:] = np.clip(a * layer + (1.0 - a) * image, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(
    ("skin", "tip"),
    [
        ((120, 150, 200), (170, 195, 235)),  # a fingertip in the light, paler than the hand
        ((120, 150, 200), (70, 95, 130)),  # a fingertip in the hand's shadow
        ((60, 90, 140), (110, 140, 185)),  # a darker hand's, in the light
        ((225, 230, 235), BALL_BGR),  # a white glove: the fingertip is the ball's colour
    ],
)
def test_a_fingertip_where_the_ball_was_is_no_ball(
    skin: tuple[int, int, int], tip: tuple[int, int, int]
) -> None:
    cam, r, det = _rig()
    k = 1000 + 10 * skin[0] + tip[0]
    free, _ = _ball(det, r.render(_frame(k, _pieces())), k)
    assert np.hypot(*(free - BALL_XY_MM)) < 0.5
    # the ball picked up; the hand's fingertip rests where it was, against the hand
    hand = _hand_beside(cam, -math.pi / 2, "tip", 4.0, skin)
    image = r.render(_frame(k + 1, _pieces(ball=False), (hand,)))
    _fingertip(cam, image, tip)
    xy, _ = _ball(det, image, k + 1)
    assert not np.hypot(*(xy - BALL_XY_MM)) < 20.0  # none there (NaN: none at all)
