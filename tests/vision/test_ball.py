"""The ball's sub-pixel fit (issue 5, deliverable 3) on renders at the scale of 1920 x 1080.

A 640 x 400 camera at 1.1 mm a pixel (a 1080p camera's scale over a 2 m table) sees part of the
table: a still ball, a motion-blurred streak, a ball half hidden beside a button seen from a
tilted camera, a ball on the goal line. The background is the empty table as the renderer draws
it (what :meth:`vision.background.Background.learn` converges to). Errors are in table mm.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.camera import Camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.ball import ball_outline, fit_ball, sphere_outline

TABLE = load_table("brasileira")
STYLE = RenderStyle(jpeg_quality=85, noise_sigma=3.0)


def _camera(tilt_deg: float, target: tuple[float, float]) -> Camera:
    t = math.radians(tilt_deg)
    tgt = np.array([*target, 0.0])
    pos = tgt + 1600.0 * np.array([0.0, -math.sin(t), math.cos(t)])
    # 640 px over ~700 mm: 1.1 mm a pixel, as 1920 px over the 2.2 m rail box
    return Camera.look_at(pos, tgt, 2 * math.degrees(math.atan(350.0 / 1600.0)), (640, 400))


def _frame(rows: list[tuple[str, str, float, float, float, float]]) -> FrameTruth:
    """Pieces (id, kind, x, y, vx, vy): buttons of team A, the ball."""
    ids = [r[0] for r in rows]
    kind = [r[1] for r in rows]
    size = [(10.0, 10.0) if k == "ball" else (60.0, 60.0) for k in kind]
    p = Pieces(
        np.array(ids),
        np.array(["" if k == "ball" else "A" for k in kind]),
        np.array(kind),
        np.array([(r[2], r[3]) for r in rows]),
        np.array(size),
        np.zeros(len(rows)),
        np.array([10.0] * len(rows)),
    )
    vel = np.array([(r[4], r[5]) for r in rows])
    return FrameTruth(0, 0.0, p, vel, np.hypot(vel[:, 0], vel[:, 1]) > 0)


@pytest.fixture(scope="module")
def overhead() -> tuple[Camera, Renderer]:
    cam = _camera(0.0, (700.0, 100.0))
    return cam, Renderer(TABLE, cam, STYLE, rng=4)


@pytest.fixture(scope="module")
def tilted() -> tuple[Camera, Renderer]:
    cam = _camera(30.0, (-700.0, -100.0))
    return cam, Renderer(TABLE, cam, STYLE, rng=5)


def test_sphere_outline_is_the_projected_silhouette() -> None:
    cam = _camera(30.0, (0.0, 0.0))
    centre = np.array([120.0, -40.0, 5.0])
    uv = sphere_outline(cam, centre, 5.0, n=64)
    # every outline ray is tangent to the sphere: its distance to the centre is the radius
    rays = cam.image_to_table(uv, 5.0)
    d = np.column_stack([rays, np.full(len(rays), 5.0)]) - cam.centre_mm
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    to_c = centre - cam.centre_mm
    dist = np.linalg.norm(np.cross(d, to_c), axis=1)
    assert np.allclose(dist, 5.0, atol=1e-6)
    # a flat ball (nacional, 10 x 2 mm) is the hull of two circles
    flat = ball_outline(cam, centre[:2], 10.0, 2.0)
    assert 20 <= len(flat) <= 80


@pytest.mark.parametrize(
    ("x", "y", "vx", "vy", "tol_mm"),
    [
        (650.0, 80.0, 0.0, 0.0, 0.15),  # still
        (720.0, 130.0, 0.0, 0.0, 0.15),
        (700.0, 60.0, 1800.0, 600.0, 0.4),  # a 16 mm streak at 1/120 s
        (760.0, 150.0, -900.0, 1500.0, 0.4),
    ],
)
def test_still_and_streaking_ball(overhead, x, y, vx, vy, tol_mm) -> None:  # type: ignore[no-untyped-def]
    cam, r = overhead
    frame = _frame([("ball", "ball", x, y, vx, vy)])
    img = r.render(frame)
    rng = np.random.default_rng(int(x))
    start = np.array([x, y]) + rng.normal(0.0, 1.5, 2)
    streak = None
    if vx or vy:
        ends = cam.table_to_image(np.array([[x, y, 5.0], [x + vx / 120.0, y + vy / 120.0, 5.0]]))
        streak = (ends[1] - ends[0]) * 0.7  # a rough guess, as a blob's moments give
    fit = fit_ball(img, r.background.astype(np.float32), cam, start, 10.0, 10.0, streak0_px=streak)
    assert fit is not None
    assert np.hypot(*(fit.xy_mm - [x, y])) < tol_mm
    assert fit.explained > 0.8
    assert 0.0 < fit.sigma_mm < 0.5
    if streak is not None:  # the streak's length is found too
        assert abs(np.hypot(*fit.streak_px) - np.hypot(*(streak / 0.7))) < 2.0


def test_ball_partly_hidden_beside_a_button(tilted) -> None:  # type: ignore[no-untyped-def]
    """Seen from 30 degrees, a ball just behind a button is partly covered by it: the pixels
    of the button are left out and the visible part still gives the centre."""
    cam, r = tilted
    bx, by = -700.0, -100.0
    ball = (bx, by + 36.0)  # 1 mm gap behind the button (farther from the camera)
    frame = _frame([("A2", "button", bx, by, 0, 0), ("ball", "ball", *ball, 0, 0)])
    img = r.render(frame)
    # the button's silhouette as the detector has it (grown by 2 px)
    from vision.solids import Solid, fit_solid

    btn = fit_solid(
        cam,
        img,
        r.background.astype(np.float32),
        Solid("button", np.array([bx + 1.0, by - 1.0, 60.0]), 10.0),
    )
    assert np.hypot(*(btn.p[:2] - [bx, by])) < 0.5
    import cv2

    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(btn.hull * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    excluded = cv2.dilate(mask, np.ones((5, 5), np.uint8)) > 0
    fit = fit_ball(
        img,
        r.background.astype(np.float32),
        cam,
        np.array([ball[0] + 1.0, ball[1] + 1.0]),
        10.0,
        10.0,
        excluded=excluded,
    )
    assert fit is not None
    assert fit.visible < 0.9  # it really is partly hidden
    assert np.hypot(*(fit.xy_mm - ball)) < 0.6  # the p95 the acceptance allows


def test_ball_on_the_goal_line(overhead) -> None:  # type: ignore[no-untyped-def]
    """A white ball half over the white goal line: the line is in the background, so the
    pixels where ball and line look alike weigh nothing and do not bias the centre."""
    cam, r = overhead
    x = TABLE.half_length - 1.0  # the ball's centre 1 mm inside the line's outer edge
    frame = _frame([("ball", "ball", x, 90.0, 0.0, 0.0)])
    img = r.render(frame)
    fit = fit_ball(img, r.background.astype(np.float32), cam, np.array([x - 1.2, 91.0]), 10.0, 10.0)
    assert fit is not None
    assert np.hypot(*(fit.xy_mm - [x, 90.0])) < 0.2


def test_no_ball_outside_the_image(overhead) -> None:  # type: ignore[no-untyped-def]
    cam, r = overhead
    img = r.render(_frame([("ball", "ball", 700.0, 100.0, 0.0, 0.0)]))
    assert (
        fit_ball(img, r.background.astype(np.float32), cam, np.array([0.0, 0.0]), 10.0, 10.0)
        is None
    )


def test_cast_shadow_under_the_edge_does_not_pull_the_ball() -> None:
    """An orange ball on a pale felt, seen obliquely (a 1080p camera 2 m away): its cast
    shadow, a blur several mm wide, darkens the felt under the ball's soft edge too. Taken for
    the ball's shaded rim it pulled the centre ~0.06-0.1 mm toward the shadow; carried under
    the edge from the felt around it, it does not."""
    style = RenderStyle(
        field_bgr=(200, 212, 214),
        ball_bgr=(30, 140, 250),
        noise_sigma=0.0,
        jpeg_quality=None,
        light_dir_xy=(-0.84, -0.11),
    )
    cam = Camera.look_at((800.0, 20.0, 2130.0), (-200.0, 0.0, 0.0), 60.0, (1920, 1080))
    r = Renderer(TABLE, cam, style, rng=7)
    hl = TABLE.half_length
    away = np.array([0.84, 0.11]) / math.hypot(0.84, 0.11)  # where the shadow falls
    errs = []
    for x, y in ((-hl - 5.6, 0.0), (-hl - 4.4, 120.0), (-hl - 6.0, -100.0), (-700.0, 200.0)):
        img = r.render(_frame([("ball", "ball", x, y, 0.0, 0.0)]))
        bg = r.background.astype(np.float32)
        fit = fit_ball(img, bg, cam, np.array([x - 1.0, y + 1.2]), 10.0, 10.0)
        assert fit is not None
        errs.append(fit.xy_mm - [x, y])
    e = np.array(errs)
    assert np.hypot(e[:, 0], e[:, 1]).max() < 0.08
    assert abs(float(np.mean(e @ away))) < 0.035  # no pull toward the shadow


@pytest.mark.parametrize(
    ("colour", "table", "shadow"),
    [
        ((44.0, 101.0, 32.0), (61.0, 138.0, 42.0), True),  # green felt, 0.72-0.76 of it
        ((120.0, 120.0, 120.0), (200.0, 200.0, 200.0), True),  # pale felt, 0.6
        ((230.0, 235.0, 240.0), (61.0, 138.0, 42.0), False),  # a white ball on green felt
        ((30.0, 140.0, 250.0), (200.0, 205.0, 210.0), False),  # an orange ball on pale felt
        ((50.0, 90.0, 40.0), (61.0, 138.0, 42.0), False),  # darker, not uniformly: a piece
        ((60.0, 136.0, 41.0), (61.0, 138.0, 42.0), False),  # the felt itself
        ((20.0, 20.0, 20.0), (61.0, 138.0, 42.0), False),  # a black ball
        ((5.0, 60.0, 5.0), (10.0, 120.0, 10.0), False),  # too dark a channel to tell
    ],
)
def test_a_shadow_is_the_table_uniformly_darker(colour, table, shadow) -> None:  # type: ignore[no-untyped-def]
    from vision.ball import shadow_like

    assert shadow_like(np.array(colour), np.array(table)) is shadow


@pytest.mark.parametrize(
    ("tilted_cam", "streak"), [(False, None), (True, None), (False, (9.0, 4.0))]
)
def test_analytic_gradient_is_the_objectives(overhead, tilted, tilted_cam, streak) -> None:  # type: ignore[no-untyped-def]
    """The fit's Jacobian in the centre (variable projection, colours held at their optimum)
    gives the exact gradient of the squared residual: central differences of the objective,
    with the colours re-solved at every point, agree with J^T r (on a still ball, a streak, a
    tilted camera), so Gauss-Newton stops where finite differences would."""
    from vision.ball import _Model

    cam, r = tilted if tilted_cam else overhead
    x, y = (-690.0, -90.0) if tilted_cam else (705.0, 95.0)
    img = r.render(_frame([("ball", "ball", x, y, 0.0, 0.0)]))
    uv = cam.table_to_image(np.array([[x, y, 5.0]]))[0]
    x0, y0 = int(uv[0]) - 12, int(uv[1]) - 12
    sl = np.s_[y0 : y0 + 25, x0 : x0 + 25]
    bg = r.background.astype(np.float32)
    model = _Model(
        cam,
        img[sl].astype(np.float32),
        bg[sl],
        np.ones((25, 25), bool),
        (x0, y0),
        10.0,
        10.0,
        0.0,
        0.5,
    )
    # off the optimum, where the gradient is large and finite differences are reliable
    p = np.array([x + 0.6, y - 0.4] + ([] if streak is None else list(streak)))
    res, jac = model.residual_jac(p)
    grad = jac.T @ res

    def f(q: np.ndarray) -> float:
        rr = model.residual(q)[0]
        return 0.5 * float(rr @ rr)

    h = 1e-3
    fd = [(f(p + h * e) - f(p - h * e)) / (2 * h) for e in np.eye(len(p))[:2]]
    assert np.abs(grad).max() > 1e4  # a real slope, not a flat spot
    assert np.allclose(grad, fd, rtol=0.03, atol=0.5), (grad, fd)
