"""The ball's calls: goals and balls out, its motion, the calls at rest, the halves' ends.

Part of :class:`rules.engine.engine.RuleEngine` (see that module for the order of a frame).
"""

from __future__ import annotations

from typing import Any

from geometry.lines import goal_margins, neutral_margin
from geometry.scene import Scene
from rules.checks import CHECKS
from rules.engine.base import EngineBase, pt
from rules.engine.calls import goal_area_owner, restart_spot
from rules.engine.events import EventSink, xy
from rules.engine.lance import Lance, Restart
from rules.engine.lines import LineCall
from rules.engine.state import FrameState
from rules.engine.turns import TouchCount

__all__ = ["BallCalls"]


def _date(e: dict[str, Any], call: LineCall) -> None:
    """An event of ``call`` dated to when it happened, where that was before the frame judged
    (the ball unseen then: :meth:`rules.engine.lines.LineJudge.judge`)."""
    if call.frame is not None and call.t_s is not None:
        e["frame"], e["t"] = call.frame, round(call.t_s, 4)


def _doubt(call: LineCall) -> dict[str, Any]:
    """A goal's or an out's measured doubt, for its evidence: the ball's position 1-sigma and
    whether the margin lies inside twice it ("too close to call", as ``botao goal-line``
    says; the call is still made, on the measured side). None for a rail bounce's out."""
    if call.margin_mm is None:
        return {}
    return {"sigma_mm": round(call.sigma_mm, 3), "too_close": call.too_close}


