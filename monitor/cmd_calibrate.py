"""``botao calibrate``, ``botao calibrate-intrinsics`` and ``botao check-camera`` (issue 4).

``botao calibrate IMAGE_OR_VIDEO --table NAME --out camera.json [--debug OUT.png]
[--right-goal left|right|up|down] [--intrinsics camera.json] [--points points.json]``
fits the camera from the field markings (or from point pairs), prints the quality report and
writes ``camera/1``. A picture the calibration refuses (no field, too dark, cut off, another
table) exits 2 with the reason, still writing the debug picture.

``botao calibrate-intrinsics IMAGES... --out intrinsics.json`` fits the lens from chessboard
or ChArUco pictures (:mod:`calibration.intrinsics`).

``botao check-camera IMAGE --camera camera.json --table NAME [--tolerance-mm 2]``: the
pre-match check. The ball is placed on the centre mark and on both penalty marks (one picture
showing three balls); each is looked for near its mark, brought down to the table at the ball's
centre height, and compared with the mark. Exit 0 when all three are within the tolerance, 1 with
the reason (the monitor refuses to officiate) otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera, CameraError, load_camera
from geometry.field import FieldModel
from geometry.tablespec import TableSpec, load_table
from monitor.errors import UsageError

__all__ = ["BallSighting", "add_parsers", "find_ball", "run_calibrate", "run_check_camera"]

U8 = NDArray[np.uint8]
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
SIDES = ("left", "right", "up", "down")
VIDEO_FRAMES = 27  # the first frames of a video that calibrate_frames uses (9, one in 3)


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("calibrate", help="fit the camera from the field markings -> camera/1")
    p.add_argument("input", metavar="IMAGE_OR_VIDEO")
    p.add_argument("--table", required=True, help="table preset name or .toml")
    p.add_argument("--out", required=True, metavar="camera.json")
    p.add_argument("--debug", metavar="OUT.png", help="draw the fitted model over the image")
    p.add_argument("--right-goal", choices=SIDES, help="image side of the table's +x goal")
    p.add_argument("--intrinsics", metavar="camera.json", help="known lens (calibrate-intrinsics)")
    p.add_argument(
        "--points",
        metavar="points.json",
        help="manual fallback: point pairs (points/1); a missing file opens the click-to-pick "
        "window when a display exists",
    )
    p.set_defaults(func=run_calibrate)

    q = sub.add_parser("calibrate-intrinsics", help="lens intrinsics from board pictures")
    q.add_argument("images", nargs="+", metavar="IMAGE")
    q.add_argument("--out", required=True, metavar="intrinsics.json")
    q.add_argument("--pattern", choices=("chessboard", "charuco"), default="chessboard")
    q.add_argument(
        "--board", default="9x6", help="COLSxROWS: inner corners (chessboard) or squares (charuco)"
    )
    q.add_argument("--square-mm", type=float, default=25.0, help="printed square size")
    q.add_argument("--marker-mm", type=float, help="ChArUco marker size (default 0.75 square)")
    q.add_argument("--dictionary", default="DICT_5X5_100", help="ChArUco ArUco dictionary")
    q.add_argument("--legacy", action="store_true", help="ChArUco board from OpenCV < 4.6")
    q.add_argument("--skip-missing", action="store_true", help="skip pictures without the pattern")
    q.set_defaults(func=run_calibrate_intrinsics)

    c = sub.add_parser("check-camera", help="pre-match check: balls on the three marks")
    c.add_argument("image", metavar="IMAGE")
    c.add_argument("--camera", required=True, metavar="camera.json")
    c.add_argument("--table", required=True, help="table preset name or .toml")
    c.add_argument("--tolerance-mm", type=float, default=2.0)
    c.add_argument("--debug", metavar="OUT.png", help="draw expected and seen positions")
    c.set_defaults(func=run_check_camera)


# ---------------------------------------------------------------------- inputs
def read_image(path: str) -> U8:
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such file")
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise UsageError(f"{path}: not an image OpenCV can read")
    return np.asarray(img, np.uint8)


def read_frames(path: str) -> list[U8]:
    """One image, or the first frames of a video."""
    if Path(path).suffix.lower() in IMAGE_SUFFIXES:
        return [read_image(path)]
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such file")
    from simulator.video import read_video

    frames: list[U8] = []
    try:
        for frame in read_video(path):
            frames.append(frame)
            if len(frames) >= VIDEO_FRAMES:
                break
    except Exception as exc:  # PyAV raises its own error types for unreadable files
        raise UsageError(f"{path}: not a readable image or video ({exc})") from None
    if not frames:
        raise UsageError(f"{path}: the video has no frames")
    return frames


def _camera_file(path: str, option: str, size: tuple[int, int] | None = None) -> Camera:
    try:
        cam = load_camera(path)
    except FileNotFoundError:
        raise UsageError(f"{option} {path}: no such file") from None
    except CameraError as exc:
        raise UsageError(f"{option}: {exc}") from None
    if size is not None and tuple(cam.image_size) != size:
        raise UsageError(
            f"{option} {path}: image_size {cam.image_size[0]}x{cam.image_size[1]} differs from "
            f"the image's {size[0]}x{size[1]}"
        )
    return cam


def _write_png(path: str, img: U8, option: str = "--debug") -> None:
    try:
        ok = cv2.imwrite(path, img)
    except cv2.error:
        ok = False
    if not ok:
        raise UsageError(f"{option} {path}: cannot write the picture")


# ---------------------------------------------------------------------- calibrate
def run_calibrate(args: argparse.Namespace) -> int:
    from calibration.auto import calibrate_frames, calibrate_image

    table = load_table(args.table)
    frames = read_frames(args.input)
    h, w = frames[0].shape[:2]
    intrinsics = _camera_file(args.intrinsics, "--intrinsics", (w, h)) if args.intrinsics else None
    if args.points:
        result, extra = _from_points(args, frames[0], table, intrinsics)
    elif len(frames) == 1:
        result = calibrate_image(
            frames[0], table, intrinsics=intrinsics, right_goal=args.right_goal
        )
        extra = []
    else:
        result = calibrate_frames(frames, table, intrinsics=intrinsics, right_goal=args.right_goal)
        extra = []
    if args.debug:
        from calibration.debug import draw_calibration

        _write_png(args.debug, draw_calibration(frames[0], table, result))
    if not result.ok:
        raise UsageError(f"{args.input}: calibration failed: {result.reason}")
    print("\n".join(quality_report(args.input, table, result) + extra))
    cam = result.camera
    doc = cam.to_dict()
    doc.update(found_share=result.found_share, per_marking_px=result.per_marking_px)
    try:
        Path(args.out).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write ({exc.strerror})") from None
    print(f"wrote {args.out}" + (f" and {args.debug}" if args.debug else ""))
    return 0


def _from_points(
    args: argparse.Namespace, image: U8, table: TableSpec, intrinsics: Camera | None
) -> tuple[Any, list[str]]:
    """A calibration result from a points/1 file (or the click-to-pick window)."""
    from calibration.auto import CalibrationResult
    from calibration.points import PointsError, camera_from_points, load_points, pick_points

    if args.right_goal:
        raise UsageError("--right-goal: not with --points (the pairs' xyz fix the table frame)")
    h, w = image.shape[:2]
    try:
        if Path(args.points).exists():
            pairs = load_points(args.points)
        else:  # the click-to-pick window, when there is a display
            try:
                pairs = pick_points(image, table)
            except PointsError as exc:
                raise PointsError(f"{args.points}: no such file, and {exc}") from None
            pairs.save(args.points)
        if pairs.image_size != (w, h):
            raise PointsError(
                f"{args.points}: field 'image_size' {pairs.image_size[0]}x{pairs.image_size[1]} "
                f"differs from the image's {w}x{h}"
            )
        fit = camera_from_points(pairs, intrinsics, where=args.points)
    except PointsError as exc:
        raise UsageError(f"--points: {exc}") from None
    cam = fit.camera
    assert cam.rms_px is not None and cam.rms_mm is not None
    result = CalibrationResult(cam, "", cam.rms_px, cam.rms_mm, (), {}, 1.0)
    lines = [f"  {'pair':<24} {'err px':>7} {'err mm':>7}"]
    for name, e_px, e_mm in zip(pairs.names, fit.residuals_px, fit.residuals_mm, strict=True):
        lines.append(f"  {name:<24} {e_px:7.2f} {e_mm:7.2f}")
    lines += [f"  warning: {w_}" for w_ in fit.warnings]
    return result, lines


def quality_report(source: str, table: TableSpec, result: Any) -> list[str]:
    """The lines ``botao calibrate`` prints: the fit's RMS, the lens, each marking's error."""
    cam: Camera = result.camera
    w = cam.image_size[0]
    f = float(cam.K[0, 0])
    hfov = math.degrees(2 * math.atan(w / 2.0 / f))
    lines = [
        f"calibrated {source} on table {table.name}: rms {result.rms_px:.2f} px, "
        f"{result.rms_mm:.2f} mm; markings found {100 * result.found_share:.0f}%",
        f"  focal {f:.1f} px (horizontal field of view {hfov:.1f} deg), "
        f"k1 {cam.dist[0]:+.4f}, k2 {cam.dist[1]:+.4f}; camera {cam.centre_mm[2] / 1000:.2f} m "
        f"above the table; +x goal on the image's {cam.right_goal_image_side}",
    ]
    if result.per_marking_px:
        lines.append(f"  {'marking':<24} {'rms px':>7}")
        for name, err in sorted(result.per_marking_px.items()):
            lines.append(f"  {name:<24} {err:7.2f}")
    return lines


# ---------------------------------------------------------------------- calibrate-intrinsics
def _board(text: str) -> tuple[int, int]:
    try:
        cols, rows = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--board: expected COLSxROWS like 9x6, got {text!r}") from None
    return cols, rows


def run_calibrate_intrinsics(args: argparse.Namespace) -> int:
    from calibration.intrinsics import IntrinsicsError, calibrate_intrinsics

    try:
        intr = calibrate_intrinsics(
            args.images,
            pattern=args.pattern,
            board=_board(args.board),
            square_mm=args.square_mm,
            marker_mm=args.marker_mm,
            dictionary=args.dictionary,
            legacy=args.legacy,
            strict=not args.skip_missing,
        )
    except IntrinsicsError as exc:
        raise UsageError(str(exc)) from None
    k, d = intr.K, intr.dist
    w, h = intr.image_size
    print(
        f"intrinsics from {len(intr.images_used)} of {len(args.images)} pictures "
        f"({intr.pattern}, {w}x{h}): rms {intr.rms_px:.3f} px"
    )
    print(f"  fx {k[0, 0]:.2f}  fy {k[1, 1]:.2f}  cx {k[0, 2]:.2f}  cy {k[1, 2]:.2f} px")
    print(f"  k1 {d[0]:+.5f}  k2 {d[1]:+.5f}  p1 {d[2]:+.5f}  p2 {d[3]:+.5f}  k3 {d[4]:+.5f}")
    try:
        intr.save(args.out)
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write ({exc.strerror})") from None
    print(f"wrote {args.out}")
    return 0


# ---------------------------------------------------------------------- check-camera
@dataclass(frozen=True)
class BallSighting:
    """A ball found near a mark: its pixel, its table position at the ball's centre height.

    ``mark_only``: what was found is the painted mark with no ball on it (positions NaN).
    """

    uv_px: tuple[float, float]
    xy_mm: tuple[float, float]
    mark_only: bool = False


def _ball_size(table: TableSpec) -> tuple[float, float]:
    from rules.rulesets import RuleSetError, get_ruleset

    try:
        pieces = get_ruleset(table.rules or "brasileira").pieces
    except RuleSetError:
        pieces = None
    if pieces is None:
        pieces = get_ruleset("brasileira").pieces
    assert pieces is not None
    return pieces.ball_diameter, pieces.ball_height


def _outline(
    camera: Camera, centre_mm: NDArray[np.float64], radius_mm: float, sphere: bool, n: int = 64
) -> NDArray[np.float64]:
    """Image outline (n, 2) of a sphere (its exact silhouette: the circle where the cone from
    the camera touches it) or of a flat disc on the plane ``z = centre_mm[2]``."""
    ang = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    if not sphere:
        e1, e2, c, rho = np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), centre_mm, radius_mm
    else:
        to_cam = camera.centre_mm - centre_mm
        d = float(np.linalg.norm(to_cam))
        axis = to_cam / d
        e1 = np.cross(axis, [0.0, 0.0, 1.0] if abs(axis[2]) < 0.9 else [1.0, 0.0, 0.0])
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(axis, e1)
        c = centre_mm + axis * radius_mm**2 / d
        rho = radius_mm * math.sqrt(max(1.0 - (radius_mm / d) ** 2, 0.0))
    pts = c + rho * (np.cos(ang)[:, None] * e1 + np.sin(ang)[:, None] * e2)
    return camera.table_to_image(pts)


def _crossings(
    c: NDArray[np.float64], u: NDArray[np.float64], poly: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Where rays ``c + t u`` (u (R, 2)) enter and leave a convex polygon (E, 2); NaN: missed."""
    a = poly - c
    e = np.roll(poly, -1, axis=0) - poly
    det = u[:, 1:2] * e[None, :, 0] - u[:, 0:1] * e[None, :, 1]  # (R, E)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (a[None, :, 0] * -e[None, :, 1] + a[None, :, 1] * e[None, :, 0]) / det
        lam = (u[:, 0:1] * a[None, :, 1] - u[:, 1:2] * a[None, :, 0]) / det
    hit = (lam >= 0) & (lam < 1) & np.isfinite(t)
    t_in = np.where(hit, t, np.inf).min(axis=1)
    t_out = np.where(hit, t, -np.inf).max(axis=1)
    missed = ~hit.any(axis=1)
    return np.where(missed, np.nan, t_in), np.where(missed, np.nan, t_out)


