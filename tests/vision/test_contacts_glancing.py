"""A piece flicked from under its coach's hand that glanced off the piece it struck
(vision/contacts.py, ``_glancing_striker``).

Brasileira's ten-minute render, seed 49, frames 6918-6937: A11, frozen under the hand 280 mm
from B11, is flicked 230 mm into B11 at rest and glances off; B11 is seen leaving, A11 first
seen again three frames later, turned, 290 mm from where it froze. A straight path from there
to that sighting passes 89 mm from B11: no striker was found, B11's start was read as B's own
lance and A11's foul lost (000 REGRA 12 FALTA: an opponent touched before the ball). From
where it froze it went into B11 along their line at the hit, and came out along what the hit
leaves of its way, the part across that line. The simulator's positions with 0.2 mm of noise,
hidden as tracked; the table mirrored too. Failure rows: A11 seen again where it froze, out
the other way (not across its way in), or frozen beside B11's way instead of behind it.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 6918
HIT = 6929.9  # the truth's contact (230.996 s)
IDS = np.array(["A11", "B11"])
_A11 = [(554.117, -51.442)] * 10 + [(560.477, -139.801), (566.169, -218.869),
                                    (567.721, -283.850), (545.675, -303.805),
                                    (525.947, -321.661), (508.293, -337.639),
                                    (492.496, -351.937), (478.360, -364.732),
                                    (465.710, -376.180), (454.391, -386.425)]  # fmt: skip
_B11 = [(601.588, -331.611)] * 12 + [(605.128, -337.381), (622.141, -367.184),
                                     (622.259, -372.510), (622.366, -377.275),
                                     (622.461, -381.539), (622.546, -385.355),
                                     (622.622, -388.769), (622.691, -391.825)]  # fmt: skip
_HIDDEN = range(6921, 6933)  # A11 under the hand, held where it froze


def _play(a11: np.ndarray, b11: np.ndarray, mirror: bool, seed: int) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(
        IDS,
        np.array(["button", "button"]),
        np.array([[60.0, 60.0]] * 2),
        np.zeros(2),
        max_speed_mm_s=np.full(2, 3500.0),
    )
    out: list[TrackContact] = []
    for q in range(len(a11)):
        frame = FIRST + q
        seen = np.array([frame not in _HIDDEN, True])
        xy = np.array([a11[q], b11[q]]) + rng.normal(0.0, 0.2, (2, 2))
        if not seen[0]:
            xy[0] = a11[0]
        if mirror:
            xy[:, 0] *= -1.0
        moving = np.array([frame >= 6933, frame >= 6931])
        sig = np.where(seen, 0.3, np.inf)
        out += finder.push(frame, frame / FPS, xy, seen, moving, np.ones(2, bool), seen, sig)
    return [c for c in out if c.kind == "piece-piece"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_piece_out_of_hiding_glanced_off_the_one_it_struck(seed: int, mirror: bool) -> None:
    hits = _play(np.array(_A11), np.array(_B11), mirror, seed)
    assert [(c.a, c.b) for c in hits] == [("A11", "B11")], hits
    assert abs(hits[0].t * FPS - HIT) <= 1.0, hits


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("case", ["never_moved", "out_the_other_way", "frozen_beside"])
def test_no_glance_without_a_way_in_and_out(seed: int, mirror: bool, case: str) -> None:
    a11, b11 = np.array(_A11), np.array(_B11)
    if case == "never_moved":
        a11[:] = a11[0]
    elif case == "out_the_other_way":  # seen again mirrored about its way in: turned the wrong side
        a11[15:, 0] = 2.0 * 567.7 - a11[15:, 0]
    else:  # frozen 280 mm off to the side of B11's way, not behind it
        a11[:15] = a11[:15] + np.array([-280.0, -250.0])
    assert not _play(a11, b11, mirror, seed)
