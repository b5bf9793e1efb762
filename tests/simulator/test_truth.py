"""The perfect referee and the scenario files: every scenario's headline event happens."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geometry.field import FieldModel
from geometry.lines import ball_out_margin, goal_margins
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.scenario import ScenarioError, load_scenario, run_scenario, scenario_runner
from simulator.state import Contact, FrameTruth
from simulator.truth import COLLISION_SLOP_MM, Referee, TruthWriter, ball_blocked_by

SCENARIOS = sorted((Path(__file__).parents[2] / "samples" / "scenarios").glob("*.json"))
TABLE = load_table("brasileira")
FIELD = FieldModel(TABLE)


def test_every_required_scenario_exists() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {
        "kick_off",
        "goal",
        "near_miss",
        "ball_out_touchline",
        "corner",
        "foul",
        "blocked",
        "offside",
        "hand_rest",
    } <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_headline_event(path: Path) -> None:
    sc = load_scenario(path)
    runner, frames = scenario_runner(sc, fps=30.0)
    n_hands = sum(bool(ft.hands) for ft in frames)
    types = [e["type"] for e in runner.events]
    for t in sc.expect.get("events", []):
        assert t in types, f"{sc.name}: expected a {t} event, got {types}"
    for t in sc.expect.get("absent", []):
        assert t not in types, f"{sc.name}: unexpected {t} event"
    if "restart" in sc.expect:
        out = next(e for e in runner.events if e["type"] == "ball_out")
        assert out["evidence"]["restart"] == sc.expect["restart"]
    if sc.expect.get("hands"):
        assert n_hands >= 30 * 2  # two seconds of a resting hand at 30 fps
    if sc.expect.get("stops_on_goal_line"):
        stop = [e for e in runner.events if e["type"] == "ball_stopped"][-1]
        assert -10.0 < stop["margin_mm"] < 0.0  # on the line, not wholly past it (REGRA 10)
    for e in runner.events:
        assert e["format"] == "event/1" and set(e) >= {
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


def test_goal_event_fields() -> None:
    runner, frames = scenario_runner(
        load_scenario(SCENARIOS[[p.stem for p in SCENARIOS].index("goal")])
    )
    list(frames)
    goal = next(e for e in runner.events if e["type"] == "goal")
    assert goal["team"] == "A" and goal["piece"] == "A9"
    assert goal["article"] == "000 REGRA 10"
    assert goal["margin_mm"] > 0


def test_run_scenario_yields_frames_at_fps() -> None:
    frames = list(run_scenario(SCENARIOS[0], fps=25.0))
    assert [f.frame for f in frames[:3]] == [0, 1, 2]
    assert frames[1].t == pytest.approx(0.04)
    assert frames[-1].t == pytest.approx(load_scenario(SCENARIOS[0]).duration_s)


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"format": "scene/1"}, "format"),
        ({"actions": [{"t": 1, "type": "jump"}]}, "type"),
        ({"actions": [{"t": 1, "type": "flick", "piece": "Z9"}]}, "piece"),
    ],
)
def test_bad_scenarios_name_the_field(tmp_path: Path, patch: dict, message: str) -> None:
    data = json.loads(SCENARIOS[0].read_text())
    data.update(patch)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ScenarioError, match=message):
        load_scenario(bad)


def _frame(
    xy: list[tuple[float, float]], contacts: tuple[Contact, ...] = (), flicked: tuple[str, ...] = ()
) -> FrameTruth:
    p = Pieces(
        np.array(["A7", "B7", "ball"]),
        np.array(["A", "B", ""]),
        np.array(["button", "button", "ball"]),
        np.array(xy),
        np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]]),
    )
    return FrameTruth(
        0, 0.0, p, np.zeros((3, 2)), np.zeros(3, bool), contacts=contacts, flicked=flicked
    )


def test_goal_is_judged_where_the_ball_crossed() -> None:
    # A ball seen 16 mm short of wholly past the right goal line (outer edge at x 1000)
    # moving at 45 deg crosses well between the posts (|y| < 73) and is seen next frame past
    # the line but 2 mm beside the post's inner face, having been turned by the net: goal
    # (000 REGRA 10), judged where it crossed. Without the earlier frame it is an out.
    ref = Referee(TABLE)
    ref.last_touch = "A7"
    before = _frame([(-500.0, 0.0), (500.0, 0.0), (989.0, 40.0)])
    moving = FrameTruth(
        0, 0.0, before.pieces, np.array([[0.0, 0.0], [0.0, 0.0], [700.0, 700.0]]), before.moving
    )
    ref.update(moving)
    net = (Contact(0.0, "ball", "net", "ball-net"),)
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), (1012.0, 70.0)], net))
    goals = [e for e in ev if e["type"] == "goal"]
    assert len(goals) == 1 and goals[0]["team"] == "A"
    assert 1004.9 < goals[0]["evidence"]["ball"][0] < 1005.2  # wholly past the outer edge
    lone = Referee(TABLE)
    lone.last_touch = "A7"
    ev = lone.update(_frame([(-500.0, 0.0), (500.0, 0.0), (1012.0, 70.0)], net))
    assert [e["type"] for e in ev if e["type"] in ("goal", "ball_out")] == ["ball_out"]


def test_a_ball_placed_on_a_touchline_is_not_out_again_until_it_was_in() -> None:
    # gaúcha: touching the touchline is out (001 Art. XXXIV), but a throw-in is taken with the
    # ball "rigorosamente sobre a linha" (§ 2): the ball placed there and flicked is not out
    # at once; rolling back over the line after being in is.
    ref = Referee(TABLE, "gaucha")
    on_line = (0.0, -702.0)  # on the near touchline (its strip from y -700 to -698)
    ref.in_play = False
    ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), on_line]))
    ref.in_play = True
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), on_line], flicked=("A7",)))
    assert [e for e in ev if e["type"] == "ball_out"] == []
    ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), (0.0, -650.0)]))
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), on_line]))
    assert [e["type"] for e in ev if e["type"] == "ball_out"] == ["ball_out"]


def test_a_ball_placed_on_a_touchline_is_out_once_wholly_beyond_it() -> None:
    # gaúcha: the throw-in placed on the line (001 Art. XXXIV § 2) is not out by touching it,
    # but "a bola ultrapassa ... a linha" (Art. XXXIV) is out as soon as it is wholly beyond
    # it, not only once the rail returns it.
    ref = Referee(TABLE, "gaucha")
    on_line = (0.0, -702.0)
    ref.in_play = False
    ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), on_line]))
    ref.in_play = True
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), (10.0, -703.0)], flicked=("A7",)))
    assert [e for e in ev if e["type"] == "ball_out"] == []
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), (12.0, -712.0)]))
    assert [e["evidence"]["restart"] for e in ev if e["type"] == "ball_out"] == ["throw_in"]


@pytest.mark.parametrize(
    ("ball_xy", "last", "kind", "restart", "team"),
    [
        ((0.0, 706.0), "A7", "ball_out", "throw_in", "B"),
        ((0.0, 704.0), "A7", None, None, None),  # still touching the line: in play
        ((1006.0, 0.0), "A7", "goal", None, "A"),
        ((1004.0, 0.0), "A7", None, None, None),  # on the goal line: no goal
        ((1006.0, 300.0), "B7", "ball_out", "corner", "A"),
        ((1006.0, 300.0), "A7", "ball_out", "goal_kick", "B"),
        # By a corner: wholly outside the field box (5.66 mm from it) though within 5 mm of
        # each line's outer edge; lines to their outer edges, as geometry.lines measures.
        ((1004.0, 704.0), "A7", "ball_out", "throw_in", "B"),
        ((1004.0, 703.0), "A7", None, None, None),  # exactly 5 mm: still touching the corner
        ((1006.0, 68.0), "A7", "goal", None, "A"),  # wholly inside the posts' inner faces
        ((1006.0, 69.0), "A7", "ball_out", "goal_kick", "B"),  # 1 mm outside them
        # against a post's inner face, sunk 0.08 mm into it (pymunk's collision slop, 0.1 mm:
        # gaucha seed 38, frame 4160, the ball turned into the goal off the post): within
        ((1006.0, 68.08), "A7", "goal", None, "A"),
        ((1006.0, 68.2), "A7", "ball_out", "goal_kick", "B"),  # 0.2 mm: beyond the slop
    ],
)
def test_referee_lines(ball_xy, last, kind, restart, team) -> None:
    ref = Referee(TABLE)
    ref.last_touch = last
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), ball_xy]))
    called = [e for e in ev if e["type"] in ("goal", "ball_out")]
    if kind is None:
        assert called == []
    else:
        assert called[0]["type"] == kind and called[0]["team"] == team
        if restart:
            assert called[0]["evidence"]["restart"] == restart


@pytest.mark.parametrize(
    ("order", "throw_in_to"),
    [
        (("B7", "A7", "B7"), "A"),  # squeezed: B7 on it again last (its bounce, one touch)
        (("A7", "B7", "A7"), "B"),  # the mirror
        (("B7", "A7"), "B"),  # A7's touch last
        (("A7", "A7"), "B"),  # a bounce on one piece
    ],
)
def test_the_last_piece_on_a_squeezed_ball_takes_the_blame(
    order: tuple[str, ...], throw_in_to: str
) -> None:
    # nacional's ten minutes, seed 35, frame 7883: the ball between B6 and A5, B6 on it at
    # 262.733 s, A5 at 262.746, B6 again at 262.763 (B6's bounce, merged into its touch, so
    # not a touch of its own): out over the goal line, the corner went to B, against A5,
    # whose touch was not the last (000 Art. 9: "contrária àquela do jogador em que a bola
    # tocou por último")
    ref = Referee(TABLE)
    ref.last_touch = "A7"
    contacts = tuple(Contact(0.01 * k, p, "ball", "piece-ball") for k, p in enumerate(order))
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), (0.0, 300.0)], contacts))
    assert [e["piece"] for e in ev if e["type"] == "touch"] == list(dict.fromkeys(order))
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), (0.0, 706.0)]))
    out = [e for e in ev if e["type"] == "ball_out"]
    assert len(out) == 1 and out[0]["evidence"]["restart"] == "throw_in"
    assert out[0]["team"] == throw_in_to


def _rolling(
    k: int, ball_xy: tuple[float, float], contacts: tuple[Contact, ...] = ()
) -> FrameTruth:
    """Frame ``k`` (30 frames/s): A7 far off, B7 on the near touchline at x 40, the ball
    at ``ball_xy`` rolling toward that line at 900 mm/s."""
    f = _frame([(-500.0, 0.0), (40.0, -709.0), ball_xy], contacts)
    v = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, -900.0]])
    return FrameTruth(k, k / 30.0, f.pieces, v, f.moving, contacts=contacts)


@pytest.mark.parametrize(
    ("touch_at", "ball_after", "last", "throw_in_to"),
    [
        (0.8, (0.0, -712.0), "A7", "B"),  # wholly out (y < -705) at 0.56 of the frame: dead
        (0.8, (0.0, -695.0), "A7", "B"),  # ... and out, though B7 sent it back in by the end
        (0.3, (0.0, -712.0), "B7", "A"),  # failure row: B7 touched it in the field
    ],
)
def test_a_touch_after_the_ball_was_wholly_out_is_not_its_last(
    touch_at: float, ball_after: tuple[float, float], last: str, throw_in_to: str
) -> None:
    # mesa-posta's ten minutes, seed 46, frame 15234: the ball 6.7 mm wholly past the touchline
    # when it struck B3 standing on it; judged at the frame, the throw-in went against B3.
    # 000 REGRA 9 A: out once wholly past the line; what touches it then meets a dead ball
    # (rules.engine's LineJudge: the same, tests/rules/engine/test_line_timing.py).
    ref = Referee(TABLE)
    ref.last_touch = "A7"
    ref.update(_rolling(0, (0.0, -690.0)))
    touch = (Contact(touch_at / 30.0, "B7", "ball", "piece-ball"),)
    ev = ref.update(_rolling(1, ball_after, touch))
    assert [e["piece"] for e in ev if e["type"] == "touch"] == ["B7"]
    out = [e for e in ev if e["type"] == "ball_out"]
    assert len(out) == 1 and out[0]["evidence"]["restart"] == "throw_in"
    assert (out[0]["piece"], out[0]["team"]) == (last, throw_in_to)


def test_a_ball_put_down_since_the_last_frame_has_no_way_to_be_out_on() -> None:
    # a restart's ball placed between frames: its last frame's place and velocity say nothing
    ref = Referee(TABLE)
    ref.last_touch = "A7"
    ref.update(_rolling(0, (300.0, -690.0)))  # (900 mm/s would take it out in this frame)
    touch = (Contact(0.8 / 30.0, "B7", "ball", "piece-ball"),)
    ev = ref.update(_rolling(1, (0.0, 200.0), touch))  # 350 mm away: put down elsewhere
    assert [e for e in ev if e["type"] == "ball_out"] == []


def test_net_touch_is_no_call() -> None:
    # The net's ends behind the posts can be touched from the field, and from inside the goal
    # the ball is still crossing the line: neither is an out (only a rail touch is).
    for ball_xy in [(991.5, 79.0), (1003.0, 60.0)]:
        ref = Referee(TABLE)
        ref.last_touch = "A7"
        net = (Contact(0.0, "ball", "net", "ball-net"),)
        ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), ball_xy], net))
        assert [e["type"] for e in ev if e["type"] in ("goal", "ball_out")] == []
    ref = Referee(TABLE)
    rail = (Contact(0.0, "ball", "rail", "ball-rail"),)
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), (0.0, 690.0)], rail))
    assert [e["type"] for e in ev if e["type"] == "ball_out"] == ["ball_out"]


@settings(max_examples=300, deadline=None)
@given(st.floats(-1020.0, 1020.0), st.floats(-720.0, 720.0))
def test_referee_agrees_with_the_line_margins(x: float, y: float) -> None:
    # Invariant: the referee's goal and out are the rules engine's (geometry.lines) verdicts,
    # but for a ball sunk into a post by the physics' collision slop (within the posts).
    ref = Referee(TABLE)
    ref.last_touch = "A7"
    ev = ref.update(_frame([(-500.0, 0.0), (500.0, 0.0), (x, y)]))
    called = {e["type"] for e in ev} & {"goal", "ball_out"}
    side = "right" if x > 0 else "left"
    line, posts = (float(v[0]) for v in goal_margins((x, y), 5.0, FIELD, side))
    goal = line > 0.0 and posts >= -COLLISION_SLOP_MM
    out = not goal and float(ball_out_margin((x, y), 5.0, FIELD)[0][0]) > 0.0
    assert called == ({"goal"} if goal else {"ball_out"} if out else set())


def test_foul_only_before_the_ball() -> None:
    ref = Referee(TABLE)
    ref.update(_frame([(0.0, 0.0), (100.0, 0.0), (300.0, 0.0)], flicked=("A7",)))
    ev = ref.update(
        _frame(
            [(40.0, 0.0), (100.0, 0.0), (300.0, 0.0)], (Contact(0.1, "A7", "B7", "piece-piece"),)
        )
    )
    assert [e["type"] for e in ev] == ["contact", "foul"]
    assert ev[1]["evidence"]["awarded_to"] == "B"
    ref = Referee(TABLE)
    ref.update(_frame([(0.0, 0.0), (100.0, 0.0), (300.0, 0.0)], flicked=("A7",)))
    ev = ref.update(
        _frame(
            [(40.0, 0.0), (100.0, 0.0), (300.0, 0.0)],
            (Contact(0.1, "A7", "ball", "piece-ball"), Contact(0.2, "A7", "B7", "piece-piece")),
        )
    )
    assert "foul" not in [e["type"] for e in ev]


def test_ball_blocked_by_pocket() -> None:
    ids = np.array(["B5", "B6", "B7", "ball"])
    ang = np.radians([0, 120, 240])
    xy = np.vstack([np.stack([38 * np.cos(ang), 38 * np.sin(ang)], 1), [[0.0, 0.0]]])
    p = Pieces(
        ids,
        np.array(["B", "B", "B", ""]),
        np.array(["button"] * 3 + ["ball"]),
        xy,
        np.array([[60.0, 60.0]] * 3 + [[10.0, 10.0]]),
    )
    assert ball_blocked_by(p, "B")
    wide = Pieces(ids, p.team, p.kind, xy * np.array([[3.0], [3.0], [3.0], [1.0]]), p.size_mm)
    assert not ball_blocked_by(wide, "B")


def test_truth_writer_files(tmp_path: Path) -> None:
    sc = load_scenario(SCENARIOS[[p.stem for p in SCENARIOS].index("goal")])
    _, frames = scenario_runner(sc)
    with TruthWriter(tmp_path, sc.table) as w:
        for ft in frames:
            w.write(ft)
    rows = (tmp_path / "truth.csv").read_text().splitlines()
    assert rows[0] == "frame,t,id,team,kind,x,y,vx,vy,moving,contact"
    assert len(rows) == 1 + 91 * len(sc.pieces)
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert "goal" in [e["type"] for e in events]
    contacts = [json.loads(line) for line in (tmp_path / "contacts.jsonl").read_text().splitlines()]
    assert any(c["kind"] == "piece-ball" for c in contacts)


def _gaucha_frame(
    k: int,
    ball: tuple[float, float],
    contacts: tuple[Contact, ...] = (),
    flicked: tuple[str, ...] = (),
) -> FrameTruth:
    """A7 plays, A9 waits beyond B's last outfield button (B5) with only the goalkeeper ahead."""
    p = Pieces(
        np.array(["A7", "A9", "B5", "B1", "ball"]),
        np.array(["A", "A", "B", "B", ""]),
        np.array(["button", "button", "button", "goalkeeper", "ball"]),
        np.array([(ball[0] - 40.0, 0.0), (650.0, 200.0), (300.0, 0.0), (990.0, 0.0), ball]),
        np.array([[60.0, 60.0], [60.0, 60.0], [60.0, 60.0], [70.0, 15.0], [10.0, 10.0]]),
    )
    v, moving = np.zeros((5, 2)), np.zeros(5, bool)
    return FrameTruth(k, k / 30.0, p, v, moving, contacts=contacts, flicked=flicked)


