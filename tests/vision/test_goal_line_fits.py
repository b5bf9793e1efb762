"""The ball's fit on a goal line where a first fit goes wrong (issues 5 and 7).

Two cases of the goal-line protocol's rigs (``python -m benchmarks.bench_goalline``; here with
their true cameras, the table learned as they do):

- **A box drawn over the ball** (rig 300, an orange ball on a pale felt, 0.4 px a mm, the
  protocol's keeper place): the goalkeeper's fit takes the ball's pixels for its own and stands
  2-3 mm and 5 degrees toward it, its silhouette covering all but a pixel of the ball, so a fresh
  fit of the ball there (:meth:`Detector.refit_ball`, the goal-line call's) found nothing and the
  call had no frames. The refit now fits the boxes beside the place afresh without a ball's
  silhouette there first, then the ball.
- **A still ball fitted as a streak** (rig 302, a white ball on a dark felt, 0.57 px a mm, on the
  right goal line's centre): its blob, drawn out by the goal's frame behind it, was fitted as a
  13-pixel motion streak 5 mm into the goal, explaining 0.42 of its pixels, and the call said GOAL
  for a ball 1 mm short. A short streak that explains under 0.7 is now also fitted as a still
  ball from where the blob's matched filter peaks, and the fit that explains more is kept.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from benchmarks.bench_goalline import keeper_hiding
from geometry.pieces import Pieces
from simulator.render import Renderer
from simulator.state import FrameTruth
from tests.vision.protocol_rig import TABLE, learned_rig
from vision.detect import Detector

HL = TABLE.half_length
R_MM = 5.0


@functools.cache
def _rig(seed: int) -> tuple[Renderer, Detector]:
    return learned_rig(seed)


def _image(r: Renderer, ball_xy: np.ndarray, keeper: tuple[float, float, float] | None):
    xy = [tuple(ball_xy), (-400.0, 200.0), (300.0, -250.0)]
    kinds, teams = ["ball", "button", "button"], ["", "A", "B"]
    sizes, angles, heights = [[10, 10], [50, 50], [50, 50]], [0.0, 0.0, 0.0], [10, 8, 8]
    if keeper is not None:
        xy.append(keeper[:2])
        kinds.append("goalkeeper")
        teams.append("A")
        sizes.append([70, 15])
        angles.append(keeper[2])
        heights.append(35)
    p = Pieces(
        np.array(["ball", "A2", "B2", "A1"][: len(xy)]),
        np.array(teams),
        np.array(kinds),
        np.array(xy, float),
        np.array(sizes, float),
        np.array(angles),
        np.array(heights, float),
    )
    return r.render(FrameTruth(0, 0.0, p, np.zeros((len(p), 2)), np.zeros(len(p), bool)))


@pytest.mark.parametrize("margin", [-1.0, -0.6, 0.6])
def test_a_ball_behind_a_box_drawn_over_it_is_refitted(margin: float) -> None:
    r, det = _rig(300)
    ball = np.array([-(HL + R_MM + margin), 20.0])
    keeper = keeper_hiding(r.camera, ball, 0.35, min_cover=0.05)
    assert keeper is not None
    det.detect(_image(r, ball, keeper), 0, 0.0)
    fit = det.refit_ball(ball + np.array([2.0, 1.0]))  # near the place, as a call's last find is
    assert fit is not None, "no ball behind the box"
    # its error across the goal line within the protocol's zone, and within its sigma's reach
    assert abs(fit.xy_mm[0] - ball[0]) < 0.5, fit.xy_mm - ball
    assert abs(fit.xy_mm[1] - ball[1]) < 1.5, fit.xy_mm - ball


def test_beside_a_box_an_empty_place_gives_no_ball() -> None:
    """The failure row: beside the box with no ball there, the boxes-first refit gives no ball
    the goal-line track would keep (within 3 mm of the place, explaining half its pixels:
    ``monitor.cmd_goalline``); a fit on the felt's leftovers 9 mm off, explaining a third, it
    gave before and gives now."""
    r, det = _rig(300)
    ball = np.array([-(HL + R_MM - 1.0), 20.0])
    keeper = keeper_hiding(r.camera, ball, 0.35, min_cover=0.05)
    det.detect(_image(r, np.array([200.0, -300.0]), keeper), 0, 0.0)
    for d in ((0.0, 0.0), (2.0, 1.0), (-2.0, -1.0)):
        fit = det.refit_ball(ball + d)
        assert fit is None or fit.explained < 0.5 or np.hypot(*(fit.xy_mm - ball - d)) > 3.0


@pytest.mark.parametrize("margin", [-1.0, -0.6, 0.6])
def test_a_still_ball_drawn_out_by_the_goal_frame_is_not_a_streak(margin: float) -> None:
    r, det = _rig(302)
    ball = np.array([HL + R_MM + margin, 0.0])
    found = det.detect(_image(r, ball, None), 0, 0.0)
    xy = found.xy_mm[found.kind == "ball"]
    assert len(xy) == 1
    assert np.hypot(*(xy[0] - ball)) < 0.5, xy[0] - ball


@pytest.mark.parametrize("margin", [-1.0, -0.8, -0.6])
def test_a_ball_behind_a_box_is_found_on_every_frame_of_a_video(margin: float) -> None:
    """The keeper place in a video: the ball half behind the box on the goal line, three frames.
    The search's sliver beside the box scored under its threshold (its colour, read from a fifth
    of the ball, off) and was fitted again as the goal-line call does; on the frames after, the
    ball the search misses is fitted again where it rested (:func:`ball_behind_a_box`). Before,
    found on none of the frames; a fresh detector each case (the table learned anew)."""
    r, det = learned_rig(300)
    ball = np.array([-(HL + R_MM + margin), 20.0])
    keeper = keeper_hiding(r.camera, ball, 0.35, min_cover=0.05)
    img = _image(r, ball, keeper)
    for k in range(3):
        found = det.detect(img, k, k / 30.0)
        xy = found.xy_mm[found.kind == "ball"]
        assert len(xy) == 1, k
        assert abs(xy[0, 0] - ball[0]) < 0.6 and abs(xy[0, 1] - ball[1]) < 1.5, (k, xy[0] - ball)


def _behind(det: Detector):
    solids, hands = det._last_found  # type: ignore[misc]
    assert det._last_image is not None
    return det._ball_behind_a_box(det._last_image, det._bg_full(), solids, hands)


def test_the_ball_where_it_rested_behind_a_box_is_fitted_there_again() -> None:
    """:func:`vision.ball_stay.ball_behind_a_box`, what the detector runs when its search finds
    no ball (or one beyond the ball's reach) a few frames after it found one at rest beside a
    goalkeeper; with the failure rows: the ball gone, the last find too old, no box near."""
    r, det = learned_rig(300)
    ball = np.array([-(HL + R_MM - 0.8), 20.0])
    keeper = keeper_hiding(r.camera, ball, 0.35, min_cover=0.05)
    img = _image(r, ball, keeper)
    det.detect(img, 0, 0.0)
    assert det._ball_prior is not None  # found at rest behind the box
    fit = _behind(det)
    assert fit is not None and abs(fit.xy_mm[0] - ball[0]) < 0.6, fit
    prior = det._ball_prior
    det.detect(_image(r, np.array([300.0, 200.0]), keeper), 1, 1 / 30.0)  # the ball rolled away
    det._ball_prior = prior
    assert _behind(det) is None
    det.detect(img, 2, 2 / 30.0)
    det._ball_prior = (prior[0], det._frames - 5)  # found five frames ago
    assert _behind(det) is None
    det.detect(_image(r, ball, None), 3, 3 / 30.0)  # no goalkeeper beside it
    det._ball_prior = (prior[0], det._frames - 1)
    assert _behind(det) is None
