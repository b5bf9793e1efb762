"""Benchmark: simulate + render frames/s of a seeded random match (issue 3).

Targets: >= 60 frames/s at 1280x720 and >= 30 frames/s at 1920x1080 on a 2-core machine,
physics and rendering (noise, blur, hands, shadows) included, video encoding excluded (reported
apart). Usage: ``python -m benchmarks.bench_simulator``.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.match import Match
from simulator.render import Renderer
from simulator.video import VideoWriter

SECONDS = 20.0
FPS = 30.0


def _run(size: tuple[int, int], seed: int, render: bool, encode: bool) -> tuple[float, float]:
    """Frames per wall second and per CPU second of one 20 s match at ``size``."""
    table = load_table("brasileira")
    camera = preset_camera("overhead", table, size)
    renderer = Renderer(table, camera, rng=seed) if render else None
    with tempfile.TemporaryDirectory() as tmp:
        writer = VideoWriter(Path(tmp) / "v.mp4", FPS, size) if encode else None
        t0, c0 = time.perf_counter(), time.process_time()
        n = 0
        for frame in Match(table, "brasileira", seed=seed, fps=FPS).frames(SECONDS):
            if renderer is not None:
                img = renderer.render(frame)
                if writer is not None:
                    writer.write(img)
            n += 1
        if writer is not None:
            writer.close()
        return n / (time.perf_counter() - t0), n / (time.process_time() - c0)


def report() -> list[str]:
    lines = [
        "## Simulator: simulate + render (issue 3)",
        "",
        f"A seeded random brasileira match, {SECONDS:g} s at {FPS:g} frames/s, overhead camera,",
        "noise, blur, shadows and hands on; median of 3 seeds. Targets: >= 60 frames/s at",
        "1280x720 and >= 30 frames/s at 1920x1080 (simulate + render).",
        "",
        "| resolution | simulate only | simulate + render (wall) | per CPU second "
        "| + H.264 encode (wall) |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    load = os.getloadavg()[0]
    sim = statistics.median(_run((320, 180), s, False, False)[0] for s in (0, 1, 2))
    for size in ((1280, 720), (1920, 1080)):
        runs = [_run(size, s, True, False) for s in (0, 1, 2)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        enc = _run(size, 0, True, True)[0]
        lines.append(f"| {size[0]}x{size[1]} | {sim:.0f} | {wall:.1f} | {cpu:.1f} | {enc:.1f} |")
    lines += [
        "",
        f"Load average when this section started: {load:.1f} on {os.cpu_count()} cores.",
        "",
    ]
    return lines


if __name__ == "__main__":
    print("\n".join(report()))
