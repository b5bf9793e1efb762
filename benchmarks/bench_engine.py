"""Benchmark: the rule-set engines against simulator truth (issue 6).

For every rule set, seeded random matches (``SEEDS`` x ``SECONDS``, 30 minutes of play per
rule set by default) are played once and fed, frame by frame, to three engines:

- ``exact``: the simulator's exact state, the rule set's text (``EngineOptions`` defaults);
- ``tracked``: the state a tracker would give (``TrackedTruth``: 0.5 mm position noise,
  hysteresis on ``moving``, contacts reported up to two frames late, no rail contacts), with
  a 2-frame lag and ``noise_mm=0.5``;
- ``as truth``: exact state, the engine refereeing as the truth referee does where the truth
  is simpler than the text (``AS_TRUTH``: offside exceptions D and E only, no case A).

Events are matched one to one within 2 frames by type and key fields (goal: team; ball_out:
team and restart; foul: offender; touch: piece; offside: team and piece). Latency is the
input frame at which an event was emitted minus its decisive frame.

Usage: ``python -m benchmarks.bench_engine [--seconds S] [--seeds 1,2,3] [--rules NAME]``;
``report()`` gives the markdown section for ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rules.engine import EngineOptions
from tests.rules.engine.truth_eval import AS_TRUTH, KEYS, MODES, MatchRun, run_match, score

SECONDS = 600.0
SEEDS = (1, 2, 3)
RULES = ("nacional", "brasileira", "gaucha", "paulista", "mesa-posta")
ENGINES = ("exact", "tracked", "as truth")
TARGET = 0.98


@dataclass
class Tally:
    truth: int = 0
    engine: int = 0
    matched: int = 0
    worst_offset: int = 0
    missed: list[tuple[int, int, Any]] = field(default_factory=list)  # (seed, frame, key)
    extra: list[tuple[int, int, Any]] = field(default_factory=list)

    def p(self) -> float:
        return self.matched / self.engine if self.engine else 1.0

    def r(self) -> float:
        return self.matched / self.truth if self.truth else 1.0


@dataclass
class RuleSetResult:
    rules: str
    frames: int = 0
    seconds: float = 0.0
    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)
    latency: dict[str, int] = field(default_factory=dict)
    lances: dict[str, tuple[int, int]] = field(default_factory=dict)  # matched, truth flicks
    cpu_s: dict[str, float] = field(default_factory=dict)
    sim_s: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)


def _add(res: RuleSetResult, run: MatchRun) -> None:
    res.frames += run.frames
    res.seconds += run.seconds
    res.sim_s += run.sim_s
    res.counts.update(e["type"] for e in run.truth)
    for name, engine in run.engines.items():
        for kind in KEYS:
            s = score(run.truth, engine.events, kind)
            t = res.tallies.setdefault((name, kind), Tally())
            t.truth += s.truth
            t.engine += s.engine
            t.matched += s.matched
            t.worst_offset = max([t.worst_offset, *(abs(o) for o in s.offsets)])
            t.missed += [(run.seed, e["frame"], KEYS[kind](e)) for e in s.missed]
            t.extra += [(run.seed, e["frame"], KEYS[kind](e)) for e in s.extra]
        lat = [at - e["frame"] for at, e in zip(engine.emitted_at, engine.events, strict=True)]
        res.latency[name] = max([res.latency.get(name, 0), *lat])
        lances = {(e["frame"], e["piece"]) for e in engine.events if e["type"] == "lance"}
        got, total = res.lances.get(name, (0, 0))
        res.lances[name] = (got + len(lances & set(run.flicks)), total + len(run.flicks))
        res.cpu_s[name] = res.cpu_s.get(name, 0.0) + run.engine_s[name]


def evaluate(rules: str, seeds: tuple[int, ...] = SEEDS, seconds: float = SECONDS) -> RuleSetResult:
    """Play the seeded matches of one rule set and score the three engines."""
    res = RuleSetResult(rules)
    opts: dict[str, EngineOptions] = {
        "exact": MODES["exact"][1],
        "tracked": MODES["tracked"][1],
        "as truth": AS_TRUTH,
    }
    inputs = {"exact": "exact", "tracked": "tracked", "as truth": "exact"}
    for seed in seeds:
        _add(res, run_match(rules, seed, seconds, ENGINES, options=opts, inputs=inputs))
    return res


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}"


def report(
    seeds: tuple[int, ...] = SEEDS, seconds: float = SECONDS, rules: tuple[str, ...] = RULES
) -> list[str]:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    t0 = time.perf_counter()
    results = [evaluate(r, seeds, seconds) for r in rules]
    wall = time.perf_counter() - t0
    minutes = len(seeds) * seconds / 60.0
    out = [
        "## Rule-set engines against simulator truth (issue 6)",
        "",
        f"Seeded random matches, {len(seeds)} x {seconds / 60.0:g} min = {minutes:g} min of play"
        " per rule set at",
        "30 frames/s (seeds "
        + ", ".join(str(s) for s in seeds)
        + "). Precision / recall (%) per event type,",
        "one-to-one matches within 2 frames on type and key fields (goal: team; ball_out: team and",
        "restart; foul: offender; touch: piece; offside: team and piece). Target >= 98 %.",
        "`exact`: exact state, the text's engine; `tracked`: 0.5 mm noise, tracker hysteresis,",
        "contacts up to 2 frames late, no rail contacts, 2-frame lag; `as truth`: exact state, the",
        "engine refereeing like `simulator/truth.py` where that referee is simpler than the text.",
        "",
        "| rule set | engine | "
        + " | ".join(KEYS)
        + " | lances found | worst offset (frames) | max latency (frames) |",
        "| --- | --- | " + " | ".join(":---:" for _ in KEYS) + " | ---: | ---: | ---: |",
    ]
    for res in results:
        for name in ENGINES:
            cells = []
            for kind in KEYS:
                t = res.tallies[(name, kind)]
                flag = "" if min(t.p(), t.r()) >= TARGET else " **x**"
                cells.append(f"{_pct(t.p())} / {_pct(t.r())} ({t.truth}){flag}")
            got, total = res.lances[name]
            worst = max(res.tallies[(name, k)].worst_offset for k in KEYS)
            out.append(
                f"| {res.rules} | {name} | "
                + " | ".join(cells)
                + f" | {got}/{total} | {worst} | {res.latency[name]} |"
            )
    out += [
        "",
        "In brackets: the truth's count. **x**: below the target.",
        "Disagreements (seed:frame key):",
        "",
    ]
    for res in results:
        for name in ENGINES:
            for kind in KEYS:
                t = res.tallies[(name, kind)]
                if t.missed or t.extra:
                    miss = ", ".join(f"{s}:{f} {k}" for s, f, k in t.missed[:6])
                    extra = ", ".join(f"{s}:{f} {k}" for s, f, k in t.extra[:6])
                    more = " ..." if len(t.missed) > 6 or len(t.extra) > 6 else ""
                    out.append(
                        f"- {res.rules} / {name} / {kind}: missed [{miss}]; extra [{extra}]{more}"
                    )
    out += [
        "",
        "| rule set | frames | simulate + adapt (s) | engine CPU ms / frame"
        " (exact, tracked, as truth) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for res in results:
        per = ", ".join(f"{1000.0 * res.cpu_s[n] / res.frames:.3f}" for n in ENGINES)
        out.append(f"| {res.rules} | {res.frames} | {res.sim_s:.1f} | {per} |")
    out += ["", f"Whole section: {wall:.0f} s wall. Load average when it started: {load:.1f}.", ""]
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_engine")
    ap.add_argument("--seconds", type=float, default=SECONDS)
    ap.add_argument("--seeds", default=",".join(str(s) for s in SEEDS))
    ap.add_argument("--rules", default=",".join(RULES))
    a = ap.parse_args(argv)
    seeds = tuple(int(s) for s in a.seeds.split(","))
    print("\n".join(report(seeds, a.seconds, tuple(a.rules.split(",")))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
