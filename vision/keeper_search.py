"""Goalkeepers for :class:`vision.detect.Detector` (functions of the detector, ``det``, that
are its methods): where a goalkeeper may stand, a box fitted from a blob's centre and axis
(:func:`vision.solids.fit_keeper`), and a 'button' on a goal line asked whether it is the
goalkeeper seen end on.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from vision.solids import (
    Solid,
    explained_together,
    fit_keeper,
    refit_keeper,
)
from vision.table_masks import goal_frames, goal_frames_coverage

if TYPE_CHECKING:
    from vision.detect import Detector

FloatArray = NDArray[np.float64]
U8 = NDArray[np.uint8]
_KEEPER_OR_BELOW = 0.7  # a 'button' in a penalty area explaining less may be a goalkeeper
# between the posts a box explaining this much less than a disc may still be the goalkeeper
_KEEPER_PRIOR = 0.1
_KEEPER_OR_TURNS = (0.0, math.pi / 4, 3 * math.pi / 4)  # a poor 'button''s other starts (rad)
_AGAIN_REACH_MM = 15.0  # a goalkeeper fitted again from last frame's pose moved no further


def keeper_or(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    x: Solid,
    hands: NDArray[np.bool_] | None = None,
) -> Solid:
    """A 'button' on a goal line, between the goal area's ends, may be the goalkeeper seen
    end on: whichever model explains the pixels better wins. In a video a poor 'button'
    (explaining less than :data:`_KEEPER_OR_BELOW`) is also tried as a box turned off the
    line (:data:`_KEEPER_OR_TURNS`): a box stepped back into its goal beside the ball, 40
    degrees off the line, was fitted as a 30 mm disc over the ball, the box lost (the
    goal-line protocol's keeper places on rigs 312-317: 70 -> 96 of 96 found). Not beside a
    coach's hand (``hands``, the coarse mask): an arm across a goal area leaves 'buttons'
    on its edge, four on the seed-3 clip's frame 961, each tried four times in vain."""
    t = det.table
    if abs(abs(x.p[0]) - t.half_length) > 60.0 or abs(x.p[1]) > t.goal_area.width / 2.0:
        return x
    none = np.zeros(img.shape[:2], bool)
    # in a video from the button's centre only: the search around it (17 more fits) ran
    # for every button moving on a goal line; a still searches (an end-on goalkeeper's
    # first fit as a button may sit off its centre)
    reach = det.sizes.goalkeeper_length / 2

    def near(k: Solid | None) -> bool:
        # (a start on the goal's centre finds the real goalkeeper, elsewhere)
        return k is not None and float(np.hypot(*(k.p[:2] - x.p[:2]))) <= reach

    g = det._keeper(img, bgf, x.p[:2], math.pi / 2, none, around=not det.learned)
    beside = len(x.hull) > 0 and det._beside_hand(x.hull, hands)
    if det.learned and not near(g) and x.inliers < _KEEPER_OR_BELOW and not beside:
        # a box turned on its line (stepped back into its goal beside the ball, 40 degrees
        # off the line) is not found from the line's direction: from three more, one each
        for ang in _KEEPER_OR_TURNS:
            k = det._keeper(img, bgf, x.p[:2], ang, none, around=False)
            if near(k) and (g is None or not near(g) or k.inliers > g.inliers):  # type: ignore[union-attr]
                g = k
    if g is None or not near(g):
        return x
    if g.inliers > x.inliers:
        return g
    if g.inliers >= x.inliers - _KEEPER_PRIOR and abs(x.p[1]) <= t.goal_width / 2.0:
        x.alt = g
    return x


def keepers_again(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    kept: list[Solid],
    hands: NDArray[np.bool_],
) -> list[Solid]:
    """In a video, last frame's goalkeepers whose pixels changed (a coach's hand beside them,
    not kept: :meth:`vision.frame_memory.FrameMemory.unchanged`), each fitted again from
    where it stood, kept (with its team) where it still explains its pixels within
    :data:`_AGAIN_REACH_MM` of there.

    The blob searches start from a blob's centre and axis, and a forearm across the goal
    area joins the box's blob: on the 10-minute brasileira match (seed 31, frame 14090) the
    goalkeeper beside an arm taking a goal kick was not found for a frame, a box was fitted
    on the arm instead, and the box's white stripe, left to the ball search, was taken for
    the ball 9 mm inside the goal: a goal. Fitted from its last pose, it is found (0.89 of
    its pixels explained), and its pixels are no one else's."""
    ids = {id(x) for x in kept}
    stale = [
        x
        for x, _, _ in det.memory.things
        if isinstance(x, Solid) and x.kind == "goalkeeper" and id(x) not in ids
    ]
    if not stale:
        return []
    excluded = det._excluded([x for x in kept if x.kind != "goalkeeper"], hands)
    out = []
    for old in stale:
        g = refit_keeper(
            det.camera, img, bgf, old, excluded, det._good, det._floor, _AGAIN_REACH_MM
        )
        if g is not None:
            g.team, g.team_conf = old.team, old.team_conf
            out.append(g)
    return out


def keeper_each_goal(solids: list[Solid]) -> list[Solid]:
    """A goal with no goalkeeper found takes the box a 'button' between its posts nearly
    explained (:func:`keeper_or`): each team has one (000 REGRA 3; 001 Art. XVI § 1: under
    the goal or in the small area), and a box seen end on, its side faces and shadow seen
    under a tilted camera, is as round as a disc (offside drill 4005: gaucha's 60 x 34 mm box,
    striped, explained 0.78 as a box and 0.81 as a 63.5 mm disc; its corners were then taken
    for the ball)."""
    out = list(solids)
    for side in (-1.0, 1.0):
        if any(x.kind == "goalkeeper" and side * float(x.p[0]) > 0.0 for x in out):
            continue
        cands = [
            i
            for i, x in enumerate(out)
            if x.kind == "button" and x.alt is not None and side * float(x.p[0]) > 0.0
        ]
        if not cands:
            continue
        i = max(cands, key=lambda i: out[i].alt.inliers)  # type: ignore[union-attr]
        g = out[i].alt
        assert g is not None
        g.team, g.team_conf = out[i].team, out[i].team_conf
        out[i] = g
    return out


def goal_mouths(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    rest: NDArray[np.bool_],
    found: list[Solid],
    hands: NDArray[np.bool_],
) -> list[Solid]:
    """Each team has its goalkeeper in its penalty area: on a still where one side has
    none, it is looked for there again, in the goal's mouth first.

    - On its line, pale over a pale net, a box can fall apart into blobs each too small to
      search (three of a third of its area each): what the pieces left in front of the
      goal's mouth is searched together, from the goal line.
    - Off its line, turned (000, "O goleiro na grande área"), a box seen from a tilted
      camera is wide enough to seed a button: the 'buttons' in the penalty area that
      explain their pixels poorly are fitted as boxes too, the best box better than its
      button kept (:func:`distinct` then drops the button). Only where a goalkeeper is
      missing: a black button's white stripe fits as a box better than the button does."""
    t, sz = det.table, det.sizes
    xy, area = det._xy_sub[rest], det._px_mm2[rest]
    out: list[Solid] = []
    excluded: NDArray[np.bool_] | None = None
    for sx in (-1.0, 1.0):
        # (a box found by its top's rims only, ``weak``, may be this search's box badly fitted:
        # still 2334 of bench_detect --seed 2300, 5.8 mm into its goal; the better of the two
        # is kept by one_fit_a_box)
        if any(x.kind == "goalkeeper" and x.p[0] * sx > 0 and not x.weak for x in found):
            continue
        g = None
        ax = xy[:, 0] * sx
        near = (ax >= t.half_length - t.goal_area.depth) & (
            ax <= t.half_length + sz.goalkeeper_height
        )
        near &= np.abs(xy[:, 1]) <= (t.goal_width + sz.goalkeeper_length) / 2.0
        if area[near].sum() >= 0.35 * sz.goalkeeper_length * sz.goalkeeper_width:
            y = float(np.clip(np.mean(xy[near, 1]), -t.goal_width / 2.0, t.goal_width / 2.0))
            c = np.array([sx * (t.half_length - sz.goalkeeper_width / 2.0), y])
            if excluded is None:
                excluded = det._excluded([x for x in found if x.kind != "goalkeeper"], hands)
            g = det._keeper(img, bgf, c, math.pi / 2, excluded)
        poor = [
            x
            for x in found
            if g is None
            and x.kind == "button"
            and x.p[0] * sx > 0
            and x.inliers < _KEEPER_OR_BELOW
            and det._keeper_place(x.p[:2])
        ]
        for x in poor:
            others = [y for y in found if y.kind != "goalkeeper" and y is not x]
            k = det._keeper(img, bgf, x.p[:2], math.pi / 2, det._excluded(others, hands))
            if k is not None and k.inliers > x.inliers and (g is None or k.inliers > g.inliers):
                g = k
        if g is not None:
            out.append(g)
    return out


_SAME_FIT_MM = 2.0  # goalkeeper fits of one box this near each other are one fit


def one_fit_a_box(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    keepers: list[Solid],
    excluded: NDArray[np.bool_] | None,
) -> list[Solid]:
    """Of the goalkeeper fits that lie on one box (their centres nearer than its length less 5
    mm, as :func:`vision.solids.distinct` takes them), the one that explains the pixels near
    all their outlines best (:func:`vision.solids.explained_together`), not the one that
    explains its own best: under a tilted camera a box's side face is seen as large as its
    top, and a fit with its top on that face left the true top beyond its pixels and won
    (0.78 against 0.52-0.59; stills 2121 and 2314 of ``bench_detect``, 27-33 mm off)."""
    if len(keepers) < 2:
        return keepers
    if not det.learned:  # as keeper_at fits them on a still
        frames = det._goal_frames()
        excluded = frames if excluded is None else excluded | frames
    near = det.sizes.goalkeeper_length - 5.0
    out: list[Solid] = []
    for g in sorted(keepers, key=lambda q: -q.inliers):
        gap = [float(np.hypot(*(g.p[:2] - k.p[:2]))) for k in out]
        j = next((j for j, d in enumerate(gap) if d <= near), None)
        if j is None:
            out.append(g)
        elif gap[j] > _SAME_FIT_MM:
            shares = explained_together(det.camera, img, bgf, [out[j], g], excluded, det._floor)
            if shares[1] > shares[0]:
                out[j] = g
    return out


def keeper_place(det: Detector, xy: FloatArray) -> bool:
    """Whether a goalkeeper may stand at ``xy``: in a penalty area (30 mm margin), where
    the game keeps it (a box elsewhere is a button half under a hand, a finger)."""
    t = det.table
    depth = t.penalty_area.depth + 30.0
    return (
        abs(float(xy[0])) >= t.half_length - depth
        and abs(float(xy[1])) <= t.penalty_area.width / 2.0 + 30.0
    )


def keeper_at(
    det: Detector,
    img: U8,
    bgf: NDArray[np.float32],
    c: FloatArray,
    ang: float,
    excluded: NDArray[np.bool_],
    around: bool = True,
) -> Solid | None:
    sz = det.sizes
    if not det.learned:  # a still's model of the table lacks the goals' frames
        excluded = excluded | det._goal_frames()
    return fit_keeper(
        det.camera,
        img,
        bgf,
        (c, ang),
        (sz.goalkeeper_length, sz.goalkeeper_width),
        sz.goalkeeper_height,
        excluded,
        det.table.half_length,
        det._good,
        det._floor,
        around,
        # on the frames' median a goalkeeper missed is left in the learned table (a grey box
        # on a grey felt looks like its shadow: top level 23); in its goal, where only what
        # the fits found is painted over, its rim stayed a ghost that a 'ball' was fitted
        # to, 9-22 mm inside the goal, for good (a ball explains its pixels: never healed).
        # A box on the felt's shading painted over costs nothing: it is felt.
        min_level=0.0 if det._learning else None,
    )


def goal_frames_mask(det: Detector) -> NDArray[np.bool_]:
    """The goals' posts and crossbars (:func:`vision.table_masks.goal_frames`), which a
    still's model of the table lacks (it keeps the net's colour only): beside a goalkeeper
    on its line, a white bar it does not explain made a true fit explain 0% of its pixels."""
    if det._frames_mask is None:
        det._frames_mask = goal_frames(det.camera, det.table) > 0
    return det._frames_mask


def crossbars_mask(det: Detector) -> NDArray[np.bool_]:
    """The pixels the goals' crossbars cover at all (their anti-aliased outline, no margin):
    where a bar a goalkeeper hid while the table was learned shows as a ghost once it moves.
    Not the posts: a ball beside a post (its sliver beyond the post's outline) is the ball."""
    if det._bars_mask is None:
        det._bars_mask = goal_frames_coverage(det.camera, det.table, posts=False) > 0
    return det._bars_mask
