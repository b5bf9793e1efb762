"""At most one goalkeeper a team (000 REGRA 3: "dez botões e um goleiro").

A coach's palm lit brighter than the arm (the hand's mask takes the arm's colour at the rim)
or a white button's crescent beside a forearm, on a pale felt, was fitted as a second
goalkeeper of the white team: ``bench_detect``'s stills 510 and 557 (its only false
goalkeepers at seed 500). Of a team's boxes the one in a small area is kept (000 ATUAÇÃO DO
GOLEIRO, 001 Art. XVI § 1), then the best fit.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import run_case, still_frames
from geometry.tablespec import load_table
from vision.detect import Detector
from vision.solids import Solid

TABLE = load_table("brasileira")


@functools.cache
def _detector() -> Detector:
    cam = random_camera(np.random.default_rng(5), TABLE, (1280, 720))[0]
    return Detector(cam, TABLE)


def _box(x: float, y: float, team: str, inliers: float) -> Solid:
    return Solid("goalkeeper", np.array([x, y, 0.0]), 35.0, (70.0, 15.0), inliers, team=team)


def _button(x: float, y: float, team: str) -> Solid:
    return Solid("button", np.array([x, y, 40.0]), 10.0, inliers=0.9, team=team)


# (boxes as (x, y, team, inliers), the indices kept); the small area: |x| > 890, |y| < 190
ROWS = {
    "palm outside the area beats a poorer box in it": (
        [(-991.0, 8.0, "A", 0.31), (-778.0, -339.0, "A", 0.9)],
        [0],
    ),
    "two in small areas: the better fit": ([(-991.0, 8.0, "A", 0.4), (985.0, 0.0, "A", 0.8)], [1]),
    "both outside: the better fit": ([(-700.0, 8.0, "A", 0.4), (-500.0, 0.0, "A", 0.8)], [1]),
    # failure rows: nothing to drop
    "one a team": ([(-991.0, 8.0, "A", 0.3), (991.0, 0.0, "B", 0.9)], [0, 1]),
    "a lone box placed in the large area": ([(-800.0, 100.0, "A", 0.5)], [0]),
    "no team yet": ([(-991.0, 8.0, "", 0.3), (-700.0, 0.0, "", 0.9)], [0, 1]),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_one_goalkeeper_a_team(name: str) -> None:
    boxes, kept = ROWS[name]
    solids = [_box(*b) for b in boxes]
    others = [_button(-500.0, 0.0, "A"), _button(500.0, 0.0, "B")]
    out = _detector()._one_keeper_a_team(others[:1] + solids + others[1:])
    assert out[0] is others[0] and out[-1] is others[1]  # buttons untouched, in order
    assert [[s is x for s in solids].index(True) for x in out[1:-1]] == kept


@pytest.mark.parametrize("seed", [510, 557])
def test_a_hand_beside_a_white_team_is_no_second_goalkeeper(seed: int) -> None:
    out = run_case(seed, still_frames())
    assert out.calibrated
    assert out.false["goalkeeper"] == 0
    assert out.missed["goalkeeper"] == []
    assert out.visible["goalkeeper"] == 2
    assert out.team_n >= 20 and out.team_ok == out.team_n  # the hand's pieces' teams too
