"""A flick flagged moving a frame after its first hit: the lance owns that hit.

A tracker calls a piece moving once its motion shows (hysteresis), and a piece flicked into
the opponent it rests beside hits it at once, before the flag. Gaucha's ten minutes (seed 31,
frame 1323): B9 flicked into A10 a millimetre or two away; its lance began a frame after the
hit was reported, no lance was under way when the hit was judged, and the foul (000 REGRA 12
FALTA, 001 Art. XXIV: an opponent hit before the ball) was lost. The lance begun now judges
the hits of the frame before by its piece as its own; not a team-mate's (no foul), nor a hit
two frames before its flag.
"""

from __future__ import annotations

import pytest

from tests.rules.engine.script import Script, after_a_pass
from tests.rules.engine.situations import find, run

OPTIONS = {"lag_frames": 1, "noise_mm": 0.5, "settle_frames": 3}


def _flicked_into(victim: str, flag_late: int) -> Script:
    """B8 plays the ball (play under way) and everything stops; then A7 is flicked into
    ``victim`` resting 2 mm beside it, the hit reported at step 1 and both flagged moving only
    from step ``1 + flag_late``."""
    s = after_a_pass(
        [("A7", "A", "button", 100.0, -40.0), (victim, victim[0], "button", 162.0, -40.0)]
    )
    s.move(
        {"A7": (flag_late, 6, (150.0, -40.0)), victim: (flag_late, 9, (300.0, -40.0))},
        {1: [("A7", victim, "piece-piece")]},
    )
    s.rest(6)
    return s


@pytest.mark.parametrize("rules", ["gaucha", "brasileira"])
@pytest.mark.parametrize("flag_late", [0, 1])
def test_a_hit_before_the_flick_is_flagged_is_the_lances_foul(rules: str, flag_late: int) -> None:
    events = run(rules, _flicked_into("B5", flag_late), **OPTIONS)
    (foul,) = find(events, "foul", "A", "A7", victim="B5")
    assert foul["evidence"]["awarded_to"] == "B"
    (lance,) = [e for e in events if e["type"] == "lance" and e["piece"] == "A7"]
    assert foul["frame"] <= lance["frame"]  # stamped with the hit's own frame


@pytest.mark.parametrize(
    ("victim", "flag_late", "why"),
    [
        ("A8", 1, "a team-mate hit: no foul"),
        ("B5", 2, "a hit two frames before the flag is not the flick's"),
    ],
)
def test_failure_rows_call_no_foul(victim: str, flag_late: int, why: str) -> None:
    events = run("gaucha", _flicked_into(victim, flag_late), **OPTIONS)
    assert not find(events, "foul"), why
