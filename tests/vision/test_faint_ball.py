"""A still's faint ball (issue 5, stills' ball recall): a white ball on a pale felt, far from a
tilted camera, differs from the still's model of the table too little for the coarse
foreground, so the ball's search had no candidate and lost it; a full-resolution
centre-surround search (:func:`vision.ball_search.faint_ball`) finds it. On a table without
a ball it finds none.

Seeded renders with the true camera, one renderer per felt (its static scene is drawn once);
footprint errors in table mm.
"""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth
from tests.scenes import still_truth
from vision import ball_search
from vision.detect import Detector
from vision.detections import Detections

TABLE = load_table("brasileira")
# a few buttons of each team (their shadows and rims near the search) and the ball
BUTTONS_MM = [(-600.0, -250.0), (-150.0, 350.0), (250.0, -300.0), (700.0, 150.0)]


def _frame(ball_xy_mm: tuple[float, float] | None) -> FrameTruth:
    """Four resting buttons and, unless None, the ball at ``ball_xy_mm``."""
    n = len(BUTTONS_MM)
    ids = [f"A{i}" for i in range(n // 2)] + [f"B{i}" for i in range(n - n // 2)]
    team, kind = [i[0] for i in ids], ["button"] * n
    xy, size = list(BUTTONS_MM), [(60.0, 60.0)] * n
    if ball_xy_mm is not None:
        ids, team, kind = [*ids, "ball"], [*team, ""], [*kind, "ball"]
        xy, size = [*xy, ball_xy_mm], [*size, (10.0, 10.0)]
    return still_truth(ids, team, kind, xy, size)


# the ball far from the tilted camera, where the coarse foreground does not see it
FAINT_MM = [(200.0, 250.0)]
# beside the left penalty mark, where the still's estimate of the mark was fitted as a ball
# on it and reported (the faint search ran only when no ball was found); a faint ball that
# scores as one found well now wins over a spot's fit (vision.ball_search.sure_faint)
OVER_SPOT_MM = [(100.0, 450.0)]
# a white ball on a white line (the halfway line; the centre circle's edge): fitted in place,
# 0.16 and 0.29 mm off, it was scored against the line's colour under its centre (0.25 and
# 0.24 of the 0.35 it needs) and lost (these were strict failure rows). Scored as a lit
# sphere (its core lighter than the table, its rim darker: vision.ball_search.lit_sphere_score)
# it is found
ON_LINE_MM = [(0.0, 500.0), (100.0, 150.0)]
# the renders' order (the renderer's noise changes from one render to the next): as when
# the spot's rows were failure rows
ORDER = [None, (100.0, 450.0), (0.0, 500.0), (100.0, 150.0), (200.0, 250.0)]


@pytest.fixture(scope="module")
def pale() -> dict[object, tuple[Detections, Detections | None]]:
    """The tilted camera over a pale felt (a white team against a blue one): the table
    without a ball and with it at each place, rendered in this order (the renderer's noise
    changes from one render to the next) and detected as stills; the faint rows also
    without the faint search."""
    cam = preset_camera("tilted", TABLE, (1920, 1080))
    style = RenderStyle.hard_pair(
        "white_on_light", noise_sigma=4.0, jpeg_quality=80, light_gradient=0.2, seed=7
    )
    r = Renderer(TABLE, cam, style, rng=7)
    out: dict[object, tuple[Detections, Detections | None]] = {}
    for xy in ORDER:
        img = r.render(_frame(xy))
        without = None
        if xy in FAINT_MM or xy in OVER_SPOT_MM:  # the premise: lost without the faint search
            with patch.object(ball_search, "faint_ball", lambda *_: None):
                without = Detector(cam, TABLE).detect(img)
        out[xy] = (Detector(cam, TABLE).detect(img), without)
    return out


def _found(d: Detections, xy: tuple[float, float]) -> bool:
    """One ball, within 0.5 mm of ``xy``."""
    balls = d.xy_mm[d.kind == "ball"]
    return len(balls) == 1 and float(np.hypot(*(balls[0] - xy))) < 0.5


@pytest.mark.parametrize("xy", FAINT_MM)
def test_faint_ball_on_pale_felt_is_found(pale, xy) -> None:  # type: ignore[no-untyped-def]
    """Lost without the faint search, found with it within 0.5 mm."""
    d, without = pale[xy]
    assert without is not None and not (without.kind == "ball").any()
    assert _found(d, xy)


@pytest.mark.parametrize("xy", OVER_SPOT_MM)
def test_faint_ball_wins_over_a_spots_fit(pale, xy) -> None:  # type: ignore[no-untyped-def]
    """Without the faint search the spot's fit is reported, not the ball; with it, the ball
    within 0.5 mm."""
    d, without = pale[xy]
    assert without is not None and not _found(without, xy)
    assert _found(d, xy)


def test_no_ball_no_false_ball(pale) -> None:  # type: ignore[no-untyped-def]
    """The same table without a ball: the faint search invents none."""
    d, _ = pale[None]
    assert not (d.kind == "ball").any()


@pytest.mark.parametrize("xy", ON_LINE_MM)
def test_faint_ball_on_a_white_line_is_found(pale, xy) -> None:  # type: ignore[no-untyped-def]
    """A white ball on a white line (see ``ON_LINE_MM``): found within 0.5 mm."""
    assert _found(pale[xy][0], xy)


# other renders of the table without a ball: the noise, the JPEG and the digits printed on the
# buttons change, and a white button's fit once took its printed ring for its edge (49-51 mm
# for 60, 4 mm off) on seeds 1 and 6 (and on this module's seed 7 with another OpenCV's digits):
# the rim it left beyond its pixels was fitted as a ball 22-29 mm from its centre
OTHER_SEEDS = (1, 2, 3, 4, 5, 6, 8, 9, 10)


def _no_ball_still(seed: int) -> tuple[Detections, FrameTruth]:
    cam = preset_camera("tilted", TABLE, (1920, 1080))
    style = RenderStyle.hard_pair(
        "white_on_light", noise_sigma=4.0, jpeg_quality=80, light_gradient=0.2, seed=seed
    )
    truth = _frame(None)
    return Detector(cam, TABLE).detect(Renderer(TABLE, cam, style, rng=seed).render(truth)), truth


@pytest.mark.slow
def test_no_button_leaves_a_ball_beside_it() -> None:
    """On every seed each button is fitted at 54 mm or more (the ring's fits were 49-51 mm),
    and no ball is reported within a button's reach (30 mm and a ball). Other false balls on
    these stills are not this one's: a painted mark taken for a ball on it (seeds 2
    and 5), the near rail's edge (seed 3)."""
    for seed in OTHER_SEEDS:
        d, truth = _no_ball_still(seed)
        true_xy = truth.pieces.xy_mm[truth.pieces.kind == "button"]
        buttons = d.kind == "button"
        assert buttons.sum() == len(true_xy) and (d.size_mm[buttons, 0] >= 54.0).all(), (
            seed,
            d.size_mm[buttons],
        )
        balls = d.xy_mm[d.kind == "ball"]
        near = np.hypot(*(balls[:, None] - true_xy[None]).transpose(2, 0, 1)) < 35.0
        assert not near.any(), (seed, balls)