@pytest.mark.parametrize(("start_x", "called"), [(-100.0, True), (100.0, False), (0.0, False)])
def test_gaucha_offside_needs_a_ball_played_from_the_defence_half(
    start_x: float, called: bool
) -> None:
    # 001 Art. XXXII § 1 b: "que a bola parta do campo de defesa para o ataque e ultrapasse o
    # último jogador adversário"; a ball played on from the attacking half (gaucha's ten
    # minutes, frame 7322) or from the halfway line makes no offside. 000 REGRA 11 asks
    # nothing of the ball's start: the brasileira referee calls both (on the coach's second
    # lance: the first is exempt, 000 REGRA 11 D).
    for rules, want in (("gaucha", called), ("brasileira", True)):
        ref = Referee(TABLE, rules)
        ref.update(_gaucha_frame(0, (start_x, 0.0), flicked=("A7",)))
        hit = (Contact(0.04, "A7", "ball", "piece-ball", 500.0),)
        ref.update(_gaucha_frame(1, (start_x, 0.0), hit, flicked=("A7",)))
        got = ref.update(
            _gaucha_frame(2, (615.0, 190.0), (Contact(0.07, "A9", "ball", "piece-ball", 300.0),))
        )
        assert any(e["type"] == "offside" for e in got) == want, rules


