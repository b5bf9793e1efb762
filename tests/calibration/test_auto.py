"""Automatic calibration from the field markings (issue 4, deliverables 2 and 4).

A handful of seeded renders (the 200-camera acceptance run is ``benchmarks/bench_calibration``):
the fitted camera must bring table points back within the acceptance figures (median 0.3 mm,
95th percentile 0.6 mm over the whole field), the focal length within 1 % even from straight
above (where only the crossbars show it); pictures that cannot be calibrated must say why.
"""

from __future__ import annotations

import math
from functools import cache

import cv2
import numpy as np
import pytest

from benchmarks.bench_calibration import field_error_mm, random_camera, random_case, tilt_deg
from calibration.auto import RIGHT_GOAL_SIDES, _orient, calibrate_frames, calibrate_image
from calibration.camera import Camera, load_camera
from calibration.debug import draw_calibration
from geometry.tablespec import TableSpec, load_table
from simulator.designs import FIELD_COLOURS, RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth

BRASILEIRA = load_table("brasileira")


@cache
def _frames(table_name: str) -> tuple[FrameTruth, ...]:
    return tuple(Match(load_table(table_name), "brasileira", seed=2, fps=10).frames(3.0))


@cache
def _scene(
    seed: int, size: tuple[int, int], table_name: str = "brasileira", felt: str = "green"
) -> tuple[Camera, np.ndarray, TableSpec]:
    """A seeded camera (acceptance ranges) over a match frame with a hand; noise and JPEG."""
    table = load_table(table_name)
    rng = np.random.default_rng(seed)
    cam, _, _ = random_camera(rng, table, size)
    style = RenderStyle(field_bgr=FIELD_COLOURS[felt], noise_sigma=3.0, jpeg_quality=85, seed=seed)
    frame = _frames(table_name)[5]  # a hand over the table
    assert frame.hands
    return cam, Renderer(table, cam, style, rng=seed).render(frame), table


@cache
def _calibrated(
    seed: int, size: tuple[int, int], table_name: str = "brasileira", felt: str = "green"
):  # type: ignore[no-untyped-def]
    true, image, table = _scene(seed, size, table_name, felt)
    return true, image, table, calibrate_image(image, table)


CASES = [(3, (1280, 720), "brasileira", "green"), (8, (1280, 720), "gaucha-min", "blue")]


