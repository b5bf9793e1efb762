"""Masks of the table's parts as a camera sees them: the painted markings' coverage (anti-aliased
to 1/16 pixel), the felt's region, the goals, the goals' posts and crossbars standing over it.
"""

from __future__ import annotations

import cv2
import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from calibration.camera import Camera
from geometry.field import FieldModel
from geometry.tablespec import TableSpec

__all__ = [
    "coverage_map",
    "crossbar_hulls",
    "felt_region",
    "goal_frames",
    "goal_frames_coverage",
    "goal_mask",
    "project_geometry",
]

FloatArray = NDArray[np.float64]
F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]
_SS = 4  # supersampling of rasterised polygons (coverage to 1/16 pixel)
_SHIFT = 4  # fixed-point bits of cv2.fillPoly


def project_geometry(camera: Camera, geom: BaseGeometry, z_mm: float = 0.0) -> list[FloatArray]:
    """Image rings (list of (n, 2) px) of a shapely (multi)polygon on the plane ``z = z_mm``.

    Edges are cut to 5 mm first so that lens distortion bends them as it bends the real lines.
    """
    geom = shapely.segmentize(geom, 5.0)
    rings: list[FloatArray] = []
    for poly in getattr(geom, "geoms", [geom]):
        if poly.is_empty or not hasattr(poly, "exterior"):
            continue
        for ring in [poly.exterior, *poly.interiors]:
            xy = np.asarray(ring.coords)[:, :2]
            uv = camera.table_to_image(np.column_stack([xy, np.full(len(xy), z_mm)]))
            if np.isfinite(uv).all():
                rings.append(uv)
    return rings


def coverage_map(camera: Camera, geom: BaseGeometry, z_mm: float = 0.0) -> F32:
    """Area coverage (h, w) in 0..1 of a table-plane geometry, supersampled ``4 x 4``."""
    w, h = camera.image_size
    canvas = np.zeros((h * _SS, w * _SS), np.uint8)
    rings = project_geometry(camera, geom, z_mm)
    if rings:
        # Pixel centres sit at integers: the supersampled centre of pixel (0, 0) is (1.5, 1.5).
        pts = [np.round(((uv + 0.5) * _SS - 0.5) * (1 << _SHIFT)).astype(np.int32) for uv in rings]
        cv2.fillPoly(canvas, pts, 255, cv2.LINE_8, _SHIFT)  # even-odd: holes stay empty
    small = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.float32) * np.float32(1.0 / 255.0)


def felt_region(camera: Camera, table: TableSpec) -> U8:
    """Mask (h, w) uint8 of the playing surface inside the rails, where pieces can stand."""
    x0, y0, x1, y1 = table.rail_box
    return (coverage_map(camera, shapely.box(x0, y0, x1, y1)) > 0.5).astype(np.uint8)


def goal_mask(camera: Camera, table: TableSpec, margin_mm: float = 5.0) -> U8:
    """Mask (h, w) uint8 of the two goals (posts, crossbar, net) as the camera sees them."""
    w, h = camera.image_size
    mask = np.zeros((h, w), np.uint8)
    hl, gw = table.half_length, table.goal_width / 2.0 + table.post_diameter + margin_mm
    for sx in (-1.0, 1.0):
        xs = (sx * hl, sx * (hl + table.goal_depth + margin_mm))
        zs = (0.0, table.goal_height + margin_mm)
        box = np.array([[x, y, z] for x in xs for y in (-gw, gw) for z in zs])
        uv = camera.table_to_image(box)
        if np.isfinite(uv).all():
            hull = cv2.convexHull(np.round(uv * 16).astype(np.int32))
            cv2.fillPoly(mask, [hull], 1, cv2.LINE_8, 4)
    return mask


def goal_frames(camera: Camera, table: TableSpec, margin_px: int = 2) -> U8:
    """Mask (h, w) uint8 of the two goals' posts and crossbars (grown ``margin_px``), as the
    camera sees them: white bars that a still's model of the table lacks."""
    w, h = camera.image_size
    mask = np.zeros((h, w), np.uint8)
    r, gh = table.post_diameter / 2.0 + 1.0, table.goal_height
    ang = np.linspace(0.0, 2.0 * np.pi, 12, endpoint=False)
    field = FieldModel(table)
    for side in ("left", "right"):
        posts = field.post_centres(side)
        parts = [  # each post a cylinder, the crossbar a bar between their tops
            np.array(
                [[cx + r * np.cos(a), cy + r * np.sin(a), z] for a in ang for z in (0.0, gh + r)]
            )
            for cx, cy in posts
        ]
        ys = np.linspace(posts[0, 1], posts[1, 1], 30)
        bar = [[posts[0, 0] + dx, y, gh + dz] for y in ys for dx in (-r, r) for dz in (-r, r)]
        for xyz in [*parts, np.array(bar)]:
            uv = camera.table_to_image(xyz)
            if np.isfinite(uv).all():
                hull = cv2.convexHull(np.round(uv * 16).astype(np.int32))
                cv2.fillPoly(mask, [hull], 1, cv2.LINE_8, 4)
    k = 2 * margin_px + 1
    return np.asarray(cv2.dilate(mask, np.ones((k, k), np.uint8)), np.uint8)


