"""A goalkeeper and the ball beside it on the goal line, the first frame a detector sees them
(issues 5 and 7).

``botao goal-line`` fits the ball with a detector of its own, started a second before the
moment asked about: the ball may rest beside a goalkeeper from the first frame on, with no
earlier sighting to look for it from. The goal-line protocol (``python -m
benchmarks.bench_goalline``) measured every case with one detector that had watched all the
cases before: each case inherited the last one's fits and ball, which hid two failures that a
fresh detector met on the protocol's "keeper" place of rig 300 (a box turned across its goal
line, half over the net, hiding a third of an orange ball on a pale felt):

- the box was not found: every start of its search (its blob's centre and axis, with the ball
  in the blob) stopped 8-25 mm along the box explaining a quarter of it, and none was accepted
  (``vision.solids.fit_keeper`` now fits the best of them again);
- the ball beside it was not found: the box's fit, drawn 1-2 mm over the ball, left no coarse
  pixel of it to search (``vision.ball_stay.ball_beside_a_box`` now fits it from the pixels of
  its learned colour about the box).

Each case here is a copy of one detector that learned the table, then saw the ball on plain
felt (its colour learned) and then no ball for a while, as the protocol's settled rig.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import replace

import numpy as np
import pytest

from geometry.pieces import Pieces
from simulator.render import Renderer
from simulator.state import FrameTruth, Hand
from tests.vision.protocol_rig import learned_rig
from tests.vision.test_keeper_ball import HL, R_MM, Keeper, _hiding, _scene
from vision.ball import BallFit
from vision.ball_stay import ball_beside_a_box
from vision.detect import Detector
from vision.solids import _polygons

MARGINS = tuple(np.round(np.arange(-1.0, 1.0001, 0.2), 2))
Y_MM = 20.0  # the protocol's keeper place along the goal line
_HAND_GAP_MM = 10.0


def _frame(p: Pieces, hands: tuple[Hand, ...] = ()) -> FrameTruth:
    return FrameTruth(0, 0.0, p, np.zeros((len(p), 2)), np.zeros(len(p), bool), hands=hands)


def _pieces(ball_xy: tuple[float, float], keeper: Keeper | None = None) -> Pieces:
    """:func:`tests.vision.test_keeper_ball._scene` with each goalkeeper its own goal's (A the
    left's, B the right's), as a match keeps them: the one beside the ball placed at
    ``keeper``, the other at its goal line 150 mm off the centre (None: both so)."""
    left, right = (-HL + 8.5, -150.0, np.pi / 2), (HL - 8.5, 150.0, np.pi / 2)
    if keeper is not None and ball_xy[0] < 0:
        left = keeper
    elif keeper is not None:
        right = keeper
    p = _scene(ball_xy, left)  # A1 at ``left``; B1 wherever _scene puts "the other"
    xy, angle = p.xy_mm.copy(), p.angle_rad.copy()
    xy[2], angle[2] = right[:2], right[2]
    return replace(p, xy_mm=xy, angle_rad=angle)


@functools.cache
def _settled(seed: int) -> tuple[Renderer, Detector]:
    """Rig ``seed``'s renderer and a detector that learned its table, saw the ball on plain
    felt for a second and then none for half of one."""
    r, det = learned_rig(seed)
    p = _pieces((-600.0, -450.0))
    for k in range(30):
        det.detect(r.render(_frame(p)), k, k / 30.0)
    gone = p.select(p.kind != "ball")
    for k in range(30, 45):
        det.detect(r.render(_frame(gone)), k, k / 30.0)
    assert det.ball_colour is not None
    return r, det


@functools.cache
def _cases(seed: int, side: float) -> list[tuple[float, Keeper, float, float]]:
    """For each margin: the true box, the fitted box's distance from it and the ball's (mm;
    inf where none was reported within 20 mm), on the first frame a fresh copy of the settled
    detector sees."""
    r, settled = _settled(seed)
    rows = []
    for m in MARGINS:
        x = side * (HL + R_MM + m)
        keeper = _hiding(r.camera, np.array([x, Y_MM]))
        assert keeper is not None
        found = copy.deepcopy(settled).detect(r.render(_frame(_pieces((x, Y_MM), keeper))), 60, 2.0)
        gk = found.xy_mm[found.kind == "goalkeeper"]
        box = float(np.hypot(*(gk - keeper[:2]).T).min()) if len(gk) else np.inf
        b = found.xy_mm[found.kind == "ball"]
        ball = float(np.hypot(*(b - (x, Y_MM)).T).min()) if len(b) else np.inf
        rows.append((float(m), keeper, box, ball if ball < 20.0 else np.inf))
    return rows


def test_a_box_turned_across_its_goal_line_is_found_with_the_ball() -> None:
    """Rig 300's left keeper place: the box turned 170 degrees, its centre 2-4 mm inside the
    goal. Before, 7 of the 11 boxes were found, and the ball with them; now each box is,
    within 3 mm (1.3-2.7: its fit stands over the ball), and the ball within 1 mm in 10 of
    the 11 cases, within 2 mm in all."""
    rows = _cases(300, -1.0)
    assert all(abs(k[2] - np.radians(170.0)) < 0.05 for _, k, _, _ in rows)  # the setting
    assert all(box < 3.0 for _, _, box, _ in rows), rows
    assert sum(ball < 1.0 for _, _, _, ball in rows) >= 10, rows
    assert all(ball < 2.0 for _, _, _, ball in rows), rows


@pytest.mark.parametrize(
    ("seed", "side", "before"), [(300, 1.0, 9), (301, 1.0, 9), (301, -1.0, 11)]
)
def test_the_other_keeper_places_keep_their_box_and_ball(
    seed: int, side: float, before: int
) -> None:
    """The other goal lines of rigs 300 and 301 (a white ball on a green felt among them): the
    box within 3 mm and the ball within 1 mm in as many of the 11 cases as before.

    Rig 300's right line lies under its crossbar, and the renderer draws the ball over the bar:
    where the bar's lengths at the ball's rim still show, the ball's fits take them for in
    front (``vision.ball_search.crossbars``). Over six noise draws the ball within 1 mm in 58
    of 66 cases (61 before; 9-11 a draw): the cases 0.8-1 mm past the line 1.0-1.3 mm off
    (0.75-1.15 before), the others nearer (0.04-0.55 mm, 0.12-0.69 before)."""
    rows = _cases(seed, side)
    assert sum(box < 3.0 and ball < 1.0 for _, _, box, ball in rows) >= before, rows


def _beside_a_box(
    seed: int,
    side: float,
    m: float,
    toward_mm: float,
    ball: bool = True,
    colour: bool = True,
    hand: bool = False,
) -> tuple[BallFit | None, float]:
    """:func:`vision.ball_stay.ball_beside_a_box` on the first frame of a keeper place (margin
    ``m``), the box's fit moved ``toward_mm`` toward the ball (as a fit drawn over it stands);
    ``ball=False``: no ball on the table; ``colour=False``: its colour not learned;
    ``hand=True``: a coach's fingertip :data:`_HAND_GAP_MM` beyond the box's far side, the
    arm away from the ball. The fit and the ball's true x (mm)."""
    r, settled = _settled(seed)
    det = copy.deepcopy(settled)
    if not colour:
        det.ball_colour = None
    x = side * (HL + R_MM + m)
    keeper = _hiding(r.camera, np.array([x, Y_MM]))
    assert keeper is not None
    p = _pieces((x, Y_MM), keeper)
    away = np.array(keeper[:2]) - (x, Y_MM)  # across the box, from the ball
    away /= np.hypot(*away)
    tip = np.array(keeper[:2]) + away * (7.5 + _HAND_GAP_MM)
    elbow = tip + away * 600.0
    hands = (Hand((tip[0], tip[1]), (elbow[0], elbow[1])),) if hand else ()
    det.detect(r.render(_frame(p if ball else p.select(p.kind != "ball"), hands)), 60, 2.0)
    assert det._last_found is not None and det._last_image is not None
    solids, hands = det._last_found
    k = min(
        (i for i, g in enumerate(solids) if g.kind == "goalkeeper"),
        key=lambda i: float(np.hypot(*(solids[i].p[:2] - keeper[:2]))),
    )
    box = solids[k]
    u = np.array([x, Y_MM]) - box.p[:2]
    moved = replace(box, p=box.p + np.array([*(u / np.hypot(*u) * toward_mm), 0.0]))
    poly = _polygons(det.camera, moved)
    assert poly is not None
    moved.hull = poly[2]
    solids = [*solids[:k], moved, *solids[k + 1 :]]
    return ball_beside_a_box(det, det._last_image, det._bg_full(), solids, hands), x


