"""A flick seen only by a touch reported late: the lance starts at the touch.

The passer is flicked under its coach's hand (its track frozen, never seen to start) and the
ball it strikes is lost to sight as it rolls away (a white ball streaking over a pale felt),
to be found again frames later, already rolling. The tracker credits the touch to the passer
by its path only once the ball is seen again: the contact row comes in a later frame's
record, stamped with the frame it happened in. Offside drill 4010 (gaucha, through the
camera): no lance was started, so the receiver past the last defender was never judged
(001 Art. XXXII § 1: the positions at the moment the ball is played).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rules.engine.state import Contacts
from tests.rules.engine.script import Script
from tests.rules.engine.situations import find, run
from tests.rules.engine.test_rulesets import roster

BALL_FROM = (-100.0, 0.0)


def _lost_pass(touch_step: int, lost_steps: int, row_at_step: int, ball_to: float | None) -> Script:
    """A7 (frozen under its hand) passes from the defence half toward A9, beyond B5 (the last
    outfield defender); the ball unseen for ``lost_steps`` steps after the flick (the
    tracker's prediction: where it rested, flagged neither seen nor moving); the touch
    (made at step ``touch_step``, counted from the first frame of the pass; 0 or less: in
    the rest before it) reported in the frame of step ``row_at_step``; ``ball_to`` None: the
    ball stays where it rests."""
    s = roster(
        ("B5", "B", "button", 300.0, 0.0),
        ("A9", "A", "button", 650.0, 200.0),
        ("A7", "A", "button", BALL_FROM[0] - 40.0, 0.0),
        ("ball", "", "ball", *BALL_FROM),
        gaucha=True,
    )
    s.rest(3)
    first = len(s.frames) - 1  # step 0: the last frame of the rest
    if ball_to is None:
        s.rest(12)
    else:
        s.move({"ball": (0, 12, (ball_to, 0.0))})
    s.rest(6)
    bi = s.index("ball")
    for k in range(first + 1, first + 1 + lost_steps):
        f = s.frames[k]
        xy = f.pieces.xy_mm.copy()
        xy[bi] = BALL_FROM
        seen = np.ones(len(s.ids), bool)
        seen[bi] = False
        moving = f.moving.copy()
        moving[bi] = False
        s.frames[k] = dataclasses.replace(
            f,
            pieces=dataclasses.replace(f.pieces, xy_mm=xy),
            v_mm_s=np.where(np.arange(len(s.ids))[:, None] == bi, 0.0, f.v_mm_s),
            moving=moving,
            seen=seen,
        )
    t_touch = (first + touch_step - 0.5) / s.fps
    row = (first + touch_step, t_touch, "A7", "ball", "piece-ball")
    k = first + row_at_step
    s.frames[k] = dataclasses.replace(s.frames[k], contacts=Contacts.from_rows([row]))
    return s


def test_a_touch_reported_late_starts_the_lance_at_its_frame() -> None:
    # the ball lost for 3 frames, seen rolling for 4 before the touch's row comes: the
    # flick under the hand is no longer read when the ball starts (it was not seen to)
    s = _lost_pass(touch_step=1, lost_steps=3, row_at_step=8, ball_to=700.0)
    events = run("gaucha", s, lag_frames=2, noise_mm=0.5, settle_frames=3)
    (lance,) = find(events, "lance", "A", "A7")
    assert lance["frame"] == 3  # the touch's frame, not the frame the row came in
    assert lance["t"] == pytest.approx(3 / 30.0, abs=1e-3)
    # 001 Art. XXXII § 1 b: the ball from the defence half passes B5 with A9 beyond it
    (off,) = find(events, "offside", "A", "A9", passer="A7")
    assert off["evidence"]["line_x_mm"] > 300.0
    assert not find(events, "furada")


@pytest.mark.parametrize(
    ("touch_step", "ball_to", "why"),
    [
        (-1, 700.0, "the touch was made before the ball was last seen at rest"),
        (1, None, "the ball never moved: a touch sets nothing going"),
    ],
)
def test_failure_rows_start_no_lance(touch_step: int, ball_to: float | None, why: str) -> None:
    s = _lost_pass(touch_step=touch_step, lost_steps=3, row_at_step=8, ball_to=ball_to)
    events = run("gaucha", s, lag_frames=2, noise_mm=0.5, settle_frames=3)
    assert not find(events, "lance"), why
    assert not find(events, "offside"), why


def test_the_ball_seen_rolling_with_the_touch_in_time_needs_no_late_start() -> None:
    """The same pass with the touch reported in its own frame and the ball seen: one lance."""
    s = _lost_pass(touch_step=1, lost_steps=0, row_at_step=1, ball_to=700.0)
    events = run("gaucha", s, lag_frames=2, noise_mm=0.5, settle_frames=3)
    assert [e["frame"] for e in find(events, "lance", "A", "A7")] == [3]
    assert find(events, "offside", "A", "A9")
