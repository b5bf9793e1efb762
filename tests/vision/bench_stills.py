"""``bench_detect``'s stills, rendered and detected as the bench does, for tests that pin a
case the bench measured (its seed is the still's)."""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import TABLE, _style, still_frames
from calibration.auto import calibrate_image
from geometry.pieces import Pieces
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.detect import Detector
from vision.detections import Detections


def kept(frame: FrameTruth, keep: np.ndarray) -> FrameTruth:
    """``frame`` with only the pieces ``keep`` (a boolean mask over them)."""
    return replace(
        frame,
        pieces=frame.pieces.select(keep),
        vel_mm_s=frame.vel_mm_s[keep],
        moving=frame.moving[keep],
    )


@functools.cache
def bench_still(seed: int) -> tuple[Detections, np.ndarray]:
    """``bench_detect``'s still ``seed`` detected as the bench does (its camera calibrated from
    the image); and its ball's footprint in the calibrated camera's table frame (which may be
    turned half a turn)."""
    det, pieces = bench_still_pieces(seed)
    return det, pieces.xy_mm[pieces.kind == "ball"][0]


@functools.cache
def bench_still_pieces(seed: int, without: str | None = None) -> tuple[Detections, Pieces]:
    """``bench_detect``'s still ``seed`` detected as the bench does, and its pieces' truth in
    the calibrated camera's table frame (which may be turned half a turn). ``without``: the id
    of a piece left out of the render (the same still without it)."""
    rng = np.random.default_rng(seed)
    true_cam, _, _ = random_camera(rng, TABLE, (1920, 1080))
    style, _, _ = _style(rng)
    frames = still_frames()
    frame = frames[int(rng.integers(len(frames)))]
    if without is not None:
        frame = kept(frame, frame.pieces.ids != without)
    image = Renderer(TABLE, true_cam, style, rng=seed).render(frame)
    cal = calibrate_image(image, TABLE)
    cam = cal.camera if cal.ok and cal.camera is not None else true_cam
    probe = np.array([[500.0, 200.0, 0.0]])
    turned = np.linalg.norm(cam.image_to_table(true_cam(probe), 0.0) - probe[:, :2]) > 100
    pieces = frame.pieces.transformed(-np.eye(2)) if turned else frame.pieces
    return Detector(cam, TABLE).detect(image), pieces
