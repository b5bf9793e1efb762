"""The goal-line call: how far the ball was wholly across a line, how sure, and the decision.

FIFA's goal-line technology decides whether the whole ball crossed the whole line; so do the
rule texts ("ultrapassar inteiramente a linha de fundo, por dentro da baliza", 000 REGRA 10).
A call is made from the ball's fitted positions (:class:`BallTrack`: sub-pixel silhouette fits,
each with its 1-sigma) around a moment:

- **at rest**: a run of frames where the ball does not move (a shot stopped against a block,
  the goalkeeper, the net) is measured by the median of its positions; its uncertainty is the
  median per-frame sigma (the frames share their pixels and the camera's error, so averaging
  them would claim more than they know), with the camera's own error added;
- **in motion**: the ball crossed between two frames. Each run of moving frames is fitted with
  a quadratic in time per coordinate (a rolling ball slows), split where its motion toward the
  line reverses (a bounce off the net or a post: the incoming and outgoing paths are fitted
  apart and meet at the turn), and the margin is taken along the fitted path between the
  frames; its uncertainty comes from the per-frame sigmas through the fit.

The decision (:func:`decide`): ``GOAL`` when the largest margin reached is positive by more
than twice its sigma, ``NO_GOAL`` when negative by more, ``TOO_CLOSE`` in between; a ball
whose footprint is not wholly between the posts (inner faces) at that moment is ``NO_GOAL``
whatever the line says (INTERFACES.md, "Goal-line call"). The moment is the one when the ball
was furthest wholly across the line *and* between the posts (the smaller of the two margins:
a shot may run on inside the net to beside a post's line); of the moments when both surely
were (over twice sigma), the one furthest across. Touchlines are called the same way
(``NO_GOAL`` / ``GOAL`` read as "in" / "out" there: :data:`OUT_WORDS`).

Lines are measured to their outer edges (INTERFACES.md: a line belongs to the region it
bounds): ``margin_mm = s * x - r - half_length`` for a goal line, ``s * y - r - half_width``
for a touchline.

Examples
--------
>>> decide(0.9, 0.2, True), decide(0.3, 0.2, True), decide(-0.9, 0.2, True)
('GOAL', 'TOO_CLOSE', 'NO_GOAL')
>>> decide(3.0, 0.2, False)
'NO_GOAL'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from geometry.field import FieldModel

__all__ = [
    "LINES",
    "OUT_WORDS",
    "BallTrack",
    "Call",
    "CallError",
    "call_line",
    "decide",
    "line_margins",
    "nearest_line",
]

FloatArray = NDArray[np.float64]
LINES = ("goal_left", "goal_right", "touch_near", "touch_far")
OUT_WORDS = {"GOAL": "OUT", "NO_GOAL": "IN", "TOO_CLOSE": "TOO_CLOSE"}
REST_MM_S = 15.0  # slower than this is at rest (0.5 mm a frame; :func:`at_rest`)
MIN_REST_FRAMES = 2  # two sightings that agree: a ball slower than 0.5 mm a frame


class CallError(ValueError):
    """No call can be made (no ball near the moment, a line that makes no sense)."""


@dataclass(frozen=True)
class BallTrack:
    """The ball's fitted positions over consecutive frames (columns, one row a frame).

    ``xy_mm`` (K, 2) footprint centres, NaN where the ball was not found; ``sigma_mm`` (K,)
    their 1-sigma; ``sigma_axes_mm`` (K, 2) the 1-sigma along the table's x and y axes (a
    goal line's normal, a touchline's), each at most ``sigma_mm``: a ball beside a goalkeeper
    is unsure mostly toward the box (:func:`vision.detect.ball_sigma_axes_mm`). By default
    ``sigma_mm`` on both axes.
    """

    frame: NDArray[np.int64]
    t: FloatArray
    xy_mm: FloatArray
    sigma_mm: FloatArray
    sigma_axes_mm: FloatArray | None = None

    def __post_init__(self) -> None:
        k = len(self.frame)
        if self.sigma_axes_mm is None:
            sig = np.asarray(self.sigma_mm, float)
            object.__setattr__(self, "sigma_axes_mm", np.column_stack([sig, sig]).reshape(-1, 2))
        for name, shape in (
            ("t", (k,)),
            ("xy_mm", (k, 2)),
            ("sigma_mm", (k,)),
            ("sigma_axes_mm", (k, 2)),
        ):
            arr = np.asarray(getattr(self, name), float)
            if arr.shape != shape:
                raise ValueError(f"BallTrack.{name}: expected shape {shape}, got {arr.shape}")
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "frame", np.asarray(self.frame, np.int64))

    def __len__(self) -> int:
        return len(self.frame)

    @property
    def found(self) -> NDArray[np.bool_]:
        return np.asarray(np.isfinite(self.xy_mm).all(axis=1))


@dataclass(frozen=True)
class Call:
    """A line call (``call/1``, INTERFACES.md)."""

    decision: str
    line: str
    t: float
    frame: int
    margin_mm: float
    sigma_mm: float
    ball_xy_mm: tuple[float, float]
    moving: bool
    posts_margin_mm: float | None = None
    frames_used: tuple[int, ...] = ()
    how: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "call/1",
            "decision": self.decision,
            "line": self.line,
            "t": round(self.t, 4),
            "frame": self.frame,
            "margin_mm": round(self.margin_mm, 3),
            "sigma_mm": round(self.sigma_mm, 3),
            "ball": [round(self.ball_xy_mm[0], 2), round(self.ball_xy_mm[1], 2)],
            "moving": self.moving,
            "posts_margin_mm": None
            if self.posts_margin_mm is None
            else round(self.posts_margin_mm, 3),
            "frames_used": list(self.frames_used),
            "how": self.how,
        }


def decide(margin_mm: float, sigma_mm: float, between_posts: bool = True) -> str:
    """``GOAL`` / ``NO_GOAL`` / ``TOO_CLOSE`` (|margin| < 2 sigma); ``NO_GOAL`` outside the
    posts."""
    if not between_posts:
        return "NO_GOAL"
    if abs(margin_mm) < 2.0 * sigma_mm:
        return "TOO_CLOSE"
    return "GOAL" if margin_mm > 0 else "NO_GOAL"


def _decision(margin: float, sigma: float, posts: float | None) -> str:
    """:func:`decide` with the posts' margin read with the same uncertainty."""
    if margin <= -2.0 * sigma or (posts is not None and posts <= -2.0 * sigma):
        return "NO_GOAL"
    if abs(margin) < 2.0 * sigma or (posts is not None and posts < 2.0 * sigma):
        return "TOO_CLOSE"
    return "GOAL"


