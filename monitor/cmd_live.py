"""``botao live --source 0 | /dev/videoN | FILE | sim:FILE | rtsp://... --rules NAME --out DIR``.

Runs :func:`monitor.live.live`: the camera captured on its own thread, the newest frame always
judged, events printed and written (``events.jsonl``, flushed) as they are decided, the raw
video recorded (``raw.mp4``) for a later ``botao analyze``. A FILE (or ``sim:FILE``) is played
as a camera at its real frame rate. Keys: one letter and Enter in the terminal (``s A``
announces a shot for team A, ``g B`` goalkeeper placed, ``u`` undo, ``r`` recalibrate, ``p``
pause, ``q`` stop); in the window (when OpenCV has a display) a/b, k/l, u, r, p, q. Ctrl-C
stops cleanly. Exit 0 when stopped; 2 for bad input (a source that cannot be opened, a camera
for another size, a table the camera cannot be calibrated on).
"""

from __future__ import annotations

import argparse
from typing import Any

from monitor.errors import UsageError

__all__ = ["add_parsers", "run_live"]


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("live", help="monitor a match live from a camera (or a clip as a camera)")
    p.add_argument("--source", required=True, help="0, /dev/videoN, FILE, sim:FILE, rtsp://...")
    p.add_argument("--rules", required=True, help="rule set")
    p.add_argument("--camera", help="camera.json (default: calibrate on the first seconds)")
    p.add_argument("--table", help="table preset or .toml (default: the rule set's table)")
    p.add_argument("--out", default="botao-live", help="output folder (default: botao-live)")
    p.add_argument("--seconds", type=float, help="stop after this much video time")
    p.add_argument("--warmup", type=float, default=2.0, help="seconds to learn the table (2)")
    p.add_argument("--no-record", action="store_true", help="do not record raw.mp4")
    p.set_defaults(func=run_live)


def run_live(args: argparse.Namespace) -> int:
    from monitor.live import live

    if args.seconds is not None and args.seconds <= 0:
        raise UsageError(f"--seconds: expected > 0, got {args.seconds}")
    if args.warmup < 0:
        raise UsageError(f"--warmup: expected >= 0, got {args.warmup}")
    s = live(
        args.source,
        args.out,
        args.rules,
        args.camera,
        args.table,
        warmup_s=args.warmup,
        seconds=args.seconds,
        record=not args.no_record,
    )
    d = s.to_dict()
    lat = d["latency_ms"] or {"median": float("nan"), "max": float("nan")}
    print(
        f"botao live: stopped ({s.stopped_by}); {s.captured} frames captured, {s.judged} "
        f"judged, {s.dropped} not judged, {s.recorder_lost} not recorded; event latency "
        f"median {lat['median']:.0f} ms, max {lat['max']:.0f} ms"
    )
    print("  score: " + "  ".join(f"{t} {n}" for t, n in s.score.items()))
    print(
        f"  files in {args.out}: events.jsonl, tracks.csv, raw.mp4, annotations.json, summary.json"
    )
    return 0
