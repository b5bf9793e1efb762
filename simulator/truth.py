"""The perfect referee: ``event/1`` records from the simulator's exact states and contacts.

:class:`Referee` consumes :class:`simulator.state.FrameTruth` records in order and returns the
events a referee who sees everything would flag under the rule set (INTERFACES.md, "Analyse"):

- ``touch`` a piece hit the ball (its bounces within ``TOUCH_MERGE_S``, 0.1 s, are the same
  touch: a ball pinched or pushed along); ``contact`` a piece hit a piece (one per contact);
- ``foul`` the flicked button moved an opponent before touching the ball (000 REGRA 12, FALTA):
  ``team`` is the offender, ``evidence`` has ``at`` (the flicked button's centre in the frame of
  the contact), ``victim``, ``awarded_to`` and ``restart`` (``penalty`` inside the offender's own
  penalty area, 000 REGRA 14, else ``free_kick``, REGRA 13);
- ``goal`` the ball wholly past a goal line between the posts (000 REGRA 10): ``team`` scores,
  ``piece`` touched it last, ``margin_mm`` is how far it is past the line's outer edge;
- ``ball_out`` the ball wholly past a touchline or goal line (000 REGRA 9 A), with ``restart``
  ``throw_in`` (REGRA 15), ``corner`` (REGRA 17, last touched by the defender) or ``goal_kick``
  (REGRA 16), the ``team`` that takes it and its ``spot``;
- ``offside`` a button in offside position when the lance began received the ball (REGRA 11 B),
  but not on the coach's first lance (exception D: the first flick of a team after the other
  team's, or after a dead ball) nor after the opposing goalkeeper touched the ball in the
  lance (exception E); under 001 Art. XXXII only from a lance that started with the ball in
  the team's own half (§ 1 b), which has neither exception;
- ``ball_blocked`` once all pieces stopped, the 60 mm gabarito slid flat cannot reach the ball
  past one team's pieces (000 REGRA 4 BLOQUEIO);
- ``ball_moving`` and ``ball_stopped`` (the latter with the nearer goal line's margin).

After a foul, goal, out or offside the ball is dead until the next flick (a restart).

Lines are judged at frame times with :mod:`geometry.lines` (lines to their outer edges), the
same margins as the rules engine; a ball that touches a rail (which lies ``rail_margin`` beyond
the lines) is out even when it bounced back in between two frames.

:class:`TruthWriter` writes ``truth.csv`` (frame, t, id, team, kind, x, y, vx, vy, moving,
contact), ``contacts.jsonl`` and ``events.jsonl`` beside a clip.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import numpy as np
import shapely
from numpy.typing import NDArray

from geometry.field import FieldModel
from geometry.lines import ball_in_goal_margin, ball_out_margin, goal_margins
from geometry.pieces import Pieces, footprints
from geometry.tablespec import TableSpec
from rules.checks import CheckContext
from rules.engine.base import TOUCH_MERGE_S, same_touch
from rules.engine.calls import offside_positions
from rules.rulesets import get_ruleset
from simulator.state import FrameTruth

__all__ = [
    "COLLISION_SLOP_MM",
    "DEFAULT_TEAMS",
    "Referee",
    "TruthWriter",
    "ball_blocked_by",
    "event",
]

COLLISION_SLOP_MM = 0.1  # pymunk's collision slop: how far resting bodies may sink into each other

DEFAULT_TEAMS = {"A": "left", "B": "right"}  # team -> the side it defends


def event(
    ft: FrameTruth,
    kind: str,
    team: str | None = None,
    piece: str | None = None,
    margin_mm: float | None = None,
    article: str = "",
    **evidence: Any,
) -> dict[str, Any]:
    """One ``event/1`` record at the frame ``ft``."""
    return {
        "format": "event/1",
        "t": round(ft.t, 4),
        "frame": ft.frame,
        "type": kind,
        "team": team,
        "piece": piece,
        "holds": True,
        "margin_mm": None if margin_mm is None else round(float(margin_mm), 3),
        "article": article,
        "evidence": evidence,
    }


def ball_blocked_by(pieces: Pieces, team: str, gabarito_mm: float = 60.0) -> bool:
    """Can the gabarito, slid flat from far away, not reach the ball past ``team``'s pieces?

    000 REGRA 4 BLOQUEIO: the obstacles are the blocking team's pieces; the gabarito's centre
    moves in the plane minus the obstacles grown by its radius, and reaches the ball when it gets
    within ``r_ball + r_gabarito`` of the ball's centre.
    """
    ball = np.flatnonzero(pieces.kind == "ball")
    mine = np.flatnonzero(pieces.team == team)
    if len(ball) == 0 or len(mine) < 2:
        return False
    rg = gabarito_mm / 2.0
    bxy = pieces.xy_mm[ball[0]]
    r_ball = float(pieces.size_mm[ball[0], 0]) / 2.0
    # Only pieces near the ball can close it in; far ones merely shrink the free space.
    near = mine[np.hypot(*(pieces.xy_mm[mine] - bxy).T) < 250.0]
    if len(near) < 2:
        return False
    grown = shapely.union_all(shapely.buffer(footprints(pieces.select(near), 16), rg, quad_segs=16))
    x, y = float(bxy[0]), float(bxy[1])
    outer = shapely.box(x - 400.0, y - 400.0, x + 400.0, y + 400.0)
    free = outer.difference(grown)
    target = shapely.Point(x, y).buffer(r_ball + rg, quad_segs=16)
    corner = shapely.Point(x - 399.0, y - 399.0)
    for part in getattr(free, "geoms", [free]):
        if part.intersects(corner):
            return not bool(part.intersects(target))
    return True


class Referee:
    """Turns a stream of frames into ``event/1`` dicts (see the module docstring)."""

    def __init__(
        self,
        table: TableSpec,
        rules_name: str = "brasileira",
        teams: dict[str, str] | None = None,
    ) -> None:
        self.table = table
        self.field = FieldModel(table)
        self.rules = get_ruleset(rules_name)
        self._checks = CheckContext.build(table, self.rules)
        # 001 Art. XXXIV: a ball touching a touchline is out (as rules.checks.ball_lines).
        self._touching_touchline = bool(
            self.rules.has("ball_out_touching_touchline")
            and self.rules.param("ball_out_touching_touchline")
        )
        self.teams = dict(teams or DEFAULT_TEAMS)
        self.in_play = True
        self.last_touch: str | None = None
        self._ball_contact_t: dict[str, float] = {}
        self.lance: str | None = None
        self.lance_touched = False
        self._lance_team: str | None = None  # the team of the lance before (REGRA 11 D)
        self._offside: set[str] = set()
        # 001 Art. XXXII: (the line the ball must pass, attack sign, the piece called), the
        # lance's, when a team-mate stood in an offside position at its flick
        self._offside_line: tuple[float, float, str] | None = None
        self._prev: FrameTruth | None = None
        self._ball_moving = False
        self._settled = True
        self._blocked: str | None = None
        self._team: dict[str, str] = {}
        self._keeper: dict[str, bool] = {}
        self._ball_out_before = False  # the ball was out (by the margin) at the last frame
        self._wholly_before = False  # ... and wholly beyond the line (touching or not)
        self.events: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ helpers
    def _art(self, check: str, fallback: str) -> str:
        return self.rules.checks.get(check, fallback)

    def defender(self, side: str) -> str:
        return next(t for t, s in self.teams.items() if s == side)

    def opponent(self, team: str | None) -> str:
        return next(t for t in self.teams if t != team)

    def attack_sign(self, team: str) -> float:
        return 1.0 if self.teams[team] == "left" else -1.0

    def _offside_margins(self, pieces: Pieces, team: str) -> tuple[dict[str, float], float | None]:
        """Buttons of ``team`` in offside position (id -> margin mm) and the line's x, by the
        rules engine's own check (:func:`rules.engine.calls.offside_positions`: 000 REGRA 11
        with exceptions A-C; 001 Art. XXXII with only the goalkeeper ahead); none where the
        text has no offside (paulista, mesa-posta)."""
        if "offside_position" not in self.rules.checks:
            return {}, None
        return offside_positions(pieces, self.teams, team, self._checks)

    def _goalkeeper_only(self) -> bool:
        return bool(
            self.rules.has("offside_mode") and self.rules.param("offside_mode") == "goalkeeper_only"
        )

    def _from_defence(self, pieces: Pieces, team: str) -> bool:
        """Whether an offside can come of a lance of ``team`` with the ball where it is: 001
        Art. XXXII § 1 b asks that "a bola parta do campo de defesa" (from the team's own half;
        on the halfway line, not); 000 REGRA 11 asks nothing of the ball's start."""
        if not self._goalkeeper_only():
            return True
        bx = float(pieces.xy_mm[int(np.flatnonzero(pieces.kind == "ball")[0]), 0])
        return self.attack_sign(team) * bx < 0.0

    def _restart_spot(self, line: str, xy: tuple[float, float], team: str) -> list[float]:
        hl, hw, lw = self.field.hl, self.field.hw, self.table.line_width
        x, y = xy
        sy = 1.0 if y >= 0 else -1.0
        if line.startswith("touch"):
            return [float(np.clip(x, -hl + 20.0, hl - 20.0)), sy * (hw - lw / 2.0)]
        sx = 1.0 if line == "goal_right" else -1.0
        if team == self.defender("right" if sx > 0 else "left"):  # goal kick
            ga = self.table.goal_area
            return [sx * (hl - ga.depth / 2.0), sy * (ga.width / 2.0 - 40.0)]
        d = self.table.corner_arc_radius / 2.0 + 2.0  # inside the quadrant (REGRA 17)
        return [sx * (hl - d), sy * (hw - d)]

    # ------------------------------------------------------------------ main
    def update(self, ft: FrameTruth) -> list[dict[str, Any]]:
        """Events of one frame, in time order."""
        p = ft.pieces
        if not self._team:
            self._team = {str(i): str(t) for i, t in zip(p.ids, p.team, strict=True)}
            self._keeper = {str(i): k == "goalkeeper" for i, k in zip(p.ids, p.kind, strict=True)}
        bi = int(np.flatnonzero(p.kind == "ball")[0])
        out: list[dict[str, Any]] = []
        before = self._prev.pieces if self._prev is not None else p
        for pid in ft.flicked:
            lance_team = self._team.get(pid, "")
            # 000 REGRA 11 D, "no primeiro lance do técnico": the team's first flick after the
            # other team's, or the restart after a dead ball (as rules.engine's Lance.first)
            first = self._lance_team != lance_team or not self.in_play
            self.lance, self.lance_touched, self._lance_team = pid, False, lance_team
            self.in_play = True
            self._blocked = None
            margins, line_x = (
                self._offside_margins(before, lance_team) if lance_team else ({}, None)
            )
            if margins and not self._from_defence(before, lance_team):
                margins = {}
            if first and not self._goalkeeper_only():
                margins = {}
            self._offside = set(margins)
            self._offside_line = None
            if margins and line_x is not None and self._goalkeeper_only():
                # 001 Art. XXXII § 1 b: offside once the ball passes the last defender, whoever
                # it reaches (the button furthest past the line named, as the engine does)
                sign = self.attack_sign(lance_team)
                self._offside_line = (sign * line_x, sign, max(margins, key=lambda k: margins[k]))
        rail = False
        # Where the ball was wholly out before a piece touched it in this frame (its way from
        # the last frame, while nothing else had touched it): out then, and that touch is not
        # the last before the out (mesa-posta's ten minutes, seed 46, frame 15234: the ball
        # 6.7 mm wholly past the touchline when it struck B3 standing on it; the throw-in given
        # against B3). 000 REGRA 9 A: out once wholly past the line.
        out_at: NDArray[np.float64] | None = None
        path_known = self._prev is not None
        for c in sorted(ft.contacts, key=lambda c: c.t):
            if c.kind == "piece-ball" and self.in_play and path_known and out_at is None:
                out_at = self._out_before(ft, bi, c.t)
            if c.kind != "piece-piece":
                path_known = False  # (the ball's way changed, or may have)
            if c.kind == "piece-ball" and out_at is not None:
                if not same_touch(self._ball_contact_t, c.a, c.t, TOUCH_MERGE_S):
                    team = self._team.get(c.a)
                    out.append(event(ft, "touch", team, c.a, impulse=round(c.impulse, 2)))
                continue
            if c.kind == "piece-ball":
                # a ball bouncing on the piece again within TOUCH_MERGE_S: the same touch, but
                # the piece is the last on the ball again (squeezed between two: B6, A5, B6
                # within 30 ms at nacional's ten minutes, seed 35, frame 7883; the out after
                # it was given against A5, whose touch was not the last)
                if same_touch(self._ball_contact_t, c.a, c.t, TOUCH_MERGE_S):
                    if self.in_play:
                        self.last_touch = c.a
                    continue
                team = self._team.get(c.a)
                out.append(event(ft, "touch", team, c.a, impulse=round(c.impulse, 2)))
                if not self.in_play:
                    continue
                self.last_touch = c.a
                if (
                    self._keeper.get(c.a, False)
                    and team != self._team.get(self.lance or "")
                    and not self._goalkeeper_only()
                ):
                    self._offside = set()  # 000 REGRA 11 E: "o goleiro tira o impedimento"
                if c.a == self.lance:
                    self.lance_touched = True
                elif self.lance is not None and c.a in self._offside:
                    if team == self._team.get(self.lance):
                        out.append(
                            event(
                                ft,
                                "offside",
                                team,
                                c.a,
                                None,
                                self._art("offside_position", "000 REGRA 11"),
                                passer=self.lance,
                                ball=_xy(p.xy_mm[bi]),
                            )
                        )
                        self.in_play = False
            elif c.kind == "piece-piece":
                out.append(event(ft, "contact", self._team.get(c.a), c.a, other=c.b))
                if self.in_play and self.lance in (c.a, c.b) and not self.lance_touched:
                    other = c.b if c.a == self.lance else c.a
                    if self._team.get(other) != self._team.get(self.lance):
                        out.append(self._foul(ft, other))
            elif c.kind == "ball-rail":
                rail = True
        if self.in_play and self._offside_line is not None:
            out.extend(self._passed_last_defender(ft, bi))
        if self.in_play:
            calls = self._lines(ft, bi, rail)
            if not calls and out_at is not None:
                calls = self._lines(ft, bi, rail, at=out_at)
            out.extend(calls)
        xy_b, r_b = p.xy_mm[bi], float(p.size_mm[bi, 0]) / 2.0
        out_margin = ball_out_margin(xy_b, r_b, self.field, self._touching_touchline)[0][0]
        self._ball_out_before = float(out_margin) > 0.0
        self._wholly_before = float(ball_out_margin(xy_b, r_b, self.field, False)[0][0]) > 0.0
        moving = bool(ft.moving[bi])
        if moving != self._ball_moving:
            self._ball_moving = moving
            out.append(self._ball_motion(ft, bi, moving))
        any_moving = bool(ft.moving.any())
        if not any_moving and not self._settled and self.in_play:
            out.extend(self._blocking(ft))
        self._settled = not any_moving
        self._prev = ft
        self.events.extend(out)
        return out

    def _passed_last_defender(self, ft: FrameTruth, bi: int) -> list[dict[str, Any]]:
        """001 Art. XXXII § 1 b: the offside of a lance whose ball, played from the defence
        half with a team-mate in an offside position, passes wholly the last defender's line."""
        assert self._offside_line is not None and self.lance is not None
        line_u, sign, piece = self._offside_line
        p = ft.pieces
        if sign * float(p.xy_mm[bi, 0]) - float(p.size_mm[bi, 0]) / 2.0 <= line_u:
            return []
        self._offside_line = None
        self.in_play = False
        team = self._team.get(piece)
        return [
            event(
                ft,
                "offside",
                team,
                piece,
                None,
                self._art("offside_position", "001 Art. XXXII"),
                passer=self.lance,
                ball=_xy(p.xy_mm[bi]),
            )
        ]

    def _foul(self, ft: FrameTruth, victim: str) -> dict[str, Any]:
        assert self.lance is not None
        p = ft.pieces
        team = self._team[self.lance]
        at = p.xy_mm[p.index(self.lance)]
        box = self.field.penalty_area_box(self.teams[team])
        inside = box[0] <= at[0] <= box[2] and box[1] <= at[1] <= box[3]
        self.in_play = False
        article = "000 REGRA 14" if inside else "000 REGRA 12 FALTA"
        return event(
            ft,
            "foul",
            team,
            self.lance,
            None,
            article,
            at=_xy(at),
            victim=victim,
            awarded_to=self.opponent(team),
            restart="penalty" if inside else "free_kick",
        )

    def _out_before(self, ft: FrameTruth, bi: int, t: float) -> NDArray[np.float64] | None:
        """The ball's place at time ``t`` of this frame, on its way from the last frame, if
        it was out there (as :meth:`_lines` judges an out, its rails aside) and in at the last
        frame; else None. Not a ball put down since (a restart): its way is no way."""
        assert self._prev is not None
        prev = self._prev
        x0, v0 = prev.pieces.xy_mm[bi], prev.vel_mm_s[bi]
        r = float(prev.pieces.size_mm[bi, 0]) / 2.0
        step = float(np.hypot(*(ft.pieces.xy_mm[bi] - x0)))
        if step > 1.5 * float(np.hypot(*v0)) * (ft.t - prev.t) + 5.0:
            return None
        if float(ball_out_margin(x0, r, self.field, self._touching_touchline)[0][0]) > 0.0:
            return None
        xy = np.asarray(x0 + v0 * (t - prev.t), dtype=np.float64)
        margin = float(ball_out_margin(xy, r, self.field, self._touching_touchline)[0][0])
        return xy if margin > 0.0 else None

    def _lines(
        self,
        ft: FrameTruth,
        bi: int,
        touched_rail: bool,
        at: NDArray[np.float64] | None = None,
    ) -> list[dict[str, Any]]:
        """A goal or an out, judged by :mod:`geometry.lines` exactly as the rules engine does.

        Goal (000 REGRA 10): the ball wholly past the goal line and within the posts
        (``line > 0`` and ``posts >= 0``, as ``rules.checks.ball_lines``). Out (REGRA 9 A): the
        ball wholly outside the field (``ball_out_margin > 0``), or it touched a rail (which
        lies ``rail_margin`` beyond the lines) and bounced back in between two frames. A touch
        of the net is no call: from inside the goal the ball is about to be wholly past the
        line, and the net's ends behind the posts can be touched from the field.
        """
        p = ft.pieces
        xy = p.xy_mm[bi] if at is None else at
        x, y = float(xy[0]), float(xy[1])
        r = float(p.size_mm[bi, 0]) / 2.0
        side = "right" if x > 0 else "left"
        line_m, posts_m = (float(v[0]) for v in goal_margins(xy, r, self.field, side))
        if -COLLISION_SLOP_MM <= posts_m < 0.0:
            # against a post's inner face: the physics lets the ball sink into the post by up
            # to its collision slop (gaucha seed 38, frame 4160: turned into the goal off the
            # post, 0.08 mm into it), and a ball there is within the posts
            posts_m = 0.0
        last_team = self._team.get(self.last_touch or "")
        if line_m > 0.0 and posts_m < 0.0:
            # Wholly past the line but beside the posts now: it may have crossed between them
            # since the last frame and been turned by the net. Judged where it crossed.
            crossed = self._crossing(ft, bi, side)
            if crossed is not None:
                xy, posts_m = crossed, float(goal_margins(crossed, r, self.field, side)[1][0])
        if line_m > 0.0 and posts_m >= 0.0:
            self.in_play = False
            scorer = self.opponent(self.defender(side))
            return [
                event(
                    ft,
                    "goal",
                    scorer,
                    self.last_touch,
                    float(ball_in_goal_margin(xy, r, self.field, side)[0]),
                    self._art("ball_in_goal", "000 REGRA 10"),
                    ball=_xy(xy),
                    side=side,
                    last_touch_team=last_team,
                )
            ]
        margin_a, line_a = ball_out_margin(xy, r, self.field, self._touching_touchline)
        margin, line = float(margin_a[0]), str(line_a[0])
        if margin <= 0.0 and not touched_rail:
            return []
        wholly = float(ball_out_margin(xy, r, self.field, False)[0][0]) > 0.0
        if self._ball_out_before and not touched_rail and not (wholly and not self._wholly_before):
            # Placed out, on the line, for a restart (001 Art. XXXIV § 2: a throw-in is taken
            # "rigorosamente sobre a linha", which touching already makes out): out again
            # only once it has been in, or once it "ultrapassa" the line (Art. XXXIV): wholly
            # beyond it.
            return []
        if line.startswith("touch"):
            restart = "throw_in"
            team = self.opponent(last_team)
        else:
            defender = self.defender(line.split("_")[1])
            if last_team == defender:
                restart, team = "corner", self.opponent(defender)
            else:
                restart, team = "goal_kick", defender
        self.in_play = False
        return [
            event(
                ft,
                "ball_out",
                team,
                self.last_touch,
                margin,
                self._art("ball_out", "000 REGRA 9"),
                ball=_xy(xy),
                line=line,
                restart=restart,
                spot=self._restart_spot(line, (x, y), team),
                last_touch_team=last_team,
            )
        ]

    def _crossing(self, ft: FrameTruth, bi: int, side: str) -> NDArray[np.float64] | None:
        """Where the ball became wholly past the goal line since the last frame, or None.

        Between contacts a ball slides straight along its velocity (friction only slows
        it), so from the last frame's position and velocity the path to the line is exact
        even when the net turned it afterwards. None when it was already past or did not
        reach the line, or when a piece, a post or a rail turned it on the way.
        """
        prev = self._prev
        turned = ("piece-ball", "ball-post", "ball-rail")  # what bends the path before the net
        if prev is None or any(c.kind in turned for c in ft.contacts):
            return None
        b0 = prev.pieces.xy_mm[bi]
        r = float(prev.pieces.size_mm[bi, 0]) / 2.0
        v = prev.vel_mm_s[bi]
        speed = float(np.hypot(*v))
        if speed <= 0.0 or float(goal_margins(b0, r, self.field, side)[0][0]) > 0.0:
            return None
        reach = float(np.hypot(*(ft.pieces.xy_mm[bi] - b0))) + 20.0  # beyond any net bounce
        path = b0 + np.linspace(0.0, reach, int(reach / 0.01) + 2)[:, None] * (v / speed)
        past = np.flatnonzero(goal_margins(path, r, self.field, side)[0] > 0.0)
        return path[past[0]] if len(past) else None

    def _ball_motion(self, ft: FrameTruth, bi: int, moving: bool) -> dict[str, Any]:
        p = ft.pieces
        xy = p.xy_mm[bi]
        if moving:
            return event(ft, "ball_moving", None, self.last_touch, ball=_xy(xy))
        r = float(p.size_mm[bi, 0]) / 2.0
        side = "right" if xy[0] > 0 else "left"
        # The nearer goal line: positive = wholly past it; posts >= 0: within the goal mouth.
        line_m, posts_m = (float(v[0]) for v in goal_margins(xy, r, self.field, side))
        return event(
            ft,
            "ball_stopped",
            None,
            self.last_touch,
            line_m,
            "",
            ball=_xy(xy),
            goal_line=f"goal_{side}",
            between_posts=bool(posts_m + r > 0.0),
        )

    def _blocking(self, ft: FrameTruth) -> list[dict[str, Any]]:
        gab = (
            float(self.rules.param("gabarito_diameter_mm"))
            if self.rules.has("gabarito_diameter_mm")
            else 60.0
        )
        if "ball_blocked" not in self.rules.checks:
            return []
        for team in self.teams:
            if ball_blocked_by(ft.pieces, team, gab):
                if self._blocked == team:
                    return []
                self._blocked = team
                bi = int(np.flatnonzero(ft.pieces.kind == "ball")[0])
                return [
                    event(
                        ft,
                        "ball_blocked",
                        team,
                        None,
                        None,
                        self.rules.article("ball_blocked"),
                        ball=_xy(ft.pieces.xy_mm[bi]),
                    )
                ]
        self._blocked = None
        return []


