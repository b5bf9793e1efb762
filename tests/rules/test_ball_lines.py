"""The ball against the lines, at +/-0.1 mm either side of every threshold.

Lines are measured to their outer edges (INTERFACES.md). brasileira: field 2000 x 1400, lines
2 mm, goal 146 mm between the posts (000 REGRA 1), ball 10 mm (000 REGRA 2).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.scene import scene_from_dict
from geometry.tablespec import load_table
from rules.checks import CHECKS, CheckContext
from rules.rulesets import get_ruleset
from tests.scenes import ball, button, make_scene, mirror_doc, scene_doc

R = 5.0  # ball radius


def ctx_for(rules: str) -> CheckContext:
    rs = get_ruleset(rules)
    return CheckContext.build(load_table(rs.table), rs)


def one(check: str, rules: str, bx: float, by: float, **kw):
    scene = make_scene(
        [button("A1", "A", -500, 0), ball(bx, by)], table=get_ruleset(rules).table, **kw
    )
    vs = CHECKS[check](scene, ctx_for(rules))
    return vs


# ---------------------------------------------------------------- ball_in_goal (000 REGRA 10)
@pytest.mark.parametrize(
    ("x", "y", "holds", "margin"),
    [
        (1000 + R + 0.1, 0.0, True, 0.1),  # wholly across by 0.1 mm
        (1000 + R - 0.1, 0.0, False, -0.1),  # 0.1 mm of the ball still over the line's edge
        (1000 + R, 0.0, False, 0.0),  # touching the outer edge is not across
        (1000.0, 0.0, False, -R),  # centre on the line's edge
        (1020.0, 73 - R + 0.1, False, -0.1),  # behind the line, 0.1 mm outside a post's face
        (1020.0, 73 - R - 0.1, True, 0.1),  # behind the line, 0.1 mm inside the posts
        (-1000 - R - 0.1, 10.0, True, 0.1),  # the left goal too
        (0.0, 0.0, False, -(1000 + R)),  # centre spot
    ],
)
def test_ball_in_goal(x, y, holds, margin) -> None:
    [v] = one("ball_in_goal", "brasileira", x, y)
    assert v.holds is holds
    assert v.margin_mm == pytest.approx(margin, abs=1e-9)
    assert v.article == "000 REGRA 10"


def test_ball_in_goal_names_the_conceding_team() -> None:
    [v] = one("ball_in_goal", "brasileira", 1010, 0)  # A defends left: B concedes on the right
    assert v.team == "B" and v.extra["line"] == "goal_right"


# ---------------------------------------------------------------- ball_out (000 REGRA 9 A)
@pytest.mark.parametrize(
    ("rules", "x", "y", "holds", "margin", "line"),
    [
        ("brasileira", 0.0, 700 + R + 0.1, True, 0.1, "touch_far"),
        ("brasileira", 0.0, 700 + R - 0.1, False, -0.1, "touch_far"),
        ("brasileira", 300.0, -700 - R - 0.1, True, 0.1, "touch_near"),
        ("brasileira", 1000 + R + 0.1, 300.0, True, 0.1, "goal_right"),
        ("brasileira", -1000 - R + 0.1, -300.0, False, -0.1, "goal_left"),
        ("brasileira", 0.0, 0.0, False, -(700 + R), "touch_far"),  # a tie names the far line
        # 001 Art. XXXIV: touching the touchline is already a throw-in. gaucha-max is 1600 x 1200,
        # so the touchline's inner edge is at |y| = 598.
        ("gaucha", 0.0, 598 - R + 0.1, True, 0.1, "touch_far"),
        ("gaucha", 0.0, 598 - R - 0.1, False, -0.1, "touch_far"),
        ("gaucha", 800 + R - 0.1, 0.0, False, -0.1, "goal_right"),  # goal lines: wholly across
    ],
)
def test_ball_out(rules, x, y, holds, margin, line) -> None:
    [v] = one("ball_out", rules, x, y)
    assert (v.holds, v.extra["line"]) == (holds, line)
    assert v.margin_mm == pytest.approx(margin, abs=1e-6)


# ---------------------------------------------------------------- ball_neutral (000 Art. 12)
@pytest.mark.parametrize(
    ("x", "holds", "margin"),
    [
        (1 + R - 0.1, True, 0.1),  # the ball covers 0.1 mm of the 2 mm line
        (1 + R, True, 0.0),  # tangent: "ou mesmo tangenciando-a"
        (1 + R + 0.1, False, -0.1),
        (-(1 + R + 0.1), False, -0.1),
        (0.0, True, 1 + R),
    ],
)
def test_ball_neutral(x, holds, margin) -> None:
    [v] = one("ball_neutral", "nacional", x, 55.0)
    assert v.holds is holds and v.margin_mm == pytest.approx(margin, abs=1e-9)
    assert v.article == "000 Art. 12"


# ---------------------------------------------------------------- ball_in_goal_area (001 XXXV)
@pytest.mark.parametrize(
    ("x", "y", "holds", "margin"),
    [
        # gaucha-max goal area 230 x 50 at the right goal line x = 800: inner edge x = 750
        (750 - R + 0.1, 0.0, True, 0.1),  # touching its line counts
        (750 - R - 0.1, 0.0, False, -0.1),
        (780.0, 115 + R - 0.1, True, 0.1),
        (780.0, 115 + R + 0.1, False, -0.1),
    ],
)
def test_ball_in_goal_area(x, y, holds, margin) -> None:
    vs = one("ball_in_goal_area", "gaucha", x, y)
    right = next(v for v in vs if v.extra["side"] == "right")
    left = next(v for v in vs if v.extra["side"] == "left")
    assert right.holds is holds and right.margin_mm == pytest.approx(margin, abs=1e-9)
    assert right.team == "B" and left.holds is False and right.article == "001 Art. XXXV"


def test_missing_ball_is_a_null_verdict() -> None:
    scene = make_scene([button("A1", "A", 0, 0)])
    [v] = CHECKS["ball_in_goal"](scene, ctx_for("brasileira"))
    assert v.holds is None and "no ball" in v.detail


# ---------------------------------------------------------------- mirror invariance (hypothesis)
LINE_CHECKS = ["ball_in_goal", "ball_out", "ball_neutral", "ball_in_goal_area"]


def _by_subject(vs):
    def key(v):
        side = v.extra.get("side") or v.extra.get("line", "")
        return (v.check, v.team or "", v.piece or "", side)

    return {key(v): v for v in vs}


_MIRROR_NAME = {
    "x": {"goal_left": "goal_right", "goal_right": "goal_left", "left": "right", "right": "left"},
    "y": {"touch_near": "touch_far", "touch_far": "touch_near"},
}


@settings(max_examples=150, deadline=None)
@given(
    x=st.floats(-1095, 1095),
    y=st.floats(-795, 795),
    axis=st.sampled_from(["x", "y"]),
    rules=st.sampled_from(["gaucha", "brasileira", "paulista"]),
)
def test_mirroring_mirrors_the_verdicts(x, y, axis, rules) -> None:
    rs = get_ruleset(rules)
    table = load_table(rs.table)
    lim_x, lim_y = table.rail_box[2] - R, table.rail_box[3] - R
    x, y = max(-lim_x, min(lim_x, x)), max(-lim_y, min(lim_y, y))
    doc = scene_doc([button("A1", "A", 0, -400 if y > 0 else 400), ball(x, y)], table=rs.table)
    ctx = ctx_for(rules)
    a = scene_from_dict(doc, "a")
    b = scene_from_dict(mirror_doc(doc, axis), "b")
    for check in LINE_CHECKS:
        if check not in rs.checks:
            continue
        va, vb = CHECKS[check](a, ctx), CHECKS[check](b, ctx)
        assert len(va) == len(vb)
        names = _MIRROR_NAME[axis]
        mb = {}
        for v in vb:
            side = v.extra.get("side") or v.extra.get("line", "")
            mb[(v.check, v.team or "", names.get(side, side))] = v
        for v in va:
            side = v.extra.get("side") or v.extra.get("line", "")
            if (check == "ball_in_goal" and x == 0) or (check == "ball_out" and 0 in (x, y)):
                continue  # on an axis of symmetry the line judged is a tie
            w = mb[(v.check, v.team or "", side)]
            assert w.holds == v.holds
            assert w.margin_mm == pytest.approx(v.margin_mm, abs=1e-9)
