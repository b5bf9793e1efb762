"""The ball against the lines, frame by frame: goals and balls out, debounced, with restarts.

Margins come from :mod:`geometry.lines` (lines to their outer edges), exactly as the static
checks of :mod:`rules.checks.ball_lines`:

- goal (000 REGRA 10, Art. 12; 001 Art. XXXI; 003): ``line > 0`` and ``posts >= 0``, or
  the ball was within the posts where it became wholly past the line between two frames
  ("ultrapassar inteiramente a linha de fundo, por dentro da baliza": a ball that went in
  past the post's inner face and is seen a frame later a hair wide of it, in the net's side),
  its step straight between them (no post or rail turned it that frame: a ball off
  the post and wholly past the line beside it is out, 000 REGRA 9 A); and out, not a goal,
  when it was wide of the post where it crossed and is seen a hair inside it past the line.
  Where a post turned it on the step, or it went unseen (a goalkeeper's touch), where it
  crossed is found back along its path after: its step to the next frame it is seen;
- out (000 REGRA 9 A, Art. 14; 001 Art. XXXIV, where touching the touchline is out): the
  ball wholly beyond the boundary. Where touching is out, a throw-in is still taken "com a
  bola rigorosamente sobre a linha" (001 Art. XXXIV § 2): a ball that starts a lance on the
  touchline is out by touching it only after it has been clear of it.

A ball can touch the rail (``rail_margin`` beyond the lines) and be back in between two
frames; it was out all the same. A ``ball-rail`` contact says so when the source reports
one; otherwise the bounce is inferred: from the previous frame, the ball's own velocity
would have taken it past the rail, and its velocity across that rail has turned round.

A moving ball the source does not see (a tracker coasting it along its last velocity) is not
called on for up to ``COAST_FRAMES`` frames: its prediction knows nothing of the goalkeeper or
post that turned it while unseen (a ball predicted wide of the post was in the goal when seen
again two frames later). Unseen longer (into a goal's shadow, under its roof), the prediction
is all there is and is judged. A call made when the ball is seen again is dated to the first
unseen frame at which the straight path between its last two sightings already held it (a
ball under the crossbar for three frames, seen again deep in the net: the goal is when it went
in, known three frames later; nacional's ten minutes, frame 4260).

A call is the ball *leaving* the field: a lance that starts with the ball out of it (a
source's false ball in a goal, a ball a hand holds beyond a line) makes no call until the
ball has been in the field, nor does a ball that jumps further in a frame than a ball can fly
(a tracker that found it again elsewhere, or took a false ball in a net for it).

Debouncing and noise (as a line-crossing counter that wants the object beyond the line for
some frames). ``noise_mm`` is the 1-sigma noise of the source's positions (0 for exact data).

- A ball moving faster than ``2 noise_mm`` a frame: a call at frame ``j`` is confirmed by the
  frames after it that the engine already holds (its look-ahead, see
  :class:`rules.engine.engine.RuleEngine`), none of which may contradict it by more than
  ``2 noise_mm``. With no look-ahead it is immediate.
- A slow or resting ball is judged on the mean of its positions: at rest, since it stopped
  (its place does not change, so the mean only removes noise), slow, over the look-ahead;
  the call needs the mean margin above its own standard error (``noise_mm / sqrt(n)``), so a
  ball creeping a fraction of a millimetre short of the line is not called on one noisy
  frame. With exact data this is the plain margin. A rest of one sample (the ball seen at a
  new place, not moving) is confirmed as a moving ball's sighting is, by frames the source
  saw only: a ball the tracker lost is held where it last put it, which confirms nothing.

Examples
--------
>>> from geometry.field import FieldModel
>>> from geometry.tablespec import load_table
>>> judge = LineJudge(FieldModel(load_table("brasileira")))
>>> judge.status((1006.0, 0.0), 5.0)
('goal', 'right', 1.0)
>>> judge.status((0.0, 706.0), 5.0)
('out', 'touch_far', 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from geometry.field import FieldModel
from geometry.lines import ball_in_goal_margin, ball_out_margin, goal_margins
from rules.engine.state import FrameState

__all__ = ["COAST_FRAMES", "MAX_BALL_MM_S", "LineCall", "LineJudge"]

#: Frames a moving, unseen (predicted) ball waits to be seen again before its prediction is
#: judged (see the module docstring).
COAST_FRAMES = 4
_SAME_WAY = 0.94  # cosine: a step within 20 degrees of the ball's way before it
#: A ball's velocity along a rail turned round by more than this each way (mm/s; its noise, a
#: ball that came in square to the rail) is no bounce off that rail.
RAIL_ALONG_MM_S = 100.0

#: Faster than any ball on a table (a struck ball reaches ~6 m/s): a longer step is a jump of
#: the source's ball (re-acquired elsewhere), never a ball crossing a line.
MAX_BALL_MM_S = 8000.0

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class LineCall:
    """A goal or a ball out at one frame."""

    kind: str  # "goal" or "out"
    line: str  # goal_left / goal_right / touch_near / touch_far
    margin_mm: float | None  # None: inferred from a rail bounce
    ball_xy: tuple[float, float]
    crossing_xy: tuple[float, float]  # where the ball crossed the line (restart spots)
    rail: bool = False
    sigma_mm: float = 0.0  # the 1-sigma of the ball's position the margin was measured on
    # the frame and time it happened when earlier than the frame judged (the ball unseen then)
    frame: int | None = None
    t_s: float | None = None
    # when the ball got wholly past the line on a straight step seen at both ends (None: not
    # known): a touch later in the frame met a ball out already
    cross_t_s: float | None = None

    @property
    def too_close(self) -> bool:
        """Whether the margin is inside twice its uncertainty (the goal-line command's TOO
        CLOSE): the call is made, and says that a measurement could not settle it."""
        return self.margin_mm is not None and abs(self.margin_mm) < 2.0 * self.sigma_mm


class LineJudge:
    """Goal and out calls for one field (see the module docstring)."""

    def __init__(
        self, field: FieldModel, touching_touchline: bool = False, noise_mm: float = 0.0
    ) -> None:
        self.field = field
        self.touching = touching_touchline
        self._on_line_start = False  # the lance began with the ball on the touchline
        self.noise_mm = noise_mm
        _, _, xmax, ymax = field.rail_box
        self.rail_half = (xmax, ymax)
        self._rest_sum = np.zeros(2)
        self._rest_n = 0
        self._was_in = True  # the ball has been in the field since play started
        self._coasting = 0  # frames the moving ball has gone unseen
        # (frame, t, xy) where the ball was last seen before it went unseen
        self._last_seen: tuple[int, float, tuple[float, float]] | None = None
        # (frame, t, xy): the first of the frames since which its positions are past a line
        self._past_since: tuple[int, float, tuple[float, float]] | None = None

    def ball_xy(
        self, prev: FrameState | None, cur: FrameState, ahead: list[FrameState]
    ) -> tuple[tuple[float, float], int]:
        """The ball's position at ``cur`` and how many samples it averages.

        Call once per frame, in order, whether the ball is in play or not. A slow ball
        (``|v| dt <= 4 noise_mm``) is averaged over the frames either side of ``cur`` (a
        centred mean: no lag along its path).
        """
        bi = cur.ball_index
        b = cur.ball_xy_mm
        at = (float(b[0]), float(b[1]))
        if not cur.present[bi] or self.inside(at, cur.ball_radius_mm):
            self._past_since = None
        elif self._past_since is None:
            self._past_since = (cur.frame, cur.t_s, at)
        if cur.moving[bi]:
            self._rest_sum[:], self._rest_n = 0.0, 0
            dt = cur.t_s - prev.t_s if prev is not None else 0.0
            slow = float(np.hypot(*cur.v_mm_s[bi])) * dt <= 4.0 * self.noise_mm
            if self.noise_mm > 0.0 and slow and ahead and prev is not None:
                around = [prev, ahead[0]]
                if all(s.present[s.ball_index] for s in around):
                    m = (prev.ball_xy_mm + b + ahead[0].ball_xy_mm) / 3.0
                    return (float(m[0]), float(m[1])), 3
            return (float(b[0]), float(b[1])), 1
        if self._rest_n and np.hypot(*(self._rest_sum / self._rest_n - b)) > max(
            4.0 * self.noise_mm, 1e-6
        ):
            self._rest_sum[:], self._rest_n = 0.0, 0  # moved by hand: a new rest
        # only the frames the source saw: a ball it holds where it was last seen (under a
        # hand) repeats that sample, and one false sighting held so is no rest (nacional's
        # ten minutes, seed 45, frame 9954: a fit in a goal's net while the ball lay under a
        # hand at its goal kick's spot, held there two frames: a goal called)
        if cur.seen[bi]:
            self._rest_sum += b
            self._rest_n += 1
        total, n = self._rest_sum.copy(), self._rest_n
        tol = max(4.0 * self.noise_mm, 1e-6)
        for s in ahead:
            sb = s.ball_index
            here = float(np.hypot(*(s.ball_xy_mm - b))) <= tol  # (not a rest elsewhere)
            if s.present[sb] and s.seen[sb] and not s.moving[sb] and here:
                total += s.ball_xy_mm
                n += 1
        if n == 0:
            return at, 1
        return (float(total[0] / n), float(total[1] / n)), n

    def lance_started(self, xy: tuple[float, float], r: float) -> None:
        """A flick: note whether the ball starts on a touchline (see the module docstring)."""
        self._on_line_start = self.touching and self._touching_line(xy, r, 2.0 * self.noise_mm)

    def play_started(self, xy: tuple[float, float], r: float) -> None:
        """A flick starts play with the ball at ``xy``: a ball that is not in the field then
        (a source's false ball in a goal, a ball held out of the field by a hand) cannot go out
        or in until it has been seen in the field: a goal or an out is the ball leaving."""
        self._was_in = self.status(xy, r)[0] == "in"

    def found_again(self, xy: tuple[float, float], r: float) -> None:
        """The ball seen at ``xy`` after frames not seen: how it got there is unknown, so it
        must be seen in the field before it can leave it."""
        self._was_in = self.status(xy, r)[0] == "in"
        self._coasting = 0

    def inside(self, xy: tuple[float, float], r: float) -> bool:
        """Whether the ball is not wholly past any line (no state changed, unlike
        :meth:`status`)."""
        return float(ball_out_margin(xy, r, self.field)[0][0]) <= 0.0

    def _touching_line(self, xy: tuple[float, float], r: float, tol_mm: float = 0.0) -> bool:
        """Whether the ball touches a touchline (within ``tol_mm``: a noisy source's ball
        placed on the line)."""
        return abs(xy[1]) + r >= self.field.hw - self.field.lw - tol_mm

    def status(self, xy: tuple[float, float], r: float) -> tuple[str, str, float]:
        """``(kind, where, margin)``: ``goal`` (side), ``out`` (line) or ``in`` (nearest line).

        The margin is signed: positive by how much the call holds, negative by how far it is.
        """
        side = "right" if xy[0] >= 0 else "left"
        line, posts = (float(v[0]) for v in goal_margins(xy, r, self.field, side))
        if line > 0.0 and posts >= 0.0:
            return "goal", side, float(ball_in_goal_margin(xy, r, self.field, side)[0])
        if self._on_line_start and not self._touching_line(xy, r, 2.0 * self.noise_mm):
            self._on_line_start = False
        touching = self.touching and not self._on_line_start
        m, name = ball_out_margin(xy, r, self.field, touching)
        margin = float(m[0])
        return ("out" if margin > 0.0 else "in"), str(name[0]), margin

    def judge(
        self,
        prev: FrameState,
        cur: FrameState,
        ahead: list[FrameState],
        rail_contact: bool,
        ball: tuple[tuple[float, float], int] | None = None,
        turned: bool = False,
    ) -> LineCall | None:
        """The call at ``cur``, if any (the ball in play; see the module docstring).

        ``ball`` is :meth:`ball_xy`'s estimate for ``cur`` (default: the raw position).
        ``turned``: a contact this frame (a post, the rail) bent the ball's path, so
        where it crossed the goal line is not on the straight step from the last frame.
        """
        bi = cur.ball_index
        if not cur.present[bi]:
            return None
        # unseen, moving or held at rest where it was last seen (a slow push read as no start
        # before it went under a crossbar: mesa-posta's ten minutes, seed 46, frame 16388, a
        # goal called when it was seen again 20 mm in, seven frames late)
        coasting = not cur.seen[bi]
        was_coasting = self._coasting
        self._coasting = self._coasting + 1 if coasting else 0
        if coasting and not was_coasting:
            seen_before = prev.present[bi] and prev.seen[bi]
            self._last_seen = (
                (prev.frame, prev.t_s, (float(prev.ball_xy_mm[0]), float(prev.ball_xy_mm[1])))
                if seen_before
                else None
            )
        since = self._last_seen if was_coasting and not coasting else None
        if 0 < self._coasting <= COAST_FRAMES:
            return None  # wait to see it: what turned it unseen is not in the prediction
        r = cur.ball_radius_mm
        b0 = (float(prev.ball_xy_mm[0]), float(prev.ball_xy_mm[1]))
        b1, n = (
            ball if ball is not None else ((float(cur.ball_xy_mm[0]), float(cur.ball_xy_mm[1])), 1)
        )
        kind, where, margin = self.status(b1, r)
        dt = cur.t_s - prev.t_s
        if prev.present[bi] and dt > 0.0:
            step = float(np.hypot(*(cur.ball_xy_mm - prev.ball_xy_mm)))
            if step > MAX_BALL_MM_S * dt:
                # no ball flies this far in a frame: the source found it again elsewhere (or
                # took a false ball for it); it must be seen in the field before it can leave
                self._was_in = kind == "in"
                return None
        if not self._was_in:
            if kind != "in":
                return None
            self._was_in = True
        # a ball at rest is averaged over its rest; one sample of a rest just begun (a jump no
        # flick explains: the source's false ball beside a hand, gaucha's ten minutes, seed 32,
        # frame 8928, 41 mm off and past the touchline, the ball back in the field the frame
        # after) is confirmed by the frames held, as a moving ball's is
        averaged = n > 1
        sigma = self.noise_mm / float(np.sqrt(n))
        if self.noise_mm <= 0.0:
            sure = True
        elif averaged:
            sure = margin > self.noise_mm / float(np.sqrt(n))
        else:
            # a resting ball's one sample at a new place is confirmed only by frames the source
            # saw: a ball lost under a hand is held where it was last put (gaucha's ten minutes,
            # seed 32, frame 9127: a false ball 18 mm off the throw-in spot, past the touchline,
            # held there two frames while the hand covered the ball on its spot)
            sure = self._confirmed(kind, ahead, r, measured=not bool(cur.moving[bi]))
        if kind in ("goal", "out") and sure:
            line = f"goal_{where}" if kind == "goal" else where
            # unseen past COAST_FRAMES, the prediction is judged: dated, as a ball seen again
            # is, from its last sighting (paulista's ten minutes, seed 33, frame 8072: a shot
            # under the crossbar called 4 frames after it went in)
            dating = since
            if dating is None and self._coasting > COAST_FRAMES:
                dating = self._last_seen
            # a ball at rest past the line, sure on its rest's mean frames after it stopped,
            # got there when its positions went past and stayed (mesa-posta's ten minutes,
            # seed 34, frame 744: stopped 0.4 mm wholly out, called 6 frames after)
            past = self._past_since
            rested = past if dating is None and averaged and past is not None else None
            crossed = (
                self._crossed(b0, b1, cur, ahead, since, turned, line, r)
                if line.startswith("goal")
                else None
            )
            if crossed is not None and (kind == "goal") != (crossed[0] >= 0.0):
                # Wholly past the line between frames, the posts say otherwise where it got
                # there: a ball in past the post's inner face seen a hair wide of it (a goal),
                # or one wide of the post when it crossed seen a hair inside it (out)
                posts, at, grow = crossed
                side = line.split("_")[1]
                depth = float(goal_margins(b1, r, self.field, side)[0][0])
                kind, held = ("goal", posts) if posts >= 0.0 else ("out", -posts)
                call = LineCall(kind, line, min(depth, held), b1, at, sigma_mm=sigma * grow)
                return self._dated(call, dating, cur, rested)
            straight = since is None and not turned and bool(prev.present[bi] and prev.seen[bi])
            call = LineCall(
                kind,
                line,
                margin,
                b1,
                self._crossing(b0, b1, line, r),
                sigma_mm=sigma,
                cross_t_s=self._cross_time(prev, cur, b0, b1, line, r) if straight else None,
            )
            return self._dated(call, dating, cur, rested)
        bounce = self._rail_bounce(prev, cur) if prev.present[bi] else None
        if rail_contact or bounce is not None:
            # Out over the line nearest to where the ball met the rail.
            probe = bounce if bounce is not None else b1
            _, line_a = ball_out_margin(probe, r, self.field)
            line = str(line_a[0])
            return LineCall("out", line, None, b1, self._crossing(b0, probe, line, r), rail=True)
        return None

    def _line_margin(self, xy: tuple[float, float], r: float, line: str) -> float | None:
        """How far a ball at ``xy`` is wholly past ``line`` (negative: short of it); None when
        another line is nearer (a corner)."""
        if line.startswith("goal"):
            side = line.split("_")[1]
            return float(goal_margins(xy, r, self.field, side)[0][0])
        touching = self.touching and not self._on_line_start
        m, name = ball_out_margin(xy, r, self.field, touching)
        return float(m[0]) if str(name[0]) == line else None

    def _cross_time(
        self,
        prev: FrameState,
        cur: FrameState,
        b0: tuple[float, float],
        b1: tuple[float, float],
        line: str,
        r: float,
    ) -> float | None:
        """When the ball got wholly past ``line`` on the straight step from ``b0`` (``prev``)
        to ``b1`` (``cur``); None when it was past already, the margins are not known, or the
        step is not the ball's way before it (struck, or turned, between the frames: not
        travelled at one speed).

        >>> from geometry.tablespec import load_table
        >>> from types import SimpleNamespace as NS
        >>> judge = LineJudge(FieldModel(load_table("brasileira")))
        >>> # the touchline's outer edge at y = 700: wholly past once the centre is at 705
        >>> prev = NS(t_s=0.0, v_mm_s=np.array([[0.0, 5.0]]), moving=np.array([True]))
        >>> cur = NS(t_s=1.0, ball_index=0)
        >>> judge._cross_time(prev, cur, (0.0, 704.0), (0.0, 709.0), "touch_far", 5.0)
        0.2
        >>> prev.moving[0] = False  # struck from rest between the frames: not known
        >>> judge._cross_time(prev, cur, (0.0, 704.0), (0.0, 709.0), "touch_far", 5.0) is None
        True
        """
        bi = cur.ball_index
        dt = cur.t_s - prev.t_s
        v0 = prev.v_mm_s[bi]
        step = np.asarray(b1, float) - np.asarray(b0, float)
        s0, s1 = float(np.hypot(*v0)) * dt, float(np.hypot(*step))
        if not prev.moving[bi] or dt <= 0.0 or s0 <= 0.0 or s1 <= 0.0:
            return None
        if float(v0 @ step) * dt < _SAME_WAY * s0 * s1 or not 0.7 <= s1 / s0 <= 1.3:
            return None
        m0, m1 = self._line_margin(b0, r, line), self._line_margin(b1, r, line)
        if m0 is None or m1 is None or not m0 < 0.0 < m1:
            return None
        return float(prev.t_s + m0 / (m0 - m1) * dt)

    def _dated(
        self,
        call: LineCall,
        since: tuple[int, float, tuple[float, float]] | None,
        cur: FrameState,
        rested: tuple[int, float, tuple[float, float]] | None = None,
    ) -> LineCall:
        """``call`` dated to the first frame after ``since`` (the ball's last sighting before
        it went unseen) at which the straight path from there to where it is seen now held it
        wholly past the call's line (for a goal, between the posts); or to ``rested``, the first
        of the frames since which a resting ball's positions have been past a line; as it is
        otherwise."""
        if rested is not None and rested[0] < cur.frame:
            return replace(call, frame=rested[0], t_s=rested[1])
        if since is None or cur.frame - since[0] < 2:
            return call
        f0, t0, (x0, y0) = since
        r = cur.ball_radius_mm
        x1, y1 = call.ball_xy
        n = cur.frame - f0
        for f in range(f0 + 1, cur.frame):
            a = (f - f0) / n
            xy = (x0 + a * (x1 - x0), y0 + a * (y1 - y0))
            if call.kind == "goal":
                side = call.line.split("_")[1]
                line, posts = (float(v[0]) for v in goal_margins(xy, r, self.field, side))
                held = line > 0.0 and posts >= 0.0
            else:
                held = float(ball_out_margin(xy, r, self.field)[0][0]) > 0.0
            if held:
                return replace(call, frame=f, t_s=t0 + a * (cur.t_s - t0))
        return call

    def _crossed(
        self,
        b0: tuple[float, float],
        b1: tuple[float, float],
        cur: FrameState,
        ahead: list[FrameState],
        since: tuple[int, float, tuple[float, float]] | None,
        turned: bool,
        line: str,
        r: float,
    ) -> tuple[float, tuple[float, float], float] | None:
        """Where the ball seen wholly past goal line ``line`` at ``b1`` got there: ``(posts
        margin, centre, sigma factor)``, or None when that is not known.

        Seen on both frames and nothing turned it, on the straight step from ``b0``. Turned on
        the step (a post, a piece) or unseen since ``since``, on its path after it: back from
        ``b1`` along its step to the next frame it is seen, if that step runs on into the goal
        and reaches the line within the frames it could have crossed in (a ball off the post
        or a goalkeeper and past the line beside it; gaucha's ten minutes, frame 11098). The
        sigma factor is how much extrapolating back widens the position's uncertainty.
        """
        if not turned and since is None:
            posts = self._posts_at_crossing(b0, b1, line, r)
            return None if posts is None else (posts, self._crossing(b0, b1, line, r), 1.0)
        bi = cur.ball_index
        nxt = next((s for s in ahead if s.present[bi] and s.seen[bi]), None)
        if nxt is None:
            return None
        sign = 1.0 if line == "goal_right" else -1.0
        k = nxt.frame - cur.frame
        step = (nxt.ball_xy_mm - np.asarray(b1)) / max(k, 1)
        deeper = sign * float(step[0])
        if k < 1 or deeper <= 0.5:
            return None  # at rest or turned back (the net): no path to run back along
        back = (sign * b1[0] - (self.field.hl + r)) / deeper  # frames before cur
        frames = cur.frame - since[0] if since is not None else 1
        if not 0.0 <= back <= frames:
            return None
        at = (b1[0] - back * float(step[0]), b1[1] - back * float(step[1]))
        g = back / k
        posts = float(self.field.spec.goal_width / 2.0 - (abs(at[1]) + r))
        return posts, at, float(np.hypot(1.0 + g, g))

    def _posts_at_crossing(
        self, b0: tuple[float, float], b1: tuple[float, float], line: str, r: float
    ) -> float | None:
        """The posts margin where the ball's trailing edge crossed the goal line's outer edge
        (None if it was already past it at the previous frame)."""
        sign = 1.0 if line == "goal_right" else -1.0
        edge = self.field.hl + r  # the centre's x when the ball is wholly past
        a, b = sign * b0[0], sign * b1[0]
        if a >= edge or b <= a:
            return None
        f = (edge - a) / (b - a)
        y = b0[1] + f * (b1[1] - b0[1])
        return float(self.field.spec.goal_width / 2.0 - (abs(y) + r))

    def _confirmed(
        self, kind: str, ahead: list[FrameState], r: float, measured: bool = False
    ) -> bool:
        """Whether no frame of the look-ahead contradicts a ``kind`` call by more than twice
        the noise. ``measured``: only frames the source saw count, and one must (a held
        prediction repeats the sample it would confirm)."""
        seen = False
        for s in ahead:
            if not s.present[s.ball_index] or (measured and not s.seen[s.ball_index]):
                continue
            seen = True
            k, _, m = self.status((float(s.ball_xy_mm[0]), float(s.ball_xy_mm[1])), r)
            if kind == "goal" and k != "goal" and m < -2.0 * self.noise_mm:
                return False
            if kind == "out" and k == "in" and m < -2.0 * self.noise_mm:
                return False
        return seen or not measured

    def _rail_bounce(self, prev: FrameState, cur: FrameState) -> tuple[float, float] | None:
        """Where the ball would have been past the rail, if it bounced back in between frames."""
        bi = cur.ball_index
        dt = cur.t_s - prev.t_s
        if dt <= 0.0 or not prev.moving[bi]:
            return None
        r = cur.ball_radius_mm
        p0, v0, v1 = prev.ball_xy_mm, prev.v_mm_s[bi], cur.v_mm_s[bi]
        guess = p0 + v0 * dt
        lims = (self.rail_half[0] - r, self.rail_half[1] - r)
        for axis in (0, 1):
            if abs(guess[axis]) > lims[axis] and np.sign(v1[axis]) == -np.sign(v0[axis]) != 0:
                # A rail turns the ball's way across it round, not its way along it (the
                # rail's friction only slows that): both turned round is a corner's two
                # rails, or no bounce at all (brasileira's ten minutes, seed 43, frame 14094:
                # a fit on a coach's fingertip by the rail, the ball's one sighting there as
                # it was struck from the touchline; seen back on its way a frame later, it
                # read as bounced off the rail, out, and the throw-in given the other way)
                other = 1 - axis
                along = v0[other] * v1[other] < 0.0
                along &= min(abs(v0[other]), abs(v1[other])) > RAIL_ALONG_MM_S
                if along and abs(guess[other]) <= lims[other]:
                    continue
                return (float(guess[0]), float(guess[1]))
        return None

    def _crossing(
        self, b0: tuple[float, float], b1: tuple[float, float], line: str, r: float
    ) -> tuple[float, float]:
        """Where the ball's centre crossed ``line`` (its outer edge) between two frames."""
        f = self.field
        axis, edge = (0, f.hl) if line.startswith("goal") else (1, f.hw)
        sign = 1.0 if line in ("goal_right", "touch_far") else -1.0
        a, b = sign * b0[axis], sign * b1[axis]
        if b <= a or not (a <= edge <= b):
            return b1
        s = (edge - a) / (b - a)
        return (b0[0] + s * (b1[0] - b0[0]), b0[1] + s * (b1[1] - b0[1]))
