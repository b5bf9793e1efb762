"""A foul found frames after its hit is dated at the hit, as a late touch is.

A piece flicked from under its coach's hand is frozen until it comes out; the hit it made
there is known only then (:mod:`vision.contacts`, a striker out of hiding), frames after
the victim was seen leaving. Gaucha's ten minutes (seed 32, frame 14147): B9 flicked into the
goalkeeper A1, the hit found four frames on, the foul (001 Art. XXIV) written and dated at
14151 - four frames off its hit, outside the two frames an event's time may be off. Dated at
its hit now; written when found (the delay is the camera's: the striker was under a hand).
"""

from __future__ import annotations

import dataclasses

import pytest

from rules.engine.state import Contacts
from tests.rules.engine.script import Script, after_a_pass
from tests.rules.engine.situations import find, run

OPTIONS = {"lag_frames": 1, "noise_mm": 0.5, "settle_frames": 3}


def _struck_from_hiding(delay: int, victim: str = "B5") -> tuple[Script, int]:
    """B8 plays the ball; all stops; A7, under its coach's hand, is flicked into ``victim``
    (step 1), which is seen leaving; A7 comes out and the hit is reported ``delay`` steps
    on. Returns the script and the hit's frame."""
    s = after_a_pass(
        [("A7", "A", "button", 100.0, -40.0), (victim, victim[0], "button", 162.0, -40.0)]
    )
    hit = len(s.frames)  # step 1 of the next move
    s.move({"A7": (delay, 6, (150.0, -40.0)), victim: (0, 9, (300.0, -40.0))})
    s.rest(6)
    # the hit, reported late: its own frame and time, in the frame ``delay`` steps on
    k = hit + delay
    f = s.frames[k]
    row = (hit, s.frames[hit].t_s - 0.5 / s.fps, "A7", victim, "piece-piece")
    s.frames[k] = dataclasses.replace(f, contacts=Contacts.from_rows([row]))
    return s, hit


@pytest.mark.parametrize("rules", ["gaucha", "brasileira"])
@pytest.mark.parametrize("delay", [2, 4])
def test_a_foul_found_late_is_dated_at_its_hit(rules: str, delay: int) -> None:
    script, hit = _struck_from_hiding(delay)
    events = run(rules, script, **OPTIONS)
    (foul,) = find(events, "foul", "A", "A7", victim="B5")
    assert foul["frame"] == hit
    assert foul["t"] == pytest.approx(hit / script.fps, abs=1e-3)


def test_a_team_mate_hit_found_late_is_no_foul() -> None:
    script, _ = _struck_from_hiding(4, victim="A8")
    assert not find(run("gaucha", script, **OPTIONS), "foul")


def _struck_on_unseen(victim: str, third: str) -> Script:
    """As above, but the struck ``victim`` strikes ``third`` at once, unseen (a hand over
    them): ``third``'s start, seen before the hit is reported, begins a lance of its own and
    closes A7's as a furada (nacional's ten minutes, frame 6706: B9 into A11, A11 into A9)."""
    s = after_a_pass(
        [
            ("A7", "A", "button", 100.0, -40.0),
            (victim, victim[0], "button", 162.0, -40.0),
            (third, third[0], "button", 230.0, -40.0),
        ]
    )
    hit = len(s.frames)  # step 1 of the next move
    s.move(
        {
            "A7": (1, 6, (150.0, -40.0)),
            victim: (0, 3, (175.0, -40.0)),
            third: (1, 9, (400.0, -40.0)),
        }
    )
    s.rest(6)
    k = hit + 4  # the hit reported once A7 is seen out of hiding
    row = (hit, s.frames[hit].t_s - 0.5 / s.fps, "A7", victim, "piece-piece")
    s.frames[k] = dataclasses.replace(s.frames[k], contacts=Contacts.from_rows([row]))
    return s


@pytest.mark.parametrize("rules", ["nacional", "gaucha"])
def test_a_late_hit_is_the_foul_of_the_lance_a_third_pieces_start_closed(rules: str) -> None:
    events = run(rules, _struck_on_unseen("B5", "B6"), **OPTIONS)
    (foul,) = find(events, "foul", "A", "A7", victim="B5")
    assert foul["evidence"]["awarded_to"] == "B"


def test_a_late_hit_on_a_team_mate_is_no_foul_of_the_closed_lance() -> None:
    assert not find(run("nacional", _struck_on_unseen("A8", "B6"), **OPTIONS), "foul")


@pytest.mark.parametrize("rules", ["nacional", "gaucha", "brasileira"])
def test_a_late_hit_is_placed_where_its_offender_struck(rules: str) -> None:
    # A7 struck B5 at (100, -40) and had gone on 30 mm by the time the hit was reported: the
    # foul, and the free kick's spot, are where it struck, not where it had gone (gaucha's ten
    # minutes, seed 38, frame 7611: a foul reported six frames on placed 94 mm off)
    events = run(rules, _struck_on_unseen("B5", "B6"), **OPTIONS)
    (foul,) = find(events, "foul", "A", "A7", victim="B5")
    assert foul["evidence"]["at"] == pytest.approx([100.0, -40.0], abs=0.5)
    if foul["evidence"]["restart"] != "penalty":
        assert foul["evidence"]["spot"] == pytest.approx([100.0, -40.0], abs=0.5)
