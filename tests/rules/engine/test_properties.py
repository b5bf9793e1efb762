"""Invariants of the engines, checked on generated plays (hypothesis).

- Turning the table round (``(x, y) -> (-x, -y)``) with the teams' ends swapped turns every
  event round: same types, teams, pieces and margins; lines named for the other end.
- Holding frames back (a tracker's lag) changes when events are emitted, not what they are.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rules.engine.script import Script, brasileira_roster, mirror_frames
from tests.rules.engine.situations import run

RULES = ("nacional", "brasileira", "gaucha", "paulista", "mesa-posta")
SWAP = {
    "goal_left": "goal_right",
    "goal_right": "goal_left",
    "touch_near": "touch_far",
    "touch_far": "touch_near",
}


@st.composite
def plays(draw: st.DrawFn) -> tuple[str, Script]:
    """A lance from anywhere: the ball sent anywhere (in, out, into a goal), an opponent
    perhaps hit before the ball, and a second lance by the other team."""
    rules = draw(st.sampled_from(RULES))
    half = (760.0, 560.0) if rules == "gaucha" else (960.0, 660.0)
    x = draw(st.floats(-half[0], half[0]))
    y = draw(st.floats(-half[1], half[1]))
    ang = draw(st.floats(-math.pi, math.pi))
    dist = draw(st.floats(30.0, 1400.0))
    foul = draw(st.booleans())
    bx, by = x + 40.0 * math.cos(ang), y + 40.0 * math.sin(ang)
    tx, ty = bx + dist * math.cos(ang), by + dist * math.sin(ang)
    keeper = 0.8 * 990.0 if rules == "gaucha" else 990.0
    pieces = brasileira_roster(
        [
            ("A1", "A", "goalkeeper", -keeper, 0.0),
            ("B1", "B", "goalkeeper", keeper, 0.0),
            ("A7", "A", "button", x, y),
            ("B4", "B", "button", x - 80.0 * math.sin(ang), y + 80.0 * math.cos(ang)),
            ("ball", "", "ball", bx, by),
        ]
    )
    s = Script(pieces)
    s.rest(3)
    if foul:
        side = (x - 60.0 * math.sin(ang), y + 60.0 * math.cos(ang))
        s.move(
            {
                "A7": (0, 3, side),
                "B4": (2, 6, (x - 140.0 * math.sin(ang), y + 140.0 * math.cos(ang))),
            },
            {2: [("A7", "B4", "piece-piece")]},
        )
    else:
        s.move(
            {
                "A7": (0, 2, (x + 8.0 * math.cos(ang), y + 8.0 * math.sin(ang))),
                "ball": (1, 12, (tx, ty)),
            },
            {2: [("A7", "ball", "piece-ball")]},
        )
    s.rest(4)
    s.move({"B4": (0, 4, (float(s.xy[s.index("B4"), 0]) + 30.0, float(s.xy[s.index("B4"), 1])))})
    s.rest(3)
    return rules, s


def _key(e: dict[str, Any], swap: bool) -> tuple[Any, ...]:
    ev = e["evidence"]
    line = ev.get("line")
    if swap and line is not None:
        line = SWAP[line]
    return (e["frame"], e["type"], e["team"], e["piece"], e["holds"], ev.get("restart"), line)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plays())
def test_mirroring_the_table_mirrors_the_events(play: tuple[str, Script]) -> None:
    rules, s = play
    straight = run(rules, s)
    mirrored_script = Script([])
    mirrored_script.frames = mirror_frames(s.frames)
    turned = run(rules, mirrored_script, teams={"A": "right", "B": "left"})
    assert [_key(e, False) for e in straight] == [_key(e, True) for e in turned]
    for a, b in zip(straight, turned, strict=True):
        if a["margin_mm"] is not None:
            assert abs(a["margin_mm"] - b["margin_mm"]) < 1e-6, (a, b)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plays(), st.integers(1, 2))
def test_lag_changes_when_not_what(play: tuple[str, Script], lag: int) -> None:
    rules, s = play
    now = run(rules, s)
    later = run(rules, s, lag_frames=lag)
    assert [_key(e, False) for e in now] == [_key(e, False) for e in later]
