"""``min_distance`` at +/-0.1 mm either side of every limit a rule text sets.

Team A defends the left goal (attacks +x). Buttons are 60 mm (r 30), the ball 10 mm (r 5),
goalkeepers 70 x 15 with their long side along y (angle 90 deg) unless a row says otherwise.
Tables: nacional, brasileira, paulista and mesa-posta have goal lines at x = +/-1000 and 2 mm
lines; brasileira/paulista/mesa-posta areas are 820 x 330 (penalty) and 380 x 110 (goal)
(000 REGRA 1), so the right penalty area spans x 670..1000, |y| <= 410, and the right goal
area x 890..1000, |y| <= 190; gaucha-max has its goal lines at x = +/-800.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.pieces import footprints
from geometry.scene import Scene, scene_from_dict
from geometry.tablespec import load_table
from rules.checks import CHECKS, CheckContext
from rules.checks.distances import point_gaps
from rules.rulesets import get_ruleset
from rules.verdict import Verdict
from tests.scenes import ball, button, keeper, make_scene, mirror_doc, scene_doc

CTX = {
    name: CheckContext.build(load_table(get_ruleset(name).table), get_ruleset(name))
    for name in ("nacional", "brasileira", "gaucha", "paulista", "mesa-posta")
}


def check(rules: str, pieces: list, context: dict | None) -> list[Verdict]:
    scene = make_scene(pieces, table=get_ruleset(rules).table, context=context)
    return CHECKS["min_distance"](scene, CTX[rules])


def find(vs: list[Verdict], constraint: str, piece: str, other: str | None = None) -> Verdict:
    hits = [
        v
        for v in vs
        if v.extra.get("constraint") == constraint
        and v.piece == piece
        and (other is None or v.extra["other"] == other)
    ]
    assert len(hits) == 1, (constraint, piece, [v.to_dict() for v in vs])
    return hits[0]


def assert_verdict(v: Verdict, holds: bool, margin: float, article: str, limit: float) -> None:
    assert v.holds is holds
    assert v.margin_mm == pytest.approx(margin, abs=1e-6)
    assert v.article == article
    assert v.extra["limit_mm"] == limit


# ---------------------------------------------------------------- context
@pytest.mark.parametrize("rules", sorted(CTX))
def test_without_restart_the_check_is_skipped(rules) -> None:
    [v] = check(rules, [button("A1", "A", 0.0, 0.0), ball(40.0, 0.0)], {"to_play": "A"})
    assert v.holds is None and v.margin_mm is None
    assert v.detail == "skipped: needs context.restart"
    assert v.to_dict()["holds"] is None


@pytest.mark.parametrize(
    ("rules", "restart", "context", "needs"),
    [
        ("nacional", "free_kick", {}, "spot"),  # no spot and no ball: removal
        ("brasileira", "shot", {"team": "A"}, "spot"),  # no ball
        ("brasileira", "penalty", {"spot": [780.0, 0.0]}, "team"),
        ("brasileira", "goal_kick", {"spot": [-950.0, 0.0]}, "team"),
        ("gaucha", "corner", {"team": "A"}, "spot"),
        ("mesa-posta", "penalty", {"spot": [780.0, 0.0]}, "team"),
        ("mesa-posta", "penalty", {"team": "A"}, "spot"),
    ],
)
def test_missing_context_names_the_field(rules, restart, context, needs) -> None:
    vs = check(rules, [button("A1", "A", 0.0, 0.0)], {"restart": restart, **context})
    skipped = [v for v in vs if v.holds is None]
    assert skipped, [v.to_dict() for v in vs]
    assert any(v.detail.startswith(f"skipped: needs context.{needs}") for v in skipped)


def test_nacional_dead_ball_needs_the_team() -> None:
    vs = check("nacional", [button("A1", "A", -45.1, 0.0), ball(0.0, 0.0)], {"restart": "corner"})
    [v] = [v for v in vs if v.holds is None]
    assert v.detail == "skipped: needs context.team"
    assert v.extra["constraint"] == "dead_ball_gap"


@pytest.mark.parametrize(
    ("rules", "restart"),
    [("paulista", "free_kick"), ("mesa-posta", "corner"), ("gaucha", "kick_off")],
)
def test_restart_without_a_distance_rule_gives_nothing(rules, restart) -> None:
    ctx = {"restart": restart, "team": "A", "spot": [0.0, 0.0]}
    assert check(rules, [button("A1", "A", -45.0, 0.0), ball(0.0, 0.0)], ctx) == []


# ---------------------------------------------------------------- nacional
# 000 Art. 14, 15, 17: pieces "até 6 cm do local de cobrança" may be removed (edge to spot);
# Art. 8 / 25 E: the kicker at least 1 cm from the ball. Spot and ball at (0, 0).
KICKER_OK = button("A1", "A", -45.1, 0.0)  # 10.1 mm from the ball


@pytest.mark.parametrize(
    ("restart", "piece", "holds", "margin", "article"),
    [
        ("free_kick", button("B2", "B", 90.1, 0.0), True, 0.1, "000 Art. 17"),
        ("free_kick", button("B2", "B", 89.9, 0.0), False, -0.1, "000 Art. 17"),
        ("indirect_free_kick", button("B2", "B", 0.0, 90.0), False, 0.0, "000 Art. 17"),
        ("throw_in", button("A2", "A", 0.0, -90.1), True, 0.1, "000 Art. 14"),
        ("corner", button("B2", "B", -54.06, 72.08), True, 0.1, "000 Art. 15"),  # 90.1 mm away
        # A goalkeeper along x: its near short side at x = 60 +/- 0.1 from the spot.
        ("corner", keeper("B2", "B", 95.1, 0.0, angle_deg=0.0), True, 0.1, "000 Art. 15"),
        ("corner", keeper("B2", "B", 94.9, 0.0, angle_deg=0.0), False, -0.1, "000 Art. 15"),
        ("free_kick", keeper("B2", "B", 0.0, 95.1), True, 0.1, "000 Art. 17"),  # long face
    ],
)
def test_nacional_removal(restart, piece, holds, margin, article) -> None:
    ctx = {"restart": restart, "spot": [0.0, 0.0], "team": "A"}
    vs = check("nacional", [KICKER_OK, piece, ball(0.0, 0.0)], ctx)
    v = find(vs, "removal", piece["id"])
    assert_verdict(v, holds, margin, article, 60.0)
    assert v.extra["other"] == "spot"
    assert not any(v.piece == "A1" and v.extra["constraint"] == "removal" for v in vs)


@pytest.mark.parametrize(
    ("restart", "x", "holds", "margin"),
    [
        ("free_kick", -45.1, True, 0.1),
        ("free_kick", -44.9, False, -0.1),
        ("kick_off", -44.9, False, -0.1),  # "saída de jogo" is a dead ball too (Art. 8)
        ("penalty", -45.1, True, 0.1),
    ],
)
def test_nacional_dead_ball_gap(restart, x, holds, margin) -> None:
    # A2 is farther from the ball than A1, so A1 is the kicker.
    pieces = [button("A1", "A", x, 0.0), button("A2", "A", -200.0, 0.0), ball(0.0, 0.0)]
    vs = check("nacional", pieces, {"restart": restart, "spot": [0.0, 0.0], "team": "A"})
    v = find(vs, "dead_ball_gap", "A1")
    assert_verdict(v, holds, margin, "000 Art. 8, Art. 25 E", 10.0)


def test_nacional_shot_sets_no_distance() -> None:
    assert check("nacional", [KICKER_OK, ball(0.0, 0.0)], {"restart": "shot", "team": "A"}) == []


def test_selection_violations_near_and_the_closest() -> None:
    ctx = {"restart": "free_kick", "spot": [0.0, 0.0], "team": "A"}
    far = [button("B2", "B", 300.0, 0.0), button("B3", "B", 0.0, 250.0)]  # gaps 270, 220
    # All hold and none is near (< 120 mm): only the closest is shown.
    vs = check("nacional", [KICKER_OK, *far, ball(0.0, 0.0)], ctx)
    assert [v.piece for v in vs if v.extra["constraint"] == "removal"] == ["B3"]
    # A near one (100 mm) is shown, the far ones are not.
    near = button("B4", "B", 0.0, -130.0)
    vs = check("nacional", [KICKER_OK, *far, near, ball(0.0, 0.0)], ctx)
    assert [v.piece for v in vs if v.extra["constraint"] == "removal"] == ["B4"]
    # A violation and a near one are both shown, violation first (smaller margin).
    inside = button("B5", "B", 50.0, 50.0)
    vs = check("nacional", [KICKER_OK, *far, near, inside, ball(0.0, 0.0)], ctx)
    assert [v.piece for v in vs if v.extra["constraint"] == "removal"] == ["B5", "B4"]


# ---------------------------------------------------------------- gaucha
# 001 Art. XXIII § 5: pieces less than 60 mm from the ball may be moved aside; XXXIX corners.
@pytest.mark.parametrize(
    ("restart", "x", "holds", "margin", "article"),
    [
        ("free_kick", 95.1, True, 0.1, "001 Art. XXIII § 5"),
        ("free_kick", 94.9, False, -0.1, "001 Art. XXIII § 5"),
        ("indirect_free_kick", 95.0, True, 0.0, "001 Art. XXIII § 5"),  # "menos que 60mm"
        ("throw_in", 94.9, False, -0.1, "001 Art. XXIII § 5"),
        ("corner", 95.1, True, 0.1, "001 Art. XXXIX"),
        ("corner", 94.9, False, -0.1, "001 Art. XXXIX"),
    ],
)
def test_gaucha_removal(restart, x, holds, margin, article) -> None:
    pieces = [button("A1", "A", -40.0, 0.0), button("B2", "B", x, 0.0), ball(0.0, 0.0)]
    vs = check("gaucha", pieces, {"restart": restart, "team": "A"})
    v = find(vs, "removal", "B2")
    assert_verdict(v, holds, margin, article, 60.0)
    assert v.extra["other"] == "ball"
    assert [v.piece for v in vs] == ["B2"]  # the kicker A1 is not moved


# ---------------------------------------------------------------- brasileira: shot
SHOT = "000 REGRA 4 DISTÂNCIA DA BOLA EM ARREMESSOS A GOL"


@pytest.mark.parametrize(
    ("x_ball", "keeper_piece", "holds", "margin", "by"),
    [
        # 18,3 cm: the keeper's near face (x - 7.5) 183 +/- 0.1 from the ball's edge (x + 5).
        (700.0, keeper("B1", "B", 895.6, 0.0), True, 0.1, "ball_distance"),
        (700.0, keeper("B1", "B", 895.4, 0.0), False, -0.1, "ball_distance"),
        # "tocando totalmente a linha de meta": goal-side face 0.1 into / short of the strip
        # (inner edge at x = 998).
        (800.0, keeper("B1", "B", 990.6, 0.0), True, 0.1, "goal_line"),
        (800.0, keeper("B1", "B", 990.4, 0.0), False, -0.1, "goal_line"),
        # Tilted 10 deg: one corner on the line, the other 6 mm short: not "totalmente".
        (800.0, keeper("B1", "B", 992.0, 0.0, angle_deg=80.0), False, None, "goal_line"),
    ],
)
def test_brasileira_goalkeeper_at_a_shot(x_ball, keeper_piece, holds, margin, by) -> None:
    pieces = [button("A9", "A", x_ball - 40.0, 0.0), keeper_piece, ball(x_ball, 0.0)]
    [v] = check("brasileira", pieces, {"restart": "shot", "team": "A"})
    assert v.holds is holds and v.piece == "B1"
    if margin is not None:
        assert v.margin_mm == pytest.approx(margin, abs=1e-6)
    assert (v.article, v.extra["constraint"], v.extra["decided_by"]) == (
        SHOT,
        "goalkeeper_shot",
        by,
    )


def test_brasileira_shot_without_defending_goalkeeper() -> None:
    pieces = [button("A9", "A", 700.0, 0.0), ball(740.0, 0.0)]
    [v] = check("brasileira", pieces, {"restart": "shot", "team": "A"})
    assert v.holds is None and "no goalkeeper of team B" in v.detail


# ---------------------------------------------------------------- brasileira: penalty
# REGRA 14: nobody within 18,3 cm of the ball nor inside the area, but the kicker and the
# goalkeeper. Ball on the right penalty mark (780, 0); kicker A1 behind it.
def penalty(*extra: dict) -> list[Verdict]:
    pieces = [button("A1", "A", 740.0, 0.0), keeper("B1", "B", 992.0, 0.0), ball(780.0, 0.0)]
    return check("brasileira", [*pieces, *extra], {"restart": "penalty", "team": "A"})


@pytest.mark.parametrize(
    ("piece", "constraint", "holds", "margin", "limit"),
    [
        (button("A2", "A", 561.9, 0.0), "penalty_ball_distance", True, 0.1, 183.0),
        (button("A2", "A", 562.1, 0.0), "penalty_ball_distance", False, -0.1, 183.0),
        (button("B3", "B", 639.9, 300.0), "penalty_area_clear", True, 0.1, 0.0),
        (button("B3", "B", 640.1, 300.0), "penalty_area_clear", False, -0.1, 0.0),
        (button("B3", "B", 640.0, 300.0), "penalty_area_clear", False, 0.0, 0.0),  # on the line
    ],
)
def test_brasileira_penalty(piece, constraint, holds, margin, limit) -> None:
    vs = penalty(piece)
    assert_verdict(find(vs, constraint, piece["id"]), holds, margin, "000 REGRA 14", limit)
    assert not any(v.piece == "A1" for v in vs)  # the kicker
    [gk] = [v for v in vs if v.piece == "B1"]  # the goalkeeper: as at a shot
    assert gk.extra["constraint"] == "goalkeeper_shot" and gk.holds


# ---------------------------------------------------------------- brasileira: goal kick
# REGRA 16, A beneficiary (defends left), ball in its goal area, kicker A1 beside it. The base
# arrangement satisfies every condition; each row moves or adds one piece.
GOAL_KICK_BASE = {
    "A0": keeper("A0", "A", -992.0, 0.0),
    "A1": button("A1", "A", -950.0, 140.0),
    "A2": button("A2", "A", 100.0, 0.0),
    "A3": button("A3", "A", 100.0, 400.0),
    "A4": button("A4", "A", 100.0, -400.0),
    "A5": button("A5", "A", -500.0, 0.0),
    "B0": keeper("B0", "B", 992.0, 0.0),
    "B1": button("B1", "B", -300.0, 0.0),
    "B2": button("B2", "B", -300.0, 300.0),
    "B3": button("B3", "B", -300.0, -300.0),
    "B4": button("B4", "B", 500.0, 200.0),
    "ball": ball(-950.0, 100.0),
}


def goal_kick(**changes: dict) -> list[Verdict]:
    pieces = {**GOAL_KICK_BASE, **changes}
    return check("brasileira", list(pieces.values()), {"restart": "goal_kick", "team": "A"})


def b5(x: float, y: float) -> dict:
    return {"B5": button("B5", "B", x, y)}


def test_goal_kick_base_arrangement_holds() -> None:
    vs = goal_kick()
    assert vs and all(v.holds for v in vs), [v.to_dict() for v in vs if not v.holds]
    names = {v.extra["constraint"] for v in vs}
    assert names == {
        "goal_kick_teammates",
        "goal_kick_opponents",
        "goal_kick_attackers",
        "goal_kick_penalty_area",
        "goal_kick_goal_areas",
    }
    assert {v.team for v in vs if v.extra["constraint"] == "goal_kick_attackers"} == {"A", "B"}


@pytest.mark.parametrize(
    ("change", "constraint", "piece", "holds", "margin", "article"),
    [
        # A: teammates 18,3 cm apart (goalkeeper excepted), opponents 6 cm.
        ({"A6": button("A6", "A", 343.1, 400.0)}, "goal_kick_teammates", "A3", True, 0.1, "A"),
        ({"A6": button("A6", "A", 342.9, 400.0)}, "goal_kick_teammates", "A3", False, -0.1, "A"),
        (b5(220.1, 0.0), "goal_kick_opponents", "A2", True, 0.1, "A"),
        (b5(219.9, 0.0), "goal_kick_opponents", "A2", False, -0.1, "A"),
        # B: 3 to 6 buttons in the attacking half; the third attacker's centre at +/-0.1 mm.
        ({"A4": button("A4", "A", 0.1, -400.0)}, "goal_kick_attackers", "A4", True, 0.1, "B"),
        ({"A4": button("A4", "A", -0.1, -400.0)}, "goal_kick_attackers", "A4", False, -0.1, "B"),
        # D: no opponent in the beneficiary's penalty area (left: x <= -670, |y| <= 410).
        (b5(-639.9, -300.0), "goal_kick_penalty_area", "B5", True, 0.1, "D"),
        (b5(-640.1, -300.0), "goal_kick_penalty_area", "B5", False, -0.1, "D"),
        # F: no button in a goal area (right: x >= 890, |y| <= 190), whoever's it is.
        (b5(859.9, 150.0), "goal_kick_goal_areas", "B5", True, 0.1, "F"),
        (b5(860.1, 150.0), "goal_kick_goal_areas", "B5", False, -0.1, "F"),
        ({"A6": button("A6", "A", -860.1, -150.0)}, "goal_kick_goal_areas", "A6", False, -0.1, "F"),
    ],
)
def test_goal_kick(change, constraint, piece, holds, margin, article) -> None:
    v = find(goal_kick(**change), constraint, piece)
    assert v.holds is holds
    if margin is not None:
        assert v.margin_mm == pytest.approx(margin, abs=1e-6)
    assert v.article == f"000 REGRA 16 {article}"


def test_goal_kick_teammate_pair_is_reported_once() -> None:
    vs = goal_kick(A6=button("A6", "A", 342.9, 400.0))
    pairs = [v for v in vs if v.extra["constraint"] == "goal_kick_teammates" and not v.holds]
    assert [(v.piece, v.extra["other"]) for v in pairs] == [("A3", "A6")]
    assert pairs[0].extra["distance_mm"] == pytest.approx(182.9)


def test_goal_kick_goalkeeper_is_no_teammate_and_kicker_may_stand_in_goal_area() -> None:
    vs = goal_kick()
    mates = [v for v in vs if v.extra["constraint"] == "goal_kick_teammates"]
    assert mates and not any("A0" in (v.piece, v.extra["other"]) for v in mates)
    assert not any(v.piece == "A1" for v in vs if v.extra["constraint"] == "goal_kick_goal_areas")


@pytest.mark.parametrize(
    ("x7", "holds", "margin", "count"),
    [(0.1, False, -0.1, 7), (-0.1, True, 0.1, 6)],  # the seventh attacker decides the maximum
)
def test_goal_kick_at_most_six_attackers(x7, holds, margin, count) -> None:
    extra = {f"A{k}": button(f"A{k}", "A", 400.0, -600.0 + 200.0 * (k - 6)) for k in range(6, 9)}
    extra["A9"] = button("A9", "A", x7, -600.0)
    v = find(goal_kick(**extra), "goal_kick_attackers", "A9")
    assert (v.holds, v.extra["count"]) == (holds, count)
    assert v.margin_mm == pytest.approx(margin, abs=1e-6)


def test_goal_kick_too_few_attackers() -> None:
    vs = goal_kick(B1=button("B1", "B", 300.0, 0.0), B2=button("B2", "B", 300.0, 300.0))
    [v] = [v for v in vs if v.extra["constraint"] == "goal_kick_attackers" and v.team == "B"]
    assert v.holds is False and v.extra["count"] == 1
    assert v.margin_mm == pytest.approx(-300.0)


# ---------------------------------------------------------------- brasileira: free kick
# REGRA 4 O GOLEIRO NA GRANDE ÁREA: a goalkeeper in its penalty area, out of its goal area,
# 6 cm from opponents and 18,3 cm from the ball. B1 at (850, 0) spans x 842.5..857.5, y +/-35.
KEEPER_ART = "000 REGRA 4 O GOLEIRO NA GRANDE ÁREA"


@pytest.mark.parametrize(
    ("y_a3", "x_ball", "constraint", "holds", "margin", "limit"),
    [
        (125.1, 500.0, "goalkeeper_opponents", True, 0.1, 60.0),
        (124.9, 500.0, "goalkeeper_opponents", False, -0.1, 60.0),
        (400.0, 654.4, "goalkeeper_ball", True, 0.1, 183.0),
        (400.0, 654.6, "goalkeeper_ball", False, -0.1, 183.0),
    ],
)
def test_brasileira_free_kick_goalkeeper(y_a3, x_ball, constraint, holds, margin, limit) -> None:
    pieces = [keeper("B1", "B", 850.0, 0.0), button("A3", "A", 850.0, y_a3), ball(x_ball, 0.0)]
    vs = check("brasileira", pieces, {"restart": "free_kick", "team": "A"})
    assert_verdict(find(vs, constraint, "B1"), holds, margin, KEEPER_ART, limit)


def test_brasileira_free_kick_goalkeeper_in_goal_area_has_no_limit() -> None:
    pieces = [keeper("B1", "B", 950.0, 0.0), button("A3", "A", 950.0, 80.0), ball(900.0, 0.0)]
    assert check("brasileira", pieces, {"restart": "free_kick", "team": "A"}) == []


# ---------------------------------------------------------------- paulista: kick-off
# 002 Do posicionamento dos botões: 8 cm between a team's buttons and its goalkeeper (2, 4);
# the buttons other than the five placed by 1 a-b 24 cm from the halfway line (2).
PLACED = [button(f"A{k}", "A", -40.0, -400.0 + 200.0 * k) for k in range(5)]  # 9 mm from it


def pair(y6: float) -> list[dict]:
    return [button("A5", "A", -500.0, 300.0), button("A6", "A", -500.0, y6)]


def keeper_pair(x5: float) -> list[dict]:  # the goalkeeper's long face at x = -984.5
    return [keeper("A9", "A", -992.0, 0.0), button("A5", "A", x5, 0.0)]


@pytest.mark.parametrize(
    ("extra", "constraint", "piece", "holds", "margin", "article"),
    [
        ([button("A5", "A", -271.1, 0.0)], "kick_off_halfway", "A5", True, 0.1, "1-2"),
        ([button("A5", "A", -270.9, 0.0)], "kick_off_halfway", "A5", False, -0.1, "1-2"),
        (pair(440.1), "kick_off_spacing", "A5", True, 0.1, "2, 4"),
        (pair(439.9), "kick_off_spacing", "A5", False, -0.1, "2, 4"),
        (keeper_pair(-874.4), "kick_off_spacing", "A9", True, 0.1, "2, 4"),  # "inclusive do
        (keeper_pair(-874.6), "kick_off_spacing", "A9", False, -0.1, "2, 4"),  # goleiro"
    ],
)
def test_paulista_kick_off(extra, constraint, piece, holds, margin, article) -> None:
    vs = check("paulista", PLACED + extra, {"restart": "kick_off"})
    v = find(vs, constraint, piece)
    assert v.holds is holds
    assert v.margin_mm == pytest.approx(margin, abs=1e-6)
    assert v.article == f"002 Do posicionamento dos botões {article}"
    # The five nearest the halfway line are the ones placed by the text.
    assert not any(v.extra["constraint"] == "kick_off_halfway" and v.piece < "A5" for v in vs)


def test_paulista_kick_off_button_in_the_wrong_half() -> None:
    vs = check(
        "paulista",
        PLACED
        + [button("B5", "B", -400.0, 0.0)]
        + [button(f"B{k}", "B", 40.0, -400.0 + 200.0 * k) for k in range(5)],
        {"restart": "kick_off"},
    )
    v = find(vs, "kick_off_halfway", "B5")
    assert v.holds is False and v.margin_mm == pytest.approx(-400 - 31 - 240.0)


# ---------------------------------------------------------------- mesa-posta: penalty
# 003 Penáltis: "Todos os botões saem da área", the kicker and the goalkeeper excepted.
@pytest.mark.parametrize(
    ("x", "holds", "margin"),
    [(639.9, True, 0.1), (640.1, False, -0.1), (700.0, False, -60.0)],
)
def test_mesa_posta_penalty(x, holds, margin) -> None:
    pieces = [
        button("A1", "A", 740.0, 0.0),
        keeper("B0", "B", 992.0, 0.0),
        button("B2", "B", x, -300.0),
        ball(780.0, 0.0),
    ]
    vs = check("mesa-posta", pieces, {"restart": "penalty", "team": "A", "spot": [780.0, 0.0]})
    assert [v.piece for v in vs] == ["B2"]
    assert_verdict(vs[0], holds, margin, "003 Penáltis", 0.0)
    assert vs[0].extra["other"] == "penalty_area_right"


# ---------------------------------------------------------------- helpers
def test_point_gaps_are_exact_for_discs_and_rotated_goalkeepers() -> None:
    scene = make_scene(
        [
            button("A1", "A", 100.0, 0.0),
            keeper("B1", "B", 0.0, 100.0, 30.0),
            keeper("B2", "B", 0.0, 0.0, 0.0),
        ]
    )
    gaps = point_gaps(scene.pieces, np.array([0.0, 0.0]))
    assert gaps[0] == pytest.approx(70.0)
    assert gaps[2] == pytest.approx(-7.5)  # inside: minus the distance to the nearest side
    fp = scene.pieces.select(np.array([1]))
    assert gaps[1] == pytest.approx(shapely.distance(footprints(fp)[0], shapely.Point(0, 0)))


# ---------------------------------------------------------------- invariants
RESTARTS = {
    "nacional": ["free_kick", "corner", "throw_in", "kick_off"],
    "brasileira": ["shot", "penalty", "goal_kick", "free_kick"],
    "gaucha": ["free_kick", "corner"],
    "paulista": ["kick_off"],
    "mesa-posta": ["penalty"],
}


def _random_doc(rng: np.random.Generator, rules: str) -> dict:
    table = get_ruleset(rules).table
    hl, hw = (800.0, 600.0) if table.startswith("gaucha") else (1000.0, 700.0)
    pieces = [
        keeper(
            "A0",
            "A",
            float(rng.uniform(-hl + 10, -hl + 300)),
            float(rng.uniform(-150, 150)),
            float(rng.uniform(0, 180)),
        ),
        keeper(
            "B0",
            "B",
            float(rng.uniform(hl - 300, hl - 10)),
            float(rng.uniform(-150, 150)),
            float(rng.uniform(0, 180)),
        ),
    ]
    for team in "AB":
        for k in range(int(rng.integers(2, 9))):
            xy = rng.uniform([-hl + 35, -hw + 35], [hl - 35, hw - 35])
            pieces.append(button(f"{team}{k + 1}", team, float(xy[0]), float(xy[1])))
    bxy = rng.uniform([-hl, -hw], [hl, hw])
    pieces.append(ball(float(bxy[0]), float(bxy[1])))
    restart = str(rng.choice(RESTARTS[rules]))
    ctx = {"restart": restart, "team": str(rng.choice(["A", "B"])), "spot": [float(v) for v in bxy]}
    return scene_doc(pieces, table=table, context=ctx)


def _swap_sides(name: str) -> str:
    return name.replace("left", "@").replace("right", "left").replace("@", "right")


def _summary(scene: Scene, rules: str, swap: bool = False) -> list[tuple]:
    out = []
    for v in CHECKS["min_distance"](scene, CTX[rules]):
        other = str(v.extra.get("other"))
        out.append(
            (
                v.extra.get("constraint"),
                v.piece,
                _swap_sides(other) if swap else other,
                v.holds,
                v.margin_mm,
            )
        )
    return sorted(out, key=lambda t: tuple(str(x) for x in t[:3]))


def _same(a: list[tuple], b: list[tuple], tol: float) -> None:
    assert [t[:3] for t in a] == [t[:3] for t in b]
    for x, y in zip(a, b, strict=True):
        if x[4] is None:
            assert y[4] is None and x[3] is y[3]
            continue
        assert y[4] == pytest.approx(x[4], abs=tol)
        if abs(x[4]) > tol:
            assert x[3] is y[3]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(sorted(RESTARTS)),
    axis=st.sampled_from(["x", "y"]),
)
def test_mirroring_keeps_verdicts_and_margins(seed, rules, axis) -> None:
    doc = _random_doc(np.random.default_rng(seed), rules)
    before = _summary(scene_from_dict(doc), rules)
    after = _summary(scene_from_dict(mirror_doc(doc, axis)), rules, swap=axis == "x")
    _same(before, after, 1e-6)


PAIR_CONSTRAINTS = {
    "nacional": ("removal", "dead_ball_gap"),
    "gaucha": ("removal",),
    "paulista": ("kick_off_spacing",),
    "brasileira": ("goal_kick_teammates", "goal_kick_opponents", "penalty_ball_distance"),
}


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(sorted(PAIR_CONSTRAINTS)),
    angle=st.floats(-np.pi, np.pi),
    dx=st.floats(-300, 300),
    dy=st.floats(-300, 300),
)
def test_rigid_motions_keep_the_distances(seed, rules, angle, dx, dy) -> None:
    scene = scene_from_dict(_random_doc(np.random.default_rng(seed), rules))
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]])
    moved_pieces = scene.pieces.transformed(rot, np.array([dx, dy]))
    ctx = dict(scene.context)
    ctx["spot"] = [float(v) for v in rot @ np.asarray(ctx["spot"]) + np.array([dx, dy])]
    moved = Scene(scene.table, scene.teams, moved_pieces, ctx)

    def distances(sc: Scene) -> list[tuple]:
        keep = PAIR_CONSTRAINTS[rules]
        vs = [
            v for v in CHECKS["min_distance"](sc, CTX[rules]) if v.extra.get("constraint") in keep
        ]
        return sorted(
            (v.extra["constraint"], v.piece, v.extra["other"], v.extra["distance_mm"]) for v in vs
        )

    a, b = distances(scene), distances(moved)
    assert [t[:3] for t in a] == [t[:3] for t in b]
    for x, y in zip(a, b, strict=True):
        assert y[3] == pytest.approx(x[3], abs=1e-2)
