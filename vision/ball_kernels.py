"""Compiled kernels of the ball's fit (:mod:`vision.ball`): the soft coverage of a convex
polygon over a region's pixels, and its derivatives in the polygon's position.

The signed distance to a convex polygon is the largest signed distance to its edges' lines;
numpy built the (pixels x edges) table of them for every step of the fit (a 20 x 20 region,
20 edges) and reduced it, several calls a step. The kernels take the edges' lines (float32,
as :func:`vision.ball.edge_lines` gives them) and do numpy's float32 arithmetic pixel by
pixel, in its order: the same values, bit for bit. Compiled once, cached beside this module.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

F32 = NDArray[np.float32]

__all__ = ["coverage", "coverage_d"]

_HALF = np.float32(0.5)
_ZERO = np.float32(0.0)
_ONE = np.float32(1.0)


@njit(cache=True)
def _ramp(c: np.float32) -> np.float32:
    return min(max(c, _ZERO), _ONE)


@njit(cache=True)
def coverage(n: F32, off: F32, off_core: F32, uu: F32, vv: F32) -> F32:
    """Soft coverage (h, w, 2) of a convex polygon at the pixels (``uu``, ``vv``): a
    one-pixel ramp across its edges (outward unit normals ``n`` (E, 2), offsets ``off``);
    and that of the lines at ``off_core`` (the polygon shrunk about its mean; none when
    ``off_core`` is empty: 0)."""
    h, w = uu.shape
    ne = n.shape[0]
    core = off_core.shape[0] == ne
    out = np.zeros((h, w, 2), np.float32)
    for y in range(h):
        for x in range(w):
            u, v = uu[y, x], vv[y, x]
            best = np.float32(-np.inf)
            best_c = np.float32(-np.inf)
            for i in range(ne):
                proj = n[i, 0] * u + n[i, 1] * v
                d = proj - off[i]
                if d > best:
                    best = d
                if core:
                    dc = proj - off_core[i]
                    if dc > best_c:
                        best_c = dc
            out[y, x, 0] = _ramp(_HALF - best)
            if core:
                out[y, x, 1] = _ramp(_HALF - best_c)
    return out


@njit(cache=True)
def coverage_d(n: F32, off: F32, off_core: F32, uu: F32, vv: F32) -> F32:
    """:func:`coverage` and its derivatives: (h, w, 6), the whole polygon's and the core's
    coverage, then d(whole)/du, d(whole)/dv, d(core)/du, d(core)/dv for a translation of the
    polygon by (u, v) px: the nearest edge's normal (the first edge of largest signed
    distance) on its ramp, zero elsewhere."""
    h, w = uu.shape
    ne = n.shape[0]
    out = np.zeros((h, w, 6), np.float32)
    for y in range(h):
        for x in range(w):
            u, v = uu[y, x], vv[y, x]
            best = np.float32(-np.inf)
            best_c = np.float32(-np.inf)
            k = kc = 0
            for i in range(ne):
                proj = n[i, 0] * u + n[i, 1] * v
                d = proj - off[i]
                if d > best:
                    best, k = d, i
                dc = proj - off_core[i]
                if dc > best_c:
                    best_c, kc = dc, i
            cov = _HALF - best
            cov_c = _HALF - best_c
            out[y, x, 0] = _ramp(cov)
            out[y, x, 1] = _ramp(cov_c)
            if _ZERO < cov < _ONE:
                out[y, x, 2], out[y, x, 3] = n[k, 0], n[k, 1]
            if _ZERO < cov_c < _ONE:
                out[y, x, 4], out[y, x, 5] = n[kc, 0], n[kc, 1]
    return out
