"""Manual calibration fallback: a camera from point pairs (``botao calibrate --points``).

When the automatic calibration cannot see the markings, give pairs of an image pixel and the
table point it shows, in a ``points/1`` JSON file::

    {"format": "points/1",
     "image_size": [1920, 1080],
     "pairs": [
       {"name": "centre_mark", "uv": [961.5, 540.2], "xyz": [0, 0, 0]},
       {"name": "corner_far_right", "uv": [1710.0, 95.5], "xyz": [1000, 700, 0]},
       ...]}

``uv`` is the pixel (OpenCV: pixel centres at integers, y down), ``xyz`` the table point in
millimetres (INTERFACES.md table frame: origin at the centre mark, +x toward the right goal,
+y toward the far touchline, +z up); ``name`` is optional. At least 6 pairs, spread over the
field; a few off the table plane (the tops of the posts, ``z = goal_height``) pin down the focal
length when the camera looks straight down. With known intrinsics (``--intrinsics``) the pose
comes from ``cv2.solvePnP``; without, ``cv2.calibrateCamera`` fits one focal length (principal
point fixed at the image centre), plus ``k1`` from 12 pairs and ``k2`` from 24; when the pairs
cannot tell the focal length (a straight-down view of the plane alone) a typical webcam's is
assumed and the fit says so.

A click-to-pick window (:func:`pick_points`) writes such a file: it asks for the standard points
of :func:`standard_points` one by one (click it, ``s`` skips, ``u`` undoes, ``q`` or Esc ends).
It needs a display and an OpenCV build with a GUI (``opencv-python``, not the headless wheel);
without them it says so, and the file can be written by hand.
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera
from geometry.field import FieldModel
from geometry.tablespec import TableSpec

__all__ = [
    "FORMAT",
    "PointPairs",
    "PointsError",
    "PointsFit",
    "camera_from_points",
    "load_points",
    "pick_points",
    "points_from_dict",
    "standard_points",
]

FORMAT = "points/1"
MIN_PAIRS = 6
PRIOR_HFOV_DEG = 65.0  # assumed when the pairs cannot tell the focal length
FloatArray = NDArray[np.float64]


class PointsError(ValueError):
    """Point pairs that cannot be used; the message names the file and the field."""


@dataclass(frozen=True)
class PointPairs:
    """``uv_px`` (N, 2) pixels and ``xyz_mm`` (N, 3) table points, in an ``image_size`` image."""

    image_size: tuple[int, int]
    uv_px: FloatArray
    xyz_mm: FloatArray
    names: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "image_size": list(self.image_size),
            "pairs": [
                {"name": n, "uv": uv.tolist(), "xyz": xyz.tolist()}
                for n, uv, xyz in zip(self.names, self.uv_px, self.xyz_mm, strict=True)
            ],
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")


def _numbers(where: str, value: Any, n: int) -> list[float]:
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        or not all(math.isfinite(v) for v in value)
    ):
        raise PointsError(f"{where}: expected {n} finite numbers, got {value!r}")
    return [float(v) for v in value]


def points_from_dict(doc: Any, where: str = "points") -> PointPairs:
    """Parse a ``points/1`` document; :class:`PointsError` names the bad field."""
    if not isinstance(doc, dict):
        raise PointsError(f"{where}: expected a JSON object, got {type(doc).__name__}")
    if doc.get("format") != FORMAT:
        raise PointsError(f"{where}: field 'format' expected {FORMAT!r}, got {doc.get('format')!r}")
    for key in ("image_size", "pairs"):
        if key not in doc:
            raise PointsError(f"{where}: missing field '{key}'")
    w, h = _numbers(f"{where}: field 'image_size'", doc["image_size"], 2)
    if w < 1 or h < 1 or w != int(w) or h != int(h):
        raise PointsError(f"{where}: field 'image_size' expected two positive integers")
    pairs = doc["pairs"]
    if not isinstance(pairs, list):
        raise PointsError(f"{where}: field 'pairs' expected a list, got {type(pairs).__name__}")
    uv, xyz, names = [], [], []
    for i, p in enumerate(pairs):
        at = f"{where}: pairs[{i}]"
        if not isinstance(p, dict):
            raise PointsError(f"{at}: expected an object with 'uv' and 'xyz'")
        for key in ("uv", "xyz"):
            if key not in p:
                raise PointsError(f"{at}: missing field '{key}'")
        uv.append(_numbers(f"{at}.uv", p["uv"], 2))
        xyz.append(_numbers(f"{at}.xyz", p["xyz"], 3))
        name = p.get("name", f"pair{i}")
        if not isinstance(name, str):
            raise PointsError(f"{at}.name: expected a string, got {name!r}")
        names.append(name)
        if not (-0.5 <= uv[-1][0] <= w - 0.5 and -0.5 <= uv[-1][1] <= h - 0.5):
            raise PointsError(f"{at}.uv: {uv[-1]} is outside the {int(w)}x{int(h)} image")
    if len(uv) < MIN_PAIRS:
        raise PointsError(f"{where}: field 'pairs' needs at least {MIN_PAIRS} pairs, got {len(uv)}")
    xyz_arr = np.array(xyz)
    spread = np.linalg.svd(xyz_arr - xyz_arr.mean(axis=0), compute_uv=False)
    if spread[1] < 1e-6 * max(spread[0], 1.0):
        raise PointsError(f"{where}: field 'pairs': the table points are all on one line")
    return PointPairs((int(w), int(h)), np.array(uv), xyz_arr, tuple(names))


def load_points(path: str | Path) -> PointPairs:
    """Read a ``points/1`` file; errors name the file and the field."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PointsError(f"{path}: no such file") from None
    except json.JSONDecodeError as exc:
        raise PointsError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return points_from_dict(doc, where=str(path))


