"""The ball rolling on where the last two frames put it (issue 5, "Speed"): a fair fit there
ends the search (:func:`vision.ball_search.predicted_ball`), and finds the ball the whole
search finds.

A seeded match rendered through a non-square camera, its ball rolling at up to 1.1 m/s.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from geometry.tablespec import load_table
from simulator.match import Match
from tests.vision.ball_runs import balls_and_fits
from vision.ball_search import predicted_ball

TABLE = load_table("brasileira")


def _fit(x_mm: float) -> SimpleNamespace:
    return SimpleNamespace(xy_mm=np.array([x_mm, -40.0]))


@pytest.mark.parametrize(
    ("frames", "last", "before", "step_mm", "expected"),
    [
        (10, 9, 8, 15.0, ([130.0, -40.0], 3.0 + 0.2 * 15.0)),  # rolling on at 15 mm a frame
        (10, 9, 8, 2.0, ([104.0, -40.0], 3.0 + 0.2 * 2.0)),  # slowly (60 mm/s at 30 frames/s)
        (10, 9, 8, 1.0, None),  # at rest, or nearly: kept, searched when a blob changes
        (10, 9, 7, 15.0, None),  # the frame before the last lost it: no speed known
        (10, 8, 7, 15.0, None),  # the last frame lost it
        (10, None, None, 15.0, None),  # never found
    ],
)
def test_where_the_ball_should_be(
    frames: int,
    last: int | None,
    before: int | None,
    step_mm: float,
    expected: tuple[list[float], float] | None,
) -> None:
    det = SimpleNamespace(
        _frames=frames,
        _ball_prior=None if last is None else (_fit(100.0 + step_mm), last),
        _ball_before=None if before is None else (_fit(100.0), before),
    )
    got = predicted_ball(det)  # type: ignore[arg-type]
    if expected is None:
        assert got is None
    else:
        assert got is not None
        np.testing.assert_allclose(got[0], expected[0])
        assert got[1] == pytest.approx(expected[1])


def test_a_rolling_ball_ends_the_search_where_expected(monkeypatch: pytest.MonkeyPatch) -> None:
    whole, whole_fits = balls_and_fits(monkeypatch, range(150, 174), {"_EXPECTED_SCORE": 2.0})
    rolling, rolling_fits = balls_and_fits(monkeypatch, range(150, 174), {"_EXPECTED_SCORE": 0.5})
    truth = Match(TABLE, "brasileira", seed=4, fps=30).frames(6.0)
    true_xy = np.array([f.pieces.xy_mm[f.pieces.kind == "ball"][0] for f in truth][150:174])
    found = np.isfinite(rolling[:, 0])
    # (the three frames as the coach's finger leaves it are lost either way)
    np.testing.assert_array_equal(found, np.isfinite(whole[:, 0]))
    assert found.sum() >= 20
    np.testing.assert_allclose(rolling[found], whole[found], atol=0.05)  # the same ball
    assert np.hypot(*(rolling - true_xy)[found].T).max() < 2.0  # and it is the ball
    assert rolling_fits < whole_fits  # with fewer fits
