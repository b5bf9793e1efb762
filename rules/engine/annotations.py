"""What a camera cannot know, given to the engines as annotations (``annotations/1``).

A replay comes with an optional JSON document; a live session sends the same items as keys
are pressed. Without them the engine says, in each event's ``evidence["assumed"]``, what it
took for granted (every shot announced and every goalkeeper declared placed, the first team
to flick kicking off).

.. code-block:: json

    {"format": "annotations/1",
     "items": [
       {"type": "kick_off", "team": "A"},
       {"type": "shot_announced", "t": 41.2, "team": "A", "piece": "A9"},
       {"type": "keeper_placed", "t": 42.0, "team": "B"},
       {"type": "decision", "frame": 1310, "event": "goal", "holds": false,
        "note": "goalkeeper not declared placed"}
     ]}

- ``kick_off``: the team that kicks off the match (003: a coin decides).
- ``shot_announced`` ("vai a gol", 000 REGRA 10; 001 Art. XXI c; 003 Remates anunciados): the
  next lance of ``team`` (by ``piece`` if given) at or after the time is an announced shot.
- ``keeper_placed`` (000 REGRA 10: "o técnico defensor deverá informar que o goleiro está
  colocado"): the defending ``team`` declared its goalkeeper placed for the next shot.
- ``decision``: the referee's decision on an event of type ``event`` near ``frame``
  (within ``within_frames``, default 15): ``holds`` replaces the engine's answer, ``note``
  is kept in the evidence; a decision no engine event matched is emitted as its own event.

Times are ``t`` (seconds of the video) or ``frame``; every error names the item and field.

Examples
--------
>>> a = Annotations.from_dict({"format": "annotations/1",
...     "items": [{"type": "shot_announced", "t": 1.0, "team": "A"}]})
>>> a.take_shot("A", "A9", frame=40, t_s=1.3), a.take_shot("A", "A9", frame=80, t_s=2.6)
(True, False)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["AnnotationError", "Annotations", "Decision", "load_annotations"]

ITEM_TYPES = ("kick_off", "shot_announced", "keeper_placed", "decision")


class AnnotationError(ValueError):
    """An annotations document that cannot be used; the message names the item and field."""


@dataclass
class Decision:
    event: str
    holds: bool
    frame: int | None
    t_s: float | None
    within_frames: int = 15
    team: str | None = None
    piece: str | None = None
    note: str = ""
    used: bool = False

    def near(self, frame: int, t_s: float, fps: float) -> bool:
        at = self.frame if self.frame is not None else round((self.t_s or 0.0) * fps)
        return abs(frame - at) <= self.within_frames


@dataclass
class _Mark:
    frame: int | None
    t_s: float | None
    team: str
    piece: str | None = None
    used: bool = False

    def due(self, frame: int, t_s: float) -> bool:
        if self.frame is not None:
            return frame >= self.frame
        return t_s >= (self.t_s or 0.0) - 1e-9


@dataclass
class Annotations:
    """Parsed annotations; the engine consumes the marks as lances happen."""

    kick_off: str | None = None
    shots: list[_Mark] = field(default_factory=list)
    keepers: list[_Mark] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    _added: list[tuple[str, _Mark]] = field(default_factory=list, repr=False)

    @classmethod
    def from_dict(cls, data: Any, source: str = "<annotations>") -> Annotations:
        if not isinstance(data, dict) or data.get("format") != "annotations/1":
            got = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise AnnotationError(f"{source}: format: expected 'annotations/1', got {got!r}")
        items = data.get("items", [])
        if not isinstance(items, list):
            raise AnnotationError(f"{source}: items: expected a list")
        out = cls()
        for i, it in enumerate(items):
            w = f"{source}: items[{i}]"
            if not isinstance(it, dict):
                raise AnnotationError(f"{w}: expected an object")
            kind = it.get("type")
            if kind not in ITEM_TYPES:
                raise AnnotationError(
                    f"{w}.type: expected one of {', '.join(ITEM_TYPES)}, got {kind!r}"
                )
            frame, t = _when(w, it, required=kind != "kick_off")
            team = it.get("team")
            if kind != "decision" and not isinstance(team, str):
                raise AnnotationError(f"{w}.team: expected a team name, got {team!r}")
            if kind == "kick_off":
                out.kick_off = str(team)
            elif kind in ("shot_announced", "keeper_placed"):
                piece = it.get("piece")
                mark = _Mark(frame, t, str(team), None if piece is None else str(piece))
                (out.shots if kind == "shot_announced" else out.keepers).append(mark)
            else:
                event, holds = it.get("event"), it.get("holds")
                if not isinstance(event, str):
                    raise AnnotationError(f"{w}.event: expected an event type, got {event!r}")
                if not isinstance(holds, bool):
                    raise AnnotationError(f"{w}.holds: expected true or false, got {holds!r}")
                within = it.get("within_frames", 15)
                if isinstance(within, bool) or not isinstance(within, int) or within < 0:
                    raise AnnotationError(f"{w}.within_frames: expected a count, got {within!r}")
                out.decisions.append(
                    Decision(
                        event,
                        holds,
                        frame,
                        t,
                        within,
                        team,
                        it.get("piece"),
                        str(it.get("note", "")),
                    )
                )
        return out

    # ---------------------------------------------------------------- live keys
    def add(self, kind: str, team: str, frame: int, t_s: float, piece: str | None = None) -> None:
        """A key pressed live: ``shot_announced`` or ``keeper_placed`` for ``team`` now."""
        if kind not in ("shot_announced", "keeper_placed"):
            raise AnnotationError(f"add: expected shot_announced or keeper_placed, got {kind!r}")
        mark = _Mark(frame, t_s, team, piece)
        (self.shots if kind == "shot_announced" else self.keepers).append(mark)
        self._added.append((kind, mark))

    def undo(self) -> str | None:
        """Take back the last key not yet used by a lance; returns what was undone."""
        while self._added:
            kind, mark = self._added.pop()
            if not mark.used:
                (self.shots if kind == "shot_announced" else self.keepers).remove(mark)
                return f"{kind} {mark.team}"
        return None

    def to_dict(self) -> dict[str, Any]:
        """The ``annotations/1`` document (what a live session saves for a later analyze)."""
        items: list[dict[str, Any]] = []
        if self.kick_off is not None:
            items.append({"type": "kick_off", "team": self.kick_off})
        for kind, marks in (("shot_announced", self.shots), ("keeper_placed", self.keepers)):
            for m in marks:
                it: dict[str, Any] = {"type": kind, "team": m.team}
                if m.frame is not None:
                    it["frame"] = m.frame
                if m.t_s is not None:
                    it["t"] = round(m.t_s, 4)
                if m.piece is not None:
                    it["piece"] = m.piece
                items.append(it)
        for d in self.decisions:
            it = {"type": "decision", "event": d.event, "holds": d.holds, "note": d.note}
            it.update({k: v for k, v in (("frame", d.frame), ("t", d.t_s)) if v is not None})
            items.append(it)
        return {"format": "annotations/1", "items": sorted(items, key=_order)}

    # ---------------------------------------------------------------- lookups
    def take_shot(self, team: str, piece: str, frame: int, t_s: float) -> bool:
        """Is this lance an announced shot? Consumes the announcement."""
        return _take(self.shots, team, piece, frame, t_s)

    def take_keeper(self, team: str, frame: int, t_s: float) -> bool:
        """Did ``team`` declare its goalkeeper placed before this lance? Consumes it."""
        return _take(self.keepers, team, None, frame, t_s)

    def decision_for(self, event: str, frame: int, t_s: float, fps: float) -> Decision | None:
        for d in self.decisions:
            if not d.used and d.event == event and d.near(frame, t_s, fps):
                d.used = True
                return d
        return None

    def unmatched_decisions(self, frame: int, fps: float) -> list[Decision]:
        """Decisions whose window closed before ``frame`` with no event matched (marked used)."""
        out = []
        for d in self.decisions:
            at = d.frame if d.frame is not None else round((d.t_s or 0.0) * fps)
            if not d.used and frame > at + d.within_frames:
                d.used = True
                out.append(d)
        return out


def _order(it: dict[str, Any]) -> tuple[float, int]:
    return (float(it.get("t", it.get("frame", -1.0)) if it["type"] != "kick_off" else -1.0), 0)


def _take(marks: list[_Mark], team: str, piece: str | None, frame: int, t_s: float) -> bool:
    for m in marks:
        if m.used or m.team != team or not m.due(frame, t_s):
            continue
        if m.piece is not None and piece is not None and m.piece != piece:
            continue
        m.used = True
        return True
    return False


def _when(w: str, it: dict[str, Any], required: bool) -> tuple[int | None, float | None]:
    frame, t = it.get("frame"), it.get("t")
    if frame is not None and (isinstance(frame, bool) or not isinstance(frame, int) or frame < 0):
        raise AnnotationError(f"{w}.frame: expected a frame number, got {frame!r}")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or t < 0):
        raise AnnotationError(f"{w}.t: expected seconds, got {t!r}")
    if required and frame is None and t is None:
        raise AnnotationError(f"{w}: needs 't' (seconds) or 'frame'")
    return frame, None if t is None else float(t)


def load_annotations(path: str | Path) -> Annotations:
    """Read and validate an ``annotations/1`` JSON file."""
    where = str(path)
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise AnnotationError(f"{where}: cannot read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise AnnotationError(f"{where}: invalid JSON at line {exc.lineno} ({exc.msg})") from None
    return Annotations.from_dict(data, where)
