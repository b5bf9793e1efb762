"""A position learnt a frame late (:meth:`vision.contacts.ContactFinder.patch_last`) is as good
as one seen on its frame.

Gaucha's ten minutes, seed 32 (``python -m benchmarks.bench_analyze --rules gaucha --seed 32``),
frame 14656: A4, under its coach's hand, struck the resting ball, hidden by the same hand; the
ball was first seen the frame after, 72 mm off, and off the rail two frames on. The
tracker now believes such a first sighting of a resting ball only when it is seen again
(:meth:`vision.tracker.Tracker._glimpsed`) and tells the finder a frame late. Patched in the
frames held but not in the history, the ball's start was dated a frame late: its first two
steps away then straddled the rail, pointed nowhere near the striker, and A4's touch and the
corner after it were lost. Each row's contacts must be the same whether the ball's first
sighting came on its frame or a frame late; the table mirrored too.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A4", "B8", "ball"])
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])
SIGMA = np.array([0.3, 0.3, 0.15])
N = 20
HIDE = range(8, 12)  # a hand over A4 (frozen where it was) and the ball (predicted at rest)
STRUCK = 10  # the ball's first frame away (struck within the frame before)


def _paths(turn_at: int | None) -> NDArray[np.float64]:
    """(N, 3, 2): A4 resting 5 mm from the ball (at the origin), flicked at frame 9 and
    striking it half a frame later, then sliding on at 300 mm/s; the ball struck away along +x
    at 1500 mm/s, reflected in x at frame ``turn_at`` (a rail)."""
    t = np.arange(N, dtype=float)
    a4 = np.column_stack([-40.0 + 10.0 * np.clip(t - 9.0, 0.0, 0.5) + 10.0 * np.maximum(
        t - 9.5, 0.0), np.zeros(N)])  # fmt: skip
    x = np.where(t >= STRUCK, 50.0 * (t - STRUCK + 0.5), 0.0)  # struck mid-frame
    if turn_at is not None:
        x = np.where(t > turn_at, 2.0 * x[turn_at] - x, x)
    ball = np.column_stack([x, np.zeros(N)])
    return np.stack([a4, np.tile([300.0, -250.0], (N, 1)), ball], axis=1)


def _contacts(paths: NDArray[np.float64], late: bool, seed: int) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX)
    out: list[TrackContact] = []
    frozen = paths[HIDE.start - 1, 0]
    for k, xy in enumerate(paths):
        xy = xy + rng.normal(0.0, 1.0, xy.shape) * SIGMA[:, None]
        ok, seen = np.ones(3, bool), np.ones(3, bool)
        if k in HIDE:
            xy[0], seen[0] = frozen, False  # predicted where it rested, under the hand
            if k < STRUCK or (late and k == STRUCK):
                xy[2], seen[2] = 0.0, False  # predicted at rest
        moving = np.zeros(3, bool) if not k else np.hypot(*(paths[k] - paths[k - 1]).T) > 0.5
        if late and k == STRUCK + 1:
            finder.patch_last(np.array([2]), paths[STRUCK, 2][None])
        out += finder.push(k, k / FPS, xy, ok, moving, known=np.ones(3, bool), seen=seen)
    return out


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("turn_at", [None, 11, 12, 13])
def test_a_ball_first_seen_a_frame_late_keeps_its_striker(
    mirror: bool, seed: int, turn_at: int | None
) -> None:
    paths = _paths(turn_at)
    if mirror:
        paths[..., 0] *= -1.0
    on_time = [(c.a, c.b, c.frame) for c in _contacts(paths, False, seed)]
    late = [(c.a, c.b, c.frame) for c in _contacts(paths, True, seed)]
    assert late == on_time
    assert ("A4", "ball") in {(a, b) for a, b, _ in on_time}, on_time
