"""A still finds the ball in a goal's net (issue 5; vision/ball_goal.py).

A still's model of the empty table lacks the goals, so it reported no piece inside one: the
ball driven into the net, the picture after every goal, was lost. On 60 fresh stills
(``python -m benchmarks.bench_detect --images 60 --seed 1300``) 5 of the 9 balls missed lay
in a goal, plain to see. Inside a goal the ball is now looked for against the median of the
image about it (the net seen over the felt and the rail), beside the posts' and crossbar's own
pixels and the painted goal line.

The scenes: seeded random cameras (the acceptance ranges), felts of every shade, the ball at
places in either goal's net (the near and far side, deep and shallow), the goalkeepers on their
lines and buttons about the field; and the ball just behind the line, behind its goalkeeper
(the box modelled in front of it, as the ordinary search does). The failure rows: the same
stills without a ball show none, in a goal or elsewhere; and a ball just behind the line
whose image the crossbar's crosses, a known limit (:data:`UNDER_BAR`).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_still_balls import detect_scene
from geometry.tablespec import load_table
from simulator.designs import FIELD_COLOURS, RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth
from tests.scenes import still_truth
from tests.vision.bench_stills import bench_still
from vision.ball_goal import _beyond_goals
from vision.detect import Detector
from vision.detections import Detections

TABLE = load_table("brasileira")
HL = TABLE.half_length
# (camera seed, felt, goal side, ball's depth past the line, its offset across): the net's
# middle and its corners, both goals, pale and dark felts
CASES = {
    1: ("light", +1.0, 60.0, 40.0),
    2: ("green", -1.0, 45.0, -35.0),
    3: ("blue", +1.0, 70.0, -50.0),
    4: ("dark_green", -1.0, 55.0, 20.0),
    5: ("light", -1.0, 65.0, -10.0),
    6: ("green", +1.0, 50.0, 55.0),
}
# just behind the line, behind its goalkeeper (the box between the ball and the field, as in
# stills 1347 and 1716 of bench_detect --seed 1300 and 1700): the box is modelled in front
BEHIND = {
    8: ("light", -1.0, 25.0, -20.0),
    11: ("blue", -1.0, 28.0, 30.0),
}
# and where the camera sees the ball under the crossbar (its image crosses the ball's centre):
# the renderer draws the ball over the bar, a real bar hides it; the search leaves the bar's
# pixels out, and too little of the ball is left (0.44-0.57 of it, explaining 0.2-0.78)
UNDER_BAR = {
    10: ("green", +1.0, 25.0, 10.0),
    12: ("dark_green", +1.0, 26.0, -15.0),
}
CASES.update(BEHIND)


def _frame(seed: int, ball: bool) -> tuple[FrameTruth, np.ndarray]:
    """The goalkeepers on their lines, four buttons and, if ``ball``, the ball in a net; and
    the ball's footprint (mm)."""
    _, side, depth, across = {**CASES, **UNDER_BAR}[seed]
    ball_xy = np.array([side * (HL + depth), across])
    ids = ["A1", "B1", "A2", "A3", "B2", "B3"]
    team = [i[0] for i in ids]
    kind = ["goalkeeper"] * 2 + ["button"] * 4
    # the keepers stand on their lines on the far side of the goal's centre from the ball
    keep_y = -np.sign(across) * 45.0 if across else 45.0
    if seed in BEHIND or seed in UNDER_BAR:
        keep_y = across
    xy = [
        (-HL + 8.5, keep_y),
        (HL - 8.5, keep_y),
        (-400, 200),
        (300, 250),
        (150, -200),
        (-350, -240),
    ]
    size = [(70.0, 15.0)] * 2 + [(50.0, 50.0)] * 4
    angle = [np.pi / 2] * 2 + [0.0] * 4
    height = [35.0] * 2 + [8.0] * 4
    if ball:
        ids, team, kind = [*ids, "ball"], [*team, ""], [*kind, "ball"]
        xy, size = [*xy, tuple(ball_xy)], [*size, (10.0, 10.0)]
        angle, height = [*angle, 0.0], [*height, 10.0]
    return still_truth(ids, team, kind, xy, size, angle, height), ball_xy


