"""Recorded engine inputs (rules/engine/inputs.py): a replay gives the events the match gave,
frame for frame, across a gap and under another rule set; bad files say what is wrong."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from geometry.tablespec import load_table
from rules.engine import EngineOptions, RuleEngine
from rules.engine.annotations import Annotations
from rules.engine.inputs import InputError, InputRecorder, load_inputs, replay
from tests.rules.engine.script import Script, brasileira_roster, lance

TABLE = load_table("brasileira")
OPTIONS = EngineOptions(lag_frames=1, noise_mm=0.5, settle_frames=3)


def _play() -> Script:
    """A9 flicks the ball past B4 (a foul on the way: it hits B4 first) out over the
    touchline, then B4's lance."""
    s = Script(
        brasileira_roster(
            [
                ("A9", "A", "button", -100.0, -400.0),
                ("B4", "B", "button", -40.0, -470.0),
                ("ball", "", "ball", -60.0, -400.0),
            ]
        ),
        hands=True,
    )
    s.rest(3)
    lance(s, "A9", (-60.0, -900.0), steps=20, rest=8)
    lance(s, "B4", (200.0, -300.0), steps=10, rest=6)
    return s


def _run(engine: RuleEngine | InputRecorder, s: Script, lost: range) -> list[tuple[dict, int]]:
    out = []
    for f in s.frames:
        if f.frame in lost:
            continue
        if lost and f.frame == lost.stop:
            out += [(e, f.frame - 1) for e in engine.interrupt()]
        out += [(e, f.frame) for e in engine.update(f)]
    last = s.frames[-1].frame
    return out + [(e, last) for e in engine.finish()]


@pytest.mark.parametrize("lost", [range(0), range(10, 14)])
@pytest.mark.parametrize("rules", [None, "nacional"])
def test_a_replay_gives_the_events_of_the_match(
    tmp_path: Path, lost: range, rules: str | None
) -> None:
    s = _play()
    rec = InputRecorder(RuleEngine(TABLE, "brasileira", options=OPTIONS))
    played = _run(rec, s, lost)
    rec.save(tmp_path / "in.npz")
    if rules is None:
        again = replay(tmp_path / "in.npz")
        assert again == played
        assert any(e["type"] == "ball_out" for e, _ in played)
    else:
        direct = _run(
            RuleEngine(load_table(rules), rules, options=OPTIONS), s, lost
        )  # the same frames under another rule set
        assert replay(tmp_path / "in.npz", rules) == direct
    meta, states, interrupts = load_inputs(tmp_path / "in.npz")
    assert meta["rules"] == "brasileira" and meta["options"]["lag_frames"] == 1
    assert interrupts == ([] if not lost else [lost.start])
    assert [st.frame for st in states] == [f.frame for f in s.frames if f.frame not in lost]


def test_the_recorder_is_the_engine_to_its_caller() -> None:
    rec = InputRecorder(RuleEngine(TABLE, "brasileira"))
    assert rec.score == {"A": 0, "B": 0} and rec.teams == {"A": "left", "B": "right"}


def test_a_roster_that_changes_cannot_be_recorded(tmp_path: Path) -> None:
    s = _play()
    rec = InputRecorder(RuleEngine(TABLE, "brasileira"))
    rec.update(s.frames[0])
    f = s.frames[1]
    ids = f.pieces.ids.copy()
    ids[0] = "A10"
    rec.update(dataclasses.replace(f, pieces=dataclasses.replace(f.pieces, ids=ids)))
    with pytest.raises(InputError, match="frame 1: the pieces changed"):
        rec.save(tmp_path / "in.npz")


def test_bad_files_name_what_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_text("not numpy", "utf-8")
    with pytest.raises(InputError, match=r"bad\.npz: not recorded engine inputs"):
        load_inputs(bad)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(2))
    with pytest.raises(InputError, match=r"other\.npz: no 'meta'"):
        load_inputs(other)
    ann = InputRecorder(
        RuleEngine(
            TABLE, "brasileira", annotations=Annotations.from_dict({"format": "annotations/1"})
        )
    )
    ann.save(tmp_path / "ann.npz")
    with pytest.raises(InputError, match="recorded with annotations"):
        replay(tmp_path / "ann.npz")
