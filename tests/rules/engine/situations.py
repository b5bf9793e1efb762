"""Helpers for the tables of situations: play a script through an engine, look for events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from geometry.tablespec import load_table
from rules.engine import Annotations, EngineOptions, RuleEngine
from rules.rulesets import get_ruleset
from tests.rules.engine.script import Script

Event = dict[str, Any]


@dataclass(frozen=True)
class Situation:
    """One row of a table: a scripted play and what the text says must (not) happen.

    ``expect`` lists ``(type, team, piece, evidence subset)``; ``None`` matches anything.
    ``absent`` lists types that must not be emitted (as holding events).
    """

    name: str
    article: str
    build: Callable[[], Script]
    expect: tuple[tuple[str, str | None, str | None, dict[str, Any]], ...] = ()
    absent: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    annotations: dict[str, Any] | None = None


def run(
    rules: str,
    script: Script,
    annotations: dict[str, Any] | None = None,
    teams: dict[str, str] | None = None,
    **options: Any,
) -> list[Event]:
    """All events of a scripted play (every frame fed, then :meth:`RuleEngine.finish`)."""
    table = load_table(get_ruleset(rules).table)
    ann = Annotations.from_dict(annotations) if annotations is not None else None
    options.setdefault("kick_off", False)  # a situation is cut from play
    engine = RuleEngine(table, rules, teams, annotations=ann, options=EngineOptions(**options))
    out: list[Event] = []
    for f in script.frames:
        out += engine.update(f)
    out += engine.finish()
    return out


def find(
    events: list[Event],
    kind: str,
    team: str | None = None,
    piece: str | None = None,
    **evidence: Any,
) -> list[Event]:
    """Holding events of ``kind`` with the given fields (``None``: any)."""
    out = []
    for e in events:
        if e["type"] != kind or not e["holds"]:
            continue
        if team is not None and e["team"] != team:
            continue
        if piece is not None and e["piece"] != piece:
            continue
        if any(e["evidence"].get(k) != v for k, v in evidence.items()):
            continue
        out.append(e)
    return out


def check(rules: str, sit: Situation) -> list[Event]:
    """Play ``sit`` and assert its expectations; returns the events."""
    events = run(rules, sit.build(), sit.annotations, **sit.options)
    summary = [
        (e["frame"], e["type"], e["team"], e["piece"]) for e in events if e["type"] != "ball_moving"
    ]
    for kind, team, piece, evidence in sit.expect:
        assert find(events, kind, team, piece, **evidence), (
            f"{sit.name} ({sit.article}): expected {kind} team={team} piece={piece} "
            f"{evidence}; got {summary}"
        )
    for kind in sit.absent:
        assert not find(events, kind), (
            f"{sit.name} ({sit.article}): unexpected {kind}; got {summary}"
        )
    return events