def crossbar_hulls(camera: Camera, table: TableSpec, pieces: int = 6) -> list[FloatArray]:
    """The two goals' crossbars as the camera sees them: convex polygons (n, 2) px, each bar in
    ``pieces`` lengths (a lens bends it), a cylinder of the posts' diameter between their tops.

    A crossbar stands higher than any piece and the camera looks down from over the field:
    whatever the bar covers in the image is behind it (a ball in the net, or just past the
    line under a tilted camera). The ball's fits take these as pieces in front of it."""
    r, gh = table.post_diameter / 2.0, table.goal_height
    ang = np.linspace(0.0, 2.0 * np.pi, 12, endpoint=False)
    cos, sin = r * np.cos(ang), r * np.sin(ang)
    field = FieldModel(table)
    out: list[FloatArray] = []
    for side in ("left", "right"):
        centres = field.post_centres(side)
        ys = np.linspace(centres[0, 1], centres[1, 1], pieces + 1)
        for i in range(pieces):
            xyz = np.array(
                [
                    [centres[0, 0] + c, y, gh + sn]
                    for y in ys[i : i + 2]
                    for c, sn in zip(cos, sin, strict=True)
                ]
            )
            uv = camera.table_to_image(xyz)
            if np.isfinite(uv).all():
                hull = cv2.convexHull(uv.astype(np.float32))[:, 0]
                out.append(np.asarray(hull, np.float64))
    return out


def goal_frames_coverage(camera: Camera, table: TableSpec, ss: int = 4, posts: bool = True) -> F32:
    """The share (h, w) float32 of each pixel the goals' posts and crossbars cover (each a
    cylinder of the posts' diameter; ``ss`` x ``ss`` samples a pixel): their anti-aliased
    outline, which a thin bar's pixels mostly are. The crossbars only when not ``posts``."""
    w, h = camera.image_size
    r, gh = table.post_diameter / 2.0, table.goal_height
    ang = np.linspace(0.0, 2.0 * np.pi, 16, endpoint=False)
    cos, sin = r * np.cos(ang), r * np.sin(ang)
    field = FieldModel(table)
    hulls = []
    for side in ("left", "right"):
        centres = field.post_centres(side)
        parts = [
            np.array(
                [[cx + c, cy + sn, z] for c, sn in zip(cos, sin, strict=True) for z in (0.0, gh)]
            )
            for cx, cy in centres
            if posts
        ]
        ys = np.linspace(centres[0, 1], centres[1, 1], 30)
        parts += [  # the crossbar in pieces: a lens bends it
            np.array(
                [
                    [centres[0, 0] + c, y, gh + sn]
                    for y in ys[i : i + 2]
                    for c, sn in zip(cos, sin, strict=True)
                ]
            )
            for i in range(len(ys) - 1)
        ]
        for xyz in parts:
            uv = camera.table_to_image(xyz)
            if np.isfinite(uv).all():
                hulls.append(cv2.convexHull(np.round((uv + 0.5) * ss * 16 - 8).astype(np.int32)))
    if not hulls:
        return np.zeros((h, w), np.float32)
    x0, y0 = (int(min(hh[:, 0, i].min() for hh in hulls)) // (16 * ss) - 1 for i in (0, 1))
    x1, y1 = (int(max(hh[:, 0, i].max() for hh in hulls)) // (16 * ss) + 2 for i in (0, 1))
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    out = np.zeros((h, w), np.float32)
    if x1 <= x0 or y1 <= y0:
        return out
    big = np.zeros(((y1 - y0) * ss, (x1 - x0) * ss), np.uint8)
    off = np.array([x0, y0]) * ss * 16
    for hh in hulls:
        cv2.fillPoly(big, [hh - off], 255, cv2.LINE_8, 4)
    small = cv2.resize(big, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    out[y0:y1, x0:x1] = small.astype(np.float32) / 255.0
    return out
