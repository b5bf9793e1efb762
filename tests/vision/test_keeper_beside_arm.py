"""A goalkeeper at rest beside a coach's forearm (issue 5: hands never become pieces).

The states (``data/goal_kick_arm.json``) are the simulator's, frames 14080-14095 of the
10-minute brasileira match of ``python -m benchmarks.bench_analyze --seconds 600 --rules
brasileira --seed 31``: team A's coach takes a goal kick, the forearm across the left goal
area beside A's goalkeeper, which stays where it is. Rendered here with that benchmark's
camera and style (its noise differs: the clip renders every frame before these), the table
learned from the match's first ten seconds, as ``botao analyze`` learns it.

On the benchmark's own video (frame 14090) the goalkeeper beside the arm was not found for a
frame, a box was fitted on the arm instead, and the box's white stripe, left to the ball
search, was taken for the ball 9 mm inside the goal: a goal that was not. Here the same arm
left a box fitted on it 160 mm from the goalkeeper (frame 14092), and the goalkeeper fitted
0.95 mm off (14090) from the blob the arm joined.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from calibration.camera import preset_camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth, Hand
from vision.detect import Detector
from vision.detections import Detections

TABLE = load_table("brasileira")
DATA = Path(__file__).parent / "data" / "goal_kick_arm.json"


def _frames() -> list[FrameTruth]:
    d = json.loads(DATA.read_text("utf-8"))
    n = len(d["ids"])
    out = []
    for f in d["frames"]:
        pieces = Pieces(
            np.array(d["ids"]),
            np.array(d["team"]),
            np.array(d["kind"]),
            np.array(f["xy_mm"], float),
            np.array(d["size_mm"], float),
            np.array(f["angle_rad"], float),
            np.array(d["height_mm"], float),
        )
        hands = tuple(
            Hand(
                tuple(h["tip_xy_mm"]),
                tuple(h["elbow_xy_mm"]),
                h["height_mm"],
                h["width_mm"],
                tuple(h["skin_bgr"]),
            )
            for h in f["hands"]
        )
        k = int(f["frame"])
        out.append(FrameTruth(k, k / 30.0, pieces, np.zeros((n, 2)), np.zeros(n, bool), hands))
    return out


@functools.cache
def _run() -> list[tuple[FrameTruth, Detections]]:
    cam = preset_camera("tilted", TABLE, (1920, 1080))
    renderer = Renderer(TABLE, cam, None, rng=31)
    match = Match(TABLE, "brasileira", seed=31, fps=30.0)
    det = Detector(cam, TABLE, "brasileira")
    det.learn_background([renderer.render(f) for f in match.frames(10.0) if f.frame % 20 == 0])
    out = []
    for f in _frames():
        out.append((f, det.detect(renderer.render(f), f.frame, f.t)))
    return out


def _nearest(found: NDArray[np.float64], truth: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each found position's distance to the nearest true one (mm)."""
    if not len(found):
        return np.zeros(0)
    return np.asarray(np.hypot(*(found[:, None] - truth[None]).transpose(2, 0, 1)).min(axis=1))


def test_no_goalkeeper_or_ball_is_fitted_on_the_arm() -> None:
    """Whatever the arm hides, nothing it leaves is reported as a goalkeeper or a ball away
    from the true ones (the arm's edge fitted as a box 160 mm off before)."""
    for f, det in _run():
        for kind in ("goalkeeper", "ball"):
            truth = f.pieces.xy_mm[f.pieces.kind == kind]
            off = _nearest(det.xy_mm[det.kind == kind], truth)
            assert (off <= 5.0).all(), (f.frame, kind, det.xy_mm[det.kind == kind], off)


def test_the_goalkeeper_beside_the_arm_stays_where_it_stands() -> None:
    """Where it is reported, A's goalkeeper (at rest all along) is within 0.5 mm of its place:
    fitted again from where it stood when the arm changed its pixels (it was fitted 0.95 mm
    off, 14090, from the blob the arm joined), and reported on the frames the arm only
    passes beside it (14084-14091; over it, 14092-14094, it is hidden)."""
    seen = 0
    for f, det in _run():
        keeper = f.pieces.xy_mm[(f.pieces.kind == "goalkeeper") & (f.pieces.team == "A")]
        found = det.xy_mm[det.kind == "goalkeeper"]
        off = _nearest(keeper, found) if len(found) else np.array([np.inf])
        if 14084 <= f.frame <= 14091:
            assert off[0] <= 0.5, (f.frame, found, keeper)
            seen += 1
        elif np.isfinite(off[0]) and off[0] < 5.0:
            assert off[0] <= 0.5, (f.frame, found, keeper)
    assert seen == 8
