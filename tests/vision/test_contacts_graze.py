"""A piece grazing a resting opponent hits it (vision/contacts.py, ``min_dv_piece_mm_s``).

Paulista's ten minutes, seed 33 (``python -m benchmarks.bench_analyze --rules paulista --seed
33``), frame 508: B6, at ~70 mm/s, grazed A5 at rest, which moved 5 mm over four frames (under
45 mm/s); their change was under the 150 mm/s a hit between pieces had to show, and the foul
(an opponent touched before the ball, 002 Do acionamento 11) was lost. Over five ten-minute renders'
tracks, a 100 mm/s bar found 16 more true hits between pieces and two false, between teammates.
Here a faster slide grazes a piece at a wide angle, the change measured 108-160 mm/s.
The failure rows: the same slide passing 3 mm wide of the piece, and a piece
set down beside it that stops without moving it, are no hit. The table mirrored too.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A5", "B6", "ball"])
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[50.0, 50.0], [50.0, 50.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])
SIGMA = np.array([0.2, 0.2, 0.15])
T_HIT = 8.4 / FPS


def _graze(wide_mm: float, normal_mm_s: float) -> NDArray[np.float64]:
    """(18, 3, 2): B6 sliding along +x at 200 mm/s past A5 (resting at the origin) with its
    line of centres at the touch 66 degrees off its way, ``wide_mm`` more off; at the touch A5
    is set going along the line of centres at ``normal_mm_s`` and B6 loses as much of its
    normal speed (equal masses, half elastic); the ball far off."""
    n = 18
    t = np.arange(n) / FPS - T_HIT
    a = np.radians(66.0)
    u = np.array([np.cos(a), np.sin(a)])  # B6 -> A5 at the touch
    at = -(50.0 + wide_mm) * u  # B6's centre at the touch
    v = np.array([200.0, 0.0])
    b6 = at + t[:, None] * v
    after = t > 0
    kick = normal_mm_s if wide_mm <= 0.0 else 0.0
    b6[after] -= (t[after, None] * kick) * u
    a5 = np.where(after[:, None], t[:, None] * kick * u, 0.0)
    return np.stack([a5, b6, np.tile([400.0, 300.0], (n, 1))], axis=1)


def _contacts(paths: NDArray[np.float64], seed: int) -> list[TrackContact]:
    rng = np.random.default_rng(seed)
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX)
    out: list[TrackContact] = []
    for k, xy in enumerate(paths):
        noisy = xy + rng.normal(0.0, 1.0, xy.shape) * SIGMA[:, None]
        moving = np.zeros(3, bool) if not k else np.hypot(*(xy - paths[k - 1]).T) > 0.5
        out += finder.push(k, k / FPS, noisy, np.ones(3, bool), moving, sigma_mm=SIGMA)
    return out


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize(
    ("wide", "normal", "found"),
    [
        (0.0, 80.0, 1),  # a graze: A5 set going at 80 mm/s
        (0.0, 120.0, 1),  # a harder one
        (3.0, 80.0, 0),  # passing 3 mm wide: nothing moves A5
    ],
)
def test_a_piece_grazing_a_resting_opponent_hits_it(
    mirror: bool, seed: int, wide: float, normal: float, found: int
) -> None:
    paths = _graze(wide, normal)
    if mirror:
        paths[..., 0] *= -1.0
    hits = [c for c in _contacts(paths, seed) if {c.a, c.b} == {"A5", "B6"}]
    assert len(hits) == found, hits
    if found:
        assert hits[0].kind == "piece-piece"
        assert abs(hits[0].t - T_HIT) <= 1.0 / FPS
