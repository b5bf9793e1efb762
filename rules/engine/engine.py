"""The rule-set engine: tracked frames in, ``event/1`` events out, frame by frame.

:class:`RuleEngine` is one small stateful object per match, fed :class:`FrameState` records in
order (:meth:`RuleEngine.update`), returning the events it decided at that call. One engine
class serves the five rule sets; what differs is a :class:`rules.engine.profiles.Profile` and
a turn model (:mod:`rules.engine.turns`); the ball's calls live in
:mod:`rules.engine.ball_calls`, the running state in :mod:`rules.engine.base`. Per processed
frame, in this order:

0. a ball that jumps with nothing moving it was carried by a hand: play had stopped (a call
   the camera did not see, a referee's decision); the next flick restarts it;
1. the flick (:mod:`rules.engine.motion`): a lance begins (``lance``); a restart it takes is
   checked for its distances (``distance_violation``, :mod:`rules.checks.distances`); the
   lance team's buttons in an offside position are recorded (:mod:`rules.engine.calls`);
2. the frame's contacts, in time order: ``touch``, ``contact``, and from them ``foul``
   (the flicked piece hits an opponent before the ball), ``offside`` (a team-mate in an
   offside position at the flick plays the ball, 000 REGRA 11 B-C), ``possession``;
3. the lines while the ball is in play (:mod:`rules.engine.lines`): ``goal``, ``ball_out``
   with its restart and the team that takes it (from the last touch);
4. ``ball_moving`` / ``ball_stopped``; the clock (``time_up``);
5. when everything has stopped (for ``settle_frames`` more frames), the lance ends:
   ``furada``, the at-rest calls (``ball_neutral``, ``goalkeeper_ball``, ``ball_blocked`` /
   ``ball_obstructed`` / ``ball_enclosed`` and the ``technical_foul`` of a shut-in ball
   kept too long), the turn (``turn_over``,
   ``touch_limit``), and the half's end (``half_time``, ``full_time``).

A call that stops play (goal, out, foul, offside, a limit) makes the ball dead until the next
flick, which takes the restart. The engine follows what it sees: a lance by the team without
the turn is reported (``out_of_turn``) and then counted for that team. Contacts at the same
instant are taken piece-piece first (:func:`rules.engine.motion.contact_order`).

Latency and debouncing: contacts may be reported up to ``lag_frames`` frames after their
frame (a tracker finds them from the motion around them). The engine holds that many frames
back, processes each frame with all its contacts, and uses the held frames as a look-ahead to
confirm line calls and slow starts. Every event's ``frame`` is its decisive frame; it is
emitted ``lag_frames`` input frames later (0 for exact data).

Examples
--------
>>> from geometry.tablespec import load_table
>>> engine = RuleEngine(load_table("brasileira"), "brasileira")
>>> engine.profile.turns, engine.teams
('jogada_padrao', {'A': 'left', 'B': 'right'})
"""

from __future__ import annotations

from typing import Any

import numpy as np

from geometry.lines import ball_out_margin
from geometry.scene import Scene
from rules.checks import CHECKS
from rules.engine.ball_calls import BallCalls
from rules.engine.base import EngineOptions, HeldFoul, Row, pt, same_touch
from rules.engine.calls import foul_restart, offside_positions
from rules.engine.events import Event, EventSink, xy
from rules.engine.lance import Lance, Restart
from rules.engine.motion import contact_order, find_flick
from rules.engine.state import FrameState
from rules.engine.turns import TouchCount

#: restarts of a ball that went out over a line: taken once it is placed back
_FROM_A_LINE = frozenset({"throw_in", "corner", "goal_kick"})

__all__ = ["DECIDABLE", "EngineOptions", "RuleEngine"]

#: Calls a referee's decision (an annotation) can overrule.
#: Contacts that bend the ball's path within a frame (rules.engine.lines: a goal judged where
#: the ball crossed the line assumes a straight step).
_TURNS_BALL = ("ball-post", "ball-rail")
#: How far a flicked piece seen a frame late may have moved on from the ball it struck.
_FLICK_REACH_MM = 40.0
# A held foul waits this long at most for the ball unseen beside its offender at the hit (its
# touch is read once the ball is seen again on two frames), and "beside" is within this gap.
_HIDDEN_BALL_HOLD_S = 0.5
_BESIDE_MM = 10.0
DECIDABLE = ("goal", "ball_out", "foul", "offside", "goalkeeper_ball", "touch_limit")


