"""A ball at rest against a button whose sliver's fit fails is fitted with the button in front.

The button's pixels, grown by their blurred edge, take all but a coarse pixel or two of a ball
resting against it at 0.5-0.6 px/mm; fitted from that sliver, the ball's fit sees a sixth of
itself and reads a colour no ball has, and the blob was turned down before the fit with the
button modelled in front of it (:func:`vision.ball_search.against_a_button`) was tried. So
brasileira seed 43's ten minutes (``python -m benchmarks.bench_analyze --seconds 600 --rules
brasileira --seed 43``) lost the ball from frame 598, when it came to rest 0.6 mm from B8,
until 660: B8's opponent A5 then struck it into B8 (002 Do acionamento 8: both touched it),
and its touch was read as a foul on B8 (000 REGRA 12 FALTA).

A sweep, as the table's first frame after the empty table was learned (no history: the blob
search alone): the ball 0.2-1 mm from a button at eight places around it, on random places of
the table, seeded; and the failure rows, a ball 2.5-3.5 mm off, found where it is, not drawn
against the button. The image is 1920 x 1080 (swapped axes show). Before, 3 of the 48 balls
touching a button were not found.
"""

from __future__ import annotations

import copy
import functools

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.detect import Detector

TABLE = load_table("brasileira")
CAM = preset_camera("tilted", TABLE, (1920, 1080))  # 0.57 px/mm at the table's centre
KEEPERS = [(-TABLE.half_length + 9.0, 0.0), (TABLE.half_length - 9.0, 0.0)]


def _pieces(ball_xy: np.ndarray | None, button_xy: np.ndarray | None) -> Pieces:
    """The two goalkeepers, and the ball and button B8 (60 mm) where given."""
    ids, team, kind = ["A1", "B1"], ["A", "B"], ["goalkeeper", "goalkeeper"]
    xy, size, height = list(KEEPERS), [(70.0, 15.0)] * 2, [35.0, 35.0]
    if ball_xy is not None and button_xy is not None:
        ids += ["ball", "B8"]
        team += ["", "B"]
        kind += ["ball", "button"]
        xy += [tuple(ball_xy), tuple(button_xy)]
        size += [(10.0, 10.0), (60.0, 60.0)]
        height += [10.0, 10.0]
    n = len(ids)
    return Pieces(
        np.array(ids),
        np.array(team),
        np.array(kind),
        np.array(xy, float),
        np.array(size, float),
        np.array([np.pi / 2, np.pi / 2] + [0.0] * (n - 2)),
        np.array(height, float),
    )


def _frame(k: int, pieces: Pieces) -> FrameTruth:
    n = len(pieces.ids)
    return FrameTruth(k, k / 30.0, pieces, np.zeros((n, 2)), np.zeros(n, bool))


@functools.cache
def _learned(seed: int) -> tuple[Renderer, Detector]:
    renderer = Renderer(TABLE, CAM, None, rng=seed)
    det = Detector(CAM, TABLE, "brasileira")
    det.learn_background([renderer.render(_frame(k, _pieces(None, None))) for k in range(8)])
    return renderer, det


def _errors(seed: int, gap_lo: float, gap_hi: float) -> list[tuple[int, float, float]]:
    """(angle in degrees, gap mm, footprint error mm; inf: not found) of a ball resting
    ``gap_lo``-``gap_hi`` mm from a button at eight places around it."""
    rng = np.random.default_rng(seed)
    renderer, det = _learned(seed)
    centre = np.array([rng.uniform(-800.0, 800.0), rng.uniform(-450.0, 450.0)])
    out = []
    for deg in range(0, 360, 45):
        gap = float(rng.uniform(gap_lo, gap_hi))
        a = np.radians(deg)
        ball = centre + (35.0 + gap) * np.array([np.cos(a), np.sin(a)])
        found = copy.deepcopy(det).detect(renderer.render(_frame(100, _pieces(ball, centre))))
        i = np.flatnonzero(found.kind == "ball")
        err = float(np.hypot(*(found.xy_mm[i[0]] - ball))) if len(i) == 1 else np.inf
        out.append((deg, round(gap, 2), err))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_a_ball_resting_against_a_button_is_found(seed: int) -> None:
    got = _errors(seed, 0.2, 1.0)
    assert all(e <= 1.5 for _, _, e in got), got


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
def test_a_ball_resting_3_mm_off_a_button_is_found_where_it_is(seed: int) -> None:
    got = _errors(seed, 2.5, 3.5)
    assert all(e <= 0.6 for _, _, e in got), got
