"""The field model: every marking as a strip of its line width, and the regions they bound.

All geometry is in the table frame (INTERFACES.md): origin at the centre mark, +x toward the
right goal, +y toward the far touchline. Sides are ``"left"`` (x < 0) and ``"right"`` (x > 0).

A line belongs to the region it bounds: the boundary strip lies inside the field, an area's
three lines inside the area, the centre circle's line inside the circle. Regions that are
rectangles are also available as exact boxes (``*_box``) for the measurements in
:mod:`geometry.measure`; the shapely geometries serve drawing, rasterising and calibration.

Examples
--------
>>> from geometry.tablespec import load_table
>>> fm = FieldModel(load_table("brasileira"))
>>> fm.goal_area_box("right")
(890.0, -190.0, 1000.0, 190.0)
>>> round(fm.markings["halfway"].area, 1)  # 2 mm x 1396 mm between the touchlines' strips
2792.0
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from geometry.measure import Box
from geometry.tablespec import TableSpec

__all__ = ["SIDES", "FieldModel"]

SIDES = ("left", "right")
_QUAD_SEGS = 64  # circles: radial error below 0.01 mm at r = 183 mm


def _sign(side: str) -> float:
    if side not in SIDES:
        raise ValueError(f"side: expected 'left' or 'right', got {side!r}")
    return -1.0 if side == "left" else 1.0


def _box(x0: float, y0: float, x1: float, y1: float) -> shapely.Polygon:
    return shapely.box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _ring(cx: float, cy: float, r_outer: float, width: float) -> BaseGeometry:
    outer = shapely.Point(cx, cy).buffer(r_outer, quad_segs=_QUAD_SEGS)
    inner = shapely.Point(cx, cy).buffer(max(r_outer - width, 0.0), quad_segs=_QUAD_SEGS)
    return outer.difference(inner)


class FieldModel:
    """Shapely geometry of one table spec's field."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.hl = spec.half_length
        self.hw = spec.half_width
        self.lw = spec.line_width

    # ---------------------------------------------------------------- exact boxes
    @property
    def field_box(self) -> Box:
        return (-self.hl, -self.hw, self.hl, self.hw)

    @property
    def rail_box(self) -> Box:
        return self.spec.rail_box

    def half_box(self, side: str) -> Box:
        """The half defended by ``side`` (the halfway line strip excluded)."""
        s = _sign(side)
        x0, x1 = sorted((s * self.lw / 2.0, s * self.hl))
        return (x0, -self.hw, x1, self.hw)

    def _area_box(self, side: str, width: float, depth: float) -> Box:
        s = _sign(side)
        x0, x1 = sorted((s * self.hl, s * (self.hl - depth)))
        return (x0, -width / 2.0, x1, width / 2.0)

    def goal_area_box(self, side: str) -> Box:
        a = self.spec.goal_area
        return self._area_box(side, a.width, a.depth)

    def penalty_area_box(self, side: str) -> Box:
        a = self.spec.penalty_area
        return self._area_box(side, a.width, a.depth)

    def goal_mouth_box(self, side: str) -> Box:
        """Inside of the goal: behind the goal line's outer edge, between the posts' inner faces."""
        s = _sign(side)
        x0, x1 = sorted((s * self.hl, s * (self.hl + self.spec.goal_depth)))
        g = self.spec.goal_width / 2.0
        return (x0, -g, x1, g)

    def penalty_mark(self, side: str) -> tuple[float, float]:
        return (_sign(side) * (self.hl - self.spec.penalty_mark_distance), 0.0)

    def restart_spots(self) -> tuple[tuple[float, float], ...]:
        """The painted spots the ball is placed on for a restart: the centre mark (a kick-off)
        and the two penalty marks."""
        return ((0.0, 0.0), self.penalty_mark("left"), self.penalty_mark("right"))

    def post_centres(self, side: str) -> np.ndarray:
        """(2, 2) centres of the posts, tangent to the goal line from outside (000 Art. 1)."""
        s = _sign(side)
        r = self.spec.post_diameter / 2.0
        y = self.spec.goal_width / 2.0 + r
        return np.array([[s * (self.hl + r), -y], [s * (self.hl + r), y]])

    def corners(self) -> np.ndarray:
        return np.array([[sx * self.hl, sy * self.hw] for sx in (-1, 1) for sy in (-1, 1)])

    # ---------------------------------------------------------------- shapely
    @cached_property
    def regions(self) -> dict[str, BaseGeometry]:
        """Regions bounded by the markings (their lines included)."""
        out: dict[str, BaseGeometry] = {"field": _box(*self.field_box)}
        out["rail"] = _box(*self.rail_box)
        sp = self.spec
        for side in SIDES:
            out[f"half_{side}"] = _box(*self.half_box(side))
            out[f"goal_area_{side}"] = _box(*self.goal_area_box(side))
            out[f"penalty_area_{side}"] = _box(*self.penalty_area_box(side))
            out[f"goal_mouth_{side}"] = _box(*self.goal_mouth_box(side))
            cx = _sign(side) * (self.hl - sp.arc_center_distance)
            arc_disc = shapely.Point(cx, 0.0).buffer(sp.penalty_arc_radius, quad_segs=_QUAD_SEGS)
            arc_region = arc_disc.difference(out[f"penalty_area_{side}"])
            out[f"penalty_arc_{side}"] = arc_region.intersection(out["field"])
        out["center_circle"] = shapely.Point(0, 0).buffer(
            sp.center_circle_radius, quad_segs=_QUAD_SEGS
        )
        return out

    @cached_property
    def markings(self) -> dict[str, BaseGeometry]:
        """Every painted marking as a strip of the line width (or a filled mark)."""
        sp, hl, hw, lw = self.spec, self.hl, self.hw, self.lw
        out: dict[str, BaseGeometry] = {}
        out["boundary"] = _box(-hl, -hw, hl, hw).difference(
            _box(-hl + lw, -hw + lw, hl - lw, hw - lw)
        )
        out["halfway"] = _box(-lw / 2.0, -hw + lw, lw / 2.0, hw - lw)
        out["center_circle"] = _ring(0.0, 0.0, sp.center_circle_radius, lw)
        cm = sp.center_mark_diameter / 2.0
        # A large "mark" is the gaúcha small circle (001 Art. V d): a ring, not a filled dot.
        out["center_mark"] = (
            _ring(0.0, 0.0, cm, lw) if cm > 4 * lw else shapely.Point(0, 0).buffer(cm, quad_segs=16)
        )
        for side in SIDES:
            s = _sign(side)
            for name, area in (("goal_area", sp.goal_area), ("penalty_area", sp.penalty_area)):
                w, d = area.width / 2.0, area.depth
                outer = _box(s * hl, -w, s * (hl - d), w)
                inner = _box(s * hl, -w + lw, s * (hl - d + lw), w - lw)
                out[f"{name}_{side}"] = outer.difference(inner)
            mx, my = self.penalty_mark(side)
            out[f"penalty_mark_{side}"] = shapely.Point(mx, my).buffer(
                sp.mark_diameter / 2.0, quad_segs=16
            )
            cx = s * (hl - sp.arc_center_distance)
            ring = _ring(cx, 0.0, sp.penalty_arc_radius, lw)
            # Only the part outside the area and inside the field is painted.
            arc = ring.difference(self.regions[f"penalty_area_{side}"])
            out[f"penalty_arc_{side}"] = arc.intersection(self.regions["field"])
            posts = self.post_centres(side)
            out[f"posts_{side}"] = shapely.union_all(
                shapely.buffer(shapely.points(posts), sp.post_diameter / 2.0, quad_segs=16)
            )
        field = self.regions["field"]
        for k, (x, y) in enumerate(self.corners()):
            out[f"corner_arc_{k}"] = _ring(x, y, sp.corner_arc_radius, lw).intersection(field)
        return out

    @cached_property
    def painted(self) -> BaseGeometry:
        """Union of every marking painted on the field (posts excluded)."""
        parts = [g for k, g in self.markings.items() if not k.startswith("posts")]
        return shapely.union_all(parts)
