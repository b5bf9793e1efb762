"""Estimating a camera: the field's model curves, cameras from homographies and point pairs, and
the robust non-linear least-squares fit every calibration ends with.

The fit (:func:`fit_camera`) adjusts focal length, radial distortion (k1, k2; optionally p1,
p2, k3) and pose by robust Levenberg-Marquardt (scipy's ``soft_l1``/``huber`` losses, solved on
the small normal equations). It takes point pairs (residual: the 2D reprojection error) or
points matched to model curves (residual: the distance across the curve, so a point may slide
along its line). The principal point stays at the image centre: one image of a plane cannot
pin it down.

Failures are values: :class:`CalibrationResult` carries ``camera = None`` and a one-line
``reason`` a user understands.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

from calibration.camera import Camera
from geometry.tablespec import TableSpec

__all__ = [
    "CalibrationResult",
    "ModelCurves",
    "cameras_from_quad",
    "default_focal",
    "fit_camera",
    "focal_sigma",
    "from_points",
    "model_curves",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]
NAN = float("nan")


@dataclass(frozen=True)
class CalibrationResult:
    """The outcome of a calibration: a camera and its quality, or why there is none.

    ``reason`` is empty on success; ``rms_px`` the RMS distance (px) of the matched marking
    points to the fitted model, ``rms_mm`` the same measured on the table, ``per_marking_px``
    that RMS per marking (the painted markings, by their :class:`geometry.field.FieldModel`
    names, and the crossbars ``crossbar_left``/``crossbar_right`` when the goals were used),
    ``per_marking_mm`` the RMS on the table per painted marking, ``markings_used`` the painted
    markings matched, ``found_share`` the share of the painted markings' length found in the
    image and ``found_by_marking`` that share per painted marking. A refused fit (cut off,
    wrong table) keeps its camera in ``rejected``.
    """

    camera: Camera | None
    reason: str = ""
    rms_px: float = NAN
    rms_mm: float = NAN
    markings_used: tuple[str, ...] = ()
    per_marking_px: dict[str, float] = field(default_factory=dict)
    found_share: float = 0.0
    rejected: Camera | None = None  # the fit a failure refused (for the debug picture)
    per_marking_mm: dict[str, float] = field(default_factory=dict)
    found_by_marking: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.camera is not None and not self.reason

    @classmethod
    def failure(cls, reason: str, **kw: object) -> CalibrationResult:
        return cls(None, reason, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- the field's model
@dataclass(frozen=True)
class ModelCurves:
    """Dense samples of the centre lines of a table's markings, in the table frame.

    ``xyz_mm`` (M, 3) samples, ``tangent`` (M, 3) unit tangents, ``marking`` (M,) the index of
    each sample's marking in ``names``; ``step_mm`` the spacing along each curve.
    """

    names: tuple[str, ...]
    xyz_mm: FloatArray
    tangent: FloatArray
    marking: IntArray
    step_mm: float

    def __len__(self) -> int:
        return len(self.xyz_mm)

    def lengths_mm(self) -> FloatArray:
        """Length (mm) of each marking's centre line."""
        return np.bincount(self.marking, minlength=len(self.names)).astype(float) * self.step_mm


def _segment(
    p0: Sequence[float], p1: Sequence[float], step: float
) -> tuple[FloatArray, FloatArray]:
    a, b = np.asarray(p0, float), np.asarray(p1, float)
    length = float(np.linalg.norm(b - a))
    n = max(math.ceil(length / step), 1)
    t = (np.arange(n) + 0.5) / n
    pts = a + t[:, None] * (b - a)
    tan = np.broadcast_to((b - a) / length, pts.shape)
    return pts, np.array(tan)


def _arc(
    cx: float, cy: float, r: float, a0: float, a1: float, step: float
) -> tuple[FloatArray, FloatArray]:
    n = max(math.ceil(r * abs(a1 - a0) / step), 1)
    ang = a0 + (np.arange(n) + 0.5) / n * (a1 - a0)
    pts = np.column_stack([cx + r * np.cos(ang), cy + r * np.sin(ang)])
    tan = np.column_stack([-np.sin(ang), np.cos(ang)])
    return pts, tan


