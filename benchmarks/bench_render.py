"""Render speed: frames/s of ``Renderer.render`` alone, 23 pieces and a hand.

Usage: ``python benchmarks/bench_render.py [--frames N] [--moving K]``.

Two cases per resolution and camera: ``typical`` moves the ball and two buttons (a flick in
progress: the resting pieces come from the cached static layer) and ``all moving`` moves every
piece each frame (the worst case: nothing is cached). Frames are synthetic: a FrameTruth built
here, the ball and the moving buttons advancing along their velocities.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from calibration.camera import preset_camera
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.render import Renderer
from simulator.state import FrameTruth, Hand


def synthetic_frame(seed: int = 0) -> FrameTruth:
    """10 buttons and a goalkeeper a side, and the ball: 23 pieces."""
    rng = np.random.default_rng(seed)
    ids, team, kind, xy, size, angle = [], [], [], [], [], []
    for t, sx in (("A", -1.0), ("B", 1.0)):
        ids.append(f"{t}1")
        team.append(t)
        kind.append("goalkeeper")
        xy.append((sx * 975.0, 0.0))
        size.append((70.0, 15.0))
        angle.append(np.pi / 2)
        for k in range(2, 12):
            ids.append(f"{t}{k}")
            team.append(t)
            kind.append("button")
            xy.append((sx * rng.uniform(60, 900), rng.uniform(-620, 620)))
            size.append((60.0, 60.0))
            angle.append(0.0)
    ids.append("ball")
    team.append("")
    kind.append("ball")
    xy.append((20.0, 15.0))
    size.append((10.0, 10.0))
    angle.append(0.0)
    p = Pieces(
        np.array(ids), np.array(team), np.array(kind), np.array(xy), np.array(size), np.array(angle)
    )
    n = len(p)
    return FrameTruth(0, 0.0, p, np.zeros((n, 2)), np.zeros(n, bool))


def frames(base: FrameTruth, count: int, moving: int, fps: float = 60.0) -> list[FrameTruth]:
    """``count`` frames with the last ``moving`` pieces (the ball first) in motion."""
    n = len(base.pieces)
    vel = np.zeros((n, 2))
    rng = np.random.default_rng(1)
    order = [n - 1, *range(n - 1)]  # the ball, then the pieces in order
    for i in order[:moving]:
        vel[i] = rng.uniform(-1500, 1500, 2)
    mov = np.abs(vel).max(axis=1) > 0
    hand = Hand(tip_xy_mm=(-150.0, -350.0), elbow_xy_mm=(-300.0, -1100.0))
    out = []
    for k in range(count):
        xy = base.pieces.xy_mm + vel * k / fps
        out.append(FrameTruth(k, k / fps, replace(base.pieces, xy_mm=xy), vel, mov, hands=(hand,)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--moving", type=int, default=3, help="pieces in motion in the typical case")
    args = ap.parse_args()
    table = load_table("brasileira")
    base = synthetic_frame()
    print(f"{len(base.pieces)} pieces + 1 hand, {args.frames} frames per case (noise on)")
    for size in ((1280, 720), (1920, 1080)):
        for preset in ("overhead", "tilted"):
            cam = preset_camera(preset, table, size)
            t0 = time.perf_counter()
            r = Renderer(table, cam)
            setup = time.perf_counter() - t0
            for label, moving in (("typical", args.moving), ("all moving", len(base.pieces))):
                seq = frames(base, args.frames, moving)
                r.render(seq[0])  # noise bank, static layer
                t0 = time.perf_counter()
                for f in seq:
                    r.render(f)
                dt = (time.perf_counter() - t0) / len(seq)
                print(
                    f"{size[0]}x{size[1]} {preset:8s} {label:10s}: {1.0 / dt:6.1f} frames/s "
                    f"({dt * 1e3:5.1f} ms/frame; setup {setup:.2f} s)"
                )


if __name__ == "__main__":
    main()
