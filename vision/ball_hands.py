"""The ball beside a coach's hand, for :class:`vision.detect.Detector` (a function of the
detector, ``det``, that is its method).

The coarse search leaves out whatever touches a hand (its mask grown by a coarse pixel, and by
three more pixels in the ball's fit): a fingertip, a knuckle or the edge of a sleeve must never
become a ball. A ball resting against the hand loses its few coarse pixels to that margin and
is not seen at all, though most of it is in view (a 9-pixel ball, 3 coarse pixels across).

Where the ball was found a moment ago and a hand has come beside it, it is looked for there
again on the full-resolution image, with the hand's own pixels left out as they are, not
grown by a margin: those of the hand's colour (the median of its coarse mask about the ball)
and those on the line from the table's colour to the hand's (its blurred edge), grown by a
pixel. Whatever that leaves is the ball's or the table's. The fit (:func:`vision.ball.fit_ball`)
counts the pixels left out as hidden (``visible``), which the ball's reported sigma carries
(:func:`vision.detect.ball_sigma_mm`). A fit is kept only as a ball that the hand cannot be:
near where the ball was, seen in good part, scored as a ball, and of the ball's colour, learned
from sure fits in the video, far nearer it than the hand's (a fingertip of the hand's own
colour, whatever that colour, is the hand). In a video without a ball's colour learned or a
ball found recently nothing is searched: a lost ball is never invented beside a hand.

A still has no moment before: there a fit the search made beside a hand, mostly under the
hand's grown mask, is fitted again with the hand's own pixels left out as they are, and kept
only if it then shows half of itself, explains its pixels and is not of the hand's colour
(:func:`still_refit_by_hand`); and where no blob was left, the hands' fringe is searched for
a ball-sized difference from the table (:func:`still_ball_beside_hand`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.ball import BallFit, fit_ball
from vision.ball_search import (
    _BALL_MIN_SCORE,
    _BALL_SURE,
    _HAND_MIN_VISIBLE,
    _STILL_VISIBLE,
    _skin_about,
    ball_bars,
    ball_fit_ok,
    ball_hiders,
    colour_nearer_hand,
    faint_peaks,
    hand_colour,
    hand_like,
)
from vision.foreground import _SHADOW_K
from vision.solids import Solid

if TYPE_CHECKING:
    from vision.detect import Detector

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]

__all__ = ["ball_by_hand", "still_ball_beside_hand", "still_refit_by_hand"]

_PRIOR_FRAMES = 15  # the ball found at most this many frames ago (half a second at 30/s)
_SKIN_TOL = 60.0  # summed channel distance to the hand's colour (vision.foreground.hand_mask's)
_EDGE_TOL = 30.0  # distance from the line from the table's colour to the hand's: its edge
_EDGE_MIN = 0.25  # ... at least this share of the hand (less: the table's noise)
_MIN_VISIBLE = _HAND_MIN_VISIBLE  # the least share a ball beside a hand must show of itself
_MIN_EXPLAINED = 0.5  # the least share of the pixels' difference from the table it explains
_BLOB_REACH = 30  # coarse pixels about the ball's place searched for a hand its blob reaches
# a still's ball beside a hand, fitted with the hand's own pixels left out: seen as a still's
# ball must be, half of itself (vision.ball_search._STILL_VISIBLE; the pixels the hand's
# blurred edge takes are left out too: still 2141's ball against a wrist, whole in the image,
# was seen 0.61 and fitted 0.03 mm off; a fingertip's fit, its pixels left out, shows far
# less) and explaining its pixels well (the three stills' balls: 0.96-0.99)
_STILL_EXPLAINED = 0.8
# a hand's colour at another brightness: chromaticity (summed over the channels) within this,
# brightness within these shares of the hand's
_LIT_CHROMA = 0.05
_LIT = (0.7, 1.5)
_SHADOW_PX, _SHADOW_MAX = 5, 0.93  # a shadow: the table darkened over 5 x 5 px below this


def hand_pixels(img: U8, bg: NDArray[np.float32], skin: FloatArray) -> NDArray[np.bool_]:
    """The pixels of an image window (h, w, 3) that are a hand of colour ``skin`` (BGR) or its
    blurred edge over the table ``bg`` (the same window): within :data:`_SKIN_TOL` of its
    colour where a 3 x 3 patch is (a hand is no single pixel: a ball's shaded rim may pass
    for skin here and there), or on the line from the table's colour to it (at least
    :data:`_EDGE_MIN` of the way) within two pixels of those (a ball's rim over the felt,
    between the two colours, lies on that line too, but apart from the hand); grown by a
    pixel (the lens's blur beyond the last mixed pixel)."""
    seen = img.astype(np.float32)
    k3 = np.ones((3, 3), np.uint8)
    near = (np.abs(seen - skin.astype(np.float32)).sum(axis=2) < _SKIN_TOL).astype(np.uint8)
    near = cv2.morphologyEx(near, cv2.MORPH_OPEN, k3)
    d = seen - bg
    e = skin.astype(np.float32)[None, None, :] - bg
    a = np.clip((d * e).sum(axis=2) / np.maximum((e * e).sum(axis=2), 1.0), 0.0, 1.0)
    off = np.linalg.norm(d - a[:, :, None] * e, axis=2)
    edge = (a >= _EDGE_MIN) & (off < _EDGE_TOL)
    edge &= cv2.dilate(near, np.ones((5, 5), np.uint8)) > 0
    mask = ((near > 0) | edge).astype(np.uint8)
    return np.asarray(cv2.dilate(mask, k3) > 0)


def _hand_of_blob(det: Detector, hands: NDArray[np.bool_], i: int, j: int) -> FloatArray | None:
    """The colour (BGR, the median) of the coarse hand mask's pixels joined through the
    foreground to coarse pixel ``(i, j)`` within :data:`_BLOB_REACH` of it; None if the
    foreground there reaches no hand (or ``(i, j)`` is table)."""
    k = _BLOB_REACH
    win = (slice(max(0, i - k), i + k + 1), slice(max(0, j - k), j + k + 1))
    fg = np.asarray(det._fg[win])
    ci, cj = i - win[0].start, j - win[1].start
    if not fg[ci, cj]:
        return None
    _, labels = cv2.connectedComponents(fg.astype(np.uint8), connectivity=8)
    mask = hands[win] & (labels == labels[ci, cj])
    if not mask.any():
        return None
    return np.asarray(np.median(det._sub[win][mask].astype(np.float64), axis=0))


def _hand_as_it_is(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
    skin: FloatArray,
    window: tuple[int, int, int, int],
    shadows: bool = True,
) -> NDArray[np.bool_]:
    """What a ball's fit beside a hand leaves out (full resolution): the buttons' grown pixels
    and, in ``window`` (x0, x1, y0, y1 px), the hand's own (:func:`hand_pixels`) where its
    coarse mask, grown by a stride, says a hand is, not the hand's mask grown by a margin; and
    if ``shadows``, the table darkened by a shadow (:func:`shadow_pixels`: a still's model of
    the table; a video's search beside a hand keeps them, as it was measured)."""
    x0, x1, y0, y1 = window
    s = det.stride
    others = [x for x in solids if x.kind != "goalkeeper"]
    excluded = det._excluded(others, np.zeros_like(hands)).copy()
    coarse = det._upsample(hands.astype(np.uint8), (y0, y1), (x0, x1))
    region = cv2.dilate(coarse, np.ones((2 * s + 1, 2 * s + 1), np.uint8)) > 0
    seen, bg = img[y0:y1, x0:x1], bgf[y0:y1, x0:x1]
    excluded[y0:y1, x0:x1] |= hand_pixels(seen, bg, skin) & region
    if shadows:
        excluded[y0:y1, x0:x1] |= shadow_pixels(seen, bg)
    return excluded


def shadow_pixels(img: U8, bg: NDArray[np.float32]) -> NDArray[np.bool_]:
    """The pixels of an image window (h, w, 3) that are the table ``bg`` darkened, as a cast
    shadow darkens it (to :data:`vision.foreground._SHADOW_K`-0.97 of it, its colour kept).

    A hand over the table casts its shadow beside itself, where a ball by the hand lies: a
    fit counts the darkened felt about the ball as unexplained (an orange ball 3 px from a
    hand 30 mm up explained 0.59 of its window's difference, 0.97 with the shadow left out).
    A ball's own pixels are not the table's colour."""
    seen = img.astype(np.float32)
    ref = np.asarray(bg, np.float32)
    norm2 = np.maximum((ref * ref).sum(axis=2), 1.0)
    k = (seen * ref).sum(axis=2) / norm2
    off = np.linalg.norm(seen - k[:, :, None] * ref, axis=2)
    # darkened over a few pixels: a single pixel's darkening is the noise's (a dark felt's
    # pixels scatter 0.8-1.15 of the table's model; a hand's shadow is 0.85-0.9 of it, and
    # wide)
    k = cv2.blur(k, (_SHADOW_PX, _SHADOW_PX))
    dark = (k > _SHADOW_K) & (k < _SHADOW_MAX)
    return np.asarray(dark & (off < 12.0 + 0.06 * np.sqrt(norm2)))


def still_refit_by_hand(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    xy_mm: FloatArray,
    solids: list[Solid],
    hands: NDArray[np.bool_],
    uv: FloatArray,
) -> BallFit | None:
    """A still's ball beside a hand, whose grown mask took most of it: fitted from ``xy_mm``
    with the hand's own pixels left out as they are (:func:`_hand_as_it_is`; the hand's colour
    about the blob or peak ``uv``, px), kept if it then shows half of itself, as a still's
    ball must (:data:`_STILL_VISIBLE`), explains its pixels well (:data:`_STILL_EXPLAINED`),
    stays within a radius of ``xy_mm``, is not of the hand's colour at any brightness
    (:func:`hand_like`: a lit palm's rim) and scores as a ball found well; None otherwise.

    The hand's mask, coarse and grown by three pixels more in the fit, covers a ball lying a
    few pixels from a fingertip: seen 0.3 of itself, it was the hand's (stills 1341 and 1353
    of ``bench_detect --seed 1300``: white balls on green felt, whole in the image 2-4 px from
    the hand). A fingertip or a knuckle is the hand's colour: its pixels are left out now, and
    a fit on them shows little of itself."""
    skin = _skin_about(det, hands, uv)
    if skin is None or not np.isfinite(xy_mm).all():
        return None
    sz = det.sizes
    w, h = det.camera.image_size
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    at = det.camera.table_to_image(np.array([[*xy_mm, z_c]], np.float64))[0]
    if not np.isfinite(at).all():
        return None
    half = math.ceil(3.0 * sz.ball_diameter / max(det._scale(), 1e-3)) + 4
    u0, v0 = (round(float(x)) for x in at)
    x0, x1 = max(0, u0 - half), min(w, u0 + half + 1)
    y0, y1 = max(0, v0 - half), min(h, v0 + half + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    excluded = _hand_as_it_is(det, img, bgf, solids, hands, skin, (x0, x1, y0, y1))
    return _still_ball_kept(det, img, bgf, xy_mm, solids, hands, uv, excluded)


def _still_ball_kept(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    xy_mm: FloatArray,
    solids: list[Solid],
    hands: NDArray[np.bool_],
    uv: FloatArray,
    excluded: NDArray[np.bool_],
) -> BallFit | None:
    """The fit from ``xy_mm`` with ``excluded`` left out, if :func:`still_refit_by_hand`
    keeps it (with all it hides counted as the hand's, :func:`vision.detect.ball_sigma_mm`)."""
    sz = det.sizes
    fit = fit_ball(
        img,
        bgf,
        det.camera,
        xy_mm,
        sz.ball_diameter,
        sz.ball_height,
        excluded=excluded,
        hiders=ball_hiders(solids),
    )
    if fit is None or not ball_fit_ok(fit):
        return None
    if fit.visible < _STILL_VISIBLE or fit.explained < _STILL_EXPLAINED:
        return None
    if float(np.hypot(*(fit.xy_mm - xy_mm))) > sz.ball_diameter / 2.0:
        return None
    if hand_like(det, fit, hands, uv) or det._in_goal(fit.xy_mm):
        return None
    if det._ball_score(fit, bgf, fit.uv_px) < _BALL_SURE:
        return None
    return replace(fit, hand_hidden=1.0 - fit.visible)


def lit_hand(sub: U8, fg: NDArray[np.bool_], hands: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The coarse foreground pixels (of ``sub``, the coarse image) of a hand's colour at
    another brightness, in a foreground blob with a hand: chromaticity within
    :data:`_LIT_CHROMA` of the median of the blob's hand pixels, brightness within
    :data:`_LIT` of it, small gaps closed as the hand's mask closes them.

    The hand's mask takes the arm's colour where it crosses the rim: the light falls off
    across a table and a palm is lit brighter than a forearm, and a palm 900 mm from the rail,
    1.3 times as bright, was left out whole, a blob that swallowed a ball beside it. Only a
    still's search beside a hand uses this: in a video the palm's pixels so taken left a
    hidden button's rim a ball-sized blob (tests/vision/test_keeper_beside_arm.py), and a
    ball beside a palm is looked for where it was (:func:`ball_by_hand`)."""
    _, labels = cv2.connectedComponents(fg.astype(np.uint8))
    out = np.zeros_like(hands)
    seen = sub.astype(np.float32)
    total = seen.sum(axis=2)
    for k in np.unique(labels[hands & fg]):
        if k == 0:
            continue
        blob = labels == k
        skin = np.median(seen[blob & hands], axis=0)
        ref = max(float(skin.sum()), 1.0)
        chroma = np.abs(seen / np.maximum(total, 1.0)[:, :, None] - skin / ref).sum(axis=2)
        ratio = total / ref
        lit = blob & (chroma < _LIT_CHROMA) & (ratio > _LIT[0]) & (ratio < _LIT[1])
        lit = cv2.morphologyEx(lit.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        out |= (lit > 0) & blob
    return out


def still_ball_beside_hand(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """A still's ball that left no blob of its own beside a hand (the hand's coarse mask,
    grown by a coarse pixel, took all of a 6-pixel ball's few coarse pixels, or a palm lit
    brighter than the arm joined it, :func:`lit_hand`): the strongest ball-sized differences
    from the table (:func:`vision.ball_search.faint_peaks`) on the hands' fringe only, each
    hand's own pixels left out as they are, each fitted and kept as :func:`still_refit_by_hand`
    keeps a fit; the best scoring, or None."""
    if det.learned or not hands.any():
        return None
    hands = hands | lit_hand(det._sub, det._fg, hands)
    sz = det.sizes
    w, h = det.camera.image_size
    s = det.stride
    ball_px = sz.ball_diameter / max(det._scale(), 1e-3)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(hands.astype(np.uint8))
    others = [x for x in solids if x.kind != "goalkeeper"]
    excluded = det._excluded(others, np.zeros_like(hands)).copy()
    fringe = np.zeros((h, w), bool)
    # the coarse mask grown by a coarse pixel, and by 3 px more in a fit: a ball's width beyond
    grow = s + 4 + math.ceil(ball_px)
    for k in range(1, n):
        x, y, bw, bh = (int(v) for v in stats[k, :4])
        skin = np.asarray(np.median(det._sub[labels == k].astype(np.float64), axis=0))
        x0, x1 = max(0, x * s - grow), min(w, (x + bw) * s + grow)
        y0, y1 = max(0, y * s - grow), min(h, (y + bh) * s + grow)
        coarse = det._upsample((labels == k).astype(np.uint8), (y0, y1), (x0, x1))
        near = cv2.dilate(coarse, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)) > 0
        region = cv2.dilate(coarse, np.ones((2 * s + 1, 2 * s + 1), np.uint8)) > 0
        seen, bg = img[y0:y1, x0:x1], bgf[y0:y1, x0:x1]
        excluded[y0:y1, x0:x1] |= (hand_pixels(seen, bg, skin) & region) | shadow_pixels(seen, bg)
        # the fringe: about the hand, where its grown mask hid the table from the search
        fringe[y0:y1, x0:x1] |= near
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    best: tuple[float, BallFit] | None = None
    for peak in faint_peaks(det, img, bgf, excluded | ~fringe):
        xy0 = det.camera.image_to_table(peak[None], z_c)[0]
        fit = _still_ball_kept(det, img, bgf, xy0, solids, hands, peak[None], excluded)
        if fit is None:
            continue
        score = det._ball_score(fit, bgf, fit.uv_px)
        if best is None or score > best[0]:
            best = (score, fit)
    return best[1] if best is not None else None


def ball_by_hand(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """The ball beside a hand near where it was last found (module docstring); None if none."""
    prior = det._ball_prior
    ref = det.ball_colour
    if prior is None or ref is None or not hands.any():
        return None
    last, frame0 = prior
    if det._frames - frame0 > _PRIOR_FRAMES:
        return None
    sz = det.sizes
    w, h = det.camera.image_size
    s, o = det.stride, det.stride // 2
    hc, wc = hands.shape
    i = int(np.clip(round((last.uv_px[1] - o) / s), 0, hc - 1))
    j = int(np.clip(round((last.uv_px[0] - o) / s), 0, wc - 1))
    mm_px = float(det._mm_px[i, j]) or det._scale()
    d_px = sz.ball_diameter / max(mm_px, 1e-3)
    # where it may be: within a diameter of where it was (a ball at rest beside a hand; one
    # that rolls away from it leaves the hand and is found by the search as any other)
    reach_px = d_px + float(np.hypot(*last.streak_px))
    half = math.ceil(reach_px + d_px) + 4
    m = half // s + 2  # the window in coarse pixels
    # the hand's colour: its coarse pixels about the ball (its edge's few do not move the
    # median), well beyond the ball's own
    if hands[max(0, i - m) : i + m + 1, max(0, j - m) : j + m + 1].any():
        skin = hand_colour(det, hands, i, j, 12)
    else:
        # or the hand whose blob has swallowed the ball's: a palm over the piece beside it,
        # lit brighter than the forearm whose colour the hand's mask takes (gaucha's ten
        # minutes, seed 36, frames 8101-8106: the palm on A3 beside the ball at a goal kick,
        # the mask's nearest pixel 30 mm off; the ball lost six frames and the kick with it)
        skin = _hand_of_blob(det, hands, i, j)
    if skin is None:
        return None  # no hand beside it: the search's miss is not the hands'
    u0, v0 = (round(float(x)) for x in last.uv_px)
    x0, x1 = max(0, u0 - half), min(w, u0 + half + 1)
    y0, y1 = max(0, v0 - half), min(h, v0 + half + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    excluded = _hand_as_it_is(det, img, bgf, solids, hands, skin, (x0, x1, y0, y1), False)
    hiders = ball_hiders(solids)
    # starts: where it was, and where a ball-sized difference from the table is strongest
    # among the pixels left in the window
    level = cv2.absdiff(img[y0:y1, x0:x1].astype(np.float32), bgf[y0:y1, x0:x1])
    level = cv2.transform(level, np.ones((1, 3), np.float32))
    level[excluded[y0:y1, x0:x1]] = 0.0
    kk = max(3, round(0.6 * d_px))
    _, _, _, at = cv2.minMaxLoc(cv2.blur(level, (kk, kk)))
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    peak = det.camera.image_to_table(np.array([[at[0] + x0, at[1] + y0]], np.float64), z_c)[0]
    reach_mm = reach_px * mm_px
    best: tuple[float, BallFit] | None = None
    for xy0 in (np.asarray(last.xy_mm, np.float64), peak):
        if not np.isfinite(xy0).all():
            continue
        fit = fit_ball(
            img,
            bgf,
            det.camera,
            xy0,
            sz.ball_diameter,
            sz.ball_height,
            excluded=excluded,
            hiders=hiders,
            bars=ball_bars(det),
        )
        if fit is None or not ball_fit_ok(fit):
            continue
        if float(np.hypot(*(fit.xy_mm - last.xy_mm))) > reach_mm:
            continue
        if fit.visible < _MIN_VISIBLE or fit.explained < _MIN_EXPLAINED:
            continue
        # of the ball's colour (darkened in the hand's shadow, as the score allows) and not
        # the hand's: a fingertip or a knuckle is the hand's colour, whatever it is
        if colour_nearer_hand(fit.colour_bgr, ref, skin):
            continue
        score = det._ball_score(fit, bgf, fit.uv_px, shaded=True)
        if score >= _BALL_MIN_SCORE and (best is None or score > best[0]):
            best = (score, fit)
    # all it hides counts as the hand's (vision.detect.ball_sigma_mm)
    return replace(best[1], hand_hidden=1.0 - best[1].visible) if best is not None else None