def model_curves(table: TableSpec, step_mm: float = 1.0, goals: bool = False) -> ModelCurves:
    """The centre lines of the painted markings of ``table`` (geometry/field.py's strips).

    Every marking is a strip ``line_width`` wide that lies inside the region it bounds
    (INTERFACES.md), so its centre line is ``line_width / 2`` inside the region's edge. Filled
    marks (the centre and penalty marks) and the posts are left out: they are points, not
    curves; a gaúcha centre "mark" is a small circle (001 Art. V d) and is kept.

    ``goals`` adds the crossbars (``crossbar_left``, ``crossbar_right``): their axes from post
    centre to post centre at ``goal_height`` (000 REGRA 1, METAS: "da barra à mesa 49 mm"),
    the only markings off the table's plane - seen from straight above, the plane shows
    focal length / distance only, the crossbar's parallax shows both.
    """
    sp = table
    hl, hw, lw = sp.half_length, sp.half_width, sp.line_width
    h = lw / 2.0
    parts: dict[str, list[tuple[FloatArray, FloatArray]]] = {}

    def add(name: str, seg: tuple[FloatArray, FloatArray]) -> None:
        parts.setdefault(name, []).append(seg)

    bx, by = hl - h, hw - h
    for p0, p1 in (
        ((-bx, -by), (bx, -by)),
        ((bx, -by), (bx, by)),
        ((bx, by), (-bx, by)),
        ((-bx, by), (-bx, -by)),
    ):
        add("boundary", _segment(p0, p1, step_mm))
    add("halfway", _segment((0.0, -by), (0.0, by), step_mm))
    add("center_circle", _arc(0.0, 0.0, sp.center_circle_radius - h, 0.0, 2 * math.pi, step_mm))
    cm = sp.center_mark_diameter / 2.0
    if cm > 4 * lw:
        add("center_mark", _arc(0.0, 0.0, cm - h, 0.0, 2 * math.pi, step_mm))
    for side, s in (("left", -1.0), ("right", 1.0)):
        for name, area in (("goal_area", sp.goal_area), ("penalty_area", sp.penalty_area)):
            yb, xb = area.width / 2.0 - h, s * (hl - area.depth + h)
            add(f"{name}_{side}", _segment((xb, -yb), (xb, yb), step_mm))
            for sy in (-1.0, 1.0):
                add(f"{name}_{side}", _segment((xb, sy * yb), (s * bx, sy * yb), step_mm))
        # The meia-lua: its part outside the penalty area (toward the halfway line).
        cx, r = s * (hl - sp.arc_center_distance), sp.penalty_arc_radius - h
        cos_lim = (sp.arc_center_distance - sp.penalty_area.depth) / r
        if cos_lim > -1.0:
            half = math.acos(max(-1.0, min(1.0, -cos_lim)))  # half-angle around the inward ray
            mid = math.pi if s > 0 else 0.0
            add(f"penalty_arc_{side}", _arc(cx, 0.0, r, mid - half, mid + half, step_mm))
    for k, (sx, sy) in enumerate((sx, sy) for sx in (-1, 1) for sy in (-1, 1)):
        # The quarter of the corner circle that lies inside the field.
        start = {(1, 1): math.pi, (1, -1): math.pi / 2, (-1, 1): 1.5 * math.pi, (-1, -1): 0.0}[
            (sx, sy)
        ]
        add(
            f"corner_arc_{k}",
            _arc(sx * hl, sy * hw, sp.corner_arc_radius - h, start, start + math.pi / 2, step_mm),
        )
    if goals:
        r = sp.post_diameter / 2.0
        yb = sp.goal_width / 2.0 + r
        for side, s in (("left", -1.0), ("right", 1.0)):
            add(f"crossbar_{side}", _segment((s * (hl + r), -yb), (s * (hl + r), yb), step_mm))
    names = tuple(parts)
    pts, tans, idx = [], [], []
    for i, name in enumerate(names):
        for p, t in parts[name]:
            pts.append(p)
            tans.append(t)
            idx.append(np.full(len(p), i, np.intp))
    xy = np.concatenate(pts)
    tan2 = np.concatenate(tans)
    marking = np.concatenate(idx)
    z = np.zeros(len(xy))
    for i, name in enumerate(names):
        if name.startswith("crossbar"):
            z[marking == i] = sp.goal_height
    return ModelCurves(
        names,
        np.column_stack([xy, z]),
        np.column_stack([tan2, np.zeros(len(xy))]),
        marking,
        step_mm,
    )


