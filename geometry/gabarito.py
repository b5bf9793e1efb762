"""The gabarito test: can a disc slid flat on the table from outside a formation touch the ball?

000 REGRA 4 BLOQUEIO ("à medida de 6 cm do gabarito, o adversário não possa chegar até a bola em
nenhum sentido ou direção"); 002 "Do tiro livre indireto" k (bola bloqueada / obstruída). The
definition implemented (issue 2): a gabarito of radius ``R`` lies flat on the table with its centre
at least ``R`` from the rails. The obstacles (one team's footprints) and the ball may not be
overlapped. The ball is *blocked* when no position where the gabarito touches the ball is
connected, through free positions, to a free position outside the convex hull of the obstacles
grown by ``R``. A larger gabarito is never less blocked, so there is one critical radius ``R*``.

Method (exact up to closed forms; no raster, no polygon booleans)
------------------------------------------------------------------
* Shortcut: if the gabarito of the largest radius searched slides straight away from the ball
  and out of the grown hull, every smaller one can too.
* Contact arcs: the gabarito touching the ball in direction ``u`` has its centre at
  ``b + (R + r_ball) u``; that position is free for ``R < R_cov(u)``, with a closed form per
  primitive (disc, goalkeeper side, rail). Each primitive's ``R_cov`` has a single minimum, so the
  maxima of their lower envelope are crossings of two primitives: the circles tangent to the
  ball and two primitives (closed form). Every free arc contains one of these maxima.
* Faces: :class:`geometry.enclosure.OverlapGraph` tells whether two free points share a face.
  Away from the rails the free space outside the grown hull is one region, so one point by the
  farthest rail stands for it; once the grown hull touches two rails (or the ball one), the free
  stretches of the grown hull's boundary (:class:`geometry.enclosure.GrownHull`) are the gates.
* Critical radius: reaching along one contact direction is monotone in ``R``; away from the rails
  it changes only when a cycle closes (half a gap) or the arc closes, so a binary search over
  these event radii evaluates a handful of radii. Near the rails a gate can close between events;
  the event found there is confirmed at +/- 0.02 mm, else the radius is bisected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from geometry.enclosure import GrownHull, OverlapGraph, pair_indices
from geometry.pieces import Pieces, rectangle_corners

__all__ = ["Box", "Gabarito", "GabaritoResult", "gabarito_reach"]

Box = tuple[float, float, float, float]
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_CONFIRM_MM = 0.02  # half-width of the bracket that confirms an event near the rails
_KINK = 1e-6  # rad: a crossing is a maximum when the envelope is lower on both sides
_T = np.arange(64) * (math.pi / 32.0)
_QUICK = np.stack([np.cos(_T), np.sin(_T)], axis=1)  # directions tried by the shortcut
_RAIL_N = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])  # L B R T, inward


@dataclass(frozen=True)
class GabaritoResult:
    """The answer at the nominal radius and the critical radius.

    ``margin_mm = radius_mm - critical_radius_mm``: positive when blocked (the gabarito could be
    that much smaller and still be kept out), negative when not. ``bound`` marks a critical radius
    that is only a lower bound (the ball is reachable up to the largest radius searched).
    ``contact_xy_mm`` is the gabarito centre touching the ball at the nominal radius: reachable
    when not blocked, else the one whose contact arc stays open longest. ``cluster`` indexes the
    obstacles linked to the ball through gaps below one gabarito diameter.
    """

    blocked: bool
    radius_mm: float
    critical_radius_mm: float
    bound: bool
    contact_xy_mm: tuple[float, float]
    cluster: tuple[int, ...]

    @property
    def margin_mm(self) -> float:
        return self.radius_mm - self.critical_radius_mm


class Gabarito:
    """One ball, one set of obstacles and the rails, prepared for any gabarito radius.

    Parameters
    ----------
    ball_xy_mm, ball_radius_mm : the ball's footprint.
    obstacles : the blocking pieces (buttons as discs, goalkeepers as rectangles).
    rail_box : ``(xmin, ymin, xmax, ymax)`` inside the rails.
    max_radius_mm : the largest radius searched for the critical radius.
    """

    def __init__(
        self,
        ball_xy_mm: FloatArray,
        ball_radius_mm: float,
        obstacles: Pieces,
        rail_box: Box,
        max_radius_mm: float,
    ) -> None:
        self.b = np.asarray(ball_xy_mm, dtype=float).reshape(2)
        self.rb = float(ball_radius_mm)
        xmin, ymin, xmax, ymax = (float(v) for v in rail_box)
        self.box = (xmin, ymin, xmax, ymax)
        self.r_top = min(float(max_radius_mm), min(xmax - xmin, ymax - ymin) / 2.0 - 1e-6)
        self.obst = obstacles
        self.graph: OverlapGraph | None = None
        self._hull: GrownHull | None = None

    # ------------------------------------------------------------------------------ shortcut
    def _ray_escape(self, r: float) -> FloatArray | None:
        """A contact direction from which the gabarito slides straight out (or None).

        The gabarito touching the ball at ``u`` moves along ``u`` until it is beyond every
        obstacle's support (outside the grown hull); the path is clear when no obstacle (a
        goalkeeper taken as its circumscribed disc) comes within ``r`` of the ray, and it stays
        inside the rails when both ends do.
        """
        u, t0 = _QUICK, r + self.rb
        tx = np.full(len(u), t0)
        clear = np.ones(len(u), dtype=bool)
        p = self.obst
        if len(p):
            w = p.xy_mm - self.b
            size = p.size_mm
            rho = np.where(p.is_disc, size[:, 0], np.hypot(size[:, 0], size[:, 1])) / 2.0 + r
            along = u @ w.T
            perp = u[:, 0:1] * w[:, 1] - u[:, 1:2] * w[:, 0]
            near = (w[:, 0] ** 2 + w[:, 1] ** 2) - 2.0 * t0 * along + t0 * t0
            clear = (np.where(along <= t0, near, perp * perp) >= rho * rho).all(1)
            tx = np.maximum(tx, (along + rho).max(1) + 1e-6)
        xmin, ymin, xmax, ymax = self.box
        ends = self.b + np.concatenate([t0 * u, tx[:, None] * u])
        inside = (ends[:, 0] >= xmin + r) & (ends[:, 0] <= xmax - r)
        inside &= (ends[:, 1] >= ymin + r) & (ends[:, 1] <= ymax - r)
        good = np.flatnonzero(clear & inside[: len(u)] & inside[len(u) :])
        return u[good[np.argmin(tx[good])]] if len(good) else None

    # -------------------------------------------------------------------------- contact arcs
    def _prepare(self) -> None:
        """Graph, contact primitives, maxima and event radii (skipped by the shortcut)."""
        g = OverlapGraph(self.obst, self.b, self.rb, self.box, 2.0 * self.r_top)
        self.graph = g
        self._primitives(g.ball_gap < 2.0 * self.r_top, g.rail_gap_ball < 2.0 * self.r_top)
        self._maxima()
        # Beyond this radius the outside may split (see _reference): gates, and more events.
        two = np.sort(g.rail_gap_pieces)[1] if len(self.obst) else np.inf
        self.gate_from = float(min(two, g.rail_gap_ball.min()) / 2.0)
        ev = np.append(g.cycle_gap / 2.0, self.gate_from)
        self.events = np.unique(ev[(ev > 0.0) & (ev < self.r_top)])

    def _primitives(self, near: NDArray[np.bool_], rails: NDArray[np.bool_]) -> None:
        """Discs (buttons, goalkeeper corners) and sides (goalkeeper sides, rails).

        Only what can close a contact below the largest radius searched: pieces and rails less
        than two radii from the ball (farther ones only matter above it, where arcs need no
        exact closing radius).
        """
        p = self.obst
        disc = p.is_disc & near
        gk = ~p.is_disc & near
        xmin, ymin, xmax, ymax = self.box
        dp, dr = [p.xy_mm[disc]], [p.size_mm[disc, 0] / 2.0]
        sa = [np.array([[xmin, 0.0], [0.0, ymin], [xmax, 0.0], [0.0, ymax]])[rails]]
        sn, sh = [_RAIL_N[rails]], [np.full(int(rails.sum()), np.inf)]
        self.n_gk = int(gk.sum())
        if self.n_gk:
            c = rectangle_corners(p.xy_mm[gk], p.size_mm[gk], p.angle_rad[gk])
            dp.append(c.reshape(-1, 2))
            dr.append(np.zeros(4 * self.n_gk))
            t = c[:, [1, 2, 3, 0]] - c
            length = np.hypot(t[..., 0], t[..., 1])
            t = t / length[..., None]
            sa.insert(0, ((c + c[:, [1, 2, 3, 0]]) / 2.0).reshape(-1, 2))
            sn.insert(0, np.stack([t[..., 1], -t[..., 0]], axis=2).reshape(-1, 2))  # outward
            sh.insert(0, (length / 2.0).reshape(-1))
        self.dp, self.dr = np.concatenate(dp), np.concatenate(dr)
        self.sa, self.sn, self.sh = np.concatenate(sa), np.concatenate(sn), np.concatenate(sh)
        self.st = np.stack([-self.sn[:, 1], self.sn[:, 0]], axis=1)
        self.dp2 = self.dp[:, 0] ** 2 + self.dp[:, 1] ** 2
        self.sna = self.sn[:, 0] * self.sa[:, 0] + self.sn[:, 1] * self.sa[:, 1]
        sta = self.st[:, 0] * self.sa[:, 0] + self.st[:, 1] * self.sa[:, 1]
        self.sta = np.where(np.isfinite(self.sh), sta, 0.0)
        # "tangent to the primitive" minus "tangent to the ball": alpha . c = beta + gamma R
        b, rb = self.b, self.rb
        self.alpha = np.concatenate([2.0 * (b - self.dp), self.sn])
        self.beta = np.concatenate([self.dr**2 - rb**2 - self.dp2 + b @ b, self.sna])
        self.gamma = np.concatenate([2.0 * (self.dr - rb), np.ones(len(self.sa))])

    def _cover(self, u: FloatArray) -> FloatArray:
        """``R_cov`` for unit directions ``(K, 2)``: the radius at which contact there closes."""
        start = self.b + self.rb * u  # the contact point on the ball
        ss = start[:, 0] ** 2 + start[:, 1] ** 2
        num = ss[:, None] - 2.0 * (start @ self.dp.T) + (self.dp2 - self.dr**2)  # |v|^2 - rho^2
        den = 2.0 * ((self.dr - (u @ self.b + self.rb)[:, None]) + u @ self.dp.T)  # 2 (rho - v.u)
        r_disc = np.where(num <= 0.0, 0.0, np.where(den > 1e-12, num / den, np.inf))
        s0 = start @ self.sn.T - self.sna  # distance of the contact point from each side
        den_s = 1.0 - u @ self.sn.T
        r_side = np.where((s0 >= 0.0) & (den_s > 1e-12), s0 / den_s, np.inf)
        fin = np.where(r_side < np.inf, r_side, 0.0)
        along = np.abs(start @ self.st.T + fin * (u @ self.st.T) - self.sta)
        r_side = np.where(along <= self.sh + 1e-9, r_side, np.inf)
        if self.n_gk:  # the contact point inside a goalkeeper: closed from the start
            g4 = 4 * self.n_gk
            inside = (s0[:, :g4].reshape(len(u), self.n_gk, 4) < 0.0).all(2)
            r_side[:, :g4] = np.where(np.repeat(inside, 4, axis=1), 0.0, r_side[:, :g4])
        return np.minimum(r_disc.min(1, initial=np.inf), r_side.min(1, initial=np.inf))

    def _maxima(self) -> None:
        """Maxima of ``R_cov``: crossings of two primitives where the envelope peaks.

        Where no primitive ever closes the contact (``R_cov`` infinite: the ball sticks out of
        every disc's and corner's reach, away from the near rails), the region's ends are ends
        of a disc's such arc, or a rail's normal: those directions, taken where the envelope is
        infinite, stand for the arcs that never close.
        """
        pa, pb = pair_indices(len(self.alpha))
        r, c = self._tangent(pa, pb)
        ok = (r > 0.0) & (r < np.inf)
        r, c = r[ok], c[ok]
        d = c - self.b
        u = d / np.hypot(d[:, 0], d[:, 1])[:, None]
        w = self.b - self.dp  # a disc never closes the contact within acos((rho - rb) / |w|) of w
        dist = np.hypot(w[:, 0], w[:, 1])
        half = np.arccos(np.clip((self.dr - self.rb) / dist, -1.0, 1.0)) - 1e-9
        mid = np.arctan2(w[:, 1], w[:, 0])
        ends = np.concatenate([mid - half, mid + half])
        far = np.concatenate([np.stack([np.cos(ends), np.sin(ends)], 1), self.sn[self.n_gk * 4 :]])
        if len(far) == 0:
            far = np.array([[1.0, 0.0]])
        co, si = math.cos(_KINK), math.sin(_KINK)
        rot = np.array([[co, si], [-si, co]])
        env = self._cover(np.concatenate([u, u @ rot, u @ rot.T, far]))
        nu = len(u)
        on = np.abs(env[:nu] - r) <= 1e-7 * (1.0 + r)
        peak = on & (env[nu : 2 * nu] < r) & (env[2 * nu : 3 * nu] < r)
        never = env[3 * nu :] == np.inf
        r = np.concatenate([r[peak], env[3 * nu :][never]])
        u = np.concatenate([u[peak], far[never]])
        order = np.argsort(-r, kind="stable")
        r, u = r[order], u[order]
        if len(r) > 1:  # the same point found from several pairs
            keep = np.ones(len(r), dtype=bool)
            close = (np.abs(r[:, None] - r[None, :]) < 1e-7) & ((u @ u.T) > 1.0 - 1e-12)
            keep[1:] = ~np.triu(close, 1)[:, 1:].any(0)
            r, u = r[keep], u[keep]
        self.peak_r, self.peak_u = r, u

    def _tangent(self, pa: IntArray, pb: IntArray) -> tuple[FloatArray, FloatArray]:
        """Circles tangent to the ball and to primitives ``pa`` and ``pb``: radii and centres.

        Two solutions per pair (NaN where none). Subtracting the ball's equation from each
        primitive's leaves two linear equations in ``(c, R)``: ``c = c0 + c1 R`` and a
        quadratic in ``R``; when they are parallel (collinear centres, parallel sides) ``R`` is
        fixed and ``c`` lies on a line.
        """
        a1, a2 = self.alpha[pa], self.alpha[pb]
        b1, b2, g1, g2 = self.beta[pa], self.beta[pb], self.gamma[pa], self.gamma[pb]
        det = a1[:, 0] * a2[:, 1] - a1[:, 1] * a2[:, 0]
        n1 = a1[:, 0] ** 2 + a1[:, 1] ** 2
        n2 = a2[:, 0] ** 2 + a2[:, 1] ** 2
        flat = np.abs(det) <= 1e-9 * np.sqrt(n1 * n2)
        det = np.where(flat, np.nan, det)
        c0 = (
            np.stack([a2[:, 1] * b1 - a1[:, 1] * b2, a1[:, 0] * b2 - a2[:, 0] * b1], 1)
            / det[:, None]
        )
        c1 = (
            np.stack([a2[:, 1] * g1 - a1[:, 1] * g2, a1[:, 0] * g2 - a2[:, 0] * g1], 1)
            / det[:, None]
        )
        e = c0 - self.b
        q2 = (c1 * c1).sum(1) - 1.0
        q1 = 2.0 * ((e * c1).sum(1) - self.rb)
        q0 = (e * e).sum(1) - self.rb**2
        root = np.sqrt(q1 * q1 - 4.0 * q2 * q0)
        lin = np.abs(q2) < 1e-12
        rr = [np.where(lin, -q0 / q1, (-q1 + s * root) / (2.0 * q2)) for s in (1.0, -1.0)]
        cc = [c0 + c1 * x[:, None] for x in rr]
        if flat.any():  # parallel: lam a1 = a2 fixes R; c on the line a1 . c = b1 + g1 R
            f = np.flatnonzero(flat)
            lam = (a1[f] * a2[f]).sum(1) / n1[f]
            rf = (lam * b1[f] - b2[f]) / (g2[f] - lam * g1[f])
            foot = a1[f] * ((b1[f] + g1[f] * rf) / n1[f])[:, None] - self.b
            t = np.stack([-a1[f, 1], a1[f, 0]], 1) / np.sqrt(n1[f])[:, None]
            s0 = (foot * t).sum(1)
            half = np.sqrt(s0 * s0 - (foot * foot).sum(1) + (rf + self.rb) ** 2)
            for x, y, s in ((rr[0], cc[0], 1.0), (rr[1], cc[1], -1.0)):
                x[f] = rf
                y[f] = self.b + foot + (-s0 + s * half)[:, None] * t
        return np.concatenate(rr), np.concatenate(cc)

    # -------------------------------------------------------------------------------- faces
    def _reference(self, r: float) -> FloatArray | None:
        """One free point standing for all of the outside, when the outside is connected.

        With the ball touching no rail and the grown hull at most one, the free space outside
        the grown hull is one region; the middle of the rail side farthest from everything is
        in it.
        """
        g = self.graph
        assert g is not None
        if (g.rail_gap_ball < 2.0 * r).any() or (g.rail_gap_pieces < 2.0 * r).sum() > 1:
            return None
        far = np.minimum(g.rail_gap_pieces, g.rail_gap_ball)
        j = int(np.argmax(far))
        eps = min(1e-6, (far[j] - 2.0 * r) / 4.0)
        xmin, ymin, xmax, ymax = self.box
        xm, ym = (xmin + xmax) / 2.0, (ymin + ymax) / 2.0
        side = [
            (xmin + r + eps, ym),
            (xm, ymin + r + eps),
            (xmax - r - eps, ym),
            (xm, ymax - r - eps),
        ]
        return np.array([side[j]])

    def reach(self, r: float, k: IntArray | None = None) -> NDArray[np.bool_]:
        """Can a gabarito of radius ``r`` touch the ball along the contact arcs ``k``?"""
        with np.errstate(all="ignore"):
            if self.graph is None:
                self._prepare()
            return self._reach(r, np.arange(len(self.peak_r)) if k is None else np.asarray(k))

    def _reach(self, r: float, k: IntArray) -> NDArray[np.bool_]:
        g = self.graph
        assert g is not None
        free = self.peak_r[k] >= r  # touching is allowed
        if not free.any() or len(self.obst) == 0:
            return free
        x = self.b + (r + self.rb + 1e-9) * self.peak_u[k[free]]
        ok = np.zeros(len(x), dtype=bool)
        target = self._reference(r)
        if target is None:  # near the rails: a point outside the hull, else the gates
            if self._hull is None:
                self._hull = GrownHull(self.obst)
            ok = self._hull.outside(x, r)
            target = self._hull.gates(r, self.box, self.b, self.rb)
        if len(target) and not ok.all():
            w = g.windings(np.concatenate([x, target]), r)
            wx, wt = w[: len(x)], w[len(x) :]
            ok |= (wx[:, None, :] == wt[None, :, :]).all(2).any(1)
        out = np.zeros(len(k), dtype=bool)
        out[free] = ok
        return out

    # ------------------------------------------------------------------------ the search
    def _flip(self, k: int, lo: float, hi: float, hi_open: bool) -> tuple[float, bool]:
        """Critical radius of arc ``k``, known reachable just above ``lo``, not above ``hi``.

        Returns ``(radius, bound)``; ``bound`` when still reachable at ``hi`` and ``hi_open``.
        """
        ev, one = self.events, np.array([k])
        c = np.append(ev[(ev > lo) & (ev < hi)], hi)
        a, z = 0, len(c) - 1  # the first event above which arc k is unreachable
        known_lo, known_hi = lo, hi
        while a < z:
            m = (a + z) // 2
            probe = (c[m] + c[m + 1]) / 2.0
            if self._reach(probe, one)[0]:
                a, known_lo = m + 1, probe
            else:
                z, known_hi = m, probe
        rho = float(c[a])
        if a == len(c) - 1 and hi_open:
            return rho, True
        if rho <= self.gate_from:  # away from the rails the events are complete
            return rho, False
        d = _CONFIRM_MM  # near the rails: confirm the event, or bisect
        below = rho - d <= known_lo or bool(self._reach(rho - d, one)[0])
        above = rho + d >= known_hi or not self._reach(rho + d, one)[0]
        if below and above:
            return rho, False
        lo2, hi2 = (known_lo, rho - d) if not below else (rho + d, known_hi)
        while hi2 - lo2 > 2.0 * d:
            mid = (lo2 + hi2) / 2.0
            if self._reach(mid, one)[0]:
                lo2 = mid
            else:
                hi2 = mid
        return (lo2 + hi2) / 2.0, False

    def solve(self, radius: float) -> GabaritoResult:
        """Verdict at ``radius`` and the critical radius (searched up to ``max_radius_mm``)."""
        radius = float(radius)
        with np.errstate(all="ignore"):
            u_out = self._ray_escape(self.r_top)
            if u_out is not None:  # reachable by every gabarito searched: R* is a bound
                c = self.b + (radius + self.rb) * u_out
                return GabaritoResult(
                    False, radius, self.r_top, True, (float(c[0]), float(c[1])), ()
                )
            self._prepare()
            blocked, best, bound, kbest = self._search(radius)
        assert self.graph is not None
        u = self.peak_u[kbest] if len(self.peak_u) else self.b * 0.0
        c = self.b + (radius + self.rb) * u
        contact = (float(c[0]), float(c[1]))
        return GabaritoResult(blocked, radius, best, bound, contact, self.graph.cluster(radius))

    def _search(self, radius: float) -> tuple[bool, float, bool, int]:
        """``(blocked, R*, bound, arc)``: the largest critical radius over the contact arcs."""
        ok = self._reach(radius, np.arange(len(self.peak_r)))
        blocked = not bool(ok.any())
        best, cap = (0.0, radius) if blocked else (radius, self.r_top)
        bound, kbest, ev = False, -1, self.events
        for k in range(len(self.peak_r)):
            if not (blocked or ok[k]):
                continue  # this arc closes at or below the nominal radius
            if self.peak_r[k] <= best:
                break  # arcs come in decreasing order of closing radius
            hi = min(float(self.peak_r[k]), cap)
            if hi <= best:
                continue
            # is arc k still reachable just above the best so far? (known for the first arc
            # open at the nominal radius, unless that radius is itself an event)
            if blocked or kbest >= 0 or bool(np.any(np.abs(ev - radius) < 1e-9)):
                nxt = ev[(ev > best) & (ev < hi)]
                probe = (best + (nxt[0] if len(nxt) else hi)) / 2.0
                if not self._reach(probe, np.array([k]))[0]:
                    continue
            rho, bound = self._flip(k, best, hi, hi_open=not blocked and hi >= self.r_top)
            best, kbest = max(best, rho), k
            if bound:
                break
        return blocked, float(best), bound, max(kbest, 0)


def gabarito_reach(
    ball_xy_mm: FloatArray,
    ball_radius_mm: float,
    obstacles: Pieces,
    rail_box: Box,
    radius_mm: float,
    max_radius_mm: float | None = None,
) -> GabaritoResult:
    """Is the ball blocked to a gabarito of ``radius_mm``, and what is the critical radius?

    ``max_radius_mm`` caps the search (default: half the rail box's shorter side, the largest
    gabarito that fits between the rails); a critical radius at the cap is a bound.

    Examples
    --------
    Five buttons (30 mm) in a ring around the ball: a 60 mm gabarito cannot pass between them.

    >>> ring = [[45 * np.cos(a), 45 * np.sin(a)] for a in np.arange(5) * 2 * np.pi / 5]
    >>> p = Pieces(ids=np.array(list("abcde")), team=np.array(["A"] * 5),
    ...            kind=np.array(["button"] * 5), xy_mm=np.array(ring),
    ...            size_mm=np.full((5, 2), 30.0))
    >>> res = gabarito_reach(np.zeros(2), 5.0, p, (-1000, -700, 1000, 700), 30.0)
    >>> res.blocked, round(res.critical_radius_mm, 3)
    (True, 11.45)
    """
    xmin, ymin, xmax, ymax = rail_box
    cap = min(xmax - xmin, ymax - ymin) / 2.0 if max_radius_mm is None else max_radius_mm
    cap = max(cap, float(radius_mm))
    return Gabarito(ball_xy_mm, ball_radius_mm, obstacles, rail_box, cap).solve(radius_mm)
