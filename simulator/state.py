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

    def solids(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray] | None:
        """The hand's shape in 3D table mm: ``(palm, forearm_start, forearm_end, side)``.

        ``palm`` (24, 3) is an ellipse 12 mm above ``height_mm``; the forearm runs from
        ``forearm_start`` (3,) on the palm up 60 mm to ``forearm_end`` (3,) at the elbow, its
        half width 0.38 of the palm's width at the start and 0.32 at the end, along ``side``
        (3,). None for a degenerate hand (tip on the elbow). One definition for the renderer
        and for whatever measures what a hand hides.
        """
        tip = np.asarray(self.tip_xy_mm, float)
        elbow = np.asarray(self.elbow_xy_mm, float)
        length = float(np.linalg.norm(elbow - tip))
        if length < 1e-6:
            return None
        u = (elbow - tip) / length
        v = np.array([-u[1], u[0]])
        w = self.width_mm
        z_palm = self.height_mm + 12.0
        palm_c = tip + u * 0.55 * w
        ang = np.linspace(0.0, 2.0 * np.pi, 24, endpoint=False)
        palm = palm_c + np.outer(np.cos(ang), u * 0.6 * w) + np.outer(np.sin(ang), v * 0.5 * w)
        start = palm_c + u * 0.4 * w
        return (
            np.column_stack([palm, np.full(24, z_palm)]),
            np.array([*start, z_palm]),
            np.array([*elbow, z_palm + 60.0]),
            np.array([*v, 0.0]),
        )


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
