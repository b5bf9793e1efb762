"""``offside_position`` at +/-0.1 mm either side of every line it draws.

brasileira (000 REGRA 11, table brasileira: goal lines at x = +/-1000, halfway strip 2 mm) and
gaucha (001 Art. XXXII, table gaucha-max: goal lines at x = +/-800). Team A defends the left
goal, so it attacks +x. Buttons are 60 mm (r 30), the ball 10 mm (r 5), goalkeepers 70 x 15
with their long side along y (angle 90 deg) unless a row says otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.scene import Scene, scene_from_dict
from geometry.tablespec import load_table
from rules.checks import CHECKS, CheckContext
from rules.checks.offside import forward_extent
from rules.rulesets import get_ruleset
from tests.scenes import ball, button, keeper, make_scene, mirror_doc, scene_doc

CTX = {
    name: CheckContext.build(load_table(get_ruleset(name).table), get_ruleset(name))
    for name in ("brasileira", "gaucha")
}


def offside(rules: str, pieces: list, context: dict | None = None, **kw) -> dict:
    scene = make_scene(pieces, table=get_ruleset(rules).table, context=context, **kw)
    return {v.piece: v for v in CHECKS["offside_position"](scene, CTX[rules])}


# ---------------------------------------------------------------- 000 REGRA 11 (penultimate)
GK_B = keeper("B1", "B", 990.0, 0.0)  # its point nearest the right goal line: 997.5


@pytest.mark.parametrize(
    ("name", "x_att", "x_def", "x_ball", "holds", "margin", "by"),
    [
        # CARACTERIZAÇÃO: nearer the goal line than the ball and the penultimate defender.
        ("past the penultimate", 500.1, 500.0, 200.0, True, 0.1, "penultimate_defender"),
        ("short of the penultimate", 499.9, 500.0, 200.0, False, -0.1, "penultimate_defender"),
        # Exception A: level with the penultimate defender is not offside.
        ("level (exception A)", 500.0, 500.0, 200.0, False, 0.0, "penultimate_defender"),
        # Nearer than the ball is required: the ball's most advanced point at 600.
        ("past the ball", 570.1, 500.0, 595.0, True, 0.1, "ball"),
        ("behind the ball", 569.9, 500.0, 595.0, False, -0.1, "ball"),
        # Exception B: own half. The attacker's most advanced point must pass the far edge of
        # the halfway strip (x = 1 mm): centre at -28.9 puts it at 1.1 mm.
        ("just in the opponent's half", -28.9, -400.0, -300.0, True, 0.1, "halfway_line"),
        ("on the halfway line (exception B)", -29.1, -400.0, -300.0, False, -0.1, "halfway_line"),
    ],
)
def test_penultimate_thresholds(name, x_att, x_def, x_ball, holds, margin, by) -> None:
    pieces = [
        button("A9", "A", x_att, 300.0),
        GK_B,
        button("B4", "B", x_def, -100.0),
        ball(x_ball, 0.0),
    ]
    v = offside("brasileira", pieces, {"to_play": "A"})["A9"]
    assert v.holds is holds, name
    assert v.margin_mm == pytest.approx(margin, abs=1e-9)
    assert v.extra["decided_by"] == by
    assert v.article == "000 REGRA 11"
    line = {"penultimate_defender": x_def + 30, "ball": x_ball + 5, "halfway_line": 1.0}[by]
    assert v.extra["line_x_mm"] == pytest.approx(line)


def test_exception_c_two_defenders_nearer_the_goal_line() -> None:
    # Goalkeeper (997.5) and B5 (730) are nearer the goal line than A9 (600): not offside, and
    # the line is B5, the penultimate, not B4 whom A9 has passed.
    pieces = [
        button("A9", "A", 570.0, 300.0),
        GK_B,
        button("B4", "B", 500.0, -100.0),
        button("B5", "B", 700.0, 100.0),
        ball(0.0, 0.0),
    ]
    v = offside("brasileira", pieces, {"to_play": "A"})["A9"]
    assert (v.holds, v.margin_mm, v.extra["defender"]) == (False, -130.0, "B5")


def test_goalkeeper_counts_as_a_defender() -> None:
    # The goalkeeper has come out to x = 300 (edge 307.5): B4 (530) is now the last defender
    # and the goalkeeper the penultimate one.
    pieces = [
        button("A9", "A", 370.0, 300.0),
        keeper("B1", "B", 300.0, 0.0),
        button("B4", "B", 500.0, -100.0),
        ball(0.0, 0.0),
    ]
    v = offside("brasileira", pieces, {"to_play": "A"})["A9"]
    assert (v.holds, v.extra["defender"]) == (True, "B1")
    assert v.margin_mm == pytest.approx(400.0 - 307.5)


@pytest.mark.parametrize(("x_att", "holds"), [(505.1, True), (504.9, False)])
def test_rotated_goalkeeper_is_judged_by_its_corner(x_att, holds) -> None:
    # A goalkeeper lying along x (angle 0) at x = 500 reaches 535 toward the goal line.
    pieces = [
        button("A9", "A", x_att, 300.0),
        keeper("B1", "B", 500.0, 0.0, angle_deg=0.0),
        button("B4", "B", 800.0, -100.0),
        ball(0.0, 0.0),
    ]
    v = offside("brasileira", pieces, {"to_play": "A"})["A9"]
    assert v.holds is holds
    assert v.margin_mm == pytest.approx(x_att + 30 - 535.0, abs=1e-9)


def test_team_attacking_left_and_both_teams_without_to_play() -> None:
    pieces = [
        button("A9", "A", 500.1, 300.0),
        GK_B,
        button("B4", "B", 500.0, -100.0),
        keeper("A1", "A", -990.0, 0.0),
        button("A4", "A", -500.0, 100.0),
        button("B9", "B", -500.1, -300.0),
        ball(0.0, 0.0),
    ]
    vs = offside("brasileira", pieces)
    assert set(vs) == {"A9", "A4", "B9", "B4"}  # buttons of both teams, never goalkeepers
    assert vs["B9"].holds and vs["B9"].margin_mm == pytest.approx(0.1)
    assert vs["B9"].extra["line_x_mm"] == pytest.approx(-530.0)
    assert vs["A9"].margin_mm == pytest.approx(0.1)
    assert not vs["A4"].holds and not vs["B4"].holds


def test_only_one_defender_leaves_ball_and_halfway() -> None:
    pieces = [button("A9", "A", 500.0, 300.0), GK_B, ball(100.0, 0.0)]
    v = offside("brasileira", pieces, {"to_play": "A"})["A9"]
    assert (v.holds, v.margin_mm, v.extra["decided_by"]) == (True, 425.0, "ball")


def test_without_ball_the_penultimate_mode_is_skipped() -> None:
    vs = CHECKS["offside_position"](
        make_scene([button("A9", "A", 500.0, 0.0), GK_B]), CTX["brasileira"]
    )
    assert len(vs) == 1
    assert vs[0].holds is None and vs[0].margin_mm is None
    assert "ball" in vs[0].detail


def test_team_without_buttons_gives_no_verdict() -> None:
    pieces = [keeper("A1", "A", -990.0, 0.0), GK_B, ball(0.0, 0.0)]
    assert offside("brasileira", pieces, {"to_play": "A"}) == {}


# ---------------------------------------------------------------- 001 Art. XXXII
@pytest.mark.parametrize(
    ("name", "x_att", "x_def", "holds", "margin", "by"),
    [
        # § 1 a: "o corpo do jogador completamente à frente": rearmost point (x - 30) beyond
        # the last outfield defender's point nearest the goal line (x_def + 30 = 330).
        ("body wholly past the last defender", 360.1, 300.0, True, 0.1, "last_outfield_defender"),
        (
            "body overlapping the last defender",
            359.9,
            300.0,
            False,
            -0.1,
            "last_outfield_defender",
        ),
        ("level with the last defender", 360.0, 300.0, False, 0.0, "last_outfield_defender"),
        # "em campo adversário": the whole body beyond the halfway strip's far edge (1 mm).
        ("wholly in the opponent's half", 31.1, -200.0, True, 0.1, "halfway_line"),
        ("on the halfway line", 30.9, -200.0, False, -0.1, "halfway_line"),
    ],
)
def test_goalkeeper_only_thresholds(name, x_att, x_def, holds, margin, by) -> None:
    pieces = [
        button("A9", "A", x_att, 200.0),
        keeper("B1", "B", 790.0, 0.0),
        button("B4", "B", x_def, -100.0),
    ]  # no ball needed
    v = offside("gaucha", pieces, {"to_play": "A"})["A9"]
    assert v.holds is holds, name
    assert v.margin_mm == pytest.approx(margin, abs=1e-9)
    assert v.extra["decided_by"] == by
    assert v.article == "001 Art. XXXII"


def test_goalkeeper_only_ignores_the_goalkeeper() -> None:
    # "tendo à frente apenas o goleiro": a goalkeeper out of its goal does not count.
    pieces = [
        button("A9", "A", 400.0, 200.0),
        keeper("B1", "B", 300.0, 0.0),
        button("B4", "B", 100.0, -100.0),
        ball(0.0, 0.0),
    ]
    v = offside("gaucha", pieces, {"to_play": "A"})["A9"]
    assert (v.holds, v.margin_mm, v.extra["defender"]) == (True, 240.0, "B4")


def test_goalkeeper_only_without_outfield_defenders() -> None:
    pieces = [button("A9", "A", 100.0, 200.0), keeper("B1", "B", 790.0, 0.0)]
    v = offside("gaucha", pieces, {"to_play": "A"})["A9"]
    assert (v.holds, v.margin_mm, v.extra["decided_by"]) == (True, 69.0, "halfway_line")


def test_forward_extent_of_a_rotated_goalkeeper() -> None:
    scene = make_scene([keeper("B1", "B", 100.0, 0.0, angle_deg=30.0)])
    lo, hi = forward_extent(scene.pieces, -1.0)
    half = 35 * np.cos(np.radians(30)) + 7.5 * np.sin(np.radians(30))
    assert (lo[0], hi[0]) == pytest.approx((-100 - half, -100 + half))


# ---------------------------------------------------------------- invariants
def _random_doc(rng: np.random.Generator, table: str) -> dict:
    hl, hw = (1000.0, 700.0) if table == "brasileira" else (800.0, 600.0)
    pieces = [
        keeper("A1", "A", -hl + 10, 0.0, float(rng.uniform(0, 180))),
        keeper(
            "B1",
            "B",
            float(rng.uniform(0, hl - 40)),
            float(rng.uniform(-200, 200)),
            float(rng.uniform(0, 180)),
        ),
    ]
    for team in "AB":
        for k in range(int(rng.integers(1, 6))):
            xy = rng.uniform([-hl + 40, -hw + 40], [hl - 40, hw - 40])
            pieces.append(button(f"{team}{k + 2}", team, float(xy[0]), float(xy[1])))
    pieces.append(ball(float(rng.uniform(-hl, hl)), float(rng.uniform(-hw, hw))))
    return scene_doc(pieces, table=table)


def _summary(scene: Scene, rules: str, axis: str | None = None) -> dict:
    out = {}
    for v in CHECKS["offside_position"](scene, CTX[rules]):
        line = v.extra["line_x_mm"] * (-1 if axis == "x" else 1)
        out[v.piece] = (v.holds, v.margin_mm, line, v.extra["decided_by"])
    return out


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(["brasileira", "gaucha"]),
    axis=st.sampled_from(["x", "y"]),
)
def test_mirroring_keeps_verdicts_and_margins(seed, rules, axis) -> None:
    doc = _random_doc(np.random.default_rng(seed), get_ruleset(rules).table)
    before = _summary(scene_from_dict(doc), rules)
    after = _summary(scene_from_dict(mirror_doc(doc, axis)), rules, axis)
    assert before.keys() == after.keys()
    for pid, (holds, margin, line, by) in before.items():
        h2, m2, l2, b2 = after[pid]
        assert m2 == pytest.approx(margin, abs=1e-6)
        assert l2 == pytest.approx(line, abs=1e-6)
        if abs(margin) > 1e-6:
            assert (h2, b2) == (holds, by)
