"""The camera model: table millimetres <-> image pixels, OpenCV conventions, numpy (the forward
projection compiled: :mod:`calibration.projection`).

A :class:`Camera` is a transform object (like scikit-image's): ``camera(xyz_mm)`` projects
table-frame points to pixels, ``camera.inverse(uv_px, z_mm)`` brings pixels back down to the
plane ``z = z_mm`` (a button's top face, the ball's centre, the table). The model is OpenCV's:
``K`` (3, 3), ``dist = [k1, k2, p1, p2, k3]`` (radial + tangential), and ``rvec``/``tvec`` mapping
the table frame to the camera frame (``X_cam = R(rvec) @ X_table + tvec``). Pixel centres are at
integer coordinates, so the image centre is ``((w - 1) / 2, (h - 1) / 2)``.

The image y axis points down. The presets (and :meth:`Camera.look_at` by default) orient the
camera so the table's +y (the far touchline) is at the top of the image and +x (the right goal)
on the right: ``right_goal_image_side = "right"``.

Examples
--------
>>> cam = Camera.look_at((0.0, 0.0, 1600.0), (0.0, 0.0, 0.0), 60.0, (1280, 720))
>>> uv = cam(np.array([[0.0, 0.0, 0.0], [100.0, 100.0, 0.0]]))
>>> np.round(uv, 3).tolist()  # +x to the right, +y (far touchline) up the image
[[639.5, 359.5], [708.782, 290.218]]
>>> np.round(cam.inverse(uv, 0.0), 6).tolist()
[[0.0, 0.0], [100.0, 100.0]]
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from calibration.projection import project

if TYPE_CHECKING:
    from calibration.estimate import CalibrationResult
    from geometry.tablespec import TableSpec

__all__ = [
    "CAMERA_PRESETS",
    "Camera",
    "CameraError",
    "load_camera",
    "preset_camera",
    "rodrigues",
    "save_camera",
]

FloatArray = NDArray[np.float64]
FORMAT = "camera/1"
CAMERA_PRESETS = ("overhead", "tilted", "wide")
_SIDES = ("left", "right", "up", "down")  # "up"/"down": the long axis runs down the image
_K_USED = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2))  # the intrinsics a projection reads


class CameraError(ValueError):
    """A camera that cannot be used; the message names the field."""


def rodrigues(rvec: ArrayLike) -> FloatArray:
    """Rotation matrix (3, 3) of a rotation vector (axis * angle), as ``cv2.Rodrigues``."""
    r = np.asarray(rvec, dtype=np.float64).reshape(3)
    theta = float(np.linalg.norm(r))
    if theta < 1e-12:
        return np.eye(3)
    k = r / theta
    kx = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(theta) * kx + (1.0 - math.cos(theta)) * (kx @ kx)


def _rotation_to_rvec(rot: FloatArray) -> FloatArray:
    """Inverse of :func:`rodrigues` (robust near 0 and pi)."""
    cos = min(max((np.trace(rot) - 1.0) / 2.0, -1.0), 1.0)
    theta = math.acos(cos)
    if theta < 1e-12:
        return np.zeros(3)
    if math.pi - theta < 1e-6:  # axis from the symmetric part: R = 2 k k^T - I
        k = np.sqrt(np.maximum((np.diag(rot) + 1.0) / 2.0, 0.0))
        i = int(np.argmax(k))
        k[np.arange(3) != i] = (rot[i] + rot[:, i])[np.arange(3) != i] / (4.0 * k[i])
        return k / np.linalg.norm(k) * theta
    w = np.array([rot[2, 1] - rot[1, 2], rot[0, 2] - rot[2, 0], rot[1, 0] - rot[0, 1]])
    return w / (2.0 * math.sin(theta)) * theta


def _array(where: str, name: str, value: Any, shape: tuple[int, ...]) -> FloatArray:
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise CameraError(f"{where}: field '{name}' must be numbers, got {value!r}") from None
    if arr.shape != shape:
        raise CameraError(f"{where}: field '{name}' expected shape {shape}, got {arr.shape}")
    if not np.isfinite(arr).all():
        raise CameraError(f"{where}: field '{name}' must be finite, got {arr.tolist()}")
    return arr


@dataclass(frozen=True)
class Camera:
    """A calibrated camera over the table (OpenCV pinhole + Brown-Conrady distortion).

    Attributes
    ----------
    image_size : (w, h) pixels.
    K : (3, 3) intrinsics; dist : (5,) ``[k1, k2, p1, p2, k3]``.
    rvec, tvec : (3,) table frame -> camera frame (tvec in mm).
    right_goal_image_side : which side of the image the table's +x goal is on.
    rms_px, rms_mm, markings_used : the calibration fit's quality (None when not fitted).
    """

    image_size: tuple[int, int]
    K: FloatArray
    dist: FloatArray = field(default_factory=lambda: np.zeros(5))
    rvec: FloatArray = field(default_factory=lambda: np.zeros(3))
    tvec: FloatArray = field(default_factory=lambda: np.zeros(3))
    right_goal_image_side: str = "right"
    rms_px: float | None = None
    rms_mm: float | None = None
    markings_used: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        where = "Camera"
        size = np.asarray(self.image_size)
        if size.shape != (2,) or not np.all(size > 0) or not np.all(size == np.round(size)):
            raise CameraError(
                f"{where}: field 'image_size' expected [w, h] > 0, got {self.image_size}"
            )
        object.__setattr__(self, "image_size", (int(size[0]), int(size[1])))
        for name, shape in (("K", (3, 3)), ("dist", (5,)), ("rvec", (3,)), ("tvec", (3,))):
            object.__setattr__(self, name, _array(where, name, getattr(self, name), shape))
        if self.K[0, 0] <= 0 or self.K[1, 1] <= 0 or self.K[2, 2] != 1.0:
            raise CameraError(
                f"{where}: field 'K' needs fx, fy > 0 and K[2,2] = 1, got {self.K.tolist()}"
            )
        if self.right_goal_image_side not in _SIDES:
            raise CameraError(
                f"{where}: field 'right_goal_image_side' expected one of {_SIDES}, "
                f"got {self.right_goal_image_side!r}"
            )
        object.__setattr__(self, "markings_used", tuple(self.markings_used))
        rot = rodrigues(self.rvec)
        object.__setattr__(self, "_R", rot)
        object.__setattr__(self, "_centre", -rot.T @ self.tvec)
        object.__setattr__(self, "_Kinv", np.linalg.inv(self.K))
        # the projection's constants as Python floats (numpy scalars' arithmetic is slower;
        # a float64's value is the same either way)
        object.__setattr__(self, "_dist", tuple(float(v) for v in self.dist))
        k = self.K
        object.__setattr__(self, "_k", tuple(float(k[i, j]) for i, j in _K_USED))
        object.__setattr__(self, "_Rt", rot.T)
        # the compiled projection's arguments (:mod:`calibration.projection`)
        object.__setattr__(
            self,
            "_proj",
            (
                np.ascontiguousarray(rot.T),
                np.array(self.tvec, float),
                np.array(self.dist, float),
                np.array([k[i, j] for i, j in _K_USED], float),
            ),
        )

    # ------------------------------------------------------------------ derived
    @property
    def R(self) -> FloatArray:
        """Rotation matrix (3, 3), table -> camera."""
        return self._R  # type: ignore[attr-defined]

    @property
    def projection(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """The arguments of the compiled projection, :func:`calibration.projection.project`
        (the rotation transposed, ``tvec``, ``dist``, the intrinsics it reads): for kernels
        that project points themselves."""
        return self._proj  # type: ignore[attr-defined]

    @property
    def centre_mm(self) -> FloatArray:
        """The camera's optical centre in the table frame (3,)."""
        return self._centre  # type: ignore[attr-defined]

    @property
    def width(self) -> int:
        return self.image_size[0]

    @property
    def height(self) -> int:
        return self.image_size[1]

    # ------------------------------------------------------------------ forward
    def to_camera_frame(self, xyz_mm: ArrayLike) -> FloatArray:
        """Table points (N, 3) in the camera frame (N, 3)."""
        if type(xyz_mm) is np.ndarray and xyz_mm.ndim == 2 and xyz_mm.shape[1] == 3:
            xyz = xyz_mm if xyz_mm.dtype == np.float64 else xyz_mm.astype(np.float64)
        else:
            xyz = _points(xyz_mm, 3, "xyz_mm")
        return xyz @ self._Rt + self.tvec  # type: ignore[attr-defined]

    def distort(self, xy_norm: FloatArray) -> FloatArray:
        """Apply the lens distortion to normalised image coordinates (N, 2)."""
        k1, k2, p1, p2, k3 = self._dist  # type: ignore[attr-defined]
        x, y = xy_norm[:, 0], xy_norm[:, 1]
        r2 = x * x + y * y
        radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
        # written into one array (np.stack's checks cost more than the arithmetic for the few
        # points a fit projects at a time; the values are the same)
        out = np.empty((len(x), 2))
        out[:, 0] = x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x)
        out[:, 1] = y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y
        return out

    def _to_pixels(self, xy_dist: FloatArray) -> FloatArray:
        k00, k01, k02, k11, k12 = self._k  # type: ignore[attr-defined]
        out = np.empty((len(xy_dist), 2))
        out[:, 0] = k00 * xy_dist[:, 0] + k01 * xy_dist[:, 1] + k02
        out[:, 1] = k11 * xy_dist[:, 1] + k12
        return out

    def table_to_image(self, xyz_mm: ArrayLike) -> FloatArray:
        """Project table points (N, 3) mm to pixels (N, 2); NaN for points behind the camera.

        Compiled (:func:`calibration.projection.project`): the arithmetic of
        :meth:`to_camera_frame`, :meth:`distort` and the intrinsics, in their order."""
        if type(xyz_mm) is np.ndarray and xyz_mm.ndim == 2 and xyz_mm.shape[1] == 3:
            xyz = xyz_mm if xyz_mm.dtype == np.float64 else xyz_mm.astype(np.float64)
        else:
            xyz = _points(xyz_mm, 3, "xyz_mm")
        return project(np.ascontiguousarray(xyz), *self.projection)

    __call__ = table_to_image

    # ------------------------------------------------------------------ inverse
    def undistort(self, uv_px: ArrayLike, tol_px: float = 1e-9, max_iter: int = 50) -> FloatArray:
        """Normalised undistorted coordinates (N, 2) of pixels (N, 2), by Newton's method.

        Iterates until re-distorting reproduces every pixel to ``tol_px`` (pixels that do not
        converge, e.g. beyond the fold of a strong barrel lens, come back as NaN).
        """
        uv = _points(uv_px, 2, "uv_px")
        target = (np.column_stack([uv, np.ones(len(uv))]) @ self._Kinv.T)[:, :2]  # type: ignore[attr-defined]
        if not self.dist.any():
            return target
        k1, k2, p1, p2, k3 = self.dist
        xy = target.copy()
        scale = max(self.K[0, 0], self.K[1, 1])
        done = np.zeros(len(xy), dtype=bool)
        for _ in range(max_iter):
            x, y = xy[:, 0], xy[:, 1]
            r2 = x * x + y * y
            radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
            dradial = k1 + r2 * (2.0 * k2 + 3.0 * k3 * r2)  # d radial / d r2
            err = self.distort(xy) - target
            done = np.abs(err).max(axis=1) * scale < tol_px
            if done.all():
                break
            # Jacobian of distort at xy.
            j11 = radial + 2 * x * x * dradial + 2 * p1 * y + 6 * p2 * x
            j12 = 2 * x * y * dradial + 2 * p1 * x + 2 * p2 * y
            j21 = 2 * x * y * dradial + 2 * p1 * x + 2 * p2 * y
            j22 = radial + 2 * y * y * dradial + 6 * p1 * y + 2 * p2 * x
            det = j11 * j22 - j12 * j21
            dx = (j22 * err[:, 0] - j12 * err[:, 1]) / det
            dy = (-j21 * err[:, 0] + j11 * err[:, 1]) / det
            xy = xy - np.where(done[:, None], 0.0, np.stack([dx, dy], axis=1))
        xy[~done] = np.nan
        return xy

    def image_to_table(self, uv_px: ArrayLike, z_mm: ArrayLike = 0.0) -> FloatArray:
        """Table points (N, 2) where the rays through pixels (N, 2) meet the plane ``z = z_mm``.

        ``z_mm`` is a scalar or (N,). NaN where the ray does not reach the plane in front of
        the camera.
        """
        xy = self.undistort(uv_px)
        rays = np.column_stack([xy, np.ones(len(xy))]) @ self.R  # R^T @ ray, row-wise
        z = np.broadcast_to(np.asarray(z_mm, dtype=np.float64), (len(xy),))
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (z - self.centre_mm[2]) / rays[:, 2]
        s = np.where(s > 0, s, np.nan)
        return self.centre_mm[:2] + s[:, None] * rays[:, :2]

    inverse = image_to_table

    def residuals(self, xyz_mm: ArrayLike, uv_px: ArrayLike) -> FloatArray:
        """Reprojection residuals (N, 2): ``table_to_image(xyz_mm) - uv_px`` in pixels."""
        return self.table_to_image(xyz_mm) - _points(uv_px, 2, "uv_px")

    def pixel_size_mm(self, xyz_mm: ArrayLike) -> FloatArray:
        """Approximate size (N,) in mm of one pixel at table points (N, 3), on their plane."""
        xyz = _points(xyz_mm, 3, "xyz_mm")
        uv = self.table_to_image(xyz)
        back = self.image_to_table(uv + np.array([1.0, 0.0]), xyz[:, 2])
        return np.asarray(np.hypot(*(back - xyz[:, :2]).T))

    # ------------------------------------------------------------------ constructors
    @classmethod
    def look_at(
        cls,
        position_mm: ArrayLike,
        target_mm: ArrayLike,
        hfov_deg: float,
        image_size: tuple[int, int],
        dist: ArrayLike | None = None,
        up: ArrayLike = (0.0, 1.0, 0.0),
    ) -> Camera:
        """A camera at ``position_mm`` looking at ``target_mm`` (table frame) with square pixels.

        ``hfov_deg`` is the horizontal field of view of the undistorted pinhole. ``up`` is the
        table direction shown toward the top of the image (default +y: the far touchline at the
        top, the right goal on the right); it only needs not to be parallel to the view axis.
        """
        pos = np.asarray(position_mm, dtype=np.float64).reshape(3)
        forward = np.asarray(target_mm, dtype=np.float64).reshape(3) - pos
        if np.linalg.norm(forward) < 1e-9:
            raise CameraError("look_at: position and target coincide")
        forward /= np.linalg.norm(forward)
        right = np.cross(forward, np.asarray(up, dtype=np.float64))
        if np.linalg.norm(right) < 1e-9:
            raise CameraError("look_at: 'up' is parallel to the viewing direction")
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        rot = np.stack([right, down, forward])
        w, h = int(image_size[0]), int(image_size[1])
        if not 0.0 < hfov_deg < 180.0:
            raise CameraError(f"look_at: field 'hfov_deg' expected in (0, 180), got {hfov_deg}")
        f = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
        k = np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
        d = np.zeros(5) if dist is None else np.asarray(dist, dtype=np.float64)
        side = "right" if right[0] >= 0 else "left"
        return cls((w, h), k, d, _rotation_to_rvec(rot), -rot @ pos, right_goal_image_side=side)

    @classmethod
    def from_points(
        cls,
        xyz_mm: ArrayLike,
        uv_px: ArrayLike,
        image_size: tuple[int, int],
        *,
        intrinsics: Camera | None = None,
    ) -> CalibrationResult:
        """Estimate a camera from table points (N, 2 or 3) and their pixels (N, 2).

        The failure is a value: ``result.ok`` is False and ``result.reason`` says why (too
        few points, all on a line, ...). See :func:`calibration.estimate.from_points`.
        """
        from calibration.estimate import from_points

        return from_points(xyz_mm, uv_px, image_size, intrinsics=intrinsics)

    @classmethod
    def from_image(
        cls,
        image_bgr: ArrayLike,
        table: TableSpec,
        *,
        intrinsics: Camera | None = None,
        right_goal: str | None = None,
    ) -> CalibrationResult:
        """Estimate a camera from the field markings in a picture of ``table``.

        The failure is a value with a reason; see :func:`calibration.auto.calibrate_image`.
        """
        from calibration.auto import calibrate_image

        return calibrate_image(
            np.asarray(image_bgr), table, intrinsics=intrinsics, right_goal=right_goal
        )

    @staticmethod
    def focal_from_homography(h_mat: ArrayLike, image_size: tuple[int, int]) -> float | None:
        """The square focal length (px) that makes a plane's homography (table mm -> px) a
        rotation, the principal point at the image centre (Zhang 2000); ``None`` when the view
        is too close to straight-on for the focal length to show."""
        cx, cy = (image_size[0] - 1) / 2.0, (image_size[1] - 1) / 2.0
        shift = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]])
        h = shift @ np.asarray(h_mat, dtype=np.float64)
        h1, h2 = (h / np.linalg.norm(h))[:, 0], (h / np.linalg.norm(h))[:, 1]
        # r1.r2 = 0 and |r1| = |r2| are linear in a = 1 / f^2.
        a_coef = np.array(
            [h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2]
        )
        b_coef = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
        denom = float(a_coef @ a_coef)
        a = -float(a_coef @ b_coef) / denom if denom > 0 else -1.0
        if a <= 0:
            return None
        f = 1.0 / math.sqrt(a)
        return f if 0.2 * image_size[0] < f < 5.0 * image_size[0] else None

    @classmethod
    def from_homography(
        cls,
        h_mat: ArrayLike,
        image_size: tuple[int, int],
        f_px: float,
        dist: ArrayLike | None = None,
    ) -> Camera | None:
        """The camera (principal point at the centre) whose table plane z = 0 maps to the image
        by ``h_mat`` (table mm -> px); ``None`` when it puts the table behind the camera or
        would see it from below (a mirrored correspondence)."""
        w, h = int(image_size[0]), int(image_size[1])
        k = np.array([[f_px, 0.0, (w - 1) / 2.0], [0.0, f_px, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
        m = np.linalg.inv(k) @ np.asarray(h_mat, dtype=np.float64)
        n1, n2 = np.linalg.norm(m[:, 0]), np.linalg.norm(m[:, 1])
        if n1 < 1e-12 or n2 < 1e-12:
            return None
        m = m / math.sqrt(n1 * n2) * (1.0 if m[2, 2] >= 0 else -1.0)  # origin in front
        rot = np.column_stack([m[:, 0], m[:, 1], np.cross(m[:, 0], m[:, 1])])
        u, _, vt = np.linalg.svd(rot)
        rot = u @ vt
        if np.linalg.det(rot) < 0 or (-rot.T @ m[:, 2])[2] <= 0:
            return None
        d = np.zeros(5) if dist is None else np.asarray(dist, dtype=np.float64)
        try:
            return cls((w, h), k, d, _rotation_to_rvec(rot), m[:, 2])
        except CameraError:
            return None

    def with_focal(self, f_px: float) -> Camera:
        """The same camera with square focal length ``f_px`` (principal point unchanged)."""
        k = self.K.copy()
        k[0, 0] = k[1, 1] = f_px
        return Camera(
            self.image_size, k, self.dist, self.rvec, self.tvec, self.right_goal_image_side
        )

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The ``camera/1`` document (INTERFACES.md, "Camera")."""
        return {
            "format": FORMAT,
            "image_size": list(self.image_size),
            "K": self.K.tolist(),
            "dist": self.dist.tolist(),
            "rvec": self.rvec.tolist(),
            "tvec": self.tvec.tolist(),
            "right_goal_image_side": self.right_goal_image_side,
            "rms_px": self.rms_px,
            "rms_mm": self.rms_mm,
            "markings_used": list(self.markings_used),
        }

    @classmethod
    def from_dict(cls, d: Any, where: str = "camera") -> Camera:
        """Parse a ``camera/1`` document; :class:`CameraError` names the bad field."""
        if not isinstance(d, dict):
            raise CameraError(f"{where}: expected a JSON object, got {type(d).__name__}")
        if d.get("format") != FORMAT:
            raise CameraError(
                f"{where}: field 'format' expected {FORMAT!r}, got {d.get('format')!r}"
            )
        for key in ("image_size", "K", "dist", "rvec", "tvec"):
            if key not in d:
                raise CameraError(f"{where}: missing field '{key}'")
        size = _array(where, "image_size", d["image_size"], (2,))
        if not np.all(size > 0) or not np.all(size == np.round(size)):
            raise CameraError(
                f"{where}: field 'image_size' expected two positive integers, got {d['image_size']}"
            )
        optional: dict[str, Any] = {}
        for key in ("rms_px", "rms_mm"):
            value = d.get(key)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float)
            ):
                raise CameraError(f"{where}: field '{key}' must be a number or null, got {value!r}")
            optional[key] = None if value is None else float(value)
        used = d.get("markings_used", [])
        if not isinstance(used, list) or not all(isinstance(m, str) for m in used):
            raise CameraError(
                f"{where}: field 'markings_used' must be a list of names, got {used!r}"
            )
        side = d.get("right_goal_image_side", "right")
        try:
            return cls(
                (int(size[0]), int(size[1])),
                _array(where, "K", d["K"], (3, 3)),
                _array(where, "dist", d["dist"], (5,)),
                _array(where, "rvec", d["rvec"], (3,)),
                _array(where, "tvec", d["tvec"], (3,)),
                right_goal_image_side=side,
                markings_used=tuple(used),
                **optional,
            )
        except CameraError as exc:
            raise CameraError(str(exc).replace("Camera:", f"{where}:", 1)) from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")


def _points(value: ArrayLike, dim: int, name: str) -> FloatArray:
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 1 and arr.shape == (dim,):
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != dim:
        raise ValueError(f"{name}: expected shape (N, {dim}), got {arr.shape}")
    return arr


def load_camera(path: str | Path) -> Camera:
    """Read a ``camera/1`` JSON file; every error is a :class:`CameraError` naming the file
    (and the field)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CameraError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CameraError(f"{path}: is a directory, not a camera file") from None
    except OSError as exc:
        raise CameraError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise CameraError(f"{path}: not a JSON text file") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CameraError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return Camera.from_dict(doc, where=str(path))


def save_camera(camera: Camera, path: str | Path) -> None:
    camera.save(path)


# ---------------------------------------------------------------------- presets
def _fit_focal(cam: Camera, xyz_mm: FloatArray, margin: float = 0.96) -> Camera:
    """Largest square focal length keeping ``xyz_mm`` inside ``margin`` of the image.

    Distortion acts on normalised coordinates, which the focal length does not change, so one
    pass is exact.
    """
    w, h = cam.image_size
    cx, cy = cam.K[0, 2], cam.K[1, 2]
    pc = cam.to_camera_frame(xyz_mm)
    xy = cam.distort(pc[:, :2] / pc[:, 2:3])
    with np.errstate(divide="ignore"):
        fx = np.min(np.where(xy[:, 0] > 0, (w - 1 - cx), cx) / np.abs(xy[:, 0]))
        fy = np.min(np.where(xy[:, 1] > 0, (h - 1 - cy), cy) / np.abs(xy[:, 1]))
    return cam.with_focal(margin * float(min(fx, fy)))


def preset_camera(
    name: str,
    table: Any,
    image_size: tuple[int, int] = (1280, 720),
    tilt_deg: float | None = None,
) -> Camera:
    """A preset camera over ``table`` (a :class:`geometry.tablespec.TableSpec`).

    - ``overhead``: 1.6 m above the centre mark, looking straight down.
    - ``tilted``: from the near (coach's) side and a little left of centre, its axis
      ``tilt_deg`` (default 20) from the vertical, aimed at a point 100 mm right of the centre.
    - ``wide``: 1.5 m above the centre, a barrel lens with ``k1 = -0.2`` (from lower, the image
      corners would lie beyond the radius where this polynomial folds back, r = 1.29).

    Each focal length is fitted so the rail box (``table.rail_box``) fills the image with a 4%
    margin; the far touchline is at the top of the image, the right goal on the right.
    """
    x0, y0, x1, y1 = table.rail_box
    corners = np.array([[x, y, 0.0] for x in (x0, x1) for y in (y0, y1)])
    edges = np.concatenate(
        [np.linspace(corners[i], corners[j], 33) for i, j in ((0, 1), (1, 3), (3, 2), (2, 0))]
    )
    dist = None
    if name == "overhead":
        cam = Camera.look_at((0.0, 0.0, 1600.0), (0.0, 0.0, 0.0), 60.0, image_size)
    elif name == "tilted":
        tilt = math.radians(20.0 if tilt_deg is None else tilt_deg)
        target = np.array([100.0, 0.0, 0.0])
        away = np.array([-0.25, -1.0]) / math.hypot(0.25, 1.0)  # toward the near-left side
        pos = target + 1700.0 * np.array([*(math.sin(tilt) * away), math.cos(tilt)])
        cam = Camera.look_at(pos, target, 60.0, image_size)
    elif name == "wide":
        dist = np.array([-0.2, 0.0, 0.0, 0.0, 0.0])
        cam = Camera.look_at((0.0, 0.0, 1500.0), (0.0, 0.0, 0.0), 80.0, image_size, dist=dist)
    else:
        raise CameraError(f"camera preset: expected one of {CAMERA_PRESETS}, got {name!r}")
    return _fit_focal(cam, edges)
