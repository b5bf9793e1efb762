"""Batched constant-velocity Kalman filters for the pieces on the table, in table millimetres.

Every track's state is its footprint centre ``xy_mm`` and velocity ``v_mm_s``. Measurement
noise is isotropic (a detection's ``sigma_mm``) and the process noise acts on x and y alike, so
the x and y filters share one 2 x 2 (position, velocity) covariance per track: the batch is a
few vectorised numpy lines whatever the number of tracks, with no 4 x 4 matrices.

The process noise is white acceleration of spectral density ``q`` (mm^2/s^3): over ``dt`` it
adds ``q [[dt^3/3, dt^2/2], [dt^2/2, dt]]``. A piece slides at a steady, slowly decaying speed
between impulses (a flick, a collision), so ``q`` is small; the impulses themselves are
handled by :meth:`CVKalman.restart`, which re-initialises a track from its last two positions
(a two-point start) instead of letting a small ``q`` drag the estimate for several frames.

Examples
--------
>>> import numpy as np
>>> kf = CVKalman(np.zeros((1, 2)), np.array([1.0]), q=np.array([1e4]))
>>> kf.predict(np.array([1 / 30]))
>>> kf.update(np.array([0]), np.array([[10.0, 0.0]]), np.array([1.0]))
>>> bool(kf.xy_mm[0, 0] > 5.0)
True
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["CVKalman"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_V0_SIGMA_MM_S = 50.0  # velocity uncertainty of a fresh track (pieces start at rest)


class CVKalman:
    """N constant-velocity filters stepped together.

    Parameters
    ----------
    xy_mm : (N, 2) initial positions.
    sigma_mm : (N,) 1-sigma uncertainty of those positions.
    q : (N,) white-acceleration spectral density per track, mm^2/s^3.

    Attributes
    ----------
    xy_mm, v_mm_s : (N, 2) state.
    P : (N, 3) the shared per-axis covariance ``(pp, pv, vv)`` in mm^2, mm^2/s, mm^2/s^2.
    """

    def __init__(self, xy_mm: FloatArray, sigma_mm: FloatArray, q: FloatArray) -> None:
        n = len(xy_mm)
        self.xy_mm = np.array(xy_mm, dtype=float).reshape(n, 2)
        self.v_mm_s = np.zeros((n, 2))
        self.q = np.asarray(q, dtype=float).reshape(n)
        self.P = np.zeros((n, 3))
        self.P[:, 0] = np.asarray(sigma_mm, dtype=float) ** 2
        self.P[:, 2] = _V0_SIGMA_MM_S**2

    def __len__(self) -> int:
        return len(self.xy_mm)

    def predict(self, dt_s: FloatArray, mask: NDArray[np.bool_] | None = None) -> None:
        """Advance the tracks in ``mask`` (all by default) by ``dt_s`` (N,) seconds."""
        dt = np.asarray(dt_s, dtype=float)
        if mask is not None:
            dt = np.where(mask, dt, 0.0)
        self.xy_mm += self.v_mm_s * dt[:, None]
        pp, pv, vv = self.P.T.copy()
        q = self.q
        dt2 = dt * dt
        self.P[:, 0] = pp + 2.0 * dt * pv + dt2 * vv + q * dt2 * dt / 3.0
        self.P[:, 1] = pv + dt * vv + q * dt2 / 2.0
        self.P[:, 2] = vv + q * dt

    def innovation_var(self, idx: IntArray | slice, r_mm2: FloatArray) -> FloatArray:
        """Per-axis innovation variance ``S = pp + r`` of tracks ``idx`` for measurements ``r``."""
        return np.asarray(self.P[idx, 0] + r_mm2)

    def update(self, idx: IntArray, z_mm: FloatArray, r_mm2: FloatArray) -> None:
        """Fuse measurements ``z_mm`` (M, 2) of variance ``r_mm2`` (M,) into tracks ``idx``."""
        if len(idx) == 0:
            return
        pp, pv, vv = self.P[idx].T
        s = pp + r_mm2
        kp, kv = pp / s, pv / s
        innov = z_mm - self.xy_mm[idx]
        self.xy_mm[idx] += kp[:, None] * innov
        self.v_mm_s[idx] += kv[:, None] * innov
        self.P[idx, 0] = pp - kp * pp
        self.P[idx, 1] = pv - kp * pv
        self.P[idx, 2] = vv - kv * pv

    def restart(
        self,
        idx: IntArray,
        z_mm: FloatArray,
        r_mm2: FloatArray,
        prev_xy_mm: FloatArray,
        elapsed_s: FloatArray,
        prev_r_mm2: FloatArray,
    ) -> None:
        """Re-initialise tracks ``idx`` at ``z_mm`` with the velocity from ``prev_xy_mm``.

        The covariance of a two-point start: position ``r``, velocity ``(r + r_prev) / T^2``.
        Used after an impulse (a flick, a collision) or when a piece reappears.
        """
        if len(idx) == 0:
            return
        el = np.maximum(np.asarray(elapsed_s, dtype=float), 1e-3)
        self.xy_mm[idx] = z_mm
        self.v_mm_s[idx] = (z_mm - prev_xy_mm) / el[:, None]
        self.P[idx] = np.stack([r_mm2, r_mm2 / el, (r_mm2 + prev_r_mm2) / el**2], axis=1)

    def hold(self, idx: IntArray, xy_mm: FloatArray, r_mm2: FloatArray) -> None:
        """Put tracks ``idx`` at rest at ``xy_mm`` (a piece put down, a frozen track woken)."""
        if len(idx) == 0:
            return
        self.xy_mm[idx] = xy_mm
        self.v_mm_s[idx] = 0.0
        self.P[idx] = np.stack(
            [r_mm2, np.zeros(len(idx)), np.full(len(idx), _V0_SIGMA_MM_S**2)], axis=1
        )
