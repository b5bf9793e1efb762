"""A foul needs the hit on an opponent *before* the ball; contacts a few ms apart have no order.

000 REGRA 12 FALTA / 001 Art. XXIV: the flicked piece touching an opponent before the ball is a
foul. A tracker times contacts from the motion around a frame (at 30 frames/s, on a rendered
ten-minute gaucha match: median error 2-3 ms, 90th percentile 13-15 ms), and may report a touch
a frame later than the hit. In the simulator's truth of three ten-minute matches, a flicked
piece's touch of the ball followed by its hit on an opponent within 10 ms happened 13 times, a
foul whose offender touched the ball within 20 ms after the hit once (18.7 ms) in 52 fouls: when
the order is inside the timing's doubt, the ball is given first
(``EngineOptions.order_doubt_s``), and the foul waits for the next frame's contacts.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rules.engine.state import Contacts
from tests.rules.engine.script import Script, brasileira_roster
from tests.rules.engine.situations import find, run

FPS = 30.0


def _hit_and_touch(
    touch_dt_s: float | None,
    touch_late: int = 0,
    ball_xy: tuple[float, float] = (62.0, 36.0),
    ball_to: tuple[float, float] | None = (70.0, 90.0),
) -> Script:
    """A7 flicked at step 1 meets B5 at step 3 (t = frame 5's interval) and, ``touch_dt_s``
    after that hit, the ball resting beside B5 (None: never); the touch reported
    ``touch_late`` frames after its own frame."""
    s = Script(
        brasileira_roster(
            [
                ("A7", "A", "button", 0.0, 0.0),
                ("B5", "B", "button", 64.0, 0.0),
                ("ball", "", "ball", *ball_xy),
            ]
        ),
        fps=FPS,
        hands=True,
    )
    s.rest(3)
    motions = {"A7": (0, 3, (6.0, 0.0)), "B5": (3, 8, (110.0, 0.0))}
    if ball_to is not None:  # (None: it stays)
        motions["ball"] = (3, 8, ball_to)
    s.move(motions)
    s.rest(6)
    hit_frame = 5
    t_hit = (hit_frame - 0.3) / FPS
    rows: dict[int, list[tuple[int, float, str, str, str]]] = {
        hit_frame: [(hit_frame, t_hit, "A7", "B5", "piece-piece")]
    }
    if touch_dt_s is not None:
        t = t_hit + touch_dt_s
        own = hit_frame if t <= hit_frame / FPS else hit_frame + 1
        rows.setdefault(own + touch_late, []).append((own, t, "A7", "ball", "piece-ball"))
    for k, r in rows.items():
        s.frames[k] = dataclasses.replace(s.frames[k], contacts=Contacts.from_rows(r))
    return s


@pytest.mark.parametrize(
    ("touch_dt_s", "touch_late", "doubt_s", "fouls"),
    [
        (None, 0, 0.01, 1),  # no touch at all: the foul, a frame later
        (None, 0, 0.0, 1),  # exact data: at once
        (0.004, 0, 0.01, 0),  # the ball 4 ms after the hit: inside the doubt, given first
        (0.004, 0, 0.0, 1),  # exact data: 4 ms is 4 ms
        (0.009, 0, 0.01, 0),  # the next frame's interval, still inside
        (0.02, 0, 0.01, 1),  # 20 ms after: the hit was first
        (-0.004, 1, 0.0, 0),  # the ball first, reported a frame late: inside the lag
        (-0.004, 2, 0.01, 0),  # ... two frames late: waited for
        (-0.004, 2, 0.0, 1),  # ... not waited for when decided at once
        (0.004, 2, 0.01, 0),  # inside the doubt and reported two frames late
    ],
)
def test_a_touch_inside_the_timing_doubt_clears_the_foul(
    touch_dt_s: float | None, touch_late: int, doubt_s: float, fouls: int
) -> None:
    events = run(
        "brasileira",
        _hit_and_touch(touch_dt_s, touch_late),
        order_doubt_s=doubt_s,
        lag_frames=1,
    )
    found = find(events, "foul", team="A", piece="A7", victim="B5")
    assert len(found) == fouls
    if fouls:
        assert found[0]["frame"] == 5  # stamped with the hit's frame, however late decided


def test_a_foul_held_at_the_end_of_the_video_is_called() -> None:
    s = _hit_and_touch(None)
    s.frames = s.frames[:6]  # the video ends a frame after the hit
    events = run("brasileira", s, order_doubt_s=0.01, lag_frames=1)
    assert len(find(events, "foul", team="A", piece="A7")) == 1


def test_order_doubt_is_checked() -> None:
    with pytest.raises(ValueError, match="order_doubt_s"):
        run("brasileira", _hit_and_touch(None), order_doubt_s=0.5)


@pytest.mark.parametrize(
    ("ball_flag_frame", "doubt_s", "fouls"),
    [
        (5, 0.01, 0),  # the ball seen going in the hit's frame, no touch seen: maybe first
        (5, 0.0, 1),  # decided at once, before the ball's motion is read
        (6, 0.01, 1),  # the ball set going after the hit (B5 pushed into it): the foul
    ],
)
def test_a_ball_set_going_unseen_before_the_hit_clears_the_foul(
    ball_flag_frame: int, doubt_s: float, fouls: int
) -> None:
    # A7 flicked from under its coach's hand (its track frozen) reaches the ball unseen: no
    # touch reported, the ball flagged moving; the seen hit on B5 is no foul if the ball was
    # going by then (on a rendered gaucha match, frame 10642: a foul and a missed goal)
    s = _hit_and_touch(None)
    bi = s.index("ball")
    for k in range(ball_flag_frame, 6):
        s.frames[k].moving[bi] = True
    events = run("brasileira", s, order_doubt_s=doubt_s, lag_frames=1)
    assert len(find(events, "foul", team="A", piece="A7", victim="B5")) == fouls


@pytest.mark.parametrize(
    ("touch_dt_s", "fouls"),
    [
        (0.0045, 0),  # a hit and a touch at one instant, timed 4.5 ms apart (gaucha seed 31, 16094)
        (0.0099, 1),  # a foul's touch 8.3 ms after its hit, timed 9.9 ms (nacional seed 35, 16106)
        (0.02, 1),
        (-0.004, 0),
    ],
)
def test_the_cameras_doubt_splits_the_closest_orders_measured(
    touch_dt_s: float, fouls: int
) -> None:
    from monitor.analyze import TRACKED_OPTIONS

    events = run(
        "brasileira",
        _hit_and_touch(touch_dt_s),
        order_doubt_s=TRACKED_OPTIONS.order_doubt_s,
        lag_frames=TRACKED_OPTIONS.lag_frames,
    )
    assert len(find(events, "foul", team="A", piece="A7", victim="B5")) == fouls


@pytest.mark.parametrize(
    ("touch", "ball_xy", "unseen", "fouls"),
    [
        (True, (25.0, 38.0), True, 0),  # its touch found when the ball is seen again: no foul
        (False, (25.0, 38.0), True, 1),  # seen again where it rested: the foul, at its frame
        (True, (25.0, 38.0), False, 1),  # the ball seen all along: a touch 8 frames late is not
        (True, (25.0, 58.0), True, 1),  # ... nor one 28 mm off the offender at the hit
    ],
)
def test_a_foul_waits_for_the_ball_unseen_beside_its_offender(
    touch: bool, ball_xy: tuple[float, float], unseen: bool, fouls: int
) -> None:
    # mesa-posta's ten minutes, seed 46, frame 16385: A11 pushed the ball on the goal line as
    # it struck the goalkeeper; the ball under the crossbar ten frames, its touch found when it
    # was seen again rolling on into the goal. The foul waits while the ball, beside the
    # offender at the hit, is unseen (0.5 s at most): its touch may yet be found.
    from monitor.analyze import TRACKED_OPTIONS

    to = (70.0, 90.0) if touch else None
    s = _hit_and_touch(-0.004 if touch else None, touch_late=8, ball_xy=ball_xy, ball_to=to)
    bi = s.index("ball")
    for k in range(5, 13):  # unseen from the hit's frame until 8 frames on
        seen = np.ones(len(s.frames[k].pieces.ids), bool)
        seen[bi] = not unseen
        s.frames[k] = dataclasses.replace(s.frames[k], seen=seen)
    events = run(
        "brasileira",
        s,
        order_doubt_s=TRACKED_OPTIONS.order_doubt_s,
        lag_frames=TRACKED_OPTIONS.lag_frames,
    )
    found = find(events, "foul", team="A", piece="A7", victim="B5")
    assert len(found) == fouls
    if fouls:
        assert found[0]["frame"] == 5
