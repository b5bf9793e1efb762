"""vision/frame_memory.py: what changed in a window since a frame was remembered."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision.frame_memory import _CHANGE_LEVEL, FrameMemory, _changed_share


@pytest.mark.parametrize("seed", range(8))
def test_the_changed_share_is_the_numpy_one(seed: int) -> None:
    """The compiled share of changed coarse pixels against its numpy definition (summed
    channel change over the level), on a non-square image with a patch partly changed."""
    rng = np.random.default_rng(seed)
    sub = rng.integers(0, 256, (37, 61, 3), dtype=np.uint8)
    y0, x0 = int(rng.integers(0, 20)), int(rng.integers(0, 30))
    h, w = int(rng.integers(1, 17)), int(rng.integers(1, 31))
    patch = sub[y0 : y0 + h, x0 : x0 + w].astype(np.int16)
    patch += rng.integers(-40, 41, patch.shape).astype(np.int16)  # some over the level
    want = (
        np.abs(sub[y0 : y0 + h, x0 : x0 + w].astype(np.int16) - patch).sum(2) > _CHANGE_LEVEL
    ).mean()
    assert _changed_share(sub, y0, x0, patch) == want


def test_an_empty_window_has_no_share() -> None:
    sub = np.zeros((4, 5, 3), np.uint8)
    assert math.isnan(_changed_share(sub, 0, 5, np.zeros((4, 0, 3), np.int16)))


def test_a_piece_whose_pixels_stayed_is_kept_and_one_that_moved_is_not() -> None:
    rng = np.random.default_rng(3)
    sub = rng.integers(0, 200, (40, 70, 3), dtype=np.uint8)
    mem = FrameMemory(stride=3)
    a, b = object(), object()
    outline_a = np.array([[30.0, 30.0], [60.0, 60.0]])
    outline_b = np.array([[120.0, 45.0], [150.0, 75.0]])
    mem.remember(sub, [(a, outline_a), (b, outline_b)], None)
    now = sub.copy()
    win = mem.window(sub.shape, outline_b)
    now[win] = 255 - now[win]  # b's pixels all changed
    kept, _ = mem.unchanged(now, np.zeros(sub.shape[:2], bool))
    assert kept == [a]
