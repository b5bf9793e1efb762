"""Marking pixels in a picture of the table: the felt's region, then thin contrasting lines.

Two steps, for any felt colour and lighting (nothing here knows the renderer):

1. :func:`find_field` - the felt is the largest region of one consistent colour around the image
   centre. Colours are compared as chromaticity (``bgr / (b + g + r)``, which a brightness gain
   leaves alone) plus a loose brightness ratio, so a light gradient or a vignette across the
   table does not split it. The region is filled: lines, pieces and hands on it are holes.
2. :func:`find_lines` - Steger's ridge detector (C. Steger, "An unbiased detector of curvilinear
   structures", PAMI 1998) on the grey image at a scale set by the expected line width: a
   line pixel has a strong second derivative across the line and a weak one along it, and its
   sub-pixel centre is where the first derivative across the line vanishes (one Taylor step
   at the pixel, one Newton step from bicubic samples). Step edges (a piece's rim, a hand)
   are rejected because their flanks are not both darker (or lighter).
3. :func:`bar_centres` - a thin bar between unequal flanks (a crossbar before its net) is
   centred by fitting its profile with a blurred box instead; :func:`long_chains`,
   :func:`largest_quad` and :func:`felt_quad` give the outlines an initial pose starts from.

Examples
--------
>>> img = np.full((240, 320, 3), (60, 135, 45), np.uint8)
>>> img[:, 150:152] = 240  # a 2 px white line on green felt
>>> region = find_field(img)
>>> region.ok, round(region.area_share, 2)
(True, 1.0)
>>> pts = find_lines(img, region, line_px=2.0)
>>> bool(np.allclose(pts.uv_px[:, 0], 150.5, atol=0.05))
True
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from scipy.special import ndtr

__all__ = [
    "FieldRegion",
    "LinePoints",
    "bar_centres",
    "felt_quad",
    "find_field",
    "find_lines",
    "grey_image",
    "largest_quad",
    "long_chains",
]

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]
Img = NDArray[Any]  # what cv2 returns (its stubs do not keep the dtype)
Filters = tuple[Img, Img, Img, Img, Img, Img, Img, Img]
_WORK_PX = 400  # long side of the image the felt is segmented on
_MIN_AREA_SHARE = 0.06  # a felt smaller than this share of the picture is not a usable view
_MIN_SOLIDITY = 0.7  # area / convex hull area: a felt is a (distorted) rectangle
_MIN_DENSITY = 0.6  # of the region in the felt's colour: lines, pieces and hands cover less


@dataclass(frozen=True)
class FieldRegion:
    """The felt's region (or why none was found).

    ``mask`` is at ``1 / scale`` of the image's resolution (``mask_full`` upsamples it);
    ``colour_bgr`` the felt's median colour; ``area_share`` the region's share of the image;
    ``reason`` is empty when a felt was found, else one line a user understands.
    """

    mask: U8
    scale: float
    image_size: tuple[int, int]
    colour_bgr: tuple[float, float, float]
    median_grey: float
    area_share: float
    reason: str = ""

    @property
    def ok(self) -> bool:
        return not self.reason

    def mask_full(self, pad_px: int = 0) -> U8:
        """The mask at the image's resolution, grown by ``pad_px`` pixels."""
        w, h = self.image_size
        full = cv2.resize(self.mask, (w, h), interpolation=cv2.INTER_NEAREST)
        if pad_px > 0:
            k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad_px + 1, 2 * pad_px + 1))
            full = cv2.dilate(full, k)
        return np.asarray(full, np.uint8)

    def bbox_px(self) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)`` of the region in image pixels (exclusive ends)."""
        ys, xs = np.nonzero(self.mask)
        if len(xs) == 0:
            return (0, 0, 0, 0)
        w, h = self.image_size
        s = self.scale
        return (
            max(int(xs.min() / s) - 2, 0),
            max(int(ys.min() / s) - 2, 0),
            min(int((xs.max() + 1) / s) + 2, w),
            min(int((ys.max() + 1) / s) + 2, h),
        )


@dataclass(frozen=True)
class LinePoints:
    """Sub-pixel centres of line pixels.

    ``uv_px`` (N, 2) centres, ``normal`` (N, 2) unit normals across the line, ``strength`` (N,)
    the scale-normalised ridge strength (grey levels), ``sigma_px`` the detector's scale,
    ``polarity`` +1 for lines brighter than the felt, -1 for darker ones.
    """

    uv_px: FloatArray
    normal: FloatArray
    strength: FloatArray
    sigma_px: float
    polarity: int

    def __len__(self) -> int:
        return len(self.uv_px)

    def subset(self, keep: NDArray[np.bool_] | NDArray[np.intp]) -> LinePoints:
        return LinePoints(
            self.uv_px[keep], self.normal[keep], self.strength[keep], self.sigma_px, self.polarity
        )

    def concat(self, other: LinePoints) -> LinePoints:
        """These points and ``other``'s (this scale and polarity)."""
        return LinePoints(
            np.concatenate([self.uv_px, other.uv_px]),
            np.concatenate([self.normal, other.normal]),
            np.concatenate([self.strength, other.strength]),
            self.sigma_px,
            self.polarity,
        )


