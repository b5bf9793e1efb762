"""The tracker across a gap (:meth:`vision.tracker.Tracker.interrupt`): frames not seen while
the camera was lost to a bumped table, during which the ball rolled on and the coaches' hands
moved pieces. Nothing is inferred across the gap: no contact, no velocity, no moving flag from
the jump; identities stay where the pieces are; what happens after the gap is seen as ever.

Detections are hand-made (:func:`tests.vision.test_tracker.dets`, seeded noise 0.3-1 mm).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_tracker import DT, dets, id_at, roster_rows
from vision.tracker import Tracker

Row = tuple[str, str, float, float]
BALL_MM_S = 300.0  # the ball rolls at this speed toward -x when the camera is lost


def _roll(tr: Tracker, rows: list[Row], frames: range, rng: np.random.Generator) -> list:
    """The ball rolling at BALL_MM_S along y = -450 from x = 200 at frame 0; returns the frames."""
    out = []
    for k in frames:
        rows[-1] = ("ball", "", 200.0 - BALL_MM_S * DT * k, -450.0)
        out.append(tr.update(dets(rows, k, rng)))
    return out


def _gap(
    seed: int, gap_frames: int, ball_after: tuple[float, float, float] | None, told: bool = True
) -> tuple[list, dict[Row, str | None], str]:
    """The ball rolling when the camera is lost; ``gap_frames`` unseen, during which a hand
    moved the button at (-150, -450) 40 mm toward the ball, which stopped beside it (7 mm
    apart edge to edge) or, with ``ball_after`` (x, y, vx), still rolls toward it. Returns the
    30 frames after the gap, the ids expected at every piece's place, the moved button's."""
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    tr = Tracker()
    before = _roll(tr, rows, range(20), rng)[-1]
    assert before.moving[before.index("ball")]
    ids = {r: id_at(before, r[2], r[3]) for r in rows[:-1]}
    kind, team, x, y = rows[1]
    moved = (kind, team, x + 40.0, y)
    who = ids.pop(rows[1])
    assert who is not None
    rows[1] = moved
    ids[moved] = who
    bx, by, vx = ball_after if ball_after is not None else (-68.0, -450.0, 0.0)
    if told:
        tr.interrupt()
    start = 20 + gap_frames
    after = []
    for k in range(start, start + 30):
        x_ball = max(bx + vx * DT * (k - start), moved[2] + 35.0)  # stopped by the button
        rows[-1] = ("ball", "", x_ball, by)
        after.append(tr.update(dets(rows, k, rng)))
    return after, ids, who


@pytest.mark.parametrize(
    ("gap_frames", "ball_after", "contact"),
    [
        (30, None, False),  # a second
        (15, None, False),
        (60, None, False),
        # after the gap the ball still rolls (-x) into the moved button: that contact is seen
        (30, (-40.0, -450.0, -BALL_MM_S), True),
    ],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_nothing_is_inferred_across_a_gap(
    gap_frames: int, ball_after: tuple[float, float, float] | None, contact: bool, seed: int
) -> None:
    after, ids, who = _gap(seed, gap_frames, ball_after)
    found = [c for tf in after for c in tf.contacts]
    assert bool(found) == contact, found
    assert all(c.a == who and c.b == "ball" for c in found), found
    assert {r: id_at(after[-1], r[2], r[3]) for r in ids} == ids
    assert all(tf.status[tf.index(who)] == "seen" for tf in after)
    # the moved button never moves (a hand put it there: no speed from the jump); the ball
    # only where it rolls after the gap
    assert not any(tf.moving[tf.index(who)] for tf in after)
    assert np.allclose(after[0].v_mm_s, 0.0)
    ball_moved = [bool(tf.moving[tf.index("ball")]) for tf in after]
    assert not ball_moved[0]
    assert any(ball_moved) == (ball_after is not None)


def test_a_tracker_not_told_of_the_gap_reads_the_jump_as_a_hit() -> None:
    # what interrupt() is for: the same gap unannounced gives a contact the button never made
    # (on most noise draws: it hangs on the frames either side of the gap)
    spurious = [bool([c for tf in _gap(s, 30, None, told=False)[0] for c in tf.contacts])
                for s in range(6)]  # fmt: skip
    assert sum(spurious) >= 4, spurious


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pieces_moved_by_hand_during_a_gap_keep_their_ids(seed: int) -> None:
    # seven buttons and a keeper pushed 20-45 mm each during a second unseen (an arrumação's
    # worth: at least rearrange_min gone from their places at once), the others untouched
    rng = np.random.default_rng(seed)
    rows = roster_rows()
    rows[-1] = ("ball", "", 0.0, 0.0)
    tr = Tracker()
    for k in range(15):
        tf = tr.update(dets(rows, k, rng))
    ids = [id_at(tf, r[2], r[3]) for r in rows]
    for i in (0, 2, 3, 5, 12, 14, 17, 19):
        step = rng.uniform(20.0, 45.0)
        ang = rng.uniform(0.0, 2.0 * np.pi)
        kind, team, x, y = rows[i]
        rows[i] = (kind, team, x + step * np.cos(ang), y + step * np.sin(ang))
    tr.interrupt()
    after = [tr.update(dets(rows, k, rng)) for k in range(45, 60)]
    assert [id_at(after[-1], r[2], r[3]) for r in rows] == ids
    assert not any(tf.moving.any() for tf in after)
    assert not any(tf.contacts for tf in after)


def test_an_interrupt_before_the_setup_changes_nothing() -> None:
    rows = roster_rows()
    tr = Tracker()
    tr.interrupt()
    tf = tr.update(dets(rows, 0))
    assert id_at(tf, *rows[-1][2:]) == "ball"
    assert (tf.status != "absent").sum() == len(rows)
