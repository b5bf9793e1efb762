"""The brasileira engine against its text (000 (b), REGRA 1-17): situations -> events.

Field 2000 x 1400 mm (REGRA 1): goal lines' outer edges at x = +/-1000, touchlines at
y = +/-700, posts at y = +/-73, penalty areas 820 x 330. Team A defends the left goal.
"""

from __future__ import annotations

import pytest

from tests.rules.engine.script import Script, brasileira_roster
from tests.rules.engine.situations import Situation, check, find, run

BALL = "piece-ball"
HIT = "piece-piece"


def _shot(
    shooter: str, team: str, x0: float, ball_to: tuple[float, float], keeper_y: float = 50.0
) -> Script:
    """``shooter`` at (x0, 0) strikes the ball at (x0 + 40, 0) toward ``ball_to``."""
    s = Script(
        brasileira_roster(
            [
                ("B1", "B", "goalkeeper", 990.0, keeper_y),
                (shooter, team, "button", x0, 0.0),
                ("ball", "", "ball", x0 + 40.0, 0.0),
            ]
        )
    )
    s.rest(3)
    s.move(
        {shooter: (0, 2, (x0 + 8.0, 0.0)), "ball": (1, 8, ball_to)}, {2: [(shooter, "ball", BALL)]}
    )
    s.rest(3)
    return s


def _foul(at: tuple[float, float]) -> Script:
    """A7 flicked at ``at`` hits B4 (80 mm ahead) before any ball."""
    x, y = at
    s = Script(
        brasileira_roster(
            [
                ("A7", "A", "button", x, y),
                ("B4", "B", "button", x + 80.0, y),
                ("ball", "", "ball", 0.0, 500.0),
            ]
        )
    )
    s.rest(3)
    s.move({"A7": (0, 3, (x + 25.0, y)), "B4": (2, 6, (x + 160.0, y))}, {2: [("A7", "B4", HIT)]})
    s.rest(3)
    return s


def _touch_then_hit() -> Script:
    s = Script(
        brasileira_roster(
            [
                ("A7", "A", "button", 0.0, 0.0),
                ("ball", "", "ball", 40.0, 0.0),
                ("B4", "B", "button", 100.0, -40.0),
            ]
        )
    )
    s.rest(3)
    s.move(
        {"A7": (0, 4, (70.0, 0.0)), "ball": (1, 8, (300.0, 100.0)), "B4": (3, 6, (140.0, -70.0))},
        {1: [("A7", "ball", BALL)], 3: [("A7", "B4", HIT)]},
    )
    s.rest(3)
    return s


def _offside(second_lance: bool, keeper_first: bool = False) -> Script:
    """A9 waits beyond B's penultimate defender (B3); A7 plays the ball onto A9."""
    s = Script(
        brasileira_roster(
            [
                ("B3", "B", "button", 600.0, 200.0),
                ("A9", "A", "button", 750.0, -200.0),
                ("A6", "A", "button", 150.0, 0.0),
                ("A7", "A", "button", 250.0, -60.0),
                ("ball", "", "ball", 200.0, 0.0),
            ]
        )
    )
    s.rest(3)
    if second_lance:  # lance 1: A6 pushes the ball on (the coach's first lance)
        s.move(
            {"A6": (0, 2, (160.0, 0.0)), "ball": (1, 6, (300.0, 0.0))}, {2: [("A6", "ball", BALL)]}
        )
        s.rest(3)
        s.place("A7", (250.0, -10.0))
        s.rest(2)
    hits = [("A7", "ball", BALL)]
    s.move({"A7": (0, 2, (265.0, -10.0)), "ball": (1, 8, (715.0, -190.0))}, {2: hits})
    late = [("B1", "ball", BALL)] if keeper_first else []
    s.move({"ball": (0, 2, (712.0, -188.0))}, {1: [*late, ("A9", "ball", BALL)]})
    s.rest(3)
    return s


def _jogada(pass_in_second: bool) -> Script:
    """Three lances by A: A6 touches the ball in each; optionally the 2nd hits team-mate A9."""
    s = Script(
        brasileira_roster(
            [
                ("A6", "A", "button", -200.0, 0.0),
                ("A9", "A", "button", 100.0, 300.0),
                ("ball", "", "ball", -160.0, 0.0),
            ]
        )
    )
    s.rest(3)
    s.move({"A6": (0, 2, (-190.0, 0.0)), "ball": (1, 5, (-60.0, 0.0))}, {2: [("A6", "ball", BALL)]})
    s.rest(3)
    s.place("A6", (-100.0, 0.0))
    s.rest(2)
    second = [("A6", "ball", BALL)] + ([("A9", "ball", BALL)] if pass_in_second else [])
    s.move(
        {"A6": (0, 2, (-90.0, 0.0)), "ball": (1, 6, (60.0, 250.0))}, {2: second[:1], 5: second[1:]}
    )
    s.rest(3)
    s.place("A6", (30.0, 230.0))
    s.rest(2)
    s.move(
        {"A6": (0, 2, (40.0, 235.0)), "ball": (1, 6, (300.0, 350.0))}, {2: [("A6", "ball", BALL)]}
    )
    s.rest(3)
    return s


