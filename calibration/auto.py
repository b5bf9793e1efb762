"""Automatic calibration from the field markings (issue 4, deliverables 2 and 4).

From one picture (or the first frames of a video) with or without pieces and hands:

1. the felt's region and the sub-pixel centres of its thin lines (:mod:`calibration.markings`);
2. an initial pose: the outer boundary is the convex hull of the long line chains (else the
   felt's outline, the rail box); the largest quadrilateral in it is matched to the boundary's
   corners, both ways the field's long axis can lie, and a homography gives a first camera;
3. ICP on every marking: each line point is matched to the nearest projected model curve
   (:func:`calibration.estimate.model_curves`) and focal length, k1, k2, the principal point
   and the pose are fitted to the distances across the curves with a robust loss, the match
   radius shrinking round by round; then the goals' crossbars (40-60 mm up, centred by
   :func:`calibration.markings.bar_centres`, at half the paint's weight) join: seen from
   straight above, the painted plane leaves the focal length / distance open, they do not;
4. the quality: RMS in pixels and on the table, per marking, and the share of the markings'
   length found; a field that is cut off or does not match the table spec is refused;
5. the field's symmetry (180 deg about the centre mark): the table frame's +x goal is put on
   the side ``right_goal`` names, by default the image's right (or, for a field whose long
   axis runs down the image, the bottom), recorded as ``right_goal_image_side``; a side the
   field's long axis does not run toward (within 60 deg) is refused with the reason.

Examples
--------
>>> from geometry.tablespec import load_table
>>> result = calibrate_image(np.zeros((720, 1280, 3), np.uint8), load_table("brasileira"))
>>> result.ok, result.reason
(False, 'no field found: too dark (median grey 0)')
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray
from scipy.spatial import cKDTree

from calibration.camera import Camera, _rotation_to_rvec
from calibration.estimate import (
    CalibrationResult,
    ModelCurves,
    cameras_from_quad,
    default_focal,
    fit_camera,
    model_curves,
)
from calibration.markings import (
    FieldRegion,
    LinePoints,
    bar_centres,
    felt_quad,
    find_field,
    find_lines,
    largest_quad,
    long_chains,
)
from geometry.tablespec import TableSpec

__all__ = [
    "RIGHT_GOAL_SIDES",
    "CalibrationResult",
    "calibrate_frames",
    "calibrate_image",
    "found_along",
]

FloatArray = NDArray[np.float64]
Schedule = list[tuple[float, tuple[str, ...], float]]  # rounds of (gate px, free, f_scale px)
RIGHT_GOAL_SIDES = ("left", "right", "up", "down")
MIN_FOUND_SHARE = 0.25  # of the markings' length: less is too little to trust
MIN_CONSISTENCY = 0.45  # see _Quality: right tables measured >= 0.6, wrong ones <= 0.25
_OFF_PLANE_WEIGHT = 0.5  # crossbar residuals' weight against the paint's (error ~0.2 vs ~0.1 px)
MAX_RMS_PX = 0.6  # px, of the points within 2 px: right tables measured <= 0.2, wrong >= 0.7
_SIDE_VECTORS = {"right": (1.0, 0.0), "left": (-1.0, 0.0), "down": (0.0, 1.0), "up": (0.0, -1.0)}


# ---------------------------------------------------------------------- initial pose
# ---------------------------------------------------------------------- ICP on the markings
def _project(cam: Camera, model: ModelCurves) -> tuple[FloatArray, FloatArray]:
    """Projected samples (M, 2) and image normals (M, 2) of the model (NaN where unusable)."""
    delta = 2.0 * model.step_mm
    uv = cam(model.xyz_mm)
    ahead = cam(model.xyz_mm + delta * model.tangent)
    tan = ahead - uv
    norm = np.hypot(tan[:, 0], tan[:, 1])
    normal = np.column_stack([-tan[:, 1], tan[:, 0]]) / np.where(norm > 1e-9, norm, np.nan)[:, None]
    w, h = cam.image_size
    inside = (uv[:, 0] > -0.5) & (uv[:, 0] < w - 0.5) & (uv[:, 1] > -0.5) & (uv[:, 1] < h - 0.5)
    # Beyond the fold of the radial polynomial a point lands in the image as a ghost.
    k1, k2 = cam.dist[0], cam.dist[1]
    pc = cam.to_camera_frame(model.xyz_mm)
    with np.errstate(divide="ignore", invalid="ignore"):
        r2 = (pc[:, 0] ** 2 + pc[:, 1] ** 2) / pc[:, 2] ** 2
    monotone = 1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2 > 0.2
    bad = ~(inside & monotone & np.isfinite(uv).all(axis=1) & np.isfinite(normal).all(axis=1))
    uv[bad] = np.nan
    return uv, normal


class _Match:
    """Line points matched to model samples: indices, residuals across the curve.

    ``n_paint``: the first ``n_paint`` line points are the paint's (matched to the painted
    markings only), the rest the crossbars' (matched to the crossbars only); None: any point
    to any sample. The paint's detector also fires on a crossbar, centred toward its brighter
    flank (the net): matched to the crossbar, such points were 0.2-0.4 px outward and pulled
    a near-overhead focal length down by up to 1.5%.
    """

    def __init__(
        self,
        cam: Camera,
        model: ModelCurves,
        lines: LinePoints,
        gate_px: float,
        n_paint: int | None = None,
    ) -> None:
        uv_m, normal_m = _project(cam, model)
        valid = np.flatnonzero(np.isfinite(uv_m[:, 0]))
        self.point = np.zeros(0, np.intp)
        self.sample = np.zeros(0, np.intp)
        self.normal = np.zeros((0, 2))
        self.residual = np.zeros(0)
        if len(valid) < 10 or len(lines) == 0:
            return
        if n_paint is None:
            groups = [(np.arange(len(lines)), valid)]
        else:
            flat = model.xyz_mm[valid, 2] == 0
            groups = [
                (np.arange(min(n_paint, len(lines))), valid[flat]),
                (np.arange(n_paint, len(lines)), valid[~flat]),
            ]
        points, samples = [], []
        for pts, cand in groups:
            if len(pts) == 0 or len(cand) == 0:
                continue
            dist, j = cKDTree(uv_m[cand]).query(lines.uv_px[pts], distance_upper_bound=gate_px)
            hit = np.isfinite(dist)
            points.append(pts[hit])
            samples.append(cand[j[hit]])
        if not points:
            return
        point = np.concatenate(points)
        sample = np.concatenate(samples)
        n_model = normal_m[sample]
        # The detected line must run along the model curve (30 deg): a piece's rim crossing a
        # line is not that line.
        agree = np.abs((n_model * lines.normal[point]).sum(axis=1)) > math.cos(math.radians(30))
        self.point, self.sample, self.normal = point[agree], sample[agree], n_model[agree]
        self.residual = ((lines.uv_px[self.point] - uv_m[self.sample]) * self.normal).sum(axis=1)


def _icp(
    cam: Camera,
    model: ModelCurves,
    lines: LinePoints,
    schedule: Schedule,
    rng: np.random.Generator,
    max_points: int = 6000,
    priors: dict[str, tuple[float, float]] | None = None,
    off_plane_weight: float = _OFF_PLANE_WEIGHT,
    n_paint: int | None = None,
) -> tuple[Camera, _Match]:
    """Rounds of (match within the gate, robust fit); ``schedule``: (gate px, free, f_scale px);
    ``n_paint`` as in :class:`_Match`."""
    match = _Match(cam, model, lines, schedule[0][0], n_paint)
    for gate, free, f_scale in schedule:
        match = _Match(cam, model, lines, gate, n_paint)
        if len(match.point) < 20:
            break
        sel = np.arange(len(match.point))
        if len(sel) > max_points:
            sel = np.sort(rng.choice(sel, max_points, replace=False))
        # Off-plane points (the crossbars, thin bars before their nets) are found less
        # exactly than paint: weighted down, they settle focal length / distance where the
        # painted plane cannot (seen from straight above) and barely move it elsewhere.
        xyz = model.xyz_mm[match.sample[sel]]
        weight = np.where(xyz[:, 2] == 0, 1.0, off_plane_weight)
        try:
            cam, _ = fit_camera(
                cam,
                xyz,
                lines.uv_px[match.point[sel]],
                match.normal[sel],
                free,
                f_scale_px=f_scale,
                max_nfev=30,
                weight=weight,
                priors=priors,
            )
        except ValueError:
            break
    return cam, _Match(cam, model, lines, schedule[-1][0], n_paint)


# ---------------------------------------------------------------------- quality
def found_along(
    cam: Camera, model: ModelCurves, lines: LinePoints, tol_px: float
) -> NDArray[np.bool_]:
    """Model samples with a line point within ``tol_px`` of their projection (M,)."""
    uv_m, _ = _project(cam, model)
    ok = np.isfinite(uv_m[:, 0])
    found = np.zeros(len(model), bool)
    if len(lines) and ok.any():
        dist, _ = cKDTree(lines.uv_px).query(uv_m[ok], distance_upper_bound=tol_px)
        found[ok] = np.isfinite(dist)
    return found


def _cut_off_side(cam: Camera, table: TableSpec, margin_px: float = 1.0) -> str | None:
    """The image side where the field's boundary leaves the picture, if it does."""
    hl, hw = table.half_length, table.half_width
    t = np.linspace(-1.0, 1.0, 81)
    edge = np.concatenate(
        [np.column_stack([t * hl, np.full_like(t, s * hw)]) for s in (-1, 1)]
        + [np.column_stack([np.full_like(t, s * hl), t * hw]) for s in (-1, 1)]
    )
    uv = cam(np.column_stack([edge, np.zeros(len(edge))]))
    if not np.isfinite(uv).all():
        return "top"
    w, h = cam.image_size
    over = {
        "left": margin_px - uv[:, 0].min(),
        "right": uv[:, 0].max() - (w - 1 - margin_px),
        "top": margin_px - uv[:, 1].min(),
        "bottom": uv[:, 1].max() - (h - 1 - margin_px),
    }
    side, amount = max(over.items(), key=lambda kv: kv[1])
    return side if amount > 0 else None


