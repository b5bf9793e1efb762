"""The stage timer of ``bench_stages`` counts each wrapped call and puts the originals back."""

from __future__ import annotations

import pytest

import vision.median
from benchmarks.bench_stages import STAGES, timed


def test_timed_counts_calls_and_restores() -> None:
    original = vision.median.median_network
    stages = (("vision.median", "", "median_network", "network"),)
    with timed(stages) as (secs, calls):
        assert vision.median.median_network is not original
        vision.median.median_network(5)
        vision.median.median_network(6)
        with pytest.raises(ValueError):
            vision.median.median_network(0)  # a call that raises is counted too
    assert calls["network"] == 3
    assert secs["network"] > 0.0
    assert vision.median.median_network is original


def test_every_stage_names_a_callable() -> None:
    import importlib

    for mod_name, owner, attr, label in STAGES:
        mod = importlib.import_module(mod_name)
        assert callable(getattr(getattr(mod, owner) if owner else mod, attr)), label
