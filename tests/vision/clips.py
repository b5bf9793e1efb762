"""Frames rendered into an H.264 clip and read back, as a camera's video reaches the detector."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import cv2
from numpy.typing import NDArray

from calibration.camera import Camera
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
