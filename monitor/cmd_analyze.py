"""``botao analyze VIDEO --rules NAME [--camera camera.json] --out DIR``: a replay judged.

Runs :func:`monitor.analyze.analyze` with a progress bar and prints the score, the headline
events and where the files went. Exit status: 0 done; 2 bad input (no such file, not a video,
a camera for another size, bad annotations, a video the camera cannot be calibrated from);
3 the video is damaged (corrupt packets, cut short): everything read before and after the
damage was analysed and written, and the damage is reported.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from monitor.errors import UsageError
from monitor.progress import Progress
from monitor.report import HEADLINE

__all__ = ["DAMAGED", "add_parsers", "run_analyze"]

DAMAGED = 3


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("analyze", help="judge a recorded match: events, tracks, video, report")
    p.add_argument("video", metavar="VIDEO", help="the video (mp4 or anything FFmpeg reads)")
    p.add_argument("--rules", required=True, help="rule set: nacional, brasileira, gaucha, ...")
    p.add_argument("--camera", help="camera.json (default: calibrate on the first frames)")
    p.add_argument("--table", help="table preset or .toml (default: the rule set's table)")
    p.add_argument("--annotations", help="annotations/1 JSON: shots announced, decisions")
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--no-video", action="store_true", help="skip annotated.mp4")
    p.add_argument(
        "--video-scale",
        type=float,
        help="annotated.mp4 size / camera size (default: at most 960 pixels wide)",
    )
    p.add_argument(
        "--mid-play",
        action="store_true",
        help="the video does not start at a kick-off (its first lance is an ordinary one)",
    )
    p.set_defaults(func=run_analyze)


def run_analyze(args: argparse.Namespace) -> int:
    from monitor.analyze import analyze

    if args.video_scale is not None and not 0.1 <= args.video_scale <= 1.0:
        raise UsageError(f"--video-scale: expected 0.1-1.0, got {args.video_scale}")
    bar: Progress | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(total or 1, f"analysing {args.video}")
        bar.update(done)

    def said(e: dict[str, Any]) -> None:
        if e["type"] in HEADLINE:
            from monitor.analyze import event_line

            print(event_line(e), flush=True)

    try:
        s = analyze(
            args.video,
            args.out,
            args.rules,
            args.camera,
            args.table,
            args.annotations,
            video_scale=args.video_scale,
            write_video=not args.no_video,
            kick_off=not args.mid_play,
            progress=progress,
            on_event=said,
        )
    finally:
        if bar is not None:
            bar.close()
    fps = s.frames / max(s.wall_s, 1e-9)
    score = "  ".join(f"{t} {n}" for t, n in s.score.items())
    print(f"analysed {s.frames} frames ({fps:.1f} frames/s): score {score}")
    print(f"  files: {', '.join(s.outputs.values())}")
    if s.damage:
        print(f"botao: damaged video: {s.damage}", file=sys.stderr)
        return DAMAGED
    return 0