def grey_image(image: NDArray[np.generic]) -> U8:
    """A uint8 grey image of a BGR (h, w, 3) or grey (h, w) picture."""
    arr = np.asarray(image)
    if arr.ndim == 3 and arr.shape[2] == 3:
        arr = cv2.cvtColor(np.ascontiguousarray(arr, np.uint8), cv2.COLOR_BGR2GRAY)
    if arr.ndim != 2:
        raise ValueError(f"image: expected (h, w, 3) BGR or (h, w) grey, got shape {arr.shape}")
    return np.ascontiguousarray(arr, np.uint8)


def _bgr(image: NDArray[np.generic]) -> U8:
    arr = np.asarray(image)
    if arr.ndim == 2:
        arr = np.repeat(arr[:, :, None], 3, axis=2)
    if arr.ndim != 3 or arr.shape[2] != 3:
        raise ValueError(f"image: expected (h, w, 3) BGR or (h, w) grey, got shape {arr.shape}")
    if arr.dtype != np.uint8:
        arr = np.clip(arr, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(arr)


def _fail(
    shape: tuple[int, ...], scale: float, size: tuple[int, int], grey: float, why: str
) -> FieldRegion:
    return FieldRegion(np.zeros(shape[:2], np.uint8), scale, size, (0.0, 0.0, 0.0), grey, 0.0, why)


def find_field(image_bgr: NDArray[np.generic]) -> FieldRegion:
    """The felt's region: the largest region of consistent colour around the image centre.

    Fails (``ok`` False, ``reason`` set) on a picture too dark to read, or when no region of
    one colour covers a usable, compact part of the picture (noise, clutter).
    """
    img = _bgr(image_bgr)
    h, w = img.shape[:2]
    scale = min(1.0, _WORK_PX / max(h, w))
    small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    small = cv2.medianBlur(small, 5)  # lines and numbers vanish, the felt stays
    sh, sw = small.shape[:2]
    grey = small.astype(np.float32).mean(axis=2)
    median_grey = float(np.median(grey))
    if np.percentile(grey, 99) < 40.0:
        return _fail(
            small.shape,
            scale,
            (w, h),
            median_grey,
            f"no field found: too dark (median grey {median_grey:.0f})",
        )
    f = small.astype(np.float32) + 4.0  # the offset keeps dark pixels' chromaticity calm
    total = f.sum(axis=2)
    chroma = f[:, :, 1:] / total[:, :, None]  # (g, r) shares; b = 1 - g - r
    log_y = np.log(total)
    # The felt's colour: the mode of the chromaticity in the central half of the picture.
    cy0, cy1, cx0, cx1 = sh // 4, sh - sh // 4, sw // 4, sw - sw // 4
    centre = chroma[cy0:cy1, cx0:cx1].reshape(-1, 2)
    bins = 50
    hist, _, _ = np.histogram2d(centre[:, 0], centre[:, 1], bins=bins, range=[[0, 1], [0, 1]])
    hist = cv2.GaussianBlur(hist.astype(np.float32), (5, 5), 1.0)
    i, j = np.unravel_index(int(np.argmax(hist)), hist.shape)
    near = np.hypot(centre[:, 0] - (i + 0.5) / bins, centre[:, 1] - (j + 0.5) / bins) < 0.03
    mode = np.median(centre[near], axis=0) if near.any() else centre.mean(axis=0)
    d_c = np.hypot(chroma[:, :, 0] - mode[0], chroma[:, :, 1] - mode[1])
    d_centre = d_c[cy0:cy1, cx0:cx1]
    # Tolerance from the felt's own spread (noise, texture, white balance across the table).
    spread = float(np.median(d_centre[d_centre < 0.04])) if (d_centre < 0.04).any() else 0.02
    tol_c = float(np.clip(4.0 * spread, 0.025, 0.07))
    y0 = (
        float(np.median(log_y[cy0:cy1, cx0:cx1][d_centre < tol_c]))
        if (d_centre < tol_c).any()
        else 0.0
    )
    mask = ((d_c < tol_c) & (np.abs(log_y - y0) < math.log(2.2))).astype(np.uint8)
    matched = mask.copy()
    # Close across the lines (a wide line at this scale splits the felt), then drop specks.
    k = max(5, round(0.02 * max(sh, sw)) | 1)
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if n <= 1:
        return _fail(
            small.shape, scale, (w, h), median_grey, "no field found: no region of one colour"
        )
    central = np.bincount(labels[cy0:cy1, cx0:cx1].ravel(), minlength=n)
    central[0] = 0
    best = int(np.argmax(central))
    region = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, [outline], -1, 1, thickness=cv2.FILLED)
    area = float(filled.sum())
    share = area / (sh * sw)
    hull_area = float(cv2.contourArea(cv2.convexHull(outline)))
    colour = tuple(float(c) for c in np.median(small[region.astype(bool)], axis=0))
    if share < _MIN_AREA_SHARE:
        return _fail(
            small.shape,
            scale,
            (w, h),
            median_grey,
            f"no field found: the largest region of one colour covers {100 * share:.0f}% "
            "of the image",
        )
    density = float(matched[filled > 0].mean())
    if density < _MIN_DENSITY:
        return _fail(
            small.shape,
            scale,
            (w, h),
            median_grey,
            f"no field found: only {100 * density:.0f}% of the largest region has one colour",
        )
    if area < _MIN_SOLIDITY * hull_area:
        return _fail(
            small.shape,
            scale,
            (w, h),
            median_grey,
            f"no field found: the region of the felt's colour is ragged "
            f"(fills {100 * area / max(hull_area, 1.0):.0f}% of its hull)",
        )
    return FieldRegion(filled, scale, (w, h), colour, median_grey, share)  # type: ignore[arg-type]


