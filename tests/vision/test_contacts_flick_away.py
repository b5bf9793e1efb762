"""A button flicked away from a resting neighbour touched nothing (vision/contacts.py).

Gaucha's ten-minute render, seed 31, frames 13627-13635 (the twenty-ninth stop's): B4, resting
5.2 mm from A8, was flicked away from it (68 degrees off their line of centres). Traced back
from its first frame at its speed, its path passed its own place and through A8's edge: a
touch, then a foul (001 Art. XXIV). A8 never moved, and a button struck from rest is set going
(the same mass: it takes most of the impulse). The tracker's positions of those frames with
0.2 mm of noise, mirrored too. The failure row: B4 flicked into A8, which leaves at once.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A8", "B4"])
KIND = np.array(["button", "button"])
SIZE = np.full((2, 2), 60.0)
A8 = np.array([562.2, 289.8])
B4_PATH = np.array(
    [[624.3, 270.0]] * 4 + [[632.5, 250.3], [668.2, 167.7], [700.8, 91.4], [729.6, 23.1]]
)


def _contacts(seed: int, mirror: bool, into: bool) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    flip = np.array([-1.0, 1.0]) if mirror else np.ones(2)
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(2), max_speed_mm_s=np.full(2, 3500.0))
    u = (A8 - B4_PATH[0]) / np.hypot(*(A8 - B4_PATH[0]))  # from B4 to A8
    out: list[TrackContact] = []
    for k in range(len(B4_PATH) + 3):
        kk = min(k, len(B4_PATH) - 1)
        a8, b4 = A8.copy(), B4_PATH[kk].copy()
        if into and k >= 4:  # B4 into A8: A8 off at 25 mm a frame, B4 crawling after it
            a8 = A8 + u * 25.0 * (k - 3.5)
            b4 = B4_PATH[0] + u * (5.2 + 2.5 * (k - 3.5))
        moving = np.array([into and k >= 4, k >= 4])
        xy = np.array([a8, b4]) * flip + rng.normal(0.0, 0.2, (2, 2))
        sigma = np.full(2, 0.2)
        out += finder.push(
            13627 + k, (13627 + k) / FPS, xy, np.ones(2, bool), moving, None, None, sigma
        )
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("into", [False, True])
def test_a_button_flicked_away_from_a_still_neighbour_touched_nothing(
    seed: int, mirror: bool, into: bool
) -> None:
    hits = [c for c in _contacts(seed, mirror, into) if c.kind == "piece-piece"]
    if into:  # (both at rest before the frame: which struck is the finder's tie)
        assert [{c.a, c.b} for c in hits] == [{"B4", "A8"}]
    else:
        assert hits == []
