"""Records passed from the simulator's physics to its renderer and truth writers.

The physics never imports the renderer; both speak these records. Units: mm, s, rad, table
frame (INTERFACES.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from geometry.pieces import Pieces

__all__ = ["Contact", "FrameTruth", "Hand"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Contact:
    """One contact between two bodies (``b`` may be ``"rail"``, ``"post"`` or ``"net"``)."""

    t: float
    a: str
    b: str
    kind: (
        str  # "piece-ball", "piece-piece", "piece-rail", "ball-rail", "ball-post", "ball-net", ...
    )
    impulse: float = 0.0


@dataclass(frozen=True)
class Hand:
    """A coach's hand and forearm over the table, as the renderer draws it.

    ``tip_xy_mm`` is where the fingertip (or the palheta held in it) is; the forearm runs from
    there back toward ``elbow_xy_mm`` (usually beyond the rail, on the coach's side).
    """

    tip_xy_mm: tuple[float, float]
    elbow_xy_mm: tuple[float, float]
    height_mm: float = 40.0  # of the hand's underside above the table
    width_mm: float = 80.0  # of the palm
    skin_bgr: tuple[int, int, int] = (120, 150, 200)


@dataclass(frozen=True)
class FrameTruth:
    """Exact state of the table at one video frame.

    ``pieces.xy_mm`` are footprint centres; ``vel_mm_s`` (N, 2) velocities; ``moving`` (N,).
    ``contacts`` are the contacts that happened since the previous frame.
    """

    frame: int
    t: float
    pieces: Pieces
    vel_mm_s: FloatArray
    moving: NDArray[np.bool_]
    hands: tuple[Hand, ...] = ()
    contacts: tuple[Contact, ...] = ()
    ball_z_mm: float = field(default=float("nan"))  # ball centre height; NaN = its radius
    flicked: tuple[str, ...] = ()  # pieces flicked (a lance began) since the previous frame
