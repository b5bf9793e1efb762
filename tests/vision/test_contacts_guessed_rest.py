"""Which of two pieces resting by their tracks struck the other: the one whose rest was a guess.

A piece flicked from under its coach's hand is held by its track where it rested (predicted,
not seen) until it comes out moving; the piece it strikes was seen resting. Both then read at
rest before the hit, and the contact finder named the striker the faster of the two before
it, by a few mm/s of fits' noise. Brasileira's ten minutes (seed 43, frames 15236-15252, as
tracked): A5 (tracked A8), held at its rest for six frames, was flicked through the resting
ball into B9 (B11), seen resting beside it; the hit named B11 the striker, its start was read
as B's lance and a foul called on it (000 REGRA 12 FALTA), where A5 had touched the ball first.
The one whose rest was a guess was the one going.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 15236
IDS = np.array(["A8", "B11", "ball"])
_A8 = [(-296.48, 28.69)] * 9 + [(-268.71, 26.33), (-262.07, 30.10), (-255.84, 33.43),
                                (-250.66, 36.44), (-245.64, 38.29), (-241.47, 41.16),
                                (-237.45, 42.62), (-234.14, 45.05)]  # fmt: skip
_B11 = [(-241.12, -25.69)] * 3 + [(-241.12, -25.62), (-241.12, -25.59), (-241.12, -25.58),
                                  (-241.12, -25.59), (-241.07, -25.70), (-241.49, -25.11),
                                  (-234.29, -35.42), (-228.04, -44.02), (-222.58, -51.50),
                                  (-217.74, -58.21), (-213.34, -64.95), (-209.30, -69.99),
                                  (-205.32, -75.08), (-202.33, -79.31)]  # fmt: skip
_BALL = [(-252.49, 44.42)] * 7 + [(-252.49, 44.43), (-252.48, 44.44), (-232.16, 58.15),
                                  (-218.21, 67.64), (-204.87, 76.77), (-192.66, 84.85),
                                  (-181.68, 92.53), (-171.08, 99.62), (-161.34, 106.41),
                                  (-152.17, 112.32)]  # fmt: skip
_UNSEEN = {"A8": range(15239, 15245), "B11": range(0), "ball": (15244,)}  # as tracked
_MOVING_FROM = (15247, 15246, 15246)


def _contacts(seed: int, mirror: bool, unseen: dict[str, range | tuple[int, ...]]) -> list:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(
        IDS,
        np.array(["button", "button", "ball"]),
        np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]]),
        np.zeros(3),
        max_speed_mm_s=np.array([3500.0, 3500.0, 6000.0]),
    )
    paths = np.stack([np.array(p) for p in (_A8, _B11, _BALL)], axis=1)
    out: list[TrackContact] = []
    for q in range(len(paths)):
        frame = FIRST + q
        seen = np.array([frame not in unseen[p] for p in IDS])
        xy = paths[q].copy()
        xy[seen] += rng.normal(0.0, 0.1, (int(seen.sum()), 2))
        if mirror:
            xy[:, 0] *= -1.0
        moving = np.array([frame >= f for f in _MOVING_FROM])
        sigma = np.where(seen, np.array([0.3, 0.3, 0.1]), np.inf)
        out += finder.push(frame, frame / FPS, xy, np.ones(3, bool), moving, None, seen, sigma)
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mirror", [False, True])
def test_the_piece_held_where_it_rested_struck_the_one_seen_resting(
    seed: int, mirror: bool
) -> None:
    hits = [(c.a, c.b) for c in _contacts(seed, mirror, _UNSEEN) if c.kind == "piece-piece"]
    assert hits == [("A8", "B11")], hits


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_struck_piece_seen_resting_is_named_so_either_way(seed: int, mirror: bool) -> None:
    # the same hit with B11's rest the guess and A8 seen resting: B11 named the striker (the
    # rule reads the tracks' doubt, not the teams or the places)
    unseen = {"A8": range(0), "B11": range(15239, 15245), "ball": (15244,)}
    hits = [(c.a, c.b) for c in _contacts(seed, mirror, unseen) if c.kind == "piece-piece"]
    assert hits == [("B11", "A8")], hits
