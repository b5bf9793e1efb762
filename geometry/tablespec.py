"""Table specifications: the dimensions of a button-football table, in millimetres.

A table spec is a TOML file (format in INTERFACES.md). Built-in presets live in
``geometry/tables/`` with the article every value comes from in their ``[sources]`` table.

Conventions (INTERFACES.md, "Table frame"): ``field_length`` and ``field_width`` are measured to
the *outer* edges of the boundary lines; area sizes are measured to the outer edges of their own
lines, so a line always belongs to the region it bounds.

Examples
--------
>>> spec = load_table("brasileira")
>>> spec.field_length, spec.goal_width
(2000.0, 146.0)
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["Area", "TableSpec", "TableSpecError", "list_tables", "load_table", "table_from_dict"]


class TableSpecError(ValueError):
    """A table spec that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Area:
    """A rectangle on a goal line: ``width`` along the line, ``depth`` into the field."""

    width: float
    depth: float


@dataclass(frozen=True)
class TableSpec:
    """Dimensions of one table (all millimetres)."""

    name: str
    field_length: float
    field_width: float
    line_width: float
    goal_width: float
    goal_height: float
    post_diameter: float
    penalty_area: Area
    goal_area: Area
    penalty_mark_distance: float
    penalty_arc_radius: float
    center_circle_radius: float
    corner_arc_radius: float
    rail_margin: float
    # Optional keys (added fields; defaults keep older files valid).
    goal_depth: float = 80.0
    mark_diameter: float = 10.0
    center_mark_diameter: float = 10.0
    penalty_arc_center_distance: float | None = None
    rules: str | None = None
    description: str = ""
    sources: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def half_length(self) -> float:
        return self.field_length / 2.0

    @property
    def half_width(self) -> float:
        return self.field_width / 2.0

    @property
    def arc_center_distance(self) -> float:
        """Distance from the goal line to the centre of the penalty arc (meia-lua)."""
        if self.penalty_arc_center_distance is None:
            return self.penalty_mark_distance
        return self.penalty_arc_center_distance

    @property
    def rail_box(self) -> tuple[float, float, float, float]:
        """``(xmin, ymin, xmax, ymax)`` of the playing surface inside the rails."""
        hx = self.half_length + self.rail_margin
        hy = self.half_width + self.rail_margin
        return (-hx, -hy, hx, hy)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Area):
                value = {"width": value.width, "depth": value.depth}
            if value is None or (f.name == "sources" and not value):
                continue
            out[f.name] = value
        return out


_REQUIRED = (
    "field_length",
    "field_width",
    "goal_width",
    "goal_height",
    "post_diameter",
    "penalty_area",
    "goal_area",
    "penalty_mark_distance",
    "penalty_arc_radius",
    "center_circle_radius",
    "corner_arc_radius",
    "rail_margin",
)
_OPTIONAL_NUMBERS = (
    "line_width",
    "goal_depth",
    "mark_diameter",
    "center_mark_diameter",
    "penalty_arc_center_distance",
)
_OPTIONAL_TEXT = ("name", "rules", "description")
_KNOWN = set(_REQUIRED) | set(_OPTIONAL_NUMBERS) | set(_OPTIONAL_TEXT) | {"sources"}


