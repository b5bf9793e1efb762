"""``event/1`` records (INTERFACES.md, "Analyse") and the sink that stamps them with a frame.

Every event is a plain dict with the keys of the contract: ``format``, ``t``, ``frame``,
``type``, ``team``, ``piece``, ``holds``, ``margin_mm``, ``article``, ``evidence``. ``frame``
is the event's decisive frame (where it happened), not the frame at which it was emitted.

Examples
--------
>>> sink = EventSink(12, 0.4)
>>> e = sink.emit("touch", "A", "A7", article="000 REGRA 4 LANCE", contact_t=0.39)
>>> e["format"], e["frame"], e["type"], e["evidence"]
('event/1', 12, 'touch', {'contact_t': 0.39})
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["EVENT_TYPES", "Event", "EventSink", "make_event", "xy"]

Event = dict[str, Any]

#: What each event type means (the engines emit no other type).
EVENT_TYPES = {
    "lance": "a coach flicked a piece: a lance began (team, piece; evidence number, restart)",
    "ball_moving": "the ball started moving",
    "ball_stopped": "the ball stopped (margin: the nearer goal line, positive wholly past)",
    "touch": "a piece hit the ball",
    "contact": "a piece hit a piece",
    "foul": "the flicked piece hit an opponent before the ball (team: the offender)",
    "goal": "the ball wholly past a goal line between the posts (team: the scorer)",
    "ball_out": "the ball wholly out (evidence restart, line, spot; team takes the restart)",
    "ball_neutral": "the ball stopped on the halfway line",
    "goalkeeper_ball": "the ball stopped in a goal area: that goalkeeper's ball",
    "offside": "a button in an offside position played the ball (team: the offender)",
    "ball_blocked": "at rest, the 6 cm gabarito cannot reach the ball past team's pieces",
    "ball_obstructed": "at rest, the ball shut in by two pieces of team",
    "ball_enclosed": "at rest, the ball shut in by three pieces of team",
    "technical_foul": "a falta técnica the camera can see (an obstruction kept too long, ...)",
    "distance_violation": "a piece too near at a restart (evidence constraint, other, limit_mm)",
    "furada": "the flicked piece moved and the ball did not",
    "touch_limit": "a touch beyond the rule set's limit (team: the offender)",
    "possession": "a team's flicked piece touched the ball after the other team had it",
    "turn_over": "the rules give the next lance to team",
    "out_of_turn": "a lance by the team that did not have the turn (the engine follows it)",
    "time_up": "the clock reached the half's length",
    "half_time": "the first half ended (sides swap)",
    "ends": "the second half's ends read at its kick-off (teams, read_from, changed_ends)",
    "full_time": "the match ended",
}


def _clean(value: Any) -> Any:
    """JSON-friendly evidence: numpy scalars to Python, floats rounded, arrays to lists."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_clean(v) for v in value.tolist()]
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        f = float(value)
        return round(f, 4) if math.isfinite(f) else None
    if isinstance(value, np.str_):
        return str(value)
    return value


def xy(v: Any) -> list[float]:
    """``[x, y]`` rounded to 0.01 mm."""
    return [round(float(v[0]), 2), round(float(v[1]), 2)]


def make_event(
    frame: int,
    t_s: float,
    kind: str,
    team: str | None = None,
    piece: str | None = None,
    margin_mm: float | None = None,
    article: str = "",
    holds: bool = True,
    **evidence: Any,
) -> Event:
    """One ``event/1`` record."""
    if kind not in EVENT_TYPES:
        raise ValueError(f"event type: expected one of {', '.join(EVENT_TYPES)}, got {kind!r}")
    margin = None
    if margin_mm is not None and math.isfinite(float(margin_mm)):
        margin = round(float(margin_mm), 3)
    return {
        "format": "event/1",
        "t": round(float(t_s), 4),
        "frame": int(frame),
        "type": kind,
        "team": None if team is None else str(team),
        "piece": None if piece is None else str(piece),
        "holds": bool(holds),
        "margin_mm": margin,
        "article": article,
        "evidence": _clean(evidence),
    }


class EventSink:
    """Collects the events of one processed frame, stamped with its frame and time."""

    def __init__(self, frame: int, t_s: float) -> None:
        self.frame = frame
        self.t_s = t_s
        self.events: list[Event] = []

    def emit(
        self,
        kind: str,
        team: str | None = None,
        piece: str | None = None,
        margin_mm: float | None = None,
        article: str = "",
        holds: bool = True,
        **evidence: Any,
    ) -> Event:
        e = make_event(
            self.frame, self.t_s, kind, team, piece, margin_mm, article, holds, **evidence
        )
        self.events.append(e)
        return e
