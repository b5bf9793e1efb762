"""What differs from the empty table in an image: the foreground, the hands and arms (big blobs
from the rails, told from the pieces under them), and a fast ``nonzero`` of a 2D mask.
"""

from __future__ import annotations

import math
from typing import TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.camera import Camera

__all__ = ["foreground", "hand_mask", "hand_polygons", "nonzero_yx", "take_px"]

FloatArray = NDArray[np.float64]
F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]
_Px = TypeVar("_Px", bound=np.generic)
# A cast shadow keeps at least this share of the felt's light (a room's light is never one
# point): darker "shadows" are dark pieces (a black button on a dark felt). The solids' fits
# excuse shadows down to 0.55 (vision.solids.unshadowed_distance).
_SHADOW_K = 0.5


def nonzero_yx(
    mask: NDArray[np.bool_] | NDArray[np.uint8],
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """``np.nonzero`` of a 2D mask, rows then columns in the same order: from the flat indices,
    ten times faster than numpy's 2D search."""
    iy, ix = np.divmod(np.flatnonzero(mask), mask.shape[1])
    return iy, ix


def take_px(img: NDArray[_Px], flat_idx: NDArray[np.intp]) -> NDArray[_Px]:
    """The pixels ``img[ys, xs]`` (n, C) of an image (h, w, C) at the flat indices
    ``ys * w + xs``: one gather from the rows of the flattened image, faster than numpy's 2D
    fancy indexing (an image that is not contiguous is copied first); ``np.take`` along the
    rows is a few times faster again than indexing them."""
    return np.take(img.reshape(img.shape[0] * img.shape[1], -1), flat_idx, axis=0)


def foreground(
    sub_bgr: U8,
    sub_bg: U8,
    region: NDArray[np.bool_],
    min_level: float = 30.0,
    lines: NDArray[np.bool_] | None = None,
) -> tuple[NDArray[np.bool_], NDArray[np.uint16]]:
    """Pixels of a coarse image that differ from the empty table, shadows excused, and the
    summed channel difference of every pixel.

    The threshold on the summed channel difference is ``min_level`` or four times the median
    difference over the region (sensor noise, compression, texture), whichever is larger, and
    two and a half times that on the painted ``lines`` (their edges ring after compression). A
    pixel that is the table's own colour uniformly darkened (0.5..0.97 of it, off that line by
    little more than the noise) is a cast shadow, not a thing.
    """
    diff = cv2.absdiff(sub_bgr, sub_bg)
    c0, c1, c2 = cv2.split(diff)
    level = np.asarray(  # the channels' sum
        cv2.add(cv2.add(c0, c1, dtype=cv2.CV_16U), c2, dtype=cv2.CV_16U), np.uint16
    )
    sample = level[::4, ::4][region[::4, ::4]]
    thr = max(min_level, 4.0 * float(np.median(sample))) if len(sample) else min_level
    fg = (level > _below(thr)) & region
    if lines is not None:  # a painted line's edges differ most from any model of them
        fg &= ~lines | (level > _below(2.5 * thr))
    flat = np.flatnonzero(fg)
    if len(flat):
        seen = take_px(sub_bgr, flat).astype(np.float32)
        ref = take_px(sub_bg, flat).astype(np.float32)
        # the channels summed first to last, as numpy's sum and norm over three do (the same
        # values, without a reduction per pixel)
        s0, s1, s2 = seen[:, 0], seen[:, 1], seen[:, 2]
        r0, r1, r2 = ref[:, 0], ref[:, 1], ref[:, 2]
        norm2 = np.maximum(r0 * r0 + r1 * r1 + r2 * r2, 1.0)
        k = (s0 * r0 + s1 * r1 + s2 * r2) / norm2
        e0, e1, e2 = s0 - k * r0, s1 - k * r1, s2 - k * r2
        off = np.sqrt(e0 * e0 + e1 * e1 + e2 * e2)
        shadow = (k > _SHADOW_K) & (k < 0.97) & (off < 12.0 + 0.06 * np.sqrt(norm2))
        fg.put(flat[shadow], False)
    return fg, level


def _below(thr: float) -> int:
    """The integer an integer level must exceed to exceed ``thr`` (its floor, within uint16):
    a comparison in the levels' own type, not in float64 over the whole frame."""
    return min(math.floor(thr), 65535)


def hand_mask(
    sub_bgr: U8,
    blob: NDArray[np.bool_],
    rim: NDArray[np.bool_],
    colour_tol: float = 60.0,
    arm_rim: NDArray[np.bool_] | None = None,
) -> NDArray[np.bool_]:
    """The pixels of a hand-and-arm blob that have the arm's colour.

    The arm's colour is read where the blob crosses the rim of the playing surface (only an arm
    comes from there); a piece beside the hand keeps its own colour and stays out of the mask.
    ``arm_rim`` (within ``rim``) is where an arm crosses it: the rim less the goals, whose
    nets a hand reaching into a goal joins to its blob (a still's model lacks the net, which
    outnumbered the arm's pixels at the rim: still 2214 of ``bench_detect --seed 2200``, the
    arm read as the net's pale blue and fitted as a goalkeeper). It is used when the blob
    crosses it by 5 pixels or more.
    """
    at_rim = blob & rim
    at_arm = at_rim if arm_rim is None else blob & arm_rim
    ref = sub_bgr[at_arm if at_arm.sum() >= 5 else at_rim if at_rim.sum() >= 5 else blob]
    colour = np.median(ref.astype(np.float32), axis=0)
    dist = np.abs(sub_bgr.astype(np.float32) - colour).sum(axis=2)
    near = blob & (dist < colour_tol)
    # the palm and forearm are one piece: keep what connects to the rim, close small gaps
    near = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)) > 0
    _, lab = cv2.connectedComponents(near.astype(np.uint8))
    keep = np.unique(lab[near & rim])
    keep = keep[keep > 0]
    if not len(keep):
        return near & blob
    return np.isin(lab, keep) & blob


def hand_polygons(
    hands: NDArray[np.bool_], camera: Camera, stride: int, z_mm: float
) -> list[FloatArray]:
    """Polygons (table mm, on the plane ``z_mm``) of a coarse hand mask's regions: the part of
    the table whose pieces' tops the hands hide from the camera."""
    if not hands.any():
        return []
    contours, _ = cv2.findContours(
        hands.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    out = []
    for c in contours:
        if len(c) < 3:
            continue
        poly = cv2.approxPolyDP(c, 1.5, True)[:, 0].astype(np.float64) * stride + stride // 2
        xy = camera.image_to_table(poly, z_mm)
        if np.isfinite(xy).all():
            out.append(xy)
    return out