def _across_mm(cam: Camera, model: ModelCurves, lines: LinePoints, m: _Match) -> FloatArray:
    """Distances (mm, on the table) from back-projected line points to their model curves."""
    if len(m.point) == 0:
        return np.zeros(0)
    xy = cam.image_to_table(lines.uv_px[m.point], 0.0)
    foot = model.xyz_mm[m.sample, :2]
    t = model.tangent[m.sample, :2]
    d = xy - foot
    return np.asarray(d[:, 1] * t[:, 0] - d[:, 0] * t[:, 1], np.float64)  # across the curve


# ---------------------------------------------------------------------- symmetry
def _rotate_table(cam: Camera) -> Camera:
    """The same camera with the table frame turned 180 deg about the centre mark."""
    rz = np.diag([-1.0, -1.0, 1.0])
    return replace(cam, rvec=_rotation_to_rvec(cam.R @ rz))


def _goal_side(cam: Camera, table: TableSpec) -> str:
    """Which image side the +x goal is on: the dominant direction from the -x goal to it."""
    uv = cam(np.array([[-table.half_length, 0.0, 0.0], [table.half_length, 0.0, 0.0]]))
    du, dv = uv[1] - uv[0]
    if abs(du) >= abs(dv):
        return "right" if du > 0 else "left"
    return "down" if dv > 0 else "up"