@dataclass(frozen=True)
class PointsFit:
    """The camera fitted to point pairs and how well it fits.

    ``residuals_px`` / ``residuals_mm`` per pair (the latter measured on the pair's own plane
    ``z``); ``focal_sigma`` the relative 1-sigma uncertainty of the focal length (NaN when the
    intrinsics were given); ``warnings`` what a user should know (e.g. an uncertain focal).
    """

    camera: Camera
    residuals_px: FloatArray
    residuals_mm: FloatArray
    focal_sigma: float
    warnings: tuple[str, ...]


def _side(camera: Camera) -> str:
    uv = camera.table_to_image(np.array([[0.0, 0.0, 0.0], [100.0, 0.0, 0.0]]))
    return "right" if uv[1, 0] >= uv[0, 0] else "left"


def camera_from_points(
    pairs: PointPairs, intrinsics: Camera | None = None, where: str = "points"
) -> PointsFit:
    """Fit a camera to point pairs (see the module docstring)."""
    obj = pairs.xyz_mm.astype(np.float32).reshape(-1, 1, 3)
    img = pairs.uv_px.astype(np.float32).reshape(-1, 1, 2)
    w, h = pairs.image_size
    n = len(pairs.uv_px)
    warnings: list[str] = []
    sigma = math.nan
    if intrinsics is not None:
        if intrinsics.image_size != pairs.image_size:
            iw, ih = intrinsics.image_size
            raise PointsError(
                f"{where}: field 'image_size' {w}x{h} differs from the intrinsics' {iw}x{ih}"
            )
        k, dist = intrinsics.K, intrinsics.dist
        ok, rvec, tvec = cv2.solvePnP(obj, img, k, dist, flags=cv2.SOLVEPNP_SQPNP)
        if not ok:
            raise PointsError(f"{where}: field 'pairs': solvePnP found no pose")
        rvec, tvec = cv2.solvePnPRefineLM(obj, img, k, dist, rvec, tvec)
    else:
        k, dist, rvec, tvec, sigma = _calibrate_one_view(obj, img, (w, h), n)
        if not sigma < 0.2:
            warnings.append(
                f"the focal length is not determined by these pairs: assumed a horizontal field "
                f"of view of {PRIOR_HFOV_DEG:.0f} deg; heights above the table will be off. Add "
                "pairs off the table plane (post tops) or give --intrinsics"
            )
        elif sigma > 0.03:
            warnings.append(
                f"the focal length is uncertain ({sigma:.0%}): add pairs off the table plane "
                "(post tops) or from a tilted view"
            )
    cam = Camera(
        (w, h),
        np.asarray(k, float),
        np.asarray(dist, float).reshape(-1)[:5],
        np.asarray(rvec, float).reshape(3),
        np.asarray(tvec, float).reshape(3),
    )
    res_px = np.hypot(*cam.residuals(pairs.xyz_mm, pairs.uv_px).T)
    back = cam.image_to_table(pairs.uv_px, pairs.xyz_mm[:, 2])
    res_mm = np.hypot(*(back - pairs.xyz_mm[:, :2]).T)
    if not np.isfinite(res_px).all() or not np.isfinite(res_mm).all():
        raise PointsError(f"{where}: field 'pairs': the fitted camera does not see every point")
    cam = Camera(
        cam.image_size,
        cam.K,
        cam.dist,
        cam.rvec,
        cam.tvec,
        right_goal_image_side=_side(cam),
        rms_px=float(np.sqrt(np.mean(res_px**2))),
        rms_mm=float(np.sqrt(np.mean(res_mm**2))),
    )
    return PointsFit(cam, res_px, res_mm, sigma, tuple(warnings))