@functools.cache
def _detected(seed: int, ball: bool) -> tuple[Detections, np.ndarray]:
    felt = {**CASES, **UNDER_BAR}[seed][0]
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, TABLE, (1920, 1080))[0]
    style = RenderStyle(
        field_bgr=FIELD_COLOURS[felt],
        noise_sigma=float(rng.uniform(2.0, 5.0)),
        jpeg_quality=int(rng.integers(75, 95)),
        light_gradient=float(rng.uniform(0.0, 0.3)),
        vignette=float(rng.uniform(0.0, 0.3)),
        seed=seed,
    )
    frame, ball_xy = _frame(seed, ball)
    image = Renderer(TABLE, cam, style, rng=seed).render(frame)
    return Detector(cam, TABLE).detect(image), ball_xy


@pytest.mark.parametrize("seed", sorted(CASES))
def test_a_ball_in_a_goals_net_is_found_on_a_still(seed: int) -> None:
    """Before, none of these balls was reported; now each within 0.5 mm."""
    det, ball_xy = _detected(seed, True)
    balls = det.xy_mm[det.kind == "ball"]
    assert len(balls) == 1, balls
    assert np.hypot(*(balls[0] - ball_xy)) < 0.5, (balls[0], ball_xy)


@pytest.mark.parametrize("seed", sorted(UNDER_BAR))
@pytest.mark.xfail(strict=True, reason="a ball under the crossbar as the camera sees it")
def test_failure_rows_a_ball_under_the_crossbar(seed: int) -> None:
    """Known limit (see :data:`UNDER_BAR`): kept so that a fix shows."""
    det, ball_xy = _detected(seed, True)
    balls = det.xy_mm[det.kind == "ball"]
    assert len(balls) == 1 and np.hypot(*(balls[0] - ball_xy)) < 0.5, (balls, ball_xy)


@pytest.mark.parametrize("seed", sorted(CASES))
def test_no_ball_on_the_same_still_without_one(seed: int) -> None:
    """The failure rows: the nets, their frames, the goal lines and the keepers beside them
    are no ball."""
    det, _ = _detected(seed, False)
    assert not (det.kind == "ball").any(), det.xy_mm[det.kind == "ball"]


def test_a_hands_part_inside_a_goal_is_the_nets() -> None:
    """The still takes the net over the rail (another colour than over the felt) for a thing
    too large for a piece, a 'hand': a part of the hands' mask within a goal is left to the
    ball's search there; a hand that reaches in from beyond the goal is kept whole."""
    goals = np.zeros((40, 60), np.uint8)
    goals[10:30, 40:60] = 1
    hands = np.zeros((20, 30), bool)  # the coarse grid, half the goals' resolution
    hands[6:10, 21:29] = True  # within the goal
    hands[0:4, 0:8] = True  # far from it
    hands[12:16, 14:24] = True  # reaching into the goal from the field
    kept = _beyond_goals(goals, hands)
    assert not kept[6:10, 21:29].any()
    assert kept[0:4, 0:8].all() and kept[12:16, 14:24].all()


@pytest.mark.parametrize("seed", [1347, 1716])
def test_a_ball_behind_its_goalkeeper_on_bench_stills(seed: int) -> None:
    """``bench_detect``'s stills 1347 and 1716: the ball just behind the line beside its
    goalkeeper's box (2% under it) and the crossbar. With the box's pixels grown and left out,
    most of the ball's were too (28 of the 49 about 1347's centre); with the box modelled in
    front, as the ordinary search does, fits 0.1-0.2 mm off scored 0.74 and 0.77, but beside
    the net's mouth, taken for one of the net's edges (where a ball must score 0.85): the
    mouth is the posts, the bar and the goal line, which the search leaves out as they are."""
    det, ball = bench_still(seed)
    found = det.xy_mm[det.kind == "ball"]
    assert len(found) == 1 and np.hypot(*(found[0] - ball)) < 0.5, (found, ball)


@pytest.mark.parametrize("seed", [199, 271])
def test_a_goalkeepers_end_is_no_ball_at_the_goals_mouth(seed: int) -> None:
    """Failure rows: two random stills without a ball (``benchmarks.bench_still_balls``'s
    scenes 199 and 271) whose goalkeeper's box was fitted 6 mm off along its length; the end
    of its top the fit left out, just behind the goal line, was the goal search's ball. No
    peak is taken within a few mm of a box's ends."""
    det, _ = detect_scene(seed, False)
    assert not (det.kind == "ball").any(), det.xy_mm[det.kind == "ball"]
