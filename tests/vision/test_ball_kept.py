"""The ball kept at rest between frames (issue 5, "Speed"): a blob a sure ball beat, or a
goal's crossbar the search itself leaves out, is no reason to search for the ball again
while its pixels stay the same (:func:`vision.ball_search.ball_elsewhere`); a blob that
changed, or one never beaten, is.

A learned table rendered through a non-square camera; the blobs are made from its own
coarse grid, as the detector's blobs are.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from vision import ball_search
from vision.ball import BallFit
from vision.ball_search import ball_elsewhere, remember_lost
from vision.detect import Detector

TABLE = load_table("brasileira")


@pytest.fixture(scope="module")
def learned() -> tuple[Detector, np.ndarray]:
    frames = list(Match(TABLE, "brasileira", seed=4, fps=30).frames(2.0))
    cam = preset_camera("tilted", TABLE, (1024, 600))
    r = Renderer(TABLE, cam, RenderStyle(jpeg_quality=90), rng=4)
    det = Detector(cam, TABLE)
    det.learn_background([r.render(f) for f in frames[:40:4]])
    image = r.render(frames[40])
    det.detect(image, 40, 40 / 30)
    return det, image


def _near(det: Detector, xy_mm: tuple[float, float], reach_px: float = 7.0) -> np.ndarray:
    """The coarse pixels within ``reach_px`` of where ``xy_mm`` (at a button's height) is seen."""
    uv = det.camera.table_to_image(np.array([[*xy_mm, det.sizes.button_height]]))[0]
    return np.asarray(np.hypot(*(det._uv_sub - uv).transpose(2, 0, 1)) < reach_px)


def _blob(det: Detector, near: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """A blob of coarse pixels as the detector has it: table points, area, pixels."""
    assert near.sum() >= 3
    return det._xy_sub[near], float(det._px_mm2[near].sum()), det._uv_sub[near]


def _kept(xy_mm: tuple[float, float]) -> BallFit:
    z = np.zeros(2)
    return BallFit(np.array(xy_mm, float), z, 0.1, z, np.full(3, 200.0), 0.95, 1.0, 3.0)


@pytest.mark.parametrize(
    ("beaten", "changed", "searched"),
    [
        (True, False, False),  # beaten by a sure ball, unchanged: the ball stays kept
        (True, True, True),  # beaten, then its pixels changed: it may be the ball moved
        (False, False, True),  # never beaten nor tried: searched
    ],
)
def test_a_blob_a_sure_ball_beat_is_no_doubt_while_unchanged(
    learned: tuple[Detector, np.ndarray], beaten: bool, changed: bool, searched: bool
) -> None:
    det, image = learned
    det.memory.rejects.clear()
    det._sub = image[1::3, 1::3].copy()
    hands = np.zeros(det._sub.shape[:2], bool)
    ball, near = _kept((-300.0, 200.0)), _near(det, (250.0, -150.0))
    blob = _blob(det, near)
    if beaten:
        remember_lost(det, [blob, _blob(det, _near(det, (-300.0, 201.0)))], ball, hands)
    if changed:
        det._sub[near] = 255 - det._sub[near]
    assert ball_elsewhere(det, [blob], ball, hands) is searched


def test_the_kept_balls_own_blob_and_a_hands_are_not_remembered(
    learned: tuple[Detector, np.ndarray],
) -> None:
    det, image = learned
    det.memory.rejects.clear()
    det._sub = image[1::3, 1::3].copy()
    ball = _kept((-300.0, 200.0))
    own, by_hand = _blob(det, _near(det, (-300.0, 205.0))), _blob(det, _near(det, (100.0, 100.0)))
    hands = np.zeros(det._sub.shape[:2], bool)
    hands[np.hypot(*(det._xy_sub - np.array([100.0, 120.0])).transpose(2, 0, 1)) < 15] = True
    remember_lost(det, [own, by_hand], ball, hands)
    assert det.memory.rejects == []


def test_a_blob_on_a_crossbar_in_its_colours_is_no_doubt(
    learned: tuple[Detector, np.ndarray], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bar a goalkeeper hid while the table was learned shows as a blob: the search
    leaves it out, so it must not send the search off again on every frame."""
    det, image = learned
    det.memory.rejects.clear()
    det._sub = image[1::3, 1::3].copy()
    bars = det._crossbars()
    hands = np.zeros(det._sub.shape[:2], bool)
    uv = det._uv_sub
    on_bar = bars[uv[..., 1].astype(int), uv[..., 0].astype(int)] & (uv[..., 0] > uv[..., 0].mean())
    iy, ix = np.nonzero(on_bar)  # the right goal's crossbar: its middle coarse pixel
    k = np.argsort(iy)[len(iy) // 2]
    near = on_bar & (np.hypot(*(uv - uv[iy[k], ix[k]]).transpose(2, 0, 1)) < 7.0)
    blob = _blob(det, near)
    det._last_image = image.copy()
    assert ball_elsewhere(det, [blob], _kept((-300.0, 200.0)), hands) is False
    # found once, the ghost is remembered: while its pixels stay, its colours are not read again
    monkeypatch.setattr(ball_search, "_bar_coloured", _never)
    assert ball_elsewhere(det, [blob], _kept((-300.0, 200.0)), hands) is False
    monkeypatch.undo()
    # the same pixels in a colour neither the bar's nor the felt's: a ball under the bar, searched
    u, v = blob[2][:, 0].astype(int), blob[2][:, 1].astype(int)
    for du in (-1, 0, 1):
        for dv in (-1, 0, 1):
            det._last_image[v + dv, u + du] = (20, 20, 220)
    det._sub = det._last_image[1::3, 1::3].copy()
    assert ball_elsewhere(det, [blob], _kept((-300.0, 200.0)), hands) is True


def _never(*_: object) -> bool:
    raise AssertionError("the crossbar's colours read again for an unchanged ghost")
