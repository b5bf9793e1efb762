"""The detector end to end (issue 5, deliverables 1-3) on renders of a seeded random match.

A still at 1920 x 1080 (no background model: the felt is estimated from the image) and a short
video at 960 x 540 (the background learned from frames, then a light change). Truth and
detections are matched by position (Hungarian); errors are footprint errors in table mm.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.detect import Detector, DetectorError
from vision.detections import Detections

TABLE = load_table("brasileira")


@pytest.fixture(scope="module")
def match_frames() -> list[FrameTruth]:
    return list(Match(TABLE, "brasileira", seed=5, fps=30).frames(30.0))


def _match(
    truth: FrameTruth, det: Detections, kind: str
) -> tuple[np.ndarray, int, int, list[bool]]:
    """Errors (mm) of matched pieces of ``kind``, misses, false detections, team agreement."""
    p = truth.pieces
    ti, di = np.flatnonzero(p.kind == kind), np.flatnonzero(det.kind == kind)
    if not len(ti) or not len(di):
        return np.zeros(0), len(ti), len(di), []
    cost = np.linalg.norm(p.xy_mm[ti][:, None] - det.xy_mm[di][None], axis=2)
    a, b = linear_sum_assignment(cost)
    ok = cost[a, b] < 15.0
    same = [p.team[ti[i]] == det.team[di[j]] for i, j in zip(a[ok], b[ok], strict=True)]
    return cost[a, b][ok], len(ti) - int(ok.sum()), len(di) - int(ok.sum()), same


def test_still_at_1080p(match_frames: list[FrameTruth]) -> None:
    """Every piece of a still (tilted camera, JPEG, noise) found, teams right, and in place."""
    cam = preset_camera("tilted", TABLE, (1920, 1080))
    frame = next(f for f in match_frames[200:] if not f.hands and not f.moving.any())
    img = Renderer(TABLE, cam, RenderStyle(jpeg_quality=85), rng=7).render(frame)
    det = Detector(cam, TABLE).detect(img, frame=frame.frame, t=frame.t)
    assert det.frame == frame.frame and det.t == frame.t
    buttons, miss_b, fp_b, same_b = _match(frame, det, "button")
    keepers, miss_k, fp_k, same_k = _match(frame, det, "goalkeeper")
    ball, miss_ball, fp_ball, _ = _match(frame, det, "ball")
    assert (miss_b, fp_b, miss_k, fp_k, miss_ball, fp_ball) == (0, 0, 0, 0, 0, 0)
    assert all(same_b) and all(same_k)
    assert np.median(buttons) < 0.5 and buttons.max() < 1.5
    assert keepers.max() < 1.5
    assert ball[0] < 0.3
    # sigma_mm is an honest scale: the ball's and the buttons' stay small, none is zero
    assert (det.sigma_mm > 0).all() and (det.sigma_mm < 1.0).all()
    assert ((det.confidence > 0.5) & (det.confidence <= 1.0)).all()


def test_learned_background_survives_hands_and_light(match_frames: list[FrameTruth]) -> None:
    """A background learned over frames with hands; then a frame with a hand and 15% less
    light: the hand becomes a hand polygon, never a piece, and the pieces are found."""
    cam = preset_camera("overhead", TABLE, (960, 540))
    r = Renderer(TABLE, cam, RenderStyle(jpeg_quality=85), rng=8)
    learn = [r.render(f) for f in match_frames[:300:15]]
    det = Detector(cam, TABLE)
    det.learn_background(learn)
    assert det.learned
    x0, y0, x1, y1 = TABLE.rail_box
    frame = next(
        f
        for f in match_frames[300:]
        if f.hands
        and x0 + 250 < f.hands[0].tip_xy_mm[0] < x1 - 250
        and y0 + 250 < f.hands[0].tip_xy_mm[1] < y1 - 250
    )
    img = np.clip(r.render(frame).astype(np.float32) * 0.85, 0, 255).astype(np.uint8)
    out = det.detect(img)
    assert len(out.hands) >= 1
    # the palm's middle, as the camera sees it over a button's top (what it hides there)
    hand = frame.hands[0]
    tip, elbow = np.array(hand.tip_xy_mm), np.array(hand.elbow_xy_mm)
    palm = tip + (elbow - tip) / np.linalg.norm(elbow - tip) * 0.55 * hand.width_mm
    seen = cam.image_to_table(cam.table_to_image(np.array([[*palm, hand.height_mm + 12]])), 10.0)
    from shapely import Point, Polygon

    assert any(Polygon(h).contains(Point(*seen[0])) for h in out.hands)
    buttons, miss, fp, same = _match(frame, out, "button")
    assert fp == 0  # the hand is never a piece
    assert miss <= 2  # only what the hand covers
    assert np.median(buttons) < 1.0  # at 2.2 mm a pixel
    assert all(same)
    assert abs(float(det.bg.gain.mean()) - 0.85) < 0.05
    # the next frame shows the same: every fit is kept as it was, none is made again
    again = det.detect(img)
    assert len(again) == len(out)
    assert np.allclose(np.sort(again.xy_mm, axis=0), np.sort(out.xy_mm, axis=0))


def test_wrong_image_size_is_refused() -> None:
    cam = preset_camera("overhead", TABLE, (320, 200))
    det = Detector(cam, TABLE)
    with pytest.raises(DetectorError, match="another resolution"):
        det.detect(np.zeros((100, 100, 3), np.uint8))
    with pytest.raises(DetectorError, match="no table"):
        det.check_table(np.zeros((200, 320, 3), np.uint8))
