"""The estimation core: model curves, cameras from homographies and point pairs, the robust fit."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.camera import Camera
from calibration.estimate import CalibrationResult, fit_camera, from_points, model_curves
from geometry.field import FieldModel
from geometry.tablespec import list_tables, load_table

TABLE = load_table("brasileira")


def _camera(tilt_deg: float, az_deg: float = 30.0, k1: float = -0.1) -> Camera:
    t, a = math.radians(tilt_deg), math.radians(az_deg)
    target = np.array([40.0, -30.0, 0.0])
    pos = target + 2000.0 * np.array(
        [math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t)]
    )
    return Camera.look_at(pos, target, 70.0, (1920, 1080), dist=[k1, 0.0, 0.0, 0.0, 0.0])


@pytest.mark.parametrize("table", list_tables(), ids=lambda t: t.name)
def test_model_curves_are_the_centre_lines_of_the_field_models_strips(table) -> None:  # type: ignore[no-untyped-def]
    """Every sample lies inside its marking's strip, half a line width from both edges
    (except where strips meet), so the fitted curves are where the paint's centre is."""
    curves = model_curves(table, step_mm=2.0)
    strips = FieldModel(table).markings
    lw = table.line_width
    for i, name in enumerate(curves.names):
        xy = curves.xyz_mm[curves.marking == i, :2]
        # (A clipped strip may be a collection with stray lines: keep its polygons.)
        parts = shapely.get_parts(strips[name])
        strip = shapely.union_all([g for g in parts if g.geom_type.endswith("Polygon")])
        assert shapely.contains_xy(strip, xy[:, 0], xy[:, 1]).mean() > 0.99, name
        d = shapely.distance(shapely.boundary(strip), shapely.points(xy))
        assert np.median(d) == pytest.approx(lw / 2.0, abs=0.02), name
    np.testing.assert_allclose(np.linalg.norm(curves.tangent, axis=1), 1.0)
    assert {"boundary", "halfway", "center_circle", "penalty_area_left", "goal_area_right"} <= set(
        curves.names
    )
    # The boundary's centre line is the rectangle +-(half length, half width) - lw / 2.
    b = curves.xyz_mm[curves.marking == curves.names.index("boundary")]
    assert np.abs(b[:, 0]).max() == pytest.approx(table.half_length - lw / 2.0)
    assert curves.lengths_mm()[curves.names.index("center_circle")] == pytest.approx(
        2 * math.pi * (table.center_circle_radius - lw / 2.0), rel=0.01
    )


@pytest.mark.parametrize("tilt", [8.0, 20.0, 30.0])
def test_homography_gives_back_the_camera(tilt: float) -> None:
    cam = _camera(tilt, k1=0.0)
    xy = np.array([[x, y] for x in (-900.0, 0.0, 900.0) for y in (-600.0, 600.0)])
    uv = cam(np.column_stack([xy, np.zeros(len(xy))]))
    hmat, _ = cv2.findHomography(xy, uv, 0)
    f = Camera.focal_from_homography(hmat, cam.image_size)
    assert f == pytest.approx(cam.K[0, 0], rel=1e-5)  # findHomography is not exact to 1e-9
    back = Camera.from_homography(hmat, cam.image_size, f)
    assert back is not None
    pts = np.column_stack([np.random.default_rng(0).uniform(-900, 900, (50, 2)), np.zeros(50)])
    np.testing.assert_allclose(back(pts), cam(pts), atol=1e-3)
    np.testing.assert_allclose(back.centre_mm, cam.centre_mm, atol=0.05)


def test_homography_straight_down_has_no_focal_and_mirror_has_no_camera() -> None:
    cam = _camera(0.0, k1=0.0)
    xy = np.array([[-900.0, -600.0], [900.0, -600.0], [900.0, 600.0], [-900.0, 600.0]])
    uv = cam(np.column_stack([xy, np.zeros(4)]))
    hmat, _ = cv2.findHomography(xy, uv, 0)
    assert Camera.focal_from_homography(hmat, cam.image_size) is None  # only f / distance shows
    mirrored, _ = cv2.findHomography(xy * [1, -1], uv, 0)  # the table seen from below
    assert Camera.from_homography(mirrored, cam.image_size, 1000.0) is None