def _sample(img: Img, uv: FloatArray, cubic: bool = False) -> FloatArray:
    """Bilinear (or bicubic) samples of ``img`` at (N, 2) pixel positions (edges replicated)."""
    if len(uv) == 0:
        return np.zeros(0)
    n = len(uv)
    cols = 1024  # remap wants maps under 32767 a side: fold the points into rows
    rows = -(-n // cols)
    m = np.zeros((rows * cols, 2), np.float32)
    m[:n] = uv
    mode = cv2.INTER_CUBIC if cubic else cv2.INTER_LINEAR
    # two float maps (x, y): the same samples as one two-channel map, and typed alike by every
    # opencv's stubs (a None second map is not, in some)
    mx = np.ascontiguousarray(m[:, 0].reshape(rows, cols))
    my = np.ascontiguousarray(m[:, 1].reshape(rows, cols))
    out = cv2.remap(img, mx, my, mode, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out, np.float64).reshape(-1)[:n]


def find_lines(
    image: NDArray[np.generic],
    region: FieldRegion | None,
    line_px: float,
    polarity: int = 0,
    min_contrast: float = 4.0,
    weights_bgr: tuple[float, float, float] | None = None,
    mask: U8 | None = None,
) -> LinePoints:
    """Sub-pixel centres of thin lines (about ``line_px`` wide) inside the felt's region.

    ``polarity`` +1 finds lines brighter than their surroundings, -1 darker ones, 0 picks the
    polarity that finds more. ``min_contrast`` (grey levels) is the least difference between
    a line and both its flanks. ``weights_bgr`` projects the colours onto one axis instead of
    the grey level (e.g. the line's colour minus the felt's, for lines that differ from the
    felt more in hue than in brightness). ``mask`` (h, w), when given, replaces the felt's
    region as the pixels to search.
    """
    if weights_bgr is not None:
        bgr = _bgr(image)
        wts = np.asarray(weights_bgr, np.float32).reshape(3)
        grey = cv2.transform(bgr.astype(np.float32), wts.reshape(1, 3))
        grey = np.asarray(grey, np.float32).reshape(bgr.shape[:2])
    else:
        grey = grey_image(image)
    h, w = grey.shape
    if mask is not None:
        ys_m, xs_m = np.nonzero(mask)
        if len(xs_m) == 0:
            return LinePoints(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), 1.0, polarity or 1)
        pad = 12
        x0, y0 = max(int(xs_m.min()) - pad, 0), max(int(ys_m.min()) - pad, 0)
        x1, y1 = min(int(xs_m.max()) + pad + 1, w), min(int(ys_m.max()) + pad + 1, h)
        mask = mask[y0:y1, x0:x1]
    elif region is not None and region.ok:
        x0, y0, x1, y1 = region.bbox_px()
        mask = region.mask_full(pad_px=2)[y0:y1, x0:x1]
    else:
        x0, y0, x1, y1 = 0, 0, w, h
        mask = np.ones((h, w), np.uint8)
    crop = np.ascontiguousarray(grey[y0:y1, x0:x1], np.float32)
    # Scale: wide enough to see the whole line as one ridge, never below 1 px (noise).
    sigma = float(np.clip(0.6 * line_px, 1.0, 4.0))
    # One Gaussian blur, then central differences: the Gaussian's derivatives at a fifth of
    # the cost of five separable Gaussian-derivative filters.
    smooth = cv2.GaussianBlur(crop, (0, 0), sigma)
    d1 = np.array([[-0.5, 0.0, 0.5]], np.float32)
    d2 = np.array([[1.0, -2.0, 1.0]], np.float32)
    gxx = cv2.filter2D(smooth, cv2.CV_32F, d2)
    gyy = cv2.filter2D(smooth, cv2.CV_32F, d2.T)
    gxy = cv2.filter2D(smooth, cv2.CV_32F, d1.T @ d1)
    # Eigenvalues of the Hessian, lam_min <= lam_max (cv2's arithmetic: a few ms at 1080p).
    half = cv2.addWeighted(gxx, 0.5, gyy, 0.5, 0.0)
    root = cv2.magnitude(cv2.addWeighted(gxx, 0.5, gyy, -0.5, 0.0), gxy)
    lam_min, lam_max = cv2.subtract(half, root), cv2.add(half, root)
    inside = mask > 0
    gx = cv2.filter2D(smooth, cv2.CV_32F, d1)
    gy = cv2.filter2D(smooth, cv2.CV_32F, d1.T)
    filters = (gxx, gxy, gyy, gx, gy, lam_min, lam_max, smooth)
    if polarity == 0:  # the polarity that finds more line points (white lines are the norm)
        # (Counting ridge pixels is not enough: a bright line's flanks are dark ridges too.)
        bright = _refine(
            filters,
            _centres(filters, inside, sigma, 1, min_contrast),
            sigma,
            1,
            line_px,
            min_contrast,
        )
        dark = _refine(
            filters,
            _centres(filters, inside, sigma, -1, min_contrast),
            sigma,
            -1,
            line_px,
            min_contrast,
        )
        found = bright if len(bright) >= len(dark) else dark
    else:
        c = _centres(filters, inside, sigma, polarity, min_contrast)
        found = _refine(filters, c, sigma, polarity, line_px, min_contrast)
    found.uv_px[:] += np.array([x0, y0], dtype=np.float64)
    return found


