"""The per-frame record the engines read: tracked pieces, their motion and the contacts found.

Both the simulator's truth and the vision tracker's output are turned into :class:`FrameState`
by thin adapters that live outside ``rules`` (the engines never import ``simulator``,
``vision`` or ``cv2``). Units: millimetres, seconds, the table frame of INTERFACES.md.

A :class:`FrameState` holds one frame:

- ``pieces`` (:class:`geometry.pieces.Pieces`): footprint centres, sizes, keeper angles;
- ``v_mm_s`` (N, 2) velocities and ``moving`` (N,) flags (the tracker's debounced answer,
  or the simulator's exact one);
- ``present`` (N,): the position is known this frame (a tracker's lost or absent slot is not);
- ``seen`` (N,): the position was measured this frame (default: ``present``); a tracker's
  coasting or frozen slot is present, not seen;
- ``contacts`` (:class:`Contacts`): the contacts reported with this frame, as columns. Each
  carries ``frame``, the video frame at or after the contact (a tracker may report it up to a
  couple of frames later than that; the engine re-orders by it);
- ``hands_over_table``: a coach's hand over the table (``None`` when unknown).

Examples
--------
>>> import numpy as np
>>> c = Contacts.empty()
>>> len(c), c.kind.dtype.kind
(0, 'U')
>>> Contacts(frame=[3], t_s=[0.1], a=["A7"], b=["ball"], kind=["piece-ball"]).a[0]
np.str_('A7')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from geometry.pieces import Pieces

__all__ = ["CONTACT_KINDS", "Contacts", "FrameState", "StateError"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

#: Contact kinds the engines understand; others are carried and ignored.
CONTACT_KINDS = (
    "piece-ball",
    "piece-piece",
    "ball-rail",
    "ball-post",
    "ball-net",
    "piece-rail",
    "piece-post",
    "piece-net",
)


class StateError(ValueError):
    """A frame record whose columns do not fit together; the message says what was expected."""


def _column(owner: str, name: str, value: object, dtype: type, n: int | None) -> NDArray[Any]:
    arr: NDArray[Any] = np.asarray(value, dtype=dtype)
    if arr.ndim != 1 or (n is not None and arr.shape[0] != n):
        want = f"({n},)" if n is not None else "(M,)"
        raise StateError(f"{owner}.{name}: expected shape {want}, got {arr.shape}")
    return arr


@dataclass(frozen=True)
class Contacts:
    """M contacts as parallel columns (see the module docstring).

    Attributes
    ----------
    frame : (M,) int, the video frame at or after each contact.
    t_s : (M,) float, the contact's own time.
    a, b : (M,) str, the bodies: ``a`` a piece (or the ball for ``ball-*`` kinds), ``b`` the
        ball, another piece or ``"rail"``, ``"post"``, ``"net"``.
    kind : (M,) str, one of :data:`CONTACT_KINDS` (others are ignored by the engines).
    """

    frame: IntArray
    t_s: FloatArray
    a: NDArray[np.str_]
    b: NDArray[np.str_]
    kind: NDArray[np.str_]

    def __post_init__(self) -> None:
        frame = _column("Contacts", "frame", self.frame, np.int64, None)
        n = len(frame)
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "t_s", _column("Contacts", "t_s", self.t_s, np.float64, n))
        for name in ("a", "b", "kind"):
            object.__setattr__(self, name, _column("Contacts", name, getattr(self, name), str, n))

    def __len__(self) -> int:
        return len(self.frame)

    @classmethod
    def empty(cls) -> Contacts:
        none = np.zeros(0, str)
        return cls(np.zeros(0, np.int64), np.zeros(0), none, none, none)

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[int, float, str, str, str]]) -> Contacts:
        """From ``(frame, t_s, a, b, kind)`` rows (a convenience for adapters and tests)."""
        rows = list(rows)
        if not rows:
            return cls.empty()
        frame, t, a, b, kind = zip(*rows, strict=True)
        return cls(np.array(frame), np.array(t), np.array(a), np.array(b), np.array(kind))

    def rows(self) -> list[tuple[int, float, str, str, str]]:
        """``(frame, t_s, a, b, kind)`` rows in time order."""
        order = np.argsort(self.t_s, kind="stable")
        return [
            (
                int(self.frame[i]),
                float(self.t_s[i]),
                str(self.a[i]),
                str(self.b[i]),
                str(self.kind[i]),
            )
            for i in order
        ]


@dataclass(frozen=True)
class FrameState:
    """Everything an engine reads about one video frame (see the module docstring)."""

    frame: int
    t_s: float
    pieces: Pieces
    v_mm_s: FloatArray
    moving: BoolArray
    contacts: Contacts = field(default_factory=Contacts.empty)
    present: BoolArray = field(default_factory=lambda: np.zeros(0, bool))
    hands_over_table: bool | None = None
    seen: BoolArray = field(default_factory=lambda: np.zeros(0, bool))

    def __post_init__(self) -> None:
        n = len(self.pieces)
        v = np.asarray(self.v_mm_s, dtype=np.float64)
        if v.shape != (n, 2):
            raise StateError(f"FrameState.v_mm_s: expected shape ({n}, 2), got {v.shape}")
        object.__setattr__(self, "v_mm_s", v)
        object.__setattr__(self, "moving", _column("FrameState", "moving", self.moving, bool, n))
        present = self.present if len(self.present) else np.ones(n, bool)
        object.__setattr__(self, "present", _column("FrameState", "present", present, bool, n))
        seen = self.seen if len(self.seen) else self.present
        object.__setattr__(self, "seen", _column("FrameState", "seen", seen, bool, n))
        if not isinstance(self.contacts, Contacts):
            raise StateError(
                "FrameState.contacts: expected a Contacts record, "
                f"got {type(self.contacts).__name__}"
            )
        if int(np.sum(self.pieces.kind == "ball")) != 1:
            raise StateError(
                "FrameState.pieces: expected exactly one ball, got "
                f"{int(np.sum(self.pieces.kind == 'ball'))}"
            )

    @property
    def known_pieces(self) -> Pieces:
        """The pieces whose position is known this frame, and the ball (for scene checks: a
        tracker's lost or never-seen slot must not block a ball from where it was last)."""
        if bool(self.present.all()):
            return self.pieces
        return self.pieces.select(self.present | (self.pieces.kind == "ball"))

    @property
    def ball_index(self) -> int:
        return int(np.flatnonzero(self.pieces.kind == "ball")[0])

    @property
    def ball_xy_mm(self) -> FloatArray:
        return self.pieces.xy_mm[self.ball_index]

    @property
    def ball_radius_mm(self) -> float:
        return float(self.pieces.size_mm[self.ball_index, 0]) / 2.0
