"""A fit on the hand is not the piece the hand flicks (vision/tracker.py: the assignment's
gate for a resting piece a hand covers, and a frozen piece's return).

Gaucha's ten minutes (seed 44, frames 491-512, ``data/flick_away_from_hand.json``): A11,
resting at (440.9, -371.6) beside its coach's hand, was flicked into the ball (the simulator's
time 497.81) and on into B2 (498.19). For frames the detector had fitted a button on the
hand's fingertip, 48 mm from A11's place, unexplained beside A11 seen on its place; at 497 it
gave two fits: A11 on its way, 56 mm off toward the field, and the fingertip's. The track took
the fingertip, froze there under the hand, and when A11 was seen again 240 mm on its way the
touch went unread: the goal kick at 521 was given to the wrong team (001 Art. XXXIV: the team
that did not touch the ball last). A sighting that was there, unexplained, while the piece was
seen on its place is something else; so it is for a frozen piece's return (the fingertip's fit
alone at 497, A11's own lost in its blur).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from tests.vision.scenes import mirror_x, scene_detections
from tests.vision.test_tracker import id_at
from vision.detections import Detections
from vision.tracker import Tracker

SCENE = "flick_away_from_hand.json"
REST = (440.94, -371.75)  # A11's place until 496
TRUE_497, HAND_497 = (496.81, -322.80), (423.45, -416.04)  # the two fits at 497
TRUE_502 = (618.65, -72.60)  # the simulator's (618.8, -72.7)


def _frames(seed: int | None, mirror: bool, drop_true: bool) -> Iterator[Detections]:
    sx = mirror_x(mirror)
    for d in scene_detections(SCENE, seed, mirror):
        if drop_true and d.frame == 497:
            # A11's own fit lost in its blur: only the fingertip's is left
            far = np.hypot(*(d.xy_mm - np.array(TRUE_497) * sx).T) > 10.0
            d = d.select(far)
        yield d


def _play(seed: int | None, mirror: bool, drop_true: bool = False) -> tuple[dict, list]:
    sx = mirror_x(mirror)
    tr = Tracker()
    who = None
    at: dict[int, np.ndarray] = {}
    contacts = []
    for d in _frames(seed, mirror, drop_true):
        tf = tr.update(d)
        if who is None:
            who = id_at(tf, *(np.array(REST) * sx), within=5.0)
            assert who is not None
        at[d.frame] = tf.xy_mm[list(tf.ids).index(who)] * sx
        contacts += [(c.a, c.b, c.t * 30.0) for c in tf.contacts if who in (c.a, c.b)]
    return {"who": who, "at": at}, contacts


@pytest.mark.parametrize("seed", [None, 0, 1, 2])
@pytest.mark.parametrize("mirror", [False, True])
def test_the_flicked_piece_is_not_the_fit_on_the_fingertip(seed: int | None, mirror: bool) -> None:
    track, contacts = _play(seed, mirror)
    who, at = track["who"], track["at"]
    assert np.hypot(*(at[497] - TRUE_497)) < 3.0, at[497]
    assert np.hypot(*(at[502] - TRUE_502)) < 3.0, at[502]
    touch = [t for a, b, t in contacts if {a, b} == {who, "ball"}]
    assert len(touch) == 1 and abs(touch[0] - 497.81) < 1.0, contacts


@pytest.mark.parametrize("seed", [None, 0, 1])
@pytest.mark.parametrize("mirror", [False, True])
def test_a_fingertip_alone_does_not_take_the_piece(seed: int | None, mirror: bool) -> None:
    # A11's own fit lost at 497: the fingertip's is still not A11, which is seen on its way
    # at 498 and after
    track, _ = _play(seed, mirror, drop_true=True)
    at = track["at"]
    assert np.hypot(*(at[497] - HAND_497)) > 20.0, at[497]
    assert np.hypot(*(at[502] - TRUE_502)) < 3.0, at[502]
