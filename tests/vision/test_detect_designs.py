"""The detector on stills of designs that once lost pieces (issue 5, stills' recall).

- a white team on a pale felt: its pale rim hardly differs from the felt, so the dark ring
  printed inside it fitted as a smaller button (and what it left became a 'ball');
- a black team on a dark green felt, strong noise: a faint edge whose noise floor bloated the
  fits past the accepted diameters;
- a goalkeeper fitted twice along its length counts once.

Seeded renders with the true camera; footprint errors in table mm.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import FIELD_COLOURS, TEAM_DESIGNS, RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.detect import Detector, _holes_filled
from vision.detections import Detections
from vision.solids import Solid, distinct

TABLE = load_table("brasileira")


@pytest.fixture(scope="module")
def still_frame() -> FrameTruth:
    frames = Match(TABLE, "brasileira", seed=11, fps=10).frames(40.0)
    return next(f for f in list(frames)[60:] if not f.hands and not f.moving.any())


def _errors(truth: FrameTruth, det: Detections, kind: str) -> tuple[np.ndarray, int, int]:
    """Footprint errors (mm) of the matched pieces of ``kind``, misses and false ones."""
    p = truth.pieces
    ti, di = np.flatnonzero(p.kind == kind), np.flatnonzero(det.kind == kind)
    cost = np.linalg.norm(p.xy_mm[ti][:, None] - det.xy_mm[di][None], axis=2)
    a, b = linear_sum_assignment(cost)
    ok = cost[a, b] < 15.0
    return cost[a, b][ok], len(ti) - int(ok.sum()), len(di) - int(ok.sum())


def _still(frame: FrameTruth, style: RenderStyle, preset: str, seed: int) -> Detections:
    cam = preset_camera(preset, TABLE, (1920, 1080))
    img = Renderer(TABLE, cam, style, rng=seed).render(frame)
    return Detector(cam, TABLE).detect(img)


def test_white_team_on_pale_felt(still_frame: FrameTruth) -> None:
    """The buttons found at their own size, the faint white ball found in place, and no ball
    made of a rim's leftovers.

    One white button may still be lost: far from a tilted camera, its pale rim within ten grey
    levels of the felt and its ring and number all that shows (a known limit, see
    benchmarks/RESULTS.md)."""
    style = RenderStyle.hard_pair("white_on_light", noise_sigma=4.0, jpeg_quality=80, seed=3)
    det = _still(still_frame, style, "tilted", seed=31)
    err, miss, false = _errors(still_frame, det, "button")
    assert miss <= 1 and false == 0
    assert np.median(err) < 0.6 and err.max() < 2.0
    true_d = float(np.median(still_frame.pieces.size_mm[still_frame.pieces.kind == "button", 0]))
    teams = set(det.team[det.kind == "button"])
    assert len(teams) == 2
    for team in teams:
        d = det.size_mm[(det.kind == "button") & (det.team == team), 0]
        assert abs(float(np.median(d)) - true_d) < 4.0, (team, d)
    ball, miss_ball, false_ball = _errors(still_frame, det, "ball")
    assert (miss_ball, false_ball) == (0, 0) and ball[0] < 0.5


@pytest.mark.parametrize(("style_seed", "render_seed"), [(5, 51), (8, 81)])
def test_white_buttons_seeded_by_their_rings(
    still_frame: FrameTruth, style_seed: int, render_seed: int
) -> None:
    """A white button whose pale rim the felt hides shows its printed ring and number only:
    an annulus whose distance transform seeds no fit. The disc the ring bounds seeds one
    (each of these renders lost a button before: 3 of 6 renders of this design, 1 now)."""
    style = RenderStyle.hard_pair(
        "white_on_light", noise_sigma=4.0, jpeg_quality=80, seed=style_seed
    )
    det = _still(still_frame, style, "tilted", seed=render_seed)
    err, miss, false = _errors(still_frame, det, "button")
    assert (miss, false) == (0, 0)
    assert np.median(err) < 0.5 and err.max() < 6.0


def test_holes_filled_are_a_buttons_size_at_most() -> None:
    px_mm2 = np.full((60, 80), 4.0)  # 2 mm a pixel
    fg = np.zeros((60, 80), bool)
    yy, xx = np.mgrid[:60, :80]
    ring = np.hypot(yy - 20, xx - 20)
    fg |= (ring >= 12) & (ring < 14)  # a ring 52 mm across: its disc filled
    big = np.hypot(yy - 30, xx - 58)
    fg |= (big >= 18) & (big < 20)  # a ring 72 mm across: no button's hole
    fg[45:50, 5:30] = True  # a bar: nothing to fill
    fg[40:52, 10] = fg[40:52, 24] = True  # a notch open below: not a hole
    out = _holes_filled(fg, px_mm2, math.pi * 33.0**2)
    assert out[20, 20] and out[20, 8] and not out[20, 6]
    assert not out[30, 58] and not out[52, 15]
    assert (out & ~fg).sum() == (ring < 12).sum()
    assert _holes_filled(np.zeros((5, 5), bool), px_mm2[:5, :5], 100.0).sum() == 0


def test_dark_team_on_dark_felt(still_frame: FrameTruth) -> None:
    """A black team (a white stripe) on a dark green felt under strong noise: all found.

    Where only hue tells the black rim from the felt (JPEG blurs it), a few black buttons are
    placed 2-4 mm off (one on the centre circle's line the worst), and the black goalkeeper
    3 mm: found, not yet precise."""
    style = RenderStyle(
        teams={"A": TEAM_DESIGNS["black"], "B": TEAM_DESIGNS["blue"]},
        field_bgr=FIELD_COLOURS["dark_green"],
        noise_sigma=5.0,
        jpeg_quality=75,
        seed=4,
    )
    det = _still(still_frame, style, "overhead", seed=41)
    err, miss, false = _errors(still_frame, det, "button")
    assert (miss, false) == (0, 0)
    assert np.median(err) < 0.6 and np.mean(err < 2.0) > 0.75 and err.max() < 5.0
    keepers, miss_k, false_k = _errors(still_frame, det, "goalkeeper")
    assert (miss_k, false_k) == (0, 0) and keepers.max() < 5.0  # the black one: 3.2 mm


def test_one_goalkeeper_fitted_twice_counts_once() -> None:
    """Two fits 10 mm apart along one 70 x 15 mm box are one goalkeeper; a button beside a
    goalkeeper stays a piece of its own."""
    a = Solid("goalkeeper", np.array([-991.5, 0.0, np.pi / 2]), 35.0, (70.0, 15.0), inliers=0.9)
    b = Solid("goalkeeper", np.array([-990.0, 10.0, np.pi / 2]), 35.0, (70.0, 15.0), inliers=0.8)
    c = Solid("button", np.array([-950.0, 0.0, 60.0]), 10.0, inliers=0.7)
    kept = distinct([b, c, a])
    assert kept == [a, c]


@pytest.mark.parametrize(
    ("keeper_xy", "kept"), [((-960.0, 0.0), "button"), ((-955.0, 131.0), "goalkeeper")]
)
def test_a_button_on_the_goal_line_is_not_traded_for_the_real_goalkeeper(
    monkeypatch: pytest.MonkeyPatch, keeper_xy: tuple[float, float], kept: str
) -> None:
    """A button on a goal line, between the goal area's ends, is asked whether it is the
    goalkeeper seen end on. One start of that question is the goal's centre, where the real
    goalkeeper stands: a fit there (better than the button's) is another piece, and the button
    stays (it was lost: replaced by a second goalkeeper that the duplicates' check dropped).
    A goalkeeper fitted where the button was is the same piece, and the better fit wins."""
    det = Detector(preset_camera("tilted", TABLE, (1280, 720)), TABLE)
    button = Solid("button", np.array([-955.0, 130.0, 44.0]), 12.0, inliers=0.8)
    keeper = Solid("goalkeeper", np.array([*keeper_xy, np.pi / 2]), 25.0, (80.0, 20.0))
    keeper.inliers = 0.95
    monkeypatch.setattr(det, "_keeper", lambda *a, **k: keeper)
    img = np.zeros((720, 1280, 3), np.uint8)
    got = det._keeper_or(img, img.astype(np.float32), button)
    assert got.kind == kept


@pytest.mark.parametrize(("preset", "seed"), [("overhead", 61), ("tilted", 62), ("wide", 63)])
def test_a_dark_ring_on_a_dark_felt_does_not_bloat_the_buttons(
    still_frame: FrameTruth, preset: str, seed: int
) -> None:
    """An orange team with a black ring and number on a dark green felt: the ring and number
    are a third of the top's samples and nearly the felt's colour, so the top's level (its
    20th percentile) was theirs, the blurred rim counted as covered and every orange button
    was fitted 65 mm across (60 mm true); two past 66 mm were lost (still 901 of the stills
    benchmark). The fits' level is not fixed (the base is not always most of the top: a white
    button's dark ring and number are more than half of it; the level wants the colour at the
    rim, which at 1.7 mm a pixel is one or two blurred pixels wide), but a team's size is
    capped at the largest legal button (60 mm in every rule text), and the buttons are fitted
    at it (vision/team_search.py)."""
    style = RenderStyle(
        teams={"A": TEAM_DESIGNS["orange"], "B": TEAM_DESIGNS["red"]},
        field_bgr=FIELD_COLOURS["dark_green"],
        noise_sigma=3.0,
        jpeg_quality=85,
        seed=seed,
    )
    det = _still(still_frame, style, preset, seed=seed)
    _, miss, false = _errors(still_frame, det, "button")
    assert (miss, false) == (0, 0)
    true_d = float(np.median(still_frame.pieces.size_mm[still_frame.pieces.kind == "button", 0]))
    for team in ("A", "B"):
        d = det.size_mm[(det.kind == "button") & (det.team == team), 0]
        assert len(d) and abs(float(np.median(d)) - true_d) < 2.5, (team, np.round(d, 1))
