"""Two pieces on the ball within one frame: both touched it (vision/contacts.py,
``ContactFinder._second_touch``).

Paulista's ten-minute render, seed 33, frames 222-236: the ball, rolling at 560 mm/s, meets
B10 (229.6) and A9 (229.9) a quarter of a frame apart, squeezed between them; it comes out
nearly stopped. The ball's change over the interval is the sum of the two impulses, each along
its own line of centres; B10's touch was found, and A9's, read alone against the pair's
relative change (A9 pushed on by the ball too), showed too little. Split along the two lines,
the change gives each its share (932 and 725 mm/s of 530 net). The simulator's positions with
0.2 mm of noise, the table mirrored too.

The split itself (``_split_kick``) on a table with its failure rows (a change along one line
only, or toward the second piece, or lines too near parallel to tell apart), and summing back
to the change (hypothesis).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.vision.contact_play import FPS, play_two_and_ball
from vision.contacts import _split_kick

FIRST = 222
B10 = [(11.923, -204.165)] * 8 + [
    (12.458, -205.087), (14.109, -207.877), (15.829, -210.751), (17.367, -213.323),
    (18.745, -215.624), (19.977, -217.683), (21.08, -219.526),
]  # fmt: skip
A9 = [(-40.852, -161.052)] * 8 + [
    (-41.17, -160.927), (-43.552, -159.992), (-45.685, -159.155), (-47.593, -158.406),
    (-49.3, -157.736), (-50.828, -157.136), (-52.195, -156.6),
]  # fmt: skip
BALL = [
    (21.467, 3.543), (16.987, -25.82), (12.827, -53.087), (8.965, -78.407), (5.378, -101.92),
    (2.047, -123.754), (-1.047, -144.028), (-3.919, -162.856), (-8.232, -174.322),
    (-5.163, -176.222), (-4.181, -175.082), (-3.27, -174.023), (-2.424, -173.039),
    (-1.639, -172.126), (-0.909, -171.278),
]  # fmt: skip


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_ball_squeezed_between_two_pieces_was_touched_by_both(seed: int, mirror: bool) -> None:
    paths = np.stack([np.array(B10), np.array(A9), np.array(BALL)], axis=1)
    found = play_two_and_ball(("P", "Q"), paths, FIRST, (231, 231, FIRST), seed, mirror)
    touches = {(c.a, c.b): c.t * FPS for c in found if c.kind == "piece-ball"}
    assert set(touches) == {("P", "ball"), ("Q", "ball")}, found
    assert abs(touches[("P", "ball")] - 229.62) <= 1.0
    assert abs(touches[("Q", "ball")] - 229.9) <= 1.0


@pytest.mark.parametrize(
    ("kick", "u_q", "expected"),
    [
        ((1000.0, 1000.0), (0.0, 1.0), (1000.0, 1000.0)),  # even: both lines take a share
        ((1932.0, 518.0), (0.0, 1.0), (1932.0, 518.0)),  # 15 degrees off P's line: 0.26 of it
        ((1000.0, 0.0), (0.0, 1.0), (1000.0, 0.0)),  # all along P's line: none for Q
        ((1000.0, -300.0), (0.0, 1.0), (1000.0, -300.0)),  # toward Q: no touch of Q
        ((1000.0, 0.0), (0.995, 0.0998), (np.nan, np.nan)),  # 6 degrees apart: not told apart
    ],
)
def test_split_kick_along_two_lines(
    kick: tuple[float, float], u_q: tuple[float, float], expected: tuple[float, float]
) -> None:
    a, c = _split_kick(np.array(kick), np.array([1.0, 0.0]), np.array(u_q))
    assert np.allclose([a, c], expected, atol=1e-6, equal_nan=True)


@given(
    st.floats(-3000.0, 3000.0),
    st.floats(-3000.0, 3000.0),
    st.floats(0.0, 2.0 * np.pi),
    st.floats(0.35, np.pi - 0.35),
)
def test_split_kick_sums_back_to_the_change(
    kx: float, ky: float, angle_p: float, apart: float
) -> None:
    u_p = np.array([np.cos(angle_p), np.sin(angle_p)])
    u_q = np.array([np.cos(angle_p + apart), np.sin(angle_p + apart)])
    a, c = _split_kick(np.array([kx, ky]), u_p, u_q)
    assert np.allclose(a * u_p + c * u_q, [kx, ky], atol=1e-6)