def _xy(v: Any) -> list[float]:
    return [round(float(v[0]), 2), round(float(v[1]), 2)]


class TruthWriter:
    """Writes a clip's truth (``truth.csv``, ``contacts.jsonl``, ``events.jsonl``) frame by frame.

    Use as a context manager, or call :meth:`close`. ``write`` returns the frame's events.
    """

    CSV_HEADER = ("frame", "t", "id", "team", "kind", "x", "y", "vx", "vy", "moving", "contact")

    def __init__(
        self,
        out_dir: str | Path,
        table: TableSpec,
        rules_name: str = "brasileira",
        teams: dict[str, str] | None = None,
    ) -> None:
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.referee = Referee(table, rules_name, teams)
        self._csv_file: IO[str] = open(
            self.out_dir / "truth.csv", "w", newline="", encoding="utf-8"
        )
        self._csv = csv.writer(self._csv_file)
        self._csv.writerow(self.CSV_HEADER)
        self._contacts: IO[str] = open(self.out_dir / "contacts.jsonl", "w", encoding="utf-8")
        self._events: IO[str] = open(self.out_dir / "events.jsonl", "w", encoding="utf-8")

    def write(self, ft: FrameTruth) -> list[dict[str, Any]]:
        p = ft.pieces
        touched = {c.a for c in ft.contacts} | {c.b for c in ft.contacts}
        t = f"{ft.t:.4f}"
        for i in range(len(p)):
            pid = str(p.ids[i])
            self._csv.writerow(
                (
                    ft.frame,
                    t,
                    pid,
                    p.team[i],
                    p.kind[i],
                    f"{p.xy_mm[i, 0]:.3f}",
                    f"{p.xy_mm[i, 1]:.3f}",
                    f"{ft.vel_mm_s[i, 0]:.2f}",
                    f"{ft.vel_mm_s[i, 1]:.2f}",
                    int(ft.moving[i]),
                    int(pid in touched),
                )
            )
        for c in ft.contacts:
            rec = {
                "t": round(c.t, 5),
                "frame": ft.frame,
                "a": c.a,
                "b": c.b,
                "kind": c.kind,
                "impulse": round(c.impulse, 3),
            }
            self._contacts.write(json.dumps(rec) + "\n")
        events = self.referee.update(ft)
        for e in events:
            self._events.write(json.dumps(e, ensure_ascii=False) + "\n")
        return events

    def close(self) -> None:
        for f in (self._csv_file, self._contacts, self._events):
            f.close()

    def __enter__(self) -> TruthWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
