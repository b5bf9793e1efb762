"""Manual calibration from point pairs: points/1 parsing, the fit, the click-to-pick guard."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from calibration.camera import Camera, preset_camera
from calibration.points import (
    PointsError,
    camera_from_points,
    load_points,
    pick_points,
    points_from_dict,
    standard_points,
)
from geometry.tablespec import load_table
from tests.calibration.test_drift import random_camera

TABLE = load_table("brasileira")


def pairs_doc(cam: Camera, noise_px: float, seed: int, extra: int = 0) -> dict[str, Any]:
    """The standard points (and ``extra`` random table points) as seen by ``cam``, with noise."""
    rng = np.random.default_rng(seed)
    pts = dict(standard_points(TABLE))
    for k in range(extra):
        pts[f"extra{k}"] = (rng.uniform(-950, 950), rng.uniform(-650, 650), 0.0)
    names = list(pts)
    xyz = np.array([pts[n] for n in names])
    uv = cam(xyz) + rng.normal(0.0, noise_px, (len(names), 2))
    w, h = cam.image_size
    keep = (uv[:, 0] > 0) & (uv[:, 0] < w - 1) & (uv[:, 1] > 0) & (uv[:, 1] < h - 1)
    return {
        "format": "points/1",
        "image_size": [w, h],
        "pairs": [
            {"name": n, "uv": uv[i].tolist(), "xyz": xyz[i].tolist()}
            for i, n in enumerate(names)
            if keep[i]
        ],
    }


def field_error_mm(fit: Camera, true: Camera) -> np.ndarray:
    """Where the fitted camera puts the true camera's view of a grid over the field (mm)."""
    xx, yy = np.meshgrid(np.linspace(-1000, 1000, 21), np.linspace(-700, 700, 15))
    xyz = np.column_stack([xx.ravel(), yy.ravel(), np.zeros(xx.size)])
    uv = true(xyz)
    w, h = true.image_size
    seen = (uv[:, 0] >= 0) & (uv[:, 0] <= w - 1) & (uv[:, 1] >= 0) & (uv[:, 1] <= h - 1)
    return np.asarray(np.hypot(*(fit.image_to_table(uv[seen], 0.0) - xyz[seen, :2]).T))


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000))
@example(4326)  # calibrateCamera's own pose start put this one behind the camera
def test_fit_without_intrinsics_matches_the_true_camera(seed: int) -> None:
    true = random_camera(seed, (1280, 720))
    doc = pairs_doc(true, 0.3, seed, extra=30)
    fit = camera_from_points(points_from_dict(doc))
    assert fit.camera.rms_px is not None and fit.camera.rms_px < 0.6
    assert np.median(field_error_mm(fit.camera, true)) < 1.5
    assert fit.camera.right_goal_image_side == true.right_goal_image_side


def test_fit_with_intrinsics_is_exact_to_the_noise() -> None:
    true = preset_camera("wide", TABLE, (1920, 1080))  # k1 = -0.2
    doc = pairs_doc(true, 0.2, 1)
    fit = camera_from_points(points_from_dict(doc), intrinsics=true)
    err = field_error_mm(fit.camera, true)
    assert err.max() < 1.0
    np.testing.assert_allclose(fit.camera.K, true.K)
    assert fit.camera.rms_mm is not None and fit.camera.rms_mm < 0.5
    assert np.isnan(fit.focal_sigma) and fit.warnings == ()


def test_a_tilted_view_with_post_tops_finds_the_focal_length() -> None:
    true = preset_camera("tilted", TABLE, (1280, 720), tilt_deg=22.0)
    fit = camera_from_points(points_from_dict(pairs_doc(true, 0.2, 2)))
    assert fit.camera.K[0, 0] == pytest.approx(true.K[0, 0], rel=0.02)
    assert fit.focal_sigma < 0.03 and fit.warnings == ()
    assert np.median(fit.residuals_mm) < 0.5


def test_a_straight_down_view_on_the_plane_warns_about_the_focal_length() -> None:
    true = preset_camera("overhead", TABLE, (1280, 720))
    doc = pairs_doc(true, 0.3, 3)
    doc["pairs"] = [p for p in doc["pairs"] if p["xyz"][2] == 0.0]  # no post tops
    fit = camera_from_points(points_from_dict(doc))
    assert any("focal length is not determined" in w for w in fit.warnings)
    assert np.median(field_error_mm(fit.camera, true)) < 1.5  # the plane itself still maps


