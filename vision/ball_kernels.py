"""Compiled kernels of the ball's fit (:mod:`vision.ball`): the soft coverage of a convex
polygon over a region's pixels, and its derivatives in the polygon's position.

The signed distance to a convex polygon is the largest signed distance to its edges' lines;
numpy built the (pixels x edges) table of them for every step of the fit (a 20 x 20 region,
20 edges) and reduced it, several calls a step. Compiled once and cached beside this module.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
F32 = NDArray[np.float32]

__all__ = ["coverage", "coverage_d"]


@njit(cache=True)
def _edge_lines(outline: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Outward unit normals (E, 2) of a convex polygon's edges, their offsets (E,), and the
    offsets of the parallel lines through the polygon's mean vertex (E,)."""
    e = outline.shape[0]
    area2 = 0.0
    mx = 0.0
    my = 0.0
    for i in range(e):
        j = (i + 1) % e
        area2 += outline[i, 0] * outline[j, 1] - outline[j, 0] * outline[i, 1]
        mx += outline[i, 0]
        my += outline[i, 1]
    mx /= e
    my /= e
    sign = 1.0 if area2 > 0 else -1.0
    n = np.empty((e, 2))
    off = np.empty(e)
    mid = np.empty(e)
    for i in range(e):
        j = (i + 1) % e
        nx = (outline[j, 1] - outline[i, 1]) * sign
        ny = -(outline[j, 0] - outline[i, 0]) * sign
        nn = max(math.hypot(nx, ny), 1e-9)
        nx /= nn
        ny /= nn
        n[i, 0], n[i, 1] = nx, ny
        off[i] = nx * outline[i, 0] + ny * outline[i, 1]
        mid[i] = nx * mx + ny * my
    return n, off, mid


@njit(cache=True)
def coverage(outline: FloatArray, uu: F32, vv: F32, core: float) -> F32:
    """Soft coverage (h, w, 2) of a convex polygon at the pixels (``uu``, ``vv``): a
    one-pixel ramp across its edges; and (``core`` > 0) that of the polygon shrunk to
    ``core`` of its size about its mean vertex (0 when ``core`` is 0)."""
    n, off, mid = _edge_lines(outline)
    h, w = uu.shape
    out = np.zeros((h, w, 2), np.float32)
    ne = n.shape[0]
    for y in range(h):
        for x in range(w):
            u, v = float(uu[y, x]), float(vv[y, x])
            best = -1e300
            best_c = -1e300
            for i in range(ne):
                proj = n[i, 0] * u + n[i, 1] * v
                d = proj - off[i]
                if d > best:
                    best = d
                if core > 0.0:
                    dc = proj - (mid[i] + core * (off[i] - mid[i]))
                    if dc > best_c:
                        best_c = dc
            out[y, x, 0] = min(max(0.5 - best, 0.0), 1.0)
            if core > 0.0:
                out[y, x, 1] = min(max(0.5 - best_c, 0.0), 1.0)
    return out


@njit(cache=True)
def coverage_d(outline: FloatArray, uu: F32, vv: F32, core: float) -> F32:
    """:func:`coverage` with ``core`` and its derivatives: (h, w, 6), the whole polygon's and
    the core's coverage, then d(whole)/du, d(whole)/dv, d(core)/du, d(core)/dv for a
    translation of the polygon by (u, v) px: the nearest edge's normal (the edge of largest
    signed distance) on its ramp, zero elsewhere."""
    n, off, mid = _edge_lines(outline)
    h, w = uu.shape
    out = np.zeros((h, w, 6), np.float32)
    ne = n.shape[0]
    for y in range(h):
        for x in range(w):
            u, v = float(uu[y, x]), float(vv[y, x])
            best, best_c = -1e300, -1e300
            k, kc = 0, 0
            for i in range(ne):
                proj = n[i, 0] * u + n[i, 1] * v
                d = proj - off[i]
                if d > best:
                    best, k = d, i
                dc = proj - (mid[i] + core * (off[i] - mid[i]))
                if dc > best_c:
                    best_c, kc = dc, i
            cov = 0.5 - best
            cov_c = 0.5 - best_c
            out[y, x, 0] = min(max(cov, 0.0), 1.0)
            out[y, x, 1] = min(max(cov_c, 0.0), 1.0)
            if 0.0 < cov < 1.0:
                out[y, x, 2], out[y, x, 3] = n[k, 0], n[k, 1]
            if 0.0 < cov_c < 1.0:
                out[y, x, 4], out[y, x, 5] = n[kc, 0], n[kc, 1]
    return out
