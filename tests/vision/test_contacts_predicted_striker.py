"""A ball kicked from rest by a piece whose track only predicted it there (vision/contacts.py,
``_ball_hits``).

Gaucha's ten-minute render, seed 36, frames 8100-8110: at a goal kick A3 rested 4 mm behind
the ball; its coach's palm covered it (a palm lit brighter than the forearm, which the hand's
mask left out), so its track was predicted at rest (measured on no frame) while it moved
22 mm into the ball. The ball went out over the goal line at once (a corner, 001 Art.
XXXIV). "A piece seen at rest over the four frames struck nothing" had taken the prediction
for a sighting: no striker, no touch, no out (the kick unseen, play was never restarted).
The detector's own positions of those frames (the ball off the rail at 8109); 0.2 mm of noise,
the table mirrored too. The failure row: A3 seen at rest on every frame (a ball turned by the
rail or a post beside a resting piece touched nothing).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A3", "ball"])
KIND = np.array(["button", "ball"])
SIZE = np.array([[60.0, 60.0], [10.0, 10.0]])
FIRST = 8100
A3 = (-737.3, -64.9)
BALL = [(-775.2, -74.8)] * 7 + [(-810.9, -84.4), (-858.8, -97.0), (-895.1, -109.0)]
BALL += [(-872.7, -120.1)]


def _contacts(seed: int, mirror: bool, a3_seen: bool) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    flip = np.array([-1.0, 1.0]) if mirror else np.ones(2)
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(2), max_speed_mm_s=np.array([3500.0, 6000.0]))
    out: list[TrackContact] = []
    for k, ball in enumerate(BALL):
        frame = FIRST + k
        xy = np.array([A3, ball]) * flip + rng.normal(0.0, 0.2, (2, 2))
        if not a3_seen and frame >= 8101:
            xy[0] = np.array(A3) * flip  # predicted at its rest
        seen = np.array([a3_seen or frame < 8101, True])
        moving = np.array([False, frame >= 8107])
        sigma = np.where(seen, 0.2, np.inf)
        out += finder.push(frame, frame / FPS, xy, np.ones(2, bool), moving, None, seen, sigma)
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("a3_seen", [False, True])
def test_a_piece_only_predicted_at_rest_may_have_kicked_the_ball(
    seed: int, mirror: bool, a3_seen: bool
) -> None:
    touches = [c for c in _contacts(seed, mirror, a3_seen) if c.kind == "piece-ball"]
    if a3_seen:
        assert touches == []
        return
    assert [(c.a, c.b) for c in touches] == [("A3", "ball")]
    assert abs(touches[0].t * FPS - 8106.5) <= 1.0  # the truth's 270.233 s, 8107.0
