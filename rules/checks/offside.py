"""Check ``offside_position``: which attacking buttons stand in an offside position.

A still picture can only say where the pieces are, not how the move unfolds, so the check
answers "is this button in an offside *position*" (000 REGRA 11 CARACTERIZAÇÃO; 001 Art. XXXII)
and leaves the dynamic parts of the rules to the caller (see :func:`check_offside_position`).

Every measurement is taken along the attacking direction of the team being judged: with
``s = scene.attack_sign(team)``, ``u = s * x`` grows toward the goal line the team attacks, so
one code path serves both teams and a mirrored scene gives the same margins.

Examples
--------
>>> from geometry.scene import scene_from_dict
>>> from geometry.tablespec import load_table
>>> from rules.checks.base import CheckContext
>>> from rules.rulesets import get_ruleset
>>> ctx = CheckContext.build(load_table("brasileira"), get_ruleset("brasileira"))
>>> doc = {"format": "scene/1", "table": "brasileira",
...        "teams": {"A": {"defends": "left"}, "B": {"defends": "right"}},
...        "pieces": [{"id": "A9", "team": "A", "kind": "button", "x": 600, "y": 0, "diameter": 60},
...                   {"id": "B1", "team": "B", "kind": "goalkeeper", "x": 990, "y": 0,
...                    "length": 70, "width": 15},
...                   {"id": "B4", "team": "B", "kind": "button", "x": 500, "y": 100,
...                    "diameter": 60},
...                   {"id": "ball", "kind": "ball", "x": 300, "y": 0, "diameter": 10}],
...        "context": {"to_play": "A"}}
>>> v = check_offside_position(scene_from_dict(doc), ctx)[0]
>>> v.piece, v.holds, v.margin_mm, v.extra["decided_by"]
('A9', True, 100.0, 'penultimate_defender')
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from geometry.pieces import Pieces
from geometry.scene import Scene
from rules.checks.base import CheckContext, register
from rules.verdict import Verdict, margin_holds

__all__ = ["check_offside_position", "forward_extent"]

CHECK = "offside_position"


def forward_extent(pieces: Pieces, sign: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Rearmost and foremost ``u = sign * x`` of every footprint (mm).

    Discs: centre -/+ radius. Goalkeepers: the extreme corners of the rotated rectangle, so a
    goalkeeper standing at an angle is judged by the corner nearest the goal line.
    """
    u = sign * pieces.xy_mm[:, 0]
    half = pieces.half_extents_mm[:, 0]
    return u - half, u + half


def _candidates(scene: Scene) -> list[str]:
    to_play = scene.context.get("to_play")
    return [to_play] if to_play in scene.teams else list(scene.teams)


