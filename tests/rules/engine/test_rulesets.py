"""The nacional, gaúcha, paulista and mesa-posta engines against their texts.

Tables of situations -> events per rule set (000 (a), 001, 002 with 000 (c), 003). Team A
defends the left goal. Tables: nacional and paulista/mesa-posta 2000 x 1400 mm (goal lines at
x = +/-1000), gaúcha (gaucha-max) 1600 x 1200 mm (x = +/-800, y = +/-600).
"""

from __future__ import annotations

import pytest

from tests.rules.engine.script import Script, brasileira_roster, lance
from tests.rules.engine.situations import Situation, check, find, run

BALL = "piece-ball"
HIT = "piece-piece"


def roster(*extra: tuple[str, str, str, float, float], gaucha: bool = False) -> Script:
    pieces = brasileira_roster(extra)
    if gaucha:  # the base pieces on the smaller table (the keepers on its goal lines)
        base = {e[0] for e in extra}
        pieces = [(p, t, k, x if p in base else x * 0.8, y) for p, t, k, x, y in pieces]
    return Script(pieces)


def _foul(x: float, victim_kind: str = "button") -> Script:
    s = roster(
        ("A7", "A", "button", x, 100.0),
        ("B4", "B", victim_kind, x + 80.0, 100.0),
        ("ball", "", "ball", 0.0, -500.0),
    )
    s.rest(3)
    s.move(
        {"A7": (0, 3, (x + 25.0, 100.0)), "B4": (2, 6, (x + 120.0, 100.0))},
        {2: [("A7", "B4", HIT)]},
    )
    s.rest(3)
    return s


def _one_lance() -> Script:
    s = roster(("A6", "A", "button", -200.0, 0.0), ("ball", "", "ball", -160.0, 0.0))
    s.rest(3)
    lance(s, "A6", (-60.0, 0.0))
    return s


def _kick_off_two_lances() -> Script:
    s = roster(
        ("A10", "A", "button", -45.0, 0.0),
        ("A9", "A", "button", -80.0, 100.0),
        ("ball", "", "ball", 0.0, 0.0),
    )
    s.rest(3)
    lance(s, "A10", (60.0, 20.0))
    lance(s, "A9", (300.0, 40.0))
    return s


def _stops_in_goal_area(x: float = 975.0, y: float = 0.0, gaucha: bool = False) -> Script:
    s = roster(("A9", "A", "button", 600.0, 0.0), ("ball", "", "ball", 640.0, 0.0), gaucha=gaucha)
    s.rest(3)
    lance(s, "A9", (x, y))
    return s


def _shut_in(three: bool, gaucha: bool = False) -> Script:
    """A closes the ball in: three buttons 40 mm from it at 120 deg (9 mm apart), the last
    slid into place; with ``three`` False only two close it."""
    import math

    spots = [
        (40.0 * math.cos(a), 40.0 * math.sin(a))
        for a in (math.pi / 2, math.pi * 7 / 6, -math.pi / 6)
    ]
    s = roster(
        ("A3", "A", "button", *spots[0]),
        ("A4", "A", "button", *spots[1]),
        ("A5", "A", "button", 300.0, -300.0),
        ("B6", "B", "button", -300.0, 300.0),
        ("ball", "", "ball", 0.0, 0.0),
        gaucha=gaucha,
    )
    s.rest(3)
    s.move({"A5": (0, 5, spots[2] if three else (300.0, -250.0))})
    s.rest(3)
    return s


def _gaucha_touchline() -> Script:
    s = roster(("A7", "A", "button", 0.0, 500.0), ("ball", "", "ball", 0.0, 540.0), gaucha=True)
    s.rest(3)
    lance(s, "A7", (0.0, 598.0))  # touching the touchline (its inner edge at 598)
    return s


def _gaucha_throw_in() -> Script:
    s = roster(
        ("A7", "A", "button", 0.0, 500.0),
        ("B7", "B", "button", 200.0, 640.0),
        ("ball", "", "ball", 0.0, 540.0),
        gaucha=True,
    )
    s.rest(3)
    lance(s, "A7", (0.0, 598.0))
    s.place("ball", (100.0, 599.0))
    s.place("B7", (100.0, 640.0))
    s.rest(3)
    lance(s, "B7", (100.0, 400.0))
    return s


