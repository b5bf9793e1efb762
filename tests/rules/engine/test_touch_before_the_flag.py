"""A flick read a frame after its touch of the ball: the lance owns that touch.

A piece flicked through the ball into an opponent touches the ball a frame before it hits the
opponent, and its flick may be read only from that hit (the tracker took its slide, a hand
over it, for a carry, and never flagged it moving). Brasileira's ten minutes (seed 43, frame
8683): B4 touched the ball, then hit A10 at 8684; its lance began at 8684, the touch reported
the frame before fell outside it, and the hit on A10 was called a foul (000 REGRA 12 FALTA,
001 Art. XXIV: a foul is an opponent hit before the ball). The lance begun now takes its
piece's touch of the frame before as its own, when the ball rested before it. The failure row:
the same flick with no touch, a foul.
"""

from __future__ import annotations

import pytest

from tests.rules.engine.script import Script, after_a_pass, mirror_frames
from tests.rules.engine.situations import find, run

OPTIONS = {"lag_frames": 1, "noise_mm": 0.5, "settle_frames": 3}


def _touch_then_hit(flag_late: int | None, touch: bool = True) -> Script:
    """After B8's pass (the ball at rest at (-120, 60), team A to play), A7, resting 4 mm from
    the ball, is flicked through it (its touch reported at step 1) into B5 (step 2), A7 flagged
    moving from step ``1 + flag_late`` (None: never, read as carried), the ball from step 3
    (the tracker's hysteresis: 9 and 19 mm in its first two frames, at 8683-8684)."""
    s = after_a_pass([("A7", "A", "button", -159.0, 60.0), ("B5", "B", "button", -100.0, 118.0)])
    contacts = {2: [("A7", "B5", "piece-piece")]}
    if touch:
        contacts[1] = [("A7", "ball", "piece-ball")]
    late = 0 if flag_late is None else flag_late
    first = len(s.frames)
    s.move(
        {
            "A7": (late, 6, (-130.0, 75.0)),
            "ball": (1, 8, (60.0, 60.0)) if touch else (9, 9, (-120.0, 60.0)),
            "B5": (1 + late, 8, (-60.0, 200.0)),
        },
        contacts,
    )
    if flag_late is None:
        for f in s.frames[first:]:
            f.moving[s.index("A7")] = False
    for f in s.frames[first : first + 2]:
        f.moving[s.index("ball")] = False
    s.rest(6)
    return s


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("rules", ["brasileira", "gaucha", "nacional"])
@pytest.mark.parametrize("flag_late", [0, 1, None])
def test_a_touch_before_the_flick_is_flagged_is_the_lances(
    rules: str, flag_late: int | None, mirror: bool
) -> None:
    s = _touch_then_hit(flag_late)
    if mirror:
        s.frames = mirror_frames(s.frames)
    events = run(rules, s, **OPTIONS)
    assert not find(events, "foul"), [e for e in events if e["type"] in ("lance", "foul")]
    assert len([e for e in events if e["type"] == "lance" and e["piece"] == "A7"]) == 1
    assert find(events, "contact", "A", "A7", other="B5")
    assert find(events, "possession", "A", "A7")  # its touch gave A the ball


@pytest.mark.parametrize("flag_late", [0, 1, None])
def test_the_same_flick_with_no_touch_is_a_foul(flag_late: int | None) -> None:
    events = run("brasileira", _touch_then_hit(flag_late, touch=False), **OPTIONS)
    (foul,) = find(events, "foul", "A", "A7", victim="B5")
    assert foul["evidence"]["awarded_to"] == "B"
