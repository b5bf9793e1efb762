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
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera, CameraError, load_camera
from calibration.estimate import CalibrationResult
from geometry.tablespec import TableSpec, load_table
from monitor.errors import UsageError

__all__ = ["add_parsers", "ball_size", "quality_report", "run_calibrate", "run_check_camera"]

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
    """A BGR picture; a missing or unreadable file is a one-line error naming it."""
    if not Path(path).exists():
        raise UsageError(f"{path}: no such file")
    if not Path(path).is_file():
        raise UsageError(f"{path}: not a file")
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise UsageError(f"{path}: not an image OpenCV can read")
    return np.asarray(img, np.uint8)


def read_frames(path: str) -> list[U8]:
    """One image, or the first frames of a video."""
    if Path(path).suffix.lower() in IMAGE_SUFFIXES:
        return [read_image(path)]
    if not Path(path).exists():
        raise UsageError(f"{path}: no such file")
    if not Path(path).is_file():
        raise UsageError(f"{path}: not a file")
    from simulator.video import read_video

    frames: list[U8] = []
    try:
        for frame in read_video(path):
            frames.append(frame)
            if len(frames) >= VIDEO_FRAMES:
                break
    except Exception as exc:  # PyAV raises its own error types for unreadable files
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UsageError(f"{path}: not a readable image or video ({first})") from None
    if not frames:
        raise UsageError(f"{path}: the video has no frames")
    return frames