@register(CHECK)
def check_offside_position(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """One verdict per candidate attacking button: is it in an offside position?

    Candidates are the buttons (never goalkeepers) of ``context.to_play`` if given, else of both
    teams. ``margin_mm`` is how far the attacker is past the offside line (positive: offside,
    negative: onside); ``extra["line_x_mm"]`` is that line in the table frame and
    ``extra["decided_by"]`` what placed it.

    Mode ``"penultimate"`` (000 REGRA 11): offside when the attacker's most advanced point is
    nearer the opponent's goal line than the ball's most advanced point and than the
    penultimate defender's point nearest its goal line (the goalkeeper counts as a defender;
    "any part of the body" as in football). The exceptions a picture decides:

    - A) level with the penultimate defender: not offside (``margin_mm == 0`` gives ``holds``
      False);
    - B) in his own half: not offside. Decided with the attacker's most advanced point against
      the far edge of the halfway line strip (the line is no one's ground, as in football: an
      attacker must reach beyond it to be in the opponent's half);
    - C) two or more defenders nearer the goal line than him: not offside (the same test as
      being behind the penultimate defender).

    Exceptions D (the coach's first lance), E (after a save by the goalkeeper) and F (the first
    lance after a goal kick, throw-in or corner) depend on the move, not on the picture: the
    caller must discard the verdict in those cases. So must it for the moment the ball is
    played ("no momento em que a bola é lançada"): the check judges the scene it is given.
    With fewer than two defenders the penultimate defender is absent and the line is set by
    the ball and the halfway line alone. Without a ball the mode cannot run: one verdict with
    ``holds`` None says so.

    Mode ``"goalkeeper_only"`` (001 Art. XXXII): offside when the attacker stands in the
    opponent's half "tendo à frente apenas o goleiro" with "o corpo completamente à frente":
    its rearmost point is beyond the last outfield defender's point nearest its goal line and
    beyond the far edge of the halfway line strip (the whole body "em campo adversário").
    § 1 b (the ball leaving the defence half and passing the last defender) and § 4 (the
    annulments) are about the move: the caller decides them. The ball is not needed.
    """
    article = ctx.rules.article(CHECK)
    mode = ctx.rules.param("offside_mode") if ctx.rules.has("offside_mode") else "penultimate"
    if mode not in ("penultimate", "goalkeeper_only"):
        raise ValueError(f"offside_mode: expected 'penultimate' or 'goalkeeper_only', got {mode!r}")
    p = scene.pieces
    bi = scene.ball_index
    if mode == "penultimate" and bi is None:
        return [Verdict(CHECK, None, None, "skipped: needs a ball in the scene", article)]
    halfway_u = ctx.field.lw / 2.0  # far edge of the halfway line strip, along the attack
    out: list[Verdict] = []
    for team in _candidates(scene):
        sign = scene.attack_sign(team)
        att = np.flatnonzero((p.team == team) & (p.kind == "button"))
        if len(att) == 0:
            continue
        att_lo, att_hi = forward_extent(p.select(att), sign)
        defs = np.flatnonzero(p.team == scene.opponent(team))
        limits: dict[str, tuple[float, str | None]]  # name -> (u of the limit, piece id)
        if mode == "penultimate":
            _, def_hi = forward_extent(p.select(defs), sign)
            order = np.argsort(-def_hi, kind="stable")
            ball_hi = float(forward_extent(p.select(np.array([bi])), sign)[1][0])
            limits = {"ball": (ball_hi, None), "halfway_line": (halfway_u, None)}
            if len(defs) >= 2:
                k = order[1]
                limits["penultimate_defender"] = (float(def_hi[k]), str(p.ids[defs[k]]))
            judged = att_hi
        else:
            outfield = defs[p.kind[defs] == "button"]
            _, def_hi = forward_extent(p.select(outfield), sign)
            limits = {"halfway_line": (halfway_u, None)}
            if len(outfield):
                k = int(np.argmax(def_hi))
                limits["last_outfield_defender"] = (float(def_hi[k]), str(p.ids[outfield[k]]))
            judged = att_lo
        # The line is the furthest of the limits; ties go to the first named (dict order).
        names = list(limits)
        line_u = np.array([limits[n][0] for n in names])
        top = int(np.argmax(line_u))
        decided_by, (line, who) = names[top], limits[names[top]]
        label = decided_by.replace("_", " ") + (f" {who}" if who else "")
        point = "most advanced point" if mode == "penultimate" else "rearmost point"
        for j, idx in enumerate(att):
            margin = float(judged[j] - line)
            holds = margin_holds(margin)
            state = "offside position" if holds else "onside"
            if margin == 0:
                where = "level with"
            else:
                where = f"{abs(margin):.1f} mm " + ("past" if margin > 0 else "behind")
            detail = f"{state}: {point} {where} the {label}"
            extra: dict[str, object] = {
                "line_x_mm": round(sign * line, 3),
                "decided_by": decided_by,
                "mode": mode,
            }
            if who is not None:
                extra["defender"] = who
            out.append(
                Verdict(
                    CHECK,
                    holds,
                    margin,
                    detail,
                    article,
                    team=team,
                    piece=str(p.ids[idx]),
                    extra=extra,
                )
            )
    return out
