"""Automatic recalibration: calibration_lost after a bump, a new fit, calibration_restored.

Seeded simulator frames (a match with hands); the bump renders through a camera moved by 3 mm
(the table pushed) or turned by 0.5 deg while the keeper still holds the old one.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import pytest

from benchmarks.bench_calibration import random_camera
from calibration.camera import Camera
from calibration.keeper import CameraKeeper
from geometry.tablespec import load_table
from simulator.designs import FIELD_COLOURS, RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from tests.calibration.test_drift import rotated, translated

TABLE = load_table("brasileira")
FPS = 30.0
BUMP_T = 1.0


def _field_error_mm(fit: Camera, true: Camera) -> float:
    """Largest distance (mm) over the field between where ``fit`` and ``true`` see a point
    (no symmetry allowed: the table frame must keep its orientation)."""
    xx, yy = np.meshgrid(np.linspace(-990, 990, 23), np.linspace(-690, 690, 15))
    xyz = np.column_stack([xx.ravel(), yy.ravel(), np.zeros(xx.size)])
    return float(np.nanmax(np.hypot(*(true.image_to_table(fit(xyz), 0.0) - xyz[:, :2]).T)))


def _run(
    keeper: CameraKeeper, renders: Callable[[float], Renderer], seconds: float, seed: int
) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    for f in Match(TABLE, "brasileira", seed=seed, fps=FPS).frames(seconds):
        img = renders(f.t).render(f) if keeper.due else None
        events += keeper.update(img, f.t, f.frame)
    return events


@pytest.mark.parametrize(
    ("seed", "size", "bump", "field"),
    [
        (31, (960, 540), "translate", "green"),
        (32, (720, 960), "rotate", "blue"),  # portrait: the long axis down the picture
    ],
)
def test_a_bump_is_lost_recalibrated_and_restored(
    seed: int, size: tuple[int, int], bump: str, field: str
) -> None:
    rng = np.random.default_rng(seed)
    cam, _, _ = random_camera(rng, TABLE, size)  # the acceptance ranges, the whole field seen
    moved = (
        translated(cam, 3.0, rng.uniform(0, 2 * math.pi))
        if bump == "translate"
        else rotated(cam, 0.5, rng.normal(size=3))
    )
    assert _field_error_mm(cam, moved) > 2.0
    style = RenderStyle(field_bgr=FIELD_COLOURS[field], noise_sigma=3.0, jpeg_quality=85)
    before, after = Renderer(TABLE, cam, style), Renderer(TABLE, moved, style)
    keeper = CameraKeeper(cam, TABLE, every_n_frames=5)
    events = _run(keeper, lambda t: before if t < BUMP_T else after, BUMP_T + 3.0, seed)
    kinds = [e["type"] for e in events]
    assert kinds == ["calibration_lost", "calibration_restored"], events
    lost, restored = events
    assert BUMP_T <= float(lost["t"]) <= BUMP_T + 1.0  # type: ignore[arg-type]
    assert restored["recalibrated"] is True and float(restored["rms_px"]) < 0.6  # type: ignore[arg-type]
    assert keeper.trusted and not keeper.recalibrating
    # The new camera is the moved one, in the same table frame (+x goal on the same side).
    assert keeper.camera.right_goal_image_side == cam.right_goal_image_side
    assert _field_error_mm(keeper.camera, moved) < 0.5
    # The lens was kept: only the pose was fitted.
    np.testing.assert_allclose(keeper.camera.K, cam.K)
    np.testing.assert_allclose(keeper.camera.dist, cam.dist)


def test_the_table_put_back_restores_without_recalibrating() -> None:
    cam, _, _ = random_camera(np.random.default_rng(33), TABLE, (960, 540))
    moved = translated(cam, 4.0, 0.3)
    style = RenderStyle(field_bgr=FIELD_COLOURS["green"], noise_sigma=3.0)
    before, after = Renderer(TABLE, cam, style), Renderer(TABLE, moved, style)
    # A long retry and more frames than the bump lasts: no recalibration can finish.
    keeper = CameraKeeper(cam, TABLE, every_n_frames=5, recal_frames=30)
    events = _run(keeper, lambda t: after if BUMP_T <= t < BUMP_T + 1.0 else before, 3.5, 33)
    assert [e["type"] for e in events] == ["calibration_lost", "calibration_restored"]
    assert "recalibrated" not in events[1] and events[1]["reason"] == "markings back"
    assert keeper.results == [] and keeper.camera is cam and keeper.trusted


def test_a_failed_recalibration_is_retried() -> None:
    cam, _, _ = random_camera(np.random.default_rng(34), TABLE, (960, 540))
    style = RenderStyle(field_bgr=FIELD_COLOURS["green"], noise_sigma=3.0)
    good = Renderer(TABLE, cam, style)
    keeper = CameraKeeper(cam, TABLE, every_n_frames=5, recal_frames=3, retry_s=1.0, k_hidden=3)
    frames = list(Match(TABLE, "brasileira", seed=34, fps=FPS).frames(4.0))
    events: list[dict[str, object]] = []
    for f in frames:
        dark = 0.5 <= f.t < 2.0  # a cloth over the lens: nothing to calibrate from
        img = None
        if keeper.due:
            img = np.full((540, 960, 3), 15, np.uint8) if dark else good.render(f)
        events += keeper.update(img, f.t, f.frame)
    assert [e["type"] for e in events][:1] == ["calibration_lost"]
    assert events[-1]["type"] == "calibration_restored" and keeper.trusted
    failed = [r for _, r in keeper.results if not r.ok]
    assert failed and all(r.reason for r in failed)
    times = [t for t, _ in keeper.results]
    assert all(b - a >= 1.0 - 1e-9 for a, b in itertools.pairwise(times))


def test_bad_parameters() -> None:
    cam, _, _ = random_camera(np.random.default_rng(35), TABLE, (640, 360))
    with pytest.raises(ValueError, match="recal_frames"):
        CameraKeeper(cam, TABLE, recal_frames=0)
