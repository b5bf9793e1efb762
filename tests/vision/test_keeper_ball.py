"""A ball on the goal line partly hidden by a goalkeeper beside it (issues 5 and 7).

The goal-line protocol's "keeper" place (``python -m benchmarks.bench_goalline``): the ball on
a goal line, a goalkeeper 0.5 mm from it, long side facing it, placed around it where it hides
about a third of the ball's silhouette; only where the box is in front of the ball from the
camera (the solids decide, as the renderer's painter's order), so that it hides part of the
ball and its shadow falls across the rest. Such a box often stands in its goal, its centre
past the line, and must still be found. The ball is fitted on what the box's silhouette
leaves of it (the box was left out grown by its blurred edge); on rig 300 (an orange ball on a
pale felt) such fits stopped 0.6-2.5 mm off, away from the box, with a sigma of 0.12-0.18 mm
(a ball 1 mm short was called GOAL +1.5 mm). Its reported sigma must cover the error: a call
then says TOO_CLOSE, never a confident wrong decision.

The protocol's rigs (their true cameras), the table learned from a match's first 15 s.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator

import numpy as np
import pytest
from numpy.typing import NDArray

from benchmarks.bench_goalline import keeper_hiding
from calibration.camera import Camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.render import Renderer
from simulator.state import FrameTruth
from tests.vision.protocol_rig import learned_rig
from vision.ball import BallFit
from vision.detect import Detector, ball_sigma_axes_mm, ball_sigma_mm
from vision.detections import Detections

TABLE = load_table("brasileira")
HL = TABLE.half_length
R_MM = 5.0
Keeper = tuple[float, float, float]


def _scene(ball_xy: tuple[float, float], keeper: Keeper) -> Pieces:
    """The ball, the defending goalkeeper beside it, the other one in its goal, four buttons."""
    other = (HL - 8.5, 150.0) if ball_xy[0] < 0 else (-HL + 8.5, -150.0)
    xy = [ball_xy, keeper[:2], other]
    xy += [(-400.0, 200.0), (-250.0, -300.0), (300.0, 250.0), (150.0, -200.0)]
    return Pieces(
        np.array(["ball", "A1", "B1", "A2", "A3", "B2", "B3"]),
        np.array(["", "A", "B", "A", "A", "B", "B"]),
        np.array(["ball", "goalkeeper", "goalkeeper"] + ["button"] * 4),
        np.array(xy, float),
        np.array([[10, 10], [70, 15], [70, 15]] + [[50, 50]] * 4, float),
        np.array([0.0, keeper[2], np.pi / 2] + [0.0] * 4),
        np.array([10, 35, 35] + [8] * 4, float),
    )


def _rig(seed: int) -> tuple[Renderer, Detector]:
    """The protocol's rig: its camera (the true one), style, and the table learned as it does."""
    return learned_rig(seed)


_CASES = ((-1.0, 20.0), (-0.7, -30.0), (0.7, 45.0), (1.0, 0.0))


def _hiding(cam: Camera, ball_xy: NDArray[np.float64]) -> Keeper | None:
    """The protocol's keeper place (:func:`benchmarks.bench_goalline.keeper_hiding`): in front
    of the ball from the camera, hiding about a third of it (more than 5%); None where none."""
    return keeper_hiding(cam, ball_xy, 0.35, min_cover=0.05)


def keeper_places(
    r: Renderer, det: Detector, cases: tuple[tuple[float, float], ...]
) -> Iterator[tuple[float, float, float, float, Keeper, NDArray[np.uint8], Detections]]:
    """The protocol's keeper place for each case ``(margin mm, y mm)`` on either goal line
    where a goalkeeper can hide about a third of the ball: ``(side, margin, x, y, keeper,
    image, detections)``."""
    for s in (1.0, -1.0):
        for margin, dy in cases:
            x = s * (HL + R_MM + margin)
            keeper = _hiding(r.camera, np.array([x, dy]))
            if keeper is None:
                continue
            p = _scene((x, dy), keeper)
            img = r.render(FrameTruth(0, 0.0, p, np.zeros((len(p), 2)), np.zeros(len(p), bool)))
            yield s, margin, x, dy, keeper, img, det.detect(img)


