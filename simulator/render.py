"""The simulator's renderer: a frame of truth -> the image the camera would see (BGR uint8).

The static scene (felt, rails, markings, goals, lighting) is drawn once per camera by
:mod:`simulator.render_static`. Each frame copies that background and draws only the pieces,
their shadows and the coaches' hands, each in its own region of interest (ROI), in painter's
order (:func:`simulator.occlusion.paint_order`: a piece that can hide another is drawn after it,
decided from the two solids, not their centres; the hands last):

- buttons as cylinders: the convex hull of the projected bottom (z = 0) and top (z = height)
  circles is the side, then the top face with its :class:`simulator.designs.TeamDesign`;
- goalkeepers as boxes: the 8 corners projected, the faces that face the camera drawn (back
  faces culled in 3D, so the drawn faces never overlap);
- the ball as a sphere - its exact perspective silhouette is the circle where the cone from the
  camera centre touches it - with radially symmetric shading, or as a disc when it is flat
  (nacional's 10 x 2 mm ball, 000 Art. 7).

All points of a frame are projected in one call. Every polygon is filled at ``SS`` x resolution
and area-averaged, so edges are sub-pixel accurate. A piece's ROI is composited as premultiplied
colour + coverage, its colours multiplied by the lighting gain; its shadow (a blurred, darkened
copy of its footprint pushed away from the light) is applied first. Moving pieces are blurred
along their image-space displacement during ``style.exposure_s``. Sensor noise comes from a
seeded bank of precomputed frames (fresh noise per frame at 1080p costs more than the pieces).

With ``style.bars_over_pieces`` the goals' crossbars are drawn over the pieces (and under the
hands): a bar stands higher than any piece, and the camera looks down from over the field, so a
ball under the bar as the camera sees it (in the net, or just past the line under a tilted
camera) is behind it. Without it (the default, as every render before it) the bars are part of
the background and a ball in the net is drawn over its bar. Simplification: the posts and the
net are part of the background, so a ball inside a goal is drawn over the net, and over a post
it lies behind.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.pieces import rectangle_corners
from geometry.tablespec import TableSpec
from rules.rulesets import RuleSetError, get_ruleset
from simulator import occlusion
from simulator.designs import RenderStyle
from simulator.occlusion import Solid, in_front, paint_order
from simulator.render_static import (
    FILL_BIAS,
    SHIFT,
    SS,
    crossbars,
    fold_radius,
    gain_map,
    hi_res,
    inset,
    render_background,
    safe_points,
)
from simulator.state import FrameTruth, Hand

__all__ = ["Renderer", "sphere_outline_mm", "sphere_silhouette"]

_N = 48  # points per projected circle
_NOISE_BANK = 4
_NOISE_PAD = 16
FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]
BGR = tuple[float, ...]
Box = tuple[float, float, float, float]
# A unit circle as an _N-gon of the circle's area (radial error +-0.14 %), so a rendered disc has
# the true area rather than the inscribed polygon's (0.29 % less).
_ANG = np.linspace(0.0, 2.0 * np.pi, _N, endpoint=False)
_UNIT = np.stack([np.cos(_ANG), np.sin(_ANG)], axis=1) * math.sqrt(
    2.0 * np.pi / (_N * math.sin(2.0 * np.pi / _N))
)
_STRIPE_Y = np.linspace(-0.28, 0.28, 9)
_STRIPE = np.concatenate(
    [
        np.column_stack([0.98 * np.sqrt(1 - _STRIPE_Y**2), _STRIPE_Y]),
        np.column_stack([-0.98 * np.sqrt(1 - _STRIPE_Y**2), _STRIPE_Y])[::-1],
    ]
)


def sphere_outline_mm(
    camera_mm: FloatArray, centre_mm: FloatArray, radius_mm: float, n: int = _N
) -> FloatArray:
    """3D points (n, 3) of the circle where the cone from ``camera_mm`` touches a sphere."""
    c = np.asarray(centre_mm, dtype=np.float64)
    to_cam = np.asarray(camera_mm, dtype=np.float64) - c
    d = float(np.linalg.norm(to_cam))
    axis = to_cam / d
    rho = radius_mm * math.sqrt(max(1.0 - (radius_mm / d) ** 2, 0.0))
    e1 = np.cross(axis, [0.0, 0.0, 1.0] if abs(axis[2]) < 0.9 else [1.0, 0.0, 0.0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(axis, e1)
    ang = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    ring = np.cos(ang)[:, None] * e1 + np.sin(ang)[:, None] * e2
    return c + axis * radius_mm**2 / d + rho * ring


def sphere_silhouette(
    camera: Camera, centre_mm: FloatArray, radius_mm: float, n: int = 64
) -> FloatArray:
    """Outline (n, 2) px of a sphere seen by ``camera`` (exact up to the polygon's sampling)."""
    return camera.table_to_image(sphere_outline_mm(camera.centre_mm, centre_mm, radius_mm, n))


@dataclass
class _Item:
    """One thing to draw: polygons (uv, colour) in order, each inside the first; label; shadow."""

    dist: float
    solid: Solid | None = None  # what it is in 3D (None: a hand, drawn over every piece)
    polys: list[tuple[FloatArray, BGR]] = field(default_factory=list)
    label: tuple[str, FloatArray, float, BGR] | None = None
    shadows: list[FloatArray] = field(default_factory=list)
    sigma_px: float = 1.0
    strength: float = 0.0
    d_px: FloatArray = field(default_factory=lambda: np.zeros(2))
    ss: int = SS  # supersampling of the piece's canvas


def _motion_kernel(d_px: FloatArray) -> NDArray[np.float32]:
    """A normalised line kernel of the displacement ``d_px`` (a box blur along the motion)."""
    half = math.ceil(float(np.abs(d_px).max()) / 2.0) + 1
    k = np.zeros((2 * half + 1, 2 * half + 1), np.float32)
    n = max(2, math.ceil(float(np.hypot(*d_px)) * 4))
    pts = half + np.linspace(-0.5, 0.5, n)[:, None] * d_px
    # Bilinear splat of points along the segment: sub-pixel exact in any direction.
    f = np.floor(pts).astype(int)
    w = pts - f
    for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        wt = (w[:, 0] if dx else 1 - w[:, 0]) * (w[:, 1] if dy else 1 - w[:, 1])
        np.add.at(k, (f[:, 1] + dy, f[:, 0] + dx), wt)
    return k / k.sum()


def _overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _label(piece_id: str) -> str:
    digits = re.findall(r"\d+", piece_id)
    return digits[-1] if digits else ""


def _shade(bgr: tuple[int, ...], factor: float) -> BGR:
    return tuple(min(255.0, c * factor) for c in bgr)


class Renderer:
    """Renders :class:`simulator.state.FrameTruth` records through one camera.

    Parameters
    ----------
    table : the table spec (its ``rules`` names the default piece heights).
    camera : the camera; its ``image_size`` is the output size.
    style : colours, designs, lighting, noise; default :class:`RenderStyle`.
    rng : seed or generator for the felt texture and the noise (default ``style.seed``).
    """

    def __init__(
        self,
        table: TableSpec,
        camera: Camera,
        style: RenderStyle | None = None,
        rng: int | np.random.Generator | None = None,
    ) -> None:
        self.table, self.camera = table, camera
        self.style = style or RenderStyle()
        self.rng = np.random.default_rng(self.style.seed if rng is None else rng)
        try:
            defaults = get_ruleset(table.rules or "brasileira").pieces
        except RuleSetError:
            defaults = None
        self.defaults = defaults or get_ruleset("brasileira").pieces
        self.w, self.h = camera.image_size
        self._fold_r = fold_radius(camera)
        self.gain = gain_map(camera, table, self.style)  # (h, w, 1) float32
        # the table under the crossbars (drawn over the pieces, each frame, if the style says
        # so), and with them: the empty table as the camera sees it
        over = self.style.bars_over_pieces
        self._under_bars = render_background(
            camera, table, self.style, self.gain, self.rng, bars=not over
        )
        self._bars = crossbars(camera, table, self.style, self.gain) if over else None
        self.background = self._under_bars.copy()
        self._draw_bars(self.background)
        self._noise: list[tuple[U8, U8]] | None = None
        self._noise_i = 0
        self._items_cache: tuple[tuple[object, ...], list[tuple[_Item, Box]]] | None = None
        self._layer_cache: tuple[frozenset[int], U8] | None = None
        ld = np.asarray(self.style.light_dir_xy, float)
        self._light = ld / np.linalg.norm(ld)

    # ---------------------------------------------------------------- public
    def render(self, frame: FrameTruth, clean: bool = False) -> U8:
        """The image (h, w, 3) BGR uint8 of ``frame``.

        ``clean=True`` leaves out sensor noise, motion blur and compression (geometry tests);
        lighting, shading and shadows stay.
        """
        p = frame.pieces
        vel = np.asarray(frame.vel_mm_s, float).reshape(len(p), 2)
        moving = np.asarray(frame.moving, bool) | (np.abs(vel).max(axis=1, initial=0.0) > 0)
        static_items = self._static_items(frame, ~moving)
        items = self._piece_items(frame, clean, moving) if moving.any() else []
        boxes = [self._bbox(it) for it in items]
        # Resting pieces that can hide a moving one (or such an occluder) are drawn per frame,
        # in painter's order with the moving ones, not baked into the layer.
        occluders: set[int] = set()
        grew = bool(items)
        while grew:
            grew = False
            for k, (s_it, s_box) in enumerate(static_items):
                if k not in occluders and any(
                    _overlap(s_box, b) and self._hides(s_it, it)
                    for it, b in zip(items, boxes, strict=True)
                ):
                    occluders.add(k)
                    items.append(s_it)
                    boxes.append(s_box)
                    grew = True
        out = self._static_layer(frozenset(occluders)).copy()
        for k in self._paint_order(items, boxes):
            self._draw(out, items[k])
        self._draw_bars(out)  # over every piece, under the hands
        for hand in frame.hands:
            hand_item = self._hand_item(hand)
            if hand_item is not None:
                self._draw(out, hand_item)
        if not clean:
            self._add_noise(out)
            if self.style.jpeg_quality is not None:
                ok, buf = cv2.imencode(
                    ".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(self.style.jpeg_quality)]
                )
                if ok:
                    out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
        return out

    def _draw_bars(self, out: U8) -> None:
        """The crossbars over ``out`` (in place)."""
        if self._bars is None:
            return
        (x0, y0, x1, y1), a, colour = self._bars
        roi = out[y0:y1, x0:x1].astype(np.float32)
        mixed = roi * (1.0 - a[:, :, None]) + colour * a[:, :, None]
        out[y0:y1, x0:x1] = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)

    def _static_items(
        self, frame: FrameTruth, static: NDArray[np.bool_]
    ) -> list[tuple[_Item, Box]]:
        """Draw items (far to near) of the pieces at rest, recomputed when one of them moves."""
        p = frame.pieces
        h, z0 = self.heights(frame)
        key = (
            tuple(p.ids[static]),
            np.column_stack([p.xy_mm, p.angle_rad, h, z0, p.size_mm])[static].tobytes(),
        )
        if self._items_cache is None or self._items_cache[0] != key:
            items = self._piece_items(frame, True, static)
            boxes = [self._bbox(it) for it in items]
            order = self._paint_order(items, boxes)
            self._items_cache = (key, [(items[k], boxes[k]) for k in order])
            self._layer_cache = None
        return self._items_cache[1]

    def _paint_order(self, items: list[_Item], boxes: list[Box]) -> list[int]:
        """Indices of ``items`` (pieces, each with its solid) in the order they are drawn."""
        solids: list[Solid] = []
        for it in items:
            assert it.solid is not None
            solids.append(it.solid)
        return paint_order(solids, self.camera.centre_mm, boxes)

    def _hides(self, a: _Item, b: _Item) -> bool:
        """Whether piece ``a`` can hide piece ``b`` (their centres decide where they overlap)."""
        assert a.solid is not None and b.solid is not None
        front = in_front(a.solid, b.solid, self.camera.centre_mm)
        return a.dist < b.dist if front is None else front

    def _static_layer(self, skip: frozenset[int]) -> U8:
        """Background + the resting pieces but ``skip``; rebuilt only when either changes.

        Most frames of a match move one to three pieces, so the other twenty are drawn once.
        """
        if self._layer_cache is None or self._layer_cache[0] != skip:
            assert self._items_cache is not None
            layer = self._under_bars.copy()
            for k, (item, _) in enumerate(self._items_cache[1]):
                if k not in skip:
                    self._draw(layer, item)
            self._layer_cache = (skip, layer)
        return self._layer_cache[1]

    def heights(self, frame: FrameTruth) -> tuple[FloatArray, FloatArray]:
        """Height and bottom z (mm) of every piece; NaN heights take the rule set's defaults."""
        p, d = frame.pieces, self.defaults
        assert d is not None
        default = np.select(
            [p.kind == "button", p.kind == "goalkeeper"],
            [d.button_height, d.goalkeeper_height],
            d.ball_height,
        )
        h = np.where(np.isfinite(p.height_mm), p.height_mm, default)
        z0 = np.zeros(len(p))
        ball = p.kind == "ball"
        if ball.any() and math.isfinite(frame.ball_z_mm):
            z0[ball] = frame.ball_z_mm - h[ball] / 2.0
        return h, z0

    @staticmethod
    def is_sphere(diameter_mm: float, height_mm: float) -> bool:
        """A ball is a sphere unless it is flat (a disc, e.g. nacional's 10 x 2 mm, 000 Art. 7)."""
        return height_mm >= 0.8 * diameter_mm

    # ---------------------------------------------------------------- geometry of a frame
    def _piece_items(
        self, frame: FrameTruth, clean: bool, subset: NDArray[np.bool_]
    ) -> list[_Item]:
        """Draw items of the pieces in ``subset``, all their points projected in one call."""
        p = frame.pieces
        n = len(p)
        if not subset.any():
            return []
        h, z0 = self.heights(frame)
        top = z0 + h
        sphere = (p.kind == "ball") & (h >= 0.8 * p.size_mm[:, 0])
        disc = np.flatnonzero(p.is_disc & ~sphere & subset)
        gk = np.flatnonzero(~p.is_disc & subset)
        balls = np.flatnonzero(sphere & subset)
        r = p.size_mm[:, 0] / 2.0
        shadow_off = -self._light * (0.5 * h + 0.8 * z0)[:, None]  # (n, 2)
        centre = np.column_stack([p.xy_mm, z0 + h / 2.0])
        parts: list[FloatArray] = [centre]
        blur = not clean and self.style.exposure_s > 0
        if blur:
            moved = centre.copy()
            moved[:, :2] += np.asarray(frame.vel_mm_s, float).reshape(n, 2) * self.style.exposure_s
            parts.append(moved)
        # Discs: bottom, top, ring outer, ring inner, crest (all _N points), stripe, shadow.
        xy, rr = p.xy_mm[disc], r[disc]
        nd = len(disc)
        scales = np.array([1.0, 1.0, 0.9, 0.72])
        circles = xy[:, None, None, :] + (rr[:, None] * scales)[:, :, None, None] * _UNIT
        zc = np.stack([z0[disc], top[disc], top[disc], top[disc]], axis=1)[:, :, None, None]
        parts.append(
            np.concatenate([circles, np.broadcast_to(zc, (*circles.shape[:3], 1))], axis=3).reshape(
                -1, 3
            )
        )
        crest = xy[:, None, :] + rr[:, None, None] * (np.array([0.0, 0.5]) + 0.25 * _UNIT)
        stripe = xy[:, None, :] + rr[:, None, None] * _STRIPE
        shadow = xy[:, None, :] + shadow_off[disc, None, :] + rr[:, None, None] * _UNIT
        ztop = top[disc][:, None, None]
        for pts, z in ((crest, ztop), (stripe, ztop), (shadow, np.zeros((nd, 1, 1)))):
            parts.append(
                np.concatenate([pts, np.broadcast_to(z, (*pts.shape[:2], 1))], axis=2).reshape(
                    -1, 3
                )
            )
        # Goalkeepers: 8 corners, the design band on top, the shadow.
        c4 = rectangle_corners(p.xy_mm[gk], p.size_mm[gk], p.angle_rad[gk])  # (ng, 4, 2)
        ng = len(gk)
        z8 = np.repeat(np.stack([z0[gk], top[gk]], axis=1), 4, axis=1)[:, :, None]
        parts.append(np.concatenate([np.concatenate([c4, c4], axis=1), z8], axis=2).reshape(-1, 3))
        mid_a, mid_b = (c4[:, 0] + c4[:, 3]) / 2.0, (c4[:, 1] + c4[:, 2]) / 2.0
        across = (c4[:, 3] - c4[:, 0]) * 0.18
        band = np.stack([mid_a - across, mid_b - across, mid_b + across, mid_a + across], axis=1)
        parts.append(
            np.concatenate(
                [band, np.broadcast_to(top[gk][:, None, None], (ng, 4, 1))], axis=2
            ).reshape(-1, 3)
        )
        gsh = c4 + shadow_off[gk, None, :]
        parts.append(np.concatenate([gsh, np.zeros((ng, 4, 1))], axis=2).reshape(-1, 3))
        # Spherical balls: silhouette and shadow.
        for i in balls:
            parts.append(sphere_outline_mm(self.camera.centre_mm, centre[i], r[i]))
            sh = p.xy_mm[i] + shadow_off[i] + r[i] * _UNIT
            parts.append(np.column_stack([sh, np.zeros(_N)]))
        xyz = np.concatenate(parts)
        uv_all = self.camera(xyz)
        ok_all = safe_points(self.camera, xyz, self._fold_r)
        uv_c = uv_all[:n]
        d_px = np.nan_to_num(uv_all[n : 2 * n] - uv_c) if blur else np.zeros((n, 2))
        k = 2 * n if blur else n
        dist = np.linalg.norm(centre - self.camera.centre_mm, axis=1)
        items: list[_Item] = []

        def take(m: int) -> tuple[FloatArray, NDArray[np.bool_]]:
            nonlocal k
            sl = slice(k, k + m)
            k += m
            return uv_all[sl], ok_all[sl]

        uv_circ, ok_circ = take(nd * 4 * _N)
        uv_circ, ok_circ = uv_circ.reshape(nd, 4, _N, 2), ok_circ.reshape(nd, 4 * _N)
        uv_crest, _ = take(nd * _N)
        uv_stripe, _ = take(nd * len(_STRIPE))
        uv_dsh, ok_dsh = take(nd * _N)
        uv_crest, uv_stripe = uv_crest.reshape(nd, _N, 2), uv_stripe.reshape(nd, len(_STRIPE), 2)
        uv_dsh, ok_dsh = uv_dsh.reshape(nd, _N, 2), ok_dsh.reshape(nd, _N)
        ok_disc: NDArray[np.bool_] = np.asarray(ok_circ.all(axis=1))
        ok_dshadow: NDArray[np.bool_] = np.asarray(ok_dsh.all(axis=1))
        radius_px = np.linalg.norm(
            uv_circ[:, 0] - uv_circ[:, 0].mean(axis=1)[:, None], axis=2
        ).mean(axis=1)
        top_px = uv_circ[:, 1].mean(axis=1)
        for j, i in enumerate(disc):
            if not ok_disc[j]:
                continue
            it = _Item(
                float(dist[i]), occlusion.cylinder(xy[j], rr[j], z0[i], top[i]), d_px=d_px[i]
            )
            bottom, ctop, ring_o, ring_i = uv_circ[j]
            design = self.style.design(str(p.team[i])) if p.kind[i] != "ball" else None
            base = design.base_bgr if design else self.style.ball_bgr
            hull = cv2.convexHull(np.concatenate([bottom, ctop]).astype(np.float32))[:, 0]
            it.polys += [(hull.astype(float), _shade(base, self.style.side_darken)), (ctop, base)]
            if design is not None:
                if design.pattern == "ring":
                    it.polys += [(ring_o, design.ring_bgr), (ring_i, design.base_bgr)]
                elif design.pattern == "stripe":
                    it.polys.append((uv_stripe[j], design.ring_bgr))
                elif design.pattern == "crest":
                    it.polys.append((uv_crest[j], design.ring_bgr))
                label = _label(str(p.ids[i]))
                if label and radius_px[j] >= 6.0:
                    it.label = (label, top_px[j], 0.75 * radius_px[j], design.number_bgr)
            self._set_shadow(it, uv_dsh[j] if ok_dshadow[j] else None, radius_px[j] / rr[j])
            items.append(it)
        uv_gk, ok_gk = take(ng * 8)
        uv_band, _ = take(ng * 4)
        uv_gsh, ok_gsh = take(ng * 4)
        for j, i in enumerate(gk):
            pts = np.concatenate([c4[j], c4[j]])
            pts = np.column_stack([pts, np.repeat([z0[i], top[i]], 4)])
            if not ok_gk[j * 8 : j * 8 + 8].all():
                continue
            it = _Item(float(dist[i]), occlusion.box(c4[j], z0[i], top[i]), d_px=d_px[i])
            design = self.style.design(str(p.team[i]))
            self._box_faces(it, pts, uv_gk[j * 8 : j * 8 + 8], design.base_bgr)
            if design.pattern != "plain":
                it.polys.append((uv_band[j * 4 : j * 4 + 4], design.ring_bgr))
            scale = float(
                np.linalg.norm(uv_gk[j * 8 + 1] - uv_gk[j * 8]) / max(p.size_mm[i, 0], 1e-9)
            )
            gsh = uv_gsh[j * 4 : j * 4 + 4] if ok_gsh[j * 4 : j * 4 + 4].all() else None
            self._set_shadow(it, gsh, scale)
            items.append(it)
        for i in balls:
            uv_s, ok_s = take(_N)
            uv_sh, ok_sh = take(_N)
            if not ok_s.all():
                continue
            it = _Item(float(dist[i]), occlusion.sphere(centre[i], r[i]), d_px=d_px[i])
            mid = uv_s.mean(axis=0)
            it.polys += [
                (uv_s, _shade(self.style.ball_bgr, 0.78)),
                (mid + 0.7 * (uv_s - mid), _shade(self.style.ball_bgr, 1.0)),
            ]
            radius_px = float(np.linalg.norm(uv_s - mid, axis=1).mean())
            self._set_shadow(it, uv_sh if ok_sh.all() else None, radius_px / r[i])
            items.append(it)
        return items

    def _set_shadow(self, it: _Item, uv: FloatArray | None, px_per_mm: float) -> None:
        if uv is None or self.style.shadow_strength <= 0:
            return
        it.shadows.append(uv)
        it.sigma_px = max(self.style.shadow_blur_mm * px_per_mm, 0.5)
        it.strength = self.style.shadow_strength

    def _box_faces(
        self, it: _Item, pts: FloatArray, uv: FloatArray, base: tuple[int, int, int]
    ) -> None:
        """The faces of a box (8 corners: bottom 0-3, top 4-7) that face the camera, shaded."""
        faces = ((4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))
        ux = (pts[1] - pts[0]) / np.linalg.norm(pts[1] - pts[0])
        uy = (pts[3] - pts[0]) / np.linalg.norm(pts[3] - pts[0])
        normals = (np.array([0.0, 0.0, 1.0]), -uy, ux, uy, -ux)  # corners are counter-clockwise
        light = np.array([*self._light, 1.5]) / math.hypot(1.0, 1.5)
        for face, normal in zip(faces, normals, strict=True):
            idx = list(face)
            if normal @ (self.camera.centre_mm - pts[face[0]]) <= 0:
                continue  # back face
            lit = max(0.0, float(normal @ light))
            shade = 1.0 if face[0] == 4 else self.style.side_darken ** (1.5 - lit)
            it.polys.append((uv[idx], _shade(base, shade)))

    def _hand_item(self, hand: Hand) -> _Item | None:
        """A palm ellipse and a forearm quad, cut where the forearm leaves the lens's range."""
        solids = hand.solids()
        if solids is None:
            return None
        palm, start, end, vv = solids
        w = hand.width_mm
        polys = [palm]
        if not safe_points(self.camera, polys[0], self._fold_r).all():
            return None
        s = np.linspace(0.0, 1.0, 33)
        axis = start + np.outer(s, end - start)
        ok = safe_points(self.camera, axis, self._fold_r)
        last = len(s) - 1 if ok.all() else int(np.argmin(ok)) - 1
        if last >= 1:
            a, b = axis[0], axis[last]
            polys.insert(
                0,
                np.array(
                    [a - vv * 0.38 * w, b - vv * 0.32 * w, b + vv * 0.32 * w, a + vv * 0.38 * w]
                ),
            )
        it = _Item(0.0, ss=2)  # no sub-pixel test needs a hand's edge
        for k, poly in enumerate(polys):
            shade = 1.0 if k == len(polys) - 1 else 0.9
            it.polys.append((self.camera(poly), _shade(hand.skin_bgr, shade)))
            shadow = poly[:, :2] - self._light * 0.6 * poly[:, 2:3]
            shadow3 = np.column_stack([shadow, np.zeros(len(shadow))])
            if safe_points(self.camera, shadow3, self._fold_r).all():
                it.shadows.append(self.camera(shadow3))
        tip = np.array([*hand.tip_xy_mm, 0.0])
        px_per_mm = 1.0 / float(self.camera.pixel_size_mm(tip[None])[0])
        it.sigma_px = max(3.0 * self.style.shadow_blur_mm * px_per_mm, 0.5)
        it.strength = 0.8 * self.style.shadow_strength
        return it

    # ---------------------------------------------------------------- drawing
    def _bbox(self, it: _Item) -> Box:
        """Pixels an item's solid can touch (blur included; its shadow is left out, so a moving
        piece's shadow may fall on a nearer resting piece: a mild, physical-looking error)."""
        uv = np.concatenate([uv for uv, _ in it.polys])
        pad = float(np.abs(it.d_px).max()) / 2.0 + 1.0
        lo, hi = uv.min(axis=0) - pad, uv.max(axis=0) + pad
        return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))

    def _box(self, uv: FloatArray, pad: float) -> tuple[int, int, int, int] | None:
        if not np.isfinite(uv).all():
            return None
        x0 = max(0, math.floor(uv[:, 0].min() - pad))
        y0 = max(0, math.floor(uv[:, 1].min() - pad))
        x1 = min(self.w, math.ceil(uv[:, 0].max() + pad) + 1)
        y1 = min(self.h, math.ceil(uv[:, 1].max() + pad) + 1)
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None

    def _draw(self, out: U8, it: _Item) -> None:
        """Shadow, then the piece (premultiplied colour + coverage), in one pass over its ROI."""
        pad = float(np.abs(it.d_px).max()) / 2.0 + 1.0
        pbox = self._box(np.concatenate([uv for uv, _ in it.polys]), pad) if it.polys else None
        shadow = bool(it.shadows) and it.strength > 0
        sbox = self._box(np.concatenate(it.shadows), 3.0 * it.sigma_px + 1.0) if shadow else None
        boxes = [b for b in (pbox, sbox) if b is not None]
        if not boxes:
            return
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        roi = out[y0:y1, x0:x1].astype(np.float32)
        if sbox is not None:
            a = np.zeros((y1 - y0, x1 - x0), np.float32)
            for uv in it.shadows:  # blurred afterwards, so a 1x anti-aliased fill will do
                pts = np.round((uv - (x0, y0)) * (1 << SHIFT)).astype(np.int32)
                cv2.fillPoly(a, [pts], 1.0, cv2.LINE_AA, SHIFT)
            a = np.asarray(cv2.GaussianBlur(np.minimum(a, 1.0), (0, 0), it.sigma_px), np.float32)
            roi *= (1.0 - np.float32(it.strength) * a)[:, :, None]
        if pbox is not None:
            px0, py0, px1, py1 = pbox
            sub = roi[py0 - y0 : py1 - y0, px0 - x0 : px1 - x0]
            small = self._piece_canvas(it, px0, py0, px1 - px0, py1 - py0)
            a4 = small[:, :, 3:] * np.float32(1 / 255)
            sub[...] = sub * (1.0 - a4) + small[:, :, :3] * self.gain[py0:py1, px0:px1]
        out[y0:y1, x0:x1] = np.clip(roi + 0.5, 0, 255).astype(np.uint8)

    def _piece_canvas(self, it: _Item, x0: int, y0: int, w: int, h: int) -> NDArray[np.float32]:
        """BGRA (h, w, 4) float: premultiplied colour and coverage (0-255), motion-blurred.

        Drawn over transparent black at ``it.ss`` x: every later polygon lies inside the first, so
        one 4-channel canvas holds the colour and the coverage at once.
        """
        ss = it.ss
        canvas = np.zeros((h * ss, w * ss, 4), np.uint8)
        sizes = np.cumsum([len(uv) for uv, _ in it.polys])[:-1]
        polys = [inset(uv, FILL_BIAS / ss) for uv, _ in it.polys]
        pts = np.split(hi_res(np.concatenate(polys), x0, y0, ss), sizes)
        for poly, (_, bgr) in zip(pts, it.polys, strict=True):
            cv2.fillPoly(canvas, [poly], (*bgr, 255), cv2.LINE_8, SHIFT)
        if it.label is not None:
            text, at, height_px, bgr = it.label
            font, scale = cv2.FONT_HERSHEY_SIMPLEX, height_px * ss / 22.0
            thick = max(1, round(scale * 2.2))
            (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
            org = (
                round((at[0] - x0 + 0.5) * ss - 0.5 - tw / 2),
                round((at[1] - y0 + 0.5) * ss - 0.5 + th / 2),
            )
            cv2.putText(canvas, text, org, font, scale, (*bgr, 255), thick, cv2.LINE_AA)
        small = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
        if np.hypot(*it.d_px) >= 0.75:
            kernel = _motion_kernel(it.d_px)
            small = np.asarray(
                cv2.filter2D(small, -1, kernel, borderType=cv2.BORDER_CONSTANT), np.float32
            )
        return small

    def _add_noise(self, out: U8) -> None:
        sigma = self.style.noise_sigma
        if sigma <= 0:
            return
        if self._noise is None:
            self._noise = []
            for _ in range(_NOISE_BANK):
                noise = np.rint(
                    self.rng.normal(0.0, sigma, (self.h + _NOISE_PAD, self.w + _NOISE_PAD, 3))
                )
                self._noise.append(
                    (
                        np.clip(noise, 0, 255).astype(np.uint8),
                        np.clip(-noise, 0, 255).astype(np.uint8),
                    )
                )
        pos, neg = self._noise[self._noise_i % _NOISE_BANK]
        self._noise_i += 1
        oy, ox = (int(v) for v in self.rng.integers(0, _NOISE_PAD, 2))
        sl = (slice(oy, oy + self.h), slice(ox, ox + self.w))
        cv2.add(out, pos[sl], dst=out)
        cv2.subtract(out, neg[sl], dst=out)
