"""Scripted situations: hand-written frame sequences for the engines' tables of situations.

A :class:`Script` holds the pieces at rest and appends :class:`FrameState` records as pieces
slide in straight lines (``move``) or stay still (``rest``); contacts are listed by the step
at which they happen. Velocities are the frame-to-frame displacement over the frame time.

Examples
--------
>>> s = Script([("A9", "A", "button", 0.0, 0.0), ("ball", "", "ball", 40.0, 0.0)])
>>> s.rest(2)
>>> s.move({"A9": (0, 3, (10.0, 0.0))})
>>> [bool(f.moving[0]) for f in s.frames]
[False, False, True, True, True]
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from geometry.pieces import Pieces
from rules.engine.state import Contacts, FrameState

__all__ = ["Script", "brasileira_roster", "lance", "mirror_frames"]

SIZES = {"button": (60.0, 60.0), "goalkeeper": (70.0, 15.0), "ball": (10.0, 10.0)}
Motion = tuple[int, int, tuple[float, float]]  # (start step, end step, target xy)


class Script:
    """Pieces on a table and the frames a scripted play makes of them."""

    def __init__(
        self,
        pieces: Iterable[tuple[str, str, str, float, float]],
        fps: float = 30.0,
        hands: bool | None = None,
    ) -> None:
        rows = list(pieces)
        self.ids = np.array([r[0] for r in rows])
        self.team = np.array([r[1] for r in rows])
        self.kind = np.array([r[2] for r in rows])
        self.xy = np.array([[r[3], r[4]] for r in rows], dtype=float)
        self.size = np.array([SIZES[k] for k in self.kind])
        self.angle = np.where(self.kind == "goalkeeper", np.pi / 2.0, 0.0)
        self.fps = fps
        self.hands = hands
        self.frames: list[FrameState] = []

    def index(self, pid: str) -> int:
        return int(np.flatnonzero(self.ids == pid)[0])

    def _frame(
        self,
        xy: np.ndarray,
        v: np.ndarray,
        moving: np.ndarray,
        contacts: list[tuple[str, str, str]],
    ) -> None:
        k = len(self.frames)
        t = k / self.fps
        rows = [(k, t - 0.5 / self.fps, a, b, kind) for a, b, kind in contacts]
        pieces = Pieces(self.ids, self.team, self.kind, xy.copy(), self.size, self.angle)
        self.frames.append(
            FrameState(
                k, t, pieces, v, moving, Contacts.from_rows(rows), hands_over_table=self.hands
            )
        )

    def rest(self, n: int = 3) -> None:
        """``n`` frames with everything still."""
        for _ in range(n):
            self._frame(self.xy, np.zeros_like(self.xy), np.zeros(len(self.ids), bool), [])

    def place(self, pid: str, xy: tuple[float, float]) -> None:
        """A hand puts a piece somewhere (no motion is seen)."""
        self.xy[self.index(pid)] = xy

    def move(
        self,
        motions: dict[str, Motion],
        contacts: dict[int, list[tuple[str, str, str]]] | None = None,
    ) -> None:
        """Steps ``1..N``: each piece slides from where it is to its target between its start
        and end steps (moving from the step after its start); ``contacts[k]`` are reported at
        step ``k``."""
        contacts = contacts or {}
        start = self.xy.copy()
        n = max(m[1] for m in motions.values())
        for k in range(1, n + 1):
            xy = self.xy.copy()
            moving = np.zeros(len(self.ids), bool)
            for pid, (s0, s1, target) in motions.items():
                i = self.index(pid)
                f = min(max((k - s0) / max(s1 - s0, 1), 0.0), 1.0)
                xy[i] = start[i] + f * (np.asarray(target, float) - start[i])
                moving[i] = s0 < k <= s1
            v = (xy - self.xy) * self.fps
            v[~moving] = 0.0
            self.xy = xy
            self._frame(xy, v, moving, contacts.get(k, []))


def brasileira_roster(
    extra: Iterable[tuple[str, str, str, float, float]] = (),
) -> list[tuple[str, str, str, float, float]]:
    """Keepers on their goal lines, a few far-away buttons per team, the given pieces."""
    base = [
        ("A1", "A", "goalkeeper", -990.0, 0.0),
        ("B1", "B", "goalkeeper", 990.0, 0.0),
        ("A2", "A", "button", -700.0, -400.0),
        ("B2", "B", "button", 700.0, -400.0),
    ]
    given = list(extra)
    names = {g[0] for g in given}
    return [b for b in base if b[0] not in names] + given


def after_a_pass(extra: Iterable[tuple[str, str, str, float, float]]) -> Script:
    """``extra`` pieces at rest while B8 plays the ball and everything stops again (play
    under way, team A to play next), coaches' hands over the table."""
    s = Script(
        brasileira_roster(
            [
                *extra,
                ("B8", "B", "button", -300.0, 230.0),
                ("ball", "", "ball", -250.0, 190.0),
            ]
        ),
        hands=True,
    )
    s.rest(3)
    s.move(
        {"B8": (0, 2, (-265.0, 205.0)), "ball": (1, 8, (-120.0, 60.0))},
        {1: [("B8", "ball", "piece-ball")]},
    )
    s.rest(6)
    return s


def mirror_frames(frames: list[FrameState]) -> list[FrameState]:
    """The same play seen on a table turned round: ``(x, y) -> (-x, -y)``."""
    m = -np.eye(2)
    out = []
    for f in frames:
        out.append(
            FrameState(
                f.frame,
                f.t_s,
                f.pieces.transformed(m),
                f.v_mm_s @ m.T,
                f.moving,
                f.contacts,
                f.present,
                f.hands_over_table,
            )
        )
    return out


def lance(
    s: Script,
    piece: str,
    ball_to: tuple[float, float] | None,
    hits: list[tuple[str, str, str]] | None = None,
    steps: int = 6,
    rest: int = 3,
) -> None:
    """``piece`` slides 10 mm toward the ball; it strikes it (unless ``ball_to`` is None) and
    the ball slides to ``ball_to``; ``hits`` are more contacts at the last step. Then rest."""
    i, bi = s.index(piece), s.index("ball")
    d = s.xy[bi] - s.xy[i]
    to = s.xy[i] + 10.0 * d / max(float(np.hypot(*d)), 1e-9)
    motions: dict[str, Motion] = {piece: (0, 2, (float(to[0]), float(to[1])))}
    contacts: dict[int, list[tuple[str, str, str]]] = {}
    if ball_to is not None:
        motions["ball"] = (1, steps, ball_to)
        contacts[2] = [(piece, "ball", "piece-ball")]
    if hits:
        contacts.setdefault(steps, []).extend(hits)
    s.move(motions, contacts)
    s.rest(rest)
