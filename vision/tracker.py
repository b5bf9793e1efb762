"""The tracker: 23 known identities (A1..A11, B1..B11, ball) followed through a match.

Detections (:class:`vision.detections.Detections`, table millimetres) feed a fixed roster of
batched constant-velocity Kalman filters (:mod:`vision.kalman`); there are no births after the
setup (000 REGRA 3: eleven players a team, ten buttons and a goalkeeper), only a piece coming
back onto the field. Each frame:

1. **Hands** (:mod:`vision.track_hands`). Detections inside a hand or arm polygon are dropped
   (hands never become pieces). A track whose footprint comes within ``hand_margin_mm`` of a
   hand is *covered*; a covered track that no detection explains is *frozen* (status
   ``hidden``): not predicted, never lost while a hand is over it, held where last seen.
2. **Assignment** (``scipy.optimize.linear_sum_assignment``), the most probable explanation of
   the frame: each detection is a track's (cost ``-log(p_detect * likelihood)``), clutter
   (``-log(clutter_per_mm2)``), or a track was missed (``-log(1 - p_detect)``). Kind and team
   must match (a ball detection never feeds a button track). A track's likelihood mixes its
   Kalman prediction with an impulse (a flick, a hit) that sent it anywhere physics allows:
   within ``top speed x time since seen`` of where it was last seen, nearer more likely; under
   a hand an impulse is likely (``p_impulse_hand``), and a frozen piece may also reappear
   anywhere a hand went since it froze (a hand carries pieces).
3. **Out from under a hand.** A frozen piece found far from where it froze (not the ball) is
   woken one frame later, when it is seen again: a false detection by a hand rarely repeats,
   and a flicked piece's path points back to where it rested, which tells which of several
   frozen team-mates it is (a piece put down by a hand: the one whose spot is now empty).
4. **Arrumação.** When at least ``rearrange_min`` visible pieces all leave their places in
   one frame (the pieces put back for a kick-off, 000 REGRA 8), those tracks are re-identified,
   per team, by the nearer of their last and their setup positions (within
   ``rearrange_reach_mm``); those not found at once are looked for so for a second more.
5. **Update.** An impulse restarts the filter from its last two positions; otherwise a Kalman
   update. A visible track not found coasts (``predicted``): ``coast_s`` when moving,
   ``lost_resting_s`` at rest (a resting piece cannot drift); then it is *lost* and returns (as
   does a roster slot never filled at setup) only through a detection seen ``confirm_frames``
   frames running that no track explains. Such a detection goes first to a lost piece or a
   button still frozen under a hand that could have reached it (flicked out and lost to
   sight on its way), and only then to a slot never filled.
6. **Moving / stopped** with hysteresis on a least-squares speed over the last five measured
   positions (thresholds in :class:`TrackerConfig`).
7. **Contacts** piece-ball and piece-piece (:mod:`vision.contacts`), one frame late.

**A gap** (:meth:`Tracker.interrupt`: frames not seen, the camera lost to a bumped table). What
happened meanwhile is unknown: a coach's hand may have moved any piece, the ball rolled on. No
motion is inferred across it: every known track waits at rest where it was last known (a
frozen one no longer frozen: where the hands went is unknown); until it is seen again a piece
may be found nearby (a Kalman update) or anywhere it could have reached, hands or not (an
impulse, as likely as under a hand; many gone at once: an arrumação), and it starts at rest
where it is found. The moving / stopped state, the carries and the contact finder's frames
start afresh, and no track is lost for the time it was not looked at.

Identities at setup: per team, the goalkeeper is ``<team>1`` and the buttons ``<team>2`` ..
``<team>11`` in order of distance from their own goal line (then across), unless the detector
read numbers (``Detections.label`` of "2".."11"). Team names from the detector that are not the
roster's are mapped by side: the team whose goalkeeper stands in the left goal defends left
(else, the team in the left half).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linear_sum_assignment

from vision.contacts import ContactFinder, TrackContact
from vision.detections import Detections
from vision.kalman import CVKalman
from vision.track_hands import CoverMap, HandRegion, hand_follows
from vision.track_types import (
    STATUSES,
    Candidates,
    TrackerConfig,
    TrackFrame,
    kind_codes,
    read_numbers,
)

__all__ = ["STATUSES", "TrackFrame", "Tracker", "TrackerConfig"]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

SEEN, PREDICTED, HIDDEN, LOST, ABSENT = range(5)  # indices into STATUSES
_KINDS = ("button", "goalkeeper", "ball")
_MIN_CONF = 0.05
_TEAM_MISREAD = math.log(20.0)  # a resting piece's team misread on its own place
_STAYED_MM = 15.0  # an unexplained sighting this near one of the last frame's was there then
_KEEPER_JUMP = 1e-9  # a goalkeeper leaving its prediction with no hand near it
_BIG = 1e6
# A piece seen again this near its glimpse from under a hand did not move on (put down): two
# fits at a hand's edge differ by a few mm (4.4 mm, gaucha's ten minutes, frame 11437). One
# stopped by the team-mate it hit goes on at 9 mm a frame (mesa-posta's, seed 34, 2256: read
# as put down, two ids swapped); but so may a false sighting in a carrying hand (gaucha's, seed
# 36, 13288: 8.5 mm; at 6 mm it took a covered piece, swapped 636 frames). Both are in
# tests/vision/test_tracker_chain.py. What tells them apart is the hand: one that put a piece
# down is still over it when it is seen (and a false sighting is in the hand); mesa-posta's B6
# came out with the arm 250 mm off. Clear of every hand, a step of _CLEAR_STEP_MM moves on.
_STILL_STEP_MM = 10.0
_CLEAR_STEP_MM = 6.0
_OCCUPIED = 2e3  # a resting rival's place holds a piece now (beyond 'ahead', 1e3)
_CARRY_STEP_MM = 3.0  # a step this long beside a hand is tested for a carry
_CARRY_ALONG = 0.4  # the hand moved along at least this share of the piece's step: carried
_CARRY_SLOWING = 0.93  # a step under this share of the last one: the piece slides (friction)
_CARRY_SET_DOWN = 0.5  # under this share: the hand set it down (stopped dead), no slide
_WINDOW = 5  # frames of the moving / stopped speed estimate
_UNSEEN_REST_FRAMES = 3  # a piece found elsewhere after more frames unseen starts at rest


class Tracker:
    """Follows the roster through a stream of :class:`Detections` (one :meth:`update` a frame).

    Examples
    --------
    >>> d = Detections(np.array(["ball"]), np.array([""]), np.array([[3.0, 4.0]]),
    ...                np.zeros((1, 2)), np.full((1, 2), 10.0), np.zeros(1), np.ones(1),
    ...                np.array([0.3]), frame=0, t=0.0)
    >>> tr = Tracker()
    >>> f = tr.update(d)
    >>> str(f.status[f.index("ball")]), f.xy_mm[f.index("ball")].tolist()
    ('seen', [3.0, 4.0])
    """

    def __init__(self, config: TrackerConfig | None = None) -> None:
        cfg = self.cfg = config or TrackerConfig()
        self.ready = False
        self.frame = -1
        self.t = 0.0
        self._team_names = [name for name, _ in cfg.teams]
        self._team_map: dict[str, int] = {}
        self._cover_map = CoverMap(cfg.extent_mm)
        self._hands_now = HandRegion([])
        self._cand = Candidates()
        self._pending: list[tuple[float, FloatArray, IntArray, FloatArray]] = []
        ids, team, kind = [], [], []
        for name, _ in cfg.teams:
            ids += [f"{name}{k}" for k in range(1, cfg.team_size + 1)]
            team += [name] * cfg.team_size
            kind += ["goalkeeper"] + ["button"] * (cfg.team_size - 1)
        ids.append("ball")
        team.append("")
        kind.append("ball")
        n = self.n = len(ids)
        self.ids, self.team, self.kind = np.array(ids), np.array(team), np.array(kind)
        self.kind_code = np.array([_KINDS.index(k) for k in kind], dtype=np.intp)
        self.team_code = np.array(
            [self._team_names.index(t) if t else -1 for t in team], dtype=np.intp
        )
        self.vmax = np.array(cfg.max_speed_mm_s)[self.kind_code]
        default_size = np.array([[60.0, 60.0], [70.0, 15.0], [10.0, 10.0]])  # 000 REGRA 2, 3
        self.size_mm = default_size[self.kind_code].copy()
        self.angle_rad = np.where(self.kind_code == 1, math.pi / 2.0, 0.0)
        self.status = np.full(n, ABSENT, dtype=np.intp)
        self.z_last = np.zeros((n, 2))  # last measured position
        self.r_last = np.full(n, cfg.default_sigma_mm**2)
        self.t_seen = np.zeros(n)
        self.hidden_since = np.zeros(n)
        self.v_frozen = np.zeros((n, 2))  # the velocity a track froze with (moving: a carry)
        self.released_at = np.full(n, np.inf)
        self.home = np.full((n, 2), np.nan)
        self.moving = np.zeros(n, dtype=bool)
        self.carried = np.zeros(n, dtype=bool)  # moved along by a coach's hand, not sliding
        self._carried_at = np.full(n, -np.inf)  # when each was last carried
        self._carry_step = np.full(n, np.nan)  # each one's last step between seen frames (mm)
        self._carry_prev: tuple[list[FloatArray], FloatArray, BoolArray] | None = None
        self._wait = np.zeros(n, dtype=bool)  # a start held a frame for the hand's second outline
        self._on = np.zeros(n, dtype=np.intp)
        self._off = np.zeros(n, dtype=np.intp)
        # the last _WINDOW measured positions, for a velocity free of the filter's tuning
        self._win_xy = np.zeros((n, _WINDOW, 2))
        self._win_t = np.full((n, _WINDOW), -np.inf)
        self.kf = CVKalman(np.zeros((n, 2)), np.ones(n), np.full(n, cfg.q_resting))
        self.contacts = ContactFinder(
            self.ids,
            self.kind,
            self.size_mm,
            self.angle_rad,
            max_speed_mm_s=self.vmax,
            spots_mm=np.asarray(cfg.spots_mm, float).reshape(-1, 2),
        )
        self._status_names = np.array(STATUSES)
        self.covered = np.zeros(n, dtype=bool)
        self._rearr_until = np.full(n, -np.inf)  # still to be found after an arrumação
        self._gap = False  # frames were not seen since the last update (interrupt)
        self._looked_since = -np.inf  # the first frame after the last gap: unseen counts from it

    # ------------------------------------------------------------------ setup
    def _setup(self, d: Detections) -> None:
        """Names the roster from the first frame's detections (module docstring)."""
        cfg = self.cfg
        self._map_teams(d)
        dk = kind_codes(d.kind)
        dtm = self._det_teams(d)
        rows: list[int] = []
        slots: list[int] = []
        side = dict(cfg.teams)
        for ti, (name, _) in enumerate(cfg.teams):
            s = -1.0 if side[name] == "left" else 1.0
            base = ti * cfg.team_size
            keep = np.flatnonzero((dtm == ti) & (dk == 1))
            if len(keep):  # the goalkeeper nearest its own goal
                rows.append(int(keep[np.argmax(s * d.xy_mm[keep, 0])]))
                slots.append(base)
            but = np.flatnonzero((dtm == ti) & (dk == 0))
            nums = read_numbers(d.label[but], cfg.team_size)
            order = but
            if nums is None:
                fwd = s * d.xy_mm[but, 0]  # > 0 toward the own goal: defenders first
                order = but[np.lexsort((-d.xy_mm[but, 1], -np.round(fwd / 25.0)))]
                nums = np.arange(2, 2 + len(order))
            for r, num in zip(order[: cfg.team_size - 1], nums[: cfg.team_size - 1], strict=True):
                rows.append(int(r))
                slots.append(base + int(num) - 1)
        ball = np.flatnonzero(dk == 2)
        if len(ball):
            rows.append(int(ball[np.argmax(d.confidence[ball])]))
            slots.append(self.n - 1)
        self._bind(np.array(slots, np.intp), d, np.array(rows, np.intp), home=True)
        self.ready = True

    def _map_teams(self, d: Detections) -> None:
        names = sorted({str(t) for t in d.team if t})
        if set(names) <= set(self._team_names):
            self._team_map = {t: self._team_names.index(t) for t in names}
            return
        # The detector's own names: each team defends the goal its goalkeeper stands in (it
        # never leaves its areas: 000 ATUAÇÃO DO GOLEIRO, 001 Art. XVI § 1; a video that starts
        # mid-match has attackers deep in the other half), else the team whose pieces sit left
        # defends left (a match filmed from its kick-off).
        sides = [s for _, s in self.cfg.teams]
        mean_x = [float(d.xy_mm[d.team == t, 0].mean()) for t in names]
        keepers = [np.flatnonzero((d.team == t) & (d.kind == "goalkeeper")) for t in names]
        if len(names) == 2 and all(len(k) == 1 for k in keepers):
            keeper_x = [float(d.xy_mm[k[0], 0]) for k in keepers]
            if keeper_x[0] * keeper_x[1] < 0.0:
                mean_x = keeper_x
        order = [names[k] for k in np.argsort(mean_x)]
        if len(order) == 1:
            self._team_map = {order[0]: sides.index("left" if mean_x[0] < 0 else "right")}
        else:
            self._team_map = {order[0]: sides.index("left"), order[-1]: sides.index("right")}

    def _det_teams(self, d: Detections) -> IntArray:
        out = np.full(len(d), -1, dtype=np.intp)
        for name, code in self._team_map.items():
            out[d.team == name] = code
        return out

    def _bind(self, slots: IntArray, d: Detections, rows: IntArray, home: bool = False) -> None:
        """Tracks ``slots`` found at rest at detections ``rows``."""
        if len(slots) == 0:
            return
        xy = d.xy_mm[rows]
        r = np.maximum(d.sigma_mm[rows], 0.05) ** 2
        self.kf.hold(slots, xy, r)
        self.status[slots] = SEEN
        self.z_last[slots] = xy
        self.r_last[slots] = r
        self.t_seen[slots] = self.t
        self.released_at[slots] = np.inf
        self.moving[slots] = False
        self._win_t[slots] = -np.inf
        sized = (d.size_mm[rows] > 0).all(axis=1)
        self.size_mm[slots[sized]] = d.size_mm[rows[sized]]
        if home:
            self.home[slots] = xy
        keeper = self.kind_code[slots] == 1
        self.angle_rad[slots[keeper]] = d.angle_rad[rows[keeper]]
        # the other pieces keep their last frames: a contact about to be found stays found
        self.contacts.set_sizes(self.size_mm)
        self.contacts.forget(slots)

    # ------------------------------------------------------------------ per frame
    def interrupt(self) -> None:
        """Tell the tracker that the frames after the last :meth:`update` are not seen.

        The next :meth:`update`, whenever it comes, starts afresh from its own detections
        (module docstring, *a gap*): no velocity, motion or contact is inferred across the gap,
        identities are kept where the pieces still are. Before the setup it does nothing.

        Examples
        --------
        >>> def ball(x, frame):
        ...     return Detections(np.array(["ball"]), np.array([""]), np.array([[x, 4.0]]),
        ...                       np.zeros((1, 2)), np.full((1, 2), 10.0), np.zeros(1),
        ...                       np.ones(1), np.array([0.3]), frame=frame, t=frame / 30.0)
        >>> tr = Tracker()
        >>> _ = tr.update(ball(3.0, 0))
        >>> tr.interrupt()
        >>> f = tr.update(ball(43.0, 30))
        >>> f.xy_mm[f.index("ball")].tolist(), f.v_mm_s[f.index("ball")].tolist()
        ([43.0, 4.0], [0.0, 0.0])
        """
        self._gap = self.ready

    def _after_gap(self) -> None:
        """The first frame after a gap: every known track waits at rest where it was last
        known; the motion, carries, emergences, returns and contacts seen before are dropped."""
        known = np.flatnonzero(
            (self.status == SEEN) | (self.status == PREDICTED) | (self.status == HIDDEN)
        )
        self.kf.hold(known, self.kf.xy_mm[known], self.r_last[known])
        self.status[self.status == HIDDEN] = PREDICTED
        self.released_at[:] = np.inf
        self.moving[:] = False
        self.carried[:] = False
        self._carried_at[:] = -np.inf
        self._carry_step[:] = np.nan
        self._carry_prev = None
        self._wait[:] = False
        self._on[:] = 0
        self._off[:] = 0
        self._win_t[:] = -np.inf
        self._pending = []
        self._cand = Candidates()
        self._looked_since = self.t
        self.contacts.restart()

    def update(self, d: Detections) -> TrackFrame:
        """Fold in one frame's detections; returns every roster track at this frame."""
        cfg = self.cfg
        frame = int(d.frame) if d.frame > self.frame else self.frame + 1
        if self.frame < 0 or d.t > self.t:
            t = float(d.t)
        else:
            t = self.t + (frame - self.frame) / cfg.fps
        dt = t - self.t if self.frame >= 0 else 0.0
        self.frame, self.t = frame, t
        gap, self._gap = self._gap, False
        if gap:
            self._after_gap()
            dt = 0.0  # held where they were: a piece does not drift, it is moved
        hands = HandRegion(d.hands)
        self._hands_now = hands
        if hands:
            self._cover_map.mark(d.hands, t)
            # hands never become pieces (a piece peeking out at a hand's edge still counts)
            d = d.select(hands.distance(d.xy_mm) >= -self.cfg.hand_drop_mm)
            if self.ready:
                d = d.select(~self._in_frozen_button(d))
        if not self.ready:
            if len(d):
                self._setup(d)
            return self._output([])
        dk = kind_codes(d.kind)
        dtm = self._det_teams(d)
        dr = np.maximum(d.sigma_mm, 0.05) ** 2
        used = np.zeros(len(d), dtype=bool)

        vis = (self.status == SEEN) | (self.status == PREDICTED)
        # a piece at rest that coasts unseen stays where it is: no drift on a leftover velocity
        self.kf.v_mm_s[(self.status == PREDICTED) & ~self.moving] = 0.0
        self.kf.q = np.where(self.moving, cfg.q_moving, cfg.q_resting)
        self.kf.predict(np.full(self.n, dt), vis)
        self._cover(hands, vis)
        self._emerge(d, dk, dtm, dr, used)
        t_seen = self.t_seen.copy()
        matched = self._assign(d, dk, dtm, dr, used)
        # first seen since a gap (on its first frame or later): at rest where it is found, no
        # velocity from a jump over frames not seen
        back = matched[t_seen[matched] < self._looked_since]
        self.kf.hold(back, self.z_last[back], self.r_last[back])
        self._coast(matched)
        self._return(d, dk, dtm, used)
        self._carry(d.hands)
        self._motion()
        ok = (self.status == SEEN) | (self.status == PREDICTED)
        xy = np.where((self.status == SEEN)[:, None], self.z_last, self.kf.xy_mm)
        self.contacts.set_angles(self.angle_rad)
        known = ok | (self.status == HIDDEN)
        seen = self.status == SEEN
        # a measured position's noise; a predicted one's is unknown (the default thresholds)
        sigma = np.where(seen, np.sqrt(self.r_last), np.inf)
        found = self.contacts.push(frame, t, xy, ok, self.moving, known, seen, sigma)
        return self._output(found)

    def _in_frozen_button(self, d: Detections) -> BoolArray:
        """(D,) ball detections inside a button frozen under a hand: the button's own sliver
        at the hand's edge fitted as a ball (gaucha's ten minutes, frame 7224: a red button's
        edge beside a forearm, 400 mm from the ball, taken for it); no ball lies where a
        resting button stands."""
        ball = np.flatnonzero(d.kind == "ball")
        frozen = np.flatnonzero((self.status == HIDDEN) & (self.kind_code == 0))
        out = np.zeros(len(d), dtype=bool)
        if len(ball) and len(frozen):
            gap = np.hypot(
                *(d.xy_mm[ball][None] - self.kf.xy_mm[frozen][:, None]).transpose(2, 0, 1)
            )
            out[ball] = (gap < self.size_mm[frozen, 0][:, None] / 2.0).any(axis=0)
        return out

    def _compat(self, tracks: IntArray, dk: IntArray, dtm: IntArray) -> FloatArray:
        """Extra cost (T, D) of each pairing by kind and team: 0, log 2 (team unknown), or BIG."""
        same_kind = self.kind_code[tracks][:, None] == dk[None, :]
        tc = self.team_code[tracks][:, None]
        same_team = (tc == dtm[None, :]) | (tc < 0)
        unknown = (dtm[None, :] < 0) & (tc >= 0)
        return np.where(
            same_kind & same_team, 0.0, np.where(same_kind & unknown, math.log(2), _BIG)
        )

    def _cover(self, hands: HandRegion, vis: BoolArray) -> None:
        """Which tracks a hand may hide now; frozen tracks no longer covered are released."""
        hid = self.status == HIDDEN
        self.covered = np.zeros(self.n, dtype=bool)
        if hands:
            idx = np.flatnonzero(vis | hid)
            # the footprint touches a hand, or nearly: the camera sees a piece's top, the
            # hand's underside and the arm at other heights, so the hidden area spreads
            reach = self.size_mm[idx, 0] / 2.0 + self.cfg.hand_margin_mm
            self.covered[idx] = hands.distance(self.kf.xy_mm[idx]) < reach
        self.released_at[hid & self.covered] = np.inf
        out = hid & ~self.covered
        self.released_at[out] = np.minimum(self.released_at[out], self.t)

    def _rearrange(
        self, d: Detections, moved: IntArray, cols: IntArray, used: BoolArray
    ) -> IntArray:
        """Arrumação (000 REGRA 8): tracks ``moved`` re-identified among detections ``cols``
        by the nearer of their last and their setup positions."""
        dk, dtm = kind_codes(d.kind[cols]), self._det_teams(d.select(cols))
        z = d.xy_mm[cols]
        d_last = np.hypot(*(z[None] - self.z_last[moved][:, None]).transpose(2, 0, 1))
        d_home = np.hypot(*(z[None] - self.home[moved][:, None]).transpose(2, 0, 1))
        cost = np.fmin(d_last, np.nan_to_num(d_home, nan=np.inf)) + self._compat(moved, dk, dtm)
        # a piece put back lands near its place; others are left to the frames that follow
        cost[cost > self.cfg.rearrange_reach_mm] = _BIG
        r, c = linear_sum_assignment(np.minimum(cost, _BIG))
        ok = cost[r, c] < _BIG
        self._bind(moved[r[ok]], d, cols[c[ok]])
        used[cols[c[ok]]] = True
        return moved[r[ok]]

    def _assign(
        self,
        d: Detections,
        dk: IntArray,
        dtm: IntArray,
        dr: FloatArray,
        used: BoolArray,
        rearranged: bool = False,
    ) -> IntArray:
        """Stage A (module docstring); returns the tracks updated by a detection."""
        cfg = self.cfg
        act = np.flatnonzero(
            (self.status == SEEN) | (self.status == PREDICTED) | (self.status == HIDDEN)
        )
        act = act[self.t_seen[act] < self.t]  # not bound this frame already
        cols = np.flatnonzero(~used)
        if len(act) == 0 or len(cols) == 0:
            return np.zeros(0, np.intp)
        z, r = d.xy_mm[cols], dr[cols]
        hid = self.status[act] == HIDDEN
        pos = self.kf.xy_mm[act]
        s = self.kf.P[act, 0][:, None] + r[None, :]
        diff = z[None, :, :] - pos[:, None, :]
        d2 = (diff * diff).sum(-1)
        log_gauss = -d2 / (2.0 * s) - np.log(2.0 * math.pi * s)
        anchor = np.where(hid[:, None], pos, self.z_last[act])
        dl = np.hypot(*(z[None, :, :] - anchor[:, None, :]).transpose(2, 0, 1))
        elapsed = self.t - self.t_seen[act]  # the piece moved freely since it was last seen
        reach = self.vmax[act] * np.maximum(elapsed, 1e-3)
        gate = dl <= reach[:, None] + 3.0 * np.sqrt(self.r_last[act][:, None] + r[None]) + 5.0
        # A sighting that was there last frame too, unexplained, while a piece a hand covers
        # was seen elsewhere, is something else: a fit on the hand (gaucha's ten minutes,
        # seed 44, frame 497: A11 flicked into the ball, and a fit on its coach's fingertip,
        # there for frames, 48 mm from A11's place, taken for it; the touch lost)
        c = self._cand
        if len(c.xy):
            rc = np.flatnonzero(self.covered[act] & ~hid & (elapsed * cfg.fps < 1.5))
            if len(rc):
                there = np.hypot(*(z[:, None] - c.xy[None]).transpose(2, 0, 1))
                there = (there <= _STAYED_MM) & (dk[cols][:, None] == c.kind[None, :])
                gate[rc] &= ~(there.any(axis=1)[None, :] & (dl[rc] > _STAYED_MM))
        # the longer unseen, the further an impulse may have sent it; a frozen piece comes out
        # from under its hand (a flick) or anywhere the hand went (a carry)
        lam = np.where(hid, cfg.hidden_scale_mm, np.maximum(cfg.impulse_scale_mm, reach / 4.0))
        lam = lam[:, None]
        log_jump = -dl / lam - np.log(2.0 * math.pi * lam * lam)
        # under a hand a piece is likely being flicked or carried
        # (not a goalkeeper: its coach moves it by hand, 000 Art. 3, carried along, never
        # flicked from under it; a fit in the hand 125 mm off took a covered keeper's track,
        # paulista's ten minutes, frame 15991)
        by_hand = (hid | self.covered[act]) & (self.kind_code[act] != 1)
        # ... and so is one not seen since a gap: a hand may have moved it meanwhile
        by_hand |= self.t_seen[act] < self._looked_since
        eps = np.where(by_hand, cfg.p_impulse_hand, cfg.p_impulse)
        # a goalkeeper no hand is near never jumps: its coach moves it by hand (000 Art. 3;
        # 001 Art. XIV, XVI 1), a hit leaves it where it was (gaucha's ten minutes, seed 32,
        # frame 14657: a button flicked past a goal, read as a box, took the goalkeeper's
        # track 82 mm off its place for a frame, and the ball's start went to it)
        # (seen the frame before: one unseen longer may have been moved by a hand not found)
        free_keeper = (self.kind_code[act] == 1) & ~hid & ~self.covered[act]
        free_keeper &= (self.t_seen[act] >= self._looked_since) & (elapsed * cfg.fps < 1.5)
        eps = np.where(free_keeper, _KEEPER_JUMP, eps)[:, None]
        compat = self._compat(act, dk[cols], dtm[cols])
        # A piece at rest seen again on its own place (discs never overlap) is itself, whatever
        # team its colours read: an arm across it tints them (gaucha's ten minutes, frame 4567:
        # B9 beside a coach's arm read as team A, and given to a team-A piece the hand had
        # carried 360 mm away)
        on_place = (
            (self.kind_code[act][:, None] == dk[cols][None, :])
            & ~self.moving[act][:, None]
            & (d2 <= (3.0 * np.sqrt(s) + 1.0) ** 2)
        )
        compat = np.where(on_place & (compat >= _BIG), _TEAM_MISREAD, compat)
        # Many visible pieces all gone from their places at once: an arrumação. Those not
        # found at once (a piece missed, one put back off its place) are looked for again in
        # the next frames.
        near = (compat < _BIG) & (d2 <= (3.0 * np.sqrt(s) + 3.0) ** 2)
        moved = ~hid & ~self.covered[act] & ~near.any(axis=1)
        free = ~near.any(axis=0)
        start = moved.sum() >= cfg.rearrange_min and free.sum() >= cfg.rearrange_min
        again = moved & (self._rearr_until[act] >= self.t)
        if not rearranged and (start or (again.any() and free.any())):
            who = act[moved] if start else act[again]
            bound = self._rearrange(d, who, cols[free], used)
            if start:
                self._rearr_until[who] = self.t + 1.0
            self._rearr_until[bound] = -np.inf
            return np.concatenate([bound, self._assign(d, dk, dtm, dr, used, True)])
        if hid.any():
            swept = self._swept(act[hid], z)
            gate[hid] |= swept
            carry = np.where(swept, -math.log(cfg.sweep_area_mm2), -np.inf)
            log_jump[hid] = np.logaddexp(log_jump[hid], carry) - math.log(2.0)
        log_l = np.logaddexp(np.log1p(-eps) + log_gauss, np.log(eps) + log_jump)
        p_d = np.where(hid | self.covered[act], cfg.p_detect_hidden, cfg.p_detect)
        # a weak fit (a hand's edge fitted as a button) is less likely a piece than a sure one
        conf = np.log(np.clip(d.confidence[cols], _MIN_CONF, 1.0))[None, :]
        cost = -(np.log(p_d)[:, None] + log_l + conf) + compat
        cost = np.where(gate, cost, _BIG)
        # the augmented matrix: [pairings | misses] over [clutter | 0]
        nt, nd = cost.shape
        big = np.full((nt + nd, nd + nt), _BIG)
        big[:nt, :nd] = cost
        big[np.arange(nt), nd + np.arange(nt)] = -np.log1p(-p_d)
        big[nt + np.arange(nd), np.arange(nd)] = -math.log(cfg.clutter_per_mm2)
        big[nt:, nd:] = 0.0
        rr, cc = linear_sum_assignment(big)
        pair = (rr < nt) & (cc < nd)
        tri, dji = rr[pair], cc[pair]
        nis = d2[tri, dji] / s[tri, dji]
        near = nis <= cfg.restart_nis
        used[cols[dji]] = True
        # A piece out from under a hand, far from where it was frozen: wait one frame to see
        # it again (a false detection by a hand rarely repeats) and where it came from (another
        # frozen piece of its team could be it). The ball, alone of its kind, wakes at once.
        # So does a visible piece that jumped where a frozen team-mate could have come out.
        # A rival is a frozen team-mate, or one a hand covers now that was not seen last frame
        # (an arm over a piece often hides it before the hand's outline reaches it: it coasts
        # unseen a few frames, then the flick comes from under the hand).
        # So is a team-mate unseen for a few frames with no hand's outline over it: lifted by a
        # hand the outline missed, it may be the one put down here (nacional's ten minutes,
        # frame 13234: A8 set down 650 mm off went to A11, frozen under the arm)
        unseen_long = elapsed * cfg.fps > _UNSEEN_REST_FRAMES + 0.5
        under = hid | ((self.covered[act] | unseen_long) & (self.status[act] == PREDICTED))
        # For a sighting given to a piece that coasted unseen, a rival is also a team-mate at
        # rest that a hand covers now, seen last frame: flicked from under the hand, it shows
        # before its track froze (paulista's ten minutes, seed 39, frame 6799: A3, covered,
        # seen 13 mm on from its place, was given to A2, unseen four frames under an arm the
        # hands' outline missed, 67 mm off; A3's track took A2's place when A2 showed there)
        flicked = self.covered[act] & ~self.moving[act] & (self.status[act] == SEEN)
        defer = np.zeros(len(tri), dtype=bool)
        for m in np.flatnonzero(~near):
            own = act[tri[m]]
            cand = under | (flicked & (self.status[own] == PREDICTED))
            rivals = act[cand & gate[:, dji[m]] & (cost[:, dji[m]] < _BIG)]
            rivals = rivals[self._same_group(rivals, own)]
            if hid[tri[m]]:
                if len(rivals) < 2 and self.kind_code[own] == 2:
                    continue
            elif not np.any(rivals != own):
                continue
            else:
                rivals = np.union1d(rivals, [own])
            defer[m] = True
            origin = np.where((self.status[rivals] == HIDDEN)[:, None],
                              self.kf.xy_mm[rivals], self.z_last[rivals])  # fmt: skip
            self._pending.append((self.t, z[dji[m]].copy(), rivals, origin))
        tri, dji, near = tri[~defer], dji[~defer], near[~defer]
        ti = act[tri]
        zz, rz = z[dji], r[dji]
        was_hidden = hid[tri]
        # a Kalman update near the prediction (or the frozen spot) ...
        up = near
        self.kf.update(ti[up], zz[up], rz[up])
        # ... an impulse restarts the filter; a frozen piece found elsewhere starts at rest, and
        # so does a piece (not the ball) found elsewhere after more than _UNSEEN_REST_FRAMES
        # unseen: where it went meanwhile, and when, nobody saw (a coach's hand carried it to
        # a goal kick's spot, 11 frames unseen and 240 mm away: the jump over that time read
        # as 650 mm/s, 'moving' for four frames, a lance; brasileira's ten minutes, 14094).
        # Moving on, it is seen moving a frame later.
        unseen = (self.t - self.t_seen[ti]) * self.cfg.fps > _UNSEEN_REST_FRAMES + 0.5
        put = ~near & ~was_hidden & unseen & (self.kind_code[ti] != 2)
        jump = ~near & ~was_hidden & ~put
        k = ti[jump]
        self.kf.restart(
            k, zz[jump], rz[jump], self.z_last[k], self.t - self.t_seen[k], self.r_last[k]
        )
        woke = ti[~near & (was_hidden | put)]
        self.kf.hold(woke, zz[~near & (was_hidden | put)], rz[~near & (was_hidden | put)])
        self.kf.P[woke, 2] = (0.5 * self.vmax[woke]) ** 2
        self._seen_at(ti, zz, rz)
        return ti

    def _same_group(self, tracks: IntArray, like: int) -> BoolArray:
        same = self.kind_code[tracks] == self.kind_code[like]
        return np.asarray(same & (self.team_code[tracks] == self.team_code[like]))

    def _at_home(self, tracks: IntArray) -> FloatArray:
        """How near its resting place (mm) a piece seen again is on it: a quarter of its
        diameter, 10 mm at least (its fits drift as a hand comes over it; no other disc fits
        there while it rests)."""
        return np.maximum(10.0, 0.25 * self.size_mm[tracks, 0])

    def _emerge(
        self, d: Detections, dk: IntArray, dtm: IntArray, dr: FloatArray, used: BoolArray
    ) -> None:
        """Settles last frame's deferred emergences: which piece came out from a hand.

        Each piece seen a frame ago at ``W`` is found again (the nearest detection it can have
        reached that no visible team-mate explains). Then all of them are given to their
        rivals at once (Hungarian): cost the distance from ``W`` back to where each rival
        was, plus, for a piece that moves on, how far that place lies off its path (a flicked
        piece travels straight from where it rested). Discs cannot pass through each other, so
        the shortest total is the order they kept. A piece that did not move on (put down by a
        hand) only goes to a rival whose place is now uncovered and empty, or to the one whose
        place it is (found again where it rested).
        """
        pending, self._pending = self._pending, []
        live: list[tuple[float, FloatArray, IntArray, FloatArray]] = []
        for t_w, w_xy, rivals, origins in pending:
            # frozen rivals still frozen, visible ones still visible and not yet found again
            keep = (self.status[rivals] == HIDDEN) | (
                (self.status[rivals] == PREDICTED) & (self.t_seen[rivals] <= t_w)
            )
            if keep.any():
                live.append((t_w, w_xy, rivals[keep], origins[keep]))
        if not live or not len(d):
            return
        # each piece seen again: the detections it can have reached, nearest first, jointly
        reach = np.full((len(live), len(d)), _BIG)
        for m, (t_w, w_xy, rivals, origins) in enumerate(live):
            like = int(rivals[0])
            comp = (self._compat(np.array([like]), dk, dtm)[0] < _BIG) & ~used
            # not a detection a visible track of the group already explains
            vis = np.flatnonzero(
                ((self.status == SEEN) | (self.status == PREDICTED))
                & (self.kind_code == self.kind_code[like])
                & (self.team_code == self.team_code[like])
            )
            dist = np.hypot(*(d.xy_mm - w_xy).T)
            if len(vis):
                gap = np.hypot(*(d.xy_mm[None] - self.kf.xy_mm[vis][:, None]).transpose(2, 0, 1))
                tight = 3.0 * np.sqrt(self.kf.P[vis, 0][:, None] + dr[None]) + 3.0
                comp &= ~(gap <= tight).any(axis=0)
                # nor one nearer the place of a visible team-mate at rest, gone from it now:
                # that one, knocked on (brasileira's ten minutes, frame 14866: A6 flicked from
                # under a hand into A4, A4 seen 38 mm on and taken for A6 124 mm on, swapped)
                gone = vis[~self.moving[vis] & ~(gap <= tight).any(axis=1)]
                off = np.hypot(*(d.xy_mm[None] - self.z_last[gone][:, None]).transpose(2, 0, 1))
                reach_g = self.vmax[gone] * (self.t - self.t_seen[gone]) + 10.0
                # (knocked on away from the glimpsed piece that struck it: one between the
                # glimpse and that place is the glimpsed piece come on, mesa-posta's ten
                # minutes, seed 46, frame 14310: B3 flicked from under a hand through the ball
                # into B4, B4 unseen as it left; B3, seen 56 mm short of B4's place, taken for
                # B4 knocked on, and B4 for B3: swapped for 40 s)
                fro = d.xy_mm[None] - self.z_last[gone][:, None]
                away = (fro * (self.z_last[gone] - w_xy)[:, None]).sum(-1) > 0.0
                comp &= ~((off < dist[None]) & (off <= reach_g[:, None]) & away).any(axis=0)
            # nor one on the place of a rival at rest that the glimpse was not on, and nearer
            # that place than the glimpse: that rival seen again where it rests (discs never
            # overlap), the glimpsed piece still unseen (nacional's ten minutes, seed 35, frame
            # 10601: B4, sliding under a hand, glimpsed 28 mm on; B7, covered at rest by the
            # same hand, seen again 0.3 mm from its place, 47 mm from the glimpse, was taken
            # for B4, and B4 for B7: swapped 600 frames). A resting piece's own glimpse may
            # drift off its place at the hand's edge: seen again nearer the glimpse, it is the
            # glimpsed one (the scene hand_drift.json: 16 mm off, then 13 mm, 4 mm on)
            at_home = self._at_home(rivals)
            resting = ~self.moving[rivals] & (np.hypot(*(w_xy - origins).T) >= at_home)
            on = np.hypot(*(d.xy_mm[None] - origins[:, None]).transpose(2, 0, 1))
            home = (on < at_home[:, None]) & (on < dist[None]) & resting[:, None]
            comp &= ~home.any(axis=0)
            ok = comp & (dist <= self.vmax[like] * (self.t - t_w) + 10.0)
            reach[m, ok] = dist[ok]
        pr, pc = linear_sum_assignment(reach)
        found = [(*live[m], int(j)) for m, j in zip(pr, pc, strict=True) if reach[m, j] < _BIG]
        for f in found:
            used[f[4]] = True
        if not found:
            return
        tracks = np.unique(np.concatenate([f[2] for f in found]))
        cost = np.full((len(found), len(tracks)), _BIG)
        homes: list[BoolArray] = []
        for m, (t_w, w_xy, rivals, origin, j) in enumerate(found):
            col = np.searchsorted(tracks, rivals)
            via = self._carried_to(rivals, origin, w_xy, t_w)
            back = np.hypot(*(w_xy - via).T)
            # a rival at rest whose place holds a piece of its kind now is still there (discs
            # never overlap): the last choice, however near (nacional's ten minutes, seed 35,
            # frame 7964: A3 flicked from under an arm past A5, A5 covered a frame; the
            # sighting went to A5 50 mm off, and A3 to A5's place, swapped for 45 s)
            others = np.flatnonzero((dk == self.kind_code[rivals[0]]) & (np.arange(len(d)) != j))
            on = np.hypot(*(d.xy_mm[others][None] - origin[:, None]).transpose(2, 0, 1))
            occupied = np.where((on < 10.0).any(axis=1) & ~self.moving[rivals], _OCCUPIED, 0.0)
            # the rival whose own place it is, glimpsed or seen now: seen again where it
            # rested (the glimpse a fit at the hand's edge, 10.8 mm off, then 2.2 mm:
            # brasileira's ten minutes, frame 3840, read as a rival 700 mm away flicked)
            # (within a quarter of its diameter, 10 mm at least: a resting piece's fits drift
            # as a hand comes over it, and no other disc fits there while it rests; gaucha's
            # ten minutes, seed 31, frame 13373 of the twenty-ninth stop's render: A5, covered,
            # its estimate pulled 8 mm by the hand's edge, seen again 12.4 mm from it and given
            # to A7, frozen 733 mm away, since the hand still covered A5's place: swapped 45 s)
            at_home = self._at_home(rivals)
            home = (np.hypot(*(w_xy - origin).T) < at_home) | (
                np.hypot(*(d.xy_mm[j] - origin).T) < at_home
            )
            homes.append(home)
            step = d.xy_mm[j] - w_xy
            # a shorter step clear of every hand: no hand put it down there
            clear = self._hands_now.distance(d.xy_mm[j : j + 1])[0] >= (
                self.size_mm[rivals[0], 0] / 2.0 + self.cfg.hand_margin_mm
            )
            if np.hypot(*step) >= (_CLEAR_STEP_MM if clear else _STILL_STEP_MM):
                u = step / np.hypot(*step)
                side = np.abs((w_xy - via) @ np.array([-u[1], u[0]]))
                ahead = ((w_xy - via) @ u) < -10.0  # its place lies ahead of it: not it
                away = side + np.where(ahead, 1e3, 0.0) + occupied
                cost[m, col] = back + np.where(home, 0.0, away)
            else:
                covered = self._hands_now.distance(origin)
                reach = self.size_mm[rivals, 0] / 2.0 + self.cfg.hand_margin_mm
                near = np.hypot(*(d.xy_mm[None] - origin[:, None]).transpose(2, 0, 1))
                vacated = (covered >= reach) & ~(near < 10.0).any(axis=1)
                # ... or home (the hand that covered it went on; its place is 'occupied' by
                # itself)
                cost[m, col] = back + np.where(vacated | home, 0.0, 1e4 + occupied)
        # A piece seen again on the very place a rival rested is that rival (discs never
        # overlap): no other sighting is it, however well a flick from there would explain one
        # (nacional's ten minutes, frame 12366: a fit in a carrying hand, then the carried A4
        # set down, read as A2 flicked from under the arm in the frame A2 showed on its place)
        for m, (_, _, rivals, _, _) in enumerate(found):
            home = homes[m]
            others = np.arange(len(found)) != m
            cost[np.ix_(others, np.searchsorted(tracks, rivals[home]))] = _BIG
        rows, cols = linear_sum_assignment(cost)
        for m, k in zip(rows, cols, strict=True):
            t_w, w_xy, rivals, origin, j = found[m]
            ci = tracks[k : k + 1]
            zj, rj = d.xy_mm[j : j + 1], dr[j : j + 1]
            place = origin[np.flatnonzero(rivals == ci[0])[0]]
            if np.hypot(*(zj[0] - w_xy)) < 10.0 and np.hypot(*(zj[0] - place)) < 10.0:
                # seen again where it rested and still: at rest. W was a fit at the hand's
                # edge, mm off the piece (gaucha's ten minutes, frame 11437: 4.4 mm taken
                # for 132 mm/s, a flick out of turn that restarted a dead ball)
                self.kf.hold(ci, zj, rj)
            else:  # away from its place: its velocity from W (a flick from under the hand)
                self.kf.restart(ci, zj, rj, w_xy[None], np.array([self.t - t_w]), rj)
            self._seen_at(ci, zj, rj)
            self.contacts.patch_last(ci, w_xy[None])  # it was there a frame ago
        for m in set(range(len(found))) - set(rows.tolist()):
            used[found[m][4]] = False  # not explained after all: back to the assignment

    def _carried_to(
        self, rivals: IntArray, origin: FloatArray, w_xy: FloatArray, t_w: float
    ) -> FloatArray:
        """(R, 2): where each rival may have been taken by ``t_w``, nearest ``w_xy``: a piece
        frozen while it moved was being carried (or slid on) under the hand, on the way it
        went, as far as its speed takes it (gaucha's ten minutes, seed 32, frame 6016: B6
        carried past B10, glimpsed beyond it, was given to B10, frozen 28 mm from the glimpse,
        not to itself frozen 81 mm back on its way, and the two ids swapped)."""
        v = self.v_frozen[rivals]
        span = np.maximum(t_w - self.t_seen[rivals], 0.0)
        seg = v * span[:, None]
        length2 = np.maximum((seg * seg).sum(1), 1e-9)
        f = np.clip(((w_xy - origin) * seg).sum(1) / length2, 0.0, 1.0)
        return np.asarray(origin + f[:, None] * seg, np.float64)

    def _seen_at(self, tracks: IntArray, z: FloatArray, r: FloatArray) -> None:
        self.status[tracks] = SEEN
        self.z_last[tracks] = z
        self.r_last[tracks] = r
        self.t_seen[tracks] = self.t
        self.released_at[tracks] = np.inf

    def _swept(self, tracks: IntArray, z: FloatArray) -> BoolArray:
        """(T, D): detection ``z`` lies where a hand went since the track froze."""
        last = self._cover_map.last_covered(z)
        return np.asarray(last[None, :] >= self.hidden_since[tracks][:, None] - 1e-6)

    def _coast(self, matched: IntArray) -> None:
        cfg = self.cfg
        was = np.zeros(self.n, dtype=bool)
        was[matched] = True
        vis = ((self.status == SEEN) | (self.status == PREDICTED)) & ~was
        vis &= self.t_seen < self.t
        # not found where a hand may hide it: frozen where last seen, not lost, no drift
        new = np.flatnonzero(vis & self.covered)
        # (going: sliding, carried along by a hand - not flagged moving - or fast already)
        speed = np.hypot(*self.kf.v_mm_s[new].T)
        going = self.moving[new] | self.carried[new] | (speed >= cfg.moving_fast_mm_s)
        self.v_frozen[new] = np.where(going[:, None], self.kf.v_mm_s[new], 0.0)
        self.kf.hold(new, self.z_last[new], self.r_last[new])
        self.status[new] = HIDDEN
        self.hidden_since[new] = self.t
        self.released_at[new] = np.inf
        self.moving[new] = False
        self.status[vis & ~self.covered] = PREDICTED
        unseen = self.t - np.maximum(self.t_seen, self._looked_since)
        limit = np.where(self.moving, cfg.coast_s, cfg.lost_resting_s)
        gone = np.flatnonzero(
            ((self.status == PREDICTED) & (unseen > limit))
            | ((self.status == HIDDEN) & (self.t - self.released_at > cfg.release_s))
        )
        self.status[gone] = LOST
        self.kf.v_mm_s[gone] = 0.0
        self.moving[gone] = False

    def _return(self, d: Detections, dk: IntArray, dtm: IntArray, used: BoolArray) -> None:
        """Unexplained detections seen ``confirm_frames`` running fill lost or absent slots."""
        cfg = self.cfg
        c = self._cand
        rows = np.flatnonzero(~used)
        z = d.xy_mm[rows]
        count = np.ones(len(rows), dtype=np.intp)
        first = z.copy()
        if len(c.xy) and len(rows):
            dist = np.hypot(*(z[None] - c.xy[:, None]).transpose(2, 0, 1))
            same = (c.kind[:, None] == dk[rows][None]) & (c.team[:, None] == dtm[rows][None])
            reach = np.array(cfg.max_speed_mm_s)[c.kind][:, None] / cfg.fps + 10.0
            cost = np.where(same & (dist <= reach), dist, _BIG)
            rr, cc = linear_sum_assignment(cost)
            ok = cost[rr, cc] < _BIG
            count[cc[ok]] = c.count[rr[ok]] + 1
            first[cc[ok]] = c.first[rr[ok]]
        self._cand = Candidates(z, dk[rows], dtm[rows], count, d.sigma_mm[rows], first)
        ready = np.flatnonzero(count >= cfg.confirm_frames)
        if len(ready) == 0:
            return
        free_mask = (self.status == LOST) | (self.status == ABSENT)
        # a button frozen under a hand that could have come out to it (flicked out and lost
        # to sight, a white button on a pale felt): before a slot never filled at setup (not
        # a goalkeeper: its coach moves it by hand, never flicks it; not the ball: one)
        frozen = (self.status == HIDDEN) & (self.kind_code == 0)
        free_mask |= frozen
        # The ball is one: a ball that rolls while its track rests, or that stays while its
        # track is unseen (no hand over it) for a second, is the ball (a false ball, a mark or
        # a reflection, never moves).
        b = self.n - 1
        rolled = (dk[rows[ready]] == 2) & (np.hypot(*(z[ready] - first[ready]).T) > 20.0)
        if self.status[b] == HIDDEN and rolled.any():
            # a ball frozen under a hand came out of it: first seen within its reach since
            # it froze, or where the hand went (not a goalkeeper's corners 900 mm away,
            # fitted in turn: offside drill 4005)
            out = np.hypot(*(first[ready] - self.kf.xy_mm[b]).T)
            reach = self.vmax[b] * (self.t - self.t_seen[b]) + 10.0
            rolled &= (out <= reach) | self._swept(np.array([b]), first[ready])[0]
        unseen = self.t - self.t_seen[b] > 1.0 and self.status[b] != HIDDEN
        if (dk[rows[ready]] == 2).any() and (unseen or (rolled.any() and not self.moving[b])):
            free_mask[b] = True
            ready = ready[(dk[rows[ready]] != 2) | rolled | unseen]
        free = np.flatnonzero(free_mask)
        if len(free) == 0:
            return
        comp = self._compat(free, dk[rows[ready]], dtm[rows[ready]])
        zr = z[ready]
        d_last = np.hypot(*(zr[None] - self.z_last[free][:, None]).transpose(2, 0, 1))
        d_home = np.hypot(*(zr[None] - self.home[free][:, None]).transpose(2, 0, 1))
        near = np.fmin(d_last, np.nan_to_num(d_home, nan=np.inf))
        cost = np.where((self.status[free] == ABSENT)[:, None], 1e4, near) + comp
        hid = frozen[free]
        if hid.any():  # from where it froze, within its reach since
            d_frozen = np.hypot(*(zr[None] - self.kf.xy_mm[free][:, None]).transpose(2, 0, 1))
            reach = self.vmax[free] * (self.t - self.t_seen[free]) + 10.0
            # ... and not a sighting that stayed where it is since before the piece was last
            # seen elsewhere (a fit on the hand that froze it: gaucha's ten minutes, seed 44,
            # frame 497; a chain of sightings that came from afar may be the piece itself)
            since = (self.t - self.t_seen[free]) * cfg.fps + 0.5
            stayed = np.hypot(*(zr - first[ready]).T) <= _STAYED_MM
            apart = (count[ready] > since[:, None]) & stayed[None, :]
            ok_out = (d_frozen <= reach[:, None]) & ~apart
            cost[hid] = np.where(ok_out[hid], d_frozen[hid], _BIG)
            cost[hid] += comp[hid]
        rr, cc = linear_sum_assignment(cost)
        ok = cost[rr, cc] < _BIG
        self._bind(free[rr[ok]], d, rows[ready[cc[ok]]])
        used[rows[ready[cc[ok]]]] = True

    def _window_speed(self) -> FloatArray:
        """Least-squares speed over the last measured positions (the filter's where too few)."""
        k = self.frame % _WINDOW
        seen = self.status == SEEN
        self._win_xy[seen, k] = self.z_last[seen]
        self._win_t[:, k] = np.where(seen, self.t, -np.inf)
        w = np.isfinite(self._win_t)
        n = w.sum(axis=1)
        tt = np.where(w, self._win_t, 0.0)
        tm = tt.sum(axis=1) / np.maximum(n, 1)
        dt = np.where(w, tt - tm[:, None], 0.0)
        xm = (self._win_xy * w[..., None]).sum(axis=1) / np.maximum(n, 1)[:, None]
        dx = np.where(w[..., None], self._win_xy - xm[:, None], 0.0)
        den = np.maximum((dt * dt).sum(axis=1), 1e-12)
        v = (dt[..., None] * dx).sum(axis=1) / den[:, None]
        speed = np.hypot(v[:, 0], v[:, 1])
        return np.asarray(np.where(n >= 3, speed, np.hypot(*self.kf.v_mm_s.T)))

    def _carry(self, polys: list[FloatArray]) -> None:
        """Pieces a coach's hand moves along (to a restart's spot, 000 REGRA 8): seen on this
        frame and the last beside a hand that moved with them (:func:`hand_follows`). A flicked
        piece leaves the hand where it was (the shift along its step measured 0.05 at the
        median of 18 flicks beside a hand, 0.71-1.64 on 3 frames of an arm passing over; of
        43 carries, 0.45-1.01 on 42). Such a piece does not start moving (a flick found so a
        frame late is flagged a frame late, which the engines' look-ahead allows); once
        carried it stays so while it keeps moving beside a hand or at the hand's pace (a hand's
        outline flickers), and it does not start for a speed window after (its speed there is
        the hand's). One that slows as it leaves the hand's reach slides on the felt: a flick
        after all, it starts at once. One that starts beside a hand not outlined the frame
        before waits a frame for the hand's second outline (brasileira's ten minutes, seed 40,
        frame 13015: B7 pushed back on the field by a fingertip, the finger outlined from the
        push's fourth frame, was read as a lance, a furada; a flick so is flagged a frame late,
        as above)."""
        seen = self.status == SEEN
        prev, self._carry_prev = self._carry_prev, (list(polys), self.z_last.copy(), seen)
        was, step0 = self.carried, self._carry_step
        waited, self._wait = self._wait, np.zeros(self.n, dtype=bool)
        self.carried = np.zeros(self.n, dtype=bool)
        if prev is None:
            return
        polys0, z0, seen0 = prev
        step = np.hypot(*(self.z_last - z0).T)
        self._carry_step = np.where(seen & seen0, step, np.nan)
        going = seen & seen0 & (step >= _CARRY_STEP_MM)
        # friction takes a tenth of a flicked piece's speed a frame (a hand's pace holds; a
        # hand setting it down stops it dead)
        slowing = step < _CARRY_SLOWING * step0
        self.carried = was & going & (self.covered | ~slowing)
        slid = was & going & ~self.carried & (step >= _CARRY_SET_DOWN * step0)
        # a slide goes on, a set-down stops dead on the next step: judged there (a hand that
        # let go as it lifted, seen the frame before no more; brasileira's ten minutes, seed
        # 40, frame 13800: B10 set down for a throw-in 18 mm on, read as a lance, a furada)
        hold = slid & ~waited
        self.carried |= hold
        self._wait |= hold
        self._carried_at[slid & waited] = -np.inf
        cand = np.flatnonzero(going & ~was & self.covered & (self.kind_code != 2) & ~self.moving)
        if len(cand) and polys:
            along = hand_follows(polys0, polys, z0[cand], self.z_last[cand])
            self.carried[cand] = along >= _CARRY_ALONG
            self._wait[cand] = np.isnan(along) & ~waited[cand]
        self._carried_at[self.carried] = self.t

    def _motion(self) -> None:
        """Moving / stopped with hysteresis (:class:`TrackerConfig`); a carried piece does not
        start moving."""
        cfg = self.cfg
        live = (self.status == SEEN) | (self.status == PREDICTED)
        speed = self._window_speed()
        self._on = np.where(live & (speed > cfg.moving_on_mm_s), self._on + 1, 0)
        self._off = np.where(live & (speed < cfg.moving_off_mm_s), self._off + 1, 0)
        start = (self._on >= cfg.moving_on_frames) | (live & (speed > cfg.moving_fast_mm_s))
        start &= (self.t - self._carried_at > _WINDOW / cfg.fps + 1e-9) & ~self._wait
        stop = (self._off >= cfg.moving_off_frames) | ~live
        self.moving = np.where(self.moving, ~stop, start)

    def _output(self, found: list[TrackContact]) -> TrackFrame:
        frozen = (self.status == HIDDEN) | (self.status == LOST) | (self.status == ABSENT)
        return TrackFrame(
            self.frame,
            self.t,
            self.ids,
            self.team,
            self.kind,
            self.kf.xy_mm.copy(),
            np.where(frozen[:, None], 0.0, self.kf.v_mm_s),
            np.sqrt(self.kf.P[:, 0]),
            self.moving.copy(),
            self._status_names[self.status],
            tuple(found),
            self.size_mm.copy(),
            self.angle_rad.copy(),
        )