@pytest.mark.parametrize(("seed", "size", "table_name", "felt"), CASES)
def test_calibrates_to_the_acceptance_figures(
    seed: int, size: tuple[int, int], table_name: str, felt: str, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    true, _, table, result = _calibrated(seed, size, table_name, felt)
    assert result.ok, result.reason
    cam = result.camera
    assert cam is not None
    err = field_error_mm(cam, true, table)
    assert np.median(err) <= 0.3
    assert np.percentile(err, 95) <= 0.6
    # (Seed 3 looks down 0.8 deg from the vertical: the crossbars' parallax sets the focal.)
    assert cam.K[0, 0] == pytest.approx(true.K[0, 0], rel=0.01)
    # Quality figures, also in the camera/1 document.
    assert 0 < result.rms_px < 0.6
    assert 0 < result.rms_mm < 1.0
    assert result.found_share > 0.8
    assert {"boundary", "halfway", "center_circle"} <= set(result.markings_used)
    assert set(result.per_marking_px) >= set(result.markings_used)
    path = tmp_path / "camera.json"
    cam.save(path)
    back = load_camera(path)
    assert back.rms_px == pytest.approx(result.rms_px)
    assert back.rms_mm == pytest.approx(result.rms_mm)
    assert back.markings_used == result.markings_used
    assert back.right_goal_image_side == "right"


@pytest.mark.parametrize(
    ("seed", "size", "table_name", "felt"),
    [(1, (1280, 720), "brasileira", "green"), (2, (1600, 900), "gaucha-min", "light")],
)
def test_focal_length_from_nearly_straight_above(
    seed: int, size: tuple[int, int], table_name: str, felt: str
) -> None:
    """Tilt under 5 deg: the painted plane shows focal length / distance only, the crossbars'
    parallax (40-49 mm up) the rest; a tenth of a pixel of bias across a bar is about 1%.
    Pieces (the goalkeepers against the goal line) and a hand are in the picture."""
    table = load_table(table_name)
    rng = np.random.default_rng(seed)
    true, tilt, _ = random_camera(rng, table, size, max_tilt_deg=5.0)
    assert tilt < 5.0
    style = RenderStyle(field_bgr=FIELD_COLOURS[felt], noise_sigma=3.0, jpeg_quality=85, seed=seed)
    frame = _frames(table_name)[5]
    image = Renderer(table, true, style, rng=seed).render(frame)
    result = calibrate_image(image, table)
    assert result.ok, result.reason
    assert result.camera is not None
    assert result.camera.K[0, 0] == pytest.approx(true.K[0, 0], rel=0.01)
    assert np.median(field_error_mm(result.camera, true, table)) <= 0.3


@pytest.mark.parametrize("seed", [5012, 5021])
def test_focal_length_near_overhead_benchmark_pictures(seed: int) -> None:
    """Two of the benchmark's pictures at tilt under 5 deg (1600x900 nacional, 1920x1080
    brasileira; pieces, blur, noise, JPEG) whose focal length was off by -0.74% and -1.59%
    when the paint's line points on the crossbars (centred toward the net) counted as the
    crossbars' own."""
    case = random_case(seed, max_tilt_deg=8.0)
    assert tilt_deg(case.camera) < 5.0
    result = calibrate_image(case.image, case.table)
    assert result.ok, result.reason
    assert result.camera is not None
    assert result.camera.K[0, 0] == pytest.approx(case.camera.K[0, 0], rel=0.01)


def test_right_goal_hint_and_symmetry() -> None:
    _, image, table, default = _calibrated(3, (1280, 720))
    goals = np.array([[-table.half_length, 0.0, 0.0], [table.half_length, 0.0, 0.0]])
    assert default.ok and default.camera is not None
    uv = default.camera(goals)
    assert uv[1, 0] > uv[0, 0]  # +x goal on the image's right by default
    flipped = calibrate_image(image, table, right_goal="left")
    assert flipped.ok and flipped.camera is not None
    assert flipped.camera.right_goal_image_side == "left"
    uv2 = flipped.camera(goals)
    np.testing.assert_allclose(uv2[::-1], uv, atol=0.5)  # the same picture, the frame turned
    # A portrait view (the picture turned a quarter): the long axis runs down the image.
    portrait = np.ascontiguousarray(np.rot90(image))
    down = calibrate_image(portrait, table)
    assert down.ok, down.reason
    assert down.camera is not None and down.camera.right_goal_image_side == "down"
    up = _orient(down.camera, table, "up")  # what right_goal="up" does after the fit
    assert up.right_goal_image_side == "up"
    assert up.to_dict()["right_goal_image_side"] == "up"
    np.testing.assert_allclose(up(goals)[::-1], down.camera(goals), atol=1e-6)
    assert set(RIGHT_GOAL_SIDES) == {"left", "right", "up", "down"}
    bad = calibrate_image(image, table, right_goal="north")
    assert not bad.ok and "right_goal" in bad.reason


def test_off_centre_principal_point() -> None:
    """A cropped picture: the lens's centre is 120 px left of the picture's (a webcam's sensor
    is never centred exactly); the principal point is fitted, not assumed."""
    true, image, table = _scene(3, (1280, 720))
    crop = 120
    k = true.K.copy()
    k[0, 2] -= crop
    shifted = Camera((1280 - crop, 720), k, true.dist, true.rvec, true.tvec)
    result = calibrate_image(np.ascontiguousarray(image[:, crop:]), table)
    assert result.ok, result.reason
    assert result.camera is not None
    assert np.median(field_error_mm(result.camera, shifted, table)) <= 0.3
    assert abs(result.camera.K[0, 2] - k[0, 2]) < 5.0


def test_frames_median_removes_hands() -> None:
    table = BRASILEIRA
    rng = np.random.default_rng(21)
    true, _, _ = random_camera(rng, table, (1280, 720))
    renderer = Renderer(table, true, RenderStyle(seed=21), rng=21)
    frames = [renderer.render(f) for f in _frames("brasileira")[2:7]]  # hands come and go
    result = calibrate_frames(iter(frames), table, max_frames=5, step=1)
    assert result.ok, result.reason
    assert result.camera is not None
    assert np.median(field_error_mm(result.camera, true, table)) <= 0.3
    assert not calibrate_frames(iter([]), table).ok


def test_intrinsics_fix_focal_and_distortion() -> None:
    true, image, table = _scene(3, (1280, 720))
    result = calibrate_image(image, table, intrinsics=true)
    assert result.ok, result.reason
    assert result.camera is not None
    np.testing.assert_allclose(result.camera.K, true.K)
    np.testing.assert_allclose(result.camera.dist, true.dist)
    assert np.median(field_error_mm(result.camera, true, table)) <= 0.3
    other = Camera.look_at((0, 0, 1500), (0, 0, 0), 60.0, (640, 480))
    wrong_size = calibrate_image(image, table, intrinsics=other)
    assert not wrong_size.ok and "640x480" in wrong_size.reason


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("black", "too dark (median grey 0)"),
        ("noise", ""),
        ("plain", "no markings found"),
        ("cut_off", "field cut off at the image's left edge"),
        ("wrong_table", "table 'gaucha-min'"),
        ("tiny", "too small"),
        ("not_an_image", "not an image"),
    ],
)
def test_failures_say_why(name: str, reason: str) -> None:
    rng = np.random.default_rng(5)
    table = BRASILEIRA
    if name == "black":
        image = np.zeros((720, 1280, 3), np.uint8)
    elif name == "noise":
        image = rng.integers(0, 256, (720, 1280, 3)).astype(np.uint8)
    elif name == "plain":
        image = np.full((720, 1280, 3), FIELD_COLOURS["green"], np.uint8)
    elif name == "tiny":
        image = np.full((40, 60, 3), 128, np.uint8)
    elif name == "not_an_image":
        image = np.zeros((720, 1280, 4), np.uint8)
    else:
        _, image, _ = _scene(3, (1280, 720))
        if name == "cut_off":  # the left 15 % of the picture is missing
            image = np.ascontiguousarray(image[:, 190:])
        else:
            table = load_table("gaucha-min")
    result = calibrate_image(image, table)
    assert not result.ok
    assert result.camera is None
    assert math.isnan(result.rms_px)
    assert reason in result.reason
    assert result.reason and "\n" not in result.reason
    drawn = draw_calibration(
        image if image.ndim == 3 and image.shape[2] == 3 else np.zeros((720, 1280, 3), np.uint8),
        table,
        result,
    )
    assert drawn.dtype == np.uint8 and drawn.ndim == 3


def test_debug_picture_draws_the_fit() -> None:
    _, image, table, result = _calibrated(3, (1280, 720))
    drawn = draw_calibration(image, table, result)
    assert drawn.shape == image.shape and drawn.dtype == np.uint8
    changed = np.any(drawn != image, axis=2)
    # The model's curves are drawn along the markings: most of their length, green.
    green = (drawn[:, :, 1] > 200) & (drawn[:, :, 2] < 100) & (drawn[:, :, 0] < 100)
    assert changed.mean() > 0.01
    assert green.sum() > 2000
    assert cv2.imencode(".png", drawn)[0]
