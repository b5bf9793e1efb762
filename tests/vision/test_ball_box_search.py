"""The ball's second search, for its sliver beside a goalkeeper's box in front of it (issue 5,
"Speed"): a blob away from every box that the first search fitted, on the same pixels, is not
fitted again (:func:`vision.ball_search.second_search_blobs`); one the first skipped is. The
same balls are found, with fewer fits.

A seeded match rendered through a non-square camera; the ball is lost under a coach's finger on
frames 159-160 (both searches run; on 158, struck from rest, it is found since the search fits a
ball lost after a hit drawn out and ends at a ball found where it rests) and rolls on after it.
Where the ball was found a moment ago far from both goalkeepers, the second search is not run at
all (:func:`vision.ball_stay.could_be_beside`). The fits the second search saves are counted on
another seed's frames 150-199, where the ball is lost twice (frames 160 and 180) with blobs far
from the boxes fitted first: on the first seed's, the one such loss (frame 173, the ball at rest
against a button) is now found by the first search
(``tests/vision/test_ball_sliver_against_button.py``).
"""

from __future__ import annotations

import numpy as np
import pytest

import vision.detect
from geometry.tablespec import load_table
from tests.vision.ball_runs import balls_and_fits
from vision.ball_search import blob_key, near_a_box, second_search_blobs

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


def _every_box_in_reach(
    monkeypatch: pytest.MonkeyPatch,
    patches: dict[str, object],
    frames: range = range(150, 175),
    seed: int = 4,
) -> tuple[np.ndarray, int]:
    """:func:`balls_and_fits` with every box within the ball's reach (as when the ball was
    lost long ago), so that the second search runs whenever the first found nothing."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(vision.detect, "could_be_beside", lambda det, box: True)
        return balls_and_fits(monkeypatch, frames, patches, seed=seed)


def test_the_second_search_fits_only_beside_a_box(monkeypatch: pytest.MonkeyPatch) -> None:
    frames = range(150, 200)
    everywhere, everywhere_fits = _every_box_in_reach(
        monkeypatch, {"_BOX_REACH": 1e9}, frames, seed=9
    )
    beside, beside_fits = _every_box_in_reach(monkeypatch, {}, frames, seed=9)
    lost = np.isnan(everywhere[:, 0])
    assert lost[[10, 30]].all()  # both searches ran, in vain
    np.testing.assert_array_equal(np.isnan(beside[:, 0]), lost)
    np.testing.assert_allclose(beside[~lost], everywhere[~lost], atol=1e-9)  # the same balls
    assert beside_fits < everywhere_fits  # with fewer fits


def test_no_second_search_where_the_ball_cannot_be_beside_a_box(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # lost under the finger a frame or two after it was found in midfield, the ball cannot be
    # beside either goalkeeper (vision.ball_stay.could_be_beside): the second search is not run
    anywhere, anywhere_fits = _every_box_in_reach(monkeypatch, {})
    gated, gated_fits = balls_and_fits(monkeypatch, range(150, 175), {})
    lost = np.isnan(anywhere[:, 0])
    assert lost[9:11].all()
    np.testing.assert_array_equal(np.isnan(gated[:, 0]), lost)
    np.testing.assert_allclose(gated[~lost], anywhere[~lost], atol=1e-9)  # the same balls
    assert gated_fits < anywhere_fits  # with fewer fits