def _calibrate_one_view(
    obj: NDArray[np.float32], img: NDArray[np.float32], size: tuple[int, int], n: int
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, float]:
    """Focal length (and k1, k2 when there are enough pairs) and pose from one view.

    The focal length starts from the best of a sweep of fields of view (one ``solvePnP`` each),
    so a poor first guess cannot trap the fit in a wrong minimum.
    """
    w, h = size
    centre = ((w - 1) / 2.0, (h - 1) / 2.0)
    best: tuple[float, float, Any, Any] = (math.inf, float(w), None, None)
    for hfov in np.linspace(20.0, 140.0, 25):
        f = (w / 2.0) / math.tan(math.radians(hfov) / 2.0)
        k0 = np.array([[f, 0, centre[0]], [0, f, centre[1]], [0, 0, 1.0]])
        ok, rv, tv = cv2.solvePnP(obj, img, k0, None, flags=cv2.SOLVEPNP_SQPNP)
        if not ok:
            continue
        proj, _ = cv2.projectPoints(obj, rv, tv, k0, None)
        err = float(np.sqrt(np.mean((proj.reshape(-1, 2) - img.reshape(-1, 2)) ** 2)))
        if err < best[0]:
            best = (err, f, rv, tv)
    _, f, rv, tv = best
    if rv is None:
        rv, tv = np.zeros(3), np.array([0.0, 0.0, 1000.0])
    free = (n >= 12, n >= 24)  # k1 with 12 pairs, k2 with 24
    k, dist, rvec, tvec = _refine(obj, img, centre, f, rv, tv, free, fix_focal=False)
    n_params = 7 + int(free[0]) + int(free[1])
    sigma = _focal_sigma(obj, img, k, dist, n_params)
    if not sigma < 0.2:  # the focal length is not determined: assume a typical webcam's
        f = (w / 2.0) / math.tan(math.radians(PRIOR_HFOV_DEG) / 2.0)
        ok, rv, tv = cv2.solvePnP(
            obj,
            img,
            np.array([[f, 0, centre[0]], [0, f, centre[1]], [0, 0, 1.0]]),
            None,
            flags=cv2.SOLVEPNP_SQPNP,
        )
        k, dist, rvec, tvec = _refine(obj, img, centre, f, rv, tv, free, fix_focal=True)
    return k, dist, rvec, tvec, sigma


