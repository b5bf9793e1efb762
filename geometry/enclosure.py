"""Is a point enclosed by a formation? Hull clearances and the faces of grown obstacles.

Two tools, both exact up to closed forms:

* :func:`hull_clearance`: the signed clearance of a point inside the convex hull of a few pieces
  (000 Art. 22 V-E "a bola fica totalmente contida entre duas linhas paralelas imaginárias que
  cercam os dois jogadores"; V-G, three players). With the support function
  ``h(u) = max_i (u . p_i + r_i)`` of the pieces (buttons as discs, goalkeepers as their
  corners), the clearance is ``min_u (h(u) - u . q)``: positive inside (distance to the hull's
  boundary), negative outside (minus the distance to the hull). The minimum is reached either
  where the supporting piece changes (a common tangent of two pieces) or where ``u`` points
  from a piece to ``q``, so evaluating those directions only is exact.
* :class:`OverlapGraph` and :class:`GrownHull`: which face of the free space a point lies in
  when the pieces, the ball and the rails are grown by a radius ``R`` (used by
  :mod:`geometry.gabarito`). The grown sets are convex, so (nerve theorem) every loop of their
  union is a sum of the cycles of the graph "grown sets overlap" (gap < 2R), drawn through the
  centres and one common point (the middle of the gap) of each overlapping pair. Two free points
  share a face iff every cycle winds equally around both. The cycles are the fundamental cycles
  of a Kruskal spanning forest, so the cycle closed by an extra edge exists exactly while that
  edge's gap is below 2R.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from numpy.typing import NDArray

from geometry.pieces import Pieces, rectangle_corners

__all__ = ["GrownHull", "OverlapGraph", "hull_clearance", "pair_indices", "piece_supports"]

Box = tuple[float, float, float, float]
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_RAY = np.array([math.cos(0.6180339887), math.sin(0.6180339887)])  # generic winding ray
_RAIL_REP = 1000.0  # a rail's node is drawn this far beyond it
_HULL_SEGS = 64  # sides of a button's circumscribed polygon in the grown hull
_PAIRS: dict[int, tuple[IntArray, IntArray]] = {}


_RAILS: dict[tuple[int, Box], tuple[IntArray, IntArray, FloatArray, FloatArray, FloatArray]] = {}
_LBRT, _AXIS = np.arange(4), np.array([0, 1, 0, 1])  # rails L B R T and the axis each bounds
_SIGN = np.array([1.0, 1.0, -1.0, -1.0])  # toward the inside


def pair_indices(n: int) -> tuple[IntArray, IntArray]:
    """``np.triu_indices(n, 1)``, cached (it is slow for small ``n``)."""
    if n not in _PAIRS:
        _PAIRS[n] = np.triu_indices(n, 1)
    return _PAIRS[n]


def _rail_edges(m: int, box: Box) -> tuple[IntArray, IntArray, FloatArray, FloatArray, FloatArray]:
    """Edge ends for ``m`` nodes and the rails (nodes ``m .. m+3``, L B R T), cached.

    Returns the ends of every pair edge, then node-rail, then rail-rail edges; the rail-rail
    gaps and common points (neighbouring rails meet at the corners); the rails' nodes' points.
    """
    key = (m, box)
    if key not in _RAILS:
        xmin, ymin, xmax, ymax = box
        xm, ym = (xmin + xmax) / 2.0, (ymin + ymax) / 2.0
        ia, ib = pair_indices(m)
        rail_i = np.array([m, m + 1, m + 2, m, m, m + 1])
        rail_j = np.array([m + 1, m + 2, m + 3, m + 3, m + 2, m + 3])
        e_i = np.concatenate([ia, np.repeat(np.arange(m), 4), rail_i])
        e_j = np.concatenate([ib, np.tile(np.arange(m, m + 4), m), rail_j])
        rail_g = np.array([0.0, 0.0, 0.0, 0.0, xmax - xmin, ymax - ymin])
        rail_w = np.array(
            [[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax], [xm, ym], [xm, ym]]
        )
        reps = np.array(
            [
                [xmin - _RAIL_REP, ym],
                [xm, ymin - _RAIL_REP],
                [xmax + _RAIL_REP, ym],
                [xm, ymax + _RAIL_REP],
            ]
        )
        _RAILS[key] = (e_i, e_j, rail_g, rail_w, reps)
    return _RAILS[key]


_ARC_STEP = math.radians(6.0)  # largest turn of one mitred corner of the grown hull


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    return np.asarray(a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0])


def piece_supports(p: Pieces) -> tuple[FloatArray, FloatArray]:
    """Each piece as four support points and radii, ``(N, 4, 2)`` and ``(N, 4)``.

    A button is its centre (repeated) with its radius; a goalkeeper its four corners with 0.
    """
    pts = np.repeat(p.xy_mm[:, None, :], 4, axis=1)
    rad = np.repeat(np.where(p.is_disc, p.size_mm[:, 0] / 2.0, 0.0)[:, None], 4, axis=1)
    gk = ~p.is_disc
    if gk.any():
        pts[gk] = rectangle_corners(p.xy_mm[gk], p.size_mm[gk], p.angle_rad[gk])
    return pts, rad


def hull_clearance(pts: FloatArray, rad: FloatArray, groups: IntArray, q: FloatArray) -> FloatArray:
    """Signed clearance of point ``q`` inside the hull of each group of pieces.

    Parameters
    ----------
    pts, rad : from :func:`piece_supports`.
    groups : (G, k) piece indices (pairs, triples).
    q : (2,) the point.

    Returns
    -------
    (G,) distance from ``q`` to the hull's boundary, positive inside, negative outside.

    Examples
    --------
    >>> p = Pieces(ids=np.array(["a", "b"]), team=np.array(["A", "A"]),
    ...            kind=np.array(["button", "button"]),
    ...            xy_mm=np.array([[-50.0, 0.0], [50.0, 0.0]]), size_mm=np.full((2, 2), 60.0))
    >>> pts, rad = piece_supports(p)
    >>> hull_clearance(pts, rad, np.array([[0, 1]]), np.array([0.0, 10.0])).round(6).tolist()
    [20.0]
    """
    g = np.asarray(groups, dtype=np.intp)
    sp = pts[g].reshape(len(g), -1, 2)  # (G, S, 2)
    sr = rad[g].reshape(len(g), -1)
    s = sp.shape[1]
    ia, ib = np.triu_indices(s, 1)
    w = sp[:, ia] - sp[:, ib]  # common tangents: u . w = r_b - r_a
    length = np.hypot(w[..., 0], w[..., 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        c = (sr[:, ib] - sr[:, ia]) / length
        wh = w / length[..., None]
        side = np.sqrt(1.0 - c * c)
    perp = np.stack([-wh[..., 1], wh[..., 0]], axis=-1)
    tang = [c[..., None] * wh + sgn * side[..., None] * perp for sgn in (1.0, -1.0)]
    to_q = q - sp
    with np.errstate(invalid="ignore", divide="ignore"):
        radial = to_q / np.hypot(to_q[..., 0], to_q[..., 1])[..., None]
    u = np.concatenate([*tang, radial], axis=1)  # (G, D, 2)
    h = (np.einsum("gdk,gsk->gds", u, sp) + sr[:, None, :]).max(2)
    f = h - u @ q
    f = np.where(np.isfinite(f), f, np.inf)
    return np.asarray(f.min(1))


def _rect_disc(
    centre: FloatArray, size: FloatArray, angle: float, xy: FloatArray, rad: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Gaps between one rectangle and discs, and the middle of each gap (in both grown sets)."""
    c, s = math.cos(angle), math.sin(angle)
    rot = np.array([[c, -s], [s, c]])
    q = (xy - centre) @ rot  # local frame
    half = np.asarray(size, float) / 2.0
    near = np.clip(q, -half, half)
    off = q - near
    out = np.hypot(off[:, 0], off[:, 1])
    inside = out == 0.0
    gap = np.where(inside, -np.min(half - np.abs(q), axis=1), out) - rad
    w = np.where(inside[:, None], q, near + (gap / 2.0 / out)[:, None] * off)
    return gap, w @ rot.T + centre


