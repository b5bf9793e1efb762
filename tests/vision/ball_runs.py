"""The ball found frame by frame on a seeded match, and the ball fits it took: for the ball
search's tests that compare a rule on and off (the same balls, fewer fits)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.ball_search as ball_search
from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from vision.detect import Detector


def balls_and_fits(
    monkeypatch: pytest.MonkeyPatch, frames: range, patches: dict[str, object], seed: int = 4
) -> tuple[np.ndarray, int]:
    """The ball found on each of ``frames`` (rows of table mm, nan where none) of a seeded
    brasileira match rendered through a non-square tilted camera (1280x720, JPEG 90; the table
    learned from its first two seconds), and the fits :func:`vision.ball_search.fit_ball` made,
    with ``patches`` set on :mod:`vision.ball_search` meanwhile."""
    table = load_table("brasileira")
    truth = list(Match(table, "brasileira", seed=seed, fps=30).frames(frames.stop / 30 + 0.1))
    cam = preset_camera("tilted", table, (1280, 720))
    r = Renderer(table, cam, RenderStyle(jpeg_quality=90), rng=seed)
    det = Detector(cam, table)
    det.learn_background([r.render(f) for f in truth[:60:4]])
    fits = [0]
    real = ball_search.fit_ball

    def counted(*args: object, **kwargs: object) -> object:
        fits[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ball_search, "fit_ball", counted)
    for name, value in patches.items():
        monkeypatch.setattr(ball_search, name, value)
    balls = np.full((len(frames), 2), np.nan)
    for i, k in enumerate(frames):
        found = det.detect(r.render(truth[k]), k, k / 30)
        b = np.flatnonzero(found.kind == "ball")
        if len(b):
            balls[i] = found.xy_mm[b[0]]
    monkeypatch.undo()
    return balls, fits[0]
