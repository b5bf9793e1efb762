"""The tracker's frame (:class:`vision.track_types.TrackFrame`) as the engines' frame state.

The rules never import ``vision``: this thin adapter, in the monitor, turns the tracker's
columns into a :class:`rules.engine.FrameState`. A track is *known* (``present``) while it is
``seen``, ``predicted`` (coasting, flagged) or ``hidden`` (frozen under a hand, where it was last
seen: a resting piece under a hand has not moved); ``lost`` and ``absent`` slots are not, and the
engines leave them out of scene checks; ``seen`` marks the measured ones. Sizes and
goalkeepers' angles are the tracker's (fitted by the detector), the ball's diameter the rule
set's.
"""

from __future__ import annotations

import numpy as np

from geometry.pieces import Pieces
from rules.engine import Contacts, FrameState
from vision.track_types import TrackFrame

__all__ = ["KNOWN_STATUSES", "state_from_tracks"]

KNOWN_STATUSES = ("seen", "predicted", "hidden")
_DEFAULT_SIZE_MM = {"button": (60.0, 60.0), "goalkeeper": (70.0, 15.0), "ball": (10.0, 10.0)}


def state_from_tracks(tf: TrackFrame, ball_diameter_mm: float | None = None) -> FrameState:
    """One :class:`FrameState` from a tracker frame (see the module docstring).

    ``ball_diameter_mm`` overrides the ball's size (the rule set's ball; the detector's fit of a
    9-pixel ball is noisier than the rule).
    """
    n = len(tf.ids)
    if tf.size_mm is not None:
        size = np.asarray(tf.size_mm, np.float64).copy()
    else:
        size = np.array([_DEFAULT_SIZE_MM.get(str(k), (60.0, 60.0)) for k in tf.kind], np.float64)
    if ball_diameter_mm is not None:
        size[tf.kind == "ball"] = ball_diameter_mm
    angle = np.zeros(n) if tf.angle_rad is None else np.asarray(tf.angle_rad, np.float64)
    xy = np.asarray(tf.xy_mm, np.float64)
    present = np.isin(tf.status, KNOWN_STATUSES) & np.isfinite(xy).all(axis=1)
    xy = np.where(np.isfinite(xy), xy, 0.0)
    pieces = Pieces(tf.ids, tf.team, tf.kind, xy, size, angle)
    contacts = (
        Contacts.from_rows((c.frame, c.t, c.a, c.b, c.kind) for c in tf.contacts)
        if tf.contacts
        else Contacts.empty()
    )
    hidden = bool((tf.status == "hidden").any())
    return FrameState(
        tf.frame,
        tf.t,
        pieces,
        np.asarray(tf.v_mm_s, np.float64),
        np.asarray(tf.moving, bool) & present,
        contacts,
        present,
        True if hidden else None,
        (tf.status == "seen") & present,
    )
