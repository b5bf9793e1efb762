"""The ball's search for :class:`vision.detect.Detector` (functions of the detector, ``det``,
that are its methods): the candidates the pieces leave, tried most ball-like first (a matched
filter at full resolution), each fitted by :func:`vision.ball.fit_ball` and scored; a ball on
the centre or a penalty mark looked for there; a fresh fit about a known place
(:func:`vision.ball_refit.refit`, the goal-line call's).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from geometry.field import FieldModel
from vision.ball import (
    ON_SPOT_MM,
    BallFit,
    _coverage,
    ball_on_spots,
    fit_ball,
    hidden_share,
    plausible_colour,
    shadow_like,
)
from vision.foreground import _SHADOW_K
from vision.solids import (
    Solid,
    unshadowed_distance,
)
from vision.table_masks import crossbar_hulls
from vision.track_types import TrackerConfig

if TYPE_CHECKING:
    from vision.detect import Detector

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]
_BALL_MM2 = 78.5  # a 10 mm ball's footprint
_MIN_BALL = 0.2  # of it: the least a ball's blob (white on a pale felt: its shaded rim is lost)
_BALL_MIN_SCORE = 0.35
_CONTRAST = 60.0  # a fit's colour this far from the table's (or more) scores in full
_ON_LINE_EXPLAINED = 0.9  # a ball on a painted line explaining this much is judged on the felt
_ON_LINE = 0.5  # the painted lines' coverage of a pixel (Background.markings) that is on one
_SPOT_RING = 3  # coarse pixels about a painted spot's box that must be bare to refresh it
_SPOT_STILL = 0.5  # the least share a ball on a painted spot explains in a still
_STILL_VISIBLE = 0.5  # the least share of itself a still's ball shows
_PARALLAX_MM = 1.5  # a bare spot's fit lies this far off its place at least, or it cannot tell
_SPOT_PARALLAX = 0.3  # the least share a ball on a spot that parallax confirms explains
_PARALLAX_BALL = 0.35  # a fit on a spot showing this share of that offset or less is a ball
_SPOT_NEAR, _SPOT_PRIOR_FRAMES = 3.0, 3  # the ball this near a spot this lately: maybe on it
_RAIL_SLACK_MM = 2.0  # a footprint this much nearer a rail than its radius: the camera's error
_BALL_SURE = 0.6  # a fit this good is the ball (found well: the spots may be refreshed)
_SHADE_SPREAD = 0.08  # a shadow darkens every channel alike (within this share: shadow_like's)
_SHADE_SHARE = 0.3  # of a ring about the ball this many pixels must be the table, shaded or not
# The candidates are fitted most ball-like first, at most _TRIED of them, and the best fit wins;
# the search stops early at a fit scoring _STOP_SCORE that sees at least _STOP_VISIBLE of its
# silhouette. It stopped at any fit of _BALL_SURE: a false one scoring just above it (a painted
# mark on a learned table, 0.60 -> 0.65 as a print on a button far off changed; a button's
# leftover sliver, 19% of a ball seen, 0.70) then hid the ball itself, half behind a goalkeeper
# (0.80-0.83), or pushed it beyond the 8 candidates tried (ranked 9th of 180 on rig 313). A ball
# seen whole scores 0.85-0.99 on the stills' bench.
_STOP_SCORE = 0.85
_STOP_VISIBLE = 0.5
_TRIED = 16
# In a video, where the last two frames found the ball, a fit where it should be now (rolling
# on at its speed: within _EXPECTED_MM plus _EXPECTED_SHARE of a frame's travel; friction took
# 5-7% of it a frame on the seed-3 render) scoring _EXPECTED_SCORE, seen half, stops the search
# too: a ball blurred by its motion scores 0.4-0.85, and the candidates after it (a match's
# prints and leftovers, 0.0-0.2) were fitted in vain on half the frames with the ball moving.
# Not for a ball at rest (under _EXPECTED_MOVING_MM a frame): one kept at rest is searched for
# only when a blob changed elsewhere - the ball seen again after a mark stood in for it - and
# there the best fit must win.
_EXPECTED_MM = 3.0
_EXPECTED_SHARE = 0.2
_EXPECTED_SCORE = 0.5
_EXPECTED_MOVING_MM = 2.0
_LOST = "ball:lost"  # the memory's kind for a blob a sure ball beat (:func:`remember_lost`)
_BAR = "ball:bar"  # and for a crossbar's ghost (:func:`_on_crossbar`)
_MAX_STREAK_PX = 45.0  # a ball's motion blur: 4 m/s over 1/100 s at 1 mm a pixel
_STREAK_DOUBT = 0.7  # a streak's fit explaining less is tried as a still ball too
_BOX_REFIT_EXPLAINED = 0.5  # a fit beside a box explaining this much is fitted again, box first
_BOX_REACH = 1.5  # balls: how near a box a blob the second search (beside a box) fits must lie
# A still fit explaining _BLUR_EXPLAINED that scores under _BLUR_SCORE may be a ball blurred by
# its motion (its colour mixed with the felt's about the rim): fitted again drawn out (blur_seed)
_BLUR_EXPLAINED = 0.8
_BLUR_SCORE = 0.5
_BLUR_SEED_PX = 2.0  # a rolling ball's streak seed when its last fit had none
_BLUR_SHORT = 0.5  # a streak this much shorter than the seed's is fitted again from the seed
# A ball lost since it was last found (struck off, too faint and fast for its blob to seed a
# streak) is fitted again drawn out from where it was (lost_seed): a still fit explaining this
# much, at most _LOST_FRAMES frames on and no farther than the ball's top speed carries it;
# its streak must then lie along the way it came (within _LOST_ANGLE_DEG) and be seen at least
# half (_STOP_VISIBLE: a sliver beside a piece, 0.18 of it seen, fitted so scored over the ball
# at rest 47 mm away, mesa-posta seed 34's frame 281, and made a false touch)
_LOST_EXPLAINED = 0.5
_LOST_FRAMES = 6
_LOST_TOP_MM_S = TrackerConfig().max_speed_mm_s[2]  # the tracker's top speed for the ball
_LOST_ANGLE_DEG = 25.0
_ON_FRAME = 0.7  # a blob this much on a goal's crossbar is the goal's (a ball: about half)
_HIDDEN = 0.9  # a fit that sees less of its silhouette is partly hidden (beside a piece)
# a fit a crossbar hides this much of (or more) may read its colour mixed with the felt's, the
# ball's share down to _DILUTED (:func:`_diluted`)
_BAR_HIDES, _DILUTED = 0.2, 0.4
# a ball's fit this near a goalkeeper's box may be against it (:func:`touching_box`): such fits
# stopped 1-2.5 mm from where the ball was, and the box's own fit beside a ball 3-4 mm off
_TOUCH_MM = 8.0
# a ball's fit whose footprint is this near a button's is fitted again with the button
# modelled (:func:`against_a_button`), and kept unless it overlaps the button by more than
# _BUTTON_OVERLAP_MM: the button's own fit beside a ball against it is about a millimetre off
# (brasileira's ten minutes, frame 4941: 0.6 mm toward the ball and 0.4 mm too wide, so the
# ball's true place overlapped it by 1.1 mm)
_BUTTON_TOUCH_MM = 4.0
_BUTTON_OVERLAP_MM = 2.5
_IN_FRONT = (
    0.99  # a box that would hide more of a ball against it than its soft edge stands in front
)
_BAR_LIKE = 60.0  # summed channel distance of a blob's colour from the felt-to-bar colour line
_BAR_PIECES = 48  # each crossbar in lengths of 3-4 mm, each in front of a ball where shown
# a length shows the bar where this share of its pixels does (its outline's mix the bar with
# what lies under it, a ball under it too)
_BAR_SHOWN = 0.5
_BAR_NEAR = 45.0  # a crossbar's pixel this near the bar's colour (unshadowed distance) shows it
_BALL_BESIDE_BAR = 3  # pixels of another colour beside a blob on a bar: a ball under it
_SPLIT = 3.0  # blobs larger than this many balls are also tried without their table-like pixels
# A still's fit beside a hand (no ball's colour learned, no place it was): the hand's own
# colour at any brightness (chromaticity, summed over the channels, within this) is the hand -
# a lit palm's rim the arm's colour leaves out of the hand's mask - and so is a fit that shows
# less than ball_hands' least share of itself (its colour is the few pixels the hand leaves)
_HAND_CHROMA = 0.06
_HAND_MIN_VISIBLE = 0.35
_HAND_REACH = 40  # coarse pixels about the blob whose hand pixels give the hand's colour
_HAND_APART = 2.0  # a ball's fit beside a hand: this many times farther from its colour
_HAND_NEAR_MM, _HAND_NEAR_FRAMES = 20.0, 3  # ... hidden in good part: near where it just was


def ball_masks(
    det: Detector, solids: list[Solid], hands: NDArray[np.bool_]
) -> tuple[NDArray[np.bool_], list[FloatArray]]:
    """What a ball's fit leaves out: the pixels of the buttons and hands (grown by their
    blurred edge), and the goalkeepers' silhouettes (px), which may stand in front of the ball
    and hide part of it (:func:`vision.ball.fit_ball`'s ``hiders``). A box is taller than the
    ball: grown as a button is, its edge took most of the sliver of a ball beside it (39 of a
    6-pixel ball's 40 pixels, where the box covers 22) and its fit slid off along the edge.
    (The crossbars in front of a ball: :func:`ball_bars`.)"""
    others = [x for x in solids if x.kind != "goalkeeper"]
    return det._excluded(others, hands), ball_hiders(solids)


def ball_hiders(solids: list[Solid]) -> list[FloatArray]:
    """What may stand in front of a ball and hide part of it: the goalkeepers' boxes (their
    silhouettes, px)."""
    keepers = [x for x in solids if x.kind == "goalkeeper" and len(x.hull)]
    return [np.asarray(x.hull, np.float64) for x in keepers]


def ball_bars(det: Detector) -> list[FloatArray]:
    """The crossbars in front of a ball under them (:func:`vision.ball.fit_ball`'s ``bars``):
    in a video, once the ball's colour is learned and unlike the bars', the lengths the image
    shows (:func:`crossbars`; the learned table has them). A still's model of the table lacks
    the goals' frames: none (as before them). A ball of the bar's colour (white on a white
    bar) under it is not told from the bar, nor from its ghost where a goalkeeper hid it while
    the table was learned: its fits there, the bar taken for in front, explained that ghost
    (rig 330: a false ball 32 mm inside the goal); none for it."""
    return crossbars(det) if _ball_unlike_bars(det) else []


def _ball_unlike_bars(det: Detector) -> bool:
    """Whether, in a video, the ball's learned colour is unlike the crossbars' in the table
    (:data:`_BAR_LIKE` or more, summed over the channels): a ball that can be told from a bar
    over it."""
    if not det.learned or det.ball_colour is None:
        return False
    crossbars(det)
    assert det._bars_front is not None
    ball = np.minimum(np.asarray(det.ball_colour, np.float64), 255.0)
    return float(np.abs(ball - det._bars_front[1]).sum()) >= _BAR_LIKE


def crossbars(det: Detector) -> list[FloatArray]:
    """The lengths of the goals' crossbars (:func:`vision.table_masks.crossbar_hulls`, in
    :data:`_BAR_PIECES` each) that show the bar on this frame (:func:`_bar_shown`): in front of
    a ball under them, as a goalkeeper's box beside it is.

    A bar stands higher than any piece and the camera looks down from over the field, so a
    ball under the bar's image is behind it. A length whose pixels show something else has it
    in front of the bar (a hand; a renderer that draws the ball over the bar): what is there is
    seen, and read as it is (taken for hidden, a ball drawn over the bar on the goal-line
    protocol's rig 300 was lost: 10 calls of 160 outside +/-0.5 mm)."""
    if det._bar_hulls is None:
        hulls = crossbar_hulls(det.camera, det.table, _BAR_PIECES)
        w, h = det.camera.image_size
        rows, cols, counts = [], [], [0]
        for q in hulls:
            (x0, y0), (x1, y1) = np.floor(q.min(axis=0)), np.ceil(q.max(axis=0))
            x0, y0 = max(int(x0), 0), max(int(y0), 0)
            x1, y1 = min(int(x1) + 1, w), min(int(y1) + 1, h)
            ys = xs = np.zeros(0, np.intp)
            if x1 > x0 and y1 > y0:
                vv, uu = np.mgrid[y0:y1, x0:x1].astype(np.float32)
                ys, xs = np.nonzero(_coverage(q, uu, vv) > 0.0)
            rows.append(ys + y0)
            cols.append(xs + x0)
            counts.append(len(ys))
        ends = np.cumsum(counts)
        det._bar_hulls = (hulls, np.concatenate(rows), np.concatenate(cols), ends)
    if det._bars_front is None:
        hulls = det._bar_hulls[0]
        shown, bar = _bar_shown(det, *det._bar_hulls[1:])
        det._bars_front = ([q for q, ok in zip(hulls, shown, strict=True) if ok], bar)
    return det._bars_front[0]


def _bar_shown(
    det: Detector, ys: NDArray[np.intp], xs: NDArray[np.intp], ends: NDArray[np.intp]
) -> tuple[list[bool], FloatArray]:
    """For each length of the crossbars (its pixels ``ys``, ``xs``, the k-th's from
    ``ends[k]`` to ``ends[k + 1]``), whether the last image shows the bar there as the learned
    table has it: :data:`_BAR_SHOWN` of its pixels or more within :data:`_BAR_NEAR` of the
    table's colour (a still's model lacks the goals' frames: every length, unread); and the
    bars' colour in the table (their pixels' median; NaN on a still).

    A bar over a ball is two or three pixels across, and its outline's pixels mix in the
    ball's colour (an orange ball under the bar on rig 300: 9-85 levels from the table's
    colour, three quarters of each length's pixels within 45; drawn over the bar, 49-117,
    none). A white ball over a white bar is the bar's colour either way: taken for the bar,
    its pixels say nothing of the ball against the table there."""
    img = det._last_image
    n = len(ends) - 1
    if img is None or not det.learned or not len(ys):
        return [True] * n, np.full(3, np.nan)
    table = det._bg_full()[ys, xs]
    ok = unshadowed_distance(img[ys, xs].astype(np.float32), table) < _BAR_NEAR
    shown = [
        bool(ok[a:b].mean() >= _BAR_SHOWN) if b > a else True for a, b in itertools.pairwise(ends)
    ]
    return shown, np.median(table, axis=0).astype(np.float64)


def _hulls_mask(shape: tuple[int, ...], hulls: list[FloatArray]) -> NDArray[np.bool_]:
    """Full-resolution mask (``shape``) of the pixels inside convex ``hulls`` (px), not grown."""
    mask = np.zeros(shape[:2], np.uint8)
    polys = [np.round(np.asarray(h) * 16).astype(np.int32) for h in hulls if len(h) >= 3]
    if polys:
        cv2.fillPoly(mask, polys, 1, cv2.LINE_8, 4)
    return mask > 0


def _nearest_point(x: Solid, xy_mm: FloatArray) -> FloatArray:
    """The point of a solid's footprint (a box's rectangle, a button's disc) nearest ``xy_mm``."""
    if x.kind == "goalkeeper":
        c, s = math.cos(x.p[2]), math.sin(x.p[2])
        d = xy_mm - x.p[:2]
        u = float(np.clip(d[0] * c + d[1] * s, -x.size[0] / 2.0, x.size[0] / 2.0))
        v = float(np.clip(-d[0] * s + d[1] * c, -x.size[1] / 2.0, x.size[1] / 2.0))
        return np.asarray(x.p[:2] + np.array([u * c - v * s, u * s + v * c]), np.float64)
    d = xy_mm - x.p[:2]
    return np.asarray(x.p[:2] + d / max(float(np.hypot(*d)), 1e-9) * x.p[2] / 2.0, np.float64)


def touching_box(
    det: Detector, fit: BallFit, solids: list[Solid], hiders: list[FloatArray]
) -> BallFit:
    """The fit with its ``visible`` share no more than where the ball would touch the nearest
    goalkeeper's box, when its footprint lies within :data:`_TOUCH_MM` of it.

    Beside a box that hides part of it, the ball's side toward the box is hidden and its far
    side lies in the box's shadow, as dark as the felt there: the fit is held by its lit core
    alone and can stop 1-2.5 mm away from the box (rig 300: 1.2-1.6 mm, away from it), where
    it sees nearly all of its silhouette (0.93 of it, where the true ball shows 0.68). Nothing
    in the image says the ball is not against the box: what it hides is taken there, and the
    sigma (:func:`vision.detect.ball_sigma_mm`) grows with it. Within :data:`_TOUCH_MM`: the
    box's fit beside a ball was seen 3-4 mm off (rig 300, a ball 1 mm short then fitted 2 mm
    into the goal at a sigma of 0.14 mm, a false goal in the making; bounded so, 1.17 mm). A
    fit drawn out along a streak is bounded too (a still ball beside the box was once fitted so,
    2.4 mm off at a sigma of 0.18 mm: bounded, 1.2 mm). The fit's ``box_gap_mm`` says how far
    from the box it lies (the sigma's other part: a box fitted 4 mm off, away from the ball,
    left a gap of 6 mm and the ball's fit 2 mm off), set where the box stands in front of it
    (would hide some of it); a box behind it hides nothing and leaves the fit as it was."""
    keepers = [x for x in solids if x.kind == "goalkeeper"]
    if not keepers or not hiders:
        return fit
    r = det.sizes.ball_diameter / 2.0
    pts = [_nearest_point(x, fit.xy_mm) for x in keepers]
    dist = [float(np.hypot(*(q - fit.xy_mm))) for q in pts]
    i = int(np.argmin(dist))
    if dist[i] - r > _TOUCH_MM:
        return fit
    xy = fit.xy_mm
    if dist[i] > r:  # moved toward the box until it touches it
        xy = pts[i] + (fit.xy_mm - pts[i]) / dist[i] * r
    sz = det.sizes
    seen = 1.0 - hidden_share(det.camera, xy, sz.ball_diameter, sz.ball_height, hiders)
    if seen >= _IN_FRONT:
        return fit  # the box behind the ball from the camera: its pose is not the fit's
    # (the distance from the box, whose pose the ball's hidden side depends on: the sigma's)
    toward = (pts[i] - fit.xy_mm) / max(dist[i], 1e-9) if dist[i] > 1e-6 else None
    return replace(fit, visible=min(seen, fit.visible), box_gap_mm=dist[i] - r, box_dir_xy=toward)


def beside_a_piece(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    fit: BallFit | None,
    solids: list[Solid],
    excluded: NDArray[np.bool_],
    hiders: list[FloatArray],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """A still ball partly hidden by a piece beside it is fitted on the sliver the piece leaves
    (beyond a button's pixels grown by its blurred edge, a goalkeeper's silhouette modelled:
    :func:`ball_masks`). From a start on that sliver (its blob's mean)
    the fit has a second minimum further from the piece, its rim colour taken from the piece's
    shadow around it: 0.6-2.5 mm off on the goal-line protocol's rigs. It is fitted again from
    starts toward the piece and the one of least residual kept (mostly within 0.5 mm, not
    always: a partly hidden ball's sigma covers the rest, :func:`vision.detect.ball_sigma_mm`;
    its hidden share is bounded by :func:`touching_box`). Against a button, the button is
    modelled instead (:func:`against_a_button`)."""
    if fit is None:
        return fit
    fit = touching_box(det, fit, solids, hiders)
    if fit.visible >= _HIDDEN or np.hypot(*fit.streak_px) >= 1.0:
        return fit
    against = against_a_button(det, img, bgf, fit.xy_mm, solids, hands, hiders)
    if against is not None:
        return against
    r = det.sizes.ball_diameter / 2.0
    pts = [_nearest_point(x, fit.xy_mm) for x in solids]
    dist = [float(np.hypot(*(q - fit.xy_mm))) for q in pts]
    if not dist or min(dist) > r + 15.0 or min(dist) < 1e-6:
        return fit
    q = pts[int(np.argmin(dist))]
    u = (q - fit.xy_mm) / min(dist)
    sz, best = det.sizes, fit
    for step in (0.3 * r, 0.6 * r):
        again = fit_ball(
            img,
            bgf,
            det.camera,
            fit.xy_mm + step * u,
            sz.ball_diameter,
            sz.ball_height,
            excluded=excluded,
            hiders=hiders,
            bars=ball_bars(det),
        )
        if again is not None and ball_fit_ok(again) and again.rms < best.rms:
            best = again
    return touching_box(det, best, solids, hiders)


def against_a_button(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    xy_mm: FloatArray,
    solids: list[Solid],
    hands: NDArray[np.bool_],
    hiders: list[FloatArray],
) -> BallFit | None:
    """A ball against a button, fitted from ``xy_mm`` (a fit on the sliver the button's grown
    pixels leave, or the sliver's place) with the button's silhouette as a piece in front of
    it (:func:`vision.ball.fit_ball`'s ``hiders``) rather than its pixels grown by their
    blurred edge left out; None when no button is within :data:`_BUTTON_TOUCH_MM` of
    ``xy_mm`` or the fit so fails.

    Left out grown, a button takes most of a ball against it (on a far camera, 1.9 mm a
    pixel, 70% of a 5-pixel ball), and the fit on the sliver left stopped 2 mm away from the
    button at the median, 4 mm at the 95th percentile (brasileira's ten minutes, 165 frames
    of a ball at rest against a button; 0.1 mm at a gap of 1-5 mm): a ball that rolled into
    a button and stopped there was seen 2 mm short of it, and its touch was lost. Modelled,
    the button's edge says where the ball's visible part ends (the same ball: 0.27 mm)."""
    r = det.sizes.ball_diameter / 2.0
    buttons = [x for x in solids if x.kind == "button" and len(x.hull) >= 3]
    if not buttons:
        return None
    gaps = [float(np.hypot(*(x.p[:2] - xy_mm))) - x.p[2] / 2.0 - r for x in buttons]
    j = int(np.argmin(gaps))
    if gaps[j] > _BUTTON_TOUCH_MM:
        return None
    button = buttons[j]
    others = [x for x in solids if x.kind != "goalkeeper" and x is not button]
    sz = det.sizes
    again = fit_ball(
        img,
        bgf,
        det.camera,
        np.asarray(xy_mm, np.float64),
        sz.ball_diameter,
        sz.ball_height,
        excluded=det._excluded(others, hands),
        hiders=[*hiders, np.asarray(button.hull, np.float64)],
        bars=ball_bars(det),
    )
    if not ball_fit_ok(again) or np.hypot(*again.streak_px) >= 1.0:  # type: ignore[union-attr]
        return None
    assert again is not None
    gap = float(np.hypot(*(button.p[:2] - again.xy_mm))) - button.p[2] / 2.0 - r
    if gap < -_BUTTON_OVERLAP_MM or float(np.hypot(*(again.xy_mm - xy_mm))) > r:
        return None  # into the button, or off to another blob: the sliver's fit stands
    return again


def ball_elsewhere(
    det: Detector,
    blobs: list[tuple[FloatArray, float, FloatArray]],
    kept: BallFit,
    hands: NDArray[np.bool_],
) -> bool:
    """Whether a ball-sized blob lies clear of the kept ball (beyond a ball's diameter and
    its streak), outside the goals, off their crossbars and away from the hands (a
    fingertip), and has not been tried in vain, or beaten by a sure ball, unchanged since."""
    for xy, _, uv in blobs:
        if not _clear_of(det, xy, uv, kept, hands) or det._in_goal(xy.mean(axis=0)):
            continue
        if det.learned and (
            det.memory.rejected(det._sub, uv, "ball", hands)
            or det.memory.rejected(det._sub, uv, _LOST, hands)
        ):
            continue
        if det._last_image is not None and _on_crossbar(det, det._last_image, uv, hands):
            continue  # no candidate of the search either
        return True
    return False


def _clear_of(
    det: Detector, xy: FloatArray, uv: FloatArray, ball: BallFit, hands: NDArray[np.bool_]
) -> bool:
    """Whether a blob (table points ``xy``, pixels ``uv``) lies beyond 1.5 ball diameters from
    ``ball`` and away from the hands (a fingertip)."""
    if float(np.hypot(*(xy.mean(axis=0) - ball.xy_mm))) <= 1.5 * det.sizes.ball_diameter:
        return False
    return not hands[det.memory.patch(det._sub, uv)[0]].any()


def remember_lost(
    det: Detector,
    cands: list[tuple[FloatArray, float, FloatArray]],
    best: BallFit,
    hands: NDArray[np.bool_],
) -> None:
    """Remember the candidates a sure ball (scoring :data:`_STOP_SCORE`) beat, clear of it
    and of the hands, as
    :data:`_LOST`: while their pixels stay the same they are no reason to doubt the ball
    kept at rest (:func:`ball_elsewhere`). A print or a ghost the ball beat once otherwise
    sent every later frame through the whole search again (the seed-3 clip: 414 of its
    first 900 frames, a fifth of the detector's time), only for the same ball to win."""
    for xy, _, uv in cands:
        if not _clear_of(det, xy, uv, best, hands):
            continue
        if not det.memory.rejected(det._sub, uv, _LOST, hands):
            det.memory.reject(det._sub, uv, _LOST, hands)


def table_free_parts(
    det: Detector, blobs: list[tuple[FloatArray, float, FloatArray]]
) -> list[tuple[FloatArray, float, FloatArray]]:
    """The parts of the blobs larger than :data:`_SPLIT` balls once the pixels that look like
    the empty table's model (its felt, its lines where they are painted) are left out.

    A ball beside a ghost - the table a goalkeeper or a button hid while the table was
    learned, seen free again, until :meth:`vision.background.Background.heal` takes it in - or
    beside a stale patch of the learned model is one blob with it, too large for a ball or
    with its mean millimetres off; what is left of that blob where the image does not look
    like the table is the ball. Blobs as :meth:`Detector._blobs` gives them.
    """
    big = [b for b in blobs if b[1] > _SPLIT * _BALL_MM2]
    if not big:
        return []
    s, o = det.stride, det.stride // 2
    h, w = det._sub.shape[:2]
    keep = np.zeros((h, w), bool)
    for _xy, _area, uv in big:
        ix = np.clip(np.round((uv[:, 0] - o) / s).astype(np.intp), 0, w - 1)
        iy = np.clip(np.round((uv[:, 1] - o) / s).astype(np.intp), 0, h - 1)
        like = det.bg.table_like(det._sub, iy, ix, loose=False)
        if like.any() and not like.all():
            keep[iy[~like], ix[~like]] = True
    return det._blobs(keep) if keep.any() else []


def _bar_coloured(det: Detector, img: U8, bars: NDArray[np.bool_], uv: FloatArray) -> bool:
    """Whether a blob on a crossbar has the colours of the bar over the felt: its mean colour
    (full resolution) near the line in colour space from the felt to the bar as the image shows
    it beside the blob (the crossbar's pixels 8-30 px away that differ most from the felt),
    anywhere along it - a thin bar's outline is part felt, its shadow darker felt. A ball of
    another colour into the goal under the bar (an orange ball beside a post) is no ghost of
    the bar; where the bar cannot be seen beside the blob, the blob is taken for the bar."""
    h, w = bars.shape
    c = uv.mean(axis=0)
    cu, cv_ = int(np.rint(c[0])), int(np.rint(c[1]))
    x0, x1, y0, y1 = max(0, cu - 30), min(w, cu + 31), max(0, cv_ - 30), min(h, cv_ + 31)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    on = bars[y0:y1, x0:x1] & ((xx - c[0]) ** 2 + (yy - c[1]) ** 2 >= 8.0**2)
    if on.sum() < 10:
        return True
    pix = img[y0:y1, x0:x1][on].astype(np.float64)
    felt = det.bg.felt_colour(cu, cv_).astype(np.float64)
    off = np.abs(pix - felt).sum(axis=1)
    bar = np.median(pix[off >= np.median(off)], axis=0) - felt
    u = np.clip(np.round(uv[:, 0]).astype(np.intp), 0, w - 1)
    v = np.clip(np.round(uv[:, 1]).astype(np.intp), 0, h - 1)
    colour = img[v, u].astype(np.float64).mean(axis=0) - felt
    a = float(np.clip(colour @ bar / max(float(bar @ bar), 1e-9), -1.0, 1.2))
    if float(np.abs(colour - a * bar).sum()) >= _BAR_LIKE:
        return False
    # a ball under the bar: its blob's few pixels are the bar's middle, the ball shows beside
    # it (an orange ball on a pale felt, half under the bar at the goal line: its one or two
    # coarse pixels read white, the ball lost). In a video whose ball is unlike the bars,
    # pixels off the bar within a ball's width of the blob of the ball's colour mixed with
    # the felt's (as the slivers either side of the bar are), and unlike the table's model
    # there (the net and the post beside the bar are the table's), are no ghost's. Not for a
    # ball of the bar's colour, nor by other colours than the ball's: a goalkeeper or a hand
    # beside a bar's ghost made it no ghost, searched on every frame
    # (tests/vision/test_ball_struck.py: the search a ball found again ends saved no fit)
    if not _ball_unlike_bars(det):
        return True
    assert det.ball_colour is not None
    r = math.ceil(det.sizes.ball_diameter / max(det._scale(), 1e-3))
    x0, x1, y0, y1 = max(0, cu - r), min(w, cu + r + 1), max(0, cv_ - r), min(h, cv_ + r + 1)
    off_bar = ~bars[y0:y1, x0:x1]
    seen = img[y0:y1, x0:x1][off_bar].astype(np.float64)
    if not len(seen):
        return True
    ball = np.minimum(np.asarray(det.ball_colour, np.float64), 255.0)
    other = _diluted(seen, ball, felt) < _BAR_LIKE
    model = det.bg.roi(x0, y0, x1, y1)[off_bar].astype(np.float64)
    other &= np.abs(seen - model).sum(axis=1) >= _BAR_LIKE
    return int(other.sum()) < _BALL_BESIDE_BAR


def hand_colour(
    det: Detector, hands: NDArray[np.bool_], i: int, j: int, k: int
) -> FloatArray | None:
    """The hand's colour (BGR) about coarse pixel ``(i, j)``: the median of the coarse hand
    mask's pixels within ``k`` of it (an edge's few do not move it); None without a hand."""
    win = (slice(max(0, i - k), i + k + 1), slice(max(0, j - k), j + k + 1))
    mask = hands[win]
    if not mask.any():
        return None
    return np.asarray(np.median(det._sub[win][mask].astype(np.float64), axis=0))


def hand_like(det: Detector, fit: BallFit, hands: NDArray[np.bool_], uv: FloatArray) -> bool:
    """Whether a still's ball fit beside a hand is the hand's: it shows less than
    :data:`_HAND_MIN_VISIBLE` of itself, or its colour has the chromaticity of the hand's
    pixels about its blob (``uv``, px; the coarse hand mask's median colour) within
    :data:`_HAND_CHROMA`. The hand's mask takes the arm's colour as the rim shows it: a palm
    lit brighter leaves a rim of itself out, a round blob that fits a ball well (0.98 of its
    pixels; a pale felt, a hand 20 mm over the table)."""
    if fit.visible < _HAND_MIN_VISIBLE:
        return True
    skin = _skin_about(det, hands, uv)
    if skin is None:
        return False
    chroma = fit.colour_bgr / max(float(fit.colour_bgr.sum()), 1.0)
    return float(np.abs(chroma - skin / max(float(skin.sum()), 1.0)).sum()) < _HAND_CHROMA


def hand_not_ball(det: Detector, fit: BallFit, hands: NDArray[np.bool_], uv: FloatArray) -> bool:
    """Whether a video's ball fit beside a hand is the hand's, the ball's colour learned: its
    colour is not :data:`_HAND_APART` times farther from the hand's (about its blob, ``uv``
    px) than from the ball's (:func:`colour_nearer_hand`). Without a ball's colour,
    :func:`hand_like`.

    A palm lit brighter than the arm leaves its rim out of the hand's mask, and on a pale felt
    the fingertip's edge is a round blob that fits a ball (0.7-0.9 of its pixels, a third to
    half of it seen; a white ball found 50-300 mm from where it lay, on a pale-felt drill).
    A fit that shows less than :data:`_HAND_MIN_VISIBLE` of itself is the hand's too, unless
    the ball found over the last frames is there now (:func:`_where_the_ball_was`). Both are
    of the ball's colour: the ball itself rolling beside a coach's hand, 0.2-0.34 of it seen
    (seed-3 clip; 10-14 levels off the ball's colour, 100-140 off the hand's), and a white
    button's rim beside a hand, 100 mm from where the ball lay under it."""
    ref = det.ball_colour
    if ref is None:
        return hand_like(det, fit, hands, uv)
    if fit.visible < _HAND_MIN_VISIBLE and not _where_the_ball_was(det, fit.xy_mm):
        return True
    skin = _skin_about(det, hands, uv)
    return skin is not None and colour_nearer_hand(fit.colour_bgr, ref, skin)


def _skin_about(det: Detector, hands: NDArray[np.bool_], uv: FloatArray) -> FloatArray | None:
    """The hand's colour about a blob (its pixels ``uv``, px): :func:`hand_colour` within
    :data:`_HAND_REACH` coarse pixels of its mean; None without a hand there."""
    s, o = det.stride, det.stride // 2
    h, w = hands.shape
    c = uv.mean(axis=0)
    i, j = (int(np.clip((v - o) // s, 0, n - 1)) for v, n in zip(c[::-1], (h, w), strict=True))
    return hand_colour(det, hands, i, j, _HAND_REACH)


def _where_the_ball_was(det: Detector, xy_mm: FloatArray) -> bool:
    """Whether ``xy_mm`` lies within :data:`_HAND_NEAR_MM` of where the ball found over the
    last :data:`_HAND_NEAR_FRAMES` frames is now (rolling on at the speed of its last two
    finds, when both were that recent).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> fit = lambda x: NS(xy_mm=np.array([x, 0.0]))
    >>> det = NS(_frames=9, _ball_prior=(fit(130.0), 8), _ball_before=(fit(100.0), 7))
    >>> _where_the_ball_was(det, np.array([160.0, 5.0]))  # rolled on 30 mm a frame
    True
    >>> _where_the_ball_was(det, np.array([130.0, 0.0]))  # where it was a frame ago
    False
    >>> det._frames = 12  # found four frames ago: no longer known
    >>> _where_the_ball_was(det, np.array([250.0, 0.0]))
    False
    """
    prior, before = det._ball_prior, det._ball_before
    if prior is None or det._frames - prior[1] > _HAND_NEAR_FRAMES:
        return False
    at = np.asarray(prior[0].xy_mm, np.float64)
    if before is not None and 0 < prior[1] - before[1] <= _HAND_NEAR_FRAMES:
        step = (at - before[0].xy_mm) / (prior[1] - before[1])
        at = at + step * (det._frames - prior[1])
    return float(np.hypot(*(xy_mm - at))) <= _HAND_NEAR_MM


def colour_nearer_hand(colour_bgr: FloatArray, ball_bgr: FloatArray, skin_bgr: FloatArray) -> bool:
    """Whether a fit's colour is not :data:`_HAND_APART` times farther from the hand's than
    from the ball's, the ball's darkened as a shadow darkens it (to 0.55-1 of it): a fingertip
    or a knuckle is the hand's colour, whatever it is, and a ball beside a hand is its own.

    Examples
    --------
    >>> ball, skin = np.array([230.0, 240.0, 240.0]), np.array([110.0, 136.0, 180.0])
    >>> colour_nearer_hand(np.array([200.0, 210.0, 212.0]), ball, skin)  # the ball, shaded
    False
    >>> colour_nearer_hand(np.array([135.0, 157.0, 178.0]), ball, skin)  # a fingertip's rim
    True
    """
    kd = float(np.clip(colour_bgr @ ball_bgr / max(float(ball_bgr @ ball_bgr), 1e-9), 0.55, 1.0))
    to_ball = float(np.linalg.norm(colour_bgr - kd * ball_bgr))
    to_hand = float(np.linalg.norm(colour_bgr - skin_bgr))
    return to_hand < _HAND_APART * to_ball


def _on_crossbar(det: Detector, img: U8, uv: FloatArray, hands: NDArray[np.bool_]) -> bool:
    """Whether a blob (its pixels, px) lies on a goal's crossbar in the bar's colours: the bar
    a goalkeeper hid while the table was learned, no ball (:func:`find_ball`). Such a ghost
    stays for many frames: one found is remembered (:data:`_BAR`) and holds while its pixels
    and the hands about it stay the same (a ball arriving changes them)."""
    bars = det._crossbars()
    if _on_mask(bars, uv) < _ON_FRAME:
        return False
    if det.learned and det.memory.rejected(det._sub, uv, _BAR, hands):
        return True
    if _bar_coloured(det, img, bars, uv):
        det._reject(uv, hands, _BAR)
        return True
    return False


def _on_mask(mask: NDArray[np.bool_], uv: FloatArray) -> float:
    """The share of a blob's pixels (px, (n, 2)) on a full-resolution mask."""
    h, w = mask.shape
    u = np.clip(np.round(uv[:, 0]).astype(np.intp), 0, w - 1)
    v = np.clip(np.round(uv[:, 1]).astype(np.intp), 0, h - 1)
    return float(mask[v, u].mean()) if len(uv) else 0.0


def predicted_ball(det: Detector) -> tuple[FloatArray, float] | None:
    """Where the ball should be on this frame (table mm) and how far from it a fit may be,
    when the last frame and the one before it found the ball rolling (it rolls on at its speed:
    the gate grows with a frame's travel); None otherwise (at rest, or not found on both).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> fit = lambda x: NS(xy_mm=np.array([x, 0.0]))
    >>> det = NS(_frames=7, _ball_prior=(fit(110.0), 6), _ball_before=(fit(100.0), 5))
    >>> xy, gate = predicted_ball(det)
    >>> xy.tolist(), gate
    ([120.0, 0.0], 5.0)
    >>> predicted_ball(NS(_frames=8, _ball_prior=(fit(110.0), 6), _ball_before=(fit(100.0), 5)))
    >>> predicted_ball(NS(_frames=7, _ball_prior=(fit(101.0), 6), _ball_before=(fit(100.0), 5)))
    """
    return rolling_to(det, 1)


def rolling_to(det: Detector, within: int) -> tuple[FloatArray, float] | None:
    """Where the ball rolls to on this frame (table mm) and how far from it a fit may be, from
    its last two finds at most ``within`` frames apart and ago (the gate grows with the
    travel since); None when it was at rest or not found so. :func:`predicted_ball` is the
    last two frames' (``within=1``); a frame or two missed between them, a wider one.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> fit = lambda x: NS(xy_mm=np.array([x, 0.0]))
    >>> det = NS(_frames=9, _ball_prior=(fit(110.0), 7), _ball_before=(fit(100.0), 5))
    >>> xy, gate = rolling_to(det, 3)
    >>> xy.tolist(), round(gate, 2)
    ([120.0, 0.0], 5.0)
    >>> rolling_to(det, 1)
    """
    last, before = det._ball_prior, det._ball_before
    if last is None or before is None:
        return None
    gap, ago = last[1] - before[1], det._frames - last[1]
    if not 0 < gap <= within or not 0 < ago <= within:
        return None
    step = (last[0].xy_mm - before[0].xy_mm) / gap
    travel = float(np.hypot(*step))
    if travel < _EXPECTED_MOVING_MM:
        return None
    return last[0].xy_mm + ago * step, _EXPECTED_MM + _EXPECTED_SHARE * travel * ago


def resting(det: Detector) -> tuple[FloatArray, float] | None:
    """Where the ball rests (table mm) and how far from it a fit may be, when the last two
    frames found it there, still; None otherwise.

    Found there again and scoring as a ball rolling on where expected does, it ends the
    search: the live clip's frame 3217, a ball at rest fitted at 0.97 explained and scored
    0.54 (a button coming, its light on it), went on through 31 more fits of the button's
    blurred leftovers (111 ms).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> ball = lambda x, s=0.0: NS(xy_mm=np.array([x, 0.0]), streak_px=np.array([s, 0.0]))
    >>> det = NS(_frames=9, _ball_prior=(ball(100.0), 8), _ball_before=(ball(100.4), 7))
    >>> xy, gate = resting(det)
    >>> xy.tolist(), gate
    ([100.0, 0.0], 3.0)
    >>> resting(NS(_frames=9, _ball_prior=(ball(100.0), 8), _ball_before=(ball(110.0), 7)))
    >>> resting(NS(_frames=9, _ball_prior=(ball(100.0, 3.0), 8), _ball_before=(ball(100.0), 7)))
    >>> resting(NS(_frames=10, _ball_prior=(ball(100.0), 8), _ball_before=(ball(100.0), 7)))
    """
    last, before = det._ball_prior, det._ball_before
    if last is None or before is None or det._frames - last[1] != 1 or last[1] - before[1] != 1:
        return None
    if float(np.hypot(*last[0].streak_px)) >= 1.0:
        return None
    if float(np.hypot(*(last[0].xy_mm - before[0].xy_mm))) >= _EXPECTED_MOVING_MM:
        return None
    return np.asarray(last[0].xy_mm, np.float64), _EXPECTED_MM


def blur_seed(det: Detector, fit: BallFit, z_c_mm: float) -> FloatArray | None:
    """The streak (px) to fit a still fit of the ball again from, as blurred by its motion:
    rolling on (:func:`rolling_to`, two frames at most), its last fit's streak, or a short
    one the way it rolls; found at rest on the last frame and fitted now 1 mm to a ball's
    width from there (struck while this frame was exposed: a still fit sits mid-streak),
    twice that offset along it. None where no motion is known: a still, a ball lost, at rest
    where it was, or a fit far from it (another blob).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> from calibration.camera import preset_camera
    >>> from geometry.tablespec import load_table
    >>> cam = preset_camera("overhead", load_table("brasileira"), (1600, 900))
    >>> ball = lambda x, s=(0.0, 0.0): NS(xy_mm=np.array([x, 0.0]), streak_px=np.array(s))
    >>> det = NS(learned=True, camera=cam, sizes=NS(ball_diameter=10.0), _frames=8,
    ...          _ball_prior=(ball(100.0), 7), _ball_before=(ball(100.0), 6))
    >>> seed = blur_seed(det, ball(103.0), 5.0)  # struck: 3 mm on from where it rested
    >>> off_px = np.diff(cam.table_to_image(np.array([[100.0, 0, 5], [103.0, 0, 5]])), axis=0)
    >>> round(float(np.linalg.norm(seed) / np.linalg.norm(off_px)), 2)
    2.0
    >>> blur_seed(det, ball(100.5), 5.0) is None, blur_seed(det, ball(300.0), 5.0) is None
    (True, True)
    """
    prior = det._ball_prior
    if not det.learned or prior is None or det._frames - prior[1] > 2:
        return None
    last = prior[0]
    rolling = rolling_to(det, 2)
    if rolling is not None:
        if float(np.hypot(*last.streak_px)) >= 1.0:
            return np.asarray(last.streak_px, np.float64)
        way, length = rolling[0] - last.xy_mm, _BLUR_SEED_PX
    else:
        way = fit.xy_mm - last.xy_mm
        off = float(np.hypot(*way))
        if (
            float(np.hypot(*last.streak_px)) >= 1.0
            or det._frames - prior[1] != 1
            or not 1.0 <= off <= det.sizes.ball_diameter
        ):
            return None
        length = 0.0  # twice the offset in pixels, below
    a, b = det.camera.table_to_image(
        np.array([[fit.xy_mm[0], fit.xy_mm[1], z_c_mm], [*(fit.xy_mm + way), z_c_mm]])
    )
    step = b - a
    n = float(np.hypot(*step))
    if not n > 1e-6:
        return None
    return step / n * (length if length > 0.0 else max(_BLUR_SEED_PX, 2.0 * n))


def lost_seed(det: Detector, fit: BallFit, z_c_mm: float, fps: float = 30.0) -> FloatArray | None:
    """The streak (px) to fit a still fit of the ball again from, drawn out the way it came
    from where it was last found: 2 to ``_LOST_FRAMES`` frames ago (or the last frame, over
    a ball's width away) and no farther than its top speed carries it since. None otherwise
    (:func:`blur_seed` knows the nearer cases: rolling on, struck from rest a frame ago).

    A ball struck hard from rest is lost on the frames after the hit: its streak's coarse
    blob is too small to seed a streak, and fitted still it explains 0.7-0.85 of its pixels
    with the felt's colour mixed into it, scoring 0.14-0.24 (the live clip's frames 2032-2035,
    1.2-1.7 m/s); fitted drawn out from there, 0.9-0.97 and 0.48-0.71, within 0.3 mm of the
    truth. The touch waited nine frames for the ball.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> from calibration.camera import preset_camera
    >>> from geometry.tablespec import load_table
    >>> cam = preset_camera("overhead", load_table("brasileira"), (1600, 900))
    >>> ball = lambda x: NS(xy_mm=np.array([x, 0.0]), streak_px=np.zeros(2))
    >>> det = NS(learned=True, camera=cam, sizes=NS(ball_diameter=10.0), _frames=9,
    ...          _ball_prior=(ball(100.0), 6))
    >>> seed = lost_seed(det, ball(40.0), 5.0)  # 60 mm on in 3 frames: the way it went
    >>> bool(seed[0] < 0 and abs(seed[1]) < 1e-6 * abs(seed[0]))
    True
    >>> lost_seed(det, ball(-700.0), 5.0) is None  # 800 mm in 3 frames: not this ball
    True
    >>> lost_seed(det, ball(104.0), 5.0) is None  # where it rested: no way to go
    True
    """
    prior = det._ball_prior
    if not det.learned or prior is None:
        return None
    ago = det._frames - prior[1]
    way = fit.xy_mm - prior[0].xy_mm
    off = float(np.hypot(*way))
    if not 1 <= ago <= _LOST_FRAMES or not det.sizes.ball_diameter < off <= _LOST_TOP_MM_S * (
        ago / fps
    ):
        return None
    step = way_in_image(det, fit.xy_mm, way, z_c_mm)
    return None if step is None else step * _BLUR_SEED_PX


def way_in_image(
    det: Detector, xy_mm: FloatArray, way_mm: FloatArray, z_c_mm: float
) -> FloatArray | None:
    """The unit direction in the image (px) of ``way_mm`` (table mm) from ``xy_mm`` at the
    ball's centre height; None where it has none (no way, or seen end on)."""
    off = float(np.hypot(*way_mm))
    if not off > 0.0:
        return None
    a, b = det.camera.table_to_image(
        np.array([[xy_mm[0], xy_mm[1], z_c_mm], [*(xy_mm + way_mm / off), z_c_mm]])
    )
    step = b - a
    n = float(np.hypot(*step))
    return None if not n > 1e-9 else np.asarray(step / n, np.float64)


def found_again(det: Detector, fit: BallFit) -> bool:
    """Whether ``fit``, still, lies within :data:`_EXPECTED_MM` of the ball found the frame
    before, however that one was drawn out. Scoring as a ball found well, it ends the search:
    :func:`resting` needs two still finds, and a ball at rest beside a button going past is
    fitted drawn out on some frames (the live clip's frames 159-160, 3.5 px, in the button's
    blur): on the next (161, found 0.5 mm from there, scored 0.77) every blob the button left
    was fitted after it (28 fits, 46 ms).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> ball = lambda x, s=0.0: NS(xy_mm=np.array([x, 0.0]), streak_px=np.array([s, 0.0]))
    >>> det = NS(learned=True, _frames=9, _ball_prior=(ball(100.0, 3.5), 8))
    >>> [found_again(det, fit) for fit in (ball(100.5), ball(104.0), ball(100.5, 2.0))]
    [True, False, False]
    >>> det._frames = 10  # found two frames ago
    >>> found_again(det, ball(100.5))
    False
    """
    prior = det._ball_prior
    if not det.learned or prior is None or det._frames - prior[1] != 1:
        return False
    if float(np.hypot(*fit.streak_px)) >= 1.0:
        return False
    return float(np.hypot(*(fit.xy_mm - prior[0].xy_mm))) <= _EXPECTED_MM


def struck_from_rest(det: Detector, fit: BallFit, z_c_mm: float, fps: float = 30.0) -> bool:
    """Whether ``fit`` is the ball struck from where it was found the frame before: drawn out
    at least :data:`_BLUR_SEED_PX` along the way from there (within :data:`_LOST_ANGLE_DEG`),
    over its radius and no farther than its top speed carries it in a frame. Found at rest
    there, or drawn out already: struck during that frame's exposure, its step to this frame
    is longer than the one before it, and :func:`predicted_ball` falls short (the live run's
    frames 3298 and 3560: 51 mm on from a 28 and a 20 mm step, 27-46 fits). Such a fit,
    scoring as a ball rolling on where expected does (:data:`_EXPECTED_SCORE`), ends the
    search as that one does: on the live clip's hits (frames 2453, 2684, 2959, 3559: streaks
    of 2-9 px 16-40 mm from where the ball rested, 0.96-0.98 of their pixels explained, scored
    0.53-0.77) every blob the hit left was fitted after it (44-51 fits, 45-70 ms), and the
    hit's events waited for them.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> from calibration.camera import preset_camera
    >>> from geometry.tablespec import load_table
    >>> cam = preset_camera("overhead", load_table("brasileira"), (1600, 900))
    >>> ball = lambda x, s=0.0: NS(xy_mm=np.array([x, 0.0]), streak_px=np.array([s, 0.0]))
    >>> det = NS(learned=True, camera=cam, sizes=NS(ball_diameter=10.0), _frames=9,
    ...          _ball_prior=(ball(100.0), 8))
    >>> struck_from_rest(det, ball(130.0, 6.0), 5.0)  # 30 mm on, drawn out the way it went
    True
    >>> struck_from_rest(det, ball(130.0, 0.5), 5.0)  # not drawn out: found still
    False
    >>> struck_from_rest(NS(**{**vars(det), "_frames": 10}), ball(130.0, 6.0), 5.0)
    False
    >>> det._ball_prior = (ball(100.0, 4.0), 8)  # drawn out a frame ago: struck then
    >>> struck_from_rest(det, ball(130.0, 6.0), 5.0)
    True
    """
    prior = det._ball_prior
    if not det.learned or prior is None or det._frames - prior[1] != 1:
        return False
    last = prior[0]
    way = fit.xy_mm - last.xy_mm
    off = float(np.hypot(*way))
    if not det.sizes.ball_diameter / 2.0 < off <= _LOST_TOP_MM_S / fps:
        return False
    if float(np.hypot(*fit.streak_px)) < _BLUR_SEED_PX:
        return False
    seed = way_in_image(det, fit.xy_mm, way, z_c_mm)
    return seed is not None and along(fit.streak_px, seed)


def along(streak_px: FloatArray, seed_px: FloatArray, max_deg: float = _LOST_ANGLE_DEG) -> bool:
    """Whether a fitted streak lies along its seed's line (either way), within ``max_deg``.

    >>> way = np.array([-2.0, 0.0])
    >>> along(np.array([6.0, 1.0]), way), along(np.array([1.0, 6.0]), way)
    (True, False)
    """
    n = float(np.hypot(*streak_px)) * float(np.hypot(*seed_px))
    if not n > 0.0:
        return False
    return abs(float(np.dot(streak_px, seed_px))) / n >= math.cos(math.radians(max_deg))


def blob_key(uv: FloatArray) -> tuple[int, int, int]:
    """A blob's identity within a frame (its first pixel, px, and its size): the same pixels
    found by two searches on masks that differ elsewhere give the same key."""
    return (int(uv[0, 0]), int(uv[0, 1]), len(uv))


def near_a_box(uv: FloatArray, hulls: Sequence[FloatArray], reach_px: float) -> bool:
    """Whether a blob (its pixels (k, 2), px) comes within ``reach_px`` of a box's silhouette
    (convex hulls, px), by their bounding boxes: cheap, and it errs towards near.

    Examples
    --------
    >>> box = np.array([[100.0, 100.0], [160.0, 100.0], [160.0, 120.0], [100.0, 120.0]])
    >>> near_a_box(np.array([[170.0, 110.0], [171.0, 111.0]]), [box], 12.0)
    True
    >>> far, no_box = np.array([[190.0, 110.0]]), np.array([[170.0, 110.0]])
    >>> near_a_box(far, [box], 12.0), near_a_box(no_box, [], 12.0)
    (False, False)
    """
    lo, hi = uv.min(axis=0) - reach_px, uv.max(axis=0) + reach_px
    return any(
        len(h) > 0 and bool((h.min(axis=0) <= hi).all() and (h.max(axis=0) >= lo).all())
        for h in hulls
    )


def second_search_blobs(
    cands: list[tuple[FloatArray, float, FloatArray]],
    tried: set[tuple[int, int, int]],
    hulls: Sequence[FloatArray],
    reach_px: float,
) -> list[tuple[FloatArray, float, FloatArray]]:
    """The blobs (table points, area, pixels) the second search fits: those within
    ``reach_px`` of a box (:func:`near_a_box`) and those the first search did not fit
    (``tried``, :func:`blob_key`: it skipped them, remembered as tried in vain under its own
    memory, or stopped before them)."""
    return [b for b in cands if blob_key(b[2]) not in tried or near_a_box(b[2], hulls, reach_px)]


def find_ball(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    rest: NDArray[np.bool_],
    solids: list[Solid],
    hands: NDArray[np.bool_],
    _: object,
    memo: str = "ball",
    tried: set[tuple[int, int, int]] | None = None,
) -> BallFit | None:
    """The best ball fit among the ball-sized blobs the pieces leave; None if none fits.
    A blob tried in vain is remembered under ``memo`` (a second search on other pixels keeps
    its own: its blobs lie where the first one's did). ``tried`` collects the blobs the first
    search fitted (:func:`blob_key`), which the second (``memo="box"``) fits again only
    beside a box."""
    sz = det.sizes
    blobs = det._blobs(rest)
    cands = [
        b
        for b in blobs + table_free_parts(det, blobs)
        if _MIN_BALL * _BALL_MM2 <= b[1] <= 12 * _BALL_MM2 and not det._in_goal(b[0].mean(axis=0))
    ]
    # a blob that lies on a goal's crossbar is no ball (a bar a goalkeeper hid while the table
    # was learned, painted as felt, was fitted as a ball 25-30 mm inside the goal once the
    # goalkeeper moved); a ball under a bar (into a goal) shows beyond it. Its fit keeps the
    # bar's pixels: where the table's model is right they are explained
    cands = [b for b in cands if not _on_crossbar(det, img, b[2], hands)]
    ball_excluded, hiders = ball_masks(det, solids, hands)
    # every solid's grown pixels and the hands': the ball's mask and the goalkeepers' grown
    # (a dilation of a union is the union of the dilations: the same mask as from all solids
    # at once, the hands' part not made twice)
    keepers = [x for x in solids if x.kind == "goalkeeper" and len(x.hull)]
    if memo == "box" and tried:
        # the second search, for the ball's sliver beside a box in front of it, differs from
        # the first only about the boxes (its mask there, the box-first refit): a blob away
        # from every box that the first fitted, on the same pixels, was fitted in vain (the
        # frames with the ball lost fitted 15-26 blobs again, 30 ms, on the live clip). One
        # the first skipped (remembered as tried in vain under its own memo) is tried
        reach = _BOX_REACH * sz.ball_diameter / det._scale()
        cands = second_search_blobs(cands, tried, [x.hull for x in keepers], reach)
    excluded = (
        ball_excluded | det._excluded(keepers, np.zeros_like(hands)) if keepers else ball_excluded
    )
    if not cands:  # white on white: a ball on a painted spot may leave no blob at all
        spot = det._ball_on_spot(img, bgf, excluded, solids)
        if spot is None:
            return faint_ball(det, img, bgf, excluded, hands)
        return sure_faint(det, img, bgf, excluded, hands) or spot

    # most ball-like first: the strongest ball-sized difference from the table at full
    # resolution (a ball is a solid colour; the noise's and a print's leftovers are single
    # pixels or faint), not a sliver along a line
    peaks: dict[int, FloatArray] = {}
    # the second search, for the ball's sliver beside a box in front of it, ranks with the
    # boxes' own pixels left out, not grown: grown, they took the sliver's 1-2 pixels (rig 300,
    # a ball behind the goalkeeper on the goal line, ranked past the blobs tried and missed)
    ranked_against = (
        ball_excluded | _hulls_mask(img.shape, hiders) if memo == "box" and hiders else excluded
    )

    def rank(b: tuple[FloatArray, float, FloatArray]) -> float:
        strength, peaks[id(b[2])] = det._ball_strength(img, bgf, b[2], ranked_against)
        spread = (
            np.sqrt(np.maximum(np.linalg.eigvalsh(np.cov(b[0].T)), 0.0))
            if len(b[0]) >= 3
            else np.ones(2)
        )
        sliver = spread[0] < 1.0 and len(b[0]) >= 3
        size = 1.0 + 0.25 * abs(math.log(b[1] / _BALL_MM2))
        return -strength * (0.3 if sliver else 1.0) / size

    cands.sort(key=rank)
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height

    def fit_from(xy_mm: FloatArray, streak_px: FloatArray | None = None) -> BallFit | None:
        return fit_ball(
            img,
            bgf,
            det.camera,
            xy_mm,
            sz.ball_diameter,
            sz.ball_height,
            excluded=ball_excluded,
            streak0_px=streak_px,
            hiders=hiders,
            bars=ball_bars(det),
        )

    scored: list[tuple[float, BallFit]] = []
    sure = 0.0  # the best score of a fit clear of the hands
    guess = (predicted_ball(det) or resting(det)) if det.learned and memo == "ball" else None
    for _xy, _area, uv in cands[:_TRIED]:
        if sure >= _STOP_SCORE:
            break  # the candidates come most ball-like first: the rest are leftovers
        if det.learned and det.memory.rejected(det._sub, uv, memo, hands):
            continue  # tried in vain and unchanged since
        if tried is not None and memo == "ball":
            tried.add(blob_key(uv))
        c = uv.mean(axis=0)
        xy0 = det.camera.image_to_table(c[None], z_c)[0]
        streak = None
        if len(uv) >= 4:
            ev, evec = np.linalg.eigh(np.cov((uv - c).T))
            length = math.sqrt(max(12.0 * (ev[1] - ev[0]), 0.0))
            if length >= 3.0:
                streak = evec[:, 1] * length
        fit = fit_from(xy0, streak)
        if streak is not None and (fit is None or np.hypot(*fit.streak_px) > _MAX_STREAK_PX):
            # a still ball's blob drawn out along a line (or the net's edge behind it) looks
            # like a streak, and the streak's fit runs off: tried again as a still ball
            fit = fit_from(xy0)
        elif streak is not None and fit is not None and fit.explained < _STREAK_DOUBT:
            # or it stays a short streak that explains the pixels poorly (rig 302 of the
            # goal-line protocol: a ball at rest on the goal line fitted as a 13-pixel streak 5
            # mm into the goal, explaining 0.42, a still fit there 0.88): the model that
            # explains more, from where the blob's matched filter peaks (the blob's mean lies
            # between the ball and the line that drew it out)
            at = peaks.get(id(uv), c)
            still = fit_from(det.camera.image_to_table(at[None], z_c)[0])
            if still is not None and ball_fit_ok(still) and still.explained > fit.explained:
                fit = still
        score = det._ball_score(fit, bgf, c)
        peak = peaks.get(id(uv), c)
        if 0.0 < score < _BALL_MIN_SCORE and np.hypot(*(peak - c)) > 2.0:
            # a blob's mean strays by the ball's halo, a line or the net beside it further
            # than the fit reaches (a fit that could be a ball, but a poor one): tried again
            # from where its matched filter peaks
            xy1 = det.camera.image_to_table(peak[None], z_c)[0]
            again = fit_from(xy1)
            if (
                again is not None
                and again.visible >= 0.5
                and det._ball_score(again, bgf, c) > score
            ):
                fit, score = again, det._ball_score(again, bgf, c)
        by_hand = bool(hands[det.memory.patch(det._sub, uv)[0]].any())
        if (
            by_hand
            and not det.learned
            and (
                fit is None
                or not det._ball_fit_ok(fit)
                or fit.visible < _STILL_VISIBLE
                or hand_like(det, fit, hands, uv)
            )
        ):
            # a still's ball a few pixels from a hand, mostly under its grown mask: fitted
            # again with the hand's own pixels left out as they are (vision/ball_hands.py)
            from vision.ball_hands import still_refit_by_hand

            start = fit.xy_mm if fit is not None and det._ball_fit_ok(fit) else xy0
            again = still_refit_by_hand(det, img, bgf, start, solids, hands, uv)
            if again is not None:
                fit = again
        if (fit is None or not det._ball_fit_ok(fit)) and det.learned and not by_hand:
            # a ball at rest against a button: the button's grown pixels take all but a
            # pixel or two of it, and the fit on those fails (its colour out of any ball's,
            # a sixth seen; brasileira seed 43's ten minutes, frames 598-659: the ball, come
            # to rest 0.6 mm from B8, lost until B8's opponent struck it; found while it
            # rolled, 0.8 mm further out). Fitted with the button modelled in front of it;
            # not beside a hand (a fingertip by a button at the rail, fitted so, was a false
            # ball 160 mm from the ball at rest: mesa-posta seed 42, frame 14295)
            start = fit.xy_mm if fit is not None and np.isfinite(fit.xy_mm).all() else xy0
            fit = against_a_button(det, img, bgf, start, solids, hands, hiders) or fit
        if fit is None or not det._ball_fit_ok(fit):
            det._reject(uv, hands, memo)
            continue
        fit = beside_a_piece(det, img, bgf, fit, solids, ball_excluded, hiders, hands)
        assert fit is not None
        blurred_on = False
        score = det._ball_score(fit, bgf, c)
        if score < _BLUR_SCORE and fit.explained >= min(_BLUR_EXPLAINED, _LOST_EXPLAINED):
            # a ball blurred by its motion and fitted still: its colour, mixed with the felt's
            # about its rim, scores it low (0.3 for 0.94 of its pixels explained; the frame a
            # hit sends it off, or rolling as a blob too short to seed a streak), and every
            # leftover after it was fitted in vain (60 fits, 130 ms on the live clip's frame
            # 167). Fitted again drawn out the way it goes; so is a fit drawn out under half
            # as far as its last frame's (a 1.9 px streak of a ball rolling at 0.9 m/s, seen
            # as 4.4 px the frame before, scored 0.34 and was lost: the live clip's frame 601)
            seed = blur_seed(det, fit, z_c) if fit.explained >= _BLUR_EXPLAINED else None
            lost = None
            if seed is None and np.hypot(*fit.streak_px) < 1.0:
                seed = lost = lost_seed(det, fit, z_c)  # a ball lost since it was struck
            if seed is not None and np.hypot(*fit.streak_px) < _BLUR_SHORT * np.hypot(*seed):
                blurred = fit_from(fit.xy_mm, seed)
                if (
                    blurred is not None
                    and det._ball_fit_ok(blurred)
                    and float(np.hypot(*(blurred.xy_mm - fit.xy_mm))) <= sz.ball_diameter
                    and (
                        lost is None
                        or (along(blurred.streak_px, lost) and blurred.visible >= _STOP_VISIBLE)
                    )
                ):
                    new = det._ball_score(blurred, bgf, c)
                    if new > score:
                        fit, score = blurred, new
                        # off where it rested, or rolling on: as sure as a ball rolling on
                        # (lost a while: the other blobs are tried too)
                        blurred_on = lost is None and new >= _EXPECTED_SCORE
        if (
            memo == "box"
            and fit.explained >= _BOX_REFIT_EXPLAINED
            and math.isfinite(fit.box_gap_mm)
        ):
            # a sliver beside a box, the box's fit drawn over the rest of the ball (2-3 mm and 5
            # degrees on rig 300's keeper place): fitted 0.8 mm off, or scored under the
            # threshold (0.78 explained, 0.26: its colour read from a fifth of the ball). Fitted
            # again as the goal-line call does, the box first without the ball (ball_refit)
            from vision.ball_refit import refit

            again = refit(det, fit.xy_mm, found=(solids, hands))
            if (
                again is not None
                and ball_fit_ok(again)
                and float(np.hypot(*(again.xy_mm - fit.xy_mm))) <= sz.ball_diameter / 2.0
            ):
                new = det._ball_score(again, bgf, c)
                if new >= min(score, _BALL_SURE) or new > score:
                    fit, score = again, new
        if by_hand and (
            hand_not_ball(det, fit, hands, uv) if det.learned else hand_like(det, fit, hands, uv)
        ):
            score = 0.0
        if not det.learned and fit.visible < _STILL_VISIBLE:
            # a still has no moment before to say a sliver is the ball: a button's edge its
            # fit left beside it (0.16-0.38 of a ball seen, in the button's colours: stills
            # 1314 and 1319 of --seed 1300), while the balls the stills show, beside a button
            # too, are seen 0.70 and more (tests/vision/test_still_sliver.py)
            score = 0.0
        mark = None if det.learned else spot_under(det, fit.xy_mm)
        if mark is not None:
            # a still's bare painted mark: told by parallax where the camera can, else its
            # leftover is held to what a ball on a spot explains (ball_on_spot; seed 903 of
            # the stills: the penalty mark beside two buttons, 0.55 of its pixels explained,
            # taken for the ball under a hand)
            if bare_mark(det, fit, mark):
                score = 0.0
        if not det._in_goal(fit.xy_mm):
            scored.append((score, fit))
            # a part of the hand its mask left out is a round blob that may fit a ball fairly
            # (0.63 of its pixels, a still): beside a hand a good fit is not sure, and the
            # candidates after it are tried too (the best one wins)
            if not by_hand and fit.visible >= _STOP_VISIBLE:
                sure = max(sure, score)
                if (
                    blurred_on
                    or (
                        guess is not None
                        and score >= _EXPECTED_SCORE
                        and float(np.hypot(*(fit.xy_mm - guess[0]))) <= guess[1]
                    )
                    or (score >= _EXPECTED_SCORE and struck_from_rest(det, fit, z_c))
                    or (score >= _BALL_SURE and found_again(det, fit))
                ):
                    sure = max(sure, _STOP_SCORE)  # the ball rolling on: sure enough
        if score < _BALL_MIN_SCORE:
            det._reject(uv, hands, memo)
    # a fit seen less than half (hidden behind a piece) wins over one seen whole only by a
    # clear margin: its sliver's colour is judged with a shadow's leeway (nacional's ten
    # minutes, frame 15485: a moving button's blurred rim fitted as a ball 85% behind it,
    # 0.58 of its pixels explained, outscored the ball in the open, 0.97 explained, on a
    # felt nearly its colour; the ball was read 110 mm off for a frame and a touch was lost)
    chosen = max(scored, key=_seen_rank) if scored else None
    best = chosen[1] if chosen is not None else None
    top = chosen[0] if chosen is not None else 0.0
    if det.learned and memo == "ball" and best is not None and top >= _STOP_SCORE:
        remember_lost(det, cands, best, hands)
    if best is None or top < _BALL_MIN_SCORE:
        best = det._ball_on_spot(img, bgf, excluded, solids)
        if best is None:  # white on a pale felt: the coarse foreground may miss the ball
            return faint_ball(det, img, bgf, excluded, hands)
        faint = sure_faint(det, img, bgf, excluded, hands)
        if faint is not None:
            return faint
    elif top < _BALL_SURE:
        # a fair fit elsewhere (a print, the net's edge) against a ball on a painted spot,
        # white on white and no blob (a kick-off): the one that explains more wins (its share
        # explained against the fit's, not its score: the ball in a hand's shadow, 0.97 of its
        # pixels explained but scored 0.56 by its darkened colour, lost to a bare penalty mark
        # explaining 0.6; gaucha's ten minutes, seed 32, frame 5609)
        spot = det._ball_on_spot(img, bgf, excluded, solids)
        if spot is not None and spot.explained > best.explained:
            best = spot
    if best.explained > 0.8 and best.visible > 0.8 and np.hypot(*best.streak_px) < 2:
        det.ball_colour = (
            best.colour_bgr
            if det.ball_colour is None
            else 0.9 * det.ball_colour + 0.1 * best.colour_bgr
        )
    return best


def sure_faint(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    excluded: NDArray[np.bool_],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """On a still where only a fit on a painted spot was found: a faint ball elsewhere
    (:func:`faint_ball`) that scores as a ball found well (:data:`_BALL_SURE`), else None.
    The spot's fit is taken on half its pixels explained where parallax cannot tell, as a bare
    mark's may be (0.03-0.55 on renders): still 1720 of ``bench_detect --seed 1700`` reported
    its bare centre mark while a white ball on the mottled pale felt, 71st of 263 blobs by
    strength, was found by the faint search 0.05 mm off, scoring 0.81
    (tests/vision/test_still_sliver.py)."""
    if det.learned:
        return None
    faint = faint_ball(det, img, bgf, excluded, hands)
    if faint is not None and det._ball_score(faint, bgf, faint.uv_px) >= _BALL_SURE:
        return faint
    return None


def _seen_rank(q: tuple[float, BallFit]) -> float:
    """A scored fit's rank among the candidates: its score, down to 0.5 of it for a fit seen
    less than half (none of its silhouette seen: half)."""
    score, fit = q
    return score * (0.5 + 0.5 * min(1.0, fit.visible / _STOP_VISIBLE))


def ball_score(
    det: Detector,
    fit: BallFit | None,
    bgf: NDArray[np.float32],
    c: FloatArray,
    shaded: bool = False,
) -> float:
    """How much a fit looks like the ball (0 when it cannot be one): the share of the
    pixels it explains, less when its colour is near the table's or far from the ball's
    (as a shadow darkens it when the fit is partly hidden, or ``shaded``: beside a hand, whose
    shadow falls on it)."""
    if fit is None or not det._ball_fit_ok(fit) or not on_the_table(det, fit):
        return 0.0
    table = bgf[int(c[1]), int(c[0])]
    if shadow_like(fit.colour_bgr, table):
        return 0.0  # a piece's shadow beyond the pixels its fit leaves out
    # and from the felt's (where the model is wrong, a painted goal, the felt itself fits a
    # 'ball' of the felt's colour: rig 330, 10 mm inside a goal; a ball of the felt's colour
    # would not be seen on it anyway)
    w, h = det.camera.image_size
    u, v = (int(np.clip(x, 0, n - 1)) for x, n in zip(fit.uv_px, (w, h), strict=True))
    felt = det.bg.felt_colour(u, v)
    if shaded:
        # the table about it as it is now: in the hand's shadow, a white ball on a pale felt
        # is darkened toward the learned felt (20 levels from it, scored 0.2 and lost beside
        # the hand, tests/vision/test_ball_resting_by_hand.py) while it stands out from the felt
        # shaded beside it as much as ever
        g = shade_about(det, fit.uv_px, bgf)
        table, felt = table * g, felt * g
    contrast = float(
        min(np.linalg.norm(fit.colour_bgr - table), np.linalg.norm(fit.colour_bgr - felt))
    )
    if (
        fit.visible >= _HIDDEN
        and fit.explained >= _ON_LINE_EXPLAINED
        and det.bg.markings[int(c[1]), int(c[0])] > _ON_LINE
    ):
        # a ball seen whole on a painted line (put on a touchline for a throw-in), explaining
        # its pixels: white on the white line, 27-31 levels from it, scored 0.3 and was lost
        # for as long as it lay there (nacional seed 35, 16076-16116 of the twenty-eighth
        # stop's render; tests/vision/test_ball_on_line.py). Against the felt beside the line
        # it stands out; a bare mark, or the line's own edge where the model is a pixel off,
        # explains far less than a ball. Only on a line: off it, beside the rail where the
        # table is the wood's, a fingertip at a throw-in scored as the ball (gaucha seed 32,
        # 9127: a false ball out)
        contrast = float(np.linalg.norm(fit.colour_bgr - felt))
    score = fit.explained * min(1.0, contrast / _CONTRAST)
    if det.ball_colour is not None:
        # a ball partly hidden by a piece beside it (a goalkeeper) lies in its shadow: against
        # the ball's colour as a shadow darkens it (0.55-1 of it, as the felt's; at 0.7 a true
        # fit was 89 levels off, scored 0.3 and was lost). Elsewhere a darker thing of the
        # ball's hue is no ball (a ball beside a box the fits missed is fitted with the box's
        # pixels, mm off: better lost)
        ref = det.ball_colour
        k = 1.0
        if fit.visible < _HIDDEN or shaded:
            k = float(np.clip(fit.colour_bgr @ ref / max(float(ref @ ref), 1e-9), 0.55, 1.0))
        off = float(np.linalg.norm(fit.colour_bgr - k * ref))
        if fit.visible < _HIDDEN and under_a_bar(det, fit):
            off = min(off, float(_diluted(fit.colour_bgr, ref, felt.astype(np.float64))))
        score *= math.exp(-off / 80.0)
    return score


def shade_about(det: Detector, uv_px: FloatArray, bgf: NDArray[np.float32]) -> float:
    """How much a shadow darkens the table about ``uv_px`` now: the median of the image over the
    learned table on a ring 1.5-3 ball radii out, over the pixels darker than the table by
    the same share in every channel (:data:`_SHADE_SPREAD`; a hand's, a piece's are other
    colours); 1 where too few are (:data:`_SHADE_SHARE` of the ring), at most 1, at least
    the foreground's shadow share (``_SHADOW_K``).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> bg = np.full((60, 80, 3), 180.0, np.float32)
    >>> img = np.full((60, 80, 3), 180, np.uint8)
    >>> img[:, 40:] = 162  # a shadow from column 40 on
    >>> det = NS(_last_image=img, stride=3, _mm_px=np.ones((20, 27)), _scale=lambda: 1.0,
    ...          sizes=NS(ball_diameter=10.0))  # a 10-pixel ball: its ring 7.5-15 px out
    >>> at = lambda u: round(shade_about(det, np.array([u, 30.0]), bg), 3)
    >>> at(60.0), at(15.0)
    (0.9, 1.0)
    >>> img[:, 40:] = (90, 160, 200)  # a hand's colour, not the felt's darkened
    >>> at(60.0)
    1.0
    """
    img = det._last_image
    if img is None:
        return 1.0
    h, w = img.shape[:2]
    s, o = det.stride, det.stride // 2
    hc, wc = det._mm_px.shape
    i = int(np.clip(round((float(uv_px[1]) - o) / s), 0, hc - 1))
    j = int(np.clip(round((float(uv_px[0]) - o) / s), 0, wc - 1))
    mm_px = float(det._mm_px[i, j]) or det._scale()
    r_px = det.sizes.ball_diameter / 2.0 / max(mm_px, 1e-3)
    reach = math.ceil(3.0 * r_px)
    u0, v0 = round(float(uv_px[0])), round(float(uv_px[1]))
    x0, x1, y0, y1 = (
        max(0, u0 - reach),
        min(w, u0 + reach + 1),
        max(0, v0 - reach),
        min(h, v0 + reach + 1),
    )
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 1.0
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.hypot(xx - float(uv_px[0]), yy - float(uv_px[1]))
    ring = (d >= 1.5 * r_px) & (d <= 3.0 * r_px)
    seen = img[y0:y1, x0:x1][ring].astype(np.float64)
    table = np.maximum(bgf[y0:y1, x0:x1][ring].astype(np.float64), 1.0)
    k = seen / table
    like = (np.ptp(k, axis=1) < _SHADE_SPREAD) & (k.min(axis=1) > 0.0)
    if like.sum() < _SHADE_SHARE * max(int(ring.sum()), 1):
        return 1.0
    return float(np.clip(np.median(k[like].mean(axis=1)), _SHADOW_K, 1.0))


def under_a_bar(det: Detector, fit: BallFit) -> bool:
    """Whether a crossbar hides :data:`_BAR_HIDES` of the fit's silhouette or more."""
    sz = det.sizes
    bars = crossbars(det)
    share = hidden_share(det.camera, fit.xy_mm, sz.ball_diameter, sz.ball_height, bars)
    return share >= _BAR_HIDES


def _diluted(colour_bgr: FloatArray, ball_bgr: FloatArray, felt_bgr: FloatArray) -> FloatArray:
    """The distance of a fit's colour (or of each of (n, 3) colours) from the ball's mixed
    with the felt's (the ball's share :data:`_DILUTED` to 1).

    A ball under a crossbar shows two slivers either side of it, a pixel or two wide: the
    fit's colour is read from pixels the lens mixes with the felt's and the bar's, and came
    out halfway to the felt (an orange ball on a pale felt, half under the bar at the goal
    line: 55 levels from the ball's, 0.87 of its pixels explained, 0.06 mm off; scored 0.23,
    lost, and the goal-line call with it)."""
    d = felt_bgr - ball_bgr
    a = np.clip((colour_bgr - ball_bgr) @ d / max(float(d @ d), 1e-9), 0.0, 1.0 - _DILUTED)
    return np.asarray(np.linalg.norm(colour_bgr - (ball_bgr + a[..., None] * d), axis=-1))


def on_the_table(det: Detector, fit: BallFit) -> bool:
    """Whether a fit lies where a ball can: its centre in the image, its footprint on the
    playing surface (a ball against a rail lies its radius in from it; :data:`_RAIL_SLACK_MM`
    allowed for the camera's error). A fit on the felt's last rows at the image's edge, its
    centre above the image and 0.4 mm beyond the rail, was a still's ball where there was
    none (tests/vision/test_ball_goal.py).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from calibration.camera import preset_camera
    >>> from geometry.tablespec import load_table
    >>> from vision.ball import BallFit
    >>> table = load_table("brasileira")
    >>> cam = preset_camera("overhead", table, (1920, 1080))
    >>> det = SimpleNamespace(camera=cam, table=table, sizes=SimpleNamespace(ball_diameter=10.0))
    >>> def fit(x, y):
    ...     uv = cam(np.array([[x, y, 5.0]]))[0]
    ...     return BallFit(np.array([x, y]), uv, 0.1, np.zeros(2), np.zeros(3), 0.9, 1.0, 1.0)
    >>> on_the_table(det, fit(0.0, 795.0)), on_the_table(det, fit(0.0, 800.4))
    (True, False)
    """
    w, h = det.camera.image_size
    u, v = (float(q) for q in fit.uv_px)
    if not (0.0 <= u <= w - 1 and 0.0 <= v <= h - 1):
        return False
    x0, y0, x1, y1 = det.table.rail_box
    m = det.sizes.ball_diameter / 2.0 - _RAIL_SLACK_MM
    x, y = (float(q) for q in fit.xy_mm)
    return x0 + m <= x <= x1 - m and y0 + m <= y <= y1 - m


def ball_fit_ok(fit: BallFit | None) -> bool:
    """Whether a fit can be a ball at all (found, finite, a streak a ball can make, a
    colour a ball can have)."""
    return (
        fit is not None
        and bool(np.isfinite(fit.xy_mm).all())
        and np.hypot(*fit.streak_px) <= _MAX_STREAK_PX
        and plausible_colour(fit)
    )


def ball_strength(
    det: Detector, img: U8, bgf: NDArray[np.float32], uv: FloatArray, excluded: NDArray[np.bool_]
) -> tuple[float, FloatArray]:
    """The largest mean difference from the table (summed over the channels) in a window
    of a ball's core size about a blob's pixels (full resolution), the pieces' and hands'
    pixels left out: a matched filter; and where it is largest (px)."""
    h, w = img.shape[:2]
    c = uv.mean(axis=0)
    o, st = det.stride // 2, det.stride
    i, j = (
        int(np.clip(round((v - o) / st), 0, n - 1))
        for v, n in zip(c[::-1], det._mm_px.shape, strict=True)
    )
    mm_px = float(det._mm_px[i, j]) or det._scale()
    k = max(3, round(0.6 * det.sizes.ball_diameter / max(mm_px, 1e-3)))
    x0, y0 = (max(0, math.floor(v) - k - st) for v in uv.min(axis=0))
    x1 = min(w, math.ceil(uv[:, 0].max()) + k + st + 1)
    y1 = min(h, math.ceil(uv[:, 1].max()) + k + st + 1)
    if x1 - x0 < k or y1 - y0 < k:
        return 0.0, c
    diff = cv2.absdiff(img[y0:y1, x0:x1].astype(np.float32), bgf[y0:y1, x0:x1])
    level = cv2.transform(diff, np.ones((1, 3), np.float32))
    level[excluded[y0:y1, x0:x1]] = 0.0
    blurred = cv2.blur(level, (k, k))
    # where it peaks among the blob's own pixels (a stride about them)
    a0, b0 = (max(0, math.floor(v) - st - o) for v in uv.min(axis=0) - (x0, y0))
    a1, b1 = (math.ceil(v) + st + 1 for v in uv.max(axis=0) - (x0, y0))
    _, _, _, at = cv2.minMaxLoc(blurred[b0:b1, a0:a1])
    peak = np.array([at[0] + a0 + x0, at[1] + b0 + y0], np.float64)
    return float(blurred.max()), peak


def ball_on_spot(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    excluded: NDArray[np.bool_],
    solids: list[Solid] | tuple[Solid, ...] = (),
) -> BallFit | None:
    """A ball on the centre or a penalty mark (:func:`vision.ball.ball_on_spots`), where no
    piece of ``solids`` stands: a fit whose footprint would overlap one's by more than
    :data:`_BUTTON_OVERLAP_MM` is the bare mark's uncovered part, not a ball (discs and balls
    never overlap; gaucha's ten minutes, seed 32, frame 5612: the penalty mark half under a
    resting button, its visible half fitted as the ball at 5 mm into the button while the
    ball itself was beside a hand, and the ball read there for ten frames)."""
    field = FieldModel(det.table)
    spots = [(0.0, 0.0), field.penalty_mark("left"), field.penalty_mark("right")]
    best = None
    for spot in spots:
        # against a learned table a ball on a spot differs from it as any ball does; a still's
        # estimate of the painted spot is rougher: the bare mark's leftover, smaller than a
        # ball, explains a ball-sized fit's pixels in part (0.1-0.4 of them), a ball on it most
        fit = ball_on_spots(
            img,
            bgf,
            det.camera,
            [spot],
            det.sizes.ball_diameter,
            det.sizes.ball_height,
            excluded,
            det.bg.felt_colour,
            min_explained=0.15,
        )
        if fit is None or (best is not None and fit.explained <= best.explained):
            continue
        mark = np.asarray(spot, float)
        if (
            bare_mark(det, fit, mark)
            if not det.learned
            else parallax_says_ball(det, fit, mark) is False and not _ball_came_by(det, mark)
        ):
            # in a video too, where the learned table is stale about the mark (a piece rested
            # on it while it was learned, one beside it now keeps it from being refreshed):
            # parallax tells the bare mark, its fit short of the spot toward the camera (unless
            # the ball was there a moment ago: its motion shifts its fit as much)
            continue
        r = det.sizes.ball_diameter / 2.0
        if all(footprint_gap(x, fit.xy_mm, r) >= -_BUTTON_OVERLAP_MM for x in solids):
            best = fit
    return best


def _ball_came_by(det: Detector, spot_mm: FloatArray) -> bool:
    """Whether the ball was found within :data:`_SPOT_NEAR` diameters of a painted spot at most
    :data:`_SPOT_PRIOR_FRAMES` frames ago: a fit on the spot may then be the ball, struck from
    it or rolling over it, whose motion shifts its fit as parallax shifts a bare mark's (the
    kick-offs of the ten-minute renders: the ball found 1-3 mm off the centre spot the frame it
    was struck, read as the bare mark and lost for a frame on 8 of them)."""
    prior = det._ball_prior  # (a video's: asked only of a learned detector)
    if prior is None or det._frames - prior[1] > _SPOT_PRIOR_FRAMES:
        return False
    near = _SPOT_NEAR * det.sizes.ball_diameter
    return float(np.hypot(*(np.asarray(prior[0].xy_mm) - spot_mm))) <= near


def bare_mark(det: Detector, fit: BallFit, spot_mm: FloatArray) -> bool:
    """Whether a still's fit on the painted spot ``spot_mm`` is the bare mark: so by parallax
    (:func:`parallax_says_ball`), or, where parallax cannot tell, explaining less than half its
    pixels (:data:`_SPOT_STILL`); a ball parallax confirms explains :data:`_SPOT_PARALLAX`."""
    seen = parallax_says_ball(det, fit, spot_mm)
    least = _SPOT_STILL if seen is None else _SPOT_PARALLAX
    return seen is False or fit.explained < least


def parallax_says_ball(det: Detector, fit: BallFit, spot_mm: FloatArray) -> bool | None:
    """Whether a fit on a painted spot is a ball on it (True) or the bare mark (False), by
    parallax; None where the camera cannot tell. A ball's fit lies on the spot; the bare
    mark, flat on the table, seen as a ball whose centre stands its radius higher, is fitted
    short of it toward the point under the camera, by the spot's distance from that point
    times the centre's height over the camera's (1-3 mm for a camera 1.7 m up): the share of
    that offset the fit shows is 0.7-1.08 for a bare mark and -0.16-0.09 for a ball on it on
    48 renders of random cameras (tests/vision/test_spot_parallax.py), 1.67 for still 1341's
    bare mark through its calibrated camera. Where the offset would be under
    :data:`_PARALLAX_MM` it cannot tell: a camera nearly over the spot, or one whose error
    and the fit's (0.3-0.9 mm on still 903's bare mark, 1 mm of offset: shares 0.85 and
    0.11 from two fits) would decide."""
    c = det.camera.centre_mm
    sz = det.sizes
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    if not c[2] > z_c:
        return None
    e = -(spot_mm - c[:2]) * z_c / (c[2] - z_c)
    e2 = float(e @ e)
    if e2 < _PARALLAX_MM**2:
        return None
    share = float((fit.xy_mm - spot_mm) @ e) / e2
    if share <= _PARALLAX_BALL:
        return True
    return False


def footprint_gap(x: Solid, xy_mm: FloatArray, r_mm: float) -> float:
    """The gap (mm) between a ball of radius ``r_mm`` on the table at ``xy_mm`` and a solid's
    footprint (a button's disc, a goalkeeper's rectangle); negative where they overlap, by
    at least the radius when the ball's centre lies inside a box."""
    if x.kind == "button":
        return float(np.hypot(*(xy_mm - x.p[:2]))) - x.p[2] / 2.0 - r_mm
    d = float(np.hypot(*(xy_mm - _nearest_point(x, xy_mm))))
    return d - r_mm if d > 1e-9 else -2.0 * r_mm


def spot_under(det: Detector, xy_mm: FloatArray) -> FloatArray | None:
    """The painted spot (mm) a ball's footprint lies on (within
    :data:`vision.ball.ON_SPOT_MM` of its centre, as :func:`vision.ball.ball_on_spots` takes a
    ball on it), or None."""
    for xy, _ in spot_pixels(det):
        if float(np.hypot(*(xy_mm - xy))) <= ON_SPOT_MM:
            return np.asarray(xy, np.float64)
    return None


def spot_pixels(
    det: Detector,
) -> list[tuple[FloatArray, tuple[NDArray[np.intp], NDArray[np.intp]]]]:
    """Each painted spot's place (mm) and its pixels (row and column indices, full
    resolution): those within the mark's radius and 4 mm (the leftover's halo, a pixel of
    calibration error) on the table."""
    if det._spots is None:
        field = FieldModel(det.table)
        radius = max(det.table.mark_diameter, det.table.center_mark_diameter) / 2.0 + 4.0
        w, h = det.camera.image_size
        det._spots = []
        for spot in ((0.0, 0.0), field.penalty_mark("left"), field.penalty_mark("right")):
            xy = np.array(spot, float)
            ring = xy + radius * np.array(
                [[math.cos(a), math.sin(a)] for a in np.linspace(0, 2 * math.pi, 16)]
            )
            uv = det.camera.table_to_image(np.column_stack([ring, np.zeros(len(ring))]))
            if not np.isfinite(uv).all():
                continue
            (u0, v0), (u1, v1) = np.floor(uv.min(axis=0)), np.ceil(uv.max(axis=0))
            u0, v0, u1, v1 = (
                max(int(u0), 0),
                max(int(v0), 0),
                min(int(u1), w - 1),
                min(int(v1), h - 1),
            )
            if u1 < u0 or v1 < v0:
                continue
            vv, uu = np.mgrid[v0 : v1 + 1, u0 : u1 + 1]
            on_table = det.camera.image_to_table(np.column_stack([uu.ravel(), vv.ravel()]), 0.0)
            inside = np.hypot(*(on_table - xy).T) <= radius
            det._spots.append((xy, (vv.ravel()[inside], uu.ravel()[inside])))
    return det._spots


def refresh_spots(
    det: Detector, img: U8, ball: BallFit, solids: list[Solid], hands: NDArray[np.bool_]
) -> None:
    """Blend the painted spots into the learned table while the ball is surely elsewhere.

    Where a piece rested while the table was learned, the table is the still's estimate,
    and a painted spot's estimate is a few grey levels and a pixel off: a mark-shaped
    leftover that a ball's fit on the spot explains in good part (0.3-0.8 of it), so the
    bare mark was taken for the ball whenever the ball was lost (the goal-line call then
    measured the penalty mark). A ball found well (explaining :data:`_BALL_SURE` of its
    pixels, wholly seen) far from a spot says the spot is bare: half of the difference is
    taken in a frame. A spot a piece's outline or a hand comes near is left for later.
    """
    if ball.explained < _BALL_SURE or ball.visible < 0.8:
        return
    far = 3.0 * det.sizes.ball_diameter
    s, o = det.stride, det.stride // 2
    unexplained: NDArray[np.bool_] | None = None  # the foreground no solid explains, once
    for xy, (ys, xs) in spot_pixels(det):
        if not len(ys) or float(np.hypot(*(ball.xy_mm - xy))) <= far:
            continue
        lo = np.array([xs.min(), ys.min()]) - 3.0
        hi = np.array([xs.max(), ys.max()]) + 3.0
        if any(
            len(x.hull) and (x.hull.min(axis=0) <= hi).all() and (x.hull.max(axis=0) >= lo).all()
            for x in solids
        ):
            continue
        i0, j0 = (max(0, int(v - o) // s - 1) for v in lo[::-1])
        i1, j1 = (int(v - o) // s + 2 for v in hi[::-1])
        if hands[i0:i1, j0:j1].any():
            continue
        # a piece or a palm beside or over the mark shows about it too (a button carried onto
        # a penalty mark, no solid yet, was blended in, and the bare mark it left was taken
        # for the ball: paulista's ten minutes, frame 7202); the mark's own leftover does not
        # (a piece found there explains its own pixels: only what nothing explains counts)
        if unexplained is None:
            unexplained = det._fg & ~det._raster(solids, det._fg.shape)
        r0, c0 = max(0, i0 - _SPOT_RING), max(0, j0 - _SPOT_RING)
        about = unexplained[r0 : i1 + _SPOT_RING, c0 : j1 + _SPOT_RING].copy()
        about[i0 - r0 : i1 - r0, j0 - c0 : j1 - c0] = False
        if about.any():
            continue
        det.bg.blend(img, (ys, xs), 0.5)


# A still's last look for a faint ball (white on a pale felt: the coarse foreground misses it)
_FAINT_SIGMAS = 6.0  # a peak this many of the filter's noise (robust sigma) above its median
_FAINT_PEAKS = 8  # the strongest peaks fitted, at most
_FAINT_EXPLAINED = 0.6  # a fit that explains less of its pixels is a print, an edge or noise
_FAINT_NEAR_PX = 6.0  # the fit's centre this near its peak: a fit that runs off is no ball
# a faint ball lies in the open: its peak needs half its box free of the pieces' pixels, and
# its fit must see as much of its silhouette. A button fitted a few mm small (a white one's
# dark ring taken for its edge) leaves a sliver of its rim beyond its grown pixels, which a
# fit seeing 15-28% of itself (4-8 px) explained 0.41-0.69 of: a false ball whichever way a
# print on the button moved the sliver by a pixel
_FAINT_VISIBLE = 0.5
_FAINT_RAIL_PX = 9  # the felt's edge left out (the region in by 4 px)
_FAINT_GRID = 16  # cells across the image on which the ball's size in pixels is measured
_FAINT_LIT_K = 1.03  # the felt lit this much over the table (as a shadow is under 0.97 of it)


def _ball_px(det: Detector) -> NDArray[np.float32]:
    """The ball's expected diameter (px, full resolution (h, w)) at each pixel: from the camera
    at the ball's centre height, on a coarse grid (it changes slowly) and interpolated."""
    w, h = det.camera.image_size
    sz = det.sizes
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    gw, gh = _FAINT_GRID, max(2, round(_FAINT_GRID * h / w))
    uu, vv = np.meshgrid(np.linspace(0, w - 1, gw), np.linspace(0, h - 1, gh))
    uv = np.column_stack([uu.ravel(), vv.ravel()])
    xy0 = det.camera.image_to_table(uv, z_c)
    xy1 = det.camera.image_to_table(uv + np.array([1.0, 0.0]), z_c)
    xy2 = det.camera.image_to_table(uv + np.array([0.0, 1.0]), z_c)
    # mm per pixel: the mean of the two directions' (the silhouette is about round)
    mm_px = 0.5 * (np.hypot(*(xy1 - xy0).T) + np.hypot(*(xy2 - xy0).T))
    d_px = np.where(np.isfinite(mm_px) & (mm_px > 1e-3), sz.ball_diameter / mm_px, np.nan)
    fill = float(np.nanmedian(d_px)) if np.isfinite(d_px).any() else 10.0
    grid = np.nan_to_num(d_px, nan=fill).reshape(gh, gw).astype(np.float32)
    return np.asarray(cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def _box(a: NDArray[np.float32], n: int) -> NDArray[np.float32]:
    """Sums over n x n windows (zero beyond the array's edges)."""
    return np.asarray(
        cv2.boxFilter(a, -1, (n, n), normalize=False, borderType=cv2.BORDER_CONSTANT), np.float32
    )


def faint_peaks(
    det: Detector, img: U8, bgf: NDArray[np.float32], excluded: NDArray[np.bool_]
) -> list[FloatArray]:
    """Where a ball-sized spot differs from the table more than the table around it does
    (px, strongest first): a centre-surround filter of the summed channel difference at full
    resolution, sized to the ball's expected diameter where it lies, over the felt inside the
    rails less the goals and the pieces' and hands' pixels; peaks above a threshold relative
    to the filter's own noise over the felt.

    The mean over a box of the ball's diameter less the mean over the ring about it to three
    diameters: a faint ball differs from the felt where the felt around it does not, while a
    light gradient, a vignette or the still's model's slow errors cancel out."""
    # a rail's few pixels in from the felt's edge (where the table's model meets the wood's)
    rail = np.ones((_FAINT_RAIL_PX, _FAINT_RAIL_PX), np.uint8)
    region = (cv2.erode(det.bg.region, rail) > 0) & (det.bg.goals == 0)
    ys, xs = np.nonzero(region[:, :: det.stride])
    if not len(ys):
        return []
    y0, y1 = int(ys.min()), int(ys.max()) + 1
    x0, x1 = int(xs.min()) * det.stride, min(img.shape[1], (int(xs.max()) + 1) * det.stride)
    ok = region[y0:y1, x0:x1] & ~excluded[y0:y1, x0:x1]
    seen, ref = img[y0:y1, x0:x1].astype(np.float32), bgf[y0:y1, x0:x1]
    level = np.asarray(
        cv2.transform(cv2.absdiff(seen, ref), np.ones((1, 3), np.float32)), np.float32
    )
    # a cast shadow (the table's colour darkened, as the foreground excuses it: the pieces'
    # beside them, a hand's) is no ball; a pale ball's lit core, lighter than the felt, stays
    norm2 = np.maximum(cv2.transform(ref * ref, np.ones((1, 3), np.float32)), 1.0)
    k_dark = cv2.transform(seen * ref, np.ones((1, 3), np.float32)) / norm2
    off2 = cv2.transform((seen - k_dark[:, :, None] * ref) ** 2, np.ones((1, 3), np.float32))
    felt_like = off2 < (12.0 + 0.06 * np.sqrt(norm2)) ** 2
    shadow = (k_dark > _SHADOW_K) & (k_dark < 0.97) & felt_like
    raw_px = _ball_px(det)[y0:y1, x0:x1]
    sizes = np.clip(np.round(raw_px), 3, None).astype(np.int32)
    # ... but a sphere's shaded side lies beside its lit side: a white ball on a pale felt is
    # lighter than the felt on top and darker below and in its own shadow, and with those
    # excused it was left its lit core alone, too little to peak (random cameras over the
    # pale felt: 13 of 142 balls lost). A piece's or a hand's shadow lies beside the piece
    # (left out), not beside the felt lit brighter than the table
    lit = (ok & (k_dark > _FAINT_LIT_K) & felt_like).astype(np.uint8)
    lit = cv2.morphologyEx(lit, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))  # not noise's pixels
    d_min = int(max(3.0, float(raw_px.min())))
    shadow &= cv2.dilate(lit, np.ones((d_min, d_min), np.uint8)) == 0
    level[~ok | shadow] = 0.0
    okf = ok.astype(np.float32)
    resp = np.zeros(level.shape, np.float32)
    for d in np.unique(sizes[ok]):
        k, big = int(d), 3 * int(d)
        rows = np.flatnonzero((sizes == d).any(axis=1))
        # the rows of this size (the size changes along them on a tilted camera), and the
        # filter's reach about them
        a, b = max(0, int(rows[0]) - big), min(len(sizes), int(rows[-1]) + big + 1)
        lv, m = level[a:b], okf[a:b]
        s_in, n_in = _box(lv, k), _box(m, k)
        s_out, n_out = _box(lv, big) - s_in, _box(m, big) - n_in
        diff = s_in / np.maximum(n_in, 1.0) - s_out / np.maximum(n_out, 1.0)
        # most of the ball's own pixels seen, and enough of the felt around to compare with
        fair = (n_in >= 0.5 * k * k) & (n_out >= 0.25 * (big * big - k * k))
        here = (sizes[a:b] == d) & ok[a:b] & fair
        resp[a:b][here] = diff[here]
    sample = resp[ok][:: max(1, int(ok.sum()) // 200_000)]
    if not len(sample):
        return []
    med = float(np.median(sample))
    sigma = 1.4826 * float(np.median(np.abs(sample - med)))
    thr = med + _FAINT_SIGMAS * max(sigma, 1e-3)
    # local maxima (over the smallest expected diameter), then at most one within the
    # filter's reach (three diameters) about the strongest: a thing the fits missed (a
    # button's leftover, a print) peaks all over its pixels and would take every place
    k = int(max(3, np.min(sizes[ok])))
    top = cv2.dilate(resp, np.ones((k, k), np.uint8))
    py, px = np.nonzero((resp >= top) & (resp > thr))
    peaks: list[FloatArray] = []
    for i in np.argsort(-resp[py, px]):
        uv = np.array([px[i], py[i]], np.float64)
        if all(np.hypot(*(uv - q)) > 3 * sizes[py[i], px[i]] for q in peaks):
            peaks.append(uv)
            if len(peaks) == _FAINT_PEAKS:
                break
    return [q + np.array([x0, y0], np.float64) for q in peaks]


def _ball_d_px(det: Detector, uv_px: FloatArray, z_c_mm: float) -> float:
    """The ball's diameter in pixels about ``uv_px`` (its centre at height ``z_c_mm``)."""
    xy = det.camera.image_to_table(np.asarray(uv_px, np.float64)[None], z_c_mm)[0]
    r = det.sizes.ball_diameter / 2.0
    ends = np.array([[xy[0] - r, xy[1], z_c_mm], [xy[0] + r, xy[1], z_c_mm]])
    uv = det.camera.table_to_image(ends)
    d = float(np.hypot(*(uv[1] - uv[0])))
    return d if math.isfinite(d) and d > 0 else 3.0


def lit_sphere_score(fit: BallFit, table_bgr: FloatArray) -> float:
    """A faint fit's score as a lit sphere (0 when it is not one): lighter than the table
    ``table_bgr`` in its core and darker at its rim in every channel, its contrast the span
    between the two, in place of its core's against the table.

    A white ball on a pale felt is lit on top and shaded about its rim: fitted, its core is
    10-15 levels over the felt and its rim as far under (random cameras: the contrast of
    its core alone scored the fit 0.26-0.29 of the 0.35 it needs). A flat print's or an
    edge's rim lies between its core and the felt, not beyond the felt.

    Examples
    --------
    >>> from vision.ball import BallFit
    >>> fit = lambda core, rim: BallFit(np.zeros(2), np.zeros(2), 0.1, np.zeros(2),
    ...     np.array(core, float), 0.8, 1.0, 2.0, rim_bgr=np.array(rim, float))
    >>> table = np.array([200.0, 210.0, 212.0])
    >>> round(lit_sphere_score(fit([214, 224, 226], [190, 200, 202]), table), 2)
    0.55
    >>> lit_sphere_score(fit([214, 224, 226], [205, 215, 217]), table)  # a print's rim
    0.0
    """
    if fit.rim_bgr is None:
        return 0.0
    core, rim = np.asarray(fit.colour_bgr, np.float64), np.asarray(fit.rim_bgr, np.float64)
    table = np.asarray(table_bgr, np.float64)
    if not ((core > table).all() and (rim < table).all()):
        return 0.0
    return fit.explained * min(1.0, float(np.linalg.norm(core - rim)) / _CONTRAST)


def faint_ball(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    excluded: NDArray[np.bool_],
    hands: NDArray[np.bool_] | None = None,
) -> BallFit | None:
    """On a still where no ball was found, the ball among :func:`faint_peaks`: each fitted by
    :func:`vision.ball.fit_ball` from its peak, and the best of the fits that explain its
    pixels well (a ball, not a print or an edge), stay near their peak and score as a ball;
    beside a hand (the coarse mask ``hands``), not the hand's own (:func:`hand_like`).

    A learned table sees a faint ball as any other (its foreground is the table's noise, not
    the still's model's error): only stills are searched so."""
    if det.learned:
        return None
    sz = det.sizes
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    best: tuple[float, BallFit] | None = None

    def fit_from(uv: FloatArray) -> BallFit | None:
        xy0 = det.camera.image_to_table(uv[None], z_c)[0]
        f = fit_ball(img, bgf, det.camera, xy0, sz.ball_diameter, sz.ball_height, excluded=excluded)
        if f is None or not det._ball_fit_ok(f) or f.explained < _FAINT_EXPLAINED:
            return None
        return f

    for peak in faint_peaks(det, img, bgf, excluded):
        fit = fit_from(peak)
        if fit is None:
            # the peak of a lit ball and its shaded side lies between the two: started there
            # a fit may settle on the shade (explaining 0.07 of its pixels where from the lit
            # core it explains 0.67: bench_detect --seed 1700, still 1705). Tried from half a
            # ball either way, the best kept
            h = 0.5 * _ball_d_px(det, peak, z_c)
            tries = [fit_from(peak + d) for d in np.array([[h, 0], [-h, 0], [0, h], [0, -h]])]
            good = [f for f in tries if f is not None]
            fit = max(good, key=lambda f: f.explained) if good else None
        if fit is None:
            continue
        if fit.visible < _FAINT_VISIBLE:
            continue
        if np.hypot(*(fit.uv_px - peak)) > _FAINT_NEAR_PX or det._in_goal(fit.xy_mm):
            continue
        if hands is not None:
            box = fit.uv_px + np.array([[-8.0, -8.0], [8.0, 8.0]])
            if hands[det.memory.patch(det._sub, box)[0]].any() and hand_like(det, fit, hands, box):
                continue
        score = det._ball_score(fit, bgf, peak)
        if score > 0.0:  # on the table, not a shadow, of the ball's colour: lit, or faint
            score = max(score, lit_sphere_score(fit, bgf[int(peak[1]), int(peak[0])]))
        if score >= _BALL_MIN_SCORE and (best is None or score > best[0]):
            best = (score, fit)
    return best[1] if best is not None else None
