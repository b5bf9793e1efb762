"""Goalkeepers on stills (issue 5: found on every still, never invented, footprint <= 1 mm).

Situations that once lost or misplaced a goalkeeper on the benchmark's stills:

- on its goal line, the goal's white crossbar beside it (a still's model of the table has the
  net's colour only): the bar the box cannot explain made true fits explain 0% of their pixels;
- a striped box whose dark stripe is as dark as the felt: the coverage level taken low on the
  top face counted the blurred edges as covered and bloated the box;
- a white box on a pale felt over the pale net: its foreground falls apart into blobs each too
  small to be searched;
- off its line, anywhere in its penalty area, at any angle (000, "O goleiro na grande área");
- a box fitted to the felt's own shading (a top no different from the felt) is no goalkeeper.

Seeded renders with the true camera; footprint errors in table mm.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.camera import Camera, preset_camera
from geometry.tablespec import load_table
from simulator.designs import FIELD_COLOURS, TEAM_DESIGNS, RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth
from tests.scenes import still_truth
from vision.background import Background
from vision.detect import Detector
from vision.solids import fit_keeper

TABLE = load_table("brasileira")
HL = TABLE.half_length


def _frame(keepers: list[tuple[float, float, float]]) -> FrameTruth:
    """Two goalkeepers (x, y, angle), four buttons and the ball."""
    xy = [k[:2] for k in keepers] + [(-500.0, 200.0), (-300.0, -250.0), (350.0, 220.0)]
    xy += [(600.0, -150.0), (0.0, 300.0)]
    n = len(xy)
    kind = ["goalkeeper"] * 2 + ["button"] * 4 + ["ball"]
    team = ["A", "B", "A", "A", "B", "B", ""]
    size = [[70, 15]] * 2 + [[50, 50]] * 4 + [[10, 10]]
    height = [35] * 2 + [8] * 4 + [10]
    angle = [k[2] for k in keepers] + [0.0] * (n - 2)
    ids = ["A1", "B1", "A2", "A3", "B2", "B3", "ball"]
    return still_truth(ids, team, kind, xy, size, angle, height)


def _keeper_errors(frame: FrameTruth, cam: Camera, style: RenderStyle, seed: int) -> list[float]:
    """Each true goalkeeper's distance (mm) to the nearest one detected; the count of
    goalkeepers detected must equal the truth's."""
    img = Renderer(TABLE, cam, style, rng=seed).render(frame)
    det = Detector(cam, TABLE).detect(img)
    found = det.xy_mm[det.kind == "goalkeeper"]
    p = frame.pieces
    truth = p.xy_mm[p.kind == "goalkeeper"]
    assert len(found) == len(truth), found
    return [float(np.hypot(*(found - t).T).min()) for t in truth]


def _tilted_from_goal_side() -> Camera:
    """A camera beside the right goal, seeing the boxes on their lines under the crossbars."""
    return Camera.look_at((300.0, -900.0, 1700.0), (0.0, 0.0, 0.0), 70.0, (1920, 1080))


@pytest.mark.parametrize("preset", ["tilted", "goal_side"])
def test_striped_keepers_on_their_lines_beside_the_crossbars(preset: str) -> None:
    """Yellow boxes with dark stripes on a blue felt, on their goal lines (one off the goal's
    centre): both found within 1 mm."""
    cam = (
        preset_camera("tilted", TABLE, (1920, 1080))
        if preset == "tilted"
        else _tilted_from_goal_side()
    )
    style = RenderStyle(
        teams={"A": TEAM_DESIGNS["yellow"], "B": TEAM_DESIGNS["yellow"]},
        field_bgr=FIELD_COLOURS["blue"],
        noise_sigma=3.0,
        jpeg_quality=80,
        seed=5,
    )
    frame = _frame([(-HL + 8.5, 0.0, math.pi / 2), (HL - 8.5, -19.5, math.pi / 2)])
    errors = _keeper_errors(frame, cam, style, seed=51)
    assert max(errors) < 1.0, errors


def test_white_keepers_on_a_pale_felt() -> None:
    """White boxes on the pale felt, in front of the pale nets: both found within 1.5 mm."""
    style = RenderStyle.hard_pair("white_on_light", noise_sigma=4.0, jpeg_quality=80, seed=6)
    frame = _frame([(-HL + 8.5, 0.0, math.pi / 2), (HL - 8.5, 0.0, math.pi / 2)])
    errors = _keeper_errors(frame, preset_camera("tilted", TABLE, (1920, 1080)), style, seed=61)
    assert max(errors) < 1.5, errors


def test_keepers_off_their_lines_at_an_angle() -> None:
    """Goalkeepers placed in their penalty areas, turned: found within 1 mm."""
    style = RenderStyle(
        teams={"A": TEAM_DESIGNS["red"], "B": TEAM_DESIGNS["blue"]},
        field_bgr=FIELD_COLOURS["green"],
        noise_sigma=3.0,
        jpeg_quality=85,
        seed=7,
    )
    frame = _frame([(-880.0, 120.0, 0.6), (820.0, -200.0, 2.3)])
    errors = _keeper_errors(frame, preset_camera("tilted", TABLE, (1920, 1080)), style, seed=71)
    assert max(errors) < 1.0, errors


def test_no_keeper_fitted_to_the_felts_shading() -> None:
    """A faint long smudge on the pale felt (the felt's model's own error, 12 grey levels): no
    goalkeeper, though the fit is asked to accept anything; a real box there is found."""
    cam = preset_camera("overhead", TABLE, (1920, 1080))
    style = RenderStyle.hard_pair("white_on_light", noise_sigma=3.0, jpeg_quality=85, seed=8)
    renderer = Renderer(TABLE, cam, style, rng=81)
    far = [(-500.0, 200.0, 0.0), (500.0, -200.0, 0.0)]
    empty = renderer.render(_frame(far))  # the goalkeepers far away: nothing near (850, 120)
    xy = np.array([850.0, 120.0])
    corners = np.array([[-35, -7.5], [35, -7.5], [35, 7.5], [-35, 7.5]], float) + xy
    uv = cam.table_to_image(np.column_stack([corners, np.zeros(4)]))
    smudge = empty.astype(np.int16)
    mask = np.zeros(empty.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(uv).astype(np.int32)], 1)
    smudge[mask > 0] -= 12
    smudge_img = np.clip(smudge, 0, 255).astype(np.uint8)
    bg = Background(cam, TABLE)
    none = np.zeros(empty.shape[:2], bool)

    def fit(image: np.ndarray) -> object:
        return fit_keeper(
            cam,
            image,
            bg.still(image),
            (xy, 0.0),
            (70.0, 15.0),
            35.0,
            none,
            HL,
            lambda g: True,
        )

    assert fit(smudge_img) is None
    real = renderer.render(_frame([(-500.0, 200.0, 0.0), (850.0, 120.0, 0.0)]))
    g = fit(real)
    assert g is not None and float(np.hypot(*(g.p[:2] - xy))) < 1.0  # type: ignore[attr-defined]
