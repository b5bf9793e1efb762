"""A piece struck by another is flagged moving only frames later: no lance of its own.

The tracker flags a piece moving when its least-squares speed over five positions passes
60 mm/s two frames running (vision.track_types.TrackerConfig): a victim pushed on slowly (3 mm
a frame) is flagged up to four frames after the hit. On a rendered ten-minute gaucha match
(seed 31, frame 5410) B10 fouled A5 (001 Art. XXIV: a piece hit before the ball), A5 slid on
and was flagged three frames later, and the engine read its start as A's free kick taken - and
A5's next contact, with B8, as a second foul. ``rules.engine.base.STRUCK_FRAMES``.
"""

from __future__ import annotations

import pytest

from tests.rules.engine.script import Script, brasileira_roster
from tests.rules.engine.situations import find, run


def _foul_then_slow_victim(flag_delay: int, rest_between: int = 0) -> Script:
    """B10 flicked into A5 (no ball touched: a foul) at step 4; A5 slides on at 3 mm a frame
    into B8, flagged moving ``flag_delay`` frames after it starts. With ``rest_between``, A5
    stops after two frames and rests that many frames, then is flicked itself into B8."""
    s = Script(
        brasileira_roster(
            [
                ("B10", "B", "button", -100.0, 0.0),
                ("A5", "A", "button", 0.0, 0.0),
                ("B8", "B", "button", 90.0, 0.0),
                ("ball", "", "ball", 0.0, 300.0),
            ]
        ),
        hands=True,
    )
    s.rest(3)
    a5 = s.index("A5")
    if rest_between:
        s.move(
            {"B10": (0, 4, (-60.0, 0.0)), "A5": (4, 6, (6.0, 0.0))},
            {4: [("B10", "A5", "piece-piece")]},
        )
        s.rest(rest_between)
        s.move({"A5": (0, 8, (30.0, 0.0))}, {8: [("A5", "B8", "piece-piece")]})
    else:
        first = len(s.frames)
        # A5 slides from step 5 to step 12 (3.4 mm a frame) and meets B8 at step 10
        s.move(
            {"B10": (0, 4, (-60.0, 0.0)), "A5": (4, 12, (27.0, 0.0))},
            {4: [("B10", "A5", "piece-piece")], 10: [("A5", "B8", "piece-piece")]},
        )
        for k in range(first + 4, first + 4 + flag_delay):
            s.frames[k].moving[a5] = False  # the tracker's late flag
    s.rest(6)
    return s


@pytest.mark.parametrize("flag_delay", [0, 1, 2, 3])
def test_a_victim_flagged_late_is_no_lance(flag_delay: int) -> None:
    events = run("gaucha", _foul_then_slow_victim(flag_delay))
    assert len(find(events, "foul", team="B", piece="B10", victim="A5")) == 1
    assert find(events, "lance", team="A") == []
    assert find(events, "foul", team="A") == []


def test_a_victim_at_rest_then_flicked_is_a_lance() -> None:
    # the failure row: struck, stopped, rested - then its own flick (the free kick taken) is
    # a lance, and hitting B8 before the ball is A's foul
    events = run("gaucha", _foul_then_slow_victim(0, rest_between=6))
    assert len(find(events, "foul", team="B", piece="B10", victim="A5")) == 1
    assert len(find(events, "lance", team="A", piece="A5")) == 1
    assert len(find(events, "foul", team="A", piece="A5", victim="B8")) == 1


def _flicked_from_under_a_hand(victim_late: int, striker_late: int) -> list[dict]:
    """B10, frozen under its coach's hand, is flicked into A5 (reported at step 1); A5 leaves
    its place, flagged moving ``victim_late`` frames late, B10 from step 1, flagged
    ``striker_late`` frames after its step 0. The events of gaucha's engine."""
    s = Script(
        brasileira_roster(
            [
                ("B10", "B", "button", -100.0, 0.0),
                ("A5", "A", "button", -38.0, 0.0),
                ("ball", "", "ball", 0.0, 300.0),
            ]
        ),
        hands=True,
    )
    s.rest(3)
    first, a5, b10 = len(s.frames), s.index("A5"), s.index("B10")
    s.move(
        {"A5": (0, 6, (22.0, 0.0)), "B10": (1, 6, (100.0, -150.0))},
        {1: [("B10", "A5", "piece-piece")]},
    )
    for k in range(first, first + victim_late):
        s.frames[k].moving[a5] = False  # the tracker's late flag
    for k in range(first, first + striker_late):
        s.frames[k].moving[b10] = False
    s.rest(6)
    return run("gaucha", s, lag_frames=1, noise_mm=0.5, settle_frames=3)


