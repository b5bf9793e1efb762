"""The renderer checked against its own truth (issue 3, acceptance: renders).

On noise-free renders: markings land on marking-coloured pixels; a piece's projected 3D outline
matches its rendered silhouette within 0.5 px; the ball's projected centre matches the rendered
ball's intensity-weighted centroid within 0.1 px. Cameras: the overhead preset, a 25 deg tilt
and a k1 = -0.2 lens, on non-square images.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest
import shapely

from calibration.camera import Camera, preset_camera
from geometry.field import FieldModel
from geometry.pieces import Pieces, rectangle_corners
from geometry.tablespec import load_table
from simulator.designs import HARD_PAIRS, RenderStyle, TeamDesign
from simulator.render import Renderer, sphere_silhouette
from simulator.state import FrameTruth, Hand

TABLE = load_table("brasileira")
FIELD = FieldModel(TABLE)
PLAIN = TeamDesign((40, 40, 200), (40, 40, 200), (40, 40, 200), "plain")
# Flat colours, no shadows, a uniform side: a piece's coverage can be read off its pixels.
FLAT = RenderStyle(teams={"A": PLAIN, "B": PLAIN}, side_darken=1.0, shadow_strength=0.0)


def _tilted(
    tilt_deg: float, target: tuple[float, float], distance: float, size: tuple[int, int], dist=None
) -> Camera:  # type: ignore[no-untyped-def]
    t = math.radians(tilt_deg)
    tgt = np.array([*target, 0.0])
    pos = tgt + distance * np.array(
        [0.3 * math.sin(t), -math.sin(t) * math.sqrt(1 - 0.09), math.cos(t)]
    )
    return Camera.look_at(pos, tgt, 60.0, size, dist=dist)


CAMERAS = {
    "overhead-1920x1080": preset_camera("overhead", TABLE, (1920, 1080)),
    "tilted25-1200x1500": _tilted(25.0, (-700.0, 0.0), 1000.0, (1200, 1500)),
    "k1-0.2-1400x1000": Camera.look_at(
        (450.0, 150.0, 900.0), (450.0, 150.0, 0.0), 64.0, (1400, 1000), dist=[-0.2, 0, 0, 0, 0]
    ),
}


@pytest.fixture(scope="module", params=sorted(CAMERAS))
def renderer(request: pytest.FixtureRequest) -> Renderer:
    return Renderer(TABLE, CAMERAS[request.param], FLAT)


def _frame(
    rows: list[tuple[str, str, str, float, float, float, float, float]], ball_z: float = math.nan
) -> FrameTruth:
    """rows: (id, team, kind, x, y, size0, size1, angle_rad)."""
    ids, team, kind, x, y, s0, s1, ang = zip(*rows, strict=True)
    p = Pieces(
        np.array(ids),
        np.array(team),
        np.array(kind),
        np.column_stack([x, y]),
        np.column_stack([s0, s1]),
        np.array(ang),
    )
    n = len(p)
    return FrameTruth(0, 0.0, p, np.zeros((n, 2)), np.zeros(n, bool), ball_z_mm=ball_z)


def _visible(cam: Camera, xy: np.ndarray, margin: float = 40.0) -> np.ndarray:
    uv = cam(np.column_stack([xy, np.zeros(len(xy))]))
    w, h = cam.image_size
    # Points beyond the lens polynomial's fold project into the image too, as ghosts.
    real = np.linalg.norm(cam.image_to_table(uv, 0.0) - xy, axis=1) < 1e-6
    return (
        real
        & (uv[:, 0] > margin)
        & (uv[:, 0] < w - margin)
        & (uv[:, 1] > margin)
        & (uv[:, 1] < h - margin)
    )


def _spread(cam: Camera, n: int, seed: int) -> np.ndarray:
    """n table points well inside both the field and the image."""
    rng = np.random.default_rng(seed)
    xy = np.column_stack([rng.uniform(-900, 900, 4000), rng.uniform(-600, 600, 4000)])
    # Off the markings: a white ball on a white line has no contrast to weigh.
    clear = shapely.distance(FIELD.painted, shapely.points(xy)) > 45.0
    return xy[_visible(cam, xy, 120.0) & clear][:n]


def _bilinear(img: np.ndarray, uv: np.ndarray) -> np.ndarray:
    m = uv.astype(np.float32).reshape(-1, 1, 2)
    return cv2.remap(img.astype(np.float32), m[..., 0], m[..., 1], cv2.INTER_LINEAR)[:, 0]


def _centre_line_points(
    geom: shapely.Geometry, lw: float, step: float = 4.0
) -> tuple[np.ndarray, np.ndarray]:
    """Points on a marking strip's centre line (boundary points moved lw/2 inward), and the
    half-width vectors across the line there."""
    cands, across = [], []
    for poly in getattr(geom, "geoms", [geom]):
        for ring in (poly.exterior, *poly.interiors):
            d = np.arange(0.0, ring.length, step)
            a = shapely.get_coordinates(shapely.line_interpolate_point(ring, d))
            b = shapely.get_coordinates(shapely.line_interpolate_point(ring, d + 0.01))
            t = (b - a) / np.linalg.norm(b - a, axis=1, keepdims=True)
            nrm = np.column_stack([-t[:, 1], t[:, 0]]) * lw / 2.0
            cands += [a + nrm, a - nrm]
            across += [nrm, nrm]
    pts, half = np.concatenate(cands), np.concatenate(across)
    inside = shapely.contains_xy(geom, pts[:, 0], pts[:, 1])
    depth = shapely.distance(geom.boundary, shapely.points(pts))
    keep = inside & (depth >= 0.45 * lw)
    return pts[keep], half[keep]


def _line_width_px(cam: Camera, xy: np.ndarray, half: np.ndarray) -> np.ndarray:
    z = np.zeros((len(xy), 1))
    return np.linalg.norm(cam(np.hstack([xy + half, z])) - cam(np.hstack([xy - half, z])), axis=1)


def _crowd() -> FrameTruth:
    rows = [("A1", "A", "goalkeeper", -985.0, 10.0, 70.0, 15.0, math.pi / 2)]
    rows += [
        ("A7", "A", "button", -760.0, 120.0, 60.0, 60.0, 0.0),
        ("B9", "B", "button", -640.0, -90.0, 60.0, 60.0, 0.0),
    ]
    rows += [
        ("B4", "B", "button", 300.0, 200.0, 60.0, 60.0, 0.0),
        ("A3", "A", "button", 520.0, -60.0, 60.0, 60.0, 0.0),
    ]
    rows += [("ball", "", "ball", -200.0, 20.0, 10.0, 10.0, 0.0)]
    return _frame(rows)


def test_markings_land_on_marking_pixels(renderer: Renderer) -> None:
    cam = renderer.camera
    frame = _crowd()
    img = renderer.render(frame, clean=True).astype(float)
    empty = renderer.render(
        replace(
            frame,
            pieces=frame.pieces.select(np.zeros(len(frame.pieces), bool)),
            vel_mm_s=np.zeros((0, 2)),
            moving=np.zeros(0, bool),
        ),
        clean=True,
    )
    covered = (
        cv2.dilate(
            (np.abs(img - empty).sum(axis=2) > 6).astype(np.uint8), np.ones((7, 7), np.uint8)
        )
        > 0
    )
    checked = skipped = 0
    for name, geom in FIELD.markings.items():
        if name.startswith("posts"):
            continue
        xy, half = _centre_line_points(geom, TABLE.line_width)
        # Near a goal the net's roof and the posts stand over the goal line.
        near_goal = (np.abs(xy[:, 0]) > TABLE.half_length - 80) & (
            np.abs(xy[:, 1]) < TABLE.goal_width / 2 + 60
        )
        keep = _visible(cam, xy, 3.0) & ~near_goal
        # A line narrower than ~1.2 px is blended with the felt by any camera: where the lens
        # compresses the image (k1 < 0, near the corners) those points cannot be judged.
        thin = _line_width_px(cam, xy, half) < 1.2
        skipped += int((keep & thin).sum())
        xy = xy[keep & ~thin]
        if len(xy) == 0:
            continue
        uv = cam(np.column_stack([xy, np.zeros(len(xy))]))
        free = ~covered[np.round(uv[:, 1]).astype(int), np.round(uv[:, 0]).astype(int)]
        uv = uv[free]
        colour = _bilinear(img, uv)
        gain = _bilinear(renderer.gain[:, :, 0], uv)[:, None]
        to_line = np.linalg.norm(colour - np.array(renderer.style.line_bgr) * gain, axis=1)
        to_field = np.linalg.norm(colour - np.array(renderer.style.field_bgr) * gain, axis=1)
        bad = to_line >= to_field
        assert not bad.any(), (
            f"{name}: {bad.sum()} of {len(uv)} points off the line, e.g. {uv[bad][:3]}"
        )
        checked += len(uv)
    assert checked > 1500 and skipped < 0.2 * checked


def test_marking_check_fails_on_a_shifted_camera(renderer: Renderer) -> None:
    """Failure row: the same check with a camera 3 mm off finds many points off the lines."""
    cam = renderer.camera
    moved = Camera(cam.image_size, cam.K, cam.dist, cam.rvec, cam.tvec + np.array([3.0, 3.0, 0.0]))
    img = renderer.background.astype(float)
    names = ("halfway", "center_circle", "boundary")
    xy = np.concatenate(
        [_centre_line_points(FIELD.markings[k], TABLE.line_width)[0] for k in names]
    )
    xy = xy[_visible(moved, xy, 3.0)]
    uv = moved(np.column_stack([xy, np.zeros(len(xy))]))
    colour = _bilinear(img, uv)
    gain = _bilinear(renderer.gain[:, :, 0], uv)[:, None]
    off = np.linalg.norm(
        colour - np.array(renderer.style.line_bgr) * gain, axis=1
    ) >= np.linalg.norm(colour - np.array(renderer.style.field_bgr) * gain, axis=1)
    assert len(uv) == 0 or off.mean() > 0.5


def _coverage(
    renderer: Renderer, frame: FrameTruth, bgr: tuple[int, int, int], hull_uv: np.ndarray
) -> np.ndarray:
    """Per-pixel coverage of a flat-coloured piece (its render against the empty table), zero
    outside a window 4 px around ``hull_uv``."""
    img = renderer.render(frame, clean=True)
    x0, y0 = np.floor(hull_uv.min(axis=0) - 4).astype(int)
    x1, y1 = np.ceil(hull_uv.max(axis=0) + 5).astype(int)
    win = (slice(y0, y1), slice(x0, x1))
    bg = renderer.background[win].astype(float)
    diff = np.array(bgr, float) * renderer.gain[win] - bg
    alpha = np.zeros(img.shape[:2])
    alpha[win] = ((img[win] - bg) * diff).sum(axis=2) / np.maximum((diff * diff).sum(axis=2), 1e-9)
    return alpha


def _check_silhouette(alpha: np.ndarray, hull_uv: np.ndarray) -> float:
    """Max distance (px) by which the 50 % coverage boundary strays from the projected hull."""
    poly = shapely.Polygon(hull_uv)
    x0, y0, x1, y1 = (int(v) for v in poly.buffer(3).bounds)
    vv, uu = np.mgrid[y0 : y1 + 1, x0 : x1 + 1]
    pts = shapely.points(uu.ravel(), vv.ravel())
    d = shapely.distance(poly.exterior, pts) * np.where(shapely.contains(poly, pts), 1.0, -1.0)
    a = alpha[y0 : y1 + 1, x0 : x1 + 1].ravel()
    wrong_in = (a > 0.5) & (d < 0)  # rendered inside, truly outside: by how much
    wrong_out = (a < 0.5) & (d > 0)
    # Coverage sums to the area: the mean offset of the boundary is below 0.05 px.
    assert abs(a.clip(0, 1).sum() - poly.area) < 0.05 * poly.length
    return float(np.abs(d[wrong_in | wrong_out]).max(initial=0.0))


def test_button_silhouette_matches_projected_cylinder(renderer: Renderer) -> None:
    cam = renderer.camera
    for x, y in _spread(cam, 6, 1):
        frame = _frame([("Ax", "A", "button", x, y, 60.0, 60.0, 0.0)])
        ang = np.linspace(0, 2 * np.pi, 720, endpoint=False)
        ring = np.column_stack([x + 30 * np.cos(ang), y + 30 * np.sin(ang)])
        pts = np.concatenate([np.column_stack([ring, np.full(720, z)]) for z in (0.0, 10.0)])
        hull = cv2.convexHull(cam(pts).astype(np.float32))[:, 0].astype(float)
        alpha = _coverage(renderer, frame, PLAIN.base_bgr, hull)
        assert _check_silhouette(alpha, hull) <= 0.5


def test_goalkeeper_silhouette_matches_projected_box(renderer: Renderer) -> None:
    cam = renderer.camera
    for k, (x, y) in enumerate(_spread(cam, 3, 5)):
        angle = 0.3 + 0.7 * k
        frame = _frame([("Ax", "A", "goalkeeper", x, y, 70.0, 15.0, angle)])
        c4 = rectangle_corners(np.array([[x, y]]), np.array([[70.0, 15.0]]), np.array([angle]))[0]
        pts = np.concatenate([np.column_stack([c4, np.full(4, z)]) for z in (0.0, 35.0)])
        hull = cv2.convexHull(cam(pts).astype(np.float32))[:, 0].astype(float)
        alpha = _coverage(renderer, frame, PLAIN.base_bgr, hull)
        assert _check_silhouette(alpha, hull) <= 0.5


@pytest.mark.parametrize("ball_z", [math.nan, 30.0])
def test_ball_centroid_matches_projected_centre(renderer: Renderer, ball_z: float) -> None:
    cam = renderer.camera
    errors = []
    for x, y in _spread(cam, 5, 9):
        frame = _frame([("ball", "", "ball", x, y, 10.0, 10.0, 0.0)], ball_z=ball_z)
        img = renderer.render(frame, clean=True)
        weight = cv2.absdiff(img, renderer.background).astype(float).sum(axis=2)
        vv, uu = np.nonzero(weight > 0)
        wt = weight[vv, uu]
        got = np.array([(uu * wt).sum(), (vv * wt).sum()]) / wt.sum()
        zc = 5.0 if math.isnan(ball_z) else ball_z
        outline = sphere_silhouette(cam, np.array([x, y, zc]), 5.0, n=720)
        c = shapely.Polygon(outline).centroid
        errors.append(np.hypot(got[0] - c.x, got[1] - c.y))
    assert max(errors) < 0.1, errors


def test_nearer_piece_occludes_farther() -> None:
    """Tilted camera: a goalkeeper between the camera and the ball hides it; painter's order."""
    cam = _tilted(25.0, (0.0, 0.0), 1000.0, (900, 1200))
    r = Renderer(TABLE, cam, FLAT)
    toward_cam = cam.centre_mm[:2] / np.linalg.norm(cam.centre_mm[:2])
    ball_xy = np.array([0.0, 0.0])
    gk_xy = ball_xy + toward_cam * 18.0
    angle = math.atan2(toward_cam[1], toward_cam[0]) + math.pi / 2
    rows = [
        ("ball", "", "ball", *ball_xy, 10.0, 10.0, 0.0),
        ("Ax", "A", "goalkeeper", *gk_xy, 70.0, 15.0, angle),
    ]
    for order in (rows, rows[::-1]):
        img = r.render(_frame(order), clean=True)
        u, v = np.round(cam(np.array([[*ball_xy, 5.0]]))[0]).astype(int)
        expected = np.array(PLAIN.base_bgr) * r.gain[v, u, 0]
        assert np.abs(img[v, u] - expected).max() < 40, img[v, u]