class OverlapGraph:
    """Pieces, the ball and the rails (nodes) with their gaps; cycles and winding numbers.

    Node order: the ``N`` pieces, the ball (``N``), the rails L, B, R, T (``N+1 .. N+4``). Only
    pairs with a gap below ``max_gap_mm`` become edges.
    """

    def __init__(
        self, p: Pieces, ball_xy: FloatArray, ball_r: float, box: Box, max_gap_mm: float
    ) -> None:
        n = len(p)
        self.n = n
        m = n + 1
        xy = np.concatenate([p.xy_mm, ball_xy[None]])
        rad = np.append(np.where(p.is_disc, p.size_mm[:, 0] / 2.0, 0.0), ball_r)
        ia, ib = pair_indices(m)
        d = xy[ib] - xy[ia]
        dist = np.hypot(d[:, 0], d[:, 1])
        gap = dist - rad[ia] - rad[ib]
        wit = xy[ia] + ((rad[ia] + gap / 2.0) / dist)[:, None] * d
        ext = np.repeat(xy[:, None, :], 4, axis=1)  # extreme points toward L, B, R, T
        ext[:, _LBRT, _AXIS] -= _SIGN * rad[:, None]
        gk = np.flatnonzero(~p.is_disc)
        if len(gk):
            corners = rectangle_corners(p.xy_mm[gk], p.size_mm[gk], p.angle_rad[gk])
            pick = np.concatenate([corners.argmin(1), corners.argmax(1)], axis=1)  # (g, 4)
            ext[gk] = np.take_along_axis(corners, pick[..., None], axis=1)
            for k, i in enumerate(gk.tolist()):
                gg, ww = _rect_disc(p.xy_mm[i], p.size_mm[i], p.angle_rad[i], xy, rad)
                row = (ia == i) | (ib == i)
                other = np.where(ia == i, ib, ia)[row]
                gap[row], wit[row] = gg[other], ww[other]
                for j in gk[k + 1 :].tolist():  # two goalkeepers: polygon distance (rare)
                    a, b = shapely.polygons(corners[k]), shapely.polygons(corners[gk == j][0])
                    e = np.flatnonzero((ia == i) & (ib == j))
                    gap[e] = shapely.distance(a, b)
                    wit[e] = shapely.get_coordinates(shapely.shortest_line(a, b)).mean(0)
        bounds = np.array(box, dtype=float)
        rail_gap = _SIGN * (ext[:, _LBRT, _AXIS] - bounds)  # (N+1, 4)
        rail_wit = ext
        rail_wit[:, _LBRT, _AXIS] = bounds + _SIGN * rail_gap / 2.0
        self.rail_gap_pieces = rail_gap[:n].min(0) if n else np.full(4, np.inf)
        self.rail_gap_ball = rail_gap[n]
        self.ball_gap = gap[ib == n]  # ordered by piece (pairs (i, n) come last in i)
        e_i, e_j, rail_g, rail_w, rail_reps = _rail_edges(m, box)
        e_g = np.concatenate([gap, rail_gap.reshape(-1), rail_g])
        e_w = np.concatenate([wit, rail_wit.reshape(-1, 2), rail_w])
        keep = np.flatnonzero(e_g < max_gap_mm)
        keep = keep[np.argsort(e_g[keep], kind="stable")]
        self.e_i, self.e_j, self.e_gap = e_i[keep], e_j[keep], e_g[keep]
        reps = np.concatenate([xy, rail_reps])
        ew = e_w[keep]
        self.seg_a = np.concatenate([reps[self.e_i], ew])  # rep_i -> w, then w -> rep_j
        self.seg_b = np.concatenate([ew, reps[self.e_j]])
        self._cycles(n + 5)

    def _cycles(self, nv: int) -> None:
        """Kruskal forest; each extra edge closes one cycle, kept as a signed edge vector."""
        uf = list(range(nv))

        def find(a: int) -> int:
            while uf[a] != a:
                uf[a] = uf[uf[a]]
                a = uf[a]
            return a

        adj: list[list[tuple[int, int, float]]] = [[] for _ in range(nv)]
        extra: list[int] = []
        for e, (a, b) in enumerate(zip(self.e_i.tolist(), self.e_j.tolist(), strict=True)):
            ra, rb = find(a), find(b)
            if ra == rb:
                extra.append(e)
            else:
                uf[ra] = rb
                adj[a].append((b, e, 1.0))
                adj[b].append((a, e, -1.0))
        path = np.zeros((nv, len(self.e_i)))  # signed tree edges from each root to the node
        seen = [False] * nv
        for root in range(nv):
            if seen[root]:
                continue
            seen[root], stack = True, [root]
            while stack:
                a = stack.pop()
                for b, e, s in adj[a]:
                    if not seen[b]:
                        seen[b] = True
                        path[b] = path[a]
                        path[b, e] += s
                        stack.append(b)
        x = np.asarray(extra, dtype=np.intp)  # edge i -> j, then back from j to i in the tree
        z = path[self.e_i[x]] - path[self.e_j[x]]
        z[np.arange(len(x)), x] += 1.0
        self.z = z
        self.cycle_gap = self.e_gap[np.asarray(extra, dtype=np.intp)]

    def windings(self, q: FloatArray, r: float) -> FloatArray:
        """Winding numbers ``(Q, C)`` around points ``q`` of the cycles existing at radius ``r``."""
        act = self.cycle_gap < 2.0 * r
        if not act.any():
            return np.zeros((len(q), 0))
        ax = self.seg_a[:, 0] - q[:, 0:1]  # segment ends relative to each point
        ay = self.seg_a[:, 1] - q[:, 1:2]
        bx = self.seg_b[:, 0] - q[:, 0:1]
        by = self.seg_b[:, 1] - q[:, 1:2]
        sa, sb = _RAY[0] * ay - _RAY[1] * ax, _RAY[0] * by - _RAY[1] * bx
        # the ray q + s _RAY crosses the segment at s = cross(a, b) / (sb - sa)
        ahead = (ax * by - ay * bx) * (sb - sa) > 0.0
        k = np.where(((sa > 0.0) != (sb > 0.0)) & ahead, np.sign(sb - sa), 0.0)
        ne = len(self.e_i)
        return np.asarray((k[:, :ne] + k[:, ne:]) @ self.z[act].T)

    def cluster(self, r: float) -> tuple[int, ...]:
        """Pieces linked to the ball through gaps below ``2 r`` (rails not followed)."""
        n = self.n
        act = (self.e_gap < 2.0 * r) & (self.e_j <= n)
        pairs = list(zip(self.e_i[act].tolist(), self.e_j[act].tolist(), strict=True))
        members, grew = {n}, True
        while grew:
            grew = False
            for i, j in pairs:
                if (i in members) != (j in members):
                    members |= {i, j}
                    grew = True
        return tuple(sorted(m for m in members if m < n))


