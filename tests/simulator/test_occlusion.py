"""The renderer's painter's order follows the solids (simulator.occlusion), not their centres.

A goalkeeper's centre is far above a resting ball's: seen from a tilted camera, a box standing
behind the ball can have the nearer centre while the ball hides part of it. The pairwise test
is checked against rays cast through random solids, and the renderer's pixels against the
scene: the ball's projected centre shows the ball where the ball is in front, the goalkeeper
where it is.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from calibration.camera import Camera
from geometry.pieces import Pieces, rectangle_corners
from geometry.tablespec import load_table
from simulator.designs import RenderStyle, TeamDesign
from simulator.occlusion import Solid, box, cylinder, in_front, paint_order, sphere
from simulator.render import Renderer
from simulator.state import FrameTruth

TABLE = load_table("brasileira")
PLAIN = TeamDesign((40, 40, 200), (40, 40, 200), (40, 40, 200), "plain")
FLAT = RenderStyle(teams={"A": PLAIN, "B": PLAIN}, side_darken=1.0, shadow_strength=0.0)
R_MM = 5.0  # the ball's radius (10 mm)
GAP_MM = 0.5


# ---------------------------------------------------------------- the pairwise test, by rays
def _entry(s: Solid, o: np.ndarray, d: np.ndarray) -> float:
    """Where the ray ``o + t d`` (t >= 0) enters ``s`` (inf when it misses)."""
    if s.is_sphere:
        oc = o - s.centre_mm
        b, c = float(oc @ d), float(oc @ oc) - s.radius_mm**2
        if b * b - c < 0:
            return math.inf
        t = -b - math.sqrt(b * b - c)
        return t if t >= 0 else math.inf
    (z0, z1), lo, hi = s.z_mm, 0.0, math.inf
    if abs(d[2]) < 1e-12:
        return math.inf  # level: no ray here runs level through a solid's height
    ta, tb = (z0 - o[2]) / d[2], (z1 - o[2]) / d[2]
    lo, hi = max(lo, min(ta, tb)), min(hi, max(ta, tb))
    if s.polygon_mm is None:
        p, dd = o[:2] - s.centre_mm[:2], d[:2]
        a, b, c = float(dd @ dd), float(p @ dd), float(p @ p) - s.radius_mm**2
        if b * b - a * c < 0:
            return math.inf
        root = math.sqrt(b * b - a * c)
        lo, hi = max(lo, (-b - root) / a), min(hi, (-b + root) / a)
    else:
        poly = s.polygon_mm
        e = np.roll(poly, -1, axis=0) - poly
        nxt = np.roll(poly, -1, axis=0)
        ccw = float((poly[:, 0] * nxt[:, 1] - nxt[:, 0] * poly[:, 1]).sum()) > 0
        normals = np.column_stack([e[:, 1], -e[:, 0]]) * (1.0 if ccw else -1.0)
        for n, p0 in zip(normals, poly, strict=True):
            num, den = float(n @ (o[:2] - p0)), float(n @ d[:2])
            if abs(den) < 1e-12:
                if num > 0:
                    return math.inf
            elif den > 0:
                hi = min(hi, -num / den)
            else:
                lo = max(lo, -num / den)
    return lo if lo <= hi else math.inf


def _random_solid(rng: np.random.Generator, at_mm: np.ndarray) -> Solid:
    """A sphere, a cylinder or a box, its centre near ``at_mm`` (3,)."""
    xy, z = at_mm[:2], max(float(at_mm[2]), 0.0)
    kind = rng.integers(3)
    if kind == 0:
        r = rng.uniform(3.0, 12.0)
        return sphere([*xy, z + r], r)
    h = rng.uniform(2.0, 40.0)
    z0 = max(z - h / 2.0, 0.0)
    if kind == 1:
        return cylinder(xy, rng.uniform(5.0, 30.0), z0, z0 + h)
    corners = rectangle_corners(
        xy[None], rng.uniform([10.0, 6.0], [80.0, 20.0])[None], rng.uniform(0.0, np.pi, 1)
    )[0]
    return box(corners[:: rng.choice([-1, 1])], z0, z0 + h)


def test_in_front_agrees_with_rays_through_both_solids() -> None:
    """Random spheres, cylinders and boxes, the second placed behind the first from a random
    camera above: every ray that meets both solids meets first the one ``in_front`` names."""
    rng = np.random.default_rng(71)
    both = 0
    for _ in range(150):
        cam = np.array([*rng.uniform(-600.0, 600.0, 2), rng.uniform(60.0, 900.0)])
        near = np.array([*rng.uniform(-100.0, 100.0, 2), rng.uniform(0.0, 20.0)])
        far = near + (near - cam) / np.linalg.norm(near - cam) * rng.uniform(10.0, 60.0)
        a, b = _random_solid(rng, near), _random_solid(rng, far)
        if rng.random() < 0.5:
            a, b = b, a
        front = in_front(a, b, cam)
        if front is None:  # they overlap in space: no order exists
            continue
        for w in rng.uniform(0.0, 1.0, 10):
            target = w * a.centre_mm + (1 - w) * b.centre_mm + rng.normal(0.0, 4.0, 3)
            d = (target - cam) / np.linalg.norm(target - cam)
            ta, tb = _entry(a, cam, d), _entry(b, cam, d)
            if math.isfinite(ta) and math.isfinite(tb):
                both += 1
                assert (ta < tb) == front, (a, b, cam, ta, tb)
    assert both > 250


def test_paint_order_sorts_a_row_of_solids_the_centres_misorder() -> None:
    """A ball between the camera and a tall box whose centre is the nearer: the box is painted
    first; pieces whose image boxes do not overlap keep the centres' order."""
    cam = np.array([0.0, -300.0, 250.0])
    ball = sphere([0.0, 0.0, R_MM], R_MM)
    keeper = box([[-35.0, 5.5], [35.0, 5.5], [35.0, 20.5], [-35.0, 20.5]], 0.0, 60.0)
    far = cylinder([400.0, 600.0], 20.0, 0.0, 10.0)
    assert np.linalg.norm(keeper.centre_mm - cam) < np.linalg.norm(ball.centre_mm - cam)
    boxes = [(0.0, 0.0, 10.0, 10.0), (5.0, 5.0, 20.0, 20.0), (100.0, 100.0, 110.0, 110.0)]
    assert in_front(ball, keeper, cam) is True and in_front(keeper, ball, cam) is False
    assert paint_order([ball, keeper, far], cam, boxes) == [2, 1, 0]


