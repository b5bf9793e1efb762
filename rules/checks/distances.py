"""Check ``min_distance``: the edge-to-edge distances a rule constrains at a restart.

The scene's ``context`` names the restart (``restart``), where it is taken (``spot`` [x, y])
and by whom (``team``). Each rule set constrains different pairs (a piece and another piece,
the ball, the spot or an area); every measured pair becomes a candidate verdict with
``extra = {"constraint", "limit_mm", "other", "distance_mm"}``, ``holds`` (the constraint is
satisfied) and ``margin_mm = distance - limit`` (or the analogous signed quantity).

Which candidates become verdicts (so a crowded arrangement does not drown the referee): per
constraint, every violating pair, every near pair (distance < 2 x limit), and, when all pairs
hold, also the single closest one, so the binding constraint is always shown. Per-team and
per-goalkeeper constraints (counts, the goalkeeper at a shot, the kicker's gap) always emit.

Common readings, used by every rule set:

- The *kicker* is the kicking team's button nearest the ball (edge to edge).
- The *ball* is the scene's ball; without one, a ball of the rule set's size at ``spot``.
  The *spot* is ``context.spot``; without one, the ball's centre.
- "Inside an area" means any part of the footprint on the area or its lines (a line belongs
  to the region it bounds); ``margin_mm`` is then the footprint's signed distance to the area
  (positive: wholly out by that much; negative: minus the push that would take it out).
- A restart a rule set sets no distance for gives no verdict.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from geometry.measure import footprint_box_extent, footprint_box_signed_distance
from geometry.pieces import Pieces, pairwise_gaps, rectangle_corners
from geometry.scene import Scene
from rules.checks.base import CheckContext, register
from rules.verdict import Verdict

__all__ = ["check_min_distance", "point_gaps"]

CHECK = "min_distance"
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]
_PLAYERS = ("button", "goalkeeper")
_FREE_KICKS = ("free_kick", "indirect_free_kick")
_REMOVAL_RESTARTS = (*_FREE_KICKS, "corner", "throw_in")


def point_gaps(pieces: Pieces, xy_mm: FloatArray) -> FloatArray:
    """Exact signed distance from the point ``xy_mm`` to each footprint (negative inside)."""
    d = np.asarray(xy_mm, float)[None, :] - pieces.xy_mm
    c, s = np.cos(pieces.angle_rad), np.sin(pieces.angle_rad)
    # In each piece's own frame a goalkeeper is an axis-aligned box (length along local x).
    lx, ly = d[:, 0] * c + d[:, 1] * s, -d[:, 0] * s + d[:, 1] * c
    qx, qy = np.abs(lx) - pieces.size_mm[:, 0] / 2.0, np.abs(ly) - pieces.size_mm[:, 1] / 2.0
    box = np.hypot(np.maximum(qx, 0.0), np.maximum(qy, 0.0)) + np.minimum(np.maximum(qx, qy), 0.0)
    disc = np.hypot(d[:, 0], d[:, 1]) - pieces.size_mm[:, 0] / 2.0
    return np.asarray(np.where(pieces.is_disc, disc, box), dtype=float)


@dataclass(frozen=True)
class _Rule:
    """One constraint: ``distance >= limit_mm`` (``> limit_mm`` when ``strict``)."""

    name: str
    article: str
    limit_mm: float
    strict: bool = False
    ok: str = "at least {limit:g} mm"
    fail: str = "closer than {limit:g} mm"
    always: bool = False  # emit every pair, not only the violating and near ones


@dataclass(frozen=True)
class _Pair:
    """One measured pair: a candidate verdict."""

    rule: _Rule
    piece: str
    team: str | None
    other: str
    distance_mm: float
    margin_mm: float
    holds: bool
    detail: str | None = None  # None: the standard "<piece> <d> mm from <other>: ..." line
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def near(self) -> bool:
        return self.distance_mm < 2.0 * self.rule.limit_mm

    def verdict(self) -> Verdict:
        dist = round(self.distance_mm, 3) if math.isfinite(self.distance_mm) else None
        extra = {"constraint": self.rule.name, "limit_mm": self.rule.limit_mm, "other": self.other}
        extra |= {"distance_mm": dist, **self.extra}
        detail = self.detail
        if detail is None:  # formatted here: most candidates never become verdicts
            rule = self.rule
            state = (rule.ok if self.holds else rule.fail).format(limit=rule.limit_mm)
            detail = f"{self.piece} {self.distance_mm:.1f} mm from {self.other}: {state}"
            detail += f" ({rule.name})"
        return Verdict(
            CHECK,
            self.holds,
            self.margin_mm,
            detail,
            self.rule.article,
            team=self.team,
            piece=self.piece,
            extra=extra,
        )


Cands = list[_Pair | Verdict]


@dataclass(frozen=True)
class _Setup:
    """What every rule set's builder reads: the scene, the rules and the restart's context."""

    scene: Scene
    ctx: CheckContext
    restart: str
    team: str | None
    spot: FloatArray | None
    ball: Pieces | None

    @property
    def p(self) -> Pieces:
        return self.scene.pieces

    def param(self, name: str) -> float:
        return float(self.ctx.rules.param(name))

    def mask(self, team: str | None = None, kind: tuple[str, ...] = _PLAYERS) -> BoolArray:
        m = self._kind_masks[kind[0]].copy()
        for k in kind[1:]:
            m |= self._kind_masks[k]
        return m & (self.p.team == team) if team is not None else m

    @cached_property
    def _kind_masks(self) -> dict[str, BoolArray]:
        return {k: self.p.kind == k for k in ("button", "goalkeeper", "ball")}

    def kicker(self) -> int | None:
        """Index of the kicking team's button nearest the ball (None if unknown)."""
        if self.team is None or self.ball is None:
            return None
        idx = np.flatnonzero(self.mask(self.team, ("button",)))
        if len(idx) == 0:
            return None
        return int(idx[np.argmin(pairwise_gaps(self.p.select(idx), self.ball)[:, 0])])

    def but_kicker(self, mask: BoolArray) -> BoolArray:
        k = self.kicker()
        if k is not None:
            mask[k] = False
        return mask

    def defender(self) -> str:
        assert self.team is not None
        return self.scene.opponent(self.team)

    def side(self, team: str) -> str:
        return self.scene.teams[team]

    def measure(self, rule: _Rule, idx: IntArray, dist: FloatArray, other: Any) -> list[_Pair]:
        """Candidates for pieces ``idx`` at distances ``dist`` from ``other`` (one name, or
        one per piece)."""
        others = np.full(len(idx), other) if isinstance(other, str) else other
        dist = np.asarray(dist, dtype=float)
        holds_all = dist > rule.limit_mm if rule.strict else dist >= rule.limit_mm
        # Only the candidates _select can keep become objects: violating, near, "always", and
        # this call's closest (the group's closest is the smallest of its calls' closest).
        margins = np.round(dist - rule.limit_mm, 6)
        closest = margins == margins.min() if len(margins) else margins.astype(bool)
        keep = ~holds_all | (dist < 2.0 * rule.limit_mm) | closest | rule.always
        ids, teams = self.p.ids, self.p.team
        return [
            _Pair(
                rule,
                str(ids[i]),
                str(teams[i]) or None,
                str(others[k]),
                float(dist[k]),
                float(dist[k]) - rule.limit_mm,
                bool(holds_all[k]),
            )
            for k, i in enumerate(idx)
            if keep[k]
        ]

    @cached_property
    def gaps(self) -> FloatArray:
        """Edge-to-edge gaps between every pair of pieces, measured once per scene."""
        return pairwise_gaps(self.p)

    def to_ball(self, rule: _Rule, mask: BoolArray) -> list[_Pair]:
        assert self.ball is not None
        idx = np.flatnonzero(mask)
        gaps = pairwise_gaps(self.p.select(idx), self.ball)[:, 0]
        return self.measure(rule, idx, gaps, str(self.ball.ids[0]))

    def pairs(self, rule: _Rule, a: BoolArray, b: BoolArray) -> list[_Pair]:
        """Every pair (i in ``a``, j in ``b``), each unordered pair once."""
        ia, ib = np.flatnonzero(a), np.flatnonzero(b)
        gaps = self.gaps[np.ix_(ia, ib)]
        ii, jj = np.nonzero(ia[:, None] < ib[None, :]) if a is b else np.nonzero(np.isfinite(gaps))
        return self.measure(rule, ia[ii], gaps[ii, jj], self.p.ids[ib[jj]])

    def out_of_area(
        self, rule: _Rule, mask: BoolArray, sides: tuple[str, ...], area: str
    ) -> list[_Pair]:
        """Footprints wholly out of the ``area`` boxes of ``sides`` (``rule.limit_mm`` = 0)."""
        idx = np.flatnonzero(mask)
        sub = self.p.select(idx)
        boxes = [getattr(self.ctx.field, f"{area}_box")(side) for side in sides]
        dist = np.stack([footprint_box_signed_distance(sub, b) for b in boxes])
        names = np.array([f"{area}_{side}" for side in sides])[np.argmin(dist, axis=0)]
        return self.measure(rule, idx, dist.min(axis=0), names)


