"""A ball struck from rest, its striker going on into a piece beside it: that piece did not
touch the ball (vision/contacts.py, ``_find``).

Two scenes from the simulator's truth of ten-minute renders, each a false touch that gave the
ball to the wrong team:

- brasileira, seed 40, frames 7204-7218: B6 strikes the resting ball (7210.5) and, at 7211.0,
  A11 resting 6 mm from the ball's way; the ball goes on. Over the frame of the hit the ball
  moved only after it, so that frame's velocity read half its speed, and the next frame's full
  speed a second kick, at A11's edge just as A11 was knocked away: A11's touch, and the ball
  out at 7258 given to the wrong team. The ball struck within the interval before is read at
  its step over the time since the hit.
- paulista, seed 33, frames 266-282: B6 strikes the ball (273.4) and A9 (274.25); the ball,
  passing 1 mm from A9's edge, slows on the felt by 168 mm/s in the next frame, 34 of it along
  the line to A9. A knocked piece's touch must change the ball along their line of centres,
  away from it, by a hit's least change.

The simulator's positions with 0.2 mm of noise, the table mirrored too. The failure rows: the
ball turned off the knocked piece along their line (by 600 mm/s): its touch is found.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.contact_play import FPS, play_two_and_ball
from vision.contacts import TrackContact

# (first frame, striker, knocked piece, ball, frames the striker, the knocked piece and the
# ball are flagged moving from (the tracker's flags a frame after they went), the hits' frames,
# the first frame of the failure rows' turned way: the frame after the ball's nearest pass)
BRASILEIRA = (
    7204,
    [
        (520.0, -154.0),
        (520.0, -154.0),
        (520.0, -154.0),
        (518.302, -156.709),
        (492.677, -197.589),
        (469.746, -234.17),
        (449.227, -266.904),
        (433.532, -294.201),
        (431.066, -295.804),
        (428.858, -297.243),
        (426.882, -298.531),
        (425.114, -299.683),
        (423.531, -300.714),
        (422.115, -301.637),
        (420.849, -302.462),
    ],
    [(410.026, -348.537)] * 8
    + [
        (400.97, -369.472),
        (392.868, -388.201),
        (385.618, -404.961),
        (379.13, -419.958),
        (373.324, -433.379),
        (368.129, -445.388),
        (363.48, -456.134),
    ],
    [(411.896, -302.83)] * 7
    + [
        (391.737, -317.915),
        (353.591, -346.458),
        (318.169, -372.964),
        (285.276, -397.578),
        (254.731, -420.434),
        (226.367, -441.658),
        (200.029, -461.367),
        (175.57, -479.668),
    ],
    (7208, 7212, 7212),
    (7210.5, 7211.0),
    7212,
)
PAULISTA = (
    266,
    [
        (520.0, -154.0),
        (465.283, -154.359),
        (376.066, -154.946),
        (296.23, -155.47),
        (224.791, -155.94),
        (160.864, -156.36),
        (103.659, -156.735),
        (52.47, -157.072),
        (11.233, -155.478),
        (0.078, -152.432),
        (-2.865, -149.636),
        (-5.499, -147.133),
        (-7.856, -144.894),
        (-9.965, -142.89),
        (-11.852, -141.097),
        (-13.541, -139.492),
        (-15.052, -138.057),
    ],
    [(-55.435, -155.328)] * 9
    + [
        (-77.818, -155.554),
        (-104.887, -155.827),
        (-129.11, -156.072),
        (-150.785, -156.291),
        (-170.18, -156.487),
        (-187.536, -156.662),
        (-203.067, -156.819),
        (-216.965, -156.959),
    ],
    [(-0.232, -170.491)] * 8
    + [
        (-34.816, -184.832),
        (-92.847, -208.896),
        (-146.735, -231.241),
        (-196.775, -251.992),
        (-243.242, -271.26),
        (-286.392, -289.153),
        (-326.462, -305.769),
        (-363.67, -321.198),
        (-398.222, -335.525),
    ],
    (268, 276, 275),
    (273.44, 274.25),
    275,
)
SCENES = {"brasileira_7211": BRASILEIRA, "paulista_275": PAULISTA}


def _contacts(scene: tuple, seed: int, mirror: bool, turned: bool) -> list[TrackContact]:
    """The contacts found in ``scene``; ``turned``: the ball's way from the knocked piece's hit
    on is turned off that piece along their line of centres by 600 mm/s."""
    first, striker, knocked, ball, flags, _, turn = scene
    a, b, x = (np.array(p, float) for p in (striker, knocked, ball))
    if turned:
        k = turn - first
        n = x[k - 1] - b[k - 1]
        n /= np.hypot(*n)
        x[k:] += np.outer(np.arange(1, len(x) - k + 1), n * 600.0 / FPS)
    paths = np.stack([a, b, x], axis=1)
    return play_two_and_ball(("S", "K"), paths, first, flags, seed, mirror)


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("seed", range(16))  # (the code before: a false touch on 7 of 20)
@pytest.mark.parametrize("mirror", [False, True])
def test_a_piece_knocked_beside_a_ball_just_struck_did_not_touch_it(
    scene: str, seed: int, mirror: bool
) -> None:
    hits = SCENES[scene][5]
    found = _contacts(SCENES[scene], seed, mirror, turned=False)
    assert [(c.a, c.b) for c in found] == [("S", "ball"), ("S", "K")], found
    assert abs(found[0].t * FPS - hits[0]) <= 1.0
    assert abs(found[1].t * FPS - hits[1]) <= 1.0


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_ball_turned_off_the_knocked_piece_was_touched_by_it(
    scene: str, seed: int, mirror: bool
) -> None:
    found = _contacts(SCENES[scene], seed, mirror, turned=True)
    assert ("K", "ball") in [(c.a, c.b) for c in found], found