def line_margins(
    xy_mm: FloatArray, r_mm: float, field_model: FieldModel, line: str
) -> tuple[FloatArray, FloatArray | None]:
    """``(margin, posts)`` per position: how far the ball is wholly across ``line``'s outer
    edge; for a goal line also how far its footprint is inside the posts' inner faces."""
    xy = np.atleast_2d(np.asarray(xy_mm, float))
    if line not in LINES:
        raise CallError(f"line: expected one of {', '.join(LINES)}, got {line!r}")
    if line.startswith("goal"):
        s = 1.0 if line == "goal_right" else -1.0
        margin = s * xy[:, 0] - r_mm - field_model.hl
        posts = field_model.spec.goal_width / 2.0 - (np.abs(xy[:, 1]) + r_mm)
        return margin, posts
    s = 1.0 if line == "touch_far" else -1.0
    return s * xy[:, 1] - r_mm - field_model.hw, None


def nearest_line(xy_mm: FloatArray, r_mm: float, field_model: FieldModel) -> str:
    """The line the ball is nearest to crossing (largest margin)."""
    xy = np.atleast_2d(np.asarray(xy_mm, float))[:1]
    best = max(LINES, key=lambda ln: float(line_margins(xy, r_mm, field_model, ln)[0][0]))
    return best


