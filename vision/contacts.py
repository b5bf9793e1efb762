"""Contacts between tracked pieces (piece-ball, piece-piece), timed between video frames.

A collision is an impulse: two bodies approach, touch, and part with their relative velocity
along the line of centres changed. At 30 frames/s the touch itself is never on a frame, so it
is found from the motion around it. For frames ``k-2, k-1, k, k+1`` (one frame of lag) and the
interval ``(t[k-1], t[k]]``, with ``v_pre`` each body's velocity over ``(k-2, k-1]`` and
``v_post`` over ``(k, k+1]``, a pair (one of them moving) has a contact when

- **they touch**: moved on from frame ``k-1`` at ``v_pre``, or back from frame ``k`` at
  ``v_post``, their gap closes to ``tol_mm`` (detection noise and the hit's own deflection);
- **the velocity changed**: the normal relative velocity grew by at least ``min_dv_mm_s``;
- **they part**: after the hit they are not still closing in (else they meet later), and
  they were apart at frame ``k-1`` or closing in fast (a resting contact is no hit).

The time is **the velocity change**: each body moving at ``v_pre`` until the hit and at
``v_post`` after covers ``x[k] - x[k-1]``; the least-squares hit time of each body, weighted
by its change ``|v_post - v_pre|^2`` (the light ball dominates), else the closest approach of
the extrapolated paths. A change at the very end of the interval is left to the next one.

A ball whose velocity changes with no hit seen was struck by a piece the tracks cannot follow
(under a hand): the striker is the piece behind the ball's new direction, at its last known
place, never one seen at rest all along (the ball turned by the net or a post beside it). A
moving body missed for a frame or two is put on the line between its sightings; one that
moved further in a frame than its top speed allows (a track re-acquired far from where it
was believed to be) has no history before the jump.
A sliding button grazing a resting one that stays where it was (the felt holds it) is found
from the striker's path alone, turned away from it (:mod:`vision.grazes`), three frames after,
and the ball rolling past a resting button, turned off it, from the ball's path, four after;
a piece out of hiding, or the ball struck from rest unseen, first seen turned off a body that
stayed where it was met that body where its way out, traced back, reflects its way in.
Gaps are edge to edge: disc-disc by the centres, disc-goalkeeper by the disc centre's distance
to the rotated rectangle. Records follow :class:`simulator.state.Contact`: ``a`` is the piece
(the faster one before the hit for piece-piece), ``b`` the ball or the other piece.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.contact_kinematics import REST_MM_S as _REST_MM_S
from vision.contact_kinematics import change_time as _change_time
from vision.contact_kinematics import from_rest as _from_rest
from vision.contact_kinematics import rest_limit as _rest_limit
from vision.contact_kinematics import split_kick as _split_kick
from vision.contact_kinematics import touch_time as _touch_time
from vision.grazes import find_ball_grazes, find_grazes

__all__ = ["ContactFinder", "TrackContact"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
_SUB = 16  # sub-steps per frame interval when searching the touch time
_JUMP_SLACK_MM = 10.0  # detection noise and a frame's timing on top of the top speed's reach
_STILL_MM = 3.0  # seen within this of one place over four frames: a piece that struck nothing
_PUT_MM = 20.0  # a step this long off a place guessed 2 frames, then still: put there by a hand
# frames of known positions kept to find who struck a ball seen only once away, or seen
# again only after a pass lost for most of a second (:meth:`ContactFinder._path_striker`)
_HIST = 30
_BACK_FRAMES = 12  # a restart traced back further than this is too uncertain to time
_STRIKER_GAP_MM = 25.0  # a striker within this of the struck ball (a rail, a post: none)
# a piece flicked from under its coach's hand covers this much felt before it strikes a
# neighbour within the frame or two its track stays frozen (1 m/s: 33 mm a frame)
_HIDDEN_REACH_MM = 40.0
# a striker's way to where it met the ball may point this far away from the ball's change
# (mm, plus this fraction of the way): tracking noise, and a rim's friction on the ball
_APPROACH_SLACK_MM, _APPROACH_COS = 3.0, 0.25
_BOUNCE_STRAIGHT = 0.9  # cosine: a piece out of hiding this near its line from where it froze
_BOUNCE_REFLECTS = 0.85  # ... its way in, reflected off a body, within 32 degrees of its way out
_SLIDE_KEEPS = 0.9  # a sliding button keeps about this share of its speed a frame (felt friction)
_WOKE_MM = 10.0  # a frozen piece seen again this far from where it froze has moved
# a resting piece's fit shifted less than this (a hand's shadow coming near) has not left yet:
# its start, a frame later, opens the window in which its hidden striker comes out (gaucha's
# ten minutes, frame 14307: a 1.6 mm shift a frame before the hit, the striker seen out of
# hiding 9.5 mm from its place a frame after it and 11.7 mm two frames after: the window shut)
_AWAY_MM = 3.0
# frames after a resting piece is first seen away within which its hidden striker must come
# out (gaucha's ten minutes, seed 36, frame 10250: A8 flicked from under its coach's hand into
# B6, bounced off it and came out three frames after B6's start, the hand still over it)
_OUT_FRAMES = 3
# frames after a hit within which a striker hidden at it (frozen under a hand, or lost in its
# own blur) may first be seen again, its path from where it froze a straight guess (gaucha's
# ten minutes, seed 38, frame 14468: A2 flicked from under a hand at 1.9 m/s grazed the ball
# and was first seen six frames on, 350 mm away)
_STRIKER_OUT_FRAMES = 8
# A ball measured sharply (its ``sigma_mm``) against a piece at rest: the change it must show
# is _NOISE_K times the noise of its velocity change, within the floor and the default; a ball
# is at rest over a frame below _NOISE_K times its noise, within the floor and a piece's limits
_NOISE_K = 4.0
_BALL_MIN_DV_MM_S = 40.0
_BALL_STILL_MM, _BALL_STILL_MM_S = 0.5, 20.0
_BALL_GOING_MM = 3.0  # a ball's step this long in a frame (90 mm/s, ten times its noise): moving
_STILL_STEP_MM, _STILL_MM_S = 1.5, 60.0
_KICK_AGREES = 0.5  # cosine: the ball's kick within 60 degrees of the timed line of centres
# a ball closing on a resting piece at least this fast that is at rest a frame later within
# _STOPPED_GAP_MM of it (the pieces' fits are a few tenths off, a button's size up to 1 mm)
# stopped against it: a touch however small its change
_STOPPED_CLOSING_MM_S = 15.0
_STOPPED_GAP_MM = 1.0
_HEAD_ON = 0.5  # cosine: a ball stopped dead by a piece came within 60 degrees of head on
_WAY_FRAMES = 6  # a body's way is read over this many frames before an interval ...
_WAY_MM = 3.0  # ... and at least this long (ten times a ball's noise)
_STRUCK_ON_MM = 5.0  # a button's step this long in a frame from rest: set going (150 mm/s)
_CREEP_STEP_MM = 0.5  # a ball's step this long in a frame (five times its noise): creeping on
_FELT_SLOWS = 3.0  # a ball unseen goes no faster on the mean than this times its speed after
_PUSHED_MM = 1.0  # a resting button's step this long in a frame, away from the ball: pushed
_STEP_BACK_MM = 1.0  # a piece set going steps back no further over a frame (fits' noise)
# A ball too slow for the tracker's moving state (under 60 mm/s) still shows its way to its
# fits (0.1-0.2 mm): steps of this length a frame, on one line (cosine), are a ball creeping;
# set going from rest, it must have left by this much over two frames (8 times the noise of a
# difference of two fits)
_CREEP_MM, _CREEP_COS, _CREEP_START_MM = 0.5, 0.7, 1.2
_SECOND_SHARE = 0.3  # a second piece's share of the ball's change at least this (of its size)
_CROWD_MM = 3.0  # a third body's edge this near the ball: it may have met it too
# a graze that left the struck button where it was is read over this many frames
# (:mod:`vision.grazes`); fits of unknown noise are taken this noisy
_GRAZE_FRAMES, _GRAZE_SIGMA_MM = 8, 0.5
_BALL_GRAZE_FRAMES = 10  # the ball turned off a resting button: read over this many frames
_BALL_GRAZE_AFTER = 4  # ... not that many frames or fewer after another of its hits
# a frame held for the contacts' history: its number, places, known, ok, seen (measured)
_Hist = tuple[int, FloatArray, BoolArray, BoolArray, BoolArray]
# frames as vision.grazes reads them: times, places, seen, sigmas, radii, buttons
_Window = tuple[FloatArray, FloatArray, BoolArray, FloatArray, FloatArray, BoolArray]


@dataclass(frozen=True)
class TrackContact:
    """A contact seen in the tracks: time ``t`` (s), bodies ``a`` and ``b``, ``kind``.

    ``frame`` is the video frame at or after the contact; ``dv_mm_s`` the change of the normal
    relative velocity (the impulse's size divided by the reduced mass).
    """

    t: float
    a: str
    b: str
    kind: str  # "piece-ball" or "piece-piece"
    frame: int
    dv_mm_s: float = 0.0


class ContactFinder:
    """Keeps the last four frames of positions and reports contacts one frame late.

    Parameters
    ----------
    ids, kind : (N,) the roster.
    size_mm : (N, 2) diameters for discs, (length, width) for goalkeepers.
    angle_rad : (N,) goalkeepers' angles (updated with :meth:`set_angles`).
    tol_mm : a gap at most this is a touch (detection noise of both bodies).
    min_dv_mm_s : smallest change of normal relative velocity that is an impulse.
    min_dv_ball_mm_s : the same with the ball (its fit is sharper, its change the clearer: a
        slow ball rolling into a resting button changes by 100-150 mm/s; at 150, 17 of 22
        missed touches of a ten-minute paulista render were such, at 100 six more were found
        and one more false; 0.3 mm of noise a frame gives ~18 mm/s). Where the positions'
        ``sigma_mm`` are given (:meth:`push`) it comes down to four times the noise of the
        pair's change (a resting piece counted fixed), not under 40 mm/s: a ball fitted to
        0.1 mm stopped dead against a button from 40-60 mm/s.
    min_dv_piece_mm_s : the change a hit between two pieces must show (a graze sets the struck
        piece going slowly: over five ten-minute renders' tracks, 150 missed 16 true hits,
        among them a foul, and 100 found two false ones, both between teammates; the hit's
        timing and the other bars keep ``min_dv_mm_s``).
    max_speed_mm_s : (N,) top speeds; a body that moves further in a frame jumped (optional).
    spots_mm : (S, 2) painted spots a ball is placed on for a restart (optional): a ball
        found moving away from one, its resting place elsewhere, rested there unseen.
    """

    def __init__(
        self,
        ids: NDArray[np.str_],
        kind: NDArray[np.str_],
        size_mm: FloatArray,
        angle_rad: FloatArray,
        tol_mm: float = 5.0,
        min_dv_mm_s: float = 150.0,
        min_dv_ball_mm_s: float = 100.0,
        min_dv_piece_mm_s: float = 100.0,
        refractory_frames: int = 3,
        max_speed_mm_s: FloatArray | None = None,
        spots_mm: FloatArray | None = None,
    ) -> None:
        self.ids = np.asarray(ids)
        self.kind = np.asarray(kind)
        self.n = len(self.ids)
        self.size_mm = np.asarray(size_mm, dtype=float)
        self.angle_rad = np.asarray(angle_rad, dtype=float).copy()
        self.disc = self.kind != "goalkeeper"
        self.r_mm = np.where(self.disc, self.size_mm[:, 0] / 2.0, 0.0)
        self.r_out = np.where(self.disc, self.r_mm, np.hypot(*self.size_mm.T) / 2.0)
        self.tol_mm = tol_mm
        self.min_dv = min_dv_mm_s
        self.min_dv_ball = min(min_dv_ball_mm_s, min_dv_mm_s)
        self.min_dv_piece = min(min_dv_piece_mm_s, min_dv_mm_s)
        self.refractory = refractory_frames
        self.vmax = None if max_speed_mm_s is None else np.asarray(max_speed_mm_s, dtype=float)
        self.spots = np.zeros((0, 2)) if spots_mm is None else np.asarray(spots_mm, float)
        iu, ju = np.triu_indices(self.n, 1)
        keep = self.disc[iu] | self.disc[ju]  # two goalkeepers never meet
        self.pi, self.pj = iu[keep], ju[keep]
        self.restart()

    def restart(self) -> None:
        """Forget every frame held (frames went unseen, the camera lost): the next frame
        pushed is the first, so no motion, and no contact, is read across the gap."""
        self._t: list[float] = []
        self._xy: list[FloatArray] = []
        self._sig: list[FloatArray] = []
        self._ok: list[BoolArray] = []
        self._seen: list[BoolArray] = []  # measured on that frame (not predicted)
        self._frames: list[int] = []
        self._moving: list[BoolArray] = []
        self._known = np.zeros(self.n, dtype=bool)
        self._last_hit = np.full(len(self.pi), -(10**9))
        self._body_hit = np.full(self.n, -(10**9))  # each body's last hit, with anything
        # each body's last hit that could have set it going: not a piece's into a resting
        # ball (a piece flicked into another that struck the ball at once is the ball's
        # striker, its own start still unexplained: gaucha's ten minutes, frame 14308)
        self._struck = np.full(self.n, -(10**9))
        # each ball's last start from rest by a hit: its frame and time
        self._start_frame = np.full(self.n, -(10**9))
        self._start_t = np.zeros(self.n)
        self._joint_balls: set[str] = set()  # balls the last frame's hits set going with a piece
        # each ball's last resting place and frame, and the first frame it was seen away
        self._rest_xy = np.full((self.n, 2), np.nan)
        self._rest_frame = np.full(self.n, -(10**9))
        self._away_frame = np.full(self.n, -1)
        self._away_xy = np.full((self.n, 2), np.nan)  # ... and where it was seen then
        # each piece's last hit found from hiding as the striker: its frame and time, the
        # speed the piece it struck came out at, and the gap between the two at rest
        self._gave_frame = np.full(self.n, -(10**9))
        self._gave_t = np.zeros(self.n)
        self._gave_speed = np.zeros(self.n)
        self._gave_gap = np.zeros(self.n)
        # (frame, xy, known, ok, seen) of the last frames
        self._hist: list[_Hist] = []
        self._hist_ts: list[tuple[float, FloatArray]] = []  # (t, sigma_mm) of each _hist frame

    def set_angles(self, angle_rad: FloatArray) -> None:
        self.angle_rad = np.asarray(angle_rad, dtype=float).copy()

    def set_sizes(self, size_mm: FloatArray) -> None:
        """New sizes (a piece found again, fitted anew), the frames held kept."""
        self.size_mm = np.asarray(size_mm, dtype=float).copy()
        self.r_mm = np.where(self.disc, self.size_mm[:, 0] / 2.0, 0.0)
        self.r_out = np.where(self.disc, self.r_mm, np.hypot(*self.size_mm.T) / 2.0)

    def forget(self, idx: NDArray[np.intp]) -> None:
        """Bodies ``idx`` start afresh (found again elsewhere): their held frames are dropped."""
        for ok in self._ok:
            ok[idx] = False

    def push(
        self,
        frame: int,
        t: float,
        xy_mm: FloatArray,
        ok: BoolArray,
        moving: BoolArray | None = None,
        known: BoolArray | None = None,
        seen: BoolArray | None = None,
        sigma_mm: FloatArray | None = None,
    ) -> list[TrackContact]:
        """Add one frame (``ok``: the positions measured or predicted, not frozen or lost;
        ``moving``: the tracker's moving state, default: all; ``known``: positions worth
        using at all, frozen ones under a hand included, default: ``ok``; ``seen``: the
        positions measured on this frame, default: ``ok``; ``sigma_mm``: the positions'
        noise, default: unknown).

        Returns the contacts of the interval that ended one frame before this one.
        """
        self._moving.append(np.ones(self.n, bool) if moving is None else np.asarray(moving))
        if len(self._moving) > 4:
            del self._moving[0]
        self._t.append(float(t))
        self._sig.append(
            np.full(self.n, np.inf) if sigma_mm is None else np.array(sigma_mm, dtype=float)
        )
        self._xy.append(np.array(xy_mm, dtype=float))
        self._ok.append(np.asarray(ok, dtype=bool))
        self._frames.append(int(frame))
        self._known = np.asarray(ok if known is None else known, dtype=bool)
        seen_now = self._ok[-1] if seen is None else np.asarray(seen, dtype=bool)
        self._seen.append(seen_now.copy())
        self._hist.append(
            (int(frame), self._xy[-1].copy(), self._known.copy(), self._ok[-1].copy(), seen_now)
        )
        self._hist_ts.append((float(t), self._sig[-1].copy()))
        if len(self._hist) > _HIST:
            del self._hist[0], self._hist_ts[0]
        if len(self._t) > 4:
            del self._t[0], self._xy[0], self._ok[0], self._frames[0], self._sig[0]
            del self._seen[0]
        self._cut_jumps()
        self._fill()
        found: list[TrackContact] = []
        if len(self._t) == 4:
            found = self._find()
            found += self._ball_hits(found)
            found = [self._unseen_start(c) for c in found]
        found += self._restarts()
        found += self._struck_from_hiding()
        found += self._bounced_in_hiding(found)
        found += self._ball_bounced_from_rest()
        found += self._grazes()
        found.sort(key=lambda c: c.t)
        return found

    def patch_last(self, idx: NDArray[np.intp], xy_mm: FloatArray) -> None:
        """Bodies ``idx`` were at ``xy_mm`` in the last frame pushed (learnt a frame late)."""
        if self._xy:
            self._xy[-1][idx] = xy_mm
            self._ok[-1][idx] = True
            self._seen[-1][idx] = True

    def _cut_jumps(self) -> None:
        """A body that moved further since the last frame than its top speed allows was not
        where it was placed before (a track re-acquired after following a false detection, or
        coasting on a stale prediction): its earlier positions are dropped, so the jump is
        never read as a velocity change (a contact)."""
        if self.vmax is None or len(self._t) < 2:
            return
        dt = self._t[-1] - self._t[-2]
        step = np.hypot(*(self._xy[-1] - self._xy[-2]).T)
        jump = self._ok[-1] & self._ok[-2] & (step > self.vmax * max(dt, 0.0) + _JUMP_SLACK_MM)
        for q in range(len(self._t) - 1):
            self._ok[q] = self._ok[q] & ~jump
        # The ball seen again off a guessed place, then still: it was put there, not struck.
        # A ball sent a frame's _PUT_MM by a hit rolls on (friction takes a tenth of its speed
        # a frame; against a piece or a rail it bounces), so one still the frame after did not
        # come from the guess (gaucha's ten minutes, seed 32, frame 14196: the ball carried by
        # a coach's hand from a goal to the goal kick's place, predicted at rest where it was
        # for 11 frames, seen 180 mm away: read as struck at 5.4 m/s by the goalkeeper the
        # hand had covered). Not a button: one that strikes another full on stops dead. Nor a
        # ball guessed one frame only: struck then, it may have met a piece beside it and come
        # back by the next frame (nacional's ten minutes, frame 7320: 2.6 mm net off A9).
        if len(self._t) < 4:
            return
        a, b, c = self._xy[-3], self._xy[-2], self._xy[-1]
        guessed = self._ok[-3] & ~self._seen[-3] & ~self._seen[-4] & self._ok[-4]
        guessed &= self._seen[-2] & self._seen[-1] & (self.kind == "ball")
        put = guessed & (np.hypot(*(b - a).T) > _PUT_MM) & (np.hypot(*(c - b).T) < _STILL_MM)
        for q in range(len(self._t) - 2):
            self._ok[q] = self._ok[q] & ~put

    def _fill(self) -> None:
        """A moving body seen again after one or two frames unseen (a hand, a missed
        detection) is put on the straight line between its two sightings for the frames
        between: where the tracker predicted it meanwhile too, since the sighting after tells
        more than the velocity before (gaucha's ten minutes, frame 11098: the ball, unseen
        under the crossbar the frame it grazed the goalkeeper, predicted on straight; seen
        again off that line, its turn was put beyond the goal line, far from the box, and the
        goalkeeper's touch was lost, the restart given to the wrong team)."""
        last = len(self._t) - 1
        if last < 1:
            return
        lost = ~self._ok[last - 1] & self._ok[last]
        guessed = self._ok[last - 1] & ~self._seen[last - 1] & self._seen[last]
        for m in np.flatnonzero(lost | guessed):
            k = last - 1
            while k >= 0 and not (self._ok[k][m] and (lost[m] or self._seen[k][m])):
                k -= 1
            if k < 0 or not self._moving[k][m]:
                continue  # a body at rest then may have started anywhen: _find extrapolates
            ta, tb = self._t[k], self._t[last]
            if self.kind[m] == "ball" and self._bounce_fill(int(m), k, last):
                continue
            for q in range(k + 1, last):
                f = (self._t[q] - ta) / max(tb - ta, 1e-9)
                self._xy[q][m] = self._xy[k][m] + f * (self._xy[last][m] - self._xy[k][m])
                self._ok[q][m] = True
                # the two sightings' noise, weighted (a guess's unknown noise would hide a
                # slow ball's turn off a resting button, halved over the two intervals)
                self._sig[q][m] = np.hypot((1.0 - f) * self._sig[k][m], f * self._sig[last][m])

    def _bounce_fill(self, b: int, k: int, last: int) -> bool:
        """Ball ``b``, seen on the frame before ``k``, on ``k`` and on ``last``, unseen
        between: if its way on from ``k`` meets a piece before ``last`` and it was then seen
        leaving that piece, it went straight on until it touched it and straight from there to
        where it was seen (a bounce's two legs); the frames between are put on them. Returns
        whether it did.

        The chord between the two sightings cuts a bounce's corner: gaucha's ten minutes, seed
        36, frame 6000: the ball, unseen the frame it struck A10 at 560 mm/s, put on the chord
        9 mm off the button, and the touch lost (the tracker's guess, on straight, was 1 mm
        from the truth). Gone on straight past the hit instead, a ball unseen under a crossbar
        the frame it grazed the goalkeeper was put beyond the goal line (:meth:`_fill`)."""
        t, xy = self._t, self._xy
        if not self._seen[k][b] or t[last] <= t[k]:
            return False
        if k >= 1:  # the frame before k from the window, or (two frames unseen) its history
            before = [(xy[k - 1][b], t[k] - t[k - 1])] if self._seen[k - 1][b] else []
        else:
            step = (t[last] - t[k]) / max(self._frames[last] - self._frames[k], 1)
            f_before = self._frames[k] - 1
            before = [(x[b], step) for f, x, _, _, sn in self._hist if f == f_before and sn[b]]
        if not before or before[-1][1] <= 0.0:
            return False
        v_pre = (xy[k][b] - before[-1][0]) / before[-1][1]
        pieces = np.flatnonzero((self.kind != "ball") & self._ok[k] & self._ok[last])
        if len(pieces) == 0:
            return False
        tau = np.linspace(t[k], t[last], _SUB * (last - k) + 1)
        f = ((tau - t[k]) / (t[last] - t[k]))[:, None, None]
        p_at = xy[k][pieces][None] + f * (xy[last][pieces] - xy[k][pieces])[None]  # (S, P, 2)
        b_at = xy[k][b] + v_pre * (tau - t[k])[:, None]  # (S, 2)
        gaps = self._gap(
            pieces, np.full(len(pieces), b), p_at, np.broadcast_to(b_at[:, None], p_at.shape)
        )
        touch = np.argwhere(gaps <= 0.0)
        if len(touch) == 0:
            return False
        s_hit, which = int(touch[0, 0]), int(touch[0, 1])
        if s_hit == 0 or tau[s_hit] >= t[last]:
            return False
        corner = b_at[s_hit]
        n = self._normals(
            np.array([pieces[which]]), np.array([b]), p_at[s_hit, which][None], corner[None]
        )[0]
        if float((xy[last][b] - corner) @ n) <= 0.0:
            return False  # not seen leaving it: some other turn
        for q in range(k + 1, last):
            if t[q] <= tau[s_hit]:
                xy[q][b] = xy[k][b] + v_pre * (t[q] - t[k])
            else:
                g = (t[q] - tau[s_hit]) / (t[last] - tau[s_hit])
                xy[q][b] = corner + g * (xy[last][b] - corner)
            self._ok[q][b] = True
            self._sig[q][b] = np.hypot(self._sig[k][b], self._sig[last][b])
        return True

    def _ball_hits(self, found: list[TrackContact]) -> list[TrackContact]:
        """A ball whose velocity changed with no hit seen: struck by a piece the tracks cannot
        follow (under a hand). The striker is the piece behind the ball's new direction, at
        its last known place; the time is the ball's own velocity change."""
        t0, t1, t2, t3 = self._t
        x0, x1, x2, x3 = self._xy
        dt = t2 - t1
        out: list[TrackContact] = []
        seen = {c.b for c in found} | {c.a for c in found}
        for b in np.flatnonzero(self.kind == "ball"):
            explained = str(self.ids[b]) in seen and str(self.ids[b]) not in self._joint_balls
            if explained or not all(o[b] for o in self._ok):
                continue
            v_pre = (x1[b] - x0[b]) / (t1 - t0)
            v_post = (x3[b] - x2[b]) / (t3 - t2)
            change = v_post - v_pre
            size = float(np.hypot(*change))
            if size < 2.0 * self.min_dv:
                continue
            tau, _ = _change_time((x2[b] - x1[b])[None], v_pre[None], v_post[None], dt)
            if tau[0] > 0.95 * dt:
                continue  # the next interval's
            at = x1[b] + v_pre * tau[0]
            nrm = change / size
            # a piece seen at rest over the four frames struck nothing (a ball that bounced
            # off the net or a post beside a goalkeeper is no touch of it); one only predicted
            # there, unseen, may have moved (gaucha's ten minutes, seed 36, frame 8107: A3 at a
            # goal kick, under its coach's palm, which the hand's mask left out; its track held
            # its rest, 4 mm behind the ball, and the kick was lost)
            drift = np.max([np.hypot(*(x - x0).T) for x in (x1, x2, x3)], axis=0)
            still = np.all(self._seen, axis=0) & (drift < _STILL_MM)
            cand = np.flatnonzero(self._known & (self.kind != "ball") & ~still)
            if len(cand) == 0:
                continue
            bb = np.full(len(cand), b)
            gap = self._gap(cand, bb, x1[cand], np.broadcast_to(at, (len(cand), 2)))
            behind = ((at - x1[cand]) @ nrm) > 0.0
            # a hit's impulse is along the line of centres: the striker met the ball a contact
            # distance behind it along the change, coming from its last known place; a piece
            # that would have had to move away from the ball to get there struck nothing
            # (brasileira's ten minutes, frame 14866: A6, flicked from under a hand, struck the
            # ball and team-mate A4 at once; A4, nearer, was given the touch). The slack: a
            # rim's friction turning the ball's change up to ~15 degrees off the normal.
            # From either of its places before the interval: a ball seen late (predicted at
            # rest a frame) puts the hit in the interval after the striker's pass
            # (brasileira 12421).
            half = np.where(self.disc[cand], self.r_mm[cand], self.size_mm[cand, 1] / 2.0)
            meet = at - nrm * (half + self.r_mm[b])[:, None]
            towards = np.zeros(len(cand), bool)
            for x in (x0, x1):
                to_meet = meet - x[cand]
                slack = _APPROACH_SLACK_MM + _APPROACH_COS * np.hypot(*to_meet.T)
                towards |= to_meet @ nrm >= -slack
            # ... and one under a hand is where it froze, not where the fingers flicked it from
            reach = np.where(self._ok[1][cand], _STRIKER_GAP_MM, _HIDDEN_REACH_MM)
            gap = np.where(behind & towards & (gap <= reach), gap, np.inf)
            m = int(np.argmin(gap))
            if not np.isfinite(gap[m]):
                continue  # a rail, a post, the net
            a = int(cand[m])
            pair = self._pair(a, b)
            frame = self._frames[2]
            if len(pair) and frame - self._last_hit[pair[0]] <= self.refractory:
                continue
            if len(pair):
                self._last_hit[pair[0]] = frame
            self._body_hit[a] = self._body_hit[b] = self._struck[b] = frame
            out.append(
                TrackContact(
                    t1 + float(tau[0]),
                    str(self.ids[a]),
                    str(self.ids[b]),
                    "piece-ball",
                    frame,
                    size,
                )
            )
        return out

    def _unseen_start(self, c: TrackContact) -> TrackContact:
        """A hit of the ball timed in the interval before the first frame it is seen moving,
        where the frames before were not measured (the ball coasting at rest, lost beside the
        piece coming at it) since it was last seen at rest: traced back along its line at its
        speed, as :meth:`_restarts` times a start no hit explained, not before that rest
        (brasileira offside drill 4011: the push of 37 timed at 40, the ball unseen 35-39)."""
        if c.kind != "piece-ball" or c.frame != self._frames[-2]:
            return c
        b = int(np.flatnonzero(self.ids == (c.b if c.a != "ball" else c.a))[0])
        seen = {f: (xy[b], sn[b]) for f, xy, _, _, sn in self._hist}
        k = c.frame
        if not (seen.get(k, (None, False))[1] and seen.get(k + 1, (None, False))[1]):
            return c
        j = k - 1
        while j in seen and not seen[j][1]:
            j -= 1
        if j == k - 1 or j - 1 not in seen or not (seen[j][1] and seen[j - 1][1]):
            return c  # seen the frame before, or not seen at rest before the gap
        rest = seen[j][0]
        if np.hypot(*(rest - seen[j - 1][0])) >= 1.5:
            return c
        t_k, dt = self._t[-2], self._t[-1] - self._t[-2]
        step = seen[k + 1][0] - seen[k][0]
        speed = float(np.hypot(*step)) / dt if dt > 0 else 0.0
        if speed < _BALL_MIN_DV_MM_S:  # (a slow push's ball rolls on at 100-130 mm/s)
            return c
        along = _from_rest(seen[k][0] - rest, step / (speed * dt))
        if along is None:
            return c
        t_hit = max(t_k - along / speed, t_k - (k - j) * dt)
        if t_hit >= c.t:
            return c
        frame = k - int(np.floor((t_k - t_hit) / dt + 1e-9))
        return TrackContact(t_hit, c.a, c.b, c.kind, frame, c.dv_mm_s)

    def _restarts(self) -> list[TrackContact]:
        """A ball that left its resting place unseen (under a hand, lost beside the piece
        that struck it, a track re-acquired far off) and no hit found for it: once seen
        moving on two frames in a line from where it rested, it was struck there. The time is
        traced back along that line at its speed; the striker is the piece whose path (its
        known places over the last frames, straight between them) passed the resting place
        behind the ball's new direction. Too far gone to time so (friction slowed it since),
        the striker's path gives both (:meth:`_path_striker`)."""
        if len(self._t) < 2:
            return []
        out: list[TrackContact] = []
        x_prev, x_now = self._xy[-2], self._xy[-1]
        ok_prev, ok_now = self._ok[-2], self._ok[-1]
        t_prev, t_now = self._t[-2], self._t[-1]
        dt = t_now - t_prev
        frame = self._frames[-1]
        seen_now, seen_prev = self._seen[-1], self._seen[-2]
        for b in np.flatnonzero(self.kind == "ball"):
            # at rest: not where a ball just seen leaving its rest is guessed the frame after
            # (a track with no velocity yet: nacional's ten minutes, seed 35, frame 8113)
            away = self._away_frame[b]
            leaving = 0 <= away - self._rest_frame[b] <= 2 and seen_prev[b] and not seen_now[b]
            step = float(np.hypot(*(x_now[b] - x_prev[b])))
            if (
                step < 1.5
                and away >= 0
                and seen_prev[b]
                and not self._struck[b] >= self._rest_frame[b]
                and not np.isnan(self._rest_xy[b, 0])
            ):
                # out of hiding far from its rest, creeping on: not at rest there yet
                crept = self._crept(int(b), step / dt if dt > 0 else 0.0)
                if crept is not None:
                    out.append(crept)
                    continue
            if ok_now[b] and ok_prev[b] and step < 1.5 and not leaving:
                self._rest_xy[b] = x_now[b]
                self._rest_frame[b] = frame
                self._away_frame[b] = -1
                continue
            if np.isnan(self._rest_xy[b, 0]) or dt <= 0:
                continue
            if ok_now[b] and np.hypot(*(x_now[b] - self._rest_xy[b])) < 1.5:
                self._rest_frame[b] = frame  # seen again where it rested (a hand lifted)
                self._away_frame[b] = -1
                continue
            away_seen = self._away_frame[b]
            if self._struck[b] >= self._rest_frame[b] and (
                away_seen < 0 or self._struck[b] <= away_seen + 1
            ):
                # its start was seen as a hit (found a frame late at most: one found later,
                # after it was seen away, is a later one: nacional's ten minutes, seed 35,
                # frame 8402, the ball struck by B6 out of hiding while a hand hid it, seen
                # away, then off A5 two frames on: B6's touch was lost)
                self._rest_xy[b] = np.nan
                continue
            if not ok_now[b]:
                continue
            if self._away_frame[b] < 0:
                self._away_frame[b] = frame
            # a start seen on consecutive frames is left to the hit finders (a frame late)
            if not ok_prev[b] or frame - self._away_frame[b] < 2:
                continue
            v = (x_now[b] - x_prev[b]) / dt
            speed = float(np.hypot(*v))
            if speed < self.min_dv_ball:
                # (a slow push from under a hand rolls on at 100-130 mm/s: drill 4013) Seen
                # rolling on slowly far from its rest, it left it unseen (under a crossbar, a
                # hand): the striker's path passing that place times the hit (mesa-posta's ten
                # minutes, seed 46, frame 16385: A11 pushed the ball on the goal line at 90 mm/s
                # as it struck the goalkeeper; the ball, under the bar for ten frames, seen 20
                # mm into the goal at 45 mm/s; the touch lost, a foul called, the goal lost)
                crept = self._crept(int(b), speed)
                if crept is not None:
                    out.append(crept)
                continue
            u = v / speed
            along = _from_rest(x_prev[b] - self._rest_xy[b], u)
            at = self._rest_xy[b].copy()
            t_ref, f_ref = t_prev, self._frames[-2]
            away = int(self._away_frame[b])
            if along is None and frame > away + 1:
                # turned since (a second hit): its first two steps away, in a line from its
                # rest (gaucha's ten minutes, seed 32, frame 7152: struck on the touch line by
                # A8 from under a hand, off B8 two frames on, A8's touch lost)
                first = {
                    f: xy[b] for f, xy, _, ok, _ in self._hist if f in (away, away + 1) and ok[b]
                }
                if len(first) == 2:
                    v1 = (first[away + 1] - first[away]) / dt
                    s1 = float(np.hypot(*v1))
                    along1 = _from_rest(first[away] - at, v1 / max(s1, 1e-9))
                    if s1 >= self.min_dv_ball and along1 is not None:
                        speed, u, along = s1, v1 / s1, along1
                        t_ref, f_ref = t_prev - (self._frames[-2] - away) * dt, away
            a = -1
            # placed on a painted spot for a restart (a kick-off, a penalty), white on white
            # and unseen there, while its track rested where it was last seen (in the net
            # after a goal: nacional's ten minutes, frame 4361, A11's kick-off): struck there
            # if a piece's path passed it, nearer on the ball's line than its resting place
            for spot in self.spots:
                from_spot = _from_rest(x_prev[b] - spot, u)
                if from_spot is None or from_spot / speed > _BACK_FRAMES * dt:
                    continue
                if along is not None and from_spot >= along:
                    continue
                back = from_spot / speed
                hit_frame = self._frames[-2] - int(np.floor(back / dt + 1e-9))
                a = self._striker(int(b), spot, u, hit_frame)
                if a >= 0:
                    t_hit = t_prev - back
                    break
            turned = False  # its start traced from its first sighting away
            bounded = away - self._rest_frame[b] <= 2
            if a < 0 and along is None and frame > away + 1 and bounded:
                # turned before a second step away was seen (unseen or guessed in place that
                # frame, off another piece by the next: nacional's ten minutes, seed 35, frame
                # 8111, B6 out of hiding, then A5): its way out is the line from its rest
                # through its first sighting away, and the striker's path times the hit (seen
                # at rest up to two frames before: a start unseen longer is not timed so)
                first_seen = [xy[b] for f, xy, _, _, sn in self._hist if f == away and sn[b]]
                if first_seen and np.hypot(*(first_seen[0] - at)) >= _WOKE_MM:
                    way = first_seen[0] - at
                    a, t_hit, hit_frame = self._path_striker(
                        int(b), at, way / np.hypot(*way), t_now, dt
                    )
                    turned = a >= 0
            # not from there: the place is kept (a track that followed a false ball first
            # finds the real one leaving it later)
            if a < 0 and along is None:
                continue
            back = along / speed if along is not None else 0.0  # s before t_ref
            if a >= 0:
                pass  # struck on a spot
            elif back <= _BACK_FRAMES * dt:
                t_hit = t_ref - back
                hit_frame = f_ref - int(np.floor(back / dt + 1e-9))
                a = self._striker(int(b), at, u, hit_frame)
            else:
                # too far gone to time by its speed (friction slowed it: traced back at its
                # speed now, a pass lost for 13 frames on a pale felt read 24): timed by the
                # striker's own path reaching the place, since the ball was last seen there
                a, t_hit, hit_frame = self._path_striker(int(b), at, u, t_now, dt)
            if a < 0:
                continue
            # struck again since it left (a hit found, or its turn seen)
            later = turned or self._struck[b] >= self._rest_frame[b]
            out.append(self._restarted(int(a), int(b), t_hit, hit_frame, speed, later))
        return out

    def _crept(self, b: int, speed: float) -> TrackContact | None:
        """The ball ``b`` seen now and a frame ago rolling on too slowly to time (friction
        slowed it since), at least ``_WOKE_MM`` from where it rested, out of hiding (unseen the
        frame before it was first seen away): it left that place unseen, and the piece whose
        path passed it then struck it (:meth:`_path_striker`,
        from the leg into its last sighting there: a slow push moves it less than its rest's
        1.5 mm in its frame). None if no piece did."""
        gone = self._xy[-1][b] - self._rest_xy[b]
        size = float(np.hypot(*gone))
        if not (self._seen[-1][b] and self._seen[-2][b]) or size < _WOKE_MM:
            return None
        away = int(self._away_frame[b])
        if away < 0 or not self._came_out(b, away):
            return None  # (seen leaving: the hit finders' own)
        t_now, dt = self._t[-1], self._t[-1] - self._t[-2]
        # creeping on along its way from the rest (not at rest elsewhere: a track back on the
        # ball after a false one, a ball a hand carried; mesa-posta's ten minutes, seed 46,
        # frame 11860, and gaucha's, seed 47, frame 9176), and no faster on the mean since the
        # rest than the felt slows to its speed now
        step = self._xy[-1][b] - self._xy[-2][b]
        s = float(np.hypot(*step))
        if s < _CREEP_STEP_MM or float(step @ gone) < _CREEP_COS * s * size or dt <= 0:
            return None
        rest = self._rest_xy[b]
        there = [f for f, xy, _, _, sn in self._hist if sn[b] and np.hypot(*(xy[b] - rest)) < 1.5]
        if not there:
            return None
        since = max((self._frames[-1] - there[-1]) * dt, dt)  # (last seen there)
        if size / since > _FELT_SLOWS * s / dt:
            return None
        at = self._rest_xy[b].copy()
        a, t_hit, hit_frame = self._path_striker(b, at, gone / size, t_now, dt, lead=1)
        return None if a < 0 else self._restarted(a, b, t_hit, hit_frame, speed, True)

    def _restarted(
        self, a: int, b: int, t_hit: float, hit_frame: int, speed: float, later: bool
    ) -> TrackContact:
        """Piece ``a``'s hit on the ball ``b``, found from its start (:meth:`_restarts`):
        its rest forgotten, both marked hit now. ``later``: it was struck again since."""
        frame = self._frames[-1]
        self._rest_xy[b] = np.nan
        self._body_hit[a] = self._body_hit[b] = self._struck[b] = frame
        # the hit finders see the start again: no second (unless it met the ball again since:
        # B6 did, five frames on at 8402, four at 8111)
        self._last_hit[self._pair(a, b)] = hit_frame if later else frame
        a_id, b_id = str(self.ids[a]), str(self.ids[b])
        return TrackContact(t_hit, a_id, b_id, "piece-ball", hit_frame, speed)

    def _path_striker(
        self, b: int, at: FloatArray, u: FloatArray, t_now: float, dt: float, lead: int = 0
    ) -> tuple[int, float, int]:
        """The piece whose known path (straight between its known places) first came within
        the touch tolerance of ``at`` (body ``b`` resting there, left along direction ``u``)
        from behind, the line of centres within 60 degrees of ``u``, after the frame ``b`` was
        last seen resting there; and when (the time, and the frame at or after it). On a leg
        from where the piece was frozen (a straight guess at an unseen path) the nearest
        approach within the striker gap will do; ``(-1, nan, -1)`` if no piece's path passed
        so. ``lead``: legs from that many frames before it was last seen there too (a slow
        push moves it less than its rest's 1.5 mm in its frame). A piece seen at one place all
        along struck nothing. A leg
        from a place the piece was frozen at (under its coach's hand) is untimed: the hit is
        put just after the ball was last seen resting."""
        frame_now = self._frames[-1]
        # from the last frame it was seen there (its track, predicted at rest while it was
        # lost, rested on after the hit)
        there = [f for f, xy, _, _, seen in self._hist if seen[b] and np.hypot(*(xy[b] - at)) < 1.5]
        if not there:  # last seen resting before the frames kept: too long ago to tell
            return -1, float("nan"), -1
        f_rest = there[-1]
        rows = [h for h in self._hist if h[0] >= f_rest - lead]
        best, best_key = (-1, float("nan"), -1), (np.inf, np.inf)
        f_sub = (np.arange(_SUB) + 1.0) / _SUB
        # (buttons: a goalkeeper is moved by its coach's hand, never flicked into anything,
        # 000 Art. 3; 001 Art. XIV)
        for a in np.flatnonzero(self.kind == "button"):
            if a == b:
                continue
            path = [(f, xy[a], sn[a]) for f, xy, kn, _, sn in rows if kn[a]]
            if len(path) < 2:
                continue
            pts = np.array([xy for _, xy, _ in path])
            if float(np.ptp(pts, axis=0).max()) < _STILL_MM:
                continue
            for (f0, p0, seen0), (f1, p1, _) in itertools.pairwise(path):
                if float(np.hypot(*(p1 - p0))) < 1e-6:
                    continue
                sub = p0 + f_sub[:, None] * (p1 - p0)
                gaps = self._gap(np.full(_SUB, a), np.full(_SUB, b), sub, np.tile(at, (_SUB, 1)))
                # behind the ball's new direction, and pushing it that way: the line of
                # centres within 60 degrees of it (a piece passing beside it struck nothing)
                rel = at - sub
                along = rel @ u
                behind = along > _KICK_AGREES * np.hypot(rel[:, 0], rel[:, 1])
                gaps = np.where(behind, gaps, np.inf)
                touch = np.flatnonzero(gaps <= self.tol_mm)
                k = int(touch[0]) if len(touch) else int(np.argmin(gaps))
                g = float(gaps[k])
                # a leg between two sightings is the piece's path (0.3 mm of noise): it
                # touched; one out of hiding is a guess at it, near enough
                if g > (_STRIKER_GAP_MM if not seen0 else self.tol_mm):
                    continue
                # the first touch wins over an approach; among approaches, the nearest
                key = (0.0 if len(touch) else 1.0, g if not len(touch) else 0.0)
                if key < best_key:
                    # along a leg from a place it was seen; out of hiding (frozen under a
                    # hand, it left it unseen) the ball's own start: just after it was last
                    # seen resting
                    f_hit = f0 + f_sub[k] * (f1 - f0) if seen0 else f_rest + 0.5
                    best_key = key
                    best = (int(a), t_now - (frame_now - f_hit) * dt, int(np.ceil(f_hit)))
                if len(touch):
                    break  # its first touch: later legs are after the hit
        return best

    def _struck_from_hiding(self) -> list[TrackContact]:
        """A piece that left its resting place with no hit found, struck by a piece frozen
        under a hand behind it: the coach's flick is unseen until the flicked piece comes out
        moving, and the struck piece's start alone reads as a flick of its own (a foul by the
        hidden piece read as the victim's lance).

        Once the piece is seen on two frames away from its rest, a piece frozen (known, not
        seen) over those frames, within ``_HIDDEN_REACH_MM`` behind its new direction, and seen
        again moved from where it froze at most ``_OUT_FRAMES`` frames after the start (or
        whose path from there passed its place from behind), struck it. The time is traced
        back along the struck piece's first step at its speed (its way out of hiding, if it
        came out)."""
        if len(self._t) < 2 or len(self._hist) < 3:
            return []
        x_prev, x_now = self._xy[-2], self._xy[-1]
        ok_prev, ok_now = self._ok[-2], self._ok[-1]
        t_prev, dt = self._t[-2], self._t[-1] - self._t[-2]
        frame = self._frames[-1]
        out: list[TrackContact] = []
        piece = self.kind != "ball"
        rests = piece & ok_now & ok_prev & (np.hypot(*(x_now - x_prev).T) < 1.5)
        self._rest_xy[rests], self._rest_frame[rests], self._away_frame[rests] = (
            x_now[rests],
            frame,
            -1,
        )
        if dt <= 0:
            return []
        seen_prev = self._hist[-2][4]
        out += self._struck_then_hidden(frame, dt)
        cand = np.flatnonzero(piece & ~rests & ok_now & ~np.isnan(self._rest_xy[:, 0]))
        # the fastest first: a piece struck in hiding tells how fast its striker went (below)
        cand = cand[np.argsort(-np.hypot(*(x_now[cand] - x_prev[cand]).T), kind="stable")]
        for b in cand:
            rest = self._rest_xy[b]
            # its start was seen as a hit (one found after it was seen away is a later one:
            # the piece struck its own victim on, 13520 below)
            away_seen = self._away_frame[b]
            if self._struck[b] >= self._rest_frame[b] and (
                away_seen < 0 or self._struck[b] <= away_seen
            ):
                self._rest_xy[b] = np.nan
                continue
            if np.hypot(*(x_now[b] - rest)) < _AWAY_MM:
                continue  # not gone yet
            if self._away_frame[b] < 0 or not seen_prev[b]:
                self._away_frame[b] = frame  # first seen away (again, out of hiding)
                self._away_xy[b] = x_now[b]
            away = int(self._away_frame[b])
            if frame - away > _OUT_FRAMES:
                self._rest_xy[b] = np.nan  # no striker came out: its own flick
                continue
            if not ok_prev[b] or frame == away:
                continue  # the hit finders try the start first (a frame late)
            # its first step away: a later one may hold a second hit (gaucha's ten minutes,
            # seed 32, frame 13520: A3, struck by B11 flicked from under its coach's hand, hit
            # A7 the frame after and slowed to 260 mm/s, under the bar, as B11 came out)
            f_ref, x_a, x_b = self._frames[-2], x_prev[b], x_now[b]
            first = {f: xy[b] for f, xy, _, ok, _ in self._hist if f in (away, away + 1) and ok[b]}
            if frame > away + 1 and len(first) == 2:
                f_ref, x_a, x_b = away, first[away], first[away + 1]
            step = x_b - x_a
            speed = float(np.hypot(*step)) / dt
            # out of hiding, it went at least as fast as its mean since it rested (nacional's
            # ten minutes, frame 6706: A11, struck under a hand, struck A9 there too and came
            # out at 206 mm/s, 42 mm from its rest four frames on)
            fast = speed
            u = step / max(speed * dt, 1e-9)
            if self._came_out(int(b), away):
                gone_xy = self._away_xy[b] - rest
                gone = float(np.hypot(*gone_xy))
                fast = max(speed, gone / max((away - self._rest_frame[b]) * dt, dt))
                # and its way out of hiding is the one it was struck along: its step since
                # may follow a second hit (gaucha's ten minutes, seed 32, frame 13520: A3,
                # struck by B11 under a hand, hit A7 at once and came out turned 25 degrees,
                # B11 no longer behind it)
                if gone >= _AWAY_MM:
                    u = gone_xy / gone
            # ... and at least as fast as a piece it struck in hiding since went off: its own
            # way out, after that hit, is no measure of it (gaucha's ten minutes, seed 38,
            # frame 7611: A11 flicked from under its coach's hand into B4 resting against it,
            # B4 into B7, which came out at 880 mm/s, B4 at 110 and 267 on the mean since its
            # rest; B4's start read as B's own lance and A11's foul lost)
            gave = self._gave_frame[b] >= self._rest_frame[b]
            if gave:
                fast = max(fast, float(self._gave_speed[b]))
            # Slower, it may have been pushed by a hand, or carried: only a piece it rested
            # against, behind it on its line of centres, came out moving, struck it (gaucha's
            # ten minutes, seed 47, frame 14474: A11, frozen under the hand touching B4, flicked
            # past it; B4 pushed off along their line at 160 mm/s, its start read as B's own
            # lance and A11's foul lost)
            pressed = fast < 2.0 * self.min_dv
            if fast < 0.5 * self.min_dv:
                continue
            back = min(max(float((x_a - rest) @ u), 0.0) / fast, _BACK_FRAMES * dt)
            t_ref = t_prev - (self._frames[-2] - f_ref) * dt
            if gave:
                # struck before it struck that one, by the time it took to cover the gap
                # between them: at that piece's speed out at most (it went faster), so half
                # way between then and its own hit
                back = max(back, t_ref - self._gave_t[b] + 0.5 * self._gave_gap[b] / fast)
            hit_frame = f_ref - int(np.floor(back / dt + 1e-9))
            a = self._hidden_striker(int(b), rest, u, away, pressed=pressed)
            if a < 0 and not pressed:
                # its own start unseen too: struck by a piece whose known path (frozen places
                # and sightings, straight between them) passed its place from behind
                a = self._striker(int(b), rest, u, hit_frame, moved_mm=_WOKE_MM)
            if a < 0:
                continue
            out.append(self._struck_hidden(int(a), int(b), frame, t_ref - back, hit_frame, speed))
        return out

    def _bounced_in_hiding(self, found: list[TrackContact]) -> list[TrackContact]:
        """A piece flicked from under its coach's hand that came out turned, off a body that
        stayed where it was (a goalkeeper, a resting piece held against a rail): its way out,
        traced back, met that body, and its way in from where it froze, reflected there, is
        its way out (gaucha's ten minutes, seed 32, frame 14147: B9, flicked from under the
        hand into the goalkeeper A1, came out 50 degrees off the line from where it froze; a
        foul, 001 Art. XXIV, lost). Judged on its first two frames seen: the hit is timed
        back along its way out at its speed, as a sliding piece slows (``_SLIDE_KEEPS``).

        Not a piece ``found`` (this frame's other finders) to have hit another as it came
        out: its way out is the way that hit sent it, not the way it came off a body before
        (mesa-posta's ten minutes, seed 46, frame 2965: A9, flicked from under the hand into
        B10, came out turned by that hit; traced back along its way out it met B7, 150 mm
        from its path, and was called a foul on B7 three frames early)."""
        if len(self._hist) < 3 or len(self._t) < 2:
            return []
        (_, x0, kn0, ok0, _), (f1, x1, _, _, s1), (f3, x3, _, _, s3) = self._hist[-3:]
        # (a piece, not the ball: a 10 mm ball hardly turns a button that strikes it)
        hit_out = {
            x for c in found if c.frame >= f1 - 1 and c.kind == "piece-piece" for x in (c.a, c.b)
        }
        dt = self._t[-1] - self._t[-2]
        if dt <= 0:
            return []
        out: list[TrackContact] = []
        came = (self.kind == "button") & kn0 & ~ok0 & s1 & s3
        came &= np.hypot(*(x1 - x0).T) >= _WOKE_MM
        for b in np.flatnonzero(came):
            if str(self.ids[b]) in hit_out:
                continue
            frozen, e = x0[b], x1[b]
            step1 = x3[b] - x1[b]
            v1 = float(np.hypot(*step1))
            way = e - frozen
            if v1 / dt < self.min_dv or float(np.hypot(*way)) < _WOKE_MM:
                continue
            u_out = step1 / v1
            if float(way @ u_out) / float(np.hypot(*way)) >= _BOUNCE_STRAIGHT:
                continue  # came out on its line: no bounce
            # bodies that stayed where they were, seen now
            stayed = (self.kind != "ball") & s3 & (kn0 | ok0) & (np.hypot(*(x3 - x0).T) < _STILL_MM)
            stayed[b] = False
            best, best_s = self._bounced_off(int(b), frozen, e, u_out, np.flatnonzero(stayed), x3)
            if best < 0:
                continue
            # frames back from its first sighting, each frame before it 1/keep as far: the
            # distance over n frames is v1 (r + ... + r^n), r = 1/keep
            r = 1.0 / _SLIDE_KEEPS
            frames = math.log1p(best_s / v1 * (r - 1.0) / r) / math.log(r)
            t_hit = self._t[-1] - (f3 - f1) * dt - frames * dt
            hit_frame = f1 - int(np.floor(frames + 1e-9))
            last_seen = [f for f, _, _, _, sn in self._hist[:-2] if sn[b]]
            if last_seen and hit_frame < last_seen[-1]:
                # met before it was last seen where it froze: sliding out that slowly it came
                # nowhere near that body in the frames it was hidden (mesa-posta's ten minutes,
                # seed 42, frame 13752: B8 seen 100 mm from where it froze at 175 mm/s, a
                # resting A5 met 160 mm back along its way, 12 frames before: a false foul)
                continue
            both = np.array([b, best])
            self._body_hit[both] = np.maximum(self._body_hit[both], hit_frame)
            self._struck[best] = f3
            self._last_hit[self._pair(b, best)] = f3
            out.append(
                TrackContact(
                    t_hit, str(self.ids[b]), str(self.ids[best]), "piece-piece", hit_frame, v1 / dt
                )
            )
        return out

    def _bounced_off(
        self,
        b: int,
        start: FloatArray,
        e: FloatArray,
        u_out: FloatArray,
        stayed: NDArray[np.intp],
        xy: FloatArray,
    ) -> tuple[int, float]:
        """Which of the bodies ``stayed`` (at ``xy``) body ``b`` came off: its way out (first
        seen at ``e``, going along ``u_out``), traced back, meets the body, and its way in from
        ``start`` to there, reflected off it, is its way out (within ``_BOUNCE_REFLECTS``).
        Returns the body and how far back from ``e`` they met, or ``(-1, 0.0)``."""
        best, best_cos, best_s = -1, _BOUNCE_REFLECTS, 0.0
        s_back = np.arange(0.0, float(np.hypot(*(e - start))) + 60.0, 1.0)
        pts = e - s_back[:, None] * u_out
        for x in stayed:
            gap = self._gap(
                np.full(len(pts), x), np.full(len(pts), b), np.tile(xy[x], (len(pts), 1)), pts
            )
            hit = np.flatnonzero(gap <= 1.0)
            if not len(hit) or hit[0] == 0:
                continue  # not met on the way back (or touching it now: the hit finders')
            at = pts[hit[0]]
            d_in = at - start
            if float(np.hypot(*d_in)) < 5.0:
                continue
            u_in = d_in / float(np.hypot(*d_in))
            n = self._normals(np.array([x]), np.array([b]), xy[x][None], at[None])[0]
            if float(u_in @ n) > -0.2 or float(u_out @ n) < 0.2:
                continue  # not into it, or not away from it
            cos = float((u_in - 2.0 * float(u_in @ n) * n) @ u_out)
            if cos > best_cos:
                best, best_cos, best_s = int(x), cos, float(s_back[hit[0]])
        return best, best_s

    def _ball_bounced_from_rest(self) -> list[TrackContact]:
        """The ball struck from rest while unseen (behind its striker, in its blur) and first
        seen turned off a body that stayed where it was: its way out, traced back, met the
        body, and its way from its rest to there, reflected off it, is its way out
        (paulista's ten minutes, seed 39, frame 15349: A5 struck the ball, unseen that frame,
        into B7 at rest, and it came out 40 degrees off the line from its rest; B7's touch
        lost, no finder reading a velocity change across the unseen frame). The striker's hit
        is the other finders'. Judged on its first two frames seen; the hit timed back along
        its way out at its speed over those two (it slows little within a frame), after the
        last frame it was seen at rest."""
        hist = self._hist
        if len(hist) < 5 or len(self._t) < 2:
            return []
        (f1, x1, _, _, s1), (_, x3, _, _, s3) = hist[-2:]
        dt = self._t[-1] - self._t[-2]
        if dt <= 0:
            return []
        out: list[TrackContact] = []
        for b in np.flatnonzero((self.kind == "ball") & s1 & s3):
            # back over the frames it was predicted unseen (one to three) to where it rested
            j = len(hist) - 3
            while j > len(hist) - 6 and j >= 0 and hist[j][3][b] and not hist[j][4][b]:
                j -= 1
            if j == len(hist) - 3 or j < 1 or not (hist[j][4][b] and hist[j - 1][4][b]):
                continue
            rest = hist[j][1][b]
            if float(np.hypot(*(rest - hist[j - 1][1][b]))) >= 1.5:
                continue  # it was moving: the frames between are filled (:meth:`_fill`)
            step1 = x3[b] - x1[b]
            v1 = float(np.hypot(*step1))
            way = x1[b] - rest
            if v1 / dt < self.min_dv_ball or float(np.hypot(*way)) < _WOKE_MM:
                continue
            u_out = step1 / v1
            if float(way @ u_out) / float(np.hypot(*way)) >= _BOUNCE_STRAIGHT:
                continue  # came out on its line: no bounce
            # (met where it stood before: a light touch may nudge it a mm or two)
            kn, x0 = hist[j][2], hist[j][1]
            stayed = (self.kind != "ball") & s3 & kn & (np.hypot(*(x3 - x0).T) < _STILL_MM)
            best, best_s = self._bounced_off(int(b), rest, x1[b], u_out, np.flatnonzero(stayed), x0)
            if best < 0:
                continue
            pair = self._pair(b, best)
            frames = min(best_s / v1, float(f1 - hist[j][0]) - 0.5)
            hit_frame = f1 - int(np.floor(frames + 1e-9))
            if len(pair) and hit_frame - self._last_hit[pair[0]] <= self.refractory:
                continue  # found by the other finders
            t_hit = self._t[-2] - frames * dt
            both = np.array([b, best])
            self._body_hit[both] = np.maximum(self._body_hit[both], hit_frame)
            self._last_hit[pair] = hit_frame
            out.append(
                TrackContact(
                    t_hit, str(self.ids[best]), str(self.ids[b]), "piece-ball", hit_frame, v1 / dt
                )
            )
        return out

    def _grazes(self) -> list[TrackContact]:
        """A sliding button turned by a resting one that stayed where it was
        (:func:`vision.grazes.find_grazes`): read once three frames after the touch are in,
        over the last ``_GRAZE_FRAMES`` frames; the ball turned off a resting button or
        goalkeeper, read once four frames after it are in, over ``_BALL_GRAZE_FRAMES`` (that
        piece touched it); not where either body had another hit over them (the turn is that
        hit's)."""
        out: list[TrackContact] = []
        got = self._graze_window(_GRAZE_FRAMES)
        if got is not None:
            out += self._grazed(find_grazes(*got[0]), got[1])
        got = self._graze_window(_BALL_GRAZE_FRAMES)
        if got is not None:
            # off a resting goalkeeper too, its box's edge measured
            ts, xy, seen, sig, r, _ = got[0]
            boxes = (np.where(self.disc[:, None], np.nan, self.size_mm), self.angle_rad)
            for b in np.flatnonzero(self.kind == "ball"):
                found = find_ball_grazes(
                    ts, xy, seen, sig, r, self.kind != "ball", int(b), boxes=boxes
                )
                out += self._grazed([(int(b), q, t, dv, k) for q, t, dv, k in found], got[1])
        return out

    def _graze_window(self, w: int) -> tuple[_Window, list[_Hist]] | None:
        """The last ``w`` frames (consecutive) as :func:`vision.grazes.find_grazes` reads
        them (times, places, seen, sigmas, radii, buttons), and their history rows."""
        h, ts = self._hist[-w:], self._hist_ts[-w:]
        if len(h) < w or h[-1][0] - h[0][0] != w - 1:
            return None
        sig = np.stack([s for _, s in ts])
        window: _Window = (
            np.array([t for t, _ in ts]),
            np.stack([x for _, x, _, _, _ in h]),
            np.stack([sn for _, _, _, _, sn in h]),
            np.where(np.isfinite(sig), sig, _GRAZE_SIGMA_MM),
            self.r_out,
            self.kind == "button",
        )
        return window, h

    def _grazed(
        self,
        grazes: list[tuple[int, int, float, float, int]],
        h: list[_Hist],
    ) -> list[TrackContact]:
        """The contacts of ``grazes`` read over the frames ``h``: not where either body had
        another hit over them (the turn is that hit's), nor, for the ball, within
        ``_BALL_GRAZE_AFTER`` frames before the touch (a window read late starts after a hit
        the contact finder timed a frame or two early: the same touch)."""
        out: list[TrackContact] = []
        for p, q, t, dv, k in grazes:
            frame, pair = h[k][0], self._pair(p, q)
            first = h[0][0]
            if self.kind[p] == "ball":
                first = min(first, frame - _BALL_GRAZE_AFTER)
            if max(self._body_hit[p], self._body_hit[q], *self._last_hit[pair]) >= first:
                continue
            if self.kind[p] == "ball":  # the piece it met touched it
                c = TrackContact(t, str(self.ids[q]), str(self.ids[p]), "piece-ball", frame, dv)
            else:
                c = TrackContact(t, str(self.ids[p]), str(self.ids[q]), "piece-piece", frame, dv)
            out.append(c)
            self._last_hit[pair] = self._body_hit[p] = self._body_hit[q] = frame
        return out

    def _struck_then_hidden(self, frame: int, dt: float) -> list[TrackContact]:
        """A piece seen once leaving its rest, then frozen under a hand (the arm that flicked
        its striker reaching over it), judged on that sighting: its step from the rest gives
        its direction and speed, and a piece frozen behind it that has come out moved struck
        it (:meth:`_hidden_striker`). Seen again, it may have slowed to a crawl by hitting a
        third piece (nacional's ten minutes, frame 11102: B11 struck by A4, a penalty, then
        into B6) and its start would read as its own flick. Timed half the interval before
        that sighting."""
        out: list[TrackContact] = []
        frozen = (
            (self.kind != "ball")
            & self._hist[-1][2]
            & ~self._ok[-1]
            & (self._away_frame >= 0)
            & ~np.isnan(self._rest_xy[:, 0])
        )
        for b in np.flatnonzero(frozen):
            away = int(self._away_frame[b])
            if frame - away > 2 or frame == away or self._struck[b] >= self._rest_frame[b]:
                continue
            rest = self._rest_xy[b]
            t_away = self._t[-1] - (frame - away) * dt
            # its speed over the frame before that sighting (seen then) or since its rest
            before = [xy[b] for f, xy, _, _, seen in self._hist if f == away - 1 and seen[b]]
            start = before[0] if before else rest
            n = 1 if before else max(away - int(self._rest_frame[b]), 1)
            step = self._away_xy[b] - start
            speed = float(np.hypot(*step)) / (n * dt)
            if speed < 2.0 * self.min_dv:
                continue
            a = self._hidden_striker(int(b), rest, step / (speed * n * dt), away)
            if a < 0:
                continue
            # traced back to where it left its rest at that speed (still at rest a frame
            # before, or unseen since: somewhere in between, half way)
            gone = float(np.hypot(*(start - rest)))
            t_hit = (
                t_away - n * dt - gone / speed if gone >= _AWAY_MM / 2 else t_away - 0.5 * n * dt
            )
            out.append(self._struck_hidden(int(a), int(b), frame, t_hit, away, speed))
        return out

    def _struck_hidden(
        self, a: int, b: int, frame: int, t_hit: float, hit_frame: int, speed: float
    ) -> TrackContact:
        """Piece ``a``'s hit on piece ``b`` found from hiding at ``frame``: ``b`` marked struck
        (so the hit finders do not find it again, nor its start read as its own flick). Not
        ``a``: its own start, unseen too, is a flick or a hit of its own (gaucha's ten
        minutes, seed 32, frame 13520, the twenty-ninth stop's render: A3, struck by B11
        under a hand, struck A7 there too; marked struck by that second hit, B11's foul was
        never looked for)."""
        rest_b = self._rest_xy[b].copy()
        self._rest_xy[b] = np.nan
        self._struck[b] = frame
        # when it was, not when found: a hit of the struck piece's found since is no later
        # one (a second hit with its next victim would be read after it)
        self._body_hit[[a, b]] = np.maximum(self._body_hit[[a, b]], hit_frame)
        self._last_hit[self._pair(a, b)] = frame
        self._gave_frame[a], self._gave_t[a], self._gave_speed[a] = hit_frame, t_hit, speed
        gap = self._gap(np.array([a]), np.array([b]), self._rest_xy[a][None], rest_b[None])
        self._gave_gap[a] = max(float(gap[0]), 0.0) if np.isfinite(gap[0]) else 0.0
        kind = "piece-piece"
        return TrackContact(t_hit, str(self.ids[a]), str(self.ids[b]), kind, hit_frame, speed)

    def _came_out(self, b: int, away: int) -> bool:
        """Whether piece ``b`` was unseen (frozen under a hand, or coasting) on the frame
        before ``away``, the first it was seen away from its rest."""
        return any(f == away - 1 and not seen[b] for f, _, _, _, seen in self._hist)

    def _hidden_striker(
        self, b: int, rest: FloatArray, u: FloatArray, away: int, pressed: bool = False
    ) -> int:
        """The piece frozen under a hand behind ``rest`` (direction ``u``, within the reach)
        when piece ``b`` left it, seen again now moved from where it froze at most
        ``_OUT_FRAMES`` frames after ``away``; the nearest such, -1 if none. ``pressed``: only
        one touching ``b`` where both rested, ``u`` along their line of centres."""
        frozen_at: dict[int, FloatArray] = {}
        for f, xy, kn, _, seen in self._hist[:-1]:
            if away - 2 <= f <= away:
                # frozen under a hand, or coasting unseen beside one (the hand's mask short of
                # its centre, its fit lost): either way not where the camera last put it
                for q in np.flatnonzero(kn & ~seen):
                    frozen_at[int(q)] = xy[q]
        _, xy_now, _, ok_now, _ = self._hist[-1]
        if self._hist[-1][0] - away > _OUT_FRAMES:
            return -1
        best, best_gap = -1, _HIDDEN_REACH_MM
        for a, at in frozen_at.items():
            if a == b or self.kind[a] != "button" or not ok_now[a]:
                continue
            if np.hypot(*(xy_now[a] - at)) < _WOKE_MM:
                continue  # seen again where it froze: it struck nothing
            rel = rest - at
            dist = float(np.hypot(*rel))
            if dist <= 0.0 or float(rel @ u) < (_BOUNCE_STRAIGHT if pressed else 0.5) * dist:
                continue  # not behind the struck piece's new direction
            gap = float(self._gap(np.array([a]), np.array([b]), at[None], rest[None])[0])
            if pressed and gap > self.tol_mm:
                continue
            if gap < best_gap:
                best, best_gap = a, gap
        return best

    def _striker(
        self, b: int, at: FloatArray, u: FloatArray, hit_frame: int, moved_mm: float = 0.0
    ) -> int:
        """The piece whose known path from two frames before ``hit_frame`` to three after passed
        nearest ``at`` (body ``b`` at rest there; within the striker gap), behind direction
        ``u``; -1 if none. A piece unseen from ``hit_frame`` to three after (frozen under a
        hand, lost in its blur) has its first sighting up to ``_STRIKER_OUT_FRAMES`` after on
        its path too. A piece seen at one place all along struck nothing, nor one whose
        known places lie within ``moved_mm`` of each other (a piece frozen under a hand beside
        a flicked one, seen again where it froze)."""
        rows = [h for h in self._hist if hit_frame - 2 <= h[0] <= hit_frame + 3]
        later = [h for h in self._hist if hit_frame + 3 < h[0] <= hit_frame + _STRIKER_OUT_FRAMES]
        # hidden from the hit on (known, not seen): its first sighting since, if within
        # _STRIKER_OUT_FRAMES of the hit
        hidden = np.logical_and.reduce(
            [kn & ~sn for f, _, kn, _, sn in rows if f >= hit_frame] or [np.zeros(self.n, bool)]
        )
        best, best_gap = -1, _STRIKER_GAP_MM
        # (buttons: a goalkeeper is moved by its coach's hand, never flicked into anything,
        # 000 Art. 3; 001 Art. XIV)
        for a in np.flatnonzero(self.kind == "button"):
            if a == b:
                continue
            pts = np.array([xy[a] for _, xy, kn, _, _ in rows if kn[a]])
            if len(pts) == 0:
                continue
            out = [xy[a] for _, xy, _, _, sn in later if sn[a]][:1] if hidden[a] else []
            if out:
                pts = np.concatenate([pts, np.array(out)])
            spread = float(np.ptp(pts, axis=0).max())
            if all(ok[a] for _, _, _, ok, _ in rows) and spread < _STILL_MM:
                continue
            if spread < moved_mm:
                continue
            if not self.disc[a]:
                near = pts
            else:  # nearest point of each straight leg between known places
                p0 = pts[:-1] if len(pts) > 1 else pts
                p1 = pts[1:] if len(pts) > 1 else pts
                d = p1 - p0
                f = ((at - p0) * d).sum(1) / np.maximum((d * d).sum(1), 1e-9)
                near = p0 + np.clip(f, 0.0, 1.0)[:, None] * d
            behind = (at - near) @ u > 0.0
            if not behind.any():
                continue
            near = near[behind]
            gaps = self._gap(
                np.full(len(near), a), np.full(len(near), b), near, np.tile(at, (len(near), 1))
            )
            g = float(gaps.min())
            if g < best_gap:
                best, best_gap = int(a), g
        return best

    def _pair(self, a: int | np.integer, b: int | np.integer) -> NDArray[np.intp]:
        """The index of pair ``(a, b)`` in ``pi``/``pj`` (either order; empty: two
        goalkeepers, never paired)."""
        return np.flatnonzero(((self.pi == a) & (self.pj == b)) | ((self.pi == b) & (self.pj == a)))

    def _crowded(self, i: NDArray[np.intp], j: NDArray[np.intp], xy: FloatArray) -> BoolArray:
        """Pairs (P,) with a ball whose other bodies' edges come within _CROWD_MM of it at
        ``xy`` (N, 2) (pairs without a ball: False)."""
        b = np.where(self.kind[i] == "ball", i, np.where(self.kind[j] == "ball", j, -1))
        out = np.zeros(len(i), bool)
        for m in np.flatnonzero(b >= 0):
            others = np.setdiff1d(np.flatnonzero(self._ok[2]), [i[m], j[m]])
            if len(others):
                g = self._gap(
                    others, np.full(len(others), b[m]), xy[others], xy[[b[m]] * len(others)]
                )
                out[m] = bool((g <= _CROWD_MM).any())
        return out

    def _steps(self, back: int) -> tuple[FloatArray, FloatArray, BoolArray]:
        """Every body's last two steps (N, 2) up to ``back`` frames before the newest, and
        whether it was seen on the three frames they join."""
        h = self._hist
        if len(h) < back + 3:
            z = np.zeros((self.n, 2))
            return z, z, np.zeros(self.n, bool)
        (_, a, _, _, sa), (_, b, _, _, sb), (_, c, _, _, sc) = (
            h[-back - 3],
            h[-back - 2],
            h[-back - 1],
        )
        return b - a, c - b, sa & sb & sc

    def _creeping(self) -> BoolArray:
        """Balls creeping on one line over the two frames before the interval under test
        (k-3 to k-1), seen all along: rolling, however slowly."""
        s1, s2, seen = self._steps(2)
        l1, l2 = np.hypot(*s1.T), np.hypot(*s2.T)
        line = (s1 * s2).sum(1) >= _CREEP_COS * l1 * l2
        return (self.kind == "ball") & seen & (l1 >= _CREEP_MM) & (l2 >= _CREEP_MM) & line

    def _starting(self) -> BoolArray:
        """Balls at rest over the frame before the interval under test (k-2 to k-1) that left
        slowly over it and the next (to k+1) on one line, seen all along."""
        s0, _, seen0 = self._steps(1)
        s1, s2, seen = self._steps(0)
        l1, l2 = np.hypot(*s1.T), np.hypot(*s2.T)
        line = (s1 * s2).sum(1) >= _CREEP_COS * l1 * l2
        left = np.hypot(*(s1 + s2).T) >= _CREEP_START_MM
        rest = np.hypot(*s0.T) < _BALL_STILL_MM
        # (faster, from _BALL_GOING_MM a frame, the bars read the start: a kick)
        slow = (l2 >= _CREEP_MM) & (l2 < _BALL_GOING_MM)
        return (self.kind == "ball") & seen & seen0 & rest & slow & line & left

    def _way(self, b: int) -> FloatArray | None:
        """Body ``b``'s way over the frames it was seen, up to ``_WAY_FRAMES`` before the
        interval under test and not before its last hit (None: too short to tell a way)."""
        upto = self._frames[1]
        since = max(upto - _WAY_FRAMES, int(self._body_hit[b]))
        at = [xy[b] for f, xy, _, _, seen in self._hist if since <= f <= upto and seen[b]]
        if len(at) < 2 or np.hypot(*(at[-1] - at[0])) < _WAY_MM:
            return None
        return at[-1] - at[0]

    def _gap(
        self, i: NDArray[np.intp], j: NDArray[np.intp], pi: FloatArray, pj: FloatArray
    ) -> FloatArray:
        """Edge-to-edge gaps (..., P) for pairs ``i, j`` at centres ``pi, pj`` (..., P, 2)."""
        d = pj - pi
        gap = np.hypot(d[..., 0], d[..., 1]) - self.r_mm[i] - self.r_mm[j]
        box = ~self.disc[i] | ~self.disc[j]
        if box.any():
            # the rectangle's centre and the disc's, in the rectangle's frame
            rect = np.where(self.disc[i], j, i)[box]
            sign = np.where(self.disc[i], 1.0, -1.0)[box]
            rel = d[..., box, :] * sign[:, None]  # from the rectangle to the disc
            ang = self.angle_rad[rect]
            c, s = np.cos(ang), np.sin(ang)
            u = np.abs(rel[..., 0] * c + rel[..., 1] * s) - self.size_mm[rect, 0] / 2.0
            v = np.abs(-rel[..., 0] * s + rel[..., 1] * c) - self.size_mm[rect, 1] / 2.0
            sd = np.hypot(np.maximum(u, 0.0), np.maximum(v, 0.0)) + np.minimum(
                np.maximum(u, v), 0.0
            )
            disc = np.where(self.disc[i], i, j)[box]
            gap[..., box] = sd - self.r_mm[disc]
        return gap

    def _normals(
        self, i: NDArray[np.intp], j: NDArray[np.intp], pi: FloatArray, pj: FloatArray
    ) -> FloatArray:
        """Unit contact normals (P, 2) from body ``i`` toward body ``j`` at centres ``pi, pj``:
        the line of centres for two discs; for a disc and a goalkeeper's box, from the box's
        nearest point to the disc (its face's normal, or its corner's direction). A ball
        glancing off a box's end leaves along the end's normal, not away from the box's centre
        (gaucha's ten minutes, frame 3423: a save read as the ball still closing in on it)."""
        d = pj - pi
        n = d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
        box = ~self.disc[i] | ~self.disc[j]  # (two boxes never meet: no such pairs)
        if not box.any():
            return n
        disc_i = self.disc[i][box]
        rect = np.where(disc_i, j[box], i[box])
        rel = d[box] * np.where(disc_i, -1.0, 1.0)[:, None]  # from the box's centre to the disc
        c, s = np.cos(self.angle_rad[rect]), np.sin(self.angle_rad[rect])
        lx, ly = rel[:, 0] * c + rel[:, 1] * s, -rel[:, 0] * s + rel[:, 1] * c
        hx, hy = self.size_mm[rect, 0] / 2.0, self.size_mm[rect, 1] / 2.0
        ex, ey = lx - np.clip(lx, -hx, hx), ly - np.clip(ly, -hy, hy)
        out = np.hypot(ex, ey)
        # a centre inside the box (a fit's overlap): out through the nearer face
        through_x = hx - np.abs(lx) < hy - np.abs(ly)
        nx = np.where(out > 1e-9, ex, np.where(through_x, np.sign(lx), 0.0))
        ny = np.where(out > 1e-9, ey, np.where(through_x, 0.0, np.sign(ly)))
        norm = np.maximum(np.hypot(nx, ny), 1e-9)
        nx, ny = nx / norm, ny / norm
        toward_disc = np.column_stack([c * nx - s * ny, s * nx + c * ny])
        n[box] = toward_disc * np.where(disc_i, -1.0, 1.0)[:, None]  # from i to j
        return n

    def _second_touch(
        self,
        hit: BoolArray,
        is_ball: BoolArray,
        b_now: NDArray[np.intp],
        touched: BoolArray,
        to_ball: FloatArray,
        v_pre: FloatArray,
        v_post: FloatArray,
        need: FloatArray,
    ) -> BoolArray:
        """(M,) ball-piece pairs of this interval that touched the ball besides the one hit
        found with it: two pieces on the ball within one frame (a ball squeezed between them,
        or struck into a second one at once) change it by the sum of their impulses, each along
        its own line of centres, and the second's alone, read against the pair's relative
        change, may show little (paulista's ten minutes, seed 33, frame 230: B10's and A9's
        touches a quarter of a frame apart, A9's lost). A pair on its path (``touched``) whose
        line takes at least a share of the ball's change split along the two lines (each pair's
        line of centres at its own touch, ``to_ball``), both away from their pieces, touched it
        too."""
        out = np.zeros(len(hit), dtype=bool)
        for m in np.flatnonzero(is_ball & ~hit & touched):
            b = int(b_now[m])
            first = np.flatnonzero(hit & is_ball & (b_now == b))
            if len(first) != 1:
                continue
            kick = v_post[b] - v_pre[b]
            a, c = _split_kick(kick, to_ball[first[0]], to_ball[m])
            size = float(np.hypot(*kick))
            ok = a >= need[first[0]] and c >= max(float(need[m]), _SECOND_SHARE * size)
            out[m] = ok
        return out

    def _rest_before(self, b: int, t1: float) -> FloatArray | None:
        """Where ball ``b``, seen at ``t1`` after frames unseen, rested before: its last two
        sightings before (``_hist``) within 1.5 mm. None if it was not at rest, or the rest is
        out of its top speed's reach (a track found again elsewhere)."""
        hist = zip(self._hist, self._hist_ts, strict=True)
        before = [(t, xy[b]) for (_, xy, _, _, sn), (t, _) in hist if sn[b] and t < t1 - 1e-9]
        if len(before) < 2:
            return None
        (_, x_a), (t_b, x_b) = before[-2], before[-1]
        reach = np.inf if self.vmax is None else self.vmax[b] * (t1 - t_b) + _JUMP_SLACK_MM
        if np.hypot(*(x_b - x_a)) >= 1.5 or np.hypot(*(self._xy[1][b] - x_b)) > reach:
            return None
        return x_b

    def _find(self) -> list[TrackContact]:
        self._joint_balls = set()
        t0, t1, t2, t3 = self._t
        x0, x1, x2, x3 = self._xy
        o0, o1, o2, o3 = self._ok
        dt_a, dt_b, dt_c = t1 - t0, t2 - t1, t3 - t2
        if min(dt_a, dt_b, dt_c) <= 0:
            return []
        v_pre = (x1 - x0) / dt_a
        v_post = (x3 - x2) / dt_c
        # A body seen since frame k-1 only (out from under a hand) has no motion before: it
        # is taken to have moved as after (so only the other body's change shows the hit).
        ok = o1 & o2 & o3
        v_pre = np.where((ok & ~o0)[:, None], v_post, v_pre)
        # A ball struck from rest within the interval before moved over its part after the hit
        # only: its velocity then is that step over that time (over the whole frame it reads
        # slower, and the next frame's full speed a second kick: brasileira's ten minutes, seed
        # 40, frame 7211, B6's kick read again as A11's touch, A11 knocked away beside the ball
        # at that frame by B6 too). Struck near the frame's end, its step tells nothing.
        since = np.where(self._start_frame == self._frames[1], t1 - self._start_t, np.nan)
        part = ok & o0 & (since >= 0.25 * dt_a)
        v_pre[part] = (x1[part] - x0[part]) / since[part, None]
        blind = ok & o0 & (since < 0.25 * dt_a)
        v_pre[blind] = v_post[blind]
        # ... and one that left its rest unseen, first seen at frame k-1, went the way from its
        # rest (at the speed it goes on with: when it was struck in the gap is not known), not
        # as after: seen turned at frame k by a piece, its change was that touch (nacional's
        # ten minutes, seed 41, frame 15164: struck by B9, under a hand a frame, seen 65 mm on
        # and turned off A2 the next frame; A2's touch lost, the out at 15170 given to the
        # wrong team)
        gone = np.zeros(self.n, dtype=bool)  # (going already: no hit now set it going)
        for g in np.flatnonzero(ok & ~o0 & (self.kind == "ball")):
            rest = self._rest_before(int(g), t1)
            way = x1[g] - rest if rest is not None else np.zeros(2)
            size = float(np.hypot(*way))
            if size >= _BALL_GOING_MM:
                v_pre[g] = way / size * float(np.hypot(*v_post[g]))
                gone[g] = True
        # A ball struck from rest leaves along v_post no faster than v_post: it covers
        # (1 - f) v_post dt in the frame of the hit. One whose step in that frame lies far off
        # that segment was hit again within the next frame (struck into a piece beside it,
        # nacional's ten minutes, frame 7319: 38 mm in the frame, 'v_post' 78 mm/s, the hit
        # lost and the striker's touch dated by its next one, four frames late). It left at
        # its own frame's step at least; the next frame's velocity is the other hit's.
        left = (x2 - x1) / dt_b
        along = np.clip(
            (left * v_post).sum(1) / np.maximum((v_post * v_post).sum(1), 1e-12), 0.0, 1.0
        )
        off = np.hypot(*(left - along[:, None] * v_post).T)
        # (at rest by the tracker too, and seen where it went: a ball track coasting on a
        # false ball, found again on the real one, jumps from a 'rest' it never had -
        # nacional 3402)
        # So is a button struck from rest into a third body within the next frame: set going a
        # good step away, it is sent back over the next, though not back to where it rested (a
        # fit thrown off for a frame steps out and back, a few millimetres: gaucha's ten
        # minutes, frame 9207); a flicked piece that struck two bodies within its first frame
        # goes on, slowed (brasileira's ten minutes, seed 43, frame 15245: its step is no
        # velocity after its hits). Gaucha's ten minutes, seed 47, frame 15022: A11 at 640 mm/s
        # into B2, which struck its goalkeeper half a frame later and came back onto A11; the
        # first hit, read with B2's velocity after the second as still closing, was lost and
        # the foul called on B2.
        step_k = x2 - x1
        struck_on = (
            (self.kind == "button")
            & (np.hypot(*step_k.T) >= _STRUCK_ON_MM)
            & (((x3 - x2) * step_k).sum(1) < 0.0)
            & (np.hypot(*(x3 - x1).T) >= 0.5 * np.hypot(*step_k.T))
        )
        spoiled = (
            ((self.kind == "ball") | struck_on)
            & ok
            & ~self._moving[0]
            & ~self._moving[1]
            & self._hist[-2][4]
            & (np.hypot(*v_pre.T) < _REST_MM_S)
            & (np.hypot(*left.T) >= 3.0 * _REST_MM_S)
            & (off > 0.5 * np.hypot(*left.T))
        )
        v_post = np.where(spoiled[:, None], left, v_post)
        # The noise of each body's velocity change along a line (inf: unknown).
        s0, s1, s2, s3 = (q**2 for q in self._sig)
        noise_dv = np.sqrt((s0 + s1) / dt_a**2 + (s2 + s3) / dt_c**2)
        # A piece at rest all along (by the tracker, and within a millimetre) and measured
        # (its noise known) is fixed: that noise is no velocity (the ball rolling into it is
        # what changed).
        fixed = (
            np.isfinite(noise_dv)
            & ~np.logical_or.reduce(self._moving)
            & (self.kind != "ball")
            & (np.hypot(*(x3 - x0).T) < 1.0)
            & (np.hypot(*(x2 - x1).T) < 1.0)
        )
        v_pre = np.where(fixed[:, None], 0.0, v_pre)
        v_post = np.where(fixed[:, None], 0.0, v_post)
        noise_dv = np.where(fixed, 0.0, noise_dv)
        # Moved at all (two resting pieces side by side never hit each other); a sharp ball's
        # rest is judged by its own noise.
        is_b = self.kind == "ball"
        noise_v = _NOISE_K * np.sqrt(2.0) * np.where(is_b, self._sig[1], np.inf)
        still_mm = np.clip(noise_v, _BALL_STILL_MM, _STILL_STEP_MM)
        still_mm_s = np.clip(noise_v / dt_b, _BALL_STILL_MM_S, _STILL_MM_S)
        still = (np.hypot(*(x2 - x1).T) < still_mm) & (np.hypot(*(v_pre).T) < still_mm_s)
        i, j = self.pi, self.pj
        # One of them moving (noise never makes two resting pieces collide); a ball whose own
        # step shows it set going is, before the tracker's flag says so a frame or two later
        # (gaucha's ten minutes, seed 32, frame 17366: A11 kicked the ball from rest into B5
        # resting beside it, both set going in that frame; B5's touch was lost)
        going = is_b & (np.hypot(*(x2 - x1).T) >= _BALL_GOING_MM)
        creeping, starting = self._creeping(), self._starting()
        moved = ~still & (np.logical_or.reduce(self._moving) | going)
        # (a ball moving by its own fits only may have stopped against a piece or been pushed
        # on by one, below: not the bars' hit, whose reach is a touch's 5 mm)
        slow = (~still & creeping) | starting
        sel = ok[i] & ok[j] & (moved[i] | moved[j] | slow[i] | slow[j])
        # Candidates: close enough at either end of the interval to touch within it (bounding
        # circles first: most pairs are far apart).
        spd = np.hypot(*v_pre.T) + np.hypot(*v_post.T)
        reach = (spd[i] + spd[j]) * dt_b + 2.0 * self.tol_mm + self.r_out[i] + self.r_out[j]
        c1 = x1[i] - x1[j]
        c2 = x2[i] - x2[j]
        sel &= np.minimum(np.hypot(c1[:, 0], c1[:, 1]), np.hypot(c2[:, 0], c2[:, 1])) < reach
        k = np.flatnonzero(sel)
        if len(k) == 0:
            return []
        i, j = i[k], j[k]
        fast = moved[i] | moved[j]
        gap1 = self._gap(i, j, x1[i], x1[j])
        n1 = self._normals(i, j, x1[i], x1[j])
        closing = -((v_pre[j] - v_pre[i]) * n1).sum(1)  # > 0: approaching at frame k-1
        # apart at frame k-1, or touching but closing in fast (the hit just after the frame),
        # fast for the pair's kind (the ball's hits are the smaller changes)
        is_ball = (self.kind[i] == "ball") | (self.kind[j] == "ball")
        sharp = np.clip(
            _NOISE_K * np.hypot(noise_dv[i], noise_dv[j]),
            min(_BALL_MIN_DV_MM_S, self.min_dv_ball),
            self.min_dv_ball,
        )
        need = np.where(is_ball, sharp, self.min_dv_piece)
        approach = closing > need / 2.0
        tau = np.linspace(0.0, dt_b, _SUB + 1)[:, None, None]
        # Forward from frame k-1 at v_pre: the first time the gap closes.
        fi, fj = x1[i] + v_pre[i] * tau, x1[j] + v_pre[j] * tau
        g_pre = self._gap(i, j, fi, fj)
        # Backward from frame k at v_post: the last time the gap was closed.
        bi, bj = x2[i] - v_post[i] * tau, x2[j] - v_post[j] * tau
        g_post = self._gap(i, j, bi, bj)
        # A body at rest at frame k-1 was where it rested until it started, not further back
        # along its path (else a piece flicked away from a neighbour seems to come out of it):
        # the touch must hold on that path too.
        back = _rest_limit(x2 - x1, v_pre, v_post, dt_b)
        ri = x2[i] - v_post[i] * np.minimum(tau, back[i][:, None])
        rj = x2[j] - v_post[j] * np.minimum(tau, back[j][:, None])
        _, rested = _touch_time(self._gap(i, j, ri, rj), self.tol_mm, dt_b)
        t_pre, has_pre = _touch_time(g_pre, self.tol_mm, dt_b)
        touching = approach & (gap1 <= self.tol_mm)
        t_pre = np.where(touching, np.clip(gap1 / np.maximum(closing, 1e-9), 0.0, dt_b), t_pre)
        has_pre |= touching
        s_post, has_post = _touch_time(g_post, self.tol_mm, dt_b)
        has_post &= rested
        t_hit = np.where(
            has_pre & has_post,
            t1 + (t_pre + (dt_b - s_post)) / 2.0,
            np.where(has_pre, t1 + t_pre, t2 - s_post),
        )
        # The impulse: change of the relative velocity along the line of centres at the hit.
        frac = np.clip((t_hit - t1) / dt_b, 0.0, 1.0)[:, None]
        ci = x1[i] + frac * (x2[i] - x1[i])
        cj = x1[j] + frac * (x2[j] - x1[j])
        n = self._normals(i, j, ci, cj)
        # On the ball the impulse is along the line of centres, away from the piece: its own
        # change of velocity gives the line better than the places timed from the paths (a
        # piece grazing the ball at 2 m/s, its path a millimetre inside the touch, put the
        # first touch 20 degrees round from the hit, and the ball's 300 mm/s kick read as the
        # two still closing in: paulista's ten minutes, frame 11345)
        b_of = np.where(self.kind[j] == "ball", j, i)
        kick_v = v_post[b_of] - v_pre[b_of]
        kick_size = np.hypot(*kick_v.T)
        nb = np.where((self.kind[j] == "ball")[:, None], kick_v, -kick_v)
        nb /= np.maximum(kick_size, 1e-9)[:, None]
        # struck from rest: nothing else (and set going: a slow ball coming to rest beside a
        # piece has a 'kick' too, its own stop, along its way and not the line of centres)
        resting = (np.hypot(*v_pre[b_of].T) < _REST_MM_S) & (
            np.hypot(*v_post[b_of].T) > np.hypot(*v_pre[b_of].T)
        )
        along = is_ball & resting & (kick_size >= need) & ((nb * n).sum(1) > _KICK_AGREES)
        n = np.where(along[:, None], nb, n)
        u_pre = ((v_pre[j] - v_pre[i]) * n).sum(1)
        to_ball = np.where((self.kind[j] == "ball")[:, None], n, -n)  # the piece's push on it
        # A spoiled ball (above: struck from rest, hit again within the next frame) left its
        # rest at this hit and covered its step after it only: it went off that much faster
        # than its step over the whole frame (gaucha's ten minutes, seed 38, frame 5262: A8
        # at 1.2 m/s into the resting ball, which struck B11 half a frame later; its step read
        # as 577 mm/s, slower than A8 going on, the two 'still closing', the touch lost and
        # A8's hit on B10 called a foul)
        boost = 1.0 / np.maximum(1.0 - frac[:, 0], 0.25)
        up_i = np.where(((i == b_of) & spoiled[i])[:, None], boost[:, None], 1.0) * v_post[i]
        up_j = np.where(((j == b_of) & spoiled[j])[:, None], boost[:, None], 1.0) * v_post[j]
        u_post = ((up_j - up_i) * n).sum(1)
        dv = u_post - u_pre
        # The velocity change timed by each body's own path: moving at v_pre until the hit and
        # at v_post after, it covers x2 - x1 in the interval; weighted by the change's size.
        tau_v, w_v = _change_time(x2[i] - x1[i], v_pre[i], v_post[i], dt_b)
        tau_u, w_u = _change_time(x2[j] - x1[j], v_pre[j], v_post[j], dt_b)
        w = w_v + w_u
        tau = (tau_v * w_v + tau_u * w_u) / np.maximum(w, 1e-12)
        # A body at rest that starts moving was set going by this hit and nothing else: its own
        # start times it. The moving one's change may hold a second hit in the same interval
        # (a button through an opponent into the ball: timed by its change, the ball's touch
        # came first, 29 ms early, and the foul was lost)
        still_before = np.hypot(*v_pre.T) < _REST_MM_S
        rests = still_before & (np.hypot(*v_post.T) >= _REST_MM_S)
        own_i, own_j = rests[i] & ~rests[j], rests[j] & ~rests[i]
        tau = np.where(own_i, tau_v, np.where(own_j, tau_u, tau))
        t_geo = t_hit
        t_hit = np.where(w > self.min_dv**2, t1 + tau, t_hit)
        # ... but a spoiled one (struck from rest and hit again within the next frame: its
        # velocity after is its step over the frame) moved all the frame by that, from its
        # start: no time at all. The striker's way into it times the touch (mesa-posta's ten
        # minutes, seed 46, frame 11784: B11 through A7 into the resting ball, then A3 onto
        # the ball, all in one frame; the ball's touch put at the frame's start, before A7's
        # hit, and B11's foul lost)
        blind = (own_i & spoiled[i]) | (own_j & spoiled[j])
        t_hit = np.where(blind & has_pre, t_geo, t_hit)
        # a change at the very end of the interval is the next interval's hit
        late = (w > self.min_dv**2) & (tau > 0.95 * dt_b)
        # ... unless that interval cannot take it: touching at frame k and not closing in
        # over it, it sees no hit (brasileira's ten minutes, frame 12175: a button grazing the
        # kick-off ball late in the frame, the ball's start held back by the tracker's rest;
        # found three frames late, when the ball was called moving)
        gap2 = self._gap(i, j, x2[i], x2[j])
        n2 = self._normals(i, j, x2[i], x2[j])
        closing_next = -((left[j] - left[i]) * n2).sum(1)
        late &= ~((gap2 <= self.tol_mm) & (closing_next <= need / 2.0) & has_pre)
        # ... or both at rest, side by side, and both set going: a piece flicked into the
        # neighbour it rested against (gaucha's ten minutes, frame 1323: a foul; a piece
        # flicked away from its neighbour leaves it where it was)
        both_start = rests[i] & rests[j] & (gap1 <= self.tol_mm)
        # ... going on: neither steps back over the next frame (a hit sends the struck piece
        # on and slows its striker, turning neither back; a piece's fit thrown off for a
        # frame, a hand's shadow across it, steps out and back: gaucha's ten minutes, frame
        # 9207, A11 read 2.9 mm toward B2 as B2 was flicked away from it, a foul called)
        for q in (i, j):
            step, after = x2[q] - x1[q], x3[q] - x2[q]
            back = -(after * step).sum(1) / np.maximum(np.hypot(*step.T), 1e-9)
            both_start &= back <= _STEP_BACK_MM
        # ... and the slower of two set going together shows the hit by its own start: pushed
        # along the same way, their relative change understates it (gaucha's ten minutes, seed
        # 32, frame 17366: the ball kicked from rest into B5 beside it, B5 set going at 190
        # mm/s, their relative change 63 mm/s)
        slower = np.minimum(np.hypot(*v_post[i].T), np.hypot(*v_post[j].T))
        dv = np.where(both_start, np.maximum(dv, slower), dv)
        # ... or the ball rolled into a piece at rest and stopped there, touching it: too slow
        # for its change to show above the noise (a ball at 30-40 mm/s stopped dead by a
        # button, 25-35 g mm/s: five of the nine touches brasileira's ten minutes missed),
        # but a rolling ball does not stop dead a millimetre from a piece on its own
        # (rolling by the tracker over the two frames before: no noise on a resting one)
        b_now = np.where(self.kind[i] == "ball", i, j)
        p_now = np.where(self.kind[i] == "ball", j, i)
        rolling = (self._moving[0][b_now] & self._moving[1][b_now]) | creeping[b_now]
        piece_still = ~np.logical_or.reduce(self._moving)[p_now]
        stopped_against = (
            is_ball
            & rolling
            & piece_still
            & (closing >= _STOPPED_CLOSING_MM_S)
            & (np.hypot(*v_post[b_now].T) < _BALL_STILL_MM_S)  # (still while measured)
            & (gap2 <= _STOPPED_GAP_MM)
            & (gap1 > -_STOPPED_GAP_MM)  # (not against it a frame before, but for the fits)
        )
        # ... or a resting ball set creeping by a piece coming on into it: a button pushing it
        # at 30-50 mm/s changes it less than the bars read over one frame, but its own
        # fits show it leave, on one line away from the piece (brasileira's ten minutes,
        # frame 9726: B6 into the ball at 36 mm/s, the ball 4 mm on into B10; nacional, seed
        # 35, frame 4337)
        towards = (
            (x3[b_now] - x1[b_now]) * n1 * np.where(self.kind[j] == "ball", 1.0, -1.0)[:, None]
        ).sum(1)
        creep_start = (
            is_ball
            & starting[b_now]
            & ~piece_still
            & (closing >= _STOPPED_CLOSING_MM_S)
            & (towards >= _CREEP_COS * np.hypot(*(x3[b_now] - x1[b_now]).T))
            & (np.minimum(gap1, gap2) <= 2.0 * _STOPPED_GAP_MM)
        )
        # ... or the ball turned by a piece on the move, away from it and across its own way
        # (the felt slows it along it, nothing else turns it) by more than four times its own
        # noise: the piece's fits, a few tenths of a mm noisy (~19 mm/s over a frame), blur the
        # pair's change, not the ball's (mesa-posta's ten minutes, seed 42, frame 9255: B5
        # sliding at 45 mm/s turned the ball rolling at 115 mm/s by 28 degrees, a change of 64
        # mm/s, the pair's 76 against the 81 its noise asked; the throw-in given the wrong way)
        kb = v_post[b_now] - v_pre[b_now]
        way_b = v_pre[b_now]
        spd_b = np.hypot(*way_b.T)
        across = np.abs(way_b[:, 0] * kb[:, 1] - way_b[:, 1] * kb[:, 0]) / np.maximum(spd_b, 1e-9)
        need_b = np.clip(
            _NOISE_K * noise_dv[b_now],
            min(_BALL_MIN_DV_MM_S, self.min_dv_ball),
            self.min_dv_ball,
        )
        turned = (
            is_ball
            & ~piece_still
            & (spd_b >= _REST_MM_S)
            & ((kb * to_ball).sum(1) >= need_b)
            & (across >= need_b)
            & (dv > 0.0)
        )
        hit = ((gap1 > self.tol_mm) | approach | both_start) & ((dv > need) | turned) & fast
        hit |= stopped_against
        hit |= creep_start
        # ... or a button at rest beside the moving ball pushed on by it: set creeping away from
        # it along their line and going on so, a millimetre a frame at least (ten times its
        # fits' noise at rest); the ball's change, squeezed past it, under its bar (brasileira's
        # ten minutes, seed 49, frame 231: the ball between B7 coming on and B11 at rest 2 mm
        # off; B11 pushed 2.4 mm, then 2.7, its touch lost)
        from_ball = n1 * np.where(self.kind[i] == "ball", 1.0, -1.0)[:, None]
        p_step, p_on = x2[p_now] - x1[p_now], x3[p_now] - x1[p_now]
        s_step, s_on = np.hypot(*p_step.T), np.hypot(*p_on.T)
        pushed = (
            is_ball
            & (self.kind[p_now] == "button")
            & ~self._moving[0][p_now]  # (at rest: not a piece sliding on slowly beside it)
            & ~self._moving[1][p_now]
            & (np.hypot(*(x1[p_now] - x0[p_now]).T) < 0.5 * _PUSHED_MM)
            & ~still[b_now]
            & (s_step >= _PUSHED_MM)
            & (s_on >= s_step)
            & ((p_step * from_ball).sum(1) >= _CREEP_COS * s_step)
            & ((p_on * from_ball).sum(1) >= _CREEP_COS * s_on)
            & (np.minimum(gap1, gap2) <= self.tol_mm)
        )
        hit |= pushed
        # (timed by the ball's own start: it covered its step in the interval at the speed
        # it kept over the next)
        sb = np.hypot(*(x2[b_now] - x1[b_now]).T)
        sc = np.hypot(*(x3[b_now] - x2[b_now]).T)
        t_creep = t2 - np.clip(sb / np.maximum(sc, 1e-9) * dt_b / dt_c, 0.0, 1.0) * dt_b
        t_hit = np.where(creep_start, t_creep, t_hit)
        # A ball stopped dead by a resting piece was struck full on: glancing off it, it keeps
        # its way along it (to stop it the contact's friction must take its speed across the
        # line of centres, at most some 1.7 times its speed along it: within 60 degrees). Its
        # way since its last hit, not its last step: a stopping ball's last millimetre is its
        # fits' noise as much as its motion (gaucha's ten minutes, seed 32, frame 13499: a
        # ball rolling by a button at 65 degrees stopped 0.8 mm off it, its last step read
        # head on, its change along the line of centres 61 mm/s; 17341, alike, is still read
        # as a touch: a fit 0.9 mm off the frame after the stop reads as a bounce). The line of
        # centres where it stopped: a frame before, it was a step back on its way.
        stops = is_ball & piece_still & (np.hypot(*v_post[b_now].T) < _BALL_STILL_MM_S)
        for m in np.flatnonzero(hit & stops):
            way = self._way(int(b_now[m]))
            if way is not None:
                into = float(way @ n2[m]) * (1.0 if self.kind[i[m]] == "ball" else -1.0)
                hit[m] = into >= _HEAD_ON * float(np.hypot(*way))
        hit &= (
            has_pre | has_post | both_start | creep_start | pushed
        )  # (touching all along: none closes)
        # (its stop, or its slow start, is this interval's: nothing follows)
        hit &= ~late | stopped_against | creep_start | pushed
        # after a hit the bodies part (restitution >= 0): still closing, they meet later;
        # unless the ball is touching a third piece by then, whose hit its velocity after
        # holds too (nacional's ten minutes, seed 35, frame 14704: B5 kicked the ball into B11
        # and met it again within the frame; the ball's way after, B5's, still led toward
        # B11, and B11's touch was lost)
        closing_on = np.flatnonzero(hit & (u_post <= -self.min_dv / 3.0))
        hit[closing_on] = self._crowded(i[closing_on], j[closing_on], x2)
        # (a spoiled ball's next frame is its next hit's: they parted within this one)
        closer = self._gap(i, j, x3[i], x3[j]) - gap2 <= -2.0
        hit &= ~closer | (spoiled[i] | spoiled[j])
        # a hit on the ball changes the ball's own velocity (it is far the lighter): a piece
        # coming to rest beside a ball that stays where it was did not touch it
        ball = np.where(self.kind[i] == "ball", i, np.where(self.kind[j] == "ball", j, -1))
        kick = np.hypot(*(v_post[ball] - v_pre[ball]).T)
        hit &= (ball < 0) | (kick >= need / 2.0) | stopped_against | creep_start | pushed
        # ... and a button struck from rest is set going (the impulse's share it takes is the
        # striker's mass over both: a quarter for a piece three times as heavy, or pressed
        # against two more): a piece set down beside a resting one by its coach's hand, a
        # carried piece stopped dead, touched nothing (gaucha's ten minutes, frame 8546: a
        # foul for a piece carried to a throw-in 6 mm short of an opponent that never moved).
        # Not a goalkeeper: its coach holds it (000 Art. 3), and a hit leaves it where it was
        # So is one beside a piece set going from rest too: a flick away from a button 5 mm
        # off, its start traced back at its speed past its place, reads as a touch of it
        # (gaucha's ten minutes, seed 31, frame 13631 of the twenty-ninth stop's render: B4
        # flicked away from A8, which never moved: a foul called)
        button = self.kind == "button"
        rest_i = still_before[i] & (~still_before[j] | (rests[j] & ~rests[i])) & button[i]
        rest_j = still_before[j] & (~still_before[i] | (rests[i] & ~rests[j])) & button[j]
        struck = np.where(rest_i, i, np.where(rest_j, j, -1))
        # (over two frames, k-1 to k+1: a frame's velocity is the noisier)
        set_going = np.hypot(*(x3[struck] - x1[struck]).T) >= self.min_dv / 4.0 * dt_c
        hit &= (struck < 0) | is_ball | set_going  # (the ball into a button: the ball turns)
        frame = self._frames[2]
        # one collision seen in consecutive intervals is one hit; but a hit of either body with
        # a third since (the ball off a goalkeeper back onto the button) is a new one
        last = self._last_hit[k]
        again = (self._body_hit[i] > last) | (self._body_hit[j] > last)
        hit &= (frame - last > self.refractory) | again
        # A piece struck by another in the interval, beside the ball, whose own change points
        # toward that piece: the pair's change was the piece's, from the other's hit; a touch
        # would have sent the ball away from it along the line of centres (paulista's ten
        # minutes, seed 39, frame 3005: A11 struck the ball and then B10, resting 5 mm from
        # it; B10, knocked away as the ball went on 0.2 mm off its edge, read as touching it).
        # Not a piece the ball set going: a ball kicked into a piece beside it changes by the
        # kick. The hit on it found in this interval or the one before (its change spans both).
        # Nor one whose touch changed the ball along their line of centres by less than a
        # hit's least change: the ball, far the lighter, changes most, and along that line
        # (paulista's ten minutes, seed 39, frame 3005 again, once a ball struck in the
        # interval before was read at its speed after the hit: its change there was B10's own,
        # 52 mm/s of the ball's; seed 33, frame 275: the ball's change was its slowing on the
        # felt, 168 mm/s along its way, 34 along the line to A9).
        knocked = np.zeros(self.n, dtype=bool)
        knocked[i[hit & ~is_ball]] = knocked[j[hit & ~is_ball]] = True
        pp = (self.kind[self.pi] != "ball") & (self.kind[self.pj] != "ball")
        pp &= self._last_hit >= frame - 1
        knocked[self.pi[pp]] = knocked[self.pj[pp]] = True
        away = kick_size * (nb * n).sum(1) >= need  # the ball's change along the line, away
        hit &= ~(is_ball & knocked[p_now] & ~away)
        near = has_pre | has_post | (np.minimum(gap1, gap2) <= self.tol_mm)
        hit |= self._second_touch(hit, is_ball, b_now, near, to_ball, v_pre, v_post, need)
        out: list[TrackContact] = []
        # a ball set going together with a piece beside it: what set either going is not
        # that hit (the ball's striker is still looked for, :meth:`_ball_hits`)
        joint = hit & both_start & is_ball
        self._joint_balls = {str(self.ids[q]) for q in np.concatenate([i[joint], j[joint]])}
        # Of two pieces both at rest before the hit by their tracks, one whose rest was a
        # guess (unseen on the frame before: under a hand, or lost in its blur) was the one
        # going (brasileira's ten minutes, seed 43, frame 15244: A5, flicked from under its
        # coach's hand through the ball into B9, its track held where it rested; B9, seen
        # resting, named the striker, its start read as B's lance and a foul called on it)
        guess_rest = ~self._seen[1] & (np.hypot(*v_pre.T) < _REST_MM_S)
        for m in np.flatnonzero(hit):
            a, b = int(i[m]), int(j[m])
            if self.kind[a] == "ball" or (
                self.kind[b] != "ball" and np.hypot(*v_pre[b]) > np.hypot(*v_pre[a])
            ):
                a, b = b, a
            if (
                self.kind[b] != "ball"
                and guess_rest[b]
                and not guess_rest[a]
                and np.hypot(*v_pre[a]) < _REST_MM_S
            ):
                a, b = b, a
            kind = "piece-ball" if self.kind[b] == "ball" else "piece-piece"
            out.append(
                TrackContact(
                    float(t_hit[m]), str(self.ids[a]), str(self.ids[b]), kind, frame, float(dv[m])
                )
            )
            self._last_hit[k[m]] = frame
            if kind == "piece-ball" and still_before[b]:
                self._start_frame[b], self._start_t[b] = frame, float(t_hit[m])
        self._body_hit[i[hit]] = frame
        self._body_hit[j[hit]] = frame
        # a piece's hit on a resting ball did not set the piece going
        ball_i, ball_j = self.kind[i] == "ball", self.kind[j] == "ball"
        self._struck[i[hit & ~(ball_j & still_before[j] & ~still_before[i]) & ~gone[i]]] = frame
        self._struck[j[hit & ~(ball_i & still_before[i] & ~still_before[j]) & ~gone[j]]] = frame
        out.sort(key=lambda c: c.t)
        return out
