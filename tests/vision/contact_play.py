"""Two buttons and the ball played to a :class:`vision.contacts.ContactFinder` frame by frame:
the simulator's positions of a scene with seeded noise, the table mirrored on demand."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from vision.contacts import ContactFinder, TrackContact

FPS = 30.0
KIND = np.array(["button", "button", "ball"])
SIZE = np.array([[60.0, 60.0], [60.0, 60.0], [10.0, 10.0]])
VMAX = np.array([3500.0, 3500.0, 6000.0])


def play_two_and_ball(
    ids: tuple[str, str],
    paths: np.ndarray,
    first: int,
    moving_from: tuple[int, int, int],
    seed: int,
    mirror: bool,
    hidden: Collection[int] = (),
) -> list[TrackContact]:
    """Contacts found over ``paths`` (F, 3, 2): the two buttons ``ids`` and the ball from frame
    ``first``, each flagged moving from its frame in ``moving_from`` (the tracker's flags), with
    0.2 mm of noise (``seed``), mirrored (x negated) when ``mirror``. On the frames ``hidden``
    the ball is frozen under a hand where it rested at the first frame: known, not measured."""
    rng = np.random.default_rng(seed)
    flip = np.array([-1.0, 1.0]) if mirror else np.ones(2)
    finder = ContactFinder(np.array([*ids, "ball"]), KIND, SIZE, np.zeros(3), max_speed_mm_s=VMAX)
    out: list[TrackContact] = []
    for q in range(len(paths)):
        frame = first + q
        xy = paths[q] + rng.normal(0.0, 0.2, (3, 2))
        seen = np.ones(3, bool)
        if frame in hidden:
            xy[2], seen[2] = paths[0][2], False
        moving = np.array([frame >= f for f in moving_from])
        sig = np.where(seen, 0.3, np.inf)
        out += finder.push(frame, frame / FPS, xy * flip, seen, moving, np.ones(3, bool), seen, sig)
    return out


def play_seen(
    finder: ContactFinder,
    paths: np.ndarray,
    first: int,
    moving_from: tuple[int, ...],
    noise_mm: np.ndarray,
    sigma_mm: np.ndarray,
    rng: np.random.Generator,
    mirror: bool,
) -> list[TrackContact]:
    """Contacts ``finder`` finds over ``paths`` (F, N, 2) from frame ``first``, every body seen
    on every frame: each flagged moving from its frame in ``moving_from`` (the tracker's
    flags), with ``noise_mm`` (N,) of noise drawn from ``rng``, measured to ``sigma_mm`` (N,),
    mirrored (x negated) when ``mirror``."""
    paths = paths + rng.normal(size=paths.shape) * np.asarray(noise_mm)[None, :, None]
    if mirror:
        paths[..., 0] *= -1.0
    ok = np.ones(paths.shape[1], bool)
    out: list[TrackContact] = []
    for q in range(len(paths)):
        frame = first + q
        moving = np.array([frame >= f for f in moving_from])
        out += finder.push(frame, frame / FPS, paths[q], ok, moving, ok, ok, sigma_mm)
    return out
