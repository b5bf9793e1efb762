"""Recorded scenes (``data/*.json``): every detection and hand outline of a few frames of a
ten-minute analysis, as the project's own detector saw them, played to the tracker again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from vision.detections import Detections

DATA = Path(__file__).parent / "data"


def scene_detections(name: str, seed: int | None, mirror: bool) -> Iterator[Detections]:
    """The frames of scene ``name`` as :class:`Detections`: as recorded, or mirrored (x
    negated, the teams' names swapped), with seeded noise of each detection's own sigma when
    ``seed`` is given."""
    rng = np.random.default_rng(seed) if seed is not None else None
    sx = mirror_x(mirror)
    swap = {"A": "B", "B": "A", "": ""} if mirror else {"A": "A", "B": "B", "": ""}
    for f in json.loads((DATA / name).read_text("utf-8"))["frames"]:
        n = len(f["kind"])
        sigma = np.array(f["sigma_mm"], float).reshape(n)
        xy = np.array(f["xy_mm"], float).reshape(n, 2)
        if rng is not None:
            xy = xy + rng.normal(size=(n, 2)) * sigma[:, None]
        angle = np.array(f["angle_rad"], float).reshape(n)
        yield Detections(
            kind=np.array(f["kind"], dtype=str).reshape(n),
            team=np.array([swap[t] for t in f["team"]], dtype=str).reshape(n),
            xy_mm=xy * sx,
            uv_px=np.zeros((n, 2)),
            size_mm=np.array(f["size_mm"], float).reshape(n, 2),
            angle_rad=np.pi - angle if mirror else angle,
            confidence=np.array(f["confidence"], float).reshape(n),
            sigma_mm=sigma,
            label=np.full(n, "", dtype=str),
            hands=[np.array(h, float) * sx for h in f["hands"]],
            frame=f["frame"],
            t=f["t"],
        )


def mirror_x(mirror: bool) -> np.ndarray:
    """The factor (2,) that mirrors table millimetres (x negated) when ``mirror``."""
    return np.array([-1.0, 1.0]) if mirror else np.ones(2)