def _candidates(
    filters: Filters,
    inside: NDArray[np.bool_],
    sigma: float,
    polarity: int,
    min_contrast: float,
) -> tuple[NDArray[np.intp], NDArray[np.intp], FloatArray]:
    """Pixels (ys, xs) with a strong ridge of ``polarity`` across and a weak curvature along,
    and their across-line curvature (positive; scale-normalised, grey levels)."""
    lam_min, lam_max = filters[5], filters[6]
    # Across: -lam_min on a bright ridge, lam_max on a dark one; along: the other eigenvalue.
    across_img, along_img = (lam_min, lam_max) if polarity > 0 else (lam_max, lam_min)
    sub = across_img[::3, ::3][inside[::3, ::3]] * -polarity  # a ninth is plenty for statistics
    med = float(np.median(sub))
    mad = float(np.median(np.abs(sub - med))) * 1.4826
    s2 = sigma * sigma
    thr = max(med + 5.0 * mad, 0.5 * min_contrast / s2)
    ys, xs = np.nonzero(across_img < -thr) if polarity > 0 else np.nonzero(across_img > thr)
    across = across_img[ys, xs].astype(np.float64) * -polarity
    along = along_img[ys, xs].astype(np.float64)
    keep = inside[ys, xs] & (np.abs(along) < 0.5 * across)
    return ys[keep], xs[keep], across[keep] * s2


