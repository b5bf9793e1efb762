"""A button struck from rest and hit again within the next frame: the first hit.

The contact finder reads a hit from the bodies' velocities a frame either side. A button set
going from rest that meets a third body within the next frame has no clean velocity after the
first hit: its step over the frame of the hit is what it shows (vision/contacts.py,
``struck_on``). Gaucha's ten-minute render, seed 47, frames 15015-15030: A11 at 640 mm/s into
B2 resting 0.1 mm off its edge; B2 struck its goalkeeper B1 half a frame later and came back
onto A11. Read with its velocity after the second hit, B2 seemed still closing on A11 after the
first, which was lost: B2's start read as B's own lance and A11's second touch as B2's foul.
001 Art. XXIV: a piece that touches an opponent before the ball is a foul - A11's. The
simulator's positions with 0.2 mm of noise; the table mirrored too. Failure rows: B2's fit
thrown 6 mm off for a frame and back (a hand's shadow), A11 stopping short of it.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.contact_play import play_seen
from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 15015
HIT = 15021.5  # the truth's contact, in the interval ending at 15022
IDS = np.array(["A11", "B2", "B1"])
KIND = np.array(["button", "button", "goalkeeper"])
SIZE = np.array([[60.0, 60.0], [60.0, 60.0], [60.0, 34.0]])
ANGLE = np.array([0.0, 0.0, np.pi / 2])
B1 = (782.0, 0.0)
_A11 = [(576.337, 88.209)] * 3 + [(598.442, 86.712), (625.190, 84.901), (649.125, 83.280),
                                  (670.543, 81.830), (676.176, 87.081), (680.371, 92.190),
                                  (681.814, 98.411), (678.295, 107.411), (675.147, 115.464),
                                  (672.329, 122.671), (669.808, 129.119), (667.552, 134.890),
                                  (665.533, 140.053)]  # fmt: skip
_B2 = [(724.773, 56.108)] * 7 + [(738.305, 49.558), (736.337, 54.760), (732.188, 61.376),
                                 (733.285, 63.864), (734.266, 66.091), (735.144, 68.083),
                                 (735.930, 69.866), (736.633, 71.461),
                                 (737.263, 72.888)]  # fmt: skip
_MOVING_FROM = (15020, 15023, 10**6)  # the tracker's flags


def _play(a11: list, b2: list, mirror: bool, seed: int) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(IDS, KIND, SIZE, ANGLE, max_speed_mm_s=np.full(3, 3500.0))
    paths = np.stack([np.array(a11), np.array(b2), np.array([B1] * len(a11))], axis=1)
    return play_seen(
        finder, paths, FIRST, _MOVING_FROM, np.full(3, 0.2), np.full(3, 0.3), rng, mirror
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_button_struck_into_a_third_body_at_once_was_struck_first(
    seed: int, mirror: bool
) -> None:
    hits = _play(_A11, _B2, mirror, seed)
    first = min(hits, key=lambda c: c.t)
    assert (first.a, first.b) == ("A11", "B2"), hits
    assert abs(first.t * FPS - HIT) <= 1.0, hits


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("case", ["fit_thrown_off", "stopped_short"])
def test_no_hit_without_the_strike(seed: int, mirror: bool, case: str) -> None:
    if case == "fit_thrown_off":
        # A11 going by 20 mm clear; B2's fit thrown 6 mm off for a frame and back
        a11 = [(x, y + 20.0) for x, y in _A11]
        b2 = [_B2[0]] * 7 + [(_B2[0][0] + 6.0, _B2[0][1] - 1.0)] + [_B2[0]] * 8
    else:  # A11 stops 5 mm short of B2, which never moves
        stop = (_B2[0][0] - 65.0, _B2[0][1] + 3.0)
        a11 = _A11[:6] + [stop] * 10
        b2 = [_B2[0]] * 16
    hits = _play(a11, b2, mirror, seed)
    assert not [c for c in hits if {c.a, c.b} == {"A11", "B2"}], hits
