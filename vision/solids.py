"""Buttons and goalkeepers as 3D solids, fitted to the image to a fraction of a pixel.

A button is a cylinder (footprint centre, diameter; its height the team's or the rule set's),
a goalkeeper a box (footprint centre, angle; length, width and height from the rule set). Seen
through the camera, each has two outlines: its top face (z = height) and its silhouette (the
convex hull of the projected top and bottom). The fit compares, pixel by pixel near those
outlines, the coverage the model predicts (a soft edge of the pixel's size and the lens's and
compression's blur) with the coverage observed: the colour distance to the empty table, shadows
excused (a shadow is the felt uniformly darker), over the piece's own level. The side between
the two outlines is seen at a share solved in closed form, so a white side on a pale felt,
which looks like a shadow, is no trap. Levenberg-Marquardt with analytic Jacobians (the outlines'
motion along their normals), Cauchy weights against a neighbour, a line or a hand across the
outline. The footprint comes out directly: nothing seen at a height is ever brought down by
hand, the model is placed in 3D.

Pixel distances to a star-shaped outline are interpolated along the angle about its centre
(:func:`radial_sd`): smooth in the parameters and cheap for thousands of pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.pieces import rectangle_corners
from vision import solid_kernels as kernels
from vision.bilinear import bilinear
from vision.foreground import take_px

__all__ = [
    "Solid",
    "close",
    "distinct",
    "fit_keeper",
    "fit_solid",
    "noise_floor",
    "sample",
    "top_samples",
    "unshadowed_distance",
]

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]
_K = 40  # points per circle of a button's outline
_EDGE_MIN = 20.0  # colour distance to the felt that a piece has at least
_BAND_PX = 3.0  # pixels this near a solid's outlines inform its fit
_BLUR_PX = 0.8  # edge blur of the model (pixel area, lens, compression)
_LEVEL = 0.9  # the top face's median distance to the felt x this = full coverage
# a goalkeeper's top differs from the felt at least this much (colour distance; the faintest
# seen on the benchmark's stills: 32); a box fitted to the felt model's own error (shading on
# a pale felt) has a top level of 3-20
_KEEPER_LEVEL_MIN = 25.0
# when no start gave a goalkeeper, the best unaccepted fits fitted again (this many), while
# they explain this share of their outline with the outliers weighed down
_KEEPER_RETRIES = 2
# a box found by its top's bright rims only (fit_keeper's banded fits): footprint errors of
# 0.3-2.3 mm (1.8 mm RMS) on the five stills that asked for it, at a fit's own sigma of
# 0.4-0.7 mm; added in quadrature
_BANDED_SIGMA_MM = 1.3
# ... judged by this percentile of its top's distance to the felt: a white box with a dark band
# along it, on a pale felt, whose median is the band's grey, the felt's colour darkened, which
# reads as its shadow (unshadowed_distance: level 8 on the stills of --seed 2200, the box's
# white rims 40 from the felt)
_BANDED_Q = 80.0
_KEEPER_RETRY_ROBUST = 0.6


_RING_COS = np.cos(np.linspace(0.0, 2.0 * np.pi, _K, endpoint=False))
_RING_SIN = np.sin(np.linspace(0.0, 2.0 * np.pi, _K, endpoint=False))
_BUTTON_DXDP = np.zeros((2 * _K, 3, 3))  # d(x, y, z)/d(x, y, diameter) of a button's points
_BUTTON_DXDP[:, 0, 0] = _BUTTON_DXDP[:, 1, 1] = 1.0
_BUTTON_DXDP[:, 0, 2], _BUTTON_DXDP[:, 1, 2] = np.tile(_RING_COS / 2, 2), np.tile(_RING_SIN / 2, 2)
_BUTTON_DXDP.flags.writeable = False


@dataclass
class Solid:
    """A button (p = x, y, diameter) or a goalkeeper (p = x, y, angle) being fitted."""

    kind: str
    p: FloatArray
    height: float
    size: tuple[float, float] = (0.0, 0.0)  # goalkeeper (length, width)
    inliers: float = 0.0  # share of the pixels near the outlines the fit explains
    robust: float = 0.0  # the same, outliers weighed down
    sigma: float = math.nan
    hull: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))
    team: str = ""
    team_conf: float = 0.5
    sized: bool = False  # fitted at its team's diameter already
    # a button on a goal line: the goalkeeper's box there, explaining nearly as much (the
    # goal's keeper if no other is found: vision.keeper_search.keeper_each_goal)
    alt: Solid | None = None
    # a goalkeeper found by its top's bright rims only (fit_keeper's banded fits): a still's
    # search of its goal's mouth still runs (keeper_search.goal_mouths)
    weak: bool = False

    def points(self) -> tuple[FloatArray, FloatArray]:
        """3D points (K, 3) whose projected hull is the silhouette, and dX/dp (K, 3, 3)
        (a button's is the same at every p: shared, not to be written to)."""
        x, y, q = self.p
        if self.kind == "button":
            xyz = np.empty((2 * _K, 3))
            xyz[:_K, 0] = x + q / 2 * _RING_COS
            xyz[:_K, 1] = y + q / 2 * _RING_SIN
            xyz[_K:, :2] = xyz[:_K, :2]
            xyz[:_K, 2], xyz[_K:, 2] = 0.0, self.height
            return xyz, _BUTTON_DXDP
        c4 = rectangle_corners(np.array([[x, y]]), np.array([self.size]), np.array([q]))[0]
        xyz = np.concatenate(
            [np.column_stack([c4, np.zeros(4)]), np.column_stack([c4, np.full(4, self.height)])]
        )
        d = np.zeros((8, 3, 3))
        d[:, 0, 0] = d[:, 1, 1] = 1.0
        d[:, 0, 2], d[:, 1, 2] = -(xyz[:, 1] - y), xyz[:, 0] - x
        return xyz, d


def unshadowed_distance(img: NDArray[np.float32], felt: NDArray[np.float32]) -> NDArray[np.float32]:
    """Colour distance of pixels to the felt, a shadow on the felt (felt x 0.55..1) costing 0.

    The channels are summed one by one, first to last: what numpy's sum (and norm) over a last
    axis of three does, bit for bit, without its reductions' cost per pixel."""
    i0, i1, i2 = img[..., 0], img[..., 1], img[..., 2]
    f0, f1, f2 = felt[..., 0], felt[..., 1], felt[..., 2]
    dot = i0 * f0 + i1 * f1 + i2 * f2
    k = np.clip(dot / np.maximum(f0 * f0 + f1 * f1 + f2 * f2, 1.0), 0.55, 1.0)
    e0, e1, e2 = i0 - k * f0, i1 - k * f1, i2 - k * f2
    return np.asarray(np.sqrt(e0 * e0 + e1 * e1 + e2 * e2), np.float32)


def sample(img: NDArray[np.uint8] | NDArray[np.float32], uv: FloatArray) -> NDArray[np.float32]:
    """Bilinear samples (N, C) of an image at points (N, 2) (:func:`vision.bilinear.bilinear`:
    ``cv2.remap``'s values without its thread pool)."""
    return bilinear(img, uv)


def _top_level(
    camera: Camera, image: U8, bg: NDArray[np.float32], s: Solid, q: float | None = None
) -> float:
    """The top face's distance to the felt, low in its range: a print brighter than the base
    (a white stripe) must not raise it, or the base would look half covered. A goalkeeper's
    box takes the median: a dark stripe along it as dark as the felt brought the level so low
    that the blurred edges of its bright sides counted as covered, a pixel beyond the box all
    round (a yellow box on blue felt explained 0% of its pixels, 82% so). (A white stripe
    along a black box still makes the median jump as the fit moves: one such box stopped
    4 mm off; the 35th percentile placed it within 1 mm but lost two white boxes.)

    ``q``: another percentile (:data:`_BANDED_Q`, a box's bright rims: see :func:`fit_keeper`)."""
    uv = top_samples(camera, s)
    d = unshadowed_distance(sample(image, uv)[:, None, :3], sample(bg, uv)[:, None, :3])
    if q is None:
        q = 20 if s.kind == "button" else 50
    return float(percentile(d.ravel(), q))


def percentile(d: NDArray[np.floating], q: float) -> np.floating:
    """``np.percentile(d, q)`` of a 1-D array (its linear method, value and type) by a
    partition: numpy's own call costs ~70 us, most of it checks, for the few dozen values of
    a top face.

    >>> d = np.array([4.0, 1.0, 3.0, 2.0], np.float32)
    >>> bool(percentile(d, 20) == np.percentile(d, 20))
    True
    """
    vi = (q / 100.0) * (len(d) - 1)
    lo = math.floor(vi)
    hi = min(lo + 1, len(d) - 1)
    part = np.partition(d, (lo, hi))
    a, b = part[lo], part[hi]
    g = vi - lo
    diff = b - a
    # numpy's interpolation: from the nearer end
    return b - diff * (1 - g) if g >= 0.5 else a + diff * g


def radial_sd(
    poly: FloatArray,
    jac: FloatArray | None,
    centre: FloatArray,
    ang: FloatArray,
    rad: FloatArray,
    params: int | None = None,
) -> tuple[FloatArray, FloatArray | None]:
    """Signed distance (outward +) of pixels, given by angle and radius about ``centre``, to a
    star-shaped polygon (its radius interpolated along the angle, times the local cosine
    between the radius and the edge's normal): smooth in the polygon, cheap for many pixels.

    With the vertices' Jacobians ``jac`` (V, 2, P), also d(distance)/dp (N, P): minus the
    polygon's own motion along its normal there (its first ``params`` columns only, when
    given: a fit that holds a parameter fixed needs no derivative in it).
    """
    n_par = 0 if jac is None else (jac.shape[2] if params is None else min(params, jac.shape[2]))
    j = np.zeros((len(poly), 2, 0)) if jac is None else jac
    shape = np.shape(ang)
    sd, dsd = kernels.radial_sd(poly, j, centre, np.ravel(ang), np.ravel(rad), n_par)
    return sd.reshape(shape), (None if jac is None else dsd)


def _densify(poly: FloatArray, per_edge: int = 8) -> FloatArray:
    """A closed polygon (V, ...) with ``per_edge`` vertices along each edge (a box's outline for
    :func:`radial_sd`, whose interpolation along the angle needs more than the corners)."""
    t = (np.arange(per_edge) / per_edge).reshape(1, -1, *([1] * (poly.ndim - 1)))
    nxt = np.roll(poly, -1, axis=0)
    return (poly[:, None] + t * (nxt - poly)[:, None]).reshape(-1, *poly.shape[1:])


_Polygons = tuple[FloatArray, FloatArray, FloatArray, FloatArray]
_SHIFT_EPS = 0.25
# the last few solids' polygons: a fit asks for the same ones again (reading its pixels, then
# predicting them; its hull at the end), and they are the costliest part of a step
_POLY_CACHE: list[tuple[Camera, tuple[object, ...], _Polygons | None]] = []


def _polygons(camera: Camera, s: Solid) -> _Polygons | None:
    """Top face and silhouette polygons (V, 2) px with their vertices' d(uv)/dp (V, 2, 3),
    or None when the solid leaves the image (shared with later calls: not to be written to)."""
    key = (s.kind, s.p.tobytes(), s.height, s.size)
    for cam, k0, got in _POLY_CACHE:
        if cam is camera and k0 == key:
            return got
    got = _polygons_of(camera, s)
    _POLY_CACHE.append((camera, key, got))
    if len(_POLY_CACHE) > 4:
        del _POLY_CACHE[0]
    return got


def _polygons_of(camera: Camera, s: Solid) -> _Polygons | None:
    xyz, dxdp = s.points()
    # projected with their Jacobians by shifts of _SHIFT_EPS in x and y (compiled)
    uv, jac, ok = kernels.projected_points(xyz, dxdp, _SHIFT_EPS, *camera.projection)
    if not ok:
        return None
    on_top = xyz[:, 2] > 0
    top, jtop = uv[on_top], jac[on_top]
    idx = cv2.convexHull(uv.astype(np.float32), returnPoints=False)[:, 0]
    sil, jsil = uv[idx], jac[idx]
    if s.kind == "goalkeeper":  # points and Jacobians densified together: (V, 2, 1 + 3)
        both_t = _densify(np.concatenate([top[:, :, None], jtop], axis=2))
        both_s = _densify(np.concatenate([sil[:, :, None], jsil], axis=2))
        top, jtop, sil, jsil = both_t[:, :, 0], both_t[:, :, 1:], both_s[:, :, 0], both_s[:, :, 1:]
    return top, jtop, sil, jsil


@dataclass
class _Roi:
    """Pixels near one solid's outlines: their observed coverage and polar coordinates."""

    alpha: FloatArray  # (P,) observed coverage
    ang: FloatArray
    rad: FloatArray
    centre: FloatArray


def _window(sil: FloatArray, w: int, h: int) -> tuple[int, int, int, int]:
    """The pixel box (x0, y0, x1, y1) about a silhouette (px) that its fit reads, in an image
    ``w`` x ``h``."""
    x0, y0 = (max(0, math.floor(v) - 5) for v in sil.min(axis=0))
    return x0, y0, min(w, math.ceil(sil[:, 0].max()) + 6), min(h, math.ceil(sil[:, 1].max()) + 6)


def _coverage(
    image: U8,
    bg: NDArray[np.float32],
    yy: NDArray[np.intp],
    xx: NDArray[np.intp],
    level: float,
    floor: float,
) -> FloatArray:
    """The observed coverage (0..1) of pixels (``yy``, ``xx``): their colour distance to the
    felt (shadows excused) less ``floor`` over the piece's ``level`` (see :func:`_observed`)."""
    d = unshadowed_distance(image[yy, xx].astype(np.float32)[:, None], bg[yy, xx][:, None])[:, 0]
    floor = min(floor, 0.5 * level)
    return np.clip((d - floor) / (level - floor), 0.0, 1.0).astype(np.float64)


def _observed(
    camera: Camera,
    image: U8,
    bg: NDArray[np.float32],
    s: Solid,
    excluded: NDArray[np.bool_] | None,
    floor: float = 0.0,
) -> _Roi | None:
    """Coverage observed near a solid's outlines (not excluded): the colour distance to the felt
    (shadows excused) less ``floor`` over a share of the piece's own level, clipped to 0..1.

    ``floor`` is the felt's own typical distance to the model (noise, compression, texture:
    never 0): not taken off, a faint piece's edge looks blurred outwards and its fitted size
    grows (a black button on a dark felt came out bloated and unexplained)."""
    polys = _polygons(camera, s)
    if polys is None:
        return None
    top, _, sil, _ = polys
    h, w = image.shape[:2]
    x0, y0, x1, y1 = _window(sil, w, h)
    if x1 - x0 < 6 or y1 - y0 < 6:
        return None
    centre = top.mean(axis=0)
    yy, xx, ang, rad = kernels.band_pixels(top, sil, centre, x0, y0, x1, y1, _BAND_PX)
    if excluded is not None:
        keep = ~excluded[yy, xx]
        yy, xx, ang, rad = yy[keep], xx[keep], ang[keep], rad[keep]
    if len(yy) < 20:
        return None
    level = max(_EDGE_MIN, _LEVEL * _top_level(camera, image, bg, s))
    alpha = _coverage(image, bg, yy, xx, level, floor)
    # the pixels in order of their angle: each fit step interpolates the outlines along it,
    # which is several times faster over sorted points
    order = np.argsort(ang, kind="stable")
    return _Roi(alpha[order], ang[order], rad[order], centre)


def noise_floor(image: U8, bg: NDArray[np.float32], flat_idx: NDArray[np.intp]) -> float:
    """The felt's typical distance to the model of the empty table (:func:`unshadowed_distance`)
    at sample pixels ``flat_idx`` (flat indices ``y * w + x``; felt, off the lines): the
    median, which the few pieces and hands over the sample do not move."""
    if not len(flat_idx):
        return 0.0
    seen = take_px(image, flat_idx).astype(np.float32)
    d = unshadowed_distance(seen[:, None], take_px(bg, flat_idx)[:, None])
    return float(np.median(d))


def _predict(
    camera: Camera, s: Solid, roi: _Roi, blur_px: float = _BLUR_PX, params: int = 3
) -> tuple[FloatArray, FloatArray] | None:
    """Predicted coverage (P,) of the ROI's pixels and its Jacobian (P, ``params``): in the
    first ``params`` parameters.

    The top face is always seen; the side between the top's and the silhouette's outlines is
    seen at a share ``beta`` solved in closed form (a white side on a pale felt looks like a
    shadow and is excused, a dark side counts fully).
    """
    polys = _polygons(camera, s)
    if polys is None:
        return None
    top, jtop, sil, jsil = polys
    n_par = min(params, jtop.shape[2])
    return kernels.soft_silhouette(
        top, jtop, sil, jsil, roi.centre, roi.ang, roi.rad, roi.alpha, blur_px, n_par
    )


def fit_solid(
    camera: Camera,
    image: U8,
    bg: NDArray[np.float32],
    s: Solid,
    excluded: NDArray[np.bool_] | None = None,
    iterations: int = 10,
    fit_size: bool = True,
    blur_px: float = _BLUR_PX,
    floor: float = 0.0,
) -> Solid:
    """Fit a solid (a button's centre and diameter, a goalkeeper's centre and angle) to the
    coverage observed around its outlines: Gauss-Newton on the soft model of its silhouette.

    ``fit_size=False`` keeps a button's diameter (the team's, once known); ``blur_px`` is the
    edges' blur (wider where a piece differs from the felt in hue alone: JPEG halves the
    colour's resolution); ``floor`` the felt's own distance to the model (:func:`noise_floor`).
    """
    free = 3 if (fit_size or s.kind == "goalkeeper") else 2
    lim = np.array([6.0, 6.0, 6.0 if s.kind == "button" else 0.2])[:free]
    roi = _observed(camera, image, bg, s, excluded, floor)
    s.inliers = 0.0
    if roi is None:
        return s
    r = np.zeros(0)
    jac = np.zeros((0, free))
    # Levenberg-Marquardt on the Cauchy cost: a step that makes the cost worse is taken back
    # and shortened (a blurred or half-hidden piece would otherwise run away or cycle)
    lam = 1e-3
    best: tuple[float, FloatArray, FloatArray, FloatArray] | None = None
    delta: FloatArray = np.zeros(free)
    read_at = s.p[:2].copy()
    prev: FloatArray | None = None
    reads = 1
    centred = False
    for it in range(iterations + 1):
        pred = _predict(camera, s, roi, blur_px, free)
        if pred is None:
            return s
        r = np.asarray(roi.alpha - pred[0], np.float64)
        jac = np.asarray(-pred[1][:, :free], np.float64)  # d(residual)/dp = -d(pred)/dp
        cost = float(np.log1p((r / 0.25) ** 2).sum())
        if best is not None and cost > best[0]:
            s.p[:free] = best[1]
            r, jac = np.asarray(best[2], np.float64), np.asarray(best[3], np.float64)
            lam *= 10.0
        else:
            best = (cost, s.p[:free].copy(), r, jac)
            lam = max(lam * 0.3, 1e-6)
        if it == iterations:
            break
        w = np.ones(len(r)) if it < 2 else 1.0 / (1.0 + (r / 0.25) ** 2)
        # a button's diameter is freed once its centre has settled: both free from a start
        # some pixels off, a wider disc off centre explains one edge and the fit crawls
        # along that valley for tens of steps
        k = 2 if free == 3 and s.kind == "button" and not centred else free
        jw = jac[:, :k] * w[:, None]
        a = jw.T @ jac[:, :k]
        delta = np.zeros(free)
        delta[:k] = -np.linalg.solve(a + lam * np.diag(np.diag(a)) + 1e-6 * np.eye(k), jw.T @ r)
        centred = centred or it >= 5 or float(np.abs(delta[:2]).max()) < 0.3
        accepted = best is not None and bool((best[1] == s.p[:free]).all())  # step not undone
        if accepted and prev is not None and it >= 2:
            # Gauss-Newton on a large-residual fit converges linearly (each step ~0.7 of the
            # last, along the same line): jump to the limit of that geometric series
            pp = float(prev @ prev)
            rho = float(delta @ prev) / pp if pp > 0 else 0.0
            cos = float(delta @ prev) / max(math.sqrt(pp * float(delta @ delta)), 1e-12)
            if 0.3 < rho < 0.95 and cos > 0.95:
                delta = delta * min(1.0 / (1.0 - rho), 4.0)
        prev = delta if accepted else None
        s.p[:free] += np.clip(delta, -lim, lim)
        if reads < 3 and np.abs(s.p[:2] - read_at).max() > 1.0:  # moved far: read the ROI again
            roi = _observed(camera, image, bg, s, excluded, floor) or roi
            read_at, reads = s.p[:2].copy(), reads + 1
            best = None  # another set of pixels: costs are not comparable
        if np.abs(delta[:2]).max() < 0.02 and it >= 2:
            iterations = it + 1  # one more pass for the final residuals
    polys = _polygons(camera, s)
    s.hull = polys[2] if polys is not None else np.zeros((0, 2))
    # the share of the band the model explains; and the same with a print's holes (a dark
    # ring, the number) weighed down
    total = float(np.sum((roi.alpha - roi.alpha.mean()) ** 2))
    s.inliers = max(0.0, 1.0 - float(r @ r) / max(total, 1e-9))
    w = 1.0 / (1.0 + (r / 0.25) ** 2)
    spread = roi.alpha - float(w @ roi.alpha) / max(float(w.sum()), 1e-9)
    s.robust = max(0.0, 1.0 - float(w @ r**2) / max(float(w @ spread**2), 1e-9))
    var = float(r @ r) / max(len(r) - free, 1)
    try:
        cov = 4.0 * var * np.linalg.inv(jac.T @ jac + 1e-9 * np.eye(free))  # x4: blurred pixels
        s.sigma = math.sqrt(max(float(cov[0, 0] + cov[1, 1]) / 2.0, 0.0))
    except np.linalg.LinAlgError:
        s.sigma = math.nan
    return s


def refit_keeper(
    camera: Camera,
    image: U8,
    bg: NDArray[np.float32],
    old: Solid,
    excluded: NDArray[np.bool_] | None,
    accept: Callable[[Solid], bool],
    floor: float,
    reach_mm: float,
) -> Solid | None:
    """A goalkeeper fitted again from where it stood (``old``'s pose): the fit if ``accept``
    finds it good, its top face stands out from the felt (:data:`_KEEPER_LEVEL_MIN`) and it
    lies within ``reach_mm`` of there; else None."""
    g = Solid("goalkeeper", old.p.copy(), old.height, old.size)
    g = fit_solid(camera, image, bg, g, excluded, floor=floor)
    if float(np.hypot(*(g.p[:2] - old.p[:2]))) > reach_mm or not accept(g):
        return None
    return g if _top_level(camera, image, bg, g) >= _KEEPER_LEVEL_MIN else None


def fit_keeper(
    camera: Camera,
    image: U8,
    bg: NDArray[np.float32],
    start: tuple[FloatArray, float],
    size_mm: tuple[float, float],
    height_mm: float,
    excluded: NDArray[np.bool_] | None,
    half_length: float,
    accept: Callable[[Solid], bool],
    floor: float = 0.0,
    around: bool = True,
    min_level: float | None = None,
) -> Solid | None:
    """A goalkeeper fitted from a blob's centre and axis (``start``); when that start is poor
    (a blob a goal's net or a neighbour lengthens), from its usual place on the goal line and
    from starts around the blob and across it. The first fit ``accept`` finds good enough
    (explaining three quarters of its pixels) wins, else the best accepted one; a fit whose
    top face hardly differs from the felt (``min_level``, by default
    :data:`_KEEPER_LEVEL_MIN`) is no goalkeeper.

    ``around=False`` leaves out the 17 starts around and across the blob (a piece whose centre
    is known, a button's fit asking whether it is a goalkeeper end on, a blob beside a hand):
    a failed search costs 3 fits and the round from the best of them instead of 20."""

    level_min = _KEEPER_LEVEL_MIN if min_level is None else min_level
    banded = False  # the fits judged by their top's bright rims (none stood out by its median)

    def ok(g: Solid) -> bool:
        if not accept(g):
            return False
        return _top_level(camera, image, bg, g, _BANDED_Q if banded else None) >= level_min

    c, ang = start
    starts = [(0.0, 0.0, 0.0)] + [
        (dx, dy, da)
        for dx in (-12.0, 0.0, 12.0)
        for dy in (-12.0, 0.0, 12.0)
        for da in (0.0, math.pi / 2)
        if around and (dx, dy, da) != (0.0, 0.0, 0.0)
    ]
    if abs(abs(c[0]) - half_length) < 120.0:  # near a goal: across its mouth, on the line
        x_line = math.copysign(half_length - size_mm[1] / 2.0, c[0])
        starts[1:1] = [(x_line - c[0], dy, math.pi / 2 - ang) for dy in (0.0, -c[1])]
    best: Solid | None = None
    near: list[Solid] = []  # fits not accepted, to be fitted again if none is
    for dx, dy, da in starts:
        g = Solid("goalkeeper", np.array([c[0] + dx, c[1] + dy, ang + da]), height_mm, size_mm)
        g = fit_solid(camera, image, bg, g, excluded, floor=floor)
        if not ok(g):
            near.append(g)
        elif best is None or g.inliers + g.robust > best.inliers + best.robust:
            best = g
            if g.inliers > 0.75:
                break
    if best is None:
        # every start stopped short: a box turned across its goal line, half over the net,
        # whose blob (with the ball beside it) gives a centre and an axis far off: the starts
        # ended 8-15 mm along the box, explaining a quarter of it; fitted again from the best
        # of them, the box's ends come into view (bench_goalline rig 300, left goal). Beside
        # a hand too: a box beside the rail reads as beside one (its blob and the net's touch
        # the rim), and without this round rigs 301, 380 and 410 lost four calls
        near.sort(key=lambda q: -(q.inliers + q.robust))
        for g in near[:_KEEPER_RETRIES]:
            for _ in range(3):
                if g.robust < _KEEPER_RETRY_ROBUST:
                    break
                g = fit_solid(
                    camera,
                    image,
                    bg,
                    Solid("goalkeeper", g.p.copy(), height_mm, size_mm),
                    excluded,
                    floor=floor,
                )
                if ok(g):
                    best = g
                    break
            if best is not None:
                break
    if best is None:
        # a white box banded dark along its top on a pale felt: the top's median is the band's
        # grey, a shadow's colour there, and no fit stood out by it. Judged by the top's bright
        # rims, the best of the fits (five white boxes on --seed 2200's and 2100's stills, none
        # found before, within 0.3-2.3 mm)
        banded = True
        fits = sorted(near, key=lambda q: -(q.inliers + q.robust))
        best = next((g for g in fits if ok(g)), None)
    # a fit sees only the pixels near its start's outlines: a start a few mm off along the box
    # never sees the true ends and stops short (6 mm, explaining 80%); fitted again from where
    # it stopped, the ends are in view (a turned box takes a few rounds: 0.2 rad a step)
    for _ in range(6):
        if best is None:
            break
        g = Solid("goalkeeper", best.p.copy(), height_mm, size_mm)
        g = fit_solid(camera, image, bg, g, excluded, floor=floor)
        if not ok(g):
            break
        moved = float(np.hypot(*(g.p[:2] - best.p[:2])))
        turned = abs(float(g.p[2] - best.p[2]))
        best = g
        if moved < 0.3 and turned < 0.01:
            break
    if banded and best is not None:
        best.sigma = math.hypot(best.sigma if math.isfinite(best.sigma) else 0.0, _BANDED_SIGMA_MM)
        best.weak = True
    return best


def explained_together(
    camera: Camera,
    image: U8,
    bg: NDArray[np.float32],
    fits: list[Solid],
    excluded: NDArray[np.bool_] | None,
    floor: float = 0.0,
) -> FloatArray:
    """Each fit's share (like :attr:`Solid.inliers`) of the coverage it explains on the pixels
    near any of the fits' outlines: fits of one piece compared on the same pixels.

    A fit is judged on the pixels near its own outlines: a box's top placed on its side face,
    seen large under a tilted camera, leaves the true top beyond its band, unseen, and
    explained 0.78 where the true pose, its band on the goal's net, explained 0.52-0.59
    (stills 2121 and 2314 of ``bench_detect``); on the pixels of both, each pays for what it
    leaves out. NaN for a fit that leaves the image."""
    polys = [_polygons(camera, s) for s in fits]
    out = np.full(len(fits), np.nan)
    shown = [p for p in polys if p is not None]
    if not shown:
        return out
    h, w = image.shape[:2]
    x0, y0, x1, y1 = _window(np.concatenate([p[2] for p in shown]), w, h)
    if x1 - x0 < 6 or y1 - y0 < 6:
        return out
    flat = []
    for top, _, sil, _ in shown:
        yy, xx, _, _ = kernels.band_pixels(top, sil, top.mean(axis=0), x0, y0, x1, y1, _BAND_PX)
        flat.append(yy * w + xx)
    yy, xx = np.divmod(np.unique(np.concatenate(flat)), w)
    if excluded is not None:
        keep = ~excluded[yy, xx]
        yy, xx = yy[keep], xx[keep]
    if len(yy) < 20:
        return out
    tops = [_top_level(camera, image, bg, s) for s, p in zip(fits, polys, strict=True) if p]
    alpha = _coverage(image, bg, yy, xx, max(_EDGE_MIN, _LEVEL * max(tops)), floor)
    total = max(float(np.sum((alpha - alpha.mean()) ** 2)), 1e-9)
    for i, (s, p) in enumerate(zip(fits, polys, strict=True)):
        if p is None:
            continue
        centre = p[0].mean(axis=0)
        dx, dy = xx - centre[0], yy - centre[1]
        ang = np.arctan2(dy, dx)
        order = np.argsort(ang, kind="stable")  # as _observed's: the kernels walk the angle
        roi = _Roi(alpha[order], ang[order], np.hypot(dx, dy)[order], centre)
        pred = _predict(camera, s, roi, params=0)
        if pred is not None:
            r = roi.alpha - pred[0]
            out[i] = max(0.0, 1.0 - float(r @ r) / total)
    return out


def _reach(x: Solid) -> float:
    return float(x.p[2] / 2 if x.kind == "button" else x.size[0] / 2)


def close(a: Solid, b: Solid) -> bool:
    """Whether two solids' silhouettes may touch (their fits then leave each other out)."""
    return bool(np.hypot(*(a.p[:2] - b.p[:2])) < _reach(a) + _reach(b) + 15.0)


def distinct(solids: list[Solid], kept: list[Solid] | None = None) -> list[Solid]:
    """The solids that do not overlap a better fit (or a ``kept`` one) by more than 5 mm: one
    piece, two seeds (a goalkeeper counts by its half width beside a button; two goalkeepers
    by their half lengths, as two fits of one box can lie along it and a goalkeeper has no
    other goalkeeper beside it)."""

    def half(x: Solid, y: Solid) -> float:
        if x.kind == "button":
            return float(x.p[2] / 2)
        return float(x.size[0] / 2 if y.kind == x.kind else x.size[1] / 2)

    keep: list[Solid] = list(kept or [])
    n_kept = len(keep)
    for x in sorted(solids, key=lambda q: -q.inliers):
        if all(np.hypot(*(x.p[:2] - y.p[:2])) > half(x, y) + half(y, x) - 5.0 for y in keep):
            keep.append(x)
    return keep[n_kept:]


_TOP_RINGS = np.array([0.25, 0.45, 0.62, 0.78])[:, None]  # of the radius
_TOP_COS = np.cos(np.linspace(0.0, 2 * np.pi, 12, endpoint=False))[None]
_TOP_SIN = np.sin(np.linspace(0.0, 2 * np.pi, 12, endpoint=False))[None]


def top_samples(camera: Camera, s: Solid) -> FloatArray:
    """Pixels (N, 2) inside a solid's top face (rings of a disc, a grid over a box's top)."""
    x, y, q = s.p
    if s.kind == "button":
        r = _TOP_RINGS * q / 2
        xyz = np.empty((_TOP_RINGS.size * _TOP_COS.size, 3))
        xyz[:, 0] = (x + r * _TOP_COS).ravel()
        xyz[:, 1] = (y + r * _TOP_SIN).ravel()
        xyz[:, 2] = s.height
        return camera.table_to_image(xyz)
    gu, gv = np.meshgrid(
        np.linspace(-0.4, 0.4, 7) * s.size[0], np.array([-0.3, 0, 0.3]) * s.size[1]
    )
    u, v = gu.ravel(), gv.ravel()
    pts = np.column_stack([x + u * np.cos(q) - v * np.sin(q), y + u * np.sin(q) + v * np.cos(q)])
    return camera.table_to_image(np.column_stack([pts, np.full(len(pts), s.height)]))


def centres_inside(
    hulls: list[FloatArray], shape: tuple[int, ...], stride: int
) -> NDArray[np.bool_]:
    """Coarse mask (``shape``, every ``stride``-th pixel from ``stride // 2``) of the pixels
    whose centres lie inside any of the convex ``hulls`` (px): a silhouette's own pixels, not
    every pixel its outline touches (as :func:`cv2.fillPoly` marks them)."""
    h, w = shape[:2]
    o = stride // 2
    mask = np.zeros((h, w), bool)
    for hull in hulls:
        if len(hull) < 3:
            continue
        j0, i0 = (max(0, math.ceil((v - o) / stride)) for v in hull.min(axis=0))
        j1 = min(w - 1, math.floor((float(hull[:, 0].max()) - o) / stride))
        i1 = min(h - 1, math.floor((float(hull[:, 1].max()) - o) / stride))
        if j1 < j0 or i1 < i0:
            continue
        v, u = np.mgrid[i0 : i1 + 1, j0 : j1 + 1] * stride + o
        a, d = hull, np.roll(hull, -1, axis=0) - hull
        cross = d[:, 0, None, None] * (v - a[:, 1, None, None]) - d[:, 1, None, None] * (
            u - a[:, 0, None, None]
        )
        mask[i0 : i1 + 1, j0 : j1 + 1] |= (cross >= 0).all(axis=0) | (cross <= 0).all(axis=0)
    return mask
