"""A top-down SVG of a scene and the evidence of its verdicts (``botao check --svg``).

Drawing lives here, in the monitor, never in geometry or rules: they hand over numbers (the
offside line's x, the gabarito's witness position, the pair a distance was measured between) in
each verdict's extra fields, and this module draws them. 1 SVG unit = 1 mm; the far touchline
(+y) is at the top.
"""

from __future__ import annotations

from html import escape

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from geometry.pieces import footprints
from geometry.scene import Scene
from rules.checks import CheckContext
from rules.verdict import Verdict

__all__ = ["scene_svg"]

_TEAM_FILL = ("#d43a2f", "#2f62d4")
_TEAM_STROKE = ("#7a1a14", "#16306e")


def _ring_d(coords: np.ndarray) -> str:
    # one %-format over the ring (4.5x faster than a format per point: a report's hundreds
    # of drawings each draw the field's rings again)
    xy = np.asarray(coords, np.float64) * (1.0, -1.0)
    return "M" + " L".join(["%.2f,%.2f"] * len(xy)) % tuple(xy.ravel().tolist()) + " Z"


def _path_d(geom: BaseGeometry) -> str:
    parts: list[str] = []
    for poly in shapely.get_parts(geom):
        if poly.is_empty or poly.geom_type != "Polygon":
            continue
        parts.append(_ring_d(np.asarray(poly.exterior.coords)))
        parts.extend(_ring_d(np.asarray(r.coords)) for r in poly.interiors)
    return " ".join(parts)


def _text(
    x: float, y: float, s: str, size: float = 14, fill: str = "#111", anchor: str = "middle"
) -> str:
    return (
        f'<text x="{x:.1f}" y="{-y:.1f}" font-size="{size}" font-family="sans-serif" '
        f'text-anchor="{anchor}" fill="{fill}">{escape(s)}</text>'
    )


def scene_svg(scene: Scene, ctx: CheckContext, verdicts: list[Verdict]) -> str:
    """The SVG document (text) for one scene and its verdicts."""
    fm = ctx.field
    xmin, ymin, xmax, ymax = fm.rail_box
    pad = 10.0
    legend_h = 24.0 * (1 + sum(1 for v in verdicts if v.holds))
    w, h = xmax - xmin + 2 * pad, ymax - ymin + 2 * pad
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{xmin - pad:.1f} {-ymax - pad:.1f} '
        f'{w:.1f} {h + legend_h:.1f}" width="{w:.0f}" height="{h + legend_h:.0f}">',
        f'<rect x="{xmin:.1f}" y="{-ymax:.1f}" width="{xmax - xmin:.1f}" '
        f'height="{ymax - ymin:.1f}" '
        'fill="#1d5e2c" stroke="#5a3a1a" stroke-width="6"/>',
        f'<path d="{_path_d(fm.regions["field"])}" fill="#2f8a45"/>',
        f'<path d="{_path_d(fm.painted)}" fill="#f4f4f4"/>',
    ]
    for side in ("left", "right"):
        out.append(
            f'<path d="{_path_d(fm.regions[f"goal_mouth_{side}"])}" fill="#dddddd" opacity="0.6"/>'
        )
        out.append(
            f'<path d="{_path_d(fm.markings[f"posts_{side}"])}" fill="#ffffff" stroke="#333"/>'
        )

    # Evidence under the pieces: the gabarito and offside lines.
    for v in verdicts:
        if v.check == "offside_position" and "line_x_mm" in v.extra and v.holds:
            x = float(v.extra["line_x_mm"])
            out.append(
                f'<line x1="{x:.2f}" y1="{-fm.hw:.1f}" x2="{x:.2f}" y2="{fm.hw:.1f}" '
                'stroke="#ffd400" stroke-width="2" stroke-dasharray="12 6"/>'
            )
        if v.check in ("ball_blocked", "ball_obstructed", "ball_enclosed") and "contact" in v.extra:
            cx, cy = v.extra["contact"]
            r = float(v.extra.get("gabarito_mm", 60.0)) / 2.0
            colour = "#e02020" if v.holds else "#20c020"
            out.append(
                f'<circle cx="{cx:.2f}" cy="{-cy:.2f}" r="{r:.2f}" fill="{colour}" '
                f'fill-opacity="0.25" stroke="{colour}" stroke-width="1.5"/>'
            )

    p = scene.pieces
    polys = footprints(p)
    teams = sorted(scene.teams)
    flagged = {v.piece for v in verdicts if v.holds and v.piece}
    for i, poly in enumerate(polys):
        if p.kind[i] == "ball":
            fill, stroke = "#ffffff", "#000000"
        else:
            k = teams.index(str(p.team[i])) % 2
            fill, stroke = _TEAM_FILL[k], _TEAM_STROKE[k]
        width = 3 if p.ids[i] in flagged else 1
        if p.ids[i] in flagged:
            stroke = "#ffd400"
        out.append(
            f'<path d="{_path_d(poly)}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
        )
        if p.kind[i] != "ball":
            x, y = p.xy_mm[i]
            out.append(_text(float(x), float(y) - 5, str(p.ids[i]), 14, "#ffffff"))

    # Measured gaps: the shortest segment between the two footprints (or piece and spot).
    index = {str(pid): i for i, pid in enumerate(p.ids)}
    for v in verdicts:
        if v.check != "min_distance" or v.piece not in index:
            continue
        other = v.extra.get("other")
        a = polys[index[v.piece]]
        if other in index:
            b = polys[index[str(other)]]
        elif other == "spot" and "spot" in scene.context:
            b = shapely.Point(*scene.context["spot"])
        else:
            continue
        seg = shapely.shortest_line(a, b)
        (x1, y1), (x2, y2) = np.asarray(seg.coords)
        colour = "#20c020" if v.holds else "#e02020"
        out.append(
            f'<line x1="{x1:.2f}" y1="{-y1:.2f}" x2="{x2:.2f}" y2="{-y2:.2f}" stroke="{colour}" '
            'stroke-width="2"/>'
        )
        d = v.margin_mm + float(v.extra.get("limit_mm", 0.0)) if v.margin_mm is not None else 0.0
        out.append(_text((x1 + x2) / 2, (y1 + y2) / 2 + 8, f"{d:.1f}", 12, colour))

    y = ymin - pad - 18.0
    out.append(
        _text(xmin, y, f"{ctx.rules.name} on {ctx.table.name}: {scene.source}", 16, "#111", "start")
    )
    for v in verdicts:
        if not v.holds:
            continue
        y -= 24.0
        who = v.piece or v.team or ""
        # a call with no distance to measure (a half's end, a neutral ball) has no margin
        margin = "" if v.margin_mm is None else f" margin {v.margin_mm:+.2f} mm"
        line = f"{v.check} {who}{margin} - {v.detail} ({v.article})"
        out.append(_text(xmin, y, line, 15, "#111", "start"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
