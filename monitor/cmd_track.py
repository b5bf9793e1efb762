"""``botao track VIDEO [--camera camera.json] [--table NAME] [--rules NAME] --out DIR``.

Detects and tracks every piece of a video (:func:`vision.pipeline.track_video`) and writes
``DIR/tracks.csv`` (INTERFACES.md: frame, t, id, team, kind, x, y, vx, vy, moving, and a
``status`` column) and ``DIR/contacts.jsonl`` as it goes, with a progress bar. Without
``--camera`` the camera is calibrated from the video's first frames
(:func:`calibration.auto.calibrate_frames`) and saved as ``DIR/camera.json``. A video that
cannot be read, or a camera made for another image size, is a one-line error (exit 2).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from calibration.camera import Camera, CameraError, load_camera
from geometry.tablespec import TableSpec, load_table
from monitor.errors import UsageError
from monitor.progress import Progress
from rules.rulesets import get_ruleset

__all__ = ["add_parsers", "run_track", "track"]


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("track", help="detect and track every piece of a video: tracks.csv")
    p.add_argument("video", metavar="VIDEO", help="the video (mp4, any size the camera has)")
    p.add_argument("--camera", help="camera.json (default: calibrate on the first frames)")
    p.add_argument("--table", help="table preset or .toml (default: the rule set's table)")
    p.add_argument("--rules", default="brasileira", help="rule set (piece sizes and heights)")
    p.add_argument("--out", required=True, help="output folder")
    p.set_defaults(func=run_track)


def _camera(video: Path, spec: str | None, table: TableSpec, out: Path) -> Camera:
    from vision.pipeline import PipelineError, iter_frames

    if spec is not None:
        try:
            return load_camera(spec)
        except (CameraError, OSError) as exc:
            raise UsageError(f"--camera {spec}: {exc}") from None
    from calibration.auto import calibrate_frames

    try:
        result = calibrate_frames(iter_frames(video, limit=27), table)
    except PipelineError as exc:
        raise UsageError(str(exc)) from None
    if not result.ok or result.camera is None:
        raise UsageError(
            f"{video}: cannot calibrate the camera from its first frames ({result.reason}); "
            "pass --camera camera.json"
        )
    out.mkdir(parents=True, exist_ok=True)
    result.camera.save(out / "camera.json")
    return result.camera


def track(
    video: str | Path,
    out: str | Path,
    camera_spec: str | None = None,
    table_name: str | None = None,
    rules_name: str = "brasileira",
) -> dict[str, Any]:
    """Run the tracker over ``video`` into ``out``; returns a summary (frames, seconds)."""
    from vision.detect import DetectorError
    from vision.pipeline import PipelineError, track_video, video_size

    video, out = Path(video), Path(out)
    rules = get_ruleset(rules_name)
    table = load_table(table_name or rules.table or "brasileira")
    try:
        _, _, n_frames = video_size(video)
    except PipelineError as exc:
        raise UsageError(str(exc)) from None
    camera = _camera(video, camera_spec, table, out)
    bar = Progress(n_frames or 1, f"tracking {video.name}")
    t0 = time.perf_counter()
    n = 0
    try:
        for _ in track_video(video, camera, table, rules_name, bar.update, out):
            n += 1
    except (PipelineError, DetectorError) as exc:
        raise UsageError(str(exc)) from None
    finally:
        bar.close()
    return {"frames": n, "seconds": time.perf_counter() - t0, "out": str(out)}


def run_track(args: argparse.Namespace) -> int:
    s = track(args.video, args.out, args.camera, args.table, args.rules)
    fps = s["frames"] / max(s["seconds"], 1e-9)
    print(f"tracked {s['frames']} frames ({fps:.1f} frames/s) into {s['out']}/tracks.csv")
    return 0
