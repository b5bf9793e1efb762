"""A ball struck and lost for most of a second is credited to its striker (vision/contacts.py).

From the offside drills through the camera (``benchmarks/bench_offside.py``, drill 4004, a
white team on a pale felt): the coach flicked A6 from under his hand into the resting ball; the
ball, a faint streak at 1.3 m/s, was not seen for nine frames, nor was A6 until it stopped.
When the ball was seen rolling again 390 mm on, its speed (friction had taken 65% of it) traced
its start back 24 frames, beyond what is timed by speed (12): the pass's touch was lost.
Traced by the striker's path instead (:meth:`ContactFinder._path_striker`): the piece whose
known places, straight between them, passed the ball's resting place from behind. A leg from
where a piece was frozen under a hand is untimed: the hit is put just after the ball was last
seen at rest.

Seeded trajectories at 30 frames/s with 0.3 mm of noise; the ball slows by 7% a frame (the
simulator's felt). Failure rows: the ball lost too long for the positions kept, and a piece
whose path passed beside the ball's place, not through it (seen, or out of hiding).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A6", "B3", "ball"])
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[50.0, 50.0], [50.0, 50.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])
REST = np.array([190.0, 145.0])
HIT = 12  # the ball leaves its rest between frames HIT - 1 and HIT


def _run(
    seed: int, lost: int, frozen_from: int, offset_mm: float = 0.0, n: int = 40
) -> list[TrackContact]:
    """A6 rests at ``REST - 140 mm`` along the pass, frozen under a hand from
    ``frozen_from``, flicked at 1500 mm/s so that it reaches the ball at HIT (its centre's
    line ``offset_mm`` beside the ball's), and seen again only once it stopped (frame
    HIT + 10); the ball, at rest until HIT, rolls off at 1300 mm/s along the same line slowing
    7% a frame, unseen (predicted at rest, as a tracker does) for ``lost`` frames; B3 rests
    far off."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(-np.pi, np.pi)
    u = np.array([np.cos(angle), np.sin(angle)])
    side = np.array([-u[1], u[0]])
    start = REST - 140.0 * u + offset_mm * side
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX)
    out: list[TrackContact] = []
    ball = REST.copy()
    v = 1300.0 / FPS
    a6 = start.copy()
    for k in range(n):
        if k >= HIT:
            ball = ball + v * u
            v *= 0.93
        # A6: 110 mm to the touch in the three frames before HIT, then on, slowing, to rest
        if HIT - 3 <= k < HIT:
            a6 = start + (k - (HIT - 3) + 1) * (110.0 / 3.0) * u
        elif HIT <= k < HIT + 6:
            a6 = a6 + 15.0 * u
        xy = np.array([a6, [-400.0, -300.0], ball]) + rng.normal(0.0, 0.3, (3, 2))
        ok, seen = np.ones(3, bool), np.ones(3, bool)
        if k >= frozen_from and k < HIT + 10:  # frozen where it rested under the hand
            xy[0], ok[0], seen[0] = start, False, False
        if HIT <= k < HIT + lost:  # the ball's track predicted at rest, not seen
            xy[2], seen[2] = REST, False
        moving = np.array([False, False, k >= HIT + lost])
        out += finder.push(k, k / FPS, xy, ok, moving, np.ones(3, bool), seen)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_a_pass_lost_for_nine_frames_has_its_striker(seed: int) -> None:
    hits = [c for c in _run(seed, lost=9, frozen_from=4) if c.b == "ball"]
    assert [(c.a, c.kind) for c in hits] == [("A6", "piece-ball")]
    # untimed out of hiding: just after the ball was last seen at rest
    assert abs(hits[0].t * FPS - (HIT - 0.5)) <= 1.0, hits[0].t * FPS


@pytest.mark.parametrize("seed", range(3))
def test_a_pass_struck_in_sight_is_timed_on_the_strikers_path(seed: int) -> None:
    # A6 seen all along (never frozen); the ball lost for nine frames
    hits = [c for c in _run(seed, lost=9, frozen_from=10**6) if c.b == "ball"]
    assert [c.a for c in hits] == ["A6"]
    assert abs(hits[0].t * FPS - HIT) <= 1.5, hits[0].t * FPS


@pytest.mark.parametrize(
    ("lost", "frozen_from", "offset_mm", "why"),
    [
        (28, 4, 0.0, "lost longer than the positions kept: no one to credit"),
        (9, 10**6, 45.0, "A6, seen, passed 45 mm beside the ball's place: it struck nothing"),
        (9, 4, 75.0, "A6 out of hiding, its guessed path 75 mm beside: it struck nothing"),
    ],
)
def test_failure_rows(lost: int, frozen_from: int, offset_mm: float, why: str) -> None:
    hits = _run(0, lost=lost, frozen_from=frozen_from, offset_mm=offset_mm, n=50)
    assert not [c for c in hits if c.b == "ball" and c.a == "A6"], why
