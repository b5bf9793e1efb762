"""A chain of hits under a coach's hand: the flicked piece's victim, slowed by its own hit on a
third piece, is known struck by how fast that third piece came out (vision/contacts.py,
``_struck_from_hiding``).

Gaucha's ten-minute render, seed 38, frames 7596-7620, as tracked: A9 rested against B3 (0.7 mm
apart), B5 130 mm beyond; a coach's hand covered all three from 7603. Under it A9 was flicked
into B3 at 7611 (a foul, 001 Art. XXIV: the lance's piece touched an opponent before the ball)
and B3 into B5. A9 came out at 7614 going on at 650 mm/s, B5 at 7615 at 880 mm/s, B3 at 7615
at 110 mm/s, 89 mm from its rest: 267 mm/s on the mean since it was last seen, under the
300 mm/s a piece struck from hiding must have gone. B3's start was read as B's own lance and
the foul was lost. A piece that struck another in hiding went at least as fast as that one
came out, and the piece behind it, frozen and come out moved, struck it, before that hit by
the time it took to cover the gap between them (half way between that hit and the time at the
third piece's speed out: the simulator's times 7610.38 and 7612.0).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A9", "B3", "B5"])
FIRST = 7596
_REST = [(305.88, 409.33), (298.99, 349.05), (284.44, 214.43)]
# the frames after the hand, as tracked: A9 seen from 7614, B3 and B5 from 7615
_OUT = {
    7614: [(397.81, 375.33), None, None],
    7615: [(416.88, 368.74), (277.61, 262.73), (278.85, 115.56)],
    7616: [(433.97, 363.09), (274.91, 260.24), (277.28, 89.13)],
    7617: [(449.21, 357.78), (272.44, 257.98), (275.94, 65.54)],
    7618: [(463.24, 353.56), (270.23, 255.77), (274.66, 44.35)],
    7619: [(475.43, 349.24), (268.48, 254.00), (273.36, 25.21)],
    7620: [(483.03, 343.20), (266.48, 252.01), (272.39, 8.32)],
}
_HIDDEN_FROM = (7603, 7603, 7602)
_MOVING_FROM = (7614, 7616, 7615)  # the tracker's flags


def _contacts(seed: int, mirror: bool, a9_back_mm: float = 0.0) -> list[TrackContact]:
    """The tracked frames with 0.2 mm of noise on the seen places; ``a9_back_mm``: A9 rested
    (and came out) that much further from B3, along their line of centres."""
    rng = np.random.default_rng(seed)
    rest = np.array(_REST)
    u = rest[0] - rest[1]
    shift = a9_back_mm * u / np.hypot(*u)
    finder = ContactFinder(
        IDS, np.array(["button"] * 3), np.full((3, 2), 60.0), np.zeros(3),
        max_speed_mm_s=np.full(3, 3500.0),
    )  # fmt: skip
    out: list[TrackContact] = []
    for frame in range(FIRST, max(_OUT) + 1):
        xy, seen = rest.copy(), np.ones(3, bool)
        for p in range(3):
            place = _OUT.get(frame, [None] * 3)[p]
            if place is not None:
                xy[p] = place
            elif frame >= _HIDDEN_FROM[p]:
                seen[p] = False  # frozen under the hand where it was last seen
        xy[0] += shift
        xy[seen] += rng.normal(0.0, 0.2, (int(seen.sum()), 2))
        if mirror:
            xy[:, 0] *= -1.0
        moving = np.array([frame >= f for f in _MOVING_FROM]) & seen
        out += finder.push(
            frame, frame / FPS, xy, seen, moving, np.ones(3, bool), seen,
            np.where(seen, 0.3, np.inf),
        )  # fmt: skip
    return out


def _hits(found: list[TrackContact]) -> list[tuple[str, str]]:
    return [(c.a, c.b) for c in found]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mirror", [False, True])
def test_the_flicked_piece_struck_the_one_that_struck_the_third(seed: int, mirror: bool) -> None:
    found = _contacts(seed, mirror)
    hits = _hits(found)
    assert hits.count(("B3", "B5")) == 1, hits
    assert hits.count(("A9", "B3")) == 1, hits
    foul = next(c for c in found if (c.a, c.b) == ("A9", "B3"))
    assert abs(foul.t * FPS - 7610.38) <= 1.0, foul  # the simulator's time, within a frame
    assert foul.t < next(c for c in found if (c.a, c.b) == ("B3", "B5")).t


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
def test_no_striker_out_of_its_reach(seed: int, mirror: bool) -> None:
    # A9 rested 45 mm back from B3 (beyond the 40 mm a piece flicked from hiding covers
    # before it strikes): B3's strike on B5 is read, its own start stays unexplained
    hits = _hits(_contacts(seed, mirror, a9_back_mm=45.0))
    assert ("B3", "B5") in hits, hits
    assert ("A9", "B3") not in hits, hits
