"""``botao demo``: a simulated match, analysed by the monitor as a camera would see it, and scored.

The simulator writes ``OUT/video.mp4`` and its exact truth (``OUT/events.jsonl``, the perfect
referee); :func:`monitor.analyze.analyze` then judges the video alone - calibrating itself
from the markings, detecting and tracking, running the rule set's engine - into
``OUT/analysis/``. The demo ends with the comparison: for each headline event type, how many
the monitor found within two frames of the truth, and what it missed or added.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from monitor.analyze import AnalyzeSummary
from monitor.compare import score
from simulator.state import FrameTruth

__all__ = ["SCORED", "id_map_from_tracks", "report_demo"]

SCORED = ("goal", "ball_out", "foul", "offside", "touch")


def _events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def id_map_from_tracks(tracks_csv: Path, states: dict[int, FrameTruth]) -> dict[str, str]:
    """Tracker id -> simulator id, by position where each track was first seen.

    The tracker names pieces by where they stood at the start (INTERFACES.md roster order), the
    simulator by its roster; per team and kind the nearest assignment decides (Hungarian).
    """
    first: dict[str, tuple[int, str, str, float, float]] = {}
    with open(tracks_csv, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row["id"] not in first and row.get("status", "seen") == "seen":
                first[row["id"]] = (
                    int(row["frame"]),
                    row["team"],
                    row["kind"],
                    float(row["x"]),
                    float(row["y"]),
                )
    out: dict[str, str] = {}
    groups: dict[tuple[str, str], list[str]] = {}
    for tid, (_, team, kind, _, _) in first.items():
        groups.setdefault((team, kind), []).append(tid)
    for (team, kind), tids in groups.items():
        cands: list[str] = []
        cost_rows = []
        for tid in tids:
            frame, _, _, x, y = first[tid]
            st = states.get(frame)
            if st is None:
                continue
            p = st.pieces
            sel = np.flatnonzero((p.team == team) & (p.kind == kind))
            if not cands:
                cands = [str(p.ids[i]) for i in sel]
            d = np.full(len(cands), 1e6)
            for j, i in enumerate(sel[: len(cands)]):
                d[j] = float(np.hypot(*(p.xy_mm[i] - (x, y))))
            cost_rows.append((tid, d))
        if not cands or not cost_rows:
            continue
        cost = np.array([d for _, d in cost_rows])
        rows, cols = linear_sum_assignment(cost)
        for r, c in zip(rows, cols, strict=True):
            if cost[r, c] < 30.0:  # a piece found where the truth has one
                out[cost_rows[r][0]] = cands[c]
    return out


def report_demo(
    out: Path, sim: dict[str, Any], analysis: AnalyzeSummary, states: dict[int, FrameTruth]
) -> str:
    truth = _events(out / "events.jsonl")
    found = _events(Path(analysis.outputs["events"]))
    id_map = id_map_from_tracks(Path(analysis.outputs["tracks"]), states)
    goals = {
        t: sum(1 for e in truth if e["type"] == "goal" and e["team"] == t) for t in sim["teams"]
    }
    fps = analysis.frames / max(analysis.wall_s, 1e-9)
    lines = [
        f"Simulated {sim['frames']} frames ({sim['frames'] / sim['fps']:.1f} s) of a "
        f"{sim['rules']} match on table {sim['table']}, seed {sim['seed']}, "
        f"{sim['resolution'][0]}x{sim['resolution'][1]}: {out / 'video.mp4'} and its truth.",
        f"Analysed by the monitor from the video alone ({analysis.camera}) at {fps:.1f} frames/s:",
        f"  {out / 'analysis'}/: events.jsonl, tracks.csv, annotated.mp4, report.html",
        "  score seen: "
        + "  ".join(f"{t} {n}" for t, n in analysis.score.items())
        + "   (truth: "
        + "  ".join(f"{t} {n}" for t, n in goals.items())
        + ")",
        "",
        "Monitor vs the simulator's truth (same type and key, within 2 frames):",
        f"  {'event':<10} {'truth':>5} {'found':>5} {'matched':>7}  precision  recall",
    ]
    for kind in SCORED:
        s = score(truth, found, kind, 2, id_map)
        lines.append(
            f"  {kind:<10} {s.truth:>5} {s.engine:>5} {s.matched:>7}  "
            f"{s.precision:>9.0%}  {s.recall:>6.0%}"
        )
    head = [
        e for e in found if e["type"] in ("goal", "ball_out", "foul", "offside", "ball_blocked")
    ]
    lines += ["", "Headline events the monitor called:"]
    for e in head:
        extra = (e.get("evidence") or {}).get("restart") or ""
        margin = "" if e.get("margin_mm") is None else f" margin {e['margin_mm']:+.1f} mm"
        lines.append(
            f"  t={e['t']:6.2f}s {e['type']:<12} team {e.get('team') or '-':<2} "
            f"{e.get('piece') or '':<5} {extra}{margin} ({e.get('article') or '-'})"
        )
    if not head:
        lines.append("  (none)")
    if analysis.damage:
        lines.append(f"Video damage: {analysis.damage}")
    return "\n".join(lines)
