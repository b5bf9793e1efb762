"""The ball's second search, for its sliver beside a goalkeeper's box in front of it (issue 5,
"Speed"): a blob away from every box that the first search fitted, on the same pixels, is not
fitted again (:func:`vision.ball_search.second_search_blobs`); one the first skipped is. The
same balls are found, with fewer fits.

A seeded match rendered through a non-square camera; the ball is lost under a coach's finger on
frames 158-160 (both searches run) and rolls on after it.
"""

from __future__ import annotations

import numpy as np
import pytest

import vision.ball_search as ball_search
from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from vision.ball_search import blob_key, near_a_box, second_search_blobs
from vision.detect import Detector

TABLE = load_table("brasileira")
BOX = np.array([[100.0, 100.0], [160.0, 100.0], [160.0, 120.0], [100.0, 120.0]])  # px


@pytest.mark.parametrize(
    ("blob", "hulls", "reach_px", "near"),
    [
        ([[170.0, 110.0], [171.0, 111.0]], [BOX], 12.0, True),  # beside its right end
        ([[130.0, 95.0]], [BOX], 12.0, True),  # above its long side
        ([[130.0, 110.0]], [BOX], 0.0, True),  # on it
        ([[190.0, 110.0]], [BOX], 12.0, False),  # 30 px off its end
        ([[130.0, 60.0], [131.0, 61.0]], [BOX], 12.0, False),  # 39 px above it
        ([[190.0, 110.0]], [BOX, BOX + np.array([60.0, 0.0])], 12.0, True),  # on a second box
        ([[170.0, 110.0]], [], 12.0, False),  # no box at all
        ([[170.0, 110.0]], [np.zeros((0, 2))], 12.0, False),  # a box with no silhouette
    ],
)
def test_near_a_box(
    blob: list[list[float]], hulls: list[np.ndarray], reach_px: float, near: bool
) -> None:
    assert near_a_box(np.array(blob), hulls, reach_px) is near


def _blob(u: float, v: float, n: int = 3) -> tuple[np.ndarray, float, np.ndarray]:
    uv = np.array([[u + 4.0 * k, v] for k in range(n)])
    return uv * 0.9, 40.0 * n, uv  # (table points, area, pixels): only the pixels matter here


@pytest.mark.parametrize(
    ("blob", "fitted_first", "kept"),
    [
        (_blob(170.0, 110.0), [_blob(170.0, 110.0)], True),  # beside the box: the sliver's
        (_blob(170.0, 110.0), [], True),
        (_blob(400.0, 300.0), [_blob(400.0, 300.0)], False),  # far, fitted first: in vain again
        (_blob(400.0, 300.0), [_blob(500.0, 300.0)], True),  # far, skipped by the first search
        (_blob(400.0, 300.0, 4), [_blob(400.0, 300.0)], True),  # another blob where one began
    ],
)
def test_the_blobs_of_the_second_search(
    blob: tuple[np.ndarray, float, np.ndarray],
    fitted_first: list[tuple[np.ndarray, float, np.ndarray]],
    kept: bool,
) -> None:
    tried = {blob_key(b[2]) for b in fitted_first}
    assert len(second_search_blobs([blob], tried, [BOX], 12.0)) == int(kept)


def _run(monkeypatch: pytest.MonkeyPatch, reach: float) -> tuple[np.ndarray, int]:
    """The balls found on frames 150-174 (nan where none) and the fits tried, the second
    search fitting blobs within ``reach`` balls of a box."""
    frames = list(Match(TABLE, "brasileira", seed=4, fps=30).frames(5.9))
    cam = preset_camera("tilted", TABLE, (1280, 720))
    r = Renderer(TABLE, cam, RenderStyle(jpeg_quality=90), rng=4)
    det = Detector(cam, TABLE)
    det.learn_background([r.render(f) for f in frames[:60:4]])
    fits = [0]
    real = ball_search.fit_ball

    def counted(*args: object, **kwargs: object) -> object:
        fits[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ball_search, "fit_ball", counted)
    monkeypatch.setattr(ball_search, "_BOX_REACH", reach)
    balls = np.full((25, 2), np.nan)
    for i, k in enumerate(range(150, 175)):
        found = det.detect(r.render(frames[k]), k, k / 30)
        b = np.flatnonzero(found.kind == "ball")
        if len(b):
            balls[i] = found.xy_mm[b[0]]
    monkeypatch.undo()
    return balls, fits[0]


def test_the_second_search_fits_only_beside_a_box(monkeypatch: pytest.MonkeyPatch) -> None:
    everywhere, everywhere_fits = _run(monkeypatch, 1e9)
    beside, beside_fits = _run(monkeypatch, ball_search._BOX_REACH)
    lost = np.isnan(everywhere[:, 0])
    assert lost[8:11].all()  # under the finger: both searches ran, in vain
    np.testing.assert_array_equal(np.isnan(beside[:, 0]), lost)
    np.testing.assert_allclose(beside[~lost], everywhere[~lost], atol=1e-9)  # the same balls
    assert beside_fits < everywhere_fits  # with fewer fits
