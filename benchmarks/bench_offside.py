"""Benchmark: offside calls on seeded drills (issue 6).

The seeded random matches of ``bench_engine`` hold 0-2 offsides in 30 minutes of play: their
coaches' attackers seldom stand past the defence when a team-mate plays the ball, so the
matches cannot measure the call. The drills put one there half the time. Each drill, on the
rule set's table (team A attacks +x):

- team B's goalkeeper on its goal line, its last button at ``x_last`` and two more up-field;
- team A's receiver ``A9`` level with the last defender plus an offset of 8-80 mm either way
  (past it: in offside position, with only the goalkeeper behind it; short: not), away from
  the defenders across the table; for ``gaucha`` level means wholly past it (a button's
  diameter further, 001 Art. XXXII § 1 a);
- the ball where the rule set lets an offside come of it (000 REGRA 11 B: in the attacking
  half; 001 Art. XXXII § 1 b: leaving the defence half), 200 mm or more behind the receiver;
- lance 1: ``A7`` pushes the ball a few cm sideways (000 REGRA 11 D: no offside on the
  coach's first lance); lance 2: ``A6`` passes it to ``A9`` along the line between them, as
  a coach aims (:func:`simulator.players.hit_for`; the coach's aim error, 1.5 deg).

The simulator's referee (:mod:`simulator.truth`) calls what happened; three engines are fed
the frames as in ``bench_engine`` (``exact``: the text, ``tracked``: 0.5 mm noise,
hysteresis, late contacts, a 2-frame lag; ``as truth``: exceptions D and E only, no case A) and
scored on ``offside`` (team and piece, within 2 frames) and on ``touch``. A drill whose pass
missed the receiver (the ball hit nothing, or a defender) still counts: no offside then.

**Through the camera** (``--camera-drills N``, 15 by default, 0: none): the first N drills
of each rule set rendered at 1920x1080, each through its own seeded camera and look (as
``bench_detect``'s stills: tilt 0-25 deg, lens distortion, felt, team designs with the hard
pairs, light gradient, vignette, noise, JPEG), the coaches' hands, H.264, and judged by
``botao analyze`` from the video (its camera file given: the drills are too short to
calibrate from); the tracks' ids mapped to the simulator's by where they were first seen.

Usage: ``python -m benchmarks.bench_offside [--drills N] [--camera-drills N] [--seed S]
[--rules NAME ...]``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from geometry.pieces import Pieces
from geometry.tablespec import load_table
from monitor.compare import KEYS, score
from rules.engine import EngineOptions, RuleEngine
from rules.rulesets import get_ruleset
from simulator.match import TimelineRunner, flick_with_hand
from simulator.physics import TableWorld
from simulator.players import hit_for
from simulator.state import FrameTruth
from simulator.truth import DEFAULT_TEAMS, Referee
from tests.rules.engine.adapters import TrackedTruth, state_from_truth
from tests.rules.engine.truth_eval import AS_TRUTH, MODES

RULES = ("brasileira", "gaucha")  # the rule sets whose texts have an offside
DRILLS = 200
CAMERA_DRILLS = 15
SEED = 4000
ENGINES = ("exact", "tracked", "as truth")
SCORED = ("offside", "touch")
FPS = 30.0
AIM_SIGMA_RAD = math.radians(1.5)


@dataclass
class Drill:
    """One drill's frames and what its referee called."""

    seed: int
    offset_mm: float  # the receiver past (> 0) or short of (< 0) the last defender
    frames: list[FrameTruth]
    truth: list[dict[str, Any]]
    passed: bool  # lance 2 could be aimed


