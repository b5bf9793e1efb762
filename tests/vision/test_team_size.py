"""A team's button size, measured on a still (vision/team_search.py ``team_sizes``).

The fits read a button wide: JPEG (as a webcam's MJPEG or H.264) keeps the colour at half the
resolution, and a hue's edge blurs outward (an orange team on green felt came out 63 mm for
60 mm buttons). No rule text allows a button over 60 mm (000 Art. 4: "medidas máximas de 6 cm
de diâmetro"; 000 REGRA 2; 001 Art. VIII "Máxima: Diâmetro 60mm"), so a team's measured size is
at most that; a smaller team keeps its own measure, which the same bias leaves 3-5 mm wide
(50 mm buttons measured 53.2 and 54.6 mm below: not fixed, see benchmarks/RESULTS.md). Kick-off
frames (the teams apart), preset cameras, JPEG; one team's buttons made 50 mm in some rows.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import FIELD_COLOURS, TEAM_DESIGNS, RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.detect import Detector

TABLE = load_table("brasileira")


@pytest.fixture(scope="module")
def kick_off() -> FrameTruth:
    return next(iter(Match(TABLE, "brasileira", seed=5, fps=30).frames(0.1)))


def _sized(frame: FrameTruth, team: str, diameter_mm: float) -> FrameTruth:
    p = frame.pieces
    size = p.size_mm.copy()
    size[(p.kind == "button") & (p.team == team)] = diameter_mm
    return dataclasses.replace(frame, pieces=dataclasses.replace(p, size_mm=size))


@pytest.mark.parametrize(
    ("designs", "felt", "preset", "b_mm", "jpeg"),
    [
        (("orange", "white"), "green", "tilted", 60.0, 85),
        (("yellow", "black"), "blue", "overhead", 60.0, 85),
        (("red", "blue"), "green", "tilted", 60.0, 90),
        (("orange", "white"), "green", "tilted", 50.0, 85),
        (("blue", "yellow"), "dark_green", "wide", 50.0, 80),
    ],
)
def test_a_team_is_measured_no_larger_than_a_legal_button(
    kick_off: FrameTruth,
    designs: tuple[str, str],
    felt: str,
    preset: str,
    b_mm: float,
    jpeg: int,
) -> None:
    frame = _sized(kick_off, "B", b_mm)
    style = RenderStyle(
        teams={"A": TEAM_DESIGNS[designs[0]], "B": TEAM_DESIGNS[designs[1]]},
        field_bgr=FIELD_COLOURS[felt],
        jpeg_quality=jpeg,
        noise_sigma=3.0,
    )
    cam = preset_camera(preset, TABLE, (1920, 1080))
    img = Renderer(TABLE, cam, style, rng=7).render(frame)
    det = Detector(cam, TABLE)
    found = det.detect(img)
    p = frame.pieces
    ti, di = np.flatnonzero(p.kind == "button"), np.flatnonzero(found.kind == "button")
    cost = np.linalg.norm(p.xy_mm[ti][:, None] - found.xy_mm[di][None], axis=2)
    a, b = linear_sum_assignment(cost)
    assert len(a) == len(ti) and cost[a, b].max() < 2.0
    for team, true_mm in (("A", 60.0), ("B", b_mm)):
        mine = found.team[di[b]][p.team[ti[a]] == team]
        assert len(set(mine.tolist())) == 1, mine  # each true team one detected team
        measured = det.team_diameter[str(mine[0])]
        if true_mm == 60.0:
            assert 59.0 <= measured <= 60.0, (team, measured)
        else:  # its own measure, bias and all (53.2 and 54.6 mm here), not the cap
            assert true_mm - 1.0 <= measured <= true_mm + 5.0, (team, measured)
    assert float(np.median(cost[a, b])) < 0.5
