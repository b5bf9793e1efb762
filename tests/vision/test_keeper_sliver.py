"""The ball's sliver beside a goalkeeper's box in front of it (issue 7's keeper place).

Beside a box that hides a third of it, a ball 4-6 px across shows a coarse pixel or two, and
the box's silhouette raster (every coarse pixel its outline touches) took them: the ball left
no blob and was not found (rig 300's left goal on the goal-line protocol: 21 cases of 21, and
its penalty mark once measured instead). When the first search finds no ball, a second one
leaves out of the goalkeepers' silhouettes only the pixels whose centres they cover
(:func:`vision.solids.centres_inside`).

A box placed there often stands turned in its goal, and was first fitted as a poor 'button'
whose disc covered the ball: such a 'button' is now also tried as a goalkeeper from three
more directions (:func:`vision.keeper_search.keeper_or`).

Rigs 309-317 (the protocol's rig, its true camera, the table learned from a match's first
15 s) were not used to write either: one frame a case, on rigs 312-317 the goalkeeper found
within 2 mm in 70 -> 96 of 96 places, the ball in 55 -> 75, beyond twice its sigma 5 -> 1;
on rigs 309-311 the goalkeepers 40 -> 40 of 48, the ball 34 -> 36 (one at 2.06 sigma, a
ball 1 mm short fitted 0.56 mm into the goal at a sigma of 0.27: a TOO_CLOSE call).
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np
import pytest

from tests.vision.protocol_rig import learned_rig
from tests.vision.test_keeper_ball import box_and_ball, keeper_places
from vision.solids import centres_inside

_CASES = (
    (-1.0, 20.0),
    (-0.7, -30.0),
    (0.7, 45.0),
    (1.0, 0.0),
    (-0.3, 10.0),
    (0.4, -15.0),
    (0.0, 30.0),
    (-0.5, -10.0),
)


@functools.cache
def _balls(seed: int) -> list[tuple[float, float, float]]:
    """For each keeper place (both goals): the goalkeeper's fitted distance from the truth
    (mm, inf when none is found), the ball's error along the line's normal (mm, + into the
    goal) and its sigma, NaN when no ball is reported within 20 mm of it."""
    r, det = learned_rig(seed)
    return [
        box_and_ball(found, keeper, x, dy, s)
        for s, _, x, dy, keeper, _, found in keeper_places(r, det, _CASES)
    ]


@pytest.mark.parametrize(("seed", "at_least"), [(309, 14), (313, 14), (317, 16)])
def test_the_ball_beside_a_box_in_front_of_it_is_found(seed: int, at_least: int) -> None:
    """Found in 14, 14 and 16 of the 16 keeper places (13, 8 and 10 before). Rig 309 gave 13
    after the whole suite (14 alone, or after tests/vision or any other one folder: an order
    effect whose state was not found) and 13 alone on OpenCV 5.1 (its digits on the buttons
    move their fits); 313 gave 12 there. The search stopped at the first fit scoring 0.6 (a
    painted mark's: 0.60 on one, 0.65 on the other; a button's sliver's), before the ball half
    behind the box; it no longer stops at such fits (:data:`vision.ball_search._STOP_SCORE`),
    and rig 309 finds 14 on both versions, alone, after tests/vision and in the whole suite."""
    found = [c for c in _balls(seed) if not math.isnan(c[1])]
    assert len(_balls(seed)) == 16
    assert len(found) >= at_least, _balls(seed)


@pytest.mark.parametrize("seed", [313, 317])
def test_a_box_turned_in_its_goal_beside_the_ball_is_found(seed: int) -> None:
    """Placed to hide a third of the ball, a box often stands turned, stepped back into its
    goal; first fitted as a poor 'button' (a 30 mm disc explaining half its pixels), it was
    tried as a goalkeeper only along the goal line, and lost (and the ball under the disc's
    silhouette with it): found within 2 mm in 7 of 16 places on each rig before, now in all."""
    assert all(c[0] < 2.0 for c in _balls(seed)), _balls(seed)


def test_the_ball_found_beside_a_box_is_never_sure_and_wrong() -> None:
    """Within twice its sigma in 95% of the cases, and never beyond three times it (before:
    on rigs 313 and 317, 1.15 and 1.75 mm into the goal at a sigma of 0.27 and 0.34 mm, the
    box beside the ball not found or 2.4 mm off)."""
    found = [c for seed in (309, 313, 317) for c in _balls(seed) if not math.isnan(c[1])]
    z = np.abs([err / sigma for _, err, sigma in found])
    assert np.mean(z <= 2.0) >= 0.95 and z.max() <= 3.0, found


def test_a_silhouette_keeps_only_the_pixels_whose_centres_it_covers() -> None:
    """Against the raster of every pixel the outline touches: a box's hull (px) at stride 3
    covers 54 coarse pixels' centres, the outline touches 70; every centre kept is inside."""
    hull = np.array([[10.2, 10.0], [40.0, 12.0], [38.0, 30.5], [12.0, 28.0]])
    inside = centres_inside([hull], (20, 20), 3)
    touched = np.zeros((20, 20), np.uint8)
    cv2.fillPoly(touched, [np.round((hull - 1) / 3 * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    assert inside.sum() == 54 and touched.sum() == 70
    assert not (inside & (touched == 0)).any()
    ii, jj = np.nonzero(inside)
    for i, j in zip(ii, jj, strict=True):
        assert cv2.pointPolygonTest(hull.astype(np.float32), (3.0 * j + 1, 3.0 * i + 1), False) >= 0
