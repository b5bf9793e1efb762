"""The goal-line call's refit beside a goalkeeper (:func:`vision.ball_refit.refit`, issue 7).

In a video the detector keeps a goalkeeper's fit while its pixels at the coarse stride do not
change, and beside the ball a box's fit is drawn toward the ball's pixels: on the goal-line
protocol's rigs 300 and 301 the boxes beside the ball stood 0.1-4 mm off (toward the
ball, one 4.3 degrees turned, kept over 21 cases), and the ball's sigma, which grows by half the
gap or overlap between the ball and the box, made right calls TOO_CLOSE (0.7-1.1 mm). The
refit fits the box again without the ball's pixels, then the ball beside it.

Here the box is set off as such kept fits were (2 mm toward the ball, 4 degrees turned) on
rendered keeper places of rigs not used to write the refit (the protocol's rig, its true
camera, the table learned from a match's first 15 s).
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace

import numpy as np
import pytest

import vision.ball_refit as ball_refit
from tests.vision.protocol_rig import learned_rig
from tests.vision.test_keeper_ball import keeper_places
from vision.detect import ball_sigma_mm
from vision.solids import _polygons

_CASES = ((-0.7, 20.0), (0.7, -30.0), (-0.3, 10.0), (0.4, -15.0))
_KEEPERS_BESIDE = ball_refit.keepers_beside


@functools.cache
def _refits(seed: int) -> list[tuple[float, float, float, float, float]]:
    """For each keeper place where the ball is found: the box's distance from the truth as set
    off and as fitted again (mm), the ball's error along the line's normal (mm) and its sigma
    with the box fitted again, and its sigma with the box left where it was set."""
    r, det = learned_rig(seed)
    out = []
    for s, _, x, dy, keeper, _, found in keeper_places(r, det, _CASES):
        ball = np.flatnonzero(found.kind == "ball")
        ball = ball[np.hypot(*(found.xy_mm[ball] - (x, dy)).T) < 20.0]
        solids, hands = det._last_found
        gk = [i for i, g in enumerate(solids) if g.kind == "goalkeeper"]
        if not len(ball) or not gk:
            continue
        i = min(gk, key=lambda j: float(np.hypot(*(solids[j].p[:2] - keeper[:2]))))
        if np.hypot(*(solids[i].p[:2] - keeper[:2])) > 3.0:
            continue  # another goalkeeper, or none here
        # set off as a kept fit: 2 mm toward the ball, turned 4 degrees
        g = solids[i]
        u = np.array([x, dy]) - g.p[:2]
        u /= np.hypot(*u)
        off = replace(g, p=g.p + np.array([*(2.0 * u), math.radians(4.0)]))
        polys = _polygons(det.camera, off)
        assert polys is not None
        off.hull = polys[2]
        det._last_found = ([*solids[:i], off, *solids[i + 1 :]], hands)
        seen: list[list] = []

        def spy(*a: object, _seen: list[list] = seen) -> object:
            got = _KEEPERS_BESIDE(*a)  # type: ignore[arg-type]
            _seen.append(got or [])
            return got

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ball_refit, "keepers_beside", lambda *a: None)
            kept = det.refit_ball(found.xy_mm[ball[0]])
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ball_refit, "keepers_beside", spy)
            fit = det.refit_ball(found.xy_mm[ball[0]])
        if fit is None or kept is None or not seen:
            continue
        boxes = [b for b in seen[0] if b.kind == "goalkeeper"]
        again = min(float(np.hypot(*(b.p[:2] - keeper[:2]))) for b in boxes) if boxes else math.inf
        out.append(
            (
                float(np.hypot(*(off.p[:2] - keeper[:2]))),
                again,
                float(fit.xy_mm[0] - x) * s,
                ball_sigma_mm(fit),
                ball_sigma_mm(kept),
            )
        )
    return out


@pytest.mark.parametrize("seed", [307, 308])
def test_a_box_set_off_beside_the_ball_is_fitted_again_where_it_stands(seed: int) -> None:
    """Set 1.1-2.5 mm off, the box fitted again without the ball's pixels stands within
    0.6 mm of the truth (measured: 0.19-0.60 mm on these rigs)."""
    calls = _refits(seed)
    assert len(calls) >= 4
    for set_off, again, _, _, _ in calls:
        assert set_off > 1.0 and again < 1.0, calls


@pytest.mark.parametrize("seed", [307, 308])
def test_the_ball_beside_the_box_fitted_again_is_never_sure_and_wrong(seed: int) -> None:
    """The ball's error along the line's normal stays within twice its sigma, and the sigma
    drops to what the fits know: the gap the box set off left (0.4-1.1 mm) is gone."""
    calls = _refits(seed)
    assert len(calls) >= 4
    for _, _, err, sigma, _ in calls:
        assert abs(err) <= 2.0 * sigma, calls
    assert np.median([c[3] for c in calls]) < 0.75 * np.median([c[4] for c in calls]), calls