def _centres(
    filters: Filters,
    inside: NDArray[np.bool_],
    sigma: float,
    polarity: int,
    min_contrast: float,
) -> tuple[FloatArray, FloatArray, FloatArray, NDArray[np.intp]]:
    """Ridge pixels whose line centre (one Taylor step) falls in or next to them:
    (sub-pixel centres, unit normals, strengths, pixels), crop coordinates."""
    gxx, gxy, gyy, gx_img, gy_img = filters[:5]
    ys, xs, across = _candidates(filters, inside, sigma, polarity, min_contrast)
    a = gxx[ys, xs].astype(np.float64)
    b = gxy[ys, xs].astype(np.float64)
    c = gyy[ys, xs].astype(np.float64)
    lam = -polarity * across / (sigma * sigma)  # the across eigenvalue
    # Eigenvector of lam: (b, lam - a) or (lam - c, b), whichever is better conditioned.
    n1 = np.column_stack([b, lam - a])
    n2 = np.column_stack([lam - c, b])
    use2 = np.hypot(*n2.T) > np.hypot(*n1.T)
    n = np.where(use2[:, None], n2, n1)
    n /= np.maximum(np.hypot(*n.T), 1e-12)[:, None]
    gx = gx_img[ys, xs].astype(np.float64)
    gy = gy_img[ys, xs].astype(np.float64)
    t = -(gx * n[:, 0] + gy * n[:, 1]) / lam
    # The Taylor step overshoots toward half a pixel, where the profile is no parabola: keep a
    # little beyond the pixel (the next step refines).
    ok = (np.abs(t * n[:, 0]) <= 0.7) & (np.abs(t * n[:, 1]) <= 0.7)
    uv = np.column_stack([xs + t * n[:, 0], ys + t * n[:, 1]])[ok]
    pix = np.column_stack([xs, ys])[ok]
    return uv, n[ok], across[ok], pix


def _refine(
    filters: Filters,
    centres: tuple[FloatArray, FloatArray, FloatArray, NDArray[np.intp]],
    sigma: float,
    polarity: int,
    line_px: float,
    min_contrast: float,
) -> LinePoints:
    """A Newton step on the centres, then the flank test (crop coordinates)."""
    gxx, gxy, gyy, gx_img, gy_img, _, _, smooth = filters
    uv, n, strength, pix = centres
    empty = LinePoints(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), sigma, polarity)
    if len(uv) == 0:
        return empty
    # One Newton step from bicubic samples of the derivatives (a second gains nothing: the
    # rest, below 0.06 px on axis-aligned lines, is the sampled kernels' own bias).
    g_n = _sample(gx_img, uv, True) * n[:, 0] + _sample(gy_img, uv, True) * n[:, 1]
    h_nn = (
        _sample(gxx, uv, True) * n[:, 0] ** 2
        + 2.0 * _sample(gxy, uv, True) * n[:, 0] * n[:, 1]
        + _sample(gyy, uv, True) * n[:, 1] ** 2
    )
    step = -g_n / np.where(polarity * h_nn < 0, h_nn, np.nan)
    good = np.isfinite(step) & (np.abs(step) < 0.5)
    uv = uv[good] + step[good, None] * n[good]
    n, strength, pix = n[good], strength[good], pix[good]
    inpix = np.all(np.abs(uv - pix) <= 0.51, axis=1)  # each pixel reports its own centre
    uv, n, strength = uv[inpix], n[inpix], strength[inpix]
    if len(uv) == 0:
        return empty
    # Both flanks must differ from the centre in the line's sense (a step edge has one flank).
    d = 0.5 * line_px + 2.0 * sigma
    centre = _sample(smooth, uv) * polarity
    plus = _sample(smooth, uv + d * n) * polarity
    minus = _sample(smooth, uv - d * n) * polarity
    low, high = np.minimum(plus, minus), np.maximum(plus, minus)
    keep = (centre - high > min_contrast) & (centre - high > 0.35 * (centre - low))
    return LinePoints(uv[keep], n[keep], strength[keep], sigma, polarity)


