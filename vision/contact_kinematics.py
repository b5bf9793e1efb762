"""The contact finder's kinematics on two bodies' paths (vision/contacts.py): when a velocity
changed, when a gap closed, how far back a body at rest can be traced, how a ball's kick splits
between two lines of centres. Pure functions of arrays, no state."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
REST_MM_S = 60.0  # slower than this over (k-2, k-1]: at rest (the tracker's moving_on speed)
SPLIT_SIN = 0.3  # two lines of centres at least 17 degrees apart: a kick is split between them


def split_kick(kick: FloatArray, u_p: FloatArray, u_q: FloatArray) -> tuple[float, float]:
    """The ball's change ``kick`` (2,) as ``a u_p + c u_q`` (two unit lines of centres, from
    each piece to the ball); ``(nan, nan)`` where the two lines are too near parallel to tell
    apart."""
    det = float(u_p[0] * u_q[1] - u_p[1] * u_q[0])
    if abs(det) < SPLIT_SIN:
        return float("nan"), float("nan")
    a = float(kick[0] * u_q[1] - kick[1] * u_q[0]) / det
    c = float(u_p[0] * kick[1] - u_p[1] * kick[0]) / det
    return a, c


def from_rest(rel: FloatArray, u: FloatArray) -> float | None:
    """How far along its line (unit ``u``) a ball is from its resting place (``rel``: where
    it is seen, less that place), or None if it did not come from there: behind it, or off
    the line by more than 10 mm or 0.15 of the way."""
    along = float(rel @ u)
    side = abs(float(rel[0] * u[1] - rel[1] * u[0]))
    return None if along <= 0.0 or side > max(10.0, 0.15 * along) else along


def change_time(
    step: FloatArray, v_pre: FloatArray, v_post: FloatArray, span: float
) -> tuple[FloatArray, FloatArray]:
    """When in ``[0, span]`` a body going from ``v_pre`` to ``v_post`` changed velocity to
    cover ``step`` (P, 2), least squares; and the weight ``|v_post - v_pre|^2``."""
    dv = v_pre - v_post
    w = (dv * dv).sum(axis=1)
    tau = ((step - v_post * span) * dv).sum(axis=1) / np.maximum(w, 1e-12)
    return np.clip(tau, 0.0, span), w


def rest_limit(step: FloatArray, v_pre: FloatArray, v_post: FloatArray, span: float) -> FloatArray:
    """(P,) how far back in time (at most ``span``) each body can be traced from frame ``k`` at
    ``v_post``: a body at rest at frame ``k-1`` (``|v_pre|`` below ``REST_MM_S``) only back to
    where it rested, the time ``v_post`` needs to cover ``step`` (``x[k] - x[k-1]``)."""
    v2 = (v_post * v_post).sum(axis=1)
    need = (step * v_post).sum(axis=1) / np.maximum(v2, 1e-12)
    rest = np.hypot(*v_pre.T) < REST_MM_S
    return np.where(rest, np.clip(need, 0.0, span), span)


def touch_time(gap: FloatArray, tol: float, span: float) -> tuple[FloatArray, BoolArray]:
    """When the bodies touch along a sampled gap (S+1, P): found if the gap falls to ``tol``
    (noise and the hit's own deflection), timed where it reaches 0, else at closest approach."""
    _, has = first_crossing(gap, tol, span)
    t0, has0 = first_crossing(gap, 0.0, span)
    step = span / (gap.shape[0] - 1)
    t_min = np.argmin(gap, axis=0) * step
    return np.where(has0, t0, t_min), has


def first_crossing(gap: FloatArray, tol: float, span: float) -> tuple[FloatArray, BoolArray]:
    """First sub-step time where ``gap`` (S+1, P) falls to ``tol``, linearly interpolated."""
    below = gap <= tol
    has = below.any(axis=0) & ~below[0]
    first = np.argmax(below, axis=0)
    k = np.maximum(first, 1)
    cols = np.arange(gap.shape[1])
    g0, g1 = gap[k - 1, cols], gap[k, cols]
    f = np.clip((g0 - tol) / np.maximum(g0 - g1, 1e-9), 0.0, 1.0)
    step = span / (gap.shape[0] - 1)
    return (k - 1 + f) * step, has
