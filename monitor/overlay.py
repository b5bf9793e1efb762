"""The annotated video's overlay: the field model, ids, the offside line, evidence, score, clock.

Drawing lives here, in the monitor; the layers below hand over numbers. Everything measured is
drawn where it is on the table: footprints as the tracker holds them (on the table's plane,
z = 0, so a piece's drawn outline sits under its top face: the parallax the camera model took
out), the offside line at the last flick, the gabarito's circle where a blocked ball was judged,
a measured gap between two pieces. The static part (the markings through the camera model) is
rendered once per camera into a pixel list and stamped on each frame.

The output frame is the camera frame scaled by ``scale`` (a half-size video is a quarter of the
pixels to draw and encode; what a replay viewer needs is the picture, the numbers are in
``events.jsonl``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from calibration.estimate import model_curves
from geometry.tablespec import TableSpec
from vision.track_types import TrackFrame

__all__ = ["Hud", "Mark", "Overlay"]

U8 = NDArray[np.uint8]
FloatArray = NDArray[np.float64]
_TEAM_BGR = ((60, 60, 230), (230, 120, 40))  # first team red, second blue (sorted names)
_BALL_BGR = (0, 230, 255)
_LINE_BGR = (255, 255, 0)
_OFFSIDE_BGR = (0, 215, 255)
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_CIRCLE = np.stack(
    [np.cos(np.linspace(0, 2 * math.pi, 17)), np.sin(np.linspace(0, 2 * math.pi, 17))], 1
)


@dataclass
class Mark:
    """Evidence drawn for a while after an event: a circle (``xy_mm``, ``radius_mm``) or a gap
    (``xy_mm`` to ``to_mm``) with a ``label``; shown until video time ``until_s``."""

    xy_mm: tuple[float, float]
    until_s: float
    radius_mm: float = 0.0
    to_mm: tuple[float, float] | None = None
    label: str = ""
    bgr: tuple[int, int, int] = (0, 0, 255)


@dataclass
class Hud:
    """What the overlay writes besides the pieces."""

    title: str = ""
    score: dict[str, int] = field(default_factory=dict)
    clock_s: float = 0.0
    offside_line: tuple[str, float] | None = None  # (attacking team, x mm)
    messages: list[tuple[str, tuple[int, int, int]]] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    camera_ok: bool = True


class Overlay:
    """Draws a :class:`TrackFrame` and a :class:`Hud` over a video frame (see module docstring).

    Parameters
    ----------
    camera, table : the camera model of the video and its table.
    scale : output size / camera image size (0.5 gives a half-size video).
    teams : team names in a fixed order (colours follow it).
    """

    def __init__(
        self, camera: Camera, table: TableSpec, scale: float = 0.5, teams: tuple[str, ...] = ()
    ) -> None:
        if not 0.1 <= scale <= 1.0:
            raise ValueError(f"overlay scale: expected 0.1-1.0, got {scale}")
        self.table = table
        self.scale = scale
        w, h = camera.image_size
        # Even sizes: H.264's yuv420p wants them.
        self.size_wh = (max(2, round(w * scale) // 2 * 2), max(2, round(h * scale) // 2 * 2))
        self.teams = tuple(teams)
        self.set_camera(camera)

    def set_camera(self, camera: Camera) -> None:
        """A new camera model (after a recalibration): the static layer is drawn again."""
        self.camera = camera
        w, h = self.size_wh
        sx, sy = w / camera.image_size[0], h / camera.image_size[1]
        self._sxy = np.array([sx, sy])
        curves = model_curves(self.table, step_mm=4.0, goals=True)
        uv = camera.table_to_image(curves.xyz_mm) * self._sxy
        layer = np.zeros((h, w), np.uint8)
        pts = np.round(uv).astype(np.int32)
        same = (curves.marking[1:] == curves.marking[:-1]) & (
            np.linalg.norm(np.diff(curves.xyz_mm, axis=0), axis=1) < 3.0 * curves.step_mm
        )
        segs = np.stack([pts[:-1][same], pts[1:][same]], axis=1)
        cv2.polylines(layer, list(segs), False, 255, 1, cv2.LINE_8)
        self._static = np.flatnonzero(layer.ravel())

    def _px(self, xyz_mm: FloatArray) -> NDArray[np.int32]:
        uv = self.camera.table_to_image(xyz_mm) * self._sxy
        return np.round(np.nan_to_num(uv, nan=-1e4)).astype(np.int32)

    def _team_bgr(self, team: str) -> tuple[int, int, int]:
        if team not in self.teams:
            self.teams = (*self.teams, team)
        return _TEAM_BGR[self.teams.index(team) % 2]

    def draw(self, image_bgr: U8, tf: TrackFrame | None, hud: Hud) -> U8:
        """The annotated output frame (a new array, ``size_wh``)."""
        w, h = self.size_wh
        out: U8 = np.asarray(cv2.resize(image_bgr, (w, h), interpolation=cv2.INTER_AREA), np.uint8)
        flat = out.reshape(-1, 3)
        flat[self._static] = _LINE_BGR if hud.camera_ok else (0, 0, 255)
        self._offside(out, hud)
        now = tf.t if tf is not None else 0.0
        for m in hud.marks:
            if m.until_s >= now:
                self._mark(out, m)
        if tf is not None:
            self._pieces(out, tf)
        self._text(out, hud)
        return out

    def _offside(self, out: U8, hud: Hud) -> None:
        if hud.offside_line is None:
            return
        _, x = hud.offside_line
        hw = self.table.half_width
        ys = np.linspace(-hw, hw, 24)
        pts = self._px(np.stack([np.full_like(ys, x), ys, np.zeros_like(ys)], 1))
        for k in range(0, len(pts) - 1, 2):  # dashed
            cv2.line(out, tuple(pts[k]), tuple(pts[k + 1]), _OFFSIDE_BGR, 2, cv2.LINE_AA)

    def _mark(self, out: U8, m: Mark) -> None:
        c = np.array([[m.xy_mm[0], m.xy_mm[1], 0.0]])
        if m.radius_mm > 0:
            ring = np.hstack([m.xy_mm + m.radius_mm * _CIRCLE, np.zeros((len(_CIRCLE), 1))])
            cv2.polylines(out, [self._px(ring)], True, m.bgr, 2, cv2.LINE_AA)
        if m.to_mm is not None:
            seg = self._px(np.array([[*m.xy_mm, 0.0], [*m.to_mm, 0.0]]))
            cv2.line(out, tuple(seg[0]), tuple(seg[1]), m.bgr, 2, cv2.LINE_AA)
            c = np.array([[(m.xy_mm[0] + m.to_mm[0]) / 2, (m.xy_mm[1] + m.to_mm[1]) / 2, 0.0]])
        if m.label:
            u, v = self._px(c)[0]
            cv2.putText(out, m.label, (int(u) + 6, int(v) - 6), _FONT, 0.5, m.bgr, 1, cv2.LINE_AA)

    def _pieces(self, out: U8, tf: TrackFrame) -> None:
        known = np.isin(tf.status, ("seen", "predicted", "hidden"))
        idx = np.flatnonzero(known & np.isfinite(tf.xy_mm).all(axis=1))
        if not len(idx):
            return
        size = tf.size_mm if tf.size_mm is not None else np.full((len(tf.ids), 2), 10.0)
        r = np.where(tf.kind[idx] == "goalkeeper", size[idx, 1], size[idx, 0]) / 2.0
        # One projection for every outline: (n, 17) ring points at z = 0.
        ring = tf.xy_mm[idx, None, :] + r[:, None, None] * _CIRCLE[None]
        keeper = tf.kind[idx] == "goalkeeper"
        if keeper.any() and tf.angle_rad is not None:
            a = tf.angle_rad[idx[keeper]]
            half = size[idx[keeper]] / 2.0
            corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]] * 4 + [[-1, -1]], float)
            local = corners[None] * half[:, None, :]
            c, s = np.cos(a)[:, None], np.sin(a)[:, None]
            rot = np.stack(
                [c * local[..., 0] - s * local[..., 1], s * local[..., 0] + c * local[..., 1]], -1
            )
            ring[keeper] = tf.xy_mm[idx[keeper], None, :] + rot
        xyz = np.concatenate([ring.reshape(-1, 2), np.zeros((ring.shape[0] * ring.shape[1], 1))], 1)
        pts = self._px(xyz).reshape(len(idx), -1, 2)
        for j, i in enumerate(idx):
            st = str(tf.status[i])
            if tf.kind[i] == "ball":
                bgr = _BALL_BGR
            else:
                bgr = self._team_bgr(str(tf.team[i]))
            thick = 2 if st == "seen" else 1
            if st != "seen":
                bgr = tuple(int(0.5 * v + 64) for v in bgr)  # type: ignore[assignment]
            cv2.polylines(out, [pts[j]], True, bgr, thick, cv2.LINE_AA)
            if tf.kind[i] != "ball" or st != "seen":
                u, v = pts[j][:, 0].max(), pts[j][:, 1].min()
                label = str(tf.ids[i]) + ("" if st == "seen" else "?")
                cv2.putText(out, label, (int(u) + 2, int(v) + 2), _FONT, 0.4, bgr, 1, cv2.LINE_AA)

    def _text(self, out: U8, hud: Hud) -> None:
        minutes, seconds = divmod(max(hud.clock_s, 0.0), 60.0)
        score = "  ".join(f"{t} {n}" for t, n in hud.score.items())
        lines: list[tuple[str, tuple[int, int, int]]] = [
            (f"{hud.title}  {score}  {int(minutes):02d}:{seconds:04.1f}", (255, 255, 255))
        ]
        if not hud.camera_ok:
            lines.append(("camera moved: recalibrating", (0, 0, 255)))
        lines += hud.messages[-4:]
        step = 20
        width = max(cv2.getTextSize(s, _FONT, 0.55, 1)[0][0] for s, _ in lines) + 16
        band = out[: step * len(lines) + 8, : min(width, out.shape[1])]
        band[:] = (band * 0.4).astype(np.uint8)
        for k, (s, bgr) in enumerate(lines):
            cv2.putText(out, s, (8, step * (k + 1)), _FONT, 0.55, bgr, 1, cv2.LINE_AA)
