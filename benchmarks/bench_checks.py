"""Benchmark: all checks of a rule set on a 23-piece scene; ``botao check`` on 1,000 files.

Targets (issue 2): median <= 2 ms per scene for all checks of one rule set; 1,000 scene files
in one call <= 5 s wall.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from geometry.scene import scene_from_dict
from geometry.tablespec import load_table
from rules.check import run_checks
from rules.checks import CheckContext
from rules.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]


def random_scene(rng: np.random.Generator, table_name: str, context: dict[str, Any]) -> dict:
    """22 buttons/goalkeepers and a ball at random, none overlapping, the ball near play."""
    t = load_table(table_name)
    hl, hw = t.half_length, t.half_width
    pieces: list[dict[str, Any]] = []
    xy: list[tuple[float, float, float]] = []

    def free(x: float, y: float, r: float) -> bool:
        return all((x - a) ** 2 + (y - b) ** 2 > (r + c + 0.5) ** 2 for a, b, c in xy)

    for team, sign in (("A", -1.0), ("B", 1.0)):  # both goalkeepers first: always room
        gy = float(rng.uniform(-40, 40))
        pieces.append(
            {
                "id": f"{team}1",
                "team": team,
                "kind": "goalkeeper",
                "x": sign * (hl - 12),
                "y": gy,
                "length": 70.0,
                "width": 15.0,
                "angle_deg": 90.0,
            }
        )
        xy.append((sign * (hl - 12), gy, 36.0))
    for team in ("A", "B"):
        k = 2
        while k <= 11:
            x, y = rng.uniform(-hl + 40, hl - 40), rng.uniform(-hw + 40, hw - 40)
            if free(x, y, 30.0):
                pieces.append(
                    {
                        "id": f"{team}{k}",
                        "team": team,
                        "kind": "button",
                        "x": float(x),
                        "y": float(y),
                        "diameter": 60.0,
                    }
                )
                xy.append((x, y, 30.0))
                k += 1
    while True:
        x, y = rng.uniform(-hl + 20, hl - 20), rng.uniform(-hw + 20, hw - 20)
        if free(x, y, 5.0):
            pieces.append(
                {"id": "ball", "kind": "ball", "x": float(x), "y": float(y), "diameter": 10.0}
            )
            break
    return {
        "format": "scene/1",
        "table": table_name,
        "teams": {"A": {"defends": "left"}, "B": {"defends": "right"}},
        "pieces": pieces,
        "context": context,
    }


def time_rulesets(n_scenes: int = 40, repeats: int = 10) -> list[tuple[str, float, float, float]]:
    rng = np.random.default_rng(2026)
    rows = []
    for name, rs in RULESETS.items():
        table = load_table(rs.table)
        ctx = CheckContext.build(table, rs)
        restart = {"brasileira": "goal_kick", "paulista": "kick_off", "mesa-posta": "penalty"}
        context: dict[str, Any] = {"to_play": "A"}
        if name in restart:
            context.update(restart=restart[name], team="A")
        elif name in ("nacional", "gaucha"):
            context.update(restart="free_kick", team="A")
        times, cpu = [], []
        for _ in range(n_scenes):
            doc = random_scene(rng, rs.table, dict(context))
            if "restart" in context:
                ball = doc["pieces"][-1]
                doc["context"]["spot"] = [ball["x"], ball["y"]]
            scene = scene_from_dict(doc, "bench")
            run_checks(scene, rs, table, ctx)  # warm
            for _ in range(repeats):
                c0, t0 = time.process_time(), time.perf_counter()
                run_checks(scene, rs, table, ctx)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
        rows.append(
            (
                name,
                statistics.median(times) * 1e3,
                float(np.percentile(times, 95)) * 1e3,
                statistics.median(cpu) * 1e3,
            )
        )
    return rows


def time_cli(n_files: int = 1000) -> tuple[float, float]:
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k in range(n_files):
            p = Path(tmp) / f"s{k:04d}.json"
            p.write_text(json.dumps(random_scene(rng, "brasileira", {"to_play": "A"})), "utf-8")
            paths.append(str(p))
        walls = []
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "monitor.cli",
                    "check",
                    *paths,
                    "--rules",
                    "brasileira",
                    "--json",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
                cwd=ROOT,
            )
            walls.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import monitor.cli"], check=True, cwd=ROOT)
        startup = time.perf_counter() - t0
    return statistics.median(walls), startup


def report() -> list[str]:
    lines = [
        "## Rule checks on a scene (issue 2)",
        "",
        "All checks of each rule set on random 23-piece scenes (40 scenes x 10 runs each,",
        "seeded), field model built once. Target: median <= 2 ms.",
        "",
        "| rule set | median wall ms | p95 wall ms | median CPU ms |",
        "| --- | ---: | ---: | ---: |",
    ]
    load = os.getloadavg()[0]
    for name, med, p95, cpu in time_rulesets():
        lines.append(f"| {name} | {med:.3f} | {p95:.3f} | {cpu:.3f} |")
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, startup = time_cli()
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_cli = (c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime) / 4  # 3 runs + 1 import
    lines += [
        "",
        "`botao check` on 1,000 scene files in one call (`--rules brasileira --json`):",
        f"median wall {wall:.2f} s over 3 runs (target <= 5 s), about {cpu_cli:.2f} s of CPU a",
        f"run; interpreter start and imports alone {startup:.2f} s wall.",
        "",
        f"Load average when this section started: {load:.1f} on {os.cpu_count()} cores. Above",
        "the core count, wall times include waiting for a core; CPU times do not.",
        "",
    ]
    return lines


if __name__ == "__main__":
    print("\n".join(report()))
