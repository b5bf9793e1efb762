"""``botao detect IMAGE --camera camera.json [--json] [--table NAME] [--rules NAME]``.

Prints the scene seen in one image (INTERFACES.md, "Detect"): ``scene/1`` whose pieces carry
``confidence`` (0-1), ``px`` ([u, v] where the piece was found) and ``sigma_mm`` (1-sigma of the
footprint centre). Ids are given per team in the order of x (the goalkeeper first): one image
cannot know which button is which. Without ``--json`` a table is printed.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import CameraError, load_camera
from geometry.pieces import Pieces
from geometry.scene import Scene
from geometry.tablespec import load_table
from monitor.errors import UsageError
from rules.rulesets import get_ruleset
from vision.detections import Detections

__all__ = ["add_parsers", "detections_scene", "run_detect"]


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "detect", help="find the pieces and the ball in one image: scene/1 in table mm"
    )
    p.add_argument("image", metavar="IMAGE", help="a photo or a video frame (PNG, JPEG)")
    p.add_argument("--camera", required=True, help="camera/1 file (botao calibrate)")
    p.add_argument("--rules", default="brasileira", help="rule set: piece sizes and heights")
    p.add_argument("--table", help="table preset or .toml (default: the rule set's table)")
    p.add_argument("--json", action="store_true", help="print scene/1 JSON")
    p.set_defaults(func=run_detect)


def detections_scene(det: Detections, table_name: str) -> Scene:
    """A ``scene/1`` :class:`Scene` of detections (extras: confidence, px, sigma_mm)."""
    teams = sorted({str(t) for t in det.team if t}) or ["A", "B"]
    if len(teams) == 1:
        teams.append("B" if teams[0] != "B" else "A")
    # a piece whose team could not be told goes with the team that defends its half
    team = np.where(
        (det.kind != "ball") & (det.team == ""),
        np.where(det.xy_mm[:, 0] < 0, teams[0], teams[1]),
        det.team,
    )
    ids: list[str] = [""] * len(det)
    for t in teams:
        rows: list[int] = [j for j in range(len(det)) if team[j] == t and det.kind[j] != "ball"]
        rows.sort(key=lambda i: (det.kind[i] != "goalkeeper", float(det.xy_mm[i, 0])))
        for k, i in enumerate(rows, start=1):
            ids[i] = f"{t}{k}"
    for b in np.flatnonzero(det.kind == "ball"):
        ids[int(b)] = "ball"
    pieces = Pieces(
        ids=np.array(ids, dtype=str),
        team=np.where(det.kind == "ball", "", team).astype(str),
        kind=det.kind.astype(str),
        xy_mm=det.xy_mm,
        size_mm=det.size_mm,
        angle_rad=det.angle_rad,
    )
    extras = [
        {
            "confidence": round(float(det.confidence[i]), 3),
            "px": [round(float(v), 2) for v in det.uv_px[i]],
            "sigma_mm": round(float(det.sigma_mm[i]), 3),
        }
        for i in range(len(det))
    ]
    sides = {teams[0]: "left", teams[1]: "right"}
    return Scene(table_name, sides, pieces, {}, extras, "<detect>")


def run_detect(args: argparse.Namespace) -> int:
    import cv2

    from vision.detect import Detector, DetectorError

    rules = get_ruleset(args.rules)
    table = load_table(args.table or rules.table)
    try:
        camera = load_camera(args.camera)
    except (CameraError, OSError) as exc:
        raise UsageError(f"--camera: {exc}") from None
    path = Path(args.image)
    raw = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if raw is None:
        raise UsageError(f"{args.image}: not a readable image")
    image = np.asarray(raw, np.uint8)
    h, w = image.shape[:2]
    if (w, h) != tuple(camera.image_size):
        raise UsageError(
            f"{args.image}: image is {w}x{h}, camera {args.camera} is for "
            f"{camera.image_size[0]}x{camera.image_size[1]} (calibrate at this resolution)"
        )
    detector = Detector(camera, table, args.rules)
    try:
        detector.check_table(image)
        det = detector.detect(image)
    except DetectorError as exc:
        raise UsageError(f"{args.image}: {exc}") from None
    scene = detections_scene(det, table.name)
    if args.json:
        print(json.dumps(scene.to_dict()))
        return 0
    print(f"{args.image}: {len(det)} pieces on table '{table.name}' ({len(det.hands)} hands)")
    doc = scene.to_dict()
    for p in doc["pieces"]:
        print(
            f"  {p['id']:<5} {p['kind']:<10} x {p['x']:8.1f}  y {p['y']:7.1f}  "
            f"sigma {p['sigma_mm']:.2f} mm  conf {p['confidence']:.2f}"
            + (f"  angle {p['angle_deg']:.0f} deg" if "angle_deg" in p else "")
        )
    if not math.isfinite(float(np.sum(det.xy_mm))):  # pragma: no cover - defensive
        raise UsageError(f"{args.image}: detection produced non-finite positions")
    return 0