def _area_rule(name: str, article: str) -> _Rule:
    return _Rule(
        name, article, 0.0, strict=True, ok="wholly out", fail="inside it (on or within its lines)"
    )


def _goalkeeper_shot(s: _Setup, article: str) -> Cands:
    """000 REGRA 4 DISTÂNCIA DA BOLA EM ARREMESSOS A GOL: the defending goalkeeper at least
    18,3 cm from the ball "ou tocando totalmente a linha de meta".

    Reading of "tocando totalmente": the goalkeeper's long side facing its goal line lies on
    the goal line strip along its whole length, i.e. both corners of that side reach at least
    the strip's inner edge. ``margin_mm`` is the larger of the two ways to comply (ball
    distance minus 183 mm, how far the worse corner reaches into the strip).
    """
    rule = _Rule("goalkeeper_shot", article, s.param("goalkeeper_ball_distance_mm"), always=True)
    mask = s.mask(s.defender(), ("goalkeeper",))
    if not mask.any():
        detail = f"skipped: no goalkeeper of team {s.defender()} in the scene"
        return [
            Verdict(
                CHECK,
                None,
                None,
                detail,
                article,
                team=s.defender(),
                extra={"constraint": rule.name},
            )
        ]
    sign = 1.0 if s.side(s.defender()) == "right" else -1.0
    inner = s.ctx.field.hl - s.ctx.field.lw  # the goal line strip's inner edge, along sign
    sub = s.p.select(mask)
    u = sign * rectangle_corners(sub.xy_mm, sub.size_mm, sub.angle_rad)[..., 0]
    out: Cands = []
    for k, pair in enumerate(s.to_ball(rule, mask)):
        long_sides = np.array([[u[k, 0], u[k, 1]], [u[k, 3], u[k, 2]]])  # corner u per side
        line_margin = float(long_sides[np.argmax(long_sides.mean(axis=1))].min() - inner)
        margin = max(pair.margin_mm, line_margin)
        on_line = (
            f"on the goal line ({line_margin:.1f} mm into the strip)"
            if line_margin >= 0
            else f"{-line_margin:.1f} mm short of the goal line"
        )
        detail = (
            f"goalkeeper {pair.piece} {pair.distance_mm:.1f} mm from the ball "
            f"(limit {rule.limit_mm:g} mm); its goal-side edge is {on_line}"
        )
        by = "ball_distance" if pair.margin_mm >= line_margin else "goal_line"
        extra = {"goal_line_margin_mm": round(line_margin, 3), "decided_by": by}
        out.append(replace(pair, margin_mm=margin, holds=margin >= 0.0, detail=detail, extra=extra))
    return out


