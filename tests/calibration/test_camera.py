"""The camera model: round trips, agreement with OpenCV, presets, camera/1 documents."""

from __future__ import annotations

import itertools
import json
import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.camera import (
    CAMERA_PRESETS,
    Camera,
    CameraError,
    load_camera,
    preset_camera,
    rodrigues,
)
from geometry.tablespec import load_table

TABLE = load_table("brasileira")
SIZES = [(1280, 720), (720, 1280), (1000, 1000), (1920, 1080)]


def _cameras() -> list[tuple[str, Camera]]:
    out = [
        (f"{n}-{w}x{h}", preset_camera(n, TABLE, (w, h)))
        for n in CAMERA_PRESETS
        for (w, h) in SIZES[:2]
    ]
    rng = np.random.default_rng(7)
    for k in range(3):  # seeded random poses: tilted up to 30 deg, off-centre, full distortion
        tilt = math.radians(rng.uniform(0.0, 30.0))
        az = rng.uniform(0.0, 2.0 * np.pi)
        target = np.array([rng.uniform(-300, 300), rng.uniform(-200, 200), 0.0])
        pos = target + 1800.0 * np.array(
            [math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)]
        )
        dist = [
            rng.uniform(-0.25, 0.05),
            rng.uniform(-0.05, 0.05),
            rng.uniform(-2e-3, 2e-3),
            rng.uniform(-2e-3, 2e-3),
            0.0,
        ]
        cam = Camera.look_at(pos, target, 70.0, (1280 - 200 * k, 720 + 100 * k), dist=dist)
        out.append((f"random-{k}", cam))
    return out


CAMERAS = _cameras()


def _table_points(n: int, seed: int, z_mm: float | None = None) -> np.ndarray:
    rng = np.random.default_rng(seed)
    z = rng.choice([0.0, 5.0, 10.0, 35.0], n) if z_mm is None else np.full(n, z_mm)
    return np.column_stack([rng.uniform(-1000, 1000, n), rng.uniform(-700, 700, n), z])


@pytest.mark.parametrize(("name", "cam"), CAMERAS, ids=[c[0] for c in CAMERAS])
def test_matches_opencv_project_points(name: str, cam: Camera) -> None:
    pts = _table_points(500, 1)
    ref, _ = cv2.projectPoints(pts, cam.rvec, cam.tvec, cam.K, cam.dist)
    np.testing.assert_allclose(cam(pts), ref[:, 0], atol=1e-6)
    np.testing.assert_allclose(rodrigues(cam.rvec), cv2.Rodrigues(cam.rvec)[0], atol=1e-12)


def _numpy_projection(cam: Camera, xyz: np.ndarray) -> np.ndarray:
    """The projection in numpy, as the camera did it before it was compiled."""
    pc = cam.to_camera_frame(xyz)
    z = np.where(pc[:, 2] > 1e-9, pc[:, 2], np.nan)
    return cam._to_pixels(cam.distort(pc[:, :2] / z[:, None]))


@pytest.mark.parametrize(("name", "cam"), CAMERAS, ids=[c[0] for c in CAMERAS])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 60])
def test_compiled_projection_is_numpys(name: str, cam: Camera, n: int) -> None:
    # a single point takes another path through the kernel (numpy's matrix-vector order)
    for seed in range(20):
        pts = _table_points(n, seed)
        got = cam(pts)
        assert got.shape == (n, 2)
        np.testing.assert_allclose(got, _numpy_projection(cam, pts), rtol=0, atol=1e-9)
    # other dtypes and plain lists come in as float64 points
    pts = _table_points(3, 99)
    np.testing.assert_array_equal(
        cam(pts.astype(np.float32)), cam(pts.astype(np.float32).astype(float))
    )
    np.testing.assert_array_equal(cam(pts.tolist()), cam(pts))


@pytest.mark.parametrize(("name", "cam"), CAMERAS, ids=[c[0] for c in CAMERAS])
@pytest.mark.parametrize("z_mm", [0.0, 5.0, 10.0, 35.0])
def test_round_trip_at_height(name: str, cam: Camera, z_mm: float) -> None:
    pts = _table_points(400, 2, z_mm)
    uv = cam.table_to_image(pts)
    inside = (
        (uv[:, 0] > 0) & (uv[:, 0] < cam.width - 1) & (uv[:, 1] > 0) & (uv[:, 1] < cam.height - 1)
    )
    assert inside.sum() > 100
    back = cam.image_to_table(uv[inside], z_mm)
    np.testing.assert_allclose(back, pts[inside, :2], atol=1e-6)
    np.testing.assert_allclose(cam.inverse(uv[inside], pts[inside, 2]), back, atol=1e-9)


def test_undistort_matches_opencv() -> None:
    cam = preset_camera("wide", TABLE, (1280, 720))
    uv = cam(_table_points(300, 3))
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 200, 1e-15)
    ref = cv2.undistortPoints(uv[:, None, :], cam.K, cam.dist, criteria=criteria)[:, 0]
    np.testing.assert_allclose(cam.undistort(uv), ref, atol=1e-8)


@settings(max_examples=60, deadline=None)
@given(
    x=st.floats(-1100, 1100),
    y=st.floats(-800, 800),
    z=st.floats(0.0, 40.0),
    preset=st.sampled_from(CAMERA_PRESETS),
)
def test_round_trip_property(x: float, y: float, z: float, preset: str) -> None:
    cam = preset_camera(preset, TABLE, (960, 1280))
    uv = cam(np.array([[x, y, z]]))
    np.testing.assert_allclose(cam.inverse(uv, z)[0], [x, y], atol=1e-6)
    np.testing.assert_allclose(cam.residuals(np.array([[x, y, z]]), uv), 0.0, atol=1e-9)


