"""A sliding button's graze on a resting one that stays where it was.

A button grazing a resting opponent may not move it at all (the felt's grip holds it against
a glancing push): on a rendered nacional match, 14 of 97 hits between pieces left the struck
piece where it was, one of them a foul (000 REGRA 12 FALTA: the flicked piece touched an
opponent before the ball). The contact finder reads a hit from both bodies' changes over a
frame either side and asks a struck button to be set going; here the only trace is the
striker's own path, which turns away from the piece it touched, by a few degrees to twenty.
Over one frame its direction is a few degrees noisy, so the path is read as two straight runs
of three frames or more, either side of the turn (the call comes once three frames after the
touch are in: two or three frames after the touch's frame, where the contact finder's hits
come one frame after).

A graze of button ``p`` on button ``q``, over a window of frames, when

- both are seen on every frame; ``q`` stays within ``_REST_MM`` of one place, ``p`` moves at
  least ``_STEP_MM`` every frame (steady: not a start from rest beside ``q``);
- ``p``'s path splits best (least misfit of two runs at steady velocities) into runs that
  turn by at least ``min_turn_rad`` and ``k_sigma`` times the turn's noise (from the fits'
  ``sigma_mm``); the runs' crossing, the touch, is reached within half a frame of the split's
  interval (a split forced across a turn it does not hold crosses elsewhere);
- ``q``'s edge is within ``gap_mm`` of ``p``'s at the crossing (fits and sizes), on the side
  the path turned away from, and ``q`` the only resting button that near ``p`` in the window;
- no third body comes within ``_CROWD_MM`` of ``p`` over the window (whose hit the turn
  could be).

A window reads a graze while it holds the turn; the caller keeps the first reading.

The ball rolling past a resting button turns off it the same way (:func:`find_ball_grazes`),
by 4 to 40 degrees, its change 15-85 mm/s. Its fits are sharper (0.1 mm) and its way straight
between hits, but it slows on the felt (4-8% of its speed a frame), so its runs are read as
lines in space, not paces in time: the split is where both runs are straightest, and the touch
is timed between the last place before the turn and the first after it, by where their
lines cross. It may be lost for a frame or two beside the button: those frames' places are
guesses, left out. A resting goalkeeper turns it the same way (its box's edge, not a bounding
circle, is the one measured: gaucha seed 38's frame 9718, a ball at 55 mm/s turned 90 degrees
off a goalkeeper's face, a change of 77 mm/s the contact finder asks 100 of).

>>> import numpy as np
>>> t = np.arange(8) / 30.0
>>> k = np.arange(8)[:, None] - 3.5  # the touch half way between frames 3 and 4
>>> way_in, way_out = np.array([0.0, 4.0]), 4.0 * np.array([-np.sin(0.35), np.cos(0.35)])
>>> p = np.where(k < 0, k * way_in, k * way_out)  # turned 20 degrees, away from q
>>> q = np.tile([61.0, 0.0], (8, 1))
>>> xy = np.stack([p, q], axis=1)
>>> ok = np.ones((8, 2), bool)
>>> g = find_grazes(t, xy, ok, np.full((8, 2), 0.3), np.array([30.0, 30.0]), ok[0])
>>> [(int(a), int(b), round(t * 30.0, 2), k) for a, b, t, _, k in g]
[(0, 1, 3.5, 4)]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["find_ball_grazes", "find_grazes"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

_REST_MM = 1.0  # a resting piece's fits stay this near their mean (noise, a hand's shadow)
# ... or, grazed, it was nudged on less than this, within 45 degrees of the line of centres
_NUDGE_MM, _NUDGE_COS = 4.0, 0.7
_STEP_MM = 1.0  # a sliding piece covers at least this a frame (30 mm/s), the window through
_RUN = 3  # frames in each straight run, at least
_WAY_MM = 3.0  # each run at least this long (ten times a fit's noise)
_CROWD_MM = 5.0  # a third body's edge this near the striker: the turn may be its hit
_SIGMA_FLOOR_MM = 0.2  # a fit's noise is never taken under this
# the ball's: steps of at least this a frame (five times its fits' noise, as a creeping ball's
# in vision/contacts.py), its fits never taken sharper than this, frames it may go unseen
_BALL_STEP_MM, _BALL_SIGMA_FLOOR_MM, _BALL_UNSEEN = 0.5, 0.1, 2
_BALL_SLACK_MM = 1.5  # where the ball's runs cross may lie this far beyond their ends
_BALL_RESID_K = 3.0  # the ball's noise is taken no larger than this times its runs' scatter


def find_grazes(
    t_s: FloatArray,
    xy_mm: FloatArray,
    seen: BoolArray,
    sigma_mm: FloatArray,
    r_mm: FloatArray,
    button: BoolArray,
    gap_mm: float = 3.0,
    min_turn_rad: float = np.radians(8.0),
    k_sigma: float = 4.0,
) -> list[tuple[int, int, float, float, int]]:
    """Grazes ``(p, q, t, dv, k)`` (striker, struck, time, the striker's change of velocity in
    mm/s, the window's first frame after the touch) in a window of frames.

    Parameters
    ----------
    t_s : (W,) the window's times, ``W >= 2 * _RUN``.
    xy_mm, seen, sigma_mm : (W, N, 2), (W, N), (W, N) positions, measured on that frame,
        and their noise.
    r_mm : (N,) outer radii (a goalkeeper's bounding circle: only counted as a third body).
    button : (N,) which bodies can graze or be grazed.
    """
    w = len(t_s)
    if w < 2 * _RUN or xy_mm.shape[:2] != (w, len(r_mm)):
        raise ValueError(
            f"find_grazes: expected {2 * _RUN} frames or more of {len(r_mm)} bodies, "
            f"got t {t_s.shape}, xy {xy_mm.shape}"
        )
    ok = seen.all(axis=0)
    steps = np.hypot(*np.diff(xy_mm, axis=0).transpose(2, 0, 1)).min(axis=0)
    qs = _resting(xy_mm, seen, button, _NUDGE_MM)
    dt = float(np.median(np.diff(t_s)))
    out: list[tuple[int, int, float, float, int]] = []
    for p in np.flatnonzero(ok & button & (steps >= _STEP_MM)):
        path = xy_mm[:, p]
        qm = _the_resting_one(xy_mm, qs, int(p), r_mm, gap_mm)
        if qm is None:
            continue
        # the ways in and out, straight at a steady pace either side of the turn: split where
        # two such runs (three frames or more each) fit best
        fits = [_runs(t_s, path, j) for j in range(_RUN - 1, w - _RUN)]
        j = _RUN - 1 + int(np.argmin([f[0] for f in fits]))
        _, (v_in, c_in), (v_out, c_out) = fits[j - _RUN + 1]
        l_in = float(np.hypot(*v_in)) * float(t_s[j] - t_s[0])
        l_out = float(np.hypot(*v_out)) * float(t_s[-1] - t_s[j + 1])
        if min(l_in, l_out) < _WAY_MM:
            continue
        turn = float(np.arctan2(v_in[0] * v_out[1] - v_in[1] * v_out[0], v_in @ v_out))
        s = max(float(sigma_mm[:, p].max()), _SIGMA_FLOOR_MM)
        noise = np.sqrt(2.0) * s * np.hypot(1.0 / l_in, 1.0 / l_out)
        if abs(turn) < max(min_turn_rad, k_sigma * noise):
            continue
        # the runs' crossing, and when the way in reached it: the touch
        t_mid_in = float(t_s[: j + 1].mean())
        at_in = c_in + v_in * t_mid_in
        at_out = c_out + v_out * float(t_s[j + 1 :].mean())
        m = np.column_stack([v_in, -v_out])
        s_in, _ = np.linalg.solve(m, at_out - at_in)
        vertex = at_in + s_in * v_in
        t_hit = t_mid_in + float(s_in)
        if not t_s[j] - 0.5 * dt <= t_hit < t_s[j + 1] + 0.5 * dt:
            continue
        rel = xy_mm[:, qm].mean(axis=0) - vertex
        side = np.sign(v_in[0] * rel[1] - v_in[1] * rel[0])  # q left (+) or right of the way
        if np.hypot(*rel) - r_mm[p] - r_mm[qm] > gap_mm or np.sign(turn) != -side:
            continue
        if not _nudged_or_still(xy_mm[:, qm], j, rel):
            continue
        if _crowded(xy_mm, r_mm, int(p), qm):
            continue
        k = int(np.clip(np.searchsorted(t_s, t_hit), 1, len(t_s) - 1))  # the frame after it
        out.append((int(p), qm, t_hit, float(np.hypot(*(v_out - v_in))), k))
    return out


def _resting(
    xy_mm: FloatArray, seen: BoolArray, button: BoolArray, rest_mm: float = _REST_MM
) -> NDArray[np.intp]:
    """The buttons seen on every frame of the window within ``rest_mm`` of one place."""
    spread = np.hypot(*(xy_mm - xy_mm.mean(axis=0)).transpose(2, 0, 1)).max(axis=0)
    return np.flatnonzero(seen.all(axis=0) & button & (spread < rest_mm))


def _nudged_or_still(q_xy: FloatArray, j: int, away: FloatArray) -> bool:
    """Whether a grazed button's places ``q_xy`` (W, 2) stayed within ``_REST_MM`` of one
    place, or stayed so up to the touch (frames ``<= j``) and then were nudged a few mm
    along ``away`` (from the touch toward its centre), not elsewhere: a graze may push the
    struck piece on by a step or two before the felt holds it (nacional's ten minutes, seed
    45, frame 9875: B5 sliding at 80 mm/s grazed A2, which went 2.3 mm on; a foul)."""
    spread = np.hypot(*(q_xy - q_xy.mean(axis=0)).T).max()
    if spread < _REST_MM:
        return True
    before = q_xy[: j + 1]
    if np.hypot(*(before - before.mean(axis=0)).T).max() >= _REST_MM:
        return False
    moved = q_xy[-1] - before.mean(axis=0)
    size = float(np.hypot(*moved))
    u = away / max(float(np.hypot(*away)), 1e-9)
    return size < _NUDGE_MM and float(moved @ u) >= _NUDGE_COS * size


def _the_resting_one(
    xy_mm: FloatArray,
    resting: NDArray[np.intp],
    p: int,
    r_mm: FloatArray,
    gap_mm: float,
    boxes: tuple[FloatArray, FloatArray] | None = None,
) -> int | None:
    """The one resting body whose edge ``p`` passes within ``gap_mm`` of; None when none
    does, or two (it could have turned off either)."""
    q = resting[resting != p]
    near = (np.hypot(*(xy_mm[:, q] - xy_mm[:, p][:, None]).transpose(2, 0, 1)) - r_mm[q]).min(
        axis=0
    )
    if boxes is not None:  # a goalkeeper's box: to its edge (at most two)
        for m in np.flatnonzero(~np.isnan(boxes[0][q, 0])):
            near[m] = _edge(xy_mm[:, p], xy_mm[:, q[m]], r_mm[q[m]], int(q[m]), boxes)[0].min()
    q = q[near <= r_mm[p] + gap_mm]
    return int(q[0]) if len(q) == 1 else None


def _edge(
    at: FloatArray,
    centre: FloatArray,
    r_mm: float,
    b: int,
    boxes: tuple[FloatArray, FloatArray] | None,
) -> tuple[FloatArray, FloatArray]:
    """Body ``b``'s edge seen from points ``at`` (K, 2), its centre at ``centre`` (K, 2): the
    distances (K,) from each point to it (negative inside) and its nearest points (K, 2) (a
    disc's centre; a box's edge, or the point itself inside it)."""
    if boxes is None or np.isnan(boxes[0][b, 0]):
        return np.hypot(*(at - centre).T) - r_mm, centre
    (length, width), ang = boxes[0][b], float(boxes[1][b])
    c, s = np.cos(ang), np.sin(ang)
    rel = at - centre
    lx, ly = rel[:, 0] * c + rel[:, 1] * s, -rel[:, 0] * s + rel[:, 1] * c
    nx, ny = np.clip(lx, -length / 2.0, length / 2.0), np.clip(ly, -width / 2.0, width / 2.0)
    out = np.hypot(lx - nx, ly - ny)
    inside = np.minimum(length / 2.0 - np.abs(lx), width / 2.0 - np.abs(ly))
    near = centre + np.column_stack([c * nx - s * ny, s * nx + c * ny])
    return np.where(out > 0.0, out, -inside), near


def _crowded(xy_mm: FloatArray, r_mm: FloatArray, p: int, q: int) -> bool:
    """Whether a third body's edge comes within ``_CROWD_MM`` of ``p``'s over the window (the
    turn may be its hit)."""
    gaps = np.hypot(*(xy_mm - xy_mm[:, p][:, None]).transpose(2, 0, 1)) - r_mm - r_mm[p]
    gaps[:, [p, q]] = np.inf
    return bool((gaps <= _CROWD_MM).any())


def _runs(
    t_s: FloatArray, path: FloatArray, j: int
) -> tuple[float, tuple[FloatArray, FloatArray], tuple[FloatArray, FloatArray]]:
    """A path (W, 2) as two runs at steady velocities, frames ``[0, j]`` and ``[j + 1, W)``:
    the squared misfit, and each run's (velocity, place at t = 0)."""
    misfit, fits = 0.0, []
    for sl in (slice(0, j + 1), slice(j + 1, None)):
        (v, c), res, *_ = np.polyfit(t_s[sl], path[sl], 1, full=True)
        misfit += float(np.sum(res))
        fits.append((v, c))
    return misfit, fits[0], fits[1]


def find_ball_grazes(
    t_s: FloatArray,
    xy_mm: FloatArray,
    seen: BoolArray,
    sigma_mm: FloatArray,
    r_mm: FloatArray,
    button: BoolArray,
    ball: int,
    gap_mm: float = 3.0,
    min_turn_rad: float = np.radians(3.0),
    k_sigma: float = 4.0,
    boxes: tuple[FloatArray, FloatArray] | None = None,
) -> list[tuple[int, float, float, int]]:
    """The ball ``ball`` turned off a resting button (or goalkeeper, given ``boxes``):
    ``(q, t, dv, k)`` (the piece, the touch's time, the ball's change of velocity in mm/s, the
    window's first frame after the touch), read once four seen frames after it are in.

    The gates are :func:`find_grazes`'s, the ball the striker, but for the runs (lines in
    space, split where they are straightest; the way out seen on four frames or more, so that
    a split one frame later was possible: a window that holds a small turn's first frames
    only forces a split at its end, early), the ball's frames unseen (up to two, left out),
    and the touch's time (between the runs' facing ends, where their lines cross).

    Parameters are :func:`find_grazes`'s; ``button`` marks the bodies that can be grazed;
    ``boxes``, optional, gives the goalkeepers' boxes, ``(N, 2)`` (length, width) in mm, NaN
    for a disc, and ``(N,)`` angles in radians: a box's gaps are measured to its edge (its
    ``r_mm`` is then its bounding circle, used only for a third body).

    >>> t = np.arange(10) / 30.0
    >>> k = np.arange(10)[:, None] - 4.5  # the touch half way between frames 4 and 5
    >>> way_out = 3.0 * np.array([-np.sin(0.1), np.cos(0.1)])  # turned 6 degrees
    >>> b = np.where(k < 0, k * np.array([0.0, 3.0]), k * way_out)
    >>> q = np.tile([30.5, 0.0], (10, 1))
    >>> xy = np.stack([b, q], axis=1)
    >>> ok = np.ones((10, 2), bool)
    >>> g = find_ball_grazes(t, xy, ok, np.full((10, 2), 0.1), np.array([5.0, 25.0]),
    ...                      np.array([False, True]), 0)
    >>> [(int(q), round(t * 30.0, 1), k) for q, t, _, k in g]
    [(1, 4.5, 5)]
    """
    w = len(t_s)
    if w < 2 * _RUN + 1 or xy_mm.shape[:2] != (w, len(r_mm)):
        raise ValueError(
            f"find_ball_grazes: expected {2 * _RUN + 1} frames or more of {len(r_mm)} bodies, "
            f"got t {t_s.shape}, xy {xy_mm.shape}"
        )
    on = seen[:, ball]
    path = xy_mm[:, ball]
    if on.sum() < max(w - _BALL_UNSEEN, 2 * _RUN + 1) or not on[0] or not on[-1]:
        return []
    if np.hypot(*np.diff(path, axis=0).T).min() < _BALL_STEP_MM:
        return []
    qm = _the_resting_one(xy_mm, _resting(xy_mm, seen, button), ball, r_mm, gap_mm, boxes)
    if qm is None:
        return []
    ts, pts = t_s[on], path[on]
    n = len(ts)
    # the split: the way in is pts[: i], the way out pts[i :], both _RUN long or more and
    # each seen on every frame (frames lost, at the touch, lie between them)
    fr = np.flatnonzero(on)
    splits = [
        i
        for i in range(_RUN, n - _RUN + 1)
        if fr[i - 1] - fr[0] == i - 1 and fr[-1] - fr[i] == n - i - 1
    ]
    if not splits:
        return []
    lines = [(_line(pts[:i]), _line(pts[i:])) for i in splits]
    best = int(np.argmin([a[2] + b[2] for a, b in lines]))
    i = splits[best]
    if n - i < _RUN + 1:
        return []  # the way out not yet confirmed (read again a frame later)
    (c_in, u_in, _), (c_out, u_out, _) = lines[best]
    l_in = float((pts[i - 1] - pts[0]) @ u_in)
    l_out = float((pts[-1] - pts[i]) @ u_out)
    if min(l_in, l_out) < _WAY_MM:
        return []
    turn = float(np.arctan2(u_in[0] * u_out[1] - u_in[1] * u_out[0], u_in @ u_out))
    # the fits' noise: their sigma, but never more than _BALL_RESID_K times the runs' own
    # scatter off their lines (a ball beside a goalkeeper's box is given a sigma of half its
    # distance from the box, the box's pose being what its fit depends on: 3 mm at 6 mm off,
    # a bias shared by the frames, not a scatter between them; gaucha seed 38's frame 9718)
    scatter = np.sqrt((lines[best][0][2] + lines[best][1][2]) / max(n - 4, 1))
    s = max(min(float(sigma_mm[on, ball].max()), _BALL_RESID_K * scatter), _BALL_SIGMA_FLOOR_MM)
    noise = np.sqrt(2.0) * s * np.hypot(1.0 / l_in, 1.0 / l_out)
    if abs(turn) < max(min_turn_rad, k_sigma * noise):
        return []
    # where the lines cross, between the last place on the way in and the first on the way
    # out, within half a step or _BALL_SLACK_MM (a slow ball's runs are a few mm long: their
    # directions are a few degrees noisy, and a small turn's crossing moves along the way by
    # much more)
    m = np.column_stack([u_in, -u_out])
    a_in, _ = np.linalg.solve(m, c_out - c_in)
    vertex = c_in + a_in * u_in
    d_in, d_out = float((vertex - pts[i - 1]) @ u_in), float((pts[i] - vertex) @ u_out)
    step = float(np.hypot(*(pts[i] - pts[i - 1])))
    if min(d_in, d_out) < -max(0.5 * step, _BALL_SLACK_MM):
        return []
    share = float(np.clip(d_in / max(d_in + d_out, 1e-9), 0.0, 1.0))
    t_hit = float(ts[i - 1] + share * (ts[i] - ts[i - 1]))
    # q's nearest point (a disc's centre, a box's edge) left (+) or right of the way
    gap, near = _edge(vertex[None], xy_mm[:, qm].mean(axis=0)[None], r_mm[qm], qm, boxes)
    rel = near[0] - vertex
    side = np.sign(u_in[0] * rel[1] - u_in[1] * rel[0])
    if float(gap[0]) - r_mm[ball] > gap_mm or np.sign(turn) != -side:
        return []
    if _crowded(xy_mm, r_mm, ball, qm):
        return []
    # its speeds next to the touch: the steps either side of it
    v_in = u_in * float(np.hypot(*(pts[i - 1] - pts[i - 2]))) / float(ts[i - 1] - ts[i - 2])
    v_out = u_out * float(np.hypot(*(pts[i + 1] - pts[i]))) / float(ts[i + 1] - ts[i])
    k = int(np.clip(np.searchsorted(t_s, t_hit), 1, w - 1))  # the frame after it
    return [(qm, t_hit, float(np.hypot(*(v_out - v_in))), k)]


def _line(pts: FloatArray) -> tuple[FloatArray, FloatArray, float]:
    """The straight line through places (n, 2) in order: a point on it, its unit direction
    (from the first place toward the last) and the squared distances of the places off it."""
    c = pts.mean(axis=0)
    _, sv, vt = np.linalg.svd(pts - c, full_matrices=False)
    u = vt[0] if (pts[-1] - pts[0]) @ vt[0] >= 0 else -vt[0]
    return c, u, float(sv[1] ** 2) if len(sv) > 1 else 0.0
