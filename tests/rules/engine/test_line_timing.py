"""When a goal or an out happened, to the fraction of a frame it takes (issue 6: events within
2 frames; 000 Art. 9: the throw-in goes against the team that touched the ball last).

- paulista's ten minutes, seed 33, frame 8072 (``python -m benchmarks.bench_analyze --rules
  paulista --seed 33``): a shot went in under the crossbar and was not seen again for 8 frames;
  the tracker's prediction was judged after ``COAST_FRAMES`` and the goal dated then, 4 frames
  after it went in. It is dated from the ball's last sighting, as a ball seen again is.
- the same match, frame 17363: the ball rolled out over the touchline (wholly past it two
  thirds into the frame's step) and B4, beside the line, touched it at the end of that step.
  Both in one frame, the touch was taken as the last before the out: the throw-in went to the
  wrong team. On a straight step the ball crossed when its margin did; a touch after that met
  a dead ball.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rules.engine.lines import COAST_FRAMES
from rules.engine.state import Contacts
from tests.rules.engine.script import Script, brasileira_roster
from tests.rules.engine.situations import find, run

FPS = 30.0
NOISY = {"lag_frames": 1, "noise_mm": 0.5, "settle_frames": 3}  # botao analyze's options


def _a9_over_the_touchline(b4_y: float, touch: bool = True) -> Script:
    """A9 sends the ball at 6 mm a frame over the far touchline (y = 700, wholly past at 705),
    B4 beside its way at ``b4_y``; A9's touch reported (``touch``) or left to the caller."""
    s = Script(
        brasileira_roster(
            [
                ("A9", "A", "button", 0.0, 601.0),
                ("ball", "", "ball", 0.0, 641.0),
                ("B4", "B", "button", 45.0, b4_y),
            ]
        )
    )
    s.rest(3)
    s.move(
        {"A9": (0, 1, (0.0, 604.0)), "ball": (0, 15, (0.0, 731.0))},
        {1: [("A9", "ball", "piece-ball")]} if touch else None,
    )
    s.rest(6)
    return s


def _out_with_a_late_touch(touch_at: float) -> Script:
    """B4, beside the line, touches the ball at ``touch_at`` of the step in which it got wholly
    past."""
    s = _a9_over_the_touchline(735.0)
    bi = s.index("ball")
    f = next(i for i, x in enumerate(s.frames) if x.pieces.xy_mm[bi, 1] > 705.0)
    t = (f - 1 + touch_at) / FPS
    s.frames[f] = replace(
        s.frames[f], contacts=Contacts.from_rows([(f, t, "B4", "ball", "piece-ball")])
    )
    return s


@pytest.mark.parametrize("options", [{}, NOISY], ids=["exact", "noisy"])
@pytest.mark.parametrize(
    ("touch_at", "last", "throw_in"),
    [
        (0.95, "A9", "B"),  # wholly past at 0.67 of the step: B4 met a dead ball
        (0.80, "A9", "B"),
        (0.40, "B4", "A"),  # failure rows: B4 touched it first, in the field
        (0.10, "B4", "A"),
    ],
)
def test_a_touch_after_the_ball_was_out_is_not_its_last(
    touch_at: float, last: str, throw_in: str, options: dict[str, float]
) -> None:
    events = run("brasileira", _out_with_a_late_touch(touch_at), **options)
    (out,) = find(events, "ball_out")
    assert (out["piece"], out["team"], out["evidence"]["restart"]) == (last, throw_in, "throw_in")


def _shot_unseen_in_goal(unseen_from_x: float) -> Script:
    """A9 shoots at 12 mm a frame into the right goal (wholly past its line once the centre
    is beyond x = 1005); the ball unseen from ``unseen_from_x`` on (the crossbar, the net)."""
    s = Script(
        brasileira_roster(
            [
                ("B1", "B", "goalkeeper", 990.0, -60.0),
                ("A9", "A", "button", 860.0, 20.0),
                ("ball", "", "ball", 900.0, 20.0),
            ]
        )
    )
    s.rest(3)
    s.move(
        {"A9": (0, 1, (863.0, 20.0)), "ball": (0, 15, (1080.0, 20.0))},
        {1: [("A9", "ball", "piece-ball")]},
    )
    s.rest(3)
    bi = s.index("ball")
    for i, f in enumerate(s.frames):
        if f.pieces.xy_mm[bi, 0] > unseen_from_x:
            seen = f.seen.copy()
            seen[bi] = False
            s.frames[i] = replace(f, seen=seen)
    return s


@pytest.mark.parametrize("options", [{}, NOISY], ids=["exact", "noisy"])
@pytest.mark.parametrize("unseen_from_x", [990.0, 1000.0, 1010.0])
def test_a_goal_unseen_since_it_went_in_is_dated_when_it_went_in(
    unseen_from_x: float, options: dict[str, float]
) -> None:
    s = _shot_unseen_in_goal(unseen_from_x)
    bi = s.index("ball")
    went_in = next(f.frame for f in s.frames if f.pieces.xy_mm[bi, 0] > 1005.0)
    last_seen = max(f.frame for f in s.frames if f.seen[bi] and f.pieces.xy_mm[bi, 0] > 900.0)
    unseen = sum(1 for f in s.frames if not f.seen[bi])
    assert unseen > COAST_FRAMES  # the situation: judged on the prediction
    events = run("brasileira", s, **options)
    (goal,) = find(events, "goal", "A", "A9")
    assert goal["frame"] == max(went_in, last_seen), (goal["frame"], went_in, last_seen)
    assert np.isfinite(goal["margin_mm"])