# ---------------------------------------------------------------------- initial cameras
def default_focal(image_size: tuple[int, int], hfov_deg: float = 65.0) -> float:
    """A focal length (px) for a typical webcam's horizontal field of view."""
    return image_size[0] / 2.0 / math.tan(math.radians(hfov_deg) / 2.0)


def cameras_from_quad(
    quad: FloatArray,
    half: tuple[float, float],
    image_size: tuple[int, int],
    intrinsics: Camera | None,
) -> list[Camera]:
    """Cameras mapping the rectangle ``+-half`` (mm) onto ``quad``, one per way its long
    axis can lie.

    Of the 8 cyclic matchings, the mirrored ones put the camera under the table and are
    dropped; the rest come in pairs related by the field's 180 deg symmetry, one of each kept.
    """
    bx, by = half
    model = np.array([[-bx, -by], [bx, -by], [bx, by], [-bx, by]], np.float32)
    out: list[Camera] = []
    for shift in (0, 1):
        for sense in (1, -1):
            order = [(shift + sense * i) % 4 for i in range(4)]
            hmat = cv2.getPerspectiveTransform(model, quad[order].astype(np.float32))
            if intrinsics is not None:
                cam = pose_from_corners(intrinsics, model, quad[order])
            else:
                f = Camera.focal_from_homography(hmat, image_size) or default_focal(image_size)
                cam = Camera.from_homography(hmat, image_size, f)
            if cam is not None:
                out.append(cam)
                break
    return out


def pose_from_corners(intr: Camera, model: NDArray[np.float32], quad: FloatArray) -> Camera | None:
    xyz = np.column_stack([model, np.zeros(4)]).astype(np.float64)
    ok, rvec, tvec = cv2.solvePnP(
        xyz, quad.astype(np.float64), intr.K, intr.dist, flags=cv2.SOLVEPNP_IPPE
    )
    if not ok:
        return None
    cam = Camera(intr.image_size, intr.K, intr.dist, vec3(rvec), vec3(tvec))
    return cam if cam.centre_mm[2] > 0 else None


# ---------------------------------------------------------------------- the fit
_DIST_INDEX = {"k1": 0, "k2": 1, "p1": 2, "p2": 3, "k3": 4}
_INTRINSICS = ("f", "cx", "cy", *_DIST_INDEX)
# cv2.projectPoints' Jacobian columns: rvec 0-2, tvec 3-5, fx fy 6-7, cx cy 8-9, dist 10-14.
_JAC_COLUMNS = {"cx": 8, "cy": 9, **{n: 10 + i for n, i in _DIST_INDEX.items()}}


def _pack(cam: Camera, free: tuple[str, ...]) -> FloatArray:
    """Parameters: rvec (3), tvec (3), then the free intrinsics in ``_INTRINSICS`` order."""
    where = {"f": cam.K[0, 0], "cx": cam.K[0, 2], "cy": cam.K[1, 2]}
    vals = [where[n] if n in where else cam.dist[_DIST_INDEX[n]] for n in free]
    return np.array([*cam.rvec, *cam.tvec, *vals])


