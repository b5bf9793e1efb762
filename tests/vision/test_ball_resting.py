"""A ball found at rest where it rested on the last two frames ends the ball search, as a ball
rolling on where it was expected does (:func:`vision.ball_search.resting`): the same balls,
fewer fits (issue 5, "Speed"; issue 7, the live referee's slow frames)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from tests.vision.ball_runs import balls_and_fits
from vision.ball_search import resting


def _ball(x_mm: float, streak_x_px: float = 0.0) -> SimpleNamespace:
    return SimpleNamespace(xy_mm=np.array([x_mm, 40.0]), streak_px=np.array([streak_x_px, 0.0]))


@pytest.mark.parametrize(
    ("frames", "last", "before", "expected"),
    [
        (10, (100.0, 0.0, 9), (100.5, 8), 100.0),  # still on the last two frames
        (10, (100.0, 0.0, 9), (102.5, 8), None),  # moved 2.5 mm: rolling to a stop
        (10, (100.0, 4.0, 9), (100.0, 8), None),  # drawn out on the last frame
        (10, (100.0, 0.0, 8), (100.0, 7), None),  # the last frame lost it
        (10, (100.0, 0.0, 9), (100.0, 7), None),  # the frame before lost it
        (10, (100.0, 0.0, 9), None, None),  # found once
        (10, None, None, None),  # never found
    ],
)
def test_where_the_ball_rests(
    frames: int,
    last: tuple[float, float, int] | None,
    before: tuple[float, int] | None,
    expected: float | None,
) -> None:
    det = SimpleNamespace(
        _frames=frames,
        _ball_prior=None if last is None else (_ball(last[0], last[1]), last[2]),
        _ball_before=None if before is None else (_ball(before[0]), before[1]),
    )
    got = resting(det)  # type: ignore[arg-type]
    if expected is None:
        assert got is None
    else:
        assert got is not None
        np.testing.assert_allclose(got[0], [expected, 40.0])
        assert got[1] == 3.0


def test_a_resting_ball_found_again_ends_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # seed 4's ball rests until frame 225 while buttons move about it, then rolls off
    # (found_again, which ends the search at a ball found well where it was the frame before,
    # held off: it would end it here too)
    frames = range(200, 232)
    not_again = {"found_again": lambda det, fit: False}
    off, off_fits = balls_and_fits(monkeypatch, frames, {"resting": lambda det: None, **not_again})
    on, on_fits = balls_and_fits(monkeypatch, frames, not_again)
    np.testing.assert_allclose(on, off, atol=1e-9)  # the same ball on every frame
    assert on_fits < off_fits
