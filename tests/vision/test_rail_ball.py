"""A ball resting against a rail (the seed-3 clip's, 4 mm from the far rail) is found: the
detector's foreground stops short of the rails (where the felt's model meets the wood's), and
a ball a few pixels across on the far side of a tilted camera's view lay outside it. The same
table without the ball has no ball near the rails.

Seeded renders through the tilted preset at 1920 x 1080; the truth is the scene's.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth
from tests.scenes import still_truth
from vision.detect import Detector

TABLE = load_table("brasileira")
HL = TABLE.half_length
FPS = 30.0
BALL_R = 5.0
GAP = 4.4  # the ball's gap to the rail (mm), as in the clip
_, _, _, RAIL_Y = TABLE.rail_box


def _frame(k: int, ball: tuple[float, float] | None) -> FrameTruth:
    """Frame ``k``: two goalkeepers, four buttons and (unless None) the ball at ``ball``."""
    xy = [(-HL, 0.0), (HL, 0.0), (-400.0, 200.0), (-250.0, -300.0), (300.0, 250.0), (150.0, -200.0)]
    kind = ["goalkeeper"] * 2 + ["button"] * 4
    team = ["A", "B", "A", "A", "B", "B"]
    size = [[70.0, 15.0]] * 2 + [[50.0, 50.0]] * 4
    height = [35.0] * 2 + [8.0] * 4
    ids = ["A1", "B1", "A2", "A3", "B2", "B3"]
    if ball is not None:
        xy, kind, team = [*xy, ball], [*kind, "ball"], [*team, ""]
        size, height, ids = [*size, [10.0, 10.0]], [*height, 10.0], [*ids, "ball"]
    angle = [math.pi / 2] * 2 + [0.0] * (len(xy) - 2)
    return still_truth(ids, team, kind, xy, size, angle, height, frame=k, fps=FPS)


def _balls(ball: tuple[float, float] | None, seed: int) -> list[np.ndarray]:
    """The balls found in two frames of ``_frame(k, ball)`` after the table was learned from
    frames without a ball."""
    cam = preset_camera("tilted", TABLE, (1920, 1080))
    r = Renderer(TABLE, cam, RenderStyle(jpeg_quality=85, noise_sigma=2.0), rng=seed)
    det = Detector(cam, TABLE)
    det.learn_background([r.render(_frame(k, None)) for k in range(5)])
    out = []
    for k in (5, 6):
        d = det.detect(r.render(_frame(k, ball)), k, k / FPS)
        out.append(d.xy_mm[d.kind == "ball"])
    return out


@pytest.mark.parametrize(("x_mm", "seed"), [(458.45, 3), (-200.0, 4)])
def test_a_ball_resting_against_the_far_rail_is_found(x_mm: float, seed: int) -> None:
    xy = (x_mm, RAIL_Y - BALL_R - GAP)
    for balls in _balls(xy, seed):
        assert len(balls) == 1
        assert np.hypot(*(balls[0] - xy)) < 1.0


def test_no_ball_near_the_rails_without_one() -> None:
    x0, y0, x1, y1 = TABLE.rail_box
    for balls in _balls(None, 3):
        for x, y in balls:
            assert min(x - x0, x1 - x, y - y0, y1 - y) > 30.0
