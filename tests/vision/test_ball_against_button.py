"""A ball at rest against a button is found where it is, not a millimetre or two short of it.

Brasileira's ten minutes through the camera (``python -m benchmarks.bench_analyze --seconds
600 --rules brasileira --seed 31``): of 165 frames with the ball at rest against a button,
the ball's fit stood 2.0 mm away from the button at the median, 4.0 mm at the 95th
percentile (0.1 mm at gaps of 1-5 mm), and a ball that rolled into a button and stopped
there was seen short of it: four touches were lost. The button's pixels, grown by their
blurred edge, took most of the ball (70% of a 5-pixel ball at 1.9 mm a pixel); the fit is
now made with the button modelled in front of it (:func:`vision.ball_search.against_a_button`).

The states (``data/ball_into_button.json``) are the simulator's, frames 4926-4946 of that
match: the ball rolls into A8 at rest and stops against it. Rendered with the benchmark's
camera and style, the table learned from the match's first ten seconds, as ``botao analyze``
learns it (the image 1920 x 1080: swapped axes show).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from calibration.camera import preset_camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.detect import Detector

TABLE = load_table("brasileira")
DATA = Path(__file__).parent / "data" / "ball_into_button.json"
REST = 4941  # the ball stops against A8 here


def _frames(away_mm: float = 0.0) -> list[FrameTruth]:
    """The clip's states; ``away_mm`` moves the ball that far from A8, along their line."""
    d = json.loads(DATA.read_text("utf-8"))
    ids = list(d["ids"])
    b, a8 = ids.index("ball"), ids.index("A8")
    n = len(ids)
    out = []
    for f in d["frames"]:
        xy = np.array(f["xy_mm"], float)
        u = xy[b] - xy[a8]
        xy[b] += away_mm * u / np.hypot(*u)
        pieces = Pieces(
            np.array(ids),
            np.array(d["team"]),
            np.array(d["kind"]),
            xy,
            np.array(d["size_mm"], float),
            np.array(f["angle_rad"], float),
            np.array(d["height_mm"], float),
        )
        k = int(f["frame"])
        out.append(FrameTruth(k, k / 30.0, pieces, np.zeros((n, 2)), np.zeros(n, bool)))
    return out


@functools.cache
def _errors(away_mm: float) -> dict[int, tuple[float, float]]:
    """Frame -> (the ball's footprint error mm, its sigma_mm); inf where it was not found."""
    cam = preset_camera("tilted", TABLE, (1920, 1080))
    renderer = Renderer(TABLE, cam, None, rng=31)
    match = Match(TABLE, "brasileira", seed=31, fps=30.0)
    det = Detector(cam, TABLE, "brasileira")
    det.learn_background([renderer.render(f) for f in match.frames(10.0) if f.frame % 20 == 0])
    out: dict[int, tuple[float, float]] = {}
    for f in _frames(away_mm):
        found = det.detect(renderer.render(f), f.frame, f.t)
        i = np.flatnonzero(found.kind == "ball")
        truth: NDArray[np.float64] = f.pieces.xy_mm[f.pieces.kind == "ball"][0]
        out[f.frame] = (
            (float(np.hypot(*(found.xy_mm[i[0]] - truth))), float(found.sigma_mm[i[0]]))
            if len(i) == 1
            else (np.inf, np.nan)
        )
    return out


@pytest.mark.slow
def test_a_ball_stopped_against_a_button_is_found_against_it() -> None:
    got = _errors(0.0)
    rest = np.array([e for k, (e, _) in got.items() if k >= REST])
    rolling_in = np.array([e for k, (e, _) in got.items() if REST - 4 <= k < REST])
    assert rest.max() <= 0.6, np.round(rest, 2).tolist()
    assert rolling_in.max() <= 0.6, np.round(rolling_in, 2).tolist()
    # and the sigma says how far off it may be
    assert all(e <= 3.0 * s for k, (e, s) in got.items() if k >= REST - 4), got


@pytest.mark.slow
def test_a_ball_resting_near_a_button_is_not_drawn_to_it() -> None:
    """The failure row: the same ball stopped 3 mm short of the button stays there."""
    got = _errors(3.0)
    rest = np.array([e for k, (e, _) in got.items() if k >= REST])
    assert rest.max() <= 0.6, np.round(rest, 2).tolist()
