"""Compiled kernels of the solids' fit (:mod:`vision.solids`): the signed distance of pixels
to a star-shaped outline and the soft silhouette it predicts, with their derivatives.

The same arithmetic as numpy written pixel by pixel: a fit's region holds a few hundred to a
few thousand pixels, where numpy's cost per call (some forty calls a step) was most of a
step's time. Compiled once and cached beside this module (``cache=True``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

from calibration.projection import project

FloatArray = NDArray[np.float64]

__all__ = ["band_pixels", "projected_points", "radial_sd", "soft_silhouette"]


@njit(cache=True)
def _outline_table(
    poly: FloatArray, jac: FloatArray, centre: FloatArray, n_par: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The outline as functions of the angle about ``centre``: the vertices' angles (sorted,
    one wrapped copy at each end), their radii, the cosine between radius and outward normal,
    and the outline's motion along that normal per parameter (V + 2, n_par)."""
    v = poly.shape[0]
    pa = np.empty(v)
    pr = np.empty(v)
    cs = np.empty(v)
    mv = np.zeros((v, n_par))
    for i in range(v):
        dx = poly[i, 0] - centre[0]
        dy = poly[i, 1] - centre[1]
        pa[i] = math.atan2(dy, dx)
        pr[i] = math.hypot(dx, dy)
        nx_i = (i + 1) % v
        pv_i = (i - 1) % v
        tx = poly[nx_i, 0] - poly[pv_i, 0]
        ty = poly[nx_i, 1] - poly[pv_i, 1]
        nx, ny = ty, -tx
        nn = max(math.hypot(nx, ny), 1e-9)
        nx /= nn
        ny /= nn
        dot = nx * dx + ny * dy
        sign = -1.0 if dot < 0 else 1.0
        nx *= sign
        ny *= sign
        cs[i] = dot * sign / max(pr[i], 1e-9)
        for k in range(n_par):
            mv[i, k] = nx * jac[i, 0, k] + ny * jac[i, 1, k]
    order = np.argsort(pa, kind="mergesort")
    xp = np.empty(v + 2)
    fr = np.empty(v + 2)
    fc = np.empty(v + 2)
    fm = np.empty((v + 2, n_par))
    for j in range(v + 2):
        i = order[(j - 1) % v]
        xp[j] = pa[i]
        fr[j] = pr[i]
        fc[j] = cs[i]
        for k in range(n_par):
            fm[j, k] = mv[i, k]
    xp[0] -= 2 * np.pi
    xp[v + 1] += 2 * np.pi
    return xp, fr, fc, fm


@njit(cache=True)
def _locate(xp: FloatArray, x: float) -> tuple[int, float]:
    """The interval ``j`` (xp[j] <= x < xp[j + 1]) and the fraction along it, as
    :func:`numpy.interp` takes them (clamped at the ends)."""
    n = xp.shape[0]
    if x <= xp[0]:
        return 0, 0.0
    if x >= xp[n - 1]:
        return n - 2, 1.0
    lo, hi = 0, n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if xp[mid] <= x:
            lo = mid
        else:
            hi = mid
    span = xp[lo + 1] - xp[lo]
    return lo, (x - xp[lo]) / span if span > 0 else 0.0


@njit(cache=True)
def radial_sd(
    poly: FloatArray,
    jac: FloatArray,
    centre: FloatArray,
    ang: FloatArray,
    rad: FloatArray,
    n_par: int,
) -> tuple[FloatArray, FloatArray]:
    """Signed distance (outward +) of pixels given by angle and radius about ``centre`` to a
    star-shaped polygon (V, 2), and its derivative in the first ``n_par`` parameters from the
    vertices' Jacobians ``jac`` (V, 2, >= n_par; ``n_par`` 0: none). See
    :func:`vision.solids.radial_sd`."""
    n = ang.shape[0]
    sd = np.empty(n)
    dsd = np.empty((n, n_par))
    xp, fr, fc, fm = _outline_table(poly, jac, centre, n_par)
    for p in range(n):
        j, f = _locate(xp, ang[p])
        r = fr[j] + f * (fr[j + 1] - fr[j])
        c = fc[j] + f * (fc[j + 1] - fc[j])
        sd[p] = (rad[p] - r) * c
        for k in range(n_par):
            dsd[p, k] = -(fm[j, k] + f * (fm[j + 1, k] - fm[j, k]))
    return sd, dsd


@njit(cache=True)
def soft_silhouette(
    top: FloatArray,
    jtop: FloatArray,
    sil: FloatArray,
    jsil: FloatArray,
    centre: FloatArray,
    ang: FloatArray,
    rad: FloatArray,
    alpha: FloatArray,
    blur_px: float,
    n_par: int,
) -> tuple[FloatArray, FloatArray]:
    """Predicted coverage (N,) of a solid's pixels and its Jacobian (N, ``n_par``): the top
    face seen fully, the side between the top's and the silhouette's outlines at the share
    ``beta`` that best explains ``alpha`` (closed form, clipped to 0..1); each outline an
    edge blurred by a Gaussian of ``blur_px``. See :func:`vision.solids._predict`."""
    n = ang.shape[0]
    sd_t, dt = radial_sd(top, jtop, centre, ang, rad, n_par)
    sd_s, ds = radial_sd(sil, jsil, centre, ang, rad, n_par)
    a_t = np.empty(n)
    a_s = np.empty(n)
    inv_sqrt2 = 1.0 / math.sqrt(2.0)
    g_norm = -1.0 / (math.sqrt(2.0 * math.pi) * blur_px)
    ss = 0.0
    num = 0.0
    for p in range(n):
        zt = sd_t[p] / blur_px
        zs = sd_s[p] / blur_px
        a_t[p] = 0.5 * (1.0 - math.erf(zt * inv_sqrt2))
        a_s[p] = 0.5 * (1.0 - math.erf(zs * inv_sqrt2))
        gt = math.exp(-0.5 * zt * zt) * g_norm
        gs = math.exp(-0.5 * zs * zs) * g_norm
        for k in range(n_par):
            dt[p, k] *= gt
            ds[p, k] *= gs
        side = a_s[p] - a_t[p]
        ss += side * side
        num += (alpha[p] - a_t[p]) * side
    beta = min(max(num / ss, 0.0), 1.0) if ss > 1.0 else 1.0
    pred = np.empty(n)
    jac = np.empty((n, n_par))
    for p in range(n):
        pred[p] = a_t[p] + beta * (a_s[p] - a_t[p])
        for k in range(n_par):
            jac[p, k] = dt[p, k] + beta * (ds[p, k] - dt[p, k])
    return pred, jac


