"""The ball to a fraction of a pixel: its projected silhouette fitted to the image.

At 1920 x 1080 over a 2 m table the ball is about nine pixels wide, and a goal-line call turns
on tenths of a millimetre, so the ball is not found by its brightest pixel or its blob but by
fitting a model of its whole image: every pixel near it is explained as

    I(p) = B(p) + alpha(p) * (c - B(p))

with ``B`` the empty table under it (:mod:`vision.background`), ``c`` the ball's colour (solved in
closed form at every step) and ``alpha`` the share of the pixel the ball covers: the exact
perspective silhouette of a sphere (the circle where the cone from the camera touches it) or of
a flat disc (hull of its top and bottom circles), with a soft one-pixel edge, a Gaussian lens
blur and, for a moving ball, the streak of its motion during the exposure (a box filter along
``streak_px``; the fitted centre is the middle of the streak). Gauss-Newton on the footprint
centre (mm) and the streak (px): the centre's derivatives are analytic (the silhouette's
coverage moves with it; the colours' share is projected out), the streak's finite
differences. Pixels covered by another piece or a hand are left out, so a
ball partly hidden beside a button is fitted on what is left of it. A piece that may stand in
front of the ball (a goalkeeper's box, taller than it) is modelled instead: the ball's coverage
is what the box's silhouette leaves of it, and the box's share of the pixels on its edge is a
colour of the fit (left out, as before, with a margin for its blurred edge, the box took all
but a pixel of a 6-pixel ball's visible part, and the fit slid 7 mm along its edge).

Pixels where the ball's colour equals the table's (a white ball over a white line) carry no
weight by themselves, so the line under a ball on the goal line does not bias the centre.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from vision import ball_kernels as kernels

__all__ = [
    "ON_SPOT_MM",
    "BallFit",
    "ball_on_spots",
    "ball_outline",
    "fit_ball",
    "hidden_share",
    "plausible_colour",
    "shadow_like",
    "sphere_outline",
]

FloatArray = NDArray[np.float64]
F32 = NDArray[np.float32]
_N = 40  # outline points
_STEP_PX = 0.2  # ... and of the streak
_CORE = 0.7  # the lit core's share of the silhouette's size
_MIN_SEEN_PX = 3.0  # the least a ball beside a piece in front of it must show (pixels)
_SHADOW_PX = 1.5  # reach (Gaussian sigma, px) of the cast shadow carried under the ball's edge


def sphere_outline(
    camera: Camera, centre_mm: FloatArray, radius_mm: float, n: int = _N
) -> FloatArray:
    """Silhouette (n, 2) px of a sphere: the circle where the cone from the camera touches it
    (compiled: :func:`vision.ball_kernels.sphere_outline`)."""
    cos, sin = _ring(n)
    return kernels.sphere_outline(
        np.asarray(centre_mm, np.float64),
        float(radius_mm),
        camera.centre_mm,
        cos,
        sin,
        *camera.projection,
    )


_RINGS: dict[int, tuple[FloatArray, FloatArray]] = {}


def _ring(n: int) -> tuple[FloatArray, FloatArray]:
    """Cosines and sines (n,) of ``n`` angles round a circle (computed once per ``n``)."""
    got = _RINGS.get(n)
    if got is None:
        ang = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
        got = _RINGS[n] = (np.cos(ang), np.sin(ang))
        for a in got:
            a.flags.writeable = False
    return got


def ball_outline(
    camera: Camera, xy_mm: FloatArray, diameter_mm: float, height_mm: float, z0_mm: float = 0.0
) -> FloatArray:
    """Convex silhouette (n, 2) px of the ball: a sphere, or a flat disc (hull of two circles)."""
    r = diameter_mm / 2.0
    if height_mm >= 0.8 * diameter_mm:
        return sphere_outline(camera, np.array([xy_mm[0], xy_mm[1], z0_mm + r]), r)
    ang = np.linspace(0.0, 2.0 * np.pi, _N, endpoint=False)
    ring = np.column_stack([xy_mm[0] + r * np.cos(ang), xy_mm[1] + r * np.sin(ang)])
    pts = np.concatenate(
        [np.column_stack([ring, np.full(_N, z)]) for z in (z0_mm, z0_mm + height_mm)]
    )
    uv = camera.table_to_image(pts)
    hull = cv2.convexHull(uv.astype(np.float32))[:, 0].astype(np.float64)
    return hull


def edge_lines(outline: FloatArray, core: float | None = None) -> tuple[F32, F32, F32]:
    """A convex polygon's outward unit normals (E, 2) and offsets (E,) (float32), and the
    offsets of the lines of the polygon shrunk to ``core`` of its size about its mean vertex
    (empty without ``core``)."""
    n, off, mean = kernels.edge_normals(np.ascontiguousarray(outline, np.float64))
    if core is None:
        return n, off, np.zeros(0, np.float32)
    mid_n = n @ mean  # numpy's product (its order): the kernel gives the rest bit for bit
    return n, off, np.asarray(mid_n + np.float32(core) * (off - mid_n), np.float32)


def _coverage(outline: FloatArray, uu: F32, vv: F32, core: float | None = None) -> F32:
    """Soft coverage (h, w) of a convex polygon: a one-pixel ramp across its edges; with
    ``core``, (h, w, 2): the polygon's and that of the polygon shrunk to ``core`` of its size
    about its mean (the two share the edges' directions, so one projection serves both).

    The signed distance to a convex polygon is the largest signed distance to its edges' lines
    (exact inside and along the edges), smooth in the polygon's position, so finite
    differences of the fit see a smooth model. (Compiled: :mod:`vision.ball_kernels`.)
    """
    both = kernels.coverage(*edge_lines(outline, core), _f32(uu), _f32(vv))
    return both if core is not None else np.ascontiguousarray(both[:, :, 0])


def _coverage_d(outline: FloatArray, uu: F32, vv: F32, core: float) -> F32:
    """:func:`_coverage` with ``core`` and its derivatives: (h, w, 6), the whole polygon's and
    the core's coverage, then d(whole)/du, d(whole)/dv, d(core)/du, d(core)/dv for a
    translation of the polygon by (u, v) px.

    Moved by t, every edge's offset grows by n . t, so a pixel on the ramp of its nearest edge
    (the one of largest signed distance) gains n . t of coverage: the derivative is that edge's
    normal on the ramp and zero elsewhere - exact for this model, where finite differences
    needed a model evaluation per parameter.
    """
    return kernels.coverage_d(*edge_lines(outline, core), _f32(uu), _f32(vv))


def _f32(a: F32) -> F32:
    return np.asarray(a, np.float32)


def _line_kernel(d_px: FloatArray) -> F32:
    """Normalised box kernel along ``d_px`` (bilinear splats: sub-pixel in any direction);
    the last few are cached (a fit asks for the same streak several times)."""
    key = (round(float(d_px[0]), 6), round(float(d_px[1]), 6))
    k = _KERNELS.get(key)
    if k is None:
        if len(_KERNELS) > 64:
            _KERNELS.clear()
        k = _KERNELS[key] = _make_line_kernel(np.array(key))
    return k


_KERNELS: dict[tuple[float, float], F32] = {}


def _make_line_kernel(d_px: FloatArray) -> F32:
    half = math.ceil(float(np.abs(d_px).max()) / 2.0) + 1
    k = np.zeros((2 * half + 1, 2 * half + 1), np.float32)
    n = max(2, math.ceil(float(np.hypot(*d_px)) * 4))
    kernels.splat(k, half + np.linspace(-0.5, 0.5, n)[:, None] * d_px)
    return k / k.sum()


def _shadow_under(k: F32, known: NDArray[np.bool_], sigma_px: float = _SHADOW_PX) -> F32:
    """The felt's darkening ``k`` (h, w) carried from the ``known`` pixels into the others: a
    Gaussian-weighted mean of the known ones near each (normalised convolution), 1 (no shadow)
    where none is near. A ball's cast shadow is a blur several millimetres wide, so under the
    ball's soft edge it is about what it is just outside it."""
    w = known.astype(np.float32)
    num = cv2.GaussianBlur(k.astype(np.float32) * w, (0, 0), sigma_px)
    den = cv2.GaussianBlur(w, (0, 0), sigma_px)
    return np.asarray(np.where(den > 1e-3, num / np.maximum(den, 1e-3), 1.0), np.float32)


@dataclass(frozen=True)
class BallFit:
    """The fitted ball.

    ``xy_mm`` footprint centre (the streak's middle for a moving ball), ``uv_px`` its projected
    centre, ``sigma_mm`` 1-sigma of ``xy_mm`` from the fit, ``streak_px`` the motion during the
    exposure, ``colour_bgr`` the fitted colour, ``explained`` the share of the pixels' deviation
    from the background the model explains (0..1), ``visible`` the share of the silhouette not
    covered by other things, ``rms`` the residual (grey levels), ``rim_bgr`` the fitted colour
    of the silhouette's outer part (a sphere's shaded rim; a bare painted spot's fit, whose
    difference from the table is smaller than a ball, has the table's colour there).
    ``box_gap_mm`` is how far the footprint lies from the nearest goalkeeper's box when that box
    is near enough to hide part of it (negative: the two overlap), NaN when none is
    (:func:`vision.ball_search.touching_box`); ``box_dir_xy`` the unit vector (table x, y) from
    the footprint toward the box's nearest point, along which that gap lies. ``hand_hidden``
    is the share of the silhouette a coach's hand hides (:mod:`vision.ball_hands`; its
    outline, unlike a fitted box's, is known only from its pixels).
    """

    xy_mm: FloatArray
    uv_px: FloatArray
    sigma_mm: float
    streak_px: FloatArray
    colour_bgr: FloatArray
    explained: float
    visible: float
    rms: float
    rim_bgr: FloatArray | None = None
    box_gap_mm: float = math.nan
    hand_hidden: float = 0.0
    box_dir_xy: FloatArray | None = None


class _Model:
    """Everything of one ROI that does not change while the parameters do."""

    def __init__(
        self,
        camera: Camera,
        image: F32,
        bg: F32,
        valid: NDArray[np.bool_],
        origin: tuple[int, int],
        diameter_mm: float,
        height_mm: float,
        z0_mm: float,
        psf_px: float,
        near: NDArray[np.bool_] | None = None,
        hiders: Sequence[FloatArray] = (),
        bars: Sequence[FloatArray] = (),
    ) -> None:
        self.camera, self.image, self.bg = camera, image, bg
        self.diameter, self.height, self.z0, self.psf = diameter_mm, height_mm, z0_mm, psf_px
        h, w = valid.shape
        vv, uu = np.mgrid[0:h, 0:w].astype(np.float32)
        self.uu, self.vv = uu + origin[0], vv + origin[1]
        # A piece in front of the ball (its silhouette ``hiders``, px) hides what it covers:
        # the ball's coverage is what is left of it (``self.seen``, sharp), and the piece's own
        # share of a pixel (``hide``, blurred as the image is) is a third colour of the fit,
        # solved with the ball's - its edge's pixels are a mix of the piece and the ball or the
        # felt, and say where the ball's visible part ends. The pixels the piece mostly covers
        # say nothing of the ball (nor are they one colour): left out.
        self.seen: F32 | None = None
        self.hide: F32 | None = None
        hiders = _reaching(hiders, self.uu, self.vv)
        if len(hiders):
            cover = np.max([_coverage(np.asarray(q, float), self.uu, self.vv) for q in hiders], 0)
            if cover.any():
                self.seen = np.asarray(1.0 - cover, np.float32)
                hide = cover if psf_px <= 0 else cv2.GaussianBlur(cover, (0, 0), psf_px)
                self.hide = np.asarray(hide, np.float32)
                valid = valid & (self.hide < 0.5)
        # A crossbar in the table's model (``bars``, px) in front of the ball: it hides what it
        # covers of the ball, and the pixels it mostly covers say nothing of it; the rest are
        # the table's (the bar's outline in it) or the ball's. No colour of its own: the table
        # has it. Only a bar over the ball's reach (a bar beside the ball is table).
        bars = _reaching(bars, self.uu, self.vv)
        if len(bars):
            cover = np.max([_coverage(np.asarray(q, float), self.uu, self.vv) for q in bars], 0)
            if (cover[near] > 0).any() if near is not None else cover.any():
                self.seen = np.asarray(
                    (1.0 - cover) * (1.0 if self.seen is None else self.seen), np.float32
                )
                blurred = cover if psf_px <= 0 else cv2.GaussianBlur(cover, (0, 0), psf_px)
                valid = valid & (blurred < 0.5)
        self.valid = valid
        # A cast shadow (the felt uniformly darker) is the felt's, not the ball's: the pixels
        # around the ball have their background darkened up to 0.55 x to match them. The
        # ball's own pixels (its silhouette's soft edge and streak) cannot say it themselves
        # (its shaded rim, darker than a pale felt, is the ball): they take the darkening of
        # the felt just around them, as the shadow is a blur wider than the edge (left at the
        # felt's, a pale felt's shadow under the edge read as rim and pulled the centre toward
        # it, 0.1-0.3 mm). Not grown: on a pale felt the shadow beside a pale ball (its
        # contact shadow, a third darker) differs more than the ball does.
        i0, i1, i2 = image[:, :, 0], image[:, :, 1], image[:, :, 2]
        b0, b1, b2 = bg[:, :, 0], bg[:, :, 1], bg[:, :, 2]
        # (the channels summed first to last: numpy's sum over three, bit for bit, cheaper)
        k = np.clip(
            (i0 * b0 + i1 * b1 + i2 * b2) / np.maximum(b0 * b0 + b1 * b1 + b2 * b2, 1.0), 0.55, 1.0
        )
        if near is not None:
            k = np.where(near, _shadow_under(k, valid & ~near), k)
        bg = bg * k[:, :, None]
        self.d = (image - bg)[valid]  # (P, 3)
        self.b = bg[valid]
        # the piece in front's share of each pixel (P,); empty when none is (the kernels' form)
        self.a3 = np.zeros(0) if self.hide is None else self.hide[valid].astype(np.float64)
        self._ref: tuple[FloatArray, FloatArray, FloatArray] | None = None

    def _blur(self, a: F32, p: FloatArray, hidden: bool = True) -> F32:
        """The ball's sharp coverage (and its derivatives) as the image sees them: drawn out
        along its streak, less what a piece in front of it hides (unless ``hidden`` is False),
        blurred by the lens."""
        if len(p) > 2 and math.hypot(p[2], p[3]) >= 0.3:
            k = _line_kernel(p[2:4])
            a = np.asarray(cv2.filter2D(a, -1, k, borderType=cv2.BORDER_CONSTANT), np.float32)
        if hidden and self.seen is not None:
            a = a * (self.seen if a.ndim == 2 else self.seen[:, :, None])
        if self.psf > 0:
            a = np.asarray(cv2.GaussianBlur(a, (0, 0), self.psf), np.float32)
        return a

    def outline(self, xy: FloatArray) -> FloatArray:
        """The silhouette (n, 2) px at ``xy`` (mm). Near the last exact one (within 0.1 mm, as
        the fit's finite differences and last steps are) it is that one moved by the
        projection's Jacobian: the shape's change over 0.1 mm is a ten-thousandth of it."""
        if self._ref is not None and float(np.abs(xy - self._ref[0]).max()) < 0.1:
            xy0, base, jac = self._ref
            return np.asarray(base + jac @ (xy - xy0), np.float64)
        base = ball_outline(self.camera, xy, self.diameter, self.height, self.z0)
        z = self.z0 + (self.diameter / 2.0 if self.height >= 0.8 * self.diameter else self.height)
        e = 0.05
        c = self.camera.table_to_image(
            np.array([[xy[0], xy[1], z], [xy[0] + e, xy[1], z], [xy[0], xy[1] + e, z]])
        )
        jac = np.column_stack([c[1] - c[0], c[2] - c[0]]) / e
        self._ref = (np.array(xy[:2], float), base, jac)
        return base

    def alpha(self, p: FloatArray, hidden: bool = True) -> tuple[F32, F32]:
        """Coverage (h, w) of the whole silhouette and of its inner part (0.7 of its size),
        less what a piece in front hides (unless ``hidden`` is False)."""
        outline = self.outline(p[:2])[::2]  # 20 edges: 0.05 px from the circle at 9 px
        both = self._blur(_coverage(outline, self.uu, self.vv, _CORE), p, hidden)
        return both[:, :, 0], both[:, :, 1]

    def residual_jac(self, p: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Residuals (P * 3,) at ``p`` and their derivatives (P * 3, 2) in the footprint centre
        (mm), the colours held at their optimum and the change the colours can absorb projected
        out (variable projection, Kaufman's form: the gradient is exact, so is the fit's
        optimum). The colours' closed form and the projection compiled
        (:func:`vision.ball_kernels.residual_jac`)."""
        outline = self.outline(p[:2])[::2]
        maps = self._blur(_coverage_d(outline, self.uu, self.vv, _CORE), p)[self.valid]
        assert self._ref is not None
        jac_uv = self._ref[2]  # d(uv)/d(xy) of the centre: the silhouette moves with it
        return kernels.residual_jac(maps, jac_uv, self.a3, self.d, self.b)

    def residual(self, p: FloatArray) -> tuple[FloatArray, FloatArray, F32]:
        """Residuals (P * 3,), the fitted colours (2, 3) of the ball's core and rim, and its
        coverage.

        A ball is lit from above: its core is brighter than its rim (and on a pale felt the
        rim is darker than the felt, the core lighter); two colours (a third for a piece in
        front), solved in closed form (:func:`vision.ball_kernels.colour_residual`): the
        pixels' deviation from the table ``d = sum_j a_j (c_j - b)`` for the coverages ``a_j``
        of the core, the rim (the whole less the core) and the piece.
        """
        whole, inner = self.alpha(p)
        r, c = kernels.colour_residual(
            whole[self.valid], inner[self.valid], self.a3, self.d, self.b
        )
        return r, np.asarray(c[:2], np.float64), whole


def fit_ball(
    image_bgr: NDArray[np.uint8],
    background: F32,
    camera: Camera,
    xy0_mm: FloatArray,
    diameter_mm: float,
    height_mm: float,
    *,
    excluded: NDArray[np.bool_] | None = None,
    streak0_px: FloatArray | None = None,
    psf_px: float = 0.5,
    z0_mm: float = 0.0,
    iterations: int = 6,
    hiders: Sequence[FloatArray] = (),
    bars: Sequence[FloatArray] = (),
) -> BallFit | None:
    """Fit the ball near ``xy0_mm`` (footprint, table mm); None when it leaves the image.

    ``background`` is the empty table for the whole image (h, w, 3) float32, gain applied;
    ``excluded`` (h, w) marks pixels of other pieces and hands; ``streak0_px`` an initial motion
    streak (the streak is fitted when it is at least a pixel long); ``hiders`` the silhouettes
    (convex polygons (n, 2), px) of pieces that may stand in front of the ball: what they cover
    is hidden from the model (a goalkeeper beside the ball, its box taller than the ball);
    ``bars`` those of the crossbars, which stand in front of a ball under them and which the
    background has already. ``visible`` is then the share of the silhouette neither hidden
    nor excluded.
    """
    h, w = image_bgr.shape[:2]
    p = np.array([float(xy0_mm[0]), float(xy0_mm[1])])
    streak = np.zeros(2) if streak0_px is None else np.asarray(streak0_px, float)
    moving = bool(math.hypot(*streak) >= 1.0)
    if moving:
        p = np.concatenate([p, streak])
    model: _Model | None = None
    for it in range(iterations):
        if model is None or it == 2:  # the ROI follows the first steps once
            outline = ball_outline(camera, p[:2], diameter_mm, height_mm, z0_mm)
            if not np.isfinite(outline).all():
                return None
            pad = 3.0 + psf_px * 3 + (float(np.abs(p[2:]).max()) / 2.0 + 1.0 if moving else 0.0)
            x0 = max(0, math.floor(outline[:, 0].min() - pad))
            y0 = max(0, math.floor(outline[:, 1].min() - pad))
            x1 = min(w, math.ceil(outline[:, 0].max() + pad) + 1)
            y1 = min(h, math.ceil(outline[:, 1].max() + pad) + 1)
            if x1 - x0 < 3 or y1 - y0 < 3:
                return None
            img = image_bgr[y0:y1, x0:x1].astype(np.float32)
            valid = np.ones((y1 - y0, x1 - x0), bool)
            if excluded is not None:
                valid &= ~excluded[y0:y1, x0:x1]
            if valid.sum() < 6:
                return None
            vv, uu = np.mgrid[y0:y1, x0:x1].astype(np.float32)
            reach = _coverage(outline, uu, vv) > 0
            if moving:
                kernel = _line_kernel(p[2:4])
                reach = cv2.filter2D(reach.astype(np.float32), -1, kernel) > 0
            model = _Model(
                camera,
                img,
                background[y0:y1, x0:x1],
                valid,
                (x0, y0),
                diameter_mm,
                height_mm,
                z0_mm,
                psf_px,
                near=reach,
                hiders=hiders,
                bars=bars,
            )
        r0, jac_xy = model.residual_jac(p)
        jac = np.empty((len(r0), len(p)))
        jac[:, :2] = jac_xy
        for k in range(2, len(p)):  # the streak: finite differences
            q = p.copy()
            q[k] += _STEP_PX
            jac[:, k] = (model.residual(q)[0] - r0) / _STEP_PX
        jtj = jac.T @ jac + 1e-6 * np.eye(len(p))
        delta = -np.linalg.solve(jtj, jac.T @ r0)
        limit = np.array([2.0, 2.0, 3.0, 3.0])[: len(p)]
        delta = np.clip(delta, -limit, limit)  # mm, mm, px, px: no wild first steps
        p = p + delta
        if np.abs(delta[:2]).max() < 0.01:
            break
    assert model is not None
    r, colours, full = model.residual(p)
    n = len(r)
    dof = max(n - len(p) - 3, 1)
    s2 = float(r @ r) / dof
    try:
        cov = s2 * np.linalg.inv(jtj)
        sigma = math.sqrt(max(float(cov[0, 0] + cov[1, 1]) / 2.0, 0.0))
    except np.linalg.LinAlgError:
        sigma = float("nan")
    seen_px = float(full[model.valid].sum())
    if model.seen is not None and seen_px < _MIN_SEEN_PX:
        return None  # hidden all but a pixel or two: the hider's edge alone was fitted
    total = float(np.sum(model.d**2))
    if model.hide is not None:
        # what the ball explains, not the hider's edge: against the pixels' deviation from
        # the table once that edge's colour alone is fitted
        a3 = model.a3
        k3 = (a3 @ (model.d + a3[:, None] * model.b)) / max(float(a3 @ a3), 1e-9)
        total = float(np.sum((model.d - a3[:, None] * (k3 - model.b)) ** 2))
    explained = 1.0 - float(r @ r) / max(total, 1e-9)
    free = full if model.seen is None else model.alpha(p, hidden=False)[0]
    # the part of the silhouette beyond the image's edge is not seen either: a fit on the
    # felt's last rows, its centre above the image, counted only its pixels in the image
    # and read as seen whole (a still's false ball beyond the rail, tests/vision/test_ball_goal)
    edge = 1.0
    if x0 == 0 or y0 == 0 or x1 == w or y1 == h:  # the fit's window reached the image's edge
        edge = _share_in_image(ball_outline(camera, p[:2], diameter_mm, height_mm, z0_mm), w, h)
    visible = float(seen_px / max(free.sum(), 1e-9)) * edge
    r_ball = diameter_mm / 2.0
    z_c = z0_mm + (r_ball if height_mm >= 0.8 * diameter_mm else height_mm)
    uv = camera.table_to_image(np.array([[p[0], p[1], z_c]]))[0]
    return BallFit(
        xy_mm=p[:2].copy(),
        uv_px=uv,
        sigma_mm=sigma,
        streak_px=p[2:4].copy() if moving else np.zeros(2),
        colour_bgr=colours[0],
        explained=explained,
        visible=visible,
        rms=math.sqrt(s2),
        rim_bgr=colours[1],
    )


def _share_in_image(outline: FloatArray, w: int, h: int) -> float:
    """The share of a convex silhouette (n, 2) px inside a ``w`` x ``h`` image."""
    if not np.isfinite(outline).all():
        return 0.0
    lo, hi = outline.min(axis=0), outline.max(axis=0)
    if lo[0] >= -0.5 and lo[1] >= -0.5 and hi[0] <= w - 0.5 and hi[1] <= h - 0.5:
        return 1.0
    poly = np.ascontiguousarray(outline, np.float32)
    total = float(cv2.contourArea(poly))
    if total <= 1e-9:
        return 1.0
    lo_x, lo_y, hi_x, hi_y = -0.5, -0.5, w - 0.5, h - 0.5
    rect = np.array([[lo_x, lo_y], [hi_x, lo_y], [hi_x, hi_y], [lo_x, hi_y]], np.float32)
    area, _ = cv2.intersectConvexConvex(poly, rect)
    return float(np.clip(area / total, 0.0, 1.0))


def _reaching(hiders: Sequence[FloatArray], uu: F32, vv: F32) -> list[FloatArray]:
    """The polygons of ``hiders`` whose bounding box reaches the window of pixel centres
    ``uu``, ``vv`` (grown by a pixel: a polygon's coverage blurs past its edge)."""
    if not len(hiders) or not uu.size:
        return []
    u0, u1, v0, v1 = float(uu.min()), float(uu.max()), float(vv.min()), float(vv.max())
    polys = [a for a in (np.asarray(q, float) for q in hiders) if len(a)]
    if not polys:
        return []
    # every polygon's bounding box at once (a fit meets up to a hundred: the crossbars'
    # lengths, the pieces, the hands; four reductions each took 0.46 s of 11.5 s of
    # detection over 600 frames of the live benchmark's clip, this 0.19 s)
    cat = np.concatenate(polys)
    starts = np.cumsum([0] + [len(a) for a in polys[:-1]])
    hi = np.maximum.reduceat(cat, starts, axis=0)
    lo = np.minimum.reduceat(cat, starts, axis=0)
    away = (hi[:, 0] < u0 - 1.0) | (lo[:, 0] > u1 + 1.0) | (hi[:, 1] < v0 - 1.0)
    away |= lo[:, 1] > v1 + 1.0
    return [a for a, off in zip(polys, away.tolist(), strict=True) if not off]


def hidden_share(
    camera: Camera,
    xy_mm: FloatArray,
    diameter_mm: float,
    height_mm: float,
    hiders: Sequence[FloatArray],
    z0_mm: float = 0.0,
) -> float:
    """The share (0..1) of the ball's silhouette at ``xy_mm`` that the ``hiders`` (convex
    polygons (n, 2), px, of pieces in front of it) cover."""
    outline = ball_outline(camera, np.asarray(xy_mm, float), diameter_mm, height_mm, z0_mm)
    if not len(hiders) or not np.isfinite(outline).all():
        return 0.0
    (x0, y0), (x1, y1) = np.floor(outline.min(axis=0)) - 2, np.ceil(outline.max(axis=0)) + 2
    vv, uu = np.mgrid[y0 : y1 + 1, x0 : x1 + 1].astype(np.float32)
    hiders = _reaching(hiders, uu, vv)
    if not hiders:
        return 0.0
    ball = _coverage(outline, uu, vv)
    cover = np.max([_coverage(np.asarray(q, float), uu, vv) for q in hiders], axis=0)
    return float((ball * cover).sum() / max(float(ball.sum()), 1e-9))


def plausible_colour(fit: BallFit) -> bool:
    """Whether the fitted colour is one a ball can have (a fit that explains a faint
    difference by a sliver of coverage comes out with a colour of thousands of grey levels)."""
    return bool(np.all((fit.colour_bgr > -40.0) & (fit.colour_bgr < 320.0)))


def shadow_like(colour_bgr: FloatArray, table_bgr: FloatArray) -> bool:
    """Whether a fitted colour is the table's, uniformly darker (0.5-0.95 in every channel,
    within 0.08 of each other): a shadow (a goalkeeper's beside it, on a tilted camera), which
    the foreground excuses and a ball of its own colour is not."""
    t = np.asarray(table_bgr, float)
    if np.any(t < 20.0):
        return False  # a channel too dark to measure a ratio on
    k = np.asarray(colour_bgr, float) / t
    return bool(np.all((k > 0.5) & (k < 0.95)) and np.ptp(k) < 0.08)


#: A ball's footprint this near a painted spot's centre (mm) lies on it.
ON_SPOT_MM = 4.0


def ball_on_spots(
    image_bgr: NDArray[np.uint8],
    background: F32,
    camera: Camera,
    spots: Sequence[tuple[float, float]],
    diameter_mm: float,
    height_mm: float,
    excluded: NDArray[np.bool_] | None,
    felt_colour: Callable[[int, int], NDArray[np.float32]],
    min_explained: float = 0.05,
) -> BallFit | None:
    """A ball on a painted spot (the centre mark at a kick-off, a penalty mark): white on white,
    it hardly differs from the empty table and is told from the bare mark by its fit (the
    shading of a sphere, its shadow, its parallax) and by its colour, far from the felt's
    (``felt_colour(u, v)`` near a pixel), explaining at least ``min_explained`` of the
    pixels' difference from the background. The best such fit within 4 mm of a spot, or None."""
    best = None
    for spot in spots:
        fit = fit_ball(
            image_bgr,
            background,
            camera,
            np.array(spot, float),
            diameter_mm,
            height_mm,
            excluded=excluded,
        )
        if fit is None or np.hypot(*(fit.xy_mm - spot)) > ON_SPOT_MM:
            continue
        u, v = (int(c) for c in fit.uv_px)
        contrast = float(np.linalg.norm(fit.colour_bgr - felt_colour(u, v)))
        if fit.explained >= min_explained and contrast >= 60.0 and plausible_colour(fit):
            if best is None or fit.explained > best.explained:
                best = fit
    return best