def _hint_conflict(cam: Camera, table: TableSpec, right_goal: str | None) -> str:
    """Why ``right_goal`` cannot be the +x goal's image side (empty when it can): the
    field's long axis must run within 60 deg of that side's direction."""
    if right_goal is None:
        return ""
    uv = cam(np.array([[-table.half_length, 0.0, 0.0], [table.half_length, 0.0, 0.0]]))
    d = uv[1] - uv[0]
    if abs(float(np.dot(d, _SIDE_VECTORS[right_goal]))) >= 0.5 * float(np.hypot(*d)):
        return ""
    ends = "left and right" if abs(d[0]) >= abs(d[1]) else "top and bottom"
    return f"right_goal {right_goal!r} does not fit the picture: the goals are at its {ends}"


def _orient(cam: Camera, table: TableSpec, right_goal: str | None) -> Camera:
    uv = cam(np.array([[-table.half_length, 0.0, 0.0], [table.half_length, 0.0, 0.0]]))
    d = uv[1] - uv[0]
    if right_goal is None:
        right_goal = "right" if abs(d[0]) >= abs(d[1]) else "down"
    if float(np.dot(d, _SIDE_VECTORS[right_goal])) < 0:
        cam = _rotate_table(cam)
    return replace(cam, right_goal_image_side=_goal_side(cam, table))