@njit(cache=True)
def _far_bounds(radii: FloatArray, cosines: FloatArray, reach: float) -> tuple[float, float]:
    """Radii within which (or beyond which) a pixel is farther than ``reach`` from an outline
    of these vertices' radii and cosines: (-inf, inf), nothing excluded, when a cosine is not
    positive (an outline not star-shaped about the centre)."""
    c = cosines.min()
    if c <= 0.0:
        return -np.inf, np.inf
    return radii.min() - reach / c, radii.max() + reach / c


@njit(cache=True)
def band_pixels(
    top: FloatArray,
    sil: FloatArray,
    centre: FloatArray,
    x0: int,
    y0: int,
    x1: int,
    y1: int,
    band_px: float,
) -> tuple[NDArray[np.intp], NDArray[np.intp], FloatArray, FloatArray]:
    """The pixels of the box [x0, x1) x [y0, y1) within ``band_px`` of either outline (the
    top face's, the silhouette's), row by row: their rows, columns, angles and radii about
    ``centre``. See :func:`vision.solids._observed`."""
    none = np.zeros((top.shape[0], 2, 0))
    xt, rt, ct, _ = _outline_table(top, none, centre, 0)
    none = np.zeros((sil.shape[0], 2, 0))
    xs, rs, cs, _ = _outline_table(sil, none, centre, 0)
    # a pixel whose radius lies beyond both outlines' ranges by more than the band over their
    # least cosine is near neither (the interpolated radius and cosine lie within the
    # vertices'): its angle is not needed (a margin against rounding)
    reach = band_px + 1e-6
    far_t = _far_bounds(rt, ct, reach)
    far_s = _far_bounds(rs, cs, reach)
    n = (x1 - x0) * (y1 - y0)
    yy = np.empty(n, np.intp)
    xx = np.empty(n, np.intp)
    ang = np.empty(n)
    rad = np.empty(n)
    k = 0
    for y in range(y0, y1):
        dy = y - centre[1]
        for x in range(x0, x1):
            dx = x - centre[0]
            r = math.hypot(dx, dy)
            if (r <= far_t[0] or r >= far_t[1]) and (r <= far_s[0] or r >= far_s[1]):
                continue
            a = math.atan2(dy, dx)
            j, f = _locate(xs, a)
            sd = (r - (rs[j] + f * (rs[j + 1] - rs[j]))) * (cs[j] + f * (cs[j + 1] - cs[j]))
            near = abs(sd) < band_px
            if not near:
                j, f = _locate(xt, a)
                sd = (r - (rt[j] + f * (rt[j + 1] - rt[j]))) * (ct[j] + f * (ct[j + 1] - ct[j]))
                near = abs(sd) < band_px
            if near:
                yy[k], xx[k], ang[k], rad[k] = y, x, a, r
                k += 1
    return yy[:k], xx[:k], ang[:k], rad[:k]


@njit(cache=True)
def projected_points(
    xyz: FloatArray,
    dxdp: FloatArray,
    eps: float,
    rt: FloatArray,
    t: FloatArray,
    dist: FloatArray,
    k: FloatArray,
) -> tuple[FloatArray, FloatArray, bool]:
    """A solid's points (K, 3) mm projected (K, 2) px, with d(uv)/dp (K, 2, P) from their
    dX/dp (K, 3, P): the image's derivatives in table x and y by a shift of ``eps`` mm (the
    points' own height held), chained. False when a point does not project (behind the
    camera). The camera's arguments are :func:`calibration.projection.project`'s."""
    n = xyz.shape[0]
    pts = np.empty((3 * n, 3))
    for i in range(n):
        for c in range(3):
            pts[i, c] = xyz[i, c]
            pts[n + i, c] = xyz[i, c]
            pts[2 * n + i, c] = xyz[i, c]
        pts[n + i, 0] = xyz[i, 0] + eps
        pts[2 * n + i, 1] = xyz[i, 1] + eps
    uv_all = project(pts, rt, t, dist, k)
    npar = dxdp.shape[2]
    uv = np.empty((n, 2))
    jac = np.empty((n, 2, npar))
    for i in range(n):
        for c in range(2):
            uv[i, c] = uv_all[i, c]
    ok = True
    for i in range(3 * n):
        if not (np.isfinite(uv_all[i, 0]) and np.isfinite(uv_all[i, 1])):
            ok = False
    for i in range(n):
        for c in range(2):
            ux = (uv_all[n + i, c] - uv_all[i, c]) / eps
            uy = (uv_all[2 * n + i, c] - uv_all[i, c]) / eps
            for p in range(npar):
                jac[i, c, p] = ux * dxdp[i, 0, p] + uy * dxdp[i, 1, p]
    return uv, jac, ok
