"""A button at rest pushed on by the ball squeezed past it (vision/contacts.py, ``_find``:
``pushed``).

Brasileira's ten-minute render, seed 49, frames 224-238: B7, sliding at 350 mm/s, strikes the
ball resting 2 mm from B11; the ball, squeezed between the two, glances off B11 (the
simulator's touches 6 ms apart) and B11 is pushed on 2.4 mm, then 2.6, away from it along
their line. The ball's change at B11 is under its bar (76 against 92 mm/s) and mostly across
their line: B11's touch was lost. A resting button set creeping away from the ball beside it,
a millimetre a frame at least and going on so, was touched. Positions as tracked with 0.05 mm
more noise; the table mirrored too. Failure rows: B11 left where it was, B11 stepping toward
the ball (a fit pulled by it), B11 stepping once and back (a fit's jump), B11 40 mm off.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.contact_play import play_seen
from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 224
HIT = 230.06  # the truth's B11 touch (7.66875 s)
IDS = np.array(["B7", "B11", "ball"])
_B7 = [(361.87, 201.21), (340.94, 207.48), (322.12, 213.18), (305.02, 217.91), (290.21, 222.92),
       (276.71, 226.68), (264.87, 229.98), (257.34, 231.82), (250.65, 233.25), (245.31, 233.64),
       (240.68, 233.59), (236.62, 233.52), (232.84, 233.59), (229.50, 233.17),
       (226.47, 233.18)]  # fmt: skip
_B11 = [(219.98, 280.29)] * 5 + [(220.04, 280.23), (220.03, 280.27), (219.17, 281.76),
                                 (218.32, 284.33), (216.88, 287.33), (215.33, 290.43),
                                 (213.96, 293.69), (212.64, 296.52), (211.66, 297.97),
                                 (210.68, 300.27)]  # fmt: skip
_BALL = [(235.52, 246.46)] * 2 + [(235.67, 246.42), (235.70, 246.42), (235.69, 246.42),
                                  (235.68, 246.42), (233.64, 245.67), (217.72, 240.48),
                                  (201.60, 233.55), (186.50, 227.42), (172.37, 221.67),
                                  (159.23, 216.31), (147.34, 211.21), (135.89, 206.67),
                                  (125.37, 202.28)]  # fmt: skip
_MOVING_FROM = (0, 234, 232)  # the tracker's flags


def _play(b11: np.ndarray, mirror: bool, seed: int) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(
        IDS,
        np.array(["button", "button", "ball"]),
        np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]]),
        np.zeros(3),
        max_speed_mm_s=np.array([3500.0, 3500.0, 6000.0]),
    )
    paths = np.stack([np.array(_B7), b11, np.array(_BALL)], axis=1)
    noise, sig = np.full(3, 0.05), np.array([0.3, 0.3, 0.1])
    return play_seen(finder, paths, FIRST, _MOVING_FROM, noise, sig, rng, mirror)


def _touches(hits: list[TrackContact], piece: str) -> list[TrackContact]:
    return [c for c in hits if c.kind == "piece-ball" and piece in (c.a, c.b)]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_resting_button_pushed_on_by_the_ball_was_touched(seed: int, mirror: bool) -> None:
    hits = _play(np.array(_B11), mirror, seed)
    b11 = _touches(hits, "B11")
    assert len(b11) == 1, hits
    assert abs(b11[0].t * FPS - HIT) <= 1.0, hits
    assert _touches(hits, "B7"), hits  # the striker's touch as before


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("case", ["stays", "toward_the_ball", "out_and_back", "far_off"])
def test_no_push_without_a_way_away_from_the_ball(seed: int, mirror: bool, case: str) -> None:
    rest = np.array(_B11[0])
    b11 = np.array(_B11)
    if case == "stays":
        b11[:] = rest
    elif case == "toward_the_ball":  # its fit drawn 2.4 mm toward the ball passing by
        b11[7:] = rest - (b11[7:] - rest)
    elif case == "out_and_back":
        b11[:] = rest
        b11[7] = rest + np.array([-0.9, 2.2])
    else:  # 40 mm further off the ball's way, pushed all the same (by nothing)
        b11 = b11 + np.array([-15.0, 37.0])
    assert not _touches(_play(b11, mirror, seed), "B11")
