"""Frames rendered into an H.264 clip and read back, as a camera's video reaches the detector."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.pieces import Pieces
from geometry.tablespec import TableSpec
from simulator.clip import write_clip
from simulator.state import FrameTruth


def decoded_clip(
    frames: list[FrameTruth],
    table: TableSpec,
    camera: Camera,
    fps: float,
    style: Any,
    **write: Any,
) -> list[NDArray[Any]]:
    """``frames`` through :func:`simulator.clip.write_clip` (``write``: its other arguments)
    into a temporary H.264 file, decoded frame by frame; one image per frame."""
    with tempfile.TemporaryDirectory() as tmp:
        write_clip(frames, table, camera, tmp, fps, style, **write)
        cap = cv2.VideoCapture(str(Path(tmp) / "video.mp4"))
        images = []
        while True:
            ok, image = cap.read()
            if not ok:
                break
            images.append(image)
        cap.release()
    assert len(images) == len(frames), f"{len(images)} frames decoded of {len(frames)}"
    return images


def keepers_four_and_ball(xy: list[tuple[float, float]]) -> Pieces:
    """Both goalkeepers (A1, B1: 70 x 15 mm boxes across the field, 35 mm tall), four 50 mm
    buttons (A2, A3, B2, B3, 8 mm tall) and the ball (10 mm), at ``xy`` in that order: the
    drills' roster."""
    return Pieces(
        np.array(["A1", "B1", "A2", "A3", "B2", "B3", "ball"]),
        np.array(["A", "B", "A", "A", "B", "B", ""]),
        np.array(["goalkeeper"] * 2 + ["button"] * 4 + ["ball"]),
        np.array(xy, float),
        np.array([[70.0, 15.0]] * 2 + [[50.0, 50.0]] * 4 + [[10.0, 10.0]]),
        np.array([np.pi / 2] * 2 + [0.0] * 5),
        np.array([35.0] * 2 + [8.0] * 4 + [10.0]),
    )
