"""A ball at rest on a painted line is found when its pixels leave the coarse search no blob
(vision/ball_lines.py; issues 5 and 6).

A throw-in is taken from the touchline (000 REGRA 12, "cobrança de lateral"): the ball is put
on the line where it went out. On a camera that sees the far touchline at under half a pixel a
millimetre the ball is 4-5 pixels across, the line 2, and the coarse samples that fall on the
ball may all land on its part over the line, under the lines' raised threshold: nacional seed
45's ten minutes lost the ball on the line for 57 and 53 frames (5878-5934, 9129-9181) and
with it two throw-ins' kicks.

Here a video's detector sees the ball at rest on the felt, then the ball is carried (out of
sight) and set down on a line and left there; then on another. The ten-minute clips' camera
and style (the "tilted" preset at 1920 x 1080, the simulator's default green felt and white
ball: the far touchline at 0.41 px/mm) with the ball at four places along the far touchline,
where the coarse search lost it on one or two places a seed; and random cameras, felts and
balls (cream, orange) with places on the touchlines and a penalty area's front, which it found.
Every frame from the third after the ball was set down must report it within 2 mm of where it
lies (a fit on a line lies up to 1.6 mm off across it, the coarse search's as this one's). The
failure rows: the ball picked up and gone (a button resting across the halfway line, the
goalkeepers on theirs): nothing reported on the lines, nor anywhere.
Known limit, not a row: random camera seed 45's far touchline, whose fits there explain
0.4-0.67 of their pixels (under this search's 0.7); both codes lose the ball there.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pytest
from numpy.typing import NDArray

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import _style
from calibration.camera import preset_camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from rules.rulesets import get_ruleset
from simulator.designs import RenderStyle
from simulator.state import FrameTruth
from tests.vision.clips import decoded_clip, keepers_four_and_ball
from vision.detect import Detector

RULES = "nacional"  # its ball a 10 mm disc 2 mm tall, as on nacional seed 45's table
TABLE = load_table(get_ruleset(RULES).table)
SIZES = get_ruleset(RULES).pieces
HL, HW, LW = TABLE.half_length, TABLE.half_width, TABLE.line_width
HOME = (250.0, -150.0)  # the ball at rest on the felt while its colour is learned
AWAY = (0.0, 5000.0)  # the ball picked up: far beyond the table, out of sight
# frames: the table learned, the ball at home, carried (out of sight), at rest on each line
LEARN, SEEN, CARRIED, STAY = 6, 6, 4, 6
GRACE = 2  # frames after the ball is set down that may miss it (one search every 3 frames)
# a fit on a line lies up to 1.6 mm off across it (the line's edge pulls it: the coarse
# search's finds on the lines too)
NEAR_MM = 2.0
ON_LINE = HW - LW / 2.0  # the touchlines' centre lines (|y|)
DEPTH = TABLE.penalty_area.depth
PLACES = {
    **{f"far touchline {x:+.0f}": (x, ON_LINE) for x in np.arange(-830.0, 840.0, 151.0)},
    "far touchline": (-120.0, ON_LINE),
    "near touchline": (330.0, -ON_LINE),
    "goal line": (HL - LW / 2.0, 420.0),
    "halfway line": (0.0, 310.0),
    "penalty area": (-HL + DEPTH - LW / 2.0, -90.0),
}
BALLS: dict[str, tuple[int, int, int]] = {
    "white": (235, 240, 245),
    "cream": (170, 225, 240),
    "orange": (40, 140, 245),
}


def _pieces(ball_xy: tuple[float, float] | None) -> Pieces:
    """The goalkeepers, four buttons (A2 resting across the halfway line) and the ball at
    ``ball_xy`` (None: picked up, out of the camera's sight), of the rule set's sizes."""
    assert SIZES is not None
    xy = [(-HL + 10.0, 0.0), (HL - 10.0, 0.0), (0.0, -300.0), (-500.0, 250.0), (450.0, 200.0)]
    p = keepers_four_and_ball([*xy, (-300.0, -350.0), ball_xy or AWAY])
    keeper, button = (SIZES.goalkeeper_length, SIZES.goalkeeper_width), SIZES.button_diameter
    size = [keeper] * 2 + [(button, button)] * 4 + [(SIZES.ball_diameter,) * 2]
    height = [SIZES.goalkeeper_height] * 2 + [SIZES.button_height] * 4 + [SIZES.ball_height]
    return replace(p, size_mm=np.array(size, float), height_mm=np.array(height, float))


def _frames(places: list[str], gone: bool) -> list[FrameTruth]:
    """The table learned without the ball, the ball at :data:`HOME`, then carried to each
    place in turn and left there (``gone``: picked up instead, for as long)."""
    where: list[tuple[float, float] | None] = [None] * LEARN + [HOME] * SEEN
    for name in places:
        where += [None] * CARRIED + [None if gone else PLACES[name]] * STAY
    out = []
    for k, xy in enumerate(where):
        p = _pieces(xy)
        n = len(p)
        out.append(FrameTruth(k, k / 30.0, p, np.zeros((n, 2)), np.zeros(n, bool)))
    return out


@functools.cache
def _reported(
    seed: int, ball: str, places: tuple[str, ...], gone: bool, camera: str = "random"
) -> list[NDArray[np.float64] | None]:
    """The ball each frame after the table was learned reported (None: no ball). ``camera``:
    a random one, or the ten-minute clips' ("tilted": the far touchline at 0.41 px/mm)."""
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, TABLE, (1920, 1080))[0]
    if camera == "tilted":
        cam = preset_camera("tilted", TABLE, (1920, 1080))
    style = replace(_style(rng)[0], ball_bgr=BALLS[ball])
    if camera == "tilted":  # and their style: the simulator's default (a green felt)
        style = RenderStyle(ball_bgr=BALLS[ball], seed=seed)
    images = decoded_clip(_frames(list(places), gone), TABLE, cam, 30.0, style, seed=seed)
    det = Detector(cam, TABLE, RULES)
    det.learn_background(images[:LEARN])
    out: list[NDArray[np.float64] | None] = []
    for k in range(LEARN, len(images)):
        d = det.detect(images[k], k, k / 30.0)
        b = np.flatnonzero(d.kind == "ball")
        out.append(d.xy_mm[b[0]] if len(b) else None)
    return out