def _unpack(
    x: FloatArray, cam: Camera, free: tuple[str, ...]
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    k = cam.K.copy()
    dist = cam.dist.copy()
    for n, v in zip(free, x[6:], strict=True):
        if n == "f":
            k[0, 0] = k[1, 1] = v
        elif n in ("cx", "cy"):
            k[0 if n == "cx" else 1, 2] = v
        else:
            dist[_DIST_INDEX[n]] = v
    return k, dist, x[0:3], x[3:6]


def fit_camera(
    camera: Camera,
    xyz_mm: FloatArray,
    uv_px: FloatArray,
    normal: FloatArray | None = None,
    free: tuple[str, ...] = ("f", "k1", "k2"),
    loss: str = "soft_l1",
    f_scale_px: float = 1.0,
    max_nfev: int = 50,
    focal_prior: tuple[float, float] | None = None,
    weight: FloatArray | None = None,
    priors: dict[str, tuple[float, float]] | None = None,
) -> tuple[Camera, FloatArray]:
    """Refine ``camera`` so ``xyz_mm`` (N, 3) project onto ``uv_px`` (N, 2).

    With ``normal`` (N, 2) the residual of a point is its distance along ``normal`` (across the
    model curve at the point), else the 2D reprojection error. The pose is always fitted;
    ``free`` names the intrinsics fitted with it: ``f``, ``cx``, ``cy`` (the principal point),
    ``k1``, ``k2``, ``p1``, ``p2``, ``k3``. ``priors`` maps a free intrinsic to ``(mean,
    sigma)``, adding ``((value - mean) / sigma)**2`` to the cost; ``focal_prior`` is the one on
    ``f``: a view straight down on a plane shows only focal length / distance, and without it
    the fit drifts along that valley. The focal length stays within 0.2 to 5 image widths.
    ``weight`` (N,) scales each point's residual (1 / its error's scale). Returns the fitted
    camera and the final (unweighted) residuals (N,) or (N, 2) in pixels.
    """
    unknown = set(free) - set(_INTRINSICS)
    if unknown:
        raise ValueError(f"free: unknown parameter {sorted(unknown)[0]!r}, expected {_INTRINSICS}")
    free = tuple(n for n in _INTRINSICS if n in free)
    xyz = np.ascontiguousarray(xyz_mm, np.float64)
    uv = np.asarray(uv_px, np.float64)

    def project(x: FloatArray, jac: bool) -> tuple[FloatArray, FloatArray | None]:
        return _projection(x, camera, free, xyz, jac)

    wv = np.ones(len(xyz)) if weight is None else np.asarray(weight, np.float64)
    if normal is None:
        wv = np.repeat(wv, 2)

    def raw(x: FloatArray) -> FloatArray:
        p, _ = project(x, False)
        d = p - uv
        return (d * normal).sum(axis=1) if normal is not None else d.ravel()

    def fun(x: FloatArray) -> FloatArray:
        return raw(x) * wv

    def jac(x: FloatArray) -> FloatArray:
        _, j = project(x, True)
        assert j is not None
        if normal is None:
            return j * wv[:, None]
        j3 = j.reshape(-1, 2, j.shape[1])
        return (j3[:, 0] * normal[:, :1] + j3[:, 1] * normal[:, 1:2]) * wv[:, None]

    x0 = _pack(camera, free)
    mean = np.zeros(len(x0))
    inv_var = np.zeros(len(x0))
    lo, hi = np.full(len(x0), -np.inf), np.full(len(x0), np.inf)
    wanted = dict(priors or {})
    if focal_prior is not None:
        wanted["f"] = focal_prior
    for i, n in enumerate(free):
        if n in wanted:
            mean[6 + i], inv_var[6 + i] = wanted[n][0], 1.0 / wanted[n][1] ** 2
        if n == "f":
            w = float(max(camera.image_size))
            lo[6 + i], hi[6 + i] = 0.2 * w, 5.0 * w
    x, _, _ = _levenberg_marquardt(
        fun, jac, x0, loss, f_scale_px, max_nfev, (mean, inv_var), (lo, hi)
    )
    k, dist, rvec, tvec = _unpack(x, camera, free)
    fitted = Camera(camera.image_size, k, dist, rvec, tvec, camera.right_goal_image_side)
    r = raw(x)
    return fitted, r if normal is not None else r.reshape(-1, 2)


def _projection(
    x: FloatArray, camera: Camera, free: tuple[str, ...], xyz: FloatArray, jac: bool
) -> tuple[FloatArray, FloatArray | None]:
    """Pixels (N, 2) of ``xyz`` under parameters ``x``, and their Jacobian (2N, P)."""
    k, dist, rvec, tvec = _unpack(x, camera, free)
    proj, j = cv2.projectPoints(xyz, rvec, tvec, k, dist)
    if not jac:
        return proj[:, 0].astype(np.float64), None
    j = np.asarray(j, np.float64)
    cols = [j[:, 6] + j[:, 7] if n == "f" else j[:, _JAC_COLUMNS[n]] for n in free]
    return proj[:, 0].astype(np.float64), np.column_stack([j[:, :6], *cols])


def focal_sigma(
    camera: Camera,
    xyz_mm: FloatArray,
    uv_px: FloatArray,
    normal: FloatArray,
    free: tuple[str, ...] = ("f", "k1", "k2", "cx", "cy"),
    f_scale_px: float = 0.5,
) -> float:
    """The focal length's relative 1-sigma that points on curves determine at ``camera``.

    Nominal: as if every point's error were independent (neighbouring line centres share
    pixels, so the real one is a few times larger); it tells a view that shows the focal
    length (tilted) from one that hardly does (straight down on a plane).
    """
    free = tuple(n for n in _INTRINSICS if n in set(free) | {"f"})
    xyz = np.ascontiguousarray(xyz_mm, np.float64)
    uv, j = _projection(_pack(camera, free), camera, free, xyz, True)
    assert j is not None
    j3 = j.reshape(-1, 2, j.shape[1])
    jn = j3[:, 0] * normal[:, :1] + j3[:, 1] * normal[:, 1:2]
    r = ((uv - uv_px) * normal).sum(axis=1)
    w = _rho(r * r / f_scale_px**2, "soft_l1")[1]
    a = np.einsum("ni,nj->ij", jn * w[:, None], jn, optimize=False)
    s2 = float((w * r * r).sum()) / max(len(r) - len(free) - 6, 1)
    try:
        var = float(np.linalg.inv(a)[6, 6]) * s2
    except np.linalg.LinAlgError:
        return math.inf
    return math.sqrt(max(var, 0.0)) / camera.K[0, 0]


def _rho(z: FloatArray, loss: str) -> tuple[FloatArray, FloatArray]:
    """A robust loss of squared residuals ``z`` and its derivative (scipy's definitions)."""
    if loss == "linear":
        return z, np.ones_like(z)
    if loss == "soft_l1":
        s = np.sqrt(1.0 + z)
        return 2.0 * (s - 1.0), 1.0 / s
    if loss == "huber":
        big = z > 1.0
        sq = np.sqrt(np.where(big, z, 1.0))
        return np.where(big, 2.0 * sq - 1.0, z), np.where(big, 1.0 / sq, 1.0)
    raise ValueError(f"loss: expected linear, soft_l1 or huber, got {loss!r}")


def _levenberg_marquardt(
    fun: Callable[[FloatArray], FloatArray],
    jac: Callable[[FloatArray], FloatArray],
    x0: FloatArray,
    loss: str,
    f_scale: float,
    max_iter: int,
    prior: tuple[FloatArray, FloatArray],
    bounds: tuple[FloatArray, FloatArray],
) -> tuple[FloatArray, float, FloatArray]:
    """Robust Levenberg-Marquardt by iteratively reweighted normal equations.

    Minimises ``sum(f_scale**2 * rho((r / f_scale)**2))`` like ``scipy.optimize.least_squares``
    with the same ``loss``; the parameters are few (at most 14), so each step is a small dense
    solve (scipy's "trf" takes an SVD of the whole Jacobian per step, and "lsmr" steps are
    too inexact for the ill-conditioned focal length / distance pair). ``prior`` ``(mean,
    1 / sigma**2)`` adds quadratic penalties (weight 0: none); ``bounds`` ``(lo, hi)`` refuse
    steps that leave them.
    """
    c2 = f_scale * f_scale
    mean, inv_var = prior
    lo, hi = bounds

    def cost_of(r: FloatArray, x: FloatArray) -> float:
        return float(c2 * _rho(r * r / c2, loss)[0].sum() + (inv_var * (x - mean) ** 2).sum())

    x = x0.astype(np.float64).copy()
    r = fun(x)
    cost = cost_of(r, x)
    lam = 1e-3
    for _ in range(max_iter):
        j = jac(x)
        w = _rho(r * r / c2, loss)[1]
        # (einsum, not BLAS: a threaded dgemm on a shared machine is 10x slower here)
        jw = j * w[:, None]
        a = np.einsum("ni,nj->ij", jw, j, optimize=False) + np.diag(inv_var)
        g = np.einsum("ni,n->i", jw, r, optimize=False) + inv_var * (x - mean)
        diag = np.maximum(np.diag(a), 1e-12)
        improved = False
        for _ in range(10):
            try:
                step = -np.linalg.solve(a + lam * np.diag(diag), g)
            except np.linalg.LinAlgError:
                lam *= 10.0
                continue
            x_new = x + step
            if np.any(x_new < lo) or np.any(x_new > hi):
                lam *= 4.0
                continue
            r_new = fun(x_new)
            if np.all(np.isfinite(r_new)):
                cost_new = cost_of(r_new, x_new)
                if cost_new < cost:
                    improved = True
                    break
            lam *= 4.0
        if not improved:
            break
        gain = cost - cost_new
        x, r, cost = x_new, r_new, cost_new
        lam = max(lam / 3.0, 1e-9)
        if gain < 1e-10 * max(cost, 1e-12) or np.all(np.abs(step) <= 1e-10 * (np.abs(x) + 1e-6)):
            break
    return x, cost, r


# ---------------------------------------------------------------------- from point pairs
def from_points(
    xyz_mm: ArrayLike,
    uv_px: ArrayLike,
    image_size: tuple[int, int],
    *,
    intrinsics: Camera | None = None,
    free: tuple[str, ...] | None = None,
) -> CalibrationResult:
    """A camera from table points and where they are in the image (a manual calibration).

    Needs at least 4 points, not all on one line; with ``intrinsics`` only the pose is fitted,
    otherwise the focal length too, and k1 from 8 points, k2 from 12. Failure is a value whose
    ``reason`` says what is wrong.
    """
    xyz = np.asarray(xyz_mm, float)
    uv = np.asarray(uv_px, float)
    if xyz.ndim != 2 or xyz.shape[1] not in (2, 3) or uv.shape != (len(xyz), 2):
        return CalibrationResult.failure(
            f"point pairs: expected N table points (x, y[, z]) and N pixels (u, v), "
            f"got shapes {xyz.shape} and {uv.shape}"
        )
    if xyz.shape[1] == 2:
        xyz = np.column_stack([xyz, np.zeros(len(xyz))])
    n = len(xyz)
    if n < 4:
        return CalibrationResult.failure(f"point pairs: need at least 4, got {n}")
    if not (np.isfinite(xyz).all() and np.isfinite(uv).all()):
        return CalibrationResult.failure("point pairs: every coordinate must be a finite number")
    centred = xyz[:, :2] - xyz[:, :2].mean(axis=0)
    sv = np.linalg.svd(centred, compute_uv=False)
    if sv[1] < 1e-3 * max(sv[0], 1e-9):
        return CalibrationResult.failure("point pairs: the table points lie on one line")
    planar = xyz[:, 2] == 0
    if planar.sum() < 4:
        return CalibrationResult.failure("point pairs: need at least 4 points on the table (z = 0)")
    hmat, _ = cv2.findHomography(xyz[planar, :2], uv[planar], 0)
    if hmat is None:
        return CalibrationResult.failure("point pairs: no homography fits these points")
    if intrinsics is not None:
        if tuple(intrinsics.image_size) != tuple(image_size):
            iw, ih = intrinsics.image_size
            return CalibrationResult.failure(
                f"intrinsics are for a {iw}x{ih} image, this one is {image_size[0]}x{image_size[1]}"
            )
        ok, rvec, tvec = cv2.solvePnP(
            xyz, uv, intrinsics.K, intrinsics.dist, flags=cv2.SOLVEPNP_ITERATIVE
        )
        if not ok:
            return CalibrationResult.failure("point pairs: no pose fits these points")
        cam: Camera | None = Camera(
            image_size, intrinsics.K, intrinsics.dist, vec3(rvec), vec3(tvec)
        )
        fit_free: tuple[str, ...] = ()
    else:
        f0 = Camera.focal_from_homography(hmat, image_size) or default_focal(image_size)
        cam = Camera.from_homography(hmat, image_size, f0)
        fit_free = (
            free
            if free is not None
            else (("f", "k1", "k2") if n >= 12 else ("f", "k1") if n >= 8 else ("f",))
        )
    if cam is None:
        return CalibrationResult.failure("point pairs: the points put the table behind the camera")
    cam, r = fit_camera(cam, xyz, uv, None, fit_free, loss="linear", max_nfev=200)
    rms = float(np.sqrt(np.mean(np.sum(r**2, axis=1))))
    back = cam.image_to_table(uv[planar], 0.0)
    rms_mm = float(np.sqrt(np.nanmean(np.sum((back - xyz[planar, :2]) ** 2, axis=1))))
    cam = replace(cam, rms_px=rms, rms_mm=rms_mm)
    return CalibrationResult(cam, "", rms, rms_mm, (), {}, 1.0)


def vec3(v: object) -> FloatArray:
    """A (3,) float vector of one of cv2's (3, 1) results."""
    return np.asarray(v, np.float64).reshape(3)