@pytest.mark.parametrize(("ball_x", "called"), [(420.0, True), (250.0, False)])
def test_gaucha_offside_when_the_ball_passes_the_last_defender(ball_x: float, called: bool) -> None:
    # 001 Art. XXXII § 1 b: the offside is the ball passing the last outfield defender with
    # a team-mate wholly past it, whoever the ball then reaches (the rules engine's call);
    # 000 REGRA 11 B asks that the button in offside position receive the ball: brasileira
    # calls nothing of a ball that rolls past without reaching it. Failure row: the ball
    # short of the last defender.
    for rules, want in (("gaucha", called), ("brasileira", False)):
        ref = Referee(TABLE, rules)
        ref.update(_gaucha_frame(0, (-100.0, 0.0)))
        hit = (Contact(0.04, "A7", "ball", "piece-ball", 500.0),)
        ref.update(_gaucha_frame(1, (-100.0, 0.0), hit, flicked=("A7",)))
        got = ref.update(_gaucha_frame(2, (ball_x, -200.0)))
        off = [e for e in got if e["type"] == "offside"]
        assert [(e["team"], e["piece"]) for e in off] == ([("A", "A9")] if want else []), rules


@pytest.mark.parametrize(
    ("before", "keeper_first", "called"),
    [
        (("A7",), False, True),  # the coach's second lance: offside (000 REGRA 11 B)
        ((), False, False),  # the match's first lance (exception D)
        (("B5",), False, False),  # A's first lance after B's (exception D)
        (("A7",), True, False),  # B's goalkeeper touched the ball first (exception E)
    ],
)
def test_offside_exceptions_first_lance_and_goalkeeper(
    before: tuple[str, ...], keeper_first: bool, called: bool
) -> None:
    # 000 REGRA 11 B with its exceptions D ("no primeiro lance do técnico") and E ("após uma
    # rebatida do goleiro adversário"), as rules.engine reads them: A9 past B's second-last
    # defender receives A7's ball in A's own half.
    ref = Referee(TABLE, "brasileira")
    ref.update(_gaucha_frame(0, (-100.0, 0.0), flicked=before))
    hit = (Contact(0.04, "A7", "ball", "piece-ball", 500.0),)
    ref.update(_gaucha_frame(1, (-100.0, 0.0), hit, flicked=("A7",)))
    if keeper_first:
        ref.update(
            _gaucha_frame(2, (900.0, 0.0), (Contact(0.07, "B1", "ball", "piece-ball", 1.0),))
        )
    got = ref.update(
        _gaucha_frame(3, (615.0, 190.0), (Contact(0.1, "A9", "ball", "piece-ball", 300.0),))
    )
    off = [(e["team"], e["piece"]) for e in got if e["type"] == "offside"]
    assert off == ([("A", "A9")] if called else [])
