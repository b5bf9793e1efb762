"""The per-pixel median by a sorting network (:mod:`vision.median`) is numpy's, exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.median import median_network, median_of_frames


@pytest.mark.parametrize("n", range(1, 28))
def test_median_of_uint8_frames_is_numpys(n: int) -> None:
    rng = np.random.default_rng(n)
    cubes = [
        rng.integers(0, 256, (n, 9, 13, 3), dtype=np.uint8),  # non-square, colour
        rng.integers(120, 123, (n, 5, 7), dtype=np.uint8),  # many ties
        rng.choice(np.array([0, 255], np.uint8), (n, 4, 6)),  # the extremes only
    ]
    for cube in cubes:
        got = median_of_frames(cube)
        assert got.dtype == np.float64
        assert np.array_equal(got, np.median(cube, axis=0))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 25), st.integers(0, 2**32 - 1))
def test_network_sorts_the_middle_whatever_the_order(n: int, seed: int) -> None:
    """Every order of the same values gives the same median (the network's middle wires)."""
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 256, n).astype(np.uint8)
    cube = np.stack([rng.permutation(values) for _ in range(8)], axis=1)  # (n, 8)
    assert np.all(median_of_frames(cube) == np.median(values))


def test_other_dtypes_and_bad_counts() -> None:
    cube = np.random.default_rng(1).normal(0.0, 1.0, (6, 4, 5)).astype(np.float32)
    assert np.array_equal(median_of_frames(cube), np.median(cube, axis=0))
    with pytest.raises(ValueError, match="n=0"):
        median_network(0)
