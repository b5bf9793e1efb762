"""Checks ``ball_blocked``, ``ball_obstructed`` and ``ball_enclosed``: is the ball shut in?

``ball_blocked`` (000 REGRA 4 BLOQUEIO; 002 "Do tiro livre indireto" k, bola bloqueada): the
6 cm gabarito, slid flat on the table from outside the blocking team's formation, cannot touch
the ball (:mod:`geometry.gabarito`). One verdict per team (or ``context.blocking_team`` only);
``margin_mm`` is on the gabarito's radius: ``R - R*`` with ``R*`` the radius at which the answer
flips (positive: blocked with that much room; negative: reachable, and the gabarito would have
to be that much larger to be kept out). The search stops at twice the gabarito's radius: beyond
it the margin is a bound, and ``detail`` says so.

``ball_obstructed`` / ``ball_enclosed`` per team, in the rule set's mode:

- ``"hull"`` (000 Art. 22 V-E, V-G): the ball's footprint wholly inside the convex hull of two
  pieces of one team ("a bola fica totalmente contida entre duas linhas paralelas imaginárias
  que cercam os dois jogadores"), or of three pieces no more than ``enclosure_spacing_mm`` apart
  edge to edge ("eqüidistantes, no máximo, 0,06 m. entre si"). V-E gives no distance for the
  two players; taken literally, any two teammates with the ball on the line between them would
  obstruct it, so the pair must also be no more than ``obstruction_spacing_mm`` apart (the
  rule set's parameter if it has one, else V-G's spacing). ``margin_mm``: the best group's
  clearance of the ball inside the hull, or the spacing to spare if smaller.
- ``"reach"`` (001 Art. XXIX j, l; 002 k, bola obstruída): two (three) pieces of one team keep
  the smallest opponent button, used as the gabarito with only those pieces as obstacles, from
  touching the ball ("não permitindo que o menor jogador adversário toque na mesma").
  ``margin_mm`` on that button's radius, as for ``ball_blocked``.

Examples
--------
>>> from geometry.scene import scene_from_dict
>>> from geometry.tablespec import load_table
>>> from rules.checks.base import CheckContext
>>> from rules.rulesets import get_ruleset
>>> ctx = CheckContext.build(load_table("brasileira"), get_ruleset("brasileira"))
>>> ring = [{"id": f"B{i}", "team": "B", "kind": "button", "diameter": 60.0,
...          "x": 70.0 * np.cos(i * np.pi / 2), "y": 70.0 * np.sin(i * np.pi / 2)}
...         for i in range(4)]
>>> doc = {"format": "scene/1", "table": "brasileira",
...        "teams": {"A": {"defends": "left"}, "B": {"defends": "right"}},
...        "pieces": [*ring, {"id": "ball", "kind": "ball", "x": 0, "y": 0, "diameter": 10}],
...        "context": {"blocking_team": "B"}}
>>> v = check_ball_blocked(scene_from_dict(doc), ctx)[0]
>>> v.team, v.holds, round(v.margin_mm, 2)
('B', True, 10.5)
"""

from __future__ import annotations

from dataclasses import fields
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from geometry.enclosure import hull_clearance, piece_supports
from geometry.gabarito import Gabarito, GabaritoResult, gabarito_reach
from geometry.pieces import Pieces, pairwise_gaps
from geometry.scene import Scene
from rules.checks.base import CheckContext, register
from rules.verdict import Verdict

__all__ = ["SEARCH_FACTOR", "check_ball_blocked", "check_ball_enclosed", "check_ball_obstructed"]

#: The critical radius is searched up to this multiple of the gabarito's radius.
SEARCH_FACTOR = 2.0
#: Spacing of the pieces in hull mode when the rule set names none (000 Art. 22 V-G: 0,06 m).
_SPACING_MM = 60.0
IntArray = NDArray[np.intp]


def _teams(scene: Scene) -> list[str]:
    team = scene.context.get("blocking_team")
    return [str(team)] if team is not None else list(scene.teams)


def _no_ball(check: str, scene: Scene, article: str) -> list[Verdict]:
    return [
        Verdict(check, None, None, "no ball in the scene", article, team=t) for t in _teams(scene)
    ]


def _ball(scene: Scene) -> tuple[NDArray[np.float64], float]:
    i = scene.ball_index
    assert i is not None
    return scene.pieces.xy_mm[i], float(scene.pieces.size_mm[i, 0]) / 2.0


def _subset(p: Pieces, index: NDArray[np.bool_] | IntArray) -> Pieces:
    """``p.select(index)`` without validating again (a part of a valid record is valid)."""
    q = object.__new__(Pieces)
    for f in fields(Pieces):
        object.__setattr__(q, f.name, getattr(p, f.name)[index])
    return q


