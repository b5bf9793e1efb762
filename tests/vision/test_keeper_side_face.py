"""A goalkeeper's side face, seen as large as its top under a tilted camera, is not taken for
its top (issue 5; ``vision.solids.explained_together``, ``vision.keeper_search.one_fit_a_box``).

A fit is judged on the pixels near its own outlines. On stills 2121 and 2314 of ``python -m
benchmarks.bench_detect --seed 2100 / 2300`` a white box's grey side face was fitted as its
top, 27-33 mm toward the field: that fit's outlines ran over the side face and the bare felt,
and left the true top, beyond them, unseen; it explained 0.78 of its own pixels, the true pose
(its outline along the goal's net) 0.52-0.56, and it won. On 2314 the misplaced box was then
given the other team and took that team's goalkeeper's place as well. Fits of one box are now
compared on the pixels near all their outlines.

The stills are ``bench_detect``'s own (camera calibrated from the image).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.bench_stills import bench_still_pieces

# still -> (the white goalkeeper, its side-face pose (x, y, angle) the fit took before)
_STILLS = {2121: ("B1", (958.0, 3.4, 1.57)), 2314: ("B1", (964.8, 11.2, 1.56))}


@pytest.mark.parametrize("seed", sorted(_STILLS))
def test_both_goalkeepers_found_where_a_side_face_was_fitted(seed: int) -> None:
    det, truth = bench_still_pieces(seed)
    keepers = det.xy_mm[det.kind == "goalkeeper"]
    assert len(keepers) == 2, keepers
    for k in ("A1", "B1"):
        gap = np.hypot(*(keepers - truth.xy_mm[truth.index(k)]).T)
        assert gap.min() < 3.0, (k, keepers)


def _fits(seed: int):  # type: ignore[no-untyped-def]
    """The still's image and camera, and the true and side-face poses fitted as the detector
    fits them (the goal's frames left out, as on a still)."""
    from benchmarks.bench_calibration import random_camera
    from benchmarks.bench_detect import TABLE, _style, still_frames
    from calibration.auto import calibrate_image
    from simulator.render import Renderer
    from vision.detect import Detector
    from vision.solids import Solid, fit_solid

    rng = np.random.default_rng(seed)
    true_cam, _, _ = random_camera(rng, TABLE, (1920, 1080))
    style, _, _ = _style(rng)
    frames = still_frames()
    frame = frames[int(rng.integers(len(frames)))]
    image = Renderer(TABLE, true_cam, style, rng=seed).render(frame)
    cal = calibrate_image(image, TABLE)
    assert cal.ok and cal.camera is not None
    det = Detector(cal.camera, TABLE)
    det.detect(image)
    bg, ex = det._bg_full(), det._goal_frames()
    sz = det.sizes
    k, side = _STILLS[seed]
    truth = frame.pieces.xy_mm[frame.pieces.index(k)]
    out = []
    for p in ((*truth, np.pi / 2), side):
        g = Solid("goalkeeper", np.array(p, float), sz.goalkeeper_height,
                  (sz.goalkeeper_length, sz.goalkeeper_width))  # fmt: skip
        out.append(fit_solid(cal.camera, image, bg, g, ex, floor=det._floor))
    return det, image, bg, ex, out


@pytest.mark.parametrize("seed", sorted(_STILLS))
def test_the_true_pose_explains_the_pixels_of_both(seed: int) -> None:
    from vision.solids import explained_together

    det, image, bg, ex, (true, side) = _fits(seed)
    assert np.hypot(*(true.p[:2] - side.p[:2])) > 20.0  # two poses, not one
    # the failure the comparison mends: judged on its own pixels the side face wins
    assert side.inliers > true.inliers + 0.1, (side.inliers, true.inliers)
    both = explained_together(det.camera, image, bg, [true, side], ex, det._floor)
    assert both[0] > both[1] + 0.3, both
    # the order of the fits does not matter
    again = explained_together(det.camera, image, bg, [side, true], ex, det._floor)
    np.testing.assert_allclose(again, both[::-1])
