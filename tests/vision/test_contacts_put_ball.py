"""A ball a hand put down is not struck (vision/contacts.py, ``_cut_jumps``).

Gaucha's ten minutes, seed 32, frames 14184-14200 (``python -m benchmarks.bench_analyze --rules
gaucha --seed 32``): the ball lay in the left goal; a coach's hand, covering the goalkeeper A1
too, carried it out to the goal kick's place (001 Art. XXXIII), 180 mm off. The tracker, not
finding it, predicted it where it lay for 11 frames; found again, it was still there the frame
after. From the guess to the sighting the ball went 180 mm in a frame, 5.4 m/s: read as struck
by the goalkeeper, a false touch. A ball sent that far by a hit rolls on (or bounces off what
stops it); one still the frame after was put there. The failure rows: the same sighting with
the ball rolling on from it is a hit, and so is a ball guessed for a frame, struck and rolling.
The table mirrored too (the verdict must mirror).
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
VMAX = np.array([3500.0, 6000.0])
SIGMA = np.array([0.3, 0.1])
KEEPER = (-782.0, 0.0)
LAY = np.array([-822.9, 97.1])  # in the goal
PUT = np.array([-765.0, -73.5])  # the goal kick's place


def _contacts(
    ball: NDArray[np.float64],
    seen: NDArray[np.bool_],
    seed: int,
    mirror: bool,
    piece: NDArray[np.float64] | None = None,
    hidden: NDArray[np.bool_] | None = None,
) -> list[TrackContact]:
    """The finder's piece-ball contacts; ``piece`` (frames, 2): a button's path (None: the
    goalkeeper at rest on its line); ``hidden``: the frames a hand hid the piece."""
    rng = np.random.default_rng(seed)
    flip = np.array([-1.0, 1.0]) if mirror else np.ones(2)
    button = piece is not None
    finder = ContactFinder(
        np.array(["A1", "ball"]),
        np.array(["button" if button else "goalkeeper", "ball"]),
        np.array([[50.0, 50.0] if button else [60.0, 34.0], [10.0, 10.0]]),
        np.array([0.0 if button else np.pi / 2, 0.0]),
        max_speed_mm_s=VMAX,
    )
    path = piece if piece is not None else np.repeat(np.array([KEEPER]), len(ball), axis=0)
    hidden = np.zeros(len(ball), bool) if hidden is None else hidden
    out: list[TrackContact] = []
    prev = np.zeros((2, 2))
    for k in range(len(ball)):
        xy = np.array([path[k], ball[k]]) * flip + rng.normal(0.0, 1.0, (2, 2)) * 0.05
        s = np.array([True, bool(seen[k])])
        if k and not s[1]:  # the tracker's guess: where it was last (at rest)
            xy[1] = prev[1]
        prev = xy
        # the tracker's flags: a piece moving from its first step; the ball found off its
        # guess is flagged moving for four frames (the jump read as its velocity)
        back = [np.hypot(*(ball[k] - ball[j])) > 0.5 for j in range(max(k - 4, 0), k)]
        moving = np.array([k > 0 and np.hypot(*(path[k] - path[k - 1])) > 0.5, any(back)])
        ok = np.array([not hidden[k], True])
        known = np.ones(2, bool)
        s[0] = ok[0]
        out += finder.push(k, k / FPS, xy, ok, moving, known, s, np.where(s, SIGMA, np.inf))
    return [c for c in out if c.kind == "piece-ball"]


def _carried(
    unseen: int, then: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """At rest in the goal for 6 frames, unseen ``unseen`` frames, then seen along ``then``."""
    ball = np.concatenate([np.repeat(LAY[None], 6 + unseen, axis=0), then])
    seen = np.r_[np.ones(6, bool), np.zeros(unseen, bool), np.ones(len(then), bool)]
    return ball, seen


@pytest.mark.parametrize("unseen", [2, 5, 11])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_ball_put_down_by_a_hand_is_not_struck(unseen: int, seed: int, mirror: bool) -> None:
    ball, seen = _carried(unseen, np.repeat(PUT[None], 8, axis=0))
    # the hand over the goalkeeper too, lifted three frames before the ball is found
    hidden = np.zeros(len(ball), bool)
    hidden[6 : 6 + max(unseen - 3, 0)] = True
    assert not _contacts(ball, seen, seed, mirror, hidden=hidden)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_ball_found_off_its_guess_and_rolling_on_was_struck(seed: int, mirror: bool) -> None:
    # failure rows: a button slides into the resting ball (30 mm a frame, then a third of it
    # after the hit), the ball unseen on the hit's frame, found 40 mm off and rolling on at
    # 0.9 of its speed a frame: A1 struck it
    rest = np.array([-400.0, 10.0])
    u = np.array([0.8, -0.6])
    hit = 7  # the hit between frames 6 and 7
    # 15 mm from it at frame 6 (edge to edge), against it half a frame later, 10 mm a frame on
    btn = rest - 45.0 * u + (np.arange(15) - (hit - 1))[:, None] * 30.0 * u
    btn[hit:] = rest - 25.0 * u + np.arange(15 - hit)[:, None] * 10.0 * u
    steps = 40.0 * 0.9 ** np.arange(15 - hit)
    ball = np.concatenate(
        [np.repeat(rest[None], hit, axis=0), rest + np.cumsum(steps)[:, None] * u]
    )
    seen = np.ones(15, bool)
    seen[hit] = False
    touches = _contacts(ball, seen, seed, mirror, piece=btn)
    assert [c.a for c in touches] == ["A1"], touches
    assert abs(touches[0].t * FPS - (hit - 0.5)) <= 1.0
