"""The renderer's static scene, drawn once per camera, and its drawing primitives.

Felt, rails, markings and goals are table-frame polygons projected through the camera (so the
lens distortion bends them exactly as it bends everything else) and filled at ``SS`` x
resolution, then area-averaged: coverage is exact to about 1/(4 SS) px, where OpenCV's own
``LINE_AA`` fill grows shapes by about half a pixel. The lighting gain (a gradient across the
table times a vignette) multiplies the whole background and, per frame, the pieces' colours.
"""

from __future__ import annotations

import cv2
import numpy as np
import shapely
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.field import SIDES, FieldModel
from geometry.tablespec import TableSpec
from simulator.designs import RenderStyle

__all__ = [
    "SS",
    "crossbars",
    "fold_radius",
    "gain_map",
    "hi_res",
    "inset",
    "render_background",
    "safe_points",
]

SS = 4  # supersampling factor of every coverage mask
FRAME_BGR = (245, 245, 245)  # the goals' posts and crossbars
SHIFT = 8  # fillPoly sub-pixel bits
FloatArray = NDArray[np.float64]
Mask = NDArray[np.float32]


def hi_res(uv_px: FloatArray, x0: float, y0: float, ss: int = SS) -> NDArray[np.int32]:
    """Pixels -> fixed-point coordinates of an ss x canvas whose pixel (0, 0) is pixel (x0, y0).

    Pixel centres sit at integers (OpenCV), so the SS x pixel centres are at
    ``(u - x0 + 0.5) * SS - 0.5``; ``cv2.INTER_AREA`` by 1/SS then averages exactly the SS x SS
    sub-pixels of each pixel.
    """
    hi = (np.column_stack([uv_px[:, 0] - x0, uv_px[:, 1] - y0]) + 0.5) * ss - 0.5
    return np.round(hi * (1 << SHIFT)).astype(np.int32)


# cv2.fillPoly (LINE_8) also fills pixels the edge only grazes: on average a filled polygon is
# half a pixel larger on every side. Polygons are inset by this much (of the SS x grid) first.
FILL_BIAS = 0.46  # measured on random 48-gons: the residual bias is below 0.003 px


def inset(uv_px: FloatArray, d_px: float) -> FloatArray:
    """A polygon ring (m, 2) with every edge moved ``d_px`` inward (a mitred offset).

    Either orientation; meant for offsets much smaller than the edges (a negative ``d_px``
    grows the polygon, as a hole's ring needs).
    """
    e = np.roll(uv_px, -1, axis=0) - uv_px
    length = np.hypot(e[:, 0], e[:, 1])
    n = np.column_stack([-e[:, 1], e[:, 0]]) / np.where(length > 1e-12, length, np.inf)[:, None]
    x, y = uv_px[:, 0], uv_px[:, 1]
    area2 = float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    n *= 1.0 if area2 > 0 else -1.0  # (-e_y, e_x) points inward for a positive shoelace sum
    n_prev = np.roll(n, 1, axis=0)
    denom = np.maximum(1.0 + (n * n_prev).sum(axis=1), 0.1)  # the bisector's length factor
    return uv_px + d_px * (n + n_prev) / denom[:, None]


def fold_radius(camera: Camera) -> float:
    """Undistorted normalised radius (x 0.95) beyond which the radial distortion folds back."""
    k1, k2, _, _, k3 = camera.dist
    r = np.linspace(0.0, 4.0, 4001)
    rd = r * (1 + k1 * r**2 + k2 * r**4 + k3 * r**6)
    bad = np.flatnonzero(np.diff(rd) <= 0)
    return float(r[bad[0]]) * 0.95 if len(bad) else 4.0


def safe_points(camera: Camera, xyz_mm: FloatArray, fold_r: float) -> NDArray[np.bool_]:
    """Points that project sanely: in front of the camera, inside the lens's monotone zone."""
    pc = camera.to_camera_frame(xyz_mm)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.hypot(pc[:, 0], pc[:, 1]) / pc[:, 2]
    return np.asarray((pc[:, 2] > 1.0) & (r < fold_r))


