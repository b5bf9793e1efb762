"""No restart is taken while the ball lies off the field: a piece moved meanwhile is no lance.

A throw-in is taken from the touchline (001 Art. XXXIV; 000 REGRA 9), a goal kick from the goal
area, a corner from the corner: the ball is placed there first. Gaucha's ten minutes (seed 44,
frame 15422): after the ball went out over the touchline and lay 80 mm past it, A2 was moved
by its coach's hand (read as a flick, not touching the ball): the engine took it for the
throw-in, a furada, and play as live; the ball, carried to the line, was then read as going out
again. A piece moved while the ball rests a radius or more wholly past a line is now no lance;
the flick once the ball is placed takes the restart. The failure row: a ball stopped just past
the line (2 mm, under a radius: a ball placed on the line a little off) takes it as before.
"""

from __future__ import annotations

import pytest

from tests.rules.engine.script import Script, brasileira_roster, mirror_frames
from tests.rules.engine.situations import find, run

OPTIONS = {"lag_frames": 1, "noise_mm": 0.5, "settle_frames": 3}


def _out_then_moved(out_to_y: float) -> Script:
    """A7 plays the ball out over the far touchline (y = 700) to rest at ``out_to_y``; B4 is
    moved 40 mm (not touching the ball); the ball is placed on the line where it crossed and
    B4 plays it back into the field."""
    s = Script(
        brasileira_roster(
            [
                ("A7", "A", "button", 0.0, 600.0),
                ("B4", "B", "button", 150.0, 560.0),
                ("ball", "", "ball", 0.0, 640.0),
            ]
        ),
        hands=True,
    )
    s.rest(3)
    s.move(
        {"A7": (0, 2, (0.0, 608.0)), "ball": (1, 6, (0.0, out_to_y))},
        {2: [("A7", "ball", "piece-ball")]},
    )
    s.rest(6)
    s.move({"B4": (0, 3, (110.0, 560.0))})  # the coach sets B4 (the ball untouched)
    s.rest(6)
    s.place("ball", (0.0, 699.0))
    s.place("A7", (0.0, 560.0))  # (cleared off the way)
    s.rest(6)
    s.move(
        {"B4": (0, 2, (60.0, 660.0)), "ball": (1, 8, (-200.0, 300.0))},
        {2: [("B4", "ball", "piece-ball")]},
    )
    s.rest(6)
    return s


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("rules", ["brasileira", "nacional", "paulista"])
def test_a_piece_moved_while_the_ball_lies_off_the_field_is_no_lance(
    rules: str, mirror: bool
) -> None:
    s = _out_then_moved(760.0)
    if mirror:
        s.frames = mirror_frames(s.frames)
    events = run(rules, s, **OPTIONS)
    (out,) = find(events, "ball_out")
    assert (out["team"], out["evidence"]["restart"]) == ("B", "throw_in")
    lances = [e for e in events if e["type"] == "lance" and e["piece"] == "B4"]
    assert [e["evidence"]["restart"] for e in lances] == ["throw_in"], lances
    assert lances[0]["frame"] > s.frames[-16].frame  # the flick after the ball was placed
    assert not find(events, "furada")


def test_a_ball_just_past_the_line_takes_the_restart_as_before() -> None:
    s = _out_then_moved(707.0)
    events = run("brasileira", s, **OPTIONS)
    lances = [e for e in events if e["type"] == "lance" and e["piece"] == "B4"]
    assert [e["evidence"]["restart"] for e in lances][:1] == ["throw_in"], lances
    assert lances[0]["frame"] < s.frames[-16].frame  # B4's setting read as the throw-in