class GrownHull:
    """The convex hull of pieces grown by ``R``: a mitred polygon ``V + R M`` that contains it.

    Buttons enter as circumscribed polygons, so the polygon is never smaller than the true
    grown hull (by at most 0.04 mm for a 60 mm button).
    """

    def __init__(self, p: Pieces) -> None:
        t = np.arange(_HULL_SEGS) * (2.0 * math.pi / _HULL_SEGS)
        ring = np.stack([np.cos(t), np.sin(t)], axis=1) / math.cos(math.pi / _HULL_SEGS)
        disc = p.is_disc
        pts = [
            (p.xy_mm[disc, None, :] + p.size_mm[disc, 0, None, None] / 2.0 * ring).reshape(-1, 2)
        ]
        if (~disc).any():
            corners = rectangle_corners(p.xy_mm[~disc], p.size_mm[~disc], p.angle_rad[~disc])
            pts.append(corners.reshape(-1, 2))
        hull = shapely.convex_hull(shapely.multipoints(np.concatenate(pts)))
        v = shapely.get_coordinates(shapely.get_exterior_ring(hull))[:-1]
        if _cross(v, np.roll(v, -1, axis=0)).sum() < 0:
            v = v[::-1]
        e = np.roll(v, -1, axis=0) - v
        phi_out = np.arctan2(-e[:, 0], e[:, 1])  # outward normal of each edge
        phi_in = np.roll(phi_out, 1)
        turn = np.mod(phi_out - phi_in, 2.0 * math.pi)
        k = np.maximum(1, np.ceil(turn / _ARC_STEP)).astype(np.intp)
        rep = np.repeat(np.arange(len(v)), k)
        j = np.arange(len(rep)) - np.repeat(np.cumsum(k) - k, k)
        delta = (turn / k)[rep]
        phi = phi_in[rep] + (j + 0.5) * delta
        self.v = v[rep]
        self.m = np.stack([np.cos(phi), np.sin(phi)], axis=1) / np.cos(delta / 2.0)[:, None]

    def outside(self, x: FloatArray, r: float) -> NDArray[np.bool_]:
        pa = self.v + r * self.m
        edge = np.roll(pa, -1, axis=0) - pa
        return np.asarray((_cross(edge[None], x[:, None, :] - pa[None]) < 0.0).any(1))

    def gates(self, r: float, box: Box, ball_xy: FloatArray, ball_r: float) -> FloatArray:
        """One point per free stretch of the grown hull's boundary, just outside it.

        Free: inside the rails (the box shrunk by ``r``) and off the ball grown by ``r``; the
        pieces grown by ``r`` never reach beyond the hull's boundary.
        """
        pa = self.v + r * self.m
        d = np.roll(pa, -1, axis=0) - pa
        lo_b = np.array([box[0] + r, box[1] + r])
        hi_b = np.array([box[2] - r, box[3] - r])
        with np.errstate(divide="ignore", invalid="ignore"):
            ta, tb = (lo_b - pa) / d, (hi_b - pa) / d  # Liang-Barsky, both axes at once
            enter = np.where(d > 0, ta, np.where(d < 0, tb, -np.inf))
            leave = np.where(d > 0, tb, np.where(d < 0, ta, np.inf))
            dead = ((d == 0) & ((pa < lo_b) | (pa > hi_b))).any(1)
            t0 = np.maximum(enter.max(1), 0.0)
            t1 = np.where(dead, -1.0, np.minimum(leave.min(1), 1.0))
            e = pa - ball_xy
            qa, qb = (d * d).sum(1), 2.0 * (d * e).sum(1)
            root = np.sqrt(qb * qb - 4.0 * qa * ((e * e).sum(1) - (r + ball_r) ** 2))
            ba = np.where(np.isfinite(root), (-qb - root) / (2.0 * qa), 2.0)
            bb = np.where(np.isfinite(root), (-qb + root) / (2.0 * qa), 2.0)
        lo = np.stack([t0, np.maximum(t0, bb)], axis=1).reshape(-1)
        hi = np.stack([np.minimum(t1, ba), t1], axis=1).reshape(-1)
        ok = np.flatnonzero(hi - lo > 1e-9)
        if len(ok) == 0:
            return np.zeros((0, 2))
        edge, lo, hi = ok // 2, lo[ok], hi[ok]
        nxt = (np.roll(edge, 1) + 1) % len(pa)
        joined = (np.roll(hi, 1) >= 1.0 - 1e-12) & (lo <= 1e-12) & (edge == nxt) & (len(ok) > 1)
        run = np.cumsum(~joined)
        if joined[0]:  # the first stretch continues the last one
            run[run == run[-1]] = 0
        length = (hi - lo) * np.hypot(d[edge, 0], d[edge, 1])
        order = np.lexsort((-length, run))
        first = order[np.r_[True, np.diff(run[order]) != 0]]
        de = d[edge[first]]
        pts = pa[edge[first]] + ((lo[first] + hi[first]) / 2.0)[:, None] * de
        out = np.stack([de[:, 1], -de[:, 0]], axis=1)
        return np.asarray(pts + 1e-6 * out / np.hypot(out[:, 0], out[:, 1])[:, None])