def _refine(
    obj: NDArray[np.float32],
    img: NDArray[np.float32],
    centre: tuple[float, float],
    f0: float,
    rvec0: Any,
    tvec0: Any,
    free_k: tuple[bool, bool],
    fix_focal: bool,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Focal length, k1, k2 and pose by least squares on the reprojection error, from the
    SQPnP pose (in front of the camera). Not ``cv2.calibrateCamera``: from one non-planar
    view its own pose initialisation can land on the mirror image behind the camera."""
    from scipy.optimize import least_squares

    pts = obj.reshape(-1, 3).astype(np.float64)
    uv = img.reshape(-1, 2).astype(np.float64)

    def unpack(x: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        f = f0 if fix_focal else f0 * math.exp(x[0])
        k = np.array([[f, 0.0, centre[0]], [0.0, f, centre[1]], [0.0, 0.0, 1.0]])
        dist = np.zeros(5)
        dist[0] = x[1] if free_k[0] else 0.0
        dist[1] = x[2] if free_k[1] else 0.0
        return k, dist, x[3:6], x[6:9]

    def resid(x: FloatArray) -> FloatArray:
        k, dist, rv, tv = unpack(x)
        proj, _ = cv2.projectPoints(pts, rv, tv, k, dist)
        return np.asarray((proj.reshape(-1, 2) - uv).ravel(), dtype=np.float64)

    x0 = np.concatenate([[0.0, 0.0, 0.0], np.ravel(rvec0), np.ravel(tvec0)]).astype(np.float64)
    sol = least_squares(resid, x0, method="lm", x_scale="jac")
    return unpack(sol.x)


def _focal_sigma(
    obj: NDArray[np.float32], img: NDArray[np.float32], k: FloatArray, dist: FloatArray, p: int
) -> float:
    """Relative 1-sigma of the focal length from its profile: the best pose at f (1 + d).

    The residual sum of squares grows as ``S_min + a d^2``; with the noise variance
    ``S_min / (2n - p)`` the 1-sigma interval is ``sqrt(var / a)``. A straight-down view of
    planar points leaves ``a`` near 0 (any focal length fits, at another height).
    """
    d = np.linspace(-0.06, 0.06, 7)
    sums = []
    for di in d:
        kk = np.array(k, float)
        kk[0, 0] *= 1 + di
        kk[1, 1] *= 1 + di
        ok, rv, tv = cv2.solvePnP(obj, img, kk, dist, flags=cv2.SOLVEPNP_SQPNP)
        if not ok:
            return math.inf
        rv, tv = cv2.solvePnPRefineLM(obj, img, kk, dist, rv, tv)
        proj, _ = cv2.projectPoints(obj, rv, tv, kk, dist)
        sums.append(float(((proj.reshape(-1, 2) - img.reshape(-1, 2)) ** 2).sum()))
    a = float(np.polyfit(d, sums, 2)[0])
    n = len(obj)
    var = max(min(sums) / max(2 * n - p, 1), 0.05**2)  # no better than 0.05 px noise
    return math.sqrt(var / a) if a > 0 else math.inf


# ---------------------------------------------------------------------- click to pick
def standard_points(table: TableSpec) -> dict[str, tuple[float, float, float]]:
    """Points easy to click on any table: marks, line corners, post tops (z = goal height)."""
    fm = FieldModel(table)
    hl, hw = table.half_length, table.half_width
    pts: dict[str, tuple[float, float, float]] = {"centre_mark": (0.0, 0.0, 0.0)}
    for side, s in (("left", -1.0), ("right", 1.0)):
        pts[f"penalty_mark_{side}"] = (*fm.penalty_mark(side), 0.0)
        for end, e in (("near", -1.0), ("far", 1.0)):
            pts[f"corner_{end}_{side}"] = (s * hl, e * hw, 0.0)
            x0, y0, x1, y1 = fm.penalty_area_box(side)
            pts[f"penalty_area_{end}_{side}"] = (x0 if s < 0 else x1, e * (y1 - y0) / 2, 0.0)
        for (cx, cy), end in zip(fm.post_centres(side), ("near", "far"), strict=True):
            pts[f"post_top_{end}_{side}"] = (cx, cy, table.goal_height)
    pts["halfway_near"] = (0.0, -hw, 0.0)
    pts["halfway_far"] = (0.0, hw, 0.0)
    return pts


def pick_points(image_bgr: NDArray[np.uint8], table: TableSpec) -> PointPairs:
    """Ask for the :func:`standard_points` in a window, one click each (see the module doc)."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        raise PointsError("click-to-pick: no display (DISPLAY is not set); write the file by hand")
    todo = list(standard_points(table).items())
    clicks: list[tuple[str, tuple[float, float]]] = []
    title = "botao: click the point named at the top"
    try:
        cv2.namedWindow(title, cv2.WINDOW_NORMAL)
    except cv2.error:
        raise PointsError(
            "click-to-pick: this OpenCV has no GUI (opencv-python-headless); write the file by hand"
        ) from None
    last: list[tuple[float, float]] = []
    cv2.setMouseCallback(
        title, lambda ev, x, y, *_: last.append((x, y)) if ev == cv2.EVENT_LBUTTONDOWN else None
    )
    i = 0
    while i < len(todo):
        shown = image_bgr.copy()
        for _, (u, v) in clicks:
            cv2.circle(shown, (int(u), int(v)), 6, (0, 0, 255), 2)
        cv2.putText(
            shown,
            f"{todo[i][0]}  (s skip, u undo, q done)",
            (20, 40),
            cv2.FONT_HERSHEY_SIMPLEX,
            1.0,
            (0, 255, 255),
            2,
        )
        cv2.imshow(title, shown)
        key = cv2.waitKey(30) & 0xFF
        if last:
            clicks.append((todo[i][0], last.pop()))
            i += 1
        elif key == ord("s"):
            i += 1
        elif key == ord("u") and clicks:
            name = clicks.pop()[0]
            i = [n for n, _ in todo].index(name)
        elif key in (ord("q"), 27):
            break
    cv2.destroyWindow(title)
    table_pts = dict(todo)
    h, w = image_bgr.shape[:2]
    return points_from_dict(
        {
            "format": FORMAT,
            "image_size": [w, h],
            "pairs": [
                {"name": n, "uv": [float(u), float(v)], "xyz": list(table_pts[n])}
                for n, (u, v) in clicks
            ],
        },
        where="click-to-pick",
    )
