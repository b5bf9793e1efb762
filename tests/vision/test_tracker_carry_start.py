"""Where a hand's carry begins and ends (vision/tracker.py, ``Tracker._carry``): a piece a coach
moves by hand is no lance (000 REGRA 8: the coaches place the pieces for a restart).

Two misreads of brasileira's ten minutes (seed 40), each a lance that missed the ball (a
furada: the turn passed, the team's next lances out of turn, two of its passes called offside):

- frames 13000-13034 (``data/pushed_on.json``): B7, off the field, is pushed back on by a
  coach's fingertip at 12 mm a frame; the finger is outlined only from the push's fourth
  frame, so the piece's first step beside a hand had no hand the frame before to compare
  with, and it was flagged moving (a flick) before the carry could be seen. A start beside a hand
  not outlined the frame before waits a frame for the hand's second outline.
- frames 13780-13824 (``data/set_down.json``): B10, carried to a throw-in, is let go as the
  hand lifts (its outline gone a frame before) and set down 18 mm on, stopped dead; that last
  step, shorter than the one before and clear of any hand, was read as a slide. A slide goes
  on (friction takes a tenth of its speed a frame), a set-down stops dead: judged on the next
  step. B10's flick at 13819 is flagged moving.

Each scene is played as recorded, mirrored, and with seeded noise; the synthetic plays below
vary speeds and the hand's place, with the flicks that must still start as the failure rows.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.scenes import mirror_x, scene_detections
from tests.vision.test_tracker import dets, id_at, roster_rows, square
from vision.tracker import Tracker, TrackerConfig

# scene, the piece's place at the first frame, the frames it must not be flagged moving in,
# and the frames it must (its own flick, after the carry)
SCENES = {
    "pushed_on": ("pushed_on.json", (-344.1, 755.9), range(13000, 13035), range(0)),
    "set_down": ("set_down.json", (-832.6, 604.9), range(13780, 13819), range(13820, 13823)),
}


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("seed", [None, 0, 1, 2])
@pytest.mark.parametrize("mirror", [False, True])
def test_a_piece_moved_by_a_hand_is_no_flick(scene: str, seed: int | None, mirror: bool) -> None:
    name, place, still, flicked = SCENES[scene]
    tr = Tracker()
    who = None
    moving: dict[int, bool] = {}
    for d in scene_detections(name, seed, mirror):
        tf = tr.update(d)
        if who is None:
            who = id_at(tf, *(np.array(place) * mirror_x(mirror)), within=8.0)
            assert who is not None
        moving[d.frame] = bool(tf.moving[list(tf.ids).index(who)])
    assert not any(moving[f] for f in still), [f for f in still if moving[f]]
    assert all(moving[f] for f in flicked)


def _play(how: str, speed_mm_s: float, seed: int) -> list[bool]:
    """An A button (at -600, 300, clear of the others) moved along +x from frame 4; returns its
    track's moving flags from frame 4 on. The hand is an 80 mm square beside it (15 mm of felt
    off), at a bearing drawn from ``seed``.

    ``carry``, ``flick``: the hand first outlined on the move's first frame; it moves along
    with the piece for 10 frames, or stays where it flicked (the piece slowing by a tenth a
    frame). ``set_down``, ``slide``: carried from frame 4 with the hand outlined all along,
    which is gone from frame 14 (lifted); the piece steps on 0.75 of its step once and stops
    dead, or slides on, slowing by a tenth a frame."""
    rng = np.random.default_rng(seed)
    base = roster_rows()
    tr = Tracker(TrackerConfig(fps=30.0))
    side = rng.uniform(-0.6, 0.6)  # the hand's bearing about the piece (rad, off -y)
    off = 30.0 + 15.0 + 40.0
    step = speed_mm_s / 30.0
    x, y, s, hx = -600.0, 300.0, 0.0, -600.0
    flags = []
    for k in range(26):
        hand_on = {"carry": 4 <= k < 14, "flick": 4 <= k < 16}.get(how, k < 14)
        if how in ("carry", "set_down", "slide") and 4 <= k < 14:
            s = step
        elif how == "flick" and k >= 4:
            s = step if k == 4 else s * 0.9
        elif how == "set_down" and k == 14:
            s = 0.75 * step
        elif how in ("carry", "set_down"):
            s = 0.0  # put down
        elif how == "slide" and k >= 14:
            s = (0.8 * step if k == 14 else s * 0.9) if s > 1.0 else 0.0
        x += s
        if how != "flick" and k < 14:
            hx = x
        rows = list(base)
        rows[2] = ("button", "A", x, y)
        c = (hx + off * np.sin(side), y - off * np.cos(side))
        tf = tr.update(dets(rows, k, rng, hands=[square(*c, 40.0)] if hand_on else []))
        if k >= 4:
            flags.append(bool(tf.moving[tf.ids == id_at(tf, x, y)][0]))
    return flags


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("speed_mm_s", [250.0, 400.0, 900.0])
@pytest.mark.parametrize(
    ("how", "flagged"),
    [
        ("carry", False),  # the hand outlined from the first step: moves along, no flick
        ("set_down", False),  # let go as the hand lifts, stopped dead a step on
        ("flick", True),  # the hand outlined from the first step, stays: a flick
        ("slide", True),  # let go into a slide: moving
    ],
)
def test_a_hand_carry_is_told_from_a_flick_at_its_ends(
    how: str, flagged: bool, speed_mm_s: float, seed: int
) -> None:
    flags = _play(how, speed_mm_s, seed)
    if not flagged:
        assert not any(flags), flags
    elif how == "flick":
        assert any(flags[:2]) and all(flags[2:8]), flags  # a frame late at most
    else:
        assert not any(flags[:10]) and any(flags[10:13]) and all(flags[13:16]), flags