def at_rest(t: FloatArray, xy_mm: FloatArray) -> NDArray[np.bool_]:
    """Which sightings (times ``t``, positions ``xy_mm``) show the ball at rest: slower than
    :data:`REST_MM_S` over the sightings either side of it (the first and the last: over the
    one beside it or the one after that, the slower). Over two steps, not the larger of the
    two: the fits of a ball at rest jitter back and forth by up to 0.6 mm a frame (rig 380 of
    ``python -m benchmarks.bench_goalline``, a ball on the goal line beside a post: 0.43 and
    0.59 mm, read as moving, and the frame nearest the line, 0.29 mm further than the truth,
    called a goal), while a rolling ball goes on the same way, as fast over two steps as over
    each.

    Examples
    --------
    >>> t = np.arange(4) / 30.0
    >>> at_rest(t, np.array([[0.0, 0.0], [0.3, 0.3], [-0.1, 0.0], [0.3, 0.2]])).tolist()
    [True, True, True, True]
    >>> at_rest(t, np.array([[0.0, 0.0], [0.6, 0.0], [1.2, 0.0], [1.8, 0.0]])).tolist()
    [False, False, False, False]
    >>> at_rest(t[:3], np.array([[0.0, 0.0], [0.6, 0.0], [0.1, 0.0]])).tolist()  # back and forth
    [True, True, True]
    """
    n = len(t)
    speed = np.full(n, np.inf)
    if n > 1:
        d = np.hypot(*np.diff(xy_mm, axis=0).T) / np.maximum(np.diff(t), 1e-9)
        speed[0], speed[-1] = d[0], d[-1]
        span = np.hypot(*(xy_mm[2:] - xy_mm[:-2]).T) / np.maximum(t[2:] - t[:-2], 1e-9)
        speed[1:-1] = span
        if n > 2:
            speed[0], speed[-1] = min(d[0], span[0]), min(d[-1], span[-1])
    return np.asarray(speed < REST_MM_S)


