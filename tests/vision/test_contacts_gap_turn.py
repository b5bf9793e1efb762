"""A ball that left its rest unseen and turned off a piece the frame after it is first seen
(vision/contacts.py, ``_find`` with ``_rest_before``).

Nacional's ten-minute render, seed 41, frames 15155-15170: B9 strikes the resting ball
(15161.3), which a coach's hand hides the next frame (frozen in the tracks); first seen at
15163, 65 mm on, it turns off A2 (15163.1) by the next frame. With no velocity before its
first sighting the ball was taken to have gone as after, so its turn showed no change, A2's
touch was lost and the out at 15170 given to the wrong team. It went the way from its rest
(at the speed it goes on with: when in the gap it was struck is not known): the turn is A2's
touch.

The failure row (paulista's ten minutes, seed 33, frames 14943-14956): A8 strikes the ball
(14948.8), hidden two frames, first seen 87 mm on along its line, A8 following behind it: no
turn, no second touch (a speed from the rest over the whole gap, 29 mm a frame against the
ball's 35, read the next frame as a kick: a false touch of A8 three frames late).

The simulator's positions with 0.2 mm of noise, the table mirrored too.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.contact_play import FPS, play_two_and_ball
from vision.contacts import TrackContact

# (first frame, the striker, the other piece, the ball, the frames the ball is hidden, the frames
# the three are flagged moving from, the truth's touches (piece, frame))
NACIONAL = (
    15155,
    [(-1010.942, -743.441)] * 6
    + [
        (-1004.629, -727.229),
        (-996.845, -706.872),
        (-990.502, -690.094),
        (-984.826, -675.081),
        (-979.747, -661.646),
        (-975.202, -649.625),
        (-971.135, -638.867),
        (-967.495, -629.241),
        (-964.17, -622.211),
        (-961.088, -618.42),
    ],
    [(-964.488, -590.803)] * 9
    + [
        (-965.197, -585.353),
        (-965.926, -579.742),
        (-966.579, -574.721),
        (-967.163, -570.228),
        (-967.685, -566.208),
        (-968.221, -561.026),
        (-968.807, -553.89),
    ],
    [(-988.0, -688.0)] * 7
    + [
        (-977.016, -662.592),
        (-962.009, -627.878),
        (-942.68, -637.133),
        (-923.992, -651.415),
        (-906.638, -664.677),
        (-890.523, -676.993),
        (-875.559, -688.429),
        (-861.663, -699.049),
        (-848.76, -708.91),
    ],
    (15162,),
    (15162, 15165, 15163),
    [("S", 15161.31), ("P", 15163.13)],
)
PAULISTA = (
    14943,
    [(877.803, 757.96)] * 5
    + [
        (877.146, 754.301),
        (872.41, 727.834),
        (869.01, 708.428),
        (865.968, 691.063),
        (863.246, 675.524),
        (860.809, 661.619),
        (858.629, 649.176),
        (856.679, 638.041),
        (854.933, 628.078),
    ],
    [(600.0, 300.0)] * 14,  # (no other piece near)
    [(866.681, 699.0)] * 6
    + [
        (865.14, 691.134),
        (857.293, 651.082),
        (850.006, 613.888),
        (843.24, 579.351),
        (836.956, 547.279),
        (831.122, 517.497),
        (825.704, 489.841),
        (820.672, 464.16),
    ],
    (14949, 14950),
    (14949, 99999, 14951),
    [("S", 14948.81)],
)
SCENES = {"turned_after_the_gap": NACIONAL, "straight_after_the_gap": PAULISTA}


def _contacts(scene: tuple, seed: int, mirror: bool) -> list[TrackContact]:
    first, striker, other, ball, hidden, flags, _ = scene
    a, p, x = (np.array(v, float) for v in (striker, other, ball))
    paths = np.stack([a, p, x], axis=1)
    return play_two_and_ball(("S", "P"), paths, first, flags, seed, mirror, hidden)


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_ball_seen_after_a_gap_is_read_from_its_rest(scene: str, seed: int, mirror: bool) -> None:
    truth = SCENES[scene][6]
    found = [c for c in _contacts(SCENES[scene], seed, mirror) if c.kind == "piece-ball"]
    assert [c.a for c in found] == [piece for piece, _ in truth], found
    for c, (_, frame) in zip(found, truth, strict=True):
        assert abs(c.t * FPS - frame) <= 1.0, (c, frame)
