"""Checks ball_blocked, ball_obstructed, ball_enclosed: thresholds from the articles, both modes."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.scene import scene_from_dict
from geometry.tablespec import load_table
from rules.checks import CHECKS
from rules.checks.base import CheckContext
from rules.rulesets import get_ruleset
from tests.scenes import ball, button, keeper, scene_doc

_CTX: dict[str, CheckContext] = {}


def ctx(rules: str) -> CheckContext:
    if rules not in _CTX:
        rs = get_ruleset(rules)
        _CTX[rules] = CheckContext.build(load_table(rs.table), rs)
    return _CTX[rules]


def run(check: str, rules: str, pieces, context=None):
    rs = get_ruleset(rules)
    scene = scene_from_dict(scene_doc(pieces, table=rs.table, context=context), "t.json")
    return CHECKS[check](scene, ctx(rules))


def ring(team: str, n: int, radius: float, d: float = 60.0, phase: float = 0.0, centre=(0, 0)):
    return [
        button(
            f"{team}{i + 2}",
            team,
            centre[0] + radius * math.cos(phase + 2 * math.pi * i / n),
            centre[1] + radius * math.sin(phase + 2 * math.pi * i / n),
            d,
        )
        for i in range(n)
    ]


# ------------------------------------------------------------------ ball_blocked (REGRA 4)
# 000 REGRA 4 BLOQUEIO: four B buttons around the ball; the 6 cm gabarito passes between two
# of them iff their gap is at least 60 mm, so margin = 30 - gap / 2 on the radius.
@pytest.mark.parametrize(
    ("rules", "gap", "holds", "margin"),
    [
        ("brasileira", 59.8, True, 0.1),
        ("brasileira", 60.2, False, -0.1),
        ("paulista", 59.8, True, 0.1),
        ("paulista", 60.2, False, -0.1),
        ("brasileira", 30.0, True, 15.0),
    ],
)
def test_ball_blocked_by_a_ring_of_four(rules, gap, holds, margin) -> None:
    pieces = [*ring("B", 4, (gap + 60.0) / math.sqrt(2.0)), ball(0, 0)]
    (v,) = run("ball_blocked", rules, pieces, {"blocking_team": "B"})
    assert (v.check, v.team, v.holds) == ("ball_blocked", "B", holds)
    assert v.margin_mm == pytest.approx(margin, abs=1e-6)
    assert v.article == get_ruleset(rules).article("ball_blocked")
    assert v.extra["gabarito_mm"] == 60.0
    assert sorted(v.extra["pieces"]) == ["B2", "B3", "B4", "B5"]
    assert v.extra["critical_diameter_mm"] == pytest.approx(gap, abs=1e-3)
    cx, cy = v.extra["contact"]
    assert math.hypot(cx, cy) == pytest.approx(
        35.0, abs=2e-3
    )  # the gabarito's centre touching the ball
    json.dumps(v.to_dict())


def test_ball_blocked_reports_each_team_and_bounds_an_open_ball() -> None:
    pieces = [*ring("B", 4, 80.0), button("A7", "A", -400, 100), ball(0, 0)]
    a, b = run("ball_blocked", "brasileira", pieces)
    assert (a.team, a.holds, b.team, b.holds) == ("A", False, "B", True)
    assert a.margin_mm == pytest.approx(-30.0) and a.extra["bound"]
    assert "bound" in a.detail and "120" in a.detail
    assert a.extra["pieces"] == []
    assert b.margin_mm == pytest.approx(30.0 - (80.0 * math.sqrt(2.0) - 60.0) / 2.0, abs=1e-6)


def test_ball_blocked_open_gap_gives_a_reachable_contact() -> None:
    pieces = [*ring("B", 4, 90.0), ball(0, 0)]  # gaps 67.3 mm
    (v,) = run("ball_blocked", "brasileira", pieces, {"blocking_team": "B"})
    assert not v.holds and v.margin_mm == pytest.approx(30.0 - (90 * math.sqrt(2) - 60) / 2)
    cx, cy = v.extra["contact"]
    # reachable contacts lie between two buttons (the buttons sit at 0, 90, 180, 270 degrees)
    assert abs(math.degrees(math.atan2(cy, cx)) % 90.0 - 45.0) < 21.0


def test_goalkeeper_counts_as_an_obstacle() -> None:
    # Buttons at 0, 90 and 180 degrees (gaps 53.1 mm) leave the ball open below; the keeper
    # lying across the bottom closes the ring (its corners 55.3 mm from the side buttons).
    pieces = [button("B2", "B", 80, 0), button("B3", "B", 0, 80), button("B4", "B", -80, 0)]
    pieces.append(ball(0, 0))
    (open_v,) = run("ball_blocked", "brasileira", pieces, {"blocking_team": "B"})
    gk = keeper("B1", "B", 0.0, -80.0, angle_deg=0.0)
    (shut_v,) = run("ball_blocked", "brasileira", [*pieces, gk], {"blocking_team": "B"})
    assert not open_v.holds and shut_v.holds
    assert shut_v.margin_mm == pytest.approx(30.0 - (math.hypot(45.0, 72.5) - 30.0) / 2.0)
    assert "B1" in shut_v.extra["pieces"]


def test_no_ball_is_skipped_for_every_team() -> None:
    verdicts = run("ball_blocked", "brasileira", ring("B", 4, 80.0))
    assert [(v.team, v.holds, v.margin_mm) for v in verdicts] == [
        ("A", None, None),
        ("B", None, None),
    ]
    assert all(v.detail == "no ball in the scene" for v in verdicts)


# ------------------------------------------------------- hull mode (000 Art. 22 V-E, V-G)
# V-E: the ball wholly between the lines that surround two players: buttons at x = +/-50 (40 mm
# apart, within V-G's 0.06 m), the hull's edge at |y| = 30: the ball is inside iff |y| <= 25.
@pytest.mark.parametrize(
    ("y", "holds", "margin"),
    [(24.9, True, 0.1), (25.1, False, -0.1), (0.0, True, 20.0), (-40.0, False, -15.0)],
)
def test_obstructed_hull_mode_between_two_buttons(y, holds, margin) -> None:
    pieces = [
        button("A2", "A", -50, 0),
        button("A3", "A", 50, 0),
        button("B2", "B", 0, 200),
        ball(0, y),
    ]
    a, b = run("ball_obstructed", "nacional", pieces)
    assert (a.team, a.holds) == ("A", holds)
    assert a.margin_mm == pytest.approx(margin, abs=1e-6)
    assert a.extra["pieces"] == ["A2", "A3"] and a.article == "000 Art. 22 V-E"
    assert b.holds is False and b.margin_mm is None  # one B piece cannot make a pair


@pytest.mark.parametrize(("gap", "holds"), [(59.9, True), (60.1, False)])
def test_obstructed_hull_mode_pair_at_most_the_spacing_apart(gap, holds) -> None:
    x = (gap + 60.0) / 2.0
    pieces = [button("A2", "A", -x, 0), button("A3", "A", x, 0), ball(0, 0)]
    a, _ = run("ball_obstructed", "nacional", pieces)
    assert a.holds is holds and a.margin_mm == pytest.approx(60.0 - gap, abs=1e-6)


# V-G: three players no more than 0.06 m apart with the ball inside their hull: an equilateral
# triangle with gaps g; deep inside, so the margin is the spacing to spare, 60 - g.
@pytest.mark.parametrize(("gap", "holds"), [(59.9, True), (60.1, False), (10.0, True)])
def test_enclosed_hull_mode_needs_three_close_pieces(gap, holds) -> None:
    pieces = [*ring("A", 3, (60.0 + gap) / math.sqrt(3.0)), ball(0, 0)]
    a, _ = run("ball_enclosed", "nacional", pieces)
    assert a.holds is holds
    assert a.margin_mm == pytest.approx(min(60.0 - gap, a.extra["clearance_mm"]), abs=1e-3)
    assert a.article == "000 Art. 22 V-G" and len(a.extra["pieces"]) == 3


def test_enclosed_hull_mode_ball_outside_the_triangle_fails() -> None:
    pieces = [*ring("A", 3, 60.0), ball(-70, 0)]  # 10 mm beyond the left side (x = -60)
    a, _ = run("ball_enclosed", "nacional", pieces)
    assert not a.holds and a.margin_mm == pytest.approx(-15.0, abs=1e-6)
    assert a.extra["clearance_mm"] == pytest.approx(-15.0, abs=1e-3)


@settings(max_examples=20, deadline=None)
@given(
    y=st.floats(-60, 60),
    dx=st.floats(-300, 300),
    dy=st.floats(-200, 200),
    flip=st.sampled_from([(1, 1), (-1, 1), (1, -1)]),
)
def test_hull_mode_margin_survives_mirrors_and_translations(y, dx, dy, flip) -> None:
    def scene(sx: float, sy: float, ox: float, oy: float):
        pts = [(-50, 0), (45, 12), (5, -55)]
        ps = [button(f"A{i + 2}", "A", sx * x + ox, sy * q + oy) for i, (x, q) in enumerate(pts)]
        return [*ps, ball(sx * 3 + ox, sy * y + oy)]

    base = run("ball_obstructed", "nacional", scene(1, 1, 0, 0))[0]
    moved = run("ball_obstructed", "nacional", scene(flip[0], flip[1], dx, dy))[0]
    assert base.holds == moved.holds
    assert base.margin_mm == pytest.approx(moved.margin_mm, abs=0.05)


# ------------------------------------------- reach mode (001 Art. XXIX j, l; 002 k)
# Two buttons on a line through the ball at centre distance D: the smallest opponent (25 mm,
# radius 12.5) last touches the ball straight from the side; that closes at
# R* = (D^2 - 875) / 50, so the ball is obstructed iff R* < 12.5.
@pytest.mark.parametrize(
    ("rules", "r_star", "holds"),
    [
        ("gaucha", 12.4, True),
        ("gaucha", 12.6, False),
        ("paulista", 12.4, True),
        ("paulista", 12.6, False),
    ],
)
def test_obstructed_reach_mode_smallest_button(rules, r_star, holds) -> None:
    d = math.sqrt(875.0 + 50.0 * r_star)
    pieces = [button("A2", "A", -d, 0), button("A3", "A", d, 0), ball(0, 0)]
    a, b = run("ball_obstructed", rules, pieces)
    assert (a.team, a.holds) == ("A", holds)
    assert a.margin_mm == pytest.approx(12.5 - r_star, abs=1e-6)
    assert a.extra["gabarito_mm"] == 25.0 and a.extra["pieces"] == ["A2", "A3"]
    assert not b.holds and b.extra["pieces"] == []


def test_reach_mode_uses_the_smallest_opponent_button_on_the_table() -> None:
    d = math.sqrt(875.0 + 50.0 * 12.4)  # shut for a 25 mm button, open for a 20 mm one
    pieces = [button("A2", "A", -d, 0), button("A3", "A", d, 0), button("B5", "B", 0, 300, 20.0)]
    a = run("ball_obstructed", "gaucha", [*pieces, ball(0, 0)], {"blocking_team": "A"})
    assert len(a) == 1 and a[0].extra["gabarito_mm"] == 20.0
    assert not a[0].holds and a[0].margin_mm == pytest.approx(10.0 - 12.4, abs=1e-6)


# 001 Art. XXIX l: three buttons around the ball; the 25 mm button passes between two of them iff
# their gap is at least 25 mm.
@pytest.mark.parametrize(("gap", "holds"), [(24.8, True), (25.2, False)])
def test_enclosed_reach_mode_three_buttons(gap, holds) -> None:
    pieces = [*ring("A", 3, (60.0 + gap) / math.sqrt(3.0)), ball(0, 0)]
    a, _ = run("ball_enclosed", "gaucha", pieces)
    assert a.holds is holds
    assert a.margin_mm == pytest.approx(12.5 - gap / 2.0, abs=1e-6)
    assert a.article == "001 Art. XXIX l"


def test_shut_in_checks_skip_without_a_ball() -> None:
    for check, rules in (("ball_obstructed", "nacional"), ("ball_enclosed", "gaucha")):
        verdicts = run(check, rules, ring("A", 3, 60.0), {"blocking_team": "A"})
        assert [(v.team, v.holds) for v in verdicts] == [("A", None)]


# ----------------------------------------------------------------- a full formation
def formation(team: str, sign: float, rng: np.random.Generator):
    spots = [(-800, y) for y in (-300, -100, 100, 300)] + [(-450, y) for y in (-250, 0, 250)]
    spots += [(-150, y) for y in (-200, 0, 200)]
    out = [keeper(f"{team}1", team, sign * -985.0, 0.0)]
    for i, (x, y) in enumerate(spots):
        jitter = rng.uniform(-30, 30, 2)
        out.append(button(f"{team}{i + 2}", team, sign * x + jitter[0], y + jitter[1]))
    return out


@pytest.mark.parametrize("rules", ["brasileira", "nacional", "gaucha", "paulista"])
def test_every_shut_in_check_runs_on_a_22_piece_scene(rules) -> None:
    rng = np.random.default_rng(3)
    pieces = [*formation("A", 1.0, rng), *formation("B", -1.0, rng), ball(-430.0, 40.0)]
    rs = get_ruleset(rules)
    for check in ("ball_blocked", "ball_obstructed", "ball_enclosed"):
        if check not in rs.checks:
            continue
        verdicts = run(check, rules, pieces)
        assert [v.team for v in verdicts] == ["A", "B"]
        for v in verdicts:
            assert v.holds is False  # the ball sits in open play next to A7
            json.dumps(v.to_dict())


def test_the_rails_alone_block_nobody() -> None:
    # brasileira rails at |x| 1100, |y| 800: a ball touching both rails (centre 1095, 795) is
    # 25 * sqrt(2) = 35.36 mm from the nearest gabarito centre (1070, 770), more than the 35 mm
    # of a touch, with or without pieces. 000 REGRA 4 BLOQUEIO needs players "posicionados de tal
    # forma": no team blocks it.
    pieces = [button("B5", "B", 1000.0, 700.0), ball(1095.0, 795.0)]
    for v in run("ball_blocked", "brasileira", pieces):
        assert v.holds is False and v.margin_mm is None and v.extra["rails_alone"] is True
    # 2 mm out of the corner (24.5 * sqrt(2) = 34.6 mm) the gabarito touches it: judged normally
    for v in run("ball_blocked", "brasileira", [button("B5", "B", 1000.0, 700.0), ball(1093, 793)]):
        assert v.holds is False and v.margin_mm is not None and "rails_alone" not in v.extra


@settings(max_examples=200, deadline=None)
@given(st.floats(1060.0, 1095.0), st.floats(760.0, 795.0), st.sampled_from([1.0, -1.0]))
def test_rails_alone_agrees_with_the_gabarito_search(x: float, y: float, sx: float) -> None:
    # The closed-form corner test of check_ball_blocked against the general search run with no
    # pieces at all (borderline cases within 0.01 mm of the touch excluded).
    from geometry.gabarito import gabarito_reach
    from geometry.pieces import Pieces

    table = load_table("brasileira")
    nobody = Pieces(
        np.array([], dtype=str),
        np.array([], dtype=str),
        np.array([], dtype=str),
        np.zeros((0, 2)),
        np.zeros((0, 2)),
    )
    xy = np.array([sx * x, y])
    in_pocket = x > 1070.0 and y > 770.0  # beyond the last gabarito centre both ways
    if in_pocket and abs(float(np.hypot(x - 1070.0, y - 770.0)) - 35.0) < 0.01:
        return
    search = gabarito_reach(xy, 5.0, nobody, table.rail_box, 30.0, 30.0).blocked
    (verdict,) = run("ball_blocked", "brasileira", [ball(float(xy[0]), y)], {"blocking_team": "A"})
    assert bool(verdict.extra.get("rails_alone", False)) == search