def _gaucha_pass(start_x: float) -> Script:
    """A7 beside the ball at ``start_x``; A9 waits beyond B's last outfield button (B5)."""
    s = roster(
        ("B5", "B", "button", 300.0, 0.0),
        ("A9", "A", "button", 650.0, 200.0),
        ("A7", "A", "button", start_x - 40.0, 0.0),
        ("ball", "", "ball", start_x, 0.0),
        gaucha=True,
    )
    s.rest(3)
    return s


def _gaucha_offside(ball_to: float) -> Script:
    s = _gaucha_pass(-100.0)
    lance(s, "A7", (ball_to, -150.0), steps=10)
    return s


def _gaucha_received(start_x: float) -> Script:
    """A7 plays the ball from ``start_x`` onto A9."""
    s = _gaucha_pass(start_x)
    s.move(
        {"A7": (0, 2, (start_x - 20.0, 0.0)), "ball": (1, 8, (612.0, 180.0))},
        {2: [("A7", "ball", BALL)]},
    )
    s.move({"ball": (0, 2, (610.0, 178.0))}, {1: [("A9", "ball", BALL)]})
    s.rest(3)
    return s


def _consecutive(n: int) -> Script:
    s = roster(("A6", "A", "button", -400.0, 0.0), ("ball", "", "ball", -360.0, 0.0))
    s.rest(3)
    for k in range(n):
        bx = -360.0 + 60.0 * (k + 1)
        lance(s, "A6", (bx, 0.0))
        s.place("A6", (bx - 40.0, 0.0))
        s.rest(2)
    return s


