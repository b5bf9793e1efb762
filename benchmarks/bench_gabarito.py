"""Benchmark: the gabarito checks (``ball_blocked``, ``ball_obstructed``, ``ball_enclosed``).

Usage: ``python -m benchmarks.bench_gabarito``. Prints medians (ms) per scene over seeded
scenes of 22 pieces and a ball:

- ``open``: two 4-3-3 formations with jitter, the ball anywhere on the field;
- ``tight``: the same, with the ball pressed against a button and two teammates moved next to
  it (most of these are blocked, so the exact search runs).

Target (issue 2): all checks of a rule set <= 2 ms per scene, so ``ball_blocked`` for both
teams, margin included, well under 1.5 ms.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from geometry.scene import Scene, SceneError, scene_from_dict
from geometry.tablespec import load_table
from rules.checks import CHECKS, CheckContext
from rules.rulesets import get_ruleset

_SPOTS = [(-800, y) for y in (-300, -100, 100, 300)]
_SPOTS += [(-450, y) for y in (-250, 0, 250)] + [(-150, y) for y in (-200, 0, 200)]


def _formation(team: str, sign: float, rng: np.random.Generator) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {"id": f"{team}1", "team": team, "kind": "goalkeeper", "x": sign * -985.0, "y": 0.0}
    ]
    out[0].update(length=70.0, width=15.0, angle_deg=90.0)
    for i, (x, y) in enumerate(_SPOTS):
        jx, jy = rng.uniform(-30.0, 30.0, 2)
        out.append(
            {
                "id": f"{team}{i + 2}",
                "team": team,
                "kind": "button",
                "x": sign * x + jx,
                "y": y + jy,
                "diameter": 60.0,
            }
        )
    return out


def _doc(pieces: list[dict[str, Any]], ball_xy: np.ndarray) -> dict[str, Any]:
    ball = {"id": "ball", "kind": "ball", "x": float(ball_xy[0]), "y": float(ball_xy[1])}
    ball["diameter"] = 10.0
    return {
        "format": "scene/1",
        "table": "brasileira",
        "teams": {"A": {"defends": "left"}, "B": {"defends": "right"}},
        "pieces": [*pieces, ball],
    }


def scenes(kind: str, n: int, seed: int = 11) -> list[Scene]:
    """``n`` valid scenes of the given kind ("open" or "tight"), seeded."""
    rng = np.random.default_rng(seed)
    table = load_table("brasileira")
    out: list[Scene] = []
    while len(out) < n:
        pieces = _formation("A", 1.0, rng) + _formation("B", -1.0, rng)
        if kind == "open":
            ball = rng.uniform([-950.0, -650.0], [950.0, 650.0])
        else:
            k = int(rng.integers(1, 11))
            a = rng.uniform(0.0, 2.0 * np.pi)
            ball = np.array([pieces[k]["x"], pieces[k]["y"]]) + 36.0 * np.array(
                [np.cos(a), np.sin(a)]
            )
            for j, o in enumerate(
                rng.choice([i for i in range(1, 11) if i != k], 2, replace=False)
            ):
                ang = a + (2 * j - 1) * rng.uniform(0.9, 1.8)
                r = rng.uniform(36.0, 60.0)
                pieces[o] = dict(
                    pieces[o], x=ball[0] + r * np.cos(ang), y=ball[1] + r * np.sin(ang)
                )
        try:
            out.append(scene_from_dict(_doc(pieces, ball), "bench", table))
        except SceneError:
            continue  # overlapping pieces: draw again
    return out


def median_ms(fn: Callable[[Scene], object], cases: list[Scene], repeats: int = 20) -> float:
    per_scene = []
    for sc in cases:
        fn(sc)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn(sc)
            times.append(time.perf_counter() - t0)
        per_scene.append(statistics.median(times))
    return statistics.median(per_scene) * 1e3


def report() -> list[str]:
    lines = [
        "## Gabarito checks (issue 2)",
        "",
        "Median ms per scene (22 pieces and a ball, 40 seeded scenes x 20 runs).",
        "",
        "| rule set | check | open | tight |",
        "| --- | --- | ---: | ---: |",
    ]
    cases = {kind: scenes(kind, 40) for kind in ("open", "tight")}
    for rules, check in (
        ("brasileira", "ball_blocked"),
        ("nacional", "ball_obstructed"),
        ("nacional", "ball_enclosed"),
        ("gaucha", "ball_obstructed"),
        ("gaucha", "ball_enclosed"),
        ("paulista", "ball_obstructed"),
    ):
        rs = get_ruleset(rules)
        ctx = CheckContext.build(load_table("brasileira"), rs)
        fn = CHECKS[check]
        row = [median_ms(lambda s, fn=fn, ctx=ctx: fn(s, ctx), cases[k]) for k in ("open", "tight")]
        lines.append(f"| {rules} | {check} | {row[0]:.3f} | {row[1]:.3f} |")
    blocked = sum(
        bool(v.holds)
        for sc in cases["tight"]
        for v in CHECKS["ball_blocked"](
            sc, CheckContext.build(load_table("brasileira"), get_ruleset("brasileira"))
        )
    )
    lines += [
        "",
        f"Tight scenes: {blocked} of {2 * len(cases['tight'])} team verdicts blocked.",
        "",
    ]
    return lines


if __name__ == "__main__":
    print("\n".join(report()))
