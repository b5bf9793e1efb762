"""Compiled kernels of the ball's fit (:mod:`vision.ball`): the soft coverage of a convex
polygon over a region's pixels, and its derivatives in the polygon's position; the polygon's
edges; the motion streak's kernel.

The signed distance to a convex polygon is the largest signed distance to its edges' lines;
numpy built the (pixels x edges) table of them for every step of the fit (a 20 x 20 region,
20 edges) and reduced it, several calls a step. The kernels take the edges' lines (float32,
as :func:`vision.ball.edge_lines` gives them) and do numpy's float32 arithmetic pixel by
pixel, in its order: the same values, bit for bit; so do the edges' and the streak's kernels
(numpy's calls on a few dozen numbers cost many times their arithmetic). Compiled once, cached
beside this module.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from calibration.projection import project

F32 = NDArray[np.float32]

__all__ = [
    "colour_residual",
    "coverage",
    "coverage_d",
    "edge_normals",
    "residual_jac",
    "sphere_outline",
    "splat",
]

_HALF = np.float32(0.5)
_ZERO = np.float32(0.0)
_ONE = np.float32(1.0)


@njit(cache=True)
def _ramp(c: np.float32) -> np.float32:
    return min(max(c, _ZERO), _ONE)


@njit(cache=True)
def _pairwise_sum(x: F32) -> np.float32:
    """numpy's float32 sum of a short contiguous array (its pairwise order, eight partial
    sums from eight items on), bit for bit (up to 128 items: a polygon's edges)."""
    m = x.shape[0]
    if m < 8:
        res = _ZERO
        for i in range(m):
            res += x[i]
        return res
    r = x[:8].copy()
    i = 8
    while i < m - (m % 8):
        for j in range(8):
            r[j] += x[i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < m:
        res += x[i]
        i += 1
    return res


@njit(cache=True)
def edge_normals(outline: NDArray[np.float64]) -> tuple[F32, F32, F32]:
    """A convex polygon's (E, 2) outward unit normals and offsets (E,) in float32, and its
    mean vertex (2,): :func:`vision.ball.edge_lines`'s numpy arithmetic in its order."""
    ne = outline.shape[0]
    a = outline.astype(np.float32)
    cross = np.empty(ne, np.float32)
    for i in range(ne):
        j = i + 1 if i + 1 < ne else 0
        cross[i] = a[i, 0] * a[j, 1] - a[j, 0] * a[i, 1]
    sign = _ONE if _pairwise_sum(cross) > 0 else -_ONE
    n = np.empty((ne, 2), np.float32)
    off = np.empty(ne, np.float32)
    tiny = np.float32(1e-9)
    for i in range(ne):
        j = i + 1 if i + 1 < ne else 0
        n0 = (a[j, 1] - a[i, 1]) * sign
        n1 = -(a[j, 0] - a[i, 0]) * sign
        norm = max(np.sqrt(n0 * n0 + n1 * n1), tiny)
        n0, n1 = n0 / norm, n1 / norm
        n[i, 0], n[i, 1] = n0, n1
        off[i] = n0 * a[i, 0] + n1 * a[i, 1]
    mean = np.zeros(2, np.float32)  # numpy's mean over axis 0: row by row, then divided
    for i in range(ne):
        mean[0] += a[i, 0]
        mean[1] += a[i, 1]
    count = np.float32(ne)
    mean[0] /= count
    mean[1] /= count
    return n, off, mean


@njit(cache=True)
def splat(k: F32, pts: NDArray[np.float64]) -> None:
    """Add bilinear splats of the points (n, 2) (x, y; float64) into ``k`` (float32), as
    ``np.add.at`` does it: corner by corner ((0, 0), (1, 0), (0, 1), (1, 1)), point by
    point, each weight added in float64 and stored as float32."""
    m = pts.shape[0]
    for c in range(4):
        dx, dy = c % 2, c // 2
        for i in range(m):
            fx, fy = np.floor(pts[i, 0]), np.floor(pts[i, 1])
            wx, wy = pts[i, 0] - fx, pts[i, 1] - fy
            wt = (wx if dx else 1.0 - wx) * (wy if dy else 1.0 - wy)
            y, x = int(fy) + dy, int(fx) + dx
            k[y, x] = np.float32(np.float64(k[y, x]) + wt)


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


@njit(cache=True)
def _colour_fit(
    a1: NDArray[np.float64],
    a2: NDArray[np.float64],
    a3: NDArray[np.float64],
    d: F32,
    b: F32,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The colours (k, 3) that explain the pixels' deviations ``d`` (P, 3) from the table
    ``b`` (P, 3) best for the coverages ``a1``, ``a2`` and (when not empty) ``a3`` (P,);
    the coverages (P, k), their Gram matrix (k, k) regularised, and the residuals (P, 3)."""
    p = a1.shape[0]
    k = 2 if a3.shape[0] == 0 else 3
    aa = np.empty((p, k))
    for i in range(p):
        aa[i, 0] = a1[i]
        aa[i, 1] = a2[i]
        if k == 3:
            aa[i, 2] = a3[i]
    m = np.zeros((k, k))
    rhs = np.zeros((k, 3))
    total = np.empty(p)
    for i in range(p):
        s = aa[i, 0] + aa[i, 1]
        if k == 3:
            s += aa[i, 2]
        total[i] = s
        for ch in range(3):
            y = d[i, ch] + s * b[i, ch]  # d = sum_j a_j (c_j - b): y = sum_j a_j c_j
            for j in range(k):
                rhs[j, ch] += aa[i, j] * y
        for j in range(k):
            for q in range(k):
                m[j, q] += aa[i, j] * aa[i, q]
    for j in range(k):
        m[j, j] += 1e-6
    c: NDArray[np.float64] = np.linalg.solve(m, rhs)  # type: ignore[assignment]
    r = np.empty((p, 3))
    for i in range(p):
        for ch in range(3):
            fit = 0.0
            for j in range(k):
                fit += aa[i, j] * c[j, ch]
            r[i, ch] = d[i, ch] - fit + total[i] * b[i, ch]
    return c, aa, m, r


@njit(cache=True)
def colour_residual(
    whole: F32, inner: F32, a3: NDArray[np.float64], d: F32, b: F32
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The residuals (P * 3,) and the fitted colours (k, 3) of the ball's coverage ``whole``
    (P,), its core's ``inner`` (P,) and a piece in front's ``a3`` (P,) or empty: the core's
    colour, the rim's (the whole less the core), the piece's."""
    a1 = inner.astype(np.float64)
    a2 = whole.astype(np.float64) - a1
    c, _, _, r = _colour_fit(a1, a2, a3, d, b)
    return r.ravel(), c


@njit(cache=True)
def residual_jac(
    maps: F32, jac_uv: NDArray[np.float64], a3: NDArray[np.float64], d: F32, b: F32
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """:meth:`vision.ball._Model.residual_jac` from the coverages and their derivatives in
    the silhouette's position (P, 6) (:func:`coverage_d`'s, blurred) and its Jacobian
    ``jac_uv`` (2, 2) in the footprint's: the residuals (P * 3,) and their derivatives
    (P * 3, 2), the colours held at their optimum and the change a colour can absorb
    projected out (variable projection, Kaufman's form)."""
    p = maps.shape[0]
    a1 = np.empty(p)
    a2 = np.empty(p)
    d_a1 = np.empty((p, 2))
    d_a2 = np.empty((p, 2))
    for i in range(p):
        a1[i] = np.float64(maps[i, 1])
        a2[i] = np.float64(maps[i, 0]) - a1[i]
        for q in range(2):
            whole = np.float64(maps[i, 2]) * jac_uv[0, q] + np.float64(maps[i, 3]) * jac_uv[1, q]
            core = np.float64(maps[i, 4]) * jac_uv[0, q] + np.float64(maps[i, 5]) * jac_uv[1, q]
            d_a1[i, q] = core
            d_a2[i, q] = whole - core
    c, aa, m, r = _colour_fit(a1, a2, a3, d, b)
    k = aa.shape[1]
    m_inv = np.linalg.inv(m)
    jac = np.empty((p * 3, 2))
    v = np.empty((p, 3))
    for q in range(2):
        t = np.zeros((k, 3))
        for i in range(p):
            for ch in range(3):
                x = -(d_a1[i, q] * (c[0, ch] - b[i, ch]) + d_a2[i, q] * (c[1, ch] - b[i, ch]))
                v[i, ch] = x
                for j in range(k):
                    t[j, ch] += aa[i, j] * x
        u = m_inv @ t  # (k, 3): the colours' change that absorbs the most of v
        for i in range(p):
            for ch in range(3):
                x = v[i, ch]
                for j in range(k):
                    x -= aa[i, j] * u[j, ch]
                jac[i * 3 + ch, q] = x
    return r.ravel(), jac


@njit(cache=True)
def sphere_outline(
    c: NDArray[np.float64],
    radius: float,
    eye: NDArray[np.float64],
    cos: NDArray[np.float64],
    sin: NDArray[np.float64],
    rt: NDArray[np.float64],
    t: NDArray[np.float64],
    dist: NDArray[np.float64],
    k: NDArray[np.float64],
) -> NDArray[np.float64]:
    """Silhouette (n, 2) px of a sphere (centre ``c`` (3,) mm, ``radius``) seen from ``eye``
    (3,) mm, the camera's centre: the circle where the cone from the camera touches it, at
    the angles of ``cos``, ``sin`` (n,); projected by :func:`calibration.projection.project`
    (the camera's ``rt``, ``t``, ``dist``, ``k``)."""
    to_cam = eye - c
    d = np.sqrt(to_cam[0] * to_cam[0] + to_cam[1] * to_cam[1] + to_cam[2] * to_cam[2])
    axis = to_cam / d
    q = radius / d
    rho = radius * np.sqrt(max(1.0 - q * q, 0.0))
    # e1 = axis x up (up = z, or x when the axis is near vertical), e2 = axis x e1
    if abs(axis[2]) < 0.9:
        e1 = np.array([axis[1], -axis[0], 0.0])
    else:
        e1 = np.array([0.0, axis[2], -axis[1]])
    e1 /= np.sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2])
    e2 = np.array(
        [
            axis[1] * e1[2] - axis[2] * e1[1],
            axis[2] * e1[0] - axis[0] * e1[2],
            axis[0] * e1[1] - axis[1] * e1[0],
        ]
    )
    n = cos.shape[0]
    pts = np.empty((n, 3))
    base = c + axis * (radius * radius / d)
    for i in range(n):
        for j in range(3):
            pts[i, j] = base[j] + rho * (cos[i] * e1[j] + sin[i] * e2[j])
    return project(pts, rt, t, dist, k)