# ---------------------------------------------------------------------- public
def _check_image(image_bgr: object) -> str:
    arr = np.asarray(image_bgr)
    if arr.ndim not in (2, 3) or (arr.ndim == 3 and arr.shape[2] != 3):
        return f"not an image: expected (h, w, 3) BGR or (h, w) grey, got shape {arr.shape}"
    if min(arr.shape[:2]) < 64:
        return f"image too small to calibrate ({arr.shape[1]}x{arr.shape[0]})"
    return ""


def _scale_px_per_mm(region: FieldRegion, table: TableSpec) -> float:
    """Rough pixels per mm: the felt is about the rail box (the field plus its margin)."""
    x0, y0, x1, y1 = table.rail_box
    w, h = region.image_size
    return math.sqrt(region.area_share * w * h / ((x1 - x0) * (y1 - y0)))


@dataclass(frozen=True)
class _Seen:
    """What the picture shows: the felt, its line points (full-resolution pixels), the scale."""

    region: FieldRegion
    lines: LinePoints
    px_per_mm: float
    line_px: float


def _detect(img: NDArray[np.generic], table: TableSpec) -> _Seen | str:
    """The felt and its lines, or the reason there are none."""
    region = find_field(img)
    if not region.ok:
        return region.reason
    px_per_mm = _scale_px_per_mm(region, table)
    line_px = table.line_width * px_per_mm
    # Lines wider than 3 px carry no more position than at half the resolution, 4x cheaper.
    down = 2 if line_px >= 3.0 else 1
    work = (
        img
        if down == 1
        else cv2.resize(np.asarray(img), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    )
    work_region = region if down == 1 else find_field(work)
    if not work_region.ok:
        return work_region.reason
    lines = find_lines(work, work_region, line_px / down)
    expect = _expected_points(table, px_per_mm / down)
    if len(lines) < 0.7 * expect and len(lines) >= 20:
        # Weak lines: look again along the colour axis from the felt to the lines found.
        arr = np.asarray(work)
        if arr.ndim == 3:
            ij = np.round(lines.uv_px).astype(int)
            line_bgr = np.median(arr[ij[:, 1], ij[:, 0]].astype(float), axis=0)
            d = line_bgr - np.asarray(work_region.colour_bgr)
            grey_contrast = abs(float(d @ np.array([0.114, 0.587, 0.299])))
            if np.linalg.norm(d) > 1.5 * grey_contrast + 1e-9:
                wts = d / np.linalg.norm(d)
                again = find_lines(
                    work, work_region, line_px / down, polarity=1, weights_bgr=tuple(wts)
                )
                if len(again) > len(lines):
                    lines = again
    if down != 1:
        lines = LinePoints(
            (lines.uv_px + 0.5) * down - 0.5,
            lines.normal,
            lines.strength,
            lines.sigma_px * down,
            lines.polarity,
        )
    return _Seen(region, lines, px_per_mm, line_px)


def _expected_points(table: TableSpec, px_per_mm: float) -> float:
    """About how many line points the markings give (one per pixel of length)."""
    return float(model_curves(table, step_mm=5.0).lengths_mm().sum()) * px_per_mm


@dataclass(frozen=True)
class _Quality:
    """A fit's figures; ``consistency``: the second-lowest found share among the inner
    markings over the overall found share (a wrong table leaves most inner markings unmatched,
    faint or occluded lines lower every marking alike)."""

    rms_px: float
    rms_mm: float
    markings_used: tuple[str, ...]
    per_marking_px: dict[str, float]
    per_marking_mm: dict[str, float]
    found_by_marking: dict[str, float]
    found_share: float
    consistency: float

    def fields(self) -> dict[str, object]:
        """A refused fit's figures for its CalibrationResult (the RMS stay NaN on failure)."""
        return {
            "markings_used": self.markings_used,
            "per_marking_px": self.per_marking_px,
            "per_marking_mm": self.per_marking_mm,
            "found_by_marking": self.found_by_marking,
            "found_share": self.found_share,
        }

    @property
    def consistent(self) -> bool:
        return (
            self.found_share >= MIN_FOUND_SHARE
            and self.consistency >= MIN_CONSISTENCY
            and math.isfinite(self.rms_px)
            and self.rms_px <= MAX_RMS_PX
        )


_INNER = ("halfway", "center_circle", "penalty_area_", "goal_area_")


def _assess(
    cam: Camera, match: _Match, seen: _Seen, model: ModelCurves, lines: LinePoints
) -> _Quality:
    """Figures of a fit of ``model`` to ``lines`` (``match``); the found shares count the
    painted markings only (``seen.lines``), not the crossbars."""
    tol = max(1.5, 0.5 * seen.line_px + 1.0)
    found = found_along(cam, model, seen.lines, tol)
    lengths = model.lengths_mm()
    found_by = np.bincount(model.marking, weights=found.astype(float), minlength=len(model.names))
    share_by = np.minimum(found_by * model.step_mm / np.maximum(lengths, 1e-9), 1.0)
    painted = model.xyz_mm[:, 2] == 0
    found_share = float(found[painted].mean())
    inner = sorted(share_by[i] for i, n in enumerate(model.names) if n.startswith(_INNER))
    consistency = min(inner[1] / max(found_share, 1e-9), 1.0) if len(inner) > 1 else 1.0
    r = match.residual
    inlier = np.abs(r) < 2.0
    rms_px = float(np.sqrt(np.mean(r[inlier] ** 2))) if inlier.any() else math.nan
    off_plane = {model.names[i] for i in np.unique(model.marking[~painted])}
    # On the table: the painted markings' inliers, brought down to z = 0.
    flat = inlier & painted[match.sample]
    inl = _Match.__new__(_Match)
    inl.point, inl.sample = match.point[flat], match.sample[flat]
    inl.normal, inl.residual = match.normal[flat], r[flat]
    across = _across_mm(cam, model, lines, inl)
    seen_mm = np.isfinite(across)  # (a ray that misses the table: behind the camera's horizon)
    rms_mm = float(np.sqrt(np.mean(across[seen_mm] ** 2))) if seen_mm.any() else math.nan
    per_px: dict[str, float] = {}
    per_mm: dict[str, float] = {}
    mk, mk_flat = model.marking[match.sample], model.marking[inl.sample]
    for i, name in enumerate(model.names):
        sel = (mk == i) & inlier
        if sel.sum() >= 5:
            per_px[name] = float(np.sqrt(np.mean(r[sel] ** 2)))
        sel_mm = (mk_flat == i) & seen_mm
        if sel_mm.sum() >= 5:
            per_mm[name] = float(np.sqrt(np.mean(across[sel_mm] ** 2)))
    used = tuple(
        n
        for i, n in enumerate(model.names)
        if share_by[i] >= 0.3 and n in per_px and n not in off_plane
    )
    found_by_marking = {
        n: float(share_by[i]) for i, n in enumerate(model.names) if n not in off_plane
    }
    return _Quality(
        rms_px, rms_mm, used, per_px, per_mm, found_by_marking, found_share, consistency
    )


def _crossbar_points(
    img: NDArray[np.generic], cam: Camera, model: ModelCurves, table: TableSpec, seen: _Seen
) -> LinePoints:
    """Line points along the projected crossbars (a band around them: the felt's region
    stops at the goal's net)."""
    w, h = cam.image_size
    bar_px = table.post_diameter * seen.px_per_mm
    band = max(10, round(4.0 * bar_px))
    mask = np.zeros((h, w), np.uint8)
    for i, name in enumerate(model.names):
        if not name.startswith("crossbar"):
            continue
        uv = cam(model.xyz_mm[model.marking == i])
        uv = uv[np.isfinite(uv).all(axis=1)]
        if len(uv) >= 2:
            cv2.polylines(mask, [np.round(uv).astype(np.int32)], False, 1, 2 * band + 1)
    empty = LinePoints(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), 1.0, seen.lines.polarity)
    if not mask.any():
        return empty
    found = find_lines(img, None, bar_px * 0.6, polarity=seen.lines.polarity, mask=mask)
    found = bar_centres(img, found, bar_px)
    # Near a post the bar's profile runs into the post's (seen from above, the post leans
    # out from the bar's end): its centres there were off by 1-3 px. Only the bar from 1.5
    # post diameters in from either post's axis counts.
    bar = np.flatnonzero(model.xyz_mm[:, 2] > 0)
    inner = np.abs(model.xyz_mm[bar, 1]) <= table.goal_width / 2.0 - table.post_diameter
    uv_bar = cam(model.xyz_mm[bar])
    fine = np.isfinite(uv_bar).all(axis=1)
    if len(found) and fine.any():
        _, k = cKDTree(uv_bar[fine]).query(found.uv_px)
        found = found.subset(inner[fine][k])
    # The goal line runs through the band: its points belong to the painted lines, found at
    # their own scale already.
    flat = model.xyz_mm[:, 2] == 0
    uv_flat = cam(model.xyz_mm[flat])
    uv_flat = uv_flat[np.isfinite(uv_flat).all(axis=1)]
    if len(found) and len(uv_flat):
        d, _ = cKDTree(uv_flat).query(found.uv_px)
        found = found.subset(d > max(3.0, 1.5 * bar_px))
    return _smooth_along_bars(found, cam, model)