def _pieces(rules: str, rng: np.random.Generator) -> tuple[Pieces, float]:
    rs = get_ruleset(rules)
    table = load_table(rs.table)
    sz = rs.pieces
    assert sz is not None
    hl, hw = table.half_length, table.half_width
    r_b = sz.button_diameter / 2.0
    x_last = rng.uniform(0.45, 0.75) * hl
    offset = float(rng.choice([-1.0, 1.0]) * rng.uniform(8.0, 80.0))
    side = float(rng.choice([-1.0, 1.0]))
    y_last = side * rng.uniform(0.05, 0.35) * hw
    y_recv = -side * rng.uniform(0.05, 0.4) * hw  # across the table from the last defender
    # the line an attacker must pass: the defender's centre (000 REGRA 11: "mais próximo da
    # linha de fundo"), or its front edge by a whole button (001 Art. XXXII § 1 a: "o corpo
    # do jogador completamente à frente do jogador adversário")
    edge = sz.button_diameter if rules == "gaucha" else 0.0
    recv = np.array([x_last + edge + offset, y_recv])
    if rules == "gaucha":  # the ball leaves the defence half (001 Art. XXXII § 1 b)
        x_ball = -rng.uniform(0.05, 0.25) * hl
    else:  # in the attacking half, well behind the receiver (000 REGRA 11 B)
        x_ball = rng.uniform(0.05, 1.0) * (recv[0] - 200.0)
    ball = np.array([x_ball, rng.uniform(-0.3, 0.3) * hw])
    u = (recv - ball) / np.hypot(*(recv - ball))
    n = np.array([-u[1], u[0]])
    ids = ["A1", "B1", "B2", "B3", "B4", "A6", "A7", "A9", "ball"]
    xy = [
        (-(hl - sz.goalkeeper_width / 2.0 - 1.0), 0.0),
        (hl - sz.goalkeeper_width / 2.0 - 1.0, 0.0),
        (x_last, y_last),
        (rng.uniform(0.1, 0.3) * hl, side * 0.6 * hw),
        (rng.uniform(0.1, 0.3) * hl, -side * 0.75 * hw),
        tuple(ball - 170.0 * u - 40.0 * n),  # lance 2's passer, behind the ball
        tuple(ball + (r_b + sz.ball_diameter / 2.0 + 30.0) * n),  # lance 1's, beside it
        tuple(recv),
        tuple(ball),
    ]
    team = ["A", "B", "B", "B", "B", "A", "A", "A", ""]
    kind = ["goalkeeper", "goalkeeper"] + ["button"] * 6 + ["ball"]
    size = [
        (sz.goalkeeper_length, sz.goalkeeper_width) if k == "goalkeeper" else
        (sz.ball_diameter, sz.ball_diameter) if k == "ball" else
        (sz.button_diameter, sz.button_diameter)
        for k in kind
    ]  # fmt: skip
    height = [
        sz.goalkeeper_height if k == "goalkeeper" else
        sz.ball_height if k == "ball" else sz.button_height
        for k in kind
    ]  # fmt: skip
    angle = [math.pi / 2.0 if k == "goalkeeper" else 0.0 for k in kind]
    p = Pieces(
        np.array(ids), np.array(team), np.array(kind), np.array(xy, float),
        np.array(size, float), np.array(angle), np.array(height, float),
    )  # fmt: skip
    return p, offset


def drill(rules: str, seed: int) -> Drill:
    """Play one seeded drill (module docstring)."""
    rng = np.random.default_rng(seed)
    rs = get_ruleset(rules)
    table = load_table(rs.table)
    sz = rs.pieces
    assert sz is not None
    pieces, offset = _pieces(rules, rng)
    world = TableWorld(table, pieces)
    runner = TimelineRunner(world, FPS, Referee(table, rules, DEFAULT_TEAMS))
    # lance 1: A7 nudges the ball sideways, toward where A6 waits
    b, a7 = np.array(world.position("ball")), np.array(world.position("A7"))
    away = math.atan2(*(b - a7)[::-1])
    ang, v, _, _ = hit_for(a7, sz.button_diameter / 2, b, sz.ball_diameter / 2, away, 40.0)
    flick_with_hand(runner, table, "A", 1.0, "A7", ang, v)
    frames = list(runner.advance(2.5))
    frames += runner.settle(3.0)
    # lance 2: A6 passes to A9 (aimed at its centre, with a coach's aim error)
    b, a6 = np.array(world.position("ball")), np.array(world.position("A6"))
    to = np.array(world.position("A9")) - b
    aim = math.atan2(to[1], to[0]) + rng.normal(0.0, AIM_SIGMA_RAD)
    ang, v, cut, _ = hit_for(
        a6, sz.button_diameter / 2, b, sz.ball_diameter / 2, aim, float(np.hypot(*to)) + 150.0
    )
    passed = cut > 0.2 and v > 0.0
    if passed:
        t2 = runner.t + 0.6
        flick_with_hand(runner, table, "A", t2, "A6", ang, v)
        frames += runner.advance(t2 + 0.1)
        frames += runner.settle(4.0)
    frames += runner.advance(runner.t + 0.5)
    return Drill(seed, offset, frames, list(runner.events), passed)


@dataclass
class Result:
    rules: str
    drills: int = 0
    passed: int = 0
    offside_truth: int = 0
    offset_of_truth: list[float] = field(default_factory=list)
    tallies: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # truth/engine/ok
    misses: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    sim_s: float = 0.0


def evaluate(rules: str, drills: int = DRILLS, seed: int = SEED) -> Result:
    res = Result(rules)
    opts: dict[str, EngineOptions] = {
        "exact": MODES["exact"][1],
        "tracked": MODES["tracked"][1],
        "as truth": AS_TRUTH,
    }
    table = load_table(get_ruleset(rules).table)
    for k in range(drills):
        t0 = time.perf_counter()
        d = drill(rules, seed + k)
        res.sim_s += time.perf_counter() - t0
        res.drills += 1
        res.passed += d.passed
        off = [e for e in d.truth if e["type"] == "offside" and e["holds"]]
        res.offside_truth += len(off)
        res.offset_of_truth += [d.offset_mm] * len(off)
        tracked = TrackedTruth(seed=seed + k + 1000)
        for name in ENGINES:
            eng = RuleEngine(table, rules, dict(DEFAULT_TEAMS), options=opts[name])
            for ft in d.frames:
                eng.update(tracked(ft) if name == "tracked" else state_from_truth(ft))
            eng.finish()
            for kind in SCORED:
                s = score(d.truth, eng.events, kind)
                t = res.tallies.setdefault((name, kind), [0, 0, 0])
                t[0] += s.truth
                t[1] += s.engine
                t[2] += s.matched
                res.misses.setdefault(f"{name}/{kind}", []).extend(
                    [(d.seed, f"missed {KEYS[kind](e)} @{e['frame']}") for e in s.missed]
                    + [(d.seed, f"extra {KEYS[kind](e)} @{e['frame']}") for e in s.extra]
                )
    return res