# ---------------------------------------------------------------- the renderer's pixels
def _camera(elevation_deg: float) -> Camera:
    """Looking at the centre spot from ``elevation_deg`` above the table, 600 mm away."""
    e = math.radians(elevation_deg)
    pos = 600.0 * np.array([0.3 * math.cos(e), -math.sqrt(0.91) * math.cos(e), math.sin(e)])
    return Camera.look_at(pos, (0.0, 0.0, 0.0), 40.0, (800, 600))


def _scene(
    cam: Camera, keeper_behind: bool, keeper_height_mm: float, moving: bool = False
) -> FrameTruth:
    """The ball on the centre spot; a 70 x 15 mm goalkeeper 0.5 mm from it, its long side
    facing the camera, on the far side of the ball (``keeper_behind``) or the near side."""
    toward = cam.centre_mm[:2] / np.linalg.norm(cam.centre_mm[:2])
    gk_xy = toward * (R_MM + GAP_MM + 7.5) * (-1.0 if keeper_behind else 1.0)
    p = Pieces(
        np.array(["ball", "A1"]),
        np.array(["", "A"]),
        np.array(["ball", "goalkeeper"]),
        np.array([[0.0, 0.0], gk_xy]),
        np.array([[2 * R_MM, 2 * R_MM], [70.0, 15.0]]),
        np.array([0.0, math.atan2(toward[1], toward[0]) + math.pi / 2]),
        np.array([2 * R_MM, keeper_height_mm]),
    )
    vel = np.array([[50.0, 0.0], [0.0, 0.0]]) if moving else np.zeros((2, 2))
    return FrameTruth(0, 0.0, p, vel, np.array([moving, False]))


def _centre_pixel(r: Renderer, frame: FrameTruth) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rendered pixel at the ball's projected centre, and there the ball's and the
    goalkeeper's colours (under the lighting)."""
    img = r.render(frame, clean=True)
    u, v = np.round(r.camera(np.array([[0.0, 0.0, R_MM]]))[0]).astype(int)
    gain = r.gain[v, u, 0]
    return img[v, u].astype(float), np.array(FLAT.ball_bgr) * gain, np.array(PLAIN.base_bgr) * gain


@pytest.mark.parametrize("moving", [False, True])
def test_occlusion_follows_the_solids_not_their_centres(moving: bool) -> None:
    """35 deg above the table, a 60 mm goalkeeper 0.5 mm behind the ball: its centre is the
    nearer to the camera (painted by centres, it covered the ball's centre), but the ball is in
    front. Moved to the near side, the goalkeeper hides the ball's centre. A moving ball takes
    the same path through the renderer's per-frame occluders (clean: no blur)."""
    cam = _camera(35.0)
    r = Renderer(TABLE, cam, FLAT)
    behind = _scene(cam, keeper_behind=True, keeper_height_mm=60.0, moving=moving)
    ball_c = np.array([0.0, 0.0, R_MM])
    gk_c = np.array([*behind.pieces.xy_mm[1], 30.0])
    # The case the centres got wrong: the box's centre nearer, and its image over the ball's
    # centre (the ray to the ball's centre, past the ball, meets the box's front face).
    assert np.linalg.norm(gk_c - cam.centre_mm) < np.linalg.norm(ball_c - cam.centre_mm)
    ray = ball_c - cam.centre_mm
    s = (R_MM + GAP_MM) / float(np.linalg.norm(ray[:2]))  # past the ball, to the box's face
    assert 0.0 < (ball_c + s * ray)[2] < 60.0
    for order in (slice(None), slice(None, None, -1)):  # either order in the frame
        frame = replace(
            behind,
            pieces=behind.pieces.select(np.arange(2)[order]),
            vel_mm_s=behind.vel_mm_s[order],
            moving=behind.moving[order],
        )
        got, ball, keeper = _centre_pixel(r, frame)
        assert np.abs(got - ball).max() < 12, (got, ball)
    got, ball, keeper = _centre_pixel(r, _scene(cam, False, 60.0, moving))
    assert np.abs(got - keeper).max() < 12, (got, keeper)