@pytest.mark.parametrize("options", [{}, NOISY], ids=["exact", "noisy"])
@pytest.mark.parametrize("seen_again_x", [1030.0, 1060.0])
def test_a_goal_unseen_while_held_at_rest_is_dated_when_it_went_in(
    seen_again_x: float, options: dict[str, float]
) -> None:
    """Mesa-posta's ten minutes, seed 46, frame 16388: a slow push on the goal line, read as
    no start; the ball went under the crossbar and the tracker held it where it was last seen,
    at rest, for nine frames, then saw it 20 mm in. The goal, called then, was seven frames
    late: a ball unseen at rest is dated from its last sighting as a coasting one is."""
    s = _shot_unseen_in_goal(990.0)
    bi = s.index("ball")
    went_in = next(f.frame for f in s.frames if f.pieces.xy_mm[bi, 0] > 1005.0)
    held = None
    for i, f in enumerate(s.frames):
        x = f.pieces.xy_mm[bi, 0]
        if f.seen[bi] or x >= seen_again_x:
            seen = f.seen.copy()
            seen[bi] = True
            s.frames[i] = replace(f, seen=seen)
            held = f.pieces.xy_mm[bi].copy()
            continue
        xy, v, moving = f.pieces.xy_mm.copy(), f.v_mm_s.copy(), f.moving.copy()
        xy[bi], v[bi], moving[bi] = held, 0.0, False  # held where last seen, at rest
        s.frames[i] = replace(f, pieces=replace(f.pieces, xy_mm=xy), v_mm_s=v, moving=moving)
    events = run("brasileira", s, **options)
    (goal,) = find(events, "goal", "A", "A9")
    assert abs(goal["frame"] - went_in) <= 1, (goal["frame"], went_in)


def _creeping_out(stop_y: float) -> Script:
    """The ball creeping over the far touchline at ~0.5 mm a frame (wholly past at y = 705),
    coming to rest at ``stop_y``: a call on the rest's mean, sure only a few frames on."""
    s = Script(
        brasileira_roster([("A9", "A", "button", 0.0, 655.0), ("ball", "", "ball", 0.0, 693.0)])
    )
    s.rest(3)
    s.move(
        {"A9": (0, 1, (0.0, 657.0)), "ball": (0, 14, (0.0, stop_y))},
        {1: [("A9", "ball", "piece-ball")]},
    )
    s.rest(20)
    return s


@pytest.mark.parametrize("stop_y", [705.3, 705.6, 706.5])
def test_a_ball_stopping_just_out_is_dated_when_it_got_out(stop_y: float) -> None:
    """Mesa-posta's ten minutes, seed 34 (``python -m benchmarks.bench_analyze --rules
    mesa-posta --seed 34``), frame 744: the ball crept over the goal line and stopped 0.4 mm
    wholly past it. Judged on the mean of its rest, the out was sure only 5 frames after it
    stopped, and dated then, 6 frames after it went out. A resting ball past a line got there
    when its positions went past and stayed: the call is dated from then."""
    s = _creeping_out(stop_y)
    bi = s.index("ball")
    got_out = next(f.frame for f in s.frames if f.pieces.xy_mm[bi, 1] > 705.0)
    events = run("brasileira", s, **NOISY)
    (out,) = find(events, "ball_out")
    assert abs(out["frame"] - got_out) <= 1, (out["frame"], got_out)


def test_a_ball_stopping_just_short_is_not_out() -> None:
    """The failure row: stopped 0.3 mm short of wholly past, it is in play."""
    assert not find(run("brasileira", _creeping_out(704.7), **NOISY), "ball_out")


def _squeezed_out(order: tuple[str, ...]) -> Script:
    """A9 sends the ball over the far touchline; on the step it leaves A9, the ball is
    squeezed between A9 and B4 beside it, their contacts 10 ms apart in ``order``."""
    s = _a9_over_the_touchline(660.0, touch=False)
    f = 4  # the step A9 struck the ball
    rows = [(f, (f - 0.9 + 0.3 * k) / FPS, p, "ball", "piece-ball") for k, p in enumerate(order)]
    s.frames[f] = replace(s.frames[f], contacts=Contacts.from_rows(rows))
    return s


@pytest.mark.parametrize("options", [{}, NOISY], ids=["exact", "noisy"])
@pytest.mark.parametrize(
    ("order", "last", "throw_in"),
    [
        (("A9", "B4", "A9"), "A9", "B"),  # A9 on it again last (a bounce of its touch)
        (("A9", "B4"), "B4", "A"),  # failure row: B4's touch the last
    ],
)
def test_a_squeezed_ball_is_out_against_the_last_piece_on_it(
    order: tuple[str, ...], last: str, throw_in: str, options: dict[str, float]
) -> None:
    # nacional's ten minutes, seed 35, frame 7883: B6, A5, B6 on the ball within 30 ms, B6's
    # second contact merged into its touch; the corner went against A5 (000 Art. 9)
    events = run("brasileira", _squeezed_out(order), **options)
    (out,) = find(events, "ball_out")
    assert (out["piece"], out["team"], out["evidence"]["restart"]) == (last, throw_in, "throw_in")