class BallCalls(EngineBase):
    """Goal, ball out, ball motion, at-rest calls and the halves' ends."""

    def _collective_limit(self, cur: FrameState, lance: Lance, sink: EventSink) -> None:
        """000 (c), 002 2: no shot by the last collective touch: an indirect free kick."""
        assumed = [] if lance.announced is not None else ["no shot was announced"]
        if lance.announced:
            return
        turns = self.turns
        assert isinstance(turns, TouchCount)
        sink.emit(
            "touch_limit",
            lance.team,
            lance.piece,
            article=self.profile.article("collective"),
            reason=f"{turns.collective} touches and no shot",
            awarded_to=self.other(lance.team),
            restart="indirect_free_kick",
            state=turns.state(),
            assumed=assumed,
        )
        self._stop(
            Restart("indirect_free_kick", self.other(lance.team), pt(cur.ball_xy_mm)),
            "touch_limit",
        )

    # ------------------------------------------------------------------ lines
    def _line_call(self, call: LineCall, sink: EventSink) -> None:
        lance = self.lance
        if call.cross_t_s is not None:
            # a touch this frame after the ball was wholly past the line met a dead ball: the
            # last touch is the one before it (000 Art. 9; paulista's ten minutes, seed 33,
            # frame 17363: the ball out over the touchline 1.6 mm, then B4 beside the line
            # touched it; the throw-in went to the wrong team)
            for t, before in self._frame_touches:
                if t > call.cross_t_s:
                    self.last_touch = before
                    break
        last_team = self.team_of.get(self.last_touch or "")
        if call.kind == "goal":
            self._goal(call, lance, last_team, sink)
            return
        kick_team = lance.team if lance is not None else None
        if call.line.startswith("touch"):
            restart = "throw_in"
            team = self.other(last_team if last_team is not None else kick_team)
        else:
            defender = self.defender(call.line.split("_")[1])
            restart, team = (
                ("corner", self.other(defender))
                if last_team == defender
                else ("goal_kick", defender)
            )
        spot = restart_spot(self.field, restart, call.line, call.crossing_xy)
        d = self._decision("ball_out", sink)
        holds = d.holds if d is not None else True
        extra: dict[str, Any] = {"decision": d.note} if d is not None else {}
        e = sink.emit(
            "ball_out",
            team,
            self.last_touch,
            call.margin_mm,
            f"{self.profile.article('ball_out')}; {self.profile.article(restart)}",
            holds,
            ball=xy(call.ball_xy),
            line=call.line,
            restart=restart,
            spot=xy(spot),
            last_touch_team=last_team,
            rail=call.rail,
            **_doubt(call),
            **extra,
        )
        _date(e, call)
        if holds:
            cedida = kick_team is not None and team != kick_team
            self._stop(Restart(restart, team, spot, self._lances(restart, cedida)), "ball_out")

    def _goal(
        self, call: LineCall, lance: Lance | None, last_team: str | None, sink: EventSink
    ) -> None:
        side = call.line.split("_")[1]
        defender = self.defender(side)
        scorer = self.other(defender)
        own = last_team == defender
        assumed: list[str] = []
        needs_keeper = self.profile.name == "brasileira"
        if lance is None or lance.announced is None:
            valid = True
            if not own:
                assumed.append("the shot was announced")
                if needs_keeper:
                    assumed.append("the goalkeeper was declared placed")
        else:
            olympic = (
                self.profile.name == "mesa-posta"
                and lance.restart is not None
                and lance.restart.kind == "corner"
                and set(lance.touches) <= {lance.piece}
            )
            placed = bool(lance.keeper_placed) or not needs_keeper
            valid = own or olympic or (bool(lance.announced) and placed)
        d = self._decision("goal", sink)
        if d is not None:
            valid = d.holds
        article = self.profile.article("own_goal" if own else "goal")
        if not valid:
            article = self.profile.article("invalid_goal") or article
        if valid:
            self.score[scorer] += 1
        extra: dict[str, Any] = {"decision": d.note} if d is not None else {}
        e = sink.emit(
            "goal",
            scorer,
            self.last_touch,
            call.margin_mm,
            article,
            valid,
            ball=xy(call.ball_xy),
            side=side,
            last_touch_team=last_team,
            own_goal=own,
            score=dict(self.score),
            restart="kick_off" if valid else "goal_kick",
            assumed=assumed,
            **_doubt(call),
            **extra,
        )
        _date(e, call)
        if valid:
            self._stop(Restart("kick_off", defender, (0.0, 0.0), self._lances("kick_off")), "goal")
        else:  # GOL SEM VALIDADE: "reposta em jogo com Tiro de Meta"
            spot = restart_spot(self.field, "goal_kick", call.line, call.crossing_xy)
            self._stop(Restart("goal_kick", defender, spot, 1), "goal")

    def _ball_motion(self, cur: FrameState, moving: bool, sink: EventSink) -> None:
        b = cur.ball_xy_mm
        if moving:
            sink.emit("ball_moving", None, self.last_touch, ball=xy(b))
            return
        r = cur.ball_radius_mm
        side = "right" if b[0] > 0 else "left"
        line, posts = (float(v[0]) for v in goal_margins(b, r, self.field, side))
        sink.emit(
            "ball_stopped",
            None,
            self.last_touch,
            line,
            ball=xy(b),
            goal_line=f"goal_{side}",
            between_posts=bool(posts + r > 0.0),
            in_play=self.in_play,
        )

    # ------------------------------------------------------------------ at rest
    def _rest_calls(self, cur: FrameState, lance: Lance, sink: EventSink) -> None:
        b = self._ball_est  # averaged over the ball's rest (noisy sources)
        r = cur.ball_radius_mm
        p = self.profile
        if p.neutral:
            m = float(neutral_margin(b, r, self.field)[0])
            if m >= 0.0:
                sink.emit("ball_neutral", None, None, m, p.article("neutral"), ball=xy(b))
        if p.goalkeeper_ball is None:
            return
        owner = goal_area_owner(b, r, self.field, self.teams)
        if owner is None or self.lines.status(b, r)[0] != "in":
            return  # past the goal line: the line call decides, not the goal area
        team, m = owner
        if p.goalkeeper_ball == "possession":
            # 000 (c) V: the ball resting in the opponent's goal area loses possession.
            if team != lance.team:
                sink.emit(
                    "goalkeeper_ball",
                    team,
                    None,
                    m,
                    p.article("goalkeeper_ball"),
                    ball=xy(b),
                    restart=None,
                )
                lance.dead = "goalkeeper_ball"
                self.turns.pass_turn(
                    lance,
                    sink,
                    "the ball stopped in the opponent's goal area",
                    p.article("goalkeeper_ball"),
                )
            return
        d = self._decision("goalkeeper_ball", sink)
        holds = d.holds if d is not None else True
        sink.emit(
            "goalkeeper_ball",
            team,
            None,
            m,
            p.article("goalkeeper_ball"),
            holds,
            ball=xy(b),
            restart="goal_kick",
            spot=xy(b),
        )
        if holds:
            self._stop(Restart("goal_kick", team, b, 1), "goalkeeper_ball")

    def _shut_in(self, cur: FrameState, lance: Lance, sink: EventSink) -> None:
        """Blocked, obstructed, enclosed: reported when they start; kept too long, a technical
        foul (000 Art. 22 V-E, V-G; 001 Art. XXIX j, l)."""
        checks = [c for c in self.profile.rest_checks if c in self.rules.checks]
        if not checks:
            return
        scene = Scene(self.table.name, dict(self.teams), cur.known_pieces)
        jogada_over = self.turns.to_play != lance.team
        for name in checks:
            held = [v for v in CHECKS[name](scene, self.ctx) if v.holds]
            if not held:
                self._shut.pop(name, None)
                continue
            v = max(held, key=lambda v: v.margin_mm or 0.0)
            team = str(v.team)
            was = self._shut.get(name)
            count = was[1] + 1 if was is not None and was[0] == team else 1
            self._shut[name] = (team, count)
            if count == 1:
                # Where the gabarito was stopped (the report draws its circle there).
                gabarito: dict[str, Any] = (
                    {"gabarito": xy(v.extra["contact"])} if "contact" in v.extra else {}
                )
                sink.emit(
                    name,
                    team,
                    None,
                    v.margin_mm,
                    v.article,
                    ball=xy(cur.ball_xy_mm),
                    pieces=v.extra.get("pieces", []),
                    jogada_over=jogada_over,
                    **gabarito,
                )
            limit = self.profile.shut_in_lances.get(name, 0)
            if limit and count >= limit and self.in_play:
                self._shut.pop(name, None)
                sink.emit(
                    "technical_foul",
                    team,
                    None,
                    v.margin_mm,
                    v.article,
                    reason=f"{name} for {count} lance(s)",
                    awarded_to=self.other(team),
                    restart="indirect_free_kick",
                    spot=xy(cur.ball_xy_mm),
                )
                spot = (float(cur.ball_xy_mm[0]), float(cur.ball_xy_mm[1]))
                self._stop(
                    Restart(
                        "indirect_free_kick",
                        self.other(team),
                        spot,
                        self._lances("indirect_free_kick"),
                    ),
                    name,
                )

    # ------------------------------------------------------------------ halves
    def _end_half(self, sink: EventSink) -> None:
        half = self.clock.half
        over = self.clock.end_half()
        self.in_play = False
        if over:
            sink.emit("full_time", article=self.profile.article("halves"), score=dict(self.score))
            return
        if self.options.swap_sides:
            self.teams = {t: ("right" if s == "left" else "left") for t, s in self.teams.items()}
        # the texts' change of ends is what the engine assumes until the second half's kick-off
        # shows where the goalkeepers stand (RuleEngine._read_ends)
        self._ends_unread = True
        kicker = self.other(self.first_kick_off) if self.first_kick_off else None
        sink.emit(
            "half_time",
            kicker,
            article=self.profile.article("halves"),
            half=half,
            score=dict(self.score),
            teams=dict(self.teams),
            sides_swapped=self.options.swap_sides,
        )
        restart = Restart("kick_off", kicker, (0.0, 0.0), self._lances("kick_off"))
        self.pending = restart
        self.turns.on_restart(restart)
        self._shut.clear()

    def _read_ends(self, at: FrameState, sink: EventSink) -> None:
        """The second half's ends, read at its kick-off from where the teams stand (``at``: the
        table at rest before the flick).

        Every text has the teams change ends at half time, and the engine assumes so from then;
        a table whose coaches stayed where they were (a friendly, a simulated match) would turn
        every goal and throw-in round. Each team's goalkeeper stands in the goal it defends; without
        both keepers, the side of the team's pieces' mean (000: at a kick-off each team is in its
        own half). If neither tells, the assumption stays and the event says so.
        """
        self._ends_unread = False
        p = at.pieces
        names = list(self.teams)
        present = at.present & (p.kind != "ball")
        xs: dict[str, float] = {}
        source = "goalkeepers"
        for team in names:
            keeper = present & (p.team == team) & (p.kind == "goalkeeper")
            if keeper.sum() == 1:
                xs[team] = float(p.xy_mm[keeper, 0][0])
        if len(xs) < 2 or xs[names[0]] * xs[names[1]] >= 0.0:
            source = "pieces"
            xs = {
                t: float(p.xy_mm[present & (p.team == t), 0].mean())
                for t in names
                if bool((present & (p.team == t)).any())
            }
        assumed = dict(self.teams)
        flip = {"left": "right", "right": "left"}
        first = {t: flip[s] for t, s in assumed.items()} if self.options.swap_sides else assumed
        if len(xs) == 2 and xs[names[0]] * xs[names[1]] < 0.0:
            self.teams = {t: ("left" if xs[t] < 0.0 else "right") for t in names}
        else:
            source = "assumed"
        sink.emit(
            "ends",
            article=self.profile.article("halves"),
            teams=dict(self.teams),
            read_from=source,
            changed_ends=self.teams != first,
            as_assumed=self.teams == assumed,
            x_mm={t: round(x, 1) for t, x in xs.items()},
        )
