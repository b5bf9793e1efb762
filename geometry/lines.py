"""The ball against the field's lines: signed margins, exact and vectorised.

Every function takes ball centres ``xy_mm`` (N, 2) (or (2,)) and the ball radius, and returns
signed margins in millimetres: positive by how much the situation holds, negative by how much
it fails (INTERFACES.md). Lines are measured to their outer edges, as the table frame defines.

Examples
--------
>>> from geometry.field import FieldModel
>>> from geometry.tablespec import load_table
>>> fm = FieldModel(load_table("brasileira"))
>>> line, posts = goal_margins([[1005.5, 0.0]], 5.0, fm, "right")
>>> float(line[0]), float(posts[0])
(0.5, 68.0)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from geometry.field import FieldModel
from geometry.measure import box_signed_distance

__all__ = [
    "LINE_NAMES",
    "ball_in_area_margin",
    "ball_in_goal_margin",
    "ball_out_margin",
    "goal_margins",
    "neutral_margin",
]

FloatArray = NDArray[np.float64]
#: Line names used by verdicts and the goal-line call (INTERFACES.md).
LINE_NAMES = ("goal_left", "goal_right", "touch_near", "touch_far")


def _xy(xy_mm: ArrayLike) -> FloatArray:
    return np.atleast_2d(np.asarray(xy_mm, dtype=float))


def _side_sign(side: str) -> float:
    return -1.0 if side == "left" else 1.0


def goal_margins(
    xy_mm: ArrayLike, r_mm: float, field: FieldModel, side: str
) -> tuple[FloatArray, FloatArray]:
    """``(line, posts)`` margins of the ball against one goal.

    ``line``: how far the ball's trailing edge is past the goal line's outer edge (positive:
    wholly across). ``posts``: how far the ball's footprint is inside the posts' inner faces
    (negative: some of it is outside the goal mouth).
    """
    xy = _xy(xy_mm)
    s = _side_sign(side)
    line = s * xy[:, 0] - r_mm - field.hl
    posts = field.spec.goal_width / 2.0 - (np.abs(xy[:, 1]) + r_mm)
    return line, posts


def ball_in_goal_margin(xy_mm: ArrayLike, r_mm: float, field: FieldModel, side: str) -> FloatArray:
    """Signed distance to "wholly past the goal line, between the posts".

    Holds when positive (000 REGRA 10: "ultrapassar inteiramente a linha de fundo, por dentro da
    baliza"). A ball in the goal gets the smaller of its two clearances; a ball that is not gets
    minus its distance to the nearest position that would be a goal.
    """
    line, posts = goal_margins(xy_mm, r_mm, field, side)
    inside = np.minimum(line, posts)
    outside = -np.hypot(np.minimum(line, 0.0), np.minimum(posts, 0.0))
    return np.where((line > 0) & (posts >= 0), inside, outside)


def ball_out_margin(
    xy_mm: ArrayLike, r_mm: float, field: FieldModel, touching_touchline: bool = False
) -> tuple[FloatArray, NDArray[np.str_]]:
    """Signed margin of "wholly beyond the boundary" and the line concerned.

    Returns ``(margin, line)``: ``margin > 0`` when the ball is wholly outside the field (by the
    gap between the ball and the field), negative by how far it must still travel. ``line`` is the
    line it is beyond (or nearest to), one of :data:`LINE_NAMES`.

    ``touching_touchline`` (001 Art. XXXIV: "ultrapassa ou apenas toca a linha") also counts a
    ball that touches a touchline; its margin is then the larger of the two readings.
    """
    xy = _xy(xy_mm)
    margin = box_signed_distance(xy, field.field_box) - r_mm
    if touching_touchline:
        touch = np.abs(xy[:, 1]) + r_mm - (field.hw - field.lw)
        margin = np.maximum(margin, np.where(touch >= 0, np.maximum(touch, 1e-9), touch))
    over_x = np.abs(xy[:, 0]) - field.hl
    over_y = np.abs(xy[:, 1]) - field.hw
    goal = np.where(xy[:, 0] < 0, "goal_left", "goal_right")
    touch_name = np.where(xy[:, 1] < 0, "touch_near", "touch_far")
    line = np.where(over_x > over_y, goal, touch_name)
    return margin, line


def neutral_margin(xy_mm: ArrayLike, r_mm: float, field: FieldModel) -> FloatArray:
    """How far the ball's footprint overlaps the halfway line strip (touching counts: >= 0).

    000 Art. 12: "sobre a linha divisória do campo, ou mesmo tangenciando-a".
    """
    xy = _xy(xy_mm)
    return np.asarray(field.lw / 2.0 + r_mm - np.abs(xy[:, 0]), dtype=float)


def ball_in_area_margin(
    xy_mm: ArrayLike, r_mm: float, box: tuple[float, float, float, float]
) -> FloatArray:
    """How far the ball reaches into a rectangular area (touching its lines counts: >= 0)."""
    return np.asarray(r_mm - box_signed_distance(_xy(xy_mm), box), dtype=float)
