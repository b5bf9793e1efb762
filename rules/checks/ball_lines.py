"""The ball against the lines: ``ball_in_goal``, ``ball_out``, ``ball_neutral``,
``ball_in_goal_area``.

Exact to the lines' outer edges (INTERFACES.md); the margins come from :mod:`geometry.lines`.
"""

from __future__ import annotations

from geometry.field import SIDES
from geometry.lines import (
    ball_in_area_margin,
    ball_in_goal_margin,
    ball_out_margin,
    goal_margins,
    neutral_margin,
)
from geometry.scene import Scene
from rules.checks.base import CheckContext, register
from rules.verdict import Verdict, margin_holds

_LINE_TEXT = {
    "goal_left": "the left goal line",
    "goal_right": "the right goal line",
    "touch_near": "the near touchline",
    "touch_far": "the far touchline",
}


def _ball(scene: Scene, check: str, article: str) -> tuple[tuple[float, float], float] | Verdict:
    i = scene.ball_index
    if i is None:
        return Verdict(check, None, None, "skipped: no ball in the scene", article)
    xy = scene.pieces.xy_mm[i]
    return (float(xy[0]), float(xy[1])), float(scene.pieces.size_mm[i, 0]) / 2.0


def defender_of(scene: Scene, side: str) -> str | None:
    """The team defending ``side``."""
    for team, s in scene.teams.items():
        if s == side:
            return team
    return None


@register("ball_in_goal")
def check_ball_in_goal(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """Ball wholly beyond a goal line, between the posts (000 REGRA 10; 001 Art. XXXI)."""
    article = ctx.rules.article("ball_in_goal")
    got = _ball(scene, "ball_in_goal", article)
    if isinstance(got, Verdict):
        return [got]
    xy, r = got
    # Only the goal the ball is nearer to can hold; judging both would double every verdict.
    side = "right" if xy[0] >= 0 else "left"
    margin = float(ball_in_goal_margin(xy, r, ctx.field, side)[0])
    line, posts = (float(v[0]) for v in goal_margins(xy, r, ctx.field, side))
    holds = line > 0 and posts >= 0
    if holds:
        detail = f"ball fully beyond the {side} goal line between the posts"
    elif posts < 0 and line > 0:
        detail = f"ball beyond the {side} goal line but outside the posts ({-posts:.1f} mm)"
    else:
        detail = f"ball not wholly across the {side} goal line ({-line:.1f} mm short)"
    conceding = defender_of(scene, side)
    return [
        Verdict(
            "ball_in_goal",
            holds,
            margin,
            detail,
            article,
            team=conceding,
            extra={
                "line": f"goal_{side}",
                "line_margin_mm": round(line, 3),
                "posts_margin_mm": round(posts, 3),
            },
        )
    ]


@register("ball_out")
def check_ball_out(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """Ball wholly beyond a touchline or goal line (000 REGRA 9 A, Art. 14; 001 Art. XXXIV)."""
    article = ctx.rules.article("ball_out")
    got = _ball(scene, "ball_out", article)
    if isinstance(got, Verdict):
        return [got]
    xy, r = got
    touching = bool(ctx.rules.has("ball_out_touching_touchline")) and bool(
        ctx.rules.param("ball_out_touching_touchline")
    )
    margin_a, line_a = ball_out_margin(xy, r, ctx.field, touching_touchline=touching)
    margin, line = float(margin_a[0]), str(line_a[0])
    holds = margin_holds(margin)
    where = _LINE_TEXT[line]
    if holds:
        detail = f"ball out over {where}"
        if line.startswith("goal"):
            side = line.split("_")[1]
            if float(ball_in_goal_margin(xy, r, ctx.field, side)[0]) > 0:
                detail += " (inside the goal: see ball_in_goal)"
    else:
        detail = f"ball in play ({-margin:.1f} mm from being wholly beyond {where})"
    if touching and line.startswith("touch"):
        detail += "; touching the touchline counts"
    return [Verdict("ball_out", holds, margin, detail, article, extra={"line": line})]


@register("ball_neutral")
def check_ball_neutral(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """The ball's footprint touches the halfway line (000 Art. 12; 001 Art. XXI § ÚNICO)."""
    article = ctx.rules.article("ball_neutral")
    got = _ball(scene, "ball_neutral", article)
    if isinstance(got, Verdict):
        return [got]
    xy, r = got
    margin = float(neutral_margin(xy, r, ctx.field)[0])
    holds = margin_holds(margin, inclusive=True)
    detail = (
        "ball on the halfway line: neutral"
        if holds
        else f"ball clear of the halfway line by {-margin:.1f} mm"
    )
    return [Verdict("ball_neutral", holds, margin, detail, article)]


@register("ball_in_goal_area")
def check_ball_in_goal_area(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """The ball in a goal area, touching its lines included (001 Art. XXXV).

    One verdict per goal area; ``team`` is the team whose goalkeeper's area it is.
    """
    article = ctx.rules.article("ball_in_goal_area")
    got = _ball(scene, "ball_in_goal_area", article)
    if isinstance(got, Verdict):
        return [got]
    xy, r = got
    out = []
    for side in SIDES:
        margin = float(ball_in_area_margin(xy, r, ctx.field.goal_area_box(side))[0])
        holds = margin_holds(margin, inclusive=True)
        detail = (
            f"ball in the {side} goal area (touching its lines counts)"
            if holds
            else f"ball {-margin:.1f} mm outside the {side} goal area"
        )
        out.append(
            Verdict(
                "ball_in_goal_area",
                holds,
                margin,
                detail,
                article,
                team=defender_of(scene, side),
                extra={"side": side},
            )
        )
    return out
