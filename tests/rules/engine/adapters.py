"""Simulator truth and tracker output -> :class:`rules.engine.state.FrameState`.

These adapters live outside ``rules`` on purpose: the engines never import the simulator.

- :func:`state_from_truth`: the exact state (positions, velocities, ``moving``, every contact
  in its own frame, the hands).
- :class:`TrackedTruth`: what a tracker would hand over: positions with Gaussian noise
  (``noise_mm``, 0.5 mm), velocities with noise, ``moving`` from the noisy speed through the
  tracker's hysteresis (:class:`vision.track_types.TrackerConfig`'s defaults: on above
  60 mm/s for 2 frames or 250 mm/s once, off below 35 mm/s for 3 frames), only
  ``piece-ball`` and ``piece-piece`` contacts (a tracker sees no rail), each reported 0 to
  ``max_delay`` frames after its own frame (seeded). Carried pieces keep ``moving`` False
  (a tracker freezes a piece under a hand).
- :func:`state_from_track`: the vision tracker's :class:`vision.track_types.TrackFrame`
  (sizes from the rule set's piece defaults, goalkeepers across their goal line; a track
  ``lost`` or ``absent`` is not present; no hand flag).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from geometry.pieces import Pieces
from rules.engine.state import Contacts, FrameState
from rules.rulesets import PieceDefaults
from simulator.state import FrameTruth
from vision.track_types import TrackFrame

__all__ = ["TrackedTruth", "state_from_track", "state_from_truth"]


def state_from_truth(ft: FrameTruth) -> FrameState:
    """The exact state of one simulated frame."""
    rows = [(ft.frame, c.t, c.a, c.b, c.kind) for c in ft.contacts]
    return FrameState(
        ft.frame,
        ft.t,
        ft.pieces,
        ft.vel_mm_s,
        ft.moving,
        Contacts.from_rows(rows),
        hands_over_table=bool(ft.hands),
    )


class TrackedTruth:
    """Truth degraded like a tracker's output (see the module docstring); call per frame."""

    def __init__(
        self,
        seed: int,
        noise_mm: float = 0.5,
        speed_noise_mm_s: float = 15.0,
        max_delay: int = 2,
        on_mm_s: float = 60.0,
        fast_mm_s: float = 250.0,
        off_mm_s: float = 35.0,
        on_frames: int = 2,
        off_frames: int = 3,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.noise_mm = noise_mm
        self.speed_noise = speed_noise_mm_s
        self.max_delay = max_delay
        self.on, self.fast, self.off = on_mm_s, fast_mm_s, off_mm_s
        self.on_frames, self.off_frames = on_frames, off_frames
        self._moving: np.ndarray | None = None
        self._above: np.ndarray | None = None
        self._below: np.ndarray | None = None
        self._queue: dict[int, list[tuple[int, float, str, str, str]]] = defaultdict(list)

    def __call__(self, ft: FrameTruth) -> FrameState:
        p = ft.pieces
        n = len(p)
        xy = p.xy_mm + self.rng.normal(0.0, self.noise_mm, (n, 2))
        v = ft.vel_mm_s + self.rng.normal(0.0, self.speed_noise, (n, 2))
        truly_still = ~ft.moving
        v[truly_still] = self.rng.normal(0.0, self.speed_noise / 2.0, (int(truly_still.sum()), 2))
        speed = np.hypot(v[:, 0], v[:, 1])
        if self._moving is None or self._above is None or self._below is None:
            self._moving = np.zeros(n, bool)
            self._above = np.zeros(n, int)
            self._below = np.zeros(n, int)
        self._above = np.where(speed > self.on, self._above + 1, 0)
        self._below = np.where(speed < self.off, self._below + 1, 0)
        turn_on = (self._above >= self.on_frames) | (speed > self.fast)
        turn_off = self._below >= self.off_frames
        self._moving = np.where(self._moving, ~turn_off, turn_on)
        for c in ft.contacts:
            if c.kind in ("piece-ball", "piece-piece"):
                delay = int(self.rng.integers(0, self.max_delay + 1))
                self._queue[ft.frame + delay].append((ft.frame, c.t, c.a, c.b, c.kind))
        rows = self._queue.pop(ft.frame, [])
        pieces = Pieces(p.ids, p.team, p.kind, xy, p.size_mm, p.angle_rad, p.height_mm)
        return FrameState(
            ft.frame,
            ft.t,
            pieces,
            v,
            self._moving.copy(),
            Contacts.from_rows(rows),
            hands_over_table=bool(ft.hands),
        )


def state_from_track(tf: TrackFrame, sizes: PieceDefaults) -> FrameState:
    """One tracker frame; every contact row carries the frame it happened at."""
    kind = np.asarray(tf.kind)
    size = np.where(
        (kind == "goalkeeper")[:, None],
        [sizes.goalkeeper_length, sizes.goalkeeper_width],
        np.where((kind == "ball")[:, None], sizes.ball_diameter, sizes.button_diameter),
    )
    angle = np.where(kind == "goalkeeper", np.pi / 2.0, 0.0)
    pieces = Pieces(tf.ids, tf.team, kind, tf.xy_mm, size, angle)
    rows = [(c.frame, c.t, c.a, c.b, c.kind) for c in tf.contacts]
    present = np.isin(tf.status, ("seen", "predicted", "hidden"))
    return FrameState(
        tf.frame, tf.t, pieces, tf.v_mm_s, tf.moving, Contacts.from_rows(rows), present
    )
