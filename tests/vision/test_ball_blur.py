"""A ball blurred by its motion and fitted as a still ball (issue 5, "Positions" and
"Speed"): its colour, mixed with the felt's about its rim, scores it low, and the search went on
through every leftover of the table. It is fitted again drawn out the way it goes
(:func:`vision.ball_search.blur_seed`): found on the frames after a hit from rest, with fewer
fits.

A seeded match rendered through a non-square camera; the ball rests until frame 225, when a
button sends it off at about 1 m/s.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.match import Match
from tests.vision.ball_runs import balls_and_fits
from vision.ball_search import along, blur_seed, lost_seed

TABLE = load_table("brasileira")
CAM = preset_camera("tilted", TABLE, (1280, 720))


def _ball(x_mm: float, streak_px: tuple[float, float] = (0.0, 0.0)) -> SimpleNamespace:
    return SimpleNamespace(xy_mm=np.array([x_mm, 40.0]), streak_px=np.array(streak_px))


def _px(x0_mm: float, x1_mm: float) -> np.ndarray:
    """The image step (px) from x0 to x1 on the row y = 40 mm at the ball's centre height."""
    a, b = CAM.table_to_image(np.array([[x0_mm, 40.0, 5.0], [x1_mm, 40.0, 5.0]]))
    return np.asarray(b - a, np.float64)


def _way(step_px: np.ndarray, length_px: float) -> np.ndarray:
    return step_px / np.hypot(*step_px) * length_px


def _detector(frames: int, prior: object, before: object) -> SimpleNamespace:
    """What the seeds read of a detector: its camera, the ball's size, its last two finds."""
    return SimpleNamespace(
        learned=True,
        camera=CAM,
        sizes=SimpleNamespace(ball_diameter=10.0),
        _frames=frames,
        _ball_prior=prior,
        _ball_before=before,
    )


def _assert_seed(got: np.ndarray | None, expected: np.ndarray | None) -> None:
    if expected is None:
        assert got is None
    else:
        assert got is not None
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize(
    ("frames", "last", "before", "fit_x", "expected"),
    [
        # rolling on (15 mm a frame), its last fit drawn out: that streak again
        (10, (115.0, (6.0, 1.0), 9), (100.0, 8), 130.5, np.array([6.0, 1.0])),
        # rolling on, its last fit still (a blob too short to seed a streak): 2 px its way
        (10, (115.0, (0.0, 0.0), 9), (100.0, 8), 130.5, _way(_px(130.5, 145.5), 2.0)),
        # at rest on the last frame, 3 mm on now: struck during the exposure, twice the offset
        (10, (100.0, (0.0, 0.0), 9), (100.0, 8), 103.0, 2.0 * _px(103.0, 106.0)),
        (10, (100.0, (0.0, 0.0), 9), (100.0, 8), 100.6, None),  # where it rested: still
        (10, (100.0, (0.0, 0.0), 9), (100.0, 8), 160.0, None),  # far off: another blob
        (10, (100.0, (0.0, 0.0), 8), (100.0, 7), 103.0, None),  # the last frame lost it
        (10, (115.0, (6.0, 1.0), 7), (100.0, 6), 130.5, None),  # lost three frames ago
        (10, None, None, 103.0, None),  # never found
    ],
)
def test_the_way_a_ball_blurs(
    frames: int,
    last: tuple[float, tuple[float, float], int] | None,
    before: tuple[float, int] | None,
    fit_x: float,
    expected: np.ndarray | None,
) -> None:
    prior = None if last is None else (_ball(last[0], last[1]), last[2])
    det = _detector(frames, prior, None if before is None else (_ball(before[0]), before[1]))
    _assert_seed(blur_seed(det, _ball(fit_x), 5.0), expected)  # type: ignore[arg-type]


def test_a_still_detector_has_no_blur_to_seed() -> None:
    det = SimpleNamespace(learned=False, _frames=10, _ball_prior=(_ball(100.0), 9))
    assert blur_seed(det, _ball(103.0), 5.0) is None  # type: ignore[arg-type]