def test_right_goal_side_of_a_camera_from_the_other_side() -> None:
    true = Camera.look_at((0.0, 300.0, 1700.0), (0.0, 0.0, 0.0), 70.0, (1280, 720), up=(0, -1, 0))
    assert true.right_goal_image_side == "left"
    fit = camera_from_points(points_from_dict(pairs_doc(true, 0.2, 4, extra=10)))
    assert fit.camera.right_goal_image_side == "left"


def test_points_file_round_trip(tmp_path: Path) -> None:
    doc = pairs_doc(preset_camera("tilted", TABLE), 0.0, 5)
    path = tmp_path / "points.json"
    path.write_text(json.dumps(doc))
    pairs = load_points(path)
    pairs.save(tmp_path / "again.json")
    again = load_points(tmp_path / "again.json")
    np.testing.assert_array_equal(again.uv_px, pairs.uv_px)
    np.testing.assert_array_equal(again.xyz_mm, pairs.xyz_mm)
    assert again.names == pairs.names and again.names[0] == "centre_mark"
    assert again.image_size == (1280, 720)


def _doc(**over: Any) -> dict[str, Any]:
    pairs = [
        {"uv": [100.0 + 50 * i, 80.0 + 30 * i], "xyz": [100.0 * i, 50.0 * i**2, 0]}
        for i in range(6)
    ]
    doc: dict[str, Any] = {"format": "points/1", "image_size": [1280, 720], "pairs": pairs}
    doc.update(over)
    return doc


@pytest.mark.parametrize(
    ("doc", "match"),
    [
        ([], "expected a JSON object"),
        (_doc(format="points/2"), "field 'format' expected 'points/1'"),
        ({"format": "points/1", "pairs": []}, "missing field 'image_size'"),
        (_doc(image_size=[1280]), "field 'image_size': expected 2 finite numbers"),
        (_doc(image_size=[1280.5, 720]), "field 'image_size' expected two positive integers"),
        (_doc(pairs={"uv": 1}), "field 'pairs' expected a list"),
        (_doc(pairs=_doc()["pairs"][:5]), "needs at least 6 pairs, got 5"),
        (_doc(pairs=[*_doc()["pairs"][:5], {"uv": [1, 2]}]), r"pairs\[5\]: missing field 'xyz'"),
        (
            _doc(pairs=[*_doc()["pairs"][:5], {"uv": [1, "a"], "xyz": [0, 0, 0]}]),
            r"pairs\[5\]\.uv: expected 2 finite numbers",
        ),
        (
            _doc(pairs=[*_doc()["pairs"][:5], {"uv": [1, 2], "xyz": [0, 0, None]}]),
            r"pairs\[5\]\.xyz: expected 3 finite numbers",
        ),
        (
            _doc(pairs=[*_doc()["pairs"][:5], {"uv": [1300, 2], "xyz": [0, 0, 0]}]),
            r"pairs\[5\]\.uv: .* outside the 1280x720 image",
        ),
        (
            _doc(pairs=[*_doc()["pairs"][:5], {"uv": [1, 2], "xyz": [0, 0, 0], "name": 3}]),
            r"pairs\[5\]\.name: expected a string",
        ),
        (
            _doc(pairs=[{"uv": [10.0 * i, 10.0], "xyz": [10.0 * i, 0, 0]} for i in range(6)]),
            "all on one line",
        ),
    ],
)
def test_bad_documents_name_the_field(doc: Any, match: str) -> None:
    with pytest.raises(PointsError, match=match):
        points_from_dict(doc, where="p.json")


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(PointsError, match="no such file"):
        load_points(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(PointsError, match=r"bad\.json: not valid JSON"):
        load_points(bad)


def test_intrinsics_of_another_size_are_refused() -> None:
    pairs = points_from_dict(pairs_doc(preset_camera("tilted", TABLE), 0.0, 6))
    with pytest.raises(PointsError, match="differs from the intrinsics' 1920x1080"):
        camera_from_points(pairs, intrinsics=preset_camera("tilted", TABLE, (1920, 1080)))


def test_click_to_pick_needs_a_display(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    with pytest.raises(PointsError, match="no display"):
        pick_points(np.zeros((72, 128, 3), np.uint8), TABLE)


def test_standard_points_lie_on_the_markings() -> None:
    pts = standard_points(TABLE)
    assert pts["corner_far_right"] == (1000.0, 700.0, 0.0)
    assert pts["penalty_mark_left"] == (-1000.0 + TABLE.penalty_mark_distance, 0.0, 0.0)
    assert pts["post_top_near_right"][2] == TABLE.goal_height
    assert len(pts) == 17
