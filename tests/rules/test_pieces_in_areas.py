"""Goalkeepers in their goal areas and pieces out of the field, at +/-0.1 mm."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.scene import scene_from_dict
from geometry.tablespec import load_table
from rules.checks import CHECKS, CheckContext
from rules.rulesets import get_ruleset
from tests.scenes import ball, button, keeper, make_scene, mirror_doc, scene_doc


def ctx_for(rules: str) -> CheckContext:
    rs = get_ruleset(rules)
    return CheckContext.build(load_table(rs.table), rs)


# brasileira goal area 380 x 110 (000 REGRA 1): the left one spans x in [-1000, -890], |y| <= 190.
# A 70 x 15 goalkeeper standing across the field (angle 90 deg) is 15 mm along x, 70 along y.
@pytest.mark.parametrize(
    ("x", "y", "angle", "holds", "margin"),
    [
        (-890 - 7.5 - 0.1, 0.0, 90.0, True, 0.1),  # front face 0.1 mm inside the area's edge
        (-890 - 7.5 + 0.1, 0.0, 90.0, False, -0.1),  # 0.1 mm beyond it
        (-990.0, 190 - 35 - 0.1, 90.0, True, 0.1),  # along the goal area's side line
        (-990.0, 190 - 35 + 0.1, 90.0, False, -0.1),
        (-1000 + 7.5 - 0.1, 0.0, 90.0, False, -0.1),  # behind the goal line: out of the area
        (-950.0, 0.0, 0.0, True, 15.0),  # lengthwise: x from -985 to -915, 15 mm off the line
    ],
)
def test_goalkeeper_in_goal_area(x, y, angle, holds, margin) -> None:
    scene = make_scene([keeper("A1", "A", x, y, angle), ball(0, 0)])
    [v] = CHECKS["goalkeeper_in_goal_area"](scene, ctx_for("brasileira"))
    assert (v.piece, v.team, v.holds) == ("A1", "A", holds)
    assert v.margin_mm == pytest.approx(margin, abs=1e-6)


def test_goalkeeper_rotated_uses_its_worst_corner() -> None:
    # 45 deg: corners reach 0.5 * (70 + 15) / sqrt(2) = 30.052 mm from the centre along x and y
    half = 0.5 * (70 + 15) / 2**0.5
    scene = make_scene([keeper("A1", "A", -890 - half - 0.1, 0.0, 45.0), ball(0, 0)])
    [v] = CHECKS["goalkeeper_in_goal_area"](scene, ctx_for("brasileira"))
    assert v.holds and v.margin_mm == pytest.approx(0.1, abs=1e-6)


@pytest.mark.parametrize(
    ("x", "y", "holds", "margin"),
    [
        (0.0, 700 + 30 + 0.1, True, 0.1),  # a 60 mm button wholly past the far touchline
        (0.0, 700 + 30 - 0.1, False, -0.1),  # still touching the line
        (
            1000 + 30 + 0.1,
            0.0,
            True,
            0.1,
        ),  # past the goal line (000 Art. 9: "inclusive a linha de gol")
        (0.0, 0.0, False, -730.0),
    ],
)
def test_button_out_of_field(x, y, holds, margin) -> None:
    scene = make_scene([button("B4", "B", x, y), ball(0, 300)], table="nacional")
    [v] = CHECKS["piece_out_of_field"](scene, ctx_for("nacional"))
    assert (v.piece, v.holds) == ("B4", holds)
    assert v.margin_mm == pytest.approx(margin, abs=1e-6)
    assert v.article == "000 Art. 9"


@pytest.mark.parametrize(
    ("x", "angle", "holds", "margin"),
    [
        (1000 + 7.5 + 0.1, 90.0, True, 0.1),
        (1000 + 7.5 - 0.1, 90.0, False, -0.1),
        (1000 + 35 + 0.1, 0.0, True, 0.1),
    ],
)
def test_goalkeeper_out_of_field(x, angle, holds, margin) -> None:
    scene = make_scene([keeper("B1", "B", x, 0.0, angle), ball(0, 0)])
    [v] = CHECKS["piece_out_of_field"](scene, ctx_for("brasileira"))
    assert v.holds is holds and v.margin_mm == pytest.approx(margin, abs=1e-6)


@settings(max_examples=100, deadline=None)
@given(
    x=st.floats(-1050, -850),
    y=st.floats(-250, 250),
    angle=st.floats(0, 180),
    axis=st.sampled_from(["x", "y"]),
)
def test_mirrored_goalkeeper_keeps_its_verdict(x, y, angle, axis) -> None:
    doc = scene_doc([keeper("A1", "A", x, y, angle), ball(0, 0)])
    ctx = ctx_for("brasileira")
    for check in ("goalkeeper_in_goal_area", "piece_out_of_field"):
        [a] = CHECKS[check](scene_from_dict(doc, "a"), ctx)
        [b] = CHECKS[check](scene_from_dict(mirror_doc(doc, axis), "b"), ctx)
        assert a.holds == b.holds
        assert a.margin_mm == pytest.approx(b.margin_mm, abs=1e-6)