# ------------------------------------------------------------------ rule sets
def _nacional(s: _Setup) -> Cands:
    art = {"throw_in": "000 Art. 14", "corner": "000 Art. 15"}.get(s.restart, "000 Art. 17")
    out: Cands = []
    if s.restart in _REMOVAL_RESTARTS:
        # "até 6 cm do local de cobrança ... poderá ser retirado": measured from the spot (a
        # point) to each piece's edge; holds False = within reach, the kicker may remove it.
        rule = _Rule(
            "removal",
            art,
            s.param("removal_radius_mm"),
            strict=True,
            ok="beyond {limit:g} mm",
            fail="within {limit:g} mm, may be removed",
        )
        if s.spot is None:
            out.append(Verdict.skipped(CHECK, "spot", art, extra={"constraint": rule.name}))
        else:
            idx = np.flatnonzero(s.but_kicker(s.mask()))
            out += s.measure(rule, idx, point_gaps(s.p.select(idx), s.spot), "spot")
    if s.restart != "shot":
        # 000 Art. 8: "nos lances de bola parada ... afastada do jogador cerca de 1 cm, no
        # mínimo"; Art. 25 E punishes a kick with the player nearer than 0,01 m.
        rule = _Rule(
            "dead_ball_gap", "000 Art. 8, Art. 25 E", s.param("dead_ball_gap_mm"), always=True
        )
        k = s.kicker()
        if s.team is None or s.ball is None:
            need = "team" if s.team is None else "spot"
            out.append(Verdict.skipped(CHECK, need, rule.article, extra={"constraint": rule.name}))
        elif k is not None:
            out += s.to_ball(rule, np.arange(len(s.p)) == k)
    return out


