"""A piece carried by its coach's hand past a team-mate the arm covers (vision/tracker.py,
``Tracker._emerge``).

Gaucha's ten-minute render, seed 32, frames 6008-6022: B6, carried at 500 mm/s to a restart's
place, froze under the hand 80 mm before it passed B10, which the arm then covered; glimpsed
beyond B10 and moving on, it was given to B10's track (its frozen place 28 mm from the
glimpse, B6's 81 mm) and B6's track later took B10, seen again on its own place: the two ids
swapped for the rest of the match, and B10's 'flick' was read as the penalty kick taken (a
furada), the restart lost. A piece frozen while it moved goes on as it went (its carry): a
glimpse along that way is it.

Detections are hand-made (:func:`tests.vision.test_tracker.dets`, seeded noise 0.3-1 mm).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_tracker import dets, id_at, roster_rows, square
from vision.tracker import Tracker

START = np.array([-663.8, -40.5])  # where the carry begins
STEP = np.array([6.34, -15.87])  # mm a frame (500 mm/s)
STOP = 11  # frames carried
MATE = np.array([-604.8, -135.0])  # the team-mate it passes, 22 mm off its way
U = STEP / np.hypot(*STEP)


def _at(k: int) -> np.ndarray:
    # picked up gently (5 and 10 mm the first two frames: a hand's pace, read as a carry),
    # then on at 500 mm/s; set down after STOP frames
    along = [0.0, 5.0, 15.0][k] if k < 3 else 15.0 + (min(k, STOP) - 2) * float(np.hypot(*STEP))
    return START + along * U


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("held", [False, True])
def test_a_piece_carried_past_a_covered_team_mate_keeps_its_id(
    seed: int, mirror: bool, held: bool
) -> None:
    """``held``: the fingers on it while it is seen (carried: not flagged moving), else
    behind it (pushed)."""
    rng = np.random.default_rng(seed)
    flip = np.array([-1.0, 1.0]) if mirror else np.ones(2)
    team = "A" if mirror else "B"
    rows = roster_rows()
    if mirror:  # the same on the other half, by the other team
        rows = [(k, t, -x, y) for k, t, x, y in rows]
    base = 12 if not mirror else 1  # the team's first button row
    rows[base + 5] = ("button", team, *(START * flip))
    rows[base + 9] = ("button", team, *(MATE * flip))
    carried, mate = rows[base + 5], rows[base + 9]
    rest = [r for r in rows if r not in (carried, mate)]
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    id_carried = id_at(tf, carried[2], carried[3])
    id_mate = id_at(tf, mate[2], mate[3])
    assert id_carried and id_mate
    arm = square(*(MATE * flip), 45.0)  # the arm over the team-mate
    for k in range(1, 18):
        p = _at(k) * flip
        seen: list[tuple[str, str, float, float]] = []
        hands: list[np.ndarray] = []
        if k <= 3:  # pushed along, the fingers behind it, or held at its edge: seen
            side = np.array([-U[1], U[0]]) * flip
            hand = (
                square(*(p + 20.0 * side), 25.0) if held else square(*(p - 60.0 * U * flip), 35.0)
            )
            hands.append(hand)
            seen.append(("button", team, *p))
        elif k in (8, 10, 11):  # glimpsed beyond the team-mate, the hand ahead of it
            hands.append(square(*(p + 60.0 * U * flip), 35.0))
            seen.append(("button", team, *p))
        elif k <= STOP:  # under the hand
            hands.append(square(*p, 45.0))
        else:  # put down
            seen.append(("button", team, *p))
        if 7 <= k <= 12:
            hands.append(arm)
        else:
            seen.append(mate)
        tf = tr.update(dets(rest + seen, k, rng, hands=hands))
    end = _at(STOP) * flip
    assert id_at(tf, *end) == id_carried
    assert id_at(tf, mate[2], mate[3]) == id_mate


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("hand", "jumps"), [(False, False), (True, True)])
def test_a_goalkeeper_jumps_only_under_its_coachs_hand(seed: int, hand: bool, jumps: bool) -> None:
    """Gaucha's ten minutes, seed 32, frame 14657: the goalkeeper, its box unseen for a
    frame, took a box-like fit of a button flicked past the goal 82 mm off; the ball's start
    went to it. Only its coach's hand moves a goalkeeper (000 Art. 3; 001 Art. XIV): with a
    hand on it the same sighting is it, moved."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    keeper = rows[0]
    rest = rows[1:]
    tr = Tracker()
    tf = tr.update(dets(rows, 0, rng))
    kid = id_at(tf, keeper[2], keeper[3])
    away = ("goalkeeper", "A", keeper[2] + 20.0, keeper[3] - 80.0)
    for k in range(1, 7):
        # the hand on the box for frames 2-3 (moving it), or nothing but a box-like fit away
        # for a frame, the box itself unseen then
        hands = [square(keeper[2], keeper[3] - 40.0, 50.0)] if hand and k in (2, 3) else []
        if k < 3:
            seen = [keeper]
        elif k == 3:
            seen = [away]
        else:
            seen = [away] if jumps else [keeper]
        tf = tr.update(dets(rest + seen, k, rng, hands=hands))
        if k == 3 and not jumps:
            assert id_at(tf, away[2], away[3]) is None
    at = away if jumps else keeper
    assert id_at(tf, at[2], at[3]) == kid
