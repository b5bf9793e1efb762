"""The detector's ball search on stills at 1920 x 1080 (issue 5): a bare painted spot is no
ball, a ball on one is; a still ball whose blob looks drawn out is still found."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.field import FieldModel
from geometry.pieces import Pieces
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from simulator.state import FrameTruth
from vision.detect import Detector

TABLE = load_table("brasileira")
FIELDS = ("ids", "team", "kind", "xy_mm", "size_mm", "angle_rad", "height_mm")


@pytest.fixture(scope="module")
def frame() -> FrameTruth:
    """A frame of a seeded match at rest, without hands."""
    frames = list(Match(TABLE, "brasileira", seed=5, fps=10).frames(40.0))
    return next(f for f in frames[100:] if not f.hands and not f.moving.any())


def _with_ball(frame: FrameTruth, xy: tuple[float, float] | None) -> FrameTruth:
    """The frame with its ball at ``xy`` (None: no ball), the pieces near it moved away."""
    p = frame.pieces
    keep = p.kind != "ball" if xy is None else np.ones(len(p), bool)
    q = Pieces(*(getattr(p, f)[keep] for f in FIELDS))
    if xy is not None:
        b = int(np.flatnonzero(q.kind == "ball")[0])
        q.xy_mm[b] = xy
        near = (np.hypot(*(q.xy_mm - xy).T) < 60.0) & (q.kind != "ball")
        q.xy_mm[near] += 120.0
    return replace(frame, pieces=q, vel_mm_s=frame.vel_mm_s[keep], moving=frame.moving[keep])


@pytest.mark.parametrize("preset", ["overhead", "tilted"])
def test_painted_spots_are_no_ball_and_a_ball_on_one_is_found(frame, preset) -> None:  # type: ignore[no-untyped-def]
    """A still's estimate of the table leaves a trace of the painted spots (centre, penalty
    marks); a ball-sized fit to one explains a part of it and was reported as the ball when no
    other was found. A ball on a spot is found there."""
    cam = preset_camera(preset, TABLE, (1920, 1080))
    r = Renderer(TABLE, cam, RenderStyle(jpeg_quality=80, noise_sigma=3.0), rng=11)
    det = Detector(cam, TABLE).detect(r.render(_with_ball(frame, None)))
    assert not (det.kind == "ball").any()
    field = FieldModel(TABLE)
    for spot in [(0.0, 0.0), field.penalty_mark("left")]:
        det = Detector(cam, TABLE).detect(r.render(_with_ball(frame, spot)))
        balls = det.xy_mm[det.kind == "ball"]
        assert len(balls) == 1
        assert np.hypot(*(balls[0] - spot)) < 0.3


@pytest.mark.xfail(
    strict=True,
    reason="a known limit since the team size cap (the buttons beside it fitted at 60 mm, not "
    "62-64): the bare mark's fit explains 0.55 of its pixels (0.36 before), over the half a "
    "still asks; balls on spots explain 0.5-0.99 on stills, so no share tells them apart",
)
def test_a_bare_mark_beside_buttons_is_no_ball_while_the_ball_is_under_a_hand() -> None:
    """Still 903 of the stills benchmark (red against orange, a tilted random camera, the
    camera calibrated from the image): the ball lies under a coach's hand, and the left
    penalty mark, between two buttons, leaves a leftover that a ball's fit explains 0.36 of.
    It was reported as the ball; a ball on a painted spot must explain half its pixels on a
    still (as the spot's own search asks), and a bare mark does not."""
    from benchmarks.bench_detect import run_case, still_frames

    out = run_case(903, still_frames())
    assert out.visible["ball"] == 0  # hidden: any ball reported is a false one
    assert out.false["ball"] == 0
    assert out.visible["button"] == 18 and out.missed["button"] == []