def _brasileira(s: _Setup) -> Cands:
    if s.restart in ("shot", "penalty", "free_kick", "goal_kick") and s.ball is None:
        return [Verdict.skipped(CHECK, "spot (or a ball in the scene)", "000 REGRA 4")]
    if s.restart in ("shot", "penalty", "goal_kick") and s.team is None:
        return [Verdict.skipped(CHECK, "team", "000 REGRA 4")]
    if s.restart == "shot":
        return _goalkeeper_shot(s, "000 REGRA 4 DISTÂNCIA DA BOLA EM ARREMESSOS A GOL")
    if s.restart == "penalty":
        # REGRA 14: nobody but the kicker within 18,3 cm of the ball or inside the area. The
        # defending goalkeeper is judged as at any shot (REGRA 4), not by the area.
        art = "000 REGRA 14"
        others = s.but_kicker(s.mask() & ~s.mask(s.defender(), ("goalkeeper",)))
        out: Cands = []
        out += s.to_ball(
            _Rule("penalty_ball_distance", art, s.param("penalty_distance_mm")), others
        )
        out += s.out_of_area(
            _area_rule("penalty_area_clear", art), others, (s.side(s.defender()),), "penalty_area"
        )
        return out + _goalkeeper_shot(s, f"{art}; REGRA 4 DISTÂNCIA DA BOLA EM ARREMESSOS A GOL")
    if s.restart == "goal_kick":
        return _goal_kick(s, "000 REGRA 16")
    if s.restart == "free_kick":
        return _goalkeeper_in_area(s, "000 REGRA 4 O GOLEIRO NA GRANDE ÁREA")
    return []


def _goal_kick(s: _Setup, art: str) -> Cands:
    """REGRA 16 A (spacing), B (3-6 buttons in the attacking half), D (no opponent in the
    beneficiary's penalty area) and F (no button in the goal areas but the kicker, E)."""
    out: Cands = []
    mates = _Rule("goal_kick_teammates", f"{art} A", s.param("goal_kick_teammate_distance_mm"))
    for team in s.scene.teams:
        buttons = s.mask(team, ("button",))  # "exceção do goleiro"
        out += s.pairs(mates, buttons, buttons)
        out.append(_attackers(s, team, f"{art} B"))
    opp = _Rule("goal_kick_opponents", f"{art} A", s.param("goal_kick_opponent_distance_mm"))
    out += s.pairs(opp, *(s.mask(t) for t in s.scene.teams))
    assert s.team is not None
    out += s.out_of_area(
        _area_rule("goal_kick_penalty_area", f"{art} D"),
        s.mask(s.defender()),
        (s.side(s.team),),
        "penalty_area",
    )
    out += s.out_of_area(
        _area_rule("goal_kick_goal_areas", f"{art} F"),
        s.but_kicker(s.mask(kind=("button",))),
        ("left", "right"),
        "goal_area",
    )
    return out


