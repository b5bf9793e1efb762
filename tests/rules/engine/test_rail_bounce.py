"""A ball back in the field a frame after it was seen by the rail: out if the rail turned it.

A ball can touch the rail (``rail_margin`` beyond the lines) and be back in the field between
two frames: it was out all the same (000 REGRA 9; 001 Art. XXXIV), and the line judge infers the
bounce where its velocity would have taken it past the rail and its way across the rail turned
round (rules/engine/lines.py). A rail turns only that: the ball's way along the rail goes on,
slowed by the rail's friction. Brasileira's ten minutes (seed 43, frame 14094): the ball, struck
from the touchline at a throw-in, was fitted for one frame on a coach's fingertip by the rail
(155 mm off, its way along the rail -3.6 m/s), then seen back on its way (+4.6 m/s along it):
read as a bounce, out, and the throw-in given to the other team. Both ways turned round is a
corner's two rails, or no bounce.
"""

from __future__ import annotations

import pytest

from geometry.tablespec import load_table
from rules.rulesets import get_ruleset
from tests.rules.engine.script import Script, brasileira_roster, mirror_frames
from tests.rules.engine.situations import find, run

OPTIONS = {"lag_frames": 1, "noise_mm": 0.5, "settle_frames": 3}


def _struck_by_the_rail(
    start: tuple[float, float], by_rail: tuple[float, float], back: tuple[float, float]
) -> Script:
    """A7 strikes the ball from ``start``; it is seen at ``by_rail`` (by the far touchline's
    rail, 100 mm past the line), then at ``back`` in the field, and rolls on."""
    s = Script(
        brasileira_roster(
            [
                ("A7", "A", "button", start[0], start[1] - 40.0),
                ("ball", "", "ball", *start),
            ]
        ),
        hands=True,
    )
    s.rest(3)
    s.move({"A7": (0, 1, (start[0], start[1] - 30.0))})
    s.move({"ball": (0, 1, by_rail)}, {1: [("A7", "ball", "piece-ball")]})
    s.move({"ball": (0, 1, back)})
    on = (2.0 * back[0] - by_rail[0], 2.0 * back[1] - by_rail[1])
    s.move({"ball": (0, 6, ((back[0] + on[0]) / 2.0, (back[1] + on[1]) / 2.0))})
    s.rest(6)
    return s


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("rules", ["brasileira", "gaucha"])
@pytest.mark.parametrize(
    ("why", "corner", "start", "by_rail", "back", "out"),
    [
        # places (mm) from the far touchline's middle, or from the field's corner
        # off the rail: its way across turned round, along it on (6 m/s toward the rail)
        ("a bounce", False, (0.0, -100.0), (60.0, 90.0), (120.0, -50.0), True),
        # the same into the corner's two rails
        ("a corner", True, (-100.0, -100.0), (80.0, 80.0), (-40.0, -40.0), True),
        # the fingertip: both ways turned round away from a corner
        ("a fingertip", False, (0.0, -1.0), (-120.0, 95.0), (30.0, -10.0), False),
    ],
)
def test_a_ball_back_from_the_rail_was_out_only_if_the_rail_turned_it(
    rules: str,
    mirror: bool,
    why: str,
    corner: bool,
    start: tuple[float, float],
    by_rail: tuple[float, float],
    back: tuple[float, float],
    out: bool,
) -> None:
    table = load_table(get_ruleset(rules).table)
    x0, y0 = (table.field_length / 2.0 if corner else 0.0), table.field_width / 2.0

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return (x0 + p[0], y0 + p[1])

    s = _struck_by_the_rail(at(start), at(by_rail), at(back))
    if mirror:
        s.frames = mirror_frames(s.frames)
    events = run(rules, s, **OPTIONS)
    assert bool(find(events, "ball_out")) == out, (why, [e["type"] for e in events])
