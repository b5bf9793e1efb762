"""The camera's forward projection compiled: table mm -> pixels for a few points at a time.

A detector's fits project a few dozen points per step, hundreds of times a frame; numpy's
dozen calls per projection cost twenty times their arithmetic. The kernel does the same
float64 arithmetic in the same order as :meth:`calibration.camera.Camera.table_to_image`'s
numpy code, the rotation's dot products as the fused multiply-adds numpy's matrix product
(OpenBLAS) performs on x86-64: on such a machine the pixels are numpy's bit for bit (the
tests allow a rounding's difference elsewhere).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import intrinsic
from numpy.typing import NDArray

__all__ = ["project"]

FloatArray = NDArray[np.float64]


def _fma_typer(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
    """``a * b + c`` rounded once (LLVM's fma: the CPU's instruction, else libm's)."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.fma(*args)

    return sig, codegen


_fma: Any = intrinsic(_fma_typer)


@njit(cache=True)
def project(
    xyz: FloatArray, rt: FloatArray, t: FloatArray, dist: FloatArray, k: FloatArray
) -> FloatArray:
    """Pixels (N, 2) of table points ``xyz`` (N, 3) mm: ``rt`` the rotation transposed (3, 3),
    ``t`` (3,), ``dist`` ``[k1, k2, p1, p2, k3]``, ``k`` the intrinsics ``[fx, skew, cx, fy,
    cy]``. NaN for points behind the camera."""
    n = xyz.shape[0]
    out = np.empty((n, 2))
    k1, k2, p1, p2, k3 = dist[0], dist[1], dist[2], dist[3], dist[4]
    cam = np.empty(3)
    for i in range(n):
        a, b, c = xyz[i, 0], xyz[i, 1], xyz[i, 2]
        for j in range(3):
            if n == 1:  # a single row is a matrix-vector product: its own order
                cam[j] = _fma(c, rt[2, j], _fma(a, rt[0, j], b * rt[1, j])) + t[j]
            else:
                cam[j] = _fma(c, rt[2, j], _fma(b, rt[1, j], a * rt[0, j])) + t[j]
        z = cam[2] if cam[2] > 1e-9 else np.nan
        x = cam[0] / z
        y = cam[1] / z
        r2 = x * x + y * y
        radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x)
        yd = y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y
        out[i, 0] = k[0] * xd + k[1] * yd + k[2]
        out[i, 1] = k[3] * yd + k[4]
    return out