def _attackers(s: _Setup, team: str, article: str) -> _Pair:
    """REGRA 16 B: 3-6 buttons of ``team`` in its attacking half, as one signed margin.

    A button counts as in the attacking half when its centre is beyond the halfway line's
    centre (more than half of it there). With ``u`` the centres' distances past the line
    (sorted, largest first), the minimum holds by ``u[2]`` and the maximum by ``-u[6]``;
    ``margin_mm`` is the smaller and the deciding piece is reported. With fewer than three
    buttons the margin is -inf (reported as null).
    """
    lo, hi = (int(v) for v in s.ctx.rules.param("goal_kick_attackers"))
    idx = np.flatnonzero(s.mask(team, ("button",)))
    u = s.scene.attack_sign(team) * s.p.xy_mm[idx, 0]
    order = idx[np.argsort(-u, kind="stable")]
    u_sorted = np.sort(u)[::-1]
    cands = [(float(u_sorted[lo - 1]), int(order[lo - 1])) if len(idx) >= lo else (-np.inf, -1)]
    if len(idx) > hi:
        cands.append((-float(u_sorted[hi]), int(order[hi])))
    margin, i = min(cands, key=lambda c: c[0])
    count = int((u > 0).sum())
    pid = str(s.p.ids[i]) if i >= 0 else team
    how = f"; {pid} decides, {margin:+.1f} mm from the halfway line" if i >= 0 else ""
    detail = f"team {team}: {count} buttons in the attacking half ({lo}-{hi} required{how})"
    rule = _Rule("goal_kick_attackers", article, 0.0, always=True)
    extra = {"count": count, "min": lo, "max": hi}
    return _Pair(rule, pid, team, "halfway_line", margin, margin, lo <= count <= hi, detail, extra)


def _goalkeeper_in_area(s: _Setup, article: str) -> Cands:
    """A defending goalkeeper placed in its penalty area (not wholly in its goal area, where
    GOLEIRO NA PEQUENA ÁREA sets no distance) keeps 6 cm from opponents and 18,3 cm from the
    ball. Without ``context.team`` both goalkeepers are judged.
    """
    to_opp = _Rule("goalkeeper_opponents", article, s.param("goalkeeper_opponent_distance_mm"))
    to_ball = _Rule("goalkeeper_ball", article, s.param("goalkeeper_ball_distance_mm"))
    out: Cands = []
    for team in [s.defender()] if s.team is not None else list(s.scene.teams):
        side = s.side(team)
        for i in np.flatnonzero(s.mask(team, ("goalkeeper",))):
            gk = s.p.select(np.array([i]))
            in_pa = footprint_box_signed_distance(gk, s.ctx.field.penalty_area_box(side))[0] <= 0
            in_ga = footprint_box_extent(gk, s.ctx.field.goal_area_box(side))[0] >= 0
            if in_pa and not in_ga:
                out += s.pairs(to_opp, np.arange(len(s.p)) == i, s.mask(s.scene.opponent(team)))
                out += s.to_ball(to_ball, np.arange(len(s.p)) == i)
    return out


def _gaucha(s: _Setup) -> Cands:
    if s.restart not in _REMOVAL_RESTARTS:
        return []
    # 001 Art. XXIII § 5: "arredar lateralmente os jogadores [que] distam da bola menos que ...
    # 60mm"; Art. XXXIX the same 60 mm at corners. Measured from the ball's edge.
    art = "001 Art. XXXIX" if s.restart == "corner" else "001 Art. XXIII § 5"
    if s.ball is None:
        return [Verdict.skipped(CHECK, "spot (or a ball in the scene)", art)]
    rule = _Rule(
        "removal",
        art,
        s.param("removal_radius_mm"),
        fail="less than {limit:g} mm, may be moved aside",
    )
    return list(s.to_ball(rule, s.but_kicker(s.mask())))


