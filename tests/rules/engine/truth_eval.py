"""Engines against simulator truth: run a seeded match through engines, match their events.

:func:`run_match` plays a seeded :class:`simulator.match.Match` once and feeds every frame to
one engine per input mode (``exact``: :func:`state_from_truth`; ``tracked``:
:class:`TrackedTruth` with a 2-frame lag). :func:`score` matches engine events to the truth's
by type, key fields and frame (within ``tol`` frames, one to one, nearest first).

Keys (INTERFACES.md fields): ``goal`` team; ``ball_out`` team and ``evidence.restart``;
``foul`` team (the offender); ``touch`` piece; ``offside`` team and piece.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from geometry.tablespec import load_table
from rules.engine import EngineOptions, RuleEngine
from rules.rulesets import get_ruleset
from simulator.match import Match
from tests.rules.engine.adapters import TrackedTruth, state_from_truth

__all__ = ["AS_TRUTH", "KEYS", "MODES", "MatchRun", "Score", "run_match", "score"]

Event = dict[str, Any]

KEYS: dict[str, Callable[[Event], tuple[Any, ...]]] = {
    "goal": lambda e: (e["team"],),
    "ball_out": lambda e: (e["team"], e["evidence"].get("restart")),
    "foul": lambda e: (e["team"],),
    "touch": lambda e: (e["piece"],),
    "offside": lambda e: (e["team"], e["piece"]),
}


@dataclass
class Score:
    """Matches of one event type: counts, frame offsets and the unmatched events."""

    kind: str
    truth: int = 0
    engine: int = 0
    matched: int = 0
    offsets: list[int] = field(default_factory=list)
    missed: list[Event] = field(default_factory=list)
    extra: list[Event] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.matched / self.engine if self.engine else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0


def score(truth: list[Event], engine: list[Event], kind: str, tol: int = 2) -> Score:
    """One-to-one matching of ``kind`` events, nearest frames first, within ``tol`` frames."""
    key = KEYS[kind]
    t_ev = [e for e in truth if e["type"] == kind and e["holds"]]
    e_ev = [e for e in engine if e["type"] == kind and e["holds"]]
    s = Score(kind, len(t_ev), len(e_ev))
    pairs = sorted(
        (abs(a["frame"] - b["frame"]), i, j)
        for i, a in enumerate(t_ev)
        for j, b in enumerate(e_ev)
        if abs(a["frame"] - b["frame"]) <= tol and key(a) == key(b)
    )
    used_t: set[int] = set()
    used_e: set[int] = set()
    for _, i, j in pairs:
        if i in used_t or j in used_e:
            continue
        used_t.add(i)
        used_e.add(j)
        s.offsets.append(e_ev[j]["frame"] - t_ev[i]["frame"])
    s.matched = len(used_t)
    s.missed = [e for i, e in enumerate(t_ev) if i not in used_t]
    s.extra = [e for j, e in enumerate(e_ev) if j not in used_e]
    return s


@dataclass
class MatchRun:
    """One simulated match and what each engine made of it."""

    rules: str
    seed: int
    seconds: float
    frames: int
    truth: list[Event]
    engines: dict[str, RuleEngine]
    sim_s: float
    engine_s: dict[str, float]
    flicks: list[tuple[int, str]] = field(default_factory=list)  # (frame, piece), the truth's


#: The engine refereeing as the simulator's truth does (simulator/truth.py is brasileira-
#: centred): no offside exception D-F nor case A. Used to compare the machinery where the
#: truth's model is simpler than a text.
AS_TRUTH = EngineOptions(offside_exceptions=(), offside_flicked=False, swap_sides=False)

#: Input modes: the adapter and the engine options that suit it.
MODES: dict[str, tuple[str, EngineOptions]] = {
    "exact": ("exact", EngineOptions(lag_frames=0, swap_sides=False)),
    "tracked": (
        "tracked",
        EngineOptions(lag_frames=2, noise_mm=0.5, settle_frames=3, swap_sides=False),
    ),
}


def run_match(
    rules: str,
    seed: int,
    seconds: float,
    modes: tuple[str, ...] = ("exact", "tracked"),
    fps: float = 30.0,
    options: dict[str, EngineOptions] | None = None,
    inputs: dict[str, str] | None = None,
) -> MatchRun:
    """Play ``seconds`` of a seeded match and run one engine per mode on its frames.

    A mode is ``exact`` or ``tracked`` (:data:`MODES`), or any name given an input in
    ``inputs`` (``exact`` / ``tracked``) and its options in ``options``. The simulated match
    has no halves: its teams never change ends (``swap_sides=False``).
    """
    table = load_table(get_ruleset(rules).table)
    match = Match(table, rules, seed=seed, fps=fps)
    kinds = {m: (inputs or {}).get(m, MODES[m][0] if m in MODES else "exact") for m in modes}
    opts = {
        m: (options or {}).get(m, MODES[m][1] if m in MODES else MODES["exact"][1]) for m in modes
    }
    engines = {m: RuleEngine(table, rules, dict(match.teams), options=opts[m]) for m in modes}
    tracked = TrackedTruth(seed=seed + 1000)
    spent = dict.fromkeys(modes, 0.0)
    n = 0
    flicks: list[tuple[int, str]] = []
    t_sim = time.perf_counter()
    for ft in match.frames(seconds):
        n += 1
        flicks += [(ft.frame, pid) for pid in ft.flicked]
        states = {}
        if "exact" in kinds.values():
            states["exact"] = state_from_truth(ft)
        if "tracked" in kinds.values():
            states["tracked"] = tracked(ft)
        for m in modes:
            t0 = time.perf_counter()
            engines[m].update(states[kinds[m]])
            spent[m] += time.perf_counter() - t0
    for m in modes:
        t0 = time.perf_counter()
        engines[m].finish()
        spent[m] += time.perf_counter() - t0
    sim_s = time.perf_counter() - t_sim - sum(spent.values())
    return MatchRun(rules, seed, seconds, n, list(match.events), engines, sim_s, spent, flicks)
