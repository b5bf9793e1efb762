"""A piece flicked from under its coach's hand into an opponent, its hit reported late.

The flicked piece's track is frozen under the hand until it comes out, so the piece it struck
is seen leaving first and its start begins a lance of its own; the hit is found frames later,
when the striker is seen again moved, and reported stamped with its own frame. Gaucha's ten
minutes (seed 31, frame 14307): A6 into B3, which struck the ball at once. The engine read
B3's lance and lost the foul (000 REGRA 12 FALTA, 001 Art. XXIV: an opponent hit before the
ball). The hit's row now gives the lance to its striker.
"""

from __future__ import annotations

import dataclasses

import pytest

from rules.engine.state import Contacts
from tests.rules.engine.script import Script
from tests.rules.engine.situations import find, run
from tests.rules.engine.test_rulesets import roster

OPTIONS = {"lag_frames": 1, "noise_mm": 0.5, "settle_frames": 3, "order_doubt_s": 0.01}


def _hit_from_hiding(striker: str, row_late: int, hit_step: float) -> Script:
    """``striker`` rests behind B3 (its coach's hand over it: frozen, never seen to start);
    B3 is seen leaving at step 1 and strikes the ball 11 mm in front of it at once; the
    striker creeps out from step 3. The striker's hit on B3, made at ``hit_step`` (steps;
    B3's start is at 1), is reported ``row_late`` frames after its own frame."""
    team = striker[0]
    s = roster(
        (striker, team, "button", 250.0, 242.0),
        ("B3", "B", "button", 203.0, 200.0),
        ("ball", "", "ball", 157.0, 197.0),
        gaucha=True,
    )
    s.rest(4)
    first = len(s.frames) - 1  # step 0
    motions = {
        "B3": (0, 10, (90.0, 70.0)),
        "ball": (1, 12, (-80.0, 230.0)),
        striker: (2, 9, (230.0, 238.0)),
    }
    s.move(motions, {1: [("B3", "ball", "piece-ball")]})
    s.rest(6)
    hit = first + hit_step
    row = (int(hit + 0.999), hit / s.fps, striker, "B3", "piece-piece")
    k = row[0] + row_late
    f = s.frames[k]
    rows = [(c.frame, c.t, c.a, c.b, c.kind) for c in f.contacts] if f.contacts else []
    s.frames[k] = dataclasses.replace(f, contacts=Contacts.from_rows([*rows, row]))
    return s


def test_a_late_hit_on_an_opponent_gives_the_lance_to_its_striker_and_is_a_foul() -> None:
    s = _hit_from_hiding("A6", row_late=3, hit_step=0.6)
    events = run("gaucha", s, **OPTIONS)
    (foul,) = find(events, "foul", "A", "A6", victim="B3")
    assert foul["evidence"]["awarded_to"] == "B"
    assert abs(foul["frame"] - 5) <= 2  # the hit's frame (step 0.6 of the play from frame 4)


@pytest.mark.parametrize(
    ("striker", "row_late", "hit_step", "why"),
    [
        ("B7", 3, 0.6, "a team-mate's hit: the lance stays B3's, no foul"),
        ("A6", 3, 2.5, "a hit after B3 was seen leaving does not explain its start"),
    ],
)
def test_failure_rows_call_no_foul(striker: str, row_late: int, hit_step: float, why: str) -> None:
    s = _hit_from_hiding(striker, row_late, hit_step)
    events = run("gaucha", s, **OPTIONS)
    assert not find(events, "foul"), why
