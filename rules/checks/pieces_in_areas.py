"""Pieces against regions: ``goalkeeper_in_goal_area`` and ``piece_out_of_field``."""

from __future__ import annotations

import numpy as np

from geometry.measure import footprint_box_extent, footprint_box_signed_distance
from geometry.scene import Scene
from rules.checks.base import CheckContext, register
from rules.verdict import Verdict, margin_holds


@register("goalkeeper_in_goal_area")
def check_goalkeeper_in_goal_area(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """Each goalkeeper's footprint wholly inside its own goal area, lines included.

    000 Art. 6 ("não poderá ficar com nenhuma de suas faces... fora dos limites de sua área
    pequena"), 001 Art. XXIX b, 002 Do goleiro 1. ``margin_mm`` is the smallest clearance of the
    footprint to the area's outer edges (negative: how far its worst corner sticks out).
    """
    article = ctx.rules.article("goalkeeper_in_goal_area")
    p = scene.pieces
    gk = np.flatnonzero(p.kind == "goalkeeper")
    if len(gk) == 0:
        return []
    keepers = p.select(gk)
    sides = [scene.teams[str(t)] for t in keepers.team]
    extent = {
        side: footprint_box_extent(keepers, ctx.field.goal_area_box(side)) for side in set(sides)
    }
    out = []
    for k, i in enumerate(gk):
        team, side = str(p.team[i]), sides[k]
        margin = float(extent[side][k])
        holds = margin_holds(margin, inclusive=True)
        detail = (
            f"goalkeeper wholly inside the {side} goal area"
            if holds
            else f"goalkeeper {-margin:.1f} mm outside the {side} goal area"
        )
        out.append(
            Verdict(
                "goalkeeper_in_goal_area",
                holds,
                margin,
                detail,
                article,
                team=team,
                piece=str(p.ids[i]),
            )
        )
    return out


@register("piece_out_of_field")
def check_piece_out_of_field(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """Every button and goalkeeper: wholly beyond the boundary lines?

    000 Art. 9 ("ultrapassar totalmente a linha demarcatória"), 001 Art. XXXVII. ``margin_mm``:
    the gap between the footprint and the field (positive: out), or minus the shortest push that
    would take it wholly out.
    """
    article = ctx.rules.article("piece_out_of_field")
    p = scene.pieces
    idx = np.flatnonzero(p.kind != "ball")
    if len(idx) == 0:
        return []
    margins = footprint_box_signed_distance(p.select(idx), ctx.field.field_box)
    out = []
    for i, m in zip(idx, margins, strict=False):
        holds = margin_holds(float(m))
        detail = "wholly out of the field" if holds else f"in the field ({-m:.1f} mm from out)"
        out.append(
            Verdict(
                "piece_out_of_field",
                holds,
                float(m),
                detail,
                article,
                team=str(p.team[i]),
                piece=str(p.ids[i]),
            )
        )
    return out