def _union_exit(
    c: NDArray[np.float64], u: NDArray[np.float64], polys: list[NDArray[np.float64]]
) -> NDArray[np.float64]:
    """Distance along rays from ``c`` to where they leave the union of two convex polygons."""
    (in_a, out_a), (in_b, out_b) = (_crossings(c, u, p) for p in polys)
    in_a, in_b = np.nan_to_num(in_a, nan=np.inf), np.nan_to_num(in_b, nan=np.inf)
    out_a, out_b = np.nan_to_num(out_a, nan=-np.inf), np.nan_to_num(out_b, nan=-np.inf)
    from_a = (in_a <= 0) & (out_a > 0)
    from_b = (in_b <= 0) & (out_b > 0)
    e = np.where(from_a, out_a, np.where(from_b, out_b, np.nan))
    e = np.where(from_a & (in_b <= e), np.maximum(e, out_b), e)
    e = np.where(~from_a & from_b & (in_a <= e), np.maximum(e, out_a), e)
    return np.asarray(e, np.float64)


def find_ball(
    image_bgr: U8,
    camera: Camera,
    xy_mm: tuple[float, float],
    diameter_mm: float,
    z_mm: float,
    search_mm: float = 50.0,
    mark_diameter_mm: float = 0.0,
) -> BallSighting | None:
    """The small ball nearest to the table point ``xy_mm`` within ``search_mm``, or None.

    In a window around the point's projection (at the ball's centre height ``z_mm``), pixels
    far in colour from the felt (the window's median colour) are opened with a disc of 60% of
    the ball's projected diameter, so the thin lines through a mark vanish; the blob of about
    the ball's area nearest the point is the ball. Its outline is measured along rays from the
    blob's centre (sub-pixel crossings of half the ball's contrast) and fitted robustly (a line
    leaving the ball is an outlier) with the outline the camera predicts: the sphere's
    silhouette (an ellipse off the image centre) united with the painted mark under it
    (``mark_diameter_mm``, 0 for none), which peeks out toward the camera from a tilted view.
    Only a shift (the ball's position) and a scale (edge blur) are fitted. When the outline is
    better explained by the mark alone, the sighting is ``mark_only``.
    """
    h, w = image_bgr.shape[:2]
    ball_c = np.array([xy_mm[0], xy_mm[1], z_mm])
    uv0 = camera.table_to_image(ball_c[None])[0]
    if not np.isfinite(uv0).all():
        return None
    px_per_mm = 1.0 / float(camera.pixel_size_mm(ball_c[None])[0])
    r_px = 0.5 * diameter_mm * px_per_mm
    half = math.ceil(search_mm * px_per_mm + 3 * r_px + 4)
    u0, v0 = round(float(uv0[0])), round(float(uv0[1]))
    x0, y0 = max(u0 - half, 0), max(v0 - half, 0)
    x1, y1 = min(u0 + half + 1, w), min(v0 + half + 1, h)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    win = image_bgr[y0:y1, x0:x1].astype(np.float32)
    felt = np.median(win.reshape(-1, 3), axis=0)
    dist = np.sqrt(((win - felt) ** 2).sum(axis=2))
    noise = 1.4826 * float(np.median(np.abs(dist - np.median(dist))))
    hi = float(np.percentile(dist, 99.5))
    if hi < max(6.0 * noise, 15.0):
        return None
    mask = (dist > 0.5 * hi).astype(np.uint8)
    k = max(3, round(1.2 * r_px) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc)
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area_px = math.pi * r_px**2
    best, best_d = 0, math.inf
    for i in range(1, n):
        if not 0.3 * area_px <= stats[i, cv2.CC_STAT_AREA] <= 3.0 * area_px + 9:
            continue
        d = math.hypot(cents[i, 0] + x0 - uv0[0], cents[i, 1] + y0 - uv0[1])
        if d < best_d:
            best, best_d = i, d
    if best == 0 or best_d > search_mm * px_per_mm:
        return None
    origin = np.array([x0, y0], float)
    shapes = [_outline(camera, ball_c, diameter_mm / 2.0, sphere=True) - uv0]
    if mark_diameter_mm > 0:
        floor = np.array([xy_mm[0], xy_mm[1], 0.0])
        shapes.append(_outline(camera, floor, mark_diameter_mm / 2.0, sphere=False) - uv0)
    if not all(np.isfinite(s_).all() for s_ in shapes):
        return None
    fit = _fit_outline(dist, cents[best].astype(np.float64), uv0 - origin, shapes, r_px)
    if fit is None:
        return None
    if isinstance(fit, str):
        return BallSighting((math.nan, math.nan), (math.nan, math.nan), mark_only=True)
    uv = (fit + origin)[None]
    xy = camera.image_to_table(uv, z_mm)[0]
    if not np.isfinite(xy).all():
        return None
    return BallSighting((float(uv[0, 0]), float(uv[0, 1])), (float(xy[0]), float(xy[1])))