@pytest.mark.parametrize("preset", CAMERA_PRESETS)
@pytest.mark.parametrize("size", [(1280, 720), (720, 1280)])
def test_presets_orientation_and_fit(preset: str, size: tuple[int, int]) -> None:
    """Far touchline at the top, right goal on the right, the rail box inside the image."""
    cam = preset_camera(preset, TABLE, size)
    w, h = size
    uv = cam(
        np.array([[0.0, 700.0, 0.0], [0.0, -700.0, 0.0], [1000.0, 0.0, 0.0], [-1000.0, 0.0, 0.0]])
    )
    assert uv[0, 1] < uv[1, 1]  # +y (far touchline) above
    assert uv[2, 0] > uv[3, 0]  # +x (right goal) to the right
    assert cam.right_goal_image_side == "right"
    x0, y0, x1, y1 = TABLE.rail_box
    t = np.linspace(0.0, 1.0, 101)[:, None]
    ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    edge = np.concatenate(
        [np.array(a) + t * (np.array(b) - a) for a, b in itertools.pairwise(ring)]
    )
    corners = cam(np.column_stack([edge, np.zeros(len(edge))]))  # the rail, bowed by the lens
    assert (
        (corners >= 0).all() and (corners[:, 0] <= w - 1).all() and (corners[:, 1] <= h - 1).all()
    )
    # The fit is tight: some corner reaches the 4% margin.
    margin = np.minimum(
        np.minimum(corners[:, 0], w - 1 - corners[:, 0]) / (w / 2),
        np.minimum(corners[:, 1], h - 1 - corners[:, 1]) / (h / 2),
    )
    assert margin.min() == pytest.approx(0.04, abs=0.005)


def test_preset_geometry() -> None:
    over = preset_camera("overhead", TABLE)
    np.testing.assert_allclose(over.centre_mm, [0.0, 0.0, 1600.0], atol=1e-9)
    np.testing.assert_allclose(over.R[2], [0.0, 0.0, -1.0], atol=1e-12)  # looks straight down
    tilted = preset_camera("tilted", TABLE, tilt_deg=25.0)
    assert math.degrees(math.acos(-tilted.R[2, 2])) == pytest.approx(25.0, abs=1e-9)
    assert preset_camera("wide", TABLE).dist[0] == -0.2
    with pytest.raises(CameraError, match="preset"):
        preset_camera("fisheye", TABLE)


def test_swapped_axes_show_up_on_non_square_images() -> None:
    cam = preset_camera("overhead", TABLE, (1280, 720))
    uv = cam(np.array([[0.0, 0.0, 0.0]]))[0]
    np.testing.assert_allclose(uv, [639.5, 359.5])  # (u, v) = ((w-1)/2, (h-1)/2), not swapped


def test_json_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cam = preset_camera("tilted", TABLE, (1280, 720))
    path = tmp_path / "camera.json"
    cam.save(path)
    doc = json.loads(path.read_text())
    assert doc["format"] == "camera/1"
    assert set(doc) >= {
        "image_size",
        "K",
        "dist",
        "rvec",
        "tvec",
        "right_goal_image_side",
        "rms_px",
        "rms_mm",
        "markings_used",
    }
    back = load_camera(path)
    pts = _table_points(50, 4)
    np.testing.assert_allclose(back(pts), cam(pts), atol=1e-9)
    assert back.image_size == (1280, 720)


def _doc() -> dict:
    return preset_camera("overhead", TABLE, (640, 480)).to_dict()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("format", "camera/2", "'format'"),
        ("K", [[1, 0, 0], [0, 1, 0]], "'K' expected shape"),
        ("K", [[0, 0, 320], [0, 500, 240], [0, 0, 1]], "'K'"),
        ("dist", [0, 0, 0, 0], "'dist' expected shape"),
        ("rvec", "up", "'rvec'"),
        ("tvec", [0, 0, None], "'tvec'"),
        ("image_size", [640, -1], "'image_size'"),
        ("image_size", [640.5, 480], "'image_size'"),
        ("right_goal_image_side", "top", "'right_goal_image_side'"),
        ("rms_px", "small", "'rms_px'"),
        ("markings_used", "all", "'markings_used'"),
    ],
)
def test_bad_camera_json_names_the_field(field: str, value: object, message: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    doc = _doc()
    doc[field] = value
    path = tmp_path / "camera.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(CameraError, match=message) as err:
        load_camera(path)
    assert str(path) in str(err.value)


def test_missing_field_and_bad_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    doc = _doc()
    del doc["tvec"]
    with pytest.raises(CameraError, match="missing field 'tvec'"):
        Camera.from_dict(doc)
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(CameraError, match="not valid JSON"):
        load_camera(path)
    with pytest.raises(CameraError, match="expected a JSON object"):
        Camera.from_dict([1, 2])


def test_constructor_checks_shapes() -> None:
    with pytest.raises(CameraError, match=r"'K' expected shape \(3, 3\), got \(2, 2\)"):
        Camera((640, 480), np.eye(2))
    with pytest.raises(CameraError, match=r"'dist' expected shape \(5,\), got \(4,\)"):
        Camera((640, 480), np.eye(3), dist=np.zeros(4))
    with pytest.raises(ValueError, match=r"expected shape \(N, 3\)"):
        preset_camera("overhead", TABLE)(np.zeros((4, 2)))


def test_points_behind_camera_are_nan() -> None:
    cam = preset_camera("overhead", TABLE)
    uv = cam(np.array([[0.0, 0.0, 2000.0]]))
    assert np.isnan(uv).all()
    # A ray that never reaches a plane above the camera.
    assert np.isnan(cam.image_to_table(np.array([[10.0, 10.0]]), 1700.0)).all()
