"""The per-pixel median of a few frames by a sorting network (numpy's element-wise min and
max on whole frames), for the learned empty table (:meth:`vision.background.Background.learn`).

``np.median`` over the frames' axis partitions each pixel's few values on its own: 0.8 s for
15 frames at 1080p, a tenth of a 30 s clip's analysis. A sorting network compares whole
frames at once: Batcher's odd-even merge sort for any count (its comparators past the count
dropped: the missing inputs are +inf, which never move), only those the middle values
depend on. The values are numpy's exactly: the middle one, or the mean of the two.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray

__all__ = ["median_network", "median_of_frames"]


@cache
def median_network(n: int) -> tuple[tuple[int, int], ...]:
    """The comparators (i, j), i < j, that bring the middle of ``n`` values (both middles
    for an even ``n``) into place: min to ``i``, max to ``j``, in order.

    >>> median_network(3)
    ((0, 1), (0, 2), (1, 2))
    """
    if n < 1:
        raise ValueError(f"median_network: expected at least one value, got n={n}")
    pairs: list[tuple[int, int]] = []
    p = 1
    while p < n:
        k = p
        while k >= 1:
            for j in range(k % p, n - k, 2 * k):
                for i in range(min(k, n - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        pairs.append((i + j, i + j + k))
            k //= 2
        p *= 2
    need = {n // 2} if n % 2 else {n // 2 - 1, n // 2}
    kept = []
    for i, j in reversed(pairs):  # a comparator matters if it writes a wire that matters
        if i in need or j in need:
            kept.append((i, j))
            need |= {i, j}
    return tuple(reversed(kept))


def median_of_frames(cube: NDArray[np.generic]) -> NDArray[np.float64]:
    """``np.median(cube, axis=0)`` of a stack of uint8 frames (n, ...), by
    :func:`median_network` (other dtypes: numpy's own).

    >>> cube = np.array([[3, 200], [7, 1], [5, 9]], np.uint8)
    >>> median_of_frames(cube).tolist()
    [5.0, 9.0]
    """
    a = np.asarray(cube)
    if a.dtype != np.uint8 or a.ndim < 1 or len(a) == 0:
        return np.asarray(np.median(a, axis=0), np.float64)
    n = len(a)
    wires = [np.array(f) for f in a]
    spare = np.empty_like(wires[0])
    for i, j in median_network(n):
        np.minimum(wires[i], wires[j], out=spare)
        np.maximum(wires[i], wires[j], out=wires[j])
        wires[i], spare = spare, wires[i]
    if n % 2:
        return wires[n // 2].astype(np.float64)
    return (wires[n // 2 - 1].astype(np.float64) + wires[n // 2]) / 2.0