def _camera_file(
    path: str, option: str, size: tuple[int, int] | None = None, pose: bool = False
) -> Camera:
    """A camera/1 file given with ``option``; it must be for ``size`` (w, h) pictures and,
    with ``pose``, more than the lens alone (``calibrate-intrinsics`` writes no pose)."""
    try:
        cam = load_camera(path)
    except CameraError as exc:
        raise UsageError(f"{option}: {exc}") from None
    if pose and json.loads(Path(path).read_text(encoding="utf-8")).get("intrinsics_only"):
        raise UsageError(
            f"{option} {path}: field 'intrinsics_only' is true: a lens without a pose; make the "
            f"camera with `botao calibrate IMAGE --intrinsics {path} --out camera.json`"
        )
    if size is not None and tuple(cam.image_size) != size:
        raise UsageError(
            f"{option} {path}: field 'image_size' {cam.image_size[0]}x{cam.image_size[1]} "
            f"differs from the image's {size[0]}x{size[1]} (a camera file is for one resolution)"
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
        result, report = _from_points(args, frames[0], table, intrinsics)
    else:
        if len(frames) == 1:
            result = calibrate_image(
                frames[0], table, intrinsics=intrinsics, right_goal=args.right_goal
            )
        else:
            result = calibrate_frames(
                frames, table, intrinsics=intrinsics, right_goal=args.right_goal
            )
        report = quality_report(args.input, table, result) if result.ok else []
    if args.debug:
        from calibration.debug import draw_calibration

        _write_png(args.debug, draw_calibration(frames[0], table, result))
    if not result.ok or result.camera is None:
        drawn = f" (see {args.debug})" if args.debug else ""
        raise UsageError(f"{args.input}: calibration failed: {result.reason}{drawn}")
    print("\n".join(report))
    doc = result.camera.to_dict()
    if not args.points:
        doc.update(
            found_share=result.found_share,
            found_by_marking=result.found_by_marking,
            per_marking_px=result.per_marking_px,
            per_marking_mm=result.per_marking_mm,
        )
    try:
        Path(args.out).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--out {args.out}: cannot write ({exc.strerror})") from None
    print(f"wrote {args.out}" + (f" and {args.debug}" if args.debug else ""))
    return 0


def _from_points(
    args: argparse.Namespace, image: U8, table: TableSpec, intrinsics: Camera | None
) -> tuple[CalibrationResult, list[str]]:
    """A calibration from a points/1 file (or the click-to-pick window), and its report."""
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
    result = CalibrationResult(cam, "", cam.rms_px, cam.rms_mm, found_share=math.nan)
    lines = [
        f"calibrated {args.input} on table {table.name} from {len(pairs.names)} point pairs "
        f"({args.points}): rms {cam.rms_px:.2f} px, {cam.rms_mm:.2f} mm",
        _lens_line(cam),
        f"  {'pair':<24} {'err px':>7} {'err mm':>7}",
    ]
    for name, e_px, e_mm in zip(pairs.names, fit.residuals_px, fit.residuals_mm, strict=True):
        lines.append(f"  {name:<24} {e_px:7.2f} {e_mm:7.2f}")
    lines += [f"  warning: {w_}" for w_ in fit.warnings]
    return result, lines


def _lens_line(cam: Camera) -> str:
    f = float(cam.K[0, 0])
    hfov = math.degrees(2 * math.atan(cam.image_size[0] / 2.0 / f))
    return (
        f"  focal {f:.1f} px (horizontal field of view {hfov:.1f} deg), "
        f"k1 {cam.dist[0]:+.4f}, k2 {cam.dist[1]:+.4f}; camera {cam.centre_mm[2] / 1000:.2f} m "
        f"above the table; +x goal on the image's {cam.right_goal_image_side}"
    )


def quality_report(source: str, table: TableSpec, result: CalibrationResult) -> list[str]:
    """The lines ``botao calibrate`` prints: the fit's RMS in pixels and on the table, the
    share of the markings found, the lens, and per marking its share found and its RMS."""
    cam = result.camera
    assert cam is not None
    lines = [
        f"calibrated {source} on table {table.name}: rms {result.rms_px:.2f} px, "
        f"{result.rms_mm:.2f} mm; markings found {100 * result.found_share:.0f}% of their length",
        _lens_line(cam),
    ]
    names = list(result.found_by_marking) or sorted(result.per_marking_px)
    names += [n for n in result.per_marking_px if n not in names]  # the crossbars
    if names:
        lines.append(f"  {'marking':<24} {'found':>6} {'rms px':>7} {'rms mm':>7}")
        for name in names:
            share = result.found_by_marking.get(name)
            px = result.per_marking_px.get(name)
            mm = result.per_marking_mm.get(name)
            lines.append(
                f"  {name:<24} {'' if share is None else f'{100 * share:.0f}%':>6} "
                f"{'-' if px is None else f'{px:.2f}':>7} {'-' if mm is None else f'{mm:.2f}':>7}"
            )
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
def ball_size(table: TableSpec) -> tuple[float, float]:
    """The ball's (diameter, height) in mm under the table's rule set (else the brasileira)."""
    from rules.rulesets import RuleSetError, get_ruleset

    try:
        pieces = get_ruleset(table.rules or "brasileira").pieces
    except RuleSetError:
        pieces = None
    if pieces is None:
        pieces = get_ruleset("brasileira").pieces
    assert pieces is not None
    return pieces.ball_diameter, pieces.ball_height


def run_check_camera(args: argparse.Namespace) -> int:
    if not (math.isfinite(args.tolerance_mm) and args.tolerance_mm > 0):
        raise UsageError(f"--tolerance-mm: expected a positive number, got {args.tolerance_mm}")
    table = load_table(args.table)
    image = read_image(args.image)
    h, w = image.shape[:2]
    camera = _camera_file(args.camera, "--camera", (w, h), pose=True)
    from calibration.check import check_marks

    records = check_marks(image, camera, table, args.tolerance_mm, *ball_size(table))
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
        from calibration.debug import draw_check

        _write_png(args.debug, draw_check(image, camera, records))
    bad = [r for r in records if not r["ok"]]
    if not bad:
        print(f"camera OK: all three balls within {args.tolerance_mm:g} mm of their marks")
        return 0
    why = "; ".join(f"{r['mark']}: {r['reason']}" for r in bad)
    print(f"REFUSED to officiate: {why} (tolerance {args.tolerance_mm:g} mm)")
    print(f"botao: refused: {why}", file=sys.stderr)
    return 1
