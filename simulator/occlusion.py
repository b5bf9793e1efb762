"""Which of the simulator's solids hides which: the painter's order of a frame's pieces.

Painting pieces by their centres' distance to the camera is wrong for solids of different
shapes: a 35 mm goalkeeper's centre sits far above a resting ball's, so from a tilted camera the
box is painted over a ball standing between it and the lens. Here the order comes from the
solids themselves. Two disjoint convex solids have a plane between them; the one on the camera's
side of that plane can hide the other and never the reverse (every ray from the camera meets
the plane once: its points in the camera's half come first). The pieces are all such solids:

- a button, or a flat ball (a disc), is a vertical cylinder; a goalkeeper is a vertical box.
  Both are vertical prisms (a convex footprint times a height range), and two disjoint prisms
  have disjoint footprints (a vertical plane between them) or disjoint height ranges (a
  horizontal one);
- a ball is a sphere: the plane through the other solid's nearest point to its centre,
  across the line to that centre, separates them.

:func:`paint_order` sorts the solids whose image boxes overlap by that test (a topological
sort, the farther centre first among free choices; on a cycle, rare for convex solids, the
farthest left is painted next). Pure numpy: the physics and the vision code never need it, and it
needs no camera model (the caller gives the camera centre and the image boxes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["Solid", "box", "cylinder", "in_front", "paint_order", "separating_plane", "sphere"]

FloatArray = NDArray[np.float64]
Box = tuple[float, float, float, float]  # u0, v0, u1, v1 (px)

# pymunk lets resting pieces overlap by its collision slop (0.1 mm); a plane that leaves them
# overlapping by less than this still orders them (the overlap hides nothing one can see).
OVERLAP_MM = 0.5


@dataclass(frozen=True, eq=False)
class Solid:
    """A convex solid: a sphere, or a vertical prism (a footprint between two heights).

    Build one with :func:`sphere`, :func:`cylinder` or :func:`box`. A prism's footprint is a
    disc (``radius_mm`` > 0, ``polygon_mm`` None) or a convex polygon (``polygon_mm`` (k, 2)).
    """

    centre_mm: FloatArray  # (3,): the sphere's centre, or the prism's footprint centre, mid-height
    radius_mm: float = 0.0  # the sphere's or the disc's radius
    polygon_mm: FloatArray | None = None
    z_mm: tuple[float, float] = (0.0, 0.0)  # a prism's bottom and top
    is_sphere: bool = False


def sphere(centre_mm: Sequence[float] | FloatArray, radius_mm: float) -> Solid:
    """A sphere (a ball)."""
    c = np.asarray(centre_mm, dtype=np.float64).reshape(3)
    return Solid(c, float(radius_mm), None, (c[2] - radius_mm, c[2] + radius_mm), True)


def cylinder(
    xy_mm: Sequence[float] | FloatArray, radius_mm: float, z0_mm: float, z1_mm: float
) -> Solid:
    """A vertical cylinder (a button, a flat ball) from ``z0_mm`` up to ``z1_mm``."""
    xy = np.asarray(xy_mm, dtype=np.float64).reshape(2)
    return Solid(
        np.array([xy[0], xy[1], (z0_mm + z1_mm) / 2.0]),
        float(radius_mm),
        None,
        (float(z0_mm), float(z1_mm)),
    )


def box(corners_xy_mm: Sequence[Sequence[float]] | FloatArray, z0_mm: float, z1_mm: float) -> Solid:
    """A vertical prism on a convex footprint (a goalkeeper's 4 corners, either winding)."""
    poly = np.asarray(corners_xy_mm, dtype=np.float64).reshape(-1, 2)
    c = poly.mean(axis=0)
    return Solid(
        np.array([c[0], c[1], (z0_mm + z1_mm) / 2.0]),
        0.0,
        poly,
        (float(z0_mm), float(z1_mm)),
    )


# ---------------------------------------------------------------- footprints (2D)
def _edges(poly: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Unit outward normals (k, 2) of a convex polygon's edges, and the edges' start points."""
    d = np.roll(poly, -1, axis=0) - poly
    x = poly[:, 0]
    y = poly[:, 1]
    ccw = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0.0
    n = np.column_stack([d[:, 1], -d[:, 0]]) if ccw else np.column_stack([-d[:, 1], d[:, 0]])
    return n / np.linalg.norm(n, axis=1, keepdims=True), poly


def _nearest_on_polygon(poly: FloatArray, p: FloatArray) -> FloatArray:
    """The point of the (filled) convex polygon nearest to ``p`` (``p`` itself when inside)."""
    normals, starts = _edges(poly)
    if np.all(np.einsum("ij,ij->i", p - starts, normals) <= 0.0):
        return p.copy()
    d = np.roll(poly, -1, axis=0) - poly
    s = np.clip(np.einsum("ij,ij->i", p - poly, d) / np.einsum("ij,ij->i", d, d), 0.0, 1.0)
    cand = poly + s[:, None] * d
    return np.asarray(cand[np.argmin(np.linalg.norm(cand - p, axis=1))])


def _nearest_on_footprint(s: Solid, p: FloatArray) -> FloatArray:
    if s.polygon_mm is not None:
        return _nearest_on_polygon(s.polygon_mm, p)
    c = s.centre_mm[:2]
    d = float(np.linalg.norm(p - c))
    return p.copy() if d <= s.radius_mm else c + (p - c) * (s.radius_mm / d)


def _support_range(s: Solid, n: FloatArray) -> tuple[float, float]:
    """The footprint's extent along the unit direction ``n`` (2,)."""
    if s.polygon_mm is not None:
        proj = s.polygon_mm @ n
        return float(proj.min()), float(proj.max())
    c = float(s.centre_mm[:2] @ n)
    return c - s.radius_mm, c + s.radius_mm


def _footprint_plane(a: Solid, b: Solid) -> tuple[FloatArray, float, float]:
    """The best line between two footprints: unit normal (2,) towards ``a``, offset, gap (mm;
    negative when they overlap, then the line of least overlap)."""
    axes: list[FloatArray] = []
    for s in (a, b):
        if s.polygon_mm is not None:
            axes.extend(_edges(s.polygon_mm)[0])
    # A disc's separating axis runs from its centre to the other footprint's nearest point.
    for s, o in ((a, b), (b, a)):
        if s.polygon_mm is None:
            c = s.centre_mm[:2]
            q = (
                _nearest_on_polygon(o.polygon_mm, c)
                if o.polygon_mm is not None
                else o.centre_mm[:2]
            )
            d = c - q
            if float(np.hypot(*d)) > 1e-12:
                axes.append(d / float(np.hypot(*d)))
    best: tuple[FloatArray, float, float] = (np.array([1.0, 0.0]), 0.0, -math.inf)
    for n in axes:
        a_lo, a_hi = _support_range(a, n)
        b_lo, b_hi = _support_range(b, n)
        if a_lo - b_hi > best[2]:  # a on the side of n
            best = (n, (a_lo + b_hi) / 2.0, a_lo - b_hi)
        if b_lo - a_hi > best[2]:  # a on the other side
            best = (-n, -(b_lo + a_hi) / 2.0, b_lo - a_hi)
    return best


# ---------------------------------------------------------------- solids (3D)
def separating_plane(a: Solid, b: Solid) -> tuple[FloatArray, float, float]:
    """A plane between two solids: unit normal ``n`` (3,), offset ``t`` and gap (mm).

    ``a`` lies on the side ``n @ x > t``, ``b`` on ``n @ x < t``, both ``gap / 2`` or more from
    the plane. A negative gap means they overlap (the plane then cuts the least into them; the
    gap is -inf when a sphere's centre lies inside the other solid).
    """
    if a.is_sphere and b.is_sphere:
        d = a.centre_mm - b.centre_mm
        dist = float(np.linalg.norm(d))
        if dist < 1e-12:
            return np.array([0.0, 0.0, 1.0]), 0.0, -math.inf
        n = d / dist
        gap = dist - a.radius_mm - b.radius_mm
        return n, float(n @ b.centre_mm) + b.radius_mm + gap / 2.0, gap
    if a.is_sphere or b.is_sphere:
        ball, other = (a, b) if a.is_sphere else (b, a)
        c = ball.centre_mm
        q = np.array([*_nearest_on_footprint(other, c[:2]), np.clip(c[2], *other.z_mm)])
        dist = float(np.linalg.norm(c - q))
        if dist < 1e-12:
            return np.array([0.0, 0.0, 1.0]), 0.0, -math.inf
        n = (c - q) / dist
        gap = dist - ball.radius_mm
        t = float(n @ q) + gap / 2.0
        return (n, t, gap) if a.is_sphere else (-n, -t, gap)
    n2, t2, gap_xy = _footprint_plane(a, b)
    up, down = a.z_mm[0] - b.z_mm[1], b.z_mm[0] - a.z_mm[1]
    if max(up, down) > gap_xy:
        if up >= down:
            return np.array([0.0, 0.0, 1.0]), (a.z_mm[0] + b.z_mm[1]) / 2.0, up
        return np.array([0.0, 0.0, -1.0]), -(b.z_mm[0] + a.z_mm[1]) / 2.0, down
    return np.array([n2[0], n2[1], 0.0]), t2, gap_xy


def in_front(a: Solid, b: Solid, camera_mm: Sequence[float] | FloatArray) -> bool | None:
    """True when ``a`` may hide ``b`` from the camera and ``b`` never hides ``a``; False for the
    reverse; None when the solids overlap (beyond :data:`OVERLAP_MM`) or the camera is in the
    plane between them (then neither hides the other)."""
    n, t, gap = separating_plane(a, b)
    if gap < -OVERLAP_MM:
        return None
    side = float(n @ np.asarray(camera_mm, dtype=np.float64)) - t
    if abs(side) < 1e-9:
        return None
    return side > 0.0


def paint_order(
    solids: Sequence[Solid],
    camera_mm: Sequence[float] | FloatArray,
    boxes_px: Sequence[Box],
) -> list[int]:
    """Indices of ``solids`` in painter's order (the first painted first).

    Parameters
    ----------
    solids : the solids, in any order.
    camera_mm : the camera centre (3,), in the solids' frame.
    boxes_px : each solid's image bounding box (u0, v0, u1, v1); only solids whose boxes
        overlap are ordered against each other (others may be painted in either order).

    Returns
    -------
    A permutation of ``range(len(solids))``: a solid that can hide another comes after it.
    Pairs that overlap in space are ordered by their centres' distance to the camera.
    """
    cam = np.asarray(camera_mm, dtype=np.float64)
    n = len(solids)
    dist = [float(np.linalg.norm(s.centre_mm - cam)) for s in solids]
    b = np.asarray(boxes_px, dtype=np.float64).reshape(n, 4)
    after: list[set[int]] = [set() for _ in range(n)]  # after[i]: painted after i (hide it)
    before = [0] * n  # how many must be painted before i
    for i in range(n):
        hits = np.flatnonzero(
            (b[i + 1 :, 0] <= b[i, 2])
            & (b[i, 0] <= b[i + 1 :, 2])
            & (b[i + 1 :, 1] <= b[i, 3])
            & (b[i, 1] <= b[i + 1 :, 3])
        )
        for j in (hits + i + 1).tolist():
            front = in_front(solids[i], solids[j], cam)
            if front is None:
                front = dist[i] < dist[j]
            near, far = (i, j) if front else (j, i)
            after[far].add(near)
            before[near] += 1
    order: list[int] = []
    done = [False] * n
    for _ in range(n):
        free = [k for k in range(n) if not done[k] and before[k] == 0]
        # The farthest free solid first; on a cycle (no solid free), the farthest left.
        pool = free or [k for k in range(n) if not done[k]]
        k = max(pool, key=lambda m: (dist[m], -m))
        done[k] = True
        order.append(k)
        for m in after[k]:
            before[m] -= 1
    return order
