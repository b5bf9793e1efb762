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
from dataclasses import dataclass, field
from typing import Any

from geometry.tablespec import load_table
from monitor.compare import KEYS, Score, score
from rules.engine import EngineOptions, RuleEngine
from rules.rulesets import get_ruleset
from simulator.match import Match
from tests.rules.engine.adapters import TrackedTruth, state_from_truth

__all__ = ["AS_TRUTH", "KEYS", "MODES", "MatchRun", "Score", "run_match", "score"]

Event = dict[str, Any]


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
#: centred): of the offside exceptions D and E only (F is about case A), no case A. Used to
#: compare the machinery where the truth's model is simpler than a text.
AS_TRUTH = EngineOptions(offside_exceptions=("D", "E"), offside_flicked=False, swap_sides=False)

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