def _number(where: str, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TableSpecError(f"{where}: key '{key}' must be a number of millimetres, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number <= 0:
        raise TableSpecError(f"{where}: key '{key}' must be positive, got {value!r}")
    return number


def _area(where: str, key: str, value: Any) -> Area:
    if not isinstance(value, dict):
        raise TableSpecError(
            f"{where}: key '{key}' must be a table {{width, depth}}, got {value!r}"
        )
    unknown = set(value) - {"width", "depth"}
    if unknown:
        raise TableSpecError(f"{where}: unknown key '{key}.{sorted(unknown)[0]}'")
    for sub in ("width", "depth"):
        if sub not in value:
            raise TableSpecError(f"{where}: missing key '{key}.{sub}'")
    return Area(
        width=_number(where, f"{key}.width", value["width"]),
        depth=_number(where, f"{key}.depth", value["depth"]),
    )


def table_from_dict(data: dict[str, Any], where: str = "<table>", name: str = "") -> TableSpec:
    """Validate a parsed table spec; every error names ``where`` and the key."""
    unknown = sorted(set(data) - _KNOWN)
    if unknown:
        raise TableSpecError(f"{where}: unknown key '{unknown[0]}'")
    for key in _REQUIRED:
        if key not in data:
            raise TableSpecError(f"{where}: missing key '{key}'")
    kw: dict[str, Any] = {}
    for key in _REQUIRED + _OPTIONAL_NUMBERS:
        if key not in data:
            continue
        if key in ("penalty_area", "goal_area"):
            kw[key] = _area(where, key, data[key])
        else:
            kw[key] = _number(where, key, data[key])
    kw.setdefault("line_width", 2.0)
    for key in _OPTIONAL_TEXT:
        if key in data and not isinstance(data[key], str):
            raise TableSpecError(f"{where}: key '{key}' must be text, got {data[key]!r}")
    sources = data.get("sources", {})
    if not isinstance(sources, dict) or not all(isinstance(v, str) for v in sources.values()):
        raise TableSpecError(f"{where}: key 'sources' must be a table of texts")
    spec = TableSpec(
        name=str(data.get("name", name or where)),
        rules=data.get("rules"),
        description=str(data.get("description", "")),
        sources=dict(sources),
        **kw,
    )
    _check_consistent(spec, where)
    return spec


def _check_consistent(s: TableSpec, where: str) -> None:
    """Reject dimensions that cannot be drawn on one field."""

    def bad(key: str, why: str) -> TableSpecError:
        return TableSpecError(f"{where}: key '{key}' {why}")

    if s.field_width >= s.field_length:
        raise bad("field_width", f"({s.field_width}) must be less than field_length")
    lw = s.line_width
    if lw * 4 >= s.field_width:
        raise bad("line_width", f"({lw}) is too wide for the field")
    if s.penalty_area.width >= s.field_width:
        raise bad("penalty_area.width", f"({s.penalty_area.width}) is wider than the field")
    if s.penalty_area.depth >= s.half_length:
        raise bad("penalty_area.depth", f"({s.penalty_area.depth}) reaches the halfway line")
    if s.goal_area.width >= s.penalty_area.width:
        raise bad("goal_area.width", f"({s.goal_area.width}) is not inside the penalty area")
    if s.goal_area.depth >= s.penalty_area.depth:
        raise bad("goal_area.depth", f"({s.goal_area.depth}) is not inside the penalty area")
    if s.goal_width + s.post_diameter * 2 >= s.goal_area.width:
        raise bad("goal_width", f"({s.goal_width}) is wider than the goal area")
    if s.penalty_mark_distance >= s.penalty_area.depth:
        raise bad("penalty_mark_distance", "puts the penalty mark outside the penalty area")
    if s.center_circle_radius * 2 >= s.field_width:
        raise bad("center_circle_radius", "makes the centre circle wider than the field")
    if s.corner_arc_radius * 2 >= s.field_width:
        raise bad("corner_arc_radius", "is larger than half the field")
    if s.arc_center_distance + s.penalty_arc_radius >= s.half_length:
        raise bad("penalty_arc_radius", "reaches the halfway line")


def _preset_names() -> list[str]:
    folder = resources.files("geometry") / "tables"
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def list_tables() -> list[TableSpec]:
    """All built-in presets, sorted by name."""
    return [load_table(n) for n in _preset_names()]


def load_table(name_or_path: str | Path) -> TableSpec:
    """Load a built-in preset by name, or a TOML file by path.

    Raises
    ------
    TableSpecError
        Unknown preset, unreadable file, invalid TOML, or an invalid key (named in the message).
    """
    text: str
    where: str
    path = Path(name_or_path)
    if isinstance(name_or_path, str) and name_or_path in _preset_names():
        where = f"table '{name_or_path}'"
        text = (resources.files("geometry") / "tables" / f"{name_or_path}.toml").read_text("utf-8")
        name = name_or_path
    elif path.suffix == ".toml" or path.exists():
        where = str(path)
        try:
            text = path.read_text("utf-8")
        except OSError as exc:
            raise TableSpecError(f"{where}: cannot read table spec ({exc.strerror})") from None
        name = path.stem
    else:
        known = ", ".join(_preset_names())
        raise TableSpecError(f"unknown table '{name_or_path}' (built-in: {known}; or a .toml path)")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TableSpecError(f"{where}: invalid TOML ({exc})") from None
    return table_from_dict(data, where=where, name=name)