def box_and_ball(
    found: Detections, keeper: Keeper, x: float, dy: float, s: float
) -> tuple[float, float, float]:
    """The goalkeeper's fitted distance from the truth (mm, inf when missed), the ball's error
    along the line's normal (mm, + into the goal) and its sigma; NaN when no ball is reported
    within 20 mm (no call: a painted mark elsewhere is not this ball)."""
    gk = found.xy_mm[found.kind == "goalkeeper"]
    off = float(np.hypot(*(gk - keeper[:2]).T).min()) if len(gk) else math.inf
    ball = np.flatnonzero(found.kind == "ball")
    ball = ball[np.hypot(*(found.xy_mm[ball] - (x, dy)).T) < 20.0]
    if not len(ball):
        return off, math.nan, math.nan
    return off, float(found.xy_mm[ball[0], 0] - x) * s, float(found.sigma_mm[ball[0]])


@functools.cache
def _calls(seed: int) -> list[tuple[float, float, float, float]]:
    """For each case (the ball on either goal line, a goalkeeper hiding a third of it): the
    goalkeeper's fitted distance to the truth, the ball's error and sigma
    (:func:`box_and_ball`), and the ball's true margin."""
    r, det = _rig(seed)
    return [
        (*box_and_ball(found, keeper, x, dy, s), margin)
        for s, margin, x, dy, keeper, _, found in keeper_places(r, det, _CASES)
    ]


@pytest.mark.parametrize("seed", [302, 303])
def test_goalkeepers_stepping_into_their_goal_beside_the_ball_are_found(seed: int) -> None:
    """Placed where it hides a third of the ball, a goalkeeper often stands in its goal, its
    centre past the line: its fit was taken for a box inside the net and dropped (then fitted
    on the line, 14 mm off, or missed: 3 and 4 of 8 found). A box with a corner on the field is
    a goalkeeper; found within 2 mm in three quarters of the cases (issue 5 asks for all)."""
    found = [c[0] < 2.0 for c in _calls(seed)]
    assert len(found) >= 6
    assert sum(found) >= 0.75 * len(found), _calls(seed)


@pytest.mark.parametrize("seed", [300, 302])
def test_a_ball_hidden_in_part_by_a_goalkeeper_is_never_sure_and_wrong(seed: int) -> None:
    """Where the goalkeeper is fitted within a millimetre, the ball beside it is reported
    (found in its shadow, what the box's silhouette hides left out of its model) and its sigma
    covers its error: 0.6-1.0 mm off at a sigma of 0.12-0.15 mm before.

    On rig 302 (a white ball 5-6 px across, half behind the box, on the white goal line) the
    box, grown by its blurred edge, took the ball's whole sliver: found in none of the 8 cases
    (the right penalty mark reported instead); with the box's silhouette modelled, in 3 of
    them, within 0.21 mm."""
    calls = [c for c in _calls(seed) if c[0] < 1.0 and not math.isnan(c[1])]
    assert calls
    for off, err, sigma, margin in calls:
        assert abs(err) <= 2.0 * sigma, (margin, off, err, sigma)


def test_the_sigma_of_a_ball_beside_a_box_covers_its_error_and_no_more() -> None:
    """Over the seeded cases of three rigs (the ball reported near the truth, the goalkeeper
    found or not), the ball's error along the line's normal is within twice its sigma in 95%
    of them; and the sigma says what the fits know: before, a blanket 5 mm x the hidden share
    (2 mm at the median, 10-20 x the errors) made every call beside a goalkeeper TOO_CLOSE."""
    calls = [c for seed in (300, 302, 303) for c in _calls(seed) if not math.isnan(c[1])]
    assert len(calls) >= 10
    err = np.abs([c[1] for c in calls])
    sigma = np.array([c[2] for c in calls])
    assert np.mean(err <= 2.0 * sigma) >= 0.95, calls
    assert np.median(sigma) < 1.0, calls


