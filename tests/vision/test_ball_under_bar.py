"""A ball under a crossbar as the camera sees it (issues 5 and 7).

A crossbar stands higher than any piece and the camera looks down from over the field: whatever
lies under the bar's image is behind it. On the goal-line protocol's rig 300 (an orange ball on
a pale felt, ``python -m benchmarks.bench_goalline --seed 300 --bars-over``) the right goal line
lies under its bar: a ball on the line shows two slivers either side of the bar. Before the bars
were pieces in front of the ball, its fits took the bar's pixels for a missing ball: 7 of these
16 calls made, each NO GOAL, 2.4-3 mm short, and no ball found past the line (the blob on the
bar taken for the bar's own ghost, the slivers' colour, the ball's mixed with the felt's, scored
as no ball's).

Now the lengths of a bar that the image shows stand in front of the ball in its fits
(``vision.ball_search.crossbars``, ``vision.ball.fit_ball``'s ``bars``), a blob on a bar with the
ball's colour (diluted) beside it, unlike the table's model there, is no ghost, and a fit under
a bar is scored against the ball's colour diluted toward the felt. Where the image shows the
ball over the bar instead (a renderer that draws it so, the default's), the bar is not taken
for in front, and those calls are as before.
Rows: each side of the line at four places (the centre, beside each post, the protocol's keeper
place), on both renders, the call and its margin; the failure row: the ball away from the bar,
no ball on it.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from benchmarks import bench_goalline as bg
from vision.ball import ball_outline, hidden_share
from vision.ball_search import crossbars
from vision.table_masks import crossbar_hulls

HL, GW = bg.TABLE.half_length, bg.TABLE.goal_width / 2.0
_PLACES = {"centre": 0.0, "post+": GW - bg.R_MM - 1.0, "post-": -(GW - bg.R_MM - 1.0)}


@functools.cache
def _rig(over: bool = True) -> bg.Rig:
    rig = bg.make_rig(300, bars_over=over)
    assert rig.ok  # calibrated from its own frames, as the protocol does
    return rig


@pytest.mark.parametrize("over", [True, False])
@pytest.mark.parametrize("margin", [-1.0, -0.6, 0.6, 1.0])
@pytest.mark.parametrize("place", ["centre", "post+", "post-", "keeper"])
def test_a_ball_on_the_line_under_the_bar_is_called(place: str, margin: float, over: bool) -> None:
    rig = _rig(over)
    ball = np.array([HL + bg.R_MM + margin, _PLACES.get(place, 20.0)])
    # the case is one: the bar hides a third of the ball or more
    bars = crossbar_hulls(rig.true_cam, bg.TABLE)
    assert hidden_share(rig.true_cam, ball, 2 * bg.R_MM, 2 * bg.R_MM, bars) > 0.3
    keeper = bg._keeper_hiding(rig, ball) if place == "keeper" else None
    call = bg.static_call(rig, ball, keeper)
    assert call.decision == ("GOAL" if margin > 0 else "NO_GOAL"), call
    # within half a millimetre, or within the call's own two sigma (the keeper place's +1 mm
    # on the default render: 2.0 +/- 0.65 before these changes, as now)
    assert abs(call.margin_mm - margin) < max(0.5, 2.0 * call.sigma_mm), call


def test_no_ball_on_the_bar_while_the_ball_is_away() -> None:
    """The failure row: the ball 60 mm out in the field, the bar bare: one ball, where it is."""
    rig = _rig()
    ball = np.array([HL - 60.0, 30.0])
    pieces = bg._pieces((float(ball[0]), float(ball[1])), None)
    det = bg._fresh(rig)
    for k in range(3):
        found = det.detect(rig.renderer.render(bg._frame(90 + k, pieces)), 90 + k, (90 + k) / 30)
        xy = found.xy_mm[found.kind == "ball"]
        assert len(xy) == 1 and np.hypot(*(xy[0] - ball)) < 1.0, (k, xy)


@pytest.mark.parametrize("over", [True, False])
def test_the_bar_stands_in_front_where_it_is_shown(over: bool) -> None:
    """:func:`vision.ball_search.crossbars`: the bar's lengths over the ball's footprint are in
    front of it where the image shows the bar (a camera's view: the bar drawn over the ball),
    and not where the image shows the ball instead (a renderer that draws the ball over the
    bar: taken for hidden, the ball was lost). Failure row: with no ball, every length of the
    bars is shown."""
    rig = _rig(over)
    det = bg._fresh(rig)
    ball = np.array([HL + bg.R_MM + 0.6, 0.0])
    pieces = bg._pieces((float(ball[0]), float(ball[1])), None)
    det.detect(rig.renderer.render(bg._frame(90, pieces)), 90, 3.0)
    shown = crossbars(det)
    every = det._bar_hulls[0]  # type: ignore[index]
    outline = ball_outline(det.camera, ball, 2 * bg.R_MM, 2 * bg.R_MM)
    centre = outline.mean(axis=0)
    # the lengths whose middle lies within the ball's middle third, as the camera sees it
    radius = np.abs(outline - centre).max()
    under = [q for q in every if np.hypot(*(q.mean(axis=0) - centre)) < radius / 3.0]
    assert under, "no length of the bar over the ball"
    in_front = [any(q is s for s in shown) for q in under]
    assert all(in_front) if over else not any(in_front), in_front
    # away from the ball every length is shown, on both renders
    far = [q for q in every if np.hypot(*(q.mean(axis=0) - centre)) > 3.0 * radius]
    assert all(any(q is s for s in shown) for q in far)
    # the failure row: the ball away, every length shown
    away = bg._pieces((HL - 60.0, 30.0), None)
    det.detect(rig.renderer.render(bg._frame(91, away)), 91, 91 / 30)
    assert len(crossbars(det)) == len(every)