@settings(max_examples=8, deadline=None)
@given(
    tilt=st.floats(8.0, 30.0),
    az=st.floats(0.0, 360.0),
    k1=st.floats(-0.25, 0.05),
    seed=st.integers(0, 10_000),
)
def test_fit_recovers_a_camera_from_curve_distances(
    tilt: float, az: float, k1: float, seed: int
) -> None:
    """Points on the model curves, slid along them and with 0.1 px noise across them: the fit
    from a 3 %-off start recovers the camera (focal within 0.5 %, field within 0.2 px)."""
    rng = np.random.default_rng(seed)
    true = _camera(tilt, az, k1)
    curves = model_curves(TABLE, step_mm=4.0)
    xyz = curves.xyz_mm
    uv = true(xyz)
    tan = true(xyz + curves.tangent) - uv
    normal = np.column_stack([-tan[:, 1], tan[:, 0]]) / np.hypot(*tan.T)[:, None]
    seen = (
        uv + rng.normal(0, 0.1, len(uv))[:, None] * normal + rng.uniform(-1, 1, (len(uv), 1)) * tan
    )
    outliers = rng.random(len(uv)) < 0.05  # clutter: 5 % of the points far off
    seen[outliers] += rng.uniform(-3, 3, (outliers.sum(), 2))
    start = Camera(
        true.image_size,
        true.K * [[1.03, 1, 1], [1, 1.03, 1], [1, 1, 1]],
        np.zeros(5),
        true.rvec + 0.01,
        true.tvec * 1.02,
    )
    fitted, r = fit_camera(start, xyz, seen, normal, ("f", "k1", "k2"), f_scale_px=0.5)
    assert fitted.K[0, 0] == pytest.approx(true.K[0, 0], rel=0.005)
    grid = np.column_stack([rng.uniform(-1000, 1000, (200, 2)), np.zeros(200)])
    assert np.abs(fitted(grid) - true(grid)).max() < 0.2
    assert np.median(np.abs(r[~outliers])) < 0.15


def test_fit_rejects_unknown_parameters() -> None:
    cam = _camera(10.0)
    with pytest.raises(ValueError, match="unknown parameter 'k9'"):
        fit_camera(cam, np.zeros((4, 3)), np.zeros((4, 2)), free=("k9",))


def test_from_points_round_trip_and_pose_only() -> None:
    true = _camera(20.0, k1=-0.05)
    rng = np.random.default_rng(3)
    xy = np.column_stack([rng.uniform(-1000, 1000, 16), rng.uniform(-700, 700, 16)])
    uv = true(np.column_stack([xy, np.zeros(16)]))
    result = from_points(xy, uv, true.image_size)
    assert result.ok, result.reason
    assert result.camera is not None
    assert result.rms_px < 1e-6 and result.rms_mm < 1e-6
    np.testing.assert_allclose(result.camera(np.column_stack([xy, np.zeros(16)])), uv, atol=1e-6)
    pose = Camera.from_points(xy, uv + 0.3, true.image_size, intrinsics=true)
    assert pose.ok and pose.camera is not None
    np.testing.assert_allclose(pose.camera.K, true.K)
    assert pose.rms_px < 0.5
    assert pose.camera.to_dict()["rms_px"] == pytest.approx(pose.rms_px)


@pytest.mark.parametrize(
    ("xy", "uv", "message"),
    [
        ([[0, 0], [1, 0], [0, 1]], [[0, 0], [1, 0], [0, 1]], "need at least 4, got 3"),
        ([[0, 0], [100, 0], [200, 0], [300, 0]], [[0, 0], [1, 0], [2, 0], [3, 0]], "on one line"),
        ([[0, 0], [1, 0], [0, 1], [1, 1]], [[0, 0], [1, 0]], "expected N table points"),
        ([[0, 0], [1, 0], [0, 1], [1, float("nan")]], [[0, 0], [1, 0], [0, 1], [1, 1]], "finite"),
        (
            [[0, 0, 5], [100, 0, 5], [0, 100, 5], [100, 100, 5]],
            [[0, 0], [1, 0], [0, 1], [1, 1]],
            "on the table",
        ),
    ],
)
def test_from_points_failures_are_values(xy: list, uv: list, message: str) -> None:
    result = from_points(xy, uv, (1280, 720))
    assert isinstance(result, CalibrationResult)
    assert not result.ok and result.camera is None
    assert message in result.reason
    assert math.isnan(result.rms_px)
    wrong = from_points(
        [[0, 0], [500, 0], [0, 500], [500, 500]],
        [[0, 0], [1, 0], [0, 1], [1, 1]],
        (1280, 720),
        intrinsics=_camera(10.0),
    )
    assert not wrong.ok and "1920x1080" in wrong.reason
