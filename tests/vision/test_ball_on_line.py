"""A white ball put on a painted line is found (issues 5 and 6).

A throw-in is taken from the touchline (000 REGRA 12, "cobrança de lateral": the ball on the
line where it went out): a white ball lies on the white line, 27-31 levels from the line's
colour where the felt beside it is a hundred and more away. The search scored a fit against
the table under the ball's centre, the line's white, so a fit that explained 0.96 of its pixels
scored 0.31, under the 0.35 a ball needs, and the ball was lost as long as it lay there
(nacional seed 35's ten minutes, frames 16076-16116 of the twenty-eighth stop's render: the
throw-in's kick lost with it). A fit seen whole that explains its pixels is now judged against
the felt beside the line.

Two rigs (a tilted camera on a green felt, an overhead one on a blue felt); the ball at eight
places on the touchlines, each on four frames of a learned video. The failure row: the lines
alone, no ball: nothing reported on them. Not yet so: the tilted rig's ball on the halfway line
450 mm from the centre leaves the search no blob at all (a different miss: no fit is tried).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pytest

from calibration.camera import preset_camera
from simulator.designs import FIELD_COLOURS
from simulator.render import Renderer, RenderStyle
from tests.vision.test_hand_ball import TABLE, _frame, _pieces
from vision.detect import Detector

HW = TABLE.half_width
PLACES = [(x, s * HW) for x in (-300.0, -100.0, 100.0, 300.0) for s in (-1.0, 1.0)]


@functools.cache
def _rig(name: str) -> tuple[Renderer, Detector]:
    """A learned detector that has watched the table (no ball on a line) for a few frames."""
    cam, style = {
        "tilted": (preset_camera("tilted", TABLE, (1280, 720)), RenderStyle(jpeg_quality=88)),
        "overhead": (
            preset_camera("overhead", TABLE, (1280, 720)),
            RenderStyle(field_bgr=FIELD_COLOURS["blue"], jpeg_quality=80, seed=3),
        ),
    }[name]
    r = Renderer(TABLE, cam, style, rng=5)
    det = Detector(cam, TABLE)
    det.learn_background([r.render(_frame(k, _pieces())) for k in range(3)])
    for k in range(3, 10):
        det.detect(r.render(_frame(k, _pieces())), k, k / 30.0)
    return r, det


def _found_on(name: str, ball: bool) -> list[float]:
    """For each place, over four frames: the distance (mm) from the place to the nearest ball
    reported (inf when none is)."""
    r, det = _rig(name)
    out = []
    for i, xy in enumerate(PLACES):
        p = _pieces(ball=True)
        where = p.xy_mm.copy()
        where[-1] = xy
        p = replace(p, xy_mm=where)
        if not ball:
            p = p.select(p.kind != "ball")
        for j in range(4):
            k = 100 + 10 * i + j
            found = det.detect(r.render(_frame(k, p)), k, k / 30.0)
            b = found.xy_mm[found.kind == "ball"]
            out.append(float(np.hypot(*(b - xy).T).min()) if len(b) else np.inf)
    return out


@pytest.mark.parametrize("name", ["tilted", "overhead"])
def test_a_white_ball_on_a_line_is_found_where_it_lies(name: str) -> None:
    """Before, the tilted rig lost the ball on one of the eight touchline places on all four
    frames (28 of 32 found); now every frame finds it within 1 mm."""
    dist = _found_on(name, ball=True)
    assert all(d < 1.0 for d in dist), np.round(dist, 2).tolist()


@pytest.mark.parametrize("name", ["tilted", "overhead"])
def test_the_lines_alone_show_no_ball(name: str) -> None:
    dist = _found_on(name, ball=False)
    assert all(d > 20.0 for d in dist), np.round(dist, 2).tolist()
