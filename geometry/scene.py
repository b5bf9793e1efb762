"""``scene/1``: what is on the table at one instant (INTERFACES.md), parsed and validated.

Every error is a :class:`SceneError` whose message names the file and the field, e.g.
``scene.json: pieces[3].diameter: must be a positive number, got -1``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from geometry.pieces import Pieces, pairwise_gaps
from geometry.tablespec import TableSpec

__all__ = ["RESTARTS", "SIDES", "Scene", "SceneError", "load_scene", "scene_from_dict"]

SIDES = ("left", "right")
RESTARTS = (
    "kick_off",
    "free_kick",
    "indirect_free_kick",
    "penalty",
    "corner",
    "throw_in",
    "goal_kick",
    "shot",
)
#: Overlap between footprints tolerated as measurement noise (issue 2: "less is noise").
OVERLAP_TOLERANCE_MM = 1.0

_PIECE_KEYS = {
    "button": {"id", "team", "kind", "x", "y", "diameter", "height"},
    "ball": {"id", "kind", "x", "y", "diameter", "height", "team"},
    "goalkeeper": {"id", "team", "kind", "x", "y", "length", "width", "height", "angle_deg"},
}
# Fields that detectors add (INTERFACES.md, "Detect"); accepted and carried, not used by checks.
_DETECT_KEYS = {"confidence", "px", "sigma_mm", "vx", "vy", "moving"}


class SceneError(ValueError):
    """A scene that cannot be checked; the message names the file and the field."""


@dataclass(frozen=True)
class Scene:
    """A validated scene: pieces as one record plus the teams and the optional context."""

    table: str
    teams: dict[str, str]  # team -> side it defends ("left" / "right")
    pieces: Pieces
    context: dict[str, Any] = field(default_factory=dict)
    extras: list[dict[str, Any]] = field(default_factory=list)
    source: str = "<scene>"

    @property
    def ball_index(self) -> int | None:
        hits = np.flatnonzero(self.pieces.kind == "ball")
        return int(hits[0]) if len(hits) else None

    def attack_sign(self, team: str) -> float:
        """+1 if ``team`` attacks the right goal (+x), -1 if it attacks the left one."""
        return 1.0 if self.teams[team] == "left" else -1.0

    def opponent(self, team: str) -> str:
        others = [t for t in self.teams if t != team]
        return others[0]

    def to_dict(self) -> dict[str, Any]:
        p = self.pieces
        pieces = []
        for i in range(len(p)):
            d: dict[str, Any] = {"id": str(p.ids[i])}
            if p.kind[i] != "ball":
                d["team"] = str(p.team[i])
            d["kind"] = str(p.kind[i])
            d["x"] = round(float(p.xy_mm[i, 0]), 4)
            d["y"] = round(float(p.xy_mm[i, 1]), 4)
            if p.kind[i] == "goalkeeper":
                d["length"], d["width"] = (float(v) for v in p.size_mm[i])
                d["angle_deg"] = round(math.degrees(float(p.angle_rad[i])), 6)
            else:
                d["diameter"] = float(p.size_mm[i, 0])
            if not math.isnan(p.height_mm[i]):
                d["height"] = float(p.height_mm[i])
            if i < len(self.extras):
                d.update(self.extras[i])
            pieces.append(d)
        out: dict[str, Any] = {
            "format": "scene/1",
            "table": self.table,
            "teams": {t: {"defends": s} for t, s in self.teams.items()},
            "pieces": pieces,
        }
        if self.context:
            out["context"] = self.context
        return out


def _num(where: str, value: Any, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SceneError(f"{where}: must be a number, got {value!r}")
    if positive and value <= 0:
        raise SceneError(f"{where}: must be a positive number, got {value!r}")
    return float(value)


def scene_from_dict(data: Any, source: str = "<scene>", table: TableSpec | None = None) -> Scene:
    """Validate a parsed ``scene/1`` document.

    With ``table`` the pieces are also checked against the rails, and pieces overlapping by more
    than :data:`OVERLAP_TOLERANCE_MM` are rejected.
    """
    if not isinstance(data, dict):
        raise SceneError(f"{source}: expected a JSON object, got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != "scene/1":
        raise SceneError(f"{source}: format: expected 'scene/1', got {fmt!r}")
    table_name = data.get("table")
    if not isinstance(table_name, str) or not table_name:
        raise SceneError(f"{source}: table: expected a table name, got {table_name!r}")

    teams_raw = data.get("teams")
    if not isinstance(teams_raw, dict) or len(teams_raw) != 2:
        raise SceneError(f"{source}: teams: expected two teams with 'defends', got {teams_raw!r}")
    teams: dict[str, str] = {}
    for name, spec in teams_raw.items():
        side = spec.get("defends") if isinstance(spec, dict) else None
        if side not in SIDES:
            raise SceneError(
                f"{source}: teams.{name}.defends: expected 'left' or 'right', got {side!r}"
            )
        teams[str(name)] = side
    if len(set(teams.values())) != 2:
        raise SceneError(f"{source}: teams: both teams defend the {side} goal")

    raw = data.get("pieces")
    if not isinstance(raw, list) or not raw:
        raise SceneError(f"{source}: pieces: expected a non-empty list")
    ids, team, kind, xy, size, angle, height, extras = [], [], [], [], [], [], [], []
    for i, p in enumerate(raw):
        w = f"{source}: pieces[{i}]"
        if not isinstance(p, dict):
            raise SceneError(f"{w}: expected an object")
        k = p.get("kind")
        if k not in _PIECE_KEYS:
            raise SceneError(f"{w}.kind: expected button, goalkeeper or ball, got {k!r}")
        unknown = sorted(set(p) - _PIECE_KEYS[k] - _DETECT_KEYS)
        if unknown:
            raise SceneError(f"{w}.{unknown[0]}: unknown field for a {k}")
        pid = p.get("id", "ball" if k == "ball" else None)
        if not isinstance(pid, str) or not pid:
            raise SceneError(f"{w}.id: expected a text id, got {pid!r}")
        if pid in ids:
            raise SceneError(f"{w}.id: duplicate id {pid!r}")
        t = p.get("team", "")
        if k != "ball" and t not in teams:
            raise SceneError(f"{w}.team: expected one of {sorted(teams)}, got {t!r}")
        for key in ("x", "y"):
            if key not in p:
                raise SceneError(f"{w}.{key}: missing")
        x, y = _num(f"{w}.x", p["x"]), _num(f"{w}.y", p["y"])
        if k == "goalkeeper":
            for key in ("length", "width"):
                if key not in p:
                    raise SceneError(f"{w}.{key}: missing (a goalkeeper is length x width)")
            s = (_num(f"{w}.length", p["length"], True), _num(f"{w}.width", p["width"], True))
            a = math.radians(_num(f"{w}.angle_deg", p.get("angle_deg", 90.0)))
        else:
            if "diameter" not in p:
                raise SceneError(f"{w}.diameter: missing")
            d = _num(f"{w}.diameter", p["diameter"], True)
            s, a = (d, d), 0.0
        h = _num(f"{w}.height", p["height"], True) if "height" in p else math.nan
        ids.append(pid)
        team.append(t if k != "ball" else "")
        kind.append(k)
        xy.append((x, y))
        size.append(s)
        angle.append(a)
        height.append(h)
        extras.append({key: p[key] for key in _DETECT_KEYS if key in p})
    if kind.count("ball") > 1:
        raise SceneError(f"{source}: pieces: more than one ball")

    context = data.get("context", {})
    if not isinstance(context, dict):
        raise SceneError(f"{source}: context: expected an object")
    _check_context(context, source, teams, ids)

    pieces = Pieces(
        ids=np.array(ids),
        team=np.array(team),
        kind=np.array(kind),
        xy_mm=np.array(xy, dtype=float),
        size_mm=np.array(size, dtype=float),
        angle_rad=np.array(angle, dtype=float),
        height_mm=np.array(height, dtype=float),
    )
    scene = Scene(table_name, teams, pieces, dict(context), extras, source)
    if table is not None:
        check_physical(scene, table)
    return scene


def _check_context(ctx: dict[str, Any], source: str, teams: dict[str, str], ids: list[str]) -> None:
    w = f"{source}: context"
    known = {"to_play", "last_touch", "restart", "spot", "team", "half", "blocking_team"}
    unknown = sorted(set(ctx) - known)
    if unknown:
        raise SceneError(f"{w}.{unknown[0]}: unknown context field")
    for key in ("to_play", "team", "blocking_team"):
        if key in ctx and ctx[key] not in teams:
            raise SceneError(f"{w}.{key}: expected one of {sorted(teams)}, got {ctx[key]!r}")
    if "last_touch" in ctx and ctx["last_touch"] not in ids:
        raise SceneError(f"{w}.last_touch: no piece with id {ctx['last_touch']!r}")
    if "restart" in ctx and ctx["restart"] not in RESTARTS:
        raise SceneError(
            f"{w}.restart: expected one of {', '.join(RESTARTS)}, got {ctx['restart']!r}"
        )
    if "spot" in ctx:
        spot = ctx["spot"]
        if not (isinstance(spot, list) and len(spot) == 2):
            raise SceneError(f"{w}.spot: expected [x, y] in mm, got {spot!r}")
        for v in spot:
            _num(f"{w}.spot", v)
    if "half" in ctx and ctx["half"] not in (1, 2):
        raise SceneError(f"{w}.half: expected 1 or 2, got {ctx['half']!r}")


def check_physical(scene: Scene, table: TableSpec) -> None:
    """Reject pieces beyond the rails or overlapping by more than the tolerance."""
    p = scene.pieces
    xmin, ymin, xmax, ymax = table.rail_box
    half = np.where(p.is_disc[:, None], p.size_mm / 2.0, 0.0)
    if (~p.is_disc).any():  # a goalkeeper's extent along x and y
        from geometry.pieces import rectangle_corners

        gk = ~p.is_disc
        c = rectangle_corners(p.xy_mm[gk], p.size_mm[gk], p.angle_rad[gk])
        half[gk] = np.abs(c - p.xy_mm[gk][:, None, :]).max(axis=1)
    lo, hi = p.xy_mm - half, p.xy_mm + half
    out = (lo[:, 0] < xmin) | (lo[:, 1] < ymin) | (hi[:, 0] > xmax) | (hi[:, 1] > ymax)
    if out.any():
        i = int(np.flatnonzero(out)[0])
        raise SceneError(
            f"{scene.source}: pieces[{i}] ({p.ids[i]}): beyond the rails of table "
            f"'{table.name}' (x {p.xy_mm[i, 0]:.1f}, y {p.xy_mm[i, 1]:.1f}; rails at "
            f"|x| {xmax:.0f}, |y| {ymax:.0f})"
        )
    if len(p) > 1:
        gaps = pairwise_gaps(p)
        a, b = (int(k) for k in np.unravel_index(np.argmin(gaps), gaps.shape))
        if gaps[a, b] < -OVERLAP_TOLERANCE_MM:
            raise SceneError(
                f"{scene.source}: pieces[{b}] ({p.ids[b]}): overlaps {p.ids[a]} by "
                f"{-gaps[a, b]:.1f} mm (more than {OVERLAP_TOLERANCE_MM} mm)"
            )


def load_scene(path: str | Path, table: TableSpec | None = None) -> Scene:
    """Read and validate a ``scene/1`` JSON file."""
    where = str(path)
    try:
        text = Path(path).read_text("utf-8")
    except OSError as exc:
        raise SceneError(f"{where}: cannot read ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SceneError(f"{where}: invalid JSON at line {exc.lineno} ({exc.msg})") from None
    return scene_from_dict(data, where, table)
