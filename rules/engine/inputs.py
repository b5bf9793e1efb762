"""What an engine was fed, kept: record a match's :class:`FrameState` inputs, replay them.

A ten-minute analysis spends its time in vision; the engine over the same tracks takes
seconds. :class:`InputRecorder` stands in for a :class:`RuleEngine` (every call passed on)
and keeps each frame fed, and where a run of blind frames interrupted play; :meth:`save`
writes them to one ``.npz`` (columns over frames, like the states themselves), and
:func:`replay` feeds them to a fresh engine, under the same or another rule set, returning
each event with the frame fed when it was decided. The same inputs give the same events
(the engine is deterministic): a change to the rules is measured on a recorded match
without analysing its video again.

The recorded slots (ids, teams, kinds) must stay the same over the match, as a tracker's
roster does; annotations are not recorded (a replay has none).

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> from geometry.tablespec import load_table
>>> from rules.engine.engine import RuleEngine
>>> rec = InputRecorder(RuleEngine(load_table("brasileira"), "brasileira"))
>>> with tempfile.TemporaryDirectory() as tmp:
...     rec.save(Path(tmp) / "in.npz")
...     replay(Path(tmp) / "in.npz")
[]
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np

from geometry.pieces import Pieces
from geometry.tablespec import load_table
from rules.engine.base import EngineOptions
from rules.engine.engine import RuleEngine
from rules.engine.events import Event
from rules.engine.state import Contacts, FrameState
from rules.rulesets import get_ruleset

__all__ = ["InputError", "InputRecorder", "load_inputs", "replay"]

_FORMAT = "engine-inputs/1"


class InputError(ValueError):
    """Recorded inputs that cannot be saved or read (one line naming the file or field)."""


class InputRecorder:
    """A :class:`RuleEngine` that keeps what it is fed (every other attribute is the
    engine's own)."""

    def __init__(self, engine: RuleEngine) -> None:
        self.engine = engine
        self.states: list[FrameState] = []
        self.interrupts: list[int] = []  # interrupt() came before states[i]

    def update(self, state: FrameState) -> list[Event]:
        self.states.append(state)
        return self.engine.update(state)

    def interrupt(self) -> list[Event]:
        self.interrupts.append(len(self.states))
        return self.engine.interrupt()

    def finish(self) -> list[Event]:
        return self.engine.finish()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def save(self, path: str | Path) -> None:
        """Write the inputs, the rule set, the teams and the options to ``path`` (.npz)."""
        eng = self.engine
        meta = {
            "format": _FORMAT,
            "rules": eng.rules.name,
            "table": eng.table.name,
            "teams": dict(eng.teams),
            "options": dataclasses.asdict(eng.options),
            "annotated": eng.annotations is not None,
        }
        cols: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
        s = self.states
        if s:
            p0 = s[0].pieces
            for st in s:
                p = st.pieces
                if not (
                    np.array_equal(p.ids, p0.ids)
                    and np.array_equal(p.team, p0.team)
                    and np.array_equal(p.kind, p0.kind)
                ):
                    raise InputError(
                        f"{path}: frame {st.frame}: the pieces changed (expected the same "
                        f"{len(p0)} slots over the match, as the first frame's)"
                    )
            rows = [(k, *r) for k, st in enumerate(s) for r in st.contacts.rows()]
            hands = [-1 if st.hands_over_table is None else int(st.hands_over_table) for st in s]
            cols.update(
                ids=p0.ids,
                team=p0.team,
                kind=p0.kind,
                frame=np.array([st.frame for st in s], np.int64),
                t_s=np.array([st.t_s for st in s]),
                xy_mm=np.stack([st.pieces.xy_mm for st in s]),
                size_mm=np.stack([st.pieces.size_mm for st in s]),
                angle_rad=np.stack([st.pieces.angle_rad for st in s]),
                height_mm=np.stack([st.pieces.height_mm for st in s]),
                v_mm_s=np.stack([st.v_mm_s for st in s]),
                moving=np.stack([st.moving for st in s]),
                present=np.stack([st.present for st in s]),
                seen=np.stack([st.seen for st in s]),
                hands=np.array(hands, np.int8),
                c_row=np.array([r[0] for r in rows], np.int64),
                c_frame=np.array([r[1] for r in rows], np.int64),
                c_t_s=np.array([r[2] for r in rows]),
                c_a=np.array([r[3] for r in rows], str),
                c_b=np.array([r[4] for r in rows], str),
                c_kind=np.array([r[5] for r in rows], str),
                interrupts=np.array(self.interrupts, np.int64),
            )
        np.savez_compressed(path, **cols)


def load_inputs(path: str | Path) -> tuple[dict[str, Any], list[FrameState], list[int]]:
    """``(meta, states, interrupts)`` recorded by :meth:`InputRecorder.save`."""
    try:
        z = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not recorded engine inputs ({exc})") from None
    with z:
        if "meta" not in z.files:
            raise InputError(f"{path}: no 'meta' (expected {_FORMAT})")
        meta = json.loads(str(z["meta"]))
        if meta.get("format") != _FORMAT:
            raise InputError(f"{path}: format {meta.get('format')!r}, expected {_FORMAT!r}")
        if "frame" not in z.files:
            return meta, [], []
        c = {k: z[k] for k in z.files}
    by_row: dict[int, list[tuple[int, float, str, str, str]]] = {}
    for k in range(len(c["c_row"])):
        by_row.setdefault(int(c["c_row"][k]), []).append(
            (
                int(c["c_frame"][k]),
                float(c["c_t_s"][k]),
                str(c["c_a"][k]),
                str(c["c_b"][k]),
                str(c["c_kind"][k]),
            )
        )
    states = []
    for k in range(len(c["frame"])):
        pieces = Pieces(
            c["ids"],
            c["team"],
            c["kind"],
            c["xy_mm"][k],
            c["size_mm"][k],
            c["angle_rad"][k],
            c["height_mm"][k],
        )
        h = int(c["hands"][k])
        states.append(
            FrameState(
                int(c["frame"][k]),
                float(c["t_s"][k]),
                pieces,
                c["v_mm_s"][k],
                c["moving"][k],
                Contacts.from_rows(by_row.get(k, [])),
                c["present"][k],
                None if h < 0 else bool(h),
                c["seen"][k],
            )
        )
    return meta, states, [int(i) for i in c["interrupts"]]


def replay(path: str | Path, rules: str | None = None) -> list[tuple[Event, int]]:
    """Feed recorded inputs to a fresh engine (under ``rules``, default the recorded rule
    set, on that rule set's table); returns each event with the frame fed when the engine
    decided it (the last frame's for the events :meth:`RuleEngine.finish` decides)."""
    meta, states, interrupts = load_inputs(path)
    if meta.get("annotated"):
        raise InputError(f"{path}: recorded with annotations, which a replay does not have")
    name = rules or str(meta["rules"])
    table = load_table(get_ruleset(name).table) if rules else load_table(str(meta["table"]))
    engine = RuleEngine(table, name, meta["teams"], None, EngineOptions(**meta["options"]))
    out: list[tuple[Event, int]] = []
    cut = set(interrupts)
    for k, st in enumerate(states):
        if k in cut:
            out += [(e, states[k - 1].frame if k else st.frame) for e in engine.interrupt()]
        out += [(e, st.frame) for e in engine.update(st)]
    last = states[-1].frame if states else 0
    out += [(e, last) for e in engine.finish()]
    return out
