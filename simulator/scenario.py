"""Scripted scenarios: a small JSON format that sets the pieces and lists timed actions.

Format (``scenario/1``)::

    {
      "format": "scenario/1",
      "name": "goal",
      "description": "a shot from the penalty mark beats the keeper",
      "table": "brasileira",            # a table preset (default: the rule set's table)
      "rules": "brasileira",            # the rule set (piece sizes, referee articles)
      "duration_s": 3.0,
      "formation": "A",                 # optional: start from both teams' formation with
                                        # this team kicking off; "pieces" then override
      "pieces": [                       # id, team, kind, x, y (mm); sizes default from rules
        {"id": "A9", "team": "A", "kind": "button", "x": 700, "y": 20},
        {"id": "B1", "team": "B", "kind": "goalkeeper", "x": 991.5, "y": -40, "angle_deg": 90},
        {"id": "ball", "kind": "ball", "x": 800, "y": 20}
      ],
      "actions": [                      # in any order; "t" is when it happens (s)
        {"t": 0.6, "type": "flick", "piece": "A9", "direction_deg": 0, "speed_mm_s": 1500},
        {"t": 0.2, "type": "place", "piece": "B1", "x": 991.5, "y": 40, "angle_deg": 90},
        {"t": 1.0, "type": "hand", "team": "A", "x": 0, "y": 0, "duration_s": 2.0}
      ],
      "expect": {"events": ["goal"], "absent": ["ball_out"], "restart": "corner",
                 "hands": true}
    }

A ``flick`` brings its coach's hand over the button 0.4 s before (``"hand": false`` to skip);
a ``place`` is a hand carrying the piece there over ``carry_s`` (default 0.4 s) from ``t``; a
``hand`` rests a hand's fingertip at ``(x, y)`` for ``duration_s``. Teams defend A: left,
B: right; a coach's hand comes from its side (:mod:`simulator.match`). ``expect`` is what the
tests assert: event types that must (``events``) or must not (``absent``) appear in the truth,
the ``restart`` of the first ``ball_out``, and whether hands appear over the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from geometry.pieces import Pieces
from geometry.tablespec import TableSpec, load_table
from rules.rulesets import get_ruleset
from simulator.match import TimelineRunner, _entry, flick_with_hand, hand_path
from simulator.physics import TableWorld
from simulator.players import formation
from simulator.state import FrameTruth
from simulator.truth import DEFAULT_TEAMS, Referee

__all__ = ["Scenario", "ScenarioError", "load_scenario", "run_scenario", "scenario_runner"]

_ACTIONS = ("flick", "place", "hand")


class ScenarioError(ValueError):
    """A scenario file that cannot be run; the message names the file and the field."""


@dataclass
class Scenario:
    name: str
    table: TableSpec
    rules_name: str
    duration_s: float
    pieces: Pieces
    actions: list[dict[str, Any]]
    expect: dict[str, Any] = field(default_factory=dict)
    description: str = ""


def _need(where: str, d: dict[str, Any], key: str) -> Any:
    if key not in d:
        raise ScenarioError(f"{where}: missing field '{key}'")
    return d[key]


def load_scenario(path: str | Path) -> Scenario:
    """Parse and validate a ``scenario/1`` file."""
    where = str(path)
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ScenarioError(f"{where}: cannot read scenario ({exc})") from None
    if data.get("format") != "scenario/1":
        raise ScenarioError(f"{where}: field 'format' must be 'scenario/1'")
    rules_name = str(data.get("rules", "brasileira"))
    rules = get_ruleset(rules_name)
    sizes = rules.pieces
    assert sizes is not None
    table = load_table(str(data.get("table", rules.table)))
    base: dict[str, dict[str, Any]] = {}
    if "formation" in data:
        f = formation(table, sizes, DEFAULT_TEAMS, kick_off=str(data["formation"]))
        for i, pid in enumerate(f.ids):
            base[str(pid)] = {
                "id": str(pid),
                "team": str(f.team[i]),
                "kind": str(f.kind[i]),
                "x": float(f.xy_mm[i, 0]),
                "y": float(f.xy_mm[i, 1]),
                "angle_deg": math.degrees(float(f.angle_rad[i])),
            }
    for k, p in enumerate(data.get("pieces", [])):
        pid = str(_need(f"{where}: pieces[{k}]", p, "id"))
        base[pid] = {**base.get(pid, {}), **p}
    ids: list[str] = []
    team: list[str] = []
    kind: list[str] = []
    xy: list[tuple[float, float]] = []
    size: list[tuple[float, float]] = []
    angle: list[float] = []
    height: list[float] = []
    for pid, p in base.items():
        w = f"{where}: piece '{pid}'"
        kd = str(_need(w, p, "kind"))
        if kd == "goalkeeper":
            sz = (
                float(p.get("length", sizes.goalkeeper_length)),
                float(p.get("width", sizes.goalkeeper_width)),
            )
            h = float(p.get("height", sizes.goalkeeper_height))
        elif kd == "button":
            d = float(p.get("diameter", sizes.button_diameter))
            sz, h = (d, d), float(p.get("height", sizes.button_height))
        elif kd == "ball":
            d = float(p.get("diameter", sizes.ball_diameter))
            sz, h = (d, d), float(p.get("height", sizes.ball_height))
        else:
            raise ScenarioError(f"{w}: field 'kind' must be button, goalkeeper or ball, got {kd!r}")
        ids.append(pid)
        team.append(str(p.get("team", "")))
        kind.append(kd)
        xy.append((float(_need(w, p, "x")), float(_need(w, p, "y"))))
        size.append(sz)
        angle.append(math.radians(float(p.get("angle_deg", 0.0))) if kd == "goalkeeper" else 0.0)
        height.append(h)
    if kind.count("ball") != 1:
        raise ScenarioError(f"{where}: field 'pieces' must hold exactly one ball")
    pieces = Pieces(
        np.array(ids),
        np.array(team),
        np.array(kind),
        np.array(xy),
        np.array(size),
        np.array(angle),
        np.array(height),
    )
    actions = list(data.get("actions", []))
    for k, a in enumerate(actions):
        w = f"{where}: actions[{k}]"
        if a.get("type") not in _ACTIONS:
            raise ScenarioError(f"{w}: field 'type' must be one of {_ACTIONS}")
        float(_need(w, a, "t"))
        if a["type"] in ("flick", "place") and str(_need(w, a, "piece")) not in ids:
            raise ScenarioError(f"{w}: field 'piece' names no piece ({a['piece']!r})")
    return Scenario(
        name=str(data.get("name", Path(path).stem)),
        table=table,
        rules_name=rules_name,
        duration_s=float(_need(where, data, "duration_s")),
        pieces=pieces,
        actions=actions,
        expect=dict(data.get("expect", {})),
        description=str(data.get("description", "")),
    )


def scenario_runner(sc: Scenario, fps: float = 30.0) -> tuple[TimelineRunner, Iterator[FrameTruth]]:
    """The runner (its ``events`` fill as frames are drawn) and the frames of ``sc``."""
    world = TableWorld(sc.table, sc.pieces)
    runner = TimelineRunner(world, fps, Referee(sc.table, sc.rules_name, DEFAULT_TEAMS))
    team_of = {str(i): str(t) for i, t in zip(sc.pieces.ids, sc.pieces.team, strict=True)}

    def start(a: dict[str, Any]) -> float:
        lead = 0.4 if a["type"] == "flick" and a.get("hand", True) else 0.0
        return max(float(a["t"]) - lead, 0.0)

    def frames() -> Iterator[FrameTruth]:
        for a in sorted(sc.actions, key=start):
            t0 = start(a)
            if t0 > runner.t:
                yield from runner.advance(t0 - 1e-6)
            t = float(a["t"])
            if a["type"] == "flick":
                pid = str(a["piece"])
                ang = math.radians(float(a["direction_deg"]))
                team = team_of.get(pid, "A")
                if a.get("hand", True):
                    flick_with_hand(runner, sc.table, team, t, pid, ang, float(a["speed_mm_s"]))
                else:
                    runner.flick_at(t, pid, ang, float(a["speed_mm_s"]))
            elif a["type"] == "place":
                pid = str(a["piece"])
                xy1 = (float(a["x"]), float(a["y"]))
                dur = float(a.get("carry_s", 0.4))
                ang_p = math.radians(float(a["angle_deg"])) if "angle_deg" in a else None
                runner.carry(pid, t, t + dur, xy1, ang_p)
                if a.get("hand", True):
                    team = team_of.get(pid, "A") or "A"
                    x0, y0 = world.position(pid)
                    path = hand_path(
                        sc.table,
                        team,
                        [
                            (t - 0.2, *_entry(sc.table, team, x0)),
                            (t, x0, y0),
                            (t + dur, *xy1),
                            (t + dur + 0.2, *_entry(sc.table, team, xy1[0])),
                        ],
                        20.0,
                    )
                    runner.add_hand(max(t - 0.2, 0.0), t + dur + 0.2, path)
            else:
                team = str(a.get("team", "A"))
                xy = (float(a["x"]), float(a["y"]))
                dur = float(a.get("duration_s", 1.0))
                ex, ey = _entry(sc.table, team, xy[0])
                path = hand_path(
                    sc.table,
                    team,
                    [(t, ex, ey), (t + 0.2, *xy), (t + 0.2 + dur, *xy), (t + 0.4 + dur, ex, ey)],
                    float(a.get("height_mm", 40.0)),
                )
                runner.add_hand(t, t + 0.4 + dur, path)
        yield from runner.advance(sc.duration_s)

    return runner, frames()


def run_scenario(path: str | Path, fps: float = 30.0) -> Iterator[FrameTruth]:
    """Every video frame of the scenario file at ``path``, like :meth:`Match.frames`."""
    _, frames = scenario_runner(load_scenario(path), fps)
    yield from frames
