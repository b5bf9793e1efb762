"""A kick-off struck from a painted spot the ball was never seen on (vision/contacts.py).

Nacional's ten minutes through the camera (``python -m benchmarks.bench_analyze --seconds 600
--rules nacional --seed 31``, frames 4318-4361): after a goal the ball was placed on the
centre mark, white on white, and not found there (its track held in the net where it was
last seen at rest); A11's kick-off struck it and the ball was found moving a frame later, a
metre from its track's place. The jump cut its track's history, so no hit was found and the
kick-off touch was lost (three such in the ten minutes). The restart spots (the centre mark
and the penalty marks, :meth:`geometry.field.FieldModel.restart_spots`) are where a ball may
rest unseen: a ball found moving away from one, its rest elsewhere, was struck there if a
piece's path passed it (``TrackerConfig.spots_mm``).

Seeded paths at 30 frames/s with 0.2 mm of noise; the image-free contact finder. Failure rows:
no spots given, and a ball found moving on a line that misses the spot.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
IDS = np.array(["A11", "B9", "ball"])
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])
SPOTS = np.array([[0.0, 0.0], [-780.0, 0.0], [780.0, 0.0]])
NET = np.array([-1072.0, -2.5])  # where the ball was last seen at rest


def _kick_off(
    seed: int, spot: np.ndarray, off_line_mm: float = 0.0, spots: np.ndarray | None = SPOTS
) -> tuple[list[TrackContact], float]:
    """A11 comes at 1500 mm/s along a seeded line and strikes the ball resting (unseen) on
    ``spot``; the ball leaves at 480 mm/s along the line and is found from the frame after
    the hit, ``off_line_mm`` to the side of its true path (a path that misses the spot)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-np.pi, np.pi)
    u = np.array([np.cos(a), np.sin(a)])
    side = np.array([-u[1], u[0]])
    t_hit = (20.0 + rng.uniform(0.1, 0.9)) / FPS
    finder = ContactFinder(IDS, KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX, spots_mm=spots)
    out: list[TrackContact] = []
    for k in range(34):
        t = k / FPS
        dt = t - t_hit
        a11 = spot - 35.0 * u + (1500.0 if dt < 0 else 200.0) * dt * u
        ball = spot + max(dt, 0.0) * 480.0 * u + (off_line_mm * side if dt > 0 else 0.0)
        seen_ball = dt > 0
        xy = np.array([a11, [300.0, -250.0], ball if seen_ball else NET])
        xy += rng.normal(0.0, 0.2, (3, 2))
        seen = np.array([True, True, seen_ball])
        moving = np.array([True, False, seen_ball])
        out += finder.push(k, t, xy, np.ones(3, bool), moving, np.ones(3, bool), seen)
    return [c for c in out if "ball" in (c.a, c.b)], t_hit


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("spot", [0, 1, 2])
def test_a_ball_struck_from_a_spot_it_was_not_seen_on_has_its_striker(seed: int, spot: int) -> None:
    found, t_hit = _kick_off(seed, SPOTS[spot])
    assert [(c.a, c.b) for c in found] == [("A11", "ball")]
    assert abs(found[0].t - t_hit) < 1.0 / FPS


@pytest.mark.parametrize("seed", range(3))
def test_without_the_spots_or_off_them_no_hit_is_invented(seed: int) -> None:
    assert _kick_off(seed, SPOTS[0], spots=None)[0] == []
    assert _kick_off(seed, SPOTS[0], off_line_mm=60.0)[0] == []
