"""A ball struck from where it rested a frame ago, found drawn out along the way it went
(:func:`vision.ball_search.struck_from_rest`), or found still where it was found the frame
before (:func:`vision.ball_search.found_again`), and scoring well, ends the ball search as a
ball rolling on where it was expected does: the same balls, fewer fits (issue 7, the live
referee's slow frames: a hit's events wait for the frame after it)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.match import Match
from tests.vision.ball_runs import balls_and_fits
from vision.ball_search import found_again, struck_from_rest

TABLE = load_table("brasileira")
CAM = preset_camera("tilted", TABLE, (1280, 720))
Z_C = 5.0


def _ball(x_mm: float, y_mm: float = 40.0, streak: tuple[float, float] = (0.0, 0.0)) -> object:
    return SimpleNamespace(xy_mm=np.array([x_mm, y_mm]), streak_px=np.array(streak))


def _streak_along(a: tuple[float, float], b: tuple[float, float], px: float) -> tuple[float, ...]:
    """A streak of ``px`` pixels along the image of the way from ``a`` to ``b`` (table mm)."""
    uv = CAM.table_to_image(np.array([[*a, Z_C], [*b, Z_C]]))
    d = (uv[1] - uv[0]) / np.hypot(*(uv[1] - uv[0]))
    return tuple(d * px)


ALONG = _streak_along((100.0, 40.0), (130.0, 40.0), 6.0)
ACROSS = _streak_along((100.0, 40.0), (100.0, 70.0), 6.0)


@pytest.mark.parametrize(
    ("frames", "last", "fit", "expected"),
    [
        (10, (_ball(100.0), 9), _ball(130.0, streak=ALONG), True),  # 30 mm on, drawn out
        (10, (_ball(100.0), 9), _ball(130.0, streak=(-ALONG[0], -ALONG[1])), True),  # either way
        (10, (_ball(100.0), 9), _ball(130.0, streak=ACROSS), False),  # drawn out across it
        (10, (_ball(100.0), 9), _ball(130.0, streak=(0.5, 0.0)), False),  # not drawn out
        (10, (_ball(100.0), 9), _ball(103.0, streak=ALONG), False),  # where it rested
        (10, (_ball(100.0), 9), _ball(400.0, streak=ALONG), False),  # 300 mm: over 6 m/s
        (10, (_ball(100.0), 8), _ball(130.0, streak=ALONG), False),  # found two frames ago
        (10, (_ball(100.0, streak=(4.0, 0.0)), 9), _ball(130.0, streak=ALONG), True),  # struck then
        (10, None, _ball(130.0, streak=ALONG), False),  # never found
    ],
)
def test_struck_from_where_it_rested(
    frames: int, last: tuple[object, int] | None, fit: object, expected: bool
) -> None:
    det = SimpleNamespace(
        learned=True, camera=CAM, sizes=SimpleNamespace(ball_diameter=10.0), _frames=frames
    )
    det._ball_prior = last
    assert struck_from_rest(det, fit, Z_C) is expected  # type: ignore[arg-type]


def test_a_still_has_no_ball_struck() -> None:
    det = SimpleNamespace(
        learned=False, camera=CAM, sizes=SimpleNamespace(ball_diameter=10.0), _frames=10
    )
    det._ball_prior = (_ball(100.0), 9)
    assert not struck_from_rest(det, _ball(130.0, streak=ALONG), Z_C)  # type: ignore[arg-type]


def _with_and_without(
    monkeypatch: pytest.MonkeyPatch, frames: range, rule: str
) -> tuple[np.ndarray, np.ndarray]:
    """Seed 6's balls over ``frames`` without then with ``rule`` (vision.ball_search), as
    checked: the same ball on every frame, with fewer fits; the balls found and the truth's."""
    truth = list(Match(TABLE, "brasileira", seed=6, fps=30).frames(frames.stop / 30 + 0.1))
    true_xy = np.array([truth[k].pieces.xy_mm[truth[k].pieces.kind == "ball"][0] for k in frames])
    off, off_fits = balls_and_fits(monkeypatch, frames, {rule: lambda *a, **k: False}, seed=6)
    on, on_fits = balls_and_fits(monkeypatch, frames, {}, seed=6)
    np.testing.assert_allclose(on, off, atol=1e-9)  # the same ball on every frame
    assert on_fits < off_fits  # with fewer fits
    return on, true_xy


def test_a_ball_struck_from_rest_ends_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # seed 6's ball rests, then is struck on frame 163 and found drawn out the frame after
    on, true_xy = _with_and_without(monkeypatch, range(150, 170), "struck_from_rest")
    assert np.hypot(*(on - true_xy).T).max() < 0.5  # found on each, where it is


@pytest.mark.parametrize(
    ("frames", "last", "fit", "expected"),
    [
        (10, (_ball(100.0, streak=(3.5, 0.0)), 9), _ball(100.5), True),  # drawn out before
        (10, (_ball(100.0), 9), _ball(102.9), True),
        (10, (_ball(100.0), 9), _ball(103.5), False),  # over 3 mm off
        (10, (_ball(100.0), 9), _ball(100.5, streak=(2.0, 0.0)), False),  # drawn out now
        (10, (_ball(100.0), 8), _ball(100.5), False),  # found two frames ago
        (10, None, _ball(100.5), False),  # never found
    ],
)
def test_found_again_where_it_was(
    frames: int, last: tuple[object, int] | None, fit: object, expected: bool
) -> None:
    det = SimpleNamespace(learned=True, _frames=frames, _ball_prior=last)
    assert found_again(det, fit) is expected  # type: ignore[arg-type]


def test_a_ball_found_again_where_it_was_ends_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    # seed 6's ball found on frame 270, not on 269 (the range's second frame), and again where
    # it was on 271: resting() needs two finds in a row
    on, true_xy = _with_and_without(monkeypatch, range(268, 282), "found_again")
    # (the first two frames, with no frame before them, take a piece's edge, then nothing)
    assert np.hypot(*(on[2:] - true_xy[2:]).T).max() < 0.5