def _paulista(s: _Setup) -> Cands:
    if s.restart != "kick_off":
        return []
    art = "002 Do posicionamento dos botões"
    spacing = _Rule("kick_off_spacing", f"{art} 2, 4", s.param("kick_off_spacing_mm"))
    halfway = _Rule("kick_off_halfway", f"{art} 1-2", s.param("kick_off_halfway_mm"))
    n_placed = int(s.ctx.rules.param("kick_off_placed"))
    out: Cands = []
    for team in s.scene.teams:
        mine = s.mask(team)  # "inclusive do goleiro"
        out += s.pairs(spacing, mine, mine)
        # 002 1 a-b place five buttons by the text (next to the halfway line and the centre
        # circle); we take the five whose centres are nearest the halfway line (either side)
        # as those, and hold the rest to 24 cm from the line's edge on their own side
        # (negative in the other half).
        idx = np.flatnonzero(s.mask(team, ("button",)))
        own = -s.scene.attack_sign(team) * s.p.xy_mm[idx, 0]
        dist = own - s.p.size_mm[idx, 0] / 2.0 - s.ctx.field.lw / 2.0
        rest = np.argsort(np.abs(own), kind="stable")[n_placed:]  # nearest: either side
        out += s.measure(halfway, idx[rest], dist[rest], "halfway_line")
    return out


def _mesa_posta(s: _Setup) -> Cands:
    if s.restart != "penalty":
        return []
    # 003 Penáltis: "Todos os botões saem da área": every button but the kicker wholly out of
    # the defending team's penalty area; the goalkeeper "espera na linha".
    art = "003 Penáltis"
    if s.team is None or s.ball is None:
        return [Verdict.skipped(CHECK, "team" if s.team is None else "spot", art)]
    buttons = s.but_kicker(s.mask(kind=("button",)))
    return list(
        s.out_of_area(
            _area_rule("penalty_area_clear", art), buttons, (s.side(s.defender()),), "penalty_area"
        )
    )


_BUILDERS: dict[str, Callable[[_Setup], Cands]] = {
    "nacional": _nacional,
    "brasileira": _brasileira,
    "gaucha": _gaucha,
    "paulista": _paulista,
    "mesa-posta": _mesa_posta,
}


def _select(cands: Cands) -> list[Verdict]:
    """Violating and near pairs per constraint, plus the closest when all of them hold."""
    out = [c for c in cands if isinstance(c, Verdict)]
    groups: dict[str, list[_Pair]] = {}
    for c in cands:
        if isinstance(c, _Pair):
            groups.setdefault(c.rule.name, []).append(c)
    for group in groups.values():
        group.sort(key=lambda c: (round(c.margin_mm, 6), c.piece, c.other))
        keep = [c for c in group if c.rule.always or not c.holds or c.near]
        if all(c.holds for c in group) and group[0] not in keep:
            keep.insert(0, group[0])
        out += [c.verdict() for c in keep]
    return out


@register(CHECK)
def check_min_distance(scene: Scene, ctx: CheckContext) -> list[Verdict]:
    """Edge-to-edge distances the rule set constrains at ``context.restart``.

    See the module docstring for the selection of verdicts and the shared readings; each rule
    set's builder cites its articles. Without ``context.restart`` one verdict with ``holds``
    None says so.
    """
    article = ctx.rules.article(CHECK)
    restart = scene.context.get("restart")
    if restart is None:
        return [Verdict.skipped(CHECK, "restart", article)]
    builder = _BUILDERS.get(ctx.rules.name)
    if builder is None:
        return []
    p, bi = scene.pieces, scene.ball_index
    spot = scene.context.get("spot")
    spot_xy = np.asarray(spot, float) if spot is not None else None
    if spot_xy is None and bi is not None:
        spot_xy = p.xy_mm[bi].copy()
    ball = p.select(np.array([bi])) if bi is not None else None
    if ball is None and spot_xy is not None:
        d = ctx.rules.pieces.ball_diameter if ctx.rules.pieces else 10.0
        ball = Pieces(
            np.array(["ball"]),
            np.array([""]),
            np.array(["ball"]),
            spot_xy[None, :],
            np.array([[d, d]]),
        )
    setup = _Setup(scene, ctx, str(restart), scene.context.get("team"), spot_xy, ball)
    return _select(builder(setup))
