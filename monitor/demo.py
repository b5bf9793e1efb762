"""What ``botao demo`` prints: the simulated match, and the rule checks run where the ball stops.

Until the vision pipeline exists the demo judges the simulator's exact states (the scene a
perfect detector would report); the verdicts are the ones ``botao check`` gives on those scenes.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from geometry.scene import Scene
from geometry.tablespec import load_table
from rules.check import run_checks
from rules.checks import CheckContext
from rules.rulesets import get_ruleset
from simulator.state import FrameTruth

__all__ = ["report_demo"]

_HEADLINE = ("goal", "ball_out", "foul", "offside", "ball_blocked")


def _events(out: Path) -> list[dict[str, Any]]:
    path = out / "events.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def report_demo(out: Path, summary: dict[str, Any], states: dict[int, FrameTruth]) -> str:
    events = _events(out)
    kinds = Counter(e["type"] for e in events)
    goals = Counter(e.get("team") for e in events if e["type"] == "goal")
    teams: dict[str, str] = summary["teams"]
    lines = [
        f"Simulated {summary['frames']} frames ({summary['frames'] / summary['fps']:.1f} s) of a "
        f"{summary['rules']} match on table {summary['table']}, seed {summary['seed']}.",
        f"  video: {out / 'video.mp4'}   truth: truth.csv, events.jsonl, contacts.jsonl",
        "  score: " + "  ".join(f"{t} {goals.get(t, 0)}" for t in sorted(teams)),
        "  events: " + ", ".join(f"{k} {kinds[k]}" for k in sorted(kinds)),
        "",
        "Headline events (the simulator's perfect referee):",
    ]
    for e in events:
        if e["type"] in _HEADLINE:
            extra = f" restart {e['restart']}" if e.get("restart") else ""
            margin = "" if e.get("margin_mm") is None else f" margin {e['margin_mm']:+.1f} mm"
            lines.append(
                f"  t={e['t']:6.2f}s {e['type']:<12} team {e.get('team') or '-':<2} "
                f"{e.get('piece') or '':<5}{extra}{margin} ({e.get('article') or '-'})"
            )
    rules = get_ruleset(summary["rules"])
    table = load_table(summary["table"])
    ctx = CheckContext.build(table, rules)
    lines += ["", f"Rule checks ({rules.name}) on the table each time the ball stopped:"]
    stops = [e for e in events if e["type"] == "ball_stopped" and e["frame"] in states]
    for e in stops:
        ft = states[e["frame"]]
        scene = Scene(table.name, teams, ft.pieces, {}, source=f"frame {e['frame']}")
        found = [v for v in run_checks(scene, rules, table, ctx) if v.holds]
        said = "; ".join(
            f"{v.check} {v.piece or v.team or ''} ({v.margin_mm:+.1f} mm)" for v in found
        )
        lines.append(f"  t={e['t']:6.2f}s frame {e['frame']:>4}: {said or 'nothing to flag'}")
    if not stops:
        lines.append("  (the ball never came to rest)")
    return "\n".join(lines)
