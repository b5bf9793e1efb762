"""The engine's inputs: frame records (shapes checked, errors say expected vs actual),
annotations (every error names the item and field), profiles and options."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from geometry.pieces import Pieces
from geometry.tablespec import load_table
from rules.engine import (
    EVENT_TYPES,
    PROFILES,
    AnnotationError,
    Annotations,
    Contacts,
    EngineOptions,
    FrameState,
    RuleEngine,
    StateError,
    get_profile,
    load_annotations,
    make_event,
)
from rules.rulesets import RULESETS


def _pieces(n_ball: int = 1) -> Pieces:
    ids = ["A7", "B4"] + ["ball"] * n_ball
    kind = ["button", "button"] + ["ball"] * n_ball
    team = ["A", "B"] + [""] * n_ball
    xy = np.zeros((len(ids), 2))
    size = np.array([[60.0, 60.0]] * 2 + [[10.0, 10.0]] * n_ball)
    return Pieces(np.array(ids), np.array(team), np.array(kind), xy, size)


def test_frame_state_checks_shapes() -> None:
    p = _pieces()
    ok = FrameState(0, 0.0, p, np.zeros((3, 2)), np.zeros(3, bool))
    assert ok.present.all() and len(ok.contacts) == 0 and ok.ball_index == 2
    with pytest.raises(StateError, match=r"v_mm_s: expected shape \(3, 2\), got \(2, 2\)"):
        FrameState(0, 0.0, p, np.zeros((2, 2)), np.zeros(3, bool))
    with pytest.raises(StateError, match=r"moving: expected shape \(3,\), got \(4,\)"):
        FrameState(0, 0.0, p, np.zeros((3, 2)), np.zeros(4, bool))
    with pytest.raises(StateError, match=r"present: expected shape \(3,\), got \(2,\)"):
        FrameState(0, 0.0, p, np.zeros((3, 2)), np.zeros(3, bool), present=np.ones(2, bool))
    with pytest.raises(StateError, match="expected exactly one ball, got 2"):
        FrameState(0, 0.0, _pieces(2), np.zeros((4, 2)), np.zeros(4, bool))
    with pytest.raises(StateError, match="expected a Contacts record, got list"):
        FrameState(0, 0.0, p, np.zeros((3, 2)), np.zeros(3, bool), contacts=[])  # type: ignore[arg-type]


def test_contacts_columns() -> None:
    with pytest.raises(StateError, match=r"Contacts.t_s: expected shape \(2,\), got \(1,\)"):
        Contacts([1, 2], [0.1], ["A7", "A7"], ["ball", "B4"], ["piece-ball", "piece-piece"])
    c = Contacts.from_rows(
        [(3, 0.2, "A7", "B4", "piece-piece"), (3, 0.1, "A7", "ball", "piece-ball")]
    )
    assert [r[1] for r in c.rows()] == [0.1, 0.2]  # time order


def test_engine_rejects_out_of_order_frames_and_bad_teams() -> None:
    table = load_table("brasileira")
    with pytest.raises(ValueError, match="teams: expected two teams defending left and right"):
        RuleEngine(table, "brasileira", {"A": "left", "B": "left"})
    with pytest.raises(ValueError, match="lag_frames: expected 0, 1 or 2, got 3"):
        EngineOptions(lag_frames=3)
    engine = RuleEngine(table, "brasileira")
    f = FrameState(5, 0.1, _pieces(), np.zeros((3, 2)), np.zeros(3, bool))
    engine.update(f)
    with pytest.raises(ValueError, match="frames must increase, got 5 after 5"):
        engine.update(f)


def test_annotations_parse_and_name_the_field(tmp_path: Path) -> None:
    doc = {
        "format": "annotations/1",
        "items": [
            {"type": "kick_off", "team": "B"},
            {"type": "shot_announced", "frame": 30, "team": "A", "piece": "A9"},
            {"type": "keeper_placed", "t": 1.5, "team": "B"},
            {"type": "decision", "frame": 400, "event": "goal", "holds": False, "note": "hand"},
        ],
    }
    path = tmp_path / "ann.json"
    path.write_text(json.dumps(doc), "utf-8")
    a = load_annotations(path)
    assert a.kick_off == "B"
    assert not a.take_shot("A", "A9", 29, 0.97)  # announced later
    assert not a.take_shot("A", "A8", 31, 1.0)  # another button
    assert a.take_shot("A", "A9", 31, 1.0) and not a.take_shot("A", "A9", 32, 1.1)
    assert a.take_keeper("B", 46, 1.5)
    d = a.decision_for("goal", 410, 13.6, 30.0)
    assert d is not None and not d.holds and d.note == "hand"
    bad = [
        ({"format": "annotations/2"}, "format: expected 'annotations/1'"),
        (
            {"format": "annotations/1", "items": [{"type": "vai"}]},
            r"items\[0\].type: expected one of",
        ),
        (
            {"format": "annotations/1", "items": [{"type": "shot_announced", "team": "A"}]},
            r"items\[0\]: needs 't'",
        ),
        (
            {"format": "annotations/1", "items": [{"type": "keeper_placed", "t": 1}]},
            r"items\[0\].team",
        ),
        (
            {"format": "annotations/1", "items": [{"type": "decision", "t": 1, "event": "goal"}]},
            r"\.holds",
        ),
        (
            {"format": "annotations/1", "items": [{"type": "kick_off", "team": "A", "frame": -1}]},
            r"\.frame",
        ),
    ]
    for data, msg in bad:
        with pytest.raises(AnnotationError, match=msg):
            Annotations.from_dict(data)
    (tmp_path / "broken.json").write_text("{", "utf-8")
    with pytest.raises(AnnotationError, match="invalid JSON at line 1"):
        load_annotations(tmp_path / "broken.json")


def test_every_rule_set_has_a_profile_with_articles() -> None:
    assert set(PROFILES) == set(RULESETS)
    for name, profile in PROFILES.items():
        for key in (
            "foul",
            "penalty",
            "goal",
            "ball_out",
            "throw_in",
            "corner",
            "goal_kick",
            "turn",
            "halves",
        ):
            assert profile.article(key), (name, key)
        assert profile.article("goal").startswith(("000", "001", "002", "003"))
    with pytest.raises(ValueError, match="unknown rule set 'carioca'"):
        get_profile("carioca")


def test_event_records_follow_the_contract() -> None:
    e = make_event(
        7, 0.2333333, "goal", "A", "A9", 2.41234, "000 REGRA 10", ball=np.array([1007.4, 12.0])
    )
    assert e == {
        "format": "event/1",
        "t": 0.2333,
        "frame": 7,
        "type": "goal",
        "team": "A",
        "piece": "A9",
        "holds": True,
        "margin_mm": 2.412,
        "article": "000 REGRA 10",
        "evidence": {"ball": [1007.4, 12.0]},
    }
    json.dumps(e)
    with pytest.raises(ValueError, match="event type: expected one of"):
        make_event(0, 0.0, "goals")
    assert {
        "goal",
        "ball_out",
        "foul",
        "touch",
        "offside",
        "turn_over",
        "possession",
        "half_time",
    } <= set(EVENT_TYPES)


def test_tracker_frames_adapt_to_the_engine() -> None:
    """A vision TrackFrame becomes a FrameState (sizes from the rule set, contacts by frame)."""
    from rules.rulesets import get_ruleset
    from tests.rules.engine.adapters import state_from_track
    from vision.contacts import TrackContact
    from vision.track_types import TrackFrame

    tf = TrackFrame(
        12,
        0.4,
        np.array(["A1", "A7", "ball"]),
        np.array(["A", "A", ""]),
        np.array(["goalkeeper", "button", "ball"]),
        np.array([[-990.0, 0.0], [0.0, 0.0], [40.0, 0.0]]),
        np.array([[0.0, 0.0], [300.0, 0.0], [0.0, 0.0]]),
        np.full(3, 0.5),
        np.array([False, True, False]),
        np.array(["seen", "seen", "lost"]),
        (TrackContact(0.36, "A7", "ball", "piece-ball", 11),),
    )
    sizes = get_ruleset("brasileira").pieces
    assert sizes is not None
    state = state_from_track(tf, sizes)
    assert state.pieces.size_mm.tolist() == [[70.0, 15.0], [60.0, 60.0], [10.0, 10.0]]
    assert state.present.tolist() == [True, True, False]
    assert state.contacts.rows() == [(11, 0.36, "A7", "ball", "piece-ball")]
    assert state.hands_over_table is None


def test_a_contact_reported_late_is_a_touch_at_its_own_frame() -> None:
    """A tracker sees a ball struck under a hand only when it is seen moving again: the
    contact of frame 3 comes with frame 6, beyond the engine's lag; its touch is frame 3's."""
    table = load_table("brasileira")
    engine = RuleEngine(table, "brasileira", options=EngineOptions(lag_frames=1))
    p = _pieces()
    ids, team, kind = p.ids, p.team, p.kind
    size = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
    events = []
    for k in range(12):
        t = k / 30.0
        ball_x = 0.0 if k < 3 else 30.0 * (k - 3)
        xy = np.array([[-40.0, 0.0], [0.0, 400.0], [ball_x, 0.0]])
        v = np.zeros((3, 2))
        v[2, 0] = 900.0 if k >= 3 else 0.0
        rows = [(3, 2.6 / 30.0, "A7", "ball", "piece-ball")] if k == 6 else []
        state = FrameState(
            k, t, Pieces(ids, team, kind, xy, size), v, v[:, 0] > 0, Contacts.from_rows(rows)
        )
        events += engine.update(state)
    events += engine.finish()
    touches = [e for e in events if e["type"] == "touch"]
    assert [(e["frame"], e["piece"]) for e in touches] == [(3, "A7")]
    assert abs(touches[0]["t"] - 3 / 30.0) < 1e-3


def test_a_piece_struck_and_flagged_moving_two_frames_later_is_no_flick() -> None:
    """B4 fouls A7 (hits it before the ball) at frame 5; the tracker flags A7 moving only at
    frame 7 (its hysteresis on a start): A7 was set going by the foul, not flicked to take the
    free kick, so the ball stays dead and no lance of A begins."""
    table = load_table("brasileira")
    engine = RuleEngine(table, "brasileira", options=EngineOptions(lag_frames=1))
    p = _pieces()
    ids, team, kind = p.ids, p.team, p.kind
    size = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
    events = []
    for k in range(40):
        b4 = [300.0 - 30.0 * max(k - 2, 0) if k <= 5 else 210.0 - 5.0 * min(k - 5, 7), 200.0]
        a7 = [150.0 - 20.0 * min(max(k - 5, 0), 7), 200.0]
        xy = np.array([a7, b4, [0.0, -200.0]])
        moving = np.array([7 <= k <= 12, 2 < k <= 12, False])
        rows = [(5, 4.5 / 30.0, "B4", "A7", "piece-piece")] if k == 5 else []
        state = FrameState(
            k,
            k / 30.0,
            Pieces(ids, team, kind, xy, size),
            np.zeros((3, 2)),
            moving,
            Contacts.from_rows(rows),
        )
        events += engine.update(state)
    events += engine.finish()
    calls = [(e["frame"], e["type"], e["piece"]) for e in events if e["type"] in ("lance", "foul")]
    assert calls == [(3, "lance", "B4"), (5, "foul", "B4")]