def gain_map(camera: Camera, table: TableSpec, style: RenderStyle) -> Mask:
    """Brightness gain (h, w, 1): a linear gradient along the light direction x a vignette."""
    w, h = camera.image_size
    step = 16
    uu, vv = np.meshgrid(np.arange(0.0, w + step, step), np.arange(0.0, h + step, step))
    xy = camera.image_to_table(np.column_stack([uu.ravel(), vv.ravel()]), 0.0)
    ld = np.asarray(style.light_dir_xy, float)
    ld = ld / np.linalg.norm(ld)
    scale = np.hypot(table.half_length, table.half_width) + table.rail_margin
    light = 1.0 + 0.5 * style.light_gradient * (xy @ ld) / scale
    light = np.nan_to_num(light, nan=1.0).reshape(uu.shape)
    cu, cv = (w - 1) / 2.0, (h - 1) / 2.0
    r2 = ((uu - cu) ** 2 + (vv - cv) ** 2) / (cu**2 + cv**2)
    coarse = (light * (1.0 - style.vignette * r2)).astype(np.float32)
    # Grid point k sits at pixel k * step: an affine warp places it exactly (a resize would not).
    m = np.array([[1.0 / step, 0, 0], [0, 1.0 / step, 0]])
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    full = cv2.warpAffine(coarse, m, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(full, np.float32)[:, :, None]


class _Painter:
    """Accumulates the background in float BGR, one coverage mask at a time."""

    def __init__(self, camera: Camera, table: TableSpec, style: RenderStyle) -> None:
        self.camera, self.table, self.style = camera, table, style
        self.w, self.h = camera.image_size
        self.fold_r = fold_radius(camera)
        self.img = np.empty((self.h, self.w, 3), np.float32)
        self.img[:] = style.surround_bgr

    def paint(self, mask: Mask, colour: object, opacity: float = 1.0) -> None:
        a = (mask * np.float32(opacity))[:, :, None]
        self.img[:] = self.img * (1 - a) + np.asarray(colour, np.float32) * a

    def _resolve(self, hi: NDArray[np.uint8]) -> Mask:
        small = cv2.resize(hi, (self.w, self.h), interpolation=cv2.INTER_AREA)
        return small.astype(np.float32) * np.float32(1.0 / 255.0)

    def visible_region(self) -> shapely.Geometry:
        """The table plane z = 0 seen by the image plus a margin, to clip static polygons."""
        w, h = self.w, self.h
        t = np.linspace(0.0, 1.0, 65)[:-1]
        border = np.concatenate(
            [
                np.column_stack([t * w - 0.5, np.full_like(t, -0.5)]),
                np.column_stack([np.full_like(t, w - 0.5), t * h - 0.5]),
                np.column_stack([(1 - t) * w - 0.5, np.full_like(t, h - 0.5)]),
                np.column_stack([np.full_like(t, -0.5), (1 - t) * h - 0.5]),
            ]
        )
        big = shapely.box(*shapely.box(*self.table.rail_box).buffer(600.0).bounds)
        xy = self.camera.image_to_table(border, 0.0)
        if not np.isfinite(xy).all():  # the horizon is in the picture
            return big
        return shapely.make_valid(shapely.Polygon(xy)).buffer(30.0).intersection(big)

    def plane_mask(self, geoms: list[shapely.Geometry], region: shapely.Geometry) -> Mask:
        """Coverage of table-plane (z = 0) polygons, holes included (even-odd fill)."""
        hi = np.zeros((self.h * SS, self.w * SS), np.uint8)
        for geom in geoms:
            g = shapely.segmentize(shapely.intersection(geom, region), 4.0)
            rings = []
            for poly in getattr(g, "geoms", [g]):
                if not isinstance(poly, shapely.Polygon) or poly.is_empty:
                    continue
                for ring in (poly.exterior, *poly.interiors):
                    xy = np.asarray(ring.coords)[:-1]
                    rings.append(
                        hi_res(self.camera(np.column_stack([xy, np.zeros(len(xy))])), 0, 0)
                    )
            if rings:
                cv2.fillPoly(hi, rings, 255, cv2.LINE_8, SHIFT)
        return self._resolve(hi)

    def solid_mask(self, polys: list[FloatArray], hull: bool = False) -> Mask:
        """Coverage of 3D polygons (each (n, 3)), or of the convex hull of each projection."""
        hi = np.zeros((self.h * SS, self.w * SS), np.uint8)
        for p in polys:
            if not safe_points(self.camera, p, self.fold_r).all():
                continue
            # The lens bends straight edges: a 146 mm crossbar drawn from its four corners
            # misses its curved image by up to half a pixel. Edges sampled every 5 mm.
            uv = self.camera(p if hull else _densify(p, 5.0))
            if hull:
                uv = cv2.convexHull(uv.astype(np.float32))[:, 0].astype(float)
            cv2.fillPoly(hi, [hi_res(inset(uv, FILL_BIAS / SS), 0, 0)], 255, cv2.LINE_8, SHIFT)
        return self._resolve(hi)

    def goal(self, field: FieldModel, side: str, bars: bool = True) -> None:
        """Net faces (translucent), then the posts and (if ``bars``) the crossbar of one goal:
        in the background, a flat strip of the posts' diameter (the renders measured before
        :attr:`simulator.designs.RenderStyle.bars_over_pieces`; over the pieces the bar is
        :meth:`crossbar_mask`'s cylinder)."""
        sp = self.table
        s = -1.0 if side == "left" else 1.0
        posts = field.post_centres(side)
        r, gh = sp.post_diameter / 2.0, sp.goal_height
        x_in, x_back = s * (sp.half_length + r), s * (sp.half_length + sp.goal_depth)
        yo = sp.goal_width / 2.0 + 2 * r
        faces = [  # back, two sides, roof
            [(x_back, -yo, 0), (x_back, yo, 0), (x_back, yo, gh), (x_back, -yo, gh)],
            [(x_in, -yo, 0), (x_back, -yo, 0), (x_back, -yo, gh), (x_in, -yo, gh)],
            [(x_in, yo, 0), (x_back, yo, 0), (x_back, yo, gh), (x_in, yo, gh)],
            [(x_in, -yo, gh), (x_back, -yo, gh), (x_back, yo, gh), (x_in, yo, gh)],
        ]
        for quad in faces:
            self.paint(self.solid_mask([np.array(quad, float)]), self.style.net_bgr, 0.3)
        ang = np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False)
        cyl = []
        for cx, cy in posts:
            ring = np.column_stack([cx + r * np.cos(ang), cy + r * np.sin(ang)])
            cyl.append(np.concatenate([np.column_stack([ring, np.full(16, z)]) for z in (0.0, gh)]))
        self.paint(self.solid_mask(cyl, hull=True), FRAME_BGR)
        if bars:
            y0, y1 = posts[0, 1], posts[1, 1]
            bar = np.array(
                [
                    (x_in - r, y0, gh - r),
                    (x_in + r, y0, gh + r),
                    (x_in + r, y1, gh + r),
                    (x_in - r, y1, gh - r),
                ]
            )
            self.paint(self.solid_mask([bar]), FRAME_BGR)

    def crossbar_mask(self, field: FieldModel, side: str) -> Mask:
        """Coverage of one goal's crossbar: a cylinder of the posts' diameter between their
        tops, in lengths of 10 mm or less (each the hull of its two end circles as the camera
        sees them: a lens bends the bar)."""
        sp = self.table
        posts = field.post_centres(side)
        r, gh = sp.post_diameter / 2.0, sp.goal_height
        ang = np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False)
        dx, dz = r * np.cos(ang), r * np.sin(ang)
        n = max(1, int(np.ceil(abs(float(posts[1, 1] - posts[0, 1])) / 10.0)))
        ys = np.linspace(posts[0, 1], posts[1, 1], n + 1)
        parts = [
            np.array(
                [
                    (posts[0, 0] + a, y, gh + b)
                    for y in ys[i : i + 2]
                    for a, b in zip(dx, dz, strict=True)
                ]
            )
            for i in range(n)
        ]
        return self.solid_mask(parts, hull=True)


