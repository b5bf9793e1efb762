"""Lens intrinsics from chessboard or ChArUco images (``botao calibrate-intrinsics``).

Print a board, hold it flat in front of the webcam at the resolution used for matches, and take
10-20 pictures with the board tilted every way and reaching the image corners (distortion is
strongest there). :func:`calibrate_intrinsics` finds the pattern in each image and runs
``cv2.calibrateCamera``; the result is saved as a ``camera/1`` document with an identity pose
(``"intrinsics_only": true``) that ``botao calibrate --intrinsics`` reads.

Patterns:

- ``chessboard``: ``board=(cols, rows)`` counts the *inner* corners (a board of 10 x 7
  squares has 9 x 6); found with ``cv2.findChessboardCornersSB`` (sub-pixel, robust to blur).
- ``charuco``: ``board=(cols, rows)`` counts the *squares*; ``marker_mm`` and ``dictionary``
  as printed. Works with the board partly out of the picture. Boards made with OpenCV < 4.6
  need ``legacy=True``.

OpenCV 5 returns points in shapes that changed across versions; every array is brought to
``(N, 2)`` / ``(N, 3)`` float32 here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera

__all__ = ["PATTERNS", "Intrinsics", "IntrinsicsError", "calibrate_intrinsics", "load_image"]

PATTERNS = ("chessboard", "charuco")
FloatArray = NDArray[np.float64]
ImageInput = str | Path | tuple[str, NDArray[np.uint8]]


class IntrinsicsError(ValueError):
    """Images that cannot give intrinsics; the message names the file."""


@dataclass(frozen=True)
class Intrinsics:
    """A lens model: ``K`` (3, 3), ``dist`` ``[k1, k2, p1, p2, k3]``, at ``image_size`` (w, h).

    ``rms_px`` is the reprojection error of the pattern's corners; ``images_used`` the images
    the pattern was found in.
    """

    K: FloatArray
    dist: FloatArray
    image_size: tuple[int, int]
    rms_px: float
    images_used: tuple[str, ...]
    pattern: str

    def camera(self) -> Camera:
        """A :class:`Camera` with these intrinsics and an identity pose."""
        return Camera(self.image_size, self.K, self.dist, rms_px=self.rms_px)

    def to_dict(self) -> dict[str, Any]:
        """A ``camera/1`` document (identity pose) with the fields ``intrinsics_only``,
        ``pattern`` and ``images_used`` added."""
        doc = self.camera().to_dict()
        doc.update(intrinsics_only=True, pattern=self.pattern, images_used=list(self.images_used))
        return doc

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")


def load_image(item: ImageInput) -> tuple[str, NDArray[np.uint8]]:
    """``(name, BGR image)`` of a path or of a ``(name, array)`` pair; errors name the file."""
    if isinstance(item, tuple):
        name, arr = item
        return str(name), np.asarray(arr, np.uint8)
    if not Path(item).is_file():  # (before cv2.imread, which would log a warning)
        what = "does not exist" if not Path(item).exists() else "is not a file"
        raise IntrinsicsError(f"{item}: {what}")
    img = cv2.imread(str(item), cv2.IMREAD_COLOR)
    if img is None:
        raise IntrinsicsError(f"{item}: is not an image OpenCV reads")
    return str(item), np.asarray(img, np.uint8)


def _grey(img: NDArray[np.uint8]) -> NDArray[np.uint8]:
    return img if img.ndim == 2 else np.asarray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), np.uint8)


def _chessboard_points(
    grey: NDArray[np.uint8], board: tuple[int, int], square_mm: float
) -> tuple[NDArray[np.float32], NDArray[np.float32]] | None:
    flags = cv2.CALIB_CB_NORMALIZE_IMAGE | cv2.CALIB_CB_EXHAUSTIVE | cv2.CALIB_CB_ACCURACY
    found, corners = cv2.findChessboardCornersSB(grey, board, flags=flags)
    if not found or corners is None:
        return None
    cols, rows = board
    obj = np.zeros((rows * cols, 3), np.float32)
    obj[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square_mm
    return obj, np.asarray(corners, np.float32).reshape(-1, 2)


def _charuco_detector(
    board: tuple[int, int], square_mm: float, marker_mm: float, dictionary: str, legacy: bool
) -> Any:
    code = getattr(cv2.aruco, dictionary, None)
    if not isinstance(code, int) or not dictionary.startswith("DICT_"):
        raise IntrinsicsError(f"dictionary: unknown ArUco dictionary {dictionary!r}")
    if not 0 < marker_mm < square_mm:
        raise IntrinsicsError(
            f"marker_mm: expected between 0 and square_mm ({square_mm}), got {marker_mm}"
        )
    b = cv2.aruco.CharucoBoard(board, square_mm, marker_mm, cv2.aruco.getPredefinedDictionary(code))
    b.setLegacyPattern(legacy)
    return cv2.aruco.CharucoDetector(b)


def _charuco_points(
    grey: NDArray[np.uint8], detector: Any
) -> tuple[NDArray[np.float32], NDArray[np.float32]] | None:
    corners, ids, _, _ = detector.detectBoard(grey)
    if corners is None or ids is None or len(ids) < 6:
        return None
    obj, img = detector.getBoard().matchImagePoints(corners, ids)
    obj = np.asarray(obj, np.float32).reshape(-1, 3)
    img = np.asarray(img, np.float32).reshape(-1, 2)
    if len(obj) < 6 or np.ptp(obj[:, 0]) == 0 or np.ptp(obj[:, 1]) == 0:  # collinear: useless
        return None
    return obj, img


def calibrate_intrinsics(
    images: Sequence[ImageInput],
    *,
    pattern: str = "chessboard",
    board: tuple[int, int] = (9, 6),
    square_mm: float = 25.0,
    marker_mm: float | None = None,
    dictionary: str = "DICT_5X5_100",
    legacy: bool = False,
    min_images: int = 3,
    strict: bool = True,
) -> Intrinsics:
    """Intrinsics from images of a calibration board.

    Fits ``fx, fy, cx, cy, k1, k2, p1, p2`` (``k3`` too from 15 images on). With ``strict``
    (the default) an image without the pattern is an error naming the file; otherwise it is
    skipped, and only fewer than ``min_images`` usable images is an error.
    """
    if pattern not in PATTERNS:
        raise IntrinsicsError(f"pattern: expected one of {PATTERNS}, got {pattern!r}")
    cols, rows = board
    if cols < 2 or rows < 2:
        raise IntrinsicsError(f"board: expected at least 2 x 2, got {cols} x {rows}")
    if not (math.isfinite(square_mm) and square_mm > 0):
        raise IntrinsicsError(f"square_mm: expected a positive size, got {square_mm}")
    detector = None
    if pattern == "charuco":
        detector = _charuco_detector(
            board, square_mm, marker_mm or 0.75 * square_mm, dictionary, legacy
        )
    what = f"{pattern} {cols}x{rows}" + (" inner corners" if pattern == "chessboard" else "")
    obj_pts, img_pts, used = [], [], []
    size: tuple[int, int] | None = None
    first = ""
    for item in images:
        name, img = load_image(item)
        h, w = img.shape[:2]
        if size is None:
            size, first = (w, h), name
        elif (w, h) != size:
            raise IntrinsicsError(
                f"{name}: image is {w}x{h} but {first} is {size[0]}x{size[1]}; "
                "calibrate one resolution at a time"
            )
        grey = _grey(img)
        pts = (
            _chessboard_points(grey, board, square_mm)
            if detector is None
            else _charuco_points(grey, detector)
        )
        if pts is None:
            if strict:
                raise IntrinsicsError(f"{name}: no {what} pattern found")
            continue
        obj_pts.append(pts[0])
        img_pts.append(pts[1])
        used.append(name)
    if size is None:
        raise IntrinsicsError("images: none given")
    if len(used) < min_images:
        raise IntrinsicsError(
            f"images: the {what} pattern was found in {len(used)} image(s) "
            f"({', '.join(used) or 'none'}); at least {min_images} are needed"
        )
    flags = 0 if len(used) >= 15 else cv2.CALIB_FIX_K3
    rms, k, dist, _, _ = cv2.calibrateCamera(obj_pts, img_pts, size, None, None, flags=flags)
    d = np.zeros(5)
    flat = np.asarray(dist, np.float64).reshape(-1)
    d[: min(5, len(flat))] = flat[:5]
    return Intrinsics(
        K=np.asarray(k, np.float64),
        dist=d,
        image_size=size,
        rms_px=float(rms),
        images_used=tuple(used),
        pattern=what,
    )
