"""What the tracker takes (:class:`TrackerConfig`) and gives (:class:`TrackFrame`), and its
small helpers (detection kind codes, numbers read on the buttons, unexplained detections)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from vision.contacts import TrackContact

__all__ = ["STATUSES", "Candidates", "TrackFrame", "TrackerConfig", "kind_codes", "read_numbers"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]

STATUSES = ("seen", "predicted", "hidden", "lost", "absent")


@dataclass(frozen=True)
class TrackerConfig:
    """Tracker parameters (mm, s, frames). The defaults are physical, not fitted to one clip.

    Top speeds: a flicked button reaches ~3 m/s, the ball it strikes ~1.7 x that.
    Moving / stopped hysteresis, on the least-squares speed over the last five measured
    positions: a track becomes *moving* when that speed exceeds ``moving_on_mm_s`` (60 mm/s)
    for ``moving_on_frames`` (2) frames running, or ``moving_fast_mm_s`` (250 mm/s) once (a
    flick), and *stopped* when it stays below ``moving_off_mm_s`` (35 mm/s) for
    ``moving_off_frames`` (3) frames. At rest, 1 mm of detection noise gives ~10 mm/s.
    """

    fps: float = 30.0  # used when the detections' times do not advance
    max_speed_mm_s: tuple[float, float, float] = (3500.0, 3500.0, 6000.0)  # button, keeper, ball
    q_moving: float = 2e6  # white-acceleration density of a sliding piece, mm^2/s^3
    q_resting: float = 2e3  # of a resting one (it only moves by an impulse)
    p_detect: float = 0.99  # a visible piece is detected
    p_detect_hidden: float = 0.3  # a piece under a hand is detected (at its edge)
    p_impulse: float = 0.02  # a track leaves its prediction in one frame
    p_impulse_hand: float = 0.5  # ... when a hand covers it (a flick, a carry)
    clutter_per_mm2: float = 1e-7  # false detections per mm^2 a frame (~0.3 on a 2 x 1.4 m table)
    impulse_scale_mm: float = 60.0  # the spread of an impulse's jump for a visible track
    hidden_scale_mm: float = 80.0  # ... for a frozen one out from under its hand (a flick)
    sweep_area_mm2: float = 5e4  # the table area a hand covers while carrying a piece
    coast_s: float = 0.5  # a moving track not seen this long is lost
    lost_resting_s: float = 3.0  # a resting one (it cannot drift: it only moves when hit)
    restart_nis: float = 16.0  # innovation (chi^2, 2 dof) beyond which an impulse is assumed
    release_s: float = 0.5  # a frozen track no longer under a hand is searched for this long
    extent_mm: tuple[float, float] = (1500.0, 1100.0)  # half sizes of the mapped area
    hand_margin_mm: float = 20.0  # a track this near a hand (edge to edge) is frozen
    hand_drop_mm: float = 10.0  # a detection this deep inside a hand polygon is the hand's
    confirm_frames: int = 3  # a piece coming back is seen this many frames running
    rearrange_min: int = 6  # this many pieces leaving their places at once: an arrumação
    rearrange_reach_mm: float = 300.0  # ... each put back this near its setup place
    moving_on_mm_s: float = 60.0
    moving_fast_mm_s: float = 250.0
    moving_off_mm_s: float = 35.0
    moving_on_frames: int = 2
    moving_off_frames: int = 3
    team_size: int = 11  # 000 REGRA 3: ten buttons and a goalkeeper
    teams: tuple[tuple[str, str], ...] = (("A", "left"), ("B", "right"))
    default_sigma_mm: float = 1.0
    # the painted spots a ball is placed on for a restart (the centre mark, the penalty
    # marks; mm): white on white it may go unseen there until struck (vision/contacts.py)
    spots_mm: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class TrackFrame:
    """Every roster track at one frame.

    ``status`` is one of :data:`STATUSES`: ``seen`` (updated by a detection this frame),
    ``predicted`` (coasting, flagged), ``hidden`` (frozen under a hand), ``lost``, ``absent``
    (a roster slot not filled yet). ``contacts`` are the contacts found at this frame (they
    happened a frame or more earlier, a graze three; each carries its own time and frame).
    """

    frame: int
    t: float
    ids: NDArray[np.str_]
    team: NDArray[np.str_]
    kind: NDArray[np.str_]
    xy_mm: FloatArray
    v_mm_s: FloatArray
    sigma_mm: FloatArray
    moving: BoolArray
    status: NDArray[np.str_]
    contacts: tuple[TrackContact, ...] = ()
    size_mm: FloatArray | None = None  # (N, 2) the sizes the tracker holds (None: unknown)
    angle_rad: FloatArray | None = None  # (N,) goalkeepers' angles

    def present(self) -> BoolArray:
        """Tracks with a position worth reporting (everything but ``absent``)."""
        return np.asarray(self.status != "absent")

    def index(self, piece_id: str) -> int:
        return int(np.flatnonzero(self.ids == piece_id)[0])


@dataclass
class Candidates:
    """Unexplained detections followed frame to frame (a piece coming back, or clutter)."""

    xy: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))
    kind: IntArray = field(default_factory=lambda: np.zeros(0, np.intp))
    team: IntArray = field(default_factory=lambda: np.zeros(0, np.intp))
    count: IntArray = field(default_factory=lambda: np.zeros(0, np.intp))
    sigma: FloatArray = field(default_factory=lambda: np.zeros(0))
    first: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))  # where first seen


def kind_codes(kind: NDArray[np.str_]) -> IntArray:
    return np.asarray((kind == "goalkeeper") * 1 + (kind == "ball") * 2, dtype=np.intp)


def read_numbers(labels: NDArray[np.str_], team_size: int) -> IntArray | None:
    """The buttons' numbers (2..team_size) if the detector read a distinct one on each."""
    if len(labels) == 0:
        return None
    try:
        nums = np.array([int(str(x)) for x in labels], dtype=np.intp)
    except ValueError:
        return None
    if len(set(nums.tolist())) != len(nums) or nums.min() < 2 or nums.max() > team_size:
        return None
    return nums
