"""bench_detect's visibility: a ball counts as visible unless a hand covers it or its centre
lies inside a button's footprint (the simulator's discs overlap for a frame in a hard
collision; the button's top, as tall as the ball, leaves a sliver of it: stills 530, 558)."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import _hidden
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.render import Renderer
from tests.scenes import still_truth

TABLE = load_table("brasileira")


@pytest.mark.parametrize(
    ("gap_mm", "hidden"),
    [(23.2, True), (29.0, True), (31.0, False), (35.0, False), (200.0, False)],
)
def test_a_ball_under_a_button_is_not_visible(gap_mm: float, hidden: bool) -> None:
    cam = random_camera(np.random.default_rng(3), TABLE, (640, 360))[0]
    frame = still_truth(
        ["B5", "ball"], ["B", ""], ["button", "ball"],
        [(300.0, -350.0), (300.0 + gap_mm, -350.0)], [(60.0, 60.0), (10.0, 10.0)],
    )  # fmt: skip
    got = _hidden(Renderer(TABLE, cam, RenderStyle()), cam, frame)
    assert got.tolist() == [False, hidden]