def _smooth_along_bars(found: LinePoints, cam: Camera, model: ModelCurves) -> LinePoints:
    """The points whose offsets across their crossbar follow the bar.

    A crossbar is straight: against the current camera, its centres' offsets vary smoothly
    along it (a quadratic: wrong focal length, pose, distortion); a point a piece or the
    net's edge pulls aside departs from that curve. Per bar, points more than 3 robust
    sigmas (from the median absolute deviation) off a quadratic fit are dropped, thrice.
    """
    bar = np.flatnonzero(model.xyz_mm[:, 2] > 0)
    uv_m, normal_m = _project(cam, model)
    bar = bar[np.isfinite(uv_m[bar, 0])]
    if len(found) == 0 or len(bar) == 0:
        return found
    _, k = cKDTree(uv_m[bar]).query(found.uv_px)
    sample = bar[k]
    offset = ((found.uv_px - uv_m[sample]) * normal_m[sample]).sum(axis=1)
    along = model.xyz_mm[sample, 1] / max(float(np.abs(model.xyz_mm[bar, 1]).max()), 1e-9)
    keep = np.ones(len(found), bool)
    for m in np.unique(model.marking[sample]):
        on = np.flatnonzero(model.marking[sample] == m)
        if len(on) < 8:
            continue
        ok = np.ones(len(on), bool)
        for _ in range(3):
            # (lstsq: points bunched along the bar make the quadratic rank-deficient; its fitted
            # values, all the trimming uses, are still unique.)
            basis = np.column_stack([np.ones(len(on)), along[on], along[on] ** 2])
            coef = np.linalg.lstsq(basis[ok], offset[on[ok]], rcond=None)[0]
            dev = offset[on] - basis @ coef
            sigma = 1.4826 * float(np.median(np.abs(dev[ok])))
            ok = np.abs(dev) <= 3.0 * sigma + 1e-3
            if ok.sum() < 8:
                break
        keep[on] = ok
    return found.subset(keep)


