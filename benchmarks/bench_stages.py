"""Benchmark: where the detector's time goes, stage by stage (issue 5, "Speed").

The speed part's render of ``bench_analyze`` (a seeded random brasileira match at 1920x1080,
tilted camera, hands, H.264), the table learned from it as ``botao analyze`` learns it, then
the detector run over its frames (decoded on the fly, not timed) with its stages timed: the
wall time of every call of each stage (a stage's time includes the stages it calls), per
frame and per call. A profile for finding the next thing to make faster, not a target; the
targets are ``bench_analyze``'s and ``bench_track``'s.

Usage: ``python -m benchmarks.bench_stages [--seconds S] [--frames N] [--seed N] [--clip DIR]``
(``--clip``: render into DIR, or use the render already there).
"""

from __future__ import annotations

import argparse
import collections
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.bench_analyze import SEED, _render

# (module, owner within it or "", attribute, label): the stages timed; a function bound under
# several names (imported into another module) is timed under one label at each binding
STAGES = (
    ("vision.detect", "Detector", "detect", "detect (all)"),
    ("vision.detect", "Detector", "_detect", "  find the pieces and the ball"),
    ("vision.detect", "Detector", "_buttons", "    buttons: seeds and fits"),
    ("vision.detect", "", "fit_solid", "      a solid's fit (buttons)"),
    ("vision.keeper_search", "", "fit_keeper", "      a goalkeeper's search"),
    ("vision.detect", "Detector", "_leftovers", "    goalkeepers and ball blobs"),
    ("vision.detect", "Detector", "_ball", "    the ball's search"),
    ("vision.ball_search", "", "fit_ball", "      a ball fit"),
    ("vision.ball_search", "", "_on_crossbar", "      crossbar ghosts"),
    ("vision.ball_search", "", "beside_a_piece", "      beside a piece (refits)"),
    ("vision.detect", "Detector", "_excluded", "    full-resolution masks"),
    ("vision.detect", "Detector", "_raster", "    coarse masks"),
    ("vision.detect", "Detector", "_blobs", "    blobs"),
    ("vision.detect", "", "foreground", "    foreground"),
    ("vision.detect", "", "noise_floor", "    noise floor"),
    ("vision.frame_memory", "FrameMemory", "unchanged", "    what did not change"),
    ("vision.background", "Background", "heal", "  background: ghosts healed"),
    ("vision.background", "Background", "update", "  background: a band updated"),
    ("vision.background", "Background", "measure_gain", "  background: light gain"),
    ("vision.detect", "", "refresh_spots", "  painted spots refreshed"),
)


@contextmanager
def timed(
    stages: tuple[tuple[str, str, str, str], ...] = STAGES,
) -> Iterator[tuple[collections.defaultdict[str, float], collections.Counter[str]]]:
    """Wrap each stage with a timer while inside: yields (seconds, calls) by label; the
    originals are put back on leaving."""
    import importlib

    secs: collections.defaultdict[str, float] = collections.defaultdict(float)
    calls: collections.Counter[str] = collections.Counter()
    undo: list[tuple[Any, str, Any]] = []

    def wrap(f: Callable[..., Any], label: str) -> Callable[..., Any]:
        def w(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                secs[label] += time.perf_counter() - t0
                calls[label] += 1

        return w

    try:
        for mod_name, owner_name, attr, label in stages:
            mod = importlib.import_module(mod_name)
            owner = getattr(mod, owner_name) if owner_name else mod
            f = getattr(owner, attr)
            undo.append((owner, attr, f))
            setattr(owner, attr, wrap(f, label))
        yield secs, calls
    finally:
        for owner, attr, f in reversed(undo):
            setattr(owner, attr, f)


def stages_run(video: Path, frames: int) -> dict[str, Any]:
    """The detector over the first ``frames`` frames of ``video`` (its ``camera.json``
    beside it), stages timed."""
    from calibration.camera import load_camera
    from geometry.tablespec import load_table
    from monitor.analyze import learn_frames
    from monitor.source import VideoFileSource
    from rules.rulesets import get_ruleset
    from vision.detect import Detector

    source = VideoFileSource(video)
    rules = get_ruleset("brasileira")
    det = Detector(load_camera(video.with_name("camera.json")), load_table(rules.table), rules.name)
    det.learn_background(learn_frames(source, source.fps))
    n = 0
    c0 = time.process_time()
    with timed() as (secs, calls):
        for k, img in source.frames(limit=frames):
            det.detect(img, k, k / source.fps)
            n += 1
    cpu = time.process_time() - c0
    return {"frames": n, "cpu_s": cpu, "secs": dict(secs), "calls": dict(calls)}


def report(
    seconds: float = 30.0, frames: int = 600, seed: int = SEED, clip: Path | None = None
) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        d = clip if clip is not None else Path(tmp)
        if not (d / "video.mp4").is_file():
            _render("brasileira", seconds, seed, d)
        r = stages_run(d / "video.mp4", frames)
    n = max(r["frames"], 1)
    lines = [
        f"**Detector stages**: a {seconds:.0f} s random brasileira match (seed {seed}) at "
        f"1920x1080, its first {r['frames']} frames, the table learned first "
        "(`python -m benchmarks.bench_stages`). Wall time of each stage's calls (a stage "
        "includes those indented under it); the process's CPU "
        f"{1000 * r['cpu_s'] / n:.1f} ms a frame (the decoder's thread included).",
        "",
        "| stage | calls a frame | ms a frame | ms a call |",
        "| --- | ---: | ---: | ---: |",
    ]
    for *_, label in STAGES:
        c = r["calls"].get(label, 0)
        s = r["secs"].get(label, 0.0)
        name = label.strip()
        pad = "&nbsp;" * (len(label) - len(label.lstrip()))
        lines.append(
            f"| {pad}{name} | {c / n:.2f} | {1000 * s / n:.2f} | "
            f"{(1000 * s / c if c else 0.0):.3f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_stages")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--clip", type=Path)
    a = ap.parse_args(argv)
    print("\n".join(report(a.seconds, a.frames, a.seed, a.clip)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
