"""A goal's or an out's measured doubt: the ball's position 1-sigma on which the margin was
measured, and "too close to call" where the margin lies inside twice it (as ``botao
goal-line`` decides, issue 7). The call itself is made as before, on the measured side.

A shot rolls to rest past the goal line (000 REGRA 10: the ball wholly past the line between
the posts); the engine's source has 0.5 mm noise (``noise_mm``, as ``botao analyze``'s
tracked options) or none (exact data: no doubt).
"""

from __future__ import annotations

import pytest

from tests.rules.engine.script import Script, brasileira_roster
from tests.rules.engine.situations import find, run

NOISY = {"lag_frames": 2, "noise_mm": 0.5, "settle_frames": 3}


def _roll_to(x: float, y: float = 40.0) -> Script:
    s = Script(
        brasileira_roster(
            [
                ("B1", "B", "goalkeeper", 990.0, -60.0),
                ("A9", "A", "button", 900.0, y),
                ("ball", "", "ball", 940.0, y),
            ]
        )
    )
    s.rest(3)
    s.move(
        {"A9": (0, 2, (905.0, y)), "ball": (1, 8, (x, y))},
        {2: [("A9", "ball", "piece-ball")]},
    )
    s.rest(20)
    return s


# (where the ball stops, engine options, too close); the ball's edge is wholly past the goal
# line's outer edge (x = 1000) when its centre is past 1005
ROWS = {
    "0.3 mm in, noisy: too close": (1005.3, NOISY, True),
    "4 mm in, noisy: sure": (1009.0, NOISY, False),
    "0.3 mm in, exact: no doubt": (1005.3, {}, False),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_a_goal_says_how_sure_it_is(name: str) -> None:
    x, options, close = ROWS[name]
    events = run("brasileira", _roll_to(x), **options)
    (goal,) = find(events, "goal", "A", "A9")
    ev = goal["evidence"]
    assert goal["margin_mm"] == pytest.approx(x - 1005.0, abs=0.05)
    assert ev["too_close"] is close
    if options:
        # called as it rolls in (one frame's position, confirmed by the frames after it):
        # the source's noise; a slow or resting ball's mean of n frames, noise / sqrt(n)
        assert 0.0 < ev["sigma_mm"] <= 0.5
        assert (abs(goal["margin_mm"]) < 2.0 * ev["sigma_mm"]) is close
    else:
        assert ev["sigma_mm"] == 0.0


def test_a_ball_short_of_the_line_is_no_call_at_all() -> None:
    # failure row: 0.3 mm short of wholly past, no goal however noisy
    events = run("brasileira", _roll_to(1004.7), **NOISY)
    assert not find(events, "goal") and not find(events, "ball_out")


def test_an_out_over_the_touchline_carries_its_doubt_too() -> None:
    s = Script(
        brasileira_roster([("A9", "A", "button", 0.0, 600.0), ("ball", "", "ball", 0.0, 640.0)])
    )
    s.rest(3)
    s.move(
        {"A9": (0, 2, (0.0, 645.0)), "ball": (1, 8, (0.0, 705.6))},
        {2: [("A9", "ball", "piece-ball")]},
    )
    s.rest(20)
    (out,) = find(run("brasileira", s, **NOISY), "ball_out")
    assert out["margin_mm"] == pytest.approx(0.6, abs=0.05)  # wholly past y = 705
    assert out["evidence"]["too_close"] is True
    assert 0.0 < out["evidence"]["sigma_mm"] <= 0.5