def _densify(poly: FloatArray, step_mm: float) -> FloatArray:
    """The closed 3D polygon ``poly`` (n, 3) with points every ``step_mm`` along its edges."""
    out = []
    for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        n = max(int(np.ceil(np.linalg.norm(b - a) / step_mm)), 1)
        out.append(a + np.linspace(0.0, 1.0, n, endpoint=False)[:, None] * (b - a))
    return np.concatenate(out)


def render_background(
    camera: Camera,
    table: TableSpec,
    style: RenderStyle,
    gain: Mask,
    rng: np.random.Generator,
    bars: bool = True,
) -> NDArray[np.uint8]:
    """The lit static scene (h, w, 3) BGR uint8: surround, rail, felt, markings, goals (their
    crossbars only if ``bars``: the renderer draws them over the pieces, :func:`crossbars`)."""
    pt = _Painter(camera, table, style)
    field = FieldModel(table)
    region = pt.visible_region()
    rail_box = shapely.box(*table.rail_box)
    pt.paint(
        pt.plane_mask([rail_box.buffer(style.rail_width_mm, join_style="mitre")], region),
        style.rail_bgr,
    )
    # Felt: the field colour modulated by smooth blotches and a fine grain.
    coarse = rng.normal(0.0, 1.0, (max(2, pt.h // 24), max(2, pt.w // 24))).astype(np.float32)
    blotch = cv2.resize(coarse, (pt.w, pt.h), interpolation=cv2.INTER_CUBIC)
    grain = rng.normal(0.0, 0.4, (pt.h, pt.w)).astype(np.float32)
    texture = 1.0 + style.texture_strength * np.clip(blotch + grain, -3, 3) / 2.0
    pt.paint(
        pt.plane_mask([rail_box], region),
        np.asarray(style.field_bgr, np.float32) * texture[:, :, None],
    )
    pt.paint(pt.plane_mask([field.painted], region), style.line_bgr)
    for side in SIDES:
        pt.goal(field, side, bars)
    return np.clip(pt.img * gain + 0.5, 0, 255).astype(np.uint8)


def crossbars(
    camera: Camera, table: TableSpec, style: RenderStyle, gain: Mask
) -> tuple[tuple[int, int, int, int], Mask, Mask] | None:
    """The two crossbars as a layer drawn over the pieces: ``(box, coverage, colour)`` - the
    pixels' box (x0, y0, x1, y1), each pixel's coverage (h, w) and the bars' lit colour
    (h, w, 3) within it; None if no bar is in the picture.

    A crossbar stands higher than any piece, and the camera looks down on the field from
    over it: whatever lies under the bar as the camera sees it (a ball in the net, a tilted
    camera's ball just past the line) is behind it."""
    pt = _Painter(camera, table, style)
    field = FieldModel(table)
    cover = np.zeros((pt.h, pt.w), np.float32)
    for side in SIDES:
        cover = np.maximum(cover, pt.crossbar_mask(field, side))
    ys, xs = np.nonzero(cover > 0)
    if not len(ys):
        return None
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
    colour = np.asarray(FRAME_BGR, np.float32) * gain[y0:y1, x0:x1]
    return (x0, y0, x1, y1), cover[y0:y1, x0:x1], np.asarray(colour, np.float32)
