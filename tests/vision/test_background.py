"""The learned table's parts that must not depend on what the process did before."""

from __future__ import annotations

import cv2
import numpy as np

from vision.background import _palette


def test_palette_is_the_same_whatever_ran_before() -> None:
    # k-means++ starts come from OpenCV's RNG: a palette made after another (or after any
    # other draw from that RNG) must still be the same palette
    pix = np.random.default_rng(1).uniform(0, 255, (3000, 3)).astype(np.float32)
    first = _palette(pix)
    cv2.randu(np.zeros((50, 3), np.float32), 0, 1)  # the RNG moved on
    _palette(pix[::2])
    again = _palette(pix)
    assert first.shape == (6, 3)
    np.testing.assert_array_equal(first, again)


def test_palette_of_too_few_pixels_is_empty() -> None:
    assert _palette(np.zeros((49, 3), np.float32)).shape == (0, 3)
