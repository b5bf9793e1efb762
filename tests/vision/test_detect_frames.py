"""The detector dates the ball's finds in the video's frames (detect's frame numbers), not in
its calls: a live referee judges the newest frame and drops the ones it could not keep up
with, and the ball found two video frames ago must not read as found on the last one (where it
rolls to next, how long it has been lost: :mod:`vision.ball_search`). Frame numbers that do not
increase (a clip of its own starting at 0 again) count one frame a call."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import preset_camera
from geometry.tablespec import load_table
from simulator.designs import RenderStyle
from simulator.match import Match
from simulator.render import Renderer
from vision.detect import Detector

TABLE = load_table("brasileira")


@pytest.fixture(scope="module")
def clip() -> tuple[Renderer, list]:
    truth = list(Match(TABLE, "brasileira", seed=4, fps=30).frames(8.0))
    cam = preset_camera("tilted", TABLE, (1280, 720))
    return Renderer(TABLE, cam, RenderStyle(jpeg_quality=90), rng=4), truth


@pytest.mark.parametrize(
    ("numbers", "ago"),
    [
        ((200, 201, 202), 1),  # every frame judged
        ((200, 201, 203), 2),  # frame 202 dropped
        ((200, 201, 205), 4),  # three dropped
        ((200, 201, 0), 1),  # a clip of its own, from 0 again: one a call
        ((200, 201, 201), 1),  # the same number again: one a call
    ],
)
def test_the_balls_last_find_is_dated_in_video_frames(
    clip: tuple[Renderer, list], numbers: tuple[int, ...], ago: int
) -> None:
    r, truth = clip
    det = Detector(r.camera, TABLE)
    det.learn_background([r.render(f) for f in truth[:60:4]])
    for k in numbers[:-1]:
        det.detect(r.render(truth[k]), k, k / 30.0)
    assert det._ball_prior is not None  # the ball at rest, found on the last frame
    seen = det._ball_prior[1]
    k = numbers[-1]
    det.detect(r.render(truth[max(k, 200)]), k, k / 30.0)
    assert det._frames - seen == ago
    assert det._calls == len(numbers)  # the light's cadence counts calls
    np.testing.assert_equal(det._frame_no, k)
