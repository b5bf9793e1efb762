"""The gabarito (000 REGRA 4 BLOQUEIO): exact thresholds, invariances and a raster brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.ndimage as ndi
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.enclosure import hull_clearance, piece_supports
from geometry.gabarito import Gabarito, gabarito_reach
from geometry.pieces import Pieces, footprints, pairwise_gaps
from geometry.tablespec import load_table

BOX = load_table("brasileira").rail_box  # (-1100, -800, 1100, 800)
R = 30.0  # the 6 cm gabarito
CAP = 60.0  # the check searches up to twice the radius


def pieces(xy, kinds=None, angles=None, sizes=None) -> Pieces:
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    n = len(xy)
    kind = np.array(kinds or ["button"] * n, dtype="<U10")
    size = np.array(
        sizes or [(70.0, 15.0) if k == "goalkeeper" else (60.0, 60.0) for k in kind], dtype=float
    ).reshape(n, 2)
    return Pieces(
        ids=np.array([f"p{i}" for i in range(n)]),
        team=np.array(["A"] * n),
        kind=kind,
        xy_mm=xy,
        size_mm=size,
        angle_rad=np.zeros(n) if angles is None else np.asarray(angles, dtype=float),
    )


def ring(n: int, radius: float, centre=(0.0, 0.0), phase: float = 0.0) -> np.ndarray:
    a = phase + np.arange(n) * 2.0 * math.pi / n
    return np.asarray(centre) + radius * np.stack([np.cos(a), np.sin(a)], axis=1)


# --------------------------------------------------------------------------- thresholds
# Four buttons on a ring: the gabarito passes between neighbours iff their gap >= 60 mm, so
# R* = gap / 2 and margin = 30 - gap / 2 (the contact arcs stay open well beyond).
@pytest.mark.parametrize(
    ("gap", "blocked", "margin"),
    [(59.8, True, 0.1), (60.2, False, -0.1), (50.0, True, 5.0), (70.0, False, -5.0)],
)
def test_ring_of_four_blocks_below_a_gabarito_diameter(gap, blocked, margin) -> None:
    radius = (gap + 60.0) / math.sqrt(2.0)
    res = gabarito_reach(np.zeros(2), 5.0, pieces(ring(4, radius)), BOX, R, CAP)
    assert res.blocked is blocked
    assert res.margin_mm == pytest.approx(margin, abs=1e-6)
    assert not res.bound


def test_a_gap_of_exactly_one_gabarito_lets_it_through() -> None:
    # Touching is allowed: buttons on a square, 60.0 mm apart edge to edge.
    p = pieces([(60, 60), (-60, 60), (-60, -60), (60, -60)])
    res = gabarito_reach(np.zeros(2), 5.0, p, BOX, R, CAP)
    assert not res.blocked and res.margin_mm == 0.0


# The ball against the far rail between two buttons that touch the rail, centres x = +/- s: the
# last contact is straight below the ball, in the notch between the buttons; it closes when
# sqrt(s^2 + (20 - R)^2) = R + 30, i.e. R* = (s^2 - 500) / 100.
@pytest.mark.parametrize(("r_star", "blocked"), [(29.9, True), (30.1, False), (20.0, True)])
def test_ball_at_the_rail_between_two_buttons(r_star, blocked) -> None:
    ymax = BOX[3]
    s = math.sqrt(500.0 + 100.0 * r_star)
    p = pieces([(-s, ymax - 30.0), (s, ymax - 30.0)])
    res = gabarito_reach(np.array([0.0, ymax - 5.0]), 5.0, p, BOX, R, CAP)
    assert res.blocked is blocked
    assert res.critical_radius_mm == pytest.approx(r_star, abs=0.021)


# Two buttons on a line through the ball, symmetric at centre distance D: the last open contact
# point is straight up; it closes when sqrt(D^2 + (R + 5)^2) = R + 30, i.e. R* = (D^2 - 875) / 50.
@pytest.mark.parametrize(("r_star", "blocked"), [(29.9, True), (30.1, False), (12.4, True)])
def test_contact_arc_closing_between_two_buttons(r_star, blocked) -> None:
    d = math.sqrt(875.0 + 50.0 * r_star)
    res = gabarito_reach(np.zeros(2), 5.0, pieces([(-d, 0.0), (d, 0.0)]), BOX, R, CAP)
    assert res.blocked is blocked
    assert res.critical_radius_mm == pytest.approx(r_star, abs=1e-6)


@pytest.mark.parametrize(
    ("xy", "ball", "why"),
    [
        ([(-200.0, 0.0), (200.0, 0.0)], (0.0, 0.0), "far apart"),
        ([(-40.0, 0.0), (40.0, 0.0)], (0.0, 60.0), "ball outside the pair"),
        ([], (0.0, 0.0), "no obstacles"),
    ],
)
def test_open_ball_is_reachable_up_to_the_cap(xy, ball, why) -> None:
    res = gabarito_reach(np.asarray(ball), 5.0, pieces(np.reshape(xy, (-1, 2))), BOX, R, CAP)
    assert not res.blocked, why
    assert res.bound and res.margin_mm == pytest.approx(R - CAP)


def test_the_rails_alone_keep_a_big_gabarito_out_of_the_corner() -> None:
    # The ball in the rails' corner: the gabarito's centre stops at the shrunk box's corner,
    # sqrt(2) (R - 5) from the ball, which touches it while R <= 5 (3 + 2 sqrt 2) = 29.14 mm.
    xmin, ymin = BOX[0], BOX[1]
    res = gabarito_reach(np.array([xmin + 5.0, ymin + 5.0]), 5.0, pieces([]), BOX, R, CAP)
    assert res.blocked
    assert res.critical_radius_mm == pytest.approx(5.0 * (3.0 + 2.0 * math.sqrt(2.0)), abs=1e-6)


# A long goalkeeper's face at x = -35 and a button at x = d on the other side of the ball: the
# contact arc above the ball closes when the gabarito touches the ball, the face and the button:
# R* = (d^2 + 70 d - 875) / (2 d + 50) (the face's corner is far: the keeper is 200 mm long).
@pytest.mark.parametrize(("r_star", "blocked"), [(29.9, True), (30.1, False), (40.0, False)])
def test_goalkeeper_face_and_button_close_the_contact_arc(r_star, blocked) -> None:
    d = (
        2.0 * r_star - 70.0 + math.sqrt((70.0 - 2.0 * r_star) ** 2 + 4.0 * (875.0 + 50.0 * r_star))
    ) / 2.0
    p = pieces(
        [(-42.5, 0.0), (d, 0.0)],
        kinds=["goalkeeper", "button"],
        angles=[math.pi / 2, 0.0],
        sizes=[(200.0, 15.0), (60.0, 60.0)],
    )
    res = gabarito_reach(np.zeros(2), 5.0, p, BOX, R, CAP)
    assert res.blocked is blocked
    assert res.critical_radius_mm == pytest.approx(r_star, abs=1e-6)


def test_reach_is_monotone_in_the_radius() -> None:
    p = pieces(ring(5, 70.0, phase=0.3))
    g = Gabarito(np.array([3.0, -2.0]), 5.0, p, BOX, 80.0)
    res = g.solve(R)
    radii = np.linspace(1.0, 79.0, 157)
    reach = [bool(g.reach(r).any()) for r in radii]
    flips = np.flatnonzero(np.diff(reach))
    assert len(flips) == 1 and reach[0] and not reach[-1]
    assert radii[flips[0]] <= res.critical_radius_mm <= radii[flips[0] + 1]


# ---------------------------------------------------------------------------- invariances
def _formation(seed: int) -> tuple[Pieces, np.ndarray]:
    rng = np.random.default_rng(seed)
    ball = rng.uniform(-100.0, 100.0, 2)
    n = int(rng.integers(2, 6))
    a = np.sort(rng.uniform(0.0, 2.0 * math.pi, n))
    xy = ball + rng.uniform(36.0, 75.0, n)[:, None] * np.stack([np.cos(a), np.sin(a)], 1)
    kinds = ["button"] * n
    if rng.random() < 0.3:
        kinds[0] = "goalkeeper"
    p = pieces(xy, kinds=kinds, angles=rng.uniform(0.0, math.pi, n))
    keep = np.ones(n, dtype=bool)  # drop overlapping pieces (and any touching the ball)
    gaps = pairwise_gaps(p)
    for i in range(n):
        keep[i] = not (gaps[i, :i][keep[:i]] < 0.0).any()
    ball_piece = pieces([ball], sizes=[(10.0, 10.0)])
    keep &= pairwise_gaps(p, ball_piece)[:, 0] >= 0.0
    return p.select(keep), ball


_TRANSFORMS = {
    "mirror_x": (np.array([[-1.0, 0.0], [0.0, 1.0]]), np.zeros(2)),
    "mirror_y": (np.array([[1.0, 0.0], [0.0, -1.0]]), np.zeros(2)),
    "translate": (np.eye(2), np.array([137.5, -88.25])),
}


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    how=st.sampled_from([*_TRANSFORMS, "rotate"]),
    angle=st.floats(0.0, 2.0 * math.pi),
)
def test_verdict_and_margin_survive_rigid_motions_and_mirrors(seed, how, angle) -> None:
    p, ball = _formation(seed)
    m, off = _TRANSFORMS.get(how, (None, np.zeros(2)))
    if m is None:
        m = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    a = gabarito_reach(ball, 5.0, p, BOX, R, CAP)
    b = gabarito_reach(m @ ball + off, 5.0, p.transformed(m, off), BOX, R, CAP)
    assert a.blocked == b.blocked
    assert a.margin_mm == pytest.approx(b.margin_mm, abs=0.05)


# ---------------------------------------------------------------------- raster brute force
def brute_blocked(ball: np.ndarray, rb: float, p: Pieces, r: float, h: float = 0.25) -> bool:
    """Flood fill over gabarito centres on an ``h`` grid (independent of geometry.gabarito).

    A cell is free when its centre keeps the gabarito off every footprint, off the ball and
    inside the rails; the ball is blocked when no free cell touching the ball (within h/sqrt 2
    of the contact circle) is connected to a free cell outside the grown hull.
    """
    xmin, ymin, xmax, ymax = BOX
    fp = footprints(p, quad_segs=64)
    grown = shapely.convex_hull(shapely.union_all(fp)).buffer(r, quad_segs=64) if len(p) else None
    lo = ball - r - rb - 2.0
    hi = ball + r + rb + 2.0
    if grown is not None:
        bx = grown.bounds
        lo, hi = np.minimum(lo, np.array(bx[:2]) - 2.0), np.maximum(hi, np.array(bx[2:]) + 2.0)
    lo = np.maximum(lo, [xmin + r, ymin + r])
    hi = np.minimum(hi, [xmax - r, ymax - r])
    xs = np.arange(lo[0], hi[0], h) + h / 2.0
    ys = np.arange(lo[1], hi[1], h) + h / 2.0
    x, y = xs[None, :], ys[:, None]
    x32, y32 = x.astype(np.float32), y.astype(np.float32)  # the big arrays in float32
    free = np.ones((len(ys), len(xs)), dtype=bool)
    for i in range(len(p)):
        cx, cy = (float(v) for v in p.xy_mm[i])
        if p.is_disc[i]:
            free &= (x32 - cx) ** 2 + (y32 - cy) ** 2 >= (r + p.size_mm[i, 0] / 2.0) ** 2
        else:
            c, s = math.cos(p.angle_rad[i]), math.sin(p.angle_rad[i])
            lx = (x32 - cx) * np.float32(c) + (y32 - cy) * np.float32(s)
            ly = (y32 - cy) * np.float32(c) - (x32 - cx) * np.float32(s)
            ox = np.maximum(np.abs(lx) - p.size_mm[i, 0] / 2.0, 0.0)
            oy = np.maximum(np.abs(ly) - p.size_mm[i, 1] / 2.0, 0.0)
            free &= (ox**2 + oy**2 >= r * r) & ((ox > 0) | (oy > 0))
    d2 = (x - ball[0]) ** 2 + (y - ball[1]) ** 2  # float64: the contact band is thin
    free &= d2 >= (r + rb) ** 2
    contact = free & (d2 < (r + rb + h / math.sqrt(2.0)) ** 2)
    if grown is None:
        return not contact.any()
    ring_xy = np.asarray(grown.exterior.coords)
    a, b = ring_xy[:-1], ring_xy[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (y - a[None, :, 1]) / (b[None, :, 1] - a[None, :, 1])  # rows x hull edges
    xi = np.where((t >= 0) & (t <= 1), a[None, :, 0] + t * (b[None, :, 0] - a[None, :, 0]), np.nan)
    left, right = np.nanmin(xi, axis=1, initial=np.inf), np.nanmax(xi, axis=1, initial=-np.inf)
    outside = free & ~((x >= left[:, None]) & (x <= right[:, None]))
    labels, count = ndi.label(free)
    touching = np.zeros(count + 1, dtype=bool)
    touching[labels[contact]] = True
    touching[0] = False
    return not touching[labels[outside]].any()


def test_agrees_with_a_raster_flood_fill_on_random_formations() -> None:
    rng = np.random.default_rng(20240611)
    compared = excluded = blocked = 0
    while compared < 200:
        n = int(rng.integers(2, 7))
        ball = rng.uniform(-60.0, 60.0, 2)
        if rng.random() < 0.3:  # against or near the far rail
            ball[1] = BOX[3] - 5.0 - rng.uniform(0.0, 40.0)
        a = np.sort(rng.uniform(0.0, 2.0 * math.pi, n))
        xy = ball + rng.uniform(36.0, 80.0, n)[:, None] * np.stack([np.cos(a), np.sin(a)], 1)
        kinds = ["button"] * n
        if rng.random() < 0.3:
            kinds[0] = "goalkeeper"
        p = pieces(xy, kinds=kinds, angles=rng.uniform(0.0, math.pi, n))
        gaps = pairwise_gaps(p)
        keep = np.ones(n, dtype=bool)
        for i in range(n):
            keep[i] = not (gaps[i, :i][keep[:i]] < 0.0).any()
        keep &= pairwise_gaps(p, pieces([ball], sizes=[(10.0, 10.0)]))[:, 0] >= 0.0
        keep &= np.abs(p.xy_mm[:, 1]) < BOX[3] - 40.0
        p = p.select(keep)
        if len(p) < 2:
            continue
        res = gabarito_reach(ball, 5.0, p, BOX, R, CAP)
        if abs(res.margin_mm) < 0.5:
            excluded += 1
            continue
        compared += 1
        blocked += res.blocked
        assert res.blocked == brute_blocked(ball, 5.0, p, R), (p.xy_mm.tolist(), ball.tolist())
    print(f"compared {compared}, excluded near the threshold {excluded}, blocked {blocked}")
    assert compared >= 200 and blocked >= 20


# ---------------------------------------------------------------------- hull clearance
def test_hull_clearance_matches_shapely() -> None:
    rng = np.random.default_rng(7)
    for _ in range(40):
        n = 3
        kinds = ["goalkeeper" if rng.random() < 0.3 else "button" for _ in range(n)]
        p = pieces(rng.uniform(-90, 90, (n, 2)), kinds=kinds, angles=rng.uniform(0, math.pi, n))
        q = rng.uniform(-100, 100, 2)
        pts, rad = piece_supports(p)
        got = hull_clearance(pts, rad, np.array([[0, 1, 2], [0, 1, 1]]), q)
        for g, idx in zip(got, ([0, 1, 2], [0, 1]), strict=True):
            hull = shapely.convex_hull(shapely.union_all(footprints(p.select(np.array(idx)), 256)))
            pt = shapely.Point(q)
            want = hull.exterior.distance(pt) if hull.contains(pt) else -hull.distance(pt)
            assert g == pytest.approx(want, abs=0.01)
