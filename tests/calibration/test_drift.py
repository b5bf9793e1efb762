"""The drift watch: samples on the markings, no alarm in play, an alarm within 1 s of a bump.

Frames come from the simulator (seeded matches with hands, several field colours, JPEG, noise,
blur, an exposure change); a bump renders through a camera moved by 3 mm (the table translated)
or rotated by 0.3 deg while the watch keeps the old camera (issue 4, deliverable 5).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.camera import Camera, _rotation_to_rvec, preset_camera, rodrigues
from calibration.drift import N_BINS, DriftWatch, marking_samples
from geometry.field import FieldModel
from geometry.tablespec import load_table
from simulator.designs import FIELD_COLOURS, TEAM_DESIGNS, RenderStyle
from simulator.match import Match
from simulator.render import Renderer

TABLE = load_table("brasileira")
FPS = 30.0


def random_camera(seed: int, size: tuple[int, int] = (1280, 720)) -> Camera:
    """A seeded webcam over the table: height 1.3-2.2 m, tilt 0-25 deg, hfov 55-80 deg, k1."""
    rng = np.random.default_rng(seed)
    height = rng.uniform(1300.0, 2200.0)
    tilt = math.radians(rng.uniform(0.0, 25.0))
    az = rng.uniform(0.0, 2.0 * math.pi)
    target = np.array([rng.uniform(-100, 100), rng.uniform(-80, 80), 0.0])
    pos = target + np.array(
        [height * math.tan(tilt) * math.cos(az), height * math.tan(tilt) * math.sin(az), height]
    )
    dist = [rng.uniform(-0.25, 0.05), rng.uniform(-0.03, 0.03), 0.0, 0.0, 0.0]
    return Camera.look_at(pos, target, rng.uniform(55.0, 80.0), size, dist=dist)


def translated(cam: Camera, d_mm: float, angle_rad: float) -> Camera:
    """``cam`` seeing the table translated by ``d_mm`` along ``angle_rad`` (table frame)."""
    d = np.array([d_mm * math.cos(angle_rad), d_mm * math.sin(angle_rad), 0.0])
    return replace(cam, tvec=cam.tvec - cam.R @ d)


def rotated(cam: Camera, deg: float, axis: np.ndarray) -> Camera:
    """``cam`` turned by ``deg`` about ``axis`` (camera frame) through its optical centre."""
    rot = rodrigues(np.asarray(axis, float) / np.linalg.norm(axis) * math.radians(deg)) @ cam.R
    return replace(cam, rvec=_rotation_to_rvec(rot), tvec=-rot @ cam.centre_mm)


def _style(seed: int, field: str, teams: tuple[str, str]) -> RenderStyle:
    return RenderStyle(
        teams={"A": TEAM_DESIGNS[teams[0]], "B": TEAM_DESIGNS[teams[1]]},
        field_bgr=FIELD_COLOURS[field],
        noise_sigma=4.0,
        jpeg_quality=75,
        seed=seed,
    )


# ---------------------------------------------------------------------- samples
@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000))
def test_samples_sit_on_centre_lines_with_sides_off_every_marking(seed: int) -> None:
    cam = random_camera(seed, (960, 540))
    s = marking_samples(cam, TABLE)
    fm = FieldModel(TABLE)
    assert 300 <= len(s) <= 2400
    # Centre points: inside their marking, half a line width from its outline.
    for name in np.unique(s.name):
        sel = s.name == name
        pts = shapely.points(s.xy_mm[sel])
        strip = fm.markings[str(name)]
        assert shapely.contains(strip, pts).all()
        np.testing.assert_allclose(
            shapely.distance(pts, strip.boundary), TABLE.line_width / 2, atol=0.02
        )
    # Side points back on the table: off every painted marking, inside the image.
    w, h = cam.image_size
    for uv in s.uv_px[1:]:
        xy = cam.image_to_table(uv, 0.0)
        assert (shapely.distance(shapely.points(xy), fm.painted) > 0.1).all()
        assert ((uv >= 0) & (uv <= [w - 1, h - 1])).all()
    np.testing.assert_allclose(s.uv_px[0], cam.table_to_image(np.c_[s.xy_mm, np.zeros(len(s))]))


def test_samples_cover_every_orientation_and_every_line_kind() -> None:
    s = marking_samples(preset_camera("tilted", TABLE, (1280, 720)), TABLE)
    assert set(np.unique(s.bin)) == set(range(N_BINS))
    for name in ("boundary", "halfway", "center_circle", "penalty_area_left", "goal_area_right"):
        assert (s.name == name).sum() >= 20, name
    assert not any(str(n).startswith("posts") for n in np.unique(s.name))


# ---------------------------------------------------------------------- streams
def _run(
    watch: DriftWatch,
    renders: Callable[[float], Renderer],
    seconds: float,
    seed: int,
    post: Callable[[np.ndarray, float], np.ndarray] | None = None,
) -> list[dict[str, object]]:
    """Feed a match to ``watch``, rendering only the frames it tests; returns its events."""
    events: list[dict[str, object]] = []
    for f in Match(TABLE, "brasileira", seed=seed, fps=FPS).frames(seconds):
        if not watch.due:
            watch.update(None, f.t, f.frame)  # a frame the watch does not test: not rendered
            continue
        img = renders(f.t).render(f)
        if post is not None:
            img = post(img, f.t)
        events += watch.update(img, f.t, f.frame)
    return events


def _webcam(img: np.ndarray, t: float) -> np.ndarray:
    """Defocus blur, and auto exposure dropping the brightness by 15% after 10 s."""
    out = cv2.GaussianBlur(img, (0, 0), 0.9)
    if t > 10.0:
        out = cv2.convertScaleAbs(out, alpha=0.85)
    return out


def test_no_false_alarm_in_30_s_of_play_with_hands() -> None:
    # The hard palette: a white team on a pale felt (benchmarks/bench_drift.py plays 10 min).
    cam = random_camera(11, (960, 540))
    r = Renderer(TABLE, cam, _style(11, "light", ("white", "blue")))
    watch = DriftWatch(cam, TABLE, every_n_frames=6)
    events = _run(watch, lambda t: r, 30.0, seed=11, post=_webcam)
    assert events == []
    assert watch.state == "ok"
    assert watch.last is not None and watch.last.score >= 0.9


def test_a_hand_is_covered_not_drifted() -> None:
    cam = preset_camera("overhead", TABLE, (960, 540))
    r = Renderer(TABLE, cam, _style(3, "dark_green", ("black", "yellow")))
    frames = [f for f in Match(TABLE, "brasileira", seed=3, fps=FPS).frames(8.0) if f.hands]
    watch = DriftWatch(cam, TABLE, every_n_frames=1)
    for f in frames[:3]:
        watch.update(r.render(f), f.t)
    assert watch.state == "ok"
    checks = [watch.check(r.render(f)) for f in frames[3::8]]
    assert max(c.n_covered for c in checks) > 5  # the hands and pieces hide samples ...
    assert min(c.score for c in checks) >= 0.9  # ... and are not taken for drift


BUMP_T = 1.6


@pytest.mark.parametrize(
    ("cam_seed", "bump"),
    [(21, "translate"), (22, "rotate")],
)
def test_a_bump_fires_within_one_second_and_a_new_camera_restores(cam_seed: int, bump: str) -> None:
    rng = np.random.default_rng(cam_seed)
    cam = random_camera(cam_seed, (960, 540))
    if bump == "translate":  # the table pushed 3 mm in a random direction
        moved = translated(cam, 3.0, rng.uniform(0, 2 * math.pi))
    else:  # the camera turned 0.3 deg about a random axis
        moved = rotated(cam, 0.3, rng.normal(size=3))
    style = _style(cam_seed, ["green", "blue", "light"][cam_seed % 3], ("red", "blue"))
    before, after = Renderer(TABLE, cam, style), Renderer(TABLE, moved, style)
    watch = DriftWatch(cam, TABLE, every_n_frames=5)
    events = _run(watch, lambda t: before if t < BUMP_T else after, BUMP_T + 1.2, seed=cam_seed)
    assert [e["type"] for e in events] == ["calibration_lost"]
    assert BUMP_T <= float(events[0]["t"]) <= BUMP_T + 1.0  # type: ignore[arg-type]
    assert "markings moved" in str(events[0]["reason"])

    watch.set_camera(moved, BUMP_T + 1.2)  # the recalibrated camera
    assert watch.state == "validating"
    events = _run(watch, lambda t: after, 1.0, seed=cam_seed + 1)
    assert [e["type"] for e in events] == ["calibration_restored"]
    assert watch.state == "ok"


def test_a_wrong_new_camera_is_not_accepted() -> None:
    cam = preset_camera("overhead", TABLE, (960, 540))
    r = Renderer(TABLE, cam, _style(5, "blue", ("red", "white")))
    watch = DriftWatch(translated(cam, 8.0, 0.5), TABLE, every_n_frames=1, k_lost=3)
    events = _run(watch, lambda t: r, 0.5, seed=5)
    assert [e["type"] for e in events] == ["calibration_lost"]
    assert "do not stand out" in str(events[0]["reason"])
    assert watch.state == "validating"
    watch.set_camera(cam)  # the right one passes
    events = _run(watch, lambda t: r, 0.2, seed=5)
    assert [e["type"] for e in events] == ["calibration_restored"]


def test_hidden_markings_are_lost_after_k_hidden_checks_and_come_back() -> None:
    cam = preset_camera("overhead", TABLE, (960, 540))
    r = Renderer(TABLE, cam, _style(6, "green", ("red", "blue")))
    frame = next(iter(Match(TABLE, "brasileira", seed=6, fps=FPS).frames(0.1)))
    img = r.render(frame, clean=True)
    watch = DriftWatch(cam, TABLE, every_n_frames=1, k_hidden=4)
    assert [watch.update(img, 0.1 * k) for k in range(3)] == [[], [], []]
    dark = np.full_like(img, 20)  # a hand over the lens
    events = [e for k in range(6) for e in watch.update(dark, 1.0 + 0.1 * k)]
    assert [e["type"] for e in events] == ["calibration_lost"]
    assert "hidden" in str(events[0]["reason"])
    assert events[0]["t"] == pytest.approx(1.3)
    events = [e for k in range(3) for e in watch.update(img, 2.0 + 0.1 * k)]
    assert [e["type"] for e in events] == ["calibration_restored"]


def test_bad_input_is_refused() -> None:
    cam = preset_camera("overhead", TABLE, (640, 360))
    with pytest.raises(ValueError, match="every_n_frames"):
        DriftWatch(cam, TABLE, every_n_frames=0)
    watch = DriftWatch(cam, TABLE, every_n_frames=1)
    with pytest.raises(ValueError, match=r"expected shape \(360, 640, 3\)"):
        watch.update(np.zeros((720, 1280, 3), np.uint8), 0.0)
    with pytest.raises(RuntimeError, match="no references"):
        watch.check(np.zeros((360, 640, 3), np.uint8))