# (seed, ball, camera, places); the comments say what the code before vision/ball_lines.py
# reported (of the 4 frames a place after the grace)
FAR = ("far touchline -830", "far touchline -75", "far touchline +76", "far touchline +831")
ROWS = [
    (1, "white", "tilted", FAR),  # +831 lost on every frame
    (2, "white", "tilted", FAR),  # +831 lost on every frame
    (3, "white", "tilted", FAR),  # +76 and +831 lost on every frame
    (3, "white", "random", ("near touchline", "penalty area", "far touchline")),  # found
    (17, "orange", "random", ("penalty area", "far touchline", "near touchline")),  # found
]


@pytest.mark.parametrize(("seed", "ball", "camera", "places"), ROWS)
def test_a_ball_set_down_on_a_line_is_found_where_it_lies(
    seed: int, ball: str, camera: str, places: tuple[str, ...]
) -> None:
    reported = _reported(seed, ball, places, False, camera)
    home = reported[:SEEN]
    assert all(xy is not None and np.hypot(*(xy - HOME)) < 1.0 for xy in home), home
    wrong = []
    for i, name in enumerate(places):
        at = SEEN + i * (CARRIED + STAY) + CARRIED
        for j, xy in enumerate(reported[at + GRACE : at + STAY], start=GRACE):
            off = None if xy is None else float(np.hypot(*(xy - PLACES[name])))
            if off is None or off > NEAR_MM:
                wrong.append((name, j, None if off is None else round(off, 1)))
    assert not wrong, f"frames without the ball where it lies (place, frame, mm off): {wrong}"


@pytest.mark.parametrize(("seed", "ball", "camera", "places"), [ROWS[2], ROWS[3]])
def test_the_lines_show_no_ball_once_it_is_picked_up(
    seed: int, ball: str, camera: str, places: tuple[str, ...]
) -> None:
    reported = _reported(seed, ball, places, True, camera)
    after = reported[SEEN:]
    shown = [(k, np.round(xy, 1).tolist()) for k, xy in enumerate(after) if xy is not None]
    assert not shown, f"a ball reported once it was gone (frame, mm): {shown}"
