"""No ball in a goal where a goalkeeper stood while the table was learned (issues 5 and 7).

The goal-line protocol's rigs 300 and 301 (``python -m benchmarks.bench_goalline``) learn the
empty table from a match's first 15 s, both goalkeepers resting on their goal lines. Once they
moved away, what the learned table got wrong in a goal was fitted as the ball, 9-22 mm inside
it, and (a ball explains its pixels) never healed:

- rig 300: a grey box on the pale felt looks like its own shadow (top level 23 < 25): missed on
  the frames' median, its rim stayed in the learned table, in the goal where only what the fits
  found is painted over;
- rig 301: the crossbar the black box hid, painted over with the still's felt (the still keeps
  a goal's colours only where it sees them).

The same rigs (their true cameras), the ball on each goal's line beside a post: it is the only ball
reported, within a millimetre, on every frame.
"""

from __future__ import annotations

import numpy as np
import pytest

from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.state import FrameTruth
from tests.vision.protocol_rig import learned_rig

TABLE = load_table("brasileira")
HL = TABLE.half_length
FPS = 6.0


def _scene(ball_xy: tuple[float, float]) -> Pieces:
    """The goal-line protocol's scene: both goalkeepers off the goals' centres (where they
    stood while the table was learned), four buttons, the ball."""
    xy = [ball_xy, (-HL + 8.5, -150.0), (HL - 8.5, 150.0)]
    xy += [(-400.0, 200.0), (-250.0, -300.0), (300.0, 250.0), (150.0, -200.0)]
    return Pieces(
        np.array(["ball", "A1", "B1", "A2", "A3", "B2", "B3"]),
        np.array(["", "A", "B", "A", "A", "B", "B"]),
        np.array(["ball", "goalkeeper", "goalkeeper"] + ["button"] * 4),
        np.array(xy, float),
        np.array([[10, 10], [70, 15], [70, 15]] + [[50, 50]] * 4, float),
        np.array([0.0, np.pi / 2, np.pi / 2] + [0.0] * 4),
        np.array([10, 35, 35] + [8] * 4, float),
    )


@pytest.mark.parametrize("seed", [300, 301])
def test_no_ball_in_a_goal_a_goalkeeper_hid_while_the_table_was_learned(seed: int) -> None:
    renderer, det = learned_rig(seed)
    for side in (1.0, -1.0):
        # beside a post, 2 mm short of the line
        ball = np.array([side * (HL + 5.0 - 2.0), TABLE.goal_width / 2.0 - 6.0])
        pieces = _scene((float(ball[0]), float(ball[1])))
        still = np.zeros((len(pieces), 2))
        for k in range(4):
            i = k + (4 if side < 0 else 0)
            frame = FrameTruth(i, i / FPS, pieces, still, np.zeros(len(pieces), bool))
            out = det.detect(renderer.render(frame), i, i / FPS)
            balls = out.xy_mm[out.kind == "ball"]
            assert len(balls) == 1, (side, k, balls)
            err = float(np.hypot(*(balls[0] - ball)))
            assert err < 1.0, (side, k, balls[0], err)


@pytest.mark.parametrize("seed", [330, 300])
def test_the_crossbar_a_goalkeeper_hid_while_learning_is_never_the_ball(seed: int) -> None:
    """Rig 330: goalkeeper B1 stood on its line at the goal's centre while the table was
    learned, hiding part of the crossbar, which the learned table then painted as felt; once
    it moved the bar's pixels were fitted as the ball 25-30 mm inside the goal (the crossbar
    50 mm up, seen from the camera's side) while the white ball on the white goal line left no
    blob: 11 false goals at the goal-line protocol's centre place. The posts and crossbar
    stand over the table: nearer the camera than any ball, they are never a ball's pixels."""
    renderer, det = learned_rig(seed)
    i = 0
    for side in (1.0, -1.0):
        for m in (-1.0, 1.0):  # the ball 1 mm short of wholly across the line, 1 mm past it
            ball = np.array([side * (HL + 5.0 + m), 0.0])
            pieces = _scene((float(ball[0]), float(ball[1])))
            still = np.zeros((len(pieces), 2))
            for _ in range(3):
                frame = FrameTruth(i, i / FPS, pieces, still, np.zeros(len(pieces), bool))
                out = det.detect(renderer.render(frame), i, i / FPS)
                i += 1
                for xy in out.xy_mm[out.kind == "ball"]:
                    err = float(np.hypot(*(xy - ball)))
                    assert err < 2.0, (side, m, xy, err)