def _collective(n: int) -> Script:
    """``n`` lances by A, two at a time per button, each touching the ball."""
    buttons = [f"A{k}" for k in range(3, 10)]
    s = roster(
        *[(b, "A", "button", -600.0, -500.0 + 60.0 * k) for k, b in enumerate(buttons)],
        ("ball", "", "ball", -500.0, 0.0),
    )
    s.rest(3)
    for k in range(n):
        piece = buttons[(k // 2) % len(buttons)]
        bx = -500.0 + 30.0 * (k + 1)
        s.place(piece, (bx - 40.0, 0.0))
        s.rest(2)
        lance(s, piece, (bx, 0.0))
    return s


def _hits_team_mate_first(chain_to_opponent: bool) -> Script:
    s = roster(
        ("A6", "A", "button", -200.0, 0.0),
        ("A7", "A", "button", -120.0, 0.0),
        ("B4", "B", "button", -40.0, 0.0),
        ("ball", "", "ball", -200.0, 300.0),
    )
    s.rest(3)
    motions = {"A6": (0, 3, (-170.0, 0.0)), "A7": (2, 5, (-90.0, 0.0))}
    contacts = {2: [("A6", "A7", HIT)]}
    if chain_to_opponent:
        motions["B4"] = (4, 7, (0.0, 0.0))
        contacts[4] = [("A7", "B4", HIT)]
    s.move(motions, contacts)
    s.rest(3)
    return s


def _miss() -> Script:
    s = roster(("A6", "A", "button", -200.0, 0.0), ("ball", "", "ball", -100.0, 100.0))
    s.rest(3)
    lance(s, "A6", None)
    return s


def _corner_then(direct_goal: bool) -> Script:
    """B's defender sends the ball out over its own goal line; A's corner goes straight in."""
    s = roster(
        ("B5", "B", "button", 850.0, 300.0),
        ("A9", "A", "button", 950.0, 700.0),
        ("ball", "", "ball", 890.0, 300.0),
    )
    s.place("B1", (990.0, 60.0))
    s.rest(3)
    lance(s, "B5", (1012.0, 400.0))
    s.place("ball", (990.0, 690.0))
    s.place("A9", (1000.0, 730.0))
    s.rest(3)
    if direct_goal:  # curling in: along the goal line, then in
        s.move(
            {"A9": (0, 2, (995.0, 720.0)), "ball": (1, 8, (990.0, 20.0))},
            {2: [("A9", "ball", BALL)]},
        )
        s.move({"ball": (0, 2, (1012.0, 0.0))})
        s.rest(3)
    else:
        lance(s, "A9", (700.0, 400.0), steps=10)
    return s


def _rolling(frames: int, then_out: bool) -> Script:
    s = roster(("A6", "A", "button", -600.0, 0.0), ("ball", "", "ball", -560.0, 0.0))
    s.rest(3)
    lance(s, "A6", (0.0, 300.0), steps=frames)
    if then_out:
        s.place("A6", (-40.0, 300.0))
        s.rest(2)
        lance(s, "A6", (0.0, 712.0))
    return s


NACIONAL = [
    Situation(
        "one lance each",
        "000 Art. 8",
        _one_lance,
        (("turn_over", "B", None, {"reason": "one lance each"}),),
    ),
    Situation(
        "the kick-off's two lances",
        "000 Art. 9",
        _kick_off_two_lances,
        (("turn_over", "B", None, {}),),
        options={"kick_off": True},
    ),
    Situation(
        "the ball stops in the goal area: goal kick",
        "000 Art. 13",
        _stops_in_goal_area,
        (("goalkeeper_ball", "B", None, {"restart": "goal_kick"}),),
    ),
    Situation(
        "foul in the beneficiary's half: two lances (indirect)",
        "000 Art. 18",
        lambda: _foul(300.0),
        (("foul", "A", "A7", {"restart": "indirect_free_kick"}),),
    ),
    Situation(
        "foul in the offender's half: direct",
        "000 Art. 18",
        lambda: _foul(-300.0),
        (("foul", "A", "A7", {"restart": "free_kick"}),),
    ),
    Situation(
        "foul inside the offender's penalty area",
        "000 Art. 19",
        lambda: _foul(-900.0),
        (("foul", "A", "A7", {"restart": "penalty"}),),
    ),
    Situation(
        "the ball enclosed by three players after the lance",
        "000 Art. 22 V-G",
        lambda: _shut_in(True),
        (
            ("ball_enclosed", "A", None, {}),
            ("technical_foul", "A", None, {"restart": "indirect_free_kick"}),
        ),
    ),
    Situation(
        "two players close it: no enclosure",
        "000 Art. 22 V-G",
        lambda: _shut_in(False),
        absent=("ball_enclosed",),
    ),
]

GAUCHA = [
    Situation("one lance each", "001 Art. I", _one_lance, (("turn_over", "B", None, {}),)),
    Situation(
        "the ball touching the touchline is out",
        "001 Art. XXXIV",
        _gaucha_touchline,
        (("ball_out", "B", "A7", {"restart": "throw_in", "line": "touch_far"}),),
    ),
    Situation(
        "a throw-in taken from the line is not out again",
        "001 Art. XXXIV § 2",
        _gaucha_throw_in,
        (("lance", "B", "B7", {"restart": "throw_in"}),),
    ),
    Situation(
        "the ball from the defence half passes the last defender: offside",
        "001 Art. XXXII § 1 b",
        lambda: _gaucha_offside(700.0),
        (("offside", "A", "A9", {"passer": "A7"}),),
    ),
    Situation(
        "the ball played on from the attacking half onto a team-mate beyond the last "
        "defender: no offside",
        "001 Art. XXXII § 1 b",
        lambda: _gaucha_received(150.0),
        absent=("offside",),
    ),
    Situation(
        "the same from the defence half: offside",
        "001 Art. XXXII § 1 b",
        lambda: _gaucha_received(-150.0),
        (("offside", "A", "A9", {"passer": "A7"}),),
    ),
    Situation(
        "the ball does not pass the last defender: no offside",
        "001 Art. XXXII § 4 b",
        lambda: _gaucha_offside(200.0),
        absent=("offside",),
    ),
    Situation(
        "the ball stops touching the goal area's line: the goalkeeper's ball",
        "001 Art. XXXV",
        lambda: _stops_in_goal_area(748.0, 0.0, gaucha=True),
        (("goalkeeper_ball", "B", None, {"restart": "goal_kick"}),),
    ),
    Situation(
        "three players close the ball in",
        "001 Art. XXIX l",
        lambda: _shut_in(True, gaucha=True),
        (("ball_enclosed", "A", None, {}),),
        absent=("technical_foul",),
    ),
]

PAULISTA = [
    Situation(
        "a fourth consecutive touch by one button",
        "002 Do acionamento 3",
        lambda: _consecutive(4),
        (("touch_limit", "A", "A6", {"restart": "indirect_free_kick", "awarded_to": "B"}),),
    ),
    Situation(
        "three consecutive touches are allowed",
        "002 Do acionamento 3",
        lambda: _consecutive(3),
        absent=("touch_limit",),
    ),
    Situation(
        "the twelfth touch with no shot",
        "002 Do acionamento 2",
        lambda: _collective(12),
        (("touch_limit", "A", None, {"reason": "12 touches and no shot"}),),
    ),
    Situation(
        "eleven touches", "002 Do acionamento 2", lambda: _collective(11), absent=("touch_limit",)
    ),
    Situation(
        "the flicked button hits a team-mate before the ball: possession changes",
        "002 Do acionamento 10",
        lambda: _hits_team_mate_first(False),
        (
            (
                "turn_over",
                "B",
                None,
                {"reason": "the flicked button hit a team-mate before the ball"},
            ),
        ),
        absent=("foul",),
    ),
    Situation(
        "the team-mate it set moving hits an opponent: foul",
        "002 Do acionamento 11",
        lambda: _hits_team_mate_first(True),
        (("foul", "A", "A7", {"chained": True, "victim": "B4"}),),
    ),
    Situation(
        "a foul in the beneficiary's defence half: indirect",
        "002 Do tiro livre direto 1",
        lambda: _foul(300.0),
        (("foul", "A", "A7", {"restart": "indirect_free_kick"}),),
    ),
    Situation(
        "the ball stops in the opponent's goal area: possession lost",
        "000 (c) DA POSSE DE BOLA V",
        _stops_in_goal_area,
        (("goalkeeper_ball", "B", None, {}), ("turn_over", "B", None, {})),
    ),
    Situation(
        "furada",
        "002 Da furada 1",
        _miss,
        (("furada", "A", "A6", {}), ("turn_over", "B", None, {"reason": "furada"})),
    ),
]

MESA_POSTA = [
    Situation(
        "a flick that misses the ball passes the turn",
        "003 A tua vez",
        _miss,
        (("turn_over", "B", None, {"reason": "the flick missed the ball"}),),
    ),
    Situation(
        "seven touches a turn",
        "003 A tua vez",
        lambda: _consecutive(7),
        (("turn_over", "B", None, {"reason": "7 touches used"}),),
        absent=("touch_limit",),
    ),
    Situation(
        "a foul on the goalkeeper gives it the kick",
        "003 A bola do guarda-redes",
        lambda: _foul(300.0, victim_kind="goalkeeper"),
        (("foul", "A", "A7", {"restart": "goal_kick"}),),
    ),
    Situation(
        "a foul inside the offender's area is a penalty",
        "003 Penáltis",
        lambda: _foul(-900.0),
        (("foul", "A", "A7", {"restart": "penalty"}),),
    ),
    Situation(
        "the ball stops in a goal area: that goalkeeper's ball",
        "003 A bola do guarda-redes",
        _stops_in_goal_area,
        (("goalkeeper_ball", "B", None, {"restart": "goal_kick"}),),
    ),
    Situation(
        "an unannounced goal does not count",
        "003 Remates anunciados",
        lambda: _shot_mesa(),
        absent=("goal",),
        annotations={"format": "annotations/1", "items": []},
    ),
    Situation(
        "a direct corner counts unannounced (golo olímpico)",
        "003 Remates anunciados",
        lambda: _corner_then(True),
        (("ball_out", "A", "B5", {"restart": "corner"}), ("goal", "A", "A9", {})),
        annotations={"format": "annotations/1", "items": []},
    ),
]


def _shot_mesa() -> Script:
    s = roster(("A9", "A", "button", 850.0, 0.0), ("ball", "", "ball", 890.0, 0.0))
    s.place("B1", (990.0, 60.0))
    s.rest(3)
    lance(s, "A9", (1012.0, 0.0))
    return s


@pytest.mark.parametrize("sit", NACIONAL, ids=lambda s: s.name)
def test_nacional(sit: Situation) -> None:
    check("nacional", sit)


@pytest.mark.parametrize("sit", GAUCHA, ids=lambda s: s.name)
def test_gaucha(sit: Situation) -> None:
    check("gaucha", sit)


@pytest.mark.parametrize("sit", PAULISTA, ids=lambda s: s.name)
def test_paulista(sit: Situation) -> None:
    check("paulista", sit)


@pytest.mark.parametrize("sit", MESA_POSTA, ids=lambda s: s.name)
def test_mesa_posta(sit: Situation) -> None:
    check("mesa-posta", sit)


def test_mesa_posta_unannounced_goal_gives_a_goal_kick() -> None:
    events = run("mesa-posta", _shot_mesa(), {"format": "annotations/1", "items": []})
    (goal,) = [e for e in events if e["type"] == "goal"]
    assert not goal["holds"] and goal["evidence"]["restart"] == "goal_kick"
    assert goal["article"].startswith("003 Remates anunciados")


def test_gaucha_throw_in_is_one_ball_out() -> None:
    events = run("gaucha", _gaucha_throw_in())
    assert len(find(events, "ball_out")) == 1


def test_gaucha_enclosure_kept_three_lances_is_a_technical_foul() -> None:
    """001 Art. XXIX l: the enclosing coach must open it in his next lance."""
    s = _shut_in(True, gaucha=True)
    lance(s, "B6", None)  # B's lance elsewhere (a miss)
    s.move({"A5": (0, 3, (20.0, -60.0))})  # A's lance leaves it shut
    s.place("A5", (34.64, -20.0))
    s.rest(3)
    events = run("gaucha", s)
    assert find(events, "technical_foul", "A")


def test_no_offside_in_rule_sets_without_it() -> None:
    for rules in ("nacional", "paulista", "mesa-posta"):
        assert not find(run(rules, _gaucha_like_offside()), "offside"), rules


def _gaucha_like_offside() -> Script:
    s = roster(
        ("B3", "B", "button", 600.0, 200.0),
        ("A9", "A", "button", 750.0, -200.0),
        ("A6", "A", "button", 150.0, 0.0),
        ("ball", "", "ball", 200.0, 0.0),
    )
    s.rest(3)
    lance(s, "A6", (300.0, 0.0))
    s.place("A6", (260.0, -10.0))
    s.rest(2)
    lance(s, "A6", (715.0, -190.0), hits=[("A9", "ball", BALL)], steps=8)
    return s


def test_mesa_posta_clock_runs_only_while_the_ball_rolls() -> None:
    """003 O jogo: time is up after one minute of rolling; the half ends at the next dead ball."""
    s = _rolling(40, then_out=True)  # 40 frames of rolling at 30 fps > 1 s
    events = run("mesa-posta", s, half_s=1.0, kick_off=True)
    (up,) = find(events, "time_up")
    (half,) = find(events, "half_time")
    (out,) = find(events, "ball_out")
    assert up["frame"] < out["frame"] == half["frame"]
    assert half["evidence"]["teams"] == {"A": "right", "B": "left"}
    assert half["team"] == "B"  # "a outra equipa começa a segunda"
    # Resting frames do not count: 30 frames of rolling do not reach 1 s.
    assert not find(run("mesa-posta", _rolling(28, then_out=False), half_s=1.0), "time_up")


def _second_half(
    changed: bool,
    keeper_a_x: float | None = None,
    places: dict[str, tuple[float, float]] | None = None,
) -> Script:
    """Mesa-posta's first half runs out (as ``_rolling``); B kicks the second half off and
    sends the ball over A's goal line outside the posts. ``changed``: the coaches changed ends
    at the break (the pieces turned round the halfway line); ``keeper_a_x``: A's keeper stands
    that far (mm) from the centre towards B's goal instead; ``places``: pieces put elsewhere."""
    s = roster(
        ("A6", "A", "button", -600.0, 0.0),
        ("B10", "B", "button", 300.0, -300.0),
        ("ball", "", "ball", -560.0, 0.0),
    )
    s.rest(3)
    lance(s, "A6", (0.0, 300.0), steps=40)
    s.place("A6", (-40.0, 300.0))
    s.rest(2)
    lance(s, "A6", (0.0, 712.0))  # out: the half ends
    a_side = 1.0 if changed else -1.0  # +x: A defends the right goal
    for pid in ("A1", "B1", "A2", "B2"):
        x, y = s.xy[s.index(pid)]
        s.place(pid, (abs(float(x)) * (a_side if pid[0] == "A" else -a_side), float(y)))
    s.place("A6", (400.0 * a_side, 300.0))
    if keeper_a_x is not None:
        s.place("A1", (-keeper_a_x * a_side, 0.0))
    s.place("B10", (-45.0 * a_side, 0.0))
    s.place("ball", (0.0, 0.0))
    for pid, xy in (places or {}).items():
        s.place(pid, xy)
    s.rest(3)
    lance(s, "B10", (1015.0 * a_side, 400.0), steps=20)
    return s


@pytest.mark.parametrize(
    ("changed", "keeper_a_x", "read_from"),
    [
        (False, None, "goalkeepers"),  # a friendly that stayed where it was
        (True, None, "goalkeepers"),  # the texts' change of ends
        (False, 300.0, "pieces"),  # A's keeper out in B's half: the teams' means tell
        (True, 300.0, "pieces"),
    ],
)
def test_second_half_ends_are_read_at_its_kick_off(
    changed: bool, keeper_a_x: float | None, read_from: str
) -> None:
    """003 (a outra equipa começa a segunda): the engine assumes the change of ends the texts
    prescribe until the second half's kick-off, where the goalkeepers (or each team's pieces)
    show the ends; a ball B sends over A's goal line outside the posts is A's goal kick."""
    events = run("mesa-posta", _second_half(changed, keeper_a_x), half_s=1.0, kick_off=True)
    (half,) = find(events, "half_time")
    assert half["evidence"]["teams"] == {"A": "right", "B": "left"}  # the texts' assumption
    (ends,) = find(events, "ends")
    side = "right" if changed else "left"
    assert ends["evidence"]["teams"]["A"] == side
    assert ends["evidence"]["read_from"] == read_from
    assert ends["evidence"]["changed_ends"] is changed
    assert ends["frame"] > half["frame"]
    outs = find(events, "ball_out")
    assert outs[-1]["frame"] > ends["frame"]
    assert outs[-1]["evidence"]["restart"] == "goal_kick"
    assert outs[-1]["team"] == "A"


def test_second_half_ends_stay_assumed_when_nothing_tells() -> None:
    """Both keepers and both teams' pieces on one half at the kick-off: the ends cannot be
    read; the texts' change of ends stays and the event says it was assumed."""
    s = _second_half(
        False, places={"A1": (300.0, 0.0), "A2": (500.0, -400.0), "A6": (400.0, 300.0)}
    )
    events = run("mesa-posta", s, half_s=1.0, kick_off=True)
    (ends,) = find(events, "ends")
    assert ends["evidence"]["read_from"] == "assumed"
    assert ends["evidence"]["teams"] == {"A": "right", "B": "left"}
    assert ends["evidence"]["as_assumed"] is True


def test_wall_clock_half_ends_when_the_lance_is_over() -> None:
    """000 Art. 8 / REGRA 7: the alarm during a lance lets it finish; sides swap."""
    s = _rolling(40, then_out=False)
    events = run("brasileira", s, half_s=1.0)
    (up,) = find(events, "time_up")
    (half,) = find(events, "half_time")
    stopped = find(events, "ball_stopped")[-1]
    assert up["frame"] < half["frame"] == stopped["frame"]