@pytest.mark.parametrize("moving", [False, True])
@pytest.mark.parametrize("over", [True, False])
def test_the_crossbar_hides_a_ball_under_it(moving: bool, over: bool) -> None:
    """With ``bars_over_pieces`` a crossbar stands over any piece, as the camera looking down
    from over the field sees it: a ball under the bar as the camera sees it is behind it.
    Non-square, tilted toward the goal; at rest (in the cached layer) and moving. Failure
    rows: the ball beyond the bar's image is drawn, the bare bar is drawn, and without the
    option (the bars the background's) the ball is drawn over the bar."""
    cam = _tilted(25.0, (600.0, 0.0), 1000.0, (1200, 900))
    r = Renderer(TABLE, cam, replace(FLAT, ball_bgr=(30, 140, 250), bars_over_pieces=over))
    hl, r_post, gh = TABLE.half_length, TABLE.post_diameter / 2.0, TABLE.goal_height
    bar_uv = cam(np.array([[hl + r_post, 0.0, gh]]))[0]
    # the footprint whose ball's centre the camera sees where the bar's middle is
    under = cam.image_to_table(bar_uv[None], 5.0)[0]
    assert hl < under[0] < hl + TABLE.goal_depth and abs(under[1]) < TABLE.goal_width / 2
    u, v = np.round(bar_uv).astype(int)
    button = ("A1", "A", "button", -600.0, 0.0, 50.0, 50.0, 0.0)
    bare = r.render(_frame([button]), clean=True)
    for x, hidden in ((under[0], True), (under[0] + 25.0, False)):
        frame = _frame([("ball", "", "ball", x, under[1], 10.0, 10.0, 0.0), button])
        if moving:
            frame = replace(
                frame, vel_mm_s=np.array([[1.0, 0.0], [0.0, 0.0]]), moving=np.array([True, False])
            )
        img = r.render(frame, clean=True)
        if hidden and over:  # the bar's pixel over the ball's centre: the bar's, not the ball's
            np.testing.assert_array_equal(img[v, u], bare[v, u])
        elif hidden:  # the ball drawn over the bar
            assert np.abs(img[v, u].astype(float) - bare[v, u]).max() > 60
        else:
            b = np.round(cam(np.array([[x, under[1], 5.0]]))[0]).astype(int)
            assert np.abs(img[b[1], b[0]].astype(float) - bare[b[1], b[0]]).max() > 60
    white = np.array([245.0, 245.0, 245.0]) * r.gain[v, u, 0]
    assert np.abs(bare[v, u] - white).max() < 3  # the bar itself, on a bare table