def _furada() -> Script:
    s = Script(
        brasileira_roster([("A6", "A", "button", -200.0, 0.0), ("ball", "", "ball", -100.0, 100.0)])
    )
    s.rest(3)
    s.move({"A6": (0, 4, (-150.0, -20.0))})
    s.rest(3)
    return s


def _blocked() -> Script:
    """A closes a ring of four buttons 70 mm round the ball (the gabarito cannot reach it)."""
    ring = [("A3", 0.0, 70.0), ("A4", -70.0, 0.0), ("A5", 0.0, -70.0)]
    s = Script(
        brasileira_roster(
            [(p, "A", "button", x, y) for p, x, y in ring]
            + [("A6", "A", "button", 200.0, 0.0), ("ball", "", "ball", 0.0, 0.0)]
        )
    )
    s.rest(3)
    s.move({"A6": (0, 5, (70.0, 0.0))})
    s.rest(3)
    return s


def _neutral() -> Script:
    s = Script(
        brasileira_roster([("A6", "A", "button", -200.0, 0.0), ("ball", "", "ball", -160.0, 0.0)])
    )
    s.rest(3)
    s.move({"A6": (0, 2, (-190.0, 0.0)), "ball": (1, 6, (3.0, 0.0))}, {2: [("A6", "ball", BALL)]})
    s.rest(3)
    return s


def _penalty_taken() -> Script:
    """A foul in A's area, then B takes the penalty with A4 within 18,3 cm of the ball."""
    s = _foul((-800.0, 100.0))
    s.place("ball", (-780.0, 0.0))
    s.place("B4", (-735.0, 0.0))
    s.place("A7", (-780.0, 120.0))
    s.rest(3)
    s.move(
        {"B4": (0, 2, (-745.0, 0.0)), "ball": (1, 6, (-900.0, 0.0))}, {2: [("B4", "ball", BALL)]}
    )
    s.rest(3)
    return s


TABLE = [
    Situation(
        "goal",
        "000 REGRA 10",
        lambda: _shot("A9", "A", 850.0, (1012.0, 0.0)),
        (
            ("lance", "A", "A9", {}),
            ("touch", "A", "A9", {}),
            ("goal", "A", "A9", {"restart": "kick_off", "own_goal": False}),
        ),
    ),
    Situation(
        "own goal",
        "000 REGRA 10 GOL CONTRA",
        lambda: _shot("B5", "B", 850.0, (1012.0, 0.0)),
        (("goal", "A", "B5", {"own_goal": True}),),
    ),
    Situation(
        "not wholly past the goal line",
        "000 REGRA 10",
        lambda: _shot("A9", "A", 850.0, (1004.0, 0.0)),
        (("ball_stopped", None, None, {}),),
        absent=("goal", "ball_out"),
    ),
    Situation(
        "wide of the post, last touched by the attacker: goal kick",
        "000 REGRA 16",
        lambda: _shot("A9", "A", 850.0, (1012.0, 150.0), keeper_y=-50.0),
        (("ball_out", "B", "A9", {"restart": "goal_kick", "line": "goal_right"}),),
        absent=("goal",),
    ),
    Situation(
        "wide of the post, last touched by the defender: corner",
        "000 REGRA 17",
        lambda: _shot("B5", "B", 850.0, (1012.0, 150.0), keeper_y=-50.0),
        (("ball_out", "A", "B5", {"restart": "corner", "line": "goal_right"}),),
    ),
    Situation(
        "over the touchline: throw-in to the other team",
        "000 REGRA 15",
        lambda: _throw(712.0),
        (("ball_out", "B", "A7", {"restart": "throw_in", "line": "touch_far"}),),
    ),
    Situation(
        "on the touchline, not wholly beyond: in play",
        "000 REGRA 9 A",
        lambda: _throw(703.0),
        absent=("ball_out",),
    ),
    Situation(
        "flicked button hits an opponent before the ball",
        "000 REGRA 12 FALTA",
        lambda: _foul((0.0, 0.0)),
        (("foul", "A", "A7", {"victim": "B4", "awarded_to": "B", "restart": "free_kick"}),),
    ),
    Situation(
        "the same inside the offender's own penalty area",
        "000 REGRA 14",
        lambda: _foul((-800.0, 100.0)),
        (("foul", "A", "A7", {"restart": "penalty"}),),
    ),
    Situation(
        "ball touched first, opponent hit after: no foul",
        "000 REGRA 12 FALTA",
        _touch_then_hit,
        (("touch", "A", "A7", {}), ("contact", None, None, {})),
        absent=("foul",),
    ),
    Situation(
        "a team-mate in an offside position receives the pass (second lance)",
        "000 REGRA 11 B",
        lambda: _offside(True),
        (("offside", "A", "A9", {"passer": "A7", "case": "B"}),),
    ),
    Situation(
        "the same in the coach's first lance",
        "000 REGRA 11 D",
        lambda: _offside(False),
        absent=("offside",),
    ),
    Situation(
        "the same after the goalkeeper's rebound",
        "000 REGRA 11 E",
        lambda: _offside(True, keeper_first=True),
        absent=("offside",),
    ),
    Situation(
        "no pass in the second lance: the jogada ends",
        "000 REGRA 4 JOGADA PADRÃO",
        lambda: _jogada(False),
        (("turn_over", "B", None, {"reason": "no pass in the second lance"}),),
    ),
    Situation(
        "a pass in the second lance: the third lance, then the jogada ends",
        "000 REGRA 4 JOGADA PADRÃO",
        lambda: _jogada(True),
        (("turn_over", "B", None, {"reason": "jogada padrao complete (3 lances)"}),),
    ),
    Situation(
        "the flicked button misses the ball",
        "000 REGRA 2 POSSE DE BOLA A",
        _furada,
        (("furada", "A", "A6", {}), ("turn_over", "B", None, {})),
    ),
    Situation(
        "a ring of four buttons keeps the 6 cm gabarito off the ball",
        "000 REGRA 4 BLOQUEIO",
        _blocked,
        (("ball_blocked", "A", None, {}),),
    ),
    Situation(
        "the ball stops on the halfway line",
        "000 REGRA 10",
        _neutral,
        (("ball_neutral", None, None, {}),),
    ),
    Situation(
        "a penalty taken with an opponent within 18,3 cm of the ball",
        "000 REGRA 14",
        _penalty_taken,
        (("distance_violation", "A", "A7", {"constraint": "penalty_ball_distance"}),),
    ),
]


