"""Events against a reference (the simulator's truth, or another run): matched one to one.

Events match when they have the same type, the same key fields (:data:`KEYS`, INTERFACES.md
fields) and frames at most ``tol`` apart, nearest frames first. Piece ids can be translated
first (``id_map``): a tracker names pieces by where they stood at the start, a simulator by
its roster. Used by ``botao demo``, the benchmarks and the engines' tests.

Examples
--------
>>> t = [{"type": "goal", "team": "A", "frame": 10, "holds": True, "evidence": {}}]
>>> e = [{"type": "goal", "team": "A", "frame": 12, "holds": True, "evidence": {}}]
>>> s = score(t, e, "goal")
>>> s.matched, s.offsets, s.recall
(1, [2], 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["KEYS", "Score", "score"]

Event = dict[str, Any]

KEYS: dict[str, Callable[[Event], tuple[Any, ...]]] = {
    "goal": lambda e: (e["team"],),
    "ball_out": lambda e: (e["team"], e["evidence"].get("restart")),
    "foul": lambda e: (e["team"],),
    "touch": lambda e: (e["piece"],),
    "offside": lambda e: (e["team"], e["piece"]),
    "ball_moving": lambda e: (),
    "ball_stopped": lambda e: (),
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


def score(
    truth: list[Event],
    engine: list[Event],
    kind: str,
    tol: int = 2,
    id_map: Mapping[str, str] | None = None,
) -> Score:
    """One-to-one matching of ``kind`` events, nearest frames first, within ``tol`` frames.

    ``id_map`` renames the ``engine`` events' pieces (engine id -> truth id) before keys are
    compared.
    """
    key = KEYS[kind]
    t_ev = [e for e in truth if e["type"] == kind and e["holds"]]
    e_ev = [e for e in engine if e["type"] == kind and e["holds"]]
    if id_map:
        e_ev = [{**e, "piece": id_map.get(e.get("piece") or "", e.get("piece"))} for e in e_ev]
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
