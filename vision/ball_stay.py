"""The ball where it just was, for :class:`vision.detect.Detector` (a function of the detector,
``det``, that is its method).

The search starts from the coarse foreground (every third pixel). A small ball - a 10 mm
ball is 6 pixels across on a camera that sees 1.7 mm a pixel - whose colour is near the
felt's (white on a pale felt) leaves one or two coarse pixels above the threshold, and its
shadow beside it is excused as a shadow: in some frames the noise leaves none, and the search
has nothing to fit. The ball is still there on the full-resolution image. Where it had
rested while the table was learned, the model there is a still's estimate, which the
detector blends with what it sees wherever nothing is found
(:meth:`vision.background.Background.refresh`): one such frame and the ball was table
within three (kept in 4 of 40 frames, ``tests/vision/test_ball_stay.py``).

So, in a video, where the ball was found a moment ago and nothing was found now, it is fitted
again there on the full-resolution image: where it rested, or where it was rolling to
(:func:`vision.ball_search.rolling_to`: its last two finds, a frame or two missed between
them). A fit is kept only as the ball: near that place, seen in good part, explaining the
pixels' difference from the table, scored as a ball and of the ball's colour learned from sure
fits. Nothing is
searched without a ball found in the last :data:`_PRIOR_FRAMES` frames or a ball's colour: a
lost ball is predicted by the tracker, never invented here. The coarse search's miss still
counts (the memory of tried blobs is unchanged).

Likewise a ball at rest beside a goalkeeper (:func:`ball_behind_a_box`): the box's fit takes a
half-hidden ball's pixels for its own and the search is left a pixel of it or none, so where it
was found a moment ago it is fitted again as the goal-line call does, the box first. Where it
was not (the first frames a video shows it there), the pixels of the ball's learned colour
beside a box are where it is fitted (:func:`ball_beside_a_box`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.ball import BallFit, fit_ball
from vision.ball_search import (
    _BALL_SURE,
    _LOST_TOP_MM_S,
    _TOUCH_MM,
    _nearest_point,
    ball_bars,
    ball_fit_ok,
    ball_masks,
    beside_a_piece,
    rolling_to,
)
from vision.solids import Solid

if TYPE_CHECKING:
    from vision.detect import Detector

__all__ = [
    "ball_behind_a_box",
    "ball_beside_a_box",
    "ball_out_of_reach",
    "ball_where_it_was",
    "could_be_beside",
    "not_the_ball_far_off",
    "sliver_off_a_covered_ball",
    "still_where_it_rested",
]

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]

_PRIOR_FRAMES = 3  # the ball found at most this many frames ago (a tenth of a second at 30/s)
_REACH_MM = 3.0  # a ball found at rest is looked for within this of where it was
_MIN_VISIBLE = 0.6
_MIN_EXPLAINED = 0.5
# the fit's colour within this (summed channel distance over the ball's colour's norm) of the
# ball's: a print or the felt's fold is another colour; a white ball in a button's shadow is
# darker, and the search proper finds it where it shows
_COLOUR_TOL = 0.25
_MIN_SCORE = 0.5  # the search's _BALL_SURE is 0.6: a fit this good, where the ball was, is it
# the farthest a ball rolls in a frame: the tracker's top speed for it (6 m/s) at 30 frames/s
_TRAVEL_MM = 200.0
_HIDDEN = 0.9  # a fit seeing less of its silhouette is partly hidden (as the search's)
_SLIVER = 0.5  # a fit seeing less of itself is a sliver (a still's ball shows half at least)
_STILL_MM = 2.0  # a ball's last two finds this near each other: at rest (the search's resting)
# a ball behind a box is looked for within its radius of where it was: its last fit, half
# hidden too, was 1-2 mm off (the box's fit drawn over it)
_BEHIND_MM = 5.0
# the ball's pixels beside a box: of its colour (as _COLOUR_TOL) and this far from the
# table's (summed over the channels; the noise is a few levels a channel)
_TABLE_LEVEL = 60.0
_SEED_SHARE = 0.1  # a blob of the ball's colour of this share of its silhouette seeds a fit
_SEEDS = 3  # the largest blobs beside each box fitted
_WEAK = _BALL_SURE  # a search's fit scored under this, far from the resting ball, is doubted


def ball_out_of_reach(det: Detector, fit: BallFit) -> bool:
    """Whether a partly hidden fit lies farther from the ball's find a moment ago (at most
    :data:`_PRIOR_FRAMES` frames) than the ball can roll since: a piece's edge or a print
    taken for it while the ball hides (a goalkeeper in front of it on the goal line: rig 300
    of ``python -m benchmarks.bench_goalline``, a white button's rim 830 mm away).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> fit = lambda x, vis: NS(xy_mm=np.array([x, 0.0]), visible=vis)
    >>> det = NS(_frames=7, _ball_prior=(fit(0.0, 1.0), 6))
    >>> ball_out_of_reach(det, fit(830.0, 0.2)), ball_out_of_reach(det, fit(150.0, 0.2))
    (True, False)
    >>> ball_out_of_reach(det, fit(830.0, 1.0))  # seen whole: the ball, kicked or carried
    False
    """
    prior = det._ball_prior
    if prior is None or fit.visible >= _HIDDEN:
        return False
    frames = det._frames - prior[1]
    if frames > _PRIOR_FRAMES:
        return False
    far = float(np.hypot(*(np.asarray(fit.xy_mm) - prior[0].xy_mm)))
    return far > _TRAVEL_MM * max(frames, 1)


def not_the_ball_far_off(det: Detector, fit: BallFit, bgf: NDArray[np.float32]) -> bool:
    """A partly hidden fit out of the ball's reach (:func:`ball_out_of_reach`), once the ball's
    colour is learned, that is not like the ball (of its colour and scored as one): a piece's
    edge (a goalkeeper's top end in its goal, brown where the ball is white, 1050 mm from the
    ball found at rest a frame before: ``tests/vision/test_ball_stay.py``). A ball placed far
    off by hand, half hidden, is of its colour and found there at once."""
    if det.ball_colour is None or not ball_out_of_reach(det, fit):
        return False
    return not _like_the_ball(det, fit, bgf)


def sliver_off_a_covered_ball(det: Detector, fit: BallFit, hands: NDArray[np.bool_]) -> bool:
    """A fit seen less than half (:data:`_SLIVER`), more than two diameters from where the ball
    was found at rest a moment ago (at most :data:`_PRIOR_FRAMES` frames; still over its last
    two finds, :data:`_PRIOR_FRAMES` apart at most), while a hand (the coarse mask) covers that
    place now: the ball is still under the hand, and the sliver is something beside it. A
    coach's arm sweeping over the goal area to set the goalkeeper covered the ball resting by
    the goal line and left a sliver of the net beside it, of the ball's colour, fitted 90 mm
    off inside the goal and reported once: a false goal (paulista's ten minutes, seed 39,
    frame 10189). A ball struck from under the hand is found once it shows half of itself.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> ball = lambda x, vis: NS(xy_mm=np.array([x, 0.0]), visible=vis, streak_px=np.zeros(2))
    >>> hands = np.zeros((40, 60), bool)
    >>> hands[10:30, 5:25] = True  # over the place the ball rested at (coarse px (15, 20))
    >>> cam = NS(table_to_image=lambda p: np.asarray(p)[:, :2] / 2.0 + [30.0, 60.0])
    >>> det = NS(_frames=9, _ball_prior=(ball(0.0, 1.0), 7), _ball_before=(ball(0.3, 1.0), 6),
    ...          camera=cam, stride=3, sizes=NS(ball_diameter=10.0, ball_height=10.0))
    >>> sliver_off_a_covered_ball(det, ball(90.0, 0.2), hands)
    True
    >>> det._ball_before = (ball(-20.0, 1.0), 6)  # moved along by the hand (the live clip, 1207)
    >>> sliver_off_a_covered_ball(det, ball(90.0, 0.2), hands)
    False
    >>> det._ball_before = (ball(0.3, 1.0), 6)
    >>> sliver_off_a_covered_ball(det, ball(90.0, 0.7), hands)  # half of it seen: the ball
    False
    >>> sliver_off_a_covered_ball(det, ball(15.0, 0.2), hands)  # beside its place
    False
    >>> sliver_off_a_covered_ball(det, ball(90.0, 0.2), np.zeros((40, 60), bool))
    False
    """
    prior = det._ball_prior
    if prior is None or fit.visible >= _SLIVER or det._frames - prior[1] > _PRIOR_FRAMES:
        return False
    last, before = prior[0], det._ball_before
    if float(np.hypot(*last.streak_px)) >= 1.0 or before is None:
        return False  # rolling, or not seen at rest
    if (
        prior[1] - before[1] > _PRIOR_FRAMES
        or float(np.hypot(*(np.asarray(last.xy_mm) - before[0].xy_mm))) >= _STILL_MM
    ):
        return False  # not at rest over its last two finds (carried along under the hand)
    d = det.sizes.ball_diameter
    if float(np.hypot(*(np.asarray(fit.xy_mm) - last.xy_mm))) <= 2.0 * d:
        return False
    z_c = d / 2 if det.sizes.ball_height >= 0.8 * d else det.sizes.ball_height
    uv = det.camera.table_to_image(np.array([[last.xy_mm[0], last.xy_mm[1], z_c]]))[0]
    if not np.isfinite(uv).all():
        return False
    s, o = det.stride, det.stride // 2
    x, y = round((float(uv[0]) - o) / s), round((float(uv[1]) - o) / s)
    h, w = hands.shape
    return bool(hands[max(0, y - 1) : min(h, y + 2), max(0, x - 1) : min(w, x + 2)].any())


def still_where_it_rested(
    det: Detector,
    fit: BallFit,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """The ball found again where it was at rest a moment ago (beside a hand,
    :func:`vision.ball_hands.ball_by_hand`, else :func:`ball_where_it_was`) when the search's
    fit is weak (scored under the search's sure score, :data:`_WEAK`) and more than two
    diameters from there; None when the fit stands.

    A ball cannot be in two places: one still seen where it rested wins over a poor fit
    elsewhere. A hand beside the resting ball grows over its blob, the search then has nothing
    of it, and a weak fit elsewhere was taken: the painted penalty mark beside a button, fitted
    against a stale patch of the learned table (nacional's ten minutes, seed 41, frames
    10917-10926: the ball read on the mark and back on every other frame, a false touch and a
    foul lost; ``tests/vision/test_ball_resting_by_hand.py``). A ball struck from its rest is
    blurred and leaves its place bare: the fit there fails and the search's stands."""
    prior = det._ball_prior
    if prior is None or det._frames - prior[1] > _PRIOR_FRAMES:
        return None
    last = prior[0]
    if float(np.hypot(*last.streak_px)) >= 1.0:
        return None  # rolling: the search's fit may be where it went
    if float(np.hypot(*(np.asarray(fit.xy_mm) - last.xy_mm))) <= 2.0 * det.sizes.ball_diameter:
        return None
    if det._ball_score(fit, bgf, fit.uv_px) >= _WEAK:
        return None
    # as the search's misses are: beside a hand, then where it was
    return det._ball_by_hand(img, bgf, solids, hands) or det._ball_where_it_was(
        img, bgf, solids, hands
    )


def ball_where_it_was(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """The ball fitted again where it was found a moment ago (module docstring); None if no
    fit there is the ball."""
    prior = det._ball_prior
    ref = det.ball_colour
    if prior is None or ref is None or det._frames - prior[1] > _PRIOR_FRAMES:
        return None
    guess = rolling_to(det, _PRIOR_FRAMES)
    last = prior[0]
    streak: FloatArray | None = None
    if guess is not None:  # rolling: where it rolls to, blurred along its last streak
        start, reach = guess
        if float(np.hypot(*last.streak_px)) >= 1.0:
            streak = np.asarray(last.streak_px, np.float64)
    elif float(np.hypot(*last.streak_px)) < 1.0:  # at rest
        start, reach = np.asarray(last.xy_mm, np.float64), _REACH_MM
    else:
        return None  # rolling, its speed unknown: the search proper or the tracker
    sz = det.sizes
    excluded, hiders = ball_masks(det, solids, hands)
    fit = fit_ball(
        img,
        bgf,
        det.camera,
        start,
        sz.ball_diameter,
        sz.ball_height,
        excluded=excluded,
        streak0_px=streak,
        hiders=hiders,
        bars=ball_bars(det),
    )
    if fit is None or not ball_fit_ok(fit):
        return None
    fit = beside_a_piece(det, img, bgf, fit, solids, excluded, hiders, hands)
    if fit is None or not ball_fit_ok(fit):
        return None
    if float(np.hypot(*(fit.xy_mm - start))) > reach:
        return None
    if fit.visible < _MIN_VISIBLE or fit.explained < _MIN_EXPLAINED:
        return None
    return fit if _like_the_ball(det, fit, bgf) else None


def _like_the_ball(det: Detector, fit: BallFit, bgf: NDArray[np.float32]) -> bool:
    """Of the ball's learned colour (when learned) within :data:`_COLOUR_TOL`, and scored as a
    ball at least :data:`_MIN_SCORE`."""
    ref = det.ball_colour
    if ref is not None and float(np.abs(fit.colour_bgr - ref).sum()) > _COLOUR_TOL * float(
        np.abs(ref).sum()
    ):
        return False
    return det._ball_score(fit, bgf, fit.uv_px) >= _MIN_SCORE


def ball_behind_a_box(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """The ball found at rest a moment ago beside a goalkeeper and not found now (or only far
    off, :func:`ball_out_of_reach`): fitted again there as the goal-line call does
    (:func:`vision.ball_refit.refit`: the box fitted again without the ball's silhouette, then
    the ball beside it). A box's fit takes a half-hidden ball's pixels for its own and stands
    2-3 mm and 5 degrees over it, leaving the search a pixel of it or none (the goal-line
    protocol's keeper place, rig 300). Kept as :func:`ball_where_it_was` keeps a fit, but for
    the share seen: the box hides part of it."""
    from vision.ball_refit import refit  # it imports this module's neighbours

    prior = det._ball_prior
    if prior is None or det._frames - prior[1] > _PRIOR_FRAMES:
        return None
    last = prior[0]
    if float(np.hypot(*last.streak_px)) >= 1.0:
        return None  # rolling: the search proper or the tracker
    start = np.asarray(last.xy_mm, np.float64)
    r = det.sizes.ball_diameter / 2.0
    if not any(
        x.kind == "goalkeeper"
        and float(np.hypot(*(_nearest_point(x, start) - start))) - r <= _TOUCH_MM
        for x in solids
    ):
        return None
    fit = refit(det, start, found=(solids, hands))
    if fit is None or not ball_fit_ok(fit):
        return None
    if float(np.hypot(*(fit.xy_mm - start))) > _BEHIND_MM or fit.explained < _MIN_EXPLAINED:
        return None
    return fit if _like_the_ball(det, fit, bgf) else None


def ball_beside_a_box(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """The ball beside a goalkeeper where no search found it and it was not found there a
    moment ago (:func:`ball_behind_a_box` needs that): fitted as the goal-line call does
    (:func:`vision.ball_refit.refit`) from the blobs of the ball's learned colour about the
    box. A box's fit takes a half-hidden ball's pixels for its own and stands 1-2 mm over it,
    so that no coarse pixel of the ball is left to search (a ball resting beside a box turned
    across its goal line, the first frame a clip shows it: the goal-line protocol's rig 300,
    ``tests/vision/test_keeper_first_frame.py``). Nothing is looked for before the ball's colour is
    learned from sure fits, nor about a box a hand is beside; a fit is kept only as
    :func:`ball_behind_a_box` keeps one."""
    from vision.ball_refit import refit  # it imports this module's neighbours

    ref = det.ball_colour
    if ref is None:
        return None
    boxes = [x for x in solids if x.kind == "goalkeeper" and len(x.hull)]
    if not boxes:
        return None
    sz = det.sizes
    ball_px = sz.ball_diameter / det._scale()
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    others: NDArray[np.bool_] | None = None  # the other pieces and the hands, made once needed
    h, w = img.shape[:2]
    tol = _COLOUR_TOL * float(np.abs(ref).sum())
    refs = np.asarray(ref, np.float32)
    for box in boxes:
        if not could_be_beside(det, box):
            continue
        x0, y0 = np.floor(box.hull.min(axis=0) - ball_px).astype(int)
        x1, y1 = np.ceil(box.hull.max(axis=0) + ball_px).astype(int)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        if hands[det.memory.window(hands.shape, np.array([[x0, y0], [x1, y1]], float))].any():
            # a hand about the box: what it half hides (a button's white ring beside the box,
            # gaucha seed 32 at 9616, a coach's hand taking a goal kick) may be of the ball's
            # colour, and the ball under it is the tracker's to predict
            continue
        if others is None:
            others = det._excluded([x for x in solids if x.kind != "goalkeeper"], hands)
        win = img[y0:y1, x0:x1].astype(np.float32)
        like = np.abs(win - refs).sum(axis=2) < tol
        like &= np.abs(win - bgf[y0:y1, x0:x1]).sum(axis=2) > _TABLE_LEVEL
        like &= ~others[y0:y1, x0:x1]
        # not the box's own top (a white stripe on a box beside a white ball): the ball shows
        # about its rim, within the 1-2 mm its fit stands over it
        core = np.zeros(like.shape, np.uint8)
        cv2.fillConvexPoly(core, np.round(box.hull - (x0, y0)).astype(np.int32), 1)
        k_px = max(3, round(ball_px) | 1)
        like &= cv2.erode(core, np.ones((k_px, k_px), np.uint8)) == 0
        n, _, stats, centres = cv2.connectedComponentsWithStats(like.astype(np.uint8))
        big = [k for k in range(1, n) if stats[k, 4] >= _SEED_SHARE * np.pi * ball_px**2 / 4]
        # (a blob fitted in vain is fitted again on the next frame, its pixels the same: the
        # goal-line protocol's ball at rest beside a box, fitted in vain on a frame, is found
        # on the next with its noise; remembered, three calls on rig 300 had no ball)
        for k in sorted(big, key=lambda k: -stats[k, 4])[:_SEEDS]:
            uv = centres[k] + (x0, y0)
            seed = det.camera.image_to_table(uv[None], z_c)[0]
            fit = refit(det, seed, found=(solids, hands))
            if fit is None or not ball_fit_ok(fit):
                continue
            if float(np.hypot(*(fit.xy_mm - seed))) > sz.ball_diameter:
                continue
            if fit.explained >= _MIN_EXPLAINED and _like_the_ball(det, fit, bgf):
                return fit
    return None


def could_be_beside(det: Detector, box: Solid) -> bool:
    """Whether the ball, found last at ``det._ball_prior`` when the detector's clock read
    ``det._ball_seen_s``, could lie beside ``box`` now at its top speed (the tracker's, 6 m/s);
    True when it was never found. A ball lost after a hard hit in midfield sent every frame
    after it through :func:`ball_beside_a_box`'s fits about both boxes (34 ms a frame on the
    live benchmark's clip, none found): the frames that decide a hit's events (``botao live``).

    Examples
    --------
    >>> import math
    >>> from types import SimpleNamespace as NS
    >>> box = NS(kind="goalkeeper", p=np.array([990.0, 0.0, math.pi / 2]),
    ...          size=np.array([70.0, 15.0]))
    >>> det = NS(_ball_prior=(NS(xy_mm=np.array([0.0, 0.0])), 7), _ball_seen_s=1.0, _clock=1.1,
    ...          sizes=NS(ball_diameter=10.0))
    >>> could_be_beside(det, box)  # the box 982 mm off; a tenth of a second: 600 mm at most
    False
    >>> det._clock = 1.2
    >>> could_be_beside(det, box)
    True
    >>> det._ball_prior = None
    >>> det._clock = 1.1
    >>> could_be_beside(det, box)
    True
    """
    prior = det._ball_prior
    dt = det._clock - det._ball_seen_s
    if prior is None or not np.isfinite(dt):
        return True
    at = np.asarray(prior[0].xy_mm, np.float64)
    gap = float(np.hypot(*(_nearest_point(box, at) - at)))
    return gap <= _LOST_TOP_MM_S * max(dt, 0.0) + det.sizes.ball_diameter + _TOUCH_MM