def _runs(mask: NDArray[np.bool_]) -> list[tuple[int, int]]:
    """[start, end) of each run of True."""
    out, start = [], None
    for i, m in enumerate([*mask.tolist(), False]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            out.append((start, i))
            start = None
    return out


def _line(t: FloatArray, v: FloatArray) -> tuple[float, float]:
    """Least-squares straight line ``v = a + b (t - t[0])``: (a, b)."""
    if len(t) == 1:
        return float(v[0]), 0.0
    b, a = np.polyfit(t - t[0], v, 1)
    return float(a), float(b)


def call_line(
    track: BallTrack,
    r_mm: float,
    field_model: FieldModel,
    *,
    line: str | None = None,
    at_t: float | None = None,
    sigma_floor_mm: float = 0.0,
) -> Call:
    """The call on ``line`` (default: the line the ball comes nearest to crossing) from the
    ball's positions in ``track`` (see the module docstring).

    ``sigma_floor_mm`` is added in quadrature to every sigma (the camera model's own error).
    Raises :class:`CallError` when the ball was found on fewer than two frames.
    """
    ok = track.found
    if ok.sum() < 2:
        raise CallError("the ball was not found on the frames around that moment")
    idx = np.flatnonzero(ok)
    t, xy = track.t[idx], track.xy_mm[idx]
    frames = track.frame[idx]
    if line is None:
        margins = {ln: float(line_margins(xy, r_mm, field_model, ln)[0].max()) for ln in LINES}
        line = max(margins, key=lambda k: margins[k])
    # the sigma across the line: along x for a goal line, y for a touchline
    axes = track.sigma_axes_mm
    assert axes is not None
    sig = np.hypot(axes[idx, 0 if line.startswith("goal") else 1], sigma_floor_mm)
    rest = at_rest(t, xy)
    candidates: list[tuple[float, float, int, tuple[float, float], bool, tuple[int, ...], str]] = []
    for a, b in _runs(rest):
        if b - a < MIN_REST_FRAMES:
            continue
        p = np.median(xy[a:b], axis=0)
        s = float(np.median(sig[a:b]))
        m = float(line_margins(p, r_mm, field_model, line)[0][0])
        k = a + int(np.argmin(np.abs(t[a:b] - (at_t if at_t is not None else t[a]))))
        used = tuple(int(f) for f in frames[a:b])
        candidates.append((m, s, k, (float(p[0]), float(p[1])), False, used, "at rest"))
    for a, b in _runs(~rest):
        a, b = max(a - 1, 0), min(b + 1, len(t))  # the rest frames either side bound the path
        if b - a < 3:
            continue
        candidates += _moving_candidates(
            t[a:b], xy[a:b], sig[a:b], frames[a:b], a, r_mm, field_model, line
        )
    if not candidates:
        raise CallError("the ball's positions neither rest nor make a path near that moment")
    if at_t is not None:
        # The moment asked about: candidates within a second of it, else all.
        near = [c for c in candidates if abs(t[c[2]] - at_t) <= 1.0]
        candidates = near or candidates

    def inside(
        c: tuple[float, float, int, tuple[float, float], bool, tuple[int, ...], str],
    ) -> tuple[bool, float]:
        # how far the ball is wholly across the line *and* between the posts at that moment
        # (a shot crosses between the posts, then may run on beside them inside the net); of
        # the moments when it surely was, the one furthest across
        posts = line_margins(np.array(c[3]), r_mm, field_model, line)[1]
        g = c[0] if posts is None else min(c[0], float(posts[0]))
        return (True, c[0]) if g >= 2.0 * c[1] else (False, g)

    m, s, k, pos, moving, used, how = max(candidates, key=inside)
    posts = line_margins(np.array(pos), r_mm, field_model, line)[1]
    posts_m = None if posts is None else float(posts[0])
    decision = _decision(m, s, posts_m)
    return Call(
        decision,
        line,
        float(t[k]),
        int(frames[k]),
        m,
        s,
        pos,
        moving,
        posts_m,
        used,
        how,
    )


def _moving_candidates(
    t: FloatArray,
    xy: FloatArray,
    sig: FloatArray,
    frames: NDArray[np.int64],
    offset: int,
    r_mm: float,
    field_model: FieldModel,
    line: str,
) -> list[tuple[float, float, int, tuple[float, float], bool, tuple[int, ...], str]]:
    """The largest margin one moving run reaches, between frames where the ball turned (and,
    when it differs, the frame furthest across while between the posts).

    Between two frames a rolling ball moves in a straight line; it turns only at an impact
    (the net, a post, a piece). The frame with the largest margin is either the turn's
    neighbour or the run's end. For a turn on either side of that frame the incoming path
    (the two frames before it) and the outgoing path (the two after) are straight lines in
    margin and time; where they meet is the turn, and the larger meeting margin is taken
    when it lies between the two paths' frames (a ball can turn only once there).
    """
    m, posts = line_margins(xy, r_mm, field_model, line)
    k = int(np.argmax(m))
    best_m, best_t, best_xy = float(m[k]), float(t[k]), xy[k].copy()
    s_frame = float(sig[k])
    how = "in motion, the frame nearest the line"
    n = len(t)
    # a ball turns at the latest against the net's back (its near edge a goal's depth less its
    # diameter past the line; a millimetre for the noise); a touchline has no such bound here
    reach = field_model.spec.goal_depth - 2.0 * r_mm + 1.0 if line.startswith("goal") else np.inf
    for lo in (k - 1, k):  # the turn after frame lo, before frame lo + 1
        inc = np.arange(max(lo - 1, 0), lo + 1)
        out = np.arange(lo + 1, min(lo + 3, n))
        if lo < 0 or len(inc) < 2 or len(out) < 2:
            continue
        a1, b1 = _line(t[inc], m[inc])
        a2, b2 = _line(t[out], m[out])
        if not (b1 > 0.0 > b2):
            continue  # no approach then retreat: no turn there
        # a1 + b1 (tq - t_in0) = a2 + b2 (tq - t_out0)
        tq = (a2 - a1 + b1 * t[inc[0]] - b2 * t[out[0]]) / (b1 - b2)
        if not t[inc[-1]] <= tq <= t[out[0]]:
            continue
        mq = a1 + b1 * (tq - t[inc[0]])
        if mq <= best_m:
            continue
        if mq > reach:
            continue  # beyond the net's back: paths through a sighting of something else
        # the position there: each coordinate's incoming line (the approach decides)
        pq = np.array([_line(t[inc], xy[inc, c]) for c in range(2)])
        best_xy = pq[:, 0] + pq[:, 1] * (tq - t[inc[0]])
        best_m, best_t = float(mq), float(tq)
        # extrapolating two 2-point lines to their meeting: about twice a frame's error
        s_frame = 2.0 * float(np.median(sig[np.concatenate([inc, out])]))
        how = f"in motion: turned at t = {tq:.4f} s, between frames (paths fitted either side)"
    kk = int(np.argmin(np.abs(t - best_t)))
    used = tuple(int(f) for f in frames)
    out_c = [
        (
            best_m,
            s_frame,
            offset + kk,
            (float(best_xy[0]), float(best_xy[1])),
            True,
            used,
            how,
        )
    ]
    if posts is not None:
        # the furthest across while between the posts (deep in the net a ball may run on
        # beside a post's line: the frame of the largest margin is then not the decisive one)
        sure = np.minimum(m, posts) >= 2.0 * sig
        kp = int(np.argmax(np.where(sure, m, -np.inf))) if sure.any() else -1
        if kp < 0:
            kp = int(np.argmax(np.minimum(m, posts)))
        if kp != k:
            p_xy = (float(xy[kp, 0]), float(xy[kp, 1]))
            how_p = "in motion, the frame furthest across between the posts"
            out_c.append((float(m[kp]), float(sig[kp]), offset + kp, p_xy, True, used, how_p))
    return out_c