def camera_run(rules: str, seed: int) -> tuple[dict[str, tuple[int, int, int]], list[str]]:
    """One drill rendered and analysed through the camera: (truth, found, matched) per
    scored kind, and the disagreements."""
    from benchmarks.bench_calibration import random_camera
    from benchmarks.bench_detect import _style
    from monitor.analyze import analyze
    from monitor.demo import id_map_from_tracks
    from simulator.clip import write_clip

    d = drill(rules, seed)
    table = load_table(get_ruleset(rules).table)
    rng = np.random.default_rng(seed + 7919)  # the look: not the drill's own draws
    cam = random_camera(rng, table, (1920, 1080))[0]
    style = _style(rng)[0]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        write_clip(
            d.frames, table, cam, out, FPS, style, rules_name=rules, teams=dict(DEFAULT_TEAMS)
        )
        analyze(out / "video.mp4", out / "a", rules, out / "camera.json", write_video=False)
        found = [json.loads(x) for x in (out / "a" / "events.jsonl").read_text().splitlines()]
        id_map = id_map_from_tracks(out / "a" / "tracks.csv", {f.frame: f for f in d.frames})
    got, odd = {}, []
    for kind in SCORED:
        sc = score(d.truth, found, kind, 2, id_map)
        got[kind] = (sc.truth, sc.engine, sc.matched)
        odd += [f"{seed}: missed {kind} {KEYS[kind](e)} @{e['frame']}" for e in sc.missed]
        odd += [f"{seed}: extra {kind} {KEYS[kind](e)} @{e['frame']}" for e in sc.extra]
    return got, odd


def _pr(t: list[int]) -> str:
    p = 100.0 * t[2] / t[1] if t[1] else 100.0
    r = 100.0 * t[2] / t[0] if t[0] else 100.0
    return f"{p:.1f} / {r:.1f} ({t[0]})"


def report(
    rules: tuple[str, ...] = RULES,
    drills: int = DRILLS,
    seed: int = SEED,
    camera: int = CAMERA_DRILLS,
) -> list[str]:
    lines = [
        "## Offside drills (issue 6)",
        "",
        f"{drills} seeded drills per rule set (`python -m benchmarks.bench_offside --drills "
        f"{drills} --seed {seed}`): a receiver 8-80 mm past or short of the offside line, a "
        "first lance nudging the ball, then a pass to the receiver (the module docstring). "
        "Precision / recall (%) against the simulator's referee, one to one within 2 frames "
        "(offside: team and piece; touch: piece); in brackets the truth's count.",
        "",
        "| rule set | engine | offside | touch |",
        "| --- | --- | :---: | :---: |",
    ]
    notes = []
    for r in rules:
        res = evaluate(r, drills, seed)
        for name in ENGINES:
            cells = " | ".join(_pr(res.tallies[(name, k)]) for k in SCORED)
            lines.append(f"| {r} | {name} | {cells} |")
        if camera:
            t0 = time.perf_counter()
            tot = {k: [0, 0, 0] for k in SCORED}
            odd: list[str] = []
            for k in range(min(camera, drills)):
                got, bad = camera_run(r, seed + k)
                odd += bad
                for kind, v in got.items():
                    tot[kind] = [a + b for a, b in zip(tot[kind], v, strict=True)]
            cells = " | ".join(_pr(tot[k]) for k in SCORED)
            lines.append(f"| {r} | camera ({camera} drills) | {cells} |")
            notes.append(f"- {r}: through the camera {time.perf_counter() - t0:.0f} s wall.")
            if odd:
                notes.append(f"  - {r} / camera: " + "; ".join(odd))
        past = sum(1 for o in res.offset_of_truth if o > 0)
        notes.append(
            f"- {r}: {res.passed}/{res.drills} passes aimed; {res.offside_truth} offsides "
            f"called by the simulator's referee ({past} with the receiver past the last "
            f"defender); simulate {res.sim_s:.0f} s."
        )
        for key, items in sorted(res.misses.items()):
            if items:
                shown = ", ".join(f"{s}: {m}" for s, m in items[:6])
                more = f" (+{len(items) - 6})" if len(items) > 6 else ""
                notes.append(f"  - {r} / {key}: {shown}{more}")
    return [*lines, "", *notes]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_offside")
    ap.add_argument("--drills", type=int, default=DRILLS)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES)
    ap.add_argument("--camera-drills", type=int, default=CAMERA_DRILLS)
    a = ap.parse_args(argv)
    print("\n".join(report(tuple(a.rules), a.drills, a.seed, a.camera_drills)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
