"""Keeping a video's camera model right: the drift watch plus automatic recalibration.

:class:`CameraKeeper` wraps :class:`calibration.drift.DriftWatch` (issue 4, deliverable 5).
While the markings sit where the camera model puts them it only watches. When the watch
reports ``calibration_lost`` (a bumped table or camera), the keeper gathers the next frames the
watch tests and calibrates again from their per-pixel median
(:func:`calibration.auto.calibrate_frames`, so hands and moving pieces drop out), keeping the
lens: a bump moves the camera or the table, not the focal length or the distortion. The new
camera goes back to the watch, which must see its markings stand out on the next frames before
it emits ``calibration_restored``; a recalibration that fails, or a camera the watch does not
accept, is tried again on fresh frames ``retry_s`` later. Should the old camera fit again first
(the table pushed back), the watch restores it by itself.

The table frame keeps its orientation across a recalibration: the new fit puts the +x goal on
the image side the old camera had it on.

The recalibration runs in the caller's thread, about half a second to a second of CPU at
1920x1080 (``benchmarks/bench_drift.py``); the frames in between need not be decoded (see
:attr:`CameraKeeper.due`).

Examples
--------
>>> from calibration.camera import preset_camera
>>> from geometry.tablespec import load_table
>>> table = load_table("brasileira")
>>> keeper = CameraKeeper(preset_camera("overhead", table, (640, 360)), table)
>>> keeper.state, keeper.due
('validating', True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from calibration.auto import _goal_side, calibrate_frames
from calibration.camera import Camera
from calibration.drift import DriftWatch
from calibration.estimate import CalibrationResult
from geometry.tablespec import TableSpec

__all__ = ["CameraKeeper"]


class CameraKeeper:
    """The camera model of a video, watched for drift and recalibrated after a loss.

    Parameters
    ----------
    camera, table : the calibrated camera and the table spec.
    every_n_frames : the watch tests one frame in this many (see :class:`DriftWatch`).
    recal_frames : tested frames whose median a recalibration uses.
    retry_s : seconds (video time) before a failed recalibration is tried again.
    keep_lens : fit only the pose on recalibration (the lens of ``camera`` kept); when that
        fails, the full model is fitted.
    **watch_kw : further :class:`DriftWatch` parameters.
    """

    def __init__(
        self,
        camera: Camera,
        table: TableSpec,
        every_n_frames: int = 5,
        *,
        recal_frames: int = 5,
        retry_s: float = 2.0,
        keep_lens: bool = True,
        **watch_kw: Any,
    ) -> None:
        if recal_frames < 1:
            raise ValueError(f"recal_frames: expected >= 1, got {recal_frames}")
        self.table = table
        self.watch = DriftWatch(camera, table, every_n_frames, **watch_kw)
        self.recal_frames = int(recal_frames)
        self.retry_s = float(retry_s)
        self.keep_lens = keep_lens
        self.recalibrating = False
        self._adopted = False  # a recalibrated camera awaits the watch's acceptance
        self.results: list[tuple[float, CalibrationResult]] = []  # (t, outcome) per attempt
        self._pending: list[NDArray[np.uint8]] = []
        self._not_before = -math.inf

    # ------------------------------------------------------------------ state
    @property
    def camera(self) -> Camera:
        """The camera model in use (the old one until a recalibrated one is adopted)."""
        return self.watch.camera

    @property
    def state(self) -> str:
        """The watch's state: ``validating``, ``ok`` (trusted) or ``lost``."""
        return self.watch.state

    @property
    def trusted(self) -> bool:
        """Whether measurements through :attr:`camera` can be trusted now."""
        return self.watch.state == "ok"

    @property
    def due(self) -> bool:
        """Whether the next :meth:`update` needs its frame (others may pass None)."""
        return self.watch.due

    # ------------------------------------------------------------------ stream
    def update(
        self, frame_bgr: NDArray[np.uint8] | None, t: float, frame: int | None = None
    ) -> list[dict[str, Any]]:
        """Feed every video frame; returns the events (``event/1`` dicts) this frame caused.

        ``calibration_lost`` and ``calibration_restored`` come from the watch; a restored
        event after a recalibration carries ``recalibrated: true`` and the new camera's
        ``rms_px``.
        """
        due = self.watch.due
        events = self.watch.update(frame_bgr, t, frame)
        if not due:
            return events
        for ev in events:
            if ev["type"] == "calibration_lost":
                self._start()
            elif ev["type"] == "calibration_restored":
                if self._adopted:
                    ev["recalibrated"] = True
                    ev["rms_px"] = round(float(self.results[-1][1].rms_px), 3)
                self._stop()
        # A recalibrated camera the watch keeps refusing: calibrate again.
        if (
            self._adopted
            and self.watch.state == "validating"
            and self.watch.failures >= self.watch.k_lost
        ):
            self._start()
        if self.recalibrating and frame_bgr is not None and t >= self._not_before:
            self._pending.append(np.array(frame_bgr, np.uint8, copy=True))
            if len(self._pending) >= self.recal_frames:
                self._recalibrate(t)
        return events

    def recalibrate(self) -> None:
        """Calibrate again on the next frames the watch tests (asked for, e.g. by a key)."""
        self._start()

    def _start(self) -> None:
        self.recalibrating, self._adopted = True, False
        self._pending = []

    def _stop(self) -> None:
        self.recalibrating, self._adopted = False, False
        self._pending = []
        self._not_before = -math.inf

    def _recalibrate(self, t: float) -> None:
        old = self.watch.camera
        side = _goal_side(old, self.table)
        frames, self._pending = self._pending, []
        kw: dict[str, Any] = {"max_frames": len(frames), "step": 1, "right_goal": side}
        result = CalibrationResult.failure("not tried")
        if self.keep_lens:
            result = calibrate_frames(iter(frames), self.table, intrinsics=old, **kw)
        if not result.ok:
            result = calibrate_frames(iter(frames), self.table, **kw)
        self.results.append((t, result))
        if result.ok and result.camera is not None:
            self.recalibrating, self._adopted = False, True
            self.watch.set_camera(result.camera, t)
        else:
            self._not_before = t + self.retry_s
