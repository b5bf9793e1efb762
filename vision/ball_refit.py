"""The goal-line call's fresh fit of the ball about a known place, for
:class:`vision.detect.Detector` (a function of the detector, ``det``, that is its method): the
ball fitted on the last image the detector saw, and a goalkeeper beside it fitted again
without the ball's pixels, the ball then fitted beside the box where it stands.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.ball import BallFit, ball_outline, fit_ball
from vision.ball_search import (
    _TOUCH_MM,
    _nearest_point,
    ball_bars,
    ball_fit_ok,
    ball_masks,
    beside_a_piece,
)
from vision.solids import Solid

if TYPE_CHECKING:
    from vision.detect import Detector

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]
_BALL_EDGE_PX = 2  # the ball's blurred edge (px) left out of a goalkeeper's fit beside it
# a goalkeeper fitted again beside the ball moves no further from its first fit than this
_REFIT_STEP_MM = 6.0
_REFIT_TURN = 0.15  # rad
# its starts: turned (deg) and shifted across its long side (mm) from the first fit
_REFIT_STARTS = ((0.0, 0.0), (-4.0, 0.0), (4.0, 0.0), (0.0, -3.0), (0.0, 3.0))


def refit(
    det: Detector,
    xy0_mm: FloatArray,
    streak0_px: FloatArray | None = None,
    found: tuple[list[Solid], NDArray[np.bool_]] | None = None,
) -> BallFit | None:
    """A fresh fit of the ball near ``xy0_mm`` on the last image :meth:`detect` saw, the
    pieces and hands it found left out. In a video, :meth:`detect` keeps the ball's last
    fit while its pixels at the coarse stride do not change, which a ball creeping a
    fraction of a pixel does not: a call that turns on tenths of a millimetre refits.

    Where the fit lies beside a goalkeeper's box that hides part of it, the box is fitted
    again without the ball's pixels (:func:`keepers_beside`) and the ball once more beside
    it: the box's fit kept from earlier frames, or drawn toward the ball's pixels, left a
    gap or an overlap of 1-4 mm that widened the ball's sigma by half of it. Where no ball
    fits at all, the boxes beside the place are fitted again first (one drawn over the ball
    may hide all of it).

    ``found``: the solids and hands of the image (during :meth:`detect`, before it keeps
    them); by default those it kept."""
    if det._last_image is None or (found is None and det._last_found is None):
        return None
    solids, hands = found if found is not None else det._last_found  # type: ignore[misc]
    sz = det.sizes
    img, bgf = det._last_image, det._bg_full()
    fit: BallFit | None = None
    xy = np.asarray(xy0_mm, float)
    boxes_first = False
    for round_ in range(3):
        excluded, hiders = ball_masks(det, solids, hands)
        again = fit_ball(
            img,
            bgf,
            det.camera,
            xy,
            sz.ball_diameter,
            sz.ball_height,
            excluded=excluded,
            streak0_px=streak0_px,
            hiders=hiders,
            bars=ball_bars(det),
        )
        again = beside_a_piece(det, img, bgf, again, solids, excluded, hiders, hands)
        if round_ and not ball_fit_ok(again):
            break  # the first round's fit stands
        if not round_ and not ball_fit_ok(again) and not boxes_first:
            # no fit at all: a box drawn over the ball's pixels may hide all of it (rig 300's
            # keeper place: 2-3 mm and 5 degrees toward it); the boxes beside the place the
            # ball is looked for fitted again without it, then the ball
            moved = keepers_beside(det, img, bgf, xy, solids, hands)
            if moved is None:
                break
            solids, boxes_first = moved, True
            continue
        fit = again
        if fit is None or not ball_fit_ok(fit) or not math.isfinite(fit.box_gap_mm):
            break
        # a goalkeeper beside the ball: fitted afresh on this image without the ball's pixels
        moved = keepers_beside(det, img, bgf, fit.xy_mm, solids, hands)
        if moved is None:
            break
        solids, xy = moved, fit.xy_mm
    return fit


def keepers_beside(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    xy_mm: FloatArray,
    solids: list[Solid],
    hands: NDArray[np.bool_],
) -> list[Solid] | None:
    """The solids with each goalkeeper whose box lies within :data:`_TOUCH_MM` of the ball's
    fit fitted again from its pose on this image, the ball's silhouette (grown by its blurred
    edge) and the other pieces and hands left out; None when none moved.

    Beside a ball, a box's fit takes the ball's pixels for its own and stands toward it
    (0.1-2 mm toward it on 82 of 84 keeper places of the goal-line protocol's rigs 300, 301), and
    in a video its fit is kept while its pixels at the coarse stride do not change (a box
    first fitted 4 degrees off stayed so over 21 cases): the ball's fit beside it then sees
    a gap or an overlap that no ball and box at rest show, and its sigma grows by half of it
    (:func:`vision.detect.ball_sigma_mm`)."""
    sz = det.sizes
    r = sz.ball_diameter / 2.0
    near = [
        x
        for x in solids
        if x.kind == "goalkeeper"
        and float(np.hypot(*(_nearest_point(x, xy_mm) - xy_mm))) - r <= _TOUCH_MM
    ]
    if not near:
        return None
    w, h = det.camera.image_size
    ball = np.zeros((h, w), np.uint8)
    outline = ball_outline(det.camera, xy_mm, sz.ball_diameter, sz.ball_height)
    if not np.isfinite(outline).all():
        return None
    cv2.fillConvexPoly(ball, np.round(outline).astype(np.int32), 1)
    grown = cv2.dilate(ball, np.ones((2 * _BALL_EDGE_PX + 1,) * 2, np.uint8)) > 0
    out, moved = list(solids), False
    for g in near:
        others = [x for x in solids if x.kind != "goalkeeper"]
        excluded = det._excluded(others, hands) | grown
        c, sn = math.cos(g.p[2]), math.sin(g.p[2])
        best: Solid | None = None
        # from its pose and beside it (a fit kept from an earlier frame may sit in a local
        # minimum: seen 4-5 degrees and 4 mm off)
        for da, dw in _REFIT_STARTS:
            p0 = g.p + np.array([-sn * dw, c * dw, math.radians(da)])
            again = det._fit(img, bgf, replace(g, p=p0), excluded, fit_size=False)
            step = float(np.hypot(*(again.p[:2] - g.p[:2])))
            turn = abs((float(again.p[2] - g.p[2]) + math.pi / 2) % math.pi - math.pi / 2)
            if not (det._good(again) and step <= _REFIT_STEP_MM and turn <= _REFIT_TURN):
                continue
            if best is None or again.robust > best.robust:
                best = again
        if best is not None:
            out[next(i for i, x in enumerate(out) if x is g)] = best
            moved = True
    return out if moved else None
