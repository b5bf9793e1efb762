"""The pre-match check: balls on the centre mark and the penalty marks (calibration/check.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.camera import Camera, preset_camera
from calibration.check import MARKS, check_marks
from calibration.debug import draw_check
from geometry.field import FieldModel
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.designs import FIELD_COLOURS, RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth
from tests.calibration.test_drift import random_camera, translated

TABLE = load_table("brasileira")
BALL_MM = (10.0, 10.0)  # the brasileira ball: diameter, height


def three_balls(
    present: tuple[bool, bool, bool] = (True, True, True), table: object = TABLE
) -> FrameTruth:
    """The ball on the centre mark and on both penalty marks (000 REGRA 1 marks)."""
    fm = FieldModel(table)  # type: ignore[arg-type]
    xy = np.array([[0.0, 0.0], fm.penalty_mark("left"), fm.penalty_mark("right")])[list(present)]
    n = len(xy)
    p = Pieces(
        np.array(["ball", "ball2", "ball3"][:n]),
        np.full(n, ""),
        np.full(n, "ball"),
        xy,
        np.full((n, 2), BALL_MM[0]),
        np.zeros(n),
        np.full(n, np.nan),
    )
    return FrameTruth(0, 0.0, p, np.zeros((n, 2)), np.zeros(n, bool))


@pytest.mark.parametrize(
    ("cam", "field"),
    [
        (preset_camera("tilted", TABLE, (1280, 720), tilt_deg=25.0), "green"),
        (random_camera(8, (1280, 720)), "blue"),
        (random_camera(9, (720, 1280)), "green"),  # portrait, 4-5 mm a pixel
        (preset_camera("wide", TABLE, (1920, 1080)), "dark_green"),
    ],
)
def test_balls_on_the_marks_are_found_within_a_fifth_of_a_pixel(cam: Camera, field: str) -> None:
    style = RenderStyle(field_bgr=FIELD_COLOURS[field], jpeg_quality=85, noise_sigma=4.0)
    img = Renderer(TABLE, cam, style).render(three_balls())
    records = check_marks(img, cam, TABLE, 2.0, *BALL_MM)
    assert [r["mark"] for r in records] == [m for m, _ in MARKS]
    assert all(r["ok"] and r["reason"] == "" for r in records), records
    for r in records:  # within a fifth of a pixel (0.1 to 0.5 mm here)
        px_mm = cam.pixel_size_mm(np.array([[*r["expected_mm"], BALL_MM[1] / 2]]))[0]
        assert r["error_mm"] < 0.2 * px_mm
    drawn = draw_check(img, cam, records)
    assert drawn.shape == img.shape and (drawn != img).any()


def test_a_moved_camera_sees_the_balls_off_their_marks() -> None:
    cam = preset_camera("tilted", TABLE, (1280, 720))
    img = Renderer(TABLE, cam, RenderStyle(noise_sigma=3.0)).render(three_balls())
    stale = translated(cam, 4.0, math.radians(30))  # the table pushed 4 mm since
    records = check_marks(img, stale, TABLE, 2.0, *BALL_MM)
    assert not any(r["ok"] for r in records)
    for r in records:
        assert r["error_mm"] == pytest.approx(4.0, abs=0.5)
        assert r["reason"] == f"ball seen {r['error_mm']:.1f} mm off"


def test_a_missing_ball_and_a_bare_mark_say_so() -> None:
    cam = preset_camera("tilted", TABLE, (1280, 720))
    img = Renderer(TABLE, cam, RenderStyle(noise_sigma=3.0)).render(
        three_balls((True, True, False))
    )
    records = check_marks(img, cam, TABLE, 2.0, *BALL_MM)
    assert [r["ok"] for r in records] == [True, True, False]
    assert records[2]["seen_mm"] is None and records[2]["error_mm"] is None
    assert records[2]["reason"].startswith(("no ball found", "only the painted mark"))
    with pytest.raises(ValueError, match="a 640x360 picture for a camera of 1280x720"):
        check_marks(img[::2, ::2], cam, TABLE, 2.0, *BALL_MM)


def test_a_ball_it_cannot_make_out_is_never_a_pass() -> None:
    """A white ball on a pale felt (its shaded limb as bright as the felt): not found, so the
    check refuses; a camera moved by 4 mm must not pass either."""
    cam = random_camera(10, (1920, 1080))
    style = RenderStyle(field_bgr=FIELD_COLOURS["light"], jpeg_quality=85, noise_sigma=4.0)
    img = Renderer(TABLE, cam, style).render(three_balls())
    for camera in (cam, translated(cam, 4.0, 1.0)):
        for r in check_marks(img, camera, TABLE, 2.0, *BALL_MM):
            assert r["ok"] == (r["error_mm"] is not None and r["error_mm"] <= 2.0)
            if camera is not cam:
                assert not r["ok"], r