def _bar_basis(t: FloatArray, m: FloatArray, w: FloatArray, s: FloatArray) -> FloatArray:
    """(N, T, 3) profiles of unit flank, bar and flank levels: a box ``[m - w/2, m + w/2]``
    blurred by a Gaussian of ``s`` px, sampled at ``t`` (T,)."""
    left = ndtr((t[None, :] - (m - w / 2)[:, None]) / s[:, None])
    right = ndtr((t[None, :] - (m + w / 2)[:, None]) / s[:, None])
    return np.stack([1.0 - left, left - right, right], axis=2)


def _bar_levels(prof: FloatArray, t: FloatArray, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The best levels (N, 3) (flank, bar, flank) for box parameters ``x`` (N, 3) = (m, w, s),
    and the residuals (N, T): the levels enter linearly (variable projection)."""
    basis = _bar_basis(t, x[:, 0], x[:, 1], x[:, 2])
    normal = np.einsum("ntk,ntl->nkl", basis, basis) + 1e-9 * np.eye(3)
    rhs = np.einsum("ntk,nt->nk", basis, prof)
    levels = np.linalg.solve(normal, rhs[..., None])[..., 0]
    return levels, prof - np.einsum("ntk,nk->nt", basis, levels)


def bar_centres(
    image: NDArray[np.generic], points: LinePoints, width_px: float, iterations: int = 10
) -> LinePoints:
    """Re-centre line points on a thin bar between unequal flanks (a crossbar before its net).

    A ridge detector's centre drifts toward the brighter flank, and so do the steepest rise
    and fall of the profile when the bar is not much wider than the blur. Across each point
    the grey profile is fitted with a blurred box: a level on either flank, another on the
    bar, the bar's centre ``m``, width ``w`` and the blur ``s`` (Levenberg-Marquardt on
    ``m, w, s`` per point, the levels solved linearly). Points whose profile is no bar of the
    points' polarity standing out from both flanks are dropped.
    """
    if len(points) == 0:
        return points
    grey = grey_image(image).astype(np.float32)
    reach = 0.5 * width_px + 3.5  # both flanks, beyond the blur of either edge
    t = np.arange(-reach, reach + 1e-9, 0.25)
    n = points.normal
    pos = points.uv_px[:, None, :] + t[None, :, None] * n[:, None, :]
    prof = _sample(grey, pos.reshape(-1, 2), True).reshape(len(t), -1, order="F").T
    count = len(points)
    # Start on the best match of a box of the bar's width (a matched filter along the profile).
    box = np.ones(max(1, round(width_px / 0.25)))
    matched = np.apply_along_axis(np.convolve, 1, prof * points.polarity, box / len(box), "same")
    inner = np.abs(t) <= 0.5 * width_px + 1.5
    m0 = t[inner][np.argmax(matched[:, inner], axis=1)]
    x = np.column_stack([m0, np.full(count, width_px), np.full(count, 0.8)])
    lo = np.array([-reach, 0.2, 0.2])
    hi = np.array([reach, 3.0 * width_px + 2.0, 4.0])
    _, res = _bar_levels(prof, t, x)
    cost = (res**2).sum(axis=1)
    lam = np.full(count, 1e-2)
    for _ in range(iterations):
        jac = np.empty((count, len(t), 3))
        for k in range(3):  # forward differences (the parameters are pixels)
            x_k = x.copy()
            x_k[:, k] += 1e-3
            jac[:, :, k] = (_bar_levels(prof, t, x_k)[1] - res) / 1e-3
        a = np.einsum("ntk,ntl->nkl", jac, jac)
        g = np.einsum("ntk,nt->nk", jac, res)
        damp = (
            lam[:, None, None] * np.eye(3) * np.maximum(np.einsum("nkk->nk", a), 1e-9)[:, :, None]
        )
        x_new = np.clip(x - np.linalg.solve(a + damp, g[..., None])[..., 0], lo, hi)
        _, res_new = _bar_levels(prof, t, x_new)
        cost_new = (res_new**2).sum(axis=1)
        better = cost_new < cost
        x[better], res[better], cost[better] = x_new[better], res_new[better], cost_new[better]
        lam = np.where(better, lam / 3.0, lam * 4.0)
    levels, res = _bar_levels(prof, t, x)
    flank_a, bar, flank_b = levels.T * points.polarity
    contrast = np.minimum(bar - flank_a, bar - flank_b)  # positive: the bar stands out
    rms = np.sqrt((res**2).mean(axis=1))
    # (A bar narrower than the blur shows its width times its contrast only: ``w`` may
    # shrink as the bar's level grows, the centre stays put.)
    # A bar between two flat flanks leaves the image's noise; a piece against the bar, its
    # shadow on a flank or a post's junction leave more, and pull the centre by pixels. The
    # median profile shows the noise (up to half may be spoilt; a clean bar's profiles reach
    # 2.1x it at worst, measured: the cleanest quarter underrates the noise of a 2 px bar with
    # little blur, where the fit follows the noise, and a clean bar lost 11% of its profiles
    # at 2.5x that); the optics blur every point alike, so a fit needing far more blur is
    # spoilt too.
    blur = float(np.median(x[:, 2]))
    noise = float(np.median(rms))
    ok = (
        (contrast > 3.0 * rms)
        & (np.abs(x[:, 0]) < 0.5 * width_px + 1.5)
        & (x[:, 1] < 2.5 * width_px + 2.0)
        & (x[:, 2] < 2.0 * blur)
        & (rms <= 2.5 * noise)
    )
    uv = points.uv_px + x[:, :1] * n
    return LinePoints(uv[ok], n[ok], points.strength[ok], points.sigma_px, points.polarity)


# ---------------------------------------------------------------------- outlines
def long_chains(
    lines: LinePoints, image_size: tuple[int, int], min_len_px: float, gap_px: int = 4
) -> LinePoints:
    """Line points on chains at least ``min_len_px`` long, bridging gaps up to ``gap_px``."""
    w, h = image_size
    dots = np.zeros((h, w), np.uint8)
    ij = np.clip(np.round(lines.uv_px).astype(int), 0, [w - 1, h - 1])
    dots[ij[:, 1], ij[:, 0]] = 1
    img = cv2.dilate(dots, np.ones((gap_px + 1, gap_px + 1), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(img, connectivity=8)
    diag = np.hypot(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    good = diag >= min_len_px
    good[0] = False
    return lines.subset(good[labels[ij[:, 1], ij[:, 0]]])


def largest_quad(uv_px: FloatArray) -> FloatArray | None:
    """The largest quadrilateral (4, 2) with corners on the convex hull of ``uv_px``."""
    if len(uv_px) < 4:
        return None
    hull = cv2.convexHull(uv_px.astype(np.float32))[:, 0].astype(np.float64)
    perimeter = float(np.sum(np.hypot(*(np.roll(hull, -1, axis=0) - hull).T)))
    eps = 0.002 * perimeter
    poly = hull
    while len(poly) > 14:
        poly = cv2.approxPolyDP(hull.astype(np.float32), eps, True)[:, 0].astype(np.float64)
        eps *= 1.5
    if len(poly) < 4:
        return None
    best, best_area = None, 0.0
    for combo in itertools.combinations(range(len(poly)), 4):
        q = poly[list(combo)]
        x, y = q[:, 0], q[:, 1]
        area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
        if area > best_area:
            best, best_area = q, area
    return best


def felt_quad(region: FieldRegion) -> FloatArray | None:
    """The largest quadrilateral in the felt's outline (full-resolution pixels)."""
    contours, _ = cv2.findContours(region.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    outline = max(contours, key=cv2.contourArea)[:, 0].astype(np.float64)
    return largest_quad((outline + 0.5) / region.scale - 0.5)
