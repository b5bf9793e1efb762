"""A ball inside a goal on a still (:class:`vision.detect.Detector` without a learned table).

A still's model of the empty table is the felt's colour, painted lines included; a goal's net
and frame are not on it, so the still takes the image itself as the model wherever the net's
own colour shows (:meth:`vision.background.Background.still`) and reports no piece inside a
goal (``Detector._in_goal``). A ball driven into the net, the picture after every goal, was
lost so: 5 of the 9 balls missed on 60 fresh stills (``python -m benchmarks.bench_detect
--images 60 --seed 1300``).

Inside each goal the net is smooth at a ball's scale (the felt seen through it, its shade
changing over centimetres), and the frame's posts and crossbar are thin bars the camera
model places: a ball is a compact blob that differs from the median of the image about it.
Such blobs are fitted by :func:`vision.ball.fit_ball` against that median as the table, and
one seen whole, explaining its pixels and standing out from the net as a ball does, is the
ball.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.ball import BallFit, fit_ball
from vision.ball_search import _BALL_SURE, _STOP_SCORE, _hulls_mask, ball_masks
from vision.table_masks import goal_frames_coverage

if TYPE_CHECKING:
    from vision.detect import Detector
    from vision.solids import Solid

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]

_MEDIAN_BALLS = 3.0  # the net's model: the median over this many ball diameters about a pixel
_SIGMAS = 6.0  # a peak stands this many robust sigmas of the net's own above its median
_MIN_LEVEL = 30.0  # ... and at least this much (summed over the channels)
_BOX_BALLS = 0.7  # the peaks' window, in ball diameters (a ball's core)
_NEAR_PX = 0.6  # the fit's centre within this many ball diameters of its peak
_EXPLAINED = 0.7  # a ball in the net explains its pixels (the net's edges 0.5 and less)
_VISIBLE = 0.5  # and half of it at least is seen (the crossbar may hide the rest)
_BOX_SLACK_MM = 8.0  # no peak this far beyond a goalkeeper's ends (its fit errs along them)
_HAND_IN_GOAL = 0.9  # a 'hand' this much inside a goal is the net's
_ON_FRAME = 0.2  # a pixel the posts or crossbar cover this much is theirs
_EDGE_BALLS = 0.5  # a peak this many ball diameters from a net's edge is near it
_PAINTED = 0.02  # a pixel a painted line covers this much is modelled as the still's
_BLOBS = 10  # the strongest peaks fitted in each goal
_APART = 2.0  # peaks at least this many ball diameters apart


def ball_in_goal(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> tuple[float, BallFit] | None:
    """The ball inside a goal on a still, with its score (:func:`vision.ball_search.ball_score`
    against the net's model); None on a learned table (which sees the goal as the table) or
    when no peak in a goal fits a ball seen (half of it at least) that explains its pixels.

    ``solids`` are the pieces found (their pixels left out, grown) and ``hands`` the coarse
    mask of the hands: of it, a part that lies within a goal is the net's (where the net
    hangs over the rail its colour is not the net's over the felt, and the still takes it
    for a thing too large for a piece), not a hand, which reaches in from beyond the table."""
    if det.learned:
        return None
    goals = det.bg.goals
    n, lab, stats, _ = cv2.connectedComponentsWithStats(goals)
    if n < 2:
        return None
    # the buttons' and hands' pixels left out, grown; the goalkeepers' boxes, which stand in
    # front of a ball beside them, modelled (their own pixels hold no peak, nor a few mm
    # beyond their ends: a box's fit errs along its length, 6 mm on two stills without a ball,
    # and its top's end left out of it was fitted as a ball at the goal's mouth)
    excluded, hiders = ball_masks(det, solids, _beyond_goals(goals, hands))
    keepers = [x for x in solids if x.kind == "goalkeeper" and len(x.hull)]
    boxes = _hulls_mask(img.shape, [_longer_hull(det, x) for x in keepers])
    sz = det.sizes
    z_c = sz.ball_diameter / 2 if sz.ball_height >= 0.8 * sz.ball_diameter else sz.ball_height
    # the posts' and crossbar's own pixels, not grown: a ball under the bar lies beside it
    frames = goal_frames_coverage(det.camera, det.table) > _ON_FRAME
    edges = _net_edges(det)
    # the bar's pixels are neither the net's nor the ball's: left out of the fit
    unseen = excluded | frames
    best: tuple[float, BallFit] | None = None
    model: NDArray[np.float32] | None = None
    for k in range(1, n):
        x, y, w, h = (int(v) for v in stats[k, :4])
        centre = np.array([[x + w / 2.0, y + h / 2.0]])
        d_px = _ball_diameter_px(det, centre, z_c)
        if not math.isfinite(d_px) or d_px < 2.0:
            continue
        pad = math.ceil(2 * d_px)
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(img.shape[1], x + w + pad), min(img.shape[0], y + h + pad)
        crop = np.ascontiguousarray(img[y0:y1, x0:x1])
        ksize = max(5, round(_MEDIAN_BALLS * d_px) | 1)
        ref = cv2.medianBlur(crop, ksize)
        diff = cv2.absdiff(crop, ref).astype(np.float32).sum(axis=2)
        inside = (lab[y0:y1, x0:x1] == k) & ~(excluded | boxes | frames)[y0:y1, x0:x1]
        # the painted lines (the goal line between the posts) are the still's model's own
        painted = det.bg.markings[y0:y1, x0:x1] > _PAINTED
        inside &= ~painted
        sample = diff[inside]
        if len(sample) < 50:
            continue
        # a ball-sized box's mean difference (over the goal's own pixels), its peaks: a ball
        # peaks at its own level, a painted line or the net's edge (thin, long) at a fraction
        ok = inside.astype(np.float32)
        box = max(3, round(_BOX_BALLS * d_px))
        num = cv2.boxFilter(diff * ok, -1, (box, box), normalize=False)
        den = cv2.boxFilter(ok, -1, (box, box), normalize=False)
        resp = np.where(den >= 0.5 * box * box, num / np.maximum(den, 1.0), 0.0).astype(np.float32)
        sample = resp[inside]
        med = float(np.median(sample))
        sigma = 1.4826 * float(np.median(np.abs(sample - med)))
        thr = max(_MIN_LEVEL, med + _SIGMAS * sigma)
        top = cv2.dilate(resp, np.ones((box, box), np.uint8))
        # the net's edges and corners, where its faces overlap (a median rounds a corner off,
        # and the still's net shows a ball-like spot there): a peak within half a ball's width
        # of one must be a ball seen whole (_STOP_SCORE), as a ball lying in the net's back
        # corner is (0.88-0.98 on the stills that showed one; a corner 0.61)
        band = max(1, round(_EDGE_BALLS * d_px))
        near_edge = cv2.dilate(edges[y0:y1, x0:x1], np.ones((2 * band + 1, 2 * band + 1), np.uint8))
        py, px = np.nonzero((resp >= top) & (resp > thr) & inside)
        peaks: list[FloatArray] = []
        for i in np.argsort(-resp[py, px]):
            uv = np.array([px[i], py[i]], np.float64)
            if all(np.hypot(*(uv - q)) > _APART * d_px for q in peaks):
                peaks.append(uv)
                if len(peaks) == _BLOBS:
                    break
        if not peaks:
            continue
        if model is None:  # the still's model with each goal's median in it (the goals apart)
            model = bgf.copy()
        part = (lab[y0:y1, x0:x1] == k) & ~painted
        model[y0:y1, x0:x1][part] = ref[part]
        for q in peaks:
            uv0 = q + np.array([x0, y0], np.float64)
            xy0 = det.camera.image_to_table(uv0[None], z_c)[0]
            fit = fit_ball(
                img,
                model,
                det.camera,
                xy0,
                sz.ball_diameter,
                sz.ball_height,
                excluded=unseen,
                hiders=hiders,
            )
            if fit is None or not det._ball_fit_ok(fit):
                continue
            if fit.explained < _EXPLAINED or fit.visible < _VISIBLE:
                continue
            if np.hypot(*(fit.uv_px - uv0)) > _NEAR_PX * d_px or not _in_a_goal(det, fit):
                continue
            score = det._ball_score(fit, model, fit.uv_px)
            if near_edge[int(q[1]), int(q[0])] and score < _STOP_SCORE:
                continue
            if best is None or score > best[0]:
                best = (score, fit)
    return best


def still_ball_or_goal(
    det: Detector,
    ball: BallFit | None,
    img: U8,
    bgf: NDArray[np.float32],
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> BallFit | None:
    """On a still, the ball its search found (``ball``) or the one in a goal's net
    (:func:`ball_in_goal`), whichever scores more: a still shows one ball. A ball in a goal
    must score as a ball found well (``_BALL_SURE``): the net is no felt, and a crease or a
    fold of a real one is not modelled."""
    goal = ball_in_goal(det, img, bgf, solids, hands)
    if goal is None or goal[0] < _BALL_SURE:
        return ball
    if ball is None or goal[0] > det._ball_score(ball, bgf, ball.uv_px):
        return goal[1]
    return ball


def _longer_hull(det: Detector, box: Solid) -> FloatArray:
    """A goalkeeper's box as the camera sees it (hull (n, 2) px), :data:`_BOX_SLACK_MM` longer
    at each end."""
    longer = replace(box, size=(box.size[0] + 2.0 * _BOX_SLACK_MM, box.size[1]))
    uv = det.camera.table_to_image(longer.points()[0]).astype(np.float32)
    return np.asarray(cv2.convexHull(uv)[:, 0], np.float64)


def _net_edges(det: Detector) -> U8:
    """The edges of both goals' nets (h, w) uint8, a pixel wide: the box from the goal line
    to the goal's depth, across the posts' outer sides, up to the crossbar, less its open
    mouth (the posts, the crossbar and the goal line, which the search leaves out as they
    are), each edge drawn through points 5 mm apart (the lens bends it)."""
    t = det.table
    w, h = det.camera.image_size
    mask = np.zeros((h, w), np.uint8)
    yo, gh = t.goal_width / 2.0 + t.post_diameter, t.goal_height
    for s in (-1.0, 1.0):
        xs = (s * t.half_length, s * (t.half_length + t.goal_depth))
        corners = [np.array([x, y, z]) for x in xs for y in (-yo, yo) for z in (0.0, gh)]
        for i, a in enumerate(corners):
            for b in corners[i + 1 :]:
                if int(np.count_nonzero(a != b)) != 1 or a[0] == b[0] == xs[0]:
                    continue  # a diagonal, or the goal's mouth (the posts, bar and line)
                n = max(2, int(np.linalg.norm(b - a) / 5.0) + 1)
                uv = det.camera.table_to_image(np.linspace(a, b, n))
                if np.isfinite(uv).all():
                    cv2.polylines(mask, [np.round(uv).astype(np.int32)], False, 1, 1)
    return mask


def _beyond_goals(goals: U8, hands: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The coarse ``hands`` mask less its parts that lie within the goals (``goals``, full
    resolution) by :data:`_HAND_IN_GOAL` of their pixels."""
    if not hands.any():
        return hands
    hc, wc = hands.shape
    in_goal = cv2.resize(goals, (wc, hc), interpolation=cv2.INTER_NEAREST) > 0
    m, lab = cv2.connectedComponents(hands.astype(np.uint8))
    total = np.bincount(lab.ravel(), minlength=m)
    inside = np.bincount(lab[in_goal], minlength=m)
    keep = inside < _HAND_IN_GOAL * np.maximum(total, 1)
    keep[0] = False
    return np.asarray(keep[lab], np.bool_)


def _ball_diameter_px(det: Detector, uv: FloatArray, z_mm: float) -> float:
    """The ball's diameter in pixels about ``uv`` (1, 2) at height ``z_mm``."""
    xy = det.camera.image_to_table(np.vstack([uv, uv + np.array([[1.0, 0.0]])]), z_mm)
    mm_px = float(np.hypot(*(xy[1] - xy[0])))
    return det.sizes.ball_diameter / mm_px if mm_px > 1e-6 else float("nan")


def _in_a_goal(det: Detector, fit: BallFit) -> bool:
    """Whether a fit's footprint lies in a goal, past its line and between its posts."""
    t = det.table
    x, y = (float(v) for v in fit.xy_mm)
    return t.half_length < abs(x) <= t.half_length + t.goal_depth and abs(y) < t.goal_width / 2