@pytest.mark.parametrize("flag_delay", [0, 1, 2])
def test_a_foul_by_a_piece_flicked_from_under_a_hand(flag_delay: int) -> None:
    """Gaucha's ten minutes, frame 10362 (001 Art. XXIV): B10, frozen under its coach's hand,
    is flicked into A5; the tracks show A5 leave its place (flagged moving ``flag_delay``
    frames late) and B10 only a frame later, far from where it froze. The contact names the
    striker: its lance begins there, and the hit before the ball is its foul."""
    events = _flicked_from_under_a_hand(flag_delay, 0)
    assert len(find(events, "lance", team="B", piece="B10")) == 1
    assert len(find(events, "foul", team="B", piece="B10", victim="A5")) == 1
    assert find(events, "lance", team="A") == []


@pytest.mark.parametrize("striker_late", [1, 2])
def test_a_striker_from_under_a_hand_flagged_late_is_one_lance(striker_late: int) -> None:
    """Gaucha's ten minutes, seed 38, frame 1706: A11, frozen under its coach's hand, is
    flicked into B2 (a foul, 001 Art. XXIV); first seen a frame later, it is flagged moving
    two frames after the hit. That flag is its flick's, already a lance: read as a new one
    (the free kick taken, out of turn) it put the ball back in play, and B2, knocked into the
    ball, sent it over the goal line: a corner where the truth has none. (A later flick of
    the same piece, after a rest, is a lance: ``test_a_victim_at_rest_then_flicked_is_a_lance``.)
    """
    events = _flicked_from_under_a_hand(0, 1 + striker_late)
    assert len(find(events, "lance", team="B", piece="B10")) == 1
    assert len(find(events, "foul", team="B", piece="B10", victim="A5")) == 1
    assert find(events, "out_of_turn") == []


def _striker_spent(crawl_mm: float) -> Script:
    """A9, 3 mm from B2, flicked into it: it passes nearly all its speed on and crawls on at
    ``crawl_mm`` a frame (never flagged moving), B2 goes off at 15 mm a frame."""
    s = Script(
        brasileira_roster(
            [
                ("A9", "A", "button", 0.0, 0.0),
                ("B2", "B", "button", 63.0, 0.0),
                ("ball", "", "ball", 0.0, 300.0),
            ]
        ),
        hands=True,
    )
    s.rest(3)
    first, a9 = len(s.frames), s.index("A9")
    s.move(
        {"A9": (0, 4, (4.0 * crawl_mm, 0.0)), "B2": (1, 6, (138.0, 0.0))},
        {2: [("A9", "B2", "piece-piece")]},
    )
    for k in range(first, len(s.frames)):
        s.frames[k].moving[a9] = False  # too slow for the tracker's flag
    s.rest(6)
    return s


@pytest.mark.parametrize(
    ("crawl_mm", "striker"),
    [
        (3.0, "A9"),  # nacional's ten minutes, seed 35, frame 10451 (the re-render): a foul
        (4.0, "A9"),
        (0.1, "B2"),  # failure row: A9 still (its fits' jitter): B2's own lance
    ],
)
def test_a_striker_that_passed_on_its_speed_is_the_flicked_piece(
    crawl_mm: float, striker: str
) -> None:
    events = run("nacional", _striker_spent(crawl_mm), lag_frames=1, noise_mm=0.5, settle_frames=3)
    lances = find(events, "lance")
    assert [e["piece"] for e in lances][:1] == [striker]
    if striker == "A9":  # the hit before the ball (000 Art. 18)
        assert len(find(events, "foul", team="A", piece="A9", victim="B2")) == 1
        assert find(events, "lance", team="B") == []
