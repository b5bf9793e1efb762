"""The goal-line protocol's rig for vision tests (``benchmarks/bench_goalline.py`` ``make_rig``,
with the true camera): a random camera and style from the seed, an orange ball on a pale felt,
the empty table learned from a random match's first 15 s (pieces resting through it)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import _style
from geometry.tablespec import load_table
from simulator.match import Match
from simulator.render import Renderer
from vision.detect import Detector

TABLE = load_table("brasileira")


def learned_rig(seed: int, bars_over: bool = False) -> tuple[Renderer, Detector]:
    """The renderer and a detector that learned the table as the protocol's rig ``seed``
    (``bars_over``: its crossbars drawn over the pieces, ``--bars-over``)."""
    rng = np.random.default_rng(seed)
    cam, _, _ = random_camera(rng, TABLE, (1920, 1080))
    style, _, _ = _style(rng)
    style = replace(style, bars_over_pieces=bars_over)
    if np.mean(style.field_bgr) > 150:
        style = replace(style, ball_bgr=(30, 140, 250))  # as the protocol: orange on pale felt
    renderer = Renderer(TABLE, cam, style, rng=seed)
    det = Detector(cam, TABLE)
    det.learn_background(
        [renderer.render(f) for f in Match(TABLE, "brasileira", seed=seed, fps=1.0).frames(15.0)]
    )
    return renderer, det