@pytest.mark.parametrize(("seed", "side", "m"), [(300, -1.0, -0.6), (300, -1.0, 0.4)])
def test_the_ball_is_found_from_its_colour_beside_a_box_drawn_over_it(
    seed: int, side: float, m: float
) -> None:
    """The box's fit moved 2 mm toward the ball (its silhouette then covers the ball's coarse
    pixels): the ball is fitted from the pixels of its learned colour about the box, within
    1 mm of the truth (0.2-0.6 mm: it shows a third to a half of itself); the failure rows:
    no ball's colour learned, no ball on the table, and a hand beside the box: there the ball
    is not looked for so (this one was found before), as what a hand half hides may be of its
    colour (a button's white ring beside a box, taken for the ball in gaucha seed 32's ten
    minutes at frame 9616, a touch the goalkeeper never made).
    Not found so: a ball whose visible part lies in the box's shadow (rig 300's right goal
    line), darker than its colour allows (:data:`vision.ball_stay._COLOUR_TOL`)."""
    fit, x = _beside_a_box(seed, side, m, 2.0)
    assert fit is not None
    assert float(np.hypot(fit.xy_mm[0] - x, fit.xy_mm[1] - Y_MM)) < 1.0, fit.xy_mm
    assert _beside_a_box(seed, side, m, 2.0, colour=False)[0] is None
    assert _beside_a_box(seed, side, m, 2.0, ball=False)[0] is None
    assert _beside_a_box(seed, side, m, 2.0, hand=True)[0] is None
