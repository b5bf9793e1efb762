"""Exact, vectorised signed distances between footprints and axis-aligned regions.

Sign convention: positive outside the region, negative inside, in millimetres. All functions
take ``(N, 2)`` arrays and broadcast.

Examples
--------
>>> import numpy as np
>>> float(box_signed_distance(np.array([[12.0, 0.0]]), (-10, -5, 10, 5))[0])
2.0
>>> float(box_signed_distance(np.array([[9.0, 0.0]]), (-10, -5, 10, 5))[0])
-1.0
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from geometry.pieces import Pieces, rect_separation

__all__ = [
    "Box",
    "box_signed_distance",
    "footprint_box_extent",
    "footprint_box_signed_distance",
]

Box = tuple[float, float, float, float]  # xmin, ymin, xmax, ymax
FloatArray = NDArray[np.float64]


def box_signed_distance(xy: FloatArray, box: Box) -> FloatArray:
    """Signed distance from points to an axis-aligned box (positive outside)."""
    xmin, ymin, xmax, ymax = box
    xy = np.asarray(xy, dtype=float)
    cx, cy = (xmin + xmax) / 2.0, (ymin + ymax) / 2.0
    hx, hy = (xmax - xmin) / 2.0, (ymax - ymin) / 2.0
    qx = np.abs(xy[..., 0] - cx) - hx
    qy = np.abs(xy[..., 1] - cy) - hy
    outside = np.hypot(np.maximum(qx, 0.0), np.maximum(qy, 0.0))
    inside = np.minimum(np.maximum(qx, qy), 0.0)
    return np.asarray(outside + inside, dtype=float)


def footprint_box_signed_distance(pieces: Pieces, box: Box) -> FloatArray:
    """How far each footprint is *wholly outside* ``box`` (positive) or into it (negative).

    Positive: the gap between the footprint and the box. Negative: minus the shortest
    translation that would move the footprint wholly out of the box (exact for discs; for a
    goalkeeper, the smallest push along x or y, which is exact for the box's own axes).
    """
    xy = pieces.xy_mm
    out = np.empty(len(pieces))
    disc = pieces.is_disc
    if disc.any():
        r = pieces.size_mm[disc, 0] / 2.0
        out[disc] = box_signed_distance(xy[disc], box) - r
    if (~disc).any():
        idx = np.flatnonzero(~disc)
        xmin, ymin, xmax, ymax = box
        region = ((xmin + xmax) / 2.0, (ymin + ymax) / 2.0, xmax - xmin, ymax - ymin, 0.0)
        rects = np.column_stack([xy[idx], pieces.size_mm[idx], pieces.angle_rad[idx]]).tolist()
        out[idx] = [rect_separation(r, region) for r in rects]  # a goalkeeper or two
    return out


def footprint_box_extent(pieces: Pieces, box: Box) -> FloatArray:
    """How far each footprint is *wholly inside* ``box`` (positive) or sticks out (negative).

    Positive: the smallest clearance between the footprint and the box's edges. Negative: minus
    how far the footprint reaches beyond the box (the worst corner or disc edge).
    """
    xy = pieces.xy_mm
    out = np.empty(len(pieces))
    disc = pieces.is_disc
    if disc.any():
        r = pieces.size_mm[disc, 0] / 2.0
        out[disc] = -box_signed_distance(xy[disc], box) - r
    if (~disc).any():
        xmin, ymin, xmax, ymax = box
        ext = pieces.half_extents_mm[~disc]
        x, y = xy[~disc, 0], xy[~disc, 1]
        out[~disc] = np.minimum(
            np.minimum(x - ext[:, 0] - xmin, xmax - x - ext[:, 0]),
            np.minimum(y - ext[:, 1] - ymin, ymax - y - ext[:, 1]),
        )
    return out
