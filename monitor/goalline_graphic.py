"""The goal-line graphic: the camera's pixels magnified beside a top-down view, like a broadcast.

Left: the camera frame around the ball, magnified without smoothing (each pixel a block, so
nobody mistakes an interpolated edge for evidence), with the fitted ball's silhouette and the
line's two edges projected through the camera model. Right: the same moment top-down in
millimetres: the line's band, the ball's footprint circle, the posts when near, and the
margin from the ball's trailing edge to the line's outer edge with its uncertainty. A banner
gives the decision.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.tablespec import TableSpec
from monitor.goalline import OUT_WORDS, Call
from rules.rulesets import RuleSet
from vision.ball import ball_outline

__all__ = ["draw_call"]

U8 = NDArray[np.uint8]
PANEL = 480
_COLOUR = {"GOAL": (60, 180, 60), "NO_GOAL": (60, 60, 220), "TOO_CLOSE": (0, 170, 230)}
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def _edges(call: Call, table: TableSpec, reach_mm: float) -> list[NDArray[np.float64]]:
    """The line's outer and inner edges near the ball (table mm, z = 0), as (2, 3) segments."""
    hl, hw, lw = table.half_length, table.half_width, table.line_width
    bx, by = call.ball_xy_mm
    if call.line.startswith("goal"):
        s = 1.0 if call.line == "goal_right" else -1.0
        ys = (by - reach_mm, by + reach_mm)
        return [np.array([[s * x, ys[0], 0.0], [s * x, ys[1], 0.0]]) for x in (hl, hl - lw)]
    s = 1.0 if call.line == "touch_far" else -1.0
    xs = (bx - reach_mm, bx + reach_mm)
    return [np.array([[xs[0], s * y, 0.0], [xs[1], s * y, 0.0]]) for y in (hw, hw - lw)]


def _camera_panel(
    image: U8, camera: Camera, table: TableSpec, call: Call, d_mm: float, h_mm: float
) -> U8:
    outline = ball_outline(camera, np.array(call.ball_xy_mm), d_mm, h_mm)
    cu, cv = outline.mean(axis=0)
    half = max(12, int(np.ptp(outline[:, 0]) * 3))
    h, w = image.shape[:2]
    x0 = int(np.clip(cu - half, 0, max(w - 2 * half, 0)))
    y0 = int(np.clip(cv - half, 0, max(h - 2 * half, 0)))
    crop = image[y0 : y0 + 2 * half, x0 : x0 + 2 * half]
    zoom = PANEL / crop.shape[1]
    big = np.asarray(
        cv2.resize(crop, (PANEL, round(crop.shape[0] * zoom)), interpolation=cv2.INTER_NEAREST),
        np.uint8,
    )

    def to_panel(uv: NDArray[np.float64]) -> NDArray[np.int32]:
        # pixel centres: pixel u covers [u - 0.5, u + 0.5) and is drawn at (u - x0) * zoom
        return np.round((uv - (x0 - 0.5, y0 - 0.5)) * zoom * 8).astype(np.int32)

    for k, seg in enumerate(_edges(call, table, 40.0)):
        dense = np.linspace(seg[0], seg[1], 40)
        pts = to_panel(camera.table_to_image(dense))
        colour = (255, 255, 0) if k == 0 else (200, 200, 120)
        cv2.polylines(big, [pts], False, colour, 1 + (k == 0), cv2.LINE_AA, shift=3)
    cv2.polylines(big, [to_panel(outline)], True, _COLOUR[call.decision], 2, cv2.LINE_AA, shift=3)
    cv2.putText(big, "camera pixels", (8, 20), _FONT, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
    return big


def _top_panel(table: TableSpec, call: Call, d_mm: float) -> U8:
    r = d_mm / 2.0
    span = max(3.0 * d_mm, 2.0 * abs(call.margin_mm) + 2.0 * d_mm)
    ppm = PANEL / span  # pixels per mm
    bx, by = call.ball_xy_mm
    panel = np.full((PANEL, PANEL, 3), (46, 110, 40), np.uint8)  # felt

    def px(x: float, y: float) -> tuple[int, int]:  # +y up, 8x sub-pixel (shift=3)
        return (round((PANEL / 2 + (x - bx) * ppm) * 8), round((PANEL / 2 - (y - by) * ppm) * 8))

    hl, hw, lw = table.half_length, table.half_width, table.line_width
    if call.line.startswith("goal"):
        s = 1.0 if call.line == "goal_right" else -1.0
        a, b = px(s * (hl - lw), by + span), px(s * hl, by - span)
        cv2.rectangle(panel, a, b, (245, 245, 245), -1, shift=3)
        gw = table.goal_width / 2.0
        for py in (gw, -gw):
            cv2.circle(panel, px(s * hl, py), round(3 * ppm * 8), (30, 30, 30), -1, cv2.LINE_AA, 3)
        edge_at = s * hl
        trail = bx - s * r
        arrow = (px(edge_at, by), px(trail, by))
    else:
        s = 1.0 if call.line == "touch_far" else -1.0
        a, b = px(bx - span, s * (hw - lw)), px(bx + span, s * hw)
        cv2.rectangle(panel, a, b, (245, 245, 245), -1, shift=3)
        arrow = (px(bx, s * hw), px(bx, by - s * r))
    cv2.circle(panel, px(bx, by), round(r * ppm * 8), (230, 230, 230), -1, cv2.LINE_AA, 3)
    cv2.circle(panel, px(bx, by), round(r * ppm * 8), _COLOUR[call.decision], 2, cv2.LINE_AA, 3)
    cv2.arrowedLine(panel, arrow[0], arrow[1], (0, 215, 255), 2, cv2.LINE_AA, 3, 0.2)
    text = f"{call.margin_mm:+.2f} mm  (sigma {call.sigma_mm:.2f})"
    cv2.putText(panel, text, (10, PANEL - 14), _FONT, 0.7, (255, 255, 255), 2, cv2.LINE_AA)
    cv2.putText(panel, "top-down, table mm", (8, 20), _FONT, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
    return panel


def draw_call(
    image: U8, camera: Camera, table: TableSpec, rules: RuleSet, call: Call, out: str | Path
) -> U8:
    """Draw the graphic of ``call`` on the frame ``image``; write it to ``out`` (PNG)."""
    assert rules.pieces is not None
    d, h = rules.pieces.ball_diameter, rules.pieces.ball_height
    left = _camera_panel(image, camera, table, call, d, h)
    right = _top_panel(table, call, d)
    hgt = max(left.shape[0], right.shape[0])
    canvas = np.zeros((hgt + 70, 2 * PANEL + 10, 3), np.uint8)
    canvas[70 : 70 + left.shape[0], :PANEL] = left
    canvas[70 : 70 + right.shape[0], PANEL + 10 :] = right
    word = call.decision.replace("_", " ")
    if call.line.startswith("touch"):
        word = OUT_WORDS[call.decision].replace("_", " ")
    cv2.rectangle(canvas, (0, 0), (canvas.shape[1], 60), _COLOUR[call.decision], -1)
    title = f"{word}   {call.line}   t = {call.t:.2f} s   frame {call.frame}"
    cv2.putText(canvas, title, (14, 42), _FONT, 1.0, (255, 255, 255), 2, cv2.LINE_AA)
    if not cv2.imwrite(str(out), canvas):
        raise OSError(f"cannot write {out}")
    return canvas
