"""Where the coaches' hands are, for the tracker: signed distances and a hand-sweep map.

Hands and arms arrive as polygons in table millimetres (:attr:`Detections.hands`).
:class:`HandRegion` answers "how far is this point from the hands now" for many points in
one pass; :class:`CoverMap` remembers, on a 10 mm grid, when each cell was last under a hand
(grown by the reach of a carried piece), so the tracker can tell whether a piece that
reappears could have been carried there.
"""

from __future__ import annotations

import cv2
import numpy as np
import shapely
from numpy.typing import NDArray

__all__ = ["CoverMap", "HandRegion", "hand_follows", "polygon_signed_distance"]

FloatArray = NDArray[np.float64]
CELL_MM = 10.0  # the cover map's cells
SWEEP_PAD_MM = 40.0  # a carried piece's centre may lie this far outside the hand


class HandRegion:
    """Hand and arm polygons of one frame (table mm), for signed distances in one pass.

    Examples
    --------
    >>> sq = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    >>> HandRegion([sq]).distance(np.array([[5.0, 5.0], [13.0, 5.0]])).tolist()
    [-5.0, 3.0]
    """

    def __init__(self, polygons: list[FloatArray]) -> None:
        polys = [np.asarray(p, dtype=float) for p in polygons if len(p) >= 3]
        self.count = len(polys)
        if not polys:
            return
        self.a = np.concatenate(polys)
        self.b = np.concatenate([np.roll(p, -1, axis=0) for p in polys])
        self.ab = self.b - self.a
        self.len2 = np.maximum((self.ab * self.ab).sum(axis=1), 1e-12)
        owner = np.repeat(np.arange(len(polys)), [len(p) for p in polys])
        self.onehot = (owner[:, None] == np.arange(len(polys))[None]).astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            self.slope = self.ab[:, 0] / self.ab[:, 1]

    def __bool__(self) -> bool:
        return self.count > 0

    def distance(self, points: FloatArray) -> FloatArray:
        """Signed distance (P,) to the nearest polygon: negative inside one, inf without any."""
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        if not self.count or len(pts) == 0:
            return np.full(len(pts), np.inf)
        apx = pts[:, 0:1] - self.a[None, :, 0]
        apy = pts[:, 1:2] - self.a[None, :, 1]
        f = np.clip((apx * self.ab[:, 0] + apy * self.ab[:, 1]) / self.len2, 0.0, 1.0)
        d = np.hypot(apx - f * self.ab[:, 0], apy - f * self.ab[:, 1]).min(axis=1)
        # crossing number per polygon: edges straddling the point's y, crossed to its right
        py = pts[:, 1:2]
        straddle = (self.a[None, :, 1] > py) != (self.b[None, :, 1] > py)
        xc = self.a[None, :, 0] + (py - self.a[None, :, 1]) * self.slope[None, :]
        cross = (straddle & (pts[:, 0:1] < xc)).astype(float) @ self.onehot
        inside = (np.round(cross).astype(np.intp) % 2 == 1).any(axis=1)
        return np.asarray(np.where(inside, -d, d))


def hand_follows(
    before: list[FloatArray],
    after: list[FloatArray],
    xy0_mm: FloatArray,
    xy1_mm: FloatArray,
    reach_mm: float = 70.0,
) -> FloatArray:
    """How far the hands about each piece moved along with it (P,): the shift of the centroid
    of the hands' area within ``reach_mm`` (plus the step) of the step's midpoint, from
    ``before`` to ``after`` (polygons, table mm), over the piece's step ``xy0 -> xy1`` (P, 2),
    projected on it. About 1 for a hand carrying the piece, about 0 for one that flicked it
    and stayed; NaN where either frame has no hand there (or the piece did not move).

    The region is the same in both frames (a disc about the midpoint): a hand wholly over a
    region clipped about each position would seem to follow whatever the piece did.
    """
    n = len(xy0_mm)
    out = np.full(n, np.nan)
    if not n or not before or not after:
        return out
    h0 = shapely.union_all([shapely.Polygon(p) for p in before if len(p) >= 3])
    h1 = shapely.union_all([shapely.Polygon(p) for p in after if len(p) >= 3])
    step = np.asarray(xy1_mm, float) - np.asarray(xy0_mm, float)
    length = np.hypot(step[:, 0], step[:, 1])
    mid = (np.asarray(xy0_mm, float) + np.asarray(xy1_mm, float)) / 2.0
    discs = shapely.buffer(shapely.points(mid), reach_mm + length, quad_segs=8)
    a0, a1 = shapely.intersection(discs, h0), shapely.intersection(discs, h1)
    ok = (shapely.area(a0) > 100.0) & (shapely.area(a1) > 100.0) & (length > 0.0)
    if ok.any():
        c0 = shapely.get_coordinates(shapely.centroid(a0[ok]))
        c1 = shapely.get_coordinates(shapely.centroid(a1[ok]))
        out[ok] = ((c1 - c0) * step[ok]).sum(axis=1) / (length[ok] ** 2)
    return out


def polygon_signed_distance(points: FloatArray, poly: FloatArray) -> FloatArray:
    """Signed distance (P,) from points (P, 2) to a simple polygon (M, 2): negative inside."""
    return HandRegion([poly]).distance(points)


class CoverMap:
    """When each cell of the table was last under a hand (``-inf``: never).

    Examples
    --------
    >>> m = CoverMap((500.0, 500.0))
    >>> m.mark([np.array([[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]])], 2.5)
    >>> m.last_covered(np.array([[50.0, 50.0], [130.0, 50.0], [300.0, 300.0]])).tolist()
    [2.5, 2.5, -inf]
    """

    def __init__(self, extent_mm: tuple[float, float]) -> None:
        self.ex, self.ey = extent_mm
        w = int(2 * self.ex / CELL_MM) + 1
        h = int(2 * self.ey / CELL_MM) + 1
        self.t = np.full((h, w), -np.inf, dtype=np.float32)

    def mark(self, polygons: list[FloatArray], t: float) -> None:
        """Stamps ``t`` on the cells under the polygons and within ``SWEEP_PAD_MM`` of them."""
        origin = np.array([self.ex, self.ey])
        pts = [
            np.round((np.asarray(p, float) + origin) / CELL_MM * 16).astype(np.int32)
            for p in polygons
            if len(p) >= 3
        ]
        if not pts:
            return
        cv2.fillPoly(self.t, pts, float(t), shift=4)
        pad = 2 * round(SWEEP_PAD_MM / CELL_MM) + 1
        cv2.polylines(self.t, pts, True, float(t), thickness=pad, shift=4)

    def last_covered(self, xy_mm: FloatArray) -> FloatArray:
        """The last time (s) each point's cell was under a hand; points off the map: never."""
        xy = np.asarray(xy_mm, dtype=float).reshape(-1, 2)
        h, w = self.t.shape
        cx = np.round((xy[:, 0] + self.ex) / CELL_MM).astype(np.intp)
        cy = np.round((xy[:, 1] + self.ey) / CELL_MM).astype(np.intp)
        inside = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
        out = np.full(len(xy), -np.inf)
        out[inside] = self.t[cy[inside], cx[inside]]
        return out
