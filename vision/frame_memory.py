"""What a video's last frame showed around each fitted thing (:class:`FrameMemory`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

__all__ = ["FrameMemory"]

FloatArray = NDArray[np.float64]
F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]


Window = tuple[slice, slice]
_CHANGE_LEVEL = 45  # summed channel change of a coarse pixel that is more than noise


class FrameMemory:
    """What a video's last frame showed around each fitted thing, to tell what moved.

    Pieces at rest (most of them in most frames of a match) keep their fits; a blob already
    tried in vain is not tried again while its pixels stay the same.
    """

    def __init__(self, stride: int) -> None:
        self.stride = stride
        self.things: list[tuple[object, Window, NDArray[np.int16]]] = []
        self.ball: tuple[object, Window, NDArray[np.int16]] | None = None
        # per kind of search ("button", "keeper", "ball"): what was tried there in vain, and
        # where the hands were about it then
        self.rejects: list[tuple[str, Window, NDArray[np.int16], NDArray[np.bool_]]] = []

    def window(self, shape: tuple[int, ...], uv_px: FloatArray) -> Window:
        """The coarse window around an outline (full-resolution px), grown by 2."""
        s, o = self.stride, self.stride // 2
        h, w = shape[:2]
        x0, y0 = (max(0, int((v - o) // s) - 2) for v in uv_px.min(axis=0))
        x1 = min(w, int((uv_px[:, 0].max() - o) // s) + 3)
        y1 = min(h, int((uv_px[:, 1].max() - o) // s) + 3)
        return (slice(y0, max(y1, y0 + 1)), slice(x0, max(x1, x0 + 1)))

    def patch(self, sub: U8, uv_px: FloatArray) -> tuple[Window, NDArray[np.int16]]:
        """The coarse pixels around an outline (full-resolution px), grown by 2."""
        win = self.window(sub.shape, uv_px)
        return win, sub[win].astype(np.int16)

    def remember(
        self, sub: U8, things: Sequence[tuple[object, FloatArray]], ball: object | None
    ) -> None:
        """This frame's fits (each with its outline, px) and the ball (if it is at rest)."""
        self.things = [(x, *self.patch(sub, outline)) for x, outline in things]
        self.ball = None
        uv = getattr(ball, "uv_px", None)
        streak = getattr(ball, "streak_px", np.zeros(2))
        if uv is not None and np.hypot(*streak) < 1.0:
            self.ball = (ball, *self.patch(sub, uv + np.array([[-8.0, -8.0], [8.0, 8.0]])))
        self.rejects = self.rejects[-40:]

    def unchanged(self, sub: U8, hands: NDArray[np.bool_]) -> tuple[list[Any], Any]:
        """Last frame's fits whose pixels have not changed and no hand covers, and the ball."""
        kept = [
            x
            for x, win, patch in self.things
            if not hands[win].any()
            and _changed_share(sub, win[0].start, win[1].start, patch) < 0.02
        ]
        ball = None
        if self.ball is not None:
            b, win, patch = self.ball
            if (
                not hands[win].any()
                and not _changed_share(sub, win[0].start, win[1].start, patch) > 0
            ):
                ball = b
        return kept, ball

    def reject(
        self, sub: U8, uv_px: FloatArray, kind: str, hands: NDArray[np.bool_] | None = None
    ) -> None:
        """Remember that a search for ``kind`` failed on these pixels (px), with the coarse
        hand mask about them (``hands``, none when not given)."""
        win, patch = self.patch(sub, uv_px)
        near = hands[win].copy() if hands is not None else np.zeros(patch.shape[:2], bool)
        self.rejects.append((kind, win, patch, near))

    def rejected(
        self, sub: U8, uv_px: FloatArray, kind: str, hands: NDArray[np.bool_] | None = None
    ) -> bool:
        """Whether a blob (its pixels, px) was tried in vain and neither its pixels nor the
        hands about it (``hands``, none when not given) have changed since: a hand that moves
        may uncover what the fit lacked (a piece it half hid), which is tried again."""
        if not self.rejects:
            return False
        win = self.window(sub.shape, uv_px)
        # the same window give or take a coarse pixel (a seed's radius jitters with noise)
        edges = np.array(
            [(w[0].start, w[0].stop, w[1].start, w[1].stop) for _, w, _, _ in self.rejects]
        )
        near = np.abs(edges - (win[0].start, win[0].stop, win[1].start, win[1].stop)) <= 1
        for i in np.flatnonzero(near.all(axis=1))[::-1]:
            k0, w0, p0, h0 = self.rejects[i]
            if k0 == kind:
                y0, x0 = max(win[0].start, w0[0].start), max(win[1].start, w0[1].start)
                y1, x1 = min(win[0].stop, w0[0].stop), min(win[1].stop, w0[1].stop)
                then = (
                    slice(y0 - w0[0].start, y1 - w0[0].start),
                    slice(x0 - w0[1].start, x1 - w0[1].start),
                )
                # one tried beside a hand holds while the hand stays (what it hid may be the
                # piece's; an older one tried there may still hold); one tried clear of the
                # hands, while its pixels do (a hand arriving changes them)
                if h0.any() and (
                    hands is None or not np.array_equal(hands[y0:y1, x0:x1], h0[then])
                ):
                    continue
                holds = _changed_share(sub, y0, x0, p0[then]) < 0.02
                if holds:  # still of use: the last to be forgotten (a print, a fold at rest)
                    self.rejects.append(self.rejects.pop(i))
                return holds
        return False


@njit(cache=True)
def _changed_share(sub: U8, y0: int, x0: int, patch: NDArray[np.int16]) -> float:
    """The share of a window's coarse pixels (at ``y0, x0``) whose channels changed by more
    than ``_CHANGE_LEVEL`` in all from ``patch``: one compiled pass, not six numpy calls
    for each of the twenty-odd pieces a frame."""
    h, w, c = patch.shape
    if h * w == 0:
        return math.nan  # (numpy's mean of nothing: no share is under any limit)
    n = 0
    for y in range(h):
        for x in range(w):
            d = 0
            for ch in range(c):
                d += abs(int(sub[y0 + y, x0 + x, ch]) - int(patch[y, x, ch]))
            if d > _CHANGE_LEVEL:
                n += 1
    return n / (h * w)