def _lines_reach(
    long: LinePoints, side: str, size: tuple[int, int], margin_px: float = 4.0
) -> bool:
    """Whether line chains run into the image's ``side`` edge (a boundary leaving the picture)."""
    if len(long) == 0:
        return False
    axis, far = {"left": (0, False), "right": (0, True), "top": (1, False), "bottom": (1, True)}[
        side
    ]
    x = long.uv_px[:, axis]
    edge = size[axis] - 1 - x if far else x
    return int((edge < margin_px).sum()) >= 2


def calibrate_image(
    image_bgr: NDArray[np.generic],
    table: TableSpec,
    *,
    intrinsics: Camera | None = None,
    right_goal: str | None = None,
) -> CalibrationResult:
    """Calibrate a camera from the field markings in one picture.

    ``intrinsics``: a camera whose K and distortion are kept (only the pose is fitted).
    ``right_goal``: the image side ("left", "right", "up", "down") the table's +x goal is on;
    default: the right, or the bottom when the field's long axis runs down the image. A side
    the goals are not on (``"up"`` for a field across the picture) is a failure.
    Never raises on a bad picture: ``result.ok`` is False and ``result.reason`` says why
    (with the rejected fit in ``result.rejected`` when there was one).
    """
    if right_goal is not None and right_goal not in RIGHT_GOAL_SIDES:
        return CalibrationResult.failure(
            f"right_goal: expected one of {RIGHT_GOAL_SIDES}, got {right_goal!r}"
        )
    why = _check_image(image_bgr)
    if why:
        return CalibrationResult.failure(why)
    img = np.asarray(image_bgr)
    h, w = img.shape[:2]
    size = (w, h)
    if intrinsics is not None and tuple(intrinsics.image_size) != size:
        return CalibrationResult.failure(
            f"intrinsics are for a {intrinsics.image_size[0]}x{intrinsics.image_size[1]} image, "
            f"this one is {w}x{h}"
        )
    seen = _detect(img, table)
    if isinstance(seen, str):
        return CalibrationResult.failure(seen)
    lines = seen.lines
    step = max(0.5, min(5.0, 1.5 / seen.px_per_mm))
    model = model_curves(table, step_mm=step)
    goal_model = model_curves(table, step_mm=step, goals=True)
    expect = _expected_points(table, seen.px_per_mm)
    if len(lines) < 0.1 * expect:
        return CalibrationResult.failure(
            f"no markings found on the field ({len(lines)} line pixels, expected about "
            f"{expect:.0f})"
        )
    unit = max(w, h) / 1920.0
    fixed = intrinsics is not None
    full = () if fixed else ("f", "k1", "k2", "cx", "cy")
    coarse: Schedule = [
        (60.0 * unit, () if fixed else ("k1",), 5.0 * unit),
        (30.0 * unit, () if fixed else ("f", "k1", "cx", "cy"), 3.0 * unit),
        (12.0 * unit, full, 1.5 * unit),
    ]
    fine: Schedule = [(6.0 * unit, full, 1.0), (3.0, full, 0.7), (2.0, full, 0.5)]
    rng = np.random.default_rng(0)
    # Straight down on a plane only focal length / distance shows: a weak prior on the focal
    # length (a 65 deg webcam, +-35 %) keeps the fit from sliding along that valley.
    # The principal point: at the centre give or take a few percent (a webcam's sensor is
    # not centred on its lens exactly; a cropped picture moves it further).
    f0 = default_focal(size)
    prior = {"f": (f0, 0.35 * f0), "cx": ((w - 1) / 2, 0.05 * w), "cy": ((h - 1) / 2, 0.05 * w)}
    # Far from the answer the fit can still slide toward a tiny focal length (a camera on the
    # table); the coarse rounds hold it closer to a webcam's.
    coarse_prior = {**prior, "f": (f0, 0.15 * f0)}
    long = long_chains(lines, size, 0.04 * math.hypot(w, h) * math.sqrt(seen.region.area_share))
    hl, hw, lw = table.half_length, table.half_width, table.line_width
    # Initial poses: the boundary from the line pixels' hull, else the felt's outline (the
    # rail box), each tried both ways the long axis can lie; the best after coarse ICP wins.
    sources = [(largest_quad(long.uv_px), (hl - lw / 2, hw - lw / 2))]
    sources.append((felt_quad(seen.region), (hl + table.rail_margin, hw + table.rail_margin)))
    # Coarse rounds need no more than a few thousand points.
    sample = (
        lines
        if len(lines) <= 4000
        else lines.subset(np.sort(rng.choice(len(lines), 4000, replace=False)))
    )
    best: tuple[float, Camera, _Match] | None = None
    outcome: tuple[Camera, _Quality] | None = None
    for quad, half in sources:
        if quad is None:
            continue
        for start in cameras_from_quad(quad, half, size, intrinsics):
            cam, match = _icp(start, model, sample, coarse, rng, 3000, coarse_prior)
            score = float((np.abs(match.residual) < 2.0 * unit).sum()) / len(sample)
            if best is None or score > best[0]:
                best = (score, cam, match)
            if score > 0.6:  # most line points on the model: the other axis cannot beat it
                break
        if best is None:
            continue
        # The crossbars, off the plane: seen from above, they fix the focal length / distance
        # the painted plane leaves open; from a tilted view they agree with the plane.
        cam = best[1]
        both = lines.concat(_crossbar_points(img, cam, goal_model, table, seen))
        # Wide first: with the focal length unknown the crossbars may be far off.
        n_paint = len(lines)
        cam, _ = _icp(
            cam, goal_model, both, coarse[-1:] + fine[:1], rng, 3000, prior, n_paint=n_paint
        )
        cam, match = _icp(cam, goal_model, both, fine[1:], rng, 6000, prior, n_paint=n_paint)
        outcome = (cam, _assess(cam, match, seen, goal_model, both))
        if outcome[1].consistent:
            break
    if outcome is None:
        return CalibrationResult.failure("no field boundary found among the markings")
    cam, q = outcome
    conflict = _hint_conflict(cam, table, right_goal) if q.consistent else ""
    cam = _orient(cam, table, right_goal)
    side = _cut_off_side(cam, table)
    if side is not None and (q.consistent or _lines_reach(long, side, size)):
        return CalibrationResult.failure(
            f"field cut off at the image's {side} edge", rejected=cam, **q.fields()
        )
    if not q.consistent:
        if q.found_share < MIN_FOUND_SHARE:
            why = (
                f"too few markings of table '{table.name}' found ({100 * q.found_share:.0f}% "
                "of their length): faint, hidden, or another table"
            )
        else:
            inner = 100 * q.consistency * q.found_share
            why = (
                f"markings do not match table '{table.name}' (found {100 * q.found_share:.0f}% "
                f"of their length, the inner markings only {inner:.0f}%; rms {q.rms_px:.1f} px)"
            )
        return CalibrationResult.failure(why, rejected=cam, **q.fields())
    if conflict:
        return CalibrationResult.failure(conflict, rejected=cam, **q.fields())
    cam = replace(cam, rms_px=q.rms_px, rms_mm=q.rms_mm, markings_used=q.markings_used)
    return CalibrationResult(cam, "", q.rms_px, q.rms_mm, **q.fields())  # type: ignore[arg-type]


