"""A piece pushed off slowly by a neighbour flicked from under its coach's hand.

A piece that left its rest unseen with no hit found, whose frozen neighbour came out of hiding
moving, was struck by it (vision/contacts.py, ``_struck_from_hiding``); a slow start (under
300 mm/s) is taken only from a piece it rested against, behind it on their line of centres.
Gaucha's ten-minute render, seed 47, frames 14462-14484: A11, frozen under the hand touching
B4 (0.2 mm apart), flicked past it at a slant; B4, pushed off along their line at 160 mm/s,
hidden two frames by the arm and seen going on. Its start was read as B's own lance and A11's
foul lost (001 Art. XXIV: an opponent touched before the ball). The simulator's positions with
0.2 mm of noise, hidden as tracked; the table mirrored too. Failure rows: A11 seen again where
it froze, A11 resting 20 mm off B4, B4 leaving at 45 degrees to their line.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
FIRST = 14462
HIT = 14473.5  # the truth's contact, in the interval ending at 14474
IDS = np.array(["A11", "B4"])
_A11 = [(563.866, 266.874)] * 12 + [(565.806, 252.106), (567.869, 232.504), (569.714, 214.964),
                                    (571.366, 199.268), (572.843, 185.223), (574.166, 172.655),
                                    (575.349, 161.408), (576.345, 151.438), (576.344, 143.843),
                                    (576.343, 137.047), (576.342, 130.966)]  # fmt: skip
_B4 = [(624.000, 270.000)] * 12 + [(627.700, 270.279), (633.110, 270.686), (637.950, 271.051),
                                   (642.282, 271.377), (646.158, 271.669), (649.626, 271.930),
                                   (652.730, 272.164), (655.508, 272.373), (657.993, 272.561),
                                   (660.217, 272.728), (662.207, 272.878)]  # fmt: skip
_HIDDEN = {"A11": range(14468, 14477), "B4": range(14474, 14476)}  # as tracked
_MOVING_FROM = (14477, 14477)


def _play(a11: np.ndarray, b4: np.ndarray, mirror: bool, seed: int) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(
        IDS,
        np.array(["button", "button"]),
        np.array([[60.0, 60.0]] * 2),
        np.zeros(2),
        max_speed_mm_s=np.full(2, 3500.0),
    )
    out: list[TrackContact] = []
    frozen = np.array([a11[0], b4[0]])
    for q in range(len(a11)):
        frame = FIRST + q
        seen = np.array([frame not in _HIDDEN[p] for p in IDS])
        xy = np.array([a11[q], b4[q]]) + rng.normal(0.0, 0.2, (2, 2))
        xy[~seen] = frozen[~seen]  # held where it rested
        if mirror:
            xy[:, 0] *= -1.0
        moving = np.array([frame >= f for f in _MOVING_FROM]) & seen
        sig = np.where(seen, 0.3, np.inf)
        out += finder.push(frame, frame / FPS, xy, seen, moving, np.ones(2, bool), seen, sig)
    return [c for c in out if c.kind == "piece-piece"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mirror", [False, True])
def test_a_piece_pushed_off_slowly_by_the_one_it_rested_against(seed: int, mirror: bool) -> None:
    hits = _play(np.array(_A11), np.array(_B4), mirror, seed)
    assert [(c.a, c.b) for c in hits] == [("A11", "B4")], hits
    assert abs(hits[0].t * FPS - HIT) <= 1.0, hits


def _turned(path: np.ndarray, deg: float) -> np.ndarray:
    """``path`` with its way from its first place turned by ``deg`` degrees."""
    c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
    rel = path - path[0]
    return path[0] + rel @ np.array([[c, s], [-s, c]])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("case", ["striker_never_moved", "not_touching", "off_the_line"])
def test_no_push_without_a_neighbour_behind_it(seed: int, mirror: bool, case: str) -> None:
    a11, b4 = np.array(_A11), np.array(_B4)
    if case == "striker_never_moved":
        a11 = np.repeat(a11[:1], len(a11), axis=0)
    elif case == "not_touching":  # rested 20 mm back on the line of centres
        a11 = a11 - np.array([20.0, 1.0])
    else:
        b4 = _turned(b4, 45.0)
    assert not _play(a11, b4, mirror, seed)
