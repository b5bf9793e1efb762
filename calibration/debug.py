"""The calibration's debug picture: the fitted model drawn over the image (``--debug OUT.png``).

Each marking's centre line is drawn through the fitted camera, green where line pixels were
found along it and red where none were (occluded, worn, or a mismatch); the +x goal's side is
labelled, and the quality figures (or the failure's reason) are written in the top-left corner.
A refused fit (field cut off, another table) is drawn the same way; a failure without any fit
(no felt, no lines) shows the felt's region and the line pixels found, so a user sees what the
calibration saw.

:func:`draw_check` is ``botao check-camera --debug``: each mark's expected place (a cross) and
the ball seen near it (a circle, green when within the tolerance, red when not), labelled with
the distance.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.auto import CalibrationResult, found_along
from calibration.camera import Camera
from calibration.estimate import ModelCurves, model_curves
from calibration.markings import find_field, find_lines
from geometry.tablespec import TableSpec

__all__ = ["draw_calibration", "draw_check"]

U8 = NDArray[np.uint8]
_FOUND = (60, 220, 60)
_MISSING = (40, 40, 230)
_LINES = (255, 160, 0)


def _text(img: U8, lines: list[str], scale: float) -> None:
    """White lines of text on a dark band at the top-left corner."""
    font, size, thick = cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, max(1, round(1.5 * scale))
    step = round(30 * scale)
    width = max(cv2.getTextSize(line, font, size, thick)[0][0] for line in lines)
    band = img[: step * len(lines) + step // 2, : width + round(20 * scale)]
    band[:] = (band * 0.35).astype(np.uint8)
    for k, line in enumerate(lines):
        org = (round(10 * scale), step * (k + 1))
        cv2.putText(img, line, org, font, size, (255, 255, 255), thick, cv2.LINE_AA)


def found_samples(
    image_bgr: NDArray[np.generic], table: TableSpec, cam: Camera, model: ModelCurves
) -> NDArray[np.bool_]:
    """Which model samples (M,) have line pixels of ``image_bgr`` on their projection."""
    region = find_field(image_bgr)
    centre = cam.pixel_size_mm(np.zeros((1, 3)))[0]
    line_px = table.line_width / float(centre)
    lines = find_lines(image_bgr, region if region.ok else None, line_px)
    return found_along(cam, model, lines, max(1.5, 0.5 * line_px + 1.0))


def draw_calibration(
    image_bgr: NDArray[np.generic], table: TableSpec, result: CalibrationResult
) -> U8:
    """A copy of ``image_bgr`` (BGR uint8) with the fitted model and the figures drawn over it."""
    img = np.asarray(image_bgr)
    if img.ndim == 2:
        img = cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_GRAY2BGR)
    out = np.ascontiguousarray(img, np.uint8).copy()
    h, w = out.shape[:2]
    scale = max(w, h) / 1920.0 * 1.2
    cam = result.camera if result.camera is not None else result.rejected
    if cam is None:
        region = find_field(out)
        if region.ok:
            mask = region.mask_full()
            out[mask == 0] = (out[mask == 0] * 0.4).astype(np.uint8)
            lines = find_lines(out, region, 2.0)
            ij = np.round(lines.uv_px).astype(int)
            out[ij[:, 1], ij[:, 0]] = _LINES
        _text(out, ["calibration failed:", result.reason], scale)
        return out
    model = model_curves(table, step_mm=2.0)
    found = found_samples(out, table, cam, model)
    uv = cam(model.xyz_mm)
    good = (
        np.isfinite(uv).all(axis=1)
        & (uv[:, 0] >= 0)
        & (uv[:, 0] < w)
        & (uv[:, 1] >= 0)
        & (uv[:, 1] < h)
    )
    radius = max(1, round(scale))
    for ok_found, colour in ((True, _FOUND), (False, _MISSING)):
        sel = good & (found == ok_found)
        for u, v in np.round(uv[sel]).astype(int):
            cv2.circle(out, (int(u), int(v)), radius, colour, -1, cv2.LINE_AA)
    goal = cam(np.array([[table.half_length, 0.0, 0.0]]))[0]
    if np.isfinite(goal).all():
        cv2.putText(
            out,
            "+x",
            (int(goal[0]), int(goal[1])),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.9 * scale,
            (0, 255, 255),
            max(1, int(2 * scale)),
            cv2.LINE_AA,
        )
    fit = (
        f"rms {result.rms_px:.2f} px, {result.rms_mm:.2f} mm; "
        if result.ok
        else "the refused fit: "
    )
    _text(
        out,
        [
            "calibration ok" if result.ok else f"calibration refused: {result.reason}",
            f"{fit}found {100 * result.found_share:.0f}% of the markings"
            if math.isfinite(result.found_share)
            else f"{fit}from point pairs",
            f"f {cam.K[0, 0]:.1f} px, k1 {cam.dist[0]:+.3f}, k2 {cam.dist[1]:+.3f}, "
            f"+x goal {cam.right_goal_image_side}",
        ],
        scale,
    )
    return out


def draw_check(image_bgr: NDArray[np.generic], camera: Camera, records: list[dict[str, Any]]) -> U8:
    """A copy of ``image_bgr`` with :func:`calibration.check.check_marks`' records drawn."""
    out = np.ascontiguousarray(np.asarray(image_bgr), np.uint8).copy()
    h, w = out.shape[:2]
    scale = max(w, h) / 1920.0 * 1.2
    size, thick = max(8, round(16 * scale)), max(1, round(scale))
    for r in records:
        ex = camera.table_to_image(np.array([[*r["expected_mm"], 0.0]]))[0]
        if np.isfinite(ex).all():
            cv2.drawMarker(
                out, (round(ex[0]), round(ex[1])), (255, 255, 0), cv2.MARKER_CROSS, size, thick
            )
        colour = _FOUND if r["ok"] else _MISSING
        if r["seen_px"] is not None:
            u, v = (round(float(c)) for c in r["seen_px"])
            cv2.circle(out, (u, v), size // 2 + 2, colour, thick + 1, cv2.LINE_AA)
        if np.isfinite(ex).all():
            label = "not found" if r["error_mm"] is None else f"{r['error_mm']:.1f} mm"
            org = (round(ex[0]) + size, round(ex[1]) - size)
            cv2.putText(
                out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, colour, thick, cv2.LINE_AA
            )
    bad = [f"{r['mark']}: {r['reason']}" for r in records if not r["ok"]]
    _text(out, ["camera OK"] if not bad else ["REFUSED", *bad], scale)
    return out