def calibrate_frames(
    frames: Iterable[NDArray[np.generic]],
    table: TableSpec,
    *,
    max_frames: int = 9,
    step: int = 3,
    **kw: object,
) -> CalibrationResult:
    """Calibrate from the first frames of a video.

    Every ``step``-th of the first ``max_frames * step`` frames goes into a per-pixel median,
    so hands and moving pieces vanish; when the median fails, the first frame is tried alone.
    ``kw`` goes to :func:`calibrate_image`.
    """
    picked: list[NDArray[np.generic]] = []
    for k, frame in enumerate(frames):
        if k % step == 0:
            picked.append(np.asarray(frame))
        if len(picked) >= max_frames:
            break
    if not picked:
        return CalibrationResult.failure("no frames to calibrate from")
    shapes = {p.shape for p in picked}
    if len(shapes) > 1:
        return CalibrationResult.failure(f"frames of different sizes: {sorted(shapes)}")
    median = np.median(np.stack(picked), axis=0).astype(np.uint8) if len(picked) > 2 else picked[0]
    result = calibrate_image(median, table, **kw)  # type: ignore[arg-type]
    if not result.ok and len(picked) > 2:
        single = calibrate_image(picked[0], table, **kw)  # type: ignore[arg-type]
        if single.ok:
            return single
    return result