def _team(scene: Scene, team: str) -> Pieces:
    """The team's buttons and goalkeeper (the ball has no team)."""
    return _subset(scene.pieces, scene.pieces.team == team)


def _xy(res: GabaritoResult) -> list[float]:
    return [round(res.contact_xy_mm[0], 3), round(res.contact_xy_mm[1], 3)]


@register("ball_blocked")
def check_ball_blocked(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """000 REGRA 4 BLOQUEIO: can the 6 cm gabarito reach the ball past each team's formation?"""
    check = "ball_blocked"
    article = ctx.rules.article(check)
    if scene.ball_index is None:
        return _no_ball(check, scene, article)
    diameter = float(ctx.rules.param("gabarito_diameter_mm"))
    radius = diameter / 2.0
    ball_xy, ball_r = _ball(scene)
    out = []
    # A ball the rails alone keep from the gabarito (deep in a corner) is nobody's block: the
    # text needs "jogadores de uma mesma equipe ... posicionados de tal forma".
    # Without pieces the gabarito reaches the ball exactly when some centre inside the rails
    # (the rail box shrunk by its radius, a large box) lies at radius + ball radius from it.
    xmin, ymin, xmax, ymax = ctx.table.rail_box
    near = np.clip(ball_xy, (xmin + radius, ymin + radius), (xmax - radius, ymax - radius))
    rails_alone = float(np.hypot(*(near - ball_xy))) > radius + ball_r
    for team in _teams(scene):
        if rails_alone:
            detail = (
                f"the rails alone keep a {diameter:g} mm gabarito off the ball: not a block by "
                f"{team}"
            )
            extra0: dict[str, Any] = {"gabarito_mm": diameter, "rails_alone": True}
            out.append(Verdict(check, False, None, detail, article, team=team, extra=extra0))
            continue
        obst = _team(scene, team)
        res = gabarito_reach(
            ball_xy, ball_r, obst, ctx.table.rail_box, radius, SEARCH_FACTOR * radius
        )
        crit = 2.0 * res.critical_radius_mm
        if res.blocked:
            detail = (
                f"ball blocked by {team}: a {diameter:g} mm gabarito slid from outside the "
                f"formation cannot touch it (any gabarito over {crit:.1f} mm is kept out)"
            )
        elif res.bound:
            detail = (
                f"ball reachable past {team}: every gabarito up to {crit:.0f} mm (the largest "
                f"searched) touches it; the margin is a bound"
            )
        else:
            detail = (
                f"ball reachable past {team}: a {diameter:g} mm gabarito touches it; one over "
                f"{crit:.1f} mm would be kept out"
            )
        extra: dict[str, Any] = {
            "gabarito_mm": diameter,
            "critical_diameter_mm": round(crit, 3),
            "bound": res.bound,
            "contact": _xy(res),
            "pieces": [str(obst.ids[i]) for i in res.cluster],
        }
        out.append(
            Verdict(check, res.blocked, res.margin_mm, detail, article, team=team, extra=extra)
        )
    return out


@register("ball_obstructed")
def check_ball_obstructed(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """000 Art. 22 V-E / 001 Art. XXIX j / 002 k: the ball shut in by two pieces of one team."""
    return _shut_in(scene, ctx, "ball_obstructed", 2, str(ctx.rules.param("obstruction_mode")))


@register("ball_enclosed")
def check_ball_enclosed(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """000 Art. 22 V-G / 001 Art. XXIX l: the ball shut in by three pieces of one team."""
    return _shut_in(scene, ctx, "ball_enclosed", 3, str(ctx.rules.param("enclosure_mode")))


def _shut_in(scene: Scene, ctx: CheckContext, check: str, k: int, mode: str) -> list[Verdict]:
    article = ctx.rules.article(check)
    if scene.ball_index is None:
        return _no_ball(check, scene, article)
    if mode not in ("hull", "reach"):
        raise ValueError(f"rule set '{ctx.rules.name}': unknown {check} mode {mode!r}")
    out = []
    for team in _teams(scene):
        fn = _hull_mode if mode == "hull" else _reach_mode
        holds, margin, detail, extra = fn(scene, ctx, team, k)
        out.append(Verdict(check, holds, margin, detail, article, team=team, extra=extra))
    return out


_Answer = tuple[bool, float | None, str, dict[str, Any]]


def _hull_mode(scene: Scene, ctx: CheckContext, team: str, k: int) -> _Answer:
    """Ball wholly inside the hull of ``k`` pieces (three: at most the spacing apart)."""
    p = _team(scene, team)
    ball_xy, ball_r = _ball(scene)
    what = "two" if k == 2 else "three"
    name = "obstruction_spacing_mm" if k == 2 else "enclosure_spacing_mm"
    if not ctx.rules.has(name):
        name = "enclosure_spacing_mm" if ctx.rules.has("enclosure_spacing_mm") else name
    spacing = float(ctx.rules.param(name)) if ctx.rules.has(name) else _SPACING_MM
    # a piece of a group with the ball inside is within the group's span of the ball
    size = np.where(p.is_disc, p.size_mm[:, 0], np.hypot(p.size_mm[:, 0], p.size_mm[:, 1]))
    reach = np.hypot(*(p.xy_mm - ball_xy).T) - size / 2.0
    p = _subset(p, reach <= (k - 1) * (spacing + size.max(initial=0.0)) + ball_r)
    if len(p) < k:
        detail = f"not {what} pieces of {team} near enough to shut the ball in"
        return False, None, detail, {"pieces": []}
    groups = np.array(list(combinations(range(len(p)), k)), dtype=np.intp)
    pts, rad = piece_supports(p)
    clear = hull_clearance(pts, rad, groups, ball_xy) - ball_r
    gaps = pairwise_gaps(p)
    ia, ib = np.triu_indices(k, 1)
    spare = spacing - gaps[groups[:, ia], groups[:, ib]].max(1)
    margin = np.minimum(clear, spare)
    best = int(np.argmax(margin))
    names = [str(p.ids[i]) for i in groups[best]]
    m = float(margin[best])
    holds = m >= 0.0
    inside = f"{clear[best]:.1f} mm inside" if clear[best] >= 0 else f"{-clear[best]:.1f} mm out of"
    detail = f"ball {inside} the hull of {team} {', '.join(names)}"
    detail += f" ({spacing - spare[best]:.1f} mm apart at most, limit {spacing:g} mm)"
    extra = {"pieces": names, "clearance_mm": round(float(clear[best]), 3)}
    return holds, m, detail, extra


def _reach_mode(scene: Scene, ctx: CheckContext, team: str, k: int) -> _Answer:
    """The smallest opponent button cannot touch the ball past ``k`` pieces of ``team``."""
    p = scene.pieces
    opp = (p.team != team) & (p.team != "") & (p.kind == "button")
    if opp.any():
        diameter = float(p.size_mm[opp, 0].min())
    else:
        diameter = float(ctx.rules.param("smallest_button_mm"))
    radius = diameter / 2.0
    cap = SEARCH_FACTOR * radius
    ball_xy, ball_r = _ball(scene)
    mine = _team(scene, team)
    size = np.where(mine.is_disc, mine.size_mm[:, 0], np.hypot(*mine.size_mm.T))
    gap = np.hypot(*(mine.xy_mm - ball_xy).T) - size / 2.0 - ball_r
    near = gap < 4.0 * cap  # farther pieces cannot take part in shutting the ball in
    mine, gap = _subset(mine, near), gap[near]
    what = "two" if k == 2 else "three"
    extra: dict[str, Any] = {"gabarito_mm": diameter, "pieces": []}
    if len(mine) < k:
        detail = (
            f"ball reachable past {team}: not {what} pieces within {4.0 * cap:.0f} mm of it "
            f"(a {diameter:g} mm button up to {2.0 * cap:g} mm gets in; the margin is a bound)"
        )
        return False, radius - cap, detail, extra
    box = ctx.table.rail_box
    # The closest groups first; each later group is searched only up to the best so far.
    order = sorted(combinations(range(len(mine)), k), key=lambda g: float(gap[list(g)].sum()))
    best: tuple[GabaritoResult, tuple[int, ...]] | None = None
    for group in order:
        top = cap if best is None else max(radius, best[0].critical_radius_mm)
        sub = _subset(mine, np.array(group, dtype=np.intp))
        res = Gabarito(ball_xy, ball_r, sub, box, top).solve(radius)
        if best is None or res.critical_radius_mm < best[0].critical_radius_mm:
            best = (res, group)
    assert best is not None
    res, group = best
    margin = res.margin_mm
    names = [str(mine.ids[i]) for i in group]
    crit = 2.0 * res.critical_radius_mm
    extra.update(
        pieces=names, contact=_xy(res), critical_diameter_mm=round(crit, 3), bound=res.bound
    )
    if res.blocked:
        detail = (
            f"ball shut in by {team} {', '.join(names)}: a {diameter:g} mm button cannot touch it"
        )
    else:
        bound = " (a bound)" if res.bound else ""
        detail = (
            f"ball reachable past {team} {', '.join(names)}: a {diameter:g} mm button touches it; "
            f"one over {crit:.1f} mm would not{bound}"
        )
    return res.blocked, margin, detail, extra