def test_moving_ball_behind_static_piece_stays_hidden() -> None:
    """The static-layer cache redraws a nearer resting piece over a moving one."""
    cam = _tilted(25.0, (0.0, 0.0), 1000.0, (900, 1200))
    r = Renderer(TABLE, cam, FLAT)
    toward_cam = cam.centre_mm[:2] / np.linalg.norm(cam.centre_mm[:2])
    gk_xy = toward_cam * 18.0
    angle = math.atan2(toward_cam[1], toward_cam[0]) + math.pi / 2
    frame = _frame(
        [
            ("ball", "", "ball", 0.0, 0.0, 10.0, 10.0, 0.0),
            ("Ax", "A", "goalkeeper", *gk_xy, 70.0, 15.0, angle),
        ]
    )
    moving = replace(
        frame, vel_mm_s=np.array([[1.0, 0.0], [0.0, 0.0]]), moving=np.array([True, False])
    )
    np.testing.assert_array_equal(r.render(moving, clean=True), r.render(frame, clean=True))


def test_hand_covers_pieces_and_noise_is_seeded() -> None:
    cam = preset_camera("overhead", TABLE, (640, 360))
    style = RenderStyle(noise_sigma=4.0)
    frame = _crowd()
    hand = Hand(tip_xy_mm=(300.0, 200.0), elbow_xy_mm=(300.0, -1000.0))
    with_hand = replace(frame, hands=(hand,))
    r1, r2 = Renderer(TABLE, cam, style), Renderer(TABLE, cam, style)
    a, b = r1.render(with_hand), r2.render(with_hand)
    np.testing.assert_array_equal(a, b)  # same seed, same frames
    clean = r1.render(with_hand, clean=True)
    assert 2.0 < np.std(a.astype(float) - clean) < 6.0
    palm = np.round(cam(np.array([[300.0, 200.0 - 0.55 * 80.0, 52.0]]))[0]).astype(int)
    skin = np.array(hand.skin_bgr) * r1.gain[palm[1], palm[0], 0]
    assert np.abs(clean[palm[1], palm[0]] - skin).max() < 25  # the hand is over button B4