def _throw(to_y: float) -> Script:
    s = Script(
        brasileira_roster([("A7", "A", "button", 0.0, 600.0), ("ball", "", "ball", 0.0, 640.0)])
    )
    s.rest(3)
    s.move({"A7": (0, 2, (0.0, 608.0)), "ball": (1, 6, (0.0, to_y))}, {2: [("A7", "ball", BALL)]})
    s.rest(3)
    return s


@pytest.mark.parametrize("sit", TABLE, ids=lambda s: s.name)
def test_brasileira_situation(sit: Situation) -> None:
    events = check("brasileira", sit)
    for e in events:
        assert e["format"] == "event/1"
        assert set(e) == {
            "format",
            "t",
            "frame",
            "type",
            "team",
            "piece",
            "holds",
            "margin_mm",
            "article",
            "evidence",
        }


def test_goal_margin_article_and_assumptions() -> None:
    events = run("brasileira", _shot("A9", "A", 850.0, (1012.0, 0.0)))
    (goal,) = find(events, "goal")
    assert goal["margin_mm"] == pytest.approx(7.0)  # 1012 - 5 - 1000
    assert goal["article"] == "000 REGRA 10"
    assert goal["evidence"]["assumed"] == [
        "the shot was announced",
        "the goalkeeper was declared placed",
    ]
    assert goal["evidence"]["score"] == {"A": 1, "B": 0}


def test_unannounced_goal_is_a_goal_kick_when_annotations_say_so() -> None:
    """GOL SEM VALIDADE: with annotations, a goal without "vai a gol" does not count."""
    ann = {"format": "annotations/1", "items": []}
    events = run("brasileira", _shot("A9", "A", 850.0, (1012.0, 0.0)), ann)
    (goal,) = [e for e in events if e["type"] == "goal"]
    assert not goal["holds"] and goal["evidence"]["restart"] == "goal_kick"
    assert goal["article"] == "000 REGRA 10 GOL SEM VALIDADE"
    announced = {
        "format": "annotations/1",
        "items": [
            {"type": "shot_announced", "t": 0.0, "team": "A", "piece": "A9"},
            {"type": "keeper_placed", "t": 0.0, "team": "B"},
        ],
    }
    (goal,) = find(run("brasileira", _shot("A9", "A", 850.0, (1012.0, 0.0)), announced), "goal")
    assert goal["evidence"]["assumed"] == []


def test_referee_decision_overrules_a_foul() -> None:
    ann = {
        "format": "annotations/1",
        "items": [
            {"type": "decision", "frame": 5, "event": "foul", "holds": False, "note": "advantage"}
        ],
    }
    events = run("brasileira", _foul((0.0, 0.0)), ann)
    (foul,) = [e for e in events if e["type"] == "foul"]
    assert not foul["holds"] and foul["evidence"]["decision"] == "advantage"


def test_throw_in_spot_is_where_the_ball_crossed() -> None:
    (out,) = find(run("brasileira", _throw(712.0)), "ball_out")
    assert out["evidence"]["spot"] == [0.0, 699.0]  # on the touchline strip's middle
    assert out["margin_mm"] == pytest.approx(7.0)


def test_offside_margin_is_the_distance_past_the_line() -> None:
    (off,) = find(run("brasileira", _offside(True)), "offside")
    # A9's foremost point 780 against B2's 730 (B1 the last defender, B2 the penultimate).
    assert off["margin_mm"] == pytest.approx(50.0)
    assert off["article"] == "000 REGRA 11 B"


def test_offside_exception_d_can_be_switched_off() -> None:
    """The truth referee models no exception D; the option makes the engine agree with it."""
    events = run("brasileira", _offside(False), offside_exceptions=())
    assert find(events, "offside", "A", "A9")