def test_a_ball_struck_from_rest_is_found_blurred(monkeypatch: pytest.MonkeyPatch) -> None:
    truth = list(Match(TABLE, "brasileira", seed=4, fps=30).frames(7.8))[218:232]
    true_xy = np.array([f.pieces.xy_mm[f.pieces.kind == "ball"][0] for f in truth])
    assert np.hypot(*(true_xy[9] - true_xy[7])) > 40.0  # it rolls fast from frame 225 on
    still, still_fits = balls_and_fits(
        monkeypatch, range(218, 232), {"_BLUR_EXPLAINED": 2.0, "_LOST_EXPLAINED": 2.0}
    )
    blurred, blurred_fits = balls_and_fits(monkeypatch, range(218, 232), {})
    err = np.hypot(*(blurred - true_xy).T)
    # frames 226 and 227 (the two after the hit) were lost fitted still, and are found now
    assert np.isnan(still[8:10]).all()
    assert (err[8:10] < 0.5).all()
    # nothing found before is lost, nor moved off the ball
    found = np.isfinite(still[:, 0])
    assert np.isfinite(blurred[found, 0]).all()
    assert err[np.isfinite(err)].max() < 1.0
    assert blurred_fits < 0.75 * still_fits  # and the search ends sooner


@pytest.mark.parametrize(
    ("frames", "last", "fit_x", "expected_dir"),
    [
        # found at rest 3 frames ago, 60 mm on now: struck, the way it went
        (10, (100.0, 7), 40.0, -1.0),
        (10, (100.0, 9), 130.0, 1.0),  # the last frame, 30 mm on (over a ball's width)
        (10, (100.0, 4), 400.0, 1.0),  # six frames, 300 mm: 1.5 m/s
        (10, (100.0, 9), 104.0, None),  # within a ball's width: blur_seed's case, not this
        (10, (100.0, 7), -700.0, None),  # 800 mm in three frames: over the top speed
        (10, (100.0, 3), 160.0, None),  # lost seven frames ago: too long
        (10, None, 160.0, None),  # never found
    ],
)
def test_the_way_a_lost_ball_went(
    frames: int, last: tuple[float, int] | None, fit_x: float, expected_dir: float | None
) -> None:
    det = _detector(frames, None if last is None else (_ball(last[0]), last[1]), None)
    want = None if expected_dir is None else _way(_px(fit_x, fit_x + expected_dir), 2.0)
    _assert_seed(lost_seed(det, _ball(fit_x), 5.0), want)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("streak", "seed", "expected"),
    [
        ((6.0, 1.0), (-2.0, 0.0), True),  # along it, either way
        ((4.0, 1.5), (2.0, 0.0), True),  # 20.6 degrees
        ((4.0, 2.0), (2.0, 0.0), False),  # 26.6 degrees
        ((1.0, 6.0), (2.0, 0.0), False),  # across
        ((0.0, 0.0), (2.0, 0.0), False),  # no streak
    ],
)
def test_a_streak_along_the_way(
    streak: tuple[float, float], seed: tuple[float, float], expected: bool
) -> None:
    assert along(np.array(streak), np.array(seed)) is expected


@pytest.mark.parametrize(("seed", "hit"), [(2, 301), (3, 292), (4, 321)])
def test_a_ball_struck_hard_is_found_on_its_way(
    monkeypatch: pytest.MonkeyPatch, seed: int, hit: int
) -> None:
    # struck at 2-2.5 m/s: its blob too small to seed a streak, fitted still it scores under
    # a ball, and it was lost (or another blob was taken for it, 89-550 mm off) on the frames
    # after the hit; fitted drawn out from where it rested it is found where it is
    frames = range(hit - 3, hit + 9)
    truth = list(Match(TABLE, "brasileira", seed=seed, fps=30).frames(frames.stop / 30 + 0.1))
    true_xy = np.array([truth[k].pieces.xy_mm[truth[k].pieces.kind == "ball"][0] for k in frames])
    off, off_fits = balls_and_fits(monkeypatch, frames, {"_LOST_EXPLAINED": 2.0}, seed=seed)
    on, on_fits = balls_and_fits(monkeypatch, frames, {}, seed=seed)
    err_off, err_on = np.hypot(*(off - true_xy).T), np.hypot(*(on - true_xy).T)
    after = slice(3, None)  # the hit's frame and those after it
    assert not (err_off[after] < 1.0).all()  # lost or wrong without it
    assert (err_on[np.isfinite(err_on)] < 0.5).all()  # nothing wrong with it
    assert np.isfinite(err_on[after]).sum() > (err_off[after] < 1.0).sum()  # found more often
    assert np.isfinite(err_on[4:]).all()  # on every frame after the hit's
    assert on_fits < off_fits
