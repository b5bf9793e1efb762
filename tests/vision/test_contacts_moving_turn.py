"""A ball turned by a button on the move: a touch read from the ball's own change.

The contact finder asks a hit between two bodies for a change of their relative velocity along
the line of centres above the noise of that change. A button's velocity is read from fits a few
tenths of a millimetre noisy (18-20 mm/s over a frame), the ball's from fits to a tenth, so a
slow ball turned by a slow button showed a change within the pair's noise while its own was
many times its own (mesa-posta seed 42's ten minutes, frame 9255: B5, sliding at 45 mm/s,
met the ball rolling at 115 mm/s; the ball turned 28 degrees, a change of 64 mm/s against the
81 the pair's noise asked; the touch went unread, the ball's out a frame later was given to the
wrong team). A ball turned away from a piece it touches, across its own way (the felt only
slows it along it), by four times its own noise at least (40 mm/s at least), is that piece's
touch. 003 (mesa-posta) "Bola fora": the throw-in goes to the team that did not touch the ball
last.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 9247
T_TRUE = (9254 / FPS, 9255 / FPS)  # the simulator's touch lies in this interval
# mesa-posta s42 frames 9247-9262, as tracked: B8 (a 60 mm button, sliding) and the ball
_B8 = [(17.05, -698.53), (13.99, -697.69), (11.29, -697.01), (8.68, -696.05), (6.66, -695.44),
       (4.53, -694.80), (2.67, -694.32), (1.10, -693.75), (-0.35, -693.31), (-1.40, -692.91),
       (-1.78, -692.70), (-1.77, -692.70), (-1.77, -692.71), (-1.83, -692.70),
       (-1.83, -692.70), (-1.83, -692.70)]  # fmt: skip
_BALL = [(-46.07, -668.56), (-43.93, -674.21), (-42.25, -679.45), (-40.52, -684.23),
         (-38.83, -688.58), (-37.54, -693.00), (-36.26, -696.62), (-35.02, -700.23),
         (-34.21, -703.73), (-35.08, -707.48), (-35.62, -710.89), (-36.44, -714.07),
         (-37.17, -717.01), (-37.80, -719.75), (-38.33, -722.18),
         (-38.84, -724.61)]  # fmt: skip
_B8_STOPS = 9260  # the tracker's flag: B8 moving until then, the ball all along
_TURN_AT = 8  # the ball's place at frame 9255, the first after the touch


def _ball(turn_kept: float, away_mm: float) -> np.ndarray:
    """The ball's path with its turn scaled (1: as recorded, 0: straight on at its own pace)."""
    ball = np.array(_BALL)
    steps = np.diff(ball, axis=0)
    way = steps[_TURN_AT - 4 : _TURN_AT - 1].mean(axis=0)
    a_in = np.arctan2(way[1], way[0])
    out = steps[_TURN_AT:]
    a_out = np.arctan2(out[:, 1], out[:, 0])
    a = a_in + turn_kept * np.angle(np.exp(1j * (a_out - a_in)))
    steps[_TURN_AT:] = np.hypot(*out.T)[:, None] * np.column_stack([np.cos(a), np.sin(a)])
    ball = np.vstack([ball[:1], ball[:1] + np.cumsum(steps, axis=0)])
    # the ball moved away from the button along their line of centres at the touch
    n = ball[_TURN_AT] - np.array(_B8[_TURN_AT])
    return ball + away_mm * n / np.hypot(*n)


def _play(
    mirror: bool,
    noise_mm: float,
    seed: int,
    turn_kept: float = 1.0,
    away_mm: float = 0.0,
    ball_sigma_mm: float = 0.1,
) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(
        np.array(["B8", "ball"]),
        np.array(["button", "ball"]),
        np.array([[60.0, 60.0], [10.0, 10.0]]),
        np.zeros(2),
        max_speed_mm_s=np.array([3500.0, 6000.0]),
    )
    paths = np.stack([np.array(_B8), _ball(turn_kept, away_mm)], axis=1)
    paths[:, 0] += rng.normal(0.0, noise_mm, paths[:, 0].shape)
    paths[:, 1] += rng.normal(0.0, noise_mm / 3.0, paths[:, 1].shape)
    if mirror:
        paths[..., 0] *= -1.0
    out: list[TrackContact] = []
    for q in range(len(paths)):
        frame = FIRST + q
        out += finder.push(
            frame,
            frame / FPS,
            paths[q],
            np.ones(2, bool),
            np.array([frame < _B8_STOPS, True]),
            sigma_mm=np.array([0.3, ball_sigma_mm]),
        )
    return out


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize(("noise_mm", "seed"), [(0.0, 0), (0.2, 1), (0.2, 2), (0.2, 3)])
def test_a_ball_turned_by_a_sliding_button_is_its_touch(
    mirror: bool, noise_mm: float, seed: int
) -> None:
    hits = _play(mirror, noise_mm, seed)
    assert [(c.a, c.b, c.frame) for c in hits] == [("B8", "ball", 9255)], hits
    assert T_TRUE[0] - 1.0 / FPS < hits[0].t <= T_TRUE[1] + 1.0 / FPS, hits[0]


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize(
    ("why", "turn_kept", "away_mm", "ball_sigma_mm"),
    [
        # the turn within what the finder takes for noise: 14 degrees, a change of 30 mm/s
        ("a small turn", 0.45, 0.0, 0.1),
        # the ball's fits unsure: a change of 64 mm/s is within four times their noise
        ("an unsure ball", 1.0, 0.0, 0.5),
        # the same turn 8 mm from the button: something else turned it, not a touch
        ("off the button", 1.0, 8.0, 0.1),
    ],
)
def test_no_touch_where_the_turn_or_the_gap_says_no(
    mirror: bool, why: str, turn_kept: float, away_mm: float, ball_sigma_mm: float
) -> None:
    for seed in range(3):
        hits = _play(mirror, 0.2, seed, turn_kept, away_mm, ball_sigma_mm)
        assert hits == [], (why, seed, hits)