def test_motion_blur_smears_along_velocity() -> None:
    cam = preset_camera("overhead", TABLE, (1280, 720))
    r = Renderer(TABLE, cam, replace(FLAT, noise_sigma=0.0))
    frame = _frame([("Ax", "A", "button", 0.0, 300.0, 60.0, 60.0, 0.0)])
    moving = replace(frame, vel_mm_s=np.array([[2400.0, 0.0]]), moving=np.array([True]))
    still, blurred = r.render(frame), r.render(moving)
    bg = r.background.astype(float)

    def extent(img: np.ndarray) -> np.ndarray:
        mask = np.abs(img.astype(float) - bg).sum(axis=2) > 10
        vv, uu = np.nonzero(mask)
        return np.array([uu.max() - uu.min(), vv.max() - vv.min()])

    grow = extent(blurred) - extent(still)
    expected = 2400.0 / 120.0 * (cam.K[0, 0] / 1600.0)  # mm in the exposure -> px at z ~ 0
    assert grow[0] == pytest.approx(expected, abs=2.0)
    assert abs(grow[1]) <= 1


def test_styles_and_jpeg() -> None:
    cam = preset_camera("tilted", TABLE, (480, 320))
    for name in HARD_PAIRS:
        img = Renderer(TABLE, cam, RenderStyle.hard_pair(name, jpeg_quality=70)).render(_crowd())
        assert img.shape == (320, 480, 3) and img.dtype == np.uint8
    with pytest.raises(ValueError, match="pattern"):
        TeamDesign((0, 0, 0), (0, 0, 0), (0, 0, 0), "checkers")


def test_flat_ball_is_a_disc() -> None:
    """nacional's ball is a 10 x 2 mm disc (000 Art. 7): drawn as a short cylinder."""
    table = load_table("nacional")
    cam = preset_camera("overhead", table, (1280, 720))
    r = Renderer(table, cam, FLAT)
    frame = _frame([("ball", "", "ball", 0.0, 0.0, 10.0, 10.0, 0.0)])
    h, _ = r.heights(frame)
    assert h[0] == 2.0 and not r.is_sphere(10.0, 2.0)
    ang = np.linspace(0, 2 * np.pi, 720, endpoint=False)
    pts = np.concatenate(
        [np.column_stack([5 * np.cos(ang), 5 * np.sin(ang), np.full(720, z)]) for z in (0.0, 2.0)]
    )
    hull = cv2.convexHull(cam(pts).astype(np.float32))[:, 0].astype(float)
    alpha = _coverage(r, frame, r.style.ball_bgr, hull)
    assert _check_silhouette(alpha, hull) <= 0.5
