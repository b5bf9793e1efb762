"""Who struck a ball no seen hit explains (vision/contacts.py): the piece that came at it.

A hit's impulse is along the line of centres, so the ball's change of velocity points from
where its striker met it; a piece that would have had to move away from the ball to get
there struck nothing. Brasileira's ten-minute render (seed 31), frames 14857-14872: A6,
flicked from under its coach's hand, struck the ball and team-mate A4 in the same frame; the
touch went to A4, 19 mm from the ball and nearer than A6's frozen place (25.3 mm), though A4
lay beside the ball, not behind where it was struck from (000 REGRA 4 LANCE: the lance is
the striker's). The simulator's positions of those frames, 0.3 mm of detection noise (0.1 mm
on the ball); the table mirrored too (the verdict must mirror).
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A6", "A4", "ball"])
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])
FIRST = 14857
# (A6, A4, ball) of frames 14857-14872; A6 under a hand from 14860 until it is seen at 14868
TRUTH = np.array(
    [[[-441.128, 583.039], [-525.796, 537.864], [-471.813, 530.721]]] * 8
    + [
        [[-466.732, 567.362], [-525.796, 537.864], [-471.813, 530.721]],  # 14865
        [[-474.685, 561.039], [-559.623, 521.359], [-471.566, 509.908]],  # 14866: the hits
        [[-477.237, 557.976], [-594.461, 504.361], [-471.303, 487.739]],
        [[-479.522, 555.236], [-625.636, 489.151], [-471.059, 467.152]],
        [[-481.565, 552.783], [-653.532, 475.540], [-470.832, 448.035]],
        [[-483.394, 550.589], [-678.494, 463.361], [-470.622, 430.283]],
        [[-485.031, 548.625], [-700.832, 452.463], [-470.426, 413.799]],
        [[-486.496, 546.868], [-720.821, 442.710], [-470.245, 398.492]],
    ]
)
HIDDEN = (14860, 14867)  # A6 frozen where the hand covered it
BLURRED = 14866  # A4 knocked away, not measured: predicted at rest


def _contacts(
    seed: int, mirror: bool, frozen_shift: tuple[float, float] = (0.0, 0.0)
) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    shown = TRUTH * (np.array([-1.0, 1.0]) if mirror else 1.0)
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX)
    out: list[TrackContact] = []
    for k in range(len(shown)):
        frame = FIRST + k
        xy = shown[k] + rng.normal(0.0, 1.0, (3, 2)) * np.array([[0.3], [0.3], [0.1]])
        ok, seen = np.ones(3, bool), np.ones(3, bool)
        if HIDDEN[0] <= frame <= HIDDEN[1]:
            xy[0] = shown[HIDDEN[0] - FIRST - 1, 0] + np.array(frozen_shift)
            ok[0] = seen[0] = False
        if frame == BLURRED:
            xy[1], seen[1] = shown[k - 1, 1], False
        moving = np.hypot(*(shown[k] - shown[max(k - 1, 0)]).T) > 1.0
        out += finder.push(frame, frame / FPS, xy, ok, moving & ok, np.ones(3, bool), seen)
    return out


def _ball_touches(found: list[TrackContact]) -> list[tuple[str, int]]:
    return [(c.a if c.b == "ball" else c.b, c.frame) for c in found if c.kind == "piece-ball"]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("mirror", [False, True])
def test_a_ball_struck_by_a_flicked_piece_is_not_the_neighbour_it_knocked_away(
    seed: int, mirror: bool
) -> None:
    touches = _ball_touches(_contacts(seed, mirror))
    assert len(touches) == 1, touches
    piece, frame = touches[0]
    assert piece == "A6"
    assert abs(frame - 14866) <= 1


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("mirror", [False, True])
def test_a_piece_beside_the_ball_not_behind_its_hit_never_gets_the_touch(
    seed: int, mirror: bool
) -> None:
    # A6's frozen place 60 mm further from the ball, beyond any reach: no piece struck the
    # ball that the tracks can name, and A4 (moving away) is not made its striker
    shift = (36.0 * (-1.0 if mirror else 1.0), 48.0)
    touches = _ball_touches(_contacts(seed, mirror, shift))
    assert all(piece != "A4" for piece, _ in touches), touches
