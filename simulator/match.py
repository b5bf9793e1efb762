"""A seeded random match: two simple players taking turns on the physics, frame by frame.

``Match(table, rules_name, seed, fps).frames(seconds)`` yields one
:class:`simulator.state.FrameTruth` per video frame. The match runs its own
:class:`simulator.truth.Referee` on those frames and reacts to its events, so the restarts
follow the truth events exactly.

Flow (brasileira, 000 REGRA 4 JOGADA PADRÃO, kept simple): a coach's jogada is up to three
lances; the first must touch the ball and the second must be a pass for the third to follow,
otherwise the turn passes. A shot is announced from the attacking half (REGRA 10): the
defender's hand first places its goalkeeper on the goal line between the ball and the goal
(REGRA 4, DISTÂNCIA DA BOLA EM ARREMESSOS A GOL), then the shooter aims at the open side.
Restarts: kick-off after a goal by the team that conceded (REGRA 8; the arrumação is a quick
reset to the formation); throw-in on the touchline where the ball left (REGRA 15), corner in
the quadrant (REGRA 17), goal kick from the goal area (REGRA 16) and a free kick where a foul
happened or a penalty from the mark (REGRA 12-14). Restarts are jogadas restritas without
shots, except direct free kicks (REGRA 13 A). For every restart a hand carries the ball to the
spot, any piece within 6 cm of it away (REGRA 4 REMOÇÃO), and the taker 25 mm behind the ball
on the line of the planned restart (any button in that place is moved aside first).

Hands: team A's coach stands on the near side (y < 0), team B's on the far side (y > 0). A
hand comes in over the flicked button 0.32-0.45 s before each flick and leaves 0.3 s after; hands
also carry pieces at restarts and when a shot is announced.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from geometry.pieces import Pieces
from geometry.tablespec import TableSpec
from rules.rulesets import get_ruleset
from simulator.physics import TableWorld
from simulator.players import Flick, Player, formation, keeper_spot
from simulator.state import FrameTruth, Hand
from simulator.truth import DEFAULT_TEAMS, Referee

__all__ = ["COACH_SIDE", "Match", "TimelineRunner", "hand_path"]

COACH_SIDE = {"A": -1.0, "B": 1.0}  # sign of y of each coach's touchline
_FOREARM_MM = 320.0
_PAST_RAIL_MM = 150.0  # how far beyond the rail the arm as drawn runs, at least
_ENDS = ("goal", "ball_out", "foul", "offside")
Turn = tuple[str, str | None]  # the team to play and the restart it takes


def hand_path(
    table: TableSpec, team: str, points: list[tuple[float, float, float]], height_mm: float = 40.0
) -> Callable[[float], Hand]:
    """A hand whose fingertip follows ``(t, x, y)`` keys (linear between them), coach side."""
    ts = np.array([p[0] for p in points])
    xs = np.array([p[1] for p in points])
    ys = np.array([p[2] for p in points])
    sy = COACH_SIDE.get(team, -1.0)
    y_coach = sy * (table.half_width + table.rail_margin + 400.0)
    # a coach reaching far into the table leans over it: the upper arm and the shoulder are
    # over the table too, so the arm as drawn always runs out beyond the rail on the coach's
    # side (a forearm ending mid-table is no arm a camera sees)
    y_out = sy * (table.half_width + table.rail_margin + _PAST_RAIL_MM)

    def at(t: float) -> Hand:
        x, y = float(np.interp(t, ts, xs)), float(np.interp(t, ts, ys))
        d = np.array([0.85 * x - x, y_coach - y])
        u = d / max(float(np.hypot(*d)), 1e-9)
        reach = (y_out - y) / u[1] if abs(u[1]) > 1e-9 else 0.0
        d = u * max(_FOREARM_MM, reach)
        return Hand((x, y), (x + float(d[0]), y + float(d[1])), height_mm)

    return at


def _entry(table: TableSpec, team: str, x: float) -> tuple[float, float]:
    """Where a coach's hand enters the table's picture (beyond the rail on its side)."""
    return (0.9 * x, COACH_SIDE.get(team, -1.0) * (table.half_width + table.rail_margin + 120.0))


@dataclass
class _HandAnim:
    t0: float
    t1: float
    at: Callable[[float], Hand]


@dataclass
class _Carry:
    piece: str
    t0: float
    t1: float
    xy0: tuple[float, float]
    xy1: tuple[float, float]
    angle_rad: float | None = None
    lifted: bool = False


class TimelineRunner:
    """Steps a :class:`TableWorld` to each video frame, applying carries, hands and flicks.

    Shared by :class:`Match` and :mod:`simulator.scenario`; ``referee`` (optional) sees every frame.
    """

    def __init__(self, world: TableWorld, fps: float, referee: Referee | None = None) -> None:
        self.world = world
        self.fps = float(fps)
        self.referee = referee
        self.frame = 0
        self.hands: list[_HandAnim] = []
        self.carries: list[_Carry] = []
        self.flicks: list[tuple[float, str, float, float]] = []
        self.events: list[dict[str, Any]] = []
        self._contact_i = 0
        self._flick_i = 0

    @property
    def t(self) -> float:
        return self.frame / self.fps

    def add_hand(self, t0: float, t1: float, at: Callable[[float], Hand]) -> None:
        self.hands.append(_HandAnim(t0, t1, at))

    def carry(
        self,
        piece: str,
        t0: float,
        t1: float,
        xy1: tuple[float, float],
        angle_rad: float | None = None,
    ) -> None:
        self.carries.append(_Carry(piece, t0, t1, self.world.position(piece), xy1, angle_rad))

    def flick_at(self, t: float, piece: str, direction_rad: float, speed_mm_s: float) -> None:
        self.flicks.append((t, piece, direction_rad, speed_mm_s))
        self.flicks.sort(key=lambda f: f[0])

    def _apply(self, t: float) -> None:
        for c in list(self.carries):
            if t < c.t0:
                continue
            if not c.lifted:
                c.xy0 = self.world.position(c.piece)
                self.world.lift(c.piece, True)
                c.lifted = True
            f = min(max((t - c.t0) / max(c.t1 - c.t0, 1e-9), 0.0), 1.0)
            xy = (c.xy0[0] + f * (c.xy1[0] - c.xy0[0]), c.xy0[1] + f * (c.xy1[1] - c.xy0[1]))
            self.world.place(c.piece, xy, c.angle_rad if f >= 1.0 else None)
            if f >= 1.0:
                self.world.lift(c.piece, False)
                self.carries.remove(c)

    def advance(self, t_end: float) -> Iterator[FrameTruth]:
        """Frames up to ``t_end`` (inclusive)."""
        while self.t <= t_end + 1e-9:
            t = self.t
            flicked: list[str] = []
            # Flicks land on the physics step nearest their time, between frames.
            while self._flick_i < len(self.flicks) and self.flicks[self._flick_i][0] <= t + 1e-9:
                tf, pid, ang, v = self.flicks[self._flick_i]
                self.world.step_until(tf)
                self.world.flick(pid, ang, v)
                flicked.append(pid)
                self._flick_i += 1
            self.world.step_until(t)
            self._apply(t)
            yield self._frame(t, tuple(flicked))
            self.frame += 1

    def _frame(self, t: float, flicked: tuple[str, ...]) -> FrameTruth:
        pieces, vel = self.world.state()
        contacts = tuple(self.world.contacts[self._contact_i :])
        self._contact_i = len(self.world.contacts)
        hands = tuple(h.at(t) for h in self.hands if h.t0 <= t <= h.t1)
        self.hands = [h for h in self.hands if h.t1 >= t]
        moving = np.hypot(vel[:, 0], vel[:, 1]) > 0.0
        ft = FrameTruth(self.frame, t, pieces, vel, moving, hands, contacts, flicked=flicked)
        if self.referee is not None:
            self.events.extend(self.referee.update(ft))
        return ft

    def settle(self, max_s: float = 8.0) -> Iterator[FrameTruth]:
        """Frames until every piece stopped and every carry finished."""
        t_stop = self.t + max_s
        while self.t < t_stop:
            if self.world.all_stopped() and not self.carries and self._flick_i >= len(self.flicks):
                return
            yield from self.advance(self.t)


def flick_with_hand(
    runner: TimelineRunner,
    table: TableSpec,
    team: str,
    t: float,
    piece: str,
    direction_rad: float,
    speed_mm_s: float,
    lead_s: float = 0.4,
) -> None:
    """``piece`` flicked at ``t`` by its coach's hand: the fingertip comes in from the coach's
    side ``lead_s`` before, rests 38 mm behind the button along the flick, and leaves 0.3 s
    after (a rules engine reads a flick only under a hand). Call it once the runner has
    reached ``t - lead_s``: the button is where it is then."""
    x, y = runner.world.position(piece)
    tip = (x - 38.0 * math.cos(direction_rad), y - 38.0 * math.sin(direction_rad))
    t0 = max(t - lead_s, 0.0)
    ex, ey = _entry(table, team, tip[0])
    keys = [(t0, ex, ey), (t0 + 0.2, *tip), (t + 0.05, *tip), (t + 0.3, ex, ey)]
    runner.add_hand(t0, t + 0.3, hand_path(table, team, keys))
    runner.flick_at(t, piece, direction_rad, speed_mm_s)


class Match:
    """A seeded random match between teams A (defends left) and B (defends right)."""

    def __init__(
        self, table: TableSpec, rules_name: str = "brasileira", seed: int = 0, fps: float = 30.0
    ) -> None:
        self.table = table
        self.rules = get_ruleset(rules_name)
        self.teams = dict(DEFAULT_TEAMS)
        self.rng = np.random.default_rng(seed)
        sizes = self.rules.pieces
        assert sizes is not None
        self.sizes = sizes
        roster = formation(table, sizes, self.teams, kick_off="A")
        self.world = TableWorld(table, roster)
        self.referee = Referee(table, rules_name, self.teams)
        self.run = TimelineRunner(self.world, fps, self.referee)
        self.players = {t: Player(t, side, table, self.rng) for t, side in self.teams.items()}
        self.score = {t: 0 for t in self.teams}

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.run.events

    def frames(self, seconds: float) -> Iterator[FrameTruth]:
        """Every video frame of the first ``seconds`` of the match."""
        for ft in self._play():
            if ft.t > seconds + 1e-9:
                # The referee has already judged this frame: its events are past the end too.
                self.events[:] = [e for e in self.events if e["frame"] < ft.frame]
                return
            yield ft

    # ------------------------------------------------------------------ flow
    def _play(self) -> Iterator[FrameTruth]:
        to_play: str = "A"
        restart: str | None = "kick_off"
        while True:
            to_play, restart = yield from self._jogada(to_play, restart)

    def _other(self, team: str) -> str:
        return "B" if team == "A" else "A"

    def _pause(self, lo: float, hi: float) -> Iterator[FrameTruth]:
        yield from self.run.advance(self.run.t + float(self.rng.uniform(lo, hi)))

    def _jogada(self, team: str, restart: str | None) -> Generator[FrameTruth, None, Turn]:
        """One coach's jogada; returns ``(next team, restart)``."""
        player = self.players[team]
        may_shoot = restart in (None, "free_kick", "penalty")
        n_lances = 2 if restart == "kick_off" else 3  # saída: jogada normal (REGRA 4 C)
        used: tuple[str, ...] = ()
        passed = False
        for lance in range(1, n_lances + 1):
            yield from self._pause(0.15, 0.35)
            yield from self._tidy()
            pieces, _ = self.world.state()
            # REGRA 10: a shot on the first lance, or after a pass.
            shoot_ok = may_shoot and (lance == 1 or passed)
            set_piece = restart is not None and lance == 1 and restart != "kick_off"
            if set_piece:
                flick = yield from self._set_piece(team, shoot_ok)
            else:
                got = player.choose(pieces, lance, shoot_ok, exclude=used[-1:])
                if got is None:
                    return self._other(team), None
                flick = got
            if flick.intent == "shot":
                yield from self._place_keeper(self._other(team))
                pieces, _ = self.world.state()
                only = flick.piece if set_piece else None
                flick = player.shot(pieces, True, only) or flick
            i0 = len(self.events)
            yield from self._do_flick(team, flick)
            yield from self.run.settle()
            new = self.events[i0:]
            end = next((e for e in new if e["type"] in _ENDS), None)
            if end is not None:
                return (yield from self._restart(end))
            touched = any(e["type"] == "touch" and e["piece"] == flick.piece for e in new)
            passed = any(
                e["type"] == "touch" and e["team"] == team and e["piece"] != flick.piece
                for e in new
            )
            used += (flick.piece,)
            restart, may_shoot = None, True
            if not touched or (lance == 2 and not passed):
                break
        return self._other(team), None

    def _do_flick(self, team: str, flick: Flick) -> Iterator[FrameTruth]:
        t0 = self.run.t
        lead = float(self.rng.uniform(0.32, 0.45))
        tf = t0 + lead
        x, y = self.world.position(flick.piece)
        back = 38.0  # the palheta presses the button's edge, behind it
        tip = (x - back * math.cos(flick.direction_rad), y - back * math.sin(flick.direction_rad))
        ex, ey = _entry(self.table, team, tip[0])
        path = hand_path(
            self.table,
            team,
            [(t0, ex, ey), (t0 + 0.2, *tip), (tf + 0.05, *tip), (tf + 0.3, ex, ey)],
        )
        self.run.add_hand(t0, tf + 0.3, path)
        self.run.flick_at(tf, flick.piece, flick.direction_rad, flick.speed_mm_s)
        yield from self.run.advance(tf)

    def _carry(
        self, team: str, piece: str, xy1: tuple[float, float], angle_rad: float | None = None
    ) -> Iterator[FrameTruth]:
        """A coach's hand carries ``piece`` to ``xy1`` (0.25 s in, 0.35 s carry, 0.25 s out)."""
        t0 = self.run.t
        x0, y0 = self.world.position(piece)
        ex, ey = _entry(self.table, team, x0)
        path = hand_path(
            self.table,
            team,
            [
                (t0, ex, ey),
                (t0 + 0.25, x0, y0),
                (t0 + 0.6, *xy1),
                (t0 + 0.85, *_entry(self.table, team, xy1[0])),
            ],
            20.0,
        )
        self.run.add_hand(t0, t0 + 0.85, path)
        self.run.carry(piece, t0 + 0.25, t0 + 0.6, xy1, angle_rad)
        yield from self.run.advance(t0 + 0.85)

    def _free_spot(
        self,
        xy: tuple[float, float],
        r: float,
        ignore: tuple[str, ...],
        avoid: tuple[float, float, float] | None = None,
    ) -> tuple[float, float]:
        """The nearest spot to ``xy`` where a disc of radius ``r`` touches nothing, in the field.

        ``avoid`` ``(x, y, d)``: and whose centre is at least ``d`` from ``(x, y)``.
        """
        pieces, _ = self.world.state()
        keep = ~np.isin(pieces.ids, ignore)
        other_xy = pieces.xy_mm[keep]
        other_r = np.where(pieces.is_disc[keep], pieces.size_mm[keep, 0] / 2.0, 40.0)
        hl, hw = self.table.half_length - r, self.table.half_width - r
        for ring in range(0, 40):
            for k in range(max(1, ring * 6)):
                a = 2.0 * math.pi * k / max(1, ring * 6)
                p = np.array([xy[0] + 12.0 * ring * math.cos(a), xy[1] + 12.0 * ring * math.sin(a)])
                p = np.clip(p, [-hl, -hw], [hl, hw])
                if avoid is not None and math.hypot(p[0] - avoid[0], p[1] - avoid[1]) < avoid[2]:
                    continue
                if np.all(np.hypot(*(other_xy - p).T) > other_r + r + 3.0):
                    return (float(p[0]), float(p[1]))
        return xy

    def _place_keeper(self, defender: str) -> Generator[FrameTruth, None, float]:
        """The defender puts its keeper on the goal line between ball and goal; returns its y."""
        side = self.teams[defender]
        ball = self.world.position("ball")
        kx, ky = keeper_spot(self.table, self.sizes.goalkeeper_width, ball, side)
        ky += float(self.rng.normal(0.0, 10.0))  # the hand's placing error
        ky = float(np.clip(ky, -self.table.goal_width / 2.0, self.table.goal_width / 2.0))
        yield from self._carry(defender, f"{defender}1", (kx, ky), math.pi / 2.0)
        return ky

    def _tidy(self) -> Iterator[FrameTruth]:
        """Buttons left wholly off the field (in a goal, by the rails) come back in by hand."""
        pieces, _ = self.world.state()
        hl, hw = self.table.half_length, self.table.half_width
        r = pieces.size_mm[:, 0] / 2.0
        off = (pieces.kind == "button") & (
            (np.abs(pieces.xy_mm[:, 0]) - r > hl - 1.0)
            | (np.abs(pieces.xy_mm[:, 1]) - r > hw - 1.0)
        )
        for i in np.flatnonzero(off):
            pid = str(pieces.ids[i])
            x, y = pieces.xy_mm[i]
            target = (
                float(np.clip(x, -hl + 60.0, hl - 60.0)),
                float(np.clip(y, -hw + 60.0, hw - 60.0)),
            )
            spot = self._free_spot(target, float(r[i]), (pid,))
            yield from self._carry(str(pieces.team[i]), pid, spot)

    def _set_piece(self, team: str, may_shoot: bool) -> Generator[FrameTruth, None, Flick]:
        """Before a restart, the taker's hand sets its button 25 mm behind the ball."""
        player = self.players[team]
        pieces, _ = self.world.state()
        intent, ball_dir, dist, taker = player.restart_plan(pieces, may_shoot)
        bx, by = self.world.position("ball")
        r = float(pieces.size_mm[pieces.index(taker), 0]) / 2.0
        # On the line behind the ball, as far back as the rails allow (a throw-in's taker
        # stands outside the touchline).
        lim = np.array([self.table.half_length, self.table.half_width]) + 60.0
        u = np.array([math.cos(ball_dir), math.sin(ball_dir)])
        for back in (25.0, 15.0, 5.0):
            xy = np.array([bx, by]) - (r + 5.0 + back) * u
            if np.all(np.abs(xy) <= lim):
                break
        xy = np.clip(xy, -lim, lim)
        spot = (float(xy[0]), float(xy[1]))
        # Buttons in the way are moved aside by their coaches (000 REGRA 4 REMOÇÃO); a
        # goalkeeper stays, and the taker then goes to the nearest free spot instead.
        pieces, _ = self.world.state()
        r_all = pieces.size_mm[:, 0] / 2.0
        gap = np.hypot(*(pieces.xy_mm - xy).T) - r_all - r
        blocking = (gap < 3.0) & (pieces.ids != taker) & (pieces.kind != "ball")
        if (pieces.kind[blocking] == "goalkeeper").any():
            spot = self._free_spot(spot, r, (taker,))
        else:
            for i in np.flatnonzero(blocking):
                pid = str(pieces.ids[i])
                avoid = (spot[0], spot[1], r + float(r_all[i]) + 3.0)
                pos = (float(pieces.xy_mm[i, 0]), float(pieces.xy_mm[i, 1]))
                dest = self._free_spot(pos, float(r_all[i]), (pid,), avoid)
                yield from self._carry(str(pieces.team[i]), pid, dest)
        yield from self._carry(team, taker, spot)
        pieces, _ = self.world.state()
        return player.flick_for(pieces, taker, ball_dir, dist, intent)

    def _restart(self, end: dict[str, Any]) -> Generator[FrameTruth, None, Turn]:
        """Set the restart the referee called; returns ``(team, restart)``."""
        kind = end["type"]
        ev = end["evidence"]
        yield from self.run.settle()
        if kind == "goal":
            self.score[str(end["team"])] += 1
            conceded = self._other(str(end["team"]))
            yield from self._pause(0.8, 1.2)
            self._reset(conceded)
            yield from self.run.advance(self.run.t + 0.5)
            return conceded, "kick_off"
        if kind == "ball_out":
            team, restart = str(end["team"]), str(ev["restart"])
            spot = (float(ev["spot"][0]), float(ev["spot"][1]))
        elif kind == "foul":
            team, restart = str(ev["awarded_to"]), str(ev["restart"])
            if restart == "penalty":
                spot = self._penalty_mark(team)
            else:
                r = self.sizes.ball_diameter / 2.0
                hl, hw = self.table.half_length - r - 2.0, self.table.half_width - r - 2.0
                spot = (float(np.clip(ev["at"][0], -hl, hl)), float(np.clip(ev["at"][1], -hw, hw)))
        else:  # offside: indirect free kick where the ball is
            team, restart = self._other(str(end["team"])), "indirect_free_kick"
            spot = self.world.position("ball")
        yield from self._clear_around(spot, 60.0 if restart != "penalty" else 183.0, team)
        yield from self._carry(team, "ball", spot)
        return team, restart

    def _penalty_mark(self, team: str) -> tuple[float, float]:
        s = 1.0 if self.teams[team] == "left" else -1.0
        return (s * (self.table.half_length - self.table.penalty_mark_distance), 0.0)

    def _clear_around(
        self, spot: tuple[float, float], radius: float, taker: str
    ) -> Iterator[FrameTruth]:
        """Pieces within ``radius`` of the restart spot are moved away by their coach's hand."""
        pieces, _ = self.world.state()
        d = np.hypot(*(pieces.xy_mm - np.array(spot)).T) - np.where(
            pieces.is_disc, pieces.size_mm[:, 0] / 2.0, 40.0
        )
        for i in np.flatnonzero((d < radius) & (pieces.kind == "button")):
            pid = str(pieces.ids[i])
            away = pieces.xy_mm[i] - np.array(spot)
            n = float(np.hypot(*away)) or 1.0
            target = np.array(spot) + away / n * (radius + 40.0)
            r_i = float(pieces.size_mm[i, 0]) / 2.0
            avoid = (spot[0], spot[1], radius + r_i)
            dest = self._free_spot((float(target[0]), float(target[1])), r_i, (pid,), avoid)
            yield from self._carry(str(pieces.team[i]), pid, dest)

    def _reset(self, kick_off: str) -> None:
        """Arrumação for the kick-off (REGRA 8): every piece back in formation at once."""
        home = formation(self.table, self.sizes, self.teams, kick_off=kick_off)
        for i, pid in enumerate(home.ids):
            self.world.place(str(pid), home.xy_mm[i], float(home.angle_rad[i]))
        t = self.run.t
        for team in self.teams:
            a = hand_path(
                self.table,
                team,
                [
                    (t, *_entry(self.table, team, 0.0)),
                    (t + 0.25, 0.0, COACH_SIDE[team] * 300.0),
                    (t + 0.5, *_entry(self.table, team, 0.0)),
                ],
            )
            self.run.add_hand(t, t + 0.5, a)


def roster_pieces(match: Match) -> Pieces:
    """The match's pieces now (convenience for tests and tools)."""
    return match.world.state()[0]
