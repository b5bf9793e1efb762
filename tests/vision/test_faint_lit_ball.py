"""A white ball on a pale felt, lit on top and shaded below (issue 5, stills' ball recall).

The stills of ``bench_detect``'s match drawn with the pale felt and a white team (the hard
pair ``white_on_light``), under random cameras, lighting, noise and JPEG, detected with the
true camera. Over 150 such stills (seeds 1000-1149) the detector lost 13 of 142 visible
balls; the faint search (:func:`vision.ball_search.faint_ball`) had excused the ball's shaded
side and its shadow as a cast shadow, leaving its lit core alone (no peak), and scored its fit
by the core's contrast with the felt, 10-15 levels (0.26-0.29 of the 0.35 a ball needs). Now
the shaded side beside a lit one counts, and a fit lighter than the table in its core and
darker at its rim is scored by the span between the two
(:func:`vision.ball_search.lit_sphere_score`): four of those 13 are found, and two of 15 lost
on stills it was never tried on (seeds 2000-2119). The rows are those six; every one lost by
the code before. Without its ball the same still reports none.
"""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.bench_calibration import random_camera
from benchmarks.bench_detect import TABLE, still_frames
from simulator.designs import RenderStyle
from simulator.render import Renderer
from simulator.state import FrameTruth
from tests.vision.bench_stills import bench_still, kept
from vision.detect import Detector
from vision.detections import Detections

# found now, lost before (the first four from the stills the change was made on, the last two
# from stills it was not)
SEEDS = (1040, 1118, 1130, 1143, 2006, 2063)


def _still(seed: int, with_ball: bool = True) -> tuple[Detections, FrameTruth]:
    """Still ``seed``: a random camera over the pale felt, a frame of the bench's match."""
    rng = np.random.default_rng(seed)
    cam, _, _ = random_camera(rng, TABLE, (1920, 1080))
    style = RenderStyle.hard_pair(
        "white_on_light",
        light_gradient=rng.uniform(0.0, 0.3),
        light_dir_xy=(rng.uniform(-1, 1), rng.uniform(-1, 1)),
        vignette=rng.uniform(0.0, 0.3),
        noise_sigma=rng.uniform(2.0, 5.0),
        jpeg_quality=int(rng.integers(70, 96)),
        seed=int(rng.integers(1 << 30)),
    )
    frames = still_frames()
    frame = frames[int(rng.integers(len(frames)))]
    if not with_ball:
        frame = kept(frame, frame.pieces.kind != "ball")
    image = Renderer(TABLE, cam, style, rng=seed).render(frame)
    return Detector(cam, TABLE).detect(image), frame


@pytest.mark.parametrize("seed", SEEDS)
def test_a_lit_white_ball_on_a_pale_felt_is_found(seed: int) -> None:
    """One ball, within 1 mm of the truth (0.08-0.60 mm when measured)."""
    d, frame = _still(seed)
    truth = frame.pieces.xy_mm[frame.pieces.kind == "ball"][0]
    balls = d.xy_mm[d.kind == "ball"]
    assert len(balls) == 1, balls
    assert float(np.hypot(*(balls[0] - truth))) < 1.0, (balls[0], truth)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_same_still_without_its_ball_has_none(seed: int) -> None:
    d, _ = _still(seed, with_ball=False)
    assert not (d.kind == "ball").any(), d.xy_mm[d.kind == "ball"]


def test_a_fit_started_on_the_shade_is_tried_from_the_lit_side() -> None:
    """``bench_detect --seed 1700``'s still 1705: a white ball beyond the touchline, whose
    shaded side now counts; the peak lies between lit and shade and a fit started there
    settled on the shade (explaining 0.07 of its pixels) and the ball was lost. Started again
    half a ball either way, the fit from the lit side explains 0.7: found within 1 mm."""
    det, truth = bench_still(1705)
    balls = det.xy_mm[det.kind == "ball"]
    assert len(balls) == 1, balls
    assert float(np.hypot(*(balls[0] - truth))) < 1.0, (balls[0], truth)
