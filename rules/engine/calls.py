"""The pieces of a call that do not depend on the engine's running state.

- :func:`foul_restart`: how a foul is restarted (penalty inside the offender's own penalty
  area, else a direct or indirect free kick or the goalkeeper's kick, per rule set);
- :func:`offside_positions`: the lance team's buttons in an offside position at the flick,
  from :func:`rules.checks.offside.check_offside_position` (000 REGRA 11; 001 Art. XXXII);
- :func:`restart_spot`: where a restart is taken;
- :func:`goal_area_owner`: whose goal area a resting ball is in (touching its lines counts).

Examples
--------
>>> from geometry.field import FieldModel
>>> from geometry.tablespec import load_table
>>> from rules.engine.profiles import get_profile
>>> fm = FieldModel(load_table("brasileira"))
>>> teams = {"A": "left", "B": "right"}
>>> foul_restart(get_profile("brasileira"), fm, teams, "A", (-900.0, 0.0), "button")[:2]
('penalty', '000 REGRA 14')
>>> foul_restart(get_profile("paulista"), fm, teams, "A", (300.0, 0.0), "button")[:2]
('indirect_free_kick', '002 Do acionamento 11')
"""

from __future__ import annotations

import numpy as np

from geometry.field import SIDES, FieldModel
from geometry.lines import ball_in_area_margin
from geometry.measure import box_signed_distance
from geometry.pieces import Pieces
from geometry.scene import Scene
from rules.checks.base import CheckContext
from rules.checks.offside import check_offside_position
from rules.engine.profiles import Profile

__all__ = ["foul_restart", "goal_area_owner", "offside_positions", "restart_spot"]


def _other(teams: dict[str, str], team: str) -> str:
    return next(t for t in teams if t != team)


def foul_restart(
    profile: Profile,
    field: FieldModel,
    teams: dict[str, str],
    offender: str,
    at_xy: tuple[float, float],
    victim_kind: str,
) -> tuple[str, str, float]:
    """``(restart, article, margin_mm)`` of a foul by ``offender`` at ``at_xy``.

    ``margin_mm`` is how far ``at_xy`` lies inside the offender's own penalty area (negative:
    outside): a penalty when it is >= 0 (000 REGRA 14 "dentro das áreas de campo de defesa do
    técnico infrator"; Art. 19; 001 Art. XXVII; 003 Penáltis). Outside the area:

    - ``direct``: a direct free kick (000 REGRA 12-13);
    - ``by_half``: indirect when the foul is in the beneficiary's half or on the halfway line
      (000 Art. 18; 001 Art. XXIII § 2-3);
    - ``attack_only``: direct only in the beneficiary's attacking half (002 Do tiro livre
      direto 1);
    - ``keeper_kick``: a foul on the goalkeeper gives it the kick (003 A bola do
      guarda-redes), else a free kick.
    """
    side = teams[offender]
    xy = np.array([at_xy], dtype=float)
    inside = -float(box_signed_distance(xy, field.penalty_area_box(side))[0])
    if inside >= 0.0:
        return "penalty", profile.article("penalty"), inside
    article = profile.article("foul")
    # Forward coordinate of the beneficiary: positive in its attacking half.
    beneficiary_u = (1.0 if teams[_other(teams, offender)] == "left" else -1.0) * at_xy[0]
    on_line = abs(at_xy[0]) <= field.lw / 2.0
    mode = profile.foul_restart
    if mode == "by_half" and (beneficiary_u < 0.0 or on_line):
        return "indirect_free_kick", article, inside
    if mode == "attack_only" and (beneficiary_u <= 0.0 or on_line):
        return "indirect_free_kick", article, inside
    if mode == "keeper_kick" and victim_kind == "goalkeeper":
        return "goal_kick", profile.article("keeper_foul"), inside
    return "free_kick", article, inside


def offside_positions(
    pieces: Pieces, teams: dict[str, str], team: str, ctx: CheckContext
) -> tuple[dict[str, float], float | None]:
    """Buttons of ``team`` in an offside position (id -> margin mm) and the line's x (mm)."""
    scene = Scene(ctx.table.name, teams, pieces, {"to_play": team})
    found: dict[str, float] = {}
    line_x: float | None = None
    for v in check_offside_position(scene, ctx):
        if v.team != team or v.piece is None:
            continue
        line_x = float(v.extra.get("line_x_mm", 0.0))
        if v.holds:
            found[v.piece] = float(v.margin_mm or 0.0)
    return found, line_x


def restart_spot(
    field: FieldModel, restart: str, line: str, crossing: tuple[float, float]
) -> tuple[float, float]:
    """Where a ball-out restart is taken (000 REGRA 15, 16, 17; Art. 13-15; 001; 003).

    Throw-in: on the touchline where the ball left. Corner: inside the quadrant on the side it
    left. Goal kick: in the goal area, on the side it left ("do lado mais próximo por onde a
    bola saiu", REGRA 16).
    """
    hl, hw, lw = field.hl, field.hw, field.lw
    x, y = crossing
    sy = 1.0 if y >= 0 else -1.0
    if restart == "throw_in":
        return (float(np.clip(x, -hl + 20.0, hl - 20.0)), sy * (hw - lw / 2.0))
    sx = 1.0 if line == "goal_right" else -1.0
    if restart == "corner":
        d = field.spec.corner_arc_radius / 2.0
        return (sx * (hl - d), sy * (hw - d))
    ga = field.spec.goal_area
    return (sx * (hl - ga.depth / 2.0), sy * ga.width / 4.0)


def goal_area_owner(
    xy: tuple[float, float], r: float, field: FieldModel, teams: dict[str, str]
) -> tuple[str, float] | None:
    """``(team, margin)`` if the ball is in a goal area (touching its lines counts)."""
    for side in SIDES:
        m = float(ball_in_area_margin(xy, r, field.goal_area_box(side))[0])
        if m >= 0.0:
            return next(t for t, s in teams.items() if s == side), m
    return None