class RuleEngine(BallCalls):
    """Events of one match under one rule set (see the module docstring and
    :class:`rules.engine.base.EngineBase` for the parameters)."""

    # ------------------------------------------------------------------ feeding
    def update(self, state: FrameState) -> list[Event]:
        """Feed one frame; returns the events decided now (their ``frame`` may be earlier)."""
        if not isinstance(state, FrameState):
            raise TypeError(f"update: expected a FrameState, got {type(state).__name__}")
        if self._last_frame is not None and state.frame <= self._last_frame:
            raise ValueError(
                f"update: frames must increase, got {state.frame} after {self._last_frame}"
            )
        self._last_frame = state.frame
        self._received.append(state)
        for row in state.contacts.rows():
            self._buckets.setdefault(row[0], []).append(row)
        out: list[Event] = []
        while len(self._received) > self.options.lag_frames:
            out += self._process(self._received.popleft(), list(self._received))
        self.emitted_at += [state.frame] * len(out)
        return out

    def finish(self) -> list[Event]:
        """Process the frames still held back (end of the video)."""
        return self._flush()

    def interrupt(self) -> list[Event]:
        """The frames after the last one fed are not seen (the camera lost to a bumped table).

        The frames held back are decided now, with no look-ahead past the gap (a held foul
        with no more contacts to wait for), and the next frame fed is not compared with the
        last one: no flick, ball carried by hand, line crossing or offside-line passing is
        read across the gap, and a ball lying outside must be seen in the field before it can
        leave it. The match (score, clock, lance, turn, ball in play) goes on. Returns the
        events decided.
        """
        out = self._flush()
        self._gap = self._prev is not None
        return out

    def _flush(self) -> list[Event]:
        out: list[Event] = []
        last = self._last_frame if self._last_frame is not None else -1
        while self._received:
            out += self._process(self._received.popleft(), list(self._received))
        if self._held_foul is not None and self._prev is not None:
            sink = EventSink(self._prev.frame, self._prev.t_s)
            self._settle_foul([], sink)
            self.events += sink.events
            out += sink.events
        self.emitted_at += [last] * len(out)
        return out

    # ------------------------------------------------------------------ one frame
    def _process(self, cur: FrameState, ahead: list[FrameState]) -> list[Event]:
        rows = sorted(
            (r for k in [k for k in self._buckets if k <= cur.frame] for r in self._buckets.pop(k)),
            key=contact_order,
        )
        prev = self._prev
        if prev is None or not np.array_equal(prev.pieces.ids, cur.pieces.ids):
            self._roster(cur)
        if prev is None:
            self._remember(cur, rows)
            return []
        gap, self._gap = self._gap, False  # the first frame after frames not seen (interrupt)
        if cur.t_s > prev.t_s and not gap:
            self._fps = 1.0 / (cur.t_s - prev.t_s)
        sink = EventSink(cur.frame, cur.t_s)
        if self._held_foul is not None:
            self._settle_foul(rows, sink, (prev, cur))
        if gap:  # what came before the gap explains nothing after it
            self._prev2, self._prev_rows = None, []
            self._older_rows.clear()
            self._offside_line = None
        if gap or not self.in_play:
            self._jump = None  # (a jump is judged on the frame after it only while in play)
        if not gap and self.in_play and self._carried(prev, cur, ahead, rows):
            # A hand moved the ball: play was stopped (a restart the camera did not see
            # called, or a referee's decision); the next flick restarts it.
            self.in_play = False
            if self.lance is not None and not self.lance.ended:
                self.lance.dead = "by_hand"
            self.pending = Restart("", None)
        # the lance's own piece flagged moving up to three frames after its start is that
        # flick (gaucha's ten minutes, seed 38, frame 1708: A11 flicked from under a hand into
        # B2, a foul at 1706, first seen at 1707 and flagged at 1708: read as the free kick
        # taken); no coach flicks a piece twice in a tenth of a second
        own_start = self.lance is not None and self.lance.frame >= prev.frame - 2
        ignore = {self.lance.piece} if self.lance and own_start else set()
        # a piece struck by another in an earlier frame and flagged moving only now is no flick
        # (STRUCK_FRAMES); ``b`` is the struck one (``a``, the faster before the hit, may be a
        # flick made late in a frame and flagged late itself)
        earlier = self._prev_rows + [r for old in self._older_rows for r in old]
        ignore |= {r[3] for r in earlier if r[4] == "piece-piece"}
        prev2 = self._older_rows[-1] if self._older_rows else []
        flicked = None
        if not gap:
            flicked = find_flick(
                prev, cur, ahead, rows + self._prev_rows + prev2, self.options.start_mm, ignore
            )
        if flicked is None and not gap:
            flicked = self._hidden_flick(prev, cur, ahead, rows)
        loose, self._loose_hits = self._loose_hits, []
        if flicked is not None:
            self._start_lance(flicked, prev, cur, sink)
            self._own_first_touch(prev, sink)
            self._own_first_hits(loose, sink)
        elif not gap:
            late = self._late_flick(cur, rows)
            if late is not None:
                assert self._rest is not None
                self._start_lance(late[0], self._rest, cur, sink, late[1])
        rail = False
        self._frame_touches = []
        for row in rows:
            rail |= self._contact(row, prev, cur, sink)
        ball = self.lines.ball_xy(None if gap else prev, cur, ahead)
        self._ball_est = ball[0]
        if gap:
            self.lines.found_again(ball[0], cur.ball_radius_mm)
        elif self.in_play:
            turned = any(r[4] in _TURNS_BALL for r in rows)
            call = self.lines.judge(prev, cur, ahead, rail, ball, turned)
            if call is not None:
                self._line_call(call, sink)
            elif self._offside_line is not None:
                self._gaucha_offside(cur, sink)
        bi = cur.ball_index
        if bool(cur.moving[bi]) != bool(prev.moving[bi]):
            self._ball_motion(cur, bool(cur.moving[bi]), sink)
            lance = self.lance
            if cur.moving[bi] and lance is not None and not lance.ended and not lance.touches:
                # something set the ball going and the source saw no touch: the lance's
                # flicked piece may no longer be judged as reaching an opponent first
                lance.unseen_touch = True
        if self.clock.tick(cur.t_s, bool(cur.moving[bi]) and self.in_play):
            sink.emit(
                "time_up",
                article=self.profile.article("halves"),
                half=self.clock.half,
                clock_s=self.clock.clock_s,
            )
        # A flick is motion even when the source flags the flicked piece moving a frame late
        # (a slow start): the lance it begins must not end at once as a furada.
        moving_now = bool(cur.moving[cur.present].any()) or flicked is not None
        self._still = 0 if moving_now else self._still + 1
        at_rest = self._still > self.options.settle_frames
        if at_rest and self.lance is not None and not self.lance.ended:
            self._end_lance(cur, sink)
        if self.clock.time_up and not self.clock.over:
            idle = self.lance is None or self.lance.ended
            ends = (at_rest and idle) if self.clock.mode == "wall" else not self.in_play
            if ends:
                self._end_half(sink)
        if self.annotations is not None:
            for d in self.annotations.unmatched_decisions(cur.frame, self._fps):
                if d.holds and d.event in DECIDABLE:
                    sink.emit(
                        d.event,
                        d.team,
                        d.piece,
                        article="referee's decision",
                        decision=d.note,
                        unmatched=True,
                    )
        self._remember(cur, rows)
        self.events += sink.events
        return sink.events

    def _remember(self, cur: FrameState, rows: list[Row]) -> None:
        bi = cur.ball_index
        # at rest: seen, not moving, and not off where it was a frame before (a ball struck
        # from under a hand is seen where its jump took it before it is flagged moving; a rest
        # there would come after the touch reported late: gaucha's ten minutes, seed 36, frame
        # 360, the late flick lost and the throw-in at 394 given to the wrong team)
        prev = self._prev
        jumped = (
            prev is not None
            and prev.present[bi]
            and float(np.hypot(*(cur.ball_xy_mm - prev.ball_xy_mm))) > self._jump_mm
        )
        if cur.seen[bi] and not cur.moving[bi] and not jumped:
            self._rest = cur
        self._older_rows.append(self._prev_rows)
        self._prev2, self._prev, self._prev_rows = self._prev, cur, rows
        self._recent.append(cur)

    @property
    def _jump_mm(self) -> float:
        """A step of the ball over a frame longer than this, not moving, is no fit's noise."""
        return 3.0 + 6.0 * self.options.noise_mm

    def _carried(
        self, prev: FrameState, cur: FrameState, ahead: list[FrameState], rows: list[Row]
    ) -> bool:
        """The ball jumped with nothing moving it: a hand carried it (judged a frame late when
        the ball went unseen the frame after the jump)."""
        bi = cur.ball_index
        jumped, self._jump = self._jump, None
        if jumped is not None:
            landed, step = jumped  # (``cur`` is the unseen frame after the jump)
        else:
            if not (prev.present[bi] and cur.present[bi]) or prev.moving[bi] or cur.moving[bi]:
                return False
            landed, step = cur.ball_xy_mm, cur.ball_xy_mm - prev.ball_xy_mm
        if ahead and ahead[0].moving[ahead[0].ball_index]:
            return False
        if any(r[4] == "piece-ball" for r in rows + self._prev_rows):
            return False
        jump = float(np.hypot(*step))
        bar = self._jump_mm
        if jump <= bar:
            return False
        # ... and it stays where it was put: a ball going on along its jump the frame after
        # was struck, its moving flag and touch a frame or two behind (mesa-posta's ten
        # minutes, seed 34, frame 3744: struck from under a hand, play stopped as carried,
        # and the out 14 frames on was never called)
        if ahead and ahead[0].present[bi]:
            if not ahead[0].seen[bi] and jumped is None:
                # unseen then, where the tracker guessed it tells nothing: judged on the frame
                # after (gaucha's ten minutes, seed 36, frame 360: struck 52 mm from under a
                # hand, then unseen, guessed where it landed; the touch came 4 frames late,
                # play stopped as carried, and the out at 394 was never called)
                self._jump = (landed, step)
                return False
            # (at half its jump or more: friction takes a tenth a frame; one put down stops
            # dead, within its fits' noise - mesa-posta's ten minutes, seed 42, frame 14612:
            # pushed on at 6.0 then 5.4 mm a frame by B10, read as carried, the foul lost)
            on = ahead[0].ball_xy_mm - landed
            going = float(np.hypot(*on)) > max(0.5 * jump, 2.0 * self.options.noise_mm)
            if going and float(on @ step) > 0.9 * jump * float(np.hypot(*on)):
                return False
        return True

    def _hidden_flick(
        self, prev: FrameState, cur: FrameState, ahead: list[FrameState], rows: list[Row]
    ) -> str | None:
        """No lance under way and the ball at rest, then struck by a piece that was not seen
        to start (flicked under its coach's hand, frozen in the tracks): that piece's flick."""
        if self.lance is not None and not self.lance.ended:
            return None
        bi = cur.ball_index
        if prev.moving[bi] or not prev.present[bi]:
            return None
        if cur.hands_over_table is False and prev.hands_over_table is False:
            return None
        if not (cur.moving[bi] or any(s.moving[s.ball_index] for s in ahead[:1])):
            return None  # a touch the ball does not follow sets nothing going
        moving = {str(p) for p in cur.pieces.ids[prev.moving & prev.present]}
        for _, _, a, b, kind in rows:
            piece = a if b == "ball" else b
            if kind == "piece-ball" and piece in self.team_of and piece not in moving:
                return piece
        return None

    def _late_flick(self, cur: FrameState, rows: list[Row]) -> tuple[str, Row] | None:
        """No lance under way, the ball set going since it was last seen at rest, and a touch
        of it reported only now, made after that rest by a piece at rest then: that piece's
        flick, seen late (flicked under its coach's hand, the ball lost to sight as it rolled
        and the touch credited by the striker's path once its hand left: offside drill 4010,
        001 Art. XXXII's positions then taken at the rest, when the pass was played)."""
        if self.lance is not None and not self.lance.ended:
            return None
        rest = self._rest
        if rest is None or not np.array_equal(rest.pieces.ids, cur.pieces.ids):
            return None
        bi = cur.ball_index
        if not cur.present[bi]:
            return None
        moved = float(np.hypot(*(cur.ball_xy_mm - rest.ball_xy_mm)))
        if not (cur.moving[bi] or moved >= self.options.still_mm):
            return None
        for row in rows:
            frame, _, a, b, kind = row
            piece = a if b == "ball" else b
            if (
                kind == "piece-ball"
                and rest.frame < frame < cur.frame
                and piece in self.team_of
                and not rest.moving[rest.pieces.index(piece)]
            ):
                return piece, row
        return None

    def _play_start(self, piece: str, prev: FrameState, cur: FrameState) -> tuple[float, float]:
        """Where the ball was when the flick that restarts play struck it: at ``prev``, or,
        where a flick made under its coach's hand is seen a frame late and the ball is already
        out of the field at ``prev`` (a goal kick into the own goal: 84 mm in one frame), where
        it rested a frame before, if the flicked piece is seen within reach of that place."""
        at = pt(prev.ball_xy_mm)
        before, bi = self._prev2, prev.ball_index
        r = prev.ball_radius_mm
        if (
            before is None
            or not before.present[bi]
            or before.moving[bi]
            or self.lines.inside(at, r)
            or not np.array_equal(before.pieces.ids, cur.pieces.ids)
        ):
            return at
        rest = pt(before.ball_xy_mm)
        if not self.lines.inside(rest, r):
            return at
        k = int(np.flatnonzero(cur.pieces.ids == piece)[0])
        reach = float(np.max(cur.pieces.size_mm[k])) / 2.0 + r + _FLICK_REACH_MM
        return rest if float(np.hypot(*(cur.pieces.xy_mm[k] - before.ball_xy_mm))) <= reach else at

    # ------------------------------------------------------------------ lances
    def _start_lance(
        self,
        piece: str,
        prev: FrameState,
        cur: FrameState,
        sink: EventSink,
        late: Row | None = None,
    ) -> None:
        """A lance of ``piece``'s flick between ``prev`` and ``cur``; ``late``: the touch, reported
        late, that showed it (the lance is stamped with the touch's frame and time)."""
        frame, t_s = cur.frame, cur.t_s
        if late is not None:
            frame = int(late[0])
            t_s = round(cur.t_s - (cur.frame - frame) / self._fps, 4)
        if self._ball_off_the_field(prev):
            return
        if self.lance is not None and not self.lance.ended:
            self._end_lance(prev, sink)  # a flick before everything stopped: close the last
        team = self.team_of.get(piece)
        if team is None:
            return
        restart, self.pending = self.pending, None
        if restart is not None and restart.kind == "kick_off" and self._ends_unread:
            self._read_ends(prev, sink)
        before = self.lance
        self._closed = before
        first = before is None or before.team != team or restart is not None
        self.n_lances += 1
        lance = Lance(
            self.n_lances,
            piece,
            team,
            frame,
            t_s,
            prev.pieces,
            prev.ball_xy_mm.copy(),
            first,
            restart,
        )
        assumed: list[str] = []
        if self.annotations is not None:
            lance.announced = self.annotations.take_shot(team, piece, frame, t_s)
            lance.keeper_placed = self.annotations.take_keeper(self.other(team), frame, t_s)
        if restart is not None and restart.kind == "kick_off" and restart.team is None:
            restart.team = team
            assumed.append("the first team to flick kicks off")
        if restart is not None and restart.kind == "kick_off" and self.first_kick_off is None:
            self.first_kick_off = restart.team
        self.lance = lance
        was_in_play, self.in_play = self.in_play, True
        if self.options.throw_in_grace:
            # where the ball rests: the rest's mean (a noisy source's one sample can put a ball
            # placed on the line, 001 Art. XXXIV § 2, a fraction of a millimetre off it)
            bi = prev.ball_index
            at = self._ball_est if not prev.moving[bi] else pt(prev.ball_xy_mm)
            self.lines.lance_started(at, prev.ball_radius_mm)
        if not was_in_play:
            self.lines.play_started(self._play_start(piece, prev, cur), prev.ball_radius_mm)
        self.clock.start(t_s)
        e = sink.emit(
            "lance",
            team,
            piece,
            article=self.profile.article("lance"),
            number=lance.number,
            first=first,
            restart=restart.kind if restart is not None and restart.kind else None,
            announced=lance.announced,
            assumed=assumed,
        )
        e["frame"], e["t"] = frame, t_s
        if restart is not None and restart.kind:
            self._restart_distances(restart, team, prev, sink)
        self._offside_at_flick(lance, before, prev, sink)
        self.turns.on_lance_start(lance, sink)
        if lance.dead == "touch_limit":
            restart = Restart(
                "indirect_free_kick",
                self.other(team),
                pt(prev.ball_xy_mm),
                self._lances("indirect_free_kick"),
            )
            self._stop(restart, "touch_limit")

    def _ball_off_the_field(self, prev: FrameState) -> bool:
        """Whether play is stopped for the ball's going out over a line (a throw-in, a corner,
        a goal kick) with the ball at rest a radius or more wholly past a line: no such
        restart is taken from there (the ball is placed first: on the touchline for a
        throw-in, 001 Art. XXXIV; at the corner; in the goal area), so a piece moved meanwhile
        is its coach's setting, not a lance (gaucha's ten minutes, seed 44, frame 15422: A2
        carried by hand, read as the throw-in taken and missed; the ball, carried to the line
        then, read as live and out again). Not a kick-off or a free kick: their ball was not
        seen to leave, and one read off the field is a false sighting (a kick-off's ball
        read in a goal on a dim render, the kick-off lance lost)."""
        if self.in_play or self.pending is None or self.pending.kind not in _FROM_A_LINE:
            return False
        bi = prev.ball_index
        if not prev.present[bi] or prev.moving[bi]:
            return False
        r = prev.ball_radius_mm
        return float(ball_out_margin(pt(prev.ball_xy_mm), r, self.lines.field)[0][0]) >= r

    def _restart_distances(
        self, restart: Restart, team: str, prev: FrameState, sink: EventSink
    ) -> None:
        """The distances a restart constrains, measured at rest before its flick."""
        if "min_distance" not in self.rules.checks:
            return
        context = {
            "restart": restart.kind,
            "team": restart.team or team,
            "spot": xy(prev.ball_xy_mm),
        }
        scene = Scene(self.table.name, dict(self.teams), prev.known_pieces, context)
        for v in CHECKS["min_distance"](scene, self.ctx):
            # "removal": within reach the kicker *may* remove a piece; it is no violation.
            if v.holds is False and v.extra.get("constraint") != "removal":
                sink.emit(
                    "distance_violation",
                    v.team,
                    v.piece,
                    v.margin_mm,
                    v.article,
                    restart=restart.kind,
                    constraint=v.extra.get("constraint"),
                    other=v.extra.get("other"),
                    limit_mm=v.extra.get("limit_mm"),
                    detail=v.detail,
                )

    def _offside_at_flick(
        self, lance: Lance, before: Lance | None, prev: FrameState, sink: EventSink
    ) -> None:
        mode = self.profile.offside
        self._offside_line = None
        self.offside_line = None
        if mode is None or "offside_position" not in self.rules.checks:
            return
        lance.offside, line_x = offside_positions(
            prev.known_pieces, self.teams, lance.team, self.ctx
        )
        self.offside_line = None if line_x is None else (lance.team, line_x)
        exc = self.options.offside_exceptions
        if mode == "goalkeeper_only":
            # 001 Art. XXXII § 1 b: the ball leaves the defence half and passes the last
            # defender; from the attacking half no lance is offside (not even a team-mate's
            # touch beyond the line: gaucha's ten minutes, frame 7322)
            sign = 1.0 if self.teams[lance.team] == "left" else -1.0
            if sign * float(prev.ball_xy_mm[0]) >= 0.0:
                lance.offside = {}
            elif lance.offside and line_x is not None:
                self._offside_line = (sign * line_x, sign)
            return
        if "D" in exc and lance.first:
            lance.offside_exempt = "000 REGRA 11 D: the coach's first lance"
        # 000 REGRA 11 A: the flicked button was offside when a team-mate played the ball.
        if (
            self.options.offside_flicked
            and before is not None
            and before.team == lance.team
            and before.piece != lance.piece
            and not before.offside_exempt
            and lance.piece in before.offside
            and not before.dead
            and not (
                "F" in exc
                and before.restart is not None
                and before.restart.kind in ("goal_kick", "throw_in", "corner")
            )
        ):
            ball = (float(prev.ball_xy_mm[0]), float(prev.ball_xy_mm[1]))
            self._offside_call(lance, lance.piece, before.offside[lance.piece], "A", ball, sink)

    def _end_lance(self, cur: FrameState, sink: EventSink) -> None:
        lance = self.lance
        assert lance is not None
        lance.ended = True
        self._offside_line = None
        moved = float(np.hypot(*(cur.ball_xy_mm - lance.ball_xy0))) >= self.options.still_mm
        furada = not lance.ball_touched and not moved and not lance.dead
        if furada:
            sink.emit("furada", lance.team, lance.piece, article=self.profile.article("furada"))
        if self.in_play and not lance.dead:
            self._rest_calls(cur, lance, sink)
        if (
            isinstance(self.turns, TouchCount)
            and self.in_play
            and not lance.dead
            and self.turns.at_limit()
            and not furada
        ):
            self._collective_limit(cur, lance, sink)
        self.turns.on_lance_end(lance, sink, furada)
        if self.in_play:
            self._shut_in(cur, lance, sink)

    # ------------------------------------------------------------------ contacts
    def _contact(self, row: Row, prev: FrameState, cur: FrameState, sink: EventSink) -> bool:
        _, t, a, b, kind = row
        lance = self.lance
        live = self.in_play and lance is not None and not lance.ended
        if kind == "piece-ball":
            piece = a if a != "ball" else b
            # the same touch while the ball keeps bouncing on the piece (touch_merge_s); the
            # piece is the last on the ball again all the same (a ball squeezed between two)
            if same_touch(self._ball_contact_t, piece, t, self.options.touch_merge_s):
                if live and self.team_of.get(piece) is not None:
                    self._frame_touches.append((t, self.last_touch))
                    self.last_touch = piece
                return False
            held = self._held_foul
            if held is not None and piece == held.offender:
                held.cleared |= t <= held.t + self.options.order_doubt_s
            team = self.team_of.get(piece)
            e = sink.emit("touch", team, piece, article=self.profile.article("lance"), contact_t=t)
            if row[0] < sink.frame:  # reported beyond the lag (a ball seen again only later)
                e["frame"] = int(row[0])
                e["t"] = round(sink.t_s - (sink.frame - row[0]) / self._fps, 4)
            if not live or team is None:
                return False
            assert lance is not None
            self._frame_touches.append((t, self.last_touch))
            self._lance_touch(lance, piece, team, sink)
            if self.kind_of.get(piece) == "goalkeeper" and team != lance.team:
                lance.keeper_touched = True
            elif (
                piece != lance.piece
                and team == lance.team
                and piece in lance.offside
                and not lance.offside_exempt
                and not ("E" in self.options.offside_exceptions and lance.keeper_touched)
            ):
                ball = (float(cur.ball_xy_mm[0]), float(cur.ball_xy_mm[1]))
                self._offside_call(lance, piece, lance.offside[piece], "B", ball, sink)
            return False
        if kind == "piece-piece":
            sink.emit(
                "contact",
                self.team_of.get(a),
                a,
                article=self.profile.article("lance"),
                other=b,
                contact_t=t,
            )
            if live:
                assert lance is not None
                if row[0] < sink.frame:
                    self._late_striker(lance, a, b, t)
                    closed = self._closed_lance_of(lance, a, b, t)
                    if closed is not None:
                        self._foul_check(closed, a, b, t, prev, cur, sink)
                        return False
                self._foul_check(lance, a, b, t, prev, cur, sink)
            else:
                self._loose_hits.append((row, prev, cur))
            return False
        return kind == "ball-rail"

    def _lance_touch(self, lance: Lance, piece: str, team: str, sink: EventSink) -> None:
        """``piece`` (of ``team``) touched the ball under ``lance``: the last touch, one of the
        lance's; its own piece's first touch gives its team the ball."""
        self.last_touch = piece
        lance.touches.append(piece)
        if piece == lance.piece and not lance.touched:
            lance.touched = True
            if self.possessor != team:
                self.possessor = team
                sink.emit(
                    "possession",
                    team,
                    piece,
                    article=self.profile.article("possession") or self.profile.article("turn"),
                )

    def _own_first_touch(self, prev: FrameState, sink: EventSink) -> None:
        """The lance just begun owns its piece's touch of the resting ball reported the frame
        before, when no lance of its own was under way: a piece flicked into the ball at once
        touches it in the frame it starts, and its start may be read a frame later
        (brasileira's ten minutes, seed 43, frame 8683: B4 on the ball, then into A10 at
        8684; its lance read at 8684, the touch outside it, the hit on A10 called a foul, 000
        REGRA 12 FALTA). Not when the ball was moving before (a ball rolling into a resting
        piece touches it: the lance then under way's)."""
        lance = self.lance
        if lance is None or lance.ended or lance.touched or not self.in_play:
            return
        earlier = self._prev2
        if earlier is None or earlier.moving[earlier.ball_index]:
            return
        for _, _, a, b, kind in sorted(self._prev_rows, key=contact_order):
            if kind == "piece-ball" and lance.piece in (a, b):
                self._lance_touch(lance, lance.piece, lance.team, sink)
                return

    def _own_first_hits(
        self, loose: list[tuple[Row, FrameState, FrameState]], sink: EventSink
    ) -> None:
        """The lance just begun owns its piece's hits on others the frame before, when no lance
        was under way: the tracker flags a flicked piece moving a frame after its start at
        times, and a piece flicked into the opponent it rested beside hits it at once (gaucha's
        ten minutes, frame 1323: B9 into A10, 000 REGRA 12 FALTA; its lance began a frame
        after the hit and the foul was lost). Judged as a hit of the lance would be."""
        lance = self.lance
        if lance is None or lance.ended:
            return
        for row, prev, cur in loose:
            _, t, a, b, _ = row
            if lance.piece in (a, b) and self.in_play:
                self._foul_check(lance, a, b, t, prev, cur, sink)

    def _closed_lance_of(self, lance: Lance, a: str, b: str, t: float) -> Lance | None:
        """The lance the current one closed, when a hit reported late is its piece's, made
        before the current one began: a piece flicked from under its coach's hand into an
        opponent there, who struck a third piece unseen; that one's start, seen first, began
        a lance of its own and closed the flick's as a furada before the hit was known
        (nacional's ten minutes, frame 6706: B9 into A11, A11 into A9; the foul, 000 Art. 18,
        lost)."""
        closed = self._closed
        if (
            closed is None
            or lance.piece in (a, b)
            or closed.piece not in (a, b)
            or not (closed.t_s - 1.5 / self._fps <= t < lance.t_s)
            or closed.dead
            or not self.in_play
        ):
            return None
        # that lance read from the struck piece's start is the striker's (_late_striker)
        self._late_striker(closed, a, b, t)
        return closed if closed.piece == a else None

    def _late_striker(self, lance: Lance, a: str, b: str, t: float) -> None:
        """A hit reported late (beyond the lag) by piece ``a`` on the piece whose start began
        the lance, before that start: the lance is ``a``'s flick, not ``b``'s. A piece flicked
        from under its coach's hand is frozen until it comes out, and the piece it struck is
        seen leaving first (gaucha's ten minutes, frame 14307: A6 into B3, which struck the
        ball at once; the hit found two frames on, when A6 was seen again: a foul, 000 REGRA
        12 FALTA, 001 Art. XXIV, read as B3's lance). Only a hit on an opponent is taken
        back so (the foul is the call it changes)."""
        team = self.team_of.get(a)
        if (
            b != lance.piece
            or team is None
            or team == lance.team
            or t > lance.t_s
            or lance.movers
            or lance.hit_own_first
            or lance.dead
            or a not in lance.before.ids
        ):
            return
        lance.piece, lance.team = a, team
        lance.touched = False  # the struck piece's touch of the ball, not the flicked one's

    def _foul_check(
        self,
        lance: Lance,
        a: str,
        b: str,
        t: float,
        prev: FrameState,
        cur: FrameState,
        sink: EventSink,
    ) -> None:
        ta, tb = self.team_of.get(a), self.team_of.get(b)
        if ta is None or tb is None:
            return
        for x, y, ty in ((a, b, tb), (b, a, ta)):
            direct = x == lance.piece and not lance.touched and not lance.unseen_touch
            chain = self.profile.foul_chain and x in lance.movers and not lance.ball_touched
            if not (direct or chain):
                continue
            if ty != lance.team:
                if self.options.order_doubt_s <= 0.0:
                    self._foul(lance, x, y, t, prev, cur, sink, chained=not direct)
                elif self._held_foul is None:
                    self._held_foul = HeldFoul(lance, x, y, t, prev, cur, not direct)
                return
            if direct:
                lance.hit_own_first = True
            lance.movers.add(y)
            return
        if lance.ball_touched and ta != tb and lance.team in (ta, tb) and not lance.announced:
            lance.displaced_after_ball = True  # 002 Do acionamento 5
            if isinstance(self.turns, TouchCount):
                self.turns.note_displacement(lance)

    def _settle_foul(
        self, rows: list[Row], sink: EventSink, now: tuple[FrameState, FrameState] | None = None
    ) -> None:
        """Call the held foul (stamped with its own frame) unless its offender touched the
        ball within ``order_doubt_s`` after the hit, in its frame or in ``rows`` (the next
        frame's, where a touch reported late lands), the ball was seen set going with no touch
        by then, or play stopped meanwhile. While the ball, beside the offender at the hit, is
        unseen in either of the frames ``now`` (the last and this one), it is held on: its
        touch is found once the ball is seen again (mesa-posta's ten minutes, seed 46, frame
        16385: A11 pushed the ball on the goal line as it struck the goalkeeper, the ball under
        the crossbar ten frames; the foul called, the goal lost)."""
        held, self._held_foul = self._held_foul, None
        assert held is not None
        doubt = self.options.order_doubt_s
        for _, t, a, b, kind in rows:
            if kind == "piece-ball" and held.offender in (a, b) and t <= held.t + doubt:
                held.cleared = True
        if held.cleared or held.lance.dead or not self.in_play:
            return
        if held.lance.unseen_touch and not held.chained:
            # the ball set going by then with no touch seen (flagged moving frames after it
            # started; a flick from under a hand whose track was frozen): the flicked piece
            # may have reached it first, as for a hit seen after that (_foul_check)
            return
        if now is not None and self._ball_unseen_beside(held, *now):
            self._held_foul = held
            return
        own = EventSink(held.cur.frame, held.cur.t_s)
        self._foul(
            held.lance, held.offender, held.victim, held.t, held.prev, held.cur, own, held.chained
        )
        sink.events += own.events

    @staticmethod
    def _ball_unseen_beside(held: HeldFoul, prev: FrameState, cur: FrameState) -> bool:
        """Whether the ball, within ``_BESIDE_MM`` of the held foul's offender at the hit, is
        unseen in ``prev`` or ``cur``, within ``_HIDDEN_BALL_HOLD_S`` of the hit."""
        if cur.t_s - held.t > _HIDDEN_BALL_HOLD_S:
            return False
        unseen = False
        for st in (prev, cur):
            if len(st.seen) == len(st.pieces.ids):
                unseen |= not bool(st.seen[np.flatnonzero(st.pieces.kind == "ball")[0]])
        if not unseen:
            return False
        at = held.cur.pieces
        ids = [str(x) for x in at.ids]
        if held.offender not in ids:
            return False
        o, bi = ids.index(held.offender), int(np.flatnonzero(at.kind == "ball")[0])
        gap = float(np.hypot(*(at.xy_mm[o] - at.xy_mm[bi])))
        gap -= float(at.size_mm[o].max()) / 2.0 + float(at.size_mm[bi, 0]) / 2.0
        return gap <= _BESIDE_MM

    def _frames_about(
        self, t: float, prev: FrameState, cur: FrameState
    ) -> tuple[FrameState, FrameState]:
        """The two frames judged either side of time ``t``: ``prev`` and ``cur`` unless the
        contact came before ``prev`` (found late, under a hand: gaucha's ten minutes, seed 38,
        frame 7611, a foul found six frames on put where the offender had gone since, 94 mm
        from where it struck), then the recent frames about it with the same roster."""
        if t >= prev.t_s:
            return prev, cur
        ids = cur.pieces.ids
        after = prev
        for old in reversed(self._recent):
            if old.t_s >= prev.t_s:
                continue
            if not np.array_equal(old.pieces.ids, ids):
                break
            if old.t_s <= t:
                return old, after
            after = old
        return after, after

    def _foul(
        self,
        lance: Lance,
        offender_piece: str,
        victim: str,
        t: float,
        prev: FrameState,
        cur: FrameState,
        sink: EventSink,
        chained: bool,
    ) -> None:
        i = cur.pieces.index(offender_piece)
        before, after = self._frames_about(t, prev, cur)
        span = after.t_s - before.t_s
        s = min(max((t - before.t_s) / span, 0.0), 1.0) if span > 0 else 1.0
        at = before.pieces.xy_mm[i] + s * (after.pieces.xy_mm[i] - before.pieces.xy_mm[i])
        at_xy = (float(at[0]), float(at[1]))
        offender = lance.team
        restart, article, margin = foul_restart(
            self.profile,
            self.field,
            self.teams,
            offender,
            at_xy,
            self.kind_of.get(victim, "button"),
        )
        d = self._decision("foul", sink)
        holds = d.holds if d is not None else True
        awarded = self.other(offender)
        hl, hw = self.field.hl - 7.0, self.field.hw - 7.0
        spot = (
            self.field.penalty_mark(self.teams[offender])
            if restart == "penalty"
            else (float(np.clip(at_xy[0], -hl, hl)), float(np.clip(at_xy[1], -hw, hw)))
        )
        extra: dict[str, Any] = {"decision": d.note} if d is not None else {}
        e = sink.emit(
            "foul",
            offender,
            offender_piece,
            margin,
            article,
            holds,
            at=xy(at_xy),
            victim=victim,
            awarded_to=awarded,
            restart=restart,
            spot=xy(spot),
            chained=chained,
            contact_t=t,
            **extra,
        )
        back = int(np.floor((sink.t_s - t) * self._fps + 1e-6))
        if t < prev.t_s and back >= 1:
            # a hit reported beyond the lag (found once its striker came out from under a
            # hand) is the foul of its own frame, as a late touch is (gaucha's ten minutes,
            # seed 32, frame 14147: written at 14151 and dated so)
            e["frame"] = int(sink.frame) - back
            e["t"] = round(sink.t_s - back / self._fps, 4)
        if holds:
            self._stop(Restart(restart, awarded, spot, self._lances(restart), article), "foul")

    def _offside_call(
        self,
        lance: Lance,
        piece: str,
        margin: float,
        case: str,
        ball: tuple[float, float],
        sink: EventSink,
    ) -> None:
        d = self._decision("offside", sink)
        holds = d.holds if d is not None else True
        extra: dict[str, Any] = {"decision": d.note} if d is not None else {}
        if self.offside_line is not None and self.offside_line[0] == lance.team:
            extra["line_x_mm"] = self.offside_line[1]
        sink.emit(
            "offside",
            lance.team,
            piece,
            margin,
            f"{self.profile.article('offside')} {case}",
            holds,
            passer=lance.piece,
            case=case,
            ball=xy(ball),
            **extra,
        )
        if holds:
            restart = Restart(
                "indirect_free_kick",
                self.other(lance.team),
                ball,
                self._lances("indirect_free_kick"),
            )
            self._stop(restart, "offside")

    def _gaucha_offside(self, cur: FrameState, sink: EventSink) -> None:
        """001 Art. XXXII § 1 b: the ball passes the last outfield defender."""
        assert self._offside_line is not None and self.lance is not None
        line_u, sign = self._offside_line
        if sign * float(cur.ball_xy_mm[0]) - cur.ball_radius_mm <= line_u:
            return
        lance = self.lance
        self._offside_line = None
        piece = max(lance.offside, key=lambda k: lance.offside[k])
        d = self._decision("offside", sink)
        holds = d.holds if d is not None else True
        sink.emit(
            "offside",
            lance.team,
            piece,
            lance.offside[piece],
            self.profile.article("offside"),
            holds,
            passer=lance.piece,
            pieces=sorted(lance.offside),
            ball=xy(cur.ball_xy_mm),
            line_x_mm=round(sign * line_u, 3),
        )
        if holds:
            # § 3: "A cobrança do impedimento será feita através de um único lance".
            self._stop(
                Restart("free_kick", self.other(lance.team), pt(cur.ball_xy_mm), 1), "offside"
            )
