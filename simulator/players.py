"""Simple seeded players: formations, aiming a hit, shooting, and choosing a lance.

A player aims by geometry: to send the ball from ``B`` along ``u`` the striker must meet it with
its centre at ``C = B - (R + r) u`` (frictionless discs push along the line of centres), so it is
flicked from ``P`` toward ``C``; the cut angle between ``C - P`` and ``u`` must stay below 90 deg.
The speeds come from the physics' friction law (:mod:`simulator.physics`): the speed falls by
``distance / tau`` on the way, and a head-on hit gives the ball ``(1 + e) m / (m + m_ball)`` of
the striker's speed (times the cut's cosine).

Errors are the coach's, where a coach controls them: the ball leaves along the intended
direction plus a Gaussian angle of ``aim_sigma_deg`` (1.5 deg), and the flick is then computed
exactly for that direction; the speed gets a log-normal error of ``speed_sigma``. (An angular
error of the striker itself would be magnified at the contact by ``path / (R + r)``, 3x for a
10 cm run; that is not how a coach misses.) The physics' contact, found up to a step late,
adds about 1 deg: shots leave within ~2 deg (std) of their aim. All seeded by the match.

A jogada (000 REGRA 4 A, REGRA 10): a shot when its chance (:func:`shot_window` scans the goal
mouth for the aim keeping the widest angular clearance from the posts, the goalkeeper where
the defender will put it, :func:`keeper_spot`, and the other pieces) is good enough for the
lance; else a pass off a team-mate, planned with :func:`pass_rest` to leave the ball where the
next lance can shoot; else a move (:meth:`Player.intent`): clear, advance, approach the goal,
or, on the last lance, often kick the ball out ("safety", the opponent's restart is restricted)
or slide a button beside the ball to shut it in (:meth:`Player.close_ball`, REGRA 4 BLOQUEIO).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from geometry.pieces import Pieces
from geometry.tablespec import TableSpec
from rules.rulesets import PieceDefaults
from simulator.physics import (
    BALL_MASS_G,
    BALL_TAU_S,
    BUTTON_MASS_G,
    BUTTON_TAU_S,
    MAX_FLICK_MM_S,
    PIECE_ELASTICITY,
    STOP_MM_S,
    speed_for_distance,
)
from simulator.truth import ball_blocked_by

__all__ = [
    "Flick",
    "Player",
    "formation",
    "hit_for",
    "keeper_spot",
    "pass_rest",
    "shot_window",
]

FloatArray = NDArray[np.float64]
_TRANSFER = (1.0 + PIECE_ELASTICITY**2) * BUTTON_MASS_G / (BUTTON_MASS_G + BALL_MASS_G)
SHOT_MAX_MM = 1000.0  # no shot from further: the open part of the mouth is then < 1 deg wide
_PAST_LINE_MM = 200.0  # a shot is hit to roll this far past the goal line (the net stops it)
_MAX_RUN_MM = 600.0  # no striker runs further to the ball
_GAIN_VALUE = 0.0008  # a pass's or push's worth per mm gained toward the goal (vs a goal's 1)

# A 1-3-4-2 per team in its own half, as fractions of (half_length, half_width); x < 0 is the
# side the team defends.
_SHAPE = [
    (-0.78, -0.45),
    (-0.80, 0.0),
    (-0.78, 0.45),
    (-0.50, -0.70),
    (-0.52, -0.22),
    (-0.52, 0.22),
    (-0.50, 0.70),
    (-0.22, -0.40),
    (-0.25, 0.05),
    (-0.22, 0.40),
]


@dataclass(frozen=True)
class Flick:
    """A planned lance: which button, where, how fast, and why."""

    piece: str
    direction_rad: float
    speed_mm_s: float
    intent: str  # "shot", "pass", "approach", "advance", "clear", "safety", "shield"
    target_xy: tuple[float, float]


def formation(
    table: TableSpec, sizes: PieceDefaults, teams: dict[str, str], kick_off: str | None = None
) -> Pieces:
    """Both teams in their halves, keepers on their goal lines, the ball on the centre mark.

    ``kick_off``'s striker (``<team>10``) waits just behind the ball (000 REGRA 8, saída).
    """
    hl, hw = table.half_length, table.half_width
    ids, team, kind, xy, size, angle, height = [], [], [], [], [], [], []
    for t, side in teams.items():
        s = -1.0 if side == "left" else 1.0
        ids.append(f"{t}1")
        team.append(t)
        kind.append("goalkeeper")
        xy.append((s * (hl - sizes.goalkeeper_width / 2.0 - 1.0), 0.0))
        size.append((sizes.goalkeeper_length, sizes.goalkeeper_width))
        angle.append(math.pi / 2.0)
        height.append(sizes.goalkeeper_height)
        for k, (fx, fy) in enumerate(_SHAPE):
            ids.append(f"{t}{k + 2}")
            team.append(t)
            kind.append("button")
            xy.append((-s * fx * hl, fy * hw))  # fx < 0: into the team's own half
            size.append((sizes.button_diameter, sizes.button_diameter))
            angle.append(0.0)
            height.append(sizes.button_height)
    arr = np.array(xy, dtype=float)
    if kick_off is not None:
        i = ids.index(f"{kick_off}10")
        s = 1.0 if teams[kick_off] == "left" else -1.0
        arr[i] = (-s * (sizes.button_diameter / 2.0 + sizes.ball_diameter / 2.0 + 40.0), 0.0)
    ids.append("ball")
    team.append("")
    kind.append("ball")
    arr = np.vstack([arr, [0.0, 0.0]])
    size.append((sizes.ball_diameter, sizes.ball_diameter))
    angle.append(0.0)
    height.append(sizes.ball_height)
    return Pieces(
        np.array(ids),
        np.array(team),
        np.array(kind),
        arr,
        np.array(size),
        np.array(angle),
        np.array(height),
    )


def hit_for(
    striker_xy: FloatArray,
    r_striker: float,
    ball_xy: FloatArray,
    r_ball: float,
    ball_dir_rad: float,
    ball_dist_mm: float,
) -> tuple[float, float, float, float]:
    """Flick ``(direction_rad, speed_mm_s, cos_cut, path_mm)`` that sends the ball ``ball_dist_mm``.

    ``cos_cut <= 0`` means the striker cannot meet the ball from that side.
    """
    u = np.array([math.cos(ball_dir_rad), math.sin(ball_dir_rad)])
    contact = np.asarray(ball_xy, float) - (r_striker + r_ball) * u
    d = contact - np.asarray(striker_xy, float)
    path = float(np.hypot(*d))
    if path < 1e-6:
        return ball_dir_rad, 0.0, 1.0, 0.0
    cos_cut = float(d @ u) / path
    if cos_cut <= 0.05:
        return math.atan2(d[1], d[0]), 0.0, cos_cut, path
    v_ball = speed_for_distance(ball_dist_mm, BALL_TAU_S)
    v_contact = v_ball / (_TRANSFER * cos_cut)
    v0 = v_contact + path / BUTTON_TAU_S + STOP_MM_S * 0.5
    return math.atan2(d[1], d[0]), v0, cos_cut, path


def keeper_spot(
    table: TableSpec, keeper_width_mm: float, ball_xy: ArrayLike, side: str
) -> tuple[float, float]:
    """Where the defender's hand puts its goalkeeper when a shot is announced.

    On its goal line (the keeper's back 1 mm inside the line), on the line from the ball to the
    centre of the goal, within the posts (000 REGRA 4, DISTÂNCIA DA BOLA EM ARREMESSOS A GOL).
    """
    s = -1.0 if side == "left" else 1.0
    bx, by = (float(v) for v in np.asarray(ball_xy, float))
    gx = s * table.half_length
    kx = s * (table.half_length - keeper_width_mm / 2.0 - 1.0)
    f = (kx - bx) / (gx - bx) if gx != bx else 1.0
    g = table.goal_width / 2.0
    return kx, float(np.clip(by * (1.0 - f), -g, g))


def shot_window(
    ball_xy: ArrayLike,
    r_ball: float,
    table: TableSpec,
    side: str,
    keeper: tuple[tuple[float, float], tuple[float, float], float] | None = None,
    obstacles_xy: FloatArray | None = None,
    obstacles_r: FloatArray | None = None,
    n: int = 121,
) -> tuple[tuple[float, float], float]:
    """The best aim at the ``side`` goal: ``(target_xy, half_window_rad)``.

    ``target_xy`` is where the ball's centre should cross the goal line; ``half_window_rad`` how
    far (in angle seen from the ball) the shot may stray before it meets a post, the goalkeeper
    ``((x, y), (length, width), angle_rad)`` or an obstacle disc ahead of the ball: negative when
    no path is clear. Scans ``n`` crossing points between the posts at once.
    """
    b = np.asarray(ball_xy, float)
    s = -1.0 if side == "left" else 1.0
    gx = s * table.half_length
    lim = table.goal_width / 2.0 - r_ball - 0.5  # the ball's centre clears the posts
    dx = gx - b[0]
    if s * dx <= r_ball:  # on or past the goal line: no shot
        return (gx, 0.0), -math.inf
    ty = np.linspace(-lim, lim, n)
    dy = ty - b[1]
    length = np.hypot(dx, dy)
    cos_a = abs(dx) / length
    clear = (lim - np.abs(ty)) * cos_a / length
    if keeper is not None:
        (kx, ky), (kl, kw), ka = keeper
        hx = abs(kl / 2.0 * math.cos(ka)) + abs(kw / 2.0 * math.sin(ka)) + r_ball + 1.0
        hy = abs(kl / 2.0 * math.sin(ka)) + abs(kw / 2.0 * math.cos(ka)) + r_ball + 1.0
        y_at = b[1] + (np.array([kx - hx, kx + hx])[None, :] - b[0]) * (dy / dx)[:, None]
        past = np.maximum(y_at.min(axis=1) - (ky + hy), (ky - hy) - y_at.max(axis=1))
        to_keeper = max(float(np.hypot(kx - b[0], ky - b[1])), 1.0)
        clear = np.minimum(clear, past * cos_a / to_keeper)
    if obstacles_xy is not None and obstacles_r is not None and len(obstacles_xy):
        ex, ey = dx / length, dy / length
        rel = np.asarray(obstacles_xy, float) - b
        along = rel[None, :, 0] * ex[:, None] + rel[None, :, 1] * ey[:, None]
        perp = np.abs(rel[None, :, 0] * ey[:, None] - rel[None, :, 1] * ex[:, None])
        gap = perp - (np.asarray(obstacles_r, float) + r_ball)[None, :]
        ahead = (along > 0.0) & (along < length[:, None] + 40.0)
        ang = np.where(ahead, gap / np.maximum(along, 1.0), np.inf)
        clear = np.minimum(clear, ang.min(axis=1))
    k = int(np.argmax(clear))
    return (gx, float(ty[k])), float(clear[k])


def _lane_blocked(
    a: FloatArray, b: FloatArray, xy: FloatArray, clearance: FloatArray
) -> NDArray[np.bool_]:
    """Which centres ``xy`` come within ``clearance`` of the segment ``a``-``b``."""
    ab = b - a
    L2 = float(ab @ ab) or 1e-9
    s = np.clip(((xy - a) @ ab) / L2, 0.0, 1.0)
    closest = a + s[:, None] * ab
    return np.asarray(np.hypot(*(xy - closest).T) < clearance)


def pass_rest(
    ball_xy: ArrayLike,
    recv_xy: ArrayLike,
    offset_mm: ArrayLike,
    extra_mm: ArrayLike,
    r_sum_mm: float,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Where a pass off a team-mate leaves the ball: ``(ball_dir_rad, ball_dist_mm, rest_xy)``.

    The ball is aimed ``offset_mm`` to the left of the receiver's centre (``|offset| < r_sum``,
    the sum of the radii) hard enough to roll ``extra_mm`` beyond the contact, so it meets the
    receiver at ``extra / tau + STOP`` and bounces off it: the tangential part of its velocity
    is kept (frictionless discs), the normal part becomes ``(m - e M) / (m + M)`` of itself (the
    receiver barely moves), and it rolls on by the friction law. Vectorised over ``recv_xy``
    (K, 2), ``offset_mm`` and ``extra_mm`` (K,); matches the physics to a few millimetres.
    """
    b = np.asarray(ball_xy, float)
    q = np.atleast_2d(np.asarray(recv_xy, float))
    off = np.asarray(offset_mm, float)
    extra = np.asarray(extra_mm, float)
    rel = q - b
    u0 = rel / np.hypot(*rel.T)[:, None]
    aim = q + off[:, None] * np.stack([-u0[:, 1], u0[:, 0]], axis=1)
    u = (aim - b) / np.hypot(*(aim - b).T)[:, None]
    along = np.sum(rel * u, axis=1)
    perp2 = np.sum(rel * rel, axis=1) - along**2
    s = along - np.sqrt(np.maximum(r_sum_mm**2 - perp2, 0.0))
    contact = b + s[:, None] * u
    v = (extra / BALL_TAU_S + STOP_MM_S)[:, None] * u
    n = (contact - q) / r_sum_mm
    vn = np.sum(v * n, axis=1)[:, None]
    k = (BALL_MASS_G - PIECE_ELASTICITY**2 * BUTTON_MASS_G) / (BALL_MASS_G + BUTTON_MASS_G)
    v2 = v - vn * n + k * vn * n
    speed = np.maximum(np.hypot(*v2.T), 1e-9)
    roll = BALL_TAU_S * np.maximum(speed - STOP_MM_S, 0.0)
    rest = contact + (roll / speed)[:, None] * v2
    return np.arctan2(u[:, 1], u[:, 0]), s + extra, rest


class Player:
    """One coach's choices for one team (seeded by the match's generator).

    Parameters
    ----------
    aim_sigma_deg, speed_sigma : the coach's errors on the ball's direction (Gaussian, deg)
        and on the flick's speed (log-normal).
    risk : chance that the coach takes a lane an opponent stands in (fouls come from this).
    safety : chance that the last lance of a jogada without a shot kicks the ball out, in the
        own half and in the attacking half (:meth:`intent`).
    shoot_p : the least chance of scoring (the aim error within the shot's half-window) for
        which the coach shoots, on lances 1, 2 and 3 (the last has nothing better to do).
    shield : chance that the coach ends a jogada by sliding a button beside the ball to shut
        it in, when he sees such a spot (:meth:`close_ball`).
    """

    def __init__(
        self,
        team: str,
        defends: str,
        table: TableSpec,
        rng: np.random.Generator,
        aim_sigma_deg: float = 1.5,
        speed_sigma: float = 0.08,
        risk: float = 0.3,
        safety: tuple[float, float] = (0.85, 0.3),
        shoot_p: tuple[float, float, float] = (0.2, 0.15, 0.03),
        shield: float = 0.7,
    ) -> None:
        self.team = team
        self.sign = 1.0 if defends == "left" else -1.0  # attacking direction along x
        self.attacks = "right" if defends == "left" else "left"
        self.table = table
        self.rng = rng
        self.aim_sigma = math.radians(aim_sigma_deg)
        self.speed_sigma = speed_sigma
        self.risk = risk
        self.shoot_p = shoot_p
        self.safety = safety
        self.shield = shield

    @property
    def _lim(self) -> FloatArray:
        return np.array([self.table.half_length, self.table.half_width])

    def p_goal(self, half_window_rad: float) -> float:
        """Chance that the aim error stays within ``half_window_rad``."""
        return (
            math.erf(half_window_rad / (self.aim_sigma * math.sqrt(2.0)))
            if half_window_rad > 0
            else 0.0
        )

    # ------------------------------------------------------------------ shooting
    def window(
        self, pieces: Pieces, ball_xy: ArrayLike, keeper_placed: bool
    ) -> tuple[tuple[float, float], float]:
        """:func:`shot_window` from ``ball_xy`` against this position's pieces.

        Before the shot is announced the opponent's keeper is expected at :func:`keeper_spot`.
        """
        bi = int(np.flatnonzero(pieces.kind == "ball")[0])
        r_ball = float(pieces.size_mm[bi, 0]) / 2.0
        gk = np.flatnonzero((pieces.kind == "goalkeeper") & (pieces.team != self.team))
        keeper = None
        if len(gk):
            k = int(gk[0])
            size = (float(pieces.size_mm[k, 0]), float(pieces.size_mm[k, 1]))
            if keeper_placed:
                kxy = (float(pieces.xy_mm[k, 0]), float(pieces.xy_mm[k, 1]))
                keeper = (kxy, size, float(pieces.angle_rad[k]))
            else:
                kxy = keeper_spot(self.table, size[1], ball_xy, self.attacks)
                keeper = (kxy, size, math.pi / 2.0)
        obst = np.flatnonzero(pieces.kind != "ball")
        obst = obst[~np.isin(obst, gk)]
        r = pieces.size_mm[obst, 0] / 2.0  # the own keeper, far away, as a disc
        return shot_window(ball_xy, r_ball, self.table, self.attacks, keeper, pieces.xy_mm[obst], r)

    def shot(
        self, pieces: Pieces, keeper_placed: bool = True, only: str | None = None
    ) -> Flick | None:
        """An announced shot at the best aim, whatever the window (None if no striker)."""
        b = pieces.xy_mm[int(np.flatnonzero(pieces.kind == "ball")[0])]
        tgt, _ = self.window(pieces, b, keeper_placed)
        d = np.asarray(tgt) - b
        dist = float(np.hypot(*d)) + _PAST_LINE_MM
        return self.strike(pieces, math.atan2(d[1], d[0]), dist, "shot", only=only)

    # ------------------------------------------------------------------ choosing
    def choose(
        self,
        pieces: Pieces,
        lance: int,
        may_shoot: bool = True,
        keeper_placed: bool = False,
        exclude: tuple[str, ...] = (),
    ) -> Flick | None:
        """The lance: a striker and a flick with the coach's errors; None if no button can.

        In order: a shot whose chance reaches ``shoot_p`` for this lance (on the last one also
        by the button that just played, or with a cut); on lances 1 and 2 the best pass
        (:meth:`_pass`; REGRA 4 A: the jogada goes on only after a pass); else
        :meth:`intent`'s move; else any push a button can make; else the nearest button
        straight through the ball (the coach must play, REGRA 4 JOGADA).
        """
        b = pieces.xy_mm[int(np.flatnonzero(pieces.kind == "ball")[0])]
        attacking = b[0] * self.sign > 0.0
        if may_shoot and attacking:
            tgt, win = self.window(pieces, b, keeper_placed)
            d = np.asarray(tgt) - b
            if np.hypot(*d) < SHOT_MAX_MM and self.p_goal(win) >= self.shoot_p[min(lance, 3) - 1]:
                dist = float(np.hypot(*d)) + _PAST_LINE_MM
                ang = math.atan2(d[1], d[0])
                flick = self.strike(pieces, ang, dist, "shot", exclude)
                if flick is None and lance >= 3:
                    # The last lance: rather the button that just passed (no rule forbids
                    # it), or a cut shot, than none.
                    flick = self.strike(pieces, ang, dist, "shot") or self.strike(
                        pieces, ang, dist, "shot", min_cos=0.35
                    )
                if flick is not None:
                    return flick
        if lance < 3:
            planned = self._pass(pieces, b, exclude, lance)
            if planned is not None:
                return planned[0]
        # Without a pass on lance 2 the jogada ends too (REGRA 4 A): that is a last lance.
        if lance >= 2 and self.rng.random() < self.shield:
            closing = self.close_ball(pieces)
            if closing is not None:
                return closing
        intent, ball_dir, ball_dist = self.intent(pieces, last=lance >= 2)
        flick = self.strike(pieces, ball_dir, ball_dist, intent, exclude)
        if flick is not None:
            return flick
        # No striker behind the ball for that: push it on wherever a button can reach it.
        base = 0.0 if self.sign > 0 else math.pi
        for off_deg in (30, -30, 60, -60, 90, -90, 135, -135, 180):
            ball_dir, ball_dist = self._keep_in(b, base + math.radians(off_deg), 250.0)
            flick = self.strike(pieces, ball_dir, ball_dist, "advance", exclude)
            if flick is not None:
                return flick
        # Still nothing: the nearest button is flicked straight through the ball.
        mine = np.flatnonzero(
            (pieces.team == self.team) & (pieces.kind == "button") & ~np.isin(pieces.ids, exclude)
        )
        if len(mine) == 0:
            return None
        j = int(mine[np.argmin(np.hypot(*(pieces.xy_mm[mine] - b).T))])
        d = b - pieces.xy_mm[j]
        return self.flick_for(pieces, str(pieces.ids[j]), math.atan2(d[1], d[0]), 250.0, "advance")

    def intent(self, pieces: Pieces, last: bool = False) -> tuple[str, float, float]:
        """``(intent, ball_dir_rad, ball_dist_mm)`` of a move that is neither shot nor pass.

        On the jogada's ``last`` lance the coach often kicks the ball out ("safety", chance
        ``safety``): over the nearer touchline in its own half (the opponent's throw-in is a
        restricted jogada, without a shot, 000 REGRA 4 B), deep over the opponent's goal line
        in attack. Else: clear from deep in defence; in the attacking third bring the ball in
        front of the goal; elsewhere advance, away from the touchlines.
        """
        b = pieces.xy_mm[int(np.flatnonzero(pieces.kind == "ball")[0])]
        fwd = b[0] * self.sign
        rng = self.rng
        hl = self.table.half_length
        base = 0.0 if self.sign > 0 else math.pi
        if last and rng.random() < self.safety[0 if fwd < 0.0 else 1]:
            side = math.copysign(1.0, b[1]) if abs(b[1]) > 50.0 else rng.choice([-1.0, 1.0])
            if fwd < 0.0:
                tgt = np.array(
                    [b[0] + self.sign * rng.uniform(100.0, 300.0), side * (self._lim[1] + 150.0)]
                )
            else:  # deep into the opponent's corner, over his goal line
                y = side * rng.uniform(0.4, 0.9) * self._lim[1]
                tgt = np.array([self.sign * (hl + 150.0), y])
            d = tgt - b
            return "safety", math.atan2(d[1], d[0]), float(np.hypot(*d))
        if fwd < -hl / 3.0:
            # A clear goes up and away from the middle (but in from a touchline), wherever
            # it lands (often out).
            out_side = 1.0 if abs(b[1]) < 0.6 * self._lim[1] else -1.0
            wide = out_side * math.radians(30.0) * math.copysign(1.0, b[1] * self.sign)
            ang = base + wide + rng.normal(0.0, math.radians(25.0))
            return "clear", ang, float(rng.uniform(500.0, 900.0))
        if fwd > hl / 3.0:
            y = float(np.clip(0.35 * b[1], -110.0, 110.0)) + rng.normal(0.0, 30.0)
            d = np.array([self.sign * (hl - 240.0), y]) - b
            return "approach", math.atan2(d[1], d[0]), float(np.clip(np.hypot(*d), 60.0, 550.0))
        ang = rng.normal(0.0, math.radians(25.0)) - 0.3 * b[1] / self.table.half_width * self.sign
        return ("advance", *self._keep_in(b, base + ang, float(rng.uniform(250.0, 500.0))))

    def close_ball(self, pieces: Pieces, gabarito_mm: float = 60.0) -> Flick | None:
        """A button slid beside the ball, not touching it, so the ball ends shut in; or None.

        000 REGRA 4 BLOQUEIO: a jogada ends "fechada" when the gabarito cannot reach the ball
        past one team's pieces; the coach may end his jogada with a lance that misses the ball
        (a "jogada em branco"). He looks for a spot 2-12 mm from the ball where one of his
        buttons, with his others, shuts it in (the truth referee's test), reached along a
        clear path; the nearest wins. The flick's errors decide whether it really closes.
        """
        bi = int(np.flatnonzero(pieces.kind == "ball")[0])
        b, r_ball = pieces.xy_mm[bi], float(pieces.size_mm[bi, 0]) / 2.0
        radius = np.where(pieces.kind == "goalkeeper", pieces.size_mm[:, 1], pieces.size_mm[:, 0])
        radius = radius / 2.0
        near = np.hypot(*(pieces.xy_mm - b).T) < 450.0
        mine = np.flatnonzero((pieces.team == self.team) & (pieces.kind == "button") & near)
        if len(mine) < 2:
            return None
        ang = np.radians(np.arange(0.0, 360.0, 10.0))
        ring = np.stack([np.cos(ang), np.sin(ang)], axis=1)
        best: tuple[float, int, FloatArray] | None = None
        for j in mine:
            others = np.flatnonzero(np.arange(len(pieces)) != j)
            for gap in (2.0, 4.0, 6.0, 8.0, 10.0, 12.0):
                spots = b + (r_ball + radius[j] + gap) * ring
                run = np.hypot(*(spots - pieces.xy_mm[j]).T)
                for k in np.argsort(run):
                    if run[k] < 20.0 or run[k] > 400.0 or (best is not None and run[k] >= best[0]):
                        continue
                    room = np.hypot(*(pieces.xy_mm[others] - spots[k]).T) - radius[others]
                    lane = _lane_blocked(
                        pieces.xy_mm[j],
                        spots[k],
                        pieces.xy_mm[others],
                        radius[others] + radius[j] + 1.0,
                    )
                    if (room - radius[j] < 2.0).any() or lane.any():
                        continue
                    xy = pieces.xy_mm.copy()
                    xy[j] = spots[k]
                    if ball_blocked_by(
                        dataclasses.replace(pieces, xy_mm=xy), self.team, gabarito_mm
                    ):
                        best = (float(run[k]), int(j), spots[k])
                        break
        if best is None:
            return None
        dist, closer, spot = best
        d = spot - pieces.xy_mm[closer]
        speed = speed_for_distance(dist) * float(np.exp(self.rng.normal(0.0, self.speed_sigma)))
        direction = math.atan2(d[1], d[0]) + float(self.rng.normal(0.0, self.aim_sigma))
        return Flick(
            str(pieces.ids[closer]), direction, speed, "shield", (float(spot[0]), float(spot[1]))
        )

    def _keep_in(self, b: FloatArray, ang: float, dist: float) -> tuple[float, float]:
        """``(direction, distance)`` bent so the ball stops 100 mm inside the lines."""
        end = b + dist * np.array([math.cos(ang), math.sin(ang)])
        d = np.clip(end, 100.0 - self._lim, self._lim - 100.0) - b
        return math.atan2(d[1], d[0]), max(float(np.hypot(*d)), 60.0)

    def _receivers(self, pieces: Pieces, b: FloatArray, lo: float, hi: float) -> NDArray[np.intp]:
        """Own buttons between ``lo`` and ``hi`` mm from the ball with a clear lane to it."""
        mine = np.flatnonzero((pieces.team == self.team) & (pieces.kind == "button"))
        dist = np.hypot(*(pieces.xy_mm[mine] - b).T)
        out = []
        others = np.flatnonzero(pieces.kind != "ball")
        r = pieces.size_mm[others, 0] / 2.0 + 7.0
        for j in mine[(dist > lo) & (dist < hi)]:
            lane = _lane_blocked(b, pieces.xy_mm[j], pieces.xy_mm[others], r)
            if not (lane & (others != j)).any():
                out.append(int(j))
        return np.array(out, dtype=np.intp)

    def _pass(
        self, pieces: Pieces, b: FloatArray, exclude: tuple[str, ...], lance: int
    ) -> tuple[Flick, float] | None:
        """The best pass off a team-mate and its value (REGRA 4: a pass keeps the jogada on).

        Candidates aim at each reachable team-mate, on its centre or to a side, soft or firm
        (:func:`pass_rest` says where the ball stops). Value: the ball's gain toward the goal
        (``_GAIN_VALUE`` per mm) plus, before the last lance, the chance of the shot the next
        lance then has (REGRA 10: a shot after a pass) from there, with a button other than
        the passer behind the ball; that chance is the mean of the aim and one aim error to
        either side, as a bounce turns a small miss into a large change.
        """
        recv = self._receivers(pieces, b, 70.0, 700.0)
        if len(recv) == 0:
            return None
        bi = int(np.flatnonzero(pieces.kind == "ball")[0])
        r_ball = float(pieces.size_mm[bi, 0]) / 2.0
        offs = np.array([-24.0, -16.0, -8.0, 0.0, 8.0, 16.0, 24.0])
        extras = np.array([80.0, 200.0])
        jj = np.repeat(recv, len(offs) * len(extras))
        off = np.tile(np.repeat(offs, len(extras)), len(recv))
        extra = np.tile(extras, len(recv) * len(offs))
        q = pieces.xy_mm[jj]
        r_sum = float(pieces.size_mm[jj[0], 0]) / 2.0 + r_ball
        spread = self.aim_sigma * np.hypot(*(q - b).T)  # lateral miss of one aim error
        dirs, dists, rest = pass_rest(b, q, off, extra, r_sum)
        mine = np.flatnonzero(
            (pieces.team == self.team) & (pieces.kind == "button") & ~np.isin(pieces.ids, exclude)
        )
        # Which own buttons could strike each pass (lanes are checked for the chosen ones).
        u = np.stack([np.cos(dirs), np.sin(dirs)], axis=1)
        d = (b - r_sum * u)[:, None, :] - pieces.xy_mm[mine][None, :, :]
        path = np.hypot(d[..., 0], d[..., 1])
        cos_cut = np.sum(d * u[:, None, :], axis=-1) / np.maximum(path, 1e-9)
        feasible = (cos_cut > 0.2) & (path < _MAX_RUN_MM) & (mine[None, :] != jj[:, None])
        keep = feasible.any(axis=1) & np.all(np.abs(rest) < self._lim - 40.0, axis=1)
        if not keep.any():
            return None
        team = np.flatnonzero((pieces.team == self.team) & (pieces.kind == "button"))

        def chance(rest_xy: FloatArray, passer: int | None = None) -> float:
            """The next lance's shot from ``rest_xy``; exact striker check once the passer
            (who may not strike again) is known, a quick one before."""
            if np.any(np.abs(rest_xy) > self._lim - 40.0) or rest_xy[0] * self.sign <= 0.0:
                return 0.0
            tgt, win = self.window(pieces, rest_xy, keeper_placed=False)
            d = np.asarray(tgt) - rest_xy
            if np.hypot(*d) > SHOT_MAX_MM or win <= 0.0:
                return 0.0
            if passer is None:
                ok = self._can_shoot(pieces, team, rest_xy, np.asarray(tgt), r_ball)
            else:
                xy = pieces.xy_mm.copy()
                xy[bi] = rest_xy
                moved = dataclasses.replace(pieces, xy_mm=xy)
                dist = float(np.hypot(*d)) + _PAST_LINE_MM
                ang = math.atan2(d[1], d[0])
                ok = self.striker(moved, ang, dist, True, (str(pieces.ids[passer]),)) is not None
            return self.p_goal(win) if ok else 0.0

        value = _GAIN_VALUE * (rest[:, 0] - b[0]) * self.sign
        shoots = lance < 3
        if shoots:
            for k in np.flatnonzero(keep):
                value[k] += chance(rest[k])
        best: tuple[float, int, int] | None = None
        for k in np.flatnonzero(keep)[np.argsort(-value[keep])][:8]:
            if best is not None and value[k] <= best[0]:
                break
            receiver = str(pieces.ids[jj[k]])
            passer = self.striker(
                pieces, float(dirs[k]), float(dists[k]), False, (*exclude, receiver)
            )
            if passer is None:
                continue
            v = _GAIN_VALUE * (rest[k, 0] - b[0]) * self.sign
            if shoots and rest[k, 0] * self.sign > 0.0:
                sides = off[k] + np.array([-1.0, 1.0]) * spread[k]
                _, _, near = pass_rest(
                    b, q[[k, k]], np.clip(sides, -30.0, 30.0), extra[[k, k]], r_sum
                )
                v += (
                    chance(rest[k], passer) + chance(near[0], passer) + chance(near[1], passer)
                ) / 3.0
            if best is None or v > best[0]:
                best = (v, int(k), passer)
        if best is None:
            return None
        kb, jb = best[1], best[2]
        flick = self.flick_for(
            pieces, str(pieces.ids[jb]), float(dirs[kb]), float(dists[kb]), "pass"
        )
        return flick, best[0]

    def _can_shoot(
        self,
        pieces: Pieces,
        mine: NDArray[np.intp],
        ball_xy: FloatArray,
        tgt: FloatArray,
        r_ball: float,
    ) -> bool:
        """Some own button is behind ``ball_xy`` for a straight enough hit toward ``tgt``."""
        u = (tgt - ball_xy) / max(float(np.hypot(*(tgt - ball_xy))), 1e-9)
        contact = ball_xy - (pieces.size_mm[mine, 0][:, None] / 2.0 + r_ball) * u
        d = contact - pieces.xy_mm[mine]
        path = np.hypot(*d.T)
        cos_cut = (d @ u) / np.maximum(path, 1e-9)
        return bool(np.any((cos_cut >= 0.7) & (path < 450.0) & (path > 20.0)))

    def strike(
        self,
        pieces: Pieces,
        ball_dir: float,
        ball_dist: float,
        intent: str,
        exclude: tuple[str, ...] = (),
        only: str | None = None,
        min_cos: float | None = None,
    ) -> Flick | None:
        """The best striker (:meth:`striker`) for the move, flicked with the coach's errors.

        With probability ``risk`` the coach accepts a lane through an opponent (that is how
        fouls happen).
        """
        risky = self.rng.random() < self.risk
        shot = intent == "shot"
        j = self.striker(pieces, ball_dir, ball_dist, shot, exclude, only, risky, min_cos)
        if j is None:
            return None
        return self.flick_for(pieces, str(pieces.ids[j]), ball_dir, ball_dist, intent)

    def striker(
        self,
        pieces: Pieces,
        ball_dir: float,
        ball_dist: float,
        shot: bool = False,
        exclude: tuple[str, ...] = (),
        only: str | None = None,
        risky: bool = False,
        min_cos: float | None = None,
    ) -> int | None:
        """Index of the own button best placed to send the ball along ``ball_dir``, or None.

        Cost: the path to the ball, the cut (shots need a straighter hit: the contact's
        detection a step late turns a cut ball by up to ~2 deg), a speed beyond the maximum.
        A lane through another piece rules a button out, through an opponent unless ``risky``.
        """
        bi = int(np.flatnonzero(pieces.kind == "ball")[0])
        b = pieces.xy_mm[bi]
        r_ball = float(pieces.size_mm[bi, 0]) / 2.0
        mine = np.flatnonzero(
            (pieces.team == self.team) & (pieces.kind == "button") & ~np.isin(pieces.ids, exclude)
        )
        if only is not None:
            mine = np.flatnonzero(pieces.ids == only)
        radius = pieces.size_mm[:, 0] / 2.0
        if min_cos is None:
            min_cos = 0.6 if shot else 0.2
        u = np.array([math.cos(ball_dir), math.sin(ball_dir)])
        best: tuple[float, int] | None = None
        for j in mine:
            r = float(radius[j])
            _, v0, cos_cut, path = hit_for(pieces.xy_mm[j], r, b, r_ball, ball_dir, ball_dist)
            if cos_cut < min_cos or v0 <= 0.0 or path > _MAX_RUN_MM:
                continue
            if shot and v0 > MAX_FLICK_MM_S:
                # Flat out, it must still roll wholly past the line (the shot's margin less).
                short = ball_dist - _PAST_LINE_MM + 120.0
                if hit_for(pieces.xy_mm[j], r, b, r_ball, ball_dir, short)[1] > MAX_FLICK_MM_S:
                    continue
            others = np.flatnonzero((np.arange(len(pieces)) != j) & (pieces.kind != "ball"))
            lane = _lane_blocked(
                pieces.xy_mm[j],
                b - (r + r_ball) * u,
                pieces.xy_mm[others],
                radius[others] + r + 2.0,
            )
            own = pieces.team[others] == self.team
            if lane[own].any() or (lane[~own].any() and not risky):
                continue
            cost = path + (1200.0 if shot else 400.0) * (1.0 - cos_cut)
            cost += max(v0 - MAX_FLICK_MM_S, 0.0) + 3.0 * max(path - 450.0, 0.0)
            if best is None or cost < best[0]:
                best = (cost, int(j))
        return None if best is None else best[1]

    def flick_for(
        self, pieces: Pieces, piece: str, ball_dir: float, ball_dist: float, intent: str
    ) -> Flick:
        """``piece``'s flick for sending the ball along ``ball_dir``, with the coach's errors.

        The error is on the ball's direction; the flick is then exact for the direction aimed.
        """
        bi = int(np.flatnonzero(pieces.kind == "ball")[0])
        b = pieces.xy_mm[bi]
        r_ball = float(pieces.size_mm[bi, 0]) / 2.0
        j = pieces.index(piece)
        aimed = ball_dir + float(self.rng.normal(0.0, self.aim_sigma))
        r = float(pieces.size_mm[j, 0]) / 2.0
        direction, v0, _, _ = hit_for(pieces.xy_mm[j], r, b, r_ball, aimed, ball_dist)
        if v0 <= 0.0:  # it cannot meet the ball from that side: straight through it
            d = b - pieces.xy_mm[j]
            direction, v0, _, _ = hit_for(
                pieces.xy_mm[j], r, b, r_ball, math.atan2(d[1], d[0]), ball_dist
            )
        v0 *= float(np.exp(self.rng.normal(0.0, self.speed_sigma)))
        tgt = b + ball_dist * np.array([math.cos(ball_dir), math.sin(ball_dir)])
        return Flick(
            piece, direction, min(v0, MAX_FLICK_MM_S), intent, (float(tgt[0]), float(tgt[1]))
        )

    def restart_plan(self, pieces: Pieces, may_shoot: bool) -> tuple[str, float, float, str]:
        """A set piece: ``(intent, ball_dir, ball_dist, taker)``.

        A direct free kick or penalty with a window is a shot, else :meth:`intent`'s move. The
        taker (the own button nearest the ball) is then set behind the ball by hand, so any
        direction is playable (000 REGRA 4 JOGADA PADRÃO: restarts are restricted jogadas).
        """
        bi = int(np.flatnonzero(pieces.kind == "ball")[0])
        b = pieces.xy_mm[bi]
        mine = np.flatnonzero((pieces.team == self.team) & (pieces.kind == "button"))
        taker = str(pieces.ids[mine[int(np.argmin(np.hypot(*(pieces.xy_mm[mine] - b).T)))]])
        if may_shoot and b[0] * self.sign > 0.0:
            tgt, win = self.window(pieces, b, False)
            d = np.asarray(tgt) - b
            if np.hypot(*d) < SHOT_MAX_MM and self.p_goal(win) >= self.shoot_p[0]:
                return "shot", math.atan2(d[1], d[0]), float(np.hypot(*d)) + _PAST_LINE_MM, taker
        intent, ball_dir, ball_dist = self.intent(pieces)
        return intent, ball_dir, ball_dist, taker
