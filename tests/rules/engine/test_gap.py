"""The engine across a gap (:meth:`rules.engine.RuleEngine.interrupt`): frames not seen while the
camera was lost. Nothing is read across it: a ball rolling when the camera was lost and found
at rest outside the field is no ``ball_out`` (it must be seen in the field before it can leave
it); the match goes on.
"""

from __future__ import annotations

import pytest

from geometry.tablespec import load_table
from rules.engine import EngineOptions, RuleEngine
from tests.rules.engine.script import Script, brasileira_roster, lance

TABLE = load_table("brasileira")


def _match(told: bool, lost: int, back: int, ball_to: tuple[float, float]) -> list[tuple]:
    """A9 flicks the ball toward ``ball_to`` over 20 frames (then it rests); frames ``lost``
    to ``back - 1`` are not seen."""
    s = Script(
        brasileira_roster(
            [("A9", "A", "button", -100.0, -400.0), ("ball", "", "ball", -60.0, -400.0)]
        ),
        hands=True,
    )
    s.rest(3)
    lance(s, "A9", ball_to, steps=20, rest=8)
    eng = RuleEngine(TABLE, "brasileira", options=EngineOptions(lag_frames=1))
    events = []
    for f in s.frames:
        if lost <= f.frame < back:
            continue
        if f.frame == back and told:
            held = eng.interrupt()
            assert all(e["frame"] < lost for e in held)
            events += held
        events += eng.update(f)
    events += eng.finish()
    return [(e["frame"], e["type"]) for e in events]


@pytest.mark.parametrize(
    ("told", "lost", "back", "ball_to", "out_at"),
    [
        # the ball rolls over the touchline (|y| > 700) unseen: no call across the gap
        (True, 8, 26, (-60.0, -900.0), None),
        (True, 8, 26, (-60.0, -800.0), None),
        # not told: the jump is read as the ball crossing the line
        (False, 8, 26, (-60.0, -900.0), 26),
        # lost after it went out: called as ever
        (True, 20, 30, (-60.0, -900.0), 15),
        # it stays in the field: nothing to call either way
        (True, 8, 26, (-60.0, -200.0), None),
    ],
)
def test_no_line_is_judged_across_a_gap(
    told: bool, lost: int, back: int, ball_to: tuple[float, float], out_at: int | None
) -> None:
    events = _match(told, lost, back, ball_to)
    outs = [f for f, kind in events if kind in ("ball_out", "goal")]
    assert outs == ([] if out_at is None else [out_at]), events
    assert (3, "lance") in events and (4, "touch") in events  # before the gap, as ever
    assert not [e for e in events if lost <= e[0] < back], events


def test_an_interrupt_before_any_frame_is_nothing() -> None:
    eng = RuleEngine(TABLE, "brasileira", options=EngineOptions(lag_frames=1))
    assert eng.interrupt() == []
    s = Script(brasileira_roster([("ball", "", "ball", 0.0, 0.0)]))
    s.rest(3)
    assert [e for f in s.frames for e in eng.update(f)] == []