def _fit_outline(
    dist: NDArray[np.float32],
    c: NDArray[np.float64],
    uv0: NDArray[np.float64],
    shapes: list[NDArray[np.float64]],
    r_px: float,
) -> NDArray[np.float64] | str | None:
    """The ball's image centre from its outline along rays from ``c`` (see :func:`find_ball`);
    ``"mark"`` when the outline is the painted mark's alone. ``shapes``: the ball's predicted
    outline and the mark's, relative to the ball's predicted centre ``uv0``."""
    from scipy.optimize import least_squares

    ang = np.linspace(0.0, 2 * math.pi, 64, endpoint=False)
    u = np.column_stack([np.cos(ang), np.sin(ang)])
    step = 0.1
    reach = max(float(np.abs(s_).max()) for s_ in shapes)
    radii = np.arange(0.0, 2.0 * reach + 3.0, step)
    mu = (c[0] + u[:, :1] * radii).astype(np.float32)
    mv = (c[1] + u[:, 1:] * radii).astype(np.float32)
    prof = cv2.remap(dist, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # The edge is where the profile falls below half the ball's contrast (its inside's median).
    level = 0.5 * float(np.median(prof[:, radii <= 0.4 * r_px]))
    start = int(0.3 * r_px / step)
    below = prof[:, start:] < level
    j = np.argmax(below, axis=1) + start
    rows = np.flatnonzero(below.any(axis=1) & (j > start))
    if len(rows) < 12:
        return None
    j = j[rows]
    a, b = prof[rows, j - 1], prof[rows, j]
    rho = radii[j - 1] + (a - level) / np.maximum(a - b, 1e-6) * step
    ur = u[rows]

    # Each outline may grow or shrink about its own centre: a sphere's shaded limb puts its
    # edge inside the silhouette, a painted mark's edge is where it is (a prior of 1 +- 0.05
    # keeps the mark's scale from trading off against the position). The shift between the
    # two centres is the camera's.
    centres = [p_.mean(axis=0) for p_ in shapes]

    def residuals(x: NDArray[np.float64], idx: tuple[int, ...]) -> Any:
        placed = [
            uv0 + x[:2] + centres[i] + x[2 + k] * (shapes[i] - centres[i])
            for k, i in enumerate(idx)
        ]
        e = _crossings(c, ur, placed[0])[1] if len(placed) == 1 else _union_exit(c, ur, placed)
        r = np.nan_to_num(e - rho, nan=10.0)
        return np.append(r, (x[-1] - 1.0) / 0.05) if idx[-1] == 1 else r

    both = tuple(range(len(shapes)))
    x0 = np.array([0.0, 0.0] + [1.0] * len(both))
    fit = least_squares(residuals, x0, args=(both,), loss="soft_l1", f_scale=0.3)
    if not fit.success or not (0.6 <= fit.x[2:]).all() or not (fit.x[2:] <= 1.6).all():
        return None
    if len(shapes) == 2 and fit.x[2] < 0.75:
        return "mark"  # the ball shrank into the mark: its own outline is nowhere seen
    if len(shapes) == 2 and np.hypot(*(centres[1] - centres[0])) >= 0.5:
        # The other hypothesis: the painted mark alone (no ball on it).
        alone = least_squares(residuals, x0[:3], args=((1,),), loss="soft_l1", f_scale=0.3)
        if alone.cost < 0.6 * fit.cost:
            return "mark"
    return np.asarray(uv0 + fit.x[:2], np.float64)


def _disc_diameter(geom: Any) -> float:
    """Diameter of a filled disc marking; 0 for a ring (its middle is felt)."""
    if getattr(geom, "interiors", None):
        return 0.0
    x0, _, x1, _ = geom.bounds
    return float(x1 - x0)


def check_marks(
    image_bgr: U8, camera: Camera, table: TableSpec, tolerance_mm: float
) -> list[dict[str, Any]]:
    """One record per mark: expected and seen positions, the error, whether it passes, why not."""
    fm = FieldModel(table)
    diameter, height = _ball_size(table)
    z = height / 2.0  # the ball's centre (a flat ball: half its thickness)
    search = max(50.0, 5.0 * tolerance_mm)
    w, h = camera.image_size
    out = []
    for name, key, xy in (
        ("centre_mark", "center_mark", (0.0, 0.0)),
        ("penalty_mark_left", "penalty_mark_left", fm.penalty_mark("left")),
        ("penalty_mark_right", "penalty_mark_right", fm.penalty_mark("right")),
    ):
        # A painted disc under the ball shows around it from a tilted view (a ring does not).
        seen = find_ball(
            image_bgr, camera, xy, diameter, z, search, _disc_diameter(fm.markings[key])
        )
        bare = seen is not None and seen.mark_only
        seen = None if bare else seen
        err = None if seen is None else math.hypot(seen.xy_mm[0] - xy[0], seen.xy_mm[1] - xy[1])
        ok = err is not None and err <= tolerance_mm
        uv = camera.table_to_image(np.array([[xy[0], xy[1], z]]))[0]
        if ok:
            why = ""
        elif err is not None:
            why = f"ball seen {err:.1f} mm off"
        elif bare:
            why = "only the painted mark is seen, no ball on it"
        elif not (np.isfinite(uv).all() and 0 <= uv[0] <= w - 1 and 0 <= uv[1] <= h - 1):
            why = "the mark is outside the picture"
        else:
            why = f"no ball found within {search:.0f} mm (is it there, and distinct from the felt?)"
        out.append(
            {
                "mark": name,
                "expected_mm": [float(xy[0]), float(xy[1])],
                "seen_mm": None if seen is None else list(seen.xy_mm),
                "seen_px": None if seen is None else list(seen.uv_px),
                "error_mm": err,
                "ok": ok,
                "reason": why,
            }
        )
    return out


def run_check_camera(args: argparse.Namespace) -> int:
    if not (math.isfinite(args.tolerance_mm) and args.tolerance_mm > 0):
        raise UsageError(f"--tolerance-mm: expected a positive number, got {args.tolerance_mm}")
    table = load_table(args.table)
    image = read_image(args.image)
    h, w = image.shape[:2]
    camera = _camera_file(args.camera, "--camera", (w, h))
    records = check_marks(image, camera, table, args.tolerance_mm)
    print(
        f"check-camera {args.image} with {args.camera} on table {table.name} "
        f"(tolerance {args.tolerance_mm:g} mm, ball on each mark)"
    )
    print(f"  {'mark':<20} {'expected mm':>18} {'seen mm':>18} {'off mm':>7}")
    for r in records:
        ex = "({:7.1f}, {:6.1f})".format(*r["expected_mm"])
        seen = "not found" if r["seen_mm"] is None else "({:7.1f}, {:6.1f})".format(*r["seen_mm"])
        off = "" if r["error_mm"] is None else f"{r['error_mm']:7.2f}"
        print(f"  {r['mark']:<20} {ex:>18} {seen:>18} {off:>7}  {'ok' if r['ok'] else 'FAIL'}")
    if args.debug:
        _write_png(args.debug, _draw_check(image, camera, records))
    bad = [r for r in records if not r["ok"]]
    if not bad:
        print(f"camera OK: all three balls within {args.tolerance_mm:g} mm of their marks")
        return 0
    why = "; ".join(f"{r['mark']}: {r['reason']}" for r in bad)
    print(f"REFUSED to officiate: {why} (tolerance {args.tolerance_mm:g} mm)")
    print(f"botao: refused: {why}", file=sys.stderr)
    return 1


def _draw_check(image: U8, camera: Camera, records: list[dict[str, Any]]) -> U8:
    out = image.copy()
    for r in records:
        ex = camera.table_to_image(np.array([[*r["expected_mm"], 0.0]]))[0]
        if np.isfinite(ex).all():
            cv2.drawMarker(out, (int(ex[0]), int(ex[1])), (255, 255, 0), cv2.MARKER_CROSS, 16, 1)
        if r["seen_px"] is not None:
            colour = (60, 220, 60) if r["ok"] else (40, 40, 230)
            u, v = r["seen_px"]
            cv2.circle(out, (round(float(u)), round(float(v))), 10, colour, 2, cv2.LINE_AA)
    return out