@pytest.mark.parametrize("seed", [370, 380])
def test_the_sigma_across_the_goal_line_is_the_box_gaps_share_along_it(seed: int) -> None:
    """The ball's fit beside a box is off along the line from the ball to the box (the box's
    pose is off across its side): rig 380's box beside the ball along the goal line left fits
    0.6-0.9 mm off along y and under 0.3 mm along x, 1.1-1.4 mm from the box. The sigma along x
    (the goal line's normal: :func:`vision.detect.ball_sigma_axes_mm`) takes the gap's share
    along it: it still covers the error along x at 2 sigma, and is smaller than the whole
    sigma, which made the goal-line protocol's keeper place TOO_CLOSE at 0.6-0.9 mm (rig 380:
    15 of 20 such calls)."""
    r, det = _rig(seed)
    rows = []
    for s, _, x, dy, _, _, found in keeper_places(r, det, _CASES):
        ball = np.flatnonzero(found.kind == "ball")
        ball = ball[np.hypot(*(found.xy_mm[ball] - (x, dy)).T) < 20.0]
        fit = det.refit_ball(found.xy_mm[ball[0]]) if len(ball) else None
        if fit is None or not math.isfinite(fit.box_gap_mm):
            continue
        err_x = float(fit.xy_mm[0] - x) * s
        rows.append((err_x, float(ball_sigma_axes_mm(fit)[0]), ball_sigma_mm(fit)))
    assert len(rows) >= 6, rows
    err, sigma_x, whole = np.array(rows).T
    assert np.all(np.abs(err) <= 2.0 * sigma_x), rows
    assert np.all(sigma_x <= whole + 1e-12), rows
    assert np.median(sigma_x / whole) < 0.8, rows


def _fit(visible: float, box_gap_mm: float, sigma_mm: float) -> BallFit:
    return BallFit(
        xy_mm=np.zeros(2),
        uv_px=np.zeros(2),
        sigma_mm=sigma_mm,
        streak_px=np.zeros(2),
        colour_bgr=np.zeros(3),
        explained=0.95,
        visible=visible,
        rms=5.0,
        box_gap_mm=box_gap_mm,
    )


@pytest.mark.parametrize(
    ("visible", "box_gap_mm", "fit_sigma_mm", "error_mm", "at_most_mm"),
    [
        (1.0, math.nan, 0.03, 0.0, 0.15),  # a free ball: its fit's figure and the model's floor
        (0.75, 0.62, 0.030, 0.114, 0.5),  # rig 300, the box's fit agrees: was 1.23 mm
        (0.43, -0.82, 0.197, 0.990, 1.0),  # rig 304: ball and box overlap, one fit is off
        (0.33, 2.37, 0.073, 0.931, 1.5),  # rig 303: the box 1.6 mm off
        (0.77, 6.26, 0.056, 2.016, 3.5),  # rig 300: the box 3.9 mm off, the ball 1 mm short
    ],
)
def test_a_box_fitted_away_from_the_ball_widens_its_sigma(
    visible: float, box_gap_mm: float, fit_sigma_mm: float, error_mm: float, at_most_mm: float
) -> None:
    """Fits measured beside a goalkeeper (true camera, the fit's ``visible`` share, its
    distance from the box and its own sigma; the error along the line's normal): the sigma
    (:func:`vision.detect.ball_sigma_mm`) covers the error at 2 sigma, and a box fitted off
    (the last row: then fitted 2 mm into the goal at a sigma of 1.17, where half the gap
    gives 3.1) widens it, while a box that agrees leaves it at a few tenths."""
    sigma = ball_sigma_mm(_fit(visible, box_gap_mm, fit_sigma_mm))
    assert error_mm <= 2.0 * sigma and sigma <= at_most_mm
